"""Survey runner under injected faults: nothing lost, nothing answered twice, resume, estimate."""

import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from geobias.core.engine.cache import SurveyCache
from geobias.core.engine.chat import ChatClient, Endpoint, EndpointError
from geobias.core.survey.run import (
    Estimate,
    RunStats,
    SurveySpec,
    estimate,
    run_requests,
    run_survey,
)
from geobias.test.faultserver import FaultServer, body_id, prompt_rating

FLAKY = {
    "timeout": 0.02,
    "429": 0.05,
    "500": 0.04,
    "503": 0.04,
    "reset": 0.04,
    "malformed": 0.03,
    "truncated": 0.03,
    "refusal": 0.03,
    "empty_choices": 0.03,
    "no_logprobs": 0.05,
}


def endpoint(fs, **kw):
    kw.setdefault("concurrency", 6)
    kw.setdefault("timeout", 0.4)
    kw.setdefault("max_retries", 4)
    return Endpoint(fs.base_url, "fault", logprobs=True, **kw)


def fast_client(ep):
    return ChatClient(ep, backoff_base=0.001, backoff_cap=0.01)


def test_every_request_ends_answered_or_failed_under_faults(tmp_path):
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    prompts = [f"point {i}" for i in range(300)]
    with FaultServer(probs=FLAKY, seed=3, hang_s=0.6) as fs:
        ep = endpoint(fs)
        res = run_requests(prompts, ep, cache, client=fast_client(ep))
        assert sum(fs.faults[f] for f in FLAKY) > 50  # the faults really happened
    assert len(res) == len(prompts)
    answered = [r for r in res if r.completion is not None]
    failed = [r for r in res if r.completion is None]
    assert all(r.error for r in failed)
    assert len(answered) + len(failed) == len(prompts)
    assert len(answered) >= 290
    for r in answered:
        text = r.completion.text
        assert text.startswith("My answer is") or "cannot" in text
        if text.startswith("My answer is"):
            assert text == f"My answer is {prompt_rating(r.prompt):.1f}."
    # Every answer is in the cache and every failure is recorded for the next run.
    assert cache.has_many(r.key for r in answered) == {r.key for r in answered}
    assert set(cache.failures()) == {r.key for r in failed}
    # No body that was answered was answered twice.
    assert max(fs.answers_by_body.values()) == 1


def test_rerun_of_finished_survey_sends_nothing(tmp_path):
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    prompts = [f"point {i}" for i in range(100)] + ["point 3"]  # a duplicate is sent once
    with FaultServer() as fs:
        first = run_requests(prompts, endpoint(fs), cache)
        assert fs.n_requests == 100
        again = run_requests(prompts, endpoint(fs), cache)
        assert fs.n_requests == 100
    assert [r.completion.text for r in first] == [r.completion.text for r in again]
    assert all(r.cached for r in again)


def test_failures_are_retried_on_resume(tmp_path):
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    prompts = [f"point {i}" for i in range(40)]
    # Half the attempts fail (after the first answers: a server failing from the start is
    # stopped early, test_early_stop.py); with one retry about a quarter of the points fail.
    with FaultServer(probs={"500": 0.5}, plan={0: None, 1: None, 2: None}, seed=4) as fs:
        ep = endpoint(fs, max_retries=1)
        res = run_requests(prompts, ep, cache, client=fast_client(ep))
        failed = [r for r in res if r.completion is None]
        assert failed and all("500" in r.error for r in failed)
        assert len(cache.failures()) == len(failed)
        sent = fs.n_requests
        fs.probs = {}  # the server recovers
        res = run_requests(prompts, endpoint(fs), cache)
        assert all(r.completion is not None for r in res)
        assert fs.n_requests == sent + len(failed)  # only the failed points are asked again
    assert cache.failures() == {}


