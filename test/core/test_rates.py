"""The rate estimator (core/engine/throughput.py) on recorded rate sequences, and the engine's
ETA range.

The sequences are data: completions written as segments (seconds, items per second, items per
completion), the way runs were seen on this machine (a model that loads for a few seconds, a
load that comes or goes, a server that stops, HERB's region batches arriving two by two), and
real runs of the embedded models recorded by scripts/record_rates.py
(test/core/data/rate_sequences.json). Nothing here is timed: every clock is the sequence's.
Accuracy over many runs is measured by benchmarks/bench_rates.py.
"""

import json
import math
import os
import time

import pytest

from geobias.core.engine.cache import ScoreCache
from geobias.core.engine.throughput import (
    RateBook,
    RateSettings,
    RateTracker,
    Remembered,
    rate_key,
    replay,
    time_left,
)
from geobias.core.engine.workers import Engine, EngineSettings, Step
from geobias.core.herb.descriptors import Descriptor
from geobias.core.herb.hierarchy import Hierarchy
from geobias.core.herb.run import HerbSpec, calibrate
from geobias.core.herb.run import estimate as herb_estimate
from geobias.core.herb.scorers import Scored, SentenceScorer

DATA = os.path.join(os.path.dirname(__file__), "data", "rate_sequences.json")

# (seconds, items per second, items per completion); a rate of 0 is a wait with no completion.
# Each begins with the first completion after a model's start (the warm-up a tracker skips).
STEADY = [(4.0, 0, 0), (0.5, 2.0, 1), (120.0, 2.0, 1)]
SLOWING = [(4.0, 0, 0), (0.5, 3.0, 1), (40.0, 3.0, 1), (120.0, 1.0, 1)]  # load 3x from 40 s
SPEEDING = [(4.0, 0, 0), (0.5, 1.0, 1), (60.0, 1.0, 1), (40.0, 3.0, 1)]  # the load ends
PAUSE = [(4.0, 0, 0), (0.5, 2.0, 1), (40.0, 2.0, 1), (30.0, 0, 0), (40.0, 2.0, 1)]
# HERB: region batches of 16 sentences, two slots: batches end two by two every 8 s.
BURSTS = [(3.0, 0, 0), (0.1, 160.0, 16)] + [(7.9, 0, 0), (0.1, 320.0, 16)] * 20


def completions(segments):
    """[(t, done)]: the start, then each completion, spread evenly over its segment."""
    t, done, events = 0.0, 0, [(0.0, 0)]
    for seconds, rate, batch in segments:
        if rate == 0:
            t += seconds
            continue
        n = max(1, round(seconds * rate / batch))
        gap = seconds / n
        for _ in range(n):
            t += gap
            done += batch
            events.append((round(t, 3), done))
    return events


def tracked(events, upto):
    """A tracker fed with the events until time `upto`."""
    tracker = RateTracker()
    for t, d in events:
        if t > upto:
            break
        tracker.observe(t, d)
    return tracker


def done_at(events, t):
    return max(d for s, d in events if s <= t)


def cumulative_eta(events, t, total):
    """What the engine said before: the average rate since the start, (N - done) / rate."""
    d = done_at(events, t)
    return (total - d) / (d / t)


@pytest.mark.parametrize("fraction", [0.1, 0.5, 0.9])
def test_steady_run_the_range_holds_the_time_left(fraction):
    events = completions(STEADY)
    total = events[-1][1]
    (cp,) = replay(events, total, at=[fraction])
    assert cp.inside, cp
    assert cp.error < 0.05
    # Close to the truth, and not wider than it needs to be.
    assert cp.estimate.high / cp.estimate.low < 2.0


def test_calibration_first_then_estimates():
    events = completions(STEADY)
    tracker = RateTracker()
    tracker.observe(*events[0])
    tracker.observe(*events[1])  # the first completion, after 4.5 s: a model's start?
    assert tracker.time_left(100) is None and not tracker.calibrated
    for e in events[2:5]:
        tracker.observe(*e)
    assert not tracker.calibrated  # 3 completions, but 1.5 s of measuring
    tracker.observe(*events[5])
    assert tracker.calibrated  # and 2 s
    # The wait for the first counts as two usual gaps at most (1 s; the rest was the start):
    # 4 items in 2 s and 1 in 1 s.
    assert tracker.rate().per_s == pytest.approx(5 / 3.0, rel=0.01)


