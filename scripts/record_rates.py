"""Record the completion times of real runs with the embedded models, for the rate estimator's
tests and benchmark (test/core/data/rate_sequences.json).

    .venv/bin/python scripts/record_rates.py [--out PATH] [--only NAME ...]

Each scenario runs the engine on the embedded model (a fresh cache: every request is sent) and
records (seconds since the start, items done) after every completion. Load is made without
burning the shared cores: on a machine whose cores are already busy, the model's threads are
reniced (nice 5 -> 10 weighs them about three times less against the other work: "slowing";
10 -> 5: "speeding"), or its process is stopped for a while (SIGSTOP/SIGCONT: "pause").
Stopping it for a share of every 200 ms instead had no measurable effect under contention (the
scheduler gave the time back). The machine's own load adds to it; its 1-minute load average is
recorded at the start. Times are shares of the scenario's steady run.

Scenarios: survey_steady, survey_slowing (reniced at 40%), survey_speeding (reniced until 50%),
survey_pause (stopped for a fifth of the time at a third), herb_batches (HERB, SmolLM2, batches
of 16 sentences), herb_slowing (reniced at 40%). Linux only (/proc for the model's threads).
"""

import argparse
import json
import os
import signal
import sys
import tempfile
import threading
import time

from geobias.core.engine.chat import server_endpoint

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "test", "core", "data", "rate_sequences.json")


def renice(pid, value):
    """Set the nice value of every thread of a process (Linux: each thread has its own)."""
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            os.setpriority(os.PRIO_PROCESS, int(tid), value)
        except OSError:
            pass  # a thread that just ended


class Load:
    """Change a process on a schedule of (start s, end s, what, value): "nice" sets its threads'
    nice value for the span (back to `base` after), "stop" stops it for the span."""

    def __init__(self, pid, schedule, t0, base=5):
        self.pid, self.schedule, self.t0, self.base = pid, schedule, t0, base
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _now(self, t):
        return [(what, value) for start, end, what, value in self.schedule if start <= t < end]

    def _run(self):
        state = None
        try:
            while not self.done.is_set():
                now = self._now(time.monotonic() - self.t0)
                if now != state:
                    state = now
                    nice = next((v for w, v in now if w == "nice"), self.base)
                    renice(self.pid, nice)  # threads started since get it too
                    stopped = any(w == "stop" for w, _v in now)
                    os.kill(self.pid, signal.SIGSTOP if stopped else signal.SIGCONT)
                elif state and any(w == "nice" for w, _v in state):
                    renice(self.pid, next(v for w, v in state if w == "nice"))
                time.sleep(0.1)
        finally:
            os.kill(self.pid, signal.SIGCONT)
            renice(self.pid, self.base)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.done.set()
        self.thread.join()


def recorder():
    """(progress callback, events list): (seconds since the first call, done) per change."""
    events = []
    t0 = [None]

    def progress(p):
        now = time.monotonic()
        if t0[0] is None:
            t0[0] = now
        if not events or p.done != events[-1][1]:
            events.append([round(now - t0[0], 3), int(p.done)])
            if p.done % 10 == 0:
                print(f"  {p.done}/{p.total} at {now - t0[0]:.1f} s", file=sys.stderr, flush=True)

    return progress, events


def survey_points(n, seed):
    import numpy as np

    rng = np.random.default_rng(seed)
    lon = rng.uniform(-120, 140, n)
    lat = rng.uniform(-40, 60, n)
    return lon, lat


def run_survey(server, n_points, seed, schedule):
    from geobias.core.engine.cache import SurveyCache
    from geobias.core.geo.gazetteer import Gazetteer
    from geobias.core.survey.run import RequestSettings, SurveySpec, _prompts_for, run_requests

    lon, lat = survey_points(n_points, seed)
    ep = server_endpoint(server)
    topics = ["Infant Mortality Rate", "Average Income"]
    spec = SurveySpec(lon, lat, topics, [ep])
    gaz = Gazetteer.load()
    by_topic = [_prompts_for(spec, gaz, t) for t in topics]
    prompts = [by_topic[j][i] for i in range(n_points) for j in range(len(topics))]
    groups = [[2 * i, 2 * i + 1] for i in range(n_points)]
    progress, events = recorder()
    with tempfile.TemporaryDirectory() as tmp:
        cache = SurveyCache(os.path.join(tmp, "cache.sqlite"))
        t0 = time.monotonic()
        with Load(server.pid, schedule, t0):
            run_requests(prompts, ep, cache, RequestSettings(groups=groups, progress=progress,
                                                             progress_every_s=0.0))  # fmt: skip
    return events, len(prompts), ep.model, ep.concurrency


