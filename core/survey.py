"""Survey runner: points x topics x models -> cached requests -> answers with ratings."""

from __future__ import annotations

import contextlib
import gc
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .cache import SurveyCache
from .llm import (
    ChatClient,
    Completion,
    Endpoint,
    EndpointError,
    RequestError,
    TransientError,
    completion_from_response,
    estimate_tokens,
)


@dataclass
class SurveySpec:
    """What to ask: points, topics, models and the prompt template."""

    lon: np.ndarray
    lat: np.ndarray
    topics: list[str]
    endpoints: list[Endpoint]
    template: object = None  # a prompts.PromptTemplate; None = the paper's preset
    pids: np.ndarray | None = None
    # The prompt language: a code of core/languages.py ("fr") or a Language; the paper's
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


@dataclass
class RunStats:
    """What a run really did: requests sent to endpoints (each once, however often retried),
    answers taken from the cache, and requests that failed after retries."""

    n_requests: int = 0
    n_cached: int = 0
    n_failed: int = 0


@dataclass
class Progress:
    """Run progress for the progress bar: done/total, requests per second, ETA, answer rate."""

    done: int
    total: int
    rate: float
    eta_s: float
    answer_rate: float


@dataclass
class Result:
    """One request's outcome from run_requests: a completion or an error (never both)."""

    key: str
    prompt: str
    completion: Completion | None
    error: str = ""
    cached: bool = False
    failed: bool = False  # sent, and no answer after retries


@dataclass
class _Counter:
    done: int = 0
    answered: int = 0
    failed: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


class _Writer:
    """One thread committing answers as they arrive; what queues up during a commit goes in the
    next one, so a crash loses at most the requests in flight and one short batch."""

    def __init__(self, cache: SurveyCache, batch: int = 512):
        self.cache, self.batch = cache, batch
        self.q: queue.Queue = queue.Queue()
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, name="survey-cache-writer", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        stop = False
        while not stop:
            items = [self.q.get()]
            while len(items) < self.batch:
                try:
                    items.append(self.q.get_nowait())
                except queue.Empty:
                    break
            if None in items:
                stop = True
                items = [i for i in items if i is not None]
            answers = [(k, r) for kind, k, r in items if kind == "ok"]
            try:
                self.cache.put_many(answers)
                for kind, k, err in items:
                    if kind == "fail":
                        self.cache.put_failure(k, err)
            except BaseException as e:  # surfaced to the caller by close()
                self.error = e
        self.cache.close()

    def answer(self, key: str, response: dict) -> None:
        self.q.put(("ok", key, response))

    def failure(self, key: str, error: str) -> None:
        self.q.put(("fail", key, error))

    def close(self) -> None:
        self.q.put(None)
        self.thread.join()
        if self.error is not None:
            raise self.error


