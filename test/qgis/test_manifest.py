"""Every runs row carries a manifest (issue 33 item 2): what repeating the run needs beyond its
request bodies, never a key."""

import json
import os

from geobias.core.engine.chat import Endpoint
from geobias.core.runtime import models
from geobias.core.runtime.embedded import MODEL_NAME
from geobias.core.survey.prompts import PRESETS, make_template
from geobias.processing.runs import append_runs, language_records, read_runs, run_record
from geobias.test.faultserver import FaultServer

SECRET = "sk-test-GEOBIAS-manifest-0123456789"


def test_an_embedded_run_records_its_model_file_server_and_template(tmp_path, monkeypatch):
    # The bundled model's file as the install reassembles it, in a models folder of this test's
    # own (the matrix chroots have no model installed; the hash is of these bytes either way).
    monkeypatch.setenv("GEOBIAS_MODELS_DIR", str(tmp_path / "models"))
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / models.get_model().file).write_bytes(b"GGUF" + bytes(range(256)) * 64)
    ep = Endpoint.from_provider("embedded", MODEL_NAME, base_url="http://127.0.0.1:9/v1", seed=7)
    template = PRESETS["geollm"]
    row = run_record("geobias:ratelocations", {"TOPICS": "x", "API_KEY": SECRET}, "now", ep,
                     template, ["x"], score_kind="expected")  # fmt: skip
    append_runs(str(tmp_path / "o.gpkg"), [row])
    stored = read_runs(str(tmp_path / "o.gpkg"))[0]
    m = json.loads(stored["manifest"])
    path = models.model_path()
    assert m["model"]["file"] == os.path.basename(path)
    assert m["model"]["size"] == os.path.getsize(path)
    assert m["model"]["sha256"] == models.sha256_file(path) and m["model"]["alias"] is False
    assert m["server"]["name"] == "llama.cpp" and m["server"]["version"].startswith("b")
    assert m["seed"] == 7 and m["score_kind"] == "expected" and m["constraint"] == ep.constraint
    assert m["template"]["language"] == "en" and len(m["template"]["sha256"]) == 64
    assert m["geobias"]["version"] and m["qgis"] and m["python"].count(".") == 2
    # run from a clone (here, the matrix's copy with its .git): its commit
    assert len(m["geobias"]["commit"]) == 40
    assert m["parameters"] == {"TOPICS": "x"}
    assert "capabilities" in m and "system_fingerprint" in m
    assert SECRET not in stored["manifest"]


def test_a_model_not_installed_is_recorded_by_name_and_catalogue_checksum(tmp_path, monkeypatch):
    monkeypatch.setenv("GEOBIAS_MODELS_DIR", str(tmp_path / "empty"))
    ep = Endpoint.from_provider("embedded", MODEL_NAME, base_url="http://127.0.0.1:9/v1")
    m = json.loads(run_record("x", {}, "now", ep, PRESETS["geollm"], ["x"])["manifest"])
    known = models.get_model()
    assert m["model"]["file"] == known.file and m["model"]["size"] is None
    assert m["model"]["sha256"] == (known.sha256 or None)


def test_another_template_or_language_has_another_checksum():
    ep = Endpoint("https://api.openai.com/v1", "gpt-4o", provider="openai", api_key=SECRET)
    a = run_record("x", {}, "now", ep, make_template("a", "Rate. ", "{topic} at {lat}, {lon}:"))
    b = run_record("x", {}, "now", ep, make_template("a", "Rate! ", "{topic} at {lat}, {lon}:"))
    ma, mb = json.loads(a["manifest"]), json.loads(b["manifest"])
    assert ma["template"]["sha256"] != mb["template"]["sha256"]
    assert ma["model"] == {"name": "gpt-4o", "provider": "openai", "alias": True}  # no file
    assert SECRET not in a["manifest"]

    class Stats:
        n_requests = n_cached = n_failed = 0

    rows = language_records(a, ["en", "fr"], {"en": Stats, "fr": Stats}, PRESETS["geollm"])
    langs = [json.loads(r["manifest"])["template"] for r in rows]
    assert [t["language"] for t in langs] == ["en", "fr"]
    assert langs[0]["sha256"] != langs[1]["sha256"]


