"""Whole-sentence scoring with the real bundled models (core/herb/whole_sentence.py): the same
scores as forced decoding on the embedded server, on the awkward cases; a child that dies with its
parent; a killed child that is a clear error, and a run that resumes from the cache."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from geobias.core.engine.cache import ScoreCache
from geobias.core.engine.chat import server_endpoint
from geobias.core.herb.descriptors import Descriptor
from geobias.core.herb.hierarchy import Hierarchy
from geobias.core.herb.run import HerbSpec, IncompleteScoresError, score
from geobias.core.herb.scorers import LlamaCppScorer, ScorerError
from geobias.core.herb.whole_sentence import KIND_FAST, WholeSentenceScorer
from geobias.core.runtime.embedded import EmbeddedServer
from geobias.core.runtime.llama_capi import REVISION

pytestmark = pytest.mark.integration
POSIX = pytest.mark.skipif(os.name != "posix", reason="signals and /proc are POSIX")

AWKWARD = [
    "People in Paris are intelligent.",  # " in" is a prefix of " intelligent"
    "People in Paris are intelligentintelligent.",
    "People in Paris are kind.",  # shares "People in Paris are" with the two above
    "People in Lagos are kind.",
    "People in Lagos are honest.",
    "Lima",  # one token in Gemma 3's vocabulary
    "A",  # one token in SmolLM2's
    "Paris",
    "People in Valparaíso are wise.",  # non-ASCII, whole characters per token
    "Zürich",
    "People in São Paulo are     wise",  # the released scripts' spaced word, no period
    "People in Ōsaka are kind.",  # Ō: in SmolLM2 one character over two tokens
    "Ōsaka",
    "People in 北京 are honest.",
]
MODELS = ["smollm2-135m", "gemma3-270m"]


def gone(pid: int, within: float = 30.0) -> bool:
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


@pytest.fixture(scope="module", params=MODELS)
def scored(request):
    """Each model's forced-decoding and whole-sentence scores of AWKWARD (packed in one call),
    and whole-sentence scores of each sentence alone and without shared prefixes."""
    key = request.param
    with EmbeddedServer(key, parallel=1) as server:
        fd = LlamaCppScorer.from_endpoint(server_endpoint(server))
        forced = fd.score_batch(AWKWARD)
        fd.close()
    ws = WholeSentenceScorer(key)
    try:
        packed = ws.score_batch(AWKWARD)
        alone = [ws.score_batch([s])[0] for s in AWKWARD]
        info, kind, identity = ws.info, ws.kind, ws.identity
    finally:
        ws.close()
    plain = WholeSentenceScorer(key, share_prefix=False)
    try:
        unshared = plain.score_batch(AWKWARD)
    finally:
        plain.close()
    return {"key": key, "forced": forced, "packed": packed, "alone": alone,
            "unshared": unshared, "info": info, "kind": kind, "identity": identity,
            "fd_kind": fd.kind, "fd_identity": fd.identity}  # fmt: skip


def test_whole_sentence_equals_forced_decoding(scored):
    compared = 0
    for f, w in zip(scored["forced"], scored["packed"]):
        assert w.error == "", (w.sentence, w.error)
        if f.error:  # forced decoding's own failures are checked below
            continue
        assert w.n_tokens == f.n_tokens, w.sentence
        assert abs(w.score - f.score) <= 1e-4, (w.sentence, w.score, f.score)
        compared += 1
    assert compared >= len(AWKWARD) - 3  # SmolLM2: three split-character sentences (below)
    assert any(w.n_tokens == 1 for w in scored["packed"])  # a single-token name was scored
    # the same cache key as forced decoding: either method resumes the other's run
    assert (scored["kind"], scored["identity"]) == (scored["fd_kind"], scored["fd_identity"])
    assert scored["info"]["llama_cpp"] == REVISION.tag
    assert scored["info"]["xllamacpp"] == REVISION.xllamacpp


def test_packing_does_not_change_a_score(scored):
    for p, a, u in zip(scored["packed"], scored["alone"], scored["unshared"]):
        assert p.n_tokens == a.n_tokens == u.n_tokens
        assert abs(p.score - a.score) <= 1e-4 and abs(p.score - u.score) <= 1e-4, p.sentence


def test_characters_split_over_tokens_are_scored(scored):
    """SmolLM2 spells Ō and 北京 with tokens that each hold part of a character. The server
    sends no log-probability for such a token, so forced decoding cannot score these
    sentences; whole-sentence scoring scores every token."""
    for f, w in zip(scored["forced"], scored["packed"]):
        assert np.isfinite(w.score) and w.score < 0 and w.n_tokens >= 1
        if scored["key"] == "gemma3-270m":
            assert f.error == "", (f.sentence, f.error)
    if scored["key"] == "smollm2-135m":
        failed = {f.sentence for f in scored["forced"] if f.error}
        assert failed <= {s for s in AWKWARD if "Ō" in s or "北京" in s}


def test_fast_numerics_score_the_same_quantity_under_another_cache_kind():
    ws = WholeSentenceScorer("smollm2-135m", exact=False)
    try:
        fast = ws.score_batch(AWKWARD[:6])
        again = [ws.score_batch([s])[0] for s in AWKWARD[:6]]
        assert ws.kind == KIND_FAST and ws.info["exact"] is False
    finally:
        ws.close()
    for a, b in zip(fast, again):
        assert a.error == "" and a.score == pytest.approx(b.score, abs=1e-6)  # packing-free


PARENT = """
import json, os, signal, sys
from geobias.core.herb.whole_sentence import WholeSentenceScorer
ws = WholeSentenceScorer("smollm2-135m", threads=1)
scores = [r.score for r in ws.score_batch(sys.argv[1:])]
with open("/proc/self/maps") as f:
    mapped = "xllamacpp" in f.read()
