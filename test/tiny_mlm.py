"""A tiny randomly initialised BertForMaskedLM saved to a folder (no weights are downloaded).

Tests load it through the scorers' own loading path. QGIS tests build it in a child Python
(`python tiny_mlm.py FOLDER WORD...`, exit code 3 without torch) so that torch never enters
the QGIS process under test.
"""

from __future__ import annotations

import os
import subprocess
import sys

SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
NO_TORCH = 3  # the exit code when torch or transformers is missing


def build(folder: str, words: list[str]) -> str | None:
    """Save the model and a word-piece vocabulary of SPECIAL + `words` in `folder`; None when
    torch or transformers is missing."""
    try:
        import torch
        from transformers import BertConfig, BertForMaskedLM, BertTokenizer
    except ImportError:
        return None
    vocab = SPECIAL + list(words)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "vocab.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(vocab) + "\n")
    tok = BertTokenizer(vocab=os.path.join(folder, "vocab.txt"), do_lower_case=True)
    torch.manual_seed(0)
    cfg = BertConfig(vocab_size=len(vocab), hidden_size=16, num_hidden_layers=2,
                     num_attention_heads=2, intermediate_size=32,
                     max_position_embeddings=32)  # fmt: skip
    BertForMaskedLM(cfg).eval().save_pretrained(folder)
    tok.save_pretrained(folder)
    return folder


def build_in_child(folder: str, words: list[str], python: str = sys.executable) -> str | None:
    """build() in another Python process: this one never imports torch."""
    proc = subprocess.run([python, os.path.abspath(__file__), folder, *words],
                          capture_output=True, text=True, timeout=600)  # fmt: skip
    if proc.returncode == NO_TORCH:
        return None
    assert proc.returncode == 0, proc.stderr[-2000:]
    return folder


if __name__ == "__main__":
    sys.exit(0 if build(sys.argv[1], sys.argv[2:]) else NO_TORCH)
