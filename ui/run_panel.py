"""One run panel for every background job of the dock: Run (or Resume), Cancel, a progress bar
and a line saying what runs, how far it is and when it should end; why it stopped in one
sentence, with the traceback only in the GeoBias log.

The time left is the running step's, as a range: the one the step measures itself (the
requests and sentences of a survey or HERB, from core/engine/workers.py), else a moving rate of
the step's own progress (core/engine/throughput.py), never the elapsed time stretched over the
whole bar.
"""

import gc
import math
import os
import time

from qgis.core import Qgis, QgsApplication
from qgis.PyQt import uic
from qgis.PyQt.QtCore import QCoreApplication, QTimer, pyqtSignal
from qgis.PyQt.QtWidgets import QWidget

from ..core.engine.throughput import RateTracker
from ..i18n_util import tr
from ..processing.progress import span_text
from .notice import dismiss
from .task import error_sentence, log

FORM, _ = uic.loadUiType(os.path.join(os.path.dirname(__file__), "run_panel.ui"))


def freeze_heap():
    """While a job runs, keep the objects that exist now out of the garbage collector's scans.

    A collection holds Python's interpreter lock, so a full collection of QGIS's whole heap
    started by the job's thread (120-330 ms measured by benchmarks/bench_ui.py) stalls the
    main thread just as long. gc.freeze() moves today's objects to a permanent generation: the
    job's collections then scan only what the job made. thaw_heap() gives them back when the
    job ends, so nothing that becomes garbage later is kept."""
    gc.freeze()


def thaw_heap():
    gc.unfreeze()


def fmt_duration(seconds):
    """'42 s', '3 min 04 s', '1 h 05 min'; '–' when unknown."""
    if seconds is None or seconds != seconds or seconds == float("inf"):
        return "–"
    seconds = int(seconds)
    if seconds >= 3600:
        return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"
    if seconds >= 60:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds} s"


