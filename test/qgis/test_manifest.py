"""Every runs row carries a manifest (issue 33 item 2): what repeating the run needs beyond its
request bodies, never a key."""

import json
import os

from geobias.core.engine.chat import Endpoint
from geobias.core.runtime import models
from geobias.core.runtime.embedded import MODEL_NAME
from geobias.core.survey.prompts import PRESETS, make_template
from geobias.processing.runs import append_runs, language_records, read_runs, run_record

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
