"""The dock's Batch button: export opens geobias:exportbatch filled with the survey on screen
(its preview points, topics, preset and remote model), whose parameters export every request;
import opens geobias:importbatch; the embedded model alone is refused with a message."""

import sys

from qgis.PyQt.QtWidgets import QToolButton

from geobias.test.faultserver import FaultServer
from geobias.test.qgis.test_ui_run import dock, setup_survey  # noqa: F401 - the dock fixture
from geobias.test.qtstub import wait_job
from geobias.ui import batch
from geobias.ui.settings import save_endpoints

sys.path.insert(0, "/usr/share/qgis/python/plugins")


def actions(dock):  # noqa: F811
    button = dock.findChild(QToolButton, "batchButton")
    assert button is not None and button.text() == "Batch"
    return {a.objectName(): a for a in button.menu().actions()}


def test_export_and_import_from_the_dock(dock, tmp_path, qgis_iface, monkeypatch):  # noqa: F811
    from qgis import processing
    from qgis.gui import QgsBrowserGuiModel

    # pytest-qgis's iface is a stand-in: the dialog asks it for QGIS's browser model.
    model = QgsBrowserGuiModel()
    monkeypatch.setattr(qgis_iface, "browserModel", lambda: model, raising=False)

    with FaultServer() as fs:
        setup_survey(dock, fs, "batch", 8, truth=False)
        wait_job(dock, dock.area.preview())
        assert dock.area.preview_layer is not None
        menu = actions(dock)
        menu["batchExportAction"].trigger()
        dialog = dock.batch_dialog
        assert dialog is not None and dialog.algorithm().id() == "geobias:exportbatch"
        dialog.close()
        params = batch.export_parameters(dock)
        assert params["MODEL"] == fs.model_name and params["BASE_URL"] == fs.base_url
        assert (
            params["TOPICS"] == "Infant Mortality Rate"
            and params["INPUT"] == dock.area.preview_layer.source()
        )
        out = processing.run("geobias:exportbatch", {**params, "OUTPUT": str(tmp_path)})
        assert out["N_REQUESTS"] == 8 and fs.n_requests == 0
        menu["batchImportAction"].trigger()
        assert dock.batch_dialog.algorithm().id() == "geobias:importbatch"
        dock.batch_dialog.close()


def test_export_takes_the_docks_points_without_a_preview(dock, tmp_path, qgis_iface,  # noqa: F811
                                                         monkeypatch):  # fmt: skip
    """Issue 28, item 6: Batch → Export samples the dock's study area (as Run would) when
    nothing is previewed; the dialog opens with those points."""
    from qgis import processing
    from qgis.core import QgsVectorLayer
    from qgis.gui import QgsBrowserGuiModel

    model = QgsBrowserGuiModel()
    monkeypatch.setattr(qgis_iface, "browserModel", lambda: model, raising=False)
    with FaultServer() as fs:
        setup_survey(dock, fs, "batch area", 7, truth=False)
        assert dock.area.preview_layer is None
        actions(dock)["batchExportAction"].trigger()
        dialog = dock.batch_dialog
        assert dialog is not None and dialog.algorithm().id() == "geobias:exportbatch"
        points = dock.area.preview_layer  # sampled for the export, and shown
        assert points is not None and points.featureCount() == 7
        values = dialog.createProcessingParameters()
        dialog.close()
        assert values["INPUT"] is not None and points.source().split("|")[0] in str(values["INPUT"])
        out = processing.run("geobias:exportbatch", {**batch.export_parameters(dock),
                                                     "OUTPUT": str(tmp_path)})  # fmt: skip
        assert out["N_REQUESTS"] == 7 and fs.n_requests == 0
        assert QgsVectorLayer(points.source(), "p", "ogr").featureCount() == 7


def test_the_embedded_model_alone_cannot_go_to_a_batch_service(dock, qgis_iface):  # noqa: F811
    save_endpoints([])
    dock.survey.refresh_models()
    assert batch.export_parameters(dock) is None
    dock.batch_dialog = None
    actions(dock)["batchExportAction"].trigger()
    assert dock.batch_dialog is None


def test_export_and_submit_say_why_they_open_no_dialog(dock, qgis_iface, monkeypatch):  # noqa: F811
    """Both entries share one opener: the embedded model alone is refused with the same words,
    and a failure to make the parameters is said with the entry's own."""
    from geobias.test.qgis.test_ui_run import capture_pushes

    save_endpoints([])
    dock.survey.refresh_models()
    pushed = capture_pushes(dock, monkeypatch)
    dock.batch_dialog = None
    for name in ("batchExportAction", "batchSubmitAction"):
        actions(dock)[name].trigger()
    assert dock.batch_dialog is None and len(pushed) == 2
    assert all("embedded model runs here" in text for text, _ in pushed)

    def fails(_dock):
        raise RuntimeError("no study area")

    monkeypatch.setattr(batch, "export_parameters", fails)
    pushed.clear()
    assert batch.open_export(dock) is None and batch.open_submit(dock) is None
    texts = [text for text, _ in pushed]
    assert texts == ["Cannot export the requests: no study area.",
                     "Cannot submit the requests: no study area."]  # fmt: skip


def test_the_batch_menu_has_the_files_entries_then_the_provider_entries(dock):  # noqa: F811
    """One builder makes the whole menu: its entries in order, a separator between the files
    for a batch service and the provider's batch API."""
    menu = dock.findChild(QToolButton, "batchButton").menu()
    names = ["-" if a.isSeparator() else a.objectName() for a in menu.actions()]
    assert names == ["batchExportAction", "batchImportAction", "-", "batchSubmitAction",
                     "batchPollAction", "batchCancelAction", "batchResubmitAction"]  # fmt: skip
    assert all(a.text() for a in menu.actions() if not a.isSeparator())
