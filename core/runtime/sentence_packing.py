"""Whole-sentence scoring's arithmetic: sentences packed into decode batches, scores from logits.

A causal LM scores a sentence w_1..w_n as the mean log-probability of its tokens, each given
the beginning-of-sequence token and the tokens before it (core/herb/scorers.py, RULE_CAUSAL):

    s = (1/n) * sum_k log softmax(logits(BOS, w_1..w_{k-1}))[w_k]

so the model must read BOS, w_1, ..., w_{n-1} (a sentence's last token predicts nothing: it is
never decoded) and give the logits at each of them. One llama.cpp decode does this for many
sequences at once. The prefixes of a batch's sentences are laid out as a token trie: a node is
one token at one position (BOS at position 0 is the root), shared by every sentence whose tokens
start with the same path, so "People in Lima are" is computed once for all of Lima's
descriptors, and "People in" once for the whole batch. Each sentence is a sequence of its own
(a seq_id); a node belongs to the seq_ids of every sentence through it, and llama.cpp's causal
mask lets a node see exactly its ancestors: the cells that hold the node's (first) seq_id at
smaller positions. Every node gives logits: each predicts the next token of some sentence.

Pure numpy: no llama.cpp here, so the packing and the arithmetic are tested without a model.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["PackedBatch", "Packer", "log_partition", "score_batch"]

MAX_SEQS = 256  # llama.cpp's LLAMA_MAX_SEQ: distinct seq_ids one context can hold


@dataclass
class PackedBatch:
    """One llama_decode's input (n nodes, each with logits) and what each sentence reads.

    tokens, pos, n_seq_id, parent: (n,) per node, in decode order (a parent before its
    children; the root's parent -1); seq_flat / seq_start: node i's seq_ids are
    seq_flat[seq_start[i]:seq_start[i + 1]]; sentences: (k,) the caller's indices of the packed
    sentences; sentence j's tokens are targets[start[j]:start[j + 1]], each predicted by the
    logits row (= node) at the same place in rows.
    """

    tokens: np.ndarray
    pos: np.ndarray
    n_seq_id: np.ndarray
    seq_flat: np.ndarray
    seq_start: np.ndarray
    parent: np.ndarray
    sentences: np.ndarray
    rows: np.ndarray
    targets: np.ndarray
    start: np.ndarray

    @property
    def n_tokens(self) -> int:
        return int(len(self.tokens))

    @property
    def output(self) -> np.ndarray:
        """llama_batch.logits: every node."""
        return np.ones(self.n_tokens, dtype=np.int8)


class _Trie:
    """The batch being filled."""

    def __init__(self, bos: int, share_prefix: bool):
        self.bos = bos
        self.share = share_prefix
        self.tokens: list[int] = []
        self.pos: list[int] = []
        self.parent: list[int] = []
        self.seqs: list[list[int]] = []
        self.children: dict[tuple[int, int], int] = {}
        self.sentences: list[int] = []
        self.rows: list[list[int]] = []
        self.targets: list[list[int]] = []
        if share_prefix:
            self._node(bos, 0, -1)

    def _node(self, token: int, pos: int, parent: int) -> int:
        self.tokens.append(token)
        self.pos.append(pos)
        self.parent.append(parent)
        self.seqs.append([])
        return len(self.tokens) - 1

    def cost(self, toks: list[int]) -> int:
        """Nodes that adding a sentence of tokens `toks` takes: its prefix BOS, w_1..w_{n-1}
        less what the trie holds already."""
        if not self.share:
            return len(toks)
        node = 0
        for k, t in enumerate(toks[:-1]):
            child = self.children.get((node, t))
            if child is None:
                return len(toks) - 1 - k
            node = child
        return 0

    def add(self, index: int, toks: list[int]) -> None:
        seq = len(self.sentences)
        node = 0 if self.share else self._node(self.bos, 0, -1)
        prefix = [node]
        for k, t in enumerate(toks[:-1]):
            child = self.children.get((node, t)) if self.share else None
            if child is None:
                child = self._node(t, k + 1, node)
                if self.share:
                    self.children[(node, t)] = child
            node = child
            prefix.append(node)
        for n in prefix:
            self.seqs[n].append(seq)
        self.sentences.append(index)
        self.rows.append(prefix)
        self.targets.append(list(toks))

    def freeze(self) -> PackedBatch:
        n_seq = np.array([len(s) for s in self.seqs], dtype=np.int32)
        seq_start = np.zeros(len(n_seq) + 1, dtype=np.int64)
        np.cumsum(n_seq, out=seq_start[1:])
        lengths = np.array([len(t) for t in self.targets], dtype=np.int64)
        start = np.zeros(len(lengths) + 1, dtype=np.int64)
        np.cumsum(lengths, out=start[1:])
        return PackedBatch(
            tokens=np.array(self.tokens, dtype=np.int32),
            pos=np.array(self.pos, dtype=np.int32),
            n_seq_id=n_seq,
            seq_flat=np.array([s for seqs in self.seqs for s in seqs], dtype=np.int32),
            seq_start=seq_start,
            parent=np.array(self.parent, dtype=np.int32),
            sentences=np.array(self.sentences, dtype=np.int64),
            rows=np.array([r for rows in self.rows for r in rows], dtype=np.int64),
            targets=np.array([t for ts in self.targets for t in ts], dtype=np.int64),
            start=start,
        )


@dataclass
class Packer:
    """Packs tokenised sentences, in order, into batches that fit one decode.

    max_tokens: nodes per batch, each with a logits row (the context's n_batch and
    n_outputs_max: n_vocab floats a row); max_seqs: sentences per batch (distinct seq_ids);
    share_prefix: one trie per batch (False: every sentence from its own BOS).
    """

    bos: int
    max_tokens: int
    max_seqs: int = MAX_SEQS
    share_prefix: bool = True

    def too_long(self, toks: list[int]) -> str:
        """Why a sentence cannot be scored at all ("" when it can)."""
        if not toks:
            return "the sentence has no tokens"
        if len(toks) > self.max_tokens:
            return f"the sentence has {len(toks)} tokens; at most {self.max_tokens} fit one decode"
        return ""

    def pack(self, token_lists: list[list[int]]) -> tuple[list[PackedBatch], dict[int, str]]:
        """(batches, {index: error}) for every sentence; each scorable one in exactly one batch."""
        batches: list[PackedBatch] = []
        errors: dict[int, str] = {}
        trie = _Trie(self.bos, self.share_prefix)
        for i, toks in enumerate(token_lists):
            why = self.too_long(toks)
            if why:
                errors[i] = why
                continue
            full = (
                len(trie.tokens) + trie.cost(toks) > self.max_tokens
                or len(trie.sentences) >= self.max_seqs
            )
            if full and trie.sentences:
                batches.append(trie.freeze())
                trie = _Trie(self.bos, self.share_prefix)
            trie.add(i, toks)
        if trie.sentences:
            batches.append(trie.freeze())
        return batches, errors


def log_partition(rows: np.ndarray, chunk: int = 8) -> np.ndarray:
    """log sum_v exp(rows[r, v]) per row, summed the way llama.cpp's server sums it.

    The server's log-probabilities (what forced decoding reads) divide by a float32 sum of
    exp(logit - max) taken in vocabulary order, one term after the other. Over a vocabulary of
    49,152 (SmolLM2) to 262,144 (Gemma 3) terms that sum comes out about 1e-4 (relative) below
    the exact one, so log-probabilities come out ~1.4e-4 higher; summing the same way here keeps
    the two methods' scores equal to float32 rounding instead of 1e-4 apart. `chunk` rows at a
    time: a scratch block that stays in cache.
    """
    n, width = rows.shape
    out = np.empty(n, dtype=np.float64)
    scratch = np.empty((min(chunk, max(n, 1)), width), dtype=np.float32)
    for a in range(0, n, chunk):
        block = rows[a : a + chunk]
        k = len(block)
        top = block.max(axis=1)
        np.subtract(block, top[:, None], out=scratch[:k])
        np.exp(scratch[:k], out=scratch[:k])
        # cumsum is a sequential float32 sum (sum() would sum pairwise: more exact, not equal)
        np.cumsum(scratch[:k], axis=1, out=scratch[:k])
        out[a : a + k] = top.astype(np.float64) + np.log(scratch[:k, -1].astype(np.float64))
    return out


def score_batch(batch: PackedBatch, logits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(mean log-probability, number of tokens) of each packed sentence, from the decode's
    logits (one row per node, in batch order)."""
    lse = log_partition(logits)
    lp = logits[batch.rows, batch.targets].astype(np.float64) - lse[batch.rows]
    counts = np.diff(batch.start)
    sums = np.add.reduceat(lp, batch.start[:-1]) if len(lp) else np.zeros(0)
    return sums / counts, counts
