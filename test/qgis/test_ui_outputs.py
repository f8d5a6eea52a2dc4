"""Issue 21, item 1: durable outputs. The dock never writes into Processing's temporary folder:
a saved project's outputs go beside it, an unsaved one's into the GeoBias output folder; saving
an unsaved project moves them next to it with the layers repointed and styled; closing QGIS
over GeoBias layers that would be lost says so; a reopened project restores every layer and
its tabs list the project's runs."""

import os
import zipfile

import numpy as np
import pytest
from qgis.core import (
    Qgis,
    QgsLayoutItemPicture,
    QgsProcessingUtils,
    QgsProject,
    QgsSettings,
    QgsVectorLayer,
)
from qgis.PyQt.QtCore import QCoreApplication
from qgis.PyQt.QtGui import QCloseEvent
from qgis.PyQt.QtWidgets import QMessageBox

from geobias.core.herb.aggregation import aggregate
from geobias.core.herb.descriptors import load_descriptors
from geobias.core.herb.hierarchy import geonames_hierarchy
from geobias.processing.herb_io import world_geometries, write_results
from geobias.processing.runs import append_runs, now
from geobias.test.faultserver import FaultServer
from geobias.test.qgis.test_ui_run import run_once, setup_survey
from geobias.test.qtstub import wait_for, wait_job
from geobias.ui import outputs, survey_plan
from geobias.ui.dock import GeoBiasDock
from geobias.ui.outputs import OUTPUT_FOLDER_SETTING
from geobias.ui.settings import save_endpoints


@pytest.fixture()
def dock(qgis_iface, qgis_new_project, processing_ready):
    outputs.forget_unsaved()
    d = GeoBiasDock(qgis_iface)
    yield d
    d.close_survey()
    d.deleteLater()
    save_endpoints([])
    QgsProject.instance().clear()


def save(path=None):
    """Save the project as QGIS does, then let GeoBias's move (offered after the save) run."""
    ok = QgsProject.instance().write(path) if path else QgsProject.instance().write()
    QCoreApplication.processEvents()
    return ok


def answer_yes(monkeypatch):
    """Every QMessageBox.question answered Yes; returns the texts asked."""
    asked = []

    def question(parent, title, text, *args, **kwargs):
        asked.append(text)
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
    return asked


def press(monkeypatch, button_text):
    """Every QMessageBox shown with exec() answered by pressing the button `button_text`."""
    shown = []

    def answer(box):
        shown.append(box.text())
        (button,) = [b for b in box.buttons() if b.text() == button_text]
        button.click()
        return 0

    monkeypatch.setattr(QMessageBox, "exec", answer)
    return shown


def geobias_layers():
    return [lyr for lyr in QgsProject.instance().mapLayers().values()
            if outputs.is_geobias_layer(lyr)]  # fmt: skip


def styles_of(layer):
    renderer = layer.renderer()
    field = renderer.classAttribute() if hasattr(renderer, "classAttribute") else ""
    return type(renderer).__name__, field, sorted(layer.styleManager().styles())


def survey_and_report(dock, monkeypatch, name):
    """A dock survey (6 points over France, truth from the countries) and its report."""
    with FaultServer() as fs:
        setup_survey(dock, fs, name, 6)
        run_once(dock, monkeypatch)
    assert dock.results.metrics.rowCount() == 1
    dock.results.metricsView.selectRow(0)
    result = wait_job(dock, dock.results.make_report(), 300).results[-1]
    assert os.path.isfile(result["OUTPUT"])
    # The layout's items join the project between turns of the event loop: all of them.
    wait_for(lambda: layout_pictures(), what="the report's layout")
    return result


def layout_pictures():
    """The pictures (PNG) of the project's print layouts."""
    return [item.picturePath() for layout in QgsProject.instance().layoutManager().printLayouts()
            for item in layout.items() if isinstance(item, QgsLayoutItemPicture)
            and item.picturePath().endswith(".png")]  # fmt: skip


