"""Run inside the QGIS desktop (`qgis --code`): a first survey as a user makes it in the dock.

Draw a polygon on the map, preview the points, tick a topic and the embedded model, set the
ground truth, Run (the confirmation is answered Yes), read the styled layers, the metrics and
the plot, inspect a point; cancel a second survey mid-way and resume it; a whole-world survey
and one over selected features of a layer. Facts and screenshots go to $GEOBIAS_DESKTOP_OUT.
"""

import os
import sys
import time

from qgis.core import (
    QgsApplication,
    QgsGeometry,
    QgsGraduatedSymbolRenderer,
    QgsProject,
    QgsRectangle,
)
from qgis.PyQt.QtCore import Qt, QTimer, QUrl
from qgis.PyQt.QtWidgets import QMessageBox
from qgis.utils import iface, plugins

from geobias.qt_compat import QAction

sys.path.insert(0, os.path.join(os.environ["GEOBIAS_ROOT"], "test", "desktop"))
from driver import (  # noqa: E402
    DialogAnswerer,
    Recorder,
    children_running,
    choose_in_combo,
    click,
    click_map,
    pump,
    wait_until,
)

OUT = os.environ["GEOBIAS_DESKTOP_OUT"]
TOPIC = "Infant Mortality Rate"
# Lon/lat vertices of the drawn study area: West Africa to central Europe, many countries.
POLYGON = [(-12.0, 5.0), (30.0, 5.0), (30.0, 50.0), (-5.0, 50.0)]
SCREEN = (1600, 1000)  # launch.SCREEN
# A loaded machine; Gemma 3 270M, the default model, takes about 1.5x SmolLM2's time per request.
RUN_TIMEOUT = float(os.environ.get("GEOBIAS_DESKTOP_RUN_TIMEOUT", "600"))
rec = Recorder(OUT, timeout=float(os.environ.get("GEOBIAS_DESKTOP_TIMEOUT", "1700")))
state = {}


def dock():
    return plugins["geobias"].dock


def show_dock():
    """Open the dock with the plugin's toolbar button; add the bundled countries from it."""
    import geobias

    # No window manager on the virtual screen: give the main window the whole screen.
    iface.mainWindow().setGeometry(0, 0, SCREEN[0], SCREEN[1])
    rec.facts["plugin_file"] = os.path.realpath(geobias.__file__)
    action = iface.mainWindow().findChild(QAction, "GeoBiasShowDock")
    assert action is not None, "the GeoBias toolbar button is missing"
    action.trigger()
    wait_until(lambda: dock().isVisible(), 10, "the dock to show")
    area = dock().area
    dock().show_tab(area)
    click(area.countriesButton)
    layers = list(QgsProject.instance().mapLayers().values())
    countries = [lyr for lyr in layers if lyr.name() == "Countries (GeoBias)"]
    assert len(countries) == 1, [lyr.name() for lyr in layers]
    state["countries"] = countries[0]
    pump(0.5)  # the first layer zooms the map to its extent: zoom in after that
    iface.mapCanvas().setExtent(QgsRectangle(-30, -5, 50, 60))
    iface.mapCanvas().refresh()
    pump(1.0)
    rec.facts["window"] = [iface.mainWindow().width(), iface.mainWindow().height()]


def dock_fits_and_help():
    """Every tab: the dock's minimum height and the main window within the screen; the Help
    button opens the user guide shipped in the plugin (caught by a URL handler, no browser)."""
    from qgis.PyQt.QtCore import QObject, pyqtSlot
    from qgis.PyQt.QtGui import QDesktopServices

    d = dock()
    sizes = []
    for i in range(d.ui.tabs.count()):
        d.ui.tabs.setCurrentIndex(i)
        pump(0.3)
        # A tab with a run of its own (Regional bias) hides the survey's Run and shows its own.
        run = getattr(d.tab_widgets()[i], "panel", d.panel).runButton
        sizes.append(
            {
                "tab": d.ui.tabs.tabText(i),
                "dock_min_height": d.minimumSizeHint().height(),
                "window_height": iface.mainWindow().height(),
                "run_visible": run.isVisible()
                and run.mapTo(iface.mainWindow(), run.rect().bottomLeft()).y()
                <= iface.mainWindow().height(),
            }
        )
    rec.facts["sizes"] = sizes

    class Catcher(QObject):
        urls = []

        @pyqtSlot(QUrl)
        def open(self, url):
            self.urls.append(url.toLocalFile())

    catcher = Catcher()
    QDesktopServices.setUrlHandler("file", catcher, "open")
    try:
        click(d.ui.helpButton)
        pump(0.3)
    finally:
        QDesktopServices.unsetUrlHandler("file")
    rec.facts["help"] = [(u, os.path.isfile(u), os.path.getsize(u) if os.path.isfile(u) else 0)
                         for u in catcher.urls]  # fmt: skip
    d.show_tab(d.area)


