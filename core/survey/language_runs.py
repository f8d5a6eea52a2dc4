"""Surveys across prompt languages: one survey per language, answers tagged with it.

Each language is an ordinary survey (core/survey/run.py) whose SurveySpec names the language, so
its requests, cache entries and resume are those of any survey; this module runs them one
after the other with one progress bar, and sums their estimates.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from .run import Estimate, Progress, RunStats, SurveySpec, estimate, run_survey, sum_estimates

__all__ = ["estimate_languages", "run_survey_languages", "specs_by_language", "whole_run"]


def specs_by_language(spec: SurveySpec, languages) -> list[SurveySpec]:
    """One copy of `spec` per language (codes or core/survey/languages.py Languages), in order."""
    from .languages import get_language

    langs = [get_language(code) for code in languages]  # an unknown code fails before any run
    codes = [lang.code for lang in langs]
    if len(set(codes)) != len(codes):
        raise ValueError(f"a language is listed twice: {codes}")
    return [dataclasses.replace(spec, language=lang) for lang in langs]


def estimate_languages(spec: SurveySpec, languages, gazetteer, cache) -> Estimate:
    """What run_survey_languages would send now (core/survey/run.py's Estimate, summed)."""
    parts = [estimate(s, gazetteer, cache) for s in specs_by_language(spec, languages)]
    return sum_estimates(parts)


def run_survey_languages(
    spec: SurveySpec,
    languages,
    gazetteer,
    cache,
    progress: Callable[[Progress], None] | None = None,
    is_cancelled: Callable[[], bool] | None = None,
    stats: RunStats | None = None,
) -> list:
    """run_survey in each language; Answers language by language (each has `.language`).

    Progress counts over all languages (done and total of the whole run; the answer rate is
    the language in flight's). A cancel stops the language in flight as run_survey stops, and
    no further language starts; what was answered is in the cache as usual.
    """
    specs = specs_by_language(spec, languages)
    per = len(spec.lon) * len(spec.topics) * len(spec.endpoints)
    total = per * len(specs)
    answers: list = []
    for k, s in enumerate(specs):
        if is_cancelled is not None and is_cancelled():
            break
        relay = whole_run(progress, k * per, total) if progress else None
        answers += run_survey(s, gazetteer, cache, relay, is_cancelled, stats)
    return answers


def whole_run(progress: Callable[[Progress], None], offset: int, total: int):
    """A progress callback for one language's survey that reports to `progress` over the whole
    run: done counted from `offset` of `total`, and the language's time left (and its range)
    scaled to what all languages leave (they ask the same prompts, one after the other)."""

    def relay(p: Progress) -> None:
        left = total - offset - p.done
        scale = left / max(p.total - p.done, 1)
        eta = (
            p.eta_s * scale
            if p.eta_low is not None
            else (left / p.rate if p.rate > 0 else float("inf"))
        )
        low = p.eta_low * scale if p.eta_low is not None else None
        high = p.eta_high * scale if p.eta_high is not None else None
        progress(Progress(offset + p.done, total, p.rate, eta, p.answer_rate, p.failed, low,
                          high, p.measured, p.waiting_s, p.waiting_cause,
                          p.patience_left_s))  # fmt: skip

    return relay
