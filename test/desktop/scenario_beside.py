"""Run inside the QGIS desktop (`qgis --code`): issue 28's paths beside the main survey.

1. Scroll every tab of the dock with a real mouse wheel (X events through XTest, as a mouse
   gives them) over its combo and spin boxes: no setting may change.
2. Add the project's own llama.cpp server (scripts/llm.py, started by the test; its URL in
   $GEOBIAS_LLAMA_URL) as a second endpoint in Settings → Options → GeoBias through the dialog:
   the llama.cpp preset, its URL, Fetch models, an API key typed into the page (stored in the
   QGIS authentication database, the master password set in QGIS's own dialog), Test connection,
   OK. Then a 10-point survey on it from the dock, to its end.
3. A 10-point survey on a server that throttles every request of its first 60 s (a FaultServer
   started by the test, its URL in $GEOBIAS_THROTTLE_URL: 429 + Retry-After): the dock counts
   the wait down, the GUI stays responsive (a 100 ms timer's largest gap), and every point is
   answered once the throttle ends (issue 31).

Facts and screenshots go to $GEOBIAS_DESKTOP_OUT.
"""

import ctypes
import ctypes.util
import os
import sys
import time

from qgis.core import QgsApplication, QgsProject
from qgis.PyQt.QtCore import Qt, QTimer
from qgis.PyQt.QtTest import QTest
from qgis.PyQt.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QLineEdit,
    QMessageBox,
)
from qgis.utils import iface, plugins

from geobias.qt_compat import QAction

sys.path.insert(0, os.path.join(os.environ["GEOBIAS_ROOT"], "test", "desktop"))
from driver import (  # noqa: E402
    DialogAnswerer,
    Recorder,
    choose_in_combo,
    click,
    pump,
    wait_until,
)

OUT = os.environ["GEOBIAS_DESKTOP_OUT"]
LLAMA_URL = os.environ.get("GEOBIAS_LLAMA_URL", "")
THROTTLE_URL = os.environ.get("GEOBIAS_THROTTLE_URL", "")
THROTTLED = "Throttled server"
ENDPOINT = "My llama.cpp"
KEY = "sk-local-GEOBIAS-beside-0123456789"  # llama.cpp accepts any key; it must reach the auth DB
MASTER = "geobias-desktop-master"
TOPIC = "Infant Mortality Rate"
SCREEN = (1600, 1000)  # launch.SCREEN
RUN_TIMEOUT = float(os.environ.get("GEOBIAS_DESKTOP_RUN_TIMEOUT", "600"))
rec = Recorder(OUT, timeout=float(os.environ.get("GEOBIAS_DESKTOP_TIMEOUT", "1100")))
GDAL_WARNINGS = []
QgsApplication.messageLog().messageReceived.connect(
    lambda message, tag, level: (
        GDAL_WARNINGS.append([tag, message[:300]]) if "Non-conformant" in message else None
    )
)


def dock():
    return plugins["geobias"].dock


# ---------------------------------------------------------------------------- a real wheel
class XWheel:
    """Mouse wheel turns as the X server delivers a mouse's: XTest fakes button 4 (up) and 5
    (down) at the pointer, which QGIS receives like any other window-system event."""

    def __init__(self):
        xlib = ctypes.cdll.LoadLibrary(ctypes.util.find_library("X11") or "libX11.so.6")
        self.xtst = ctypes.cdll.LoadLibrary(ctypes.util.find_library("Xtst") or "libXtst.so.6")
        xlib.XOpenDisplay.restype = ctypes.c_void_p
        xlib.XOpenDisplay.argtypes = [ctypes.c_char_p]
        xlib.XFlush.argtypes = [ctypes.c_void_p]
        self.xtst.XTestFakeButtonEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int,
                                                   ctypes.c_ulong]  # fmt: skip
        self.xtst.XTestFakeMotionEvent.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int,
                                                   ctypes.c_int, ctypes.c_ulong]  # fmt: skip
        self.xlib = xlib
        self.display = xlib.XOpenDisplay(os.environ["DISPLAY"].encode())
        assert self.display, "cannot open the X display"

    def move(self, global_pos):
        self.xtst.XTestFakeMotionEvent(self.display, -1, global_pos.x(), global_pos.y(), 0)
        self.xlib.XFlush(self.display)
        pump(0.05)

    def turn(self, notches):
        """Negative: towards the user (scroll down)."""
        button = 5 if notches < 0 else 4
        for _ in range(abs(notches)):
            self.xtst.XTestFakeButtonEvent(self.display, button, 1, 0)
            self.xtst.XTestFakeButtonEvent(self.display, button, 0, 0)
            self.xlib.XFlush(self.display)
            pump(0.06)


