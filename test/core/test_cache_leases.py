"""One cache, many runs (issue 31 item 7): runs sharing a cache file never send the same request
at the same time (an in-flight lease per key), and a lease ends when its holder dies."""

import multiprocessing as mp
import threading
import time
from contextlib import closing

from geobias.core.engine.cache import Leases, SurveyCache
from geobias.core.engine.chat import Endpoint
from geobias.core.survey.run import RunStats, run_requests
from geobias.test.faultserver import FaultServer


def test_two_runs_on_one_cache_ask_each_prompt_once(tmp_path):
    # Main: two surveys of the same points at once each sent every request (599 for 387).
    path = str(tmp_path / "shared.sqlite")
    prompts = [f"Rate place {i}." for i in range(240)]
    out, stats = {}, {}
    with FaultServer(delay_s=0.01) as fs:
        ep = Endpoint(fs.base_url, "fault", logprobs=True, concurrency=4)
        start = threading.Event()

        def survey(name):
            start.wait()
            stats[name] = RunStats()
            out[name] = run_requests(prompts, ep, SurveyCache(path), stats=stats[name])

        runs = [threading.Thread(target=survey, args=(n,)) for n in ("a", "b")]
        for t in runs:
            t.start()
        start.set()
        for t in runs:
            t.join(120)
        sent = sum(fs.requests_by_body.values())
        distinct = len(fs.requests_by_body)
    assert distinct == len(prompts)
    assert sent / distinct <= 1.02, (sent, distinct)
    assert all(r.completion is not None for name in out for r in out[name])
    # Each run counts what it sent and what it found answered by the other.
    assert stats["a"].n_requests + stats["b"].n_requests == sent
    assert stats["a"].n_cached + stats["b"].n_cached == 2 * len(prompts) - sent
    assert stats["a"].n_requests > 20 and stats["b"].n_requests > 20  # both did work


def _hold(path, key, ready):
    leases = Leases(path)
    assert leases.try_acquire(key) == (True, None)
    ready.set()
    time.sleep(60)  # killed before it ends


def test_a_lease_ends_when_its_holder_dies(tmp_path):
    path = str(tmp_path / "c.sqlite")
    SurveyCache(path)
    ctx = mp.get_context("spawn")
    ready = ctx.Event()
    proc = ctx.Process(target=_hold, args=(path, "k", ready))
    proc.start()
    assert ready.wait(60)
    mine = Leases(path, ttl_s=600)  # the heartbeat alone would hold it for 10 minutes
    assert mine.try_acquire("k") == (False, None)  # held by a live run
    proc.kill()
    proc.join(10)
    assert mine.try_acquire("k") == (True, None)  # its holder is gone: taken over
    assert mine.n_taken_over == 1
    mine.close()


def test_a_lapsed_heartbeat_ends_a_lease_and_a_stored_answer_is_returned(tmp_path):
    path = str(tmp_path / "c.sqlite")
    cache = SurveyCache(path)
    a, b = Leases(path, ttl_s=0.3), Leases(path, ttl_s=0.3)
    a._stop.set()  # a holder that stopped beating (another machine: no pid to check)
    a._beat.join()
    assert a.try_acquire("k") == (True, None)
    assert b.try_acquire("k") == (False, None)
    time.sleep(0.4)
    assert b.try_acquire("k") == (True, None)
    b.release(["k"])
    cache.put("k", {"choices": []})
    assert b.acquire("k") == {"choices": []}  # answered: nothing to send
    b.close()
    a._con.close()
    # Every lease of a finished run is gone.
    import sqlite3

    with closing(sqlite3.connect(path)) as con, con:
        assert con.execute("SELECT COUNT(*) FROM inflight").fetchone()[0] <= 1


def test_a_cancelled_wait_sends_nothing(tmp_path):
    path = str(tmp_path / "c.sqlite")
    SurveyCache(path)
    a, b = Leases(path), Leases(path)
    assert a.try_acquire("k")[0]
    t = time.monotonic()
    assert b.acquire("k", should_stop=lambda: time.monotonic() - t > 0.3) is False
    a.close()
    b.close()
