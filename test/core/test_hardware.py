"""Threads and batch sizes for local model work (core/runtime/hardware.py)."""

import os

from geobias.core.runtime.hardware import (
    LOGITS_BUDGET,
    default_threads,
    physical_cores,
    scoring_budget,
    usable_cpus,
)


def fake_topology(root, cores):
    """A /sys/devices/system/cpu tree: cores[cpu] = (package, core)."""
    for cpu, (package, core) in enumerate(cores):
        d = root / f"cpu{cpu}" / "topology"
        d.mkdir(parents=True)
        (d / "physical_package_id").write_text(f"{package}\n")
        (d / "core_id").write_text(f"{core}\n")
    return str(root)


def test_hyperthread_siblings_count_once(tmp_path):
    sys_cpu = fake_topology(tmp_path, [(0, 0), (0, 1), (0, 0), (0, 1), (1, 0), (1, 0)])
    assert physical_cores([0, 1, 2, 3, 4, 5], sys_cpu) == 3
    assert physical_cores([0, 2], sys_cpu) == 1  # two siblings of one core
    assert physical_cores([1, 4], sys_cpu) == 2


def test_without_topology_every_cpu_is_a_core(tmp_path):
    assert physical_cores([0, 1, 2], str(tmp_path)) == 3


def test_this_machine_gets_at_least_one_thread_and_no_more_than_its_cpus():
    cpus = usable_cpus()
    assert 1 <= default_threads() <= len(cpus) <= (os.cpu_count() or 1)


def test_busy_cores_are_left_to_the_processes_that_keep_them_busy(monkeypatch):
    from geobias.core.runtime import hardware

    monkeypatch.setattr(hardware, "usable_cpus", lambda: [0, 1, 2, 3])
    monkeypatch.setattr(hardware, "physical_cores", lambda cpus: 4)
    monkeypatch.setattr(hardware.sys, "platform", "linux")
    monkeypatch.setattr(hardware, "busy_now", lambda: None)  # a system that does not say
    for load, threads in ((0.3, 4), (1.9, 3), (3.2, 1), (12.0, 1)):
        monkeypatch.setattr(hardware.os, "getloadavg", lambda load=load: (load, load, load))
        assert hardware.default_threads() == threads
    # The load average lags: cores that were busy a minute ago and are idle now count as free;
    # cores busy now count as busy whatever the average says.
    monkeypatch.setattr(hardware.os, "getloadavg", lambda: (1.9, 1.0, 0.5))
    for now, threads in ((0, 4), (1, 3), (3, 3)):
        monkeypatch.setattr(hardware, "busy_now", lambda now=now: now)
        assert hardware.default_threads() == threads


def test_busy_now_reads_the_cpu_time_used_over_its_window(monkeypatch):
    from geobias.core.runtime import hardware

    # (all, idle) ticks at the window's start and end: 400 ticks over 4 CPUs, 100 of them idle.
    samples = iter([(1000, 500), (1400, 600)])
    monkeypatch.setattr(hardware, "cpu_times", lambda: next(samples))
    monkeypatch.setattr(hardware.os, "cpu_count", lambda: 4)
    assert hardware.busy_now(window=0) == 3  # 75% of 4 CPUs
    monkeypatch.setattr(hardware, "cpu_times", lambda: (5, 5))  # no time passed
    assert hardware.busy_now(window=0) is None
    if os.path.exists("/proc/stat"):  # the real file: a count of this machine's CPUs
        monkeypatch.undo()
        assert 0 <= hardware.busy_now(window=0.05) <= (os.cpu_count() or 1)


def test_logits_rows_follow_the_vocabulary_and_the_budget():
    smol = scoring_budget(49152, threads=2)
    assert (smol.threads, smol.batch_tokens, smol.sequences) == (2, 512, 256)
    gemma = scoring_budget(262144, threads=2)
    assert gemma.batch_tokens == LOGITS_BUDGET // (4 * 262144) == 256 and gemma.sequences == 256
    assert gemma.batch_tokens * 262144 * 4 <= LOGITS_BUDGET
    huge = scoring_budget(4_000_000, threads=1)  # never fewer rows than MIN_ROWS
    assert huge.batch_tokens == 32 and huge.sequences == 32
    small = scoring_budget(49152, threads=1, batch_tokens=64)
    assert small.batch_tokens == 64 and small.sequences == 64