def widget_states(root):
    """Every combo and spin box under `root`: its current index or value."""
    out = {}
    for kind in (QComboBox, QAbstractSpinBox):
        for i, w in enumerate(root.findChildren(kind)):
            name = w.objectName() or f"{type(w).__name__}#{i}"
            value = w.currentIndex() if isinstance(w, QComboBox) else w.value()
            out[f"{root.objectName()}/{name}"] = value
    return out


def show_dock():
    iface.mainWindow().setGeometry(0, 0, SCREEN[0], SCREEN[1])
    action = iface.mainWindow().findChild(QAction, "GeoBiasShowDock")
    action.trigger()
    wait_until(lambda: dock().isVisible(), 10, "the dock to show")
    d = dock()
    d.show_tab(d.area)
    click(d.area.countriesButton)
    pump(0.5)


def scroll_the_dock():
    """Every tab: the pointer over each combo and spin box in view, the wheel turned down and
    up; then the whole tab scrolled from top to bottom with the pointer in its middle."""
    d = dock()
    wheel = XWheel()
    # A short dock (floating, as a user may keep it): every tab is taller than it and scrolls.
    d.setFloating(True)
    d.setGeometry(300, 120, 440, 560)
    pump(0.5)
    before = {"settings": repr(d.settings())}
    for tab in d.tab_widgets():
        before.update(widget_states(tab))
    over, scrolled, notches = {}, 0, 0
    for i, tab in enumerate(d.tab_widgets()):
        d.ui.tabs.setCurrentIndex(i)
        pump(0.3)
        area = d.ui.tabs.widget(i)
        bar = area.verticalScrollBar()
        bar.setValue(0)
        pump(0.1)
        viewport = area.viewport()
        view_rect = viewport.rect()
        for kind in (QComboBox, QAbstractSpinBox):
            for w in tab.findChildren(kind):
                if not w.isVisible():
                    continue
                centre = w.mapTo(viewport, w.rect().center())
                if not view_rect.contains(centre):
                    continue
                target = viewport.mapToGlobal(centre)
                wheel.move(target)
                under = QApplication.widgetAt(target)
                hit = under is w or (under is not None and w.isAncestorOf(under))
                start = bar.value()
                wheel.turn(-2)
                moved = bar.value() != start or start == bar.maximum()  # at the bottom already
                wheel.turn(2)
                notches += 4
                if hit:
                    over[type(w).__name__] = over.get(type(w).__name__, 0) + 1
                    scrolled += moved
        # The whole tab, pointer fixed in the middle: the widgets pass under it.
        wheel.move(viewport.mapToGlobal(view_rect.center()))
        for _ in range(25):
            wheel.turn(-1)
            notches += 1
        over["passes"] = over.get("passes", 0) + 1
        rec.facts.setdefault("scroll_positions", []).append(
            [d.ui.tabs.tabText(i), bar.value(), bar.maximum()]
        )
        if i == 1:
            rec.shot("01_survey_tab_scrolled", d)
    after = {"settings": repr(d.settings())}
    for tab in d.tab_widgets():
        after.update(widget_states(tab))
    changed = {k: [before[k], after.get(k)] for k in before if before[k] != after.get(k)}
    d.setFloating(False)
    pump(0.5)
    rec.facts["wheel"] = {
        "widgets": len(before) - 1,
        "notches": notches,
        "over": over,
        "changed": changed,
        "scrolled_over_widgets": scrolled,
    }
    d.show_tab(d.area)


