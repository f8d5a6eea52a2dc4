"""Issue 13 on the Processing side: one kind per score column, failed requests, run records,
imported scales, cluster bootstrap, field validation and raster anchors."""

import os
import sqlite3
import uuid

import numpy as np
import pytest
from osgeo import gdal, osr
from qgis.core import QgsProcessingException, QgsProcessingFeedback, QgsVectorLayer

from geobias.paths import DATA
from geobias.processing.features import as_float
from geobias.test.faultserver import FaultServer

COUNTRIES = os.path.join(DATA, "world_countries.gpkg") + "|layername=countries"


def run(alg, params, feedback=None):
    import processing

    return processing.run(alg, params, feedback=feedback)


class Log(QgsProcessingFeedback):
    """Feedback that keeps what an algorithm says."""

    def __init__(self):
        super().__init__()
        self.infos, self.warnings = [], []

    def pushInfo(self, info):
        self.infos.append(info)

    def pushWarning(self, warning):
        self.warnings.append(warning)


def column(layer, name):
    return as_float([f[name] for f in layer.getFeatures()])


def texts(layer, name):
    return [f[name] for f in layer.getFeatures()]


@pytest.fixture()
def points(processing_ready):
    return run("geobias:samplepoints", {"COUNT": 12, "METHOD": 1, "OUTPUT": "memory:"})["OUTPUT"]


def fresh_model():
    """A model name no earlier run used: answers are cached by endpoint URL and model, and a
    later fault server may get the port of an earlier one."""
    return f"fake-{uuid.uuid4().hex[:8]}"


def rate(points, fs, tmp_path, name="rated.gpkg", model=None, **params):
    out = str(tmp_path / name)
    base = {"INPUT": points, "PROVIDER": 9, "BASE_URL": fs.base_url,
            "MODEL": model or fresh_model(), "CONCURRENCY": 1,
            "TOPICS": "Infant Mortality Rate", "OUTPUT": out}  # fmt: skip
    res = run("geobias:ratelocations", {**base, **params})
    return res, QgsVectorLayer(res["OUTPUT_LAYERS"][0], "r", "ogr")


# --- item 2: a score column holds one kind ---


def test_expected_score_is_never_swapped_for_a_greedy_rating(points, tmp_path):
    # The answers to requests 3 and 5 come without logprobs: no expected value there.
    with FaultServer(plan={3: "no_logprobs", 5: "no_logprobs"}) as fs:
        _, layer = rate(points, fs, tmp_path, SCORE=0)
    score, expected = column(layer, "score"), column(layer, "expected")
    answered, no_score = column(layer, "answered"), column(layer, "no_score")
    assert set(texts(layer, "score_kind")) == {"expected"}
    assert answered.sum() == 12 and no_score.sum() == 2
    assert np.isnan(score[no_score == 1]).all() and np.isnan(expected[no_score == 1]).all()
    assert np.array_equal(score[no_score == 0], expected[no_score == 0])
    metrics = run("geobias:biasmetrics", {"INPUT": [layer], "N_BOOT": 0, "OUTPUT": "memory:"})
    (row,) = list(metrics["OUTPUT"].getFeatures())
    assert row["n_no_score"] == 2 and row["n_answered"] == 12 and row["answer_rate"] == 1.0
    assert "2 answered points have no score" in row["reason"]


@pytest.mark.parametrize("logprobs, kind", [(True, "expected"), (False, "greedy")])
def test_default_score_is_expected_with_logprobs_and_greedy_without(points, tmp_path, logprobs,
                                                                    kind):  # fmt: skip
    with FaultServer(logprobs=logprobs) as fs:
        _, layer = rate(points, fs, tmp_path)  # SCORE left at its default
    assert set(texts(layer, "score_kind")) == {kind}
    assert np.array_equal(column(layer, "score"), column(layer, kind.replace("greedy", "rating")))
    assert column(layer, "no_score").sum() == 0


