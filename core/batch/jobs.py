"""A survey's provider batches from submission to import: files in the provider's format,
split at its limits, submitted in waves, polled with back-off, imported into the cache by
custom_id, provider files deleted; recorded as rows of a `batches` table (never a key).

While a batch is open its requests are leased in the cache file's in-flight table, so a live
run of the same survey skips them rather than paying twice (see `lease`); the lease ends when
the batch is imported or given up.
"""

from __future__ import annotations

import json
import os
import sqlite3
import urllib.parse
import uuid
from contextlib import closing
from dataclasses import asdict, dataclass, fields

from ..engine.cache import SurveyCache
from ..engine.http_client import estimate_tokens
from ..messages import Message
from . import formats
from .client import ENDED, BatchClient

BATCH_DISCOUNT = 0.5  # every provider here sells batches at half the live price
LEASE_S = 48 * 3600.0  # a lease outlives any provider's window (24-48 h) and then lapses


@dataclass
class BatchJob:
    """One provider batch of one model: a row of the `batches` table. Status is the client's
    normalised word, or "waiting" (written, not yet submitted: the next wave) and "imported"
    (ended, its results in the cache, its provider files deleted)."""

    job_id: str
    provider: str
    model: str
    base_url: str  # the live endpoint's, part of every cache key
    request_file: str
    n_requests: int
    n_tokens: int
    cost_estimate: float | None = None
    batch_id: str = ""
    input_file_id: str = ""
    output_file_id: str = ""
    error_file_id: str = ""
    status: str = "waiting"
    n_done: int = 0
    n_failed: int = 0
    n_answers: int = 0
    submitted_at: float | None = None
    updated_at: float | None = None
    ended_at: float | None = None
    next_poll_at: float | None = None
    n_polls: int = 0
    error: str = ""
    rate_params: str = ""  # JSON of the Rate locations parameters (no key) for the layers
    layers_at: float | None = None  # when the rated layers were written from the answers

    @property
    def open(self) -> bool:
        return self.status not in ("imported", "given_up")


# --- writing the provider's files ---


def write_jobs(pending, provider: str, folder: str, stem: str = "batch",
               max_requests: int | None = None, max_bytes: int | None = None,
               price=None) -> list[BatchJob]:  # fmt: skip
    """Write (endpoint, key, body) requests as the provider's batch files, one series per
    model split at the provider's limits (or smaller caps); one waiting BatchJob a file.
    `price(endpoint) -> (in, out)` per million tokens at the live price, or None."""
    fmt = formats.FORMATS[provider]
    max_requests = min(max_requests or fmt.max_requests, fmt.max_requests)
    max_bytes = min(max_bytes or fmt.max_bytes, fmt.max_bytes)
    os.makedirs(folder, exist_ok=True)
    groups: dict = {}
    for ep, key, body in pending:
        groups.setdefault((ep.base_url, ep.model), (ep, []))[1].append((key, body))
    jobs = []
    for (base_url, model), (ep, items) in groups.items():
        slug = "".join(c if c.isalnum() or c in "._-" else "-" for c in model).strip("-.")
        f, job = None, None
        for key, body in items:
            data = (json.dumps(formats.request_line(provider, key, body), ensure_ascii=False)
                    + "\n").encode("utf-8")  # fmt: skip
            if len(data) > max_bytes:
                raise ValueError(Message("batch.too_big", n=len(data), cap=max_bytes))
            if job is None or job.n_requests >= max_requests or \
                    os.path.getsize(job.request_file) + len(data) > max_bytes:  # fmt: skip
                if f is not None:
                    f.close()
                part = len([j for j in jobs if j.model == model]) + 1
                path = os.path.join(folder, f"{stem}-{provider}-{slug}-{part:03d}.jsonl")
                job = BatchJob(uuid.uuid4().hex[:12], provider, model, base_url, path, 0, 0)
                jobs.append(job)
                f = open(path, "wb", buffering=0)  # noqa: SIM115 - closed when full or at the end
            f.write(data)
            job.n_requests += 1
            prompt = "".join(m.get("content", "") for m in body.get("messages", [])) or \
                body.get("prompt", "")  # fmt: skip
            job.n_tokens += estimate_tokens(prompt) + ep.completion_budget()
            if price is not None:
                p_in, p_out = price(ep)
                if p_in is not None or p_out is not None:
                    cost = (estimate_tokens(prompt) * (p_in or 0) +
                            ep.completion_budget() * (p_out or 0)) / 1e6  # fmt: skip
                    job.cost_estimate = (job.cost_estimate or 0.0) + cost * BATCH_DISCOUNT
        if f is not None:
            f.close()
    return jobs


