"""Run inside the QGIS desktop (`qgis --code`): a working day kept across Save As, quit and
reopen.

Part one ($GEOBIAS_DAY_PART=save): draw a polygon over Africa, survey it with the embedded model,
write the report, aggregate to the countries, correlate and map hot spots, compare with Use
selected layers (the report's copies among them), run HERB on Oceania's countries (one
descriptor topic); the outputs go to the GeoBias output folder (the project is not saved). Save
the project: the dock offers to move the outputs next to it (Yes). A toolbox output in
Processing's temporary folder is added; closing QGIS says so (Cancel, then Keep them) and QGIS
quits. Part two ($GEOBIAS_DAY_PART=reopen): open the project again, look at every GeoBias layer
and the runs the Results, Compare and Regional bias tabs list, then a second cycle: a world
survey of another topic, saved, and QGIS quits. Part three ($GEOBIAS_DAY_PART=again): reopen
once more; both days' layers are there. Facts and screenshots go to $GEOBIAS_DESKTOP_OUT; the
project is $GEOBIAS_DAY_PROJECT.
"""

import os
import sys
import time

from qgis.core import QgsApplication, QgsProject, QgsRectangle, QgsSettings, QgsVectorLayer
from qgis.PyQt.QtCore import Qt, QTimer
from qgis.PyQt.QtWidgets import QApplication, QMessageBox
from qgis.utils import iface, plugins

from geobias.qt_compat import QAction

sys.path.insert(0, os.path.join(os.environ["GEOBIAS_ROOT"], "test", "desktop"))
from driver import DialogAnswerer, Recorder, click, click_map, pump, wait_until  # noqa: E402

OUT = os.environ["GEOBIAS_DESKTOP_OUT"]
PART = os.environ["GEOBIAS_DAY_PART"]
PROJECT = os.environ["GEOBIAS_DAY_PROJECT"]
OUTPUT_FOLDER = os.environ["GEOBIAS_DAY_OUTPUTS"]
TOPIC = "Infant Mortality Rate"
# Lon/lat vertices of the polygon drawn over Africa.
AFRICA = [(-17.0, -34.0), (51.0, -34.0), (51.0, 12.0), (33.0, 31.0), (-17.0, 31.0)]
SCREEN = (1600, 1000)
RUN_TIMEOUT = float(os.environ.get("GEOBIAS_DESKTOP_RUN_TIMEOUT", "600"))
rec = Recorder(OUT, timeout=float(os.environ.get("GEOBIAS_DESKTOP_TIMEOUT", "2400")))
state = {}


def dock():
    return plugins["geobias"].dock


def geobias_layers():
    from geobias.ui.outputs import is_geobias_layer

    return [lyr for lyr in QgsProject.instance().mapLayers().values() if is_geobias_layer(lyr)]


def layer_facts():
    from geobias.ui.outputs import layer_path

    out = []
    for lyr in geobias_layers():
        r = lyr.renderer() if isinstance(lyr, QgsVectorLayer) else None
        out.append({
            "name": lyr.name(), "valid": lyr.isValid(), "path": layer_path(lyr),
            "features": lyr.featureCount() if lyr.isValid() else -1,
            "renderer": r.type() if r else "",
            "field": r.classAttribute() if hasattr(r, "classAttribute") else "",
            "styles": sorted(lyr.styleManager().styles()),
        })  # fmt: skip
    return sorted(out, key=lambda f: f["name"])


def show_dock():
    iface.mainWindow().setGeometry(0, 0, SCREEN[0], SCREEN[1])
    action = iface.mainWindow().findChild(QAction, "GeoBiasShowDock")
    # The action toggles the dock; a later session of the same profile may open it by itself.
    pump(0.5)
    current = getattr(plugins["geobias"], "dock", None)
    if current is None or not current.isVisible():
        action.trigger()
    wait_until(lambda: dock() is not None and dock().isVisible(), 10, "the dock to show")


# ---------------------------------------------------------------------------- part one
def start():
    # The GeoBias output folder of the options (Options → GeoBias), for a project not saved.
    QgsSettings().setValue("geobias/output_folder", OUTPUT_FOLDER)
    show_dock()
    area = dock().area
    dock().show_tab(area)
    click(area.countriesButton)
    pump(0.5)
    iface.mapCanvas().setExtent(QgsRectangle(-40, -45, 75, 45))
    iface.mapCanvas().refresh()
    pump(1.0)


