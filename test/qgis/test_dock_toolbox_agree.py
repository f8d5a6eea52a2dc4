"""Issue 28, item 6: one set of defaults and names for the dock and the toolbox (sampling
population-weighted with farthest points, "Square grid", the providers' names), and a grid that
cannot place the asked count says how many it placed and why."""

import os
import re

import pytest
from qgis.core import QgsApplication, QgsProcessingFeedback, QgsProject, QgsVectorLayer
from qgis.PyQt.QtCore import Qt

from geobias.paths import DATA
from geobias.processing.definitions import PROVIDERS, SAMPLE_METHODS
from geobias.test.qtstub import wait_job
from geobias.ui.dock import GeoBiasDock
from geobias.ui.settings import SurveySettings

FRANCE = os.path.join(DATA, "world_countries.gpkg") + (
    "|layername=countries|subset=\"name\" = 'France'"
)


class Log(QgsProcessingFeedback):
    def __init__(self):
        super().__init__()
        self.warnings = []

    def pushWarning(self, warning):
        self.warnings.append(warning)


@pytest.fixture()
def dock(qgis_iface, qgis_new_project, processing_ready):
    d = GeoBiasDock(qgis_iface)
    yield d
    d.close_survey()
    d.deleteLater()


def param(alg_id, name):
    alg = QgsApplication.processingRegistry().algorithmById(alg_id)
    return alg.parameterDefinition(name)


def test_the_dock_and_the_toolbox_sample_alike_by_default_with_the_same_names(dock):
    combo = dock.area.methodCombo
    assert [combo.itemText(i) for i in range(combo.count())] == SAMPLE_METHODS.labels()
    assert "Square grid" in SAMPLE_METHODS.labels()
    # The paper samples human-populated places: population-weighted, farthest points.
    assert SurveySettings().method == SAMPLE_METHODS.default == "population"
    QgsProject.instance().clear()  # a new project: the dock's defaults
    assert combo.currentData() == "population"
    # The narrow dock shows a preset's short name; its tooltip is the toolbox's whole name.
    presets = dock.survey.presetCombo
    tips = [presets.itemData(i, Qt.ItemDataRole.ToolTipRole) for i in range(presets.count())]
    assert tips == param("geobias:ratelocations", "PRESET").options()
    for alg_id in ("geobias:samplepoints", "geobias:survey"):
        method = param(alg_id, "METHOD")
        assert method.options() == SAMPLE_METHODS.labels()
        assert method.defaultValue() == SAMPLE_METHODS.index("population")


def test_the_provider_enum_shows_the_options_pages_names(processing_ready):
    from geobias.ui.options import GeoBiasOptionsPage

    page = GeoBiasOptionsPage()
    shown = [page.providerCombo.itemText(i) for i in range(page.providerCombo.count())]
    assert shown == PROVIDERS.labels() == param("geobias:ratelocations", "PROVIDER").options()
    assert "llama.cpp server" in shown and "llamacpp" not in shown


def test_a_grid_says_how_many_points_it_placed_and_why(processing_ready):
    import processing

    log = Log()
    res = processing.run("geobias:samplepoints", {
        "REGION": FRANCE, "COUNT": 15, "METHOD": 4,
        "OUTPUT": "memory:"}, feedback=log)  # fmt: skip
    placed = res["N_POINTS"]
    assert placed != 15  # a hexagonal grid of France: not 15 nodes
    (note,) = [w for w in log.warnings if "hexagonal grid placed" in w]
    assert f"placed {placed} of the 15 points asked" in note and "km apart" in note
    assert re.search(r"only certain numbers of nodes", note) and "weighted method" in note
    log = Log()
    weighted = processing.run("geobias:samplepoints", {
        "REGION": FRANCE, "COUNT": 15, "METHOD": 1,
        "OUTPUT": "memory:"}, feedback=log)  # fmt: skip
    assert weighted["N_POINTS"] == 15 and not log.warnings


def test_the_docks_preview_says_it_too(dock, monkeypatch):
    pushed = []
    monkeypatch.setattr(dock, "push", lambda text, *a, **k: pushed.append(text))
    area = dock.area
    (france,) = QgsVectorLayer(FRANCE, "France", "ogr").getFeatures()
    area.drawn = france.geometry()
    area.drawRadio.setChecked(True)
    area.nPointsSpin.setValue(15)
    area.methodCombo.setCurrentIndex(area.methodCombo.findData("hex"))
    wait_job(dock, area.preview())
    placed = area.preview_layer.featureCount()
    assert placed != 15 and any(f"placed {placed} of the 15 points" in p for p in pushed)
