"""Golden test: every geobias:* algorithm, run by id on fixed inputs, gives the recorded outputs.

Recorded on the main the house refactor (issue 22) started from; it must pass unchanged after
each step of it. The scenario (test/golden/scenario.py) runs in a QGIS process of its own with a
fresh settings folder holding the recorded survey cache; the model-asking algorithms reach the
model through a server here that only counts requests: none may arrive, which also proves the
cache keys unchanged. test/golden/README.md says what is compared and how to re-record.
"""

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from contextlib import closing
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from geobias.test.golden import snapshot

# HERB's embedded scorer starts the real embedded model: native only, as test/integration.
pytestmark = pytest.mark.integration

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GOLDEN = os.path.join(ROOT, "test", "golden")
DATA = os.path.join(GOLDEN, "data")
EXPECTED = os.path.join(DATA, "expected")
SURVEY_CACHE = os.path.join(DATA, "survey_cache.sqlite")
HERB_CACHE = os.path.join(DATA, "herb_cache.sqlite")
BATCH_OUTPUT = os.path.join(DATA, "batch_output.jsonl")
# GEOBIAS_GOLDEN_RECORD=1: fill the caches with the real models, then record the outputs;
# =outputs: record the outputs from the committed caches (test/golden/README.md says when).
RECORD = os.environ.get("GEOBIAS_GOLDEN_RECORD", "")
assert RECORD in ("", "0", "1", "outputs"), f"GEOBIAS_GOLDEN_RECORD={RECORD}: use 1 or outputs"
RECORDED_STEPS = sorted(f[:-5] for f in os.listdir(EXPECTED)) if os.path.isdir(EXPECTED) else []


class CountingServer:
    """Counts every HTTP request (any method, any path) and refuses it with a 400, which the
    survey client does not retry: a run that asks anything fails fast and is counted."""

    def __init__(self):
        self.requests = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _refuse(self):
                length = int(self.headers.get("Content-Length") or 0)
                if length:
                    self.rfile.read(length)
                server.requests.append((self.command, self.path))
                body = b'{"error": {"message": "golden test: no request may reach the model"}}'
                self.send_response(400)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = _refuse

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self):
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


def run_scenario(folder, base_url, *args):
    """The scenario in its own QGIS, settings in folder/profile; returns (manifest, seconds)."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", LC_ALL="C.UTF-8", LANG="C.UTF-8",
               QGIS_CUSTOM_CONFIG_PATH=os.path.join(folder, "profile"))  # fmt: skip
    cmd = [sys.executable, os.path.join(GOLDEN, "scenario.py"), "--work",
           os.path.join(folder, "work"), "--base-url", base_url, *args]  # fmt: skip
    os.makedirs(folder, exist_ok=True)
    t0 = time.monotonic()
    proc = subprocess.run(cmd, env=env, cwd=folder, capture_output=True, text=True, timeout=1800)
    seconds = time.monotonic() - t0
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-5000:]
    with open(os.path.join(folder, "work", "manifest.json"), encoding="utf-8") as f:
        return json.load(f), seconds


def compact_copy(src, dest, drop_keys=()):
    """A single-file copy of a SQLite cache (WAL folded in), without the given answer keys."""
    if os.path.exists(dest):
        os.remove(dest)
    with closing(sqlite3.connect(src)) as a, closing(sqlite3.connect(dest)) as b:
        a.backup(b)
        b.executemany("DELETE FROM responses WHERE key = ?", [(k,) for k in drop_keys])
        b.commit()
        b.execute("PRAGMA journal_mode=DELETE")
        b.execute("VACUUM")


def record(folder):
    """Fill the caches once with the real embedded models (Gemma 3 270M rates, SmolLM2 scores
    HERB's sentences) and the batch output, into test/golden/data."""
    from geobias.core.runtime.embedded import EmbeddedServer

    fill = os.path.join(folder, "fill")
    with EmbeddedServer(parallel=2) as server:
        manifest, _ = run_scenario(fill, server.base_url, "--answer-batch")
    batch = os.path.join(fill, "work", "batch_output.jsonl")
    with open(batch, encoding="utf-8") as f:
        batch_keys = [json.loads(line)["custom_id"] for line in f if line.strip()]
    shutil.copyfile(batch, BATCH_OUTPUT)
    # The batch's answers reach the cache by importbatch in the run, not by the recording.
    compact_copy(manifest["survey_cache"], SURVEY_CACHE, batch_keys)
    compact_copy(os.path.join(fill, "work", "herb_cache.sqlite"), HERB_CACHE)


@pytest.fixture(scope="module")
def golden(tmp_path_factory):
    """The golden run: (its snapshots folder, its manifest, the requests that reached the
    endpoint)."""
    folder = str(tmp_path_factory.mktemp("golden"))
    if RECORD == "1":
        record(folder)
    run = os.path.join(folder, "run")
    with CountingServer() as server:
        manifest, seconds = run_scenario(
            run, server.base_url, "--survey-cache", SURVEY_CACHE, "--herb-cache", HERB_CACHE,
            "--batch-output", BATCH_OUTPUT,
        )  # fmt: skip
    print(f"golden scenario: {seconds:.1f} s")
    snaps = os.path.join(run, "work", "snapshots")
    if RECORD in ("1", "outputs"):
        shutil.rmtree(EXPECTED, ignore_errors=True)
        shutil.copytree(snaps, EXPECTED)
    return snaps, manifest, server.requests


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def test_no_request_reaches_the_model(golden):
    """Every answer comes from the recorded caches: the cache keys are unchanged."""
    snaps, manifest, requests = golden
    assert not requests, f"{len(requests)} requests reached the model, e.g. {requests[:3]}"
    # HERB's embedded scorer starts its own model (and asks it for its model file, BOS token
    # and grammar when it starts, see scenario.py); no sentence is scored: none is missing from
    # the cache and the cache gains no row.
    before, after = manifest["herb_cache_rows"]
    assert before == after > 0
    for step in manifest["steps"]:
        doc = load(os.path.join(snaps, step["step"] + ".json"))
        results = doc.get("results", {})
        # exportbatch's and submitbatch's N_REQUESTS: requests written into batches, not sent.
        if step["algorithm"] not in ("geobias:exportbatch", "geobias:submitbatch"):
            for key in ("N_REQUESTS", "N_TO_SCORE"):
                assert results.get(key, 0) == 0, (step["step"], key, results[key])
        for f in doc.get("files", {}).values():
            runs = f.get("tables", {}).get("runs")
            if runs:
                col = runs["columns"].index("n_requests")
                assert [r[col] for r in runs["rows"]] == [0] * len(runs["rows"]), step["step"]


def test_every_algorithm_is_in_the_scenario(golden):
    _snaps, manifest, _requests = golden
    assert len(manifest["algorithms"]) == 24
    assert {s["algorithm"] for s in manifest["steps"]} == set(manifest["algorithms"])
    recorded = sorted(f[:-5] for f in os.listdir(EXPECTED))
    assert sorted(s["step"] for s in manifest["steps"]) == recorded


@pytest.mark.parametrize("step", RECORDED_STEPS)
def test_outputs_match_the_recording(golden, step):
    snaps, _manifest, _requests = golden
    want = load(os.path.join(EXPECTED, step + ".json"))
    got = load(os.path.join(snaps, step + ".json"))
    diffs = snapshot.differences(want, got)
    assert not diffs, f"{step} differs from test/golden/data/expected:\n" + "\n".join(diffs)
