"""`make eval-models`: which embedded model shows real geographic signal, in which answer mode.

Rates the same world sample (gazetteer population importance + farthest point, as `make demo`)
on the paper's objective topics that have bundled country truth (resources/data/
world_countries.gpkg) with every model in core/runtime/models.py and every answer mode that makes
sense for it, then prints Spearman's rho of the expected value and of the greedy rating with the
truth (95% bootstrap CI, resampling whole countries when core.metrics offers it), the answer
rate, MAD and seconds per request. Answers go to a survey cache, so a re-run (or a run cut
short and started again) only sends what is missing.

Topic and truth pairs (the truth is per country, so rho is over points grouped by country):
  Infant Mortality Rate      ~ infant_mortality
  Infant Mortality Rate      ~ -life_exp        (the same ratings; longer lives, fewer deaths)
  Population Density         ~ pop_density
  Nighttime Light Intensity  ~ gdp_percap       (night lights are a standard proxy of GDP)
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import sqlite3
import sys
import time

import numpy as np

from geobias.core.engine.cache import SurveyCache
from geobias.core.engine.chat import ChatClient, Endpoint, completion_from_response
from geobias.core.geo import geometry, sampling
from geobias.core.geo.gazetteer import Gazetteer
from geobias.core.runtime import models
from geobias.core.runtime.embedded import EmbeddedServer
from geobias.core.stats import metrics
from geobias.core.survey.prompts import build_prompts
from geobias.core.survey.ratings import rate_completion
from geobias.core.survey.run import run_requests

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COUNTRIES = os.path.join(ROOT, "resources", "data", "world_countries.gpkg")

# (topic, truth field, sign): sign -1 when the truth runs against the topic.
PAIRS = (
    ("Infant Mortality Rate", "infant_mortality", 1),
    ("Infant Mortality Rate", "life_exp", -1),
    ("Population Density", "pop_density", 1),
    ("Nighttime Light Intensity", "gdp_percap", 1),
)
TOPICS = list(dict.fromkeys(t for t, _, _ in PAIRS))

# Answer modes: (api, constraint, max_tokens). The grammar forces "My answer is X.X." and may
# need more tokens when the model spells it oddly; a free answer gets the paper's 10 tokens.
MODES = {
    "chat+grammar": ("chat", "grammar", 24),
    "chat": ("chat", None, 10),
    "completion+grammar": ("completions", "grammar", 24),
    "completion": ("completions", None, 10),
}
# An instruction-tuned model has its chat template; a base model gets plain completion and
# its family's turn format (models.EmbeddedModel.chat_template) as its chat mode.
INSTRUCT_MODES = ("chat+grammar", "chat")
BASE_MODES = ("chat+grammar", "chat", "completion+grammar", "completion")


def modes_for(m: models.EmbeddedModel) -> tuple[str, ...]:
    return BASE_MODES if m.chat_template else INSTRUCT_MODES


def read_countries(path: str = COUNTRIES):
    """(polygons, {field: values}) of the bundled country layer (GeoPackage read with sqlite3)."""
    fields = sorted({f for _, f, _ in PAIRS})
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    rows = con.execute(f"SELECT geom, {', '.join(fields)} FROM countries").fetchall()
    con.close()
    polys = []
    for blob in (r[0] for r in rows):
        envelope = (blob[3] >> 1) & 7  # GeoPackage binary header: flags byte, envelope kind
        polys.append(geometry.from_wkb(blob[8 + (0, 32, 48, 48, 64)[envelope] :]))
    values = {
        f: np.array([np.nan if r[i + 1] is None else r[i + 1] for r in rows], dtype=float)
        for i, f in enumerate(fields)
    }
    return polys, values


def sample_points(n: int, seed: int, gazetteer: Gazetteer):
    """The evaluation's points: the demo's sampling method over the whole world."""
    cand, weights = gazetteer.candidates(None)
    idx = sampling.sample_weighted(cand, np.asarray(weights, float), n, seed=seed)
    return cand[idx, 0], cand[idx, 1]


def country_of(polys, lon, lat) -> np.ndarray:
    """Index of the country polygon holding each point (-1 for none: sea, a missing shape)."""
    poly_idx, point_idx = geometry.polygons_hit(polys, lon, lat)
    out = np.full(len(lon), -1, dtype=int)
    out[point_idx] = poly_idx
    return out


def correlation(score, truth, clusters, n_boot: int):
    """Spearman with a cluster bootstrap over countries where core.metrics offers one."""
    if "clusters" in inspect.signature(metrics.spearman).parameters:
        return metrics.spearman(score, truth, n_boot, clusters=clusters), "countries"
    return metrics.spearman(score, truth, n_boot), "points"


def _fmt_rho(c) -> str:
    if not np.isfinite(c.rho):
        return "n/a"
    return f"{c.rho:+.3f} [{c.lo:+.2f}, {c.hi:+.2f}]"


def _fmt(x, spec=".2f") -> str:
    return "n/a" if x is None or not np.isfinite(x) else format(x, spec)


class Timings:
    """Seconds per request of each model x mode x topic, kept beside the cache (a re-run from
    the cache sends nothing, so it has nothing to time)."""

    def __init__(self, path: str):
        self.path = path
        try:
            with open(path, encoding="utf-8") as f:
                self.data = json.load(f)
        except (OSError, ValueError):
            self.data = {}

    def add(self, key: str, n_sent: int, seconds: float) -> None:
        if n_sent:
            n0, s0 = self.data.get(key, (0, 0.0))
            self.data[key] = (n0 + n_sent, s0 + seconds)
            with open(self.path, "w", encoding="utf-8") as f:
                json.dump(self.data, f, indent=1)

    def per_request(self, key: str) -> float:
        n, s = self.data.get(key, (0, 0.0))
        return s / n if n else float("nan")


def endpoint(m: models.EmbeddedModel, mode: str, base_url: str, parallel: int) -> Endpoint:
    """The embedded preset in one answer mode (cache keys ignore the port)."""
    api, constraint, max_tokens = MODES[mode]
    return Endpoint.from_provider(
        "embedded", m.name, base_url=base_url, api=api, constraint=constraint,
        max_tokens=max_tokens, concurrency=parallel, timeout=120.0,
    )  # fmt: skip


def rate(completion) -> object:
    if completion is None:
        return rate_completion(None, None)
    return rate_completion(completion.text, completion.logprobs_content)


def rate_all(m, mode, topic, prompts, cache, timings, base_url, parallel) -> list:
    """Ratings of one model x mode x topic (from the cache, asking only what is missing)."""
    ep = endpoint(m, mode, base_url, parallel)
    t0 = time.perf_counter()
    results = run_requests(prompts, ep, cache)
    dt = time.perf_counter() - t0
    n_sent = sum(not r.cached and r.completion is not None for r in results)
    timings.add(f"{m.key}|{mode}|{topic}", n_sent, dt)
    return [rate(r.completion) for r in results]


def pace(cache: SurveyCache, m, mode, prompts) -> float:
    """Seconds per request from when the cache stored the answers (median gap between
    consecutive answers: robust to a run stopped and resumed later); NaN under 3 answers."""
    ep = endpoint(m, mode, "http://127.0.0.1:0/v1", 1)
    client = ChatClient(ep)
    keys = [cache.key(ep, client.request_body(p)) for p in prompts]
    client.close()
    con = sqlite3.connect(cache.path)
    marks = ",".join("?" * len(keys))
    sql = f"SELECT created FROM responses WHERE key IN ({marks}) ORDER BY created"
    created = np.array([r[0] for r in con.execute(sql, keys)])
    con.close()
    return float(np.median(np.diff(created))) if len(created) >= 3 else float("nan")


def cached_ratings(m, mode, prompts, cache) -> list | None:
    """Ratings from the cache alone, None for a point not asked yet (None: nothing cached)."""
    ep = endpoint(m, mode, "http://127.0.0.1:0/v1", 1)
    client = ChatClient(ep)
    keys = [cache.key(ep, client.request_body(p)) for p in prompts]
    client.close()
    stored = cache.get_many(keys)
    if not stored:
        return None
    return [rate(completion_from_response(stored[k])) if k in stored else None for k in keys]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--points", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--models", nargs="*", default=list(models.MODELS), help="registry keys")
    ap.add_argument("--modes", nargs="*", default=None, help="subset of " + ", ".join(MODES))
    ap.add_argument(
        "--topics",
        nargs="*",
        default=TOPICS[:2],
        help="default: " + "; ".join(TOPICS[:2]) + " (also: " + "; ".join(TOPICS[2:]) + ")",
    )
    ap.add_argument("--parallel", type=int, default=2, help="server slots (concurrent requests)")
    ap.add_argument(
        "--threads", type=int, default=None, help="llama.cpp threads (default: its own)"
    )
    ap.add_argument("--n-boot", type=int, default=1000)
    ap.add_argument("--cache", default=os.path.join(ROOT, "build", "eval_models", "cache.sqlite"))
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "eval_models", "table.md"))
    ap.add_argument("--no-ask", action="store_true", help="only what the cache has")
    ap.add_argument(
        "--probe", type=int, default=20,
        help="ask a free-answer mode (no grammar) these points first, and stop there when it "
        "answers fewer than --min-answer-rate of them (0: always ask every point)",
    )  # fmt: skip
    ap.add_argument("--min-answer-rate", type=float, default=0.25)
    args = ap.parse_args(argv)

    os.makedirs(os.path.dirname(args.cache), exist_ok=True)
    cache = SurveyCache(args.cache)
    timings = Timings(os.path.splitext(args.cache)[0] + ".timings.json")
    gazetteer = Gazetteer.load()
    lon, lat = sample_points(args.points, args.seed, gazetteer)
    polys, values = read_countries()
    country = country_of(polys, lon, lat)
    has = country >= 0
    truth = {f: np.where(has, v[np.maximum(country, 0)], np.nan) for f, v in values.items()}
    prompts = {t: build_prompts(lon, lat, t, gazetteer) for t in args.topics}
    print(
        f"{args.points} points (seed {args.seed}) in {len(set(country[has]))} countries; "
        f"{(~has).sum()} outside every country polygon",
        flush=True,
    )

    ratings: dict = {}  # (model key, mode, topic) -> list of Rating
    # Topic first (the demo's topic is measured before the others), then mode by mode: the
    # grammar modes of every model before the free-answer probes, the order results matter in.
    plan = []
    for topic in args.topics:
        for mode in MODES:
            for key in args.models:
                m = models.get_model(key)
                if mode in modes_for(m) and (args.modes is None or mode in args.modes):
                    plan.append((topic, key, [mode]))
    for topic, key, modes in plan:
        m = models.get_model(key)
        if args.no_ask:
            for mode in modes:
                ratings[key, mode, topic] = cached_ratings(m, mode, prompts[topic], cache)
            continue
        print(f"{m.label}: {topic} ...", flush=True)
        with EmbeddedServer(
            models.model_path(key), parallel=args.parallel, threads=args.threads
        ) as server:
            for mode in modes:
                t0 = time.perf_counter()
                todo = prompts[topic]
                if MODES[mode][1] is None and args.probe:  # a free answer: probe first
                    rs = rate_all(m, mode, topic, todo[: args.probe], cache, timings,
                                  server.base_url, args.parallel)  # fmt: skip
                    if np.mean([r.answered for r in rs]) < args.min_answer_rate:
                        ratings[key, mode, topic] = rs
                        print(f"  {mode}: too few answers in the first {len(rs)}, stopped")
                        continue
                ratings[key, mode, topic] = rate_all(
                    m, mode, topic, todo, cache, timings, server.base_url, args.parallel
                )
                print(f"  {mode}: {time.perf_counter() - t0:.0f} s", flush=True)

    lines = [
        f"{args.points} points, seed {args.seed}, {args.parallel} slots"
        f"{f', {args.threads} threads' if args.threads else ''}; rho with country truth, "
        f"95% CI from {args.n_boot} bootstrap resamples of {{boot}}; EV = expected value of "
        "the first digit over the top-5 log-probs, greedy = the rating written.",
        "",
        "| model | mode | topic ~ truth | answered | ρ EV [95% CI] | ρ greedy [95% CI] "
        "| MAD EV | MAD greedy | s/request |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    boot = "points"
    for topic, field, sign in PAIRS:
        if topic not in args.topics:
            continue
        for key in args.models:
            m = models.get_model(key)
            for mode in modes_for(m):
                rs = ratings.get((key, mode, topic))
                if not rs:
                    continue
                rs = rs + [None] * (args.points - len(rs))  # a stopped probe: its first points
                was_asked = np.array([r is not None for r in rs])
                asked = int(was_asked.sum())
                rs = [r or rate_completion(None, None) for r in rs]
                ev = np.array([np.nan if r.expected is None else r.expected for r in rs])
                greedy = np.array([np.nan if r.rating is None else r.rating for r in rs])
                answered = np.array([r.answered for r in rs])[was_asked]
                t = sign * truth[field]
                c_ev, boot = correlation(ev, t, country, args.n_boot)
                c_gr, _ = correlation(greedy, t, country, args.n_boot)
                per = timings.per_request(f"{key}|{mode}|{topic}")
                if not np.isfinite(per):  # a run stopped before it could time itself
                    per = pace(cache, m, mode, prompts[topic])
                of = "" if asked == args.points else f" of {asked}"
                lines.append(
                    f"| {m.label} | {mode} | {topic} ~ {'-' if sign < 0 else ''}{field} "
                    f"| {answered.mean():.0%}{of} | {_fmt_rho(c_ev)} | {_fmt_rho(c_gr)} "
                    f"| {_fmt(metrics.mad(ev))} | {_fmt(metrics.mad(greedy))} | {_fmt(per)} |"
                )
    lines[0] = lines[0].format(boot=boot)
    table = "\n".join(lines)
    print()
    print(table)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(table + "\n")
    print(f"\ntable: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
