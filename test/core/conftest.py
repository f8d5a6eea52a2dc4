"""Fixtures shared by the core tests."""

import pytest

from geobias.test.tiny_mlm import build as build_tiny_bert

VOCAB = ["people", "in", "paris", "lima", "are", "wise", "kind", "very", ".", "sa", "##o"]


@pytest.fixture(scope="session")
def tiny_bert(tmp_path_factory):
    """A randomly initialised BertForMaskedLM with a vocabulary written here, saved and loaded
    back through the scorer's loading path (no weights are downloaded); None without torch."""
    folder = build_tiny_bert(str(tmp_path_factory.mktemp("tiny-bert")), VOCAB)
    if folder is not None:
        from transformers import BertTokenizer

        tok = BertTokenizer.from_pretrained(folder)
        assert tok("People in Lima")["input_ids"] == [2, 5, 6, 8, 3]  # the vocabulary is ours
    return folder
