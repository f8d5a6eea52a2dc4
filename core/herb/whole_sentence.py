"""HERB's whole-sentence scorer: every sentence in one pass of llama.cpp, in a child process.

Forced decoding (core/herb/scorers.py LlamaCppScorer) makes a llama.cpp server generate a sentence
one token at a time, because the server returns no log-probabilities for a prompt. llama.cpp's
C API does: one `llama_decode` of a packed batch gives the logits at every position of hundreds
of sentences (core/runtime/sentence_packing.py), in a child process
(core/runtime/whole_sentence_worker.py) that calls the C API of the pinned xllamacpp wheel
through ctypes (core/runtime/llama_capi.py).

The score is the same quantity: s = mean over the sentence's tokens of log P(token | BOS and the
tokens before it), the bare region name's z included, normalised the way the server normalises
(core/sentence_packing.log_partition).

Two numerics (core/runtime/llama_capi.py LlamaModel explains why they differ):

- exact (default): llama.cpp's one-row kernels, as in a one-token decode: the numbers forced
  decoding gets from the embedded server, within 3e-5 per sentence on the bundled models.
  Cache key: forced decoding's own (kind "llamacpp", identity "gguf:<file>", rule
  "mean-logprob-from-bos"): the same numbers under the same key, so either method resumes
  the other's run and a sentence is never scored twice.
- fast (exact=False): whole batches per graph step; scores that do not depend on the packing,
  a median of 0.032 per sentence from forced decoding's (measured, issue 36). Cache kind
  "llamacpp-batched": never mixed with forced decoding's.
"""

from __future__ import annotations

import math
import os

from ..runtime.child_process import ChildError, JsonLinesChild, worker_path
from .scorers import RULE_CAUSAL, Scored, ScorerError, SentenceScorer, gguf_identity

__all__ = ["KIND_EXACT", "KIND_FAST", "WholeSentenceScorer"]

KIND_EXACT = "llamacpp"  # forced decoding's (core/herb/scorers.py LlamaCppScorer.kind)
KIND_FAST = "llamacpp-batched"
CHILD_MODULES = ["xllamacpp", "numpy"]
# Sentences per score_batch call: several decodes' worth (a region's 112 descriptor sentences
# pack into ~400 tokens), few enough that a stopped run loses little unsaved work.
BATCH_SENTENCES = 448


class WholeSentenceScorer(SentenceScorer):
    """Scores sentences with llama.cpp's C API in a child process (see the module docstring).

    model: a core/runtime/models.py key ("smollm2-135m", "gemma3-270m") or any GGUF file's path
    (None: the default embedded model), resolved by the child. threads, batch_tokens: None for
    core/runtime/hardware.py's rule. share_prefix: lay a batch out as a token trie (False: every
    sentence from its own BOS; the same scores, more tokens). python: the interpreter to run the
    child (default: the first of core/runtime/embedded.py's candidates with xllamacpp and numpy).
    timeout: seconds an answer may take. exact: forced decoding's numbers (see the module
    docstring); False: faster, other numbers, another cache kind.

    Interface: core/herb/scorers.py SentenceScorer (`score_batch`, `close`, kind, identity, rule,
    batch_size, concurrency 1: one child, one request at a time). A child that exits or hangs
    is a ScorerError; herb_run records the batch as failed and keeps what was cached, and a new
    scorer resumes from the cache.
    """

    rule = RULE_CAUSAL
    concurrency = 1
    requests_per_sentence = 0.0
    needs_region_batches = False

    def __init__(
        self,
        model: str | None = None,
        threads: int | None = None,
        batch_tokens: int | None = None,
        share_prefix: bool = True,
        python: str | None = None,
        timeout: float = 600.0,
        batch_size: int = BATCH_SENTENCES,
        exact: bool = True,
    ):
        from ..runtime import embedded

        try:
            self.python = embedded.find_python_with(CHILD_MODULES, python)
        except embedded.EmbeddedError as e:
            raise ScorerError(
                "whole-sentence scoring needs xllamacpp and numpy in a Python GeoBias can run "
                f"(QGIS's own, or a venv at {embedded.USER_VENV}): {e}"
            ) from e
        self.batch_size = max(1, int(batch_size))
        self.stats: dict = {}
        cmd = [self.python, worker_path("whole_sentence_worker.py"), "--parent-pid",
               str(os.getpid())]  # fmt: skip
        cmd += ["--model", model] if model else []
        cmd += ["--threads", str(int(threads))] if threads else []
        cmd += ["--batch-tokens", str(int(batch_tokens))] if batch_tokens else []
        cmd += [] if share_prefix else ["--no-share-prefix"]
        cmd += [] if exact else ["--fast"]
        self.kind = KIND_EXACT if exact else KIND_FAST
        try:
            # The child inherits the working folder, so a relative GGUF path names the same file.
            self._child = JsonLinesChild(
                cmd, "the whole-sentence scoring process", timeout,
                env=embedded.child_env(self.python), creationflags=embedded._no_window(),
            )  # fmt: skip
            first = self._child.receive()
        except ChildError as e:
            self.close()
            raise ScorerError(str(e)) from e
        if "ready" not in first:
            self.close()
            raise ScorerError(str(first.get("error") or first))
        self.info = first["ready"]
        self.identity, self.legacy_identity = gguf_identity(self.info["model_path"])
        self.threads = int(self.info["threads"])

    def score_batch(self, sentences: list[str]) -> list[Scored]:
        """One Scored per sentence (a sentence too long for one decode is that one's error)."""
        reply = self._ask({"sentences": list(sentences)})
        rows = reply.get("scored")
        if not isinstance(rows, list) or len(rows) != len(sentences):
            raise ScorerError(f"the whole-sentence scoring process answered {reply}")
        self._add_stats(reply.get("stats") or {})
        out = []
        for s, (value, n, error) in zip(sentences, rows):
            if error:
                out.append(Scored(s, error=str(error)))
            else:
                out.append(Scored(s, math.nan if value is None else float(value), int(n)))
        return out

    def decode_only(self, sentences: list[str]) -> dict:
        """Pack `sentences` as score_batch would and only decode them: the child's timings
        (decode_s, tokens, batches). For benchmarks."""
        return self._ask({"decode_only": list(sentences)})["stats"]

    def _ask(self, message: dict) -> dict:
        child = getattr(self, "_child", None)
        if child is None:
            raise ScorerError(
                getattr(self, "_failure", "") or "the whole-sentence scoring process is stopped"
            )
        try:
            reply = child.request(message)
        except ChildError as e:
            raise ScorerError(str(e)) from e
        if "error" in reply:
            raise ScorerError(f"the whole-sentence scoring process: {reply['error']}")
        return reply

    def _add_stats(self, stats: dict) -> None:
        for k, v in stats.items():
            if isinstance(v, (int, float)):
                self.stats[k] = self.stats.get(k, 0) + v

    @property
    def pid(self) -> int | None:
        """The child's process id while it runs."""
        child = getattr(self, "_child", None)
        return child.pid if child is not None else None

    def close(self) -> None:
        """Stop the child (it exits when its stdin closes; then terminate, then kill)."""
        child, self._child = getattr(self, "_child", None), None
        if child is not None:
            child.close()
            self._failure = child.failure
