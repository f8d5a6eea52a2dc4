"""Disk full while writing the cache or the outputs (issue 23 item 6), on a small tmpfs: one
clear sentence, the cache intact (PRAGMA integrity_check), nothing added to the project and
no half-written output left."""

import os
import sqlite3
import subprocess
import uuid

import pytest
from qgis.core import QgsProcessingException, QgsProject

from geobias.test.faultserver import FaultServer


def run(alg, params):
    import processing

    return processing.run(alg, params)


@pytest.fixture()
def small_disk(tmp_path):
    """An 8 MB tmpfs (mounting needs root, as in CI's container)."""
    folder = tmp_path / "small"
    folder.mkdir()
    if os.geteuid() != 0:
        pytest.fail("mounting a small tmpfs needs root")
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(folder)], check=True)
    yield folder
    subprocess.run(["umount", "-l", str(folder)], check=False)


def fill(folder, leave):
    """Fill the disk but `leave` bytes."""
    st = os.statvfs(folder)
    free = st.f_bavail * st.f_frsize
    with open(folder / "filler", "wb") as f:
        f.write(b"\0" * max(0, free - leave))


@pytest.fixture()
def points(processing_ready):
    return run("geobias:samplepoints", {"COUNT": 300, "METHOD": 1, "OUTPUT": "memory:"})["OUTPUT"]


def params(points, fs, **kw):
    base = {"INPUT": points, "PROVIDER": 9, "BASE_URL": fs.base_url,
            "MODEL": f"fake-{uuid.uuid4().hex[:8]}", "CONCURRENCY": 4,
            "TOPICS": "Infant Mortality Rate"}  # fmt: skip
    return {**base, **kw}


def intact(path):
    with sqlite3.connect(path) as con:
        return con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_a_full_disk_under_the_cache_stops_the_run_clearly(points, small_disk, tmp_path):
    cache = small_disk / "cache.sqlite"
    out = tmp_path / "rated.gpkg"
    layers = len(QgsProject.instance().mapLayers())
    with FaultServer() as fs:
        p = params(points, fs, CACHE=str(cache), OUTPUT=str(out))
        run(
            "geobias:ratelocations",
            dict(
                p,
                INPUT=run("geobias:samplepoints", {"COUNT": 2, "METHOD": 1, "OUTPUT": "memory:"})[
                    "OUTPUT"
                ],
                OUTPUT=str(tmp_path / "first.gpkg"),
            ),
        )  # fmt: skip  (creates the cache)
        fill(small_disk, 24 * 1024)
        with pytest.raises(QgsProcessingException, match="cache .* could not be written.*disk"):
            run("geobias:ratelocations", p)
    assert intact(cache)
    assert not out.exists() and len(QgsProject.instance().mapLayers()) == layers
    os.remove(small_disk / "filler")  # space again: the run finishes from the cache
    with FaultServer() as fs2:
        p2 = dict(p, BASE_URL=fs2.base_url)
        assert run("geobias:ratelocations", p2)["N_ANSWERED"] > 0
    assert intact(cache)


def test_a_full_disk_under_the_output_writes_nothing(points, small_disk, tmp_path):
    out = small_disk / "rated.gpkg"
    layers = len(QgsProject.instance().mapLayers())
    with FaultServer() as fs:
        p = params(points, fs, CACHE=str(tmp_path / "cache.sqlite"), OUTPUT=str(out))
        fill(small_disk, 64 * 1024)
        with pytest.raises(QgsProcessingException, match="Could not write .*disk full"):
            run("geobias:ratelocations", p)
    assert not out.exists() and len(QgsProject.instance().mapLayers()) == layers
    assert intact(tmp_path / "cache.sqlite")
