"""Disk full while writing the cache or the outputs (issue 23 item 6), on a small tmpfs: one
clear sentence, the cache intact (PRAGMA integrity_check), nothing added to the project and
no half-written output left."""

import os
import sqlite3
import subprocess
import uuid
from contextlib import closing

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
        # Stopped when the cache is opened (no room for its WAL index) or at its first write.
        said = "disk under the cache .* is full|cache .* could not be written.*disk"
        with pytest.raises(QgsProcessingException, match=said):
            run("geobias:ratelocations", p)
    assert not out.exists() and len(QgsProject.instance().mapLayers()) == layers
    os.remove(small_disk / "filler")  # space again (opening a WAL database needs some)
    assert intact(cache)  # the failed run left it whole: the run now finishes from it
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


# --- Issue 35 item 5: a survey whose GeoPackage cannot be finished is never a success. ---


def survey_params(fs, cache, out, model):
    return {"COUNT": 60, "SEED": 3, "PROVIDER": 9, "BASE_URL": fs.base_url, "MODEL": model,
            "CONCURRENCY": 4, "TOPICS": "Infant Mortality Rate", "N_BOOT": 0,
            "CACHE": str(cache), "OUTPUT": str(out)}  # fmt: skip


def leftovers(out):
    paths = (str(out) + s for s in ("", "-wal", "-shm", "-journal"))
    return [p for p in paths if os.path.exists(p)]


def contents(out):
    """Row counts of the survey file's tables (its GeoPackage contents, styles and metadata)
    and SQLite's integrity verdict."""
    with closing(sqlite3.connect(out)) as con:
        tables = [r[0] for r in con.execute("SELECT table_name FROM gpkg_contents")]
        tables += [
            r[0]
            for r in con.execute(
                "SELECT name FROM sqlite_master WHERE name IN ('layer_styles', 'gpkg_metadata')"
            )
        ]
        n = {t: con.execute(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0] for t in tables}
        n["integrity"] = con.execute("PRAGMA integrity_check").fetchone()[0]
    return n


def complete(n, points):
    """The survey file holds its rated layer (every point), the metrics and runs rows, the
    layer's styles and metadata, and is sound."""
    rated = [v for k, v in n.items() if k.startswith("fake_")]
    kept = n.get("layer_styles", 0) > 0 and n.get("gpkg_metadata", 0) > 0
    return (
        n["integrity"] == "ok"
        and n.get("metrics") == 1
        and n.get("runs") == 1
        and (rated == [points] and kept)
    )


def test_a_disk_that_fills_while_the_survey_is_written_fails_at_every_size(
    processing_ready, small_disk, tmp_path
):
    """A sweep of free space on a fixed 8 MB tmpfs (not one lucky size): each run either writes
    the whole GeoPackage or fails with the sentence and leaves no file, -wal or -shm; the cache
    (elsewhere) stays sound. On the old main some sizes gave success without the metrics table."""
    cache, model = tmp_path / "cache.sqlite", f"fake-{uuid.uuid4().hex[:8]}"
    layers = len(QgsProject.instance().mapLayers())
    outcomes = []
    with FaultServer() as fs:
        full = run("geobias:survey", survey_params(fs, cache, tmp_path / "full.gpkg", model))
        size = os.path.getsize(full["OUTPUT"])
        QgsProject.instance().removeAllMapLayers()
        layers = len(QgsProject.instance().mapLayers())
        # From nothing left to more than the file needs, in uneven steps.
        for leave in sorted({0, 4096, *range(16 * 1024, size + 256 * 1024, 23 * 1024)}):
            out = small_disk / f"s{leave}.gpkg"
            fill(small_disk, leave)
            try:
                run("geobias:survey", survey_params(fs, cache, out, model))
            except QgsProcessingException as err:
                assert "Could not write" in str(err) and "disk full" in str(err), str(err)
                assert leftovers(out) == [], leave
                outcomes.append("failed")
            else:
                n = contents(out)
                assert complete(n, 60), f"reported success with an incomplete file ({leave} B): {n}"
                outcomes.append("written")
                for p in leftovers(out):
                    os.remove(p)
            os.remove(small_disk / "filler")
            QgsProject.instance().removeAllMapLayers()
    assert intact(cache)
    assert "failed" in outcomes and "written" in outcomes  # the sweep crossed the edge
    assert len(QgsProject.instance().mapLayers()) == layers


def silent(code):
    """An OGR call that only returns an error code, as OGR does on a full disk."""

    def call(*args, **kwargs):
        return code

    return call


def flush_fails(self):
    from osgeo import gdal

    gdal.Error(gdal.CE_Failure, 1, "sqlite3_exec(COMMIT) failed: database or disk is full")


def raising(*args, **kwargs):
    raise OSError(28, "No space left on device")


# Each write step of a survey's GeoPackage, failed in turn: (what, where, name, replacement).
# Where a step's function is defined, not the algorithm: algorithms import it when they run.
STEPS = [
    ("runs row", "geobias.processing.runs", "append_runs", raising),
    ("rated layer", "geobias.processing.rating", "write_points_layer", raising),
    ("layer styles", "geobias.processing.rating", "style_file", raising),
    ("GeoNames credit", "geobias.processing.rating", "credit_geonames", raising),
    ("metrics table", "geobias.processing.gpkg", "write_table", raising),
    ("a row OGR drops", "osgeo.ogr.Layer", "CreateFeature", silent(ogr_full := 3)),
    ("a field OGR drops", "osgeo.ogr.Layer", "CreateField", silent(ogr_full)),
    ("a commit OGR drops", "osgeo.ogr.DataSource", "CommitTransaction", silent(ogr_full)),
    ("a flush that fails", "osgeo.ogr.DataSource", "FlushCache", flush_fails),
]


@pytest.mark.parametrize("step", STEPS, ids=[s[0] for s in STEPS])
def test_each_failed_write_step_fails_the_survey_and_removes_its_file(
    processing_ready, tmp_path, monkeypatch, step
):
    import importlib

    what, where, name, fake = step
    cache, out = tmp_path / "cache.sqlite", tmp_path / "survey.gpkg"
    model = f"fake-{uuid.uuid4().hex[:8]}"
    layers = len(QgsProject.instance().mapLayers())
    with FaultServer() as fs:
        run("geobias:survey", survey_params(fs, cache, tmp_path / "first.gpkg", model))
        layers = len(QgsProject.instance().mapLayers())
        module, _, cls = where.rpartition(".") if where.startswith("osgeo") else (where, "", "")
        target = (
            getattr(importlib.import_module(module), cls)
            if cls
            else importlib.import_module(module)
        )
        monkeypatch.setattr(target, name, fake)
        with pytest.raises(QgsProcessingException, match="Could not write"):
            run("geobias:survey", survey_params(fs, cache, out, model))
        monkeypatch.undo()
    assert leftovers(out) == [], what
    assert intact(cache)
    assert len(QgsProject.instance().mapLayers()) == layers
