"""Whole-sentence scoring's own process: llama.cpp's C API (core/llama_capi.py) behind a pipe.

llama.cpp is native code and must not share QGIS's process, so core/whole_sentence.py
WholeSentenceScorer runs this file with a Python that has xllamacpp and numpy. The child loads
the GGUF once, then answers JSON lines on stdin/stdout:

    parent -> {"id": 1, "sentences": ["People in Lima are kind.", ...]}
    child  -> {"id": 1, "scored": [[score, n_tokens, error], ...], "stats": {...}}
    parent -> {"id": 2, "decode_only": [...], "all_outputs": false}     (benchmarks)
    child  -> {"id": 2, "stats": {...}}

Its first line says whether the model loaded: {"ready": {identity, sizes, ...}} or {"error"}
(then it exits). It exits when its standard input closes: the parent stopped it or died (the
system closes the pipe even on SIGKILL); on POSIX it also polls its parent's pid, which stops
it even in the middle of a decode.

    python whole_sentence_worker.py --model GGUF_OR_KEY [--threads N] [--batch-tokens N]

Standard library only at module level: the interpreter running it need not have GeoBias.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time

if __package__:  # imported (tests)
    from . import embedded_server, hardware, llama_capi, sentence_packing
else:  # run as a script: these modules import nothing of GeoBias's but each other's files
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import embedded_server
    import hardware
    import llama_capi
    import sentence_packing

RULE = "mean-logprob-from-bos"  # core/scorers.py RULE_CAUSAL: the quantity forced decoding reads
EXACT_UBATCH = 3  # tokens per graph step that keep llama.cpp on its one-row kernels (llama_capi)


def _watch_parent(parent_pid: int) -> None:
    """A changed parent pid means the parent is gone (POSIX reparents orphans): exit at once,
    even while a decode keeps the main thread from seeing stdin close."""
    if not parent_pid or os.name != "posix":
        return

    def watch():
        while os.getppid() == parent_pid:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


class Worker:
    """The model, its context, and the scoring of requests."""

    def __init__(self, args):
        self.path = embedded_server.resolve_or_install(args.model)
        if not os.path.isfile(self.path):
            raise llama_capi.CapiError(f"model file not found: {self.path}")
        self.lib = llama_capi.Library.open()
        self.lib.quiet()
        self.lib.llama_backend_init()
        # exact: forced decoding's numbers (repacked weights, llama.cpp's attention, steps of
        # EXACT_UBATCH tokens); fast: whole batches per step, plain weights, no flash attention
        self.exact = not args.fast
        self.model = llama_capi.LlamaModel(self.lib, self.path, repack=self.exact)
        self.budget = hardware.scoring_budget(
            self.model.n_vocab, args.threads or None, args.batch_tokens or None
        )
        b = self.budget
        capacity = max(b.outputs, min(args.outputs_capacity or 0, b.batch_tokens))
        ubatch = EXACT_UBATCH if self.exact else b.batch_tokens
        self.model.open_context(b.threads, b.batch_tokens, capacity, b.sequences, ubatch,
                                None if self.exact else False)  # fmt: skip
        self.packer = sentence_packing.Packer(
            self.model.bos, b.batch_tokens, b.outputs, b.sequences, not args.no_share_prefix
        )

    def ready(self) -> dict:
        import xllamacpp

        b = self.budget
        return {"identity": "gguf:" + os.path.basename(self.path), "rule": RULE,
                "model_path": self.path, "n_vocab": self.model.n_vocab, "bos": self.model.bos,
                "threads": b.threads, "batch_tokens": b.batch_tokens, "outputs": b.outputs,
                "sequences": b.sequences, "share_prefix": self.packer.share_prefix,
                "exact": self.exact, "ubatch": EXACT_UBATCH if self.exact else b.batch_tokens,
                "llama_cpp": llama_capi.REVISION.tag, "llama_version": self.lib.version(),
                "xllamacpp": str(xllamacpp.__version__), "python": sys.executable}  # fmt: skip

    def _pack(self, sentences: list[str]):
        t0 = time.perf_counter()
        tokens = [self.model.tokenize(s) for s in sentences]
        batches, errors = self.packer.pack(tokens)
        stats = {"tokenize_s": time.perf_counter() - t0, "batches": len(batches),
                 "tokens": sum(b.n_tokens for b in batches),
                 "outputs": sum(b.n_outputs for b in batches),
                 "sentence_tokens": sum(len(t) for t in tokens)}  # fmt: skip
        return batches, errors, stats

    def score(self, sentences: list[str]) -> dict:
        """Every sentence's [score, n_tokens, error] and what the decodes took."""
        np = self.model._np
        t0 = time.perf_counter()
        batches, errors, stats = self._pack(sentences)
        rows = [[float("nan"), 0, errors.get(i, "")] for i in range(len(sentences))]
        decode_s = score_s = 0.0
        for batch in batches:
            t1 = time.perf_counter()
            logits = self.model.decode(batch)
            t2 = time.perf_counter()
            values, counts = sentence_packing.score_batch(batch, logits)
            score_s += time.perf_counter() - t2
            decode_s += t2 - t1
            for i, v, n in zip(batch.sentences.tolist(), values.tolist(), counts.tolist()):
                rows[i] = [v, n, ""] if np.isfinite(v) else [v, n, "the score is not finite"]
        stats.update(decode_s=decode_s, score_s=score_s, total_s=time.perf_counter() - t0)
        return {"scored": rows, "stats": stats}

    def decode_only(self, sentences: list[str], all_outputs: bool) -> dict:
        """The same packed batches decoded and nothing else (a benchmark's bare llama_decode);
        `all_outputs`: logits at every position, as many rows as tokens."""
        batches, _errors, stats = self._pack(sentences)
        if all_outputs:
            batches = [b.with_all_outputs() for b in batches]
            stats["outputs"] = sum(b.n_outputs for b in batches)
        t0 = time.perf_counter()
        for batch in batches:
            self.model.decode(batch)
        self.lib.llama_synchronize(self.model.ctx)
        stats["decode_s"] = time.perf_counter() - t0
        return {"stats": stats}

    def answer(self, request: dict) -> dict:
        rid = request.get("id")
        for key in ("sentences", "decode_only"):
            texts = request.get(key)
            if texts is not None:
                break
        if not isinstance(texts, list) or not all(isinstance(s, str) for s in texts):
            return {"id": rid, "error": "the request has no list of sentences"}
        try:
            if key == "sentences":
                reply = self.score(texts)
            else:
                reply = self.decode_only(texts, bool(request.get("all_outputs")))
        except llama_capi.CapiError as e:
            return {"id": rid, "error": str(e)}
        reply["id"] = rid
        return reply