def test_the_dock_and_processing_share_one_default_score(processing_ready):
    from qgis.core import QgsApplication

    from geobias.processing.definitions import SCORE_KINDS
    from geobias.ui.settings import SurveySettings

    for alg_id in ("geobias:ratelocations", "geobias:survey"):
        alg = QgsApplication.processingRegistry().algorithmById(alg_id)
        default = alg.parameterDefinition("SCORE").defaultValue()
        assert SCORE_KINDS.index(SurveySettings().score) == default


# --- items 4 and 5: failed requests are not asked, and the runs table says what was sent ---


def test_failed_requests_are_reported_and_not_counted_as_refusals(processing_ready, tmp_path):
    out = str(tmp_path / "survey.gpkg")
    params = {"COUNT": 12, "METHOD": 1, "PROVIDER": 9, "MODEL": fresh_model(), "CONCURRENCY": 1,
              "TOPICS": "Infant Mortality Rate", "N_BOOT": 0, "OUTPUT": out}  # fmt: skip
    log = Log()
    with FaultServer(plan={2: "400", 7: "400", 4: "refusal"}) as fs:
        res = run("geobias:survey", {**params, "BASE_URL": fs.base_url}, log)
        assert fs.n_requests == 12
        (row,) = list(QgsVectorLayer(res["METRICS"], "m", "ogr").getFeatures())
        assert (row["n_points"], row["n_failed"], row["n_answered"]) == (12, 2, 9)
        assert row["answer_rate"] == pytest.approx(9 / 10)  # the refusal counts, failures not
        assert "2 requests failed" in row["reason"]
        rated = QgsVectorLayer(res["OUTPUT_LAYERS"][0], "r", "ogr")
        failed = column(rated, "failed")
        assert failed.sum() == 2 and column(rated, "answered")[failed == 1].sum() == 0
        assert any("2 of 12 requests failed" in w for w in log.warnings)
        # Run again: only the failed requests are sent.
        fs.plan = {}
        run("geobias:survey", {**params, "BASE_URL": fs.base_url})
        assert fs.n_requests == 14
    with sqlite3.connect(out) as con:
        rows = con.execute("select n_points, n_requests, n_cached, n_failed, status from runs")
        first, second = rows.fetchall()
    assert first[:4] == (12, 12, 0, 2) and "2 requests failed" in first[4]
    assert second == (12, 2, 10, 0, "complete")


def test_ratelocations_records_what_was_sent(points, tmp_path):
    model = fresh_model()
    with FaultServer() as fs:
        rate(points, fs, tmp_path, "a.gpkg", model)
        rate(points, fs, tmp_path, "b.gpkg", model)  # everything from the cache
        assert fs.n_requests == 12
    for name, sent in (("a.gpkg", 12), ("b.gpkg", 0)):
        with sqlite3.connect(str(tmp_path / name)) as con:
            row = con.execute("select n_requests, n_cached, n_failed, status from runs").fetchone()
        assert row == (sent, 12 - sent, 0, "complete")


# --- item 7: imported ratings outside the scale ---


def test_import_warns_about_ratings_outside_the_scale_and_takes_the_users_scale(
    processing_ready, tmp_path
):
    path = tmp_path / "mine.csv"
    path.write_text("Latitude,Longitude,Predictions\n1,2,3.5\n3,4,12.0\n5,6,-3\n7,8,9.9\n")
    log = Log()
    res = run("geobias:importratings", {"INPUT": str(path), "OUTPUT": "memory:"}, log)
    assert res["N_OUT_OF_SCALE"] == 2
    assert any("2 ratings lie outside the scale 0–9.9" in w and "12" in w for w in log.warnings)
    # On a 0–100 scale nothing is outside; the score is put on the paper's 0–9.9.
    log = Log()
    res = run("geobias:importratings", {"INPUT": str(path), "SCALE_MIN": -10, "SCALE_MAX": 100,
                                        "OUTPUT": "memory:"}, log)  # fmt: skip
    assert res["N_OUT_OF_SCALE"] == 0 and not log.warnings
    layer = res["OUTPUT"]
    assert column(layer, "rating").tolist() == [3.5, 12.0, -3.0, 9.9]
    assert column(layer, "score") == pytest.approx((np.array([3.5, 12, -3, 9.9]) + 10) / 110 * 9.9)
    with pytest.raises(QgsProcessingException, match="SCALE_MIN"):
        run("geobias:importratings", {"INPUT": str(path), "SCALE_MIN": 5, "SCALE_MAX": 5,
                                      "OUTPUT": "memory:"})  # fmt: skip


