"""The *Copy diagnostics* report: one plain-text page a user pastes into an issue.

The QGIS side gathers what only QGIS knows (GeoBias, QGIS, Qt, GDAL, PROJ, QGIS's GEOS and
the library versions, the OS) into a dict; core adds what it can see itself (the model
environment, the embedded server's last log lines) and builds the text. Keys never reach it:
endpoints are reduced to their URL and model, and every line passes through redact(), which
removes URL credentials, key-like query parameters, authorisation headers, key-like fields
and the key shapes of the common providers, and any secret the caller names.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable, Mapping
from urllib.parse import urlsplit, urlunsplit

__all__ = [
    "FIELDS", "build_report", "core_facts", "endpoint_line", "interpreter_path", "last_errors",
    "redact",
]  # fmt: skip

# The facts the QGIS side supplies, in report order: (key, label).
FIELDS = (
    ("geobias", "GeoBias"), ("qgis", "QGIS"), ("qt", "Qt"), ("pyqt", "PyQt"),
    ("python", "Python"), ("gdal", "GDAL"), ("proj", "PROJ"), ("geos_qgis", "GEOS (QGIS)"),
    ("geos_shapely", "GEOS (shapely)"), ("numpy", "numpy"), ("scipy", "scipy"),
    ("shapely", "shapely"), ("urllib3", "urllib3"), ("requests", "requests"), ("os", "OS"),
    ("locale", "Locale"),
)  # fmt: skip
MASK = "***"
_SECRET_WORD = (
    r"(?:api[_-]?key|apikey|key|token|secret|password|passwd|pwd|auth|signature|sig|credential"
    r"|session)"
)
_HEADER = r"(?:proxy-)?authorization|x-api-key|api-key|x-goog-api-key|cookie|set-cookie"
_PATTERNS = (
    # user:password@ in a URL
    (re.compile(r"(?<=://)[^/\s:@]+(?::[^/\s@]*)?@"), MASK + "@"),
    # ?key=…, &access_token=… (any parameter whose name holds a secret word)
    (re.compile(rf"([?&;][^=&\s#]*{_SECRET_WORD}[^=&\s#]*=)[^&\s#\"'<>]*", re.I), r"\1" + MASK),
    # Authorization: Bearer …, x-api-key: …, Cookie: … (header dumps, repr of a headers dict)
    (re.compile(rf"({_HEADER})([\"']?[ \t]*[:=][ \t]*[\"']?)[^\r\n\"',}}]+", re.I), r"\1\2" + MASK),
    # "api_key": "…", api_key=…, token: … (JSON, Python reprs, settings dumps)
    (
        re.compile(rf"(\b[\w-]*{_SECRET_WORD}[\"']?[ \t]*[:=][ \t]*[\"']?)[^\s\"',}}&]+", re.I),
        r"\1" + MASK,
    ),
    (re.compile(r"\bBearer\s+[\w.~+/=-]+", re.I), "Bearer " + MASK),
    # Provider key shapes: OpenAI/OpenRouter/Anthropic sk-…, Google AIza…, Hugging Face hf_…
    (re.compile(r"\b(?:sk|rk|pk)-[\w-]{8,}"), MASK),
    (re.compile(r"\bAIza[\w-]{20,}"), MASK),
    (re.compile(r"\bhf_[A-Za-z0-9]{16,}"), MASK),
)


def interpreter_path() -> str:
    """The executable of the Python running this code, as a user would run it again.

    Inside QGIS, `sys.executable` is often not that: the QGIS binary, or the first `python3`
    on PATH, which may be a pyenv shim (a shell script that picks some other Python). The
    interpreter of this version under the base prefix is the real one; `sys.executable`
    only when there is none (its symlinks resolved)."""
    import os
    import sys

    ver = f"{sys.version_info[0]}.{sys.version_info[1]}"
    windows = sys.platform.startswith("win")
    names = ("python.exe",) if windows else (f"bin/python{ver}", "bin/python3")
    paths = [os.path.join(p, n) for p in (sys.base_exec_prefix, sys.exec_prefix) if p
             for n in names]  # fmt: skip
    base = getattr(sys, "_base_executable", None) or ""
    if os.path.basename(base).lower().startswith("python"):  # not the QGIS binary
        paths.append(base)
    for path in paths:
        if os.path.isfile(path) and _is_binary(path):
            return path
    exe = sys.executable or ""
    return os.path.realpath(exe) if exe else ""


def _is_binary(path: str) -> bool:
    """Not a script: a pyenv shim or a wrapper starts with '#!'."""
    try:
        with open(path, "rb") as f:
            return f.read(2) != b"#!"
    except OSError:
        return False


def redact(text: str, secrets: Iterable[str] = ()) -> str:
    """`text` with anything key-like masked, and each of `secrets` (≥ 4 characters) too."""
    for secret in sorted({s for s in secrets if s and len(s) >= 4}, key=len, reverse=True):
        text = text.replace(secret, MASK)
    for pattern, mask in _PATTERNS:
        text = pattern.sub(mask, text)
    return text


def endpoint_line(endpoint) -> str:
    """'model at URL (provider)' for an Endpoint or a dict: no key, no credentials, no query."""

    def get(name, default=None):
        if isinstance(endpoint, Mapping):
            return endpoint.get(name, default)
        return getattr(endpoint, name, default)

    url = str(get("base_url", "") or get("url", "") or "")
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port:
        host += f":{parts.port}"
    clean = urlunsplit((parts.scheme, host, parts.path, "", ""))
    name = get("name", None)
    text = f"{get('model', '?')} at {clean or '?'} ({get('provider', 'custom')})"
    return f"{name}: {text}" if name else text


_ERROR = re.compile(r"\b(critical|error|errors|exception|traceback|failed|fatal)\b", re.I)


def last_errors(lines: Iterable[str], n: int = 20) -> list[str]:
    """The last `n` lines of a log that report an error (or a traceback)."""
    return [ln.rstrip() for ln in lines if _ERROR.search(ln)][-n:]


def core_facts(checksums: bool = True, log_lines: int = 20) -> dict:
    """What core sees itself: the model environment (core/runtime/model_env.py status) and the
    embedded server's last log lines."""
    from . import model_env
    from .embedded import last_log_lines

    try:
        env = model_env.status(checksums=checksums).as_dict()
    except Exception as e:  # a report must come out whatever is broken
        env = {"error": f"{type(e).__name__}: {e}"}
    return {"model_env": env, "server_log": last_log_lines(log_lines)}


