"""Issue 28, items 3 and 4: every algorithm's results reach the project, styled, tables included
(ablation, comparison, the toolbox survey's metrics, the probes); probes read answers as the
paper does, say why a number is empty, and draw the mention counts under the points."""

import os
import uuid

import numpy as np
import pytest
from qgis.core import (
    QgsGraduatedSymbolRenderer,
    QgsLayerTreeLayer,
    QgsProcessingFeedback,
    QgsProject,
)

from geobias.paths import DATA
from geobias.processing.definitions import PROVIDERS
from geobias.test.faultserver import FaultServer

COUNTRIES = os.path.join(DATA, "world_countries.gpkg") + "|layername=countries"
pytestmark = pytest.mark.usefixtures("layer_tree_view")  # results loaded as the toolbox does


class Log(QgsProcessingFeedback):
    def __init__(self):
        super().__init__()
        self.warnings = []

    def pushWarning(self, warning):
        self.warnings.append(warning)


def run_and_load(alg, params, feedback=None):
    """Run as the toolbox does: the results are loaded into the project afterwards."""
    import processing

    return processing.runAndLoadResults(alg, params, feedback=feedback)


def by_name():
    return {lyr.name(): lyr for lyr in QgsProject.instance().mapLayers().values()}


def endpoint(fs):
    return {"PROVIDER": PROVIDERS.index("custom"), "BASE_URL": fs.base_url,
            "MODEL": f"fake-{uuid.uuid4().hex[:8]}", "CONCURRENCY": 2}  # fmt: skip


@pytest.fixture()
def project(processing_ready, qgis_new_project):
    yield QgsProject.instance()
    QgsProject.instance().clear()


@pytest.fixture()
def points(project, tmp_path):
    import processing

    out = str(tmp_path / "points.gpkg")
    processing.run("geobias:samplepoints", {"COUNT": 8, "METHOD": 1, "SEED": 5, "OUTPUT": out})
    return out


def test_probes_count_no_echo_say_why_numbers_are_empty_and_draw_mentions_under_points(
    project, tmp_path
):
    import processing

    rated = processing.run("geobias:samplepoints", {"COUNT": 3, "OUTPUT": "memory:"})["OUTPUT"]
    rated.setName("some points")
    project.addMapLayer(rated)
    log = Log()
    with FaultServer(always="echo") as fs:
        res = run_and_load("geobias:probes", {
            **endpoint(fs), "ACTIVITIES": "go on a safari\nmeet kind people",
            "QUERIES": "Which countries have the friendliest people? Give me a list.",
            "N_SAMPLES": 2, "OUTPUT": str(tmp_path / "probes.gpkg"),
            "MENTIONS": "TEMPORARY_OUTPUT"}, log)  # fmt: skip
    layers = by_name()
    # The echoed question named Africa first: it is no choice.
    choices = layers["Choice probes"]
    assert [(f["n_a"], f["n_b"], f["n_unclear"]) for f in choices.getFeatures()] == [(0, 0, 2)] * 2
    # The echoed query names no country: the empty numbers say why.
    assert np.isnan(res["RHO_MENTIONS_SURVIVAL"]) and np.isnan(res["MEDIAN_IMR_MENTIONED"])
    (summary,) = list(layers["Recommendations"].getFeatures())
    assert "no answer named a country" in summary["reason"]
    assert any("no answer named a country" in w for w in log.warnings)
    assert layers["Probe answers"].featureCount() == 2 * 2 + 2
    # The mention counts: graduated, transparent where zero, under the point layer.
    mentions = layers["Countries with their mention counts"]
    renderer = mentions.renderer()
    assert isinstance(renderer, QgsGraduatedSymbolRenderer)
    assert renderer.classAttribute() == "mentions"
    zero = renderer.rangeForValue(0)
    assert zero is not None and zero.symbol().symbolLayer(0).brushStyle() == 0  # Qt.NoBrush
    order = [n.layer().name() for n in project.layerTreeRoot().children()
             if isinstance(n, QgsLayerTreeLayer)]  # fmt: skip
    assert order.index("Countries with their mention counts") > order.index("some points")


def test_ablation_loads_its_rated_layers_and_tables_with_markdown_beside(project, points,
                                                                        tmp_path):  # fmt: skip
    out = str(tmp_path / "ablation.gpkg")
    with FaultServer() as fs:
        res = run_and_load("geobias:ablation", {
            "INPUT": points, **endpoint(fs), "VARIANTS": [0, 1], "TOPICS": "Infant Mortality Rate",
            "TRUTH": COUNTRIES, "TRUTH_FIELD": "infant_mortality", "N_BOOT": 0,
            "OUTPUT": out})  # fmt: skip
    layers = by_name()
    rated = [lyr for lyr in layers.values() if lyr.source().startswith(out) and lyr.isSpatial()]
    assert len(rated) == 2 and all(
        isinstance(lyr.renderer(), QgsGraduatedSymbolRenderer) for lyr in rated
    )
    table = layers["Ablation: rho per prompt variant"]
    assert not table.isSpatial() and table.featureCount() == 4  # 2 variants x 2 score kinds
    assert any(name.startswith("Spearman's rho per prompt variant") for name in layers)
    with open(res["MARKDOWN_FILE"], encoding="utf-8") as f:
        assert f.read().strip() == res["MARKDOWN"].strip()
    assert res["MARKDOWN_FILE"] == str(tmp_path / "ablation.md")


def test_comparison_tables_and_the_toolbox_surveys_metrics_are_loaded(project, tmp_path):
    with FaultServer() as fs:
        survey = run_and_load("geobias:survey", {
            "COUNT": 8, "SEED": 2, **endpoint(fs), "TOPICS": "Infant Mortality Rate",
            "TRUTH": COUNTRIES, "TRUTH_FIELD": "infant_mortality", "N_BOOT": 0,
            "OUTPUT": str(tmp_path / "survey.gpkg")})  # fmt: skip
        other = run_and_load("geobias:survey", {
            "COUNT": 8, "SEED": 2, **endpoint(fs), "TOPICS": "Infant Mortality Rate",
            "TRUTH": COUNTRIES, "TRUTH_FIELD": "infant_mortality", "N_BOOT": 0,
            "OUTPUT": str(tmp_path / "other.gpkg")})  # fmt: skip
    layers = QgsProject.instance().mapLayers().values()
    metrics = [lyr for lyr in layers if lyr.name() == "Bias metrics"]
    assert len(metrics) == 2 and all(lyr.featureCount() == 1 for lyr in metrics)
    assert {lyr.source() for lyr in metrics} == {survey["METRICS"], other["METRICS"]}
    res = run_and_load("geobias:comparemodels", {
        "INPUT": survey["OUTPUT_LAYERS"] + other["OUTPUT_LAYERS"], "N_BOOT": 0,
        "OUTPUT": str(tmp_path / "compare.gpkg")})  # fmt: skip
    layers = by_name()
    assert layers["Comparison metrics"].featureCount() == 2
    pivots = [n for n in layers if n.startswith("Comparison: ")]
    assert len(pivots) == len(res["PIVOTS"]) > 3
    assert os.path.isfile(res["MARKDOWN_FILE"]) and res["MARKDOWN_FILE"].endswith("compare.md")