def request_keys(job: BatchJob) -> list[str]:
    """The custom_ids (Gemini: keys) of a job's request file."""
    id_field = "key" if job.provider == "gemini" else "custom_id"
    with open(job.request_file, encoding="utf-8") as f:
        return [json.loads(line)[id_field] for line in f if line.strip()]


# --- leases: a live run skips what an open batch holds ---
# An open batch holds its keys in the cache file's in-flight leases (core/engine/cache.py) under
# the holder "batch:<job id>", beating LEASE_S ahead: a live run sharing the cache leaves them
# to the batch (SurveyCache.batch_held) instead of paying for them twice.

BATCH_HOLDER = "batch:"


def lease(cache: SurveyCache, job: BatchJob, now: float) -> None:
    rows = [(k, BATCH_HOLDER + job.job_id, 0, "provider-batch", now + LEASE_S)
            for k in request_keys(job)]  # fmt: skip
    with closing(sqlite3.connect(cache.path, timeout=60)) as con, con:
        con.executemany("INSERT OR REPLACE INTO inflight VALUES (?, ?, ?, ?, ?)", rows)


def release(cache: SurveyCache, job: BatchJob) -> None:
    with closing(sqlite3.connect(cache.path, timeout=60)) as con, con:
        con.execute("DELETE FROM inflight WHERE holder = ?", (BATCH_HOLDER + job.job_id,))


def leased(cache: SurveyCache, keys, now: float | None = None) -> set[str]:
    """The keys among `keys` an open batch holds (a live run leaves them to it)."""
    return cache.batch_held(keys, now)


# --- submitting in waves, polling, importing ---


def submit_wave(jobs, client: BatchClient, cache: SurveyCache, now: float,
                queued_token_limit: int | None = None) -> list[BatchJob]:  # fmt: skip
    """Submit waiting jobs while the tokens of this account's open batches stay within
    `queued_token_limit` (OpenAI's enqueued-token limit; None: no limit). A job bigger than
    the whole limit alone is submitted when nothing else is open. Returns those submitted."""
    queued = sum(j.n_tokens for j in jobs if j.open and j.status not in ("waiting",) + ENDED)
    sent = []
    for job in jobs:
        if job.status != "waiting":
            continue
        if queued_token_limit and queued and queued + job.n_tokens > queued_token_limit:
            break  # the next wave, once some batches have ended
        meta = {"geobias_job": job.job_id, "name": os.path.basename(job.request_file)}
        remote = client.submit(job.request_file, job.model, meta)
        job.batch_id, job.input_file_id = remote.batch_id, remote.input_file_id
        job.status, job.submitted_at, job.updated_at = remote.status, now, now
        job.next_poll_at = now + poll_delay(0)
        lease(cache, job, now)
        queued += job.n_tokens
        sent.append(job)
    return sent


def poll_delay(n_unchanged: int, base: float = 60.0, cap: float = 1800.0) -> float:
    """Seconds until the next status call: a minute, doubling while nothing moves, at most
    half an hour (a batch takes minutes to a day)."""
    return min(cap, base * 2.0 ** max(0, n_unchanged))


