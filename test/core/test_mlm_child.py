"""The masked LM in its child process (core/herb/mlm_worker.py, ChildMaskedLMScorer): the same
scores and cache keys as MaskedLMScorer in process, torch never loaded by the parent, a dead or
hung child a ScorerError rather than a hang, and no child left behind by a closed or dead
parent. Without torch (make test-floor) only the install message is checked."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from geobias.core.herb.scorers import ChildMaskedLMScorer, MaskedLMScorer, ScorerError
from geobias.core.runtime import embedded

SENTENCES = ["People in Paris are wise.", "People in Lima are very very kind.", "Paris", ""]
POSIX = pytest.mark.skipif(os.name != "posix", reason="signals and /proc are POSIX")


def needs_torch(folder):
    if folder is None:
        pytest.skip("torch/transformers not installed (the install message is tested without them)")


def gone(pid: int, within: float = 20.0) -> bool:
    """Whether process `pid` has exited (a zombie counts) within `within` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X"):
                    return True
        except OSError:
            return True
        time.sleep(0.1)
    return False


@POSIX
def test_a_python_without_torch_gets_the_install_line(tmp_path, monkeypatch):
    # An interpreter that sees no site-packages (python -S): no torch, no transformers.
    python = tmp_path / "python3"
    python.write_text(f'#!/bin/sh\nexec "{sys.executable}" -S "$@"\n')
    python.chmod(0o755)
    monkeypatch.setattr(embedded, "python_candidates", lambda override=None: [str(python)])
    with pytest.raises(ScorerError, match=r"pip install torch==2\.13\.0 transformers") as e:
        ChildMaskedLMScorer(str(tmp_path / "model"))
    assert "no torch, transformers" in str(e.value)


@pytest.mark.parametrize("reference_padding", [False, True])
def test_the_child_scores_as_in_process(tiny_bert, reference_padding):
    needs_torch(tiny_bert)
    here = MaskedLMScorer(tiny_bert, reference_padding=reference_padding)
    child = ChildMaskedLMScorer(tiny_bert, reference_padding=reference_padding, threads=1)
    try:
        for attr in ("kind", "identity", "rule", "needs_region_batches", "requests_per_sentence"):
            assert getattr(child, attr) == getattr(here, attr), attr  # the same cache keys
        for batch in (SENTENCES, SENTENCES[1:2], ["People in Lima are wise."] * 3):
            want, got = here.score_batch(batch), child.score_batch(batch)
            assert [g.sentence for g in got] == batch
            for w, g in zip(want, got):
                assert (g.n_tokens, g.error) == (w.n_tokens, w.error)
                assert g.score == pytest.approx(w.score, abs=1e-6, nan_ok=True)
        assert all(g.score < 0 for g in got)  # log-probabilities, not zeros
    finally:
        child.close()
    assert child.pid is None


def test_a_folder_without_a_model_is_a_clear_error(tiny_bert, tmp_path):
    needs_torch(tiny_bert)
    with pytest.raises(ScorerError, match="cannot load a masked LM from"):
        ChildMaskedLMScorer(str(tmp_path))


@POSIX
def test_a_killed_child_is_an_error_not_a_hang(tiny_bert):
    needs_torch(tiny_bert)
    child = ChildMaskedLMScorer(tiny_bert, threads=1)
    pid = child.pid
    os.kill(pid, signal.SIGKILL)
    with pytest.raises(ScorerError, match="exited"):
        child.score_batch(SENTENCES)
    assert child.pid is None and gone(pid)
    with pytest.raises(ScorerError, match="stopped"):
        child.score_batch(SENTENCES)


@POSIX
def test_a_hung_child_is_stopped_after_the_timeout(tiny_bert):
    needs_torch(tiny_bert)
    child = ChildMaskedLMScorer(tiny_bert, threads=1, timeout=60)
    pid = child.pid
    child.timeout = 1.0
    os.kill(pid, signal.SIGSTOP)  # alive but silent
    t0 = time.monotonic()
    with pytest.raises(ScorerError, match="no answer in 1 s"):
        child.score_batch(SENTENCES)
    assert time.monotonic() - t0 < 30 and gone(pid)


def test_close_stops_the_child(tiny_bert):
    needs_torch(tiny_bert)
    child = ChildMaskedLMScorer(tiny_bert, threads=1)
    pid = child.pid
    assert pid is not None and child.score_batch(SENTENCES[:1])[0].n_tokens == 6
    child.close()
    assert child.pid is None
    if os.name == "posix":
        assert gone(pid, within=1)
    child.close()  # twice is harmless


PARENT = """
import json, os, signal, sys
from geobias.core.herb.scorers import ChildMaskedLMScorer
child = ChildMaskedLMScorer(sys.argv[1], threads=1)
scores = [r.score for r in child.score_batch(sys.argv[2:])]
print(json.dumps({"pid": child.pid, "scores": scores,
                  "loaded": sorted(m for m in ("torch", "transformers") if m in sys.modules)}))
sys.stdout.flush()
os.kill(os.getpid(), signal.SIGKILL)  # dies without closing anything
"""


@POSIX
def test_the_parent_never_loads_torch_and_its_death_ends_the_child(tiny_bert):
    needs_torch(tiny_bert)
    proc = subprocess.run([sys.executable, "-c", PARENT, tiny_bert, *SENTENCES[:3]],
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert proc.returncode == -signal.SIGKILL, proc.stderr[-2000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["loaded"] == []  # torch and transformers stayed in the child
    here = MaskedLMScorer(tiny_bert).score_batch(SENTENCES[:3])
    assert out["scores"] == pytest.approx([r.score for r in here], abs=1e-6)
    assert gone(out["pid"])  # stdin closed with the parent: the child exited
