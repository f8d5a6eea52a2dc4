"""Run GeoBias Processing algorithms one after the other as a cancellable QGIS background task."""

import re
import time

from qgis.core import (
    Qgis,
    QgsApplication,
    QgsFeatureRequest,
    QgsMemoryProviderUtils,
    QgsMessageLog,
    QgsProcessingAlgorithm,
    QgsProcessingContext,
    QgsProcessingException,
    QgsProcessingFeedback,
    QgsProject,
    QgsTask,
    QgsVectorLayerFeatureSource,
)
from qgis.PyQt.QtCore import pyqtSignal

from ..core.wording import strip_reprs
from ..i18n_util import message_text, tr

LOG_TAG = "GeoBias"


def log(message, level=Qgis.MessageLevel.Info):
    QgsMessageLog.logMessage(message, LOG_TAG, level)


# "ValueError: ", "shapely.errors.GEOSException: ": an exception's class before its message.
_EXCEPTION_CLASS = re.compile(r"^(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception): ")


def is_traceback(text):
    """Whether an error's text is a Python traceback: a bug to log, not a user's mistake."""
    return str(text or "").lstrip().startswith("Traceback (most recent call last)")


def error_sentence(error, limit=300):
    """The one line a user reads from an error (an exception or its text).

    A traceback gives its last line, the exception's message without its class names (which
    stay in the log); other text its first line. Never more than `limit` characters.
    """
    # In the interface language (core's messages through tr()); a KeyError without its quotes.
    text = strip_reprs(message_text(error or ""))  # urllib3's "<… object at 0x7f…>", pools
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
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


class LayerSnapshot:
    """A layer of the user's project as a task's algorithm reads it: made on the main thread
    from QGIS's thread-safe feature source (all features or the selected ones), copied into a
    memory layer in the task's thread. The task never touches the project's layers, which the
    main thread may be adding, restyling or removing meanwhile (that race crashed QGIS)."""

    def __init__(self, layer, selected=False):
        self.source = QgsVectorLayerFeatureSource(layer)
        self.name, self.fields = layer.name(), layer.fields()
        self.wkb_type, self.crs = layer.wkbType(), layer.crs()
        self.fids = layer.selectedFeatureIds() if selected else None

    def layer(self):
        """The copy, in the calling (task's) thread."""
        copy = QgsMemoryProviderUtils.createMemoryLayer(
            self.name, self.fields, self.wkb_type, self.crs
        )
        request = QgsFeatureRequest()
        if self.fids is not None:
            request.setFilterFids(self.fids)
        copy.dataProvider().addFeatures(list(self.source.getFeatures(request)))
        return copy


def resolve_snapshots(params, context, made=None):
    """`params` with each LayerSnapshot (also in lists) replaced by its copy's id in the
    context's own layer store; `made` maps snapshots already copied to their ids."""
    made = {} if made is None else made

    def resolve(value):
        if isinstance(value, (list, tuple)):
            return [resolve(v) for v in value]
        if not isinstance(value, LayerSnapshot):
            return value
        if id(value) not in made:
            copy = value.layer()
            if context.temporaryLayerStore().addMapLayer(copy) is None:
                raise RuntimeError(f"the snapshot of layer {value.name!r} is not a valid layer")
            made[id(value)] = copy.id()
        return made[id(value)]

    return {key: resolve(value) for key, value in params.items()}


