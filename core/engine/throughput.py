"""Rates measured while a run goes, the time left as a range, and rates remembered between runs.

A run's rate is not a constant of the model: on a shared machine the load comes and goes (the
same HERB run took 30 s idle and 357 s at a load of 3-6), a server pauses, a scorer returns its
sentences in batches. So every estimate here comes from the rate measured on this machine.

**Calibration.** The time to the first completion may be a model loading or a connection
opening: measurement starts at the first completion, and a tracker gives no estimate until
`min_events` more completions and `min_seconds` have passed. Then the wait for the first
completion is added back as the oldest gap, at most `warmup_gaps` typical gaps (on a loaded
machine the first wait is mostly work: leaving it out made the first estimates too short).

**Moving rate.** At each completion event k (n_k items, g_k seconds after the previous one),
with weights that halve every h seconds of the run::

    f = 2^(-g_k / h),  W_n <- f W_n + n_k,  W_g <- f W_g + g_k,  rate_h = W_n / W_g

kept for a slow half-life (steady: `half_life_s`, at least `memory` of the time measured and
`slow_gaps` typical gaps) and a fast one (follows a load that comes or goes: `fast_half_life_s`,
at least `fast_gaps` typical gaps; batches minutes apart need memories of several batches).
A wait longer than the usual one counts as it lasts (a pause slows
the rate while it goes on): with o seconds since the last completion and the typical gap
ĝ = Σ f g² / Σ f g (the gap a moment of the run falls in: completions that come in pairs or
batches do not shorten it), rate_h = f_o W_n / (f_o W_g + max(0, o - 1.5 ĝ)). The rate given is
the slow one moved toward the fast one on the log scale by d² / (d² + ν), d the distance of
their logs and ν = ĝ / W_g(fast) the fast rate's noise (one over the typical gaps it holds):
jitter leaves the slow rate, a real change moves it at once.

**Spread.** Completions are grouped into chunks of at least `chunk_s` seconds and
`chunk_events` completions; their log rates have an exponentially weighted variance v (slow
half-life) with n_eff = (Σw)²/Σw² chunks behind it and shot noise s0 (about 1/k for a chunk
of k completions). For L items left at the rate r, R = L / r seconds, after T measured
seconds, δ = d⁴ / (d² + ν) the part of the two rates' distance that stands out of the noise,
c² the squared coefficient of variation of the gaps and m the completions left::

    s² = v / n_eff + (e + δ + σ_min²) · R / (R + T) + c² / m,
    e = (k0 σ0² + n_eff max(v - s0, 0)) / (k0 + n_eff)

how well today's rate is known; how far it may move over the time left (the further ahead,
relative to what was seen, the wider; e the chunks' variance beyond shot noise, pulled toward
a shared machine's σ0 = `prior_spread` as if seen on k0 = `prior_chunks` chunks while few
were seen); how much the completions still to come vary. The range
is R·exp(±z s), z the normal quantile of `coverage` (0.8: the range should hold the actual time
in 8 runs out of 10 while the machine's load stays as it is; benchmarks/bench_rates.py
measures how often it does, and how often a load that changes later breaks it).

**Remembered rates.** `RateBook` keeps, per model and machine (`rate_key`), a running mean
and spread of the log rates of past runs in a small JSON file (the plugin keeps it beside the
survey cache, `<QGIS profile>/geobias/rates.json`). It gives a pre-run estimate before anything
is measured; its range is wide, since the load of the machine today is unknown.
"""

from __future__ import annotations

import json
import math
import os
import platform
import tempfile
import time
from dataclasses import dataclass
from statistics import NormalDist

__all__ = [
    "Checkpoint",
    "MeasuredRate",
    "RateBook",
    "RateSettings",
    "RateTracker",
    "Remembered",
    "TimeLeft",
    "machine_id",
    "rate_key",
    "replay",
    "time_left",
]


