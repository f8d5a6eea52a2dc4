"""Provider batch APIs end to end against local servers built from the providers' API
references (test/batchservers.py): submit, poll with slow progress, import by custom_id,
partial failures, expiry, cancellation, waves, and the live run that follows sends only what
the batch did not answer."""

import json
import time

import numpy as np
import pytest

from geobias.core.batch import formats, jobs
from geobias.core.batch.client import BatchApiError, BatchClient
from geobias.core.engine.cache import SurveyCache, request_key
from geobias.core.engine.chat import Endpoint
from geobias.core.survey.batch import pending_requests
from geobias.core.survey.prompts import make_template
from geobias.core.survey.run import SurveySpec, estimate, run_survey
from geobias.test.batchservers import KEYS, BatchServer
from geobias.test.faultserver import FaultServer, prompt_rating

TEMPLATE = make_template("t", "Rate. ", "({lat:.3f}, {lon:.3f}) {topic}:")
PROVIDERS = ("openai", "anthropic", "gemini", "mistral")


class Clock:
    """A fake clock: sleeping moves it on (no real waits in core tests)."""

    def __init__(self):
        self.t = 1_000_000.0
        self.slept = []

    def sleep(self, s):
        self.slept.append(s)
        self.t += s


def survey(base_url, provider, n=8, topics=("Attractiveness", "Crime Rate")):
    lon, lat = np.linspace(-5, 5, n), np.linspace(40, 45, n)
    ep = Endpoint(base_url, f"{provider}-model", api_key="sk-LIVESECRET",
                  logprobs=formats.FORMATS[provider].logprobs)  # fmt: skip
    return SurveySpec(lon, lat, list(topics), [ep], TEMPLATE)


def drive(provider, server, cache, folder, spec, clock, max_polls=20, **caps):
    client = BatchClient(provider, KEYS[provider], server.base_url, sleep=clock.sleep)
    written = jobs.write_jobs(pending_requests(spec, None, cache), provider, str(folder), **caps)
    jobs.submit_wave(written, client, cache, clock.t)
    for _ in range(max_polls):
        clock.t += 3600
        for j in written:
            jobs.poll(j, client, cache, str(folder / "results"), clock.t)
        if not any(j.open for j in written):
            break
    return client, written


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_survey_completed_by_a_provider_batch_asks_only_the_failures_live(tmp_path, provider):
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    clock = Clock()
    with FaultServer() as live, BatchServer(provider, steps=3, fail={1, 6}) as server:
        spec = survey(live.base_url, provider)
        client, written = drive(provider, server, cache, tmp_path, spec, clock)
        assert [j.status for j in written] == ["imported"]
        job = written[0]
        assert (job.n_requests, job.n_answers, job.n_failed) == (16, 14, 2)
        # The key never reaches the provider's files or the table row.
        text = open(job.request_file).read()
        assert "sk-LIVESECRET" not in text and KEYS[provider] not in text
        assert KEYS[provider] not in json.dumps(job.__dict__)
        # Provider files (or Anthropic's batch) deleted after import.
        if provider == "anthropic":
            assert server.deleted == [job.batch_id]
        else:
            assert job.input_file_id in server.deleted
            assert not [f for f in server.files if not f.startswith("upload:")]
        assert estimate(spec, None, cache).n_requests == 2
        failures = cache.failures()
        assert len(failures) == 2 and all(v.startswith("batch") for v in failures.values())
        answers = run_survey(spec, None, cache)
        assert live.n_requests == 2  # only the two failed lines went live
        assert all(a.rating.rating == prompt_rating(a.prompt) for a in answers)
        if formats.FORMATS[provider].logprobs:  # OpenAI and Gemini keep the expected value
            assert all(a.rating.expected is not None for a in answers)
        # Importing again changes nothing.
        assert jobs.import_results(job, [], cache)[1] == 0
        assert jobs.missing(written, cache) == []


@pytest.mark.parametrize("provider", PROVIDERS)
def test_the_native_request_translates_back_to_the_live_key(provider):
    ep = Endpoint("https://live.example/v1", "m", logprobs=formats.FORMATS[provider].logprobs)
    from geobias.core.engine.chat import ChatClient

    body = ChatClient(ep).request_body("(1.000, 2.000) Crime Rate:")
    key = request_key(ep.base_url, ep.model, body)
    line = formats.request_line(provider, key, body)
    back = formats.live_body(provider, json.loads(json.dumps(line)), "m")
    assert back == body and request_key(ep.base_url, ep.model, back) == key
    if provider == "anthropic":
        assert set(line) == {"custom_id", "params"} and line["params"]["max_tokens"] == 10
    if provider == "gemini":
        assert line["key"] == key and line["request"]["generationConfig"]["responseLogprobs"]
    if provider == "mistral":
        assert "model" not in line["body"]


