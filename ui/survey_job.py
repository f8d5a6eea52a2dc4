"""The survey's job, as the other tabs run theirs: sample the points (unless previewed) and
count the requests in a first background job, confirm what will be sent, then run the survey's
algorithms (ui/survey_plan.py) on the dock's run panel, and show the results."""

from qgis.core import Qgis
from qgis.PyQt.QtWidgets import QMessageBox

from ..host import embedded_problem
from ..i18n_util import tr, translate
from ..processing.endpoints import embedded_cannot_start
from . import survey_plan
from .task import error_sentence, log


def step_labels():
    """What the progress line says when a step of the run starts (by algorithm or label)."""
    return {
        "embedded": tr("Starting the embedded model…"),
        "geobias:ratelocations": tr("Rating the points…"),
        "geobias:samplegroundtruth": tr("Sampling the ground truth…"),
        "collect": tr("Styling the layers…"),
        "geobias:biasmetrics": tr("Computing the bias metrics…"),
        "load": tr("Loading the layers…"),
    }


def confirmation_text(plan):
    """What the survey will ask of which model, how long it should take (from the rate each
    model had on this machine before), its cost, and the question."""
    from ..processing.endpoints import model_label
    from ..processing.progress import estimate_text, remembered_left, survey_key

    est = plan.estimate
    cost = (
        tr("Estimated cost: {c:.4f} (at the prices set in the options).").format(c=est.cost)
        if est.cost is not None
        else tr("No price is set for these endpoints.")
    )
    lines = []
    for ep, part in plan.parts:
        if not part.n_requests:
            continue
        left, runs = remembered_left(survey_key(ep), part.n_requests)
        lines.append(
            tr("• {model} at {host}: {n} requests, {time}").format(
                model=model_label(ep.model), host=ep.host(), n=part.n_requests,
                time=estimate_text(left, runs),
            )
        )  # fmt: skip
    from .batch import batch_alternative

    # A provider batch asks each prompt once: no alternative for the sampled score's draws.
    alternative = batch_alternative(plan) if plan.draws == 1 else ""
    if alternative:  # live or batch: the user sees the choice
        cost = f"{cost}\n{alternative}"
    if plan.draws > 1:  # the counts above hold every draw: say why they are k times more
        from ..core.engine.capabilities import PROBE_REQUESTS

        draws = tr("Sampled score: each prompt is asked {k} times at temperature 1, so up to {k} "
                   "requests per point and topic. Up to {p} requests first find out whether the "
                   "endpoint returns {k} answers to one request; if it does, each prompt is one "
                   "request.").format(k=plan.draws, p=PROBE_REQUESTS)  # fmt: skip
        cost = f"{draws}\n{cost}"
    return tr(
        "{n} requests will be sent ({cached} of {total} answers come from the cache):\n"
        "{models}\nAbout {tok} prompt tokens.\n{cost}\n\nStart the survey?"
    ).format(
        n=est.n_requests,
        cached=est.n_cached,
        total=est.n_total or est.n_requests + est.n_cached,
        models="\n".join(lines) or ", ".join(est.hosts),
        tok=est.prompt_tokens,
        cost=cost,
    )


def prepare_labels(n):
    """What the progress line says while a survey is prepared (points sampled, requests
    counted) before its confirmation."""
    return {
        "geobias:samplepoints": translate("@default", "Sampling %n point(s)…", None, n),
        "points": tr("Reading the points…"),
        "estimate": tr("Counting the requests…"),
    }