def draw_area():
    """Press "Draw polygon", click four vertices on the map, right click to finish."""
    ui = dock().area
    dock().show_tab(ui)
    click(ui.drawButton)
    assert ui.drawButton.isChecked(), "the draw tool did not start"
    for lon, lat in POLYGON:
        click_map(lon, lat)
    rec.shot("01_drawing")
    lon, lat = POLYGON[-1]
    click_map(lon + 0.5, lat, Qt.MouseButton.RightButton)  # finishes without adding a vertex
    wait_until(lambda: ui.drawn is not None, 5, "the drawn polygon")
    drawn = ui.drawn
    corners = drawn.simplify(1e-9)
    expected = QgsGeometry.fromPolygonXY([[_pt(x, y) for x, y in POLYGON + POLYGON[:1]]])
    rec.facts["draw"] = {
        # The area reaches lon/lat densified (lonlat_region): its corners are the clicked ones.
        "vertices": corner_count(corners.asPolygon()[0]) if not corners.isMultipart() else -1,
        "area_deg2": drawn.area(),
        "expected_area_deg2": expected.area(),
        "label": ui.areaLabel.text(),
        "draw_radio": ui.drawRadio.isChecked(),
        "tool_released": not ui.drawButton.isChecked(),
    }


def corner_count(ring):
    """The corners of a closed ring: points where it turns. Simplifying keeps a ring's first
    point even when it lies on an edge (the densified ring may start mid-edge), so count
    cyclically."""
    pts = ring[:-1]
    n = len(pts)

    def turn(a, b, c):
        return abs((b.x() - a.x()) * (c.y() - b.y()) - (b.y() - a.y()) * (c.x() - b.x()))

    return sum(turn(pts[i - 1], pts[i], pts[(i + 1) % n]) > 1e-6 for i in range(n))


def _pt(x, y):
    from qgis.core import QgsPointXY

    return QgsPointXY(x, y)


def preview(n, method="population", seed=1, shot=None):
    ui = dock().area
    ui.nPointsSpin.setValue(n)
    ui.methodCombo.setCurrentIndex(ui.methodCombo.findData(method))
    ui.seedSpin.setValue(seed)
    click(ui.previewButton)
    # A background job on the run panel: an earlier preview's points stay until it ends.
    panel = dock().panel
    wait_until(lambda: panel.task is None and ui.preview_layer is not None, 60,
               "the preview points")  # fmt: skip
    layer = ui.preview_layer
    area = ui.area_geometry()
    inside = sum(area.contains(f.geometry()) for f in layer.getFeatures())
    rec.facts.setdefault("previews", []).append(
        {
            "points": layer.featureCount(),
            "inside": inside,
            "band_points": ui.points_band.numberOfVertices(),
            "label": ui.areaLabel.text(),
        }
    )
    if shot:
        rec.shot(shot)


def choose_survey(topic=TOPIC, truth=True):
    """Survey tab: only `topic` ticked, only the embedded model ticked, the ground truth."""
    d = dock()
    ui = d.survey
    d.show_tab(ui)
    for i in range(ui.topicsTree.topLevelItemCount()):
        item = ui.topicsTree.topLevelItem(i)
        want = item.data(0, Qt.ItemDataRole.UserRole) == topic
        item.setCheckState(0, Qt.CheckState.Checked if want else Qt.CheckState.Unchecked)
    from geobias.ui.settings import EMBEDDED_NAME

    found = False
    for i in range(ui.modelsList.count()):
        item = ui.modelsList.item(i)
        want = item.data(Qt.ItemDataRole.UserRole) == EMBEDDED_NAME
        found = found or want
        item.setCheckState(Qt.CheckState.Checked if want else Qt.CheckState.Unchecked)
    assert found, "the embedded model is not offered in the dock"
    pump(0.2)
    # The bundled countries' infant mortality is proposed as the topic's ground truth.
    table = ui.truthTable
    # Kept from the first call only: later calls follow a "none" the world step chose.
    rec.facts.setdefault("truth_table", [
        [table.item(r, 0).text(), table.cellWidget(r, 1).currentText(),
         table.cellWidget(r, 2).currentField()]
        for r in range(table.rowCount())
    ])  # fmt: skip
    if not truth:  # "none": this topic gets no rank errors
        choose_in_combo(table.cellWidget(0, 1), "none")
    elif table.cellWidget(0, 1).currentLayer() is None:
        choose_in_combo(table.cellWidget(0, 1), state["countries"].name())
    assert ui.checked_topics() == [topic], ui.checked_topics()
    assert ui.checked_models() == [EMBEDDED_NAME], ui.checked_models()
    rec.shot("02b_survey")


