"""LLM access throughput: instant stub, embedded model vs a raw client, a two-topic survey's order,
finished-survey re-run."""

import os
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np
import requests

from geobias.core.engine.cache import SurveyCache
from geobias.core.engine.chat import ChatClient, Endpoint, server_endpoint
from geobias.core.survey.prompts import PRESETS, make_template
from geobias.core.survey.run import SurveySpec, estimate, run_survey

STUB = "from geobias.test.faultserver import serve_instant; serve_instant()"


def start_stub():
    """The instant chat stub in its own process (so it does not share our GIL)."""
    proc = subprocess.Popen([sys.executable, "-c", STUB], stdout=subprocess.PIPE, text=True)
    return proc, proc.stdout.readline().strip()


def points(n, seed=0):
    rng = np.random.default_rng(seed)
    return rng.uniform(-180, 180, n), np.degrees(np.arcsin(rng.uniform(-1, 1, n)))


def bench_stub(tmp, n=4000, repeats=3):
    """(a) completed requests/s end to end (prompt, request, parse, rating, cache write); best of
    `repeats` fresh surveys, since other work on a 2-core machine adds noise.

    Since issue 16 requests go through urllib3's public PoolManager/ProxyManager (QGIS's proxy,
    its certificate authorities) instead of requests' adapter internals (get_connection,
    deprecated in requests 2.32.2). Measured side by side with the old code, 3,000 requests,
    best of 3, on the shared 2-core machine at load 9: 567 vs 554 requests/s, so the target
    stays. Against a real model the client's millisecond is noise: the embedded model takes
    about 1 s a request, a remote API 0.3 to 3 s."""
    proc, url = start_stub()
    try:
        best = 0.0
        for rep in range(repeats):
            lon, lat = points(n, seed=rep)
            t = make_template("bench", "Rate. ", "({lat:.5f}, {lon:.5f}) {topic}:")
            ep = Endpoint(url, "stub", concurrency=4, logprobs=True)
            spec = SurveySpec(lon, lat, ["Attractiveness"], [ep], t)
            cache = SurveyCache(os.path.join(tmp, f"stub{rep}.sqlite"))
            t0 = time.perf_counter()
            answers = run_survey(spec, None, cache)
            dt = time.perf_counter() - t0
            assert sum(a.rating.answered for a in answers) == len(lon)
            best = max(best, len(lon) / dt)
        return best
    finally:
        proc.kill()
        proc.wait()


def raw_client(url, bodies, concurrency, path="/chat/completions"):
    """Plain requests threads posting the bodies to url + path: requests/s."""
    todo = list(bodies)
    lock = threading.Lock()

    def work():
        s = requests.Session()
        while True:
            with lock:
                if not todo:
                    return
                body = todo.pop()
            r = s.post(url + path, json=body, timeout=120)
            r.raise_for_status()
            r.json()

    threads = [threading.Thread(target=work) for _ in range(concurrency)]
    t0 = time.perf_counter()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return len(bodies) / (time.perf_counter() - t0)


def bench_embedded(tmp, n=12, parallel=2, repeats=3):
    """(b) survey vs raw client on the embedded server at the same concurrency, side by side.

    Both send paper prompts on the same topic for different points of the same size (llama.cpp
    reuses the shared prompt prefix for both alike; identical prompts would favour whichever
    runs second), and they swap point sets and order every repeat.
    """
    from geobias.core.geo.gazetteer import Gazetteer
    from geobias.core.runtime.embedded import EmbeddedServer
    from geobias.core.survey.prompts import build_prompts

    gaz = Gazetteer.load()
    topic = "Average Attractiveness of Residents"
    t_raw = t_survey = 0.0
    with EmbeddedServer(parallel=parallel) as server:
        ep = server_endpoint(server, concurrency=parallel)
        client = ChatClient(ep)
        for rep in range(repeats):
            sets = [points(n, seed=100 + 2 * rep), points(n, seed=101 + 2 * rep)]
            if rep % 2:
                sets.reverse()
            (raw_lon, raw_lat), (lon, lat) = sets
            bodies = [client.request_body(p) for p in build_prompts(raw_lon, raw_lat, topic, gaz)]
            spec = SurveySpec(lon, lat, [topic], [ep], PRESETS["geollm"])
            cache = SurveyCache(os.path.join(tmp, f"emb{rep}.sqlite"))
            for which in ("raw", "survey") if rep % 2 == 0 else ("survey", "raw"):
                if which == "raw":
                    t_raw += n / raw_client(ep.base_url, bodies, parallel)
                else:
                    t0 = time.perf_counter()
                    run_survey(spec, gaz, cache)
                    t_survey += time.perf_counter() - t0
    return n * repeats / t_survey, n * repeats / t_raw