@dataclass
class RateSettings:
    """How a RateTracker measures.

    half_life_s, fast_half_life_s: seconds after which a completion weighs half, in the slow
    (steady) and the fast (following load changes) rate, at least; memory: the slow half-life
    is at least this share of the time measured; slow_gaps, fast_gaps: the half-lives are at
    least so many typical gaps. warmup_gaps: the wait for the first completion counts for at
    most so many typical gaps (the rest is a model's start). chunk_s, chunk_events: the smallest
    chunk of completions whose log rate enters the spread. min_events, min_seconds: the
    calibration (completions and seconds after the first completion before any estimate).
    coverage: the share of runs whose actual time left should fall in the range. min_spread:
    the least log-scale spread of the rate ahead (a machine's load is never known to stay as
    it is). prior_spread, prior_chunks: how much a shared machine's rate moves from chunk to
    chunk before it is seen (log scale), weighed as that many chunks.
    """

    half_life_s: float = 60.0
    fast_half_life_s: float = 10.0
    memory: float = 0.5
    slow_gaps: float = 8.0
    fast_gaps: float = 3.0
    warmup_gaps: float = 2.0
    chunk_s: float = 2.0
    chunk_events: int = 4
    min_events: int = 3
    min_seconds: float = 2.0
    coverage: float = 0.8
    min_spread: float = 0.15
    prior_spread: float = 0.3
    prior_chunks: float = 4.0


@dataclass
class MeasuredRate:
    """A tracker's rate now: items per second, the log-scale spread of the mean rate, the items
    and seconds measured (after the first completion), and whether calibration is over."""

    per_s: float
    spread: float
    n_items: int
    seconds: float
    calibrated: bool


@dataclass
class TimeLeft:
    """Seconds left: the central estimate and a range (`coverage` of runs should fall in it),
    and where the rate comes from ("measured" in this run, "remembered" from earlier runs)."""

    seconds: float
    low: float
    high: float
    source: str = "measured"


@dataclass
class Remembered:
    """A rate remembered from earlier runs: the geometric mean of their rates, the log-scale
    spread between runs, how many runs, and when the last one ended (ISO date)."""

    per_s: float
    spread: float
    runs: int
    updated: str = ""


def _z(coverage: float) -> float:
    return NormalDist().inv_cdf(0.5 + min(max(coverage, 0.01), 0.999) / 2)


def time_left(items_left: float, per_s: float, spread: float, coverage: float = 0.8,
              source: str = "measured") -> TimeLeft | None:  # fmt: skip
    """Seconds for `items_left` at `per_s` items/s, with the range R·exp(±z·spread).

    Returns None without a positive rate; zero items left is zero seconds, no range.
    """
    if items_left <= 0:
        return TimeLeft(0.0, 0.0, 0.0, source)
    if not per_s or per_s <= 0 or not math.isfinite(per_s):
        return None
    r = items_left / per_s
    k = math.exp(_z(coverage) * max(spread, 0.0))
    return TimeLeft(r, r / k, r * k, source)


class _Decayed:
    """Completions weighted by 2^(-age / half_life): items, seconds, squared gaps, events."""

    def __init__(self, half_life_s: float):
        self.h = half_life_s
        self.n = self.g = self.g2 = self.e = 0.0

    def add(self, n: float, g: float) -> None:
        f = 0.5 ** (g / self.h)
        self.n = f * self.n + n
        self.g = f * self.g + g
        self.g2 = f * self.g2 + g * g
        self.e = f * self.e + 1.0

    def add_old(self, n: float, g: float, age: float) -> None:
        """A completion `age` seconds before the last one."""
        f = 0.5 ** (age / self.h)
        self.n += f * n
        self.g += f * g
        self.g2 += f * g * g
        self.e += f

    def rate(self, o: float) -> float:
        """Items per second with `o` seconds waited since the last completion: a wait longer
        than 1.5 typical gaps counts as it lasts."""
        typical = self.g2 / self.g if self.g > 0 else 0.0
        f = 0.5 ** (o / self.h)
        return f * self.n / (f * self.g + max(0.0, o - 1.5 * typical))


