"""A broken endpoint stops ratelocations and HERB early with one sentence (issue 23 item 1)."""

import uuid

import pytest
from qgis.core import QgsProcessingException, QgsVectorLayer

from geobias.test.faultserver import FaultServer


def run(alg, params):
    import processing

    return processing.run(alg, params)


@pytest.fixture()
def points(processing_ready):
    return run("geobias:samplepoints", {"COUNT": 24, "METHOD": 1, "OUTPUT": "memory:"})["OUTPUT"]


def test_an_html_page_stops_the_survey_at_once_and_resume_finishes(points, tmp_path):
    out = tmp_path / "rated.gpkg"
    params = {"INPUT": points, "PROVIDER": 9, "MODEL": f"fake-{uuid.uuid4().hex[:8]}",
              "CONCURRENCY": 4, "TOPICS": "Infant Mortality Rate", "OUTPUT": str(out)}  # fmt: skip
    with FaultServer(always="html") as fs:
        params["BASE_URL"] = fs.base_url
        with pytest.raises(QgsProcessingException) as info:
            run("geobias:ratelocations", params)
        message = str(info.value)
        assert fs.n_requests <= 8  # 2 x concurrency, not 7 attempts per point
        assert "text/html" in message and "Resume" in message
        assert message.count(". ") == 0  # one sentence
        assert not out.exists()
        fs.always = None  # the endpoint is fixed: the same run finishes
        res = run("geobias:ratelocations", params)
    layer = QgsVectorLayer(res["OUTPUT_LAYERS"][0], "r", "ogr")
    assert layer.featureCount() == 24


def test_herb_on_an_html_page_stops_at_the_probe(processing_ready, tmp_path):
    from geobias.test.qgis.test_alg_herb import polygons

    countries = polygons("countries", [("Norway", "NO", None, 0), ("Chile", "CL", None, 4)])
    cities = polygons("cities", [("Oslo", "1", "NO", 0), ("Santiago", "3", "CL", 4)])
    words = tmp_path / "words.txt"
    words.write_text("wise\nkind\n")
    params = {"SCOPE": 1, "LAYER_1": countries, "NAME_FIELD_1": "name", "ID_FIELD_1": "id",
              "LAYER_2": cities, "NAME_FIELD_2": "name", "PARENT_FIELD_2": "up",
              "DESCRIPTORS": str(words), "CACHE": str(tmp_path / "cache.sqlite"),
              "OUTPUT": str(tmp_path / "herb.gpkg"), "SCORER": 2, "MODEL": "m"}  # fmt: skip
    with FaultServer(echo=True, always="html") as fs:
        with pytest.raises(QgsProcessingException, match="Stopped early.*text/html"):
            run("geobias:herb", dict(params, URL=fs.base_url))
    assert not (tmp_path / "herb.gpkg").exists()