def options_page():
    """The Options page's Outputs box, as the user sees it."""
    from geobias.ui.options import GeoBiasOptionsPage

    page = GeoBiasOptionsPage()
    page.resize(900, 640)
    page.show()
    pump(0.5)
    rec.facts["options_folder"] = page.outputFolderEdit.text()
    rec.shot("00_options", page)
    page.close()
    page.deleteLater()


def draw_africa():
    ui = dock().area
    click(ui.drawButton)
    for lon, lat in AFRICA:
        click_map(lon, lat)
    lon, lat = AFRICA[-1]
    click_map(lon - 0.5, lat, Qt.MouseButton.RightButton)
    wait_until(lambda: ui.drawn is not None, 5, "the drawn polygon")
    ui.nPointsSpin.setValue(int(os.environ.get("GEOBIAS_DAY_POINTS", "30")))
    ui.methodCombo.setCurrentIndex(ui.methodCombo.findData("uniform"))
    rec.facts["area_label"] = ui.areaLabel.text()
    rec.shot("01_africa")


def survey():
    from geobias.ui.settings import EMBEDDED_NAME

    d = dock()
    ui = d.survey
    d.show_tab(ui)
    ui.set_checked_topics([TOPIC])
    ui.refresh_models({EMBEDDED_NAME})
    pump(0.3)
    d.ui.nameEdit.setText("Africa IMR")
    with DialogAnswerer(rec, "02_confirm"):
        click(d.panel.runButton)
        wait_until(lambda: d.panel.task is not None, 120, "the survey to start")
        wait_until(lambda: d.panel.task is None, RUN_TIMEOUT, "the survey")
    state["folder"] = d.plan.folder
    rec.facts["survey_folder"] = d.plan.folder
    rec.facts["metrics_rows"] = d.results.metrics.rowCount()
    rec.shot("03_results")


def report():
    d = dock()
    d.show_tab(d.results)
    d.results.metricsView.selectRow(0)
    results = []
    original = d.results.report_written
    d.results.report_written = lambda result: (results.append(result), original(result))
    click(d.results.reportButton)
    wait_until(lambda: results, 300, "the report")
    rec.facts["report_pdf"] = results[0]["OUTPUT"]
    rec.facts["report_pages"] = results[0]["PAGES"]
    rec.shot("04_report")


def aggregate():
    d = dock()
    ov = d.overlay
    d.show_tab(ov)
    rated = [lyr for lyr in geobias_layers() if lyr.fields().lookupField("score") >= 0]
    ov.pointsCombo.setLayer(rated[0])
    countries = QgsProject.instance().mapLayersByName("Countries (GeoBias)")[0]
    ov.unitsCombo.setLayer(countries)
    ov.minPointsSpin.setValue(1)
    before = len(QgsProject.instance().mapLayers())
    click(ov.aggregateButton)
    wait_until(lambda: len(QgsProject.instance().mapLayers()) > before, 120, "the units")
    pump(0.5)
    rec.shot("05_units")


def correlate_and_hotspots():
    """Overlay: correlate the units' mean rank error with a census field, then hot spots."""
    d = dock()
    ov = d.overlay
    d.show_tab(ov)
    wait_until(lambda: ov.corrLayerCombo.currentLayer() is not None, 30, "the units layer")
    click(ov.correlateButton)
    wait_until(lambda: ov.corrTable.rowCount() > 0 or ov.noteLabel.text(), 180,
               "the correlation table")  # fmt: skip
    rec.facts["correlate_rows"] = ov.corrTable.rowCount()
    rec.facts["correlate_note"] = ov.noteLabel.text()
    rec.shot("05b_correlate")
    click(ov.hotspotsButton)
    # (A clear stop, e.g. too few units for the neighbours, ends the wait too: the test reads it.)
    wait_until(lambda: "Moran" in ov.moranLabel.text() or "Stopped" in
               d.panel.progressLabel.text(), 300, "the hot spots")  # fmt: skip
    rec.facts["hotspots_panel"] = d.panel.progressLabel.text()
    rec.facts["moran"] = ov.moranLabel.text()
    rec.shot("05c_hotspots")


