"""Run inside the QGIS desktop (`qgis --code`): a long session (issue 23, item 7).

Ten surveys of 20 points and three HERB runs with the embedded model (SmolLM2 for both, so one
model serves them; the first survey and the first HERB run fill the cache, the others read it),
the dock closed and opened, and the plugin reloaded as Plugin Reloader does (qgis.utils'
unloadPlugin, then loadPlugin and startPlugin: the plugin's unload() and initGui()): once
before the first run, once mid-session, and unloaded at the end. Recorded for the test: after
every unload the child processes left and the receivers of QGIS's long-lived signals, after
every load the Processing providers, docks and toolbars, for every Run click the tasks it
started and the confirmations it asked; for the benchmark: QGIS's resident memory after every
run. Facts go to $GEOBIAS_DESKTOP_OUT/result.json.
"""

import os
import sys
import time

import qgis.utils
from qgis.core import QgsApplication, QgsProject
from qgis.PyQt.QtCore import QEvent, Qt, QTimer
from qgis.PyQt.QtTest import QTest
from qgis.PyQt.QtWidgets import QDockWidget, QToolBar
from qgis.utils import iface

sys.path.insert(0, os.path.join(os.environ["GEOBIAS_ROOT"], "test", "desktop"))
from driver import DialogAnswerer, Recorder, click, pump, wait_until  # noqa: E402

OUT = os.environ["GEOBIAS_DESKTOP_OUT"]
PLUGIN = "geobias"
N_SURVEYS = int(os.environ.get("GEOBIAS_LONG_SURVEYS", "10"))
N_POINTS = 20
TOPIC = "Infant Mortality Rate"
SCREEN = (1600, 1000)
RUN_TIMEOUT = float(os.environ.get("GEOBIAS_DESKTOP_RUN_TIMEOUT", "600"))
rec = Recorder(OUT, timeout=float(os.environ.get("GEOBIAS_DESKTOP_TIMEOUT", "1700")))
tasks_added = []  # task ids, in the order QGIS's task manager got them


def on_task_added(task_id):
    tasks_added.append(task_id)


QgsApplication.taskManager().taskAdded.connect(on_task_added)


def plugin():
    return qgis.utils.plugins[PLUGIN]


def dock():
    return plugin().dock


def rss_mb():
    """QGIS's resident memory (the embedded model runs in a child process of its own)."""
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) / 1024 for line in f if line.startswith("VmRSS:"))


def children():
    """QGIS's live child processes (zombies apart, which are listed separately): pid, state,
    command line."""
    out = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:
            continue
        if int(fields[1]) == os.getpid():
            out.append([int(pid), fields[0], cmd[:200]])
    return out


def signal_receivers():
    """How many slots each long-lived signal of QGIS has: a plugin that leaves a connection
    behind when it unloads makes one of these grow with every reload."""
    project, app, canvas = QgsProject.instance(), QgsApplication.instance(), iface.mapCanvas()
    registry, tasks = QgsApplication.processingRegistry(), QgsApplication.taskManager()
    tree = iface.layerTreeView()
    signals = {
        "project.readProject": (project, project.readProject),
        "project.writeProject": (project, project.writeProject),
        "project.cleared": (project, project.cleared),
        "project.layersAdded": (project, project.layersAdded),
        "project.layersWillBeRemoved": (project, project.layersWillBeRemoved),
        "project.crsChanged": (project, project.crsChanged),
        "app.aboutToQuit": (app, app.aboutToQuit),
        "canvas.extentsChanged": (canvas, canvas.extentsChanged),
        "canvas.mapToolSet": (canvas, canvas.mapToolSet),
        "canvas.destinationCrsChanged": (canvas, canvas.destinationCrsChanged),
        "tree.currentLayerChanged": (tree, tree.currentLayerChanged),
        "registry.providerAdded": (registry, registry.providerAdded),
        "registry.providerRemoved": (registry, registry.providerRemoved),
        "tasks.taskAdded": (tasks, tasks.taskAdded),
        "tasks.allTasksFinished": (tasks, tasks.allTasksFinished),
        "log.messageReceived": (QgsApplication.messageLog(),
                                QgsApplication.messageLog().messageReceived),
    }  # fmt: skip
    return {name: obj.receivers(sig) for name, (obj, sig) in signals.items()}


