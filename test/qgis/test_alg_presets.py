"""ratelocations with the Anthropic and Mistral presets (PROVIDER 10 and 11) against local
servers that behave as those providers document (issue 31 item 5)."""

import uuid

import pytest
from qgis.core import QgsProcessingException, QgsProcessingFeedback, QgsVectorLayer

from geobias.processing.definitions import PROVIDERS
from geobias.test.chatproviders import AnthropicCompatServer, MistralServer


class Log(QgsProcessingFeedback):
    def __init__(self):
        super().__init__()
        self.lines = []

    def pushInfo(self, info):  # noqa: N802 - QGIS's name
        self.lines.append(info)
        super().pushInfo(info)


def run(alg, params, feedback=None):
    import processing

    return processing.run(alg, params, feedback=feedback)


@pytest.fixture()
def points(processing_ready):
    return run("geobias:samplepoints", {"COUNT": 12, "METHOD": 1, "OUTPUT": "memory:"})["OUTPUT"]


def test_custom_keeps_its_index_for_scripts():
    assert PROVIDERS.keys.index("custom") == 9
    assert PROVIDERS.keys.index("anthropic") == 10 and PROVIDERS.keys.index("mistral") == 11


@pytest.mark.parametrize("server, index", [(AnthropicCompatServer, 10), (MistralServer, 11)])
def test_a_preset_rates_greedily_and_says_so_before_sending(points, tmp_path, server, index):
    log = Log()
    with server() as srv:
        srv.key = None  # no key in the test's QGIS authentication database
        params = {"INPUT": points, "PROVIDER": index, "BASE_URL": srv.base_url,
                  "MODEL": f"m-{uuid.uuid4().hex[:8]}", "TOPICS": "Infant Mortality Rate",
                  "CACHE": str(tmp_path / "c.sqlite")}  # fmt: skip
        with pytest.raises(QgsProcessingException, match="no log-probabilities"):
            run("geobias:ratelocations", dict(params, SCORE=0, OUTPUT=str(tmp_path / "x.gpkg")))
        assert srv.bodies == []  # refused before anything was sent
        res = run("geobias:ratelocations", dict(params, OUTPUT=str(tmp_path / "r.gpkg")), log)
    assert set(srv.statuses) == {200} and len(srv.bodies) == 12
    assert any("Greedy ratings only" in line and "its API returns none" in line
               for line in log.lines)  # fmt: skip
    layer = QgsVectorLayer(res["OUTPUT_LAYERS"][0], "r", "ogr")
    feats = list(layer.getFeatures())
    assert len(feats) == 12 and all(f["answered"] == 1 for f in feats)
    assert {f["score_kind"] for f in feats} == {"greedy"}
