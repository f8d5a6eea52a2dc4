"""How honest the time estimates are (core/engine/throughput.py), on recorded and simulated runs.

For each run and each point of its progress (10%, 50%, 90% of its items), the estimate of the
time left is compared with the time the run actually took from there:

- in range: the share of runs whose actual time left fell in the estimate's range (it is meant
  to hold 80% of them);
- median error: median of |estimate - actual| / actual;
- before: the median error of what GeoBias said before, the average rate since the start:
  (N - done) / (done / t), the engine's ETA, and the same as the dock's elapsed x (100 - percent)
  / percent within one step (the dock stretched it over the whole chain of steps besides).

Runs: the real runs recorded on the embedded models (test/core/data/rate_sequences.json,
scripts/record_rates.py: a shared machine at a load average of 9-15, some with load added),
and families of simulated runs, 60 each, seeded: steady, slowing down under load (x2-x6 slower
from 20-60% of the run), speeding up (the load ends), a pause (10-60 s), bursty batches (HERB:
8-32 sentences per batch, two slots). Completions are spaced by gamma-distributed gaps
(coefficient of variation 0.5) and the rate wanders by a few percent per 10 s. No clock is
read: the runs carry their own times. A load that changes after a checkpoint cannot be seen
from it: the slowing and speeding families at 10% and 50% show how often that breaks a range.
"""

import json
import math
import os

import numpy as np

from geobias.core.engine.throughput import replay

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(os.path.dirname(HERE), "test", "core", "data", "rate_sequences.json")
AT = (0.1, 0.5, 0.9)
N_RUNS = 60


def simulate(rng, segments, warmup, batch=1, pairs=False, cv=0.5, wander=0.03):
    """[(t, done)] of a run: the start, then completions at gamma gaps around batch / rate.

    segments: [(seconds, items per second)]; a rate of 0 is a pause. `pairs`: batches end two
    by two (two slots started together). The rate wanders (a log random walk of `wander` per
    10 s), as a shared machine's does.
    """
    shape = 1.0 / cv**2
    t, done, events = warmup, 0, [(0.0, 0)]
    drift = 0.0
    for seconds, rate in segments:
        end = t + seconds
        if rate == 0:
            t = end
            continue
        while t < end:
            mean_gap = batch / (rate * math.exp(drift)) * (2 if pairs else 1)
            gap = rng.gamma(shape, mean_gap / shape)
            drift += rng.normal(0, wander * math.sqrt(gap / 10.0))
            t += gap
            for k in range(2 if pairs else 1):
                done += batch
                events.append((t + 0.05 * k, done))
    return events


def families(rng):
    """{family: [events]} of simulated runs."""
    out = {k: [] for k in ("steady", "slowing", "speeding", "pause", "bursty")}
    for _ in range(N_RUNS):
        rate = math.exp(rng.uniform(math.log(0.3), math.log(15)))
        length = rng.uniform(60, 600)
        warm = rng.uniform(0.5, 10)
        out["steady"].append(simulate(rng, [(length, rate)], warm))
        cut, k = rng.uniform(0.2, 0.6), rng.uniform(2, 6)
        out["slowing"].append(simulate(rng, [(cut * length, rate), (length, rate / k)], warm))
        out["speeding"].append(simulate(rng, [(cut * length, rate / k), (length, rate)], warm))
        pause = rng.uniform(10, 60)
        out["pause"].append(simulate(rng, [(cut * length, rate), (pause, 0),
                                           ((1 - cut) * length, rate)], warm))  # fmt: skip
        batch = int(rng.choice([8, 16, 32]))
        out["bursty"].append(simulate(rng, [(length, rate * 4)], warm, batch, pairs=True))
    return out


def before(events, cp):
    """What GeoBias said before at a checkpoint: the time left at the average rate so far."""
    total = events[-1][1]
    t = cp.t - events[0][0]
    return (total - cp.done) / (cp.done / t) if cp.done > 0 and t > 0 else math.nan


def median(x):
    """Median ignoring NaN (NaN when there is nothing)."""
    x = np.asarray(x, float)
    return float(np.nanmedian(x)) if x.size and not np.isnan(x).all() else math.nan


def evaluate(runs):
    """{fraction: (in range, median error, median error before, runs)}; a checkpoint still
    calibrating counts as out of range, with no error."""
    by = {f: ([], [], []) for f in AT}
    for events in runs:
        total = events[-1][1]
        for cp in replay(events, total, AT):
            inside, err, err_before = by[cp.fraction]
            if cp.actual <= 0:
                continue
            inside.append(cp.inside)
            err.append(cp.error if cp.estimate is not None else math.nan)
            err_before.append(abs(before(events, cp) - cp.actual) / cp.actual)
    return {f: (float(np.mean(i)) if i else math.nan, median(e), median(b), len(i))
            for f, (i, e, b) in by.items()}  # fmt: skip


def percent(x):
    return "  –" if x != x else f"{x:4.0%}"


def main():
    rng = np.random.default_rng(2026)
    runs = families(rng)
    with open(DATA, encoding="utf-8") as f:
        recorded = json.load(f)["sequences"]
    rows = [(f"recorded: {name}", [seq["events"]]) for name, seq in sorted(recorded.items())]
    rows.append(("recorded: all", [seq["events"] for seq in recorded.values()]))
    rows += [(f"simulated: {name} ({N_RUNS})", r) for name, r in runs.items()]
    rows.append(("simulated: all", [e for r in runs.values() for e in r]))
    print("Time left at 10% / 50% / 90% of a run's items: share of runs whose actual time left")
    print("is in the range (meant to hold 80%), median |error| / actual; before: the median")
    print("error of the average rate since the start (what the engine and the dock said).")
    head = f"{'runs':<34} {'at':>4} {'in range':>9} {'error':>7} {'before':>7}"
    print(head)
    print("-" * len(head))
    for label, group in rows:
        result = evaluate(group)
        for k, f in enumerate(AT):
            inside, err, err_before, _n = result[f]
            name = label if k == 0 else ""
            print(f"{name:<34} {f:>4.0%} {percent(inside):>9} {percent(err):>7} "
                  f"{percent(err_before):>7}")  # fmt: skip
    return 0


if __name__ == "__main__":
    main()