def test_a_remembered_rate_until_the_calibration_is_over():
    prior = Remembered(per_s=4.0, spread=0.5, runs=3)
    tracker = RateTracker(prior=prior)
    tracker.observe(0.0, 0)
    left = tracker.time_left(100)
    assert left.source == "remembered" and left.seconds == pytest.approx(25.0)
    assert left.low < 25.0 / 1.8 and left.high > 25.0 * 1.8  # wide: today's load is unknown
    for t, d in completions(STEADY)[1:10]:
        tracker.observe(t, d)
    assert tracker.time_left(100).source == "measured"
    # 8 items in 4 s, and the first after a start counted as 1 s: 9 in 5 s.
    assert tracker.time_left(100).seconds == pytest.approx(100 * 5 / 9, rel=0.02)


def test_slowing_down_under_load_the_eta_follows_the_moving_rate():
    events = completions(SLOWING)
    total, end = events[-1][1], events[-1][0]
    t = 4.5 + 40 + 45  # 45 s after the load came
    actual = end - t
    left = tracked(events, t).time_left(total - done_at(events, t), t)
    old = cumulative_eta(events, t, total)
    assert abs(left.seconds - actual) / actual < 0.2
    assert abs(old - actual) / actual > 0.3  # the average since the start lags behind
    assert left.low <= actual <= left.high


def test_speeding_up_when_the_load_ends():
    events = completions(SPEEDING)
    total, end = events[-1][1], events[-1][0]
    t = 4.5 + 60 + 20  # 20 s after the load went
    actual = end - t
    left = tracked(events, t).time_left(total - done_at(events, t), t)
    old = cumulative_eta(events, t, total)
    assert abs(left.seconds - actual) < abs(old - actual)
    assert left.low <= actual <= left.high


def test_a_pause_counts_while_it_lasts():
    events = completions(PAUSE)
    total = events[-1][1]
    start = 4.5 + 40
    tracker = tracked(events, start)
    n = total - done_at(events, start)
    before = tracker.time_left(n, start).seconds
    during = [tracker.time_left(n, start + s).seconds for s in (1.0, 10.0, 20.0, 30.0)]
    assert during[0] == pytest.approx(before, rel=0.01)  # a usual gap is no pause
    assert during[1] < during[2] < during[3]  # then each second waited slows the rate
    assert during[3] > 1.5 * before
    # After the pause the rate recovers as completions come again.
    after = tracked(events, start + 30 + 30)
    rate = after.rate(start + 60).per_s
    assert 1.0 < rate < 2.0


def test_bursty_batches_a_steady_estimate_between_batches():
    events = completions(BURSTS)
    total = events[-1][1]
    tracker = RateTracker()
    etas = []
    for t, d in events:
        tracker.observe(t, d)
        if 40 < t < 120:
            for wait in (0.0, 4.0, 7.9):  # just after a pair of batches, and while waiting
                left = tracker.time_left(total - d, t + wait)
                etas.append(t + wait + left.seconds)  # as an end time: should not move
    assert max(etas) / min(etas) < 1.25
    for cp in replay(events, total):
        assert cp.inside, cp


@pytest.fixture(scope="module")
def recorded():
    with open(DATA, encoding="utf-8") as f:
        return json.load(f)["sequences"]


