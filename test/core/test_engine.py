"""The request engine shared by the survey and HERB: order within a unit, progress arithmetic,
records committed, a failure policy's stop, cancel, errors raised after the threads end."""

import math
import threading

import pytest

from geobias.core.engine.workers import Counts, Engine, EngineSettings, FailureStreak, Step


def test_a_unit_goes_through_one_worker_in_order_and_every_record_is_committed():
    units = [[f"u{u}-{i}" for i in range(5)] for u in range(6)]
    seen: dict[str, list[str]] = {}
    committed: list = []
    lock = threading.Lock()

    def work(item, should_stop):
        with lock:
            seen.setdefault(threading.current_thread().name, []).append(item)
        return Step(records=[item])

    engine = Engine(EngineSettings(concurrency=3), commit=committed.extend)
    outcome = engine.run(units, work, total=30)
    assert (outcome.counts.done, outcome.cancelled, outcome.stopped) == (30, False, "")
    assert sorted(committed) == sorted(i for u in units for i in u)
    for items in seen.values():  # each worker's items: whole units, each in its order
        by_unit: dict[str, list[int]] = {}
        for item in items:
            u, i = item.split("-")
            by_unit.setdefault(u, []).append(int(i))
        assert all(v == list(range(5)) for v in by_unit.values())


def test_progress_counts_what_was_done_before_and_leaves_failures_out_of_the_answer_rate():
    reports = []

    def work(item, should_stop):
        return Step(2, answered=int(item == "a") * 2, failed=int(item == "f") * 2)

    engine = Engine(EngineSettings(1, progress_every_s=0.0), reports.append)
    engine.run([["a", "f", "r"]], work, total=20, start=Counts(10, 7, 1))
    first, last = reports[0], reports[-1]
    assert (first.done, first.total, first.rate, first.eta_s) == (10, 20, 0.0, math.inf)
    assert (last.done, last.failed) == (16, 3)
    assert last.answer_rate == pytest.approx((7 + 2) / (16 - 1 - 2))
    # Three items in no time: the rate is the average so far, the ETA still unknown (the
    # moving rate is calibrated on the first completions, see test_rates.py).
    assert last.rate > 0 and last.eta_s == math.inf and last.eta_low is None


def test_a_failure_streak_stops_the_run_with_its_reason():
    calls = []

    def work(item, should_stop):
        calls.append(item)
        return Step(error="" if item < 2 else f"HTTP 503 on {item}")

    outcome = Engine(EngineSettings(1), policy=FailureStreak(3)).run(
        [[i] for i in range(20)], work, total=20
    )
    assert outcome.stopped == "HTTP 503 on 4" and calls == [0, 1, 2, 3, 4]
    assert outcome.counts.done == 5
    streak = FailureStreak(2)
    assert [streak.observe(Step(error=e)) for e in ("x", "", "y", "z")] == [None, None, None, "z"]


def test_cancel_stops_taking_items_and_an_item_can_decline_to_count():
    n = [0]

    def work(item, should_stop):
        n[0] += 1
        return None if item == 1 else Step()

    outcome = Engine(EngineSettings(1), is_cancelled=lambda: n[0] >= 3).run(
        [[i] for i in range(10)], work, total=10
    )
    assert outcome.cancelled and n[0] == 3 and outcome.counts.done == 2


def test_an_item_error_is_raised_after_the_writer_has_committed():
    committed = []

    def work(item, should_stop):
        if item == 3:
            raise KeyError("boom")
        return Step(records=[item])

    with pytest.raises(KeyError, match="boom"):
        Engine(EngineSettings(1), commit=committed.extend).run([list(range(6))], work, total=6)
    assert committed == [0, 1, 2]


def test_a_commit_that_fails_is_raised_at_the_end():
    def commit(records):
        raise OSError("disk full")

    def work(item, should_stop):
        return Step(records=[item])

    with pytest.raises(OSError, match="disk full"):
        Engine(EngineSettings(1, progress_every_s=0.01), commit=commit).run(
            [[i] for i in range(10_000)], work, total=10_000
        )