def serve(args, out) -> int:
    """Load the model, say so on `out`, then answer requests until stdin closes."""

    def send(message: dict) -> None:
        out.write(json.dumps(message) + "\n")  # NaN stays NaN (json's default allow_nan)
        out.flush()

    try:
        worker = Worker(args)
    except (llama_capi.CapiError, embedded_server.EmbeddedError) as e:
        send({"error": str(e)})
        return 2
    except ImportError as e:
        send({"error": f"this Python cannot run llama.cpp's C API: {e}", "missing": True})
        return 2
    send({"ready": worker.ready()})
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            request = json.loads(line)
        except ValueError:
            send({"id": None, "error": "the request is not JSON"})
            continue
        send(worker.answer(request))
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="GGUF file or core/models.py key (default: the default)")
    parser.add_argument("--threads", type=int, default=0, help="0: core/hardware.py's rule")
    parser.add_argument("--batch-tokens", type=int, default=0, help="tokens per decode (0: rule)")
    parser.add_argument(
        "--outputs-capacity",
        type=int,
        default=0,
        help="logits rows the context holds (benchmarks: every position)",
    )
    parser.add_argument(
        "--fast",
        action="store_true",
        help="whole batches per graph step: faster, not forced decoding's numbers",
    )
    parser.add_argument(
        "--no-share-prefix",
        action="store_true",
        help="every sentence from its own BOS (no shared prefixes)",
    )
    parser.add_argument("--parent-pid", type=int, default=0, help="exit when it is gone")
    args = parser.parse_args(argv)
    _watch_parent(args.parent_pid)
    # The protocol owns the real stdout; whatever llama.cpp prints goes to stderr (the log).
    out = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    try:
        return serve(args, out)
    except KeyboardInterrupt:
        return 0
    finally:
        out.flush()


if __name__ == "__main__":
    code = main()
    sys.stderr.flush()
    os._exit(code)  # skip llama.cpp's teardown: nothing is left to save
