"""The dock's Batch button: the survey on screen as files for a batch service, and their results
back into the survey cache, through the geobias:exportbatch and geobias:importbatch dialogs."""

from qgis.core import Qgis
from qgis.PyQt.QtWidgets import QMenu, QToolButton

from ..i18n_util import tr
from . import survey_plan
from .settings import find_endpoint, load_endpoints
from .task import error_sentence


def batch_endpoint(settings):
    """The first chosen endpoint a batch service can run (not the embedded model), or None."""
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


def open_export(dock):
    try:
        params = export_parameters(dock)
    except Exception as err:  # noqa: BLE001 - no area, or sampling failed: say so, never crash
        dock.push(tr("Cannot export the requests: {e}.").format(e=error_sentence(err)),
                  Qgis.MessageLevel.Warning, details=err)  # fmt: skip
        return None
    if params is None:
        dock.push(tr("Choose a remote model for a batch service: the embedded model runs here."))
        return None
    return open_dialog(dock, "geobias:exportbatch", params)


def open_import(dock):
    return open_dialog(dock, "geobias:importbatch", {})


def batch_button(dock):
    """A small "Batch" button beside Run with the export and import entries."""
    button = QToolButton(dock)
    button.setObjectName("batchButton")
    button.setText(tr("Batch"))
    button.setToolTip(tr("Surveys too large for one server: a batch service answers the requests"))
    button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
    menu = QMenu(button)
    export = menu.addAction(tr("Export requests for a batch service…"))
    export.setObjectName("batchExportAction")
    export.triggered.connect(lambda: open_export(dock))
    imported = menu.addAction(tr("Import batch results…"))
    imported.setObjectName("batchImportAction")
    imported.triggered.connect(lambda: open_import(dock))
    button.setMenu(menu)
    return button