def herb_run(dock):
    """A HERB GeoPackage as geobias:herb writes it (scores drawn at random: no model), shown."""
    h = geonames_hierarchy(continents=["Oceania"], max_cities_per_country=1)
    words = load_descriptors()[:5]
    rng = np.random.default_rng(2)
    result = aggregate(h, -rng.uniform(2, 8, (len(h), len(words))), -rng.uniform(2, 8, len(h)),
                       words)  # fmt: skip
    path = os.path.join(survey_plan.output_dir("herb", run=True), "herb.gpkg")
    uris, _regions = write_results(path, result, world_geometries(h))
    append_runs(path, [{"algorithm": "geobias:herb", "started": now(), "study_area": "Oceania",
                        "model": "gguf:SmolLM2-135M-Instruct.Q4_1.gguf"}])  # fmt: skip
    dock.herb.show_results({"OUTPUT": path, "OUTPUT_LAYERS": list(uris)})
    return path


def test_outputs_go_to_the_project_folder_or_the_output_folder_never_processing_temp(
    dock, tmp_path, output_folder, monkeypatch
):
    temp = QgsProcessingUtils.tempFolder()
    unsaved = survey_plan.output_dir("My survey", run=True)
    assert outputs.inside(unsaved, str(output_folder)) and not outputs.inside(unsaved, temp)
    assert os.path.dirname(unsaved) == os.path.join(str(output_folder), "my_survey")
    assert outputs.unsaved_folders() == [unsaved]
    # The default folder, without a choice in the options: ~/GeoBias.
    QgsSettings().remove(OUTPUT_FOLDER_SETTING)
    assert outputs.output_folder() == os.path.join(os.path.expanduser("~"), "GeoBias")
    QgsSettings().setValue(OUTPUT_FOLDER_SETTING, str(output_folder))
    # A saved project: beside it, in its geobias folder (the unused folder is not offered).
    project = tmp_path / "project"
    project.mkdir()
    asked = answer_yes(monkeypatch)
    assert save(str(project / "day.qgz"))
    assert asked == []  # no layer of the project uses the folder: nothing to move
    saved = survey_plan.output_dir("My survey", run=True)
    assert os.path.dirname(saved) == str(project / "geobias" / "my_survey")
    assert saved not in outputs.unsaved_folders()  # written beside the project: nothing to move


def test_options_page_sets_the_output_folder(qgis_app, tmp_path, output_folder):
    from geobias.ui.options import GeoBiasOptionsPage

    page = GeoBiasOptionsPage()
    assert page.outputFolderEdit.text() == str(output_folder)
    page.outputFolderEdit.setText(str(tmp_path / "elsewhere"))
    page.apply()
    assert outputs.output_folder() == str(tmp_path / "elsewhere")
    page.outputFolderEdit.setText(str(output_folder))
    page.apply()
    page.deleteLater()


def test_saving_an_unsaved_project_moves_its_outputs_beside_it(
    dock, monkeypatch, tmp_path, output_folder
):
    survey_and_report(dock, monkeypatch, "move me")
    herb_run(dock)
    before = {lyr.id(): (lyr.name(), styles_of(lyr)) for lyr in geobias_layers()}
    sources = [outputs.layer_path(lyr) for lyr in geobias_layers()]
    assert len(before) >= 5 and all(outputs.inside(s, str(output_folder)) for s in sources)
    written = outputs.unsaved_folders()
    assert len(written) == 3  # the survey's run, its report, the HERB run

    asked = answer_yes(monkeypatch)
    project_dir = tmp_path / "work"
    project_dir.mkdir()
    assert save(str(project_dir / "day.qgz"))
    assert len(asked) == 1 and str(project_dir / "geobias") in asked[0]
    # Copied, repointed (same layers, names and styles), the originals removed.
    after = {lyr.id(): (lyr.name(), styles_of(lyr)) for lyr in geobias_layers()}
    assert after == before
    for layer in geobias_layers():
        assert layer.isValid() and layer.featureCount() > 0, layer.name()
        assert outputs.inside(outputs.layer_path(layer), str(project_dir / "geobias")), layer
    assert not [f for f in written if os.path.exists(f)]
    # The report's layout finds its pictures in the moved folder.
    pictures = layout_pictures()
    assert pictures and all(outputs.inside(p, str(project_dir)) and os.path.isfile(p)
                            for p in pictures)  # fmt: skip
    # The project (saved again after the move) holds relative paths to them.
    with zipfile.ZipFile(project_dir / "day.qgz") as z:
        xml = z.read(next(n for n in z.namelist() if n.endswith(".qgs"))).decode()
    assert "./geobias/move_me/" in xml and str(output_folder) not in xml
    # Reopened: every GeoBias layer back, valid and styled as before.
    QgsProject.instance().clear()
    assert QgsProject.instance().read(str(project_dir / "day.qgz"))
    reopened = {lyr.id(): (lyr.name(), styles_of(lyr)) for lyr in geobias_layers()}
    assert reopened == before
    assert all(lyr.isValid() for lyr in geobias_layers())


