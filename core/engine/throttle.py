"""Throttling waited out: an endpoint that says "too many requests" is waited for, not given up on.

A throttled attempt (HTTP 429 that is not a spent quota, 503, 529, or any answer whose
``x-ratelimit-*`` headers say nothing is left) makes every request of the run wait until the
server's time (Retry-After, the reset headers, else the back-off), halves the requests in flight
(AIMD: multiplicative decrease once per throttled window, +1/limit per answer back up to the
endpoint's concurrency), and the run stops only after `patience` seconds throttled without a
single answer. A 429 without ``x-ratelimit-*`` headers names no rate, so the rate is learned
(`Throttle.throttled` with `pace`): requests are spaced at RATE_CUT of the answers a second of
the last RATE_WINDOW_S seconds, and the rate rises by RATE_CLIMB of that a minute while answers
come; unpaced, each Retry-After ended in a burst that drew the next 429 (11.6% of requests at
600 rpm).
Time is read through a `Clock`, so core tests wait on a fake one.
"""

from __future__ import annotations

import email.utils
import math
import re
import threading
import time
from collections import deque
from collections.abc import Callable

__all__ = [
    "DEFAULT_PATIENCE_S",
    "REAL_CLOCK",
    "Clock",
    "FakeClock",
    "Pace",
    "Throttle",
    "parse_duration",
    "parse_retry_after",
    "ratelimit_wait",
]

DEFAULT_PATIENCE_S = 1800.0  # 30 minutes: long enough for a provider's quota window
# Statuses that mean "too many requests now" (Anthropic says 529 when overloaded).
THROTTLE_STATUS = frozenset({429, 503, 529})
# The learned rate (a 429 that names no rate): cut to RATE_CUT of the answers of the last
# RATE_WINDOW_S seconds, then raised by RATE_CLIMB of that a minute of answers, never below
# RATE_MIN_PER_S.
RATE_WINDOW_S = 10.0
RATE_CUT = 0.9
RATE_CLIMB = 0.1
RATE_MIN_PER_S = 1.0 / 60.0


class Clock:
    """Monotonic time and sleeping, in one place a test can replace."""

    def now(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        time.sleep(max(0.0, seconds))


REAL_CLOCK = Clock()


class FakeClock(Clock):
    """A clock whose sleep advances time at once (core tests of waits that last minutes)."""

    def __init__(self, start: float = 1000.0):
        self.t = float(start)
        self.slept = 0.0
        self._lock = threading.Lock()

    def now(self) -> float:
        with self._lock:
            return self.t

    def sleep(self, seconds: float) -> None:
        with self._lock:
            self.t += max(0.0, seconds)
            self.slept += max(0.0, seconds)
        time.sleep(0.0005)  # let the other threads run


_PART = re.compile(r"(\d+(?:\.\d+)?)(ms|h|m|s)")


def _wait_header(value: str | None, other: Callable[[str], float | None]) -> float | None:
    """Seconds from a wait header: a plain number of seconds (never negative), else what
    `other` reads from the stripped text; None when absent or unreadable."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        return other(value)


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a Retry-After header: a number of seconds or an HTTP date.

    Parameters
    ----------
    value : str or None
        The header's value.
    now : float, optional
        The current time (seconds since the epoch) for an HTTP date; default time.time().

    Returns
    -------
    float or None
        Seconds (never negative), None when the header is absent or unreadable.
    """

    def until(text: str) -> float | None:
        try:
            when = email.utils.parsedate_to_datetime(text)
        except (TypeError, ValueError):
            return None
        if when is None:
            return None
        return max(0.0, when.timestamp() - (time.time() if now is None else now))

    return _wait_header(value, until)


def _go_duration(text: str) -> float | None:
    """Seconds of a Go-style duration ("6m0s", "59.5ms"); None if the text is not one."""
    parts = _PART.findall(text)
    if not parts or "".join(a + b for a, b in parts) != text.replace(" ", ""):
        return None
    scale = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}
    return sum(float(a) * scale[b] for a, b in parts)


def parse_duration(value: str | None) -> float | None:
    """Seconds from a rate-limit reset header: "1s", "6m0s", "59.5ms", "1h2m3s" (OpenAI's form)
    or a plain number of seconds; None when absent or unreadable."""
    return _wait_header(value, _go_duration)


