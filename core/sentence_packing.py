"""Whole-sentence scoring's arithmetic: sentences packed into decode batches, scores from logits.

A causal LM scores a sentence w_1..w_n as the mean log-probability of its tokens, each given
the beginning-of-sequence token and the tokens before it (core/scorers.py, RULE_CAUSAL):

    s = (1/n) * sum_k log softmax(logits(BOS, w_1..w_{k-1}))[w_k]

One llama.cpp decode computes the logits at every position of many sequences at once. The
sentences of a batch are laid out as a token trie: a node is one token at one position (BOS at
position 0 is the root), shared by every sentence whose tokens start with the same path, so
"People in Lima are" is computed once for all of Lima's descriptors, and "People in" once for
the whole batch. Each sentence is a sequence of its own (a seq_id); a node belongs to the seq_ids
of every sentence through it, and llama.cpp's causal mask lets a node see exactly its ancestors:
the cells that hold the node's (first) seq_id at smaller positions. Logits are requested only at
nodes with children (a sentence's last token predicts nothing).

Pure numpy: no llama.cpp here, so the packing and the arithmetic are tested without a model.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["PackedBatch", "Packer", "log_partition", "score_batch"]

MAX_SEQS = 256  # llama.cpp's LLAMA_MAX_SEQ: distinct seq_ids one context can hold


@dataclass
class PackedBatch:
    """One llama_decode's input: n tokens (trie nodes) and where each sentence's path runs.

    tokens, pos, n_seq_id, output, parent, out_row: (n,) per node (parent -1 and out_row of a
    node without logits -1); seq_flat / seq_start: the seq_ids of node i are
    seq_flat[seq_start[i]:seq_start[i + 1]]; sentences: (k,) the caller's indices of the packed
    sentences; path_nodes / path_start: sentence j's token nodes (BOS excluded) in order are
    path_nodes[path_start[j]:path_start[j + 1]].
    """

    tokens: np.ndarray
    pos: np.ndarray
    n_seq_id: np.ndarray
    seq_flat: np.ndarray
    seq_start: np.ndarray
    output: np.ndarray
    parent: np.ndarray
    out_row: np.ndarray
    sentences: np.ndarray
    path_nodes: np.ndarray
    path_start: np.ndarray

    @property
    def n_tokens(self) -> int:
        return int(len(self.tokens))

    @property
    def n_outputs(self) -> int:
        return int(self.output.sum())

    def with_all_outputs(self) -> PackedBatch:
        """The same batch with logits at every position (a benchmark's bare decode)."""
        n = self.n_tokens
        return PackedBatch(**{**self.__dict__, "output": np.ones(n, np.int8),
                              "out_row": np.arange(n, dtype=np.int32)})  # fmt: skip


class _Trie:
    """The batch being filled."""

    def __init__(self, bos: int, share_prefix: bool):
        self.bos = bos
        self.share = share_prefix
        self.tokens: list[int] = []
        self.pos: list[int] = []
        self.parent: list[int] = []
        self.out: list[bool] = []
        self.seqs: list[list[int]] = []
        self.children: dict[tuple[int, int], int] = {}
        self.n_out = 0
        self.sentences: list[int] = []
        self.paths: list[list[int]] = []
        if share_prefix:
            self._node(bos, 0, -1)

    def _node(self, token: int, pos: int, parent: int) -> int:
        self.tokens.append(token)
        self.pos.append(pos)
        self.parent.append(parent)
        self.out.append(False)
        self.seqs.append([])
        return len(self.tokens) - 1

    def cost(self, toks: list[int]) -> tuple[int, int]:
        """(new nodes, new logits rows) that adding a sentence of tokens `toks` takes."""
        if not self.share:
            return len(toks) + 1, len(toks)
        node, matched = 0, 0
        new_out = 0 if self.out[0] else 1  # the root predicts the first token
        for k, t in enumerate(toks):
            child = self.children.get((node, t))
            if child is None:
                break
            node, matched = child, k + 1
            if k < len(toks) - 1 and not self.out[child]:
                new_out += 1  # a former leaf now predicts this sentence's next token
        unmatched = len(toks) - matched
        return unmatched, new_out + max(0, unmatched - 1)

    def add(self, index: int, toks: list[int]) -> None:
        seq = len(self.sentences)
        if self.share:
            node = 0
        else:
            node = self._node(self.bos, 0, -1)
        path_nodes = [node]
        for k, t in enumerate(toks):
            child = self.children.get((node, t)) if self.share else None
            if child is None:
                child = self._node(t, k + 1, node)
                if self.share:
                    self.children[(node, t)] = child
            node = child
            path_nodes.append(node)
        for k, n in enumerate(path_nodes):
            self.seqs[n].append(seq)
            if k < len(path_nodes) - 1 and not self.out[n]:
                self.out[n] = True
                self.n_out += 1
        self.sentences.append(index)
        self.paths.append(path_nodes[1:])

    def freeze(self) -> PackedBatch:
        out = np.array(self.out, dtype=np.int8)
        out_row = np.where(out == 1, np.cumsum(out) - 1, -1).astype(np.int32)
        n_seq = np.array([len(s) for s in self.seqs], dtype=np.int32)
        seq_start = np.zeros(len(n_seq) + 1, dtype=np.int64)
        np.cumsum(n_seq, out=seq_start[1:])
        lengths = np.array([len(p) for p in self.paths], dtype=np.int64)
        path_start = np.zeros(len(lengths) + 1, dtype=np.int64)
        np.cumsum(lengths, out=path_start[1:])
        return PackedBatch(
            tokens=np.array(self.tokens, dtype=np.int32),
            pos=np.array(self.pos, dtype=np.int32),
            n_seq_id=n_seq,
            seq_flat=np.array([s for seqs in self.seqs for s in seqs], dtype=np.int32),
            seq_start=seq_start,
            output=out,
            parent=np.array(self.parent, dtype=np.int32),
            out_row=out_row,
            sentences=np.array(self.sentences, dtype=np.int64),
            path_nodes=np.array([n for p in self.paths for n in p], dtype=np.int32),
            path_start=path_start,
        )


@dataclass
class Packer:
    """Packs tokenised sentences, in order, into batches that fit one decode.

    max_tokens: nodes per batch (the context's n_batch = n_ubatch = n_ctx); max_outputs: logits
    rows per batch (n_outputs_max: n_vocab floats each); max_seqs: sentences per batch (distinct
    seq_ids); share_prefix: one trie per batch (False: every sentence from its own BOS).
    """

    bos: int
    max_tokens: int
    max_outputs: int
    max_seqs: int = MAX_SEQS
    share_prefix: bool = True

    def too_long(self, toks: list[int]) -> str:
        """Why a sentence cannot be scored at all ("" when it can)."""
        if not toks:
            return "the sentence has no tokens"
        most = min(self.max_tokens - 1, self.max_outputs)
        if len(toks) > most:
            return f"the sentence has {len(toks)} tokens; at most {most} fit one decode"
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
            nodes, outs = trie.cost(toks)
            full = (
                len(trie.tokens) + nodes > self.max_tokens
                or trie.n_out + outs > self.max_outputs
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
    logits rows (n_outputs, n_vocab) in batch order."""
    lse = log_partition(logits)
    nodes = batch.path_nodes
    rows = batch.out_row[batch.parent[nodes]]
    if (rows < 0).any():
        raise ValueError("a scored token's parent has no logits row")
    lp = logits[rows, batch.tokens[nodes]].astype(np.float64) - lse[rows]
    counts = np.diff(batch.path_start)
    sums = np.add.reduceat(lp, batch.path_start[:-1]) if len(lp) else np.zeros(0)
    return sums / counts, counts