def test_recorded_runs_of_the_embedded_models(recorded):
    # Real runs on a shared machine whose load changed under them (load average 9-15, other
    # work starting and ending; benchmarks/bench_rates.py has the per-run figures): the rate is
    # calibrated by a quarter of each run, and from there the range holds the actual time left
    # at most checkpoints (27 of 36 when recorded; a run whose last third went ten times
    # faster, as the machine emptied, is out at all four).
    assert {"survey_steady", "survey_slowing", "survey_speeding", "survey_pause",
            "herb_batches", "herb_slowing"} <= set(recorded)  # fmt: skip
    inside = []
    for name, seq in recorded.items():
        events, total = seq["events"], seq["total"]
        assert events[0] == [0.0, 0] and events[-1][1] == total, name
        checkpoints = replay(events, total, at=[0.25, 0.5, 0.75, 0.9])
        assert all(cp.estimate is not None for cp in checkpoints), name
        inside += [cp.inside for cp in checkpoints]
    assert sum(inside) >= 0.7 * len(inside), inside


def test_a_recorded_pause_lengthens_the_estimate_while_it_lasts(recorded):
    seq = recorded["survey_pause"]
    events, total = seq["events"], seq["total"]
    start = seq["schedule_s"][0][0]
    t, done = max((t, d) for t, d in events if t <= start)  # the last completion before it
    tracker = tracked(events, t)
    left = [tracker.time_left(total - done, t + wait).seconds for wait in (0, 10, 60, 80)]
    assert left[0] == left[1]  # ten seconds is a usual wait here
    assert left[2] > 1.5 * left[0] and left[3] > left[2]


def test_time_left_range_and_edges():
    left = time_left(100, 2.0, 0.2, coverage=0.8)
    assert left.seconds == 50.0
    assert left.low == pytest.approx(50.0 / math.exp(1.2816 * 0.2), rel=1e-3)
    assert left.high == pytest.approx(50.0 * math.exp(1.2816 * 0.2), rel=1e-3)
    assert time_left(0, 2.0, 0.2).seconds == 0.0
    assert time_left(10, 0.0, 0.2) is None


def test_rate_book_remembers_per_model_and_machine(tmp_path):
    book = RateBook(str(tmp_path / "rates.json"))
    key = rate_key("herb:embedded", "smollm2", "127.0.0.1:43121", 2, machine="m1")
    assert key == rate_key("herb:embedded", "smollm2", "127.0.0.1:51000", 2, machine="m1")
    assert key != rate_key("herb:embedded", "smollm2", "127.0.0.1:43121", 2, machine="m2")
    assert book.get(key) is None
    tracker = RateTracker()
    for t, d in completions(STEADY):
        tracker.observe(t, d)
    assert book.record(key, tracker.overall())
    got = book.get(key)
    assert got.runs == 1 and got.per_s == pytest.approx(2.0, rel=0.01)
    assert got.spread == 0.5  # one run says little about tomorrow's load
    slow = tracker.overall()
    slow.per_s = 0.5
    book.record(key, slow)
    got = RateBook(str(tmp_path / "rates.json")).get(key)  # read back from the file
    assert got.runs == 2 and 0.5 < got.per_s < 2.0 and got.spread > 0.5
    short = tracker.overall()
    short.n_items = 2
    assert not book.record(key, short)  # too little measured to remember


def test_the_engine_reports_the_eta_with_its_range():
    seen = []

    def work(item, should_stop):
        time.sleep(0.002)
        return Step()

    settings = EngineSettings(1, progress_every_s=0.0,
                              rates=RateSettings(min_events=3, min_seconds=0.0))  # fmt: skip
    Engine(settings, seen.append).run([[i] for i in range(40)], work, 50)
    ranged = [p for p in seen if p.eta_low is not None]
    assert seen[0].eta_low is None  # nothing measured at the start
    assert len(ranged) >= 30
    assert all(p.eta_low <= p.eta_s <= p.eta_high for p in ranged)
    last = seen[-1]
    assert last.done == 40 and last.measured.n_items == 40  # the first one added back
    assert last.eta_s > 0  # 10 of 50 never came: the ETA says so