def ratelimit_wait(headers) -> float | None:
    """Seconds until the endpoint takes requests again by its ``x-ratelimit-*`` headers: the
    reset of every budget (requests, tokens) whose remaining count is 0; None if none is."""
    get = headers.get
    waits = []
    for budget in ("requests", "tokens"):
        left = get(f"x-ratelimit-remaining-{budget}")
        try:
            empty = left is not None and float(left) <= 0
        except ValueError:
            empty = False
        if empty:
            wait = parse_duration(get(f"x-ratelimit-reset-{budget}"))
            waits.append(1.0 if wait is None else wait)
    return max(waits) if waits else None


class Pace:
    """What every run asking one endpoint shares (http_client.shared_pace): the server's time
    ("wait until"), and the learned rate with the answers it is learned from; each run's own
    throttle reads it, so two jobs on one endpoint wait together and together keep its rate."""

    def __init__(self):
        self.until = -math.inf  # no request goes out before this (clock time)
        # The learned rate in requests a second (None: unpaced, until a 429 names no rate),
        # the rate it was last cut to, and the clock time the next request may go out.
        self.rate: float | None = None
        self.rate_cut: float | None = None
        self.next_at = -math.inf
        self.cut_after = -math.inf  # the next throttled answer after this cuts the rate
        self.cause = None  # the last throttled attempt's Cause, whichever run saw it
        self.started: float | None = None  # the first request's clock time
        self.answers: deque = deque()  # clock times of the answers of the last RATE_WINDOW_S
        self.lock = threading.Lock()  # taken inside a Throttle's condition, never around one