def compare():
    """Compare: the rated layers selected in the Layers panel, the report's copies among them
    (they must not count), then Compare."""
    d = dock()
    tab = d.compare
    d.show_tab(tab)
    from qgis.PyQt.QtCore import QItemSelectionModel

    view = iface.layerTreeView()
    view.clearSelection()
    for node in QgsProject.instance().layerTreeRoot().findLayers():
        lyr = node.layer()
        if isinstance(lyr, QgsVectorLayer) and lyr.fields().lookupField("score") >= 0:
            # The view's own node2index maps through its proxy model (QGIS 3.18+).
            index = view.node2index(node)
            view.selectionModel().select(
                index, QItemSelectionModel.SelectionFlag.Select
                | QItemSelectionModel.SelectionFlag.Rows,
            )  # fmt: skip
    rec.facts["compare_selected"] = [lyr.name() for lyr in view.selectedLayers()]
    click(tab.layersButton)
    pump(0.3)
    rec.facts["compare_models"] = tab.checked(tab.modelsList)
    click(tab.compareButton)
    wait_until(lambda: tab.result is not None or tab.notice.text(), 300, "the comparison")
    wait_until(lambda: d.panel.task is None, 120, "the comparison's layers")
    rec.facts["compare_notice"] = tab.notice.text()
    rec.facts["compare_rows"] = tab.pivotTable.rowCount()
    rec.shot("05d_compare")


def herb():
    """Regional bias: Oceania's countries on one descriptor topic with the embedded model."""
    from qgis.PyQt.QtTest import QTest

    d = dock()
    ui = d.herb
    d.show_tab(ui)
    QTest.keyClicks(ui.continentsEdit, "Oceania")
    ui.citiesSpin.setValue(0)  # stop at countries
    QTest.keyClicks(ui.topicsEdit, "morality")
    pump(0.2)
    panel = ui.panel
    with DialogAnswerer(rec, "05e_herb_confirm") as dialog:
        click(panel.runButton)
        wait_until(lambda: dialog.texts or "Stopped" in panel.progressLabel.text(), RUN_TIMEOUT,
                   "the HERB estimate")  # fmt: skip
        wait_until(lambda: panel.task is None, RUN_TIMEOUT, "HERB")
    rec.facts["herb_confirm"] = dialog.texts
    rec.facts["herb_progress"] = panel.progressLabel.text()
    rec.facts["herb_rows"] = ui.regionTable.rowCount()
    rec.shot("05f_herb")


def save_as():
    """Save the project (as Save As does): the dock asks to move its outputs; Yes."""
    rec.facts["before_save"] = layer_facts()
    with DialogAnswerer(rec, "06_move_question") as dialog:
        assert QgsProject.instance().write(PROJECT)
        wait_until(lambda: dialog.texts, 20, "the offer to move the outputs")
        pump(1.0)
    rec.facts["move_question"] = dialog.texts
    rec.facts["after_save"] = layer_facts()
    rec.facts["old_folder_exists"] = os.path.exists(state["folder"])
    rec.shot("07_saved")


def answer(buttons, shot):
    """Press, in each message box that opens, the next of `buttons` (their texts), with a
    screenshot of each."""
    texts, seen = [], set()

    def poll():
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox) or id(box) in seen or len(texts) >= len(buttons):
            return
        seen.add(id(box))
        texts.append(box.text())
        rec.shot(f"{shot}_{len(texts)}", box)
        want = buttons[len(texts) - 1]
        (button,) = [b for b in box.buttons() if b.text().replace("&", "") == want]
        button.click()

    timer = QTimer()
    timer.timeout.connect(poll)
    timer.start(100)
    return timer, texts


def temporary_output_and_quit():
    """A toolbox output in Processing's temporary folder; closing QGIS warns: Cancel keeps
    QGIS open, Keep them copies it beside the project and QGIS quits."""
    import processing

    rated = [lyr for lyr in geobias_layers() if lyr.fields().lookupField("score") >= 0][0]
    out = processing.run("native:savefeatures", {"INPUT": rated, "OUTPUT": "TEMPORARY_OUTPUT"})
    layer = out["OUTPUT"]
    if isinstance(layer, str):
        layer = QgsVectorLayer(layer, "toolbox copy", "ogr")
    layer.setName("toolbox copy")
    QgsProject.instance().addMapLayer(layer)
    rec.facts["toolbox_copy"] = layer.source()
    timer, texts = answer(["Cancel"], "08_close_warning")
    iface.mainWindow().close()
    wait_until(lambda: texts, 10, "the close warning")
    timer.stop()
    pump(0.5)
    rec.facts["close_warning"] = texts
    rec.facts["still_open"] = iface.mainWindow().isVisible()
    rec.save()
    # The last step: keep the toolbox copy and quit. (QGIS then asks on its own about layers
    # under /tmp: the test profile's bundled countries are there; a user's profile is not.)
    state["keep"] = answer(["Keep them", "Yes"], "09_keep")
    rec.result["done"] = True
    rec.save()
    iface.mainWindow().close()


