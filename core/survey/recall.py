"""Recall survey (issue 36 item 1): ask a model a polygon's number, read its answer, score it.

WorldBench-style: the relative error |a-b|/max(a,b) per polygon, the log ratio ln(a/b), and per
group the mean relative error with a bootstrap interval and its ratio to the best group's.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace

import numpy as np

from ..engine.chat import Endpoint
from .numerals import ascii_digits
from .run import RequestSettings, RunStats, run_requests

__all__ = [
    "DECIMAL_MARK",
    "RecallAnswer",
    "group_errors",
    "log_ratio",
    "parse_number",
    "recall_prompt",
    "relative_error",
    "run_recall",
]

# Decimal mark per bundled prompt language (resources/languages/*.json); the other of "." and
# "," groups thousands, as do spaces, "'" and the Arabic thousands separator.
DECIMAL_MARK = {"en": ".", "fr": ",", "es": ",", "ar": "٫"}
_GROUPING = " \u00a0\u202f'٬"
_SCALE = [  # longest first: "mil millones" before "mil"
    (re.compile(r"mil\s+millones"), 1e9),
    (re.compile(r"billion|milliards?|مليار"), 1e9),
    (re.compile(r"millions?|mill[oó]n(es)?|مليون|ملايين"), 1e6),
    (re.compile(r"thousand|milliers?|mille|mil\b|ألف|آلاف"), 1e3),
]
_NUM = re.compile(r"\d(?:[\d.,٫" + _GROUPING + r"]*\d)?")
# The end of an answer's first sentence ("." only before a space or the end: "3.5" goes on).
_SENTENCE_END = re.compile(r"[?!؟]|\.(?=\s|$)|\n")
_RANGE = re.compile(r"\d\s*(?:-|–|—|to|à|a|al|إلى)\s*\d|between|entre|بين")


def recall_prompt(name: str, quantity: str, unit: str, year: int, parent: str | None = None):
    """The question for one polygon: its name (with its parent, "Ontario, Canada"), the
    quantity, unit and year, asking for one number so the answer can be read back."""
    place = f"{name}, {parent}" if parent else name
    return (
        f"What was the {quantity} of {place} in {year}, in {unit}? "
        "Answer with a single number only."
    )


def _value(token: str, decimal: str) -> float | None:
    """One number token as written in a language with decimal mark `decimal`."""
    s = token.replace("٫", ".") if decimal == "٫" else token
    for g in _GROUPING:
        s = s.replace(g, "")
    if decimal == ",":
        s = s.replace(".", "").replace(",", ".")
    else:
        # "." decimal: "," groups; a lone "1.234" stays one point two three four.
        s = s.replace(",", "")
    if s.count(".") > 1:
        return None
    try:
        return float(s)
    except ValueError:
        return None


def parse_number(text: str, lang: str = "en", year: int | None = None) -> tuple[float | None, str]:
    """(value, "") for the number an answer gives, else (None, reason): "question" when the
    answer's first sentence is a question (small models ask one back, often repeating the
    year), "range" when it gives two bounds, "no number" when none, "unreadable" when the
    digits do not make a number. `year`: the year the question asked about, never read as the
    answer ("In 2019 it was 35" reads 35). Digits of any script, the language's separators,
    and scale words ("3 millions") are read."""
    decimal = DECIMAL_MARK.get(lang.split("-")[0], ".")
    t = ascii_digits(text or "").lower()
    first = _SENTENCE_END.search(t)
    if first is not None and first.group(0) in "?؟":
        return None, "question"
    nums = [m for m in _NUM.finditer(t)
            if year is None or _value(m.group(0).strip(), decimal) != float(year)]  # fmt: skip
    if _RANGE.search(t) and len(nums) >= 2:
        return None, "range"
    if not nums:
        return None, "no number"
    m = nums[0]
    v = _value(m.group(0).strip(), decimal)
    if v is None:
        return None, "unreadable"
    rest = t[m.end() : m.end() + 20]
    for pat, factor in _SCALE:
        if pat.match(rest.lstrip()):
            v *= factor
            break
    return v, ""


def relative_error(answer, truth) -> np.ndarray:
    """|a-b|/max(a,b) elementwise (0 when both are 0, NaN when either is missing/negative)."""
    a, b = np.asarray(answer, float), np.asarray(truth, float)
    with np.errstate(invalid="ignore", divide="ignore"):
        m = np.maximum(a, b)
        out = np.where(m > 0, np.abs(a - b) / m, 0.0)
    return np.where(np.isnan(a) | np.isnan(b) | (a < 0) | (b < 0), np.nan, out)


def log_ratio(answer, truth) -> np.ndarray:
    """ln(a/b): positive when the model overstates; NaN unless both are positive."""
    a, b = np.asarray(answer, float), np.asarray(truth, float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where((a > 0) & (b > 0), np.log(a / b), np.nan)


def group_errors(rel_error, groups, n_boot: int = 1000, seed: int = 0, level: float = 0.95):
    """Per group: n, mean relative error, its percentile bootstrap interval, and the ratio of
    its mean to the lowest group mean (WorldBench's disparity ratio). Missing errors skipped."""
    e = np.asarray(rel_error, float)
    g = np.asarray(groups, object)
    rng = np.random.default_rng(seed)
    rows = []
    for name in sorted({x for x in g.tolist()}, key=str):
        v = e[(g == name) & ~np.isnan(e)]
        if not len(v):
            continue
        lo = hi = math.nan  # no resamples: no interval
        if n_boot > 0:
            boots = rng.choice(v, (n_boot, len(v))).mean(axis=1)
            lo, hi = np.quantile(boots, [(1 - level) / 2, (1 + level) / 2])
        rows.append(
            {
                "group": name,
                "n": int(len(v)),
                "mean_rel_error": float(v.mean()),
                "ci_low": float(lo),
                "ci_high": float(hi),
            }
        )
    best = min((r["mean_rel_error"] for r in rows), default=math.nan)
    for r in rows:
        r["ratio"] = r["mean_rel_error"] / best if best > 0 else math.nan
    return rows


@dataclass
class RecallAnswer:
    """One prompt's outcome: the number read (None: unanswered, `reason` says why: "range",
    "no number", "unreadable", "failed" when the request failed after its retries, "not asked"
    when it was not sent), and the
    answer's text (or the request's error)."""

    value: float | None
    reason: str
    text: str
    failed: bool = False


# Room for "About 38,250,000 people." and a scale word; the rating's 10 tokens cut it short.
RECALL_MAX_TOKENS = 32


def run_recall(prompts, endpoint: Endpoint, cache, lang: str = "en", progress=None,
               is_cancelled=None, stats: RunStats | None = None, spend=None,
               years=None):  # fmt: skip
    """Ask every prompt through the survey engine (cache, throttling, failures, budget), greedy
    at temperature 0 without log-probabilities and with no answer constraint (the answer is a
    free number, not a rating), and read each answer's number (`years`: the year each prompt
    asks about, not read as its answer); one RecallAnswer per prompt."""
    ep = replace(endpoint, logprobs=False, constraint=None, temperature=0.0, choices=1,
                 max_tokens=max(endpoint.max_tokens, RECALL_MAX_TOKENS))  # fmt: skip
    years = list(years) if years is not None else [None] * len(prompts)
    settings = RequestSettings(
        answered=lambda c: parse_number(c.text, lang)[0] is not None,  # the progress's rate
        progress=progress,
        is_cancelled=is_cancelled,
        stats=stats,
        spend=spend,
    )
    results = run_requests(list(prompts), ep, cache, settings) if prompts else []
    out = []
    for res, year in zip(results, years):
        if res.completion is None:
            reason = "failed" if res.failed else "not asked"  # not asked: cancelled, held
            out.append(RecallAnswer(None, reason, res.error or "", failed=res.failed))
            continue
        text = res.completion.text or ""
        value, reason = parse_number(text, lang, year)
        out.append(RecallAnswer(value, reason, text))
    return out
