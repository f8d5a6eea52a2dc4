"""Whole-sentence packing and arithmetic (core/runtime/sentence_packing.py), without a model: a fake
"model" whose logits at a position are a fixed function of the tokens before it, so every
sentence's score has a by-hand value to compare with, however the batch was packed."""

import hashlib

import numpy as np
import pytest

from geobias.core.runtime.sentence_packing import Packer, log_partition, score_batch

BOS = 1
VOCAB = 97


def fake_logits(prefix: tuple) -> np.ndarray:
    """The logits a fake causal LM gives after `prefix` (BOS first): seeded by the prefix."""
    seed = int(hashlib.sha256(repr(prefix).encode()).hexdigest()[:8], 16)
    return np.random.default_rng(seed).normal(0, 3, VOCAB).astype(np.float32)


def server_logprob(row: np.ndarray, token: int) -> float:
    """llama.cpp's server arithmetic, term by term: float32 sum of exp(l - max) in vocab order."""
    top = row.max()
    total = np.float32(0)
    for v in row:
        total = np.float32(total + np.float32(np.exp(np.float32(v - top))))
    return float(row[token]) - float(top) - float(np.log(np.float64(total)))


def by_hand(tokens: list) -> float:
    """A sentence's score computed one position at a time."""
    seq = [BOS, *tokens]
    return float(np.mean([server_logprob(fake_logits(tuple(seq[:k])), seq[k])
                          for k in range(1, len(seq))]))  # fmt: skip


def decode(batch) -> np.ndarray:
    """What llama_decode returns for the batch under the fake model: one logits row per node,
    in batch order, from the node's path (its ancestors' tokens and its own)."""
    rows = []
    for i in range(batch.n_tokens):
        path, node = [], int(i)
        while node >= 0:
            path.append(int(batch.tokens[node]))
            node = int(batch.parent[node])
        rows.append(fake_logits(tuple(reversed(path))))
    return np.array(rows, dtype=np.float32).reshape(len(rows), VOCAB)


SENTENCES = [
    [10, 11, 12, 13],  # People in Lima are ...
    [10, 11, 12, 14],
    [10, 11, 15, 13],
    [12],  # a one-token bare name
    [10, 11],  # a sentence that is a prefix of others: its last token is an inner node
    [10, 11, 12, 13],  # the same tokens twice
    [20, 21, 22, 23, 24, 25, 26],
]


@pytest.mark.parametrize("share", [True, False])
def test_every_sentence_scores_as_by_hand(share):
    batches, errors = Packer(BOS, 64, share_prefix=share).pack(SENTENCES)
    assert errors == {} and len(batches) == 1
    (b,) = batches
    got, counts = score_batch(b, decode(b))
    assert b.sentences.tolist() == list(range(len(SENTENCES)))
    assert counts.tolist() == [len(t) for t in SENTENCES]
    assert got == pytest.approx([by_hand(t) for t in SENTENCES], abs=1e-9)


def test_the_trie_shares_prefixes_and_never_decodes_a_last_token():
    (b,), _ = Packer(BOS, 64).pack(SENTENCES)
    # decoded: BOS; 10 11 12 (-> 13, 14); 11 -> 15 (-> 13); 20..25 (-> 26); every one predicts
    assert b.n_tokens == 1 + 3 + 1 + 6 and b.output.all()
    unshared = Packer(BOS, 64, share_prefix=False).pack(SENTENCES)[0][0]
    assert unshared.n_tokens == sum(len(t) for t in SENTENCES)  # BOS + all tokens but the last
    assert b.tokens[0] == BOS and b.pos[0] == 0 and b.parent[0] == -1
    assert (b.pos[1:] == b.pos[b.parent[1:]] + 1).all()  # a child is one position further
    assert (b.parent[1:] < np.arange(1, b.n_tokens)).all()  # parents are decoded first
    for j, toks in enumerate(SENTENCES):
        rows = b.rows[b.start[j] : b.start[j + 1]]
        assert b.targets[b.start[j] : b.start[j + 1]].tolist() == toks
        assert rows[0] == 0 and b.tokens[rows[1:]].tolist() == toks[:-1]  # BOS, w_1..w_{n-1}
        # the nodes read by the sentence (and only they) hold its seq_id
        holds = {int(n) for n in range(b.n_tokens)
                 if j in b.seq_flat[b.seq_start[n] : b.seq_start[n + 1]].tolist()}  # fmt: skip
        assert holds == set(rows.tolist())
    # llama.cpp masks by a node's first seq_id: it must belong to a sentence through the node,
    # so the node sees exactly its ancestors
    for n in range(1, b.n_tokens):
        first = int(b.seq_flat[b.seq_start[n]])
        assert n in b.rows[b.start[first] : b.start[first + 1]].tolist()


@pytest.mark.parametrize("share", [True, False])
def test_batches_respect_every_budget_and_hold_each_sentence_once(share):
    rng = np.random.default_rng(7)
    # Python ints, as token ids come from the tokenizer (numpy 2's scalar rules differ).
    sentences = [[int(t) for t in rng.integers(2, 40, rng.integers(1, 9))] for _ in range(300)]
    packer = Packer(BOS, max_tokens=24, max_seqs=9, share_prefix=share)
    batches, errors = packer.pack(sentences)
    assert errors == {}
    seen = np.concatenate([b.sentences for b in batches])
    assert sorted(seen.tolist()) == list(range(len(sentences)))
    for b in batches:
        assert b.n_tokens <= 24 and len(b.sentences) <= 9
        got, _ = score_batch(b, decode(b))
        want = [by_hand(sentences[i]) for i in b.sentences]
        assert got == pytest.approx(want, abs=1e-9)


def test_a_sentence_that_cannot_fit_is_an_error_and_the_rest_still_pack():
    packer = Packer(BOS, max_tokens=6)
    batches, errors = packer.pack([[5, 6], [], list(range(2, 12)), [7, 8, 9], list(range(6))])
    assert set(errors) == {1, 2}  # 6 tokens fit: BOS and the first 5 are decoded
    assert "no tokens" in errors[1] and "10 tokens; at most 6 fit" in errors[2]
    assert sorted(np.concatenate([b.sentences for b in batches]).tolist()) == [0, 3, 4]


def test_log_partition_sums_as_the_server_does():
    rng = np.random.default_rng(3)
    rows = rng.normal(0, 4, (5, 3000)).astype(np.float32)
    got = log_partition(rows, chunk=2)
    want = [float(r[0]) - server_logprob(r, 0) for r in rows]
    assert got == pytest.approx(want, abs=1e-9)
    exact = rows.max(1) + np.log(np.exp(rows.astype(np.float64) - rows.max(1)[:, None]).sum(1))
    assert np.abs(got - exact).max() < 1e-4  # float32 rounding, not another quantity