def run_survey(name, shot=None, cancel_after=None):
    """Press Run, answer the confirmation Yes, wait for the end (or cancel after n answers).

    Returns the confirmation texts and the run's facts.
    """
    d = dock()
    d.ui.nameEdit.setText(name)
    ui = d.panel
    seen = []  # the progress texts shown during the run, with the seconds since Run

    def watch():
        text = f"{ui.progressBar.value()}% {ui.progressLabel.text()}"
        if not seen or seen[-1][1] != text:
            seen.append((round(time.monotonic() - t0, 1), text))
        return d.panel.task is None

    t0 = time.monotonic()
    with DialogAnswerer(rec, shot) as dialog:
        click(ui.runButton)
        # A first job samples the points and counts the requests; then the confirmation, then
        # the survey's own task (d.plan).
        wait_until(lambda: d.plan is not None or "Stopped" in ui.progressLabel.text(), 120,
                   "the survey to start")  # fmt: skip
        wait_until(lambda: d.panel.task is not None or d.plan is not None, 30,
                   "the task after the confirmation")  # fmt: skip
        plan = d.plan
        if cancel_after is not None:
            answered = lambda: _answers_done(ui.progressLabel.text()) >= cancel_after  # noqa: E731
            wait_until(lambda: answered() or d.panel.task is None, RUN_TIMEOUT, "the first answers")
            assert d.panel.task is not None, "the survey ended before it could be cancelled"
            click(ui.cancelButton)
        wait_until(watch, RUN_TIMEOUT, f"the survey {name!r}")
    watch()
    est = plan.estimate
    return {
        "confirm": dialog.texts,
        "requests": est.n_requests if est else None,
        "cached": est.n_cached if est else None,
        "progress": ui.progressBar.value(),
        "progress_text": ui.progressLabel.text(),
        "run_button": ui.runButton.text(),
        "folder": plan.folder,
        "seen": seen,
    }


def _plain(v):
    """A JSON value: QGIS's NULL (a null QVariant) becomes None."""
    if v is None or (hasattr(v, "isNull") and v.isNull()):
        return None
    return v if isinstance(v, (str, int, float)) else str(v)


def _number(v):
    """True for a finite number (not NULL, not NaN)."""
    try:
        return float(v) == float(v)
    except (TypeError, ValueError):
        return False


def _answers_done(text):
    """n from the rating step's progress text "n/N requests, …" (0 before it starts)."""
    import re

    m = re.search(r"(\d+)/(\d+)", text)
    return int(m.group(1)) if m else 0


def results_facts(name):
    """The group of layers, their styles, the metrics table and the plot after a run."""
    d = dock()
    group = QgsProject.instance().layerTreeRoot().findGroup(f"GeoBias — {name}")
    assert group is not None, f"no layer group for {name}"
    layers = [n.layer() for n in group.findLayers()]
    rated = [lyr for lyr in layers if lyr.isSpatial() and lyr.fields().lookupField("score") >= 0]
    out = {"layers": [lyr.name() for lyr in layers], "rated": []}
    for lyr in rated:
        r = lyr.renderer()
        feats = list(lyr.getFeatures())
        graduated = isinstance(r, QgsGraduatedSymbolRenderer)
        # Keep the list: a range's symbol dies with a temporary copy of the range (segfault).
        ranges = r.ranges() if graduated else []
        symbol = ranges[0].symbol() if ranges else None
        out["rated"].append(
            {
                "legend": [c.label() for c in ranges],
                "panel_legend": panel_legend(lyr),
                "colors": [c.symbol().color().name() for c in ranges],
                "outline": symbol.symbolLayer(0).strokeColor().name() if symbol else "",
                "size_mm": symbol.size() if symbol else 0,
                "title": lyr.metadata().title(),
                "abstract": lyr.metadata().abstract(),
                "name": lyr.name(),
                "features": len(feats),
                "renderer": r.type(),
                "graduated": isinstance(r, QgsGraduatedSymbolRenderer),
                "field": r.classAttribute() if isinstance(r, QgsGraduatedSymbolRenderer) else "",
                "classes": len(r.ranges()) if isinstance(r, QgsGraduatedSymbolRenderer) else 0,
                "styles": lyr.styleManager().styles(),
                "answered": sum(bool(f["answered"]) for f in feats),
                "with_truth": sum(_number(f["truth"]) for f in feats)
                if "truth" in lyr.fields().names()
                else 0,
                "completions": sum(bool(f["completion"]) for f in feats),
                "models": sorted({str(f["model"]) for f in feats}),
                "topics": sorted({str(f["topic"]) for f in feats}),
            }
        )
    out["metrics_rows"] = [{k: _plain(v) for k, v in r.items()} for r in d.results.metrics.rows]
    plot = d.results.plot
    out["plot"] = {
        "points": int(len(plot.rating)),
        "with_truth": int(sum(t == t for t in plot.truth)),
        "rank_errors": int(sum(e == e for e in plot.rank_error)),
        "title": plot.title,
    }
    out["tab"] = d.ui.tabs.currentWidget().widget().objectName()
    state[f"rated_{name}"] = rated
    return out