def test_cancel_keeps_answers_and_resume_sends_only_the_rest(tmp_path):
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    prompts = [f"point {i}" for i in range(200)]
    seen = []
    with FaultServer(probs={"500": 0.1, "reset": 0.05}, seed=1, delay_s=0.005) as fs:
        ep = endpoint(fs)
        res = run_requests(
            prompts,
            ep,
            cache,
            client=fast_client(ep),
            progress=seen.append,
            is_cancelled=lambda: fs.n_requests >= 60,
            progress_every_s=0.01,
        )
        n_first = sum(r.completion is not None for r in res)
        assert 20 <= n_first < 200
        assert sum(r.error == "not sent (cancelled)" for r in res) > 0
        assert len(cache) == n_first  # everything that arrived was stored
        res2 = run_requests(prompts, ep, cache, client=fast_client(ep))
        assert all(r.completion is not None for r in res2)
        assert max(fs.answers_by_body.values()) == 1  # no answered request sent twice
    assert seen and seen[-1].total == 200 and 0 < seen[-1].done < 200
    assert 0.0 < seen[-1].answer_rate <= 1.0


KILL_SCRIPT = """
import sys
from geobias.core.engine.cache import SurveyCache
from geobias.core.engine.chat import Endpoint
from geobias.core.survey.run import run_requests
cache = SurveyCache(sys.argv[2])
ep = Endpoint(sys.argv[1], "fault", concurrency=4, logprobs=True)
run_requests([f"point {i}" for i in range(400)], ep, cache)
"""


def test_kill_and_resume_never_resends_a_stored_answer(tmp_path):
    path = str(tmp_path / "c.sqlite")
    with FaultServer(delay_s=0.01, probs={"503": 0.05}, seed=2) as fs:
        proc = subprocess.Popen([sys.executable, "-c", KILL_SCRIPT, fs.base_url, path])
        t = time.monotonic()
        while fs.n_requests < 80 and time.monotonic() - t < 30:
            time.sleep(0.01)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        cache = SurveyCache(path)
        stored = cache.get_many(
            cache.key(
                Endpoint(fs.base_url, "fault"),
                ChatClient(Endpoint(fs.base_url, "fault", logprobs=True)).request_body(
                    f"point {i}"
                ),
            )
            for i in range(400)
        )
        assert 0 < len(stored) < 400
        before = dict(fs.requests_by_body)
        ep = endpoint(fs, concurrency=4)
        client = fast_client(ep)
        res = run_requests([f"point {i}" for i in range(400)], ep, cache, client=client)
        assert all(r.completion is not None for r in res)
        for r in res:
            if r.key in stored:  # answered before the kill: not sent again
                bid = body_id(client.request_body(r.prompt))
                assert fs.requests_by_body[bid] == before[bid]
        # Only requests in flight at the kill (4 workers, one commit batch) can be sent again.
        assert sum(n - 1 for n in fs.answers_by_body.values() if n > 1) <= 8


def test_fatal_error_stops_the_run_quickly(tmp_path):
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    with FaultServer(always="401") as fs:
        with pytest.raises(EndpointError, match="API key"):
            run_requests([f"p{i}" for i in range(500)], endpoint(fs, concurrency=4), cache)
        assert fs.n_requests <= 4  # at most one per worker already in flight
    assert len(cache) == 0


def _simple_template():
    from geobias.core.survey.prompts import make_template

    return make_template("t", "Rate it. ", "({lat:.2f}, {lon:.2f}) {topic}:")


def test_run_survey_and_estimate(tmp_path):
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    rng = np.random.default_rng(0)
    lon, lat = rng.uniform(-10, 10, 30), rng.uniform(40, 50, 30)
    with FaultServer(plan={5: "refusal"}) as fs:
        ep = endpoint(fs, price_in=1.0, price_out=2.0)
        spec = SurveySpec(lon, lat, ["Attractiveness", "Crime Rate"], [ep], _simple_template())
        est = estimate(spec, None, cache)
        assert isinstance(est, Estimate)
        assert (est.n_requests, est.n_cached, est.n_total) == (60, 0, 60)
        assert est.completion_tokens == 600 and est.prompt_tokens > 60 * 5
        assert est.hosts == [ep.host()]
        assert est.cost == pytest.approx((est.prompt_tokens * 1.0 + 600 * 2.0) / 1e6)
        progress = []
        answers = run_survey(spec, None, cache, progress=progress.append)
        assert fs.n_requests == 60
        assert len(answers) == 60 and [a.topic for a in answers[::30]] == spec.topics
        assert sum(a.rating.refusal for a in answers) == 1
        ok = [a for a in answers if a.rating.answered]
        assert len(ok) == 59
        assert all(a.rating.rating == prompt_rating(a.prompt) for a in ok)
        assert all(a.rating.expected is not None for a in ok)
        assert progress[-1].done == 60 and progress[-1].answer_rate == pytest.approx(59 / 60)
        est2 = estimate(spec, None, cache)
        assert (est2.n_requests, est2.n_cached, est2.hosts, est2.cost) == (0, 60, [], 0.0)
        again = run_survey(spec, None, cache)
        assert fs.n_requests == 60
        assert [a.rating for a in again] == [a.rating for a in answers]


