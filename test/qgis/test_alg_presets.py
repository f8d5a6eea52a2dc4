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


def test_the_sampled_score_gives_mistral_an_expected_value_in_one_request_a_point(points, tmp_path):
    """Mistral takes n: the probe finds it, and each prompt's draws come as its n choices."""
    from geobias.core.engine.capabilities import PROBE_REQUESTS
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
        assert len(srv.bodies) == sent  # the second run: all from the cache, no probe
    probes, asked = srv.bodies[:PROBE_REQUESTS], srv.bodies[PROBE_REQUESTS:]
    assert [b.get("n", 1) for b in probes] == [1, 1, 2, 1]  # logprobs refused, asked again
    assert len(asked) == 12 and all(b["n"] == 3 and b["random_seed"] == 0 for b in asked)
    assert all(b["temperature"] == 1.0 and "logprobs" not in b for b in asked)
    assert any("12 requests" in line for line in log.lines), log.lines  # one a point
    assert any("asked in one request (n=3)" in line for line in log.lines)
    layer = QgsVectorLayer(res["OUTPUT_LAYERS"][0], "r", "ogr")
    for f in layer.getFeatures():
        r = prompt_rating(f["prompt"])
        digits = [first_digit(round((r + 0.1 * i) % 10, 1)) for i in range(3)]  # its choices
        mean = sum(digits) / 3
        sd = (sum((d - mean) ** 2 for d in digits) / 2) ** 0.5
        assert f["score_kind"] == "sampled" and f["n_draws"] == 3 and f["answered"] == 1
        assert f["score"] == pytest.approx(mean) and f["score_se"] == pytest.approx(sd / 3**0.5)


def test_the_sampled_score_asks_anthropic_each_draw_apart(points, tmp_path):
    """Anthropic refuses n > 1 (and ignores the seed): each draw is a request of its own."""
    log = Log()
    with AnthropicCompatServer() as srv:
        srv.key = None
        params = {"INPUT": points, "PROVIDER": 10, "BASE_URL": srv.base_url,
                  "MODEL": f"m-{uuid.uuid4().hex[:8]}", "TOPICS": "Infant Mortality Rate",
                  "SCORE": 3, "SAMPLES": 3, "CACHE": str(tmp_path / "c.sqlite"),
                  "OUTPUT": str(tmp_path / "r.gpkg")}  # fmt: skip
        run("geobias:ratelocations", params, log)
    probes, asked = srv.bodies[:3], srv.bodies[3:]  # logprobs ignored: not asked again
    assert [b.get("n", 1) for b in probes] == [1, 2, 1] and "seed" in probes[2]
    assert len(asked) == 36 and not any("seed" in b or b.get("n", 1) > 1 for b in asked)
    assert any("36 requests" in line for line in log.lines), log.lines
    assert any("a request of its own" in line for line in log.lines)


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
