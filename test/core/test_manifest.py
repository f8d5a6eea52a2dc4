"""core/runtime/manifest.py: a model file's SHA-256 kept by path, size and mtime; aliases."""

import hashlib
import os

import pytest

from geobias.core.runtime import manifest, models


def test_a_file_is_hashed_once_then_again_when_it_changes(tmp_path, monkeypatch):
    calls = []
    real = models.sha256_file
    monkeypatch.setattr(models, "sha256_file", lambda p: calls.append(p) or real(p))
    monkeypatch.setattr(manifest, "_memory", {})
    f = tmp_path / "m.gguf"
    f.write_bytes(b"GGUF" + b"\0" * 1000)
    cache = str(tmp_path / "hashes.json")
    want = hashlib.sha256(f.read_bytes()).hexdigest()
    assert manifest.file_sha256(str(f), cache) == want
    manifest._memory.clear()  # another process: read from the JSON file, not hashed again
    assert manifest.file_sha256(str(f), cache) == want and len(calls) == 1
    f.write_bytes(b"GGUF" + b"\1" * 1000)
    os.utime(f, ns=(1, 1))  # a changed file (other content, other mtime)
    assert manifest.file_sha256(str(f), cache) == hashlib.sha256(f.read_bytes()).hexdigest()
    assert len(calls) == 2
    facts = manifest.file_facts(str(f), cache)
    assert facts == {"file": "m.gguf", "size": 1004,
                     "sha256": hashlib.sha256(f.read_bytes()).hexdigest()}  # fmt: skip
    assert len(calls) == 2  # from the cache
    assert manifest.file_facts(str(tmp_path / "none.gguf"), cache) == {}


def test_an_unreadable_cache_is_no_failure(tmp_path):
    f = tmp_path / "m.gguf"
    f.write_bytes(b"x")
    cache = tmp_path / "hashes.json"
    cache.write_text("{not json")
    assert manifest.file_sha256(str(f), str(cache)) == hashlib.sha256(b"x").hexdigest()


@pytest.mark.parametrize("provider, model, moving", [
    ("openai", "gpt-4o", True),
    ("openai", "gpt-4o-2024-08-06", False),
    ("openai", "gpt-4-0613", False),
    ("anthropic", "claude-3-5-sonnet-20241022", False),
    ("anthropic", "claude-3-5-sonnet-latest", True),
    ("gemini", "gemini-2.5-flash", True),
    ("mistral", "mistral-large-2411", False),
    ("embedded", "gemma-3-270m-q4_k_m", False),  # the file's SHA-256 pins it
    ("custom", "my-model", False),  # unknown: not claimed either way
])  # fmt: skip
def test_hosted_model_aliases_are_flagged(provider, model, moving):
    assert manifest.alias_flag(provider, model) is moving


def test_the_embedded_server_is_named_with_its_build():
    s = manifest.server_facts("embedded")
    assert s["name"] == "llama.cpp" and s["version"].startswith("b") and s["xllamacpp"]
    assert manifest.server_facts("openai") == {"name": "openai", "version": None}


def test_the_build_is_the_installed_wheels_once_a_server_ran():
    from geobias.core.runtime.llama_capi import REVISION

    # Another wheel than the pinned one: its version's last part is llama.cpp's build.
    other = {"xllamacpp": "2026.11.11600", "build_info": {"build_number": 0}}
    assert manifest.server_facts("embedded", other) == {
        "name": "llama.cpp", "version": "b11600", "xllamacpp": "2026.11.11600",
        "installed": True}  # fmt: skip
    built = {"xllamacpp": "0.2.5", "build_info": {"build_number": 7000, "commit": "abc"}}
    assert manifest.server_facts("embedded", built)["version"] == "b7000"
    pinned = manifest.server_facts("embedded", {})  # no server started in this process
    assert pinned["version"] == f"b{REVISION.build}" and pinned["installed"] is False
