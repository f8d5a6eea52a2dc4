"""Run inside the QGIS desktop (`qgis --code`): the census overlay and the report as a user makes
them in the dock. GPT-3.5's infant mortality ratings with the countries' truth are opened in the
Results tab; the bundled countries are added from the Area tab; the Overlay tab aggregates,
correlates and finds hot spots with button clicks; the Results tab's Report button writes the
PDF. QGIS then quits with the report's layout and layers in the project. Facts and screenshots go
to $GEOBIAS_DESKTOP_OUT.
"""

import os
import sys

from qgis.core import QgsApplication, QgsProject
from qgis.PyQt.QtCore import QTimer
from qgis.utils import iface, plugins

from geobias.qt_compat import QAction

sys.path.insert(0, os.path.join(os.environ["GEOBIAS_ROOT"], "test", "desktop"))
from driver import Recorder, choose_in_combo, click, pump, wait_until  # noqa: E402

OUT = os.environ["GEOBIAS_DESKTOP_OUT"]
SCREEN = (1600, 1000)  # launch.SCREEN
rec = Recorder(OUT, timeout=float(os.environ.get("GEOBIAS_DESKTOP_TIMEOUT", "600")))


def dock():
    return plugins["geobias"].dock


def open_ratings():
    """The paper's ratings with truth (made by the toolbox algorithms), opened in Results."""
    import processing
    from geobias.paths import DATA, REFERENCE

    iface.mainWindow().setGeometry(0, 0, SCREEN[0], SCREEN[1])
    folder = os.path.join(OUT, "data")
    os.makedirs(folder, exist_ok=True)
    QgsProject.instance().setFileName(os.path.join(folder, "project.qgz"))
    csv = os.path.join(REFERENCE, "gpt_3_5_turbo_0613_Infant_Mortality_Rate_world_prompts.csv")
    rated = processing.run("geobias:importratings", {
        "INPUT": csv, "MODEL": "gpt-3.5-turbo-0613", "TOPIC": "Infant Mortality Rate",
        "OUTPUT": os.path.join(folder, "rated.gpkg")})["OUTPUT"]  # fmt: skip
    countries = os.path.join(DATA, "world_countries.gpkg") + "|layername=countries"
    truth = processing.run("geobias:samplegroundtruth", {
        "INPUT": rated, "POLYGONS": countries, "POLYGON_FIELD": "infant_mortality",
        "OUTPUT": os.path.join(folder, "truth_imr.gpkg")})["OUTPUT"]  # fmt: skip
    action = iface.mainWindow().findChild(QAction, "GeoBiasShowDock")
    action.trigger()
    wait_until(lambda: dock().isVisible(), 10, "the dock to show")
    d = dock()
    task = d.results.open_files([truth.split("|")[0]])
    assert task is not None, "opening the results did not start"
    wait_until(lambda: d.panel.task is not task, 120, "the results to open")  # a background job
    assert len(d.results.rated_layers) == 1
    d.show_tab(d.area)
    click(d.area.countriesButton)
    pump(1)
    rec.facts["layers"] = [lyr.name() for lyr in QgsProject.instance().mapLayers().values()]


def overlay():
    d = dock()
    tab = d.overlay
    d.show_tab(tab)
    pump(0.5)
    choose_in_combo(tab.pointsCombo, "Infant Mortality Rate · gpt-3.5-turbo")
    choose_in_combo(tab.unitsCombo, next(
        tab.unitsCombo.itemText(i) for i in range(tab.unitsCombo.count())
        if "ountries" in tab.unitsCombo.itemText(i)))  # fmt: skip
    click(tab.aggregateButton)
    wait_until(lambda: tab.corrLayerCombo.currentLayer() is not None and "mean rank error" in
               tab.corrLayerCombo.currentText(), 120, "the aggregated units")  # fmt: skip
    units = tab.corrLayerCombo.currentLayer()
    rec.facts["units"] = {"name": units.name(), "renderer": units.renderer().type(),
                          "features": units.featureCount()}  # fmt: skip
    tab.correlateButton.setFocus()
    click(tab.correlateButton)
    wait_until(lambda: tab.corrTable.rowCount() > 0, 120, "the correlation table")
    rows = []
    for r in range(tab.corrTable.rowCount()):
        rows.append([tab.corrTable.item(r, c).text() for c in range(4)])
    rec.facts["correlations"] = rows
    rec.facts["note"] = tab.noteLabel.text()
    rec.facts["scatter"] = {"x": tab.scatter.xlabel, "y": tab.scatter.ylabel,
                            "points": int(sum(1 for v in tab.scatter.x if v == v))}  # fmt: skip
    rec.shot("20_correlate", d)
    click(tab.hotspotsButton)
    wait_until(lambda: "Moran" in tab.moranLabel.text(), 120, "the hot spots")
    rec.facts["moran"] = tab.moranLabel.text()
    hot = [lyr for lyr in QgsProject.instance().mapLayers().values()
           if lyr.name().startswith("Hot spots of")]  # fmt: skip
    rec.facts["hot_layers"] = [(lyr.name(), lyr.renderer().type()) for lyr in hot]
    rec.shot("21_hotspots")


def report():
    d = dock()
    d.show_tab(d.results)
    pump(0.5)
    d.results.metricsView.selectRow(0)
    results = []
    original = d.results.report_written
    d.results.report_written = lambda result: (results.append(result), original(result))
    click(d.results.reportButton)
    wait_until(lambda: results, 300, "the report")
    (result,) = results
    layout = QgsProject.instance().layoutManager().layoutByName(result["LAYOUT"])
    # The layout's items are made one per event-loop turn after the job: the maps come first.
    wait_until(lambda: len([i for i in layout.items()
                            if i.__class__.__name__ == "QgsLayoutItemMap"]) == 3, 10,
               "the report's maps")  # fmt: skip
    pump(1)
    maps = [i for i in layout.items() if i.__class__.__name__ == "QgsLayoutItemMap"]
    rec.facts["report"] = {
        "pdf": result["OUTPUT"], "exists": os.path.isfile(result["OUTPUT"]),
        "size": os.path.getsize(result["OUTPUT"]), "pages": result["PAGES"],
        "layout_pages": layout.pageCollection().pageCount(),
        "map_layers_in_project": all(
            QgsProject.instance().mapLayer(lyr.id()) is not None
            for m in maps for lyr in m.layers()),
    }  # fmt: skip
    rec.shot("22_report")
    # Save the project with the layout: QGIS quits afterwards with it open.
    rec.facts["saved"] = QgsProject.instance().write()


def main():
    try:
        for name, fn in (("open_ratings", open_ratings), ("overlay", overlay),
                         ("report", report)):  # fmt: skip
            if not rec.step(name, fn):
                break
    finally:
        rec.finish(0)


QTimer.singleShot(1000, main)
QgsApplication.instance()  # keep the import used: the scenario runs in QGIS's application
