"""The endpoint's limit is the speed (issue 31 items 1, 2 and 7), against local servers on
127.0.0.1 (test/faultserver.py):

- a server enforcing R = 600 requests a minute with a token bucket (429 + Retry-After beyond
  it), a 2,000-point survey: the share of R reached after the first minute (target >= 90%) and
  the share of requests answered 429 after it (<= 5%), with the user's rpm set to R, with
  none set (the server's x-ratelimit-* headers, as OpenAI sends them, give the limit) and with
  none set by a server sending no such headers, only Retry-After (the rate is learned, see
  core/engine/throttle.py; measured 98.0% of R, 0.1% answered 429, 203 s; unpaced it was
  96.9% of R and 11.6% answered 429);
- a server throttling every request of its first 60 s (429 + Retry-After): the run waits it
  out and finishes, and how long after the throttle ended;
- two runs of the same 1,000 points at once on one cache: requests sent / distinct prompts
  (<= 1.02: the in-flight leases).

Rows go to make bench's reliability table. About 11 minutes, mostly waiting; give row keys
(e.g. ``limit_no_headers``) to run only those.
"""

import os
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reliability import record  # noqa: E402

R = 600.0


def limited(rpm, folder, n_points=2000, headers=True):
    from geobias.core.engine.cache import SurveyCache
    from geobias.core.engine.chat import Endpoint
    from geobias.core.survey.run import run_requests
    from geobias.test.faultserver import FaultServer

    cache = SurveyCache(os.path.join(folder, f"limit-{rpm}-{headers}.sqlite"))
    prompts = [f"How is life at point {i} (rpm {rpm}, {headers})?" for i in range(n_points)]
    with FaultServer(throttle={"rpm": R, "headers": headers}) as fs:
        ep = Endpoint(fs.base_url, "fault", logprobs=True, concurrency=4, rpm=rpm)
        t0 = time.monotonic()
        res = run_requests(prompts, ep, cache)
        seconds = time.monotonic() - t0
        start = fs.t_first or t0
        answers = [t for t in fs.answer_times if t - start >= 60]
        throttled = [t for t in fs.throttle_times if t - start >= 60]
    span = max(seconds - (start - t0) - 60, 1e-9)
    share = len(answers) / span * 60 / R
    asked = len(answers) + len(throttled)
    late_429 = len(throttled) / asked if asked else 0.0
    answered = sum(r.completion is not None for r in res)
    return share, late_429, seconds, answered


def ride_out(folder, throttle_s=60.0, n_points=200):
    from geobias.core.engine.cache import SurveyCache
    from geobias.core.engine.chat import Endpoint
    from geobias.core.survey.run import run_requests
    from geobias.test.faultserver import FaultServer

    cache = SurveyCache(os.path.join(folder, "throttle.sqlite"))
    prompts = [f"How is life at point {i} (throttled)?" for i in range(n_points)]
    with FaultServer(throttle={"first_s": throttle_s}) as fs:
        ep = Endpoint(fs.base_url, "fault", logprobs=True, concurrency=4)
        t0 = time.monotonic()
        res = run_requests(prompts, ep, cache)
        seconds = time.monotonic() - t0
        throttled = fs.n_throttled
    answered = sum(r.completion is not None for r in res)
    return seconds, seconds - throttle_s, answered, throttled


def two_runs(folder, n_points=1000):
    from geobias.core.engine.cache import SurveyCache
    from geobias.core.engine.chat import Endpoint
    from geobias.core.survey.run import run_requests
    from geobias.test.faultserver import FaultServer

    path = os.path.join(folder, "shared.sqlite")
    prompts = [f"How is life at point {i} (shared)?" for i in range(n_points)]
    with FaultServer(delay_s=0.005) as fs:
        ep = Endpoint(fs.base_url, "fault", logprobs=True, concurrency=4)
        go = threading.Event()

        def survey():
            go.wait()
            run_requests(prompts, ep, SurveyCache(path))

        runs = [threading.Thread(target=survey) for _ in range(2)]
        for t in runs:
            t.start()
        t0 = time.monotonic()
        go.set()
        for t in runs:
            t.join()
        seconds = time.monotonic() - t0
        sent, distinct = sum(fs.requests_by_body.values()), len(fs.requests_by_body)
    return sent, distinct, seconds


LIMITS = (  # key, the user's rpm, whether the server sends x-ratelimit-* headers
    ("limit_rpm_set", R, True),
    ("limit_rpm_none", None, True),
    ("limit_no_headers", None, False),
)


def main(only=()):
    wanted = set(only) or None
    with tempfile.TemporaryDirectory() as folder:
        if wanted is None or "shared_cache" in wanted:
            sent, distinct, seconds = two_runs(folder)
            ratio = sent / distinct
            print(f"two runs on one cache: {sent} requests for {distinct} prompts "
                  f"({ratio:.3f}), {seconds:.1f} s")  # fmt: skip
            record("shared_cache", f"{ratio:.3f} ({sent} for {distinct})", ratio <= 1.02)

        if wanted is None or "throttle_60s" in wanted:
            total, after, answered, throttled = ride_out(folder)
            print(f"60 s throttle: {total:.1f} s in all, {after:.1f} s after it ended, "
                  f"{answered}/200 answered, {throttled} requests answered 429")  # fmt: skip
            record("throttle_60s", f"{after:.1f} s after, {answered}/200 answered, "
                   f"{throttled} x 429", answered == 200 and after <= 10)  # fmt: skip

        for key, rpm, headers in LIMITS:
            if wanted is not None and key not in wanted:
                continue
            share, late, seconds, answered = limited(rpm, folder, headers=headers)
            print(f"rpm {rpm or 'none':>5}, {'' if headers else 'no '}rate headers: {share:.1%} "
                  f"of R, {late:.1%} answered 429 after the first minute, {seconds:.0f} s, "
                  f"{answered}/2000 answered")  # fmt: skip
            record(key, f"{share:.1%} of R, {late:.1%} 429", share >= 0.9 and late <= 0.05,
                   "concurrency 4")  # fmt: skip


if __name__ == "__main__":
    main(sys.argv[1:])