@pytest.mark.parametrize("extra, config", [
    ({}, {}),
    ({"temperature": 0, "max_tokens": 5, "seed": 7},
     {"temperature": 0, "maxOutputTokens": 5, "seed": 7}),
    ({"logprobs": True, "top_logprobs": 3}, {"responseLogprobs": True, "logprobs": 3}),
    ({"logprobs": True}, {"responseLogprobs": True}),
])  # fmt: skip
def test_gemini_generation_settings_go_both_ways(extra, config):
    """Each chat setting has its generationConfig name, and reads back the same."""
    body = {"model": "m", "messages": [{"role": "user", "content": "x"}], **extra}
    line = formats.gemini_request("k", body)
    assert line["request"].get("generationConfig", {}) == config
    assert formats.gemini_to_openai(line["request"], "m") == body


def test_gemini_drops_a_count_of_alternatives_without_log_probabilities():
    body = {"model": "m", "messages": [], "logprobs": False, "top_logprobs": 3}
    assert "generationConfig" not in formats.gemini_request("k", body)["request"]
    back = formats.gemini_to_openai({"contents": [], "generationConfig": {"logprobs": 3}}, "m")
    assert back == {"model": "m", "messages": []}


def test_a_body_a_provider_cannot_carry_is_refused():
    body = {"model": "m", "messages": [{"role": "user", "content": "x"}], "max_tokens": 10,
            "grammar": "root ::= x"}  # fmt: skip
    with pytest.raises(formats.FormatError, match="grammar"):
        formats.request_line("anthropic", "k", body)
    with pytest.raises(formats.FormatError, match="max_tokens"):
        formats.request_line("anthropic", "k", {"model": "m", "messages": []})


@pytest.mark.parametrize("provider", PROVIDERS)
def test_an_expired_batch_imports_what_came_back_and_resubmits_the_rest(tmp_path, provider):
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    clock = Clock()
    with BatchServer(provider, steps=2, expire_after=5) as server:
        spec = survey("https://live.example/v1", provider, n=5)
        _, written = drive(provider, server, cache, tmp_path, spec, clock)
        job = written[0]
        assert job.status == "imported" and job.n_answers == 5 and job.n_requests == 10
        missing = jobs.missing(written, cache)
        assert len(missing) == 5 and len(cache.failures()) == 5
        assert all("expired" in cache.failures()[k] for k in missing)
    # Resubmit what is missing: only those five go in the new batch, which completes the survey.
    with BatchServer(provider, steps=1) as server:
        _, again = drive(provider, server, cache, tmp_path / "again", spec, clock)
        assert [j.n_requests for j in again] == [5]
        assert estimate(spec, None, cache).n_requests == 0


@pytest.mark.parametrize("provider", ("openai", "anthropic"))
def test_cancel_imports_what_was_answered(tmp_path, provider):
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    clock = Clock()
    with BatchServer(provider, steps=50) as server:
        spec = survey("https://live.example/v1", provider, n=4)
        client = BatchClient(provider, KEYS[provider], server.base_url, sleep=clock.sleep)
        written = jobs.write_jobs(pending_requests(spec, None, cache), provider, str(tmp_path))
        jobs.submit_wave(written, client, cache, clock.t)
        assert jobs.leased(cache, jobs.request_keys(written[0]), clock.t)
        jobs.cancel(written[0], client, clock.t)
        assert written[0].status == "cancelling"
        jobs.poll(written[0], client, cache, str(tmp_path / "r"), clock.t, force=True)
        assert written[0].status == "imported" and written[0].n_answers == 4
        assert not jobs.leased(cache, jobs.request_keys(written[0]), clock.t)
        assert len(jobs.missing(written, cache)) == 4


