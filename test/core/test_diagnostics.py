"""The *Copy diagnostics* text: every field present, keys never (a sentinel key is planted in
an endpoint, a URL's query, log lines and header dumps, and must not come out)."""

import datetime

from geobias.core.engine.chat import Endpoint
from geobias.core.runtime import diagnostics
from geobias.core.runtime.diagnostics import FIELDS, build_report, redact

SENTINEL = "gb-sentinel-7f3a9c2e5d41"  # no provider's shape: only its position gives it away
OPENAI_LIKE = "sk-proj-Q7wSENTINEL2x9Lm4"

FACTS = {
    "geobias": "0.1.0", "qgis": "3.22.16-Białowieża", "qt": "5.15.8", "pyqt": "5.15.9",
    "python": "3.11.2", "gdal": "3.6.2", "proj": "9.1.1", "geos_qgis": "3.11.1-CAPI-1.17.1",
    "geos_shapely": "3.11.1", "numpy": "1.24.2", "scipy": "1.10.1", "shapely": "2.1.2",
    "urllib3": "1.26.12", "requests": "2.28.1", "os": "Debian GNU/Linux 12 (bookworm)",
    "locale": "fr_FR",
    "model_env": {
        "venv": "/home/ana/.local/share/geobias/venv", "exists": True, "managed": True,
        "complete": True, "python_version": "3.11.2", "xllamacpp": "2026.10.11549",
        "models": {"gemma3-270m": {"installed": True, "checksum": "ok",
                                   "file": "/home/ana/.local/share/geobias/models/g.gguf"},
                   "smollm2-135m": {"installed": False, "file": ""}},
        "disk_bytes": 634_000_000, "error": "",
    },
    "server_log": ["serving gemma-3-270m-q4_k_m on 127.0.0.1:41234",
                   f"request headers: {{'Authorization': 'Bearer {SENTINEL}'}}"],
}  # fmt: skip


def planted_report(secrets=()):
    endpoints = [
        Endpoint.from_provider("openai", "gpt-4o-mini", api_key=SENTINEL),
        {"name": "proxy", "base_url": f"https://u:{SENTINEL}@llm.example.org/v1?key={SENTINEL}",
         "model": "llama3", "provider": "custom", "api_key": SENTINEL},
        {"base_url": "http://localhost:11434/v1", "model": "qwen2.5", "provider": "ollama"},
    ]  # fmt: skip
    log = [
        "2026-12-01T10:00:00 INFO survey started",
        f"2026-12-01T10:00:01 CRITICAL request failed: POST https://x.example/v1?api_key={SENTINEL}",
        f"2026-12-01T10:00:02 ERROR headers {{'x-api-key': '{SENTINEL}', 'Accept': 'json'}}",
        f"2026-12-01T10:00:03 ERROR Authorization: Bearer {SENTINEL}",
        f'2026-12-01T10:00:04 ERROR settings {{"api_key": "{SENTINEL}", "model": "m"}}',
        f"2026-12-01T10:00:05 ERROR 401 Incorrect API key provided: {OPENAI_LIKE}",
        "2026-12-01T10:00:06 INFO done",
    ]
    return build_report(FACTS, endpoints, log, secrets, now=datetime.datetime(2026, 12, 1))


def test_every_field_is_in_the_report():
    text = planted_report()
    for key, label in FIELDS:
        assert f"{label}: {FACTS[key]}" in text, label
    assert "GEOS match: yes" in text
    assert "Folder: /home/ana/.local/share/geobias/venv (made by GeoBias)" in text
    assert "xllamacpp: 2026.10.11549" in text
    gguf = "/home/ana/.local/share/geobias/models/g.gguf"
    assert f"Model gemma3-270m: packages installed; {gguf} (checksum: ok)" in text
    assert "Model smollm2-135m: packages not installed" in text
    assert "Disk used: 634 MB" in text
    assert "serving gemma-3-270m-q4_k_m on 127.0.0.1:41234" in text
    assert "gpt-4o-mini at https://api.openai.com/v1 (openai)" in text
    assert "proxy: llama3 at https://llm.example.org/v1 (custom)" in text
    assert "qwen2.5 at http://localhost:11434/v1 (ollama)" in text
    assert "== Last errors of the GeoBias log (5)" in text
    assert "survey started" not in text and "INFO done" not in text


def test_the_sentinel_key_never_appears():
    text = planted_report()
    assert SENTINEL not in text and OPENAI_LIKE not in text
    assert "sentinel" not in text.lower()  # no piece of either
    # The patterns alone (a key nobody told the report about) catch each planted position.
    planted = [
        f"POST https://x.example/v1?api_key={SENTINEL}&page=2",
        f"https://u:{SENTINEL}@llm.example.org/v1",
        f"{{'x-api-key': '{SENTINEL}', 'Accept': 'json'}}",
        f"Authorization: Bearer {SENTINEL}",
        f"Proxy-Authorization: Basic {SENTINEL}",
        f'{{"api_key": "{SENTINEL}", "model": "m"}}',
        f"token={SENTINEL}",
        f"Incorrect API key provided: {OPENAI_LIKE}",
    ]
    for line in planted:
        assert "sentinel" not in redact(line).lower(), line
    # Passing the configured keys as secrets masks them anywhere, even in free text.
    free = build_report({"os": f"Linux {SENTINEL}"}, secrets=[SENTINEL])
    assert SENTINEL not in free


def test_redact_keeps_ordinary_text():
    line = "max_tokens: 8, temperature: 0, model: gemma, https://api.openai.com/v1?page=2"
    assert redact(line) == line
    assert (
        redact("https://h/v1?page=2&access_token=abc123def")
        == "https://h/v1?page=2&access_token=***"
    )


def test_a_geos_mismatch_is_spelled_out():
    text = build_report({"geos_qgis": "3.11.1-CAPI-1.17.1", "geos_shapely": "3.13.0"})
    assert "GEOS match: NO" in text
    assert "GeoBias: unknown" in text and "none configured" in text


def test_core_facts_on_an_account_without_a_model_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    facts = diagnostics.core_facts()
    assert facts["model_env"]["exists"] is False
    text = build_report(facts)
    assert f"Folder: {tmp_path}/.local/share/geobias/venv (absent)" in text
    assert "Model gemma3-270m: packages not installed" in text


def test_a_secret_word_at_a_line_end_does_not_mask_the_next_line():
    # "…in this session" then a blank line and "== Endpoints": the heading stays whole.
    text = "no server ran in this session\n\n== Endpoints\nAuthorization\n= heading"
    assert redact(text) == text
    assert redact("session: abc123") == "session: ***"
