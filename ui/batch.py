"""The dock's Batch button: the survey on screen as files for a batch service, and their results
back into the survey cache, through the geobias:exportbatch and geobias:importbatch dialogs; or
sent to the provider's batch API (geobias:submitbatch), then polled in the background with
back-off (geobias:pollbatches), resumed when the project is opened again, the layers loaded
and a notification when it is done."""

import json
import os

from qgis.core import Qgis, QgsApplication, QgsProject, QgsVectorLayer
from qgis.PyQt.QtCore import QObject, QTimer
from qgis.PyQt.QtWidgets import QMenu, QToolButton

from ..i18n_util import tr
from .task import error_sentence


def batch_endpoint(settings):
    """The first chosen endpoint a batch service can run (not the embedded model), or None."""
    from .settings import find_endpoint, load_endpoints

    for name in settings.endpoints:
        cfg = find_endpoint(name, load_endpoints())
        if cfg is not None and not cfg.is_embedded:
            return cfg
    return None


def export_parameters(dock):
    """geobias:exportbatch parameters from the dock: its points, topics, preset and first
    remote endpoint (what a run would rate). The points are the preview's; without a preview
    the study area is sampled now, as Run would, and previewed. None without a remote
    endpoint; RuntimeError without a study area."""
    from . import survey_plan

    settings = dock.settings()
    cfg = batch_endpoint(settings)
    if cfg is None:
        return None
    points = dock.area.preview_layer
    if points is None:
        geom = dock.area.area_geometry()
        if geom is None:
            raise RuntimeError(tr("Draw or pick a study area first."))
        points = survey_plan.sample_points(settings, geom)
        dock.area.show_preview(points)
        note = survey_plan.sampling_note(settings, points)
        if note:
            dock.push(note, Qgis.MessageLevel.Info)
    params = survey_plan.rate_params(settings, cfg, points.source(), "")
    del params["OUTPUT"]  # a folder, chosen in the dialog
    return params


def open_dialog(dock, algorithm, params):
    """Show a Processing algorithm dialog, prefilled (kept on the dock while it is open); a
    failure goes to the message bar."""
    try:
        from qgis import processing

        dialog = processing.createAlgorithmDialog(algorithm, params)
    except Exception as err:  # noqa: BLE001 - a menu entry must never take QGIS down
        text = tr("The {id} dialog could not open: {err}")
        dock.push(text.format(id=algorithm, err=error_sentence(err)), details=err)
        return None
    dock.batch_dialog = dialog
    dialog.show()
    return dialog


def open_prefilled(dock, algorithm, parameters_of, failed):
    """(dialog, parameters) of `algorithm` prefilled with `parameters_of(dock)`, or (None, None)
    with a message: `failed` (a text with {e}) when they cannot be made (no area, sampling
    failed), or that the embedded model does not go to a batch service."""
    try:
        params = parameters_of(dock)
    except Exception as err:  # noqa: BLE001 - no area, or sampling failed: say so, never crash
        dock.push(failed.format(e=error_sentence(err)), Qgis.MessageLevel.Warning, details=err)
        return None, None
    if params is None:
        dock.push(tr("Choose a remote model for a batch service: the embedded model runs here."))
        return None, None
    return open_dialog(dock, algorithm, params), params


def open_export(dock):
    return open_prefilled(dock, "geobias:exportbatch", export_parameters,
                          tr("Cannot export the requests: {e}."))[0]  # fmt: skip


def open_import(dock):
    return open_dialog(dock, "geobias:importbatch", {})


# The GeoPackages whose provider batches the dock polls, kept with the project.
SCOPE, KEY = "GeoBias", "provider_batches"
BATCH_PROVIDERS = ("openai", "anthropic", "gemini", "mistral")


def tracked(project=None):
    """[{"gpkg", "auth"}] of the project's provider batches being polled."""
    project = project or QgsProject.instance()
    text, _ok = project.readEntry(SCOPE, KEY, "[]")
    try:
        return [e for e in json.loads(text or "[]") if isinstance(e, dict) and e.get("gpkg")]
    except ValueError:
        return []


def set_tracked(entries, project=None):
    (project or QgsProject.instance()).writeEntry(SCOPE, KEY, json.dumps(entries))