def plugin_parts():
    """What the loaded plugin put into QGIS: providers, docks, toolbars, actions."""
    QgsApplication.processEvents()
    QgsApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)  # run deleteLater()
    main = iface.mainWindow()
    registry = QgsApplication.processingRegistry()
    providers = [p for p in registry.providers() if p.id() == PLUGIN]

    def named(cls):
        return [w.objectName() for w in main.findChildren(cls) if "GeoBias" in w.objectName()]

    return {
        "providers": len(providers),
        "algorithms": [len(p.algorithms()) for p in providers],
        "docks": named(QDockWidget),
        "toolbars": named(QToolBar),
        "modules": len([m for m in sys.modules if m.split(".")[0] == PLUGIN]),
        "active": PLUGIN in qgis.utils.active_plugins,
    }


def unload(label):
    """Plugin Reloader's first half: QGIS's unloadPlugin (calls the plugin's unload())."""
    before = children()
    assert qgis.utils.unloadPlugin(PLUGIN), "unloadPlugin failed"
    left = children()
    rec.facts.setdefault("unloads", []).append(
        {
            "label": label,
            "children_before": before,
            "children_left": [c for c in left if c[1] != "Z"],
            "zombies": [c for c in left if c[1] == "Z"],
            "parts": plugin_parts(),
            "receivers": signal_receivers(),
        }  # fmt: skip
    )
    rec.save()


def load(label):
    """Plugin Reloader's second half: loadPlugin and startPlugin (initGui())."""
    assert qgis.utils.loadPlugin(PLUGIN), "loadPlugin failed"
    assert qgis.utils.startPlugin(PLUGIN), "startPlugin failed"
    rec.facts.setdefault("loads", []).append({"label": label, "parts": plugin_parts()})
    configure()


def reload(label):
    unload(label)
    load(label)


def show_dock(show=True):
    """Show (or hide) the dock with the plugin's toolbar button, as a user does."""
    from geobias.qt_compat import QAction  # QtWidgets on Qt5, QtGui on Qt6

    action = iface.mainWindow().findChild(QAction, "GeoBiasShowDock")
    assert action is not None, "the GeoBias toolbar button is missing"
    if action.isChecked() != show:
        action.trigger()
    wait_until(lambda: dock().isVisible() == show, 10, "the dock to show or hide")
    return action.isChecked()


def configure():
    """The dock as the survey needs it (a reloaded plugin has a new dock): the world, 20
    uniform points with a fixed seed (so the cache answers every survey after the first),
    the topic, SmolLM2 and the bundled countries as ground truth; HERB on South America."""
    iface.mainWindow().setGeometry(0, 0, SCREEN[0], SCREEN[1])
    show_dock(True)
    d = dock()
    area = d.area
    d.show_tab(area)
    countries = [lyr for lyr in QgsProject.instance().mapLayers().values()
                 if lyr.name() == "Countries (GeoBias)"]  # fmt: skip
    if not countries:
        click(area.countriesButton)
    click(area.worldRadio)
    area.nPointsSpin.setValue(N_POINTS)
    area.methodCombo.setCurrentIndex(area.methodCombo.findData("uniform"))
    area.seedSpin.setValue(11)
    ui = d.survey
    d.show_tab(ui)
    for i in range(ui.topicsTree.topLevelItemCount()):
        item = ui.topicsTree.topLevelItem(i)
        want = item.data(0, Qt.ItemDataRole.UserRole) == TOPIC
        item.setCheckState(0, Qt.CheckState.Checked if want else Qt.CheckState.Unchecked)
    from geobias.core.runtime.models import get_model
    from geobias.ui.settings import embedded_name

    smollm2 = embedded_name(get_model("smollm2-135m"))
    for i in range(ui.modelsList.count()):
        item = ui.modelsList.item(i)
        want = item.data(Qt.ItemDataRole.UserRole) == smollm2
        item.setCheckState(Qt.CheckState.Checked if want else Qt.CheckState.Unchecked)
    pump(0.2)
    assert ui.checked_models() == [smollm2], ui.checked_models()
    herb = d.herb
    d.show_tab(herb)
    for edit, text in ((herb.continentsEdit, "South America"), (herb.topicsEdit, "morality")):
        edit.clear()
        QTest.keyClicks(edit, text)
    herb.citiesSpin.setValue(0)
    words = os.path.join(OUT, "herb_words.txt")
    with open(words, "w") as f:
        f.write("morality\thonest\nmorality\tcruel\n")
    herb.descriptorsFile.lineEdit().clear()
    QTest.keyClicks(herb.descriptorsFile.lineEdit(), words)
    pump(0.2)


