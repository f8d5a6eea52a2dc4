"""Run GeoBias Processing algorithms one after the other as a cancellable QGIS background task."""

import re
import time

from qgis.core import (
    Qgis,
    QgsApplication,
    QgsMessageLog,
    QgsProcessingContext,
    QgsProcessingFeedback,
    QgsProject,
    QgsTask,
)
from qgis.PyQt.QtCore import pyqtSignal

from ..i18n_util import tr

LOG_TAG = "GeoBias"


def log(message, level=Qgis.MessageLevel.Info):
    QgsMessageLog.logMessage(message, LOG_TAG, level)


# "ValueError: ", "shapely.errors.GEOSException: ": an exception's class before its message.
_EXCEPTION_CLASS = re.compile(r"^(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception): ")


def error_sentence(error, limit=300):
    """The one line a user reads from an error (an exception or its text).

    A traceback gives its last line, the exception's message without its class names (which
    stay in the log); other text its first line. Never more than `limit` characters.
    """
    lines = [ln.strip() for ln in str(error or "").splitlines() if ln.strip()]
    if not lines:
        return type(error).__name__ if isinstance(error, BaseException) else ""
    traceback = lines[0].startswith("Traceback (most recent call last)")
    line = lines[-1] if traceback else lines[0]
    while _EXCEPTION_CLASS.match(line):
        line = _EXCEPTION_CLASS.sub("", line, count=1)
    line = line.strip().rstrip(".") or lines[-1]
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


class Feedback(QgsProcessingFeedback):
    """Processing feedback that forwards progress text, the step's time left and messages as
    (queued) signals. The run panel shows the text in place (`live_text`): the algorithms send
    their running counts to it, not to qgis_process's output or the Processing log."""

    text = pyqtSignal(str)
    message = pyqtSignal(str, int)
    eta = pyqtSignal(float, float, float)  # seconds left, its range (NaN while timing)
    live_text = True

    def set_eta(self, seconds, low, high):
        self.eta.emit(float(seconds), float(low), float(high))

    def setProgressText(self, text):
        super().setProgressText(text)
        self.text.emit(text)

    def pushInfo(self, info):
        super().pushInfo(info)
        self.message.emit(info, int(Qgis.MessageLevel.Info))

    def pushWarning(self, warning):
        super().pushWarning(warning)
        self.message.emit(warning, int(Qgis.MessageLevel.Warning))

    last_error = ""

    def reportError(self, error, fatalError=False):
        super().reportError(error, fatalError)
        self.last_error = error
        self.message.emit(error, int(Qgis.MessageLevel.Critical))


class AlgorithmChainTask(QgsTask):
    """Runs steps [(algorithm id, params or callable(previous results) -> params)] in a thread.

    A step may also be (callable(task) -> dict, label): plain Python work done in the task's
    thread between algorithms (start the embedded model, style written layers).
    Outputs should be files (GeoPackages): layers are loaded by the caller in `finished`,
    on the main thread. `results` holds each step's outputs; `error` the first failure as one
    sentence, `details` its full text (a traceback) for the log.
    """

    stepStarted = pyqtSignal(int, str)

    def __init__(self, description, steps, project=None):
        super().__init__(description, QgsTask.Flag.CanCancel)
        self.steps = list(steps)
        self.results = []
        self.error = ""
        self.details = ""
        self.feedback = Feedback()
        self.feedback.progressChanged.connect(self._step_progress)
        self.project = project or QgsProject.instance()
        self.context = None  # made in run(): a context belongs to the thread that creates it
        self.current = 0
        self.started_at = None
        self.elapsed = 0.0

    def _step_progress(self, percent):
        n = max(1, len(self.steps))
        self.setProgress((self.current + percent / 100.0) / n * 100.0)

    def cancel(self):
        self.feedback.cancel()
        super().cancel()

    def run(self):
        self.started_at = time.monotonic()
        self.context = QgsProcessingContext()
        self.context.setProject(self.project)
        registry = QgsApplication.processingRegistry()
        try:
            for i, (alg_id, params) in enumerate(self.steps):
                if self.isCanceled():
                    return False
                self.current = i
                if callable(alg_id):
                    self.stepStarted.emit(i, str(params))
                    self.results.append(alg_id(self) or {})
                    continue
                self.stepStarted.emit(i, alg_id)
                alg = registry.createAlgorithmById(alg_id)
                if alg is None:
                    self.error = tr("Processing algorithm {id} is not available.").format(id=alg_id)
                    return False
                if callable(params):
                    params = params(self.results)
                ok_params, msg = alg.checkParameterValues(params, self.context)
                if not ok_params:
                    self.error, self.details = error_sentence(msg), msg
                    return False
                results, ok = alg.run(params, self.context, self.feedback)
                if not ok or self.feedback.isCanceled():
                    if not self.feedback.isCanceled():
                        # A Python exception in an algorithm arrives here as its traceback.
                        self.details = self.feedback.last_error
                        self.error = error_sentence(self.details) or tr(
                            "{alg} failed; see the GeoBias log"
                        ).format(alg=alg.displayName())
                    return False
                self.results.append(results)
            return True
        except Exception as e:  # surfaced in the message bar, traceback only in the log
            import traceback

            self.details = traceback.format_exc()
            self.error = error_sentence(e)
            log(self.details, Qgis.MessageLevel.Critical)
            return False
        finally:
            self.elapsed = time.monotonic() - self.started_at
            # Temporary layers die with the context here, in the thread that made them.
            self.context = None
