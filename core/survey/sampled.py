"""An expected value without log-probabilities: the sampled score (issue 31 item 4).

A model whose endpoint returns no log-probabilities (Anthropic, Mistral, LM Studio) still has a
distribution over its answers: k answers at temperature 1, each cached under its own draw index
(core/engine/cache.py; a seed per draw where the endpoint takes one), estimate it. The score is
the mean over the draws of the quantity the log-probability score averages, the rating's first
digit (E = Σ d·p, DESIGN; "10" counts as 9), with its standard error sd/√n over the n draws that
held a rating.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from ..engine.chat import Endpoint
from .run import Answer, Estimate, RunStats, SurveySpec, estimate, run_survey, sum_estimates

__all__ = ["SampledScore", "draw_endpoint", "estimate_sampled", "first_digit", "run_sampled",
           "sampled_score"]  # fmt: skip

# Providers whose API takes no seed: the draws differ by sampling alone.
NO_SEED = ("anthropic",)


def first_digit(rating: float | None) -> int | None:
    """The first digit of a rating on the paper's 0.0-9.9 scale (10 and above count as 9, as a
    "10" alternative does in the log-probability score)."""
    if rating is None or not math.isfinite(rating) or rating < 0:
        return None
    return min(int(rating), 9)


@dataclass
class SampledScore:
    """The mean first digit over a point's draws, its standard error (None from fewer than two
    rated draws) and how many draws held a rating (of `k` asked)."""

    mean: float | None
    se: float | None
    n: int
    k: int


def sampled_score(ratings, k: int | None = None) -> SampledScore:
    """The SampledScore of one point's draws (ratings or None for draws without one)."""
    digits = [d for d in (first_digit(r) for r in ratings) if d is not None]
    n = len(digits)
    k = len(list(ratings)) if k is None else k
    if not n:
        return SampledScore(None, None, 0, k)
    mean = sum(digits) / n
    if n < 2:
        return SampledScore(mean, None, n, k)
    var = sum((d - mean) ** 2 for d in digits) / (n - 1)
    return SampledScore(mean, math.sqrt(var / n), n, k)


def draw_endpoint(ep: Endpoint, draw: int) -> Endpoint:
    """The endpoint as draw `draw` asks it: temperature 1, no log-probabilities, the draw's
    seed where the endpoint takes one."""
    seed = None if ep.provider in NO_SEED or ep.is_reasoning() else draw
    return dataclasses.replace(ep, temperature=1.0, logprobs=False, seed=seed)


def _draw_spec(spec: SurveySpec, draw: int) -> SurveySpec:
    return dataclasses.replace(spec, endpoints=[draw_endpoint(e, draw) for e in spec.endpoints])


def estimate_sampled(spec: SurveySpec, gazetteer, cache, k: int, languages=None) -> Estimate:
    """What run_sampled would send now: every draw's requests not cached, tokens and cost
    (in each of `languages`, codes, when given: the spec once per prompt language)."""
    from .language_runs import specs_by_language

    specs = specs_by_language(spec, languages) if languages else [spec]
    parts = [estimate(_draw_spec(s, d), gazetteer, cache, draw=d) for s in specs
             for d in range(k)]  # fmt: skip
    return sum_estimates(parts)


def run_sampled(spec: SurveySpec, gazetteer, cache, k: int, progress=None, is_cancelled=None,
                stats: RunStats | None = None, spend=None,
                ) -> tuple[list[Answer], list[SampledScore]]:  # fmt: skip
    """Ask every prompt k times (draw d = 0..k-1, each its own request and cache entry) and
    score each point by its draws; returns (the answers of draw 0, one SampledScore per answer,
    in run_survey's order). `progress` receives one Progress over all k draws."""
    from .language_runs import whole_run

    if k < 1:
        raise ValueError(f"a sampled score needs at least one draw, not {k}")
    draws: list[list[Answer]] = []
    per = len(spec.lon) * len(spec.topics) * len(spec.endpoints)
    for d in range(k):
        if is_cancelled is not None and is_cancelled():
            break
        relay = whole_run(progress, d * per, k * per) if progress is not None else None
        draws.append(run_survey(_draw_spec(spec, d), gazetteer, cache, progress=relay,
                                is_cancelled=is_cancelled, stats=stats, spend=spend,
                                draw=d))  # fmt: skip
    if not draws:
        return [], []
    scores = [
        sampled_score([a.rating.rating if not a.failed else None for a in answers], k)
        for answers in zip(*draws)
    ]
    return draws[0], scores
