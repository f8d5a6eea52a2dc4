"""Dock responsiveness: the longest main-thread stall of every job the dock runs, on the bundled
US counties (3,233 polygons, 3,215 with an unemployment rate).

A QTimer beats every 10 ms on the main thread; the largest gap between beats is how long the
UI was frozen. The dock sits in a shown main window beside a map canvas that follows the
project's layers, as in QGIS. Each job is started exactly as its button does and measured from
the click until its results are shown (the output layers added, the tables filled) plus half a
second for what it leaves to the event loop: the counties as study area (their union measured
for the label), Preview, the survey (two models of an instant local stub chat server, ground
truth from the counties' unemployment rate) and its re-run from the cache, the metrics with
1,000 bootstraps (Results → Use selected layers), Overlay's aggregate to the counties,
correlate and hot spots (999 permutations), the report (with the hot spots) and Compare.

    .venv/bin/python benchmarks/bench_ui.py [n_points]
"""

import gc
import os
import sys
import tempfile
import threading
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(ROOT))  # the repository imports as `geobias`

TARGET_MS = 100.0
TOPIC = "Unemployment Rate"
SETTLE_S = 0.5  # after a job: the event loop's turns it leaves work to (the report's layout)


class Heartbeat:
    """Max and 99th percentile gap between 10 ms timer ticks on the main thread, and the longest
    garbage collection meanwhile in any thread: a collection holds the GIL, so one in a job's
    thread stalls the main thread's Python (this timer, every plugin's slots) as long."""

    def __init__(self):
        from qgis.PyQt.QtCore import QTimer

        self.gaps = []
        self.last = None
        self.timer = QTimer()
        self.timer.setInterval(10)
        self.timer.timeout.connect(self.tick)
        self.gc_started = {}
        self.gc_longest = 0.0
        gc.callbacks.append(self.collection)

    def close(self):
        gc.callbacks.remove(self.collection)

    def collection(self, phase, info):
        thread = threading.get_ident()
        if phase == "start":
            self.gc_started[thread] = time.perf_counter()
        elif thread in self.gc_started:
            ms = (time.perf_counter() - self.gc_started.pop(thread)) * 1000.0
            self.gc_longest = max(self.gc_longest, ms)

    def tick(self):
        now = time.perf_counter()
        if self.last is not None:
            self.gaps.append((now - self.last) * 1000.0)
        self.last = now

    def start(self):
        self.gaps, self.last, self.gc_longest = [], time.perf_counter(), 0.0
        self.timer.start()

    def stop(self):
        self.timer.stop()
        self.tick()
        return self.gaps


def setup(profile):
    from qgis.core import QgsApplication
    from qgis.PyQt.QtCore import QCoreApplication, QSettings

    QCoreApplication.setOrganizationName("QGIS")
    QCoreApplication.setApplicationName("QGIS3")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, profile)
    app = QgsApplication([], True, profile)
    app.initQgis()
    from qgis.analysis import QgsNativeAlgorithms

    QgsApplication.processingRegistry().addProvider(QgsNativeAlgorithms())
    from geobias.processing.provider import GeoBiasProvider

    provider = GeoBiasProvider()
    QgsApplication.processingRegistry().addProvider(provider)
    return app, provider


def full_collection():
    """How long a full garbage collection of this process takes now, in ms."""
    t0 = time.perf_counter()
    gc.collect()
    return (time.perf_counter() - t0) * 1000.0


def pump(seconds):
    from qgis.PyQt.QtCore import QCoreApplication, QEventLoop

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 5)
        time.sleep(0.001)


def measure(beat, start, done, timeout=900.0):
    """Run `start()` (a click) and pump events until `done()` holds, then SETTLE_S more.

    Returns (seconds until done, gaps in ms). Everything on the main thread counts: the click,
    the job's start, the results shown when it ends."""
    beat.start()
    t0 = time.perf_counter()
    start()
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise TimeoutError(f"no end after {timeout:.0f} s")
        pump(0.005)
    elapsed = time.perf_counter() - t0
    pump(SETTLE_S)
    return elapsed, beat.stop()