def track(gpkg, authcfg, project=None):
    """Poll this GeoPackage's batches from now on (and when the project is opened again)."""
    entries = [e for e in tracked(project) if e["gpkg"] != gpkg]
    set_tracked(entries + [{"gpkg": gpkg, "auth": authcfg or ""}], project)


def untrack(gpkg, project=None):
    set_tracked([e for e in tracked(project) if e["gpkg"] != gpkg], project)


def batch_alternative(plan):
    """The confirmation's line comparing the live run with a provider batch ("" when no
    endpoint of the plan has a batch API): half the price, answers within a day."""
    parts = [(ep, part) for ep, part in plan.parts
             if part.n_requests and ep.provider in BATCH_PROVIDERS]  # fmt: skip
    if not parts:
        return ""
    n = sum(part.n_requests for _ep, part in parts)
    cost = plan.estimate.cost
    price = tr(", about {c:.4f}").format(c=cost / 2) if cost is not None else ""
    return tr(
        "As a provider batch (Batch → Submit to the provider's batch API): {n} requests at "
        "half the price{price}, answered within 24 hours while QGIS may be closed."
    ).format(n=n, price=price)


def submit_parameters(dock):
    """geobias:submitbatch parameters from the dock (as export_parameters), the GeoPackage in
    the survey's output folder; None without a remote endpoint."""
    params = export_parameters(dock)
    if params is None:
        return None
    from .survey_plan import output_dir

    folder = output_dir(dock.settings().name)
    params["OUTPUT"] = os.path.join(folder, "provider_batch.gpkg")
    return params


def open_submit(dock):
    """The geobias:submitbatch dialog, prefilled; when it has submitted, the dock polls."""
    dialog, params = open_prefilled(dock, "geobias:submitbatch", submit_parameters,
                                    tr("Cannot submit the requests: {e}."))  # fmt: skip
    finished = getattr(dialog, "algorithmFinished", None)
    if finished is not None:
        auth = params.get("AUTH_CONFIG", "")
        finished.connect(lambda ok, results: submitted(dock, ok, results, auth))
    return dialog


def submitted(dock, ok, results, authcfg):
    """After a submission: poll its GeoPackage (a first look in a minute)."""
    if not ok or not results or not results.get("N_SUBMITTED"):
        return
    track(results["OUTPUT"], authcfg)
    dock.batch_poller.reset()


