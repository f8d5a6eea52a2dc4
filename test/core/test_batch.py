"""Batch JSONL export and import: a survey completed by a batch service sends no requests."""

import json
import os

import numpy as np
import pytest

from geobias.core.engine.cache import SurveyCache
from geobias.core.engine.chat import Endpoint
from geobias.core.survey.batch import (
    MAX_BYTES,
    MAX_REQUESTS,
    BatchFormatError,
    export_batch,
    import_batch,
    write_batches,
)
from geobias.core.survey.prompts import make_template
from geobias.core.survey.run import SurveySpec, estimate, run_survey
from geobias.test.faultserver import FaultServer, chat_response, prompt_rating

TEMPLATE = make_template("t", "Rate. ", "({lat:.3f}, {lon:.3f}) {topic}:")


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(x) for x in f]


def batch_output(lines, fail=(), http_error=()):
    """What a batch service returns for request lines: answers, and error lines for the
    indices in `fail` (OpenAI's "error" object) and `http_error` (a non-200 response)."""
    rows = []
    for i, x in enumerate(lines):
        prompt = x["body"]["messages"][0]["content"]
        if i in fail:
            error = {"code": "server_error", "message": "boom"}
            rows.append({"custom_id": x["custom_id"], "response": None, "error": error})
        elif i in http_error:
            body = {"error": {"message": "overloaded"}}
            response = {"status_code": 503, "body": body}
            rows.append({"custom_id": x["custom_id"], "response": response, "error": None})
        else:
            response = {"status_code": 200, "body": chat_response(prompt, True)}
            rows.append({"id": f"r{i}", "custom_id": x["custom_id"], "response": response,
                         "error": None})  # fmt: skip
    return "".join(json.dumps(r) + "\n" for r in rows)


def test_caps_are_the_providers():
    assert MAX_REQUESTS == 50_000 and MAX_BYTES == 200 * 1024 * 1024


def test_export_then_import_completes_the_survey(tmp_path):
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    lon, lat = np.linspace(-5, 5, 12), np.linspace(40, 45, 12)
    with FaultServer() as fs:
        ep = Endpoint(fs.base_url, "gpt-x", api_key="sk-BATCHSECRET", logprobs=True)
        spec = SurveySpec(lon, lat, ["Attractiveness", "Crime Rate"], [ep], TEMPLATE)
        run_survey(SurveySpec(lon[:3], lat[:3], ["Attractiveness"], [ep], TEMPLATE), None, cache)
        assert fs.n_requests == 3
        files = export_batch(spec, None, cache, str(tmp_path / "out"))
        assert len(files) == 1 and files[0].n_requests == 21  # 24 minus 3 already answered
        assert files[0].path == str(tmp_path / "out" / "batch-gpt-x-001.jsonl")
        text = open(files[0].path).read()
        assert "sk-BATCHSECRET" not in text and files[0].n_bytes == len(text.encode())
        lines = read_lines(files[0].path)
        assert {x["url"] for x in lines} == {"/v1/chat/completions"}
        assert all(x["method"] == "POST" and x["body"]["model"] == "gpt-x" for x in lines)
        assert len({x["custom_id"] for x in lines}) == 21

        # The service's output: one line per request, two of them failed.
        out = tmp_path / "out.jsonl"
        out.write_text(batch_output(lines, fail={0}, http_error={5}))
        result = import_batch(str(out), cache)
        assert (result.n_answers, result.n_failed, result.n_lines) == (19, 2, 21)
        assert estimate(spec, None, cache).n_requests == 2
        assert len(cache.failures()) == 2
        answers = run_survey(spec, None, cache)
        assert fs.n_requests == 5  # only the two failed batch lines were sent here
        assert all(a.rating.rating == prompt_rating(a.prompt) for a in answers)
        assert all(a.rating.expected is not None for a in answers)
        assert export_batch(spec, None, cache, str(tmp_path / "again")) == []

        # Importing again changes nothing: the failures are answered now.
        again = import_batch(str(out), cache)
        assert (again.n_answers, again.n_failed, again.n_already_answered) == (19, 0, 2)
        assert cache.failures() == {}


def test_one_file_series_per_model_split_at_the_caps(tmp_path):
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    lon, lat = np.linspace(-50, 50, 25), np.linspace(-30, 30, 25)
    a = Endpoint("https://api.example/v1", "openai/gpt-4o-mini")
    b = Endpoint("https://api.example/v1", "llama-3.1-8b")
    spec = SurveySpec(lon, lat, ["Attractiveness", "Crime Rate"], [a, b], TEMPLATE)
    files = export_batch(spec, None, cache, str(tmp_path), stem="s", max_requests=20)
    by_model = {}
    for f in files:
        by_model.setdefault(f.model, []).append(f)
        assert {x["body"]["model"] for x in read_lines(f.path)} == {f.model}  # one model a file
    assert [f.n_requests for f in by_model["openai/gpt-4o-mini"]] == [20, 20, 10]
    names = [os.path.basename(f.path) for f in by_model["llama-3.1-8b"]]
    assert names == [f"s-llama-3.1-8b-00{i}.jsonl" for i in (1, 2, 3)]
    assert (
        os.path.basename(by_model["openai/gpt-4o-mini"][0].path) == "s-openai-gpt-4o-mini-001.jsonl"
    )

    # The byte cap: no file over it, and every request exported exactly once.
    size = max(f.n_bytes for f in files) // 4
    files = export_batch(spec, None, cache, str(tmp_path / "bytes"), max_bytes=size)
    assert all(f.n_bytes <= size for f in files) and len(files) > 6
    ids = [x["custom_id"] for f in files for x in read_lines(f.path)]
    assert len(ids) == len(set(ids)) == 100


