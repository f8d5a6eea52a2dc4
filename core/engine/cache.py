"""Survey cache: every answer stored in SQLite (WAL) the moment it arrives, keyed by request."""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import sqlite3
import threading
import time
import weakref

from ..messages import Message
from .chat import Endpoint, normalise_base_url

_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY, response TEXT NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS failures (
    key TEXT PRIMARY KEY, error TEXT NOT NULL, attempts INTEGER NOT NULL, updated REAL NOT NULL);
CREATE TABLE IF NOT EXISTS inflight (
    key TEXT PRIMARY KEY, holder TEXT NOT NULL, pid INTEGER NOT NULL, host TEXT NOT NULL,
    beat REAL NOT NULL);
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
# A cache made since the embedded model's SHA-256 is part of its keys says so in `meta`; an
# older one may hold answers under the keys requests had before, which are adopted on a miss.
_SHA_KEYS = "model_sha256_keys"
LEASE_TTL_S = 30.0  # a lease whose holder has not beaten for this long has lapsed
_CHUNK = 900  # stay under SQLite's default limit of host parameters per statement


def canonical_json(obj) -> str:
    """Stable JSON (sorted keys, no spaces) so equal requests hash equally."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def request_key(base_url: str, model: str, body: dict, draw: int = 0,
                model_sha256: str = "") -> str:  # fmt: skip
    """sha256 of the normalised base URL, the model and the full request body (never the key).

    `draw`: which of several answers to the same body this is (the sampled score's k draws,
    the repeats of a run): draw 0 is the one answer a body has always had and keeps that key
    byte for byte (committed caches still hit); draw d > 0 adds a line ``draw=d``.
    `model_sha256`: the model file's checksum where GeoBias can see the file (the embedded
    model), which changes an answer without being in the body; it adds a last line.
    """
    draw = int(draw)
    if draw < 0:
        raise ValueError(f"a draw index is 0 or more, not {draw}")
    parts = [normalise_base_url(base_url), model, canonical_json(body)]
    if draw:
        parts.append(f"draw={draw}")
    if model_sha256:
        parts.append(f"model_sha256={model_sha256}")
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()


class CacheError(RuntimeError):
    """The cache file is not a usable SQLite database (damaged, or another kind of file)."""


def _empty(path: str) -> bool:
    """No file yet, or an empty one (no data: what a disk that filled while it was made left)."""
    try:
        return os.path.getsize(path) == 0
    except OSError:
        return True


# Below this much free space an SQLite I/O error is read as a full disk (the WAL index alone
# takes 32 KB, a page of the journal 4 KB).
FULL_BELOW = 256 * 1024


def disk_full(error: Exception, path: str) -> bool:
    """No space left under `path`: SQLITE_FULL, or an I/O error (SQLite reports a WAL index it
    cannot grow, SQLITE_IOERR_SHMSIZE, as "disk I/O error") on a disk with next to no space."""
    name = getattr(error, "sqlite_errorname", "")
    if name == "SQLITE_FULL" or "disk is full" in str(error).lower():
        return True
    if not (name.startswith("SQLITE_IOERR") or "i/o error" in str(error).lower()):
        return False
    try:
        free = shutil.disk_usage(os.path.dirname(os.path.abspath(path))).free
    except OSError:
        return False
    return free < FULL_BELOW


def _locked(error: sqlite3.OperationalError) -> bool:
    text = str(error).lower()
    return "locked" in text or "busy" in text


def _rollback(con: sqlite3.Connection) -> None:
    """Roll back what is still open: SQLite has already rolled back after some errors (a full
    disk), and a second ROLLBACK would hide the real error."""
    if con.in_transaction:
        con.execute("ROLLBACK")


def retry_locked(fn, timeout_s: float):
    """Call `fn()` again while SQLite says the database is locked or busy, for up to
    `timeout_s` seconds: the busy timeout covers most waits, but not all (switching to WAL
    while another process opens the file, a busy WAL recovery), and two runs sharing a cache
    must never show "database is locked"."""
    deadline = time.monotonic() + timeout_s
    delay = 0.01
    while True:
        try:
            return fn()
        except sqlite3.OperationalError as e:
            if not _locked(e) or time.monotonic() >= deadline:
                raise
        time.sleep(delay * (0.5 + random.random()))
        delay = min(0.5, delay * 2)


class SurveyCache:
    """Answers and failures by request key; thread-safe, several processes may share the file."""

    def __init__(self, path: str, timeout_s: float = 60.0, retry_s: float = 60.0):
        # timeout_s: SQLite's busy wait per statement; retry_s: how long a write (or opening
        # the file) is retried while the database stays locked by another run (retry_locked).
        self.path = path
        self.timeout_s = timeout_s
        self.retry_s = retry_s
        self._local = threading.local()
        # Every thread's connection with its thread: one whose thread has ended is closed when
        # the next is opened, the rest when the cache is collected. Closed explicitly, never
        # left to the garbage collector (Python 3.13+ warns of an unclosed connection there).
        self._cons: list = []
        self._cons_lock = threading.Lock()
        weakref.finalize(self, _close_all, self._cons)
        self._lock = threading.Lock()
        self._legacy: dict[str, str] = {}  # key now -> the key before model checksums
        created = _empty(path)
        try:
            con = self._con()
            retry_locked(lambda: con.execute("PRAGMA journal_mode=WAL"), retry_s)
            with self._lock:
                retry_locked(lambda: con.executescript(_SCHEMA), retry_s)
                if created:
                    sql = "INSERT OR IGNORE INTO meta VALUES (?, '1')"
                    retry_locked(lambda: con.execute(sql, (_SHA_KEYS,)), retry_s)
            row = con.execute("SELECT value FROM meta WHERE name=?", (_SHA_KEYS,)).fetchone()
            self._old_keys = row is None
        except sqlite3.DatabaseError as e:
            self._abandon(created)
            if disk_full(e, path):  # the file is fine (or was never made): the disk is the cause
                raise CacheError(Message("cache.full", path=path, reason=e)) from e
            raise CacheError(Message("cache.survey", path=path, reason=e)) from e

    def _abandon(self, created: bool) -> None:
        """Close after a failed open; a file this open created (empty, or a bare header: the
        disk filled while it was made) is removed, so no empty cache is left behind."""
        self.close()
        if created:
            for suffix in ("", "-wal", "-shm", "-journal"):
                try:
                    os.remove(self.path + suffix)
                except OSError:
                    pass

    def _con(self) -> sqlite3.Connection:
        """One connection per thread (sqlite3 connections must not be shared across threads)."""
        con = getattr(self._local, "con", None)
        if con is None:
            # check_same_thread off only so that a finished thread's connection can be closed
            # here; each connection is still used by its own thread alone.
            with self._cons_lock:  # one pass: a thread ending meanwhile is kept, not lost
                alive, ended = [], []
                for pair in self._cons:
                    (alive if pair[0].is_alive() else ended).append(pair)
                self._cons[:] = alive
            for _thread, old in ended:
                old.close()
            con = sqlite3.connect(self.path, timeout=self.timeout_s, isolation_level=None,
                                  check_same_thread=False)  # fmt: skip
            with self._cons_lock:
                self._cons.append((threading.current_thread(), con))
            con.execute(f"PRAGMA busy_timeout={int(self.timeout_s * 1000)}")
            # WAL + NORMAL: a committed answer survives a crash of this process. (Its first
            # statement reads the schema: locked while another process switches to WAL.)
            retry_locked(lambda: con.execute("PRAGMA synchronous=NORMAL"), self.retry_s)
            self._local.con = con
        return con

    def key(self, endpoint: Endpoint, body: dict, draw: int = 0) -> str:
        """The cache key of one request to one endpoint (`draw`: see request_key)."""
        # The embedded model listens on a new loopback port each run; its answers depend on the
        # model file (named in endpoint.model), not on the port, so a re-run finds them.
        base = "embedded://local" if endpoint.provider == "embedded" else endpoint.base_url
        sha = getattr(endpoint, "model_sha256", "") or ""
        key = request_key(base, endpoint.model, body, draw, sha)
        if sha and self._old_keys:
            self._legacy[key] = request_key(base, endpoint.model, body, draw)
        return key

    def _adopt(self, keys) -> None:
        """Move what an older cache holds under a request's key from before the model's
        checksum was part of it to its key now (once per key): a migration, not a miss. The
        older key named the bundled model by its file name, which the registry pins."""
        pairs = [(k, self._legacy.pop(k)) for k in keys if k in self._legacy]
        if not pairs:
            return
        con = self._con()
        old = {o: n for n, o in pairs}
        held = []
        for table in ("responses", "failures"):
            olds = list(old)
            for i in range(0, len(olds), _CHUNK):
                chunk = olds[i : i + _CHUNK]
                marks = ",".join("?" * len(chunk))
                rows = con.execute(f"SELECT key FROM {table} WHERE key IN ({marks})", chunk)
                held += [(table, r[0]) for r in rows]
        if not held:
            return

        def write():
            con.execute("BEGIN IMMEDIATE")
            try:
                for table, o in held:
                    con.execute(f"UPDATE OR IGNORE {table} SET key=? WHERE key=?", (old[o], o))
                    con.execute(f"DELETE FROM {table} WHERE key=?", (o,))
                con.execute("COMMIT")
            except BaseException:
                _rollback(con)
                raise

        with self._lock:
            retry_locked(write, self.retry_s)

    def get(self, key: str) -> dict | None:
        """The stored response JSON, or None."""
        self._adopt([key])
        row = self._con().execute("SELECT response FROM responses WHERE key=?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def get_many(self, keys) -> dict[str, dict]:
        """Stored responses for many keys at once (fast resume of large surveys)."""
        keys = list(dict.fromkeys(keys))
        self._adopt(keys)
        out: dict[str, dict] = {}
        con = self._con()
        for i in range(0, len(keys), _CHUNK):
            chunk = keys[i : i + _CHUNK]
            marks = ",".join("?" * len(chunk))
            sql = f"SELECT key, response FROM responses WHERE key IN ({marks})"
            for k, text in con.execute(sql, chunk):
                out[k] = json.loads(text)
        return out

    def has_many(self, keys) -> set[str]:
        """Which keys already have an answer (without parsing the answers)."""
        keys = list(dict.fromkeys(keys))
        self._adopt(keys)
        found: set[str] = set()
        con = self._con()
        for i in range(0, len(keys), _CHUNK):
            chunk = keys[i : i + _CHUNK]
            marks = ",".join("?" * len(chunk))
            rows = con.execute(f"SELECT key FROM responses WHERE key IN ({marks})", chunk)
            found.update(r[0] for r in rows)
        return found

    def put(self, key: str, response: dict) -> None:
        """Store one answer now (committed before returning) and clear its failure record."""
        self.put_many([(key, response)])

    def put_many(self, items) -> None:
        """Store several answers in one transaction."""
        now = time.time()
        rows = [(k, canonical_json(r), now) for k, r in items]
        if not rows:
            return
        con = self._con()

        def write():
            con.execute("BEGIN IMMEDIATE")  # a lock it cannot get leaves nothing to roll back
            try:
                con.executemany("INSERT OR REPLACE INTO responses VALUES (?,?,?)", rows)
                con.executemany("DELETE FROM failures WHERE key=?", [(r[0],) for r in rows])
                con.execute("COMMIT")
            except BaseException:
                _rollback(con)
                raise

        with self._lock:
            retry_locked(write, self.retry_s)

    def put_failure(self, key: str, error: str) -> None:
        """Record a request that got no answer after its retries (retried on resume)."""
        con = self._con()
        sql = ("INSERT INTO failures VALUES (?,?,1,?) ON CONFLICT(key) DO UPDATE SET "
               "error=excluded.error, attempts=attempts+1, updated=excluded.updated")  # fmt: skip
        with self._lock:
            retry_locked(lambda: con.execute(sql, (key, error[:1000], time.time())), self.retry_s)

    def failures(self, keys=None) -> dict[str, str]:
        """Failure messages by key (for all keys, or only the given ones)."""
        con = self._con()
        if keys is None:
            return dict(con.execute("SELECT key, error FROM failures"))
        keys = list(dict.fromkeys(keys))
        self._adopt(keys)
        out: dict[str, str] = {}
        for i in range(0, len(keys), _CHUNK):
            chunk = keys[i : i + _CHUNK]
            marks = ",".join("?" * len(chunk))
            sql = f"SELECT key, error FROM failures WHERE key IN ({marks})"
            out.update(con.execute(sql, chunk))
        return out

    def __len__(self) -> int:
        return self._con().execute("SELECT COUNT(*) FROM responses").fetchone()[0]

    def batch_held(self, keys, now: float | None = None) -> set[str]:
        """The keys among `keys` that an open provider batch holds (core/batch/jobs.py leases
        them under the holder "batch:<job>" until its results are imported): a live run
        leaves them to the batch rather than paying twice."""
        now = time.time() if now is None else now
        keys = list(keys)
        out: set[str] = set()
        con = self._con()
        for i in range(0, len(keys), _CHUNK):
            chunk = keys[i : i + _CHUNK]
            marks = ",".join("?" * len(chunk))
            rows = con.execute(
                f"SELECT key FROM inflight WHERE holder LIKE 'batch:%' AND beat > ? "
                f"AND key IN ({marks})", [now, *chunk])  # fmt: skip
            out.update(r[0] for r in rows)
        return out

    def leases(self, ttl_s: float = LEASE_TTL_S) -> Leases:
        """In-flight leases for one run on this cache file (see `Leases`)."""
        return Leases(self.path, ttl_s, self.timeout_s, self.retry_s)

    def close(self) -> None:
        """Close this thread's connection."""
        con = getattr(self._local, "con", None)
        if con is not None:
            con.close()
            self._local.con = None
            with self._cons_lock:
                self._cons[:] = [p for p in self._cons if p[1] is not con]


