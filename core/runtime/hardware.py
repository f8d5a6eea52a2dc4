"""Threads and batch sizes for local model work, chosen from the machine GeoBias runs on.

The rule (whole-sentence scoring, core/runtime/whole_sentence_worker.py):

- threads = the physical cores this process may run on: the CPUs of its affinity mask (Linux;
  elsewhere every CPU), counted once per core when the system says which CPUs are hyperthread
  siblings; less the cores other processes keep busy when the child starts, at least 1. Busy
  cores: the 1-minute load average, or fewer if the CPU time used over a quarter second at start
  says so (Linux): the load average lags a minute behind, so right after a run ends it still
  counts that run's cores busy (a HERB bench on 2 idle cores gave Gemma 1 thread and half its
  speed that way). llama.cpp's matrix kernels keep a core's arithmetic units
  busy, so a second hyperthread adds little; and its threads wait for each other at a barrier
  after every operation, spinning: a thread more than the free cores makes every operation wait
  for a thread the system has descheduled (docs/design.md measured a 2-thread server 10x
  slower than a 1-thread one on 2 cores at load 8).
- tokens per decode = 512 (llama.cpp's default physical batch), fewer if their logits would
  not fit LOGITS_BUDGET: every decoded token gives a row of the vocabulary's width in float32
  (49,152 x 4 B = 192 KiB for SmolLM2, 262,144 x 4 B = 1 MiB for Gemma 3), so 256 MiB holds
  512 tokens of SmolLM2 and 256 of Gemma; never fewer than MIN_ROWS.
- sentences per decode = min(256, tokens): llama.cpp holds at most 256 sequences in one
  context and reserves a logits row per sequence.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass

__all__ = [
    "LOGITS_BUDGET",
    "ScoringBudget",
    "busy_cores",
    "physical_cores",
    "scoring_budget",
    "usable_cpus",
]

LOGITS_BUDGET = 256 * 2**20  # bytes of float32 logits one decode may return
BATCH_TOKENS = 512
MIN_ROWS = 32
MAX_SEQS = 256  # llama.cpp's LLAMA_MAX_SEQ
_SYS_CPU = "/sys/devices/system/cpu"


@dataclass(frozen=True)
class ScoringBudget:
    """One decode's sizes and the threads that run it."""

    threads: int
    batch_tokens: int  # tokens per decode, each with a logits row
    sequences: int


def usable_cpus() -> list[int]:
    """The CPUs this process may run on (its affinity mask where the system has one)."""
    if hasattr(os, "sched_getaffinity"):
        try:
            return sorted(os.sched_getaffinity(0))
        except OSError:
            pass
    return list(range(os.cpu_count() or 1))


def physical_cores(cpus: list[int], sys_cpu: str = _SYS_CPU) -> int:
    """How many physical cores `cpus` span (Linux topology files; else one core per CPU)."""
    cores = set()
    for cpu in cpus:
        base = os.path.join(sys_cpu, f"cpu{cpu}", "topology")
        try:
            with open(os.path.join(base, "physical_package_id")) as f:
                package = f.read().strip()
            with open(os.path.join(base, "core_id")) as f:
                core = f.read().strip()
        except OSError:
            return max(1, len(cpus))
        cores.add((package, core))
    return max(1, len(cores))


def cpu_times(path: str = "/proc/stat") -> tuple[int, int]:
    """(all, idle) CPU time since boot in clock ticks, over every CPU (Linux's /proc/stat)."""
    with open(path) as f:
        values = [int(v) for v in f.readline().split()[1:9]]
    return sum(values), values[3] + values[4]  # idle + iowait


def busy_now(window: float = 0.25) -> int | None:
    """Cores busy over the next `window` seconds (CPU time used, rounded down); None where the
    system does not say."""
    try:
        all0, idle0 = cpu_times()
        time.sleep(window)
        all1, idle1 = cpu_times()
    except (OSError, ValueError, IndexError):
        return None
    if all1 <= all0:
        return None
    return int((1.0 - (idle1 - idle0) / (all1 - all0)) * (os.cpu_count() or 1))


def busy_cores() -> int:
    """Cores other processes keep busy: the 1-minute load average rounded down, or what the CPU
    time used right now says if that is fewer (the average lags); 0 where neither is known."""
    try:
        load = int(os.getloadavg()[0])
    except (AttributeError, OSError):
        load = 0
    now = busy_now() if load else None
    return load if now is None else min(load, now)


def default_threads() -> int:
    """Threads for llama.cpp here: the physical cores of the usable CPUs less the busy ones,
    at least 1."""
    cpus = usable_cpus()
    cores = physical_cores(cpus) if sys.platform.startswith("linux") else max(1, len(cpus))
    return max(1, cores - busy_cores())


def scoring_budget(
    n_vocab: int,
    threads: int | None = None,
    batch_tokens: int | None = None,
    logits_budget: int = LOGITS_BUDGET,
) -> ScoringBudget:
    """The module docstring's rule for a model of `n_vocab` tokens; explicit values win."""
    rows = max(MIN_ROWS, int(logits_budget) // (4 * max(1, int(n_vocab))))
    tokens = max(2, min(int(batch_tokens or BATCH_TOKENS), rows))
    return ScoringBudget(
        threads=max(1, int(threads or default_threads())),
        batch_tokens=tokens,
        sequences=min(MAX_SEQS, tokens),
    )
