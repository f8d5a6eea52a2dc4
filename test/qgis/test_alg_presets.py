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


def test_the_sampled_score_gives_mistral_an_expected_value(points, tmp_path):
    from geobias.core.survey.sampled import first_digit
    from geobias.test.faultserver import prompt_rating

    log = Log()
    with MistralServer() as srv:
        srv.key = None
        params = {"INPUT": points, "PROVIDER": 11, "BASE_URL": srv.base_url,
                  "MODEL": f"m-{uuid.uuid4().hex[:8]}", "TOPICS": "Infant Mortality Rate",
                  "SCORE": 3, "SAMPLES": 3, "CACHE": str(tmp_path / "c.sqlite"),
                  "OUTPUT": str(tmp_path / "r.gpkg")}  # fmt: skip
        res = run("geobias:ratelocations", params, log)
        sent = len(srv.bodies)
        run("geobias:ratelocations", dict(params, OUTPUT=str(tmp_path / "again.gpkg")))
        assert len(srv.bodies) == sent == 12 * 3  # each draw its own request, then cached
    assert set(srv.statuses) == {200}
    assert {b["random_seed"] for b in srv.bodies} == {0, 1, 2}
    assert all(b["temperature"] == 1.0 and "logprobs" not in b for b in srv.bodies)
    assert any("Sampled expected value" in line and "36 requests" not in line
               for line in log.lines)  # fmt: skip
    assert any("36 requests" in line for line in log.lines)  # the estimate counts the draws
    layer = QgsVectorLayer(res["OUTPUT_LAYERS"][0], "r", "ogr")
    for f in layer.getFeatures():
        r = prompt_rating(f["prompt"])
        digits = [first_digit(round((r + 1.3 * s) % 10, 1)) for s in range(3)]
        mean = sum(digits) / 3
        sd = (sum((d - mean) ** 2 for d in digits) / 2) ** 0.5
        assert f["score_kind"] == "sampled" and f["n_draws"] == 3 and f["answered"] == 1
        assert f["score"] == pytest.approx(mean) and f["score_se"] == pytest.approx(sd / 3**0.5)


class Warnings(Log):
    def __init__(self):
        super().__init__()
        self.warnings = []

    def pushWarning(self, warning):  # noqa: N802 - QGIS's name
        self.warnings.append(warning)
        super().pushWarning(warning)


def test_compare_warns_when_it_mixes_sampled_and_logprob_scores(points, tmp_path):
    import os

    from geobias.paths import DATA
    from geobias.test.faultserver import FaultServer

    countries = os.path.join(DATA, "world_countries.gpkg") + "|layername=countries"
    common = {"INPUT": points, "TOPICS": "Infant Mortality Rate",
              "CACHE": str(tmp_path / "c.sqlite")}  # fmt: skip
    with FaultServer() as fs:
        ev = run("geobias:ratelocations", dict(common, PROVIDER=9, BASE_URL=fs.base_url,
                                               MODEL="with-logprobs", SCORE=0,
                                               OUTPUT=str(tmp_path / "ev.gpkg")))  # fmt: skip
    with MistralServer() as srv:
        srv.key = None
        sampled = run("geobias:ratelocations", dict(common, PROVIDER=11, BASE_URL=srv.base_url,
                                                    MODEL="sampled", SCORE=3, SAMPLES=3,
                                                    OUTPUT=str(tmp_path / "s.gpkg")))  # fmt: skip
    layers = ev["OUTPUT_LAYERS"] + sampled["OUTPUT_LAYERS"]
    common = {"ANCHOR": countries, "ANCHOR_FIELD": "infant_survival", "N_BOOT": 20}
    log = Warnings()
    run("geobias:comparemodels", dict(common, INPUT=layers, OUTPUT=str(tmp_path / "c.gpkg")), log)
    mixed = [w for w in log.warnings if "mix sampled expected values" in w]
    assert len(mixed) == 1 and "sampled" in mixed[0] and "with-logprobs" in mixed[0]
    alone = Warnings()
    run("geobias:comparemodels", dict(common, INPUT=ev["OUTPUT_LAYERS"] * 1,
                                      OUTPUT=str(tmp_path / "one.gpkg")), alone)  # fmt: skip
    assert not any("mix sampled" in w for w in alone.warnings)


def test_the_runs_row_keeps_what_the_answers_showed(points, tmp_path):
    import json
    import sqlite3

    from geobias.test.faultserver import FaultServer

    common = {"INPUT": points, "TOPICS": "Infant Mortality Rate",
              "CACHE": str(tmp_path / "c.sqlite")}  # fmt: skip
    log = Log()
    with MistralServer() as srv:
        srv.key = None
        run("geobias:ratelocations", dict(common, PROVIDER=11, BASE_URL=srv.base_url,
                                          MODEL="caps", OUTPUT=str(tmp_path / "m.gpkg")),
            log)  # fmt: skip
    with FaultServer() as fs:
        f_params = dict(common, PROVIDER=9, BASE_URL=fs.base_url, MODEL="caps",
                        OUTPUT=str(tmp_path / "f.gpkg"))  # fmt: skip
        run("geobias:ratelocations", f_params)
        assert fs.n_requests == 12  # read from the answers: no request more
    rows = {}
    for name in ("m", "f"):
        with sqlite3.connect(tmp_path / f"{name}.gpkg") as con:
            rows[name] = json.loads(con.execute("select capabilities from runs").fetchone()[0])
    assert rows["m"]["logprobs"] is False and rows["f"]["logprobs"] is True
    assert rows["f"]["top_logprobs"] == 2
    assert any("gives no log-probabilities: greedy ratings, or the sampled expected value at 10 "
               "requests per point" in line for line in log.lines)  # fmt: skip