def _close_all(pairs):
    """Close the connections of a cache being collected."""
    for _thread, con in pairs:
        con.close()
    pairs.clear()


_SCORES_SCHEMA = """
CREATE TABLE IF NOT EXISTS sentence_scores (
    scorer TEXT NOT NULL, model TEXT NOT NULL, rule TEXT NOT NULL, sentence TEXT NOT NULL,
    score REAL NOT NULL, n_tokens INTEGER NOT NULL, created REAL NOT NULL,
    PRIMARY KEY (scorer, model, rule, sentence));
"""


class ScoreCache(SurveyCache):
    """HERB sentence scores in their own table of a survey cache file.

    Keyed by scorer kind, model identity, scoring rule and sentence text, so two scorers or two
    models never share a score; each batch is committed as soon as it is scored.
    """

    def __init__(self, path: str, timeout_s: float = 60.0, retry_s: float = 60.0):
        created = _empty(path)
        super().__init__(path, timeout_s, retry_s)
        try:
            with self._lock:
                con = self._con()
                retry_locked(lambda: con.executescript(_SCORES_SCHEMA), retry_s)
        except sqlite3.DatabaseError as e:
            self._abandon(created)
            if disk_full(e, path):
                raise CacheError(Message("cache.full", path=path, reason=e)) from e
            raise CacheError(Message("cache.scores", path=path, reason=e)) from e

    def get_scores(self, scorer: str, model: str, rule: str, sentences) -> dict[str, float]:
        """Stored scores of the given sentences (missing ones are absent from the dict)."""
        sentences = list(dict.fromkeys(sentences))
        out: dict[str, float] = {}
        con = self._con()
        for i in range(0, len(sentences), _CHUNK):
            chunk = sentences[i : i + _CHUNK]
            marks = ",".join("?" * len(chunk))
            sql = (
                "SELECT sentence, score FROM sentence_scores WHERE scorer=? AND model=? AND "
                f"rule=? AND sentence IN ({marks})"
            )
            out.update(con.execute(sql, [scorer, model, rule, *chunk]))
        return out

    def put_scores(self, scorer: str, model: str, rule: str, items) -> None:
        """Store (sentence, score, n_tokens) triples in one transaction."""
        now = time.time()
        rows = [(scorer, model, rule, s, float(v), int(n), now) for s, v, n in items]
        if not rows:
            return
        con = self._con()

        def write():
            con.execute("BEGIN IMMEDIATE")  # a lock it cannot get leaves nothing to roll back
            try:
                con.executemany(
                    "INSERT OR REPLACE INTO sentence_scores VALUES (?,?,?,?,?,?,?)", rows
                )
                con.execute("COMMIT")
            except BaseException:
                _rollback(con)
                raise

        with self._lock:
            retry_locked(write, self.retry_s)

    def adopt_scores(self, scorer: str, model: str, legacy: str) -> None:
        """Give the scores an older cache holds under a model's older identity (its file name
        alone) to its identity now (name and checksum): a migration, not a rescoring."""
        if not legacy or legacy == model:
            return
        con = self._con()

        def write():
            con.execute("BEGIN IMMEDIATE")
            try:
                con.execute("UPDATE OR IGNORE sentence_scores SET model=? WHERE scorer=? AND "
                            "model=?", (model, scorer, legacy))  # fmt: skip
                con.execute("DELETE FROM sentence_scores WHERE scorer=? AND model=?",
                            (scorer, legacy))  # fmt: skip
                con.execute("COMMIT")
            except BaseException:
                _rollback(con)
                raise

        with self._lock:
            retry_locked(write, self.retry_s)

    def n_scores(self) -> int:
        """Number of stored sentence scores (all scorers)."""
        return self._con().execute("SELECT COUNT(*) FROM sentence_scores").fetchone()[0]


