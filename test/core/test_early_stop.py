"""A broken endpoint stops a run early (issue 23 item 1): the first requests failing the same
way, a server that never answers, a server that breaks after answering; answers are kept."""

import numpy as np
import pytest

from geobias.core.engine.cache import SurveyCache
from geobias.core.engine.chat import ChatClient, Endpoint
from geobias.core.engine.http_client import Cause, EndpointStoppedError
from geobias.core.engine.workers import FailureStreak
from geobias.core.survey.run import run_requests
from geobias.test.faultserver import FaultServer


def endpoint(fs, **kw):
    kw.setdefault("concurrency", 4)
    return Endpoint(fs.base_url, "fault", logprobs=True, **kw)


@pytest.mark.parametrize("n_points", [24, 200])
def test_html_page_with_status_200_stops_within_two_rounds(tmp_path, n_points):
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    prompts = [f"point {i}" for i in range(n_points)]
    with FaultServer(always="html") as fs:
        ep = endpoint(fs)  # the default 7 attempts per prompt and back-off
        with pytest.raises(EndpointStoppedError) as info:
            run_requests(prompts, ep, cache)
        sent = fs.n_requests
    err = info.value
    assert sent <= 2 * ep.concurrency, sent  # 168 requests for 24 points before
    assert err.answered == 0
    assert (err.cause.kind, err.cause.status, err.cause.content_type) == (
        "content", 200, "text/html",
    )  # fmt: skip
    assert "text/html" in str(err) and "answered nothing" in str(err)
    # Nothing was recorded as a failed point: a new run asks every point again.
    keys = [cache.key(ep, ChatClient(ep).request_body(p)) for p in prompts]
    assert not cache.has_many(keys)
    assert not cache.failures(keys)


def test_hung_server_is_recognised_within_two_read_timeouts(tmp_path):
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    prompts = [f"point {i}" for i in range(24)]
    with FaultServer(always="timeout", hang_s=60) as fs:
        ep = endpoint(fs, timeout=0.5)
        with pytest.raises(EndpointStoppedError) as info:
            run_requests(prompts, ep, cache)
        sent = fs.n_requests
    assert info.value.cause.kind == "timeout" and info.value.cause.timeout == 0.5
    # Two rounds of `concurrency` attempts, each one read timeout long: not 7 per point.
    assert sent <= 2 * ep.concurrency, sent
    assert "no answer within 0.5 s" in str(info.value)


def test_one_hung_request_stops_after_two_attempts(tmp_path):
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    with FaultServer(always="timeout", hang_s=60) as fs:
        ep = endpoint(fs, timeout=0.3)
        with pytest.raises(EndpointStoppedError):
            run_requests(["one point"], ep, cache)
        assert fs.n_requests == 2  # one in flight at a time: two read timeouts


def test_a_run_that_breaks_after_answers_stops_and_keeps_them(tmp_path):
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    prompts = [f"point {i}" for i in range(300)]
    broken = {i: "html" for i in range(30, 100000)}
    with FaultServer(plan=broken) as fs:
        ep = endpoint(fs, concurrency=2)
        client = ChatClient(ep, backoff_base=0.001, backoff_cap=0.01)
        with pytest.raises(EndpointStoppedError) as info:
            run_requests(prompts, ep, cache, client=client)
        sent = fs.n_requests
        answered = {b for b, n in fs.answers_by_body.items() if n}
        err = info.value
        assert err.answered == 30 and "answers so far are kept" in str(err)
        limit = FailureStreak(concurrency=2).later
        # The streak, the requests in flight when it ends, and the one known-good prompt sent
        # afresh before the endpoint is called broken (run_requests' probe).
        assert sent <= 30 + limit + ep.concurrency + 1, (sent, err.attempts, err.answered,
                                                         fs.faults)  # fmt: skip
        # Every answer is in the cache; a new run once the server is mended asks only the rest.
        fs.plan = {}
        before = fs.requests_by_body.copy()
        res = run_requests(prompts, ep, cache)
        asked_again = {b for b in answered if fs.requests_by_body[b] > before[b]}
    assert all(r.completion is not None for r in res)
    assert not asked_again
    assert sum(r.cached for r in res) == 30


def test_different_failures_are_not_a_streak_before_the_first_answer():
    streak = FailureStreak(concurrency=4)
    causes = [Cause("status", 503), Cause("timeout", timeout=1.0), Cause("status", 502)] * 3
    assert all(streak.attempt(c) is None for c in causes)
    for _ in range(streak.first - 1):
        assert streak.attempt(Cause("status", 503)) is None
    stop = streak.attempt(Cause("status", 503))
    assert stop is not None and stop[1] == streak.first and stop[2] == 0
    assert streak.tripped() == stop


def test_transient_faults_among_answers_do_not_stop_a_run(tmp_path):
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    prompts = [f"point {i}" for i in range(200)]
    faults = {"500": 0.1, "html": 0.1, "timeout": 0.05}
    with FaultServer(probs=faults, seed=5, hang_s=0.5) as fs:
        ep = endpoint(fs, timeout=0.3)
        client = ChatClient(ep, backoff_base=0.001, backoff_cap=0.01)
        res = run_requests(prompts, ep, cache, client=client)
    assert np.mean([r.completion is not None for r in res]) > 0.95


# --- HERB's remote scorers -----------------------------------------------------------------


def herb_spec(scorer, n_regions=12):
    from geobias.core.herb.descriptors import Descriptor
    from geobias.core.herb.hierarchy import Hierarchy
    from geobias.core.herb.run import HerbSpec

    ids = [f"r{i}" for i in range(n_regions)]
    h = Hierarchy.from_parent_ids(ids, [f"Region {i}" for i in ids], [None] * n_regions)
    return HerbSpec(h, scorer, [Descriptor(w, "t") for w in ("wise", "kind", "tall")])


@pytest.mark.parametrize("fault", ["html", "timeout"])
def test_herb_scorer_stops_early_on_a_broken_server(tmp_path, fault):
    from geobias.core.engine.cache import ScoreCache
    from geobias.core.herb.run import IncompleteScoresError, score
    from geobias.core.herb.scorers import EchoCompletionsScorer

    with FaultServer(echo=True, always=fault, hang_s=60) as fs:
        ep = Endpoint(fs.base_url, "m", concurrency=4, timeout=0.5)
        scorer = EchoCompletionsScorer(ep, batch_size=2)  # 24 batches of 48 sentences
        with pytest.raises(IncompleteScoresError) as info:
            score(herb_spec(scorer), ScoreCache(str(tmp_path / "s.sqlite")))
        sent = scorer.http.n_requests
        scorer.close()
    stopped = info.value.stopped
    assert stopped is not None
    assert stopped.cause.kind == ("content" if fault == "html" else "timeout")
    assert sent <= 2 * ep.concurrency, sent  # 7 attempts per batch before