def main(n_points=2000):
    import numpy as np
    from qgis.core import QgsLayerTreeModel, QgsProject, QgsVectorLayer
    from qgis.gui import QgsLayerTreeMapCanvasBridge, QgsLayerTreeView, QgsMapCanvas, QgsMessageBar
    from qgis.PyQt.QtCore import Qt
    from qgis.PyQt.QtWidgets import QMainWindow

    import qgis.utils
    from geobias.paths import DATA
    from geobias.test.faultserver import FaultServer
    from geobias.test.qtstub import StubIface
    from geobias.ui.dock import GeoBiasDock
    from geobias.ui.settings import EndpointConfig, save_endpoints

    profile = tempfile.mkdtemp(prefix="geobias-bench-ui-")
    app, provider = setup(profile)
    project = QgsProject.instance()
    project.setFileName(os.path.join(profile, "bench.qgz"))  # outputs beside it
    window = QMainWindow()
    window.resize(1400, 900)
    canvas = QgsMapCanvas(window)
    window.setCentralWidget(canvas)
    bridge = QgsLayerTreeMapCanvasBridge(project.layerTreeRoot(), canvas)  # noqa: F841
    view = QgsLayerTreeView(window)
    view.setModel(QgsLayerTreeModel(project.layerTreeRoot()))
    iface = StubIface(window, canvas, QgsMessageBar(window))
    iface.layerTreeView = lambda: view
    qgis.utils.iface = iface  # the desktop: a report keeps its layers in the project
    rows = []
    with FaultServer() as fs:
        save_endpoints([
            EndpointConfig("stub", "custom", fs.base_url, "stub-a", concurrency=8),
            EndpointConfig("stub 2", "custom", fs.base_url, "stub-b", concurrency=8),
        ])  # fmt: skip
        dock = GeoBiasDock(iface)
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
        window.show()
        dock.push = lambda *a, **k: None  # the message bar is not under test
        dock.survey_job.confirm = lambda plan: True
        dock.ui.nameEdit.setText("counties")
        counties = QgsVectorLayer(
            os.path.join(DATA, "us_counties.gpkg") + "|layername=counties", "counties", "ogr"
        )
        project.addMapLayer(counties)
        canvas.setExtent(counties.extent())
        pump(1.0)
        beat = Heartbeat()
        idle = lambda: not dock.panel.busy  # noqa: E731

        def row(what, elapsed, gaps, ok=True):
            worst = max(gaps) if gaps else float("nan")
            p99 = float(np.percentile(gaps, 99)) if gaps else float("nan")
            rows.append((what, f"{elapsed:.2f} s", f"{worst:.0f} ms", f"{p99:.0f} ms",
                         f"{beat.gc_longest:.0f} ms", ok and worst <= TARGET_MS))  # fmt: skip

        area = dock.area

        def choose_counties():
            area.layerRadio.setChecked(True)
            area.areaLayerCombo.setLayer(counties)

        elapsed, gaps = measure(beat, choose_counties, lambda: area.measuring is None)
        row(f"Area: {counties.featureCount()} counties (its label)", elapsed, gaps,
            "km²" in area.areaLabel.text())  # fmt: skip
        area.nPointsSpin.setValue(n_points)
        area.methodCombo.setCurrentIndex(area.methodCombo.findData("population"))
        elapsed, gaps = measure(beat, area.preview, idle)
        row(f"Preview: {n_points} points", elapsed, gaps, area.preview_layer is not None)
        dock.survey.set_checked_topics([TOPIC])
        dock.survey.refresh_models({"stub", "stub 2"})
        dock.survey.truth[TOPIC] = (counties.id(), "unemployment")
        area.preview_layer = area.preview_points = None  # Run samples the points itself
        for label in ("survey: 2 models", "survey re-run (all cached)"):
            sent = fs.n_requests
            elapsed, gaps = measure(beat, dock.survey_job.run, idle)
            ok = dock.panel.progressBar.value() == 100
            row(f"{label}, {fs.n_requests - sent} requests sent", elapsed, gaps, ok)
        rated = list(dock.results.rated_layers)
        results = dock.results
        elapsed, gaps = measure(beat, results.use_selected_layers, idle)
        row("metrics, 1,000 bootstraps (2 layers)", elapsed, gaps, results.metrics.rowCount() == 2)
        overlay = dock.overlay
        overlay.pointsCombo.setLayer(rated[0])
        overlay.unitsCombo.setLayer(counties)
        overlay.minPointsSpin.setValue(1)
        elapsed, gaps = measure(beat, overlay.aggregate, idle)
        units = overlay.units_layer
        row("Overlay: aggregate to the counties", elapsed, gaps, units is not None)
        for i in range(overlay.fieldsList.count()):
            item = overlay.fieldsList.item(i)
            on = item.text() == "unemployment"
            item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)
        overlay.valueFieldCombo.setField("mean_rank_error")
        elapsed, gaps = measure(beat, overlay.correlate, idle)
        row("Overlay: correlate", elapsed, gaps, overlay.corrTable.rowCount() == 1)
        overlay.hotFieldCombo.setField("mean_rank_error")
        elapsed, gaps = measure(beat, overlay.hotspots, idle)
        row("Overlay: hot spots, 999 permutations", elapsed, gaps, overlay.hot_result is not None)
        results.metricsView.selectRow(0)  # the report of the first row's layer
        layouts = project.layoutManager().layouts
        elapsed, gaps = measure(beat, results.make_report, idle)
        row("report (PDF, PNG, layout and its layers)", elapsed, gaps, len(layouts()) == 1)
        compare = dock.compare
        compare.use_selected_layers()
        elapsed, gaps = measure(beat, compare.compare, idle)
        row("Compare: 2 models", elapsed, gaps, bool(compare.pivots))
        dock.close_survey()
        save_endpoints([])
        beat.close()
    print(f"GeoBias dock on the US counties: {n_points} points, 1 topic, 2 stub models; "
          f"longest main-thread stall per job (target <= {TARGET_MS:.0f} ms)")  # fmt: skip
    header = ("job", "until shown", "max stall", "99th pct gap", "longest GC", "ok")
    cells = [(*r[:5], "yes" if r[5] else "NO") for r in rows]
    widths = [max(len(str(c[i])) for c in cells + [header]) for i in range(len(header))]
    print("  ".join(h.ljust(w) for h, w in zip(header, widths)))
    for c in cells:
        print("  ".join(str(v).ljust(w) for v, w in zip(c, widths)))
    print("longest GC: the longest garbage collection meanwhile, in any thread; it holds the GIL, "
          f"so the main thread's Python waits as long (a full one here: {full_collection():.0f} "
          "ms).")  # fmt: skip
    canvas.stopRendering()
    window.close()
    project.clear()
    return rows


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
