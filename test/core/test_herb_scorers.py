"""HERB scorers and runner: /v1/completions echo against a recorded-format fake server, a tiny
randomly initialised BERT checked against a hand computation of AUL, the score cache."""

from __future__ import annotations

import json
import math
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
import pytest

from geobias.core.engine.cache import CacheError, ScoreCache
from geobias.core.engine.chat import Endpoint
from geobias.core.herb.descriptors import Descriptor
from geobias.core.herb.hierarchy import Hierarchy
from geobias.core.herb.run import HerbSpec, IncompleteScoresError, estimate, plan, run, score
from geobias.core.herb.scorers import EchoCompletionsScorer, ScorerError
from geobias.test.netfixtures import Tinyproxy

# --- OpenAI-compatible /v1/completions with echo (vLLM's answer format) ---------------------


def fake_tokens(text: str) -> list[str]:
    return re.findall(r" ?\w+|[^\w\s]| ", text)


def fake_logprob(token: str, position: int) -> float:
    return -round(0.5 + len(token.strip()) * 0.25 + position * 0.125, 6)


class EchoServer:
    """Answers like vLLM: BOS first with a null log-prob, the prompt's tokens, one new token."""

    def __init__(self, bos: str | None = "<s>", fail_first: int = 0, always_fail: bool = False):
        self.bos, self.fail_first, self.always_fail = bos, fail_first, always_fail
        self.status, self.retry_after = 500, None  # the fault's (503: a throttle)
        self.requests = 0
        self.via: list[str] = []  # Via headers seen (an HTTP proxy adds one)
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests += 1
                server.via.append(self.headers.get("Via", ""))
                if server.always_fail or server.requests <= server.fail_first:
                    self.send_response(server.status)
                    if server.retry_after is not None:
                        self.send_header("Retry-After", server.retry_after)
                    self.end_headers()
                    return
                assert self.path == "/v1/completions" and body["echo"] is True
                choices = [server.choice(i, p) for i, p in enumerate(body["prompt"])]
                data = json.dumps({"object": "text_completion", "choices": choices}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def choice(self, index: int, prompt: str) -> dict:
        toks = ([self.bos] if self.bos is not None else []) + fake_tokens(prompt) + [" The"]
        lps = [None] + [fake_logprob(t, i) for i, t in enumerate(toks) if i]
        offsets, pos = [], 0
        for t in toks:
            offsets.append(pos)
            pos += len(t)
        lp = {
            "tokens": toks,
            "token_logprobs": lps,
            "text_offset": offsets,
            "top_logprobs": [None] + [{t: v} for t, v in zip(toks[1:], lps[1:])],
        }
        return {"index": index, "text": prompt + " The", "logprobs": lp, "finish_reason": "length"}

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def echo_server():
    s = EchoServer()
    yield s
    s.close()


def expected_score(sentence: str, offset: int = 1) -> float:
    toks = fake_tokens(sentence)
    return float(np.mean([fake_logprob(t, i + offset) for i, t in enumerate(toks)]))


def test_echo_scores_only_the_sentence_tokens(echo_server):
    sc = EchoCompletionsScorer(Endpoint(echo_server.url, "m"), batch_size=3)
    sents = ["People in Paris are wise.", "People in São Paulo are kind.", "Lima"]
    out = sc.score_batch(sents)
    assert echo_server.requests == 1  # one request for the batch (a list of prompts)
    for r, s in zip(out, sents):
        # BOS (null) and the generated " The" are left out; every sentence token is in.
        assert r.error == "" and r.n_tokens == len(fake_tokens(s))
        assert r.score == pytest.approx(expected_score(s))


def test_echo_needs_a_bos_and_bos_text_supplies_it():
    server = EchoServer(bos=None)
    try:
        sc = EchoCompletionsScorer(Endpoint(server.url, "m"))
        r = sc.score_batch(["People in Lima are wise."])[0]
        assert math.isnan(r.score) and "bos_text" in r.error
        sc = EchoCompletionsScorer(Endpoint(server.url, "m"), bos_text="<|endoftext|>")
        r = sc.score_batch(["People in Lima are wise."])[0]
        n_bos = len(fake_tokens("<|endoftext|>"))
        assert r.error == "" and r.score == pytest.approx(expected_score(r.sentence, n_bos))
    finally:
        server.close()


def test_echo_retries_transient_errors_and_reports_a_dead_server():
    server = EchoServer(fail_first=2)
    try:
        sc = EchoCompletionsScorer(Endpoint(server.url, "m", max_retries=3))
        r = sc.score_batch(["Lima"])[0]
        assert r.error == "" and server.requests == 3
    finally:
        server.close()


def test_echo_scorer_goes_through_the_proxy_it_is_given(echo_server, tmp_path):
    """HERB's remote scorer takes the proxy from its Endpoint, as the survey does (in QGIS:
    its network options), through a real tinyproxy; with proxy "" it goes direct."""
    with Tinyproxy(str(tmp_path), user="geo", password="s3cret") as proxy:
        ep = Endpoint(echo_server.url, "m", proxy=proxy.url, max_retries=0)
        sc = EchoCompletionsScorer.from_endpoint(ep, batch_size=2)
        out = sc.score_batch(["People in Lima are wise.", "Lima"])
        sc.close()
        assert [r.error for r in out] == ["", ""]
        assert out[1].score == pytest.approx(expected_score("Lima"))
        assert echo_server.via and all("tinyproxy" in v for v in echo_server.via)
        assert [h for h in proxy.hits() if "/v1/completions " in h], proxy.hits()
        n_hits = len(proxy.hits())
        direct = EchoCompletionsScorer(Endpoint(echo_server.url, "m", proxy=""))
        direct.score_batch(["Lima"])
        direct.close()
        assert echo_server.via[-1] == "" and len(proxy.hits()) == n_hits


def test_echo_scorer_retries_like_the_survey_and_honours_retry_after():
    """The survey's retry rule now serves HERB: a 409 with Retry-After (longer than the first
    back-off, at most 0.5 s) is waited for, then answered; a 400 fails at once."""
    server = EchoServer(fail_first=1)
    server.status, server.retry_after = 409, "1.2"
    try:
        sc = EchoCompletionsScorer(Endpoint(server.url, "m", max_retries=2))
        t0 = time.monotonic()
        assert sc.score_batch(["Lima"])[0].error == ""
        assert server.requests == 2 and time.monotonic() - t0 >= 1.2
        server.requests, server.fail_first, server.status = 0, 5, 400
        with pytest.raises(ScorerError, match="HTTP 400"):
            sc.score_batch(["Lima"])
        assert server.requests == 1
    finally:
        server.close()


def spec_for(scorer, names=("Paris", "Lima"), words=("wise", "kind", "tall")):
    ids = [f"r{i}" for i in range(len(names))]
    h = Hierarchy.from_parent_ids(ids, list(names), [None] * len(names))
    return HerbSpec(h, scorer, [Descriptor(w, "t") for w in words])


def test_runner_caches_every_score_and_resumes_with_no_requests(echo_server, tmp_path):
    sc = EchoCompletionsScorer(Endpoint(echo_server.url, "m", concurrency=2), batch_size=2)
    spec = spec_for(sc)
    cache = ScoreCache(str(tmp_path / "c.sqlite"))
    est = estimate(spec, cache)
    assert (est.n_sentences, est.n_cached, est.n_to_score, est.n_requests) == (8, 0, 8, 4)
    table = score(spec, cache)
    assert table.complete and table.n_scored == 8 and echo_server.requests == 4
    assert table.scores[0, 0] == pytest.approx(expected_score("People in Paris are wise."))
    assert table.z[1] == pytest.approx(expected_score("Lima"))
    before = echo_server.requests
    again = score(spec, ScoreCache(str(tmp_path / "c.sqlite")))
    assert echo_server.requests == before and again.n_scored == 0 and again.n_cached == 8
    assert estimate(spec, cache).n_requests == 0
    np.testing.assert_array_equal(again.scores, table.scores)


def test_runner_cancel_keeps_what_was_scored(echo_server, tmp_path):
    sc = EchoCompletionsScorer(Endpoint(echo_server.url, "m", concurrency=1), batch_size=1)
    spec = spec_for(sc)
    cache = ScoreCache(str(tmp_path / "c.sqlite"))
    seen = []
    table = score(spec, cache, progress=seen.append, is_cancelled=lambda: len(seen) >= 3)
    assert table.cancelled and not table.complete and 0 < table.n_scored < 8
    assert seen[-1].done == table.n_scored and seen[-1].total == 8
    with pytest.raises(IncompleteScoresError, match="cancelled"):
        run(spec, cache, is_cancelled=lambda: True)
    result = run(spec, cache)  # resumes: only the rest is sent
    assert result.C_w.shape == (3,) and np.isfinite(result.C_w[-1])
    assert estimate(spec, cache).n_to_score == 0


def test_a_dead_scorer_stops_the_run_and_loses_no_cached_score(echo_server, tmp_path):
    cache = ScoreCache(str(tmp_path / "c.sqlite"))
    ep = Endpoint(echo_server.url, "m", max_retries=0, concurrency=1)
    score(spec_for(EchoCompletionsScorer(ep, batch_size=2), names=("Paris",)), cache)
    echo_server.always_fail = True  # the server dies
    sc = EchoCompletionsScorer(ep, batch_size=1)
    with pytest.raises(IncompleteScoresError, match="stopped.*500") as e:
        score(spec_for(sc, names=("Paris", "Lima", "Quito", "Bogota")), cache)
    assert e.value.scores.n_cached == 4  # Paris's sentences were found, not lost
    assert np.isfinite(e.value.scores.scores[0]).all()
    assert np.isnan(e.value.scores.scores[1:]).all() and e.value.scores.failures
    assert echo_server.requests <= 2 + 3 + 2  # stops after 3 failed batches (2 in flight)
    assert cache.n_scores() == 4


def test_cache_keys_never_mix_scorers_models_or_rules(tmp_path):
    cache = ScoreCache(str(tmp_path / "c.sqlite"))
    cache.put_scores("llamacpp", "gguf:a", "r", [("s", -1.0, 3)])
    cache.put_scores("llamacpp", "gguf:b", "r", [("s", -2.0, 3)])
    cache.put_scores("mlm", "gguf:a", "r", [("s", -3.0, 3)])
    cache.put_scores("llamacpp", "gguf:a", "r2", [("s", -4.0, 3)])
    assert cache.get_scores("llamacpp", "gguf:a", "r", ["s", "t"]) == {"s": -1.0}
    assert cache.get_scores("llamacpp", "gguf:b", "r", ["s"]) == {"s": -2.0}
    assert cache.get_scores("mlm", "gguf:a", "r", ["s"]) == {"s": -3.0}
    assert cache.n_scores() == 4
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"not a database" * 100)
    with pytest.raises(CacheError):
        ScoreCache(str(bad))