def bench_topics(tmp, n=10, parallel=2, repeats=2):
    """(d) a two-topic survey on the embedded server: the runner's order (a point's topics back
    to back from one worker, so the slot's cached prompt covers all but the topic) against the
    order it had before (topic by topic), side by side on point sets that swap every repeat."""
    from geobias.core.geo.gazetteer import Gazetteer
    from geobias.core.runtime.embedded import EmbeddedServer
    from geobias.core.survey.prompts import build_prompts
    from geobias.core.survey.run import run_requests

    gaz = Gazetteer.load()
    topics = ["Infant Mortality Rate", "Average Attractiveness of Residents"]
    t_point = t_topic = 0.0
    with EmbeddedServer(parallel=parallel) as server:
        ep = server_endpoint(server, concurrency=parallel)
        for rep in range(repeats):
            sets = [points(n, seed=200 + 2 * rep), points(n, seed=201 + 2 * rep)]
            if rep % 2:
                sets.reverse()
            (t_lon, t_lat), (lon, lat) = sets
            spec = SurveySpec(lon, lat, topics, [ep], PRESETS["geollm"])
            for which in ("point", "topic") if rep % 2 == 0 else ("topic", "point"):
                cache = SurveyCache(os.path.join(tmp, f"topics_{which}{rep}.sqlite"))
                t0 = time.perf_counter()
                if which == "point":
                    run_survey(spec, gaz, cache)
                    t_point += time.perf_counter() - t0
                else:
                    for topic in topics:
                        run_requests(build_prompts(t_lon, t_lat, topic, gaz), ep, cache)
                    t_topic += time.perf_counter() - t0
    n_req = 2 * n * repeats
    return n_req / t_point, n_req / t_topic


def bench_deterministic(tmp, n=12, repeats=2):
    """(e) survey throughput at concurrency 2 on a deterministic embedded server (one slot, no
    prompt-cache reuse: bit-identical answers) against today's (two slots, prompt cache), side
    by side: both servers up at once, each asked in turn on point sets that swap every repeat,
    every survey from an empty cache. Returns (deterministic req/s, today's req/s)."""
    from geobias.core.geo.gazetteer import Gazetteer
    from geobias.core.runtime.embedded import EmbeddedServer

    gaz = Gazetteer.load()
    topic = "Average Attractiveness of Residents"
    spent = {True: 0.0, False: 0.0}
    with EmbeddedServer(parallel=2, deterministic=True) as det, EmbeddedServer(parallel=2) as old:
        servers = {True: det, False: old}
        for rep in range(repeats):
            sets = [points(n, seed=300 + 2 * rep), points(n, seed=301 + 2 * rep)]
            order = (True, False) if rep % 2 == 0 else (False, True)
            for which, (lon, lat) in zip(order, sets):
                ep = server_endpoint(servers[which], concurrency=2)
                spec = SurveySpec(lon, lat, [topic], [ep], PRESETS["geollm"])
                cache = SurveyCache(os.path.join(tmp, f"det{int(which)}_{rep}.sqlite"))
                t0 = time.perf_counter()
                run_survey(spec, gaz, cache)
                spent[which] += time.perf_counter() - t0
    return n * repeats / spent[True], n * repeats / spent[False]


def bench_rerun(tmp, n=10_000):
    """(c) a finished n-point survey (paper prompts with gazetteer) re-run: requests, seconds."""
    from geobias.core.geo.gazetteer import Gazetteer

    gaz = Gazetteer.load()
    proc, url = start_stub()
    lon, lat = points(n, seed=5)
    ep = Endpoint(url, "stub", concurrency=4, logprobs=True)
    spec = SurveySpec(lon, lat, ["Attractiveness"], [ep], PRESETS["geollm"])
    cache = SurveyCache(os.path.join(tmp, "rerun.sqlite"))
    try:
        run_survey(spec, gaz, cache)
    finally:
        proc.kill()  # from here on any request would fail: the re-run must not need one
        proc.wait()
    n_left = estimate(spec, gaz, cache).n_requests
    t0 = time.perf_counter()
    answers = run_survey(spec, gaz, cache)
    dt = time.perf_counter() - t0
    ok = len(answers) == n and all(a.error == "" and a.rating.answered for a in answers)
    return n_left if ok else -1, dt


def main():
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        rate = bench_stub(tmp)
        rows.append(("instant stub: completed requests/s", f"{rate:.0f}", ">= 1000", rate >= 1000))
        survey, raw = bench_embedded(tmp)
        ratio = survey / raw
        rows.append(("embedded: raw requests client, req/s", f"{raw:.2f}", "", True))
        rows.append(("embedded: survey runner, req/s", f"{survey:.2f}", "", True))
        rows.append(("embedded: survey / raw", f"{ratio:.0%}", ">= 90%", ratio >= 0.9))
        by_point, by_topic = bench_topics(tmp)
        rows.append(("embedded, 2 topics, topic by topic: req/s", f"{by_topic:.2f}", "", True))
        rows.append(("embedded, 2 topics, point by point: req/s", f"{by_point:.2f}", "", True))
        gain = by_point / by_topic
        rows.append(("  point by point / topic by topic", f"{gain:.2f}x", "> 1", gain > 1))
        det, today = bench_deterministic(tmp)
        rows.append(("embedded, today's (2 slots, prompt cache): req/s", f"{today:.2f}", "", True))
        rows.append(("embedded, deterministic (1 slot, no reuse): req/s", f"{det:.2f}", "", True))
        # Below 90% the deterministic server is a switch (demos, reproduce), not the default.
        rows.append(("  deterministic / today's", f"{det / today:.0%}", "", True))
        n_req, dt = bench_rerun(tmp)
        rows.append(("re-run 10,000 points: requests", str(n_req), "0", n_req == 0))
        rows.append(("re-run 10,000 points: seconds", f"{dt:.2f}", "<= 2", dt <= 2.0))
    print(f"{'what':<42} {'measured':>10} {'target':>9}  ok")
    for what, val, target, ok in rows:
        print(f"{what:<42} {val:>10} {target:>9}  {'yes' if ok else 'NO'}")
    # A missed target shows as NO in the table; the exit code is for a benchmark that crashed.


if __name__ == "__main__":
    main()