# ---------------------------------------------------------------------------- the Options page
def answer_master_password():
    """QGIS asks for a new master password the first time a key goes into its authentication
    database: type it twice and press OK, as a user does. Returns the texts it saw."""
    seen = []

    def poll():
        box = QApplication.activeModalWidget()
        if box is None or id(box) in answered:
            return
        if isinstance(box, QMessageBox):
            answered.add(id(box))
            seen.append(["message", box.text()[:300]])
            (box.button(QMessageBox.StandardButton.Ok) or box.buttons()[0]).click()
            return
        edits = [e for e in box.findChildren(QLineEdit) if "pass" in e.objectName().lower()]
        if not edits or not isinstance(box, QDialog):
            return
        answered.add(id(box))
        seen.append([type(box).__name__, [e.objectName() for e in edits]])
        for e in edits:
            if e.isVisible() and e.isEnabled():
                e.setFocus()
                QTest.keyClicks(e, MASTER)
        rec.shot("04_master_password", box)
        buttons = box.findChild(QDialogButtonBox)
        ok = buttons.button(QDialogButtonBox.StandardButton.Ok) if buttons else None
        if ok is not None:
            ok.click()
        else:
            box.accept()

    answered = set()
    timer = QTimer()
    timer.setInterval(150)
    timer.timeout.connect(poll)
    return timer, seen


def type_into(edit, text):
    edit.setFocus()
    edit.selectAll()
    QTest.keyClick(edit, Qt.Key.Key_Delete)
    QTest.keyClicks(edit, text)
    pump(0.1)


def add_endpoint():
    """Settings → Options → GeoBias: add the llama.cpp server with its key, test it, OK."""
    assert LLAMA_URL, "GEOBIAS_LLAMA_URL is not set"
    from geobias.ui.options import GeoBiasOptionsPage

    result = {}
    timer, seen = answer_master_password()

    def drive():
        try:
            wait_until(lambda: QApplication.activeModalWidget() is not None, 30, "the Options")
            dialog = QApplication.activeModalWidget()
            dialog.resize(1300, 900)
            page = dialog.findChild(GeoBiasOptionsPage)
            assert page is not None, "no GeoBias page in the Options dialog"
            wait_until(page.isVisible, 10, "the GeoBias page")
            result["page_visible"] = page.isVisible()
            click(page.addButton)
            type_into(page.nameEdit, ENDPOINT)
            choose_in_combo(page.providerCombo, "llama.cpp server")
            type_into(page.baseUrlEdit, LLAMA_URL)
            click(page.fetchButton)
            wait_until(lambda: page.task is None and "offered" in page.statusLabel.text(), 60,
                       "the model list")  # fmt: skip
            result["fetched"] = page.statusLabel.text()
            result["model"] = page.modelCombo.currentText()
            type_into(page.apiKeyEdit, KEY)
            result["constraint_shown"] = page.constraintCombo.currentText()
            click(page.testButton)
            wait_until(lambda: page.task is None and "rating" in page.statusLabel.text(), 180,
                       "the connection test")  # fmt: skip
            result["tested"] = page.statusLabel.text()
            rec.shot("03_options_tested", dialog)
            timer.start()
            buttons = dialog.findChild(QDialogButtonBox)
            buttons.button(QDialogButtonBox.StandardButton.Ok).click()
        except Exception as e:  # recorded by the step; the dialog must close in any case
            import traceback

            result["error"] = f"{type(e).__name__}: {e}\n{traceback.format_exc()}"
            rec.shot("failed_options")
            modal = QApplication.activeModalWidget()
            if modal is not None:
                modal.reject()

    QTimer.singleShot(300, drive)
    iface.showOptionsDialog(iface.mainWindow(), currentPage="GeoBiasOptions")
    pump(0.5)
    timer.stop()
    result["master_dialogs"] = seen
    rec.facts["options"] = result
    assert "error" not in result, result["error"]
    from geobias.ui.settings import api_key, find_endpoint

    stored = find_endpoint(ENDPOINT)
    assert stored is not None, "the endpoint was not saved"
    rec.facts["stored"] = {
        "provider": stored.provider,
        "base_url": stored.base_url,
        "model": stored.model,
        "constraint": stored.constraint,
        "authcfg": bool(stored.authcfg),
        "key_in_auth_db": api_key(stored.authcfg) == KEY,
        "endpoint_constraint": stored.endpoint().constraint,
    }


