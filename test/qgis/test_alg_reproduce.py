"""geobias:reproduce (issue 33 items 3 and 6): a recorded ratelocations run again from the
cache is identical and sends nothing; missing answers are refused before any request; asking
again goes only to a confirmed host and reports what changed; a foreign file naming a URL as
its input is refused."""

import json
import sqlite3
import uuid

import numpy as np
import pytest
from osgeo import ogr
from qgis.core import QgsProcessingException, QgsVectorLayer

from geobias.test.faultserver import FaultServer
from geobias.test.qgis.test_alg_presets import Log, run


@pytest.fixture
def rated(processing_ready, tmp_path):
    """A ratelocations run of 10 points against a fault server left running."""
    from geobias.processing.gpkg import write_points_layer

    pts = write_points_layer(str(tmp_path / "pts.gpkg"), "pts",
                             {"pid": np.arange(10), "lon": np.linspace(-60, 60, 10),
                              "lat": np.linspace(-30, 50, 10)},
                             {"pid": ogr.OFTInteger64})  # fmt: skip
    with FaultServer() as fs:
        params = {"INPUT": pts, "PROVIDER": 9, "BASE_URL": fs.base_url,
                  "MODEL": f"m-{uuid.uuid4().hex[:8]}", "TOPICS": "Infant Mortality Rate",
                  "CACHE": str(tmp_path / "c.sqlite"),
                  "OUTPUT": str(tmp_path / "run.gpkg")}  # fmt: skip
        run("geobias:ratelocations", params)
        yield fs, params


def test_from_the_cache_it_is_identical_and_sends_nothing(rated, tmp_path):
    fs, params = rated
    sent = fs.n_requests
    log = Log()
    res = run("geobias:reproduce", {"SOURCE": params["OUTPUT"], "CACHE": params["CACHE"],
                                    "OUTPUT": str(tmp_path / "again.gpkg")}, log)  # fmt: skip
    assert fs.n_requests == sent and res["IDENTICAL"] is True
    assert any(line.startswith("Identical") for line in log.lines), log.lines
    table = QgsVectorLayer(f"{tmp_path / 'again.gpkg'}|layername=reproduction", "r", "ogr")
    rows = list(table.getFeatures())
    assert rows and all(r["n_differ"] == 0 for r in rows)
    assert {"score", "rating", "expected"} <= {r["field"] for r in rows}


def test_answers_missing_from_the_cache_are_refused_before_any_request(rated, tmp_path):
    fs, params = rated
    sent = fs.n_requests
    with pytest.raises(QgsProcessingException, match="10 of the run's 10 answers are not in"):
        run("geobias:reproduce", {"SOURCE": params["OUTPUT"], "CACHE": str(tmp_path / "e.sqlite"),
                                  "OUTPUT": str(tmp_path / "again.gpkg")})  # fmt: skip
    assert fs.n_requests == sent


def test_asking_again_needs_the_host_confirmed_and_reports_the_differences(rated, tmp_path):
    fs, params = rated
    sent = fs.n_requests
    common = {"SOURCE": params["OUTPUT"], "MODE": 1, "OUTPUT": str(tmp_path / "again.gpkg")}
    host = fs.base_url.split("//")[1].split("/")[0]
    with pytest.raises(QgsProcessingException, match=f"CONFIRM_HOST={host}"):
        run("geobias:reproduce", common)
    assert fs.n_requests == sent
    fs.answer = lambda prompt: "My answer is 1.0."  # the endpoint now answers differently
    res = run("geobias:reproduce", dict(common, CONFIRM_HOST=host))
    assert fs.n_requests == sent + 10 and res["IDENTICAL"] is False
    rows = {r["field"]: r for r in QgsVectorLayer(
        f"{tmp_path / 'again.gpkg'}|layername=reproduction", "r", "ogr").getFeatures()
        if r["table"] != "comparisons"}  # fmt: skip
    assert rows["rating"]["n_differ"] > 0 and rows["pid"]["n_differ"] == 0


def test_a_file_naming_a_url_as_its_input_is_refused(rated, tmp_path):
    fs, params = rated
    con = sqlite3.connect(params["OUTPUT"])
    row = con.execute("select parameters from runs").fetchone()[0]
    recorded = dict(json.loads(row), INPUT="https://evil.example/points.gpkg|layername=x")
    con.execute("update runs set parameters = ?", (json.dumps(recorded),))
    con.commit()
    con.close()
    sent = fs.n_requests
    with pytest.raises(QgsProcessingException, match="not a file on this machine"):
        run("geobias:reproduce", {"SOURCE": params["OUTPUT"], "CACHE": params["CACHE"],
                                  "OUTPUT": str(tmp_path / "again.gpkg")})  # fmt: skip
    assert fs.n_requests == sent and fs.n_connections <= sent + 1
