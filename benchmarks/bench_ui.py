"""Dock responsiveness: the longest main-thread stall while a survey runs as a background task.

A QTimer beats every 10 ms on the main thread; the largest gap between beats is how long the
UI was frozen. The survey (points x topics against an instant local stub chat server, ground
truth from the bundled countries, metrics) is started from the dock exactly as the Run button
does, after the confirmation; the run ends when its layers and metrics are shown.

    .venv/bin/python benchmarks/bench_ui.py [n_points]
"""

import os
import sys
import tempfile
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(ROOT))  # the repository imports as `geobias`

TARGET_MS = 100.0
TOPICS = ("Infant Mortality Rate", "Average Attractiveness of Residents")
AREA = "POLYGON((-10 0,40 0,40 50,-10 50,-10 0))"


class Heartbeat:
    """Max and 99th percentile gap between 10 ms timer ticks on the main thread."""

    def __init__(self):
        from qgis.PyQt.QtCore import QTimer

        self.gaps = []
        self.last = None
        self.timer = QTimer()
        self.timer.setInterval(10)
        self.timer.timeout.connect(self.tick)

    def tick(self):
        now = time.perf_counter()
        if self.last is not None:
            self.gaps.append((now - self.last) * 1000.0)
        self.last = now

    def start(self):
        self.gaps, self.last = [], time.perf_counter()
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
    from geobias.processing.provider import GeoBiasProvider

    provider = GeoBiasProvider()
    QgsApplication.processingRegistry().addProvider(provider)
    return app, provider


def run_survey(dock, beat, timeout=600.0):
    """Press Run (confirmation accepted); returns (main-thread pre-run s, run s, gaps ms)."""
    from qgis.PyQt.QtCore import QCoreApplication, QEventLoop

    dock.confirm = lambda plan: True
    t0 = time.perf_counter()
    start = dock.start

    def start_with_beat(plan):
        nonlocal t1
        t1 = time.perf_counter()
        beat.start()
        start(plan)

    t1 = None
    dock.start = start_with_beat
    dock.run()
    deadline = time.monotonic() + timeout
    while dock.panel.task is not None and time.monotonic() < deadline:
        QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 5)
        time.sleep(0.001)
    gaps = beat.stop()
    dock.start = start
    return t1 - t0, time.perf_counter() - t1, gaps


def main(n_points=200):
    import numpy as np
    from qgis.core import QgsGeometry, QgsProject, QgsVectorLayer
    from qgis.gui import QgsMapCanvas, QgsMessageBar
    from qgis.PyQt.QtWidgets import QMainWindow

    from geobias.paths import DATA
    from geobias.test.faultserver import FaultServer
    from geobias.test.qtstub import StubIface
    from geobias.ui.dock import GeoBiasDock
    from geobias.ui.settings import EndpointConfig, save_endpoints

    profile = tempfile.mkdtemp(prefix="geobias-bench-ui-")
    app, provider = setup(profile)
    window = QMainWindow()
    iface = StubIface(window, QgsMapCanvas(window), QgsMessageBar(window))
    rows = []
    with FaultServer() as fs:
        save_endpoints([EndpointConfig("stub", "custom", fs.base_url, "fault", concurrency=8)])
        dock = GeoBiasDock(iface)
        ui = dock.area
        dock.ui.nameEdit.setText("bench")
        ui.drawn = QgsGeometry.fromWkt(AREA)
        ui.drawRadio.setChecked(True)
        ui.nPointsSpin.setValue(n_points)
        ui.methodCombo.setCurrentIndex(ui.methodCombo.findData("population"))
        dock.survey.set_checked_topics(list(TOPICS))
        dock.survey.refresh_models({"stub"})
        countries = QgsVectorLayer(
            os.path.join(DATA, "world_countries.gpkg") + "|layername=countries", "countries", "ogr"
        )
        QgsProject.instance().addMapLayer(countries)
        dock.survey.truth[TOPICS[0]] = (countries.id(), "infant_mortality")
        beat = Heartbeat()
        n_req = n_points * len(TOPICS)
        for label in ("first run", "re-run (all cached)"):
            sent_before = fs.n_requests
            pre, run, gaps = run_survey(dock, beat)
            ok_run = dock.panel.progressBar.value() == 100
            sent = fs.n_requests - sent_before
            worst = max(gaps) if gaps else float("nan")
            p99 = float(np.percentile(gaps, 99)) if gaps else float("nan")
            rows.append((f"{label}: {n_req} answers, {sent} sent", f"{run:.2f} s", "", ok_run))
            rows.append((f"{label}: max main-thread stall", f"{worst:.0f} ms",
                         f"<= {TARGET_MS:.0f} ms", worst <= TARGET_MS))  # fmt: skip
            rows.append((f"{label}: 99th percentile tick gap", f"{p99:.0f} ms", "", True))
            rows.append((f"{label}: pre-run on main thread (sample, estimate)",
                         f"{pre * 1000:.0f} ms", "(before the run)", True))  # fmt: skip
        dock.close_survey()
        save_endpoints([])
    print(f"GeoBias dock: survey of {n_points} points x {len(TOPICS)} topics, stub server")
    header = ("what", "measured", "target", "ok")
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(4)]
    print("  ".join(h.ljust(w) for h, w in zip(header, widths)))
    for r in rows:
        cells = (r[0], r[1], r[2], "yes" if r[3] else "NO")
        print("  ".join(str(c).ljust(w) for c, w in zip(cells, widths)))
    QgsProject.instance().clear()
    return rows


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
