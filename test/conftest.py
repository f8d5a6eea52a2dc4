"""Shared test helpers: paths to the repository, the shared reference data."""

import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(ROOT), "shared")
REFERENCE = os.path.join(SHARED, "reference")


@pytest.fixture(scope="session")
def root():
    return ROOT


@pytest.fixture(scope="session")
def reference_dir():
    """Real GPT-3.5 ratings shipped in ../shared/reference (present on every dev/CI machine)."""
    path = os.path.join(REFERENCE, "geollm-gpt35")
    if not os.path.isdir(path):
        pytest.skip(f"reference ratings not found at {path} (../shared is not checked out)")
    return path