# ---------------------------------------------------------------------------- the survey
def survey_on_the_second_endpoint():
    d = dock()
    ui = d.survey
    d.show_tab(ui)
    pump(0.3)
    for i in range(ui.topicsTree.topLevelItemCount()):
        item = ui.topicsTree.topLevelItem(i)
        want = item.data(0, Qt.ItemDataRole.UserRole) == TOPIC
        item.setCheckState(0, Qt.CheckState.Checked if want else Qt.CheckState.Unchecked)
    found = False
    for i in range(ui.modelsList.count()):
        item = ui.modelsList.item(i)
        want = item.data(Qt.ItemDataRole.UserRole) == ENDPOINT
        found = found or want
        item.setCheckState(Qt.CheckState.Checked if want else Qt.CheckState.Unchecked)
    assert found, "the new endpoint is not offered in the dock"
    assert ui.checked_models() == [ENDPOINT], ui.checked_models()
    table = ui.truthTable
    if table.rowCount() and table.cellWidget(0, 1).currentLayer() is None:
        choose_in_combo(table.cellWidget(0, 1), "Countries (GeoBias)")
    area = d.area
    d.show_tab(area)
    click(area.worldRadio)
    area.nPointsSpin.setValue(10)
    rec.facts["method"] = area.methodCombo.currentData()
    d.ui.nameEdit.setText("second endpoint")
    rec.shot("05_survey_set", d)
    t0 = time.monotonic()
    with DialogAnswerer(rec, "06_confirm") as dialog:
        click(d.panel.runButton)
        # A first job samples the points and counts the requests; then the confirmation, then
        # the survey's own task (d.plan).
        wait_until(lambda: d.plan is not None or "Stopped" in d.panel.progressLabel.text(), 180,
                   "the survey to start")  # fmt: skip
        wait_until(lambda: d.panel.task is None, RUN_TIMEOUT, "the survey")
    group = QgsProject.instance().layerTreeRoot().findGroup("GeoBias — second endpoint")
    layers = [n.layer() for n in group.findLayers()] if group is not None else []
    rated = [lyr for lyr in layers if lyr.isSpatial() and lyr.fields().lookupField("score") >= 0]
    facts = {
        "confirm": dialog.texts,
        "seconds": round(time.monotonic() - t0, 1),
        "progress_text": d.panel.progressLabel.text(),
        "progress": d.panel.progressBar.value(),
        "layers": [lyr.name() for lyr in layers],
        "metrics_rows": len(d.results.metrics.rows),
    }
    if rated:
        feats = list(rated[0].getFeatures())
        facts.update(
            features=len(feats),
            answered=sum(bool(f["answered"]) for f in feats),
            models=sorted({str(f["model"]) for f in feats}),
            completions=[str(f["completion"]) for f in feats][:3],
        )
        # The rating step's GeoPackage holds the runs table (the layer shown is its copy with
        # the ground truth).
        import glob
        import sqlite3

        (path,) = glob.glob(os.path.join(d.plan.folder, "rated_*.gpkg"))
        with sqlite3.connect(path) as con:
            sql = "SELECT model, provider, endpoint_host, endpoint, n_requests FROM runs"
            facts["runs"] = [list(r) for r in con.execute(sql)]
    rec.facts["survey"] = facts
    iface.mapCanvas().refreshAllLayers()
    rec.shot("07_results")


def pick_models(ui, name):
    """Check only the endpoint `name` in the Survey tab's model list."""
    found = False
    for i in range(ui.modelsList.count()):
        item = ui.modelsList.item(i)
        want = item.data(Qt.ItemDataRole.UserRole) == name
        found = found or want
        item.setCheckState(Qt.CheckState.Checked if want else Qt.CheckState.Unchecked)
    assert found, f"{name} is not offered in the dock"


