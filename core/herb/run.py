"""Running HERB: plan the sentences, estimate, score them through the cache, aggregate.

Every sentence is scored once (regions sharing a name share sentences), cached the moment its
batch returns, and never sent again: a cancelled or failed run resumes where it stopped.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..engine.cache import ScoreCache
from ..engine.throughput import MeasuredRate, Remembered, TimeLeft, time_left
from ..engine.workers import Counts, Engine, EngineSettings, FailureStreak, Progress, Step
from ..messages import Message
from .aggregation import HerbResult, aggregate
from .descriptors import (
    DEFAULT_TEMPLATE,
    Descriptor,
    load_descriptors,
    sentence,
    validate_region_name,
    validate_template,
)
from .hierarchy import Hierarchy
from .scorers import Scored, ScorerError, SentenceScorer

__all__ = [
    "HerbEstimate",
    "HerbSpec",
    "IncompleteScoresError",
    "ScoreProgress",
    "ScoreTable",
    "SentencePlan",
    "cache_rule",
    "calibrate",
    "estimate",
    "plan",
    "run",
    "score",
]


class IncompleteScoresError(RuntimeError):
    """Some sentences have no score (cancelled, or failed); `scores` holds what was scored."""

    def __init__(self, message: str, scores: ScoreTable, stopped=None):
        super().__init__(message)
        self.scores = scores
        self.stopped = stopped  # the EndpointStoppedError that ended the run early, if any


@dataclass
class HerbSpec:
    """What to score: regions, the model's scorer, descriptors and the sentence template."""

    hierarchy: Hierarchy
    scorer: SentenceScorer
    descriptors: list[Descriptor] = field(default_factory=load_descriptors)
    template: str = DEFAULT_TEMPLATE


@dataclass
class SentencePlan:
    """The unique sentences of a run and where each region's scores come from."""

    sentences: list[str]
    matrix: np.ndarray  # (regions, descriptors) index into sentences
    names: np.ndarray  # (regions,) index of each bare region name (for z)

    def region_batches(self) -> list[list[int]]:
        """Each region's descriptor sentences as one batch, then each bare name alone."""
        return [list(row) for row in self.matrix] + [[int(i)] for i in self.names]


@dataclass
class HerbEstimate:
    """Before a run: sentences in all, already cached, still to score, requests, time (None
    when no rate is known for this scorer) and its range (core.rates.TimeLeft, None then)."""

    n_sentences: int
    n_cached: int
    n_to_score: int
    n_requests: int
    seconds: float | None
    left: TimeLeft | None = None
    # Of n_requests, the /tokenize requests a llama.cpp server gets (one per batch of
    # `batch_size` sentences, before they are scored): why requests outnumber sentences.
    n_tokenize: int = 0
    batch_size: int = 0


# Progress of the scoring: sentences done of total, sentences per second, time left (0 while
# no rate is known), sentences failed so far.
ScoreProgress = Progress


@dataclass
class ScoreTable:
    """Scores in the hierarchy's order (NaN where missing) and what happened."""

    scores: np.ndarray  # (regions, descriptors)
    z: np.ndarray  # (regions,)
    failures: dict[str, str]  # sentence -> error message
    n_scored: int  # scored in this run
    n_cached: int  # found in the cache
    cancelled: bool = False

    @property
    def complete(self) -> bool:
        return bool(np.isfinite(self.scores).all() and np.isfinite(self.z).all())


def plan(spec: HerbSpec) -> SentencePlan:
    """Validate the template, descriptors and names; build the unique sentence list."""
    template = validate_template(spec.template)
    if not spec.descriptors:
        raise ValueError(Message("herb.no_descriptors"))
    index: dict[str, int] = {}

    def add(text: str) -> int:
        i = index.get(text)
        if i is None:
            i = index[text] = len(index)
        return i

    names = [validate_region_name(n) for n in spec.hierarchy.names]
    matrix = np.array(
        [[add(sentence(template, r, d.word)) for d in spec.descriptors] for r in names],
        dtype=np.int64,
    ).reshape(len(names), len(spec.descriptors))
    bare = np.array([add(r) for r in names], dtype=np.int64)
    return SentencePlan(list(index), matrix, bare)


def cached_scores(cache: ScoreCache, scorer: SentenceScorer, rule: str, sentences) -> dict:
    """The scores `cache` holds for `scorer`, after adopting those an older cache keeps under
    the scorer's older identity."""
    cache.adopt_scores(scorer.kind, scorer.identity, getattr(scorer, "legacy_identity", ""))
    return cache.get_scores(scorer.kind, scorer.identity, rule, sentences)