class BatchPoller(QObject):
    """Polls the tracked GeoPackages in QGIS's task manager (never blocking the dock or its
    run panel): a minute after a change, doubling while nothing moves, at most half an hour
    (core.batch.jobs.poll_delay). When a GeoPackage's batches have all ended its layers are
    loaded and the message bar says so."""

    def __init__(self, dock, base_s=60.0, cap_s=1800.0):
        super().__init__(dock)
        self.dock, self.base_s, self.cap_s = dock, base_s, cap_s
        self.n_unchanged = 0
        self.tasks = []
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.timeout.connect(self.poll_now)
        self.last = {}  # gpkg -> the last poll's results

    def delay_ms(self):
        from ..core.batch.jobs import poll_delay

        return int(1000 * poll_delay(self.n_unchanged, self.base_s, self.cap_s))

    def reset(self):
        """Something changed (a submission, a project opened): look again soon."""
        self.n_unchanged = 0
        self.schedule()

    def open_entries(self):
        return [e for e in tracked() if not e.get("ended")]

    def schedule(self):
        if self.open_entries() and not self.tasks:
            self.timer.start(self.delay_ms())
        elif not self.open_entries():
            self.timer.stop()

    def resume(self):
        """The project was opened (or cleared): poll its open batches, if it has any."""
        self.reset()

    def poll_now(self, **extra):
        """One pollbatches task per tracked GeoPackage (extra: CANCEL, RESUBMIT, ...)."""
        from .task import AlgorithmChainTask

        for entry in tracked() if extra else self.open_entries():
            params = {"INPUT": entry["gpkg"], "AUTH_CONFIG": entry["auth"], **extra}
            task = AlgorithmChainTask(tr("GeoBias: polling provider batches"),
                                      [("geobias:pollbatches", params)])  # fmt: skip
            task.taskCompleted.connect(lambda t=task, e=entry: self._done(t, e))
            task.taskTerminated.connect(lambda t=task, e=entry: self._done(t, e))
            self.tasks.append(task)
            QgsApplication.taskManager().addTask(task)

    def _done(self, task, entry):
        if task in self.tasks:
            self.tasks.remove(task)
        results = task.results[0] if task.results else None
        if results is None:
            self.dock.push(tr("Polling the provider batches of {gpkg} failed: {e}").format(
                gpkg=entry["gpkg"], e=task.error or tr("unknown error")),
                Qgis.MessageLevel.Warning, details=task.details or None)  # fmt: skip
            self.n_unchanged += 1
        else:
            self.last[entry["gpkg"]] = results
            self.n_unchanged = 0 if results.get("N_ANSWERS") else self.n_unchanged + 1
            if not results.get("N_OPEN"):
                self._ended(entry, results)
            elif entry.get("ended"):  # resubmitted: open again
                rest = [e for e in tracked() if e["gpkg"] != entry["gpkg"]]
                set_tracked(rest + [dict(entry, ended=False)])
        if not self.tasks:
            self.schedule()

    def _ended(self, entry, results):
        """All of a GeoPackage's batches have ended: its layers on the map and a message, or
        what is missing said (kept, marked ended, for Resubmit what is missing)."""
        layers = results.get("OUTPUT_LAYERS") or []
        missing = results.get("N_MISSING") or 0
        rest = [e for e in tracked() if e["gpkg"] != entry["gpkg"]]
        if missing and not layers:
            set_tracked(rest + [dict(entry, ended=True)])
            text = tr("The provider batches of {gpkg} have ended with {n} requests "
                      "unanswered: Batch → Resubmit what is missing.")  # fmt: skip
            self.dock.push(text.format(gpkg=entry["gpkg"], n=missing), Qgis.MessageLevel.Warning)
            return
        set_tracked(rest)
        for uri in layers:
            layer = QgsVectorLayer(uri, uri.split("layername=")[-1], "ogr")
            if not layer.isValid() or QgsProject.instance().addMapLayer(layer) is None:
                self.dock.push(tr("The layer {uri} could not be added to the map.").format(uri=uri))
        if layers:
            self.dock.push(tr("The provider batch is done: {n} rated layer(s) from {gpkg} are "
                              "on the map.").format(n=len(layers), gpkg=entry["gpkg"]),
                           Qgis.MessageLevel.Success)  # fmt: skip

    def stop(self):
        self.timer.stop()


def poll_action(dock, **extra):
    """Poll now (or cancel, or resubmit what is missing) the project's provider batches."""
    if not tracked():
        dock.push(tr("This project has no provider batch to poll: Batch → Submit to the "
                     "provider's batch API first."), Qgis.MessageLevel.Info)  # fmt: skip
        return
    dock.batch_poller.timer.stop()
    dock.batch_poller.poll_now(**extra)


def batch_button(dock):
    """A small "Batch" button beside Run with the export and import entries."""
    button = QToolButton(dock)
    button.setObjectName("batchButton")
    button.setText(tr("Batch"))
    button.setToolTip(tr("Surveys too large for one server: a batch service answers the requests"))
    button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
    menu = QMenu(button)
    for entry in (
        ("batchExportAction", tr("Export requests for a batch service…"),
         lambda: open_export(dock)),
        ("batchImportAction", tr("Import batch results…"), lambda: open_import(dock)),
        None,  # files for a batch service above, the provider's batch API below
        ("batchSubmitAction", tr("Submit to the provider's batch API…"), lambda: open_submit(dock)),
        ("batchPollAction", tr("Poll provider batches now"), lambda: poll_action(dock)),
        ("batchCancelAction", tr("Cancel open provider batches"),
         lambda: poll_action(dock, CANCEL=True)),
        ("batchResubmitAction", tr("Resubmit what is missing"),
         lambda: poll_action(dock, RESUBMIT=True)),
    ):  # fmt: skip
        if entry is None:
            menu.addSeparator()
            continue
        name, text, slot = entry
        action = menu.addAction(text)
        action.setObjectName(name)
        action.triggered.connect(slot)
    button.setMenu(menu)
    return button


def start_poller(dock):
    """Poll the project's open provider batches from the start of QGIS (the dock's tabs may
    never be opened), and again whenever a project is opened."""
    dock.batch_poller = BatchPoller(dock)
    QgsProject.instance().readProject.connect(dock.batch_poller.resume)
    dock.batch_poller.resume()  # a project opened before the dock
