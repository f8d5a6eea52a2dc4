"""One run panel for every background job of the dock: Run (or Resume), Cancel, a progress bar
and a line saying what runs, how far it is and when it should end; why it stopped in one
sentence, with the traceback only in the GeoBias log."""

import os
import time

from qgis.core import Qgis, QgsApplication
from qgis.PyQt import uic
from qgis.PyQt.QtCore import QCoreApplication, pyqtSignal
from qgis.PyQt.QtWidgets import QWidget

from ..i18n_util import tr
from .task import error_sentence, log

FORM, _ = uic.loadUiType(os.path.join(os.path.dirname(__file__), "run_panel.ui"))


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
    """

    runRequested = pyqtSignal()

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

    @property
    def busy(self):
        return self.task is not None

    def set_text(self, text, paint=False):
        """The line under the progress bar; `paint`: at once (before a blocking step)."""
        self.progressLabel.setText(text)
        if paint:
            self.progressLabel.repaint()
            QCoreApplication.processEvents()

    def start(self, task, done, stopped_sentence=None, cancelled_text=None):
        """Run `task` in QGIS's task manager; `done(task)` when it succeeds.

        `stopped_sentence(reason)` words a failure for the message bar (the reason alone by
        default); `cancelled_text` is shown after a cancel.
        """
        self.task = task
        self.done = done
        self.stopped_sentence = stopped_sentence or (lambda reason: reason)
        self.cancelled_text = cancelled_text or tr(
            "Cancelled. Results so far are cached: Resume continues where it stopped."
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
        QgsApplication.taskManager().addTask(task)

    def cancel(self):
        if self.task is not None:
            self.task.cancel()
            self.set_text(tr("Cancelling…"))

    def stop(self):
        """Cancel and forget the running task (the plugin unloads)."""
        if self.task is not None:
            self.task.cancel()
            self.task = None

    def _step_started(self, index, name):
        text = self.step_labels.get(name)
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
        self.runButton.setEnabled(True)
        self.cancelButton.setEnabled(False)
        return task

    def _completed(self):
        task = self._finish()
        self.runButton.setText(self.run_text)
        if task is not None:
            self.done(task)

    def _terminated(self):
        task = self._finish()
        self.runButton.setText(self.resume_text)
        if task is not None and task.error:
            # One sentence in the bar; the traceback behind Details, in the GeoBias log.
            self.push(
                self.stopped_sentence(task.error),
                Qgis.MessageLevel.Critical,
                details=task.details or task.error,
            )
            self.set_text(
                tr("Stopped: {reason}. Resume continues where it stopped.").format(
                    reason=error_sentence(task.error)
                )
            )
        else:
            self.set_text(self.cancelled_text)

    def reset(self):
        """Forget the last run's outcome (a new or opened project); a running task goes on."""
        if self.task is not None:
            return
        self.progressBar.setValue(0)
        self.runButton.setText(self.run_text)
        self.set_text("")

    def succeeded(self, task):
        """Show a finished run: the bar full, its duration."""
        self.progressBar.setValue(100)
        self.set_text(tr("Done in {t}.").format(t=fmt_duration(task.elapsed)))