def import_results(job: BatchJob, paths, cache: SurveyCache) -> tuple[int, int]:
    """Store a job's result files in the cache by custom_id (idempotent: an answer replaces
    nothing but itself, a failure never overwrites an answer); a request the results do not
    answer (expired, cancelled) is recorded failed with the batch's status as the reason.
    Returns (answers, failures recorded)."""
    answers: dict[str, dict] = {}
    failures: dict[str, str] = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if not line.strip():
                    continue
                key, chat, reason = formats.result_of(job.provider, json.loads(line), job.model)
                if chat is not None:
                    answers[key] = chat
                    failures.pop(key, None)
                elif key not in answers:
                    failures[key] = reason
    for key in request_keys(job):
        if key not in answers and key not in failures:
            failures[key] = f"batch {job.status}: no result for this request"
    cache.put_many(answers.items())
    answered = cache.has_many(failures)
    n_failed = 0
    for key, reason in failures.items():
        if key not in answered:
            cache.put_failure(key, reason)
            n_failed += 1
    return len(answers), n_failed


def poll(job: BatchJob, client: BatchClient, cache: SurveyCache, folder: str, now: float,
         force: bool = False) -> bool:  # fmt: skip
    """One status call for an open, submitted job (unless its next poll is later and not
    `force`); an ended job is downloaded, imported, released and its provider files deleted.
    Returns True when the job changed."""
    if job.status in ("waiting", "imported", "given_up") or not job.batch_id:
        return False
    if not force and job.next_poll_at and now < job.next_poll_at:
        return False
    before = (job.status, job.n_done)
    remote = client.status(job.batch_id)
    job.status, job.n_done, job.n_failed = remote.status, remote.n_done, remote.n_failed
    job.output_file_id = remote.output_file_id or job.output_file_id
    job.error_file_id = remote.error_file_id or job.error_file_id
    job.error = "; ".join(remote.errors)[:500]
    job.updated_at = now
    moved = (job.status, job.n_done) != before
    job.n_polls = 0 if moved else job.n_polls + 1
    job.next_poll_at = now + poll_delay(job.n_polls)
    if remote.ended:
        job.ended_at = job.ended_at or now
        remote.input_file_id = job.input_file_id  # not every provider repeats it
        paths = client.download(remote, folder)
        job.n_answers, n_failed = import_results(job, paths, cache)
        release(cache, job)
        try:
            client.cleanup(remote)
        except Exception as err:  # noqa: BLE001 - the answers are stored; a leftover file is said
            job.error = f"provider files not deleted: {err}"[:500]
        job.status = "imported"
        job.n_failed = max(job.n_failed, n_failed)
        return True
    return moved


def cancel(job: BatchJob, client: BatchClient, now: float) -> None:
    """Ask the provider to cancel; the next poll imports what came back."""
    if job.status == "waiting":
        job.status = "given_up"
        return
    remote = client.cancel(job.batch_id)
    job.status, job.updated_at, job.next_poll_at = remote.status, now, now


def missing(jobs, cache: SurveyCache) -> list[str]:
    """Keys of ended jobs' requests still without an answer (for Resubmit what is missing)."""
    keys = [k for j in jobs if not j.open for k in request_keys(j)]
    have = cache.has_many(keys)
    return [k for k in keys if k not in have]


def resubmit_jobs(jobs, keys, folder: str, stem: str = "resubmit") -> list[BatchJob]:
    """New waiting jobs holding only the request lines of `keys` (what is missing), copied
    from the ended jobs' request files: the same provider, model and endpoint, the same ids."""
    wanted = set(keys)
    os.makedirs(folder, exist_ok=True)
    out: list[BatchJob] = []
    for old in jobs:
        if old.open:
            continue
        fmt = formats.FORMATS[old.provider]
        id_field = "key" if old.provider == "gemini" else "custom_id"
        job, f = None, None
        with open(old.request_file, encoding="utf-8") as src:
            for line in src:
                key = json.loads(line)[id_field] if line.strip() else None
                if key not in wanted:
                    continue
                wanted.discard(key)  # once, whichever ended job held it
                data = line.encode("utf-8")
                if job is None or job.n_requests >= fmt.max_requests or \
                        os.path.getsize(job.request_file) + len(data) > fmt.max_bytes:  # fmt: skip
                    if f is not None:
                        f.close()
                    name = f"{stem}-{uuid.uuid4().hex[:8]}-{os.path.basename(old.request_file)}"
                    job = BatchJob(uuid.uuid4().hex[:12], old.provider, old.model, old.base_url,
                                   os.path.join(folder, name), 0, 0,
                                   rate_params=old.rate_params)  # fmt: skip
                    out.append(job)
                    f = open(job.request_file, "wb", buffering=0)  # noqa: SIM115
                f.write(data)
                job.n_requests += 1
                share = old.n_tokens / max(1, old.n_requests)
                job.n_tokens += int(share)
                if old.cost_estimate is not None:
                    job.cost_estimate = (job.cost_estimate or 0.0) + \
                        old.cost_estimate / max(1, old.n_requests)  # fmt: skip
        if f is not None:
            f.close()
    return out


