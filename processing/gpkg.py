"""GeoPackage writing through OGR: rated point layers and plain tables, fast and styled later."""

import math
import os
import re
import sqlite3
from contextlib import closing, contextmanager

import numpy as np
from osgeo import gdal, ogr, osr
from qgis.core import (
    QgsProcessingException,
)

from ..i18n_util import tr

# Rated points schema: name -> OGR type; the order is the layer's field order.
RATED_FIELDS = {
    "pid": ogr.OFTInteger64,
    "lat": ogr.OFTReal,
    "lon": ogr.OFTReal,
    "model": ogr.OFTString,
    "topic": ogr.OFTString,
    "rating": ogr.OFTReal,
    "expected": ogr.OFTReal,
    "score_kind": ogr.OFTString,
    "score": ogr.OFTReal,
    "answered": ogr.OFTInteger,
    # 1: answered, but without a score of this kind (expected value asked, no logprobs).
    "no_score": ogr.OFTInteger,
    # 1: the request failed after retries: not asked (outside the answer rate).
    "failed": ogr.OFTInteger,
    "completion": ogr.OFTString,
    "prompt": ogr.OFTString,
    "rank": ogr.OFTReal,
    "truth": ogr.OFTReal,
    "truth_rank": ogr.OFTReal,
    "rank_error": ogr.OFTReal,
    # The feature id of the polygon the truth came from (the cluster bootstrap's unit).
    "truth_unit": ogr.OFTInteger64,
}


def rated_fields(with_language=False, sampled=False):
    """The rated points schema; with `with_language`, a `language` field (the prompt language's
    code) after the topic. English-only runs write none, as before languages came. With
    `sampled`, the sampled score's standard error (`score_se`) and rated draws (`n_draws`)
    after the score."""
    if not (with_language or sampled):
        return RATED_FIELDS
    out = {}
    for name, kind in RATED_FIELDS.items():
        out[name] = kind
        if name == "topic" and with_language:
            out["language"] = ogr.OFTString
        if name == "score" and sampled:
            out["score_se"] = ogr.OFTReal
            out["n_draws"] = ogr.OFTInteger
    return out


def write_points_layer(path, name, columns, fields=None, overwrite=True):
    """Write one point layer (EPSG:4326) from numpy columns into a GeoPackage.

    `columns` must hold `lon` and `lat`; other columns are written when listed in `fields`
    (name -> OGR type), missing ones stay NULL. OGR creates the table and its metadata,
    sqlite3 inserts all rows in one executemany, then OGR adds the spatial index and extent.
    Returns the layer URI for QGIS.
    """
    fields = fields or RATED_FIELDS
    ds = open_gpkg(path)
    if ds.GetLayerByName(name) is not None:
        if not overwrite:
            raise QgsProcessingException(tr("Layer {name} exists.").format(name=name))
        ds.DeleteLayer(name)
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(4326)
    layer = ds.CreateLayer(name, srs, ogr.wkbPoint, options=["SPATIAL_INDEX=NO", "FID=fid"])
    if layer is None:
        raise QgsProcessingException(ogr_failure(name))
    for fname, ftype in fields.items():
        ogr_ok(layer.CreateField(ogr.FieldDefn(fname, ftype)), name)
    geom_column = layer.GetGeometryColumn()
    layer = None
    ds = close(ds, name)  # creates the table

    names = [f for f in fields if f in columns]
    values = [_sql_values(columns[f]) for f in names]
    with closing(sqlite3.connect(path)) as db:
        (srs_id,) = db.execute(
            "SELECT srs_id FROM gpkg_geometry_columns WHERE table_name = ?", (name,)
        ).fetchone()
        geoms = gpkg_points(columns["lon"], columns["lat"], srs_id)
        targets = ", ".join(f'"{c}"' for c in [geom_column, *names])
        marks = ", ".join("?" * (len(names) + 1))
        rows = zip(geoms, *values)
        with db:  # one transaction
            db.executemany(f'INSERT INTO "{name}" ({targets}) VALUES ({marks})', rows)

    ds = ogr.Open(path, 1)
    if ds is None:
        raise QgsProcessingException(tr("Cannot open {path} for writing.").format(path=path))
    for sql in (f"SELECT CreateSpatialIndex('{name}', '{geom_column}')",
                f"RECOMPUTE EXTENT ON {name}"):  # fmt: skip
        gdal.ErrorReset()
        ds.ReleaseResultSet(ds.ExecuteSQL(sql))
        if gdal.GetLastErrorType() >= gdal.CE_Failure:
            raise QgsProcessingException(ogr_failure(name))
    ds = close(ds, name)
    return f"{path}|layername={name}"