def test_slow_progress_backs_off_and_reports_counts(tmp_path):
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    clock = Clock()
    with BatchServer("openai", steps=4) as server:
        spec = survey("https://live.example/v1", "openai", n=4)
        client = BatchClient("openai", KEYS["openai"], server.base_url, sleep=clock.sleep)
        written = jobs.write_jobs(pending_requests(spec, None, cache), "openai", str(tmp_path))
        jobs.submit_wave(written, client, cache, clock.t)
        job = written[0]
        assert job.status == "validating"
        assert not jobs.poll(job, client, cache, str(tmp_path), clock.t)  # not due yet
        seen = []
        for _ in range(3):
            clock.t = job.next_poll_at
            jobs.poll(job, client, cache, str(tmp_path), clock.t)
            seen.append((job.status, job.n_done))
        assert seen[0] == ("in_progress", 2) and seen[2] == ("in_progress", 6)
        assert jobs.poll_delay(0) == 60 and jobs.poll_delay(3) == 480 and jobs.poll_delay(9) == 1800


def test_waves_keep_the_queued_tokens_under_the_limit(tmp_path):
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    clock = Clock()
    with BatchServer("openai", steps=1) as server:
        spec = survey("https://live.example/v1", "openai", n=10)
        client = BatchClient("openai", KEYS["openai"], server.base_url, sleep=clock.sleep)
        written = jobs.write_jobs(pending_requests(spec, None, cache), "openai", str(tmp_path),
                                  max_requests=5)  # fmt: skip
        assert len(written) == 4
        limit = written[0].n_tokens + written[1].n_tokens
        sent = jobs.submit_wave(written, client, cache, clock.t, queued_token_limit=limit)
        assert len(sent) == 2 and len(server.batches) == 2
        for j in sent:
            jobs.poll(j, client, cache, str(tmp_path), clock.t, force=True)
        sent = jobs.submit_wave(written, client, cache, clock.t, queued_token_limit=limit)
        assert len(sent) == 2 and len(server.batches) == 4
        assert [b.ended for b in server.batches.values()] == [True, True, False, False]


def test_refused_key_and_rate_limit(tmp_path):
    clock = Clock()
    with BatchServer("openai", rate_limit_once=True) as server:
        bad = BatchClient("openai", "sk-wrong", server.base_url, sleep=clock.sleep)
        with pytest.raises(BatchApiError, match="refused the API key") as e:
            bad.status("batch_x")
        assert "sk-wrong" not in str(e.value)
        path = tmp_path / "b.jsonl"
        line = formats.openai_line("k", {"model": "m", "messages": [{"role": "user",
                                                                     "content": "x"}]})  # fmt: skip
        path.write_text(json.dumps(line) + "\n")
        client = BatchClient("openai", KEYS["openai"], server.base_url, sleep=clock.sleep)
        remote = client.submit(str(path), "m")
        assert remote.status == "validating" and clock.slept == [1.0]  # 429 retried once


def test_a_batch_that_fails_validation_records_every_request_failed(tmp_path):
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    clock = Clock()
    with BatchServer("openai", invalid=True) as server:
        spec = survey("https://live.example/v1", "openai", n=3, topics=("Crime Rate",))
        _, written = drive("openai", server, cache, tmp_path, spec, clock)
        assert written[0].status == "imported" and written[0].n_answers == 0
        assert "JSON" in written[0].error or written[0].error == ""
        assert len(cache.failures()) == 3


def test_the_batches_table_round_trips_and_holds_no_key(tmp_path):
    store = jobs.JobStore(str(tmp_path / "out.sqlite"))
    job = jobs.BatchJob("j1", "openai", "m", "https://x/v1", "/tmp/f.jsonl", 3, 30, 0.25)
    store.save([job])
    job.status, job.batch_id = "in_progress", "batch_1"
    store.save([job])
    assert store.load() == [job] and store.load(open_only=True) == [job]
    job.status = "imported"
    store.save([job])
    assert store.load(open_only=True) == []