def click_run(panel, name, kind):
    """Click a Run button once, answer any confirmation Yes, wait for the end; what the click
    did: tasks started, confirmations asked, requests (surveys), the end state, the memory."""
    n_tasks = len(tasks_added)
    panel.set_text("")  # the previous run's "Done" must not end the wait
    t0 = time.monotonic()
    with DialogAnswerer(rec) as dialog:
        click(panel.runButton)
        wait_until(lambda: len(tasks_added) > n_tasks, 120, f"{name} to start")

        def ended():  # "Done in 3 s.", "Stopped: …", "Cancelled. …"
            text = panel.progressLabel.text()
            return panel.task is None and text.startswith(("Done", "Stopped", "Cancelled"))

        wait_until(ended, RUN_TIMEOUT, name)
        pump(0.3)  # results loaded, late signals delivered
    run = {"name": name, "kind": kind, "tasks": len(tasks_added) - n_tasks,
           "confirmations": len(dialog.texts), "progress": panel.progressBar.value(),
           "text": panel.progressLabel.text(), "seconds": round(time.monotonic() - t0, 1),
           "rss_mb": round(rss_mb(), 1)}  # fmt: skip
    rec.facts.setdefault("runs", []).append(run)
    rec.save()
    return run


def survey(i):
    d = dock()
    d.show_tab(d.survey)
    d.ui.nameEdit.setText(f"long {i}")
    run = click_run(d.panel, f"survey {i}", "survey")
    est = d.plan.estimate
    run["requests"] = est.n_requests if est else None
    run["cached"] = est.n_cached if est else None
    group = QgsProject.instance().layerTreeRoot().findGroup(f"GeoBias — long {i}")
    run["group_layers"] = len(group.findLayers()) if group is not None else 0


def herb(i):
    d = dock()
    d.show_tab(d.herb)
    run = click_run(d.herb.panel, f"HERB {i}", "herb")
    run["rows"] = d.herb.regionTable.rowCount()


def close_and_open_dock():
    """The dock closed and opened again with its toolbar button, then closed by its own close
    button and opened again."""
    states = [show_dock(False), show_dock(True)]
    dock().close()
    wait_until(lambda: not dock().isVisible(), 10, "the dock to close")
    pump(0.2)
    from geobias.qt_compat import QAction  # QtWidgets on Qt5, QtGui on Qt6

    states.append(iface.mainWindow().findChild(QAction, "GeoBiasShowDock").isChecked())
    states.append(show_dock(True))
    rec.facts["dock_states"] = states


def main():
    steps = [("reload 1", lambda: reload("before the runs"))]
    n_first = max(1, N_SURVEYS * 4 // 10)
    n_second = max(1, N_SURVEYS * 3 // 10)
    k = 0
    for _ in range(n_first):
        k += 1
        steps.append((f"survey {k}", lambda k=k: survey(k)))
    steps.append(("herb 1", lambda: herb(1)))
    steps.append(("dock closed and opened", close_and_open_dock))
    steps.append(("reload 2", lambda: reload("mid-session")))
    for _ in range(n_second):
        k += 1
        steps.append((f"survey {k}", lambda k=k: survey(k)))
    steps.append(("herb 2", lambda: herb(2)))
    while k < N_SURVEYS:
        k += 1
        steps.append((f"survey {k}", lambda k=k: survey(k)))
    steps.append(("herb 3", lambda: herb(3)))
    steps.append(("unload at the end", lambda: unload("at the end")))
    try:
        rec.facts["start"] = {"parts": plugin_parts(), "rss_mb": round(rss_mb(), 1)}
        for name, fn in steps:
            if not rec.step(name, fn) and name.startswith(("reload", "unload")):
                break  # nothing after a failed reload can be trusted
    finally:
        rec.finish(0)


QTimer.singleShot(1000, main)