def cache_rule(spec: HerbSpec) -> str:
    """The rule part of the cache key; region-batched scores also depend on the batch's words."""
    scorer = spec.scorer
    if not scorer.needs_region_batches:
        return scorer.rule
    words = "\n".join([spec.template] + [d.word for d in spec.descriptors])
    return f"{scorer.rule}#{hashlib.sha256(words.encode('utf-8')).hexdigest()[:12]}"


def estimate(spec: HerbSpec, cache: ScoreCache, rate=None, coverage: float = 0.8) -> HerbEstimate:
    """How much of the run is left after the cache, and how long it should take.

    Parameters
    ----------
    rate : float, core.rates.MeasuredRate or Remembered, optional
        Sentences per second: measured on this machine (`calibrate`, a range from its spread
        and the load that may change, at least ×/÷ e^(z·0.25)), remembered from earlier runs
        (a wider range), or a bare number (no range). None: no time.
    coverage : float
        The share of runs the range should hold.
    """
    p = plan(spec)
    s = spec.scorer
    have = cached_scores(cache, s, cache_rule(spec), p.sentences)
    todo = len(p.sentences) - len(have)
    n_requests = int(np.ceil(todo * s.requests_per_sentence))
    n_tokenize = int(np.ceil(todo / s.batch_size)) if todo and s.kind == "llamacpp" else 0
    n_requests += n_tokenize  # one /tokenize per batch
    if isinstance(rate, MeasuredRate):
        # A short calibration: the machine's load may change over the run.
        left = time_left(todo, rate.per_s, float(np.hypot(rate.spread, 0.25)), coverage)
    elif isinstance(rate, Remembered):
        left = time_left(todo, rate.per_s, float(np.hypot(rate.spread, 0.2)), coverage,
                         "remembered")  # fmt: skip
    elif rate:
        left = time_left(todo, float(rate), 0.0, coverage)
    else:
        left = TimeLeft(0.0, 0.0, 0.0) if not todo else None
    seconds = left.seconds if left is not None else None
    return HerbEstimate(len(p.sentences), len(have), todo, n_requests, seconds, left,
                        n_tokenize, int(getattr(s, "batch_size", 0) or 0))  # fmt: skip


def calibrate(spec: HerbSpec, cache: ScoreCache, seconds: float = 8.0, at_most_s: float = 60.0,
              share: float = 0.25,
              is_cancelled: Callable[[], bool] | None = None) -> MeasuredRate | None:  # fmt: skip
    """Time the scorer on this machine: score the first batches until the rate is calibrated
    and `seconds` have passed, or `at_most_s`, or `share` of what is left is scored (the batches
    in flight then finish too); what is scored stays in the cache, so the run does not score it
    again.

    Returns
    -------
    MeasuredRate or None
        Sentences per second measured after the first batch (a model's start is no rate).
        When time ran out before the rate was calibrated (a loaded machine, batches that come
        back two by two), the sentences over the whole time instead, slower than the run will
        be rather than faster, with a wide spread (0.7 on the log scale). None when nothing
        was scored.
    """
    last: list[Progress] = []
    t0 = time.monotonic()

    def enough() -> bool:
        if is_cancelled is not None and is_cancelled():
            return True
        spent = time.monotonic() - t0
        if not last:
            return spent >= at_most_s
        m = last[-1].measured
        done, todo = last[-1].done - last[0].done, last[0].total - last[0].done
        return (spent >= at_most_s or done >= share * todo
                or (m is not None and m.calibrated and spent >= seconds))  # fmt: skip

    try:
        score(spec, cache, last.append, enough)
    except IncompleteScoresError:
        pass  # a broken scorer is the run's to report; no rate then
    spent = time.monotonic() - t0
    if not last or last[-1].done <= last[0].done:
        return None
    m = last[-1].measured
    if m is not None and m.calibrated:
        return m
    n = last[-1].done - last[0].done
    return MeasuredRate(n / spent, 0.7, n, spent, False)