def _alive(pid: int) -> bool:
    """Whether process `pid` of this machine still runs (POSIX; elsewhere: assumed, and the
    heartbeat's time decides)."""
    if os.name != "posix":
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True


class Leases:
    """One run's in-flight leases on a cache file: runs sharing a cache never send the same
    request at the same time (issue 31 item 7).

    Before sending a key the run `acquire`s it: a key another live run holds is waited for
    until its answer is stored (then used, nothing is sent) or its lease ends without one (then
    taken over). A lease ends when its holder `release`s it (after the answer or the failure is
    committed), when the holder's process is gone (same machine), or when its heartbeat (a
    thread beating every ttl/6 s) is older than `ttl_s`. One connection of its own, shared by
    the run's threads under a lock.
    """

    def __init__(self, path: str, ttl_s: float = LEASE_TTL_S, timeout_s: float = 60.0,
                 retry_s: float = 60.0):  # fmt: skip
        import socket
        import uuid

        self.ttl_s, self.retry_s = float(ttl_s), retry_s
        self.holder = uuid.uuid4().hex
        self.pid, self.host = os.getpid(), socket.gethostname()
        self.n_waits = 0  # keys found held by another run
        self.n_taken_over = 0  # leases taken from a holder that died
        self._lock = threading.Lock()
        self._con = sqlite3.connect(path, timeout=timeout_s, isolation_level=None,
                                    check_same_thread=False)  # fmt: skip
        self._con.execute(f"PRAGMA busy_timeout={int(timeout_s * 1000)}")
        self._stop = threading.Event()
        self._beat = threading.Thread(target=self._beating, name="geobias-lease", daemon=True)
        self._beat.start()

    def _tx(self, fn):
        """Run fn(con) in one immediate transaction, retried while the file is locked."""
        con = self._con

        def write():
            con.execute("BEGIN IMMEDIATE")
            try:
                out = fn(con)
                con.execute("COMMIT")
                return out
            except BaseException:
                _rollback(con)
                raise

        with self._lock:
            return retry_locked(write, self.retry_s)

    def try_acquire(self, key: str) -> tuple[bool, dict | None]:
        """(True, None): this run now holds `key`; (False, response): the answer is stored
        already; (False, None): another live run holds it."""
        now = time.time()

        def claim(con):
            row = con.execute("SELECT response FROM responses WHERE key=?", (key,)).fetchone()
            if row is not None:
                return False, json.loads(row[0])
            held = con.execute("SELECT holder, pid, host, beat FROM inflight WHERE key=?",
                               (key,)).fetchone()  # fmt: skip
            if held is not None and held[0] != self.holder:
                lapsed = now - held[3] > self.ttl_s
                dead = held[2] == self.host and not _alive(held[1])
                if not (lapsed or dead):
                    return False, None
                self.n_taken_over += 1
            con.execute("INSERT OR REPLACE INTO inflight VALUES (?,?,?,?,?)",
                        (key, self.holder, self.pid, self.host, now))  # fmt: skip
            return True, None

        return self._tx(claim)

    def acquire(self, key: str, should_stop=None, poll_s: float = 0.05):
        """Hold `key` before sending it; returns None once held, the stored response if another
        run answered it meanwhile, or False if `should_stop()` said stop while waiting."""
        waited = False
        while True:
            held, response = self.try_acquire(key)
            if held:
                return None
            if response is not None:
                return response
            if not waited:
                waited = True
                with self._lock:
                    self.n_waits += 1
            if should_stop is not None and should_stop():
                return False
            time.sleep(poll_s)
            poll_s = min(0.5, poll_s * 1.5)

    def release(self, keys) -> None:
        """End this run's leases of `keys` (after their answers or failures are committed)."""
        rows = [(k, self.holder) for k in keys]
        if rows:
            self._tx(lambda con: con.executemany(
                "DELETE FROM inflight WHERE key=? AND holder=?", rows))  # fmt: skip

    def _beating(self) -> None:
        while not self._stop.wait(self.ttl_s / 6):
            try:
                self._tx(lambda con: con.execute("UPDATE inflight SET beat=? WHERE holder=?",
                                                 (time.time(), self.holder)))  # fmt: skip
            except sqlite3.Error:
                pass  # a missed beat: the next one, or the lease lapses (never a crash)

    def close(self) -> None:
        """End every lease of this run and the heartbeat."""
        self._stop.set()
        self._beat.join(5)
        try:
            self._tx(lambda con: con.execute("DELETE FROM inflight WHERE holder=?",
                                             (self.holder,)))  # fmt: skip
        finally:
            self._con.close()
