"""Benchmark of core.metrics and core.ratings: prints what, measured, target, ok."""

import math
import time

import numpy as np

from geobias.core.stats.metrics import (
    answer_rate,
    bias_score,
    fractional_rank,
    gini,
    mad,
    mean_rank,
    mean_rank_error,
    rank_error,
    spearman,
)
from geobias.core.survey.ratings import rate_completion


def timed(fn, repeat=3):
    """Best wall time of a few runs, in seconds."""
    best = math.inf
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def ratings_like(rng, n, nan_share=0.02):
    """One-decimal ratings in 0.0-9.9 with some unanswered points (NaN), like a real survey."""
    x = np.round(np.clip(rng.normal(5, 2, n), 0, 9.9), 1)
    x[rng.random(n) < nan_share] = np.nan
    return x


def all_metrics_but_bootstrap(x, y, z):
    fractional_rank(x)
    rank_error(x, y)
    c = spearman(x, y, n_boot=0)
    m, a = mad(x), answer_rate(x)
    gini(x)
    bias_score(c.rho, m, a)
    mean_rank([x, z])
    mean_rank_error([x, z], y)


def completions(n, rng):
    """Completions with OpenAI-style logprobs: the rating's digits at varying token positions."""
    out = []
    for i in range(n):
        d1, d2 = int(rng.integers(0, 10)), int(rng.integers(0, 10))
        lead = ["Sure. ", ""][i % 2]
        tokens = [lead, "My", " answer", " is", " ", str(d1), ".", str(d2), "."]
        content = []
        for t in tokens:
            alts = [{"token": t, "logprob": -0.2}]
            if t.isdigit():
                alts += [{"token": str((int(t) + k) % 10), "logprob": -1.0 - k} for k in (1, 2, 3)]
                alts.append({"token": " The", "logprob": -5.0})
            content.append({"token": t, "logprob": -0.2, "top_logprobs": alts})
        out.append(("".join(tokens), content))
    return out


def main():
    rng = np.random.default_rng(0)
    rows = []
    n = 1_000_000
    x, z = ratings_like(rng, n), ratings_like(rng, n)
    y = rng.normal(size=n)
    t = timed(lambda: all_metrics_but_bootstrap(x, y, z), repeat=2)
    rows.append(("all metrics but bootstrap, 1,000,000 points", f"{t:.2f} s", "<= 2 s", t <= 2))

    x2, y2 = ratings_like(rng, 2000), rng.normal(size=2000)
    t = timed(lambda: spearman(x2, y2, n_boot=1000, seed=0))
    rows.append(
        ("Spearman + 1,000-resample bootstrap, 2,000 points", f"{t:.2f} s", "<= 1 s", t <= 1)
    )

    data = completions(100_000, rng)
    t = timed(lambda: [rate_completion(text, c) for text, c in data], repeat=1)
    rate = 100_000 / t
    rows.append(
        ("parse 100,000 completions with logprobs", f"{t:.2f} s ({rate:,.0f}/s)", "-", True)
    )

    width = max(len(r[0]) for r in rows)
    print(f"{'what':<{width}}  {'measured':>22}  {'target':>7}  ok")
    for what, measured, target, ok in rows:
        print(f"{what:<{width}}  {measured:>22}  {target:>7}  {'yes' if ok else 'NO'}")


if __name__ == "__main__":
    main()
