"""Pairwise survey (issue 36 item 2): "which of two places has a higher <topic>?", asked in both
orders over a connected design of pairs, ranked by Bradley–Terry strengths.

Asking for a choice rather than a 0–9 rating avoids the scale's anchoring and the compression
small models show; asking each pair in both orders lets the order effect (the model's leaning
to the place named first) be measured and kept out of the strengths (core/stats/bradley_terry.py).
Requests go through the survey engine (run_requests: cache, throttling, failures, budget).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace

import numpy as np

from ..engine.chat import Endpoint
from ..stats.bradley_terry import BradleyTerryFit, connected_pairs, fit_bradley_terry
from .run import RequestSettings, RunStats, run_requests

__all__ = [
    "PAIR_PROMPT",
    "PairFormat",
    "PairwiseResult",
    "choice_probability",
    "pair_prompts",
    "place_labels",
    "read_choice",
    "run_pairwise",
    "strength_to_scale",
]

PAIR_PROMPT = (
    "Which of these two locations has a higher {topic}?\n"
    "Location A: {a}\n"
    "Location B: {b}\n"
    "Answer with the letter A or B only."
)


@dataclass(frozen=True)
class PairFormat:
    """The answer an endpoint with a grammar or regex constraint is held to: one letter."""

    gbnf: str = 'root ::= "A" | "B"'
    regex: str = "[AB]"


_CHOICE = re.compile(r"^\W*(?:(?:answer|location)\s*[:\-]?\s*)*\(?([AB])\b", re.IGNORECASE)


def read_choice(text: str | None) -> int | None:
    """0 for A (the place named first), 1 for B, None for anything else ("A or B", prose)."""
    if not text:
        return None
    m = _CHOICE.match(text.strip())
    if m is None:
        return None
    letter = m.group(1).upper()
    rest = text.strip()[m.end() :]
    other = "B" if letter == "A" else "A"
    if re.search(rf"\b{other}\b", rest):  # "A or B", "A, no B": no one choice
        return None
    return 0 if letter == "A" else 1


def choice_probability(logprobs_content) -> float | None:
    """P(A) / (P(A) + P(B)) at the first answer token whose alternatives hold A or B (the
    log-probabilities' view of the choice, as the expected value is the ratings'); None when
    the answer carries no log-probabilities or neither letter is among them."""
    for entry in logprobs_content or []:
        if not isinstance(entry, dict):
            continue
        p = {"A": 0.0, "B": 0.0}
        for alt in entry.get("top_logprobs") or [entry]:
            letter = str(alt.get("token", "")).strip().upper()
            if letter in p and alt.get("logprob") is not None:
                p[letter] += math.exp(float(alt["logprob"]))
        if p["A"] + p["B"] > 0:
            return p["A"] / (p["A"] + p["B"])
        if str(entry.get("token", "")).strip():
            return None  # the first word of the answer is neither letter
    return None


def place_labels(lon, lat, gazetteer) -> list[str]:
    """Each point as the prompt names it: its gazetteer address and coordinates."""
    lon, lat = np.asarray(lon, float), np.asarray(lat, float)
    addresses = gazetteer.addresses(lon, lat)
    return [f"{a} ({y:.4f}, {x:.4f})" if a else f"({y:.4f}, {x:.4f})"
            for a, x, y in zip(addresses, lon.tolist(), lat.tolist())]  # fmt: skip


def pair_prompts(labels, pairs, topic: str):
    """(prompts, first, second): every pair in both orders, A the first-named place."""
    prompts, first, second = [], [], []
    for i, j in pairs:
        for a, b in ((i, j), (j, i)):
            prompts.append(PAIR_PROMPT.format(topic=topic, a=labels[a], b=labels[b]))
            first.append(a)
            second.append(b)
    return prompts, np.array(first, dtype=np.intp), np.array(second, dtype=np.intp)


def strength_to_scale(strength) -> np.ndarray:
    """The stated mapping of log-strengths to the 0–9 scale: 9·σ(s), nine times the chance the
    place is chosen over a place of mean strength (for MAD, Gini and B only; ranks need none)."""
    s = np.asarray(strength, float)
    return 9.0 / (1.0 + np.exp(-s))


@dataclass
class PairwiseResult:
    """One topic's comparisons and their fit: who was named first and second, the greedy choice
    of each (1 first chosen, 0 second, NaN unanswered or failed), the probability that the
    first is chosen from the log-probabilities (NaN without them), the answers' text, and the
    fit (None when nothing was answered) of `kind`: "probability" when every answered
    comparison had its probability, else "greedy"."""

    prompts: list[str]
    first: np.ndarray
    second: np.ndarray
    choice: np.ndarray
    texts: list[str]
    fit: BradleyTerryFit | None
    n_failed: int = 0
    comparisons: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    p_first: np.ndarray = field(default_factory=lambda: np.zeros(0))
    kind: str = "greedy"

    @property
    def n_unanswered(self) -> int:
        return int(np.isnan(self.choice).sum())


def run_pairwise(lon, lat, topic: str, endpoint: Endpoint, cache, gazetteer, opponents: int = 8,
                 seed: int = 0, progress=None, is_cancelled=None,
                 stats: RunStats | None = None, spend=None) -> PairwiseResult:  # fmt: skip
    """Ask every pair of a connected design (each place meets at least `opponents` others) in
    both orders, at temperature 0, and fit Bradley–Terry strengths with an order effect from the
    answered comparisons: from the probability of the first place where every answer has
    log-probabilities (a small model that always says "A" still leans by how much), else from
    the greedy choices."""
    n = len(np.asarray(lon))
    pairs = connected_pairs(n, opponents, seed)
    labels = place_labels(lon, lat, gazetteer)
    prompts, first, second = pair_prompts(labels, pairs, topic)
    ep = endpoint
    if ep.constraint == "json_schema":  # the schema is the rating's: ask for the letter plainly
        ep = replace(ep, constraint=None)
    settings = RequestSettings(
        answered=lambda c: read_choice(c.text) is not None,
        progress=progress,
        is_cancelled=is_cancelled,
        stats=stats,
        spend=spend,
        answer_format=PairFormat(),
    )
    results = run_requests(prompts, ep, cache, settings) if prompts else []
    choice = np.full(len(prompts), math.nan)
    p_first = np.full(len(prompts), math.nan)
    texts = []
    for k, res in enumerate(results):
        c = res.completion
        text = c.text if c is not None else None
        texts.append(text or res.error or "")
        got = read_choice(text)
        if got is not None:
            choice[k] = 1.0 - got  # 1: the first-named place was chosen
            prob = choice_probability(c.logprobs_content)
            if prob is not None:
                p_first[k] = prob
    ok = ~np.isnan(choice)
    comparisons = np.bincount(first[ok], minlength=n) + np.bincount(second[ok], minlength=n)
    soft = bool(ok.any()) and not np.isnan(p_first[ok]).any()
    y = p_first if soft else choice
    fit = None
    if ok.sum() and n >= 2:
        fit = fit_bradley_terry(first[ok], second[ok], y[ok], n)
    n_failed = sum(1 for r in results if r.failed)
    return PairwiseResult(prompts, first, second, choice, texts, fit, n_failed, comparisons,
                          p_first, "probability" if soft else "greedy")  # fmt: skip
