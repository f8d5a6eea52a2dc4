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


class _Log:
    """A Processing feedback that keeps what the run says."""

    def __new__(cls):
        from qgis.core import QgsProcessingFeedback

        class Log(QgsProcessingFeedback):
            def __init__(self):
                super().__init__()
                self.lines = []

            def pushInfo(self, text):  # noqa: N802 - QGIS's name
                self.lines.append(text)
                super().pushInfo(text)

            def pushWarning(self, text):  # noqa: N802 - QGIS's name
                self.lines.append(text)
                super().pushWarning(text)

        return Log()


def test_four_poisoned_prompts_of_thirty_write_the_layers_and_a_second_run_finishes(
    processing_ready, tmp_path
):
    # Issue 31: the first 4 prompts a server sees reset the connection every time. On main the
    # first run stopped after the streak and wrote nothing, and every later run after 5.
    import processing

    points = run("geobias:samplepoints", {"COUNT": 30, "METHOD": 1, "OUTPUT": "memory:"})
    out = tmp_path / "rated.gpkg"
    params = {"INPUT": points["OUTPUT"], "PROVIDER": 9, "MODEL": f"fake-{uuid.uuid4().hex[:8]}",
              "CONCURRENCY": 4, "TOPICS": "Infant Mortality Rate", "OUTPUT": str(out),
              "CACHE": str(tmp_path / "cache.sqlite")}  # fmt: skip
    with FaultServer(poison_first=4) as fs:
        params["BASE_URL"] = fs.base_url
        for attempt in (1, 2):
            if attempt == 2:
                out.unlink()
            log = _Log()
            res = processing.run("geobias:ratelocations", params, feedback=log)
            layer = QgsVectorLayer(res["OUTPUT_LAYERS"][0], "r", "ogr")
            assert layer.featureCount() == 30
            failed = sum(f["failed"] == 1 for f in layer.getFeatures())
            assert failed == 4, attempt
            assert any("4 of 30 requests failed" in line for line in log.lines), log.lines
        assert len(fs.poisoned) == 4


def test_a_throttled_start_is_waited_out_with_a_countdown(processing_ready, tmp_path):
    # One real wait: every request of the first 2 s gets 429 with Retry-After (main stopped
    # after 5 requests and 1.0 s, "answered HTTP 429 and answered nothing").
    import time

    import processing

    points = run("geobias:samplepoints", {"COUNT": 12, "METHOD": 1, "OUTPUT": "memory:"})
    cache, rated = str(tmp_path / "c.sqlite"), str(tmp_path / "rated.gpkg")
    params = {"INPUT": points["OUTPUT"], "PROVIDER": 9, "MODEL": f"fake-{uuid.uuid4().hex[:8]}",
              "CONCURRENCY": 4, "TOPICS": "Infant Mortality Rate", "CACHE": cache,
              "OUTPUT": rated}  # fmt: skip
    with FaultServer(throttle={"first_s": 2.0}) as fs:
        params["BASE_URL"] = fs.base_url
        log = _Log()
        t0 = time.monotonic()
        res = processing.run("geobias:ratelocations", params, feedback=log)
        took = time.monotonic() - t0
        throttled = fs.n_throttled
    layer = QgsVectorLayer(res["OUTPUT_LAYERS"][0], "r", "ogr")
    assert layer.featureCount() == 12
    assert all(f["failed"] == 0 for f in layer.getFeatures())
    assert took >= 2.0 and 1 <= throttled <= 12  # waited, not hammered
    waits = [line for line in log.lines if line.startswith("Throttled:")]
    assert waits and "HTTP 429" in waits[0] and "min of patience left" in waits[0], log.lines