def survey_through_a_throttle():
    """A 10-point survey on a server answering 429 + Retry-After for its first 60 s: while the
    run waits, the dock's run line is sampled (the countdown, decreasing) and a 100 ms timer
    measures the GUI's largest gap between ticks; then the layer holds every point answered."""
    assert THROTTLE_URL, "GEOBIAS_THROTTLE_URL is not set"
    from geobias.ui.settings import EndpointConfig, load_endpoints, save_endpoints

    endpoints = [e for e in load_endpoints() if not e.is_embedded]
    save_endpoints(endpoints + [EndpointConfig(THROTTLED, "custom", THROTTLE_URL, "fault")])
    pump(0.5)
    d = dock()
    ui = d.survey
    d.show_tab(ui)
    pump(0.3)
    pick_models(ui, THROTTLED)
    assert ui.checked_models() == [THROTTLED], ui.checked_models()
    d.show_tab(d.area)
    click(d.area.worldRadio)
    d.area.nPointsSpin.setValue(10)
    d.ui.nameEdit.setText("throttled")
    ticks = []
    timer = QTimer()
    timer.setInterval(100)
    timer.timeout.connect(lambda: ticks.append(time.monotonic()))
    samples, shot = [], False
    t0 = time.monotonic()
    with DialogAnswerer(rec, "10_throttled_confirm") as dialog:
        click(d.panel.runButton)
        wait_until(lambda: d.plan is not None or "Stopped" in d.panel.progressLabel.text(), 180,
                   "the throttled survey to start")  # fmt: skip
        timer.start()
        next_sample = time.monotonic()
        while d.panel.task is not None and time.monotonic() - t0 < RUN_TIMEOUT:
            pump(0.05)
            now = time.monotonic()
            if now >= next_sample:
                samples.append([round(now - t0, 1), d.panel.progressLabel.text()])
                next_sample = now + 5.0
                if not shot and samples[-1][1].startswith("Throttled"):
                    rec.shot("11_throttle_countdown", d)
                    shot = True
        timer.stop()
    gaps = [b - a for a, b in zip(ticks, ticks[1:])]
    group = QgsProject.instance().layerTreeRoot().findGroup("GeoBias — throttled")
    layers = [n.layer() for n in group.findLayers()] if group is not None else []
    rated = [lyr for lyr in layers if lyr.isSpatial() and lyr.fields().lookupField("score") >= 0]
    feats = list(rated[0].getFeatures()) if rated else []
    rec.facts["throttled"] = {
        "confirm": dialog.texts,
        "seconds": round(time.monotonic() - t0, 1),
        "samples": samples,
        "ticks": len(ticks),
        "max_gap_s": round(max(gaps), 3) if gaps else None,
        "countdown_shot": shot,
        "progress_text": d.panel.progressLabel.text(),
        "layers": [lyr.name() for lyr in layers],
        "features": len(feats),
        "answered": sum(bool(f["answered"]) for f in feats),
    }
    rec.shot("12_throttled_results")


def toolbox_help():
    """The survey algorithm's dialog: its help lists every parameter with a sentence."""
    import processing

    dialog = processing.createAlgorithmDialog("geobias:survey", {})
    dialog.setGeometry(100, 60, 1300, 880)
    dialog.show()
    pump(1.0)
    rec.shot("08_toolbox_help", dialog)
    alg = dialog.algorithm()
    rec.facts["toolbox_help"] = [alg.shortHelpString().count("<dt>"),
                                 len(alg.parameterDefinitions())]  # fmt: skip
    dialog.close()


def project_new_resets_the_tabs():
    """Project → New: the Results tab and the run line forget the survey."""
    d = dock()
    before = (len(d.results.metrics.rows), d.panel.progressLabel.text())
    iface.newProject(False)
    pump(0.5)
    d.show_tab(d.results)
    rec.facts["after_new_project"] = {
        "before": before,
        "metrics_rows": len(d.results.metrics.rows),
        "plot_points": int(len(d.results.plot.rating)),
        "progress_text": d.panel.progressLabel.text(),
    }
    rec.shot("09_new_project")


def main():
    try:
        for name, fn in (
            ("show_dock", show_dock),
            ("scroll_the_dock", scroll_the_dock),
            ("add_endpoint", add_endpoint),
            ("survey_on_the_second_endpoint", survey_on_the_second_endpoint),
            ("toolbox_help", toolbox_help),
            ("project_new_resets_the_tabs", project_new_resets_the_tabs),
            ("survey_through_a_throttle", survey_through_a_throttle),
        ):
            if not rec.step(name, fn) and name in ("show_dock", "add_endpoint"):
                break
    finally:
        rec.facts["non_conformant"] = GDAL_WARNINGS
        rec.finish(0)


QTimer.singleShot(1000, main)
