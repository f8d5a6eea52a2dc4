"""One run panel for every background job of the dock: Run (or Resume), Cancel, a progress bar
and a line saying what runs, how far it is and when it should end; why it stopped in one
sentence, with the traceback only in the GeoBias log."""

import gc
import os
import time

from qgis.core import Qgis, QgsApplication
from qgis.PyQt import uic
from qgis.PyQt.QtCore import QCoreApplication, pyqtSignal
from qgis.PyQt.QtWidgets import QWidget

from ..i18n_util import tr
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
        self.resumable = True
        self.labels = self.step_labels

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
              resumable=True, labels=None):  # fmt: skip
        """Run `task` in QGIS's task manager; `done(task)` when it succeeds.

        `stopped_sentence(reason)` words a failure for the message bar (the reason alone by
        default); `cancelled_text` is shown after a cancel; `explain(sentence)` shows a failure
        in the tab that started the job; `resumable`: a failure leaves Run saying Resume;
        `labels`: what the progress line says when a step starts (by algorithm id or label).
        Returns False (and starts nothing) while another job runs.
        """
        if self.task is not None:
            return False
        self.task = task
        self.done = done
        self.stopped_sentence = stopped_sentence or (lambda reason: reason)
        self.explain = explain
        self.resumable = resumable
        self.labels = self.step_labels if labels is None else labels
        self.cancelled_text = cancelled_text or (
            tr("Cancelled. Results so far are cached: Resume continues where it stopped.")
            if resumable
            else tr("Cancelled.")
        )
        self.started = time.monotonic()
        self.step_text = ""
        task.progressChanged.connect(self._progress)
        task.feedback.text.connect(self._progress_text)
        task.stepStarted.connect(self._step_started)
        task.feedback.message.connect(lambda m, level: log(m, Qgis.MessageLevel(level)))
        task.taskCompleted.connect(self._completed)
        task.taskTerminated.connect(self._terminated)
        self.runButton.setEnabled(False)
        self.cancelButton.setEnabled(True)
        self.progressBar.setValue(0)
        self.set_text(tr("Starting…"))
        freeze_heap()
        QgsApplication.taskManager().addTask(task)
        self.busyChanged.emit(True)
        return True

    def cancel(self):
        if self.task is not None:
            # First: a task that has not started yet ends inside cancel(), saying so.
            self.set_text(tr("Cancelling…"))
            self.task.cancel()

    def stop(self):
        """Cancel and forget the running task (the plugin unloads)."""
        if self.task is not None:
            self.task.cancel()
            self.task = None
            thaw_heap()

    def _step_started(self, index, name):
        text = self.labels.get(name)
        if text:
            self._progress_text(text)

    def _progress(self, percent):
        self.progressBar.setValue(int(percent))
        self._show_progress_text(percent)

    def _progress_text(self, text):
        self.step_text = text
        self._show_progress_text(self.progressBar.value())

    def _show_progress_text(self, percent):
        """The step's own text (done/total, rate, answer rate) and the run's ETA."""
        elapsed = time.monotonic() - self.started
        eta = elapsed * (100.0 - percent) / percent if percent > 1 else None
        text = self.step_text
        if eta is not None:
            text = tr("{text} · ETA {eta}").format(text=text, eta=fmt_duration(eta))
        self.progressLabel.setText(text)

    def _finish(self):
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
        if self.resumable:
            self.runButton.setText(self.resume_text)
        if task is None:
            return
        if not task.error:
            self.set_text(self.cancelled_text)
            return
        sentence = error_sentence(task.error)
        if self.explain is None or task.bug:
            # One sentence in the bar; a traceback behind Details, in the GeoBias log.
            self.push(
                self.stopped_sentence(task.error),
                Qgis.MessageLevel.Critical,
                details=task.details or task.error,
            )
        if self.resumable:
            self.set_text(
                tr("Stopped: {reason}. Resume continues where it stopped.").format(reason=sentence)
            )
        else:
            self.set_text(tr("Stopped: {reason}.").format(reason=sentence))
        if self.explain is not None:
            self.explain(sentence)

    def succeeded(self, task):
        """Show a finished run: the bar full, its duration."""
        self.progressBar.setValue(100)
        self.set_text(tr("Done in {t}.").format(t=fmt_duration(task.elapsed)))