def test_a_languages_progress_covers_the_whole_run():
    """A survey in three prompt languages: the second language's progress and time left are
    the whole run's (what is left of it, at this language's rate and range)."""
    from geobias.core.survey.language_runs import whole_run
    from geobias.core.survey.run import Progress

    seen = []
    relay = whole_run(seen.append, offset=10, total=30)
    relay(Progress(4, 10, 2.0, 3.0, 0.9, 0, 2.0, 5.0))  # 6 left here, 16 in all
    relay(Progress(5, 10, 2.0, 2.5, 0.9))  # still timing: the average rate
    ranged, timing = seen
    assert (ranged.done, ranged.total) == (14, 30)
    scale = 16 / 6
    assert ranged.eta_s == pytest.approx(3.0 * scale)
    assert (ranged.eta_low, ranged.eta_high) == pytest.approx((2.0 * scale, 5.0 * scale))
    assert (timing.done, timing.eta_low, timing.eta_high) == (15, None, None)
    assert timing.eta_s == pytest.approx(15 / 2.0)


class SlowScorer(SentenceScorer):
    """A scorer of this machine that takes its time: one sentence per batch, 40 ms each."""

    kind, identity, batch_size = "stub", "slow", 1

    def score_batch(self, sentences):
        time.sleep(0.04)
        return [Scored(s, score=-float(len(s)), n_tokens=len(s.split())) for s in sentences]


def test_herb_calibration_times_the_first_batches_and_keeps_their_scores(tmp_path):
    names = ["Peru", "Chile", "Kenya", "Norway", "Fiji", "Laos"]
    h = Hierarchy.from_parent_ids([f"r{i}" for i in range(6)], names, [None] * 6)
    words = [Descriptor(f"word{k}", "t") for k in range(15)]
    spec = HerbSpec(h, SlowScorer(), words)  # 6 x 15 + 6 sentences, 40 ms each
    cache = ScoreCache(str(tmp_path / "c.sqlite"))
    before = herb_estimate(spec, cache)
    assert before.left is None and before.seconds is None  # no rate: no time, not a guess
    measured = calibrate(spec, cache, seconds=0.0, at_most_s=30.0, share=1.0)
    assert measured is not None and measured.calibrated
    after = herb_estimate(spec, ScoreCache(str(tmp_path / "c.sqlite")), measured)
    # What was timed stays scored.
    assert after.n_cached == measured.n_items
    assert after.n_to_score == before.n_to_score - after.n_cached > 0
    assert after.left.low < after.left.seconds < after.left.high
    assert after.left.seconds == pytest.approx(after.n_to_score / measured.per_s)


def test_herb_calibration_cut_short_falls_back_to_the_whole_time(tmp_path):
    # On a loaded machine the first batches may take all the time allowed: the rate is then the
    # sentences over the whole time (the model's first batch included: slower, not faster),
    # with a wide range; never the one gap between two batches that came back together.
    names = ["Peru", "Chile", "Kenya", "Norway", "Fiji", "Laos"]
    h = Hierarchy.from_parent_ids([f"r{i}" for i in range(6)], names, [None] * 6)
    spec = HerbSpec(h, SlowScorer(), [Descriptor(f"word{k}", "t") for k in range(15)])
    cache = ScoreCache(str(tmp_path / "c.sqlite"))
    measured = calibrate(spec, cache, seconds=0.0, at_most_s=0.2)
    assert measured is not None and not measured.calibrated and measured.spread == 0.7
    assert measured.per_s <= 1 / 0.04 * 1.05  # at most one sentence per 40 ms
    left = herb_estimate(spec, cache, measured).left
    assert left.high / left.low > 4


def test_herb_calibration_scores_a_quarter_of_the_work_at_most(tmp_path):
    names = ["Peru", "Chile", "Kenya", "Norway", "Fiji", "Laos"]
    h = Hierarchy.from_parent_ids([f"r{i}" for i in range(6)], names, [None] * 6)
    spec = HerbSpec(h, SlowScorer(), [Descriptor(f"word{k}", "t") for k in range(15)])
    cache = ScoreCache(str(tmp_path / "c.sqlite"))
    calibrate(spec, cache, seconds=60.0, at_most_s=60.0)
    # A quarter of the 96 sentences, and the one batch (one sentence) that may be in flight.
    assert 96 // 4 <= herb_estimate(spec, cache).n_cached <= 96 // 4 + 1
