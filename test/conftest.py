"""Shared test helpers: paths to the repository, the bundled reference data."""

import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The paper's GPT-3.5 ratings ship with the plugin (resources/reference, Apache-2.0).
REFERENCE = os.path.join(ROOT, "resources", "reference", "geollm-gpt35")


@pytest.fixture(scope="session")
def root():
    return ROOT


@pytest.fixture(scope="session")
def reference_dir():
    """Real GPT-3.5 ratings bundled with the plugin (a missing copy is a failure, not a skip)."""
    assert os.path.isdir(REFERENCE), f"bundled reference ratings missing: {REFERENCE}"
    return REFERENCE