def first_survey():
    facts = run_survey("first", shot="03_confirm")
    facts.update(results_facts("first"))
    rec.facts["first"] = facts
    iface.mapCanvas().refreshAllLayers()
    rec.shot("04_results")


def mismatch_needs_confirmation():
    """Population density rated against infant mortality: the dock asks; No starts nothing."""
    d = dock()
    ui = d.survey
    d.show_tab(ui)
    choose_survey("Population Density")
    rec.facts["truth_table_density"] = [
        [ui.truthTable.item(0, 0).text(), ui.truthTable.cellWidget(0, 2).currentField()]
    ]
    ui.truthTable.cellWidget(0, 2).setField("infant_mortality")
    with DialogAnswerer(rec, "11_mismatch", button=QMessageBox.StandardButton.No) as dialog:
        click(d.panel.runButton)
        wait_until(lambda: dialog.texts, 10, "the ground-truth question")
        pump(0.3)
    rec.facts["mismatch"] = {"asked": dialog.texts, "started": d.panel.task is not None}
    ui.truthTable.cellWidget(0, 2).setField("pop_density")
    choose_survey()


def open_results_from_files():
    """Results tab → Open results… → the first survey's GeoPackage in the file dialog."""
    d = dock()
    first = rec.facts["first"]["folder"]
    path = next(os.path.join(first, f) for f in sorted(os.listdir(first)) if f.startswith("truth_"))
    d.show_tab(d.results)
    with DialogAnswerer(rec, "12_open_dialog", files=[path]) as dialog:
        click(d.results.openButton)
        wait_until(lambda: dialog.texts, 10, "the file dialog")
        pump(0.5)
    from geobias.ui.results_tab import group_name

    group = f"GeoBias — {group_name([path])}"
    wait_until(lambda: d.panel.task is None
               and QgsProject.instance().layerTreeRoot().findGroup(group) is not None, 120,
               "the opened results")  # fmt: skip

    facts = results_facts(group_name([path]))
    facts["dialog"] = dialog.texts
    rec.facts["opened"] = facts
    rec.shot("12_opened")


def inspect_point():
    """Press "Inspect a point" and click a rated point on the map."""
    d = dock()
    ui = d.results
    layer = state["rated_first"][0]
    # Make another layer active: Inspect must still pick the rated point.
    iface.setActiveLayer(state["countries"])
    feature = next(f for f in layer.getFeatures() if f["completion"])
    click(ui.identifyButton)
    assert ui.identifyButton.isChecked()
    p = feature.geometry().asPoint()
    ui.answerText.clear()
    click_map(p.x(), p.y())
    wait_until(lambda: ui.answerText.toPlainText(), 5, "the answer of the clicked point")
    text = ui.answerText.toPlainText()
    rec.facts["inspect"] = {
        "text": text,
        "completion": feature["completion"],
        "prompt_start": str(feature["prompt"])[:60],
    }
    click(ui.identifyButton)  # release the tool
    rec.shot("05_inspect")


