"""What repeating a run needs that its request bodies do not hold: the model file's checksum, the
server's build, GeoBias's commit, the Python, whether a model name is a moving alias.

Standard library only. A model file's SHA-256 is kept by path, size and modification time in a
small JSON file beside the models (hashing a 300 MB GGUF takes seconds; a changed file is hashed
again), so every run can record it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading

from . import models

__all__ = ["alias_flag", "file_facts", "git_commit", "model_file_facts", "python_version",
           "server_facts", "text_sha256"]  # fmt: skip

_lock = threading.Lock()
_memory: dict = {}  # (realpath, size, mtime_ns) -> sha256, for this process

# Hosted providers whose model names may be aliases that move to a newer snapshot: a name
# without a date (gpt-4o, claude-sonnet-4-5, gemini-2.5-flash) against a dated one
# (gpt-4o-2024-08-06, claude-3-5-sonnet-20241022, mistral-large-2411, gpt-4-0613).
HOSTED = ("openai", "anthropic", "gemini", "mistral", "openrouter", "groq", "together")
_DATED = re.compile(r"(\d{4}-\d{2}-\d{2}|\d{8}|-\d{4})(?:$|[-:@])")
_MOVING = re.compile(r"(latest|preview|-exp\b)", re.IGNORECASE)


def hash_cache_path() -> str:
    """The JSON file holding known files' SHA-256 (beside the reassembled models)."""
    return os.path.join(models.models_dir(), "sha256-cache.json")


def _load(path: str) -> dict:
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def file_sha256(path: str, cache_path: str | None = None) -> str:
    """A file's SHA-256, from the cache when its path, size and mtime are the ones hashed."""
    real = os.path.realpath(path)
    st = os.stat(real)
    mem_key = (real, st.st_size, st.st_mtime_ns)
    with _lock:
        if mem_key in _memory:
            return _memory[mem_key]
    cache_path = cache_path or hash_cache_path()
    key = f"{real}|{st.st_size}|{st.st_mtime_ns}"
    known = _load(cache_path).get(key)
    if not (isinstance(known, str) and len(known) == 64):
        known = models.sha256_file(real)
        with _lock:
            data = _load(cache_path)
            data[key] = known
            try:
                os.makedirs(os.path.dirname(cache_path), exist_ok=True)
                tmp = f"{cache_path}.{os.getpid()}.tmp"
                with open(tmp, "w", encoding="utf-8") as f:
                    json.dump(data, f, indent=0, sort_keys=True)
                os.replace(tmp, cache_path)
            except OSError:  # a read-only place: hashed again next process, still right
                pass
    with _lock:
        _memory[mem_key] = known
    return known


def file_facts(path: str, cache_path: str | None = None) -> dict:
    """A file's name, size in bytes and SHA-256 ({} when it cannot be read)."""
    try:
        return {"file": os.path.basename(path), "size": os.path.getsize(path),
                "sha256": file_sha256(path, cache_path)}  # fmt: skip
    except OSError:
        return {}


def model_file_facts(provider: str, model: str, model_path: str | None = None) -> dict:
    """The model file of an embedded run (a bundled model by name, or a user's GGUF path);
    {} for a remote endpoint, whose weights GeoBias cannot see."""
    if model_path and os.path.isfile(model_path):
        return file_facts(model_path)
    if provider != "embedded":
        return {}
    known = models.find_model(model) if model else models.get_model()
    if known is None:
        return {}
    try:
        return file_facts(models.model_path(known.key))
    except models.ModelError:
        return {"file": known.file, "size": None, "sha256": known.sha256 or None}


def server_facts(provider: str, report: dict | None = None) -> dict:
    """The server that answered: the embedded one is llama.cpp at the build of the xllamacpp
    the last started server's interpreter has (`report`: embedded.served_report(), read from
    the check that chose it, no request), or at the pinned build when none was started here
    (`installed` says which)."""
    if provider != "embedded":
        return {"name": provider or "", "version": None}
    from .embedded import served_report
    from .llama_capi import REVISION, build_from

    report = served_report() if report is None else report
    version = report.get("xllamacpp")
    build = build_from(report.get("build_info"), version) if version else None
    if build is None:
        return {"name": "llama.cpp", "version": f"b{REVISION.build}",
                "xllamacpp": REVISION.xllamacpp, "installed": False}  # fmt: skip
    return {"name": "llama.cpp", "version": f"b{build}", "xllamacpp": version, "installed": True}


def alias_flag(provider: str, model: str) -> bool:
    """Whether `model` names a hosted model that may move to another snapshot (no date in it,
    or `latest`/`preview`): a figure from it may not be repeatable later."""
    if provider not in HOSTED or not model:
        return False
    if _MOVING.search(model):
        return True
    return _DATED.search(model) is None


def git_commit(folder: str) -> str:
    """The commit GeoBias runs from when `folder` is a git clone ("" otherwise)."""
    if not os.path.exists(os.path.join(folder, ".git")):
        return ""
    try:
        out = subprocess.run(["git", "-C", folder, "rev-parse", "HEAD"], capture_output=True,
                             text=True, timeout=10, stdin=subprocess.DEVNULL)  # fmt: skip
    except (OSError, subprocess.TimeoutExpired):
        return ""
    commit = out.stdout.strip()
    return commit if re.fullmatch(r"[0-9a-f]{40}", commit) else ""


def python_version() -> str:
    return ".".join(str(v) for v in sys.version_info[:3])


def text_sha256(text: str) -> str:
    import hashlib

    return hashlib.sha256((text or "").encode("utf-8")).hexdigest()
