"""Survey runner: points x topics x models -> cached requests -> answers with ratings."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ..engine.budget import BudgetExceededError, Spend
from ..engine.cache import SurveyCache
from ..engine.chat import (
    ChatClient,
    Completion,
    Endpoint,
    RequestError,
    TransientError,
    completion_from_response,
    estimate_tokens,
)
from ..engine.workers import (
    Counts,
    Engine,
    EngineSettings,
    FailureStreak,
    Progress,
    Step,
    gc_paused,
)

__all__ = [
    "Answer",
    "Estimate",
    "RatingCheck",
    "Progress",
    "RequestSettings",
    "Result",
    "RunStats",
    "SurveySpec",
    "check_rating",
    "estimate",
    "plan_prompts",
    "prompt_tokens_at",
    "run_requests",
    "run_survey",
]


@dataclass
class SurveySpec:
    """What to ask: points, topics, models and the prompt template."""

    lon: np.ndarray
    lat: np.ndarray
    topics: list[str]
    endpoints: list[Endpoint]
    template: object = None  # a prompts.PromptTemplate; None = the paper's preset
    pids: np.ndarray | None = None
    # The prompt language: a code of core/survey/languages.py ("fr") or a Language; the paper's
    # English by default. Presets and topics are asked in it, answers read in it.
    language: object = "en"


@dataclass
class Estimate:
    """What a run will send: requests, tokens, hosts and (where priced) cost in currency units."""

    n_requests: int
    n_cached: int
    prompt_tokens: int
    completion_tokens: int
    hosts: list[str]
    cost: float | None
    n_failed_before: int = 0
    n_total: int = 0


def sum_estimates(parts) -> Estimate:
    """Several estimates as one (languages, draws): counts, tokens and costs summed, hosts once
    each in order; the cost unknown only when every part's is."""
    hosts: list[str] = []
    for p in parts:
        hosts += [h for h in p.hosts if h not in hosts]
    costs = [p.cost for p in parts if p.cost is not None]
    return Estimate(
        n_requests=sum(p.n_requests for p in parts),
        n_cached=sum(p.n_cached for p in parts),
        prompt_tokens=sum(p.prompt_tokens for p in parts),
        completion_tokens=sum(p.completion_tokens for p in parts),
        hosts=hosts,
        cost=sum(costs) if costs else None,
        n_failed_before=sum(p.n_failed_before for p in parts),
        n_total=sum(p.n_total for p in parts),
    )


@dataclass
class Answer:
    """One point x topic x model: prompt, completion text and its rating.

    `failed`: the request failed after its retries (or was rejected): the point was not asked,
    which is not a refusal and stays out of the answer rate.
    """

    pid: object
    model: str
    topic: str
    prompt: str
    completion: str | None
    rating: object  # ratings.Rating
    error: str = ""
    failed: bool = False
    language: str = "en"  # the prompt language's code


# Distinct model ids or fingerprints a run records at most (OpenAI shows a few per run).
MAX_SERVED = 100


@dataclass
class RunStats:
    """What a run really did: requests sent to endpoints (each once, however often retried),
    answers taken from the cache, and requests that failed after retries; with a Spend, the
    tokens the answers used (their `usage`) and their cost (None: no price known)."""

    n_requests: int = 0
    n_cached: int = 0
    n_failed: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float | None = None
    capabilities: str = ""  # what the answers showed (core/engine/capabilities.py, JSON)
    # What the answers (sent or from the cache) said served them: their `model` ids and
    # `system_fingerprint`s, each value once in the order the prompts met it (issue 33).
    served_models: list = field(default_factory=list)
    fingerprints: list = field(default_factory=list)

    def note_served(self, raw) -> None:
        """Take in one answer's chat.completion JSON: its model id and fingerprint."""
        if not isinstance(raw, dict):
            return
        pairs = (("model", self.served_models), ("system_fingerprint", self.fingerprints))
        for name, seen in pairs:
            value = raw.get(name)
            if value and str(value) not in seen and len(seen) < MAX_SERVED:
                seen.append(str(value))

    def add_served(self, other: RunStats) -> None:
        """Take in what another run's answers said served them (one language of a run)."""
        for m in other.served_models:
            self.note_served({"model": m})
        for fp in other.fingerprints:
            self.note_served({"system_fingerprint": fp})