# --- the batches table (in the output GeoPackage or any SQLite file) ---

_COLUMNS = [f.name for f in fields(BatchJob)]


def has_batches(path: str) -> bool:
    """Whether an SQLite file (a GeoPackage) holds a `batches` table; nothing is written.
    sqlite3.DatabaseError for a file that is not SQLite."""
    if not os.path.exists(path):
        return False
    uri = "file:" + urllib.parse.quote(os.path.abspath(path)) + "?mode=ro"
    with closing(sqlite3.connect(uri, uri=True, timeout=60)) as con:
        return con.execute("SELECT 1 FROM sqlite_master WHERE name = 'batches'").fetchone() \
            is not None  # fmt: skip


class JobStore:
    """The `batches` table of a GeoPackage (registered in gpkg_contents as attributes, so QGIS
    lists it) or of any SQLite file: one row per BatchJob, never a key."""

    def __init__(self, path: str):
        self.path = path
        with closing(sqlite3.connect(path, timeout=60)) as con, con:
            cols = ", ".join(f"{c} {'TEXT' if c in ('job_id',) else ''}" for c in _COLUMNS)
            con.execute(f"CREATE TABLE IF NOT EXISTS batches (fid INTEGER PRIMARY KEY "
                        f"AUTOINCREMENT, {cols}, UNIQUE(job_id))")  # fmt: skip
            have = {r[1] for r in con.execute("PRAGMA table_info(batches)")}
            for c in _COLUMNS:
                if c not in have:  # a table an older GeoBias wrote
                    con.execute(f"ALTER TABLE batches ADD COLUMN {c}")
            has_gpkg = con.execute("SELECT 1 FROM sqlite_master WHERE name='gpkg_contents'"
                                   ).fetchone()  # fmt: skip
            if has_gpkg:
                con.execute("INSERT OR IGNORE INTO gpkg_contents (table_name, data_type, "
                            "identifier, description, last_change) VALUES ('batches', "
                            "'attributes', 'batches', 'GeoBias provider batches', "
                            "strftime('%Y-%m-%dT%H:%M:%fZ','now'))")  # fmt: skip

    def save(self, jobs) -> None:
        with closing(sqlite3.connect(self.path, timeout=60)) as con, con:
            marks = ", ".join("?" * len(_COLUMNS))
            updates = ", ".join(f"{c}=excluded.{c}" for c in _COLUMNS[1:])
            con.executemany(
                f"INSERT INTO batches ({', '.join(_COLUMNS)}) VALUES ({marks}) "
                f"ON CONFLICT(job_id) DO UPDATE SET {updates}",
                [tuple(asdict(j)[c] for c in _COLUMNS) for j in jobs],
            )

    def load(self, open_only: bool = False) -> list[BatchJob]:
        with closing(sqlite3.connect(self.path, timeout=60)) as con:
            rows = con.execute(f"SELECT {', '.join(_COLUMNS)} FROM batches ORDER BY fid")
            jobs = [BatchJob(**dict(zip(_COLUMNS, r))) for r in rows]
        return [j for j in jobs if j.open] if open_only else jobs