# ---------------------------------------------------------------------------- part two
def reopen():
    show_dock()
    t0 = time.monotonic()
    iface.addProject(PROJECT)
    pump(2.0)
    rec.facts["reopen_seconds"] = round(time.monotonic() - t0, 1)
    rec.facts["layers"] = layer_facts()
    rec.shot("10_reopened")


def past_runs():
    d = dock()
    out = {}
    for tab in (d.results, d.compare, d.herb):
        combo = tab.runsCombo
        out[type(tab).__name__] = [combo.itemText(i) for i in range(combo.count())]
    rec.facts["runs"] = out
    d.show_tab(d.results)
    d.results.runsCombo.showPopup()
    pump(0.5)
    rec.shot("11_results_runs", d.results.runsCombo.view().window())  # the open list
    d.results.runsCombo.hidePopup()
    d.results.metrics.set_rows([])
    d.results.runsCombo.activated.emit(1)
    pump(0.5)
    rec.facts["results_rows"] = d.results.metrics.rowCount()
    rec.shot("12_results_picked")


def second_cycle():
    """After reopening: a world survey of another topic; everything of the first day stays."""
    from geobias.ui.settings import EMBEDDED_NAME

    d = dock()
    before = {f["name"] for f in layer_facts()}
    area = d.area
    d.show_tab(area)
    area.worldRadio.setChecked(True)
    area.nPointsSpin.setValue(int(os.environ.get("GEOBIAS_DAY_POINTS", "30")) // 2)
    area.methodCombo.setCurrentIndex(area.methodCombo.findData("uniform"))
    ui = d.survey
    d.show_tab(ui)
    ui.set_checked_topics(["Population Density"])
    ui.refresh_models({EMBEDDED_NAME})
    d.ui.nameEdit.setText("World density")
    with DialogAnswerer(rec, "13_second_confirm"):
        click(d.panel.runButton)
        wait_until(lambda: d.panel.task is not None, 120, "the second survey to start")
        wait_until(lambda: d.panel.task is None, RUN_TIMEOUT, "the second survey")
    after = layer_facts()
    rec.facts["second_new"] = sorted({f["name"] for f in after} - before)
    rec.facts["second_kept"] = sorted(before - {f["name"] for f in after})
    rec.facts["second_folder"] = d.plan.folder if d.plan is not None else ""
    rec.shot("14_second_day")
    assert QgsProject.instance().write()
    pump(1.0)
    rec.facts["second_layers"] = layer_facts()
    rec.result["done"] = True
    rec.save()
    # QGIS may ask on its own about layers under /tmp (the test profile's): answer, noted.
    state["quit_questions"] = answer_any(("Yes", "Discard", "Close"), "15_quit")
    iface.mainWindow().close()


def answer_any(choices, shot):
    """Press, in each message box that opens, the first button whose text is in `choices`."""
    texts, seen = [], set()

    def poll():
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox) or id(box) in seen:
            return
        seen.add(id(box))
        texts.append(box.text())
        rec.shot(f"{shot}_{len(texts)}", box)
        for want in choices:
            for button in box.buttons():
                if button.text().replace("&", "") == want:
                    button.click()
                    return

    timer = QTimer()
    timer.timeout.connect(poll)
    timer.start(100)
    return timer, texts


def main():
    steps = {
        "save": (("start", start), ("options_page", options_page), ("draw_africa", draw_africa),
                 ("survey", survey), ("report", report), ("aggregate", aggregate),
                 ("correlate_and_hotspots", correlate_and_hotspots), ("compare", compare),
                 ("herb", herb), ("save_as", save_as), ("quit", temporary_output_and_quit)),
        "reopen": (("reopen", reopen), ("past_runs", past_runs),
                   ("second_cycle", second_cycle)),
        "again": (("reopen", reopen), ("past_runs", past_runs)),
    }[PART]  # fmt: skip
    for name, fn in steps:
        if not rec.step(name, fn):
            break
    if PART == "again" or not rec.result["steps"][-1]["ok"]:
        rec.finish(0)


QTimer.singleShot(1000, main)
QgsApplication.instance()