POINT_BLOB = np.dtype(
    [("magic", "S2"), ("version", "u1"), ("flags", "u1"), ("srs_id", "<i4"),
     ("order", "u1"), ("kind", "<u4"), ("x", "<f8"), ("y", "<f8")]
)  # fmt: skip


def gpkg_points(lon, lat, srs_id=4326):
    """GeoPackage geometry blobs of points: the 8-byte header (no envelope) + little-endian WKB.

    Points with a NaN coordinate get no geometry (None).
    """
    lon, lat = np.asarray(lon, float), np.asarray(lat, float)
    # "GP", version 0, flags 0b00000001 (little-endian header, no envelope, not empty), srs_id,
    # then the WKB point: byte order 1 (little-endian), type 1 (Point), x, y. Written with numpy
    # rather than GEOS: 29 bytes a point, the same whatever shapely or GEOS is installed.
    rows = np.zeros(len(lon), dtype=POINT_BLOB)
    rows["magic"], rows["srs_id"], rows["order"], rows["kind"] = b"GP", srs_id, 1, 1
    rows["flags"] = 0b00000001
    rows["x"], rows["y"] = lon, lat
    ok = np.isfinite(lon) & np.isfinite(lat)
    return [blob.tobytes() if keep else None for blob, keep in zip(rows, ok)]


def _sql_values(column):
    """A column as Python values for sqlite3: NaN -> None, numpy scalars -> int/float."""
    if not isinstance(column, np.ndarray):
        return list(column)  # strings or None (not np.asarray: prompts would pad to one width)
    if column.dtype.kind == "f":
        return np.where(np.isnan(column), None, column).tolist()
    if column.dtype.kind in "iub":
        return column.astype(np.int64).tolist()
    return column.tolist()


def write_table(path, name, rows, fields):
    """Write (replace) a geometry-less table from dict rows; fields: name -> OGR type."""
    ds = open_gpkg(path)
    if ds.GetLayerByName(name) is not None:
        ds.DeleteLayer(name)
    layer = ds.CreateLayer(name, None, ogr.wkbNone)
    if layer is None:
        raise QgsProcessingException(ogr_failure(name))
    for fname, ftype in fields.items():
        ogr_ok(layer.CreateField(ogr.FieldDefn(fname, ftype)), name)
    defn = layer.GetLayerDefn()
    ogr_ok(ds.StartTransaction(), name)
    for row in rows:
        feat = ogr.Feature(defn)
        for fname in fields:
            v = row.get(fname)
            if v is None or (isinstance(v, float) and math.isnan(v)):
                continue
            feat.SetField(fname, v.item() if hasattr(v, "item") else v)
        ogr_ok(layer.CreateFeature(feat), name)
    ogr_ok(ds.CommitTransaction(), name)
    layer = None
    ds = close(ds, name)
    return f"{path}|layername={name}"


def ogr_failure(what):
    """`what` failed, in words, with OGR's last message."""
    reason = gdal.GetLastErrorMsg() or tr("the file could not be written")
    return tr("Writing {what} failed: {reason}").format(what=what, reason=reason)


def ogr_ok(err, what):
    """Raise when an OGR call returned an error code (OGR does not raise by itself: a full
    disk only shows here, and a file without its rows must not be reported as written)."""
    if err != 0:
        raise QgsProcessingException(ogr_failure(what))