class Throttle:
    """What every request of one run waits for: the server's throttle, and AIMD concurrency.

    Parameters
    ----------
    concurrency : int
        Requests in flight at most (the limit never rises above it).
    patience_s : float
        Seconds throttled without an answer after which the run stops.
    clock : Clock, optional
        Where time is read (a FakeClock in core tests).
    pace : Pace, optional
        The server's time and the learned rate, shared with the other runs on the endpoint;
        default this run's own.
    """

    def __init__(self, concurrency: int = 4, patience_s: float = DEFAULT_PATIENCE_S,
                 clock: Clock | None = None, pace: Pace | None = None):  # fmt: skip
        self.max = max(1, int(concurrency))
        self.limit = float(self.max)
        self.patience_s = float(patience_s)
        self.clock = clock or REAL_CLOCK
        self.pace = pace or Pace()
        self.in_flight = 0
        self.since: float | None = None  # start of the current throttled spell (no answer since)
        self.cut_after = -math.inf  # the next throttled answer after this halves the limit
        self.cause = None  # the last throttled attempt's Cause
        self.n_throttled = 0  # throttled attempts in the run
        self.spell = 0  # throttled attempts in the current spell (for the back-off)
        self.waited_s = 0.0  # seconds the run spent throttled (spells summed)
        self.stopped: tuple | None = None  # (cause, seconds waited) once patience ran out
        self._cond = threading.Condition()

    @property
    def until(self) -> float:
        """The clock time before which no request goes out (the server's, shared)."""
        return self.pace.until

    @property
    def rate(self) -> float | None:
        """The learned rate in requests a second (shared), None while unpaced."""
        return self.pace.rate

    def enter(self, is_cancelled: Callable[[], bool] | None = None) -> bool:
        """Wait for the server's time and a free slot, then count one request in flight; False
        if cancelled while waiting (or once the run stopped)."""
        while True:
            with self._cond:
                if self.stopped is not None:
                    return False
                now = self.clock.now()
                pace = self.pace
                with pace.lock:
                    ready = max(pace.until, pace.next_at)
                    if now >= ready and self.in_flight < max(1, int(self.limit)):
                        self.in_flight += 1
                        if pace.started is None:
                            pace.started = now
                        if pace.rate is not None:  # evenly spaced, late by half a gap at most
                            gap = 1.0 / pace.rate
                            pace.next_at = max(pace.next_at, now - gap / 2) + gap
                        return True
                wait = ready - now
            if is_cancelled is not None and is_cancelled():
                return False
            if wait > 0:
                self.clock.sleep(min(wait, 0.1))
            else:
                with self._cond:  # a slot frees up when a request in flight ends
                    self._cond.wait(0.05)

    def leave(self, answered: bool = False) -> None:
        """One request in flight ended (answered: additive increase, the spell is over)."""
        with self._cond:
            self.in_flight = max(0, self.in_flight - 1)
            if answered:
                now = self.clock.now()
                if self.since is not None:
                    self.waited_s += now - self.since
                self.since, self.spell = None, 0
                self.limit = min(float(self.max), self.limit + 1.0 / max(1.0, self.limit))
                pace = self.pace
                with pace.lock:
                    pace.answers.append(now)
                    self._forget(now)
                    if pace.rate is not None:  # + RATE_CLIMB of the cut rate a minute of answers
                        pace.rate += RATE_CLIMB * pace.rate_cut / 60.0 / pace.rate
            self._cond.notify_all()

    def throttled(self, cause, wait: float, pace: bool = False) -> tuple | None:
        """A throttled attempt: requests wait `wait` seconds from now, the limit halves (once per
        window), and with `pace` (the server named no rate) so is the learned rate cut (see
        `_cut_rate`). Returns (cause, seconds throttled) once the patience is spent, else None."""
        with self._cond:
            now = self.clock.now()
            self.cause = cause
            self.n_throttled += 1
            self.spell += 1
            if self.since is None:
                self.since = now
            if self.stopped is None and now + wait - self.since > self.patience_s:
                # Waiting longer would go past the user's patience: stop now, without waiting.
                self.stopped = (cause, now - self.since)
                self._cond.notify_all()
            if self.stopped is not None:
                return self.stopped
            shared = self.pace
            with shared.lock:
                shared.cause = cause
                shared.until = max(shared.until, now + max(0.0, wait))
                if now >= self.cut_after:
                    self.limit = max(1.0, math.floor(self.limit / 2))
                    self.cut_after = shared.until
                if pace and now >= shared.cut_after:  # once per window, whichever run saw it
                    shared.cut_after = shared.until
                    self._cut_rate(now)
            return None

    def _forget(self, now: float) -> None:
        """Drop the answers older than the window (the pace's lock held)."""
        answers = self.pace.answers
        while answers and answers[0] < now - RATE_WINDOW_S:
            answers.popleft()

    def _cut_rate(self, now: float) -> None:
        """Multiplicative decrease of the learned rate: RATE_CUT of the lower of the rate and the
        answers a second over the last window (the rate the server let through). Without an
        answer in the window there is nothing to learn from: the rate only shrinks. The pace's
        lock held."""
        self._forget(now)
        pace = self.pace
        rates = [] if pace.rate is None else [pace.rate]
        if pace.answers and pace.started is not None:
            span = min(RATE_WINDOW_S, now - pace.started)
            rates.append(len(pace.answers) / max(span, 1e-3))
        if rates:
            pace.rate = max(RATE_MIN_PER_S, RATE_CUT * min(rates))
            pace.rate_cut = pace.rate

    def pace_rate(self) -> float | None:
        """The learned rate in requests a minute (None until a 429 that named no rate)."""
        with self._cond:
            rate = self.pace.rate
            return None if rate is None else rate * 60.0

    def backoff_step(self) -> int:
        """Throttled attempts so far in this spell (the exponent of a back-off without a
        server's time)."""
        with self._cond:
            return self.spell

    def waiting(self) -> tuple[float, object, float] | None:
        """(seconds left of the current wait, the throttled attempt's Cause, seconds of patience
        left) while requests wait for the server, else None: the run panel's countdown."""
        with self._cond:
            now = self.clock.now()
            until = self.pace.until
            if self.stopped is not None or now >= until:
                return None
            # Waiting for another run's throttle (this run not throttled itself): its cause.
            spent = 0.0 if self.since is None else now - self.since
            return until - now, self.cause or self.pace.cause, max(0.0, self.patience_s - spent)

    def total_waited(self) -> float:
        """Seconds the run spent throttled so far (the current spell included)."""
        with self._cond:
            extra = self.clock.now() - self.since if self.since is not None else 0.0
            return self.waited_s + extra