def test_outputs_of_many_nodes_import_in_any_order(tmp_path):
    # A survey split across nodes: node 2 answered what node 1 failed; either order of import
    # leaves every request answered and no failure behind.
    lon, lat = np.linspace(0, 9, 10), np.linspace(0, 9, 10)
    spec = SurveySpec(lon, lat, ["Attractiveness"], [Endpoint("http://node/v1", "m")], TEMPLATE)
    lines = read_lines(
        export_batch(spec, None, SurveyCache(str(tmp_path / "x")), str(tmp_path))[0].path
    )
    first = tmp_path / "node1.jsonl"
    second = tmp_path / "node2.jsonl"
    first.write_text(batch_output(lines[:6], fail={2}))
    second.write_text(batch_output([lines[2]] + lines[6:]))
    for order in ((first, second), (second, first)):
        cache = SurveyCache(str(tmp_path / f"{order[0].stem}.sqlite"))
        for path in order:
            import_batch(str(path), cache)
        assert estimate(spec, None, cache).n_requests == 0 and cache.failures() == {}


def test_malformed_output_is_refused_before_anything_is_stored(tmp_path):
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    out = tmp_path / "bad.jsonl"
    good = {"custom_id": "k1", "response": {"status_code": 200, "body": chat_response("p", False)}}
    out.write_text(json.dumps(good) + "\n{not json\n")
    with pytest.raises(ValueError, match="bad.jsonl:2"):
        import_batch(str(out), cache)
    out.write_text(json.dumps(good) + "\n" + json.dumps({"id": "x"}) + "\n")
    with pytest.raises(ValueError, match="custom_id"):
        import_batch(str(out), cache)
    assert len(cache) == 0


def test_a_request_over_the_byte_cap_is_an_error(tmp_path):
    ep = Endpoint("http://x/v1", "m")
    with pytest.raises(ValueError, match="cap"):
        write_batches([(ep, "k", {"messages": ["x" * 100]})], str(tmp_path), max_bytes=50)


# --- issue 28, item 5: batch import checks its file ---

ANTHROPIC = {"custom_id": "k1", "result": {"type": "succeeded", "message": {"content": []}}}
GEMINI = {"key": "k1", "response": {"candidates": [{"content": {"parts": [{"text": "7"}]}}]}}
BEDROCK = {"recordId": "k1", "modelInput": {}, "modelOutput": {"content": []}}


@pytest.mark.parametrize(
    "content, said",
    [
        ("", "is empty"),
        ("\n  \n", "is empty"),
        ("custom_id,response\nk1,7\n", "is not JSON Lines"),
        (json.dumps(ANTHROPIC) + "\n", "Anthropic Message Batches results"),
        (
            json.dumps({"custom_id": "k1", "params": {"model": "claude"}}) + "\n",
            "Anthropic Message Batches requests",
        ),
        (json.dumps(GEMINI) + "\n", "Google Gemini batch file"),
        (json.dumps(BEDROCK) + "\n", "Amazon Bedrock"),
        (json.dumps({"id": "x", "answer": 7}) + "\n", "not a batch output line"),
    ],
)
def test_what_is_not_batch_output_is_named_and_nothing_is_stored(tmp_path, content, said):
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    path = tmp_path / "file.jsonl"
    path.write_text(content)
    with pytest.raises(BatchFormatError) as err:
        import_batch(str(path), cache)
    message = str(err.value)
    assert said in message and "expected OpenAI Batch output" in message
    assert len(cache) == 0 and cache.failures() == {}


def test_the_request_file_itself_is_named_a_request_file(tmp_path):
    lon, lat = np.linspace(0, 9, 4), np.linspace(0, 9, 4)
    spec = SurveySpec(lon, lat, ["Attractiveness"], [Endpoint("http://node/v1", "m")], TEMPLATE)
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    (requests,) = export_batch(spec, None, cache, str(tmp_path / "requests"))
    with pytest.raises(BatchFormatError, match="is a request file .* not the results"):
        import_batch(requests.path, cache)
    assert cache.failures() == {} and estimate(spec, None, cache).n_requests == 4
    # A binary file (a GeoPackage picked by mistake) is no text.
    binary = tmp_path / "layer.jsonl"
    binary.write_bytes(b"SQLite format 3\x00\xff\xfe\x00")
    with pytest.raises(BatchFormatError, match="not a text file"):
        import_batch(str(binary), cache)