def test_declining_the_move_keeps_the_outputs_in_the_output_folder(
    dock, monkeypatch, tmp_path, output_folder
):
    folder = survey_plan.output_dir("kept here", run=True)
    points = survey_plan.run_algorithm("geobias:samplepoints", {
        "COUNT": 3, "OUTPUT": os.path.join(folder, "points.gpkg")})["OUTPUT"]  # fmt: skip
    layer = QgsVectorLayer(points, "points", "ogr")
    QgsProject.instance().addMapLayer(layer)
    asked = []

    def decline(parent, title, text, *args):
        asked.append(text)
        return QMessageBox.StandardButton.No

    monkeypatch.setattr(QMessageBox, "question", staticmethod(decline))
    assert save(str(tmp_path / "p.qgz"))
    assert len(asked) == 1 and os.path.isdir(folder) and outputs.unsaved_folders() == []
    assert outputs.inside(outputs.layer_path(layer), folder)  # left where it is, as asked


def close_main_window(qgis_iface):
    """QGIS asked to close its main window; returns whether the close went ahead."""
    event = QCloseEvent()
    QCoreApplication.sendEvent(qgis_iface.mainWindow(), event)
    return event.isAccepted()


def test_closing_qgis_over_geobias_layers_that_would_be_lost_says_so(
    dock, monkeypatch, qgis_iface, tmp_path
):
    import processing

    # A project never saved, with a rated layer: closing asks first; Cancel keeps QGIS open.
    with FaultServer() as fs:
        setup_survey(dock, fs, "unsaved", 4, truth=False)
        run_once(dock, monkeypatch)
    shown = press(monkeypatch, "Cancel")
    assert not close_main_window(qgis_iface)
    assert len(shown) == 1 and "never been saved" in shown[0] and "GeoBias layer" in shown[0]
    shown = press(monkeypatch, "Close without saving")
    assert close_main_window(qgis_iface) and len(shown) == 1

    # A saved project with a GeoBias layer in Processing's temporary folder (a toolbox run
    # with a temporary output): closing offers to keep it; kept, it is repointed and styled.
    answer_yes(monkeypatch)
    assert save(str(tmp_path / "saved.qgz"))
    rated = next(lyr for lyr in geobias_layers() if lyr.fields().lookupField("score") >= 0)
    temp = processing.run("native:savefeatures", {"INPUT": rated, "OUTPUT": "TEMPORARY_OUTPUT"})
    layer = QgsVectorLayer(temp["OUTPUT"], "toolbox ratings", "ogr")
    if not layer.isValid():  # 3.22 may hand back a memory layer
        layer = temp["OUTPUT"]
    layer.setRenderer(rated.renderer().clone())
    QgsProject.instance().addMapLayer(layer)
    assert outputs.is_temporary(layer) and outputs.is_geobias_layer(layer)
    shown = press(monkeypatch, "Cancel")
    assert not close_main_window(qgis_iface)
    assert "temporary folder and memory" in shown[0] and "toolbox ratings" in shown[0]
    shown = press(monkeypatch, "Keep them")
    assert close_main_window(qgis_iface)
    kept = QgsProject.instance().mapLayersByName("toolbox ratings")[0]
    assert kept.isValid() and kept.featureCount() == 4 and not outputs.is_temporary(kept)
    assert outputs.inside(outputs.layer_path(kept), str(tmp_path / "geobias" / "kept"))
    assert styles_of(kept)[:2] == styles_of(rated)[:2]
    # Nothing to lose now: QGIS closes without a word.
    shown = press(monkeypatch, "Cancel")
    assert close_main_window(qgis_iface) and shown == []