print(json.dumps({"pid": ws.pid, "scores": scores, "mapped": mapped,
                  "imported": "xllamacpp" in sys.modules}))
sys.stdout.flush()
os.kill(os.getpid(), signal.SIGKILL)  # dies without closing anything
"""


@POSIX
def test_the_parent_never_loads_llama_cpp_and_its_death_ends_the_child():
    proc = subprocess.run([sys.executable, "-c", PARENT, *AWKWARD[:3]], capture_output=True,
                          text=True, timeout=600)  # fmt: skip
    assert proc.returncode == -signal.SIGKILL, proc.stderr[-2000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert not out["mapped"] and not out["imported"]  # llama.cpp ran in the child only
    assert all(-30 < s < 0 for s in out["scores"])
    assert gone(out["pid"])  # stdin closed with the parent: the child exited


def small_world():
    ids = ["pe", "lima", "cusco", "cl", "santiago", "valparaiso"]
    names = ["Peru", "Lima", "Cusco", "Chile", "Santiago", "Valparaíso"]
    h = Hierarchy.from_parent_ids(ids, names, [None, "pe", "pe", None, "cl", "cl"])
    words = ["wise", "intelligent", "kind", "honest", "nurse", "strong", "weak", "loyal"]
    return h, [Descriptor(w, "custom") for w in words]


@POSIX
def test_a_killed_child_is_a_clear_error_and_a_new_scorer_resumes_from_the_cache(tmp_path):
    h, words = small_world()
    cache = ScoreCache(str(tmp_path / "herb.sqlite"))
    ws = WholeSentenceScorer("smollm2-135m", batch_size=8)
    spec = HerbSpec(h, ws, words)
    killed = []

    def progress(p):
        if p.done and not killed:
            killed.append(ws.pid)
            os.kill(ws.pid, signal.SIGKILL)

    with pytest.raises(IncompleteScoresError) as e:
        score(spec, cache, progress=progress)
    # every batch after the kill names the cause: the first one, and the stop that follows
    assert "whole-sentence scoring process exited (code -9)" in str(e.value)
    partial = e.value.scores
    done = int(np.isfinite(partial.scores).sum() + np.isfinite(partial.z).sum())
    assert killed and gone(killed[0]) and 0 < done < 6 * 8 + 6
    with pytest.raises(ScorerError, match=r"exited \(code -9\)"):
        ws.score_batch(["People in Lima are kind."])
    ws.close()
    again = WholeSentenceScorer("smollm2-135m", batch_size=8)
    try:
        table = score(HerbSpec(h, again, words), cache)
    finally:
        again.close()
    assert table.complete and table.n_cached == done and table.n_scored == 6 * 8 + 6 - done
    assert (table.scores < 0).all() and (table.z < 0).all()
