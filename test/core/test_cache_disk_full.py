"""A cache opened on a full disk (issue 35 item 5): the message names the full disk, not a
damaged cache to move away, and no empty cache file is left; an existing cache stays intact.
Swept over the free space left on a fixed 1 MB tmpfs, not one lucky size."""

import os
import sqlite3
import subprocess
from contextlib import closing

import pytest

from geobias.core.engine.cache import CacheError, ScoreCache, SurveyCache


@pytest.fixture()
def small_disk(tmp_path):
    """A 1 MB tmpfs (mounting needs root, as in CI's container)."""
    folder = tmp_path / "small"
    folder.mkdir()
    if os.geteuid() != 0:
        pytest.fail("mounting a small tmpfs needs root")
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(folder)], check=True)
    yield folder
    subprocess.run(["umount", "-l", str(folder)], check=False)


def fill(folder, leave):
    """Fill the disk but `leave` bytes (the filler file is `folder/filler`)."""
    st = os.statvfs(folder)
    with open(folder / "filler", "ab") as f:
        f.write(b"\0" * max(0, st.f_bavail * st.f_frsize - leave))


@pytest.mark.parametrize("kind", [SurveyCache, ScoreCache])
def test_a_new_cache_on_a_full_disk_says_so_and_leaves_no_file(small_disk, kind):
    path = small_disk / "cache.sqlite"
    said = set()
    for leave in [*range(0, 64 * 1024, 4096), *range(64 * 1024, 512 * 1024, 40 * 1024)]:
        fill(small_disk, leave)
        try:
            cache = kind(str(path))
        except CacheError as err:
            text = str(err)
            assert "is full" in text and "move it away" not in text, text
            assert not [s for s in ("", "-wal", "-shm", "-journal") if os.path.exists(f"{path}{s}")]
            said.add("full")
        else:
            try:
                cache.put("k", {"a": 1})  # a cache that opened works, or its write fails
                assert cache.get("k") == {"a": 1}
            except sqlite3.OperationalError as err:  # (the run says so: processing/rating.py)
                assert "full" in str(err) or "I/O" in str(err)
            cache.close()
            said.add("opened")
            for s in ("", "-wal", "-shm"):
                if os.path.exists(f"{path}{s}"):
                    os.remove(f"{path}{s}")
        os.remove(small_disk / "filler")
    assert said == {"full", "opened"}  # the sweep crossed the edge


def test_an_empty_file_left_by_an_older_version_is_not_kept(small_disk):
    path = small_disk / "cache.sqlite"
    path.write_bytes(b"")
    fill(small_disk, 0)
    with pytest.raises(CacheError, match="is full"):
        SurveyCache(str(path))
    assert not path.exists()


def test_an_existing_cache_on_a_full_disk_is_kept_intact(small_disk):
    path = small_disk / "cache.sqlite"
    cache = SurveyCache(str(path))
    cache.put("k", {"a": 1})
    cache.close()
    fill(small_disk, 0)
    try:
        again = SurveyCache(str(path))  # opening needs no space when the WAL is checkpointed
    except CacheError as err:
        assert "is full" in str(err)
    else:
        with pytest.raises(sqlite3.OperationalError, match="full"):
            again.put_many([(f"k{i}", {"x": "y" * 4000}) for i in range(400)])
        again.close()
    assert path.exists()
    os.remove(small_disk / "filler")  # space again: the cache holds what it held
    with closing(sqlite3.connect(path)) as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert con.execute("SELECT COUNT(*) FROM responses").fetchone()[0] == 1