def close(ds, what):
    """Close an OGR data source, raising if closing failed (its last commit or flush); None."""
    gdal.ErrorReset()
    ds.FlushCache()
    ds = None
    if gdal.GetLastErrorType() >= gdal.CE_Failure:
        raise QgsProcessingException(ogr_failure(what))
    return ds


def check_written(path, tables):
    """Read back what a run wrote: every table in `tables` ({name: rows}) present with all its
    rows, and the file sound (SQLite's quick_check), through OGR as QGIS reads it. A write that
    failed without saying so (a full disk under a flush) is caught here, not reported as done."""
    ds = ogr.Open(path)
    if ds is None:
        raise QgsProcessingException(tr("Cannot open {path} for reading.").format(path=path))
    try:
        for name, n in tables.items():
            layer = ds.GetLayerByName(name)
            found = -1 if layer is None else layer.GetFeatureCount()
            if found != n:
                raise QgsProcessingException(
                    tr("{path} lacks rows of {name}: {found} of {n} written.").format(
                        path=path, name=name, found=max(found, 0), n=n
                    )
                )
        check = ds.ExecuteSQL("PRAGMA quick_check")
        row = check.GetNextFeature() if check is not None else None
        verdict = row.GetField(0) if row is not None else None
        ds.ReleaseResultSet(check)
        if verdict != "ok":
            raise QgsProcessingException(
                tr("{path} is damaged ({verdict}).").format(path=path, verdict=verdict)
            )
    finally:
        ds = None


@contextmanager
def writing(path):
    """Outputs written to `path` fail with one clear sentence (a full disk, a lost drive), and
    a file this run created is removed rather than left half written: nothing is loaded.

    Yields a dict the block fills with {table: rows} it wrote; they are read back at the end
    (check_written), so a table OGR lost silently fails the run too."""
    existed = os.path.exists(path)
    tables = {}
    try:
        yield tables
        check_written(path, tables)
    except (QgsProcessingException, OSError, sqlite3.Error, RuntimeError, AttributeError) as err:
        # QgsProcessingException: a helper that already said it could not open the file (the
        # runs table is written first, so a full disk often shows there).
        # AttributeError: OGR returns None (no layer, no data source) when it cannot write.
        if not existed:
            for suffix in ("", "-wal", "-shm", "-journal"):
                try:
                    os.remove(path + suffix)
                except OSError:
                    pass
        raise QgsProcessingException(
            tr(
                "Could not write {path} ({err}): is the disk full? Nothing was added to the "
                "project; the answers are cached, so free some space and run again."
            ).format(path=path, err=ogr_error(err))
        ) from err


def ogr_error(err):
    """The error in words: OGR's last message when it only returned None."""
    if isinstance(err, QgsProcessingException):
        return str(err).rstrip(".")
    if isinstance(err, AttributeError):
        return gdal.GetLastErrorMsg() or tr("the file could not be written")
    return str(err)


def open_gpkg(path):
    if os.path.exists(path):
        ds = ogr.Open(path, 1)
        if ds is None:
            raise QgsProcessingException(tr("Cannot open {path} for writing.").format(path=path))
        return ds
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    return ogr.GetDriverByName("GPKG").CreateDataSource(path)


def safe_name(text, limit=None, fallback="x"):
    """A lower-case [a-z0-9_] name for a table, a column or a folder (runs of anything else
    become one "_"), at most `limit` characters; `fallback` when nothing is left."""
    clean = re.sub(r"[^a-z0-9]+", "_", str(text).lower()).strip("_")
    return (clean[:limit] if limit else clean) or fallback


def table_name(model, topic, language=""):
    """A GeoPackage table name for one model x topic (x prompt language, its code last)."""
    name = safe_name(f"{model}_{topic}", limit=60, fallback="ratings")
    return f"{name}_{safe_name(language)}" if language else name