@contextlib.contextmanager
def _gc_paused():
    """Pause the cyclic garbage collector while building many small dicts (halves resume time)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _answered_default(completion: Completion) -> bool:
    return bool(completion.text and completion.text.strip())


def run_requests(
    prompts: list[str],
    endpoint: Endpoint,
    cache: SurveyCache,
    client: ChatClient | None = None,
    progress: Callable[[Progress], None] | None = None,
    is_cancelled: Callable[[], bool] | None = None,
    answered: Callable[[Completion], bool] = _answered_default,
    progress_every_s: float = 0.2,
    offset: int = 0,
    total: int | None = None,
    answered_before: int = 0,
    stats: RunStats | None = None,
    failed_before: int = 0,
    groups: list[list[int]] | None = None,
    answer_format=None,
) -> list[Result]:
    """Answer prompts from the cache, sending only the missing ones; one Result per prompt.

    Identical prompts are sent once. Answers are committed as they arrive, so a cancel or a crash
    loses at most the requests in flight. EndpointError stops the run and is raised (answers that
    arrived before are kept). `stats`, when given, is added to: requests sent, answers
    from the cache, requests that failed. `groups` (lists of prompt indices, each prompt in one)
    are sent one after another by one worker: prompts that begin alike (a point's topics) then
    reach a server that caches each slot's last prompt back to back. `answer_format`: the
    prompt language's answer for constrained endpoints (ChatClient.request_body).
    """
    owns_client = client is None
    client = client or ChatClient(endpoint)
    with _gc_paused():
        bodies = [client.request_body(p, answer_format) for p in prompts]
        keys = [cache.key(endpoint, b) for b in bodies]
        stored = cache.get_many(keys)
    pending = [k for k in dict.fromkeys(keys) if k not in stored]
    body_of = dict(zip(keys, bodies))
    got: dict[str, Completion] = {}
    errors: dict[str, str] = {}
    with _gc_paused():
        for k, resp in stored.items():
            try:
                got[k] = completion_from_response(resp)
            except TransientError:
                pending.append(k)

    total = len(prompts) if total is None else total
    counter = _Counter()
    count_of: dict[str, int] = {}
    for k in keys:
        count_of[k] = count_of.get(k, 0) + 1
    for k in keys:
        if k in got:
            counter.done += 1
            counter.answered += answered(got[k])
    t0 = time.monotonic()
    done_cached = counter.done
    last_report = [0.0]

    def report(force: bool = False) -> None:
        if progress is None:
            return
        now = time.monotonic()
        if not force and now - last_report[0] < progress_every_s:
            return
        last_report[0] = now
        with counter.lock:
            done, n_ans, n_fail = counter.done, counter.answered, counter.failed
        rate = (done - done_cached) / max(now - t0, 1e-9)
        left = total - offset - done
        eta = left / rate if rate > 0 else float("inf")
        n_done, n_ans = offset + done, answered_before + n_ans
        # Failed requests were not asked: they are outside the answer rate.
        n_asked = n_done - failed_before - n_fail
        progress(Progress(n_done, total, rate, eta, n_ans / n_asked if n_asked else 0.0))

    stop = threading.Event()
    fatal: list[EndpointError] = []
    cancelled = is_cancelled or (lambda: False)

    def should_stop() -> bool:
        return stop.is_set() or cancelled()

    work: queue.Queue = queue.Queue()
    if groups is None:
        groups = [[i] for i in range(len(prompts))]
    queued: set[str] = set()
    wanted = set(pending)
    for g in groups:
        batch = [keys[i] for i in g if keys[i] in wanted and keys[i] not in queued]
        queued.update(batch)
        if batch:
            work.put(batch)
    for k in pending:  # prompts outside every group go alone
        if k not in queued:
            queued.add(k)
            work.put([k])
    writer = _Writer(cache)

    def worker() -> None:
        batch: list[str] = []
        while not should_stop():
            if not batch:
                try:
                    batch = list(work.get_nowait())
                except queue.Empty:
                    return
            k = batch.pop(0)
            try:
                completion = client.post(body_of[k], should_stop)
            except EndpointError as e:
                fatal.append(e)
                stop.set()
                return
            except RequestError as e:
                if should_stop():
                    return  # cancelled while waiting: not a failure of the endpoint
                errors[k] = str(e)
                writer.failure(k, str(e))
                with counter.lock:
                    counter.done += count_of[k]
                    counter.failed += count_of[k]
                continue
            writer.answer(k, completion.raw)
            got[k] = completion
            ok = answered(completion)
            with counter.lock:
                counter.done += count_of[k]
                counter.answered += ok * count_of[k]

    n_threads = max(1, min(endpoint.concurrency, work.qsize()))
    threads = [threading.Thread(target=worker, daemon=True) for _ in range(n_threads)]
    for t in threads:
        t.start()
    try:
        for t in threads:
            while t.is_alive():
                t.join(progress_every_s)
                if cancelled():
                    stop.set()
                report()
    finally:
        stop.set()
        for t in threads:
            t.join()
        writer.close()
        if owns_client:
            client.close()  # its pooled connections would otherwise linger (ResourceWarning)
    report(force=True)
    if fatal:
        raise fatal[0]
    out = []
    for k, p in zip(keys, prompts):
        c = got.get(k)
        err = "" if c is not None else errors.get(k, "not sent (cancelled)")
        out.append(Result(k, p, c, err, cached=k in stored, failed=c is None and k in errors))
    if stats is not None:
        from_cache = {k for k in keys if k in stored and k in got}
        stats.n_cached += sum(count_of[k] for k in from_cache)
        stats.n_requests += sum(1 for k in pending if k in got or k in errors)
        stats.n_failed += len(errors)
    return out


def _language(spec: SurveySpec):
    from .languages import get_language

    return get_language(spec.language)


def _prompts_for(spec: SurveySpec, gazetteer, topic: str) -> list[str]:
    from .prompts import PRESETS

    template = spec.template if spec.template is not None else PRESETS["geollm"]
    lon, lat = np.asarray(spec.lon), np.asarray(spec.lat)
    return _language(spec).build_prompts(lon, lat, topic, gazetteer, template)


def _plan(spec: SurveySpec, gazetteer) -> list[tuple[Endpoint, str, list[str]]]:
    """(endpoint, topic, prompts), endpoint by endpoint; prompts are built once per topic."""
    by_topic = {t: _prompts_for(spec, gazetteer, t) for t in spec.topics}
    return [(ep, t, by_topic[t]) for ep in spec.endpoints for t in spec.topics]


def estimate(spec: SurveySpec, gazetteer, cache: SurveyCache) -> Estimate:
    """What run_survey would send now: requests not cached, tokens, hosts and cost."""
    n_req = n_cached = n_failed = prompt_tok = compl_tok = n_total = 0
    cost = 0.0
    priced = False
    hosts: list[str] = []
    language = _language(spec)
    for ep, _topic, prompts in _plan(spec, gazetteer):
        client = ChatClient(ep)
        keys = {}
        for p in prompts:
            keys.setdefault(cache.key(ep, client.request_body(p, language)), p)
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
) -> list[Answer]:
    """Run (or resume) a survey; one Answer per endpoint x topic x point, in that order.

    `stats`, when given, receives what was sent, taken from the cache and failed.
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
        results = run_requests(
            prompts,
            ep,
            cache,
            progress=progress,
            is_cancelled=is_cancelled,
            answered=lambda c, rate=rate: rate(c).answered,
            offset=offset,
            total=total,
            answered_before=n_answered,
            stats=stats,
            failed_before=n_failed,
            groups=groups,
            answer_format=language,
        )
        offset += len(prompts)
        with _gc_paused():
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
