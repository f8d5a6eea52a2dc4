"""The llama.cpp C API bindings' own checks (core/runtime/llama_capi.py), without loading llama.cpp:
the declared layouts are the header's, and another llama.cpp revision is refused with a message
that says which one. test/integration/test_whole_sentence.py opens the real library."""

import pytest

from geobias.core.runtime.llama_capi import (
    REVISION,
    CapiError,
    LlamaBatch,
    LlamaContextParams,
    LlamaModelParams,
    build_from,
    check_layouts,
    check_revision,
)


def test_declared_layouts_are_the_headers():
    check_layouts()
    assert LlamaContextParams.moe_cache_size.offset == 112  # a field only b11549-era has
    assert LlamaModelParams.load_mtp.offset == 77
    assert LlamaBatch.logits.offset == 48


def test_build_number_comes_from_build_info_else_the_wheel_version():
    assert build_from({"build_number": 0, "commit": "unknown"}, "2026.10.11549") == 11549
    assert build_from({"build_number": 9999}, "2026.10.11549") == 9999
    assert build_from({}, "0.2.5") == 5 and build_from(None, "0+unknown") is None


def test_the_pinned_revision_passes():
    check_revision({"build_number": 0, "commit": "unknown"}, REVISION.xllamacpp, REVISION.version)


@pytest.mark.parametrize(
    "info,version,llama_version,said",
    [
        ({"build_number": 0, "commit": "unknown"}, "2026.11.11600", None, "b11600"),
        ({"build_number": 11000, "commit": "abc123"}, "2026.10.11549", None, "b11000"),
        ({}, "0+unknown", None, "an unknown build"),
        ({}, REVISION.xllamacpp, "0.7.0", "'0.7.0'"),
    ],
)
def test_another_revision_is_refused_with_what_to_install(info, version, llama_version, said):
    with pytest.raises(CapiError) as e:
        check_revision(info, version, llama_version)
    assert said in str(e.value)
    assert f"xllamacpp=={REVISION.xllamacpp}" in str(e.value) and "forced decoding" in str(e.value)
