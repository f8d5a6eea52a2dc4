"""geobias:pairwisesurvey (issue 36 item 2) against the fault server answering as a model that
picks the place further north: ranked layers in the rating survey's schema, the comparisons
table, the order effect in the log, the size guard, and a re-run from the cache."""

import json
import uuid

import numpy as np
import pytest
from qgis.core import QgsProcessingException, QgsVectorLayer

from geobias.test.faultserver import FaultServer, northern_choice
from geobias.test.qgis.test_alg_presets import Log, run


@pytest.fixture
def spread_points(processing_ready, tmp_path):
    """16 points from 50°S to 60°N in a GeoPackage, pid 100..115."""
    from geobias.processing.gpkg import write_points_layer

    rng = np.random.default_rng(5)
    lat = np.linspace(-50, 60, 16)
    cols = {"pid": np.arange(100, 116), "lon": rng.uniform(-20, 40, 16), "lat": lat}
    path = str(tmp_path / "pts.gpkg")
    from osgeo import ogr

    return write_points_layer(path, "pts", cols, {"pid": ogr.OFTInteger64})


def test_a_pairwise_survey_ranks_the_points_as_the_model_chooses(spread_points, tmp_path):
    log = Log()
    params = {"INPUT": spread_points, "PROVIDER": 9, "MODEL": f"m-{uuid.uuid4().hex[:8]}",
              "TOPICS": "Latitude", "OPPONENTS": 4, "CACHE": str(tmp_path / "c.sqlite"),
              "OUTPUT": str(tmp_path / "pw.gpkg")}  # fmt: skip
    with FaultServer(answer=northern_choice) as fs:
        params["BASE_URL"] = fs.base_url
        res = run("geobias:pairwisesurvey", params, log)
        sent = fs.n_requests
        run("geobias:pairwisesurvey", dict(params, OUTPUT=str(tmp_path / "again.gpkg")))
        assert fs.n_requests == sent  # the second run from the cache
    assert res["N_COMPARISONS"] == sent and sent >= 16 * 4  # both orders, 4+ opponents each
    layer = QgsVectorLayer(res["OUTPUT_LAYERS"][0], "r", "ogr")
    feats = sorted(layer.getFeatures(), key=lambda f: f["pid"])
    assert [f["pid"] for f in feats] == list(range(100, 116))
    assert {f["score_kind"] for f in feats} == {"pairwise"}
    scores = np.array([f["score"] for f in feats])
    assert np.all((scores > 0) & (scores < 9)) and all(f["score_se"] > 0 for f in feats)
    rho = np.corrcoef(np.argsort(np.argsort(scores)), np.arange(16))[0, 1]
    assert rho > 0.9  # the points run south to north
    assert all(f["n_draws"] >= 8 for f in feats)
    table = QgsVectorLayer(f"{params['OUTPUT']}|layername=comparisons", "c", "ogr")
    rows = list(table.getFeatures())
    assert len(rows) == sent and {r["chosen"] for r in rows} <= {"first", "second"}
    assert any("order effect" in line for line in log.lines), log.lines
    assert {round(r["p_first"], 6) for r in rows} == {0.7, 0.3}  # the fake's letter at 0.7
    assert any("strengths from the probability" in line for line in log.lines)
    runs = QgsVectorLayer(f"{params['OUTPUT']}|layername=runs", "runs", "ogr")
    row = next(runs.getFeatures())
    assert row["algorithm"] == "geobias:pairwisesurvey" and row["n_requests"] == sent
    assert json.loads(row["manifest"])["served_model_id"] == "fault"  # what the answers named


def test_a_pairwise_survey_larger_than_max_requests_is_refused_before_sending(
    spread_points, tmp_path
):
    with FaultServer(answer=northern_choice) as fs:
        params = {"INPUT": spread_points, "PROVIDER": 9, "BASE_URL": fs.base_url, "MODEL": "m",
                  "TOPICS": "Latitude", "OPPONENTS": 15, "MAX_REQUESTS": 100,
                  "CACHE": str(tmp_path / "c.sqlite"),
                  "OUTPUT": str(tmp_path / "pw.gpkg")}  # fmt: skip
        with pytest.raises(QgsProcessingException, match=r"240 requests \(120 pairs"):
            run("geobias:pairwisesurvey", params)
        assert fs.n_requests == 0


def test_a_broken_endpoint_ends_the_pairwise_survey_with_one_sentence(spread_points, tmp_path):
    with FaultServer(always="401") as fs:
        params = {"INPUT": spread_points, "PROVIDER": 9, "BASE_URL": fs.base_url, "MODEL": "m",
                  "TOPICS": "Latitude", "OPPONENTS": 2, "CACHE": str(tmp_path / "c.sqlite"),
                  "OUTPUT": str(tmp_path / "pw.gpkg")}  # fmt: skip
        with pytest.raises(QgsProcessingException) as info:
            run("geobias:pairwisesurvey", params)
    assert "Traceback" not in str(info.value) and "401" in str(info.value), str(info.value)
    assert not (tmp_path / "pw.gpkg").exists()