class RateTracker:
    """The moving rate of a run and the time left as a range; see the module's docstring.

    Feed it `observe(t, done)` (any clock in seconds, items done so far, non-decreasing), as
    often as convenient: only completions (done going up) change it.

    Parameters
    ----------
    settings : RateSettings, optional
        Half-lives, calibration, coverage.
    prior : Remembered, optional
        A remembered rate: the estimate (wide) until calibration is over.
    """

    def __init__(self, settings: RateSettings | None = None, prior: Remembered | None = None):
        self.settings = settings or RateSettings()
        self.prior = prior
        self.reset()

    def reset(self) -> None:
        """Forget everything measured (a new run or step)."""
        s = self.settings
        self._start: tuple[float, float] | None = None
        self._last: tuple[float, float] | None = None  # last completion (t, done)
        self._warmup: tuple[float, float, float] | None = None  # (gap, items, t) of the first
        self._now = -math.inf
        self._slow, self._fast = _Decayed(s.half_life_s), _Decayed(s.fast_half_life_s)
        self._chunk = [0.0, 0.0, 0]  # items, seconds, completions of the open chunk
        self._cw = self._cw2 = self._cm = self._cs = 0.0  # chunks: weights, mean, sum of squares
        self._shot = 0.0  # weighted mean of 1/k over chunks
        self.n_chunks = 0
        self.n_events = 0
        self.n_items = 0.0
        self.seconds = 0.0

    # ------------------------------------------------------------------ measuring
    def observe(self, t: float, done: float) -> None:
        """Items `done` by time `t`."""
        self._now = max(self._now, t)
        if self._start is None:
            self._start = (t, done)
            return
        if self._last is None:
            if done > self._start[1]:
                self._last = (t, done)  # the first completion ends the warm-up
                self._warmup = (t - self._start[0], done - self._start[1], t)
            return
        n = done - self._last[1]
        if n <= 0:
            return
        g = max(t - self._last[0], 0.0)
        self._last = (t, done)
        # Memories long enough to hold several typical gaps (completions in batches minutes
        # apart), and the slow one a share of the run (a load that comes and goes averages out).
        s = self.settings
        typical = self._slow.g2 / self._slow.g if self._slow.g > 0 else g
        self._slow.h = max(s.half_life_s, s.memory * self.seconds, s.slow_gaps * typical)
        self._fast.h = max(s.fast_half_life_s, s.fast_gaps * typical)
        self._slow.add(n, g)
        self._fast.add(n, g)
        self.n_events += 1
        self.n_items += n
        self.seconds += g
        c = self._chunk
        c[0] += n
        c[1] += g
        c[2] += 1
        if c[1] >= self.settings.chunk_s and c[2] >= self.settings.chunk_events:
            self._add_chunk(*c)
            self._chunk = [0.0, 0.0, 0]
        if self._warmup is not None and self.calibrated and s.warmup_gaps > 0:
            # The wait for the first completion, now that usual waits are known: a model's
            # start beyond `warmup_gaps` typical gaps is left out, the rest was work.
            g0, n0, t0 = self._warmup
            self._warmup = None
            typical = self._slow.g2 / self._slow.g
            g0 = min(g0, s.warmup_gaps * typical)
            for d in (self._slow, self._fast):
                d.add_old(n0, g0, t - t0)
            self.n_items += n0
            self.seconds += g0

    def _add_chunk(self, items: float, seconds: float, events: int) -> None:
        """A chunk's log rate into the weighted mean and variance (weights: its seconds,
        decayed with the slow half-life; West's incremental update)."""
        d = 0.5 ** (seconds / self._slow.h)
        x = math.log(items / seconds)
        w = seconds
        self._cw2 = self._cw2 * d * d + w * w
        self._cw = self._cw * d + w
        delta = x - self._cm
        self._cm += delta * w / self._cw
        self._cs = self._cs * d + w * delta * (x - self._cm)
        self._shot += (1.0 / events - self._shot) * w / self._cw
        self.n_chunks += 1

    # ------------------------------------------------------------------ estimates
    @property
    def calibrated(self) -> bool:
        """Whether enough was measured for an estimate of its own."""
        s = self.settings
        return self.n_events >= s.min_events and self.seconds >= s.min_seconds

    def _variance(self) -> tuple[float, float, float]:
        """(v, n_eff, shot noise) of the chunks' log rates; a wide guess before two chunks."""
        if self.n_chunks < 2 or self._cw <= 0:
            return 0.25, 1.0, 0.0  # sd 0.5 until the rate's variability is seen
        return self._cs / self._cw, self._cw**2 / max(self._cw2, 1e-12), self._shot

    def _rates(self, now: float | None) -> tuple[float, float]:
        """(log of the rate now, squared log distance of the fast rate from the slow one)."""
        now = self._now if now is None else max(now, self._now)
        o = max(now - self._last[0], 0.0)
        slow, fast = math.log(self._slow.rate(o)), math.log(self._fast.rate(o))
        d2 = (fast - slow) ** 2
        # The fast rate's noise: about 1 / the independent gaps in its window, counted in
        # typical gaps (completions that come in pairs or batches count once).
        typical = self._slow.g2 / self._slow.g
        noise2 = min(typical / self._fast.g, 1.0)
        shrink = d2 / (d2 + noise2)
        return slow + shrink * (fast - slow), d2 * shrink

    def rate(self, now: float | None = None) -> MeasuredRate | None:
        """The moving rate at `now` (default: the last observation); None while calibrating.

        The slow rate, moved toward the fast one as far as their distance stands out of the
        fast one's noise: a load that came or went shows at once, jitter does not.
        """
        if not self.calibrated or self._slow.g <= 0 or self._fast.g <= 0:
            return None
        log_rate, _drift = self._rates(now)
        v, n_eff, _shot = self._variance()
        return MeasuredRate(math.exp(log_rate), math.sqrt(v / n_eff), int(self.n_items),
                            self.seconds, True)  # fmt: skip

    def overall(self) -> MeasuredRate | None:
        """Items per second over everything measured (for remembering a run's rate)."""
        if self.seconds <= 0 or self.n_items <= 0:
            return None
        v, n_eff, _shot = self._variance()
        return MeasuredRate(self.n_items / self.seconds, math.sqrt(v / n_eff),
                            int(self.n_items), self.seconds, self.calibrated)  # fmt: skip

    def time_left(self, items_left: float, now: float | None = None) -> TimeLeft | None:
        """Seconds for `items_left` more items: measured once calibrated, else from the prior
        (wide), else None."""
        s = self.settings
        if items_left <= 0:
            return TimeLeft(0.0, 0.0, 0.0)
        r = self.rate(now)
        if r is None:
            if self.prior is None:
                return None
            spread = math.hypot(self.prior.spread, s.min_spread)
            return time_left(items_left, self.prior.per_s, spread, s.coverage, "remembered")
        _log_rate, drift = self._rates(now)
        seconds = items_left / r.per_s
        v, n_eff, shot = self._variance()
        ahead = seconds / (seconds + max(self.seconds, 1e-9))
        # How much the rate moves beyond shot noise: the chunks' excess variance, pulled toward
        # what a shared machine shows (prior_spread², as if seen on prior_chunks chunks) while
        # few chunks were seen.
        k0, e0 = s.prior_chunks, s.prior_spread**2
        seen = n_eff if self.n_chunks >= 2 else 0.0
        excess = (k0 * e0 + seen * max(v - shot, 0.0)) / (k0 + seen)
        moving = excess + drift + s.min_spread**2
        # The completions still to come vary too: gaps with a squared coefficient of
        # variation cv2, averaged over the completions left.
        slow = self._slow
        cv2 = max(slow.g2 * slow.e / slow.g**2 - 1.0, 0.0) if slow.g > 0 else 1.0
        events_left = max(items_left * slow.e / max(slow.n, 1e-12), 1.0)
        spread = math.sqrt(v / n_eff + moving * ahead + cv2 / events_left)
        return time_left(items_left, r.per_s, spread, s.coverage)