@dataclass
class Result:
    """One request's outcome from run_requests: a completion or an error (never both)."""

    key: str
    prompt: str
    completion: Completion | None
    error: str = ""
    cached: bool = False
    failed: bool = False  # sent, and no answer after retries


def _answered_default(completion: Completion) -> bool:
    return bool(completion.text and completion.text.strip())


@dataclass
class RequestSettings:
    """How run_requests sends and reports; every field has a default.

    client: the ChatClient to send with (None: one for the endpoint, closed at the end).
    answered: whether a completion counts as answered in the answer rate.
    groups: lists of prompt indices (each prompt in one) that one worker sends back to back:
    prompts that begin alike (a point's topics) then reach a server that caches each slot's
    last prompt one after another. Prompts outside every group go alone.
    progress, is_cancelled, progress_every_s: progress callback (a Progress, from the calling
    thread at most every progress_every_s seconds), cancel check.
    offset, total, answered_before, failed_before: where this call sits in a larger run, for the
    progress: prompts done before it, prompts of the whole run (None: this call's), answered
    and failed among those done before.
    stats: when given, added to: requests sent, answers from the cache, requests that failed.
    spend: a core/engine/budget.py Spend counting the answers' tokens and cost; once it passes
    its limit no more requests start and run_requests raises BudgetExceededError (what arrived is
    cached).
    answer_format: the prompt language's answer for constrained endpoints
    (ChatClient.request_body); None: English.
    draw: which answer to the same body this is (core/engine/cache.py request_key): the sampled
    score's draws and a run's repeats are cached apart under it; 0: the one answer a body has.
    """

    client: ChatClient | None = None
    answered: Callable[[Completion], bool] = _answered_default
    groups: list[list[int]] | None = None
    progress: Callable[[Progress], None] | None = None
    is_cancelled: Callable[[], bool] | None = None
    progress_every_s: float = 0.2
    offset: int = 0
    total: int | None = None
    answered_before: int = 0
    failed_before: int = 0
    stats: RunStats | None = None
    spend: Spend | None = None
    answer_format: Any = None
    draw: int = 0


def _commit(cache: SurveyCache, leases=None) -> Callable[[list], None]:
    """The writer's commit: answers in one transaction, then the failures; then the run's
    in-flight leases of those keys end (another run waiting for one finds it stored)."""

    def commit(records: list) -> None:
        try:
            cache.put_many([(k, r) for kind, k, r in records if kind == "ok"])
            for kind, k, err in records:
                if kind == "fail":
                    cache.put_failure(k, err)
        finally:
            if leases is not None:
                leases.release([k for _kind, k, _r in records])

    return commit