def cancel_and_resume():
    """A second survey (new points) cancelled after two answers, then resumed from the cache."""
    dock().show_tab(dock().area)
    preview(12, method="uniform", seed=7)
    cancelled = run_survey("resume", cancel_after=2)
    cancelled["group"] = (
        QgsProject.instance().layerTreeRoot().findGroup("GeoBias — resume") is not None
    )
    rec.facts["cancelled"] = cancelled
    rec.shot("06_cancelled")
    resumed = run_survey("resume", shot="07_resume_confirm")
    resumed.update(results_facts("resume"))
    rec.facts["resumed"] = resumed
    rec.shot("08_resumed")


def world_survey():
    ui = dock().area
    choose_survey(truth=False)
    dock().show_tab(ui)
    click(ui.worldRadio)
    preview(4, method="uniform", seed=3)
    facts = run_survey("world")
    choose_survey()
    facts.update(results_facts("world"))
    rec.facts["world"] = facts
    iface.mapCanvas().setExtent(QgsRectangle(-180, -90, 180, 90))
    rec.shot("09_world")


def layer_survey():
    """The study area from a layer: three selected countries."""
    d = dock()
    ui = d.area
    countries = state["countries"]
    countries.selectByExpression("\"iso_a3\" IN ('FRA', 'DEU', 'POL')")
    assert countries.selectedFeatureCount() == 3
    d.show_tab(ui)
    click(ui.layerRadio)
    ui.areaLayerCombo.setLayer(countries)
    if not ui.selectedCheck.isChecked():
        click(ui.selectedCheck)
    preview(5, method="uniform", seed=5)
    facts = run_survey("layer")
    facts.update(results_facts("layer"))
    area = ui.area_geometry()
    rated = state["rated_layer"]
    facts["inside"] = sum(area.contains(f.geometry()) for f in rated[0].getFeatures())
    rec.facts["layer"] = facts
    countries.removeSelection()
    iface.mapCanvas().setExtent(QgsRectangle(-10, 40, 30, 57))
    rec.shot("10_layer")


def panel_legend(layer):
    """The texts of the layer's legend in the Layers panel (heading and classes)."""
    root = QgsProject.instance().layerTreeRoot()
    nodes = iface.layerTreeView().layerTreeModel().layerLegendNodes(root.findLayer(layer.id()))
    return [n.data(Qt.ItemDataRole.DisplayRole) for n in nodes]


def run_herb(ui, shot):
    """Click the Regional bias tab's Run, confirm the estimate (screenshot `shot`), wait for the
    end; the confirmation's texts."""
    with DialogAnswerer(rec, shot) as dialog:
        panel = ui.panel
        click(panel.runButton)
        wait_until(lambda: dialog.texts or "Stopped" in panel.progressLabel.text(), RUN_TIMEOUT,
                   "the HERB estimate and its confirmation")  # fmt: skip
        wait_until(lambda: panel.task is None and (panel.progressBar.value() == 100
                   or "Stopped" in panel.progressLabel.text()), RUN_TIMEOUT, "HERB")  # fmt: skip
    return dialog.texts


def herb_tab():
    """The Regional bias tab: South America's countries on two morality descriptors (a file)
    with the embedded model; Run, the estimate confirmed, the styled layers, the table and the
    bars."""
    from qgis.PyQt.QtTest import QTest

    d = dock()
    ui = d.herb
    d.show_tab(ui)
    QTest.keyClicks(ui.continentsEdit, "South America")
    ui.citiesSpin.setValue(0)  # stop at countries: 15 regions
    QTest.keyClicks(ui.topicsEdit, "morality")
    # Two descriptors keep it short on a loaded machine (the model may score < 1 sentence/s).
    words = os.path.join(OUT, "herb_words.txt")
    with open(words, "w") as f:
        f.write("morality\thonest\nmorality\tcruel\nstrength\tstrong\n")
    QTest.keyClicks(ui.descriptorsFile.lineEdit(), words)
    pump(0.2)
    rec.shot("11_herb_setup")
    t0 = time.monotonic()
    confirm = run_herb(ui, "12_herb_confirm")
    facts = {"confirm": confirm, "progress": ui.panel.progressBar.value(),
             "progress_text": ui.panel.progressLabel.text(),
             "seconds": time.monotonic() - t0}  # fmt: skip
    groups = [g.name() for g in QgsProject.instance().layerTreeRoot().findGroups()]
    facts["groups"] = groups
    # Named for HERB's default model, Gemma 3 270M.
    group = QgsProject.instance().layerTreeRoot().findGroup("GeoBias — HERB — gemma-3-270m")
    layers = [n.layer() for n in group.findLayers()] if group is not None else []
    facts["layers"] = []
    for lyr in layers:
        r = lyr.renderer()
        graduated = isinstance(r, QgsGraduatedSymbolRenderer)
        ranges = r.ranges() if graduated else []  # kept: a range's symbol dies with it
        facts["layers"].append({"name": lyr.name(), "features": lyr.featureCount(),
                                "field": r.classAttribute() if graduated else "",
                                "classes": len(ranges)})  # fmt: skip
    table = ui.regionTable
    facts["rows"] = [[table.item(i, j).text() for j in range(6)] for i in range(table.rowCount())]
    facts["child_bars"] = [ui.childBars.title, list(ui.childBars.labels)]
    facts["word_bars_first"] = [ui.wordBars.title, list(ui.wordBars.labels)]
    # A country, one of 14 siblings: its descriptors set it apart.
    country = next(i for i in range(table.rowCount()) if table.item(i, 4).text() == "country")
    table.selectRow(country)
    pump(0.2)
    facts["word_bars_region"] = table.item(country, 0).text()
    facts["word_bars"] = [ui.wordBars.title, list(ui.wordBars.labels)]
    rec.facts["herb"] = facts
    iface.mapCanvas().setExtent(QgsRectangle(-95, -57, -20, 14))
    iface.mapCanvas().refresh()
    pump(2.0)
    rec.shot("13_herb_results")