# ---------------------------------------------------------------------- remembered rates
def machine_id() -> str:
    """This machine as rates depend on it: host name, processor kind and cores."""
    return f"{platform.node() or 'host'}/{platform.machine() or '?'}/{os.cpu_count() or 0}"


def rate_key(kind: str, model: str, host: str = "", concurrency: int = 1,
             machine: str | None = None) -> str:  # fmt: skip
    """The key a rate is remembered under: what asks (e.g. "survey", "herb:embedded"), the
    model, where it runs (a port on this machine is "local": it changes from run to run),
    concurrency and this machine."""
    h = (host or "").lower()
    if h.startswith(("127.", "localhost", "[::1]", "::1")) or h in ("", "local"):
        h = "local"
    return "|".join([kind, model or "?", h, f"c{max(1, int(concurrency))}",
                     machine or machine_id()])  # fmt: skip


class RateBook:
    """Rates of past runs by `rate_key`, in a JSON file (written whole, atomically).

    Each key keeps the running mean m and variance q of log rates (weight 1/runs, at least
    `alpha`, so the book follows a machine that changes); the spread given back is
    max(√q, `min_spread`): one idle run says little about tomorrow's load.
    """

    def __init__(self, path: str, alpha: float = 0.3, min_spread: float = 0.5):
        self.path = path
        self.alpha = alpha
        self.min_spread = min_spread

    def _read(self) -> dict:
        try:
            with open(self.path, encoding="utf-8") as f:
                data = json.load(f)
            return data.get("rates", {}) if isinstance(data, dict) else {}
        except (OSError, ValueError):
            return {}  # none yet, or unreadable: nothing remembered

    def get(self, key: str) -> Remembered | None:
        """The remembered rate for `key`, None if no run was measured."""
        e = self._read().get(key)
        try:
            return Remembered(math.exp(float(e["log_rate"])),
                              max(math.sqrt(max(float(e["log_var"]), 0.0)), self.min_spread),
                              int(e["runs"]), str(e.get("updated", "")))  # fmt: skip
        except (TypeError, KeyError, ValueError):
            return None

    def record(self, key: str, rate: MeasuredRate | None, min_items: int = 5,
               min_seconds: float = 2.0) -> bool:  # fmt: skip
        """Add a run's overall rate (ignored if it measured under `min_items` / `min_seconds`);
        returns whether it was kept."""
        if rate is None or rate.n_items < min_items or rate.seconds < min_seconds:
            return False
        if not rate.per_s > 0:
            return False
        rates = self._read()
        e = rates.get(key) or {}
        x = math.log(rate.per_s)
        runs = int(e.get("runs", 0)) + 1
        if runs == 1:
            m, q = x, 0.0
        else:
            a = max(1.0 / runs, self.alpha)
            m0, q0 = float(e["log_rate"]), float(e["log_var"])
            m = m0 + a * (x - m0)
            q = (1 - a) * (q0 + a * (x - m0) ** 2)
        rates[key] = {"log_rate": m, "log_var": q, "runs": runs,
                      "updated": time.strftime("%Y-%m-%d")}  # fmt: skip
        folder = os.path.dirname(os.path.abspath(self.path))
        os.makedirs(folder, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".rates-", suffix=".json", dir=folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump({"version": 1, "rates": rates}, f, indent=1, sort_keys=True)
            os.replace(tmp, self.path)
        except OSError:
            if os.path.exists(tmp):
                os.unlink(tmp)
            return False
        return True


# ---------------------------------------------------------------------- replaying a run
@dataclass
class Checkpoint:
    """What a tracker said when a recorded run reached `fraction` of its items: at `t` seconds
    with `done` items, `actual` seconds were left; `estimate` (None while calibrating)."""

    fraction: float
    t: float
    done: float
    actual: float
    estimate: TimeLeft | None

    @property
    def inside(self) -> bool:
        """Whether the actual time left fell in the range."""
        e = self.estimate
        return e is not None and e.low <= self.actual <= e.high

    @property
    def error(self) -> float:
        """|estimate - actual| / actual (NaN without an estimate or with nothing left)."""
        e = self.estimate
        if e is None or self.actual <= 0:
            return math.nan
        return abs(e.seconds - self.actual) / self.actual


def replay(events, total: float, at=(0.1, 0.5, 0.9), settings: RateSettings | None = None,
           prior: Remembered | None = None) -> list[Checkpoint]:  # fmt: skip
    """Feed a recorded run's completions to a tracker; its estimates where the run reached
    each fraction of `total` in `at`.

    Parameters
    ----------
    events : sequence of (seconds, done)
        The run's start (done = items before it) then one entry per completion, in order; the
        last one is the end of the run.
    total : float
        Items of the whole run.
    at : sequence of float
        Fractions of the items done (of what the run had left at its start).
    settings, prior
        As for RateTracker.

    Returns
    -------
    list of Checkpoint
        One per fraction the run reached.
    """
    tracker = RateTracker(settings, prior)
    events = [(float(t), float(d)) for t, d in events]
    end = events[-1][0]
    d0 = events[0][1]
    targets = sorted(at)
    out = []
    k = 0
    for t, d in events:
        tracker.observe(t, d)
        while k < len(targets) and d - d0 >= targets[k] * (total - d0):
            out.append(Checkpoint(targets[k], t, d, end - t, tracker.time_left(total - d, t)))
            k += 1
    return out
