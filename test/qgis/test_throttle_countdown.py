"""The throttle's countdown (issue 31 item 1): while the endpoint throttles a run, the dock's run
panel shows the wait in place at every progress report and the Processing log says it every
10 s, and the running text comes back once answers flow."""

from qgis.core import QgsProcessingFeedback

from geobias.core.engine.http_client import Cause
from geobias.core.engine.workers import Progress
from geobias.processing.progress import RunProgress


class Panel(QgsProcessingFeedback):
    """What the dock's run panel gets (ui/task.py Feedback shows its text in place)."""

    live_text = True

    def __init__(self):
        super().__init__()
        self.texts, self.log = [], []

    def setProgressText(self, text):  # noqa: N802 - QGIS's name
        self.texts.append(text)

    def pushInfo(self, text):  # noqa: N802 - QGIS's name
        self.log.append(text)


def test_the_wait_is_counted_down_in_place_and_said_in_the_log(processing_ready):
    panel = Panel()
    progress = RunProgress(panel, text=lambda p: f"{p.done}/{p.total} requests")
    cause = Cause("status", 429, throttled=True)
    for left in (42.3, 41.8, 41.1):
        progress(Progress(10, 100, 1.0, 90.0, 1.0, 0, None, None, None, left, cause, 1750.0))
    assert panel.texts[0].startswith("Throttled: the endpoint answered HTTP 429")
    assert "waiting 43 s" in panel.texts[0] and "waiting 42 s" in panel.texts[2]
    assert "29 min of patience left" in panel.texts[0]
    assert len(panel.log) == 1  # once, not at every report
    progress(Progress(11, 100, 1.0, 89.0, 1.0))
    assert panel.texts[-1] == "11/100 requests"
    progress(Progress(11, 100, 1.0, 89.0, 1.0, 0, None, None, None, 5.0, cause, 1700.0))
    assert len(panel.log) == 2  # a new wait is said again