def _env_lines(env: Mapping) -> list[str]:
    if not env:
        return ["not looked at"]
    if "venv" not in env:
        return [f"error: {env.get('error', '?')}"]
    state = "absent"
    if env.get("exists"):
        state = "made by GeoBias" if env.get("managed") else "made by hand"
        if env.get("managed") and not env.get("complete"):
            state += ", install not finished"
    out = [f"Folder: {env['venv']} ({state})"]
    if env.get("exists"):
        out += [f"Python: {env.get('python_version') or '?'}",
                f"xllamacpp: {env.get('xllamacpp') or 'not installed'}"]  # fmt: skip
    for key, m in (env.get("models") or {}).items():
        what = "packages installed" if m.get("installed") else "packages not installed"
        if m.get("file"):
            what += f"; {m['file']} (checksum: {m.get('checksum', '?')})"
        out.append(f"Model {key}: {what}")
    out.append(f"Disk used: {env.get('disk_bytes', 0) / 1e6:.0f} MB")
    if env.get("error"):
        out.append(f"Error: {env['error']}")
    return out


def build_report(
    facts: Mapping,
    endpoints: Iterable = (),
    log: Iterable[str] = (),
    secrets: Iterable[str] = (),
    now: datetime.datetime | None = None,
) -> str:
    """The report's text. `facts` holds FIELDS (missing ones say "unknown"), "model_env" and
    "server_log" (core_facts()); `endpoints` are the configured ones (URL and model only);
    `log` the GeoBias log's lines, of which the last errors are shown; `secrets` are masked
    wherever they appear (the configured keys), on top of what redact() finds."""
    secrets, endpoints = list(secrets), list(endpoints)
    for ep in endpoints:
        key = ep.get("api_key") if isinstance(ep, Mapping) else getattr(ep, "api_key", None)
        if key:
            secrets.append(key)
    stamp = (now or datetime.datetime.now()).isoformat(timespec="seconds")
    out = [f"GeoBias diagnostics, {stamp}", "", "== Versions"]
    for key, label in FIELDS:
        out.append(f"{label}: {facts.get(key) or 'unknown'}")
    ours, qgis = facts.get("geos_shapely"), facts.get("geos_qgis")
    if ours and qgis:
        same = str(ours).split("-")[0] == str(qgis).split("-")[0]
        out.append(f"GEOS match: {'yes' if same else 'NO (shapely and QGIS use different GEOS)'}")
    out += ["", "== Model environment", *_env_lines(facts.get("model_env") or {})]
    server_log = list(facts.get("server_log") or [])
    out += ["", f"== Embedded server log (last {len(server_log)} lines)"]
    out += server_log or ["no server ran in this session"]
    eps = [endpoint_line(e) for e in endpoints]
    out += ["", "== Endpoints (URL and model only)", *(eps or ["none configured"])]
    errors = last_errors(log)
    out += ["", f"== Last errors of the GeoBias log ({len(errors)})", *(errors or ["none"])]
    return redact("\n".join(out) + "\n", secrets)