def test_a_reopened_project_lists_its_runs_in_results_compare_and_regional_bias(
    dock, monkeypatch, tmp_path
):
    answer_yes(monkeypatch)
    assert save(str(tmp_path / "runs.qgz"))  # saved: outputs beside it
    survey_and_report(dock, monkeypatch, "first survey")
    herb_run(dock)
    assert save()
    QgsProject.instance().clear()
    assert dock.results.runsCombo.count() == 1  # the prompt only: no project, no runs
    assert QgsProject.instance().read(str(tmp_path / "runs.qgz"))

    results, compare, herb = dock.results.runsCombo, dock.compare.runsCombo, dock.herb.runsCombo
    assert results.count() == 2 and compare.count() == 2 and herb.count() == 2
    label = results.itemText(1)
    assert label.startswith("first_survey · ") and "fault" in label and "Infant Mortality" in label
    assert "Oceania" in herb.itemText(1) and "SmolLM2" in herb.itemText(1)
    # Picking them shows them again, from the project's own (restored) layers.
    dock.results.metrics.set_rows([])
    results.activated.emit(1)
    assert dock.results.metrics.rowCount() == 1
    assert dock.results.metrics.rows[0]["model"].startswith("fault")  # each run's own name
    assert all(QgsProject.instance().mapLayer(lyr.id()) for lyr in dock.results.rated_layers)
    herb.activated.emit(1)
    assert dock.herb.regionTable.rowCount() > 10
    compare.activated.emit(1)
    listed = dock.compare.modelsList
    models = [listed.item(i).text() for i in range(listed.count())]
    assert (
        len(models) == 1
        and models[0].startswith("fault")
        and dock.compare.compareButton.isEnabled()
    )


def test_outputs_are_not_moved_from_under_a_running_job(dock, monkeypatch, tmp_path):
    with FaultServer() as fs:
        setup_survey(dock, fs, "still running", 3, truth=False)
        run_once(dock, monkeypatch)
    folder = outputs.unsaved_folders()[0]
    asked = answer_yes(monkeypatch)
    pushed = []
    monkeypatch.setattr(dock, "push", lambda text, *a, **k: pushed.append(text))
    monkeypatch.setattr(dock, "job_running", lambda: True)  # e.g. HERB still writing
    assert save(str(tmp_path / "busy.qgz"))
    assert asked == [] and os.path.isdir(folder) and "once the running job" in pushed[-1]
    monkeypatch.setattr(dock, "job_running", lambda: False)
    assert save()  # saved again after the job: now the move is offered
    assert len(asked) == 1 and not os.path.exists(folder)
    assert all(outputs.inside(outputs.layer_path(lyr), str(tmp_path / "geobias"))
               for lyr in geobias_layers())  # fmt: skip


def test_a_project_that_cannot_be_saved_again_says_so(qgis_iface, qgis_new_project):
    # After moving outputs the project is saved again; a failed save (here: a "folder" that is
    # a file) must be said, not passed over, and the move reported as unfinished.
    said = []
    keeper = outputs.OutputKeeper(qgis_iface, lambda text, level, **kw: said.append((text, level)))
    try:
        QgsProject.instance().setFileName("/dev/null/day.qgz")
        assert keeper.save_project() is False
        assert said and said[-1][1] == Qgis.MessageLevel.Critical
        assert "could not be saved" in said[-1][0]
    finally:
        keeper.close()
        QgsProject.instance().setFileName("")