def test_a_live_run_leaves_the_open_batchs_prompts_to_it(tmp_path):
    """Mixing live and batch never pays twice: a live run of the same survey while its batch
    is open sends only what the batch does not hold; after the import nothing at all."""
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    clock = Clock()
    with FaultServer() as live, BatchServer("openai", steps=2) as server:
        spec = survey(live.base_url, "openai", n=6, topics=("Crime Rate",))
        small = SurveySpec(spec.lon[:3], spec.lat[:3], spec.topics, spec.endpoints, TEMPLATE)
        client = BatchClient("openai", KEYS["openai"], server.base_url, sleep=clock.sleep)
        written = jobs.write_jobs(pending_requests(small, None, cache), "openai", str(tmp_path))
        jobs.submit_wave(written, client, cache, time.time())
        held = jobs.request_keys(written[0])
        assert jobs.leased(cache, held) == set(held)
        answers = run_survey(spec, None, cache)
        assert live.n_requests == 3  # the other three points: the batch holds its three
        unsent = [a for a in answers if a.completion is None]
        assert len(unsent) == 3 and all("provider batch" in a.error for a in unsent)
        while written[0].status != "imported":
            jobs.poll(written[0], client, cache, str(tmp_path / "r"), clock.t, force=True)
        assert not jobs.leased(cache, held)
        again = run_survey(spec, None, cache)
        assert live.n_requests == 3 and all(a.completion is not None for a in again)


def test_exported_shards_are_vllm_run_batch_input_and_its_output_imports(tmp_path):
    """Item 5 (vLLM cannot run here): every line of the exported shards has the fields and
    values of vLLM's BatchRequestInput (as OpenAI's batch input: custom_id unique, method POST,
    url a chat or completions route, body with the model), and vLLM's BatchRequestOutput
    lines (id, custom_id, response {status_code, request_id, body}, error) import."""
    from geobias.core.survey.batch import export_batch, import_batch
    from geobias.test.faultserver import chat_response

    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    spec = survey("http://node-1:8000/v1", "openai", n=7)
    files = export_batch(spec, None, cache, str(tmp_path / "shards"), max_requests=5)
    assert [f.n_requests for f in files] == [5, 5, 4]
    ids, out = set(), []
    for f in files:
        for line in open(f.path, encoding="utf-8"):
            row = json.loads(line)
            assert set(row) == {"custom_id", "method", "url", "body"}
            assert isinstance(row["custom_id"], str) and row["custom_id"] not in ids
            ids.add(row["custom_id"])
            assert row["method"] == "POST" and row["url"] in ("/v1/chat/completions",
                                                               "/v1/completions")  # fmt: skip
            assert row["body"]["model"] == "openai-model" and row["body"]["messages"]
            body = chat_response(row["body"]["messages"][0]["content"], True)
            out.append({"id": f"vllm-{len(out)}", "custom_id": row["custom_id"],
                        "response": {"status_code": 200, "request_id": f"vllm-batch-{len(out)}",
                                     "body": body}, "error": None})  # fmt: skip
    result_path = tmp_path / "out.jsonl"
    result_path.write_text("".join(json.dumps(r) + "\n" for r in out))
    assert import_batch(str(result_path), cache).n_answers == 14
    assert estimate(spec, None, cache).n_requests == 0


class Answer:
    """A canned requests.Response for BatchClient._call."""

    def __init__(self, status, headers=None):
        self.status_code, self.headers, self.text = status, headers or {}, ""

    def json(self):
        return {"id": "batch_1", "status": "validating"}


def scripted(clock, *answers):
    """A BatchClient whose session answers `answers` in turn (no server)."""
    client = BatchClient("openai", "sk-x", "http://127.0.0.1:9/v1", sleep=clock.sleep)
    queue = list(answers)
    client.session.request = lambda *a, **kw: queue.pop(0)
    return client


def test_a_429_waits_the_servers_retry_after_in_seconds_or_as_a_date():
    """The batch client reads Retry-After as the engine does (engine.throttle.parse_retry_after):
    a decimal number of seconds and an HTTP date are waited, not replaced by the back-off."""
    import email.utils

    date = email.utils.formatdate(time.time() + 30, usegmt=True)
    for header, low, high in (("1.5", 1.5, 1.5), (date, 28.0, 31.0)):
        clock = Clock()
        client = scripted(clock, Answer(429, {"Retry-After": header}), Answer(200))
        assert client.status("batch_1").status == "validating"
        assert len(clock.slept) == 1 and low <= clock.slept[0] <= high


@pytest.mark.parametrize("status", [425, 520, 522, 524])
def test_the_statuses_the_engine_retries_are_retried_by_the_batch_client(status):
    """One list of statuses worth another attempt (engine.http_client.RETRY_STATUS)."""
    clock = Clock()
    client = scripted(clock, Answer(status), Answer(200))
    assert client.status("batch_1").status == "validating" and clock.slept == [1.0]