def test_plan_shares_sentences_of_regions_with_the_same_name():
    h = Hierarchy.from_parent_ids(["a", "b", "c"], ["X", "Y", "Y"], [None, "a", "a"])
    p = plan(HerbSpec(h, None, [Descriptor("wise", "t"), Descriptor("kind", "t")]))
    assert len(p.sentences) == 2 * 2 + 2  # Y's sentences once
    assert (p.matrix[1] == p.matrix[2]).all() and p.sentences[p.names[0]] == "X"


# --- masked LMs in process: a tiny random BERT (test/core/conftest.py) ----------------------


def test_masked_lm_aul_matches_a_hand_computation(tiny_bert):
    if tiny_bert is None:
        # Without the optional packages the scorer says what to install.
        from geobias.core.herb.scorers import MaskedLMScorer

        with pytest.raises(ScorerError, match="pip install torch"):
            MaskedLMScorer("anything")
        return
    import torch
    from transformers import BertForMaskedLM

    from geobias.core.herb.scorers import MaskedLMScorer

    sc = MaskedLMScorer(tiny_bert)
    sents = ["People in Paris are wise.", "People in Lima are very very kind.", "Paris"]
    out = sc.score_batch(sents)  # one padded batch
    model = BertForMaskedLM.from_pretrained(tiny_bert).eval()
    for s, r in zip(sents, out):
        ids = sc.tokenizer(s)["input_ids"]  # [CLS] ... [SEP], alone: no padding
        with torch.no_grad():
            logits = model(torch.tensor([ids])).logits[0].numpy().astype(np.float64)
        logz = np.log(np.exp(logits).sum(axis=1))
        own = [logits[i, ids[i]] - logz[i] for i in range(1, len(ids) - 1)]
        assert r.n_tokens == len(ids) - 2
        assert r.score == pytest.approx(np.mean(own), abs=1e-5)
    assert out[1].n_tokens == 8 and out[2].n_tokens == 1
    # The reference code's rule averages the padded positions as well.
    ref = MaskedLMScorer(tiny_bert, reference_padding=True).score_batch(sents)
    assert ref[0].n_tokens == ref[1].n_tokens == ref[2].n_tokens == 8
    assert ref[1].score == pytest.approx(out[1].score, abs=1e-5)  # the longest: no padding
    assert abs(ref[0].score - out[0].score) > 1e-4  # shorter ones: pads averaged in


