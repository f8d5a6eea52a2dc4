"""HERB's whole-sentence scoring vs forced decoding, on the same sentences, side by side.

For SmolLM2 and Gemma 3 270M, on the first N (default 2,000) sentences a GeoNames HERB run
scores (core/herb_run.plan, the bundled 112 descriptors):

(a) sentences/s of core/herb/whole_sentence.py WholeSentenceScorer (exact numerics, the default) and
    of forced decoding (core/herb/scorers.py LlamaCppScorer on an embedded server with 2 slots,
    16-sentence batches on 2 threads, as HERB runs it), and their ratio on one line:
    "whole-sentence vs forced decoding: N.N×" (target >= 3×);
(b) whole-sentence tokens/s (packed tokens over the scorer's wall time: tokenising, packing,
    llama_decode, log-softmax, the pipe) vs a bare llama_decode of the same packed batches with
    logits on every position, in the same child (target >= 75%);
(c) the same for the fast numerics (WholeSentenceScorer(exact=False)).

    python benchmarks/bench_whole_sentence.py [N] [model ...]
"""

import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from geobias.core.engine.chat import server_endpoint
from geobias.core.herb.descriptors import load_descriptors
from geobias.core.herb.hierarchy import geonames_hierarchy
from geobias.core.herb.run import HerbSpec, plan
from geobias.core.herb.scorers import LlamaCppScorer
from geobias.core.herb.whole_sentence import WholeSentenceScorer
from geobias.core.runtime.embedded import EmbeddedServer

MODELS = ["smollm2-135m", "gemma3-270m"]


def sentences(n):
    """The first n sentences of a world HERB run, in the order the run scores them."""
    return plan(HerbSpec(geonames_hierarchy(), None, load_descriptors())).sentences[:n]


def forced_decoding(key, texts):
    """Sentences/s of forced decoding, HERB's way: 16 per batch, 2 batches in flight."""
    with EmbeddedServer(key, parallel=2) as server:
        sc = LlamaCppScorer.from_endpoint(server_endpoint(server))
        sc.score_batch(["People in Warmup are kind."])
        chunks = [texts[i : i + 16] for i in range(0, len(texts), 16)]
        t0 = time.perf_counter()
        with ThreadPoolExecutor(2) as pool:
            out = [r for rs in pool.map(sc.score_batch, chunks) for r in rs]
        dt = time.perf_counter() - t0
        sc.close()
    return len(texts) / dt, sum(1 for r in out if r.error)


def whole_sentence(key, texts, exact):
    """(sentences/s, tokens/s, bare decode tokens/s, info, failures, packed tokens) of the
    whole-sentence scorer."""
    ws = WholeSentenceScorer(key, exact=exact)
    try:
        ws.score_batch(["People in Warmup are kind."])
        ws.stats.clear()
        t0 = time.perf_counter()
        out = []
        for i in range(0, len(texts), ws.batch_size):
            out += ws.score_batch(texts[i : i + ws.batch_size])
        dt = time.perf_counter() - t0
        tokens = ws.stats["tokens"]
        bare = ws.decode_only(texts)
        info = ws.info
    finally:
        ws.close()
    failed = sum(1 for r in out if r.error)
    return len(texts) / dt, tokens / dt, bare["tokens"] / bare["decode_s"], info, failed, tokens


def main():
    args = sys.argv[1:]
    n = int(args[0]) if args and args[0].isdigit() else 2000
    models = [a for a in args if not a.isdigit()] or MODELS
    texts = sentences(n)
    rows = []
    for key in models:
        ws = whole_sentence(key, texts, exact=True)
        fd_rate, fd_failed = forced_decoding(key, texts)
        fast = whole_sentence(key, texts, exact=False)
        rate, tok_rate, bare, info, failed, tokens = ws
        ratio = rate / fd_rate
        print(f"{key}: whole-sentence vs forced decoding: {ratio:.1f}×", flush=True)
        name = key.split("-")[0]
        rows += [
            (f"{name}: forced decoding, sentences/s ({fd_failed} failed)", f"{fd_rate:.2f}",
             "", True),
            (f"{name}: whole-sentence, sentences/s ({failed} failed)", f"{rate:.2f}", "", True),
            (f"{name}: whole-sentence vs forced decoding", f"{ratio:.1f}×", ">= 3×",
             ratio >= 3),
            (f"{name}: packed tokens for {n} sentences (threads {info['threads']})",
             str(tokens), "", True),
            (f"{name}: whole-sentence tokens/s", f"{tok_rate:.0f}", "", True),
            (f"{name}:   / bare llama_decode, same batches", f"{tok_rate / bare:.0%}",
             ">= 75%", tok_rate / bare >= 0.75),
            (f"{name}: fast numerics, sentences/s", f"{fast[0]:.2f}", "", True),
            (f"{name}: fast vs forced decoding", f"{fast[0] / fd_rate:.1f}×", "", True),
            (f"{name}:   fast tokens/s / bare llama_decode", f"{fast[1] / fast[2]:.0%}",
             "", True),
        ]  # fmt: skip
    rows.append(("load average (1 min) after it", f"{os.getloadavg()[0]:.1f}", "", True))
    print(f"{'what':<52} {'measured':>10} {'target':>9}  ok")
    for what, val, target, ok in rows:
        print(f"{what:<52} {val:>10} {target:>9}  {'yes' if ok else 'NO'}")


if __name__ == "__main__":
    main()