class RunPanel(QWidget, FORM):
    """Starts AlgorithmChainTasks one at a time and shows their progress.

    The owner connects `runRequested` to its own run method, builds the task and calls
    `start(task, done)`; `done(task)` runs on the main thread when the task succeeds. A failed
    or cancelled task leaves the Run button saying `resume_text`: answers and scores are
    cached, so running again continues where it stopped.

    The dock's tabs start their own jobs here too (`resumable=False`: the Run button keeps its
    text), so one progress bar and one Cancel show whatever runs. `explain(sentence)` shows a
    failure in the tab that started the job: a user's mistake goes there only; a bug (a
    traceback) also goes to the message bar, its traceback to the GeoBias log.
    """

    runRequested = pyqtSignal()
    busyChanged = pyqtSignal(bool)

    def __init__(self, parent, run_text, resume_text, push, step_labels=None):
        super().__init__(parent)
        self.setupUi(self)
        self.run_text, self.resume_text = run_text, resume_text
        self.push = push  # (text, level, details) -> a message bar entry
        self.step_labels = step_labels or {}
        self.runButton.setText(run_text)
        self.runButton.clicked.connect(self.runRequested)
        self.cancelButton.clicked.connect(self.cancel)
        self.task = None
        self.step_text = ""
        self.started = time.monotonic()
        self.stopped_sentence = lambda reason: reason
        self.cancelled_text = ""
        self.explain = None
        self.remedy = None
        self.failure_entry = None  # the message bar entry of the last failure, while shown
        self.resumable = True
        self.labels = self.step_labels
        self.tracker = RateTracker()  # the running step's progress, percent per second
        self.step_eta = None  # (received at, seconds, low, high) measured by the step itself
        self.step_percent = 0.0
        self.several_steps = False
        self.clock = time.monotonic  # tests replay recorded progress on their own clock
        # The time left moves while nothing happens (a pause, a long batch): refresh it.
        self.ticker = QTimer(self)
        self.ticker.setInterval(1000)
        self.ticker.timeout.connect(lambda: self._show_progress_text(self.progressBar.value()))

    @property
    def busy(self):
        return self.task is not None

    def set_text(self, text, paint=False):
        """The line under the progress bar; `paint`: at once (before a blocking step)."""
        self.progressLabel.setText(text)
        if paint:
            self.progressLabel.repaint()
            QCoreApplication.processEvents()

    def start(self, task, done, stopped_sentence=None, cancelled_text=None, explain=None,
              resumable=True, labels=None, remedy=None):  # fmt: skip
        """Run `task` in QGIS's task manager; `done(task)` when it succeeds.

        `stopped_sentence(reason)` words a failure for the message bar (the reason alone by
        default); `cancelled_text` is shown after a cancel; `explain(sentence)` shows a failure
        in the tab that started the job; `resumable`: a failure leaves Run saying Resume;
        `labels`: what the progress line says when a step starts (by algorithm id or label);
        `remedy(details)`: (button text, slot) when a failure has a fix other than running again
        (Repair a broken model environment): the bar offers it, Run does not say Resume.
        Returns False (and starts nothing) while another job runs.
        """
        if self.task is not None:
            return False
        self.clear_failure()  # a new attempt: the last one's failure is no longer the news
        self.task = task
        self.done = done
        self.stopped_sentence = stopped_sentence or (lambda reason: reason)
        self.explain = explain
        self.remedy = remedy
        self.resumable = resumable
        self.labels = self.step_labels if labels is None else labels
        self.cancelled_text = cancelled_text or (
            tr("Cancelled. Results so far are cached: Resume continues where it stopped.")
            if resumable
            else tr("Cancelled.")
        )
        self.started = time.monotonic()
        self.step_text = ""
        self._new_step()
        steps = getattr(task, "steps", [])
        self.several_steps = sum(not callable(alg) for alg, _p in steps) > 1
        task.progressChanged.connect(self._progress)
        task.feedback.progressChanged.connect(self._step_progress)
        task.feedback.text.connect(self._progress_text)
        if hasattr(task.feedback, "eta"):
            task.feedback.eta.connect(self._step_eta)
        task.stepStarted.connect(self._step_started)
        task.feedback.message.connect(lambda m, level: log(m, Qgis.MessageLevel(level)))
        task.taskCompleted.connect(self._completed)
        task.taskTerminated.connect(self._terminated)
        self.runButton.setEnabled(False)
        self.cancelButton.setEnabled(True)
        self.progressBar.setValue(0)
        self.set_text(tr("Starting…"))
        self.ticker.start()
        freeze_heap()
        QgsApplication.taskManager().addTask(task)
        self.busyChanged.emit(True)
        return True

    def cancel(self):
        if self.task is not None:
            self.ticker.stop()  # "Cancelling…" stays until the task ends
            # First: a task that has not started yet ends inside cancel(), saying so.
            self.set_text(tr("Cancelling…"))
            self.task.cancel()

    def stop(self):
        """Cancel and forget the running task (the plugin unloads)."""
        self.ticker.stop()
        if self.task is not None:
            self.task.cancel()
            self.task = None
            thaw_heap()

    def _new_step(self):
        self.tracker.reset()
        self.step_eta = None
        self.step_percent = 0.0
        self.tracker.observe(self.clock(), 0.0)

    def _step_started(self, index, name):
        self._new_step()
        text = self.labels.get(name)
        if text:
            self._progress_text(text)

    def _progress(self, percent):
        self.progressBar.setValue(int(percent))
        self._show_progress_text(percent)

    def _step_progress(self, percent):
        """The running step's own progress (0–100): what its moving rate is measured on."""
        self.step_percent = float(percent)
        self.tracker.observe(self.clock(), self.step_percent)

    def _step_eta(self, seconds, low, high):
        """The time left the step measures itself (NaN range: still timing this machine)."""
        self.step_eta = (self.clock(), seconds, low, high)
        self._show_progress_text(self.progressBar.value())

    def _progress_text(self, text):
        self.step_text = text
        self._show_progress_text(self.progressBar.value())

    def time_left(self):
        """(low, high) seconds left in the running step, "timing" while it is being measured,
        None when nothing says."""
        now = self.clock()
        if self.step_eta is not None:
            at, _seconds, low, high = self.step_eta
            if math.isnan(low) or math.isnan(high):
                return "timing"
            waited = now - at
            return max(low - waited, 0.0), max(high - waited, 0.0)
        left = self.tracker.time_left(100.0 - self.step_percent, now)
        if left is None:
            return None
        return left.low, left.high

    def _show_progress_text(self, percent):
        """The step's own text (done/total, rate, answer rate) and the time it has left."""
        text = self.step_text
        left = self.time_left() if self.task is not None else None
        if left == "timing":
            text = tr("{text} · timing this machine…").format(text=text)
        elif left is not None:
            span = span_text(*left)
            if self.several_steps:
                text = tr("{text} · {span} left in this step").format(text=text, span=span)
            else:
                text = tr("{text} · {span} left").format(text=text, span=span)
        self.progressLabel.setText(text)

    def _finish(self):
        self.ticker.stop()
        task, self.task = self.task, None
        if task is not None:
            thaw_heap()
        self.runButton.setEnabled(True)
        self.cancelButton.setEnabled(False)
        self.busyChanged.emit(False)
        return task

    def _completed(self):
        if self.task is not None and self.task.error:  # its post-processing failed
            self._terminated()
            return
        resumable = self.resumable
        task = self._finish()
        if resumable:  # another tab's job leaves a "Resume survey" as it was
            self.runButton.setText(self.run_text)
        if task is not None:
            self.done(task)

    def _terminated(self):
        task = self._finish()
        if task is None or not task.error:
            if self.resumable:
                self.runButton.setText(self.resume_text)
            if task is not None:
                self.set_text(self.cancelled_text)
            return
        sentence = error_sentence(task.error)
        details = task.details or task.error
        fix = self.remedy(details) if self.remedy is not None else None
        resume = self.resumable and fix is None  # Resume would fail again: offer the fix
        if self.resumable:
            self.runButton.setText(self.resume_text if resume else self.run_text)
        if self.explain is None or task.bug or fix is not None:
            # One sentence in the bar; the whole text behind Details, in the GeoBias log.
            self.clear_failure()
            extra = {} if fix is None else {"button": fix}
            self.failure_entry = self.push(
                self.stopped_sentence(task.error), Qgis.MessageLevel.Critical,
                details=details, **extra,
            )  # fmt: skip
        if resume:
            self.set_text(
                tr("Stopped: {reason}. Resume continues where it stopped.").format(reason=sentence)
            )
        else:
            self.set_text(tr("Stopped: {reason}.").format(reason=sentence))
        if self.explain is not None:
            self.explain(sentence)

    def reset(self):
        """Forget the last run's outcome (a new or opened project); a running task goes on."""
        if self.task is not None:
            return
        self.progressBar.setValue(0)
        self.runButton.setText(self.run_text)
        self.set_text("")

    def clear_failure(self):
        """Take the last failure's message bar entry away (a new start, a success)."""
        entry, self.failure_entry = self.failure_entry, None
        dismiss(entry)

    def succeeded(self, task):
        """Show a finished run: the bar full, its duration; the last failure's entry gone."""
        self.clear_failure()
        self.progressBar.setValue(100)
        self.set_text(tr("Done in {t}.").format(t=fmt_duration(task.elapsed)))
