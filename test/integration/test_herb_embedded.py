"""HERB sentence scores from the real embedded SmolLM2 (llama.cpp server) by forced decoding."""

import numpy as np
import pytest
import requests

from geobias.core.engine.cache import ScoreCache
from geobias.core.engine.chat import server_endpoint
from geobias.core.herb.descriptors import Descriptor
from geobias.core.herb.hierarchy import Hierarchy
from geobias.core.herb.run import HerbSpec, estimate, run, score
from geobias.core.herb.scorers import LlamaCppScorer

pytestmark = pytest.mark.integration

# " in" is a prefix of " intelligent": under a text grammar the biased " in" can win there.
SENTENCES = ["People in Paris are intelligent.", "People in Lagos are kind.", "Lima"]


def per_token_logprobs(root, bos, tokens):
    """Independent check: one plain request per token, only that token biased."""
    out = []
    for i, t in enumerate(tokens):
        body = {
            "prompt": [bos, *tokens[:i]],
            "n_predict": 1,
            "n_probs": 1,
            "temperature": 0,
            "logit_bias": [[t, 100]],
        }
        got = requests.post(root + "/completion", json=body, timeout=60).json()
        entry = got["completion_probabilities"][0]
        assert entry["id"] == t
        out.append(entry["logprob"])
    return out


@pytest.fixture(scope="module")
def smollm2_server():
    """SmolLM2, not the default model: the checks below know its tokenizer (BOS 1, " in")."""
    from geobias.core.runtime.embedded import EmbeddedServer

    with EmbeddedServer("smollm2-135m", parallel=2) as server:
        yield server


@pytest.fixture(scope="module")
def scorer(smollm2_server):
    sc = LlamaCppScorer.from_endpoint(server_endpoint(smollm2_server))
    yield sc
    sc.close()


@pytest.fixture(scope="module")
def smollm2_sha(smollm2_server):
    import hashlib

    from geobias.core.runtime import models

    with open(models.model_path("smollm2-135m"), "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def test_forced_decoding_equals_scoring_token_by_token(scorer, smollm2_sha):
    # The file's name and checksum (the server's model file is on this machine).
    assert scorer.identity == "gguf:SmolLM2-135M-Instruct.Q4_1.gguf@" + smollm2_sha[:16]
    assert scorer.legacy_identity == "gguf:SmolLM2-135M-Instruct.Q4_1.gguf"
    assert scorer.bos_id == 1 and scorer.token_grammar  # <|im_start|>, token-id grammar
    tokens = scorer.tokenize_many(SENTENCES)
    assert tokens[0][:2] == tokens[1][:2] and len(tokens[2]) >= 1  # no BOS inside
    got = scorer.score_batch(SENTENCES)
    for s, toks, r in zip(SENTENCES, tokens, got):
        want = per_token_logprobs(scorer.root, scorer.bos_id, toks)
        assert r.error == "" and r.n_tokens == len(toks)
        assert r.score == pytest.approx(np.mean(want), abs=1e-4), s
        assert -30 < r.score < 0


def test_text_grammar_mismatch_is_caught_and_redone(smollm2_server, scorer):
    plain = LlamaCppScorer.from_endpoint(
        server_endpoint(smollm2_server), token_grammar=False, share_prefix=False
    )
    got = plain.score_batch(SENTENCES[:1])
    assert plain.n_fallback_sentences == 1  # " in" won at " intelligent": never accepted
    assert got[0].score == pytest.approx(scorer.score_batch(SENTENCES[:1])[0].score, abs=1e-4)
    plain.close()


def test_herb_over_a_small_hierarchy_then_cached(scorer, tmp_path):
    ids = ["pe", "lima", "cusco", "cl", "santiago", "valparaiso"]
    names = ["Peru", "Lima", "Cusco", "Chile", "Santiago", "Valparaíso"]
    h = Hierarchy.from_parent_ids(ids, names, [None, "pe", "pe", None, "cl", "cl"])
    words = [
        ("wise", "intelligence"),
        ("intelligent", "intelligence"),
        ("kind", "morality"),
        ("honest", "morality"),
        ("nurse", "occupation"),
    ]
    spec = HerbSpec(h, scorer, [Descriptor(w, t) for w, t in words])
    cache = ScoreCache(str(tmp_path / "herb.sqlite"))
    assert estimate(spec, cache).n_to_score == 6 * 5 + 6
    progress = []
    result = run(spec, cache, progress=progress.append)
    assert progress[-1].done == progress[-1].total == 36 and progress[-1].failed == 0
    clusters = [0, 3, result.root]  # Peru, Chile, Earth; cities have no sub-regions (NaN)
    assert (result.C_w[clusters] > 0).all() and (result.C_z[clusters] > 0).all()
    assert np.isnan(result.C_w[[1, 2, 4, 5]]).all() and result.scores.max() < 0
    assert set(result.topic_C_w) == {"intelligence", "morality", "occupation"}
    # A second run finds every score in the cache and sends nothing.
    before = scorer.http.n_requests
    again = score(spec, cache)
    assert scorer.http.n_requests == before and again.n_scored == 0 and again.n_cached == 36
    np.testing.assert_array_equal(again.scores, result.scores)
    assert estimate(spec, cache).n_requests == 0


def test_llamacpp_scorer_goes_through_the_proxy_it_is_given(smollm2_server, scorer, tmp_path):
    """A llama.cpp server reached through a real tinyproxy (the proxy from the scorer's Endpoint,
    as QGIS's network options give it) scores exactly as directly; the embedded preset itself
    stays direct whatever proxy the environment names."""
    from dataclasses import replace

    from geobias.test.netfixtures import Tinyproxy

    with Tinyproxy(str(tmp_path)) as proxy:
        remote = replace(server_endpoint(smollm2_server), provider="llamacpp", proxy=proxy.url)
        proxied = LlamaCppScorer.from_endpoint(remote)
        got = proxied.score_batch(SENTENCES[:2])
        proxied.close()
        hits = proxy.hits()
        assert [h for h in hits if "/completion " in h] and [h for h in hits if "/props " in h]
        want = scorer.score_batch(SENTENCES[:2])
        assert [r.score for r in got] == pytest.approx([r.score for r in want], abs=1e-4)
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("http_proxy", proxy.url)
            mp.setenv("no_proxy", "")
            direct = LlamaCppScorer.from_endpoint(server_endpoint(smollm2_server))
            direct.score_batch(SENTENCES[2:])
            direct.close()
        assert len(proxy.hits()) == len(hits)