def run_requests(
    prompts: list[str],
    endpoint: Endpoint,
    cache: SurveyCache,
    settings: RequestSettings | None = None,
    **fields,
) -> list[Result]:
    """Answer prompts from the cache, sending only the missing ones; one Result per prompt.

    Identical prompts are sent once. Answers are committed as they arrive, so a cancel or a crash
    loses at most the requests in flight. EndpointError stops the run and is raised (answers that
    arrived before are kept).

    Parameters
    ----------
    prompts : list of str
        What to ask, in order.
    endpoint : Endpoint
        Whom to ask (its concurrency is the number of worker threads).
    cache : SurveyCache
        Where answers are looked up and stored.
    settings : RequestSettings, optional
        How to send and report.
    **fields
        RequestSettings fields replacing those of `settings` (as keyword arguments).

    Returns
    -------
    list of Result
        One per prompt, in the prompts' order.
    """
    opt = replace(settings or RequestSettings(), **fields)
    client = opt.client or ChatClient(endpoint)
    with gc_paused():
        bodies = [client.request_body(p, opt.answer_format) for p in prompts]
        keys = [cache.key(endpoint, b, opt.draw) for b in bodies]
        stored = cache.get_many(keys)
    pending = [k for k in dict.fromkeys(keys) if k not in stored]
    body_of = dict(zip(keys, bodies))
    prompts_of = dict(zip(keys, prompts))
    budget = endpoint.completion_budget()
    got: dict[str, Completion] = {}
    errors: dict[str, str] = {}
    with gc_paused():
        for k, resp in stored.items():
            try:
                got[k] = completion_from_response(resp)
            except TransientError:
                pending.append(k)
    count_of: dict[str, int] = {}
    for k in keys:
        count_of[k] = count_of.get(k, 0) + 1
    start = Counts(opt.offset, opt.answered_before, opt.failed_before)
    for k in keys:
        if k in got:
            start.done += 1
            start.answered += opt.answered(got[k])

    # Prompts that failed in an earlier run ("this prompt only") are asked once more, after the
    # unasked ones, and their failures never count towards calling the endpoint broken.
    failed_before = set(cache.failures(pending)) if pending else set()
    queued: set[str] = set()
    wanted = set(pending) - failed_before
    units = []
    for g in opt.groups if opt.groups is not None else [[i] for i in range(len(prompts))]:
        unit = [keys[i] for i in g if keys[i] in wanted and keys[i] not in queued]
        queued.update(unit)
        units.append(unit)
    units += [[k] for k in pending if k not in queued and k not in failed_before]
    units += [[k] for k in dict.fromkeys(pending) if k in failed_before]
    started: set[str] = set()

    def probe(failing: set, untried_ok: bool) -> bool | None:
        """Send one known-good prompt afresh (else, for a transient kind of failure, one not
        asked yet): answered means the endpoint works and the failing prompts fail alone."""
        good = next((k for k in got if k not in failing), None)
        if good is None and untried_ok:
            good = next((k for k in pending if k not in started and k not in failed_before
                         and k not in failing), None)  # fmt: skip
        if good is None:
            return None
        try:
            completion_from_response(client._post_once(body_of[good]))
        except TransientError as e:
            return bool(e.cause is not None and e.cause.throttled)  # alive, only busy
        except Exception:  # noqa: BLE001 - any failure of the probe: broken
            return False
        return True

    # Runs sharing the cache file never send the same request at once: each key is leased
    # while in flight (the lease ends once its answer or failure is committed).
    leases = cache.leases() if pending and hasattr(cache, "leases") else None
    shared: set[str] = set()  # answered by another run while this one waited
    deferred: list[str] = []  # held by another run: asked after the rest, waiting for it
    held_by_batch: set[str] = set()  # held by an open provider batch: not sent

    def ask(k: str, should_stop: Callable[[], bool], wait: bool = False) -> Step | None:
        n = count_of[k]
        if leases is not None:
            if wait:
                other = leases.acquire(k, should_stop)
            else:
                held, other = leases.try_acquire(k)
                if not held and other is None:
                    deferred.append(k)  # another run asks it now: go on with the next one
                    return None
            if other is False:
                return None  # cancelled while another run asked it
            if other is not None:  # another run answered it meanwhile: nothing to send
                try:
                    completion = completion_from_response(other)
                except TransientError:
                    pass  # not an answer after all: ask it (the lease is not held: rare)
                else:
                    got[k] = completion
                    shared.add(k)
                    return Step(n, answered=opt.answered(completion) * n)
        started.add(k)
        streak.asking(k)
        try:
            completion = client.post(body_of[k], should_stop)
        except RequestError as e:
            if should_stop():
                if leases is not None:
                    leases.release([k])
                return None  # cancelled while waiting: not a failure of the endpoint
            errors[k] = str(e)
            return Step(n, failed=n, error=str(e), records=[("fail", k, str(e))])
        except BaseException:
            if leases is not None:
                leases.release([k])
            raise
        got[k] = completion
        if opt.spend is not None:
            opt.spend.add(completion.usage, prompts_of[k], budget)
        return Step(n, answered=opt.answered(completion) * n, records=[("ok", k, completion.raw)])

    # EndpointError from a request stops the engine and is raised once its threads are done;
    # the failure policy raises one (EndpointStoppedError) when the endpoint keeps failing the same
    # way, told about every attempt by the HTTP client.
    in_flight = max(1, min(endpoint.concurrency, sum(1 for u in units if u)))
    streak = FailureStreak(concurrency=in_flight, gone=_process_gone(endpoint), probe=probe,
                           excused=failed_before)  # fmt: skip
    watch_before, client.http.watch = client.http.watch, streak
    stop = opt.is_cancelled
    if opt.spend is not None:  # the limit stops the run as a cancel does, then is raised

        def stop(user=opt.is_cancelled, spend=opt.spend):
            return spend.exceeded() or (user is not None and user())

    engine = Engine(
        EngineSettings(endpoint.concurrency, opt.progress_every_s),
        opt.progress,
        stop,
        commit=_commit(cache, leases),
        writer_close=cache.close,
        waiting=client.http.throttle.waiting,
    )
    try:
        total = len(prompts) if opt.total is None else opt.total
        outcome = engine.run(units, ask, total, start)
        if deferred and not outcome.cancelled and not outcome.stopped:
            # What other runs were asking: wait for their answers (or their leases to end).
            c = outcome.counts
            then = Counts(start.done + c.done, start.answered + c.answered,
                          start.failed + c.failed)  # fmt: skip
            later = list(dict.fromkeys(deferred))
            # What an open provider batch holds is left to it: its answers arrive with the
            # batch's import (hours away), not worth waiting for nor paying twice.
            if hasattr(cache, "batch_held"):
                held_by_batch.update(cache.batch_held(later))
                later = [k for k in later if k not in held_by_batch]
            engine.run([[k] for k in later], lambda k, stop: ask(k, stop, wait=True), total,
                       then)  # fmt: skip
    finally:
        client.http.watch = watch_before
        if leases is not None:
            leases.close()
        if opt.client is None:
            client.close()  # its pooled connections would otherwise linger (ResourceWarning)
    out = []
    for k, p in zip(keys, prompts):
        c = got.get(k)
        unsent = "not sent (an open provider batch holds it)" if k in held_by_batch else \
            "not sent (cancelled)"  # fmt: skip
        err = "" if c is not None else errors.get(k, unsent)
        out.append(Result(k, p, c, err, cached=k in stored, failed=c is None and k in errors))
    if opt.stats is not None:
        from_cache = {k for k in keys if (k in stored or k in shared) and k in got}
        opt.stats.n_cached += sum(count_of[k] for k in from_cache)
        opt.stats.n_requests += sum(1 for k in pending if (k in got and k not in shared)
                                    or k in errors)  # fmt: skip
        opt.stats.n_failed += len(errors)
        for k in dict.fromkeys(keys):
            if k in got:
                opt.stats.note_served(got[k].raw)
    if opt.spend is not None and opt.spend.exceeded():
        raise BudgetExceededError(opt.spend)
    return out


