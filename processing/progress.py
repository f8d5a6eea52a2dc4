"""How the algorithms report a long run: one progress bar that reaches 100, time estimates from
rates measured on this machine (core/engine/throughput.py) as ranges, and the running text only
where it is shown in place.

qgis_process prints every progress text as a line of its own, in the middle of its
"0...10...20" stream, and QGIS's Processing dialog copies each into its log. So the count of a
run ("12/40 requests, 1.3/s") goes out only to a feedback that shows it in place (the dock's,
`live_text`); elsewhere the algorithm says what it will do before the bar starts and what it
did after it ends.
"""

import math
import os
import time

from qgis.core import QgsApplication, QgsProcessingFeedback

from ..core.engine.throughput import RateBook, RateTracker, TimeLeft, rate_key
from ..i18n_util import tr

__all__ = [
    "Later",
    "PartFeedback",
    "RunProgress",
    "duration_text",
    "estimate_text",
    "herb_key",
    "live_text",
    "measured_text",
    "rate_book",
    "rates_path",
    "remembered_left",
    "span_text",
    "step_text",
    "survey_key",
]


# A throttled run says its countdown in the log this often (in place: at every progress).
LOG_WAIT_EVERY_S = 10.0


def live_text(feedback):
    """Whether `feedback` shows the progress text in place (the dock's run panel) rather than
    printing or logging each one (qgis_process, the Processing dialog)."""
    return bool(getattr(feedback, "live_text", False))


def step_text(feedback, text):
    """A step's name ("Writing the rated layers…") where it is shown in place."""
    if feedback is not None and live_text(feedback):
        feedback.setProgressText(text)


class PartFeedback(QgsProcessingFeedback):
    """One part of an algorithm's run: its own 0–100 fills [start, end] of the parent's bar;
    texts and messages go to the parent, a cancel of the parent cancels it."""

    def __init__(self, parent, start, end):
        super().__init__()
        self.parent_feedback, self.start, self.end = parent, float(start), float(end)
        self.live_text = live_text(parent)
        parent.canceled.connect(self.cancel)
        if parent.isCanceled():
            self.cancel()

    def setProgress(self, progress):
        super().setProgress(progress)
        p = min(max(float(progress), 0.0), 100.0)
        self.parent_feedback.setProgress(self.start + (self.end - self.start) * p / 100.0)

    def setProgressText(self, text):
        self.parent_feedback.setProgressText(text)

    def set_eta(self, seconds, low, high):
        if hasattr(self.parent_feedback, "set_eta"):
            self.parent_feedback.set_eta(seconds, low, high)

    def pushInfo(self, info):
        self.parent_feedback.pushInfo(info)

    def pushWarning(self, warning):
        self.parent_feedback.pushWarning(warning)

    def pushDebugInfo(self, info):
        self.parent_feedback.pushDebugInfo(info)

    def pushCommandInfo(self, info):
        self.parent_feedback.pushCommandInfo(info)

    def pushConsoleInfo(self, info):
        self.parent_feedback.pushConsoleInfo(info)

    def reportError(self, error, fatalError=False):  # noqa: N803 (QGIS's name)
        self.parent_feedback.reportError(error, fatalError)


class Later:
    """Stands for a feedback where lines are only kept (`lines`), to be said once the bar is
    full: qgis_process would print them in the middle of its progress stream."""

    def __init__(self, lines):
        self.lines = lines

    def pushInfo(self, info):
        self.lines.append(info)

    def isCanceled(self):
        return False


# ---------------------------------------------------------------------- texts
def _seconds_text(seconds):
    return tr("{s} s").format(s=int(round(seconds)))


