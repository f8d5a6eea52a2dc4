"""Whole-sentence scoring's own process: llama.cpp's C API (runtime/llama_capi.py) behind a pipe.

llama.cpp is native code and must not share QGIS's process, so core/herb/whole_sentence.py
WholeSentenceScorer runs this file with a Python that has xllamacpp and numpy. The child loads
the GGUF once, then answers JSON lines on stdin/stdout:

    parent -> {"id": 1, "sentences": ["People in Lima are kind.", ...]}
    child  -> {"id": 1, "scored": [[score, n_tokens, error], ...], "stats": {...}}
    parent -> {"id": 2, "decode_only": [...]}     (benchmarks: the same batches, only decoded)
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
import time

if __package__:  # imported (tests)
    from . import child_worker, embedded_server, hardware, llama_capi, sentence_packing
else:  # run as a script: these modules import nothing of GeoBias's but each other's files
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import child_worker
    import embedded_server
    import hardware
    import llama_capi
    import sentence_packing

RULE = (
    "mean-logprob-from-bos"  # core/herb/scorers.py RULE_CAUSAL: the quantity forced decoding reads
)
# Graph steps tried for exact numerics, longest first (Worker.calibrate).
STEPS = (64, 32, 16, 8, 4, 3, 2)
# A calibration batch like a HERB run's: regions' descriptor sentences sharing their prefixes.
CALIBRATION_REGIONS = ("Lima", "Ōsaka", "Zürich", "Valparaíso", "Ulaanbaatar")
CALIBRATION_WORDS = ("wise", "intelligent", "kind", "honest", "hard-working", "narrow-minded",
                     "nurse", "strong", "weak", "loyal", "philosopher", "timid", "clownish",
                     "receptionist")  # fmt: skip


class Worker:
    """The model, its context, and the scoring of requests."""

    def __init__(self, args):
        self.path = embedded_server.resolve_or_install(args.model)
        if not os.path.isfile(self.path):
            raise llama_capi.CapiError(f"model file not found: {self.path}")
        self.lib = llama_capi.Library.open()
        self.lib.quiet()
        self.lib.llama_backend_init()
        # exact: forced decoding's numbers (llama.cpp's own weights layout and attention, graph
        # steps short enough for its one-row kernels); fast: whole batches per step, plain
        # weights, no flash attention (llama_capi.LlamaModel)
        self.exact = not args.fast
        self.model = llama_capi.LlamaModel(self.lib, self.path, repack=self.exact)
        self.budget = hardware.scoring_budget(
            self.model.n_vocab, args.threads or None, args.batch_tokens or None
        )
        b = self.budget
        self.packer = sentence_packing.Packer(
            self.model.bos, b.batch_tokens, b.sequences, not args.no_share_prefix
        )
        self.calibration_s = 0.0
        self.ubatch = self.calibrate() if self.exact else b.batch_tokens
        self._open(self.ubatch)

    def _open(self, ubatch: int) -> None:
        b = self.budget
        self.model.close_context()
        self.model.open_context(b.threads, b.batch_tokens, b.batch_tokens, b.sequences, ubatch,
                                None if self.exact else False)  # fmt: skip

    def calibrate(self) -> int:
        """The longest graph step (of STEPS, else 1) whose logits equal one-token decoding's,
        bit for bit, on a HERB-like packed batch (~100 tokens: a full step of the longest
        candidate and a partial one): llama.cpp picks its kernels by the rows a step
        multiplies, and only the one-row kernels give forced decoding's numbers. Takes a few
        seconds (a minute for Gemma 3 on a loaded machine: the reference is ~100 one-token
        decodes)."""
        t0 = time.perf_counter()
        texts = [f"People in {r} are {w}." for r in CALIBRATION_REGIONS for w in CALIBRATION_WORDS]
        tokens = [self.model.tokenize(t) for t in texts]
        batch = self.packer.pack(tokens)[0][0]
        self._open(1)
        reference = self.model.decode(batch).copy()
        chosen = 1
        for step in STEPS:
            if step >= batch.n_tokens:
                continue
            self._open(step)
            if self.model._np.array_equal(self.model.decode(batch), reference):
                chosen = step
                break
        self.calibration_s = time.perf_counter() - t0
        return chosen

    def ready(self) -> dict:
        import xllamacpp

        b = self.budget
        return {"identity": "gguf:" + os.path.basename(self.path), "rule": RULE,
                "model_path": self.path, "n_vocab": self.model.n_vocab, "bos": self.model.bos,
                "threads": b.threads, "batch_tokens": b.batch_tokens,
                "sequences": b.sequences, "share_prefix": self.packer.share_prefix,
                "exact": self.exact, "ubatch": self.ubatch, "calibration_s": self.calibration_s,
                "llama_cpp": llama_capi.REVISION.tag, "llama_version": self.lib.version(),
                "xllamacpp": str(xllamacpp.__version__), "python": sys.executable}  # fmt: skip

    def _pack(self, sentences: list[str]):
        t0 = time.perf_counter()
        tokens = [self.model.tokenize(s) for s in sentences]
        batches, errors = self.packer.pack(tokens)
        stats = {"tokenize_s": time.perf_counter() - t0, "batches": len(batches),
                 "tokens": sum(b.n_tokens for b in batches),
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

    def decode_only(self, sentences: list[str]) -> dict:
        """The same packed batches decoded, logits at every position, and nothing else: a
        benchmark's bare llama_decode."""
        batches, _errors, stats = self._pack(sentences)
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
                reply = self.decode_only(texts)
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
    parser.add_argument(
        "--model", help="GGUF file or core/runtime/models.py key (default: the default)"
    )
    parser.add_argument("--threads", type=int, default=0, help="0: core/runtime/hardware.py's rule")
    parser.add_argument("--batch-tokens", type=int, default=0, help="tokens per decode (0: rule)")
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
    return child_worker.run(serve, args)


if __name__ == "__main__":
    code = main()
    sys.stderr.flush()
    os._exit(code)  # skip llama.cpp's teardown: nothing is left to save