def _process_gone(endpoint: Endpoint):
    """For the embedded model: why its child process ended (None while it runs)."""
    if endpoint.provider != "embedded":
        return None
    from ..runtime.embedded import exit_reason

    return lambda: exit_reason(endpoint.base_url)


@dataclass
class RatingCheck:
    """One real rating prompt sent to an endpoint (a connection test): the prompt, what came
    back and what it says (`rating.answered`: the answer held a rating)."""

    prompt: str
    text: str | None
    rating: object  # ratings.Rating


# The connection test's point: central Paris, which every gazetteer names.
CHECK_POINT = (2.3522, 48.8566)


def check_rating(endpoint: Endpoint, gazetteer, topic: str = "Infant Mortality Rate",
                 template=None, point=CHECK_POINT) -> RatingCheck:  # fmt: skip
    """Send one rating prompt as a survey would (same body, its constraint included) and read
    the answer; nothing is cached. Raises RequestError or EndpointError as a survey would."""
    from .prompts import PRESETS, build_prompts
    from .ratings import rate_completion

    template = template if template is not None else PRESETS["geollm"]
    (prompt,) = build_prompts(np.array([point[0]]), np.array([point[1]]), topic, gazetteer,
                              template)  # fmt: skip
    client = ChatClient(endpoint)
    try:
        completion = client.post(client.request_body(prompt))
    finally:
        client.close()
    rating = rate_completion(completion.text, completion.logprobs_content)
    return RatingCheck(prompt, completion.text, rating)