class AlgorithmChainTask(QgsTask):
    """Runs steps [(algorithm id, params or callable(previous results) -> params)] in a thread.

    A step may also be (callable(task) -> dict, label): plain Python work done in the task's
    thread between algorithms (start the embedded model, style written layers).
    Each algorithm is prepared and run in the task's thread and post-processed on the main
    thread when the task ends, as the Processing toolbox runs it (the report adds its layout
    to the project there). In the thread the context's project is an empty one with the
    user's project's CRS, ellipsoid and transformations: a layer of the user's project
    reaches an algorithm as a file path (opened anew) or a LayerSnapshot. Outputs should be
    files (GeoPackages): layers are opened in the task and moved to the main thread, which only
    adds them. `results` holds each step's outputs; `error` the first failure as one sentence,
    `details` its full text, `bug` whether that text is a traceback (a bug, logged) rather than
    a user's mistake (said in the tab).
    """

    stepStarted = pyqtSignal(int, str)

    def __init__(self, description, steps, project=None):
        super().__init__(description, QgsTask.Flag.CanCancel)
        self.steps = list(steps)
        self.results = []
        self.error = ""
        self.details = ""
        self.bug = False
        self.feedback = Feedback()
        self.feedback.progressChanged.connect(self._step_progress)
        self.project = project or QgsProject.instance()
        # What the thread's own project copies of the user's, read here on the main thread.
        self.settings = (self.project.crs(), self.project.ellipsoid(),
                         self.project.transformContext())  # fmt: skip
        self.context = None  # made in run(): a context belongs to the thread that creates it
        self.own_project = None
        self.snapshots = {}  # LayerSnapshot copies made in this run
        self.current = 0
        self.started_at = None
        self.elapsed = 0.0
        self.post = []  # (step index, algorithm) to post-process on the main thread

    def _step_progress(self, percent):
        n = max(1, len(self.steps))
        self.setProgress((self.current + percent / 100.0) / n * 100.0)

    def cancel(self):
        self.feedback.cancel()
        super().cancel()

    def fail(self, text, details=None):
        """Record a failure: its sentence, its full text and whether that is a traceback."""
        self.details = str(details if details is not None else text or "")
        self.bug = is_traceback(self.details)
        self.error = error_sentence(text) if text else ""
        return False

    def run(self):
        self.started_at = time.monotonic()
        crs, ellipsoid, transforms = self.settings
        self.own_project = QgsProject()
        self.own_project.setCrs(crs)
        self.own_project.setEllipsoid(ellipsoid)
        self.own_project.setTransformContext(transforms)
        self.context = QgsProcessingContext()
        self.context.setProject(self.own_project)
        registry = QgsApplication.processingRegistry()
        try:
            for i, (alg_id, params) in enumerate(self.steps):
                if self.isCanceled():
                    return False
                self.current = i
                if callable(alg_id):
                    self.stepStarted.emit(i, str(params))
                    out = alg_id(self)
                    if self.error or self.feedback.isCanceled():  # an algorithm it ran failed
                        return False
                    self.results.append(out or {})
                    continue
                self.stepStarted.emit(i, alg_id)
                alg = registry.createAlgorithmById(alg_id)
                if alg is None:
                    return self.fail(
                        tr("Processing algorithm {id} is not available.").format(id=alg_id)
                    )
                if callable(params):
                    params = params(self.results)
                results = self.run_algorithm(alg, params, i)
                if results is None:
                    return False
                self.results.append(results)
            return not self.isCanceled()  # a cancel during the last step still counts
        except Exception as e:  # surfaced in the message bar, traceback only in the log
            import traceback

            return self.fail(e, traceback.format_exc())
        finally:
            self.elapsed = time.monotonic() - self.started_at
            # Temporary layers die with the context here, in the thread that made them.
            self.context = None
            self.own_project = None
            self.snapshots = {}

    def run_algorithm(self, alg, params, index):
        """Run an algorithm (an instance, or its id from a callable step) in this thread as
        step `index`: prepare() and runPrepared() here, postProcess() queued for the main
        thread. Returns its results, or None (and `error`) when it failed or was cancelled.

        A QgsProcessingException carries the algorithm's sentence (a user's mistake, a refused
        request) or, for a Python exception in the algorithm, its traceback (a bug).
        """
        if isinstance(alg, str):
            alg_id = alg
            alg = QgsApplication.processingRegistry().createAlgorithmById(alg_id)
            if alg is None:
                self.fail(tr("Processing algorithm {id} is not available.").format(id=alg_id))
                return None
        if alg.flags() & QgsProcessingAlgorithm.Flag.FlagNoThreading and not getattr(
            alg, "PROCESS_IN_THREAD", False
        ):
            self.fail(tr("{alg} cannot run in the background.").format(alg=alg.displayName()))
            return None
        params = resolve_snapshots(params, self.context, self.snapshots)
        ok_params, msg = alg.checkParameterValues(params, self.context)
        if not ok_params:
            self.fail(msg)
            return None
        if not alg.prepare(params, self.context, self.feedback):
            self.fail(self.feedback.last_error or alg.displayName())
            return None
        try:
            results = alg.runPrepared(params, self.context, self.feedback)
        except QgsProcessingException as e:
            if not self.feedback.isCanceled():
                self.fail(str(e) or tr("{alg} failed; see the GeoBias log").format(
                    alg=alg.displayName()))  # fmt: skip
            return None
        if self.feedback.isCanceled():
            return None
        self.post.append((index, alg))
        return results

    def finished(self, result):
        """On the main thread, before taskCompleted: the algorithms' post-processing (the
        quick steps that touch the project). A failure here turns the run into a failure."""
        if not result:
            return
        context = QgsProcessingContext()
        context.setProject(self.project)
        for i, alg in self.post:
            self.feedback.last_error = ""
            # The event loop runs on after this: an algorithm may split its main-thread work
            # across its turns (the report makes its layout's items one at a time).
            alg.main_loop = True
            try:
                results = alg.postProcess(context, self.feedback)
            except Exception as e:
                import traceback

                self.fail(e, traceback.format_exc())
                return
            if self.feedback.last_error:  # Processing caught the exception and reported it
                self.fail(self.feedback.last_error)
                return
            if results and i < len(self.results):
                self.results[i] = dict(self.results[i], **results)
        self.post = []
