"""Two processes writing one survey cache at once (issue 23 item 5): nothing lost or doubled,
never "database is locked", even with a busy timeout too short to hide the contention."""

import multiprocessing as mp
import os
import sqlite3
import time
from contextlib import closing

from geobias.core.engine.cache import ScoreCache, SurveyCache


def _writer(path, worker, start, out):
    while time.time() < start:  # both processes open the new file at the same moment
        time.sleep(0.001)
    try:
        # A 5 ms busy timeout: SQLite's own wait gives up long before the other writer is done.
        kind = SurveyCache if worker else ScoreCache
        cache = kind(path, timeout_s=0.005, retry_s=60.0)
        for i in range(400):
            key = f"k{i}"  # the same keys in both processes: overlapping points
            cache.put_many([(key, {"worker": worker, "i": i}), (f"w{worker}-{i}", {"i": i})])
            if i % 5 == 0:
                cache.put_failure(f"f{worker}-{i}", "no answer")
        out.put("ok")
    except Exception as e:  # noqa: BLE001 - reported to the test
        import traceback

        out.put(repr(e) + traceback.format_exc())


def test_two_processes_share_one_cache(tmp_path):
    path = str(tmp_path / "shared.sqlite")
    ctx = mp.get_context("spawn")
    out = ctx.Queue()
    start = time.time() + 2.0
    procs = [ctx.Process(target=_writer, args=(path, w, start, out)) for w in (0, 1)]
    for p in procs:
        p.start()
    results = [out.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(30)
    assert results == ["ok", "ok"], results
    with closing(sqlite3.connect(path)) as con, con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        keys = [k for (k,) in con.execute("SELECT key FROM responses")]
        failures = con.execute("SELECT COUNT(*) FROM failures").fetchone()[0]
    assert len(keys) == len(set(keys)) == 400 + 2 * 400  # shared keys once, own keys all
    assert failures == 2 * 80
    assert len(SurveyCache(path)) == 1200 and os.path.getsize(path) > 0