def _language(spec: SurveySpec):
    from .languages import get_language

    return get_language(spec.language)


def _prompts_for(spec: SurveySpec, gazetteer, topic: str) -> list[str]:
    from .prompts import PRESETS

    template = spec.template if spec.template is not None else PRESETS["geollm"]
    lon, lat = np.asarray(spec.lon), np.asarray(spec.lat)
    return _language(spec).build_prompts(lon, lat, topic, gazetteer, template)


def plan_prompts(spec: SurveySpec, gazetteer, limit: int | None = None):
    """(the first `limit` prompts of the spec's first topic, its prompt language): what a
    caller needs to find their requests' cache keys."""
    one = spec
    if limit is not None:
        one = replace(spec, lon=np.asarray(spec.lon)[:limit], lat=np.asarray(spec.lat)[:limit],
                      pids=None)  # fmt: skip
    return _prompts_for(one, gazetteer, spec.topics[0]), _language(spec)


def prompt_tokens_at(spec: SurveySpec, gazetteer) -> float:
    """Mean estimated prompt tokens of the spec's topics at its first point: what one request
    costs before the points are known (the size guard's estimate)."""
    one = replace(spec, lon=np.asarray(spec.lon)[:1], lat=np.asarray(spec.lat)[:1], pids=None)
    counts = [estimate_tokens(p) for t in spec.topics for p in _prompts_for(one, gazetteer, t)]
    return sum(counts) / len(counts) if counts else 0.0


def _plan(spec: SurveySpec, gazetteer) -> list[tuple[Endpoint, str, list[str]]]:
    """(endpoint, topic, prompts), endpoint by endpoint; prompts are built once per topic."""
    by_topic = {t: _prompts_for(spec, gazetteer, t) for t in spec.topics}
    return [(ep, t, by_topic[t]) for ep in spec.endpoints for t in spec.topics]


def estimate(spec: SurveySpec, gazetteer, cache: SurveyCache, draw: int = 0) -> Estimate:
    """What run_survey would send now (under draw index `draw`): requests not cached, tokens,
    hosts and cost."""
    n_req = n_cached = n_failed = prompt_tok = compl_tok = n_total = 0
    cost = 0.0
    priced = False
    hosts: list[str] = []
    language = _language(spec)
    for ep, _topic, prompts in _plan(spec, gazetteer):
        client = ChatClient(ep)
        keys = {}
        for p in prompts:
            keys.setdefault(cache.key(ep, client.request_body(p, language), draw), p)
        client.close()
        have = cache.has_many(keys)
        todo = [k for k in keys if k not in have]
        n_total += len(prompts)
        n_cached += len(prompts) - len(todo)
        n_req += len(todo)
        n_failed += len(cache.failures(todo))
        p_tok = sum(estimate_tokens(keys[k]) for k in todo)
        c_tok = ep.completion_budget() * len(todo)
        prompt_tok += p_tok
        compl_tok += c_tok
        if todo and ep.host() not in hosts:
            hosts.append(ep.host())
        if ep.price_in is not None or ep.price_out is not None:
            priced = True
            cost += (p_tok * (ep.price_in or 0.0) + c_tok * (ep.price_out or 0.0)) / 1e6
    return Estimate(
        n_req, n_cached, prompt_tok, compl_tok, hosts, cost if priced else None, n_failed, n_total
    )


