"""One engine for runs of many requests (survey answers, HERB sentence batches).

Worker threads take units of work in order (a unit's items go one after another through one
worker: a point's topics reach a server back to back), a writer thread commits what each item
produced as it arrives (a crash loses at most the items in flight and one short commit), the
calling thread reports progress and watches for a cancel, and a failure policy may stop the run
(`FailureStreak`; the place for an early stop on a broken endpoint).

Progress of a run that starts with ``d0`` items done (``a0`` answered, ``f0`` failed) and has
done ``d`` more (``a`` answered, ``f`` failed) out of ``N``::

    done = d0 + d,  answer_rate = (a0 + a) / (done - f0 - f)      (failed items were not asked)

The rate and the time left follow this run's completions (`core.rates.RateTracker`: a moving
rate after a short calibration, the time left as a range); until the calibration is over the
rate is d / t and the ETA `eta_unknown`.
"""

from __future__ import annotations

import contextlib
import gc
import math
import queue
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TypeVar

from .throughput import MeasuredRate, RateSettings, RateTracker

__all__ = [
    "Counts",
    "Engine",
    "EngineSettings",
    "FailureStreak",
    "Outcome",
    "Progress",
    "Step",
    "Writer",
    "gc_paused",
]

Item = TypeVar("Item")


@dataclass
class Progress:
    """Run progress for a progress bar: done/total, items per second (the moving rate once
    calibrated), ETA, answer rate and failures so far; the ETA's range (None while the rate is
    being calibrated) and the rate measured so far (`core.rates.MeasuredRate`, None before the
    first completions: what a caller remembers between runs); the throttle's countdown."""

    done: int
    total: int
    rate: float
    eta_s: float
    answer_rate: float = 0.0
    failed: int = 0
    eta_low: float | None = None
    eta_high: float | None = None
    measured: MeasuredRate | None = None
    # While the endpoint throttles the run: seconds left of the current wait, the throttled
    # attempt's Cause and the seconds of patience left (0 / None / 0 otherwise).
    waiting_s: float = 0.0
    waiting_cause: object = None
    patience_left_s: float = 0.0


@dataclass
class Counts:
    """Items done, answered and failed."""

    done: int = 0
    answered: int = 0
    failed: int = 0


@dataclass
class Step:
    """What one finished item adds to the run.

    done, answered, failed: progress counts (an item may count for several, e.g. a prompt
    asked for several points, a batch of sentences); error: why the endpoint failed this item
    ("" when it worked; what a failure policy watches); records: what the writer commits.
    """

    done: int = 1
    answered: int = 0
    failed: int = 0
    error: str = ""
    records: list = field(default_factory=list)