# --- issue 13, items 4 and 5: failed requests are "not asked"; what was sent is counted ---


def test_failed_requests_are_not_asked_and_what_was_sent_is_counted(tmp_path):
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    lon, lat = np.linspace(-10, 10, 12), np.linspace(40, 50, 12)
    # Requests 2 and 7 fail on every attempt (max_retries=1: two attempts each).
    with FaultServer(plan={2: "500", 3: "500", 8: "500", 9: "500", 5: "refusal"}) as fs:
        ep = endpoint(fs, concurrency=1, max_retries=1)
        spec = SurveySpec(lon, lat, ["Crime Rate"], [ep], _simple_template())
        stats = RunStats()
        progress = []
        answers = run_survey(spec, None, cache, progress=progress.append, stats=stats)
        assert fs.n_requests == 14
        failed = [a for a in answers if a.failed]
        assert len(failed) == 2 and all(not a.rating.answered and a.error for a in failed)
        assert sum(a.rating.refusal for a in answers) == 1
        assert (stats.n_requests, stats.n_cached, stats.n_failed) == (12, 0, 2)
        # The answer rate counts the refusal, not the requests that failed: 9 of 10 asked.
        assert progress[-1].answer_rate == pytest.approx(9 / 10)
        # A re-run sends only the two failed requests; the rest come from the cache.
        fs.plan = {}
        again = RunStats()
        answers = run_survey(spec, None, cache, stats=again)
        assert fs.n_requests == 16
    assert (again.n_requests, again.n_cached, again.n_failed) == (2, 10, 0)
    assert not any(a.failed for a in answers)


def test_a_points_topics_go_back_to_back_from_one_worker(tmp_path, monkeypatch):
    # A server that caches each slot's last prompt (llama.cpp) then processes only the end
    # that differs; the answers still come out endpoint x topic x point.
    import threading

    sent = []
    post = ChatClient.post

    def recording_post(self, body, is_cancelled=None):
        sent.append((threading.current_thread().name, body["messages"][0]["content"]))
        return post(self, body, is_cancelled)

    monkeypatch.setattr(ChatClient, "post", recording_post)
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    lon, lat = np.linspace(-10, 10, 9), np.linspace(40, 50, 9)
    topics = ["Attractiveness", "Crime Rate", "Infant Mortality Rate"]
    with FaultServer() as fs:
        spec = SurveySpec(lon, lat, topics, [endpoint(fs, concurrency=3)], _simple_template())
        answers = run_survey(spec, None, cache)
    assert len(sent) == 27 and len({name for name, _ in sent}) == 3
    for name in {name for name, _ in sent}:
        mine = [p for n, p in sent if n == name]
        for i in range(0, len(mine), 3):
            point = {p.split(")")[0] for p in mine[i : i + 3]}
            assert len(point) == 1, mine  # one point's three topics, back to back
            assert [p.split(") ")[1] for p in mine[i : i + 3]] == [t + ":" for t in topics]
    for j, topic in enumerate(topics):
        for i, a in enumerate(answers[j * 9 : (j + 1) * 9]):
            assert (
                a.topic == topic and a.prompt == f"Rate it. ({lat[i]:.2f}, {lon[i]:.2f}) {topic}:"
            )