def mlm_children():
    """Pids of this QGIS's child processes running core/herb/mlm_worker.py (from /proc)."""
    return sorted(children_running("mlm_worker.py"))


def herb_masked_lm():
    """The Regional bias tab with a transformers masked LM (the test's tiny random BERT, in
    GEOBIAS_TINY_MLM): it runs in a child process; torch never enters QGIS's."""
    from qgis.PyQt.QtTest import QTest

    folder = os.environ.get("GEOBIAS_TINY_MLM", "")
    assert folder, "no tiny masked LM was built (torch missing in the test's Python?)"
    d = dock()
    ui = d.herb
    d.show_tab(ui)
    ui.scopeCombo.setCurrentIndex(0)
    choose_in_combo(ui.scorerCombo, ui.scorerCombo.itemText(3))  # the Model field shows
    for edit, text in ((ui.continentsEdit, "South America"), (ui.topicsEdit, "morality"),
                       (ui.modelEdit, folder)):  # fmt: skip
        edit.clear()
        QTest.keyClicks(edit, text)
    ui.citiesSpin.setValue(0)
    words = os.path.join(OUT, "herb_mlm_words.txt")
    with open(words, "w") as f:
        f.write("morality\thonest\nmorality\tcruel\n")
    ui.descriptorsFile.lineEdit().clear()
    QTest.keyClicks(ui.descriptorsFile.lineEdit(), words)
    pump(0.2)
    rec.shot("14_herb_masked_lm_setup")
    confirm = run_herb(ui, "15_herb_masked_lm_confirm")
    table = ui.regionTable
    rec.facts["herb_mlm"] = {
        "confirm": confirm, "progress": ui.panel.progressBar.value(),
        "progress_text": ui.panel.progressLabel.text(),
        "rows": [[table.item(i, j).text() for j in range(4)] for i in range(table.rowCount())],
        "loaded": sorted(m for m in ("torch", "transformers") if m in sys.modules),
        "children_left": mlm_children(),
    }  # fmt: skip
    rec.shot("16_herb_masked_lm_results")


def main():
    try:
        steps = (
            ("show_dock", show_dock),
            ("dock_fits_and_help", dock_fits_and_help),
            ("draw_area", draw_area),
            ("preview", lambda: preview(6, shot="02_preview")),
            ("choose_survey", choose_survey),
            ("first_survey", first_survey),
            ("inspect_point", inspect_point),
            ("open_results_from_files", open_results_from_files),
            ("mismatch_needs_confirmation", mismatch_needs_confirmation),
            ("cancel_and_resume", cancel_and_resume),
            ("world_survey", world_survey),
            ("layer_survey", layer_survey),
            ("herb_tab", herb_tab),
            ("herb_masked_lm", herb_masked_lm),
        )
        only = set(filter(None, os.environ.get("GEOBIAS_DESKTOP_STEPS", "").split(",")))
        for name, fn in steps:
            if only and name not in only:
                continue
            if not rec.step(name, fn) and name in ("show_dock", "draw_area"):
                break  # nothing after these can work
    finally:
        rec.finish(0)


QTimer.singleShot(1000, main)
QgsApplication.instance()  # keep the import used: the scenario runs in QGIS's application