class FailureStreak:
    """Stop a run on a broken endpoint, never on a few prompts it will not answer.

    Items (`observe(step)`, asked by the engine after every item): `limit` items in a row on
    which the endpoint failed (Step.error) stop the run.

    Attempts (`attempt(cause)`, told by core/engine/http_client.py after every attempt, from any
    worker; None = answered): while nothing has been answered, `first` attempts in a row that
    failed the same way (Cause.signature) stop the run; once something was answered, `later`
    failed attempts in a row (any way) do. With ``c`` requests in flight the defaults are
    ``first = min(5, c + 1)`` and ``later = max(20, 4 c)``: a fast fault (an HTML page with
    status 200) stops after at most ``first + c - 1 <= 2 c`` requests, and a server that never
    answers after two read timeouts (the first ``c`` attempts time out together, their
    retries go out at once and time out one timeout later).

    Failures by kind (issue 31): throttled attempts (429, 503) are waited out by the HTTP
    client and never count here. The streak counts distinct prompts too (the worker says
    which prompt it is asking, `asking(key)`): it must span ``min(limit, c)`` prompts before
    the first answer, ``min(limit, c + 1)`` after, so one prompt retried over and over is never
    a broken endpoint. Prompts in `excused` (failed alone in an earlier run: "this prompt
    only") do not count. And before calling the endpoint broken, `probe(keys, untried_ok)`
    sends one known-good prompt afresh (untried_ok: or one not yet asked, when the cause is a
    transient kind such as a reset); if it is answered, the streak's prompts are excused and
    the run goes on. probe returns True (answered), False (failed) or None (nothing to send).
    """

    def __init__(self, limit: int = 0, first: int = 5, later: int = 20, concurrency: int = 0,
                 gone=None, probe=None, excused=()):  # fmt: skip
        self.limit = int(limit)
        # gone() -> why the server's process ended (an embedded model's child), else None: a
        # connection failure then stops the run at once.
        self.gone = gone
        self.probe = probe
        self.excused: set = set(excused)
        self.streak = 0
        self.concurrency = int(concurrency)
        if concurrency:
            first, later = min(5, concurrency + 1), max(20, 4 * concurrency)
        self.first, self.later = int(first), int(later)
        self.answered = 0  # attempts answered
        self.failed = 0  # attempts failed in a row
        self.keys: set = set()  # the prompts of the failed attempts in a row
        self.signature = None
        self.n_probes = 0  # known-good prompts sent afresh
        self.stopped: tuple | None = None  # (cause, attempts, answered) once stopped
        self._lock = threading.Lock()
        self._local = threading.local()

    def asking(self, key) -> None:
        """The prompt this worker thread asks next (its attempts count under this key)."""
        self._local.key = key

    def observe(self, step: Step) -> str | None:
        """The reason to stop (the last error) once the streak reaches the limit, else None."""
        self.streak = self.streak + 1 if step.error else 0
        return step.error if self.limit and self.streak >= self.limit else None

    def attempt(self, cause) -> tuple | None:
        """Count one attempt (`cause` None: answered); (cause, attempts, answered) once the run
        must stop (and from then on), else None."""
        key = getattr(self._local, "key", None)
        with self._lock:
            if self.stopped is not None:
                return self.stopped
            if cause is None:
                self.answered += 1
                self.failed, self.signature = 0, None
                self.keys.clear()
                return None
            why = self.gone() if self.gone is not None and cause.kind == "connection" else None
            if why:
                self.stopped = (replace(cause, kind="ended", detail=why), self.failed + 1,
                                self.answered)  # fmt: skip
                return self.stopped
            if getattr(cause, "throttled", False) or (key is not None and key in self.excused):
                return None  # waited out, or a prompt known to fail alone
            if self.answered:
                self.failed += 1
                limit = self.later
            else:
                same = cause.signature == self.signature
                if not same:
                    self.keys.clear()
                self.failed = self.failed + 1 if same else 1
                self.signature = cause.signature
                limit = self.first
            if key is not None:
                self.keys.add(key)
            if self.failed < limit or not self._enough_prompts(limit, key):
                return None
            if self.probe is not None and self._probe_answers(cause):
                self.excused |= self.keys
                self.failed, self.signature = 0, None
                self.keys.clear()
                return None
            self.stopped = (cause, self.failed, self.answered)
            return self.stopped

    def _enough_prompts(self, limit: int, key) -> bool:
        """Whether the streak spans enough distinct prompts to say the endpoint is broken."""
        if key is None or not self.concurrency:
            return True  # the caller names no prompts (HERB's batches): attempts alone
        need = min(limit, self.concurrency + (1 if self.answered else 0))
        return len(self.keys) >= need

    def _probe_answers(self, cause) -> bool:
        """Send one known-good prompt afresh (see the class docstring); True if answered."""
        self.n_probes += 1
        untried_ok = not getattr(cause, "broken", True)
        try:
            return bool(self.probe(set(self.keys), untried_ok))
        except Exception:  # noqa: BLE001 - the probe failing is the answer: broken
            return False

    def tripped(self) -> tuple | None:
        """(cause, attempts, answered) once the run was stopped, else None."""
        return self.stopped


@dataclass
class EngineSettings:
    """How the engine runs: worker threads, how often it reports progress (0: after every
    item), the ETA it reports while no rate is known yet, and how the rate is measured."""

    concurrency: int = 1
    progress_every_s: float = 0.2
    eta_unknown: float = math.inf
    rates: RateSettings = field(default_factory=RateSettings)


@dataclass
class Outcome:
    """What a run did: this run's counts, whether a cancel was seen, and the failure policy's
    reason if it stopped the run ("" otherwise)."""

    counts: Counts
    cancelled: bool = False
    stopped: str = ""


class Writer:
    """One thread committing records as they arrive; what queues up during a commit goes in the
    next one, so a crash loses at most the items in flight and one short batch.

    Parameters
    ----------
    commit : callable
        Stores a list of records (runs in the writer thread).
    close : callable, optional
        Called in the writer thread when it ends (e.g. to close its database connection).
    batch : int
        Records per commit at most.
    """

    def __init__(self, commit: Callable[[list], None], close=None, batch: int = 512):
        self.commit, self.on_close, self.batch = commit, close, batch
        self.q: queue.Queue = queue.Queue()
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, name="geobias-writer", daemon=True)
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
            try:
                if items:
                    self.commit(items)
            except BaseException as e:  # surfaced to the caller by close()
                self.error = e
        if self.on_close is not None:
            self.on_close()

    def put(self, record) -> None:
        """Queue one record for the next commit."""
        self.q.put(record)

    def close(self) -> None:
        """Commit what is queued, end the thread; raise the first commit error."""
        self.q.put(None)
        self.thread.join()
        if self.error is not None:
            raise self.error