def run_herb(server, schedule):
    from geobias.core.engine.cache import ScoreCache
    from geobias.core.herb.descriptors import load_descriptors
    from geobias.core.herb.hierarchy import geonames_hierarchy
    from geobias.core.herb.run import HerbSpec, plan, score
    from geobias.core.herb.scorers import LlamaCppScorer

    h = geonames_hierarchy(None, ["South America"], 0)
    words = [d for d in load_descriptors() if d.topic == load_descriptors()[0].topic]
    scorer = LlamaCppScorer.from_endpoint(server_endpoint(server))
    spec = HerbSpec(h, scorer, words)
    total = len(plan(spec).sentences)
    progress, events = recorder()
    with tempfile.TemporaryDirectory() as tmp:
        cache = ScoreCache(os.path.join(tmp, "cache.sqlite"))
        t0 = time.monotonic()
        with Load(server.pid, schedule, t0):
            score(spec, cache, progress)
    scorer.close()
    return events, total, "SmolLM2-135M-Instruct.Q4_1", scorer.concurrency


SCENARIOS = {
    # name: (kind, schedule as (start, end) shares of the steady run's time, what, value)
    "survey_steady": ("survey", [], "Gemma 3 270M, 2 slots, 40 requests, no added load"),
    "survey_slowing": ("survey", [(0.4, 99, "nice", 10)],
                       "Gemma 3 270M, its threads reniced 5 -> 10 at 40% of the time"),
    "survey_speeding": ("survey", [(0.0, 0.5, "nice", 10)],
                        "Gemma 3 270M, its threads at nice 10 until 50% of the time, then 5"),
    "survey_pause": ("survey", [(0.33, 0.53, "stop", 0)],
                     "Gemma 3 270M, stopped for a fifth of the time at a third"),
    "herb_batches": ("herb", [], "SmolLM2 135M, HERB batches of 16 sentences, South America, "
                     "one topic"),
    "herb_slowing": ("herb", [(0.4, 99, "nice", 10)],
                     "SmolLM2 135M, HERB batches, its threads reniced 5 -> 10 at 40%"),
}  # fmt: skip


def main():
    from geobias.core.runtime.embedded import EmbeddedServer

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=OUT)
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--points", type=int, default=60)
    args = parser.parse_args()
    try:
        with open(args.out, encoding="utf-8") as f:
            recorded = json.load(f)
    except OSError:
        recorded = {"about": "", "sequences": {}}
    recorded["about"] = ("Completion times of real runs on the embedded models, recorded by "
                         "scripts/record_rates.py: events are [seconds since the start, items "
                         "done]; total is the run's items.")  # fmt: skip
    servers = {"survey": (None,), "herb": ("smollm2-135m",)}
    # kind -> seconds of a run without added load (its steady scenario, recorded before)
    expected = {seq["kind"]: seq["events"][-1][0] for name, seq in recorded["sequences"].items()
                if not seq["schedule_s"]}  # fmt: skip
    for name, (kind, schedule, about) in SCENARIOS.items():
        if args.only and name not in args.only:
            continue
        with EmbeddedServer(*servers[kind], parallel=2) as server:
            base = expected.get(kind, 60.0 if kind == "survey" else 40.0)
            plan = [(a * base, b * base, what, v) for a, b, what, v in schedule]
            load = os.getloadavg()[0]
            print(f"{name}: recording ({about}; load {load:.1f})", flush=True)
            if kind == "survey":
                events, total, model, conc = run_survey(server, args.points, len(name), plan)
            else:
                events, total, model, conc = run_herb(server, plan)
        if not schedule:
            expected[kind] = events[-1][0]
        recorded["sequences"][name] = {
            "description": about, "kind": kind, "model": model, "concurrency": conc,
            "load_average": round(load, 2), "recorded": time.strftime("%Y-%m-%d"),
            "schedule_s": [[round(a, 1), round(min(b, 1e6), 1), w, v] for a, b, w, v in plan],
            "total": total, "events": events,
        }  # fmt: skip
        print(f"  {len(events)} events, {events[-1][1]}/{total} items in {events[-1][0]:.1f} s",
              flush=True)  # fmt: skip
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(recorded, f, separators=(",", ":"))
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