# --- item 7b: a cluster bootstrap when the truth comes from polygons ---


@pytest.fixture()
def with_truth(processing_ready, reference_dir, tmp_path):
    csv = os.path.join(reference_dir, "gpt_3_5_turbo_0613_Infant_Mortality_Rate_world_prompts.csv")
    imported = run("geobias:importratings", {"INPUT": csv, "MODEL": "gpt-3.5",
                                             "OUTPUT": str(tmp_path / "imr.gpkg")})  # fmt: skip
    return run("geobias:samplegroundtruth", {
        "INPUT": imported["OUTPUT"], "POLYGONS": COUNTRIES, "POLYGON_FIELD": "infant_mortality",
        "OUTPUT": str(tmp_path / "truth.gpkg"),
    })["OUTPUT"]  # fmt: skip


def test_truth_from_polygons_gets_a_cluster_bootstrap(with_truth):
    layer = QgsVectorLayer(with_truth, "t", "ogr")
    units = column(layer, "truth_unit")
    truth = column(layer, "truth")
    assert np.array_equal(np.isfinite(units) & (units >= 0), np.isfinite(truth))
    n_units = len(np.unique(units[np.isfinite(truth)]))
    rows = {}
    for mode in (0, 1):  # automatic (clusters by truth unit here), points
        metrics = run("geobias:biasmetrics", {"INPUT": [with_truth], "BOOTSTRAP": mode,
                                              "N_BOOT": 300, "OUTPUT": "memory:"})  # fmt: skip
        (rows[mode],) = list(metrics["OUTPUT"].getFeatures())
    assert rows[0]["bootstrap"] == f"clusters ({n_units})" and rows[1]["bootstrap"] == "points"
    width = {m: r["rho_truth_hi"] - r["rho_truth_lo"] for m, r in rows.items()}
    assert rows[0]["rho_truth"] == rows[1]["rho_truth"] and width[0] > 1.3 * width[1]


# --- item 9: biasmetrics validates its fields like samplegroundtruth ---


@pytest.mark.parametrize(
    "params, message",
    [
        ({"TRUTH_FIELD": "model"},
         r"Ground truth field \(TRUTH_FIELD\): field 'model' is not numeric"),
        ({"TRUTH_FIELD": "topic"}, r"TRUTH_FIELD\): field 'topic' is not numeric"),
        ({"TRUTH_FIELD": "nope"}, r"TRUTH_FIELD\): the layer has no field 'nope'"),
        ({"TRUTH_FIELD": "completion"}, r"TRUTH_FIELD\): field 'completion' is not numeric"),
        ({"TRUTH_FIELD": "rank_error"}, r"TRUTH_FIELD\): field 'rank_error' has no values"),
        ({"ANCHOR": COUNTRIES, "ANCHOR_FIELD": "name"},
         r"Anchoring field \(ANCHOR_FIELD\): field 'name' is not numeric"),
    ],
)  # fmt: skip
def test_biasmetrics_fields_are_validated_with_the_parameter_named(points, tmp_path, params,
                                                                   message):  # fmt: skip
    with FaultServer() as fs:
        res, layer = rate(points, fs, tmp_path)
    # A layer still referenced from a frame the exception's traceback keeps alive outlives
    # QGIS at exit and crashes the interpreter there: drop it before the error.
    del layer
    with pytest.raises(QgsProcessingException, match=message):
        run("geobias:biasmetrics", {"INPUT": res["OUTPUT_LAYERS"], "N_BOOT": 0,
                                    "OUTPUT": "memory:", **params})  # fmt: skip


# --- item 12: a raster anchor with the truth's window statistics ---