def test_masked_lm_runs_herb_end_to_end(tiny_bert, tmp_path):
    if tiny_bert is None:
        pytest.skip("torch/transformers not installed (covered by the error test above)")
    from geobias.core.herb.scorers import MaskedLMScorer

    sc = MaskedLMScorer(tiny_bert, batch_size=4)
    ids = ["sa", "pe", "br", "lima", "quito", "rio", "sp"]
    names = ["South America", "Peru", "Brazil", "Lima", "Cusco", "Rio", "Sao Paulo"]
    parents = [None, "sa", "sa", "pe", "pe", "br", "br"]
    h = Hierarchy.from_parent_ids(ids, names, parents)
    spec = HerbSpec(
        h, sc, [Descriptor(w, t) for w, t in [("wise", "i"), ("kind", "m"), ("very kind", "m")]]
    )
    cache = ScoreCache(str(tmp_path / "c.sqlite"))
    result = run(spec, cache)
    assert np.isfinite(result.C_w[[0, 1, 2]]).all() and (result.C_w[[0, 1, 2]] > 0).all()
    assert np.isnan(result.C_w[result.root])  # one continent: the root has no sparseness
    assert np.isfinite(result.C_z[0]) and set(result.topic_C_w) == {"i", "m"}
    # Region-batched reference scoring keys its scores apart (they depend on the batch).
    ref = HerbSpec(h, MaskedLMScorer(tiny_bert, reference_padding=True), spec.descriptors)
    assert estimate(ref, cache).n_cached == 0
    r2 = run(ref, cache, reference_code=True)
    assert r2.C_w[1] != pytest.approx(result.C_w[1])


def test_echo_scorer_waits_out_a_throttle_without_spending_its_retries():
    """HERB's remote scorer sends through the survey's HttpClient: 429s with Retry-After are
    waited out (five of them with one retry allowed), not counted as failed attempts."""
    server = EchoServer(fail_first=5)
    server.status, server.retry_after = 429, "0.2"
    try:
        sc = EchoCompletionsScorer(Endpoint(server.url, "m", max_retries=1))
        t0 = time.monotonic()
        assert sc.score_batch(["Lima"])[0].error == ""
        assert server.requests == 6 and time.monotonic() - t0 >= 0.2
        assert sc.http.client.throttle.n_throttled == 5
    finally:
        server.close()
