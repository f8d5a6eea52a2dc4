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

from ..engine.chat import Endpoint, estimate_tokens
from .run import (
    Answer,
    Estimate,
    RequestSettings,
    RunStats,
    SurveySpec,
    estimate,
    run_requests,
    run_survey,
    sum_estimates,
)

__all__ = ["SampledScore", "draw_endpoint", "estimate_sampled", "fill_with_choices",
           "first_digit", "run_sampled", "sampled_score"]  # fmt: skip

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


def estimate_sampled(spec: SurveySpec, gazetteer, cache, k: int, languages=None,
                     choices: bool = False) -> Estimate:  # fmt: skip
    """What run_sampled would send now: every draw's requests not cached, tokens and cost
    (in each of `languages`, codes, when given: the spec once per prompt language).
    `choices`: the endpoint returns k choices for n = k, so a prompt none of whose draws is
    cached costs one request (its completion tokens k times), as fill_with_choices sends it."""
    from .language_runs import specs_by_language

    specs = specs_by_language(spec, languages) if languages else [spec]
    parts = [estimate(_draw_spec(s, d), gazetteer, cache, draw=d) for s in specs
             for d in range(k)]  # fmt: skip
    total = sum_estimates(parts)
    if not (choices and k > 1):
        return total
    # Each fresh prompt was counted k times above (once per draw): one request asks all k, so
    # k - 1 requests and their prompt tokens are not sent.
    n_saved = tok_saved = 0
    cost_saved = 0.0
    for s in specs:
        for ep, prompts, fresh, _keys in _fresh_prompts(s, gazetteer, cache, k):
            tokens = (k - 1) * sum(estimate_tokens(prompts[i]) for i in fresh)
            n_saved += (k - 1) * len(fresh)
            tok_saved += tokens
            cost_saved += tokens * (ep.price_in or 0.0) / 1e6
    cost = None if total.cost is None else total.cost - cost_saved
    return dataclasses.replace(total, n_requests=total.n_requests - n_saved,
                               prompt_tokens=total.prompt_tokens - tok_saved,
                               cost=cost)  # fmt: skip


def _fresh_prompts(spec: SurveySpec, gazetteer, cache, k: int):
    """Per (endpoint, topic) of the spec: (endpoint, prompts, indices of the prompts none of
    whose k draws is cached, each draw's cache keys of every prompt). A reasoning model's
    requests carry no `n` (ChatClient.request_body): none of its prompts is fresh here."""
    from ..engine.chat import ChatClient
    from .run import _language, _plan

    language = _language(spec)
    out = []
    for ep, _topic, prompts in _plan(spec, gazetteer):
        keys = []
        for d in range(k):
            client = ChatClient(draw_endpoint(ep, d))
            keys.append([cache.key(client.endpoint, client.request_body(p, language), d)
                         for p in prompts])  # fmt: skip
            client.close()
        have = cache.has_many([key for row in keys for key in row])
        fresh = [i for i in range(len(prompts)) if not any(row[i] in have for row in keys)]
        if ep.is_reasoning():
            fresh = []
        out.append((ep, prompts, fresh, keys))
    return out


def fill_with_choices(
    spec: SurveySpec, gazetteer, cache, k: int, progress=None, is_cancelled=None,
    stats: RunStats | None = None, spend=None,
) -> int:  # fmt: skip
    """Ask each prompt none of whose k draws is cached once, with n = k (draw 0's settings),
    and store its choice d as draw d's answer: k draws for the price of one request's prompt.
    A prompt answered with fewer choices keeps its other draws for run_sampled to ask one by
    one. Returns the draws stored. The n = k request goes through run_requests (throttling,
    failures, leases and the cache as any request); `progress` counts each prompt k times."""
    from .run import _language

    if k < 2:
        return 0
    language = _language(spec)
    relay = None
    if progress is not None:

        def relay(p):
            progress(dataclasses.replace(p, done=p.done * k, total=p.total * k))

    plan = [item for item in _fresh_prompts(spec, gazetteer, cache, k) if item[2]]
    total = sum(len(fresh) for _ep, _p, fresh, _keys in plan)
    stored = done = 0
    for ep, prompts, fresh, keys in plan:
        if is_cancelled is not None and is_cancelled():
            break
        multi = dataclasses.replace(draw_endpoint(ep, 0), choices=k)
        settings = RequestSettings(progress=relay, is_cancelled=is_cancelled, offset=done,
                                   total=total, stats=stats, spend=spend,
                                   answer_format=language)  # fmt: skip
        results = run_requests([prompts[i] for i in fresh], multi, cache, settings)
        done += len(fresh)
        records = []
        for i, res in zip(fresh, results):
            raw = res.completion.raw if res.completion is not None else None
            for d, choice in enumerate(_choices(raw)[:k]):
                records.append((keys[d][i], dict(raw, choices=[dict(choice, index=0)])))
        cache.put_many(records)
        stored += len(records)
    return stored


def _choices(raw) -> list[dict]:
    choices = raw.get("choices") if isinstance(raw, dict) else None
    return [c for c in choices if isinstance(c, dict)] if isinstance(choices, list) else []


def run_sampled(spec: SurveySpec, gazetteer, cache, k: int, progress=None, is_cancelled=None,
                stats: RunStats | None = None, spend=None, choices: bool = False,
                ) -> tuple[list[Answer], list[SampledScore]]:  # fmt: skip
    """Ask every prompt k times (draw d = 0..k-1, each its own cache entry) and score each
    point by its draws; returns (the answers of draw 0, one SampledScore per answer, in
    run_survey's order). `progress` receives one Progress over all k draws. `choices`: the
    endpoint returns several choices for n > 1 (core/engine/capabilities.py), so a prompt's
    draws are asked in one request (fill_with_choices); else each draw is a request."""
    from .language_runs import whole_run

    if k < 1:
        raise ValueError(f"a sampled score needs at least one draw, not {k}")
    filled = 0
    if choices:
        filled = fill_with_choices(spec, gazetteer, cache, k, progress, is_cancelled, stats,
                                   spend)  # fmt: skip
    draws: list[list[Answer]] = []
    per = len(spec.lon) * len(spec.topics) * len(spec.endpoints)
    for d in range(k):
        if is_cancelled is not None and is_cancelled():
            break
        relay = whole_run(progress, d * per, k * per) if progress is not None else None
        draws.append(run_survey(_draw_spec(spec, d), gazetteer, cache, progress=relay,
                                is_cancelled=is_cancelled, stats=stats, spend=spend,
                                draw=d))  # fmt: skip
    if stats is not None:  # the draws fill_with_choices stored came from its requests
        stats.n_cached = max(0, stats.n_cached - filled)
    if not draws:
        return [], []
    scores = [
        sampled_score([a.rating.rating if not a.failed else None for a in answers], k)
        for answers in zip(*draws)
    ]
    return draws[0], scores