def run(alg, params):
    from qgis import processing

    return processing.run(alg, params)


def rate_against(fs, tmp_path, points, **extra):
    """A ratelocations run against the fault server; its runs row's manifest."""
    import uuid

    out = tmp_path / f"r-{uuid.uuid4().hex[:6]}.gpkg"
    run("geobias:ratelocations", {
        "INPUT": points, "PROVIDER": 9, "BASE_URL": fs.base_url, "MODEL": "gpt-4o",
        "TOPICS": "Infant Mortality Rate", "CONCURRENCY": 1,
        "CACHE": str(tmp_path / "cache.sqlite"), "OUTPUT": str(out), **extra,
    })  # fmt: skip
    return json.loads(read_runs(str(out))[0]["manifest"])


def test_a_survey_records_the_model_and_fingerprint_its_answers_report(processing_ready,
                                                                       tmp_path):  # fmt: skip
    points = run("geobias:samplepoints", {"COUNT": 6, "METHOD": 1, "OUTPUT": "memory:"})["OUTPUT"]
    with FaultServer(model="gpt-4o-2024-08-06", fingerprints={0: "fp_44709d6fcb"}) as fs:
        m = rate_against(fs, tmp_path, points)
        # A re-run from the cache reads the same from the stored answers, sending nothing.
        sent, fs.model = fs.n_requests, "other"
        again = rate_against(fs, tmp_path, points)
        assert fs.n_requests == sent
    assert m["model"]["name"] == "gpt-4o"  # as configured, beside what answered
    assert m["served_model_id"] == "gpt-4o-2024-08-06"
    assert m["system_fingerprint"] == "fp_44709d6fcb"
    assert m["capabilities"]["system_fingerprint"] == "fp_44709d6fcb"
    assert again["served_model_id"] == "gpt-4o-2024-08-06"
    assert again["system_fingerprint"] == "fp_44709d6fcb"


def test_a_fingerprint_that_changes_mid_run_is_recorded_both_ways(processing_ready, tmp_path):
    points = run("geobias:samplepoints", {"COUNT": 30, "METHOD": 1, "OUTPUT": "memory:"})["OUTPUT"]
    # Past the 20 answers the capabilities are read from: the whole run's answers count.
    with FaultServer(fingerprints={0: "fp_a", 25: "fp_b"}) as fs:
        m = rate_against(fs, tmp_path, points)
    assert m["system_fingerprint"] == ["fp_a", "fp_b"]
    assert m["served_model_id"] == "fault"


def test_the_alias_flag_follows_the_reported_snapshot():
    from geobias.core.survey.run import RunStats

    ep = Endpoint("https://api.openai.com/v1", "gpt-4o", provider="openai", api_key=SECRET)
    pinned, moving = RunStats(), RunStats()
    pinned.note_served({"model": "gpt-4o-2024-08-06", "system_fingerprint": "fp_1"})
    moving.note_served({"model": "gpt-4o"})
    a = json.loads(run_record("x", {}, "now", ep, PRESETS["geollm"], stats=pinned)["manifest"])
    b = json.loads(run_record("x", {}, "now", ep, PRESETS["geollm"], stats=moving)["manifest"])
    none = json.loads(run_record("x", {}, "now", ep, PRESETS["geollm"])["manifest"])
    assert (a["served_model_id"], a["model"]["name"], a["model"]["alias"]) == (
        "gpt-4o-2024-08-06", "gpt-4o", False)  # fmt: skip
    assert b["model"]["alias"] is True and b["system_fingerprint"] is None
    # Nothing answered: nothing reported, the configured name judged.
    assert none["served_model_id"] is None and none["model"]["alias"] is True