def run_survey(
    spec: SurveySpec,
    gazetteer,
    cache: SurveyCache,
    progress: Callable[[Progress], None] | None = None,
    is_cancelled: Callable[[], bool] | None = None,
    stats: RunStats | None = None,
    spend: Spend | None = None,
    draw: int = 0,
) -> list[Answer]:
    """Run (or resume) a survey; one Answer per endpoint x topic x point, in that order.

    Parameters
    ----------
    spec : SurveySpec
        Points, topics, endpoints and template.
    gazetteer : Gazetteer
        Names the places in the prompts.
    cache : SurveyCache
        Where answers are looked up and stored.
    progress : callable, optional
        Receives a Progress over the whole survey (all endpoints and topics).
    is_cancelled : callable, optional
        Polled between requests and while waiting.
    stats : RunStats, optional
        Receives what was sent, taken from the cache and failed.
    spend : Spend, optional
        Counts the answers' tokens and cost; past its limit the run stops with BudgetExceededError.
    draw : int
        The draw index every request is cached under (RequestSettings.draw).

    Returns
    -------
    list of Answer
    """
    from .ratings import rate_completion

    plan = _plan(spec, gazetteer)
    language = _language(spec)
    parser = language.parser
    total = sum(len(p) for _, _, p in plan)
    pids = spec.pids if spec.pids is not None else np.arange(len(spec.lon))
    answers: list[Answer] = []
    offset = n_answered = n_failed = 0
    # One run per endpoint with its topics interleaved point by point, each point's topics sent
    # back to back by one worker: their prompts differ only at the end, and a server that keeps
    # each slot's last prompt cached (llama.cpp) processes only that end: 26 new prompt tokens
    # instead of ~180 for the embedded Gemma, 1.17x the requests/s on two topics (bench_llm.py).
    n_topics = len(spec.topics)
    for e, ep in enumerate(spec.endpoints):
        if is_cancelled is not None and is_cancelled():
            break
        # id(completion) -> Rating, parsed once per completion (this endpoint's results keep
        # their completions alive, so an id is not reused while the dict lives)
        rated: dict[int, object] = {}

        def rate(c: Completion, rated=rated):
            r = rated.get(id(c))
            if r is None:
                r = rated[id(c)] = rate_completion(c.text, c.logprobs_content, parser)
            return r

        by_topic = [p for _e, _t, p in plan[e * n_topics : (e + 1) * n_topics]]
        n_points = len(by_topic[0]) if by_topic else 0
        prompts = [by_topic[j][i] for i in range(n_points) for j in range(n_topics)]
        groups = [list(range(i * n_topics, (i + 1) * n_topics)) for i in range(n_points)]
        settings = RequestSettings(
            answered=lambda c, rate=rate: rate(c).answered,
            groups=groups,
            progress=progress,
            is_cancelled=is_cancelled,
            offset=offset,
            total=total,
            answered_before=n_answered,
            failed_before=n_failed,
            stats=stats,
            spend=spend,
            answer_format=language,
            draw=draw,
        )
        results = run_requests(prompts, ep, cache, settings)
        offset += len(prompts)
        with gc_paused():
            for j, topic in enumerate(spec.topics):
                found = _answers(pids, results[j::n_topics], ep, topic, rate)
                for a in found:
                    a.language = language.code
                answers.extend(found)
        n_answered = sum(a.rating.answered for a in answers)
        n_failed = sum(a.failed for a in answers)
    return answers


def _answers(pids, results, ep, topic, rate):
    """Answers for one endpoint x topic from run_requests results."""
    from .ratings import rate_completion

    out = []
    for pid, res in zip(pids, results):
        c = res.completion
        rating = rate(c) if c is not None else rate_completion(None, None)
        text = c.text if c else None
        out.append(Answer(pid, ep.model, topic, res.prompt, text, rating, res.error, res.failed))
    return out