@contextlib.contextmanager
def gc_paused():
    """Pause the cyclic garbage collector while building many small dicts (halves resume time)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


class Engine:
    """Runs units of items on worker threads; see the module's docstring.

    Parameters
    ----------
    settings : EngineSettings
        Threads and progress reporting.
    progress : callable, optional
        Receives a Progress, always from the calling thread: at the start, then at most every
        `progress_every_s` (after every item when 0), and at the end.
    is_cancelled : callable, optional
        Polled by the calling thread and by the workers before each item (and passed to the
        work function, which may poll it while it waits).
    commit, writer_close : callable, optional
        The Writer's `commit` and `close`: each Step's records are committed as they arrive.
    policy : FailureStreak or alike, optional
        `observe(step) -> reason or None` after every item; a reason stops the run.
    waiting : callable, optional
        ``waiting() -> (seconds left, cause, patience left) or None`` (throttle.Throttle's):
        the countdown each Progress carries while the endpoint throttles the run.
    """

    def __init__(
        self,
        settings: EngineSettings | None = None,
        progress: Callable[[Progress], None] | None = None,
        is_cancelled: Callable[[], bool] | None = None,
        commit: Callable[[list], None] | None = None,
        writer_close: Callable[[], None] | None = None,
        policy=None,
        waiting=None,
    ):
        self.waiting = waiting
        self.settings = settings or EngineSettings()
        self.progress, self.is_cancelled = progress, is_cancelled
        self.commit, self.writer_close = commit, writer_close
        self.policy = policy

    def run(
        self,
        units: Iterable[Sequence[Item]],
        work: Callable[[Item, Callable[[], bool]], Step | None],
        total: int,
        start: Counts | None = None,
    ) -> Outcome:
        """Do every item of every unit unless stopped; the first exception an item raises stops
        the run and is raised here once the threads and the writer are done.

        Parameters
        ----------
        units : iterable of sequences
            Taken in order; one worker does a unit's items one after another.
        work : callable
            ``work(item, should_stop) -> Step`` on a worker thread; None: the item does not
            count (e.g. it was cut short by a cancel).
        total : int
            Items of the whole run, for the progress.
        start : Counts, optional
            Already done before this run's work (earlier parts of the run, cached answers).

        Returns
        -------
        Outcome
        """
        settings = self.settings
        start = start or Counts()
        todo: queue.Queue = queue.Queue()
        for unit in units:
            if len(unit):
                todo.put(unit)
        counts = Counts()
        outcome = Outcome(counts)
        lock = threading.Lock()
        stop = threading.Event()
        ticks: queue.Queue = queue.Queue()  # one per finished item, None per finished worker
        raised: list[BaseException] = []
        check = self.is_cancelled

        def should_stop() -> bool:
            if stop.is_set():
                return True
            if check is not None and check():
                outcome.cancelled = True
                stop.set()
                return True
            return False

        writer = Writer(self.commit, self.writer_close) if self.commit is not None else None
        tracker = RateTracker(settings.rates)

        def absorb(step: Step) -> None:
            if writer is not None:
                for record in step.records:
                    writer.put(record)
            with lock:
                counts.done += step.done
                tracker.observe(time.monotonic(), counts.done)  # at the completion itself
                counts.answered += step.answered
                counts.failed += step.failed
                reason = self.policy.observe(step) if self.policy is not None else None
                if reason is not None and not outcome.stopped:
                    outcome.stopped = reason
                    stop.set()
            ticks.put(1)

        def worker() -> None:
            try:
                while not should_stop():
                    try:
                        unit = todo.get_nowait()
                    except queue.Empty:
                        return
                    for item in unit:
                        if should_stop():
                            return
                        step = work(item, should_stop)
                        if step is not None:
                            absorb(step)
            except BaseException as e:  # raised by run() once everything has stopped
                raised.append(e)
                stop.set()
            finally:
                ticks.put(None)

        t0 = time.monotonic()
        tracker.observe(t0, 0)
        last = [-math.inf]

        def report(force: bool = False) -> None:
            if self.progress is None:
                return
            now = time.monotonic()
            if not force and now - last[0] < settings.progress_every_s:
                return
            last[0] = now
            with lock:
                d, a, f = counts.done, counts.answered, counts.failed
                moving = tracker.rate(now)
                left = tracker.time_left(total - start.done - d, now)
                measured = tracker.overall()
            rate = moving.per_s if moving is not None else d / max(now - t0, 1e-9)
            done = start.done + d
            eta, low, high = settings.eta_unknown, None, None
            if left is not None:
                eta, low, high = left.seconds, left.low, left.high
            asked = done - start.failed - f  # failed items were not asked
            answer_rate = (start.answered + a) / asked if asked else 0.0
            p = Progress(done, total, rate, eta, answer_rate, start.failed + f, low, high,
                         measured)  # fmt: skip
            waiting = self.waiting() if self.waiting is not None else None
            if waiting is not None:
                p.waiting_s, p.waiting_cause, p.patience_left_s = waiting
            self.progress(p)

        n_threads = max(1, min(settings.concurrency, todo.qsize()))
        threads = [threading.Thread(target=worker, daemon=True) for _ in range(n_threads)]
        report(force=True)
        for t in threads:
            t.start()
        poll = settings.progress_every_s or 0.1
        try:
            alive = n_threads
            while alive:
                try:
                    tick = ticks.get(timeout=poll)
                except queue.Empty:
                    tick = 0
                alive -= tick is None
                should_stop()
                if writer is not None and writer.error is not None:
                    stop.set()  # answers can no longer be saved: stop asking
                if tick or settings.progress_every_s > 0:
                    report()
        finally:
            stop.set()
            for t in threads:
                t.join()
            if writer is not None:
                writer.close()
        report(force=True)
        if raised:
            raise raised[0]
        return outcome