class SurveyJob:
    """The survey's run on the dock's panel (Run survey / Resume survey): its checks, its
    confirmation, its plan while it runs (`plan`) and the results it loads."""

    def __init__(self, dock):
        self.dock = dock
        self.plan = None  # the plan that runs or ran last; None before the survey's own task
        self.fix = None  # the failure's remedy (Repair), when Resume would not help

    def run(self):
        """Confirm what will be sent, then run the survey algorithms as a background task.

        The points are sampled (unless previewed) and the requests counted in a first
        background job; the confirmation follows, then the survey's own task."""
        if self.dock.panel.busy:
            return
        self.plan = None  # set when the survey's own task starts
        s = self.dock.settings()
        area = self.dock.area.study_area()
        if area is None:
            self.dock.push(tr("Draw or pick a study area first."), Qgis.MessageLevel.Warning)
            return
        if not s.topics or not s.endpoints:
            self.dock.push(tr("Tick at least one topic and one model."), Qgis.MessageLevel.Warning)
            return
        mismatches = self.dock.survey.mismatches()
        if mismatches and not self.confirm_truth(mismatches):
            return
        s = self.dock.settings()  # with the confirmations
        s.write()  # noqa: QGS201 (SurveySettings.write, not QgsProject.write)
        if survey_plan.uses_embedded(s):
            # Before sampling and the confirmation: say what to install, not fail afterwards.
            problem = embedded_problem()
            if problem:
                self.dock.offer_install(problem)
                return
        preview = None
        if self.dock.area.preview_layer is not None and self.dock.area.preview_points is not None:
            preview = (self.dock.area.preview_layer, self.dock.area.preview_points)
        try:
            task = survey_plan.prepare_task(s, area, preview)
        except Exception as e:
            self.dock.push(
                tr("Cannot start the survey: {e}.").format(e=error_sentence(e)),
                Qgis.MessageLevel.Warning,
            )
            return
        self.dock.panel.start(
            task, lambda t: self._prepared(t, s), stopped_sentence=self.cannot_start,
            resumable=False, labels=prepare_labels(s.n_points),
        )  # fmt: skip

    @staticmethod
    def cannot_start(reason):
        return tr("Cannot start the survey: {e}.").format(e=reason)

    def _prepared(self, task, s):
        """Points sampled and requests counted: confirm, build the plan and start it."""
        prepared = task.results[-1]
        try:
            plan = survey_plan.plan(s, None, prepared["LAYER"], estimate=False,
                               lonlat=prepared["LONLAT"])  # fmt: skip
        except Exception as e:
            self.dock.panel.set_text("")
            self.dock.push(
                tr("Cannot start the survey: {e}.").format(e=error_sentence(e)),
                Qgis.MessageLevel.Warning,
                details=e,
            )
            return
        plan.estimate, plan.parts = prepared["ESTIMATE"], prepared.get("PARTS", [])
        self.dock.panel.set_text("")
        if plan.note:
            self.dock.push(plan.note, Qgis.MessageLevel.Info)
        if plan.estimate is not None and plan.estimate.n_requests and not self.confirm(plan):
            self.dock.panel.set_text(tr("Not started."))
            return
        self.start(plan)

    def confirm_truth(self, mismatches):
        """Ask before rank errors compare a topic with a field whose name does not name it."""
        lines = "\n".join(
            tr("• {topic} ← field {field}").format(topic=t, field=f) for t, f in mismatches
        )
        text = tr(
            "The rank errors will compare these ratings with a ground truth whose name does "
            "not say it measures the topic:\n\n{lines}\n\nDoes each field measure its topic?"
        ).format(lines=lines)
        answer = QMessageBox.question(
            self.dock,
            tr("GeoBias: ground truth"),
            text,
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer != QMessageBox.StandardButton.Yes:
            self.dock.push(
                tr("Not started: choose the ground truth of each topic in the Survey tab."),
                Qgis.MessageLevel.Info,
            )
            self.dock.show_tab(self.dock.survey)
            return False
        self.dock.survey.confirmed.update(mismatches)
        return True

    def confirm(self, plan):
        text = confirmation_text(plan)
        answer = QMessageBox.question(
            self.dock,
            tr("GeoBias survey"),
            text,
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.Yes,
        )
        return answer == QMessageBox.StandardButton.Yes

    def start(self, plan):
        """Start the plan's task; progress, results and errors come back through the panel."""
        self.plan = plan
        self.fix = None
        self.dock.panel.start(
            plan.task, self._completed, stopped_sentence=self.stopped_sentence,
            cancelled_text=tr(
                "Cancelled. Answers so far are cached: Resume continues where it stopped."
            ),
            remedy=self.remedy,
        )  # fmt: skip

    def remedy(self, details):
        """Repair for an embedded model that could not start from a broken model environment
        (the dock checks it), not a Resume that would fail the same way."""
        self.fix = self.dock.env_remedy(details) if embedded_cannot_start(details) else None
        return self.fix

    def cancel(self):
        self.dock.panel.cancel()

    def stopped_sentence(self, reason):
        """'The survey stopped: <reason>; 8 of 20 answers are cached, Resume continues.'"""
        if reason[:1].isupper() and reason[1:2].islower():  # "The endpoint…" mid-sentence
            reason = reason[0].lower() + reason[1:]
        reason = reason.rstrip(". ")  # a whole sentence from Processing (a stopped run)
        counts = None
        if self.plan is not None and self.plan.recount is not None:
            try:
                est = self.plan.recount()
                counts = (est.n_cached, est.n_total or est.n_requests + est.n_cached)
            except Exception as e:  # the count is a courtesy: never hide the reason
                log(f"could not count the cached answers: {e!r}", Qgis.MessageLevel.Warning)
        if counts is None or self.fix is not None:  # Repair, not Resume
            return tr("The survey stopped: {reason}.").format(reason=reason)
        if "Resume" in reason:  # an early stop already says what Resume does: say it once
            text = tr("The survey stopped: {reason}. {cached} of {total} answers are cached.")
            return text.format(reason=reason, cached=counts[0], total=counts[1])
        return tr(
            "The survey stopped: {reason}; {cached} of {total} answers are cached, Resume "
            "continues."
        ).format(reason=reason, cached=counts[0], total=counts[1])

    def _completed(self, task):
        try:
            layers = self.plan.load(task.results)
        except Exception as e:
            self.dock.push(
                tr("Could not load the results: {e}.").format(e=error_sentence(e)),
                Qgis.MessageLevel.Critical,
                details=e,
            )
            return
        self.dock.area.points_band.reset()  # the rated points replace the preview on the map
        self.dock.results.columns.update(self.plan.columns)
        self.dock.show_results(layers, scores=self.plan.scores)
        self.dock.panel.succeeded(task)