def score(
    spec: HerbSpec,
    cache: ScoreCache,
    progress: Callable[[ScoreProgress], None] | None = None,
    is_cancelled: Callable[[], bool] | None = None,
    max_batch_errors: int = 3,
) -> ScoreTable:
    """Score every sentence not in the cache, `scorer.concurrency` batches at a time.

    Each batch's scores are committed as soon as it returns; failed sentences are listed in
    `failures` (and retried by the next run). A scorer that fails `max_batch_errors` batches in
    a row stops the run with its message.

    Parameters
    ----------
    spec : HerbSpec
        Regions, scorer, descriptors, template.
    cache : ScoreCache
        Where scores are looked up and stored.
    progress : callable, optional
        Receives a ScoreProgress at the start and after every batch.
    is_cancelled : callable, optional
        Polled between batches and while the scorer waits to retry.
    max_batch_errors : int
        Batches failing in a row (the scorer itself, not a sentence) that stop the run.

    Returns
    -------
    ScoreTable

    Raises
    ------
    IncompleteScoresError
        The scorer stopped working (what was scored is in the exception's `scores`).
    """
    p = plan(spec)
    s = spec.scorer
    rule = cache_rule(spec)
    have = cached_scores(cache, s, rule, p.sentences)
    n_cached = len(have)
    if s.needs_region_batches:
        batches = [b for b in p.region_batches() if any(p.sentences[i] not in have for i in b)]
        seen: set[int] = set()
        batches = [b for b in batches if not (set(b) <= seen) and not seen.update(b)]
    else:
        todo = [i for i, text in enumerate(p.sentences) if text not in have]
        batches = [todo[i : i + s.batch_size] for i in range(0, len(todo), s.batch_size)]
    values = dict(have)
    failures: dict[str, str] = {}
    lock = threading.Lock()

    def run_batch(batch: list[int], should_stop: Callable[[], bool]) -> Step | None:
        texts = [p.sentences[i] for i in batch]
        s.is_cancelled = should_stop  # the same for every batch of the run: ends retry waits
        try:
            results = s.score_batch(texts)
        except ScorerError as e:
            results = [Scored(t, error=f"scorer: {e}") for t in texts]
        broken = bool(results) and all(r.error.startswith("scorer:") for r in results)
        if broken and should_stop():
            return None  # cut short by a cancel or a stop: not a failure of these sentences
        with lock:
            for r in results:
                if r.error:
                    failures[r.sentence] = r.error
                else:
                    values[r.sentence] = r.score
                    failures.pop(r.sentence, None)
        good = [(r.sentence, r.score, r.n_tokens) for r in results if not r.error]
        return Step(len(results), len(good), len(results) - len(good),
                    results[0].error if broken else "", good)  # fmt: skip

    # One policy for the batches (max_batch_errors in a row) and for the scorer's HTTP attempts
    # (the first ones all failing the same way, or a long streak after scores came back).
    in_flight = max(1, min(s.concurrency, len(batches)))
    ep = getattr(s, "endpoint", None)
    gone = None
    if ep is not None and getattr(ep, "provider", "") == "embedded":
        from ..runtime.embedded import exit_reason

        gone = lambda: exit_reason(ep.base_url)  # noqa: E731 - the child's end, if it ended
    policy = FailureStreak(max_batch_errors, concurrency=in_flight, gone=gone)
    engine = Engine(
        EngineSettings(max(1, s.concurrency), progress_every_s=0.0, eta_unknown=0.0),
        progress,
        is_cancelled,
        commit=lambda rows: cache.put_scores(s.kind, s.identity, rule, rows),
        writer_close=cache.close,
        policy=policy,
    )
    s.watch(policy)
    try:
        outcome = engine.run([[b] for b in batches], run_batch, len(p.sentences),
                             Counts(n_cached))  # fmt: skip
    finally:
        s.is_cancelled = None
        s.watch(None)
    table = _table(p, values, failures, outcome.counts.done, n_cached, outcome.cancelled)
    tripped = policy.tripped()
    if tripped is not None:
        from ..engine.http_client import EndpointStoppedError

        host = getattr(getattr(s, "http", None), "client", None)
        stopped = EndpointStoppedError(*tripped, host.host if host is not None else "the server")
        raise IncompleteScoresError(f"the scorer {stopped}", table, stopped)
    if outcome.stopped:
        raise IncompleteScoresError(Message("herb.scorer_stopped", reason=outcome.stopped), table)
    return table


def _table(p: SentencePlan, values, failures, n_scored, n_cached, cancelled) -> ScoreTable:
    flat = np.array([values.get(text, np.nan) for text in p.sentences], dtype=np.float64)
    return ScoreTable(flat[p.matrix], flat[p.names], failures, n_scored, n_cached, cancelled)


def run(
    spec: HerbSpec,
    cache: ScoreCache,
    progress: Callable[[ScoreProgress], None] | None = None,
    is_cancelled: Callable[[], bool] | None = None,
    reference_code: bool = False,
    topics: bool = True,
    flat: bool = True,
) -> HerbResult:
    """Score (through the cache) and aggregate; IncompleteScoresError if a score is missing."""
    table = score(spec, cache, progress, is_cancelled)
    if not table.complete:
        n = len(table.failures)
        why = Message("http.cancelled") if table.cancelled else Message("herb.failed", n=n)
        example = next(iter(table.failures.items()), None)
        detail = Message("herb.example", sentence=example[0], error=example[1]) if example else ""
        message = Message("herb.incomplete", why=why, detail=detail)
        raise IncompleteScoresError(message, table)
    return aggregate(
        spec.hierarchy,
        table.scores,
        table.z,
        spec.descriptors,
        reference_code=reference_code,
        topics=topics,
        flat=flat,
    )