def make_world_raster(path, res_deg=0.5):
    """A global raster whose value rises towards the poles (|lat|), -1 as nodata at the equator."""
    w, h = int(360 / res_deg), int(180 / res_deg)
    ds = gdal.GetDriverByName("GTiff").Create(path, w, h, 1, gdal.GDT_Float32)
    ds.SetGeoTransform((-180, res_deg, 0, 90, 0, -res_deg))
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(4326)
    ds.SetProjection(srs.ExportToWkt())
    lat = 90 - (np.arange(h) + 0.5) * res_deg
    data = np.repeat(np.abs(lat)[:, None], w, axis=1).astype(np.float32)
    band = ds.GetRasterBand(1)
    band.SetNoDataValue(-1)
    band.WriteArray(data)
    ds = None
    return path


def test_raster_anchor_uses_the_truth_window_statistic(with_truth, tmp_path):
    from geobias.core.stats.metrics import spearman
    from geobias.processing.rasters import raster_window_stat

    raster = make_world_raster(str(tmp_path / "anchor.tif"))
    metrics = run("geobias:biasmetrics", {
        "INPUT": [with_truth], "ANCHOR_RASTER": raster, "ANCHOR_WINDOW_KM": 50,
        "ANCHOR_STATISTIC": 0, "N_BOOT": 0, "OUTPUT": "memory:",
    })["OUTPUT"]  # fmt: skip
    (row,) = list(metrics.getFeatures())
    layer = QgsVectorLayer(with_truth, "t", "ogr")
    anchor, _ = raster_window_stat(raster, 1, column(layer, "lon"), column(layer, "lat"), 50)
    want = spearman(column(layer, "score"), anchor, n_boot=0)
    assert row["anchor"] == "anchor, band 1" and row["rho_anchor"] == pytest.approx(want.rho)
    assert np.isfinite(row["bias_score"])
    # NEGATE turns a deprivation raster (infant mortality) into "higher = better off".
    negated = run("geobias:biasmetrics", {
        "INPUT": [with_truth], "ANCHOR_RASTER": raster, "ANCHOR_WINDOW_KM": 50,
        "ANCHOR_NEGATE": True, "N_BOOT": 0, "OUTPUT": "memory:",
    })["OUTPUT"]  # fmt: skip
    assert next(negated.getFeatures())["rho_anchor"] == pytest.approx(-want.rho)


def test_an_anchor_given_twice_is_a_clear_error(with_truth, tmp_path):
    raster = make_world_raster(str(tmp_path / "anchor.tif"))
    with pytest.raises(QgsProcessingException, match="one anchor"):
        run("geobias:biasmetrics", {"INPUT": [with_truth], "ANCHOR_RASTER": raster,
                                    "ANCHOR": COUNTRIES, "ANCHOR_FIELD": "infant_survival",
                                    "OUTPUT": "memory:"})  # fmt: skip


def test_the_dock_metrics_table_shows_failures_and_the_bootstrap(qgis_app):
    from qgis.PyQt.QtCore import Qt

    from geobias.ui.results import COLUMNS, MetricsTableModel, row_from_record

    record = {"model": "m", "topic": "t", "n_points": 12, "answer_rate": 0.9, "n_failed": 2,
              "n_no_score": 1, "rho_truth": 0.5, "rho_truth_lo": 0.2, "rho_truth_hi": 0.7,
              "bootstrap": "clusters (30)"}  # fmt: skip
    model = MetricsTableModel()
    model.set_rows([row_from_record(record)])
    col = {key: i for i, (key, _, _) in enumerate(COLUMNS)}
    rate = model.index(0, col["answer_rate"])
    assert model.data(rate) == "0.90 (2 failed)"
    assert "2 requests failed" in model.data(rate, Qt.ItemDataRole.ToolTipRole)
    assert "1 answered points have no score" in model.data(rate, Qt.ItemDataRole.ToolTipRole)
    assert "clusters (30)" in model.data(model.index(0, col["rho_ci"]), Qt.ItemDataRole.ToolTipRole)