def span_text(low, high):
    """A time range in the unit that suits it: '20–40 s', '40 s – 3 min', '2–5 min',
    '1.5–3 h'; one value when both ends round alike."""
    low, high = max(0.0, low), max(low, high)
    if high < 90:
        a, b = int(round(low)), max(1, int(round(high)))
        return _seconds_text(b) if a >= b else tr("{a}–{b} s").format(a=a, b=b)
    if high < 5400:
        b = max(2, int(math.ceil(high / 60.0)))
        if low < 60:
            return tr("{a} – {b} min").format(a=_seconds_text(max(low, 1)), b=b)
        a = int(low // 60)
        return tr("{b} min").format(b=b) if a >= b else tr("{a}–{b} min").format(a=a, b=b)
    a, b = low / 3600.0, high / 3600.0
    if low < 3600:
        return tr("{a} min – {b:.1f} h").format(a=int(low // 60), b=b)
    if round(a, 1) >= round(b, 1):
        return tr("{b:.1f} h").format(b=b)
    return tr("{a:.1f}–{b:.1f} h").format(a=a, b=b)


def duration_text(seconds):
    """One duration: '42 s', '3 min 20 s', '1 h 05 min'."""
    seconds = int(round(max(seconds, 0.0)))
    if seconds >= 3600:
        return tr("{h} h {m:02d} min").format(h=seconds // 3600, m=seconds % 3600 // 60)
    if seconds >= 60:
        return tr("{m} min {s:02d} s").format(m=seconds // 60, s=seconds % 60)
    return _seconds_text(seconds)


def estimate_text(left, runs=0):
    """The time of a coming run from a core.rates.TimeLeft, saying where its rate comes from;
    `left` None: said to be measured on the first requests."""
    if left is None:
        return tr("time unknown until the first requests are timed on this machine")
    if left.seconds <= 0:
        return tr("nothing left to do")
    span = span_text(left.low, left.high)
    if left.source == "remembered":
        return tr("about {span} (rate of {n} earlier run(s) on this machine; the load of the "
                  "machine changes it)").format(span=span, n=runs)  # fmt: skip
    return tr("about {span} (rate measured now on this machine)").format(span=span)


def measured_text(rate, unit):
    """'Measured on this machine: 1.32 requests/s over 41 s.' from a core MeasuredRate;
    `unit` names the items ("requests", "sentences")."""
    if rate is None or rate.seconds <= 0:
        return ""
    return tr("Measured on this machine: {r:.2f} {unit}/s over {t}.").format(
        r=rate.per_s, unit=unit, t=duration_text(rate.seconds)
    )


# ---------------------------------------------------------------------- remembered rates
def rates_path():
    """Where rates of past runs are remembered: beside the survey cache, in the QGIS profile."""
    folder = os.path.join(QgsApplication.qgisSettingsDirPath(), "geobias")
    return os.path.join(folder, "rates.json")


def rate_book():
    """The rates remembered per model and machine (core.rates.RateBook)."""
    return RateBook(rates_path())


def remembered_left(key, items_left):
    """(TimeLeft or None, runs) for `items_left` at the rate remembered under `key`."""
    if items_left <= 0:
        return TimeLeft(0.0, 0.0, 0.0), 0
    prior = rate_book().get(key)
    if prior is None:
        return None, 0
    tracker = RateTracker(prior=prior)
    return tracker.time_left(items_left), prior.runs


class RunProgress:
    """Reports core Progress to a Processing feedback.

    The bar goes from `start` to `end` with done/total; the text from `text(p)` and the ETA's
    range (`feedback.set_eta`) go to a feedback that shows them in place, nowhere else. `key`
    (core.rates.rate_key): the run's measured rate is remembered at `finish()`.
    """

    def __init__(self, feedback, text=None, start=0.0, end=100.0, key=None):
        self.feedback, self.text = feedback, text
        self.start, self.end, self.key = start, end, key
        self.live = live_text(feedback)
        self.last = None
        self.said = None  # when the last throttle countdown line went to the log

    def __call__(self, p):
        self.last = p
        f = self.feedback
        f.setProgress(self.start + (self.end - self.start) * p.done / max(p.total, 1))
        waiting = getattr(p, "waiting_s", 0.0) > 0
        if waiting:  # the endpoint throttles the run: a countdown, in place and in the log
            from .endpoints import waiting_text

            line = waiting_text(p)
            now = time.monotonic()
            if self.said is None or now - self.said >= LOG_WAIT_EVERY_S:
                self.said = now
                f.pushInfo(line)
            if self.live:
                f.setProgressText(line)
            return
        self.said = None
        if not self.live:
            return
        if self.text is not None:
            f.setProgressText(self.text(p))
        if hasattr(f, "set_eta"):
            low = p.eta_low if p.eta_low is not None else math.nan
            high = p.eta_high if p.eta_high is not None else math.nan
            f.set_eta(float(p.eta_s), float(low), float(high))

    def finish(self, unit, after=None):
        """Remember the run's rate (under `key`) and say it in the log, or add the line to the
        list `after` (to be said once the bar is full); `unit` names the items ("requests").
        Returns the line ('' when too little was measured)."""
        p = self.last
        if p is None or p.measured is None:
            return ""
        if self.key:
            rate_book().record(self.key, p.measured)
        line = measured_text(p.measured, unit)
        if line and after is not None:
            after.append(line)
        elif line:
            self.feedback.pushInfo(line)
        return line


def survey_key(endpoint):
    """The key a survey endpoint's rate is remembered under (requests per second)."""
    return rate_key("survey", endpoint.model, endpoint.host(), endpoint.concurrency)


def herb_key(kind, identity, host, concurrency):
    """The key a HERB scorer's rate is remembered under (sentences per second)."""
    return rate_key(f"herb:{kind}", identity, host, concurrency)
