"""HERB's masked LM in its child process (ChildMaskedLMScorer) vs in process (MaskedLMScorer).

The same random BERT folders, the same batches of 32 HERB sentences, alternated in one run, best
of 3 each: sentences/s. Two sizes: the tests' tiny BERT (16 hidden units: scoring costs nearly
nothing, so the difference is the pipe's fixed cost per batch) and a small one (256 hidden
units, 4 layers: the child's share of the in-process rate, >= 90%; a real BERT's 768 units and
12 layers take longer still, for the same pipe time).
Also the start: loading in process (torch imported once per process) vs the child's start
(its Python importing torch, every run).
"""

import os
import tempfile
import time

from geobias.core.herb.scorers import ChildMaskedLMScorer, MaskedLMScorer
from geobias.test.tiny_mlm import build

WORDS = ["people", "in", "are", ".", "paris", "lima", "oslo", "quito", "wise", "kind", "very",
         "honest", "cruel", "intelligent", "stupid"]  # fmt: skip
DESCRIPTORS = ("wise", "kind", "very kind", "honest", "cruel", "intelligent", "stupid")
CITIES = ("Paris", "Lima", "Oslo", "Quito", "Rio") * 8  # 280 sentences, 9 batches of 32
SENTENCES = [f"People in {c} are {w}." for c in CITIES for w in DESCRIPTORS]


def rate(scorer, batch=32):
    t0 = time.perf_counter()
    for i in range(0, len(SENTENCES), batch):
        scorer.score_batch(SENTENCES[i : i + batch])
    return len(SENTENCES) / (time.perf_counter() - t0)


def bench(folder, repeats=3):
    t0 = time.perf_counter()
    child = ChildMaskedLMScorer(folder, threads=2)
    start_child = time.perf_counter() - t0
    t0 = time.perf_counter()
    here = MaskedLMScorer(folder, threads=2)
    start_here = time.perf_counter() - t0
    best = {"in process": 0.0, "child": 0.0}
    try:
        for rep in range(repeats):
            pair = [("in process", here), ("child", child)]
            for name, scorer in pair if rep % 2 == 0 else reversed(pair):
                best[name] = max(best[name], rate(scorer))
    finally:
        child.close()
    return best, start_here, start_child


def main():
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tiny = build(os.path.join(tmp, "tiny"), WORDS)
        if tiny is None:
            print("torch/transformers not installed: nothing to measure")
            return
        small = os.path.join(tmp, "small")
        build(small, WORDS)  # then widened: the same vocabulary, a bigger network
        from transformers import BertConfig, BertForMaskedLM

        cfg = BertConfig(vocab_size=5 + len(WORDS), hidden_size=256, num_hidden_layers=4,
                         num_attention_heads=4, intermediate_size=1024,
                         max_position_embeddings=64)  # fmt: skip
        BertForMaskedLM(cfg).eval().save_pretrained(small)
        for label, folder in (("tiny BERT", tiny), ("small BERT", small)):
            best, start_here, start_child = bench(folder)
            share = best["child"] / best["in process"]
            per_batch = 32e3 * (1 / best["child"] - 1 / best["in process"])
            rows.append((f"{label}: in process, sentences/s", f"{best['in process']:.0f}", "", 1))
            rows.append((f"{label}: child, sentences/s", f"{best['child']:.0f}", "", 1))
            if label == "tiny BERT":  # the model costs nearly nothing: this is the pipe's cost
                rows.append((f"{label}: child's extra time per batch, ms", f"{per_batch:.1f}",
                             "", 1))  # fmt: skip
            else:
                rows.append((f"{label}: child / in process", f"{share:.0%}", ">= 90%",
                             share >= 0.9))  # fmt: skip
            # In process torch is already imported here (it built the models); the child
            # imports it on every start.
            rows.append((f"{label}: load in process / child start, s",
                         f"{start_here:.1f} / {start_child:.1f}", "", 1))  # fmt: skip
    rows.append(("load average (1 min) after it", f"{os.getloadavg()[0]:.1f}", "", 1))
    print(f"{'what':<46} {'measured':>12} {'target':>9}  ok")
    for what, val, target, ok in rows:
        print(f"{what:<46} {val:>12} {target:>9}  {'yes' if ok else 'NO'}")


if __name__ == "__main__":
    main()
