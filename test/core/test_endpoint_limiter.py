"""The endpoint's limit is the speed (issue 31 item 2): one limiter per endpoint in the process,
shared by every job asking it (a dock survey and a HERB run together stay within its rpm),
named by URL, model and a key id, never the key; the endpoint's own x-ratelimit-limit-requests
is the rate when the user set none."""

import threading
import time

import pytest

from geobias.core.engine.cache import SurveyCache
from geobias.core.engine.chat import ChatClient, Endpoint
from geobias.core.engine.http_client import Cause, HttpClient, endpoint_id
from geobias.core.engine.throttle import FakeClock
from geobias.core.survey.run import run_requests
from geobias.test.faultserver import FaultServer


def test_one_limiter_per_endpoint_shared_by_every_client():
    ep = Endpoint("http://127.0.0.1:9/v1", "m", api_key="sk-secret-1", rpm=120)
    survey = ChatClient(ep).http
    herb = HttpClient.from_endpoint(ep, "http://127.0.0.1:9/v1/completions")
    assert survey.rpm is herb.rpm  # the dock's survey and HERB draw from one bucket
    other_key = ChatClient(Endpoint(ep.base_url, "m", api_key="sk-secret-2", rpm=120)).http
    other_model = ChatClient(Endpoint(ep.base_url, "n", api_key="sk-secret-1", rpm=120)).http
    assert other_key.rpm is not survey.rpm and other_model.rpm is not survey.rpm
    assert "sk-secret-1" not in survey.owner and "key:" in survey.owner
    assert endpoint_id(ep.base_url + "/", "m", "sk-secret-1") == survey.owner


def test_two_jobs_at_once_stay_within_the_rpm_together(tmp_path):
    # 240 rpm = 4 a second with a burst of 4: two jobs sending as fast as they can for a
    # while get about 4 a second between them, not 4 each.
    with FaultServer() as fs:
        ep = Endpoint(fs.base_url, "fault", logprobs=True, concurrency=4, rpm=240)
        stop = threading.Event()
        times = []

        def job(name):
            cache = SurveyCache(str(tmp_path / f"{name}.sqlite"))
            prompts = [f"{name} point {i}" for i in range(200)]
            run_requests(prompts, ep, cache, is_cancelled=stop.is_set)

        jobs = [threading.Thread(target=job, args=(n,)) for n in ("survey", "herb")]
        t0 = time.monotonic()
        for t in jobs:
            t.start()
        time.sleep(2.5)
        stop.set()
        for t in jobs:
            t.join(30)
        sent = fs.n_requests
        times.append(time.monotonic() - t0)
    # At most the burst plus the rate over the time spent (and the requests in flight).
    assert sent <= 4 + 4 * times[0] + 8, sent
    assert sent >= 4  # both asked something


def test_the_endpoints_own_limit_becomes_the_rate(tmp_path):
    with FaultServer(throttle={"rpm": 6000, "headers": True}) as fs:
        ep = Endpoint(fs.base_url, "fault", logprobs=True, concurrency=2)
        client = ChatClient(ep)
        assert client.http.rpm is None
        client.complete("one point")
        assert client.http.learned_rpm == 6000 and client.http.rpm is not None
        assert client.http.rpm.rate == 100.0
    # A limit the user set wins over the server's.
    with FaultServer(throttle={"rpm": 6000, "headers": True}) as fs:
        ep = Endpoint(fs.base_url, "fault", logprobs=True, rpm=60)
        client = ChatClient(ep)
        client.complete("one point")
        assert client.http.rpm.rate == 1.0 and client.http.learned_rpm is None


def test_two_jobs_on_one_endpoint_share_its_learned_rate_and_its_wait():
    # A 429 naming no rate teaches one job the endpoint's rate; the other job asking the same
    # endpoint at once is paced by it too (each pacing itself, together they sent twice it),
    # and a Retry-After one job was told holds the other's requests as well.
    clock = FakeClock()
    ep = Endpoint("http://127.0.0.1:9/v1", "m", api_key="sk-shared", concurrency=4)
    survey = HttpClient.from_endpoint(ep, clock=clock).throttle
    herb = HttpClient.from_endpoint(ep, clock=clock).throttle
    for _ in range(100):  # 10 s answered at 10 a second, by the survey
        assert survey.enter()
        clock.sleep(0.1)
        survey.leave(answered=True)
    survey.throttled(Cause("status", 429, throttled=True), 1.0, pace=True)
    assert herb.pace_rate() == survey.pace_rate() == pytest.approx(540, rel=0.02)
    left, cause, _ = herb.waiting()  # the dock's countdown of the other job shows the wait
    assert left == pytest.approx(1.0) and cause.status == 429
    start = clock.now()
    for _ in range(90):  # both jobs in turn: 90 requests together at the one learned rate
        for job in (survey, herb):
            assert job.enter()
            job.leave(answered=True)
    # The 1 s wait, then 180 requests spaced at about 9 a second between the two jobs.
    assert clock.now() - start > 1 + 180 / 9.9
    # A Retry-After told to the other job holds the survey's requests too.
    herb.throttled(Cause("status", 429, throttled=True), 30.0)
    before = clock.now()
    assert survey.enter()
    assert clock.now() - before >= 30.0
    survey.leave(answered=True)
    # Another endpoint (another key) learns nothing from them.
    other = HttpClient.from_endpoint(Endpoint(ep.base_url, "m", api_key="sk-other"), clock=clock)
    assert other.throttle.pace_rate() is None and other.throttle.waiting() is None
