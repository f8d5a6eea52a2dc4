"""QGIS <-> numpy adapters: regions to shapely, points to arrays, raster windows, GeoPackage I/O."""

import math
import os
import sqlite3
import warnings
from contextlib import closing, contextmanager

import numpy as np
from osgeo import gdal, ogr, osr
from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsCoordinateTransform,
    QgsFeatureRequest,
    QgsGeometry,
    QgsProcessingException,
    QgsProcessingFeatureSource,
    QgsProject,
)

from ..core import geometry
from ..i18n_util import tr

WGS84 = QgsCoordinateReferenceSystem("EPSG:4326")
# GDAL's block cache while reading ground-truth windows (see _gdal_cache_at_most).
RASTER_CACHE_BYTES = 64 * 2**20
KM_PER_DEGREE = 111.32

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


def to_wgs84(crs, context=None):
    """A transform from `crs` to EPSG:4326 using the project's datum transformations."""
    ctx = context.transformContext() if context is not None else QgsProject.instance()
    if not hasattr(ctx, "calculateDatumTransforms"):
        ctx = ctx.transformContext()
    return QgsCoordinateTransform(crs, WGS84, ctx)


def _osr(crs):
    """An osr SpatialReference (x/y = lon/lat order) for a QgsCoordinateReferenceSystem."""
    srs = osr.SpatialReference()
    if srs.ImportFromWkt(crs.toWkt(QgsCoordinateReferenceSystem.WktVariant.WKT_PREFERRED)) != 0:
        srs.ImportFromProj4(crs.toProj())
    srs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    return srs


def _transform_arrays(ct, x, y):
    """Vectorised osr transform; points it cannot transform come back NaN."""
    pts = np.column_stack([x, y, np.zeros(len(x))])
    try:
        out = np.asarray(ct.TransformPoints(pts), float)
    except RuntimeError:  # some PROJ builds raise for the whole batch: do it point by point
        out = np.full((len(x), 3), np.nan)
        for i, (px, py, _) in enumerate(pts):
            try:
                out[i] = ct.TransformPoint(float(px), float(py))
            except RuntimeError:
                pass
    out[~np.isfinite(out).all(axis=1) | (np.abs(out) > 1e15).any(axis=1)] = np.nan
    return out[:, 0], out[:, 1]


def lonlat_region(region, crs):
    """A shapely (Multi)Polygon in `crs` as a lon/lat region: densified, split at ±180 and with
    polar caps closed (core.regions), so areas across the antimeridian or around a pole keep
    their shape."""
    from ..core.regions import region_to_lonlat

    srs = _osr(crs)
    wgs = osr.SpatialReference()
    wgs.ImportFromEPSG(4326)
    wgs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    to_ll = osr.CoordinateTransformation(srs, wgs)
    from_ll = osr.CoordinateTransformation(wgs, srs)

    def contains_pole(lat):
        x, y = _transform_arrays(from_ll, np.array([0.0]), np.array([float(lat)]))
        return bool(np.isfinite(x[0]) and geometry.contains_xy(region, x[:1], y[:1])[0])

    try:
        return region_to_lonlat(region, lambda x, y: _transform_arrays(to_ll, x, y), contains_pole)
    except ValueError as err:
        raise QgsProcessingException(tr("The region has no polygon with an area.")) from err


def lonlat_geometry(geom, crs):
    """A polygon QgsGeometry in `crs` as a lon/lat QgsGeometry through lonlat_region, so an area
    drawn or viewed on a polar or Pacific-centred map keeps its shape (the dock's areas)."""
    crs = crs if crs.isValid() else QgsCoordinateReferenceSystem("EPSG:4326")
    region = lonlat_region(geometry.from_wkb(bytes(geom.asWkb())), crs)
    out = QgsGeometry()
    out.fromWkb(region.wkb)
    return out


def region_geometry(source, context, feedback, selected_only=False):
    """Union of a polygon source's features as a shapely geometry in lon/lat, repaired if needed.

    Features are read and repaired in their own CRS, then taken to lon/lat by lonlat_region.
    """
    request = QgsFeatureRequest()
    request.setFlags(QgsFeatureRequest.Flag.NoFlags)
    parts, repaired = [], 0
    for feature in _features(source, request):
        geom = feature.geometry()
        if geom is None or geom.isNull() or geom.isEmpty():
            continue
        if not geom.isGeosValid():
            geom = geom.makeValid()
            repaired += 1
        parts.append(geometry.from_wkb(bytes(geom.asWkb())))
    polygons = [p for g in parts for p in _polygons(g)]
    if repaired:
        feedback.pushWarning(
            tr("{n} invalid region geometries were repaired with makeValid.").format(n=repaired)
        )
    region = geometry.union_all(polygons) if polygons else None
    if region is None or region.is_empty or region.area == 0:
        raise QgsProcessingException(tr("The region has no polygon with an area."))
    return lonlat_region(region, source.sourceCrs())


def _features(source, request):
    """Features without Processing's invalid-geometry check: GeoBias repairs them itself."""
    if isinstance(source, QgsProcessingFeatureSource):
        return source.getFeatures(
            request, QgsProcessingFeatureSource.Flag.FlagSkipGeometryValidityChecks
        )
    return source.getFeatures(request)


def extent_region(rectangle, crs, context):
    """A QgsRectangle in `crs` as a lon/lat shapely region (see lonlat_region)."""
    rect = geometry.box(
        rectangle.xMinimum(), rectangle.yMinimum(), rectangle.xMaximum(), rectangle.yMaximum()
    )
    if rect.is_empty or rect.area == 0:
        raise QgsProcessingException(tr("The extent is empty."))
    return lonlat_region(rect, crs)


def _polygons(geom):
    if geom.geom_type == "Polygon":
        return [] if geom.is_empty else [geom]
    return [p for part in getattr(geom, "geoms", []) for p in _polygons(part)]


def point_arrays(source, context, fields=()):
    """lon, lat (EPSG:4326) and attribute columns of a point source, in feature order."""
    transform = to_wgs84(source.sourceCrs(), context)
    request = QgsFeatureRequest().setDestinationCrs(WGS84, transform.context())
    lon, lat, cols = [], [], {f: [] for f in fields}
    for feature in source.getFeatures(request):
        geom = feature.geometry()
        if geom is None or geom.isNull():
            lon.append(math.nan)
            lat.append(math.nan)
        else:
            p = geom.centroid().asPoint()
            lon.append(p.x())
            lat.append(p.y())
        for f in fields:
            cols[f].append(feature[f])
    return np.asarray(lon, float), np.asarray(lat, float), cols


def numeric_field(source, name, role):
    """Check that `name` is a numeric field of `source`, else a clear Processing error."""
    index = source.fields().lookupField(name)
    if index < 0:
        raise QgsProcessingException(
            tr("{role}: the layer has no field '{name}'.").format(role=role, name=name)
        )
    if not source.fields().at(index).isNumeric():
        raise QgsProcessingException(
            tr("{role}: field '{name}' is not numeric.").format(role=role, name=name)
        )
    return index


def as_float(values):
    """Attribute values (None/NULL QVariant allowed) as a float array with NaN for missing."""
    out = np.full(len(values), np.nan)
    for i, v in enumerate(values):
        try:
            out[i] = float(v)
        except (TypeError, ValueError):
            pass
    return out


# ---------------------------------------------------------------- ground truth from layers


def _read_block(band, x0, y0, w, h):
    """One window of a band as float64 (the only place rasters are read: tests count reads)."""
    return band.ReadAsArray(int(x0), int(y0), int(w), int(h)).astype(np.float64)


@contextmanager
def _gdal_cache_at_most(nbytes):
    """Cap GDAL's block cache for a while: scattered window reads use each block once, and a
    world survey would otherwise fill the default cache (5% of RAM) with blocks never read
    again."""
    old = gdal.GetCacheMax()
    if old > nbytes:
        gdal.SetCacheMax(nbytes)
    try:
        yield
    finally:
        if old > nbytes:
            gdal.SetCacheMax(old)


def raster_window_stat(path, band, lon, lat, size_km, stat="mean", tile=1024):
    """Statistic of a raster over a size_km x size_km square around each point; nodata excluded.

    Returns (values, outside) where outside marks points off the raster (value NaN).
    The raster is read in windows: the points are grouped by the tile x tile block of cells
    holding their window's corner, and each group reads only the block its windows cover (a
    window wider or taller than a tile is read on its own). A world survey on a 1-km world
    raster so reads a few MB at a time instead of the points' whole bounding box; mean and sum
    come from a summed-area table of each block, so every window costs O(1).
    """
    ds = gdal.Open(path)
    if ds is None:
        raise QgsProcessingException(tr("Cannot open raster {path}.").format(path=path))
    wkt = ds.GetProjection()
    if not wkt:
        raise QgsProcessingException(
            tr("The raster {path} has no coordinate reference system; assign one first.").format(
                path=os.path.basename(path)
            )
        )
    srs = osr.SpatialReference()
    srs.ImportFromWkt(wkt)
    srs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    x, y = np.asarray(lon, float), np.asarray(lat, float)
    if not srs.IsGeographic():
        x, y = _project(x, y, srs)
    gt = ds.GetGeoTransform()
    if gt[2] or gt[4]:
        raise QgsProcessingException(tr("Rotated rasters are not supported."))
    col = (x - gt[0]) / gt[1]
    row = (y - gt[3]) / gt[5]
    ok = np.isfinite(col) & np.isfinite(row)
    inside = ok & (col >= 0) & (col < ds.RasterXSize) & (row >= 0) & (row < ds.RasterYSize)
    values = np.full(len(x), np.nan)
    if not inside.any():
        return values, ~inside
    # Half-window in pixels, per point (degrees shrink with latitude on geographic rasters).
    if srs.IsGeographic():
        half_x = (
            size_km / 2 / (abs(gt[1]) * KM_PER_DEGREE * np.maximum(np.cos(np.radians(lat)), 1e-6))
        )
        half_y = size_km / 2 / (abs(gt[5]) * KM_PER_DEGREE) * np.ones(len(x))
    else:
        unit_km = srs.GetLinearUnits() / 1000.0
        half_x = size_km / 2 / (abs(gt[1]) * unit_km) * np.ones(len(x))
        half_y = size_km / 2 / (abs(gt[5]) * unit_km) * np.ones(len(x))
    w, h = ds.RasterXSize, ds.RasterYSize
    idx = np.flatnonzero(inside)
    col, row, half_x, half_y = col[idx], row[idx], half_x[idx], half_y[idx]
    c0 = np.floor(np.clip(col - half_x + 0.5, -1, w + 1)).astype(np.int64)
    c1 = np.floor(np.clip(col + half_x + 0.5, -1, w + 1)).astype(np.int64)
    r0 = np.floor(np.clip(row - half_y + 0.5, -1, h + 1)).astype(np.int64)
    r1 = np.floor(np.clip(row + half_y + 0.5, -1, h + 1)).astype(np.int64)
    # At least the pixel holding the point.
    c0 = np.where(c1 <= c0, np.floor(col), c0).astype(np.int64)
    c1 = np.maximum(c1, c0 + 1)
    r0 = np.where(r1 <= r0, np.floor(row), r0).astype(np.int64)
    r1 = np.maximum(r1, r0 + 1)
    c0, c1 = np.clip(c0, 0, w), np.clip(c1, 0, w)
    r0, r1 = np.clip(r0, 0, h), np.clip(r1, 0, h)
    rb = ds.GetRasterBand(band)
    nodata = rb.GetNoDataValue()
    # Group by tile; a window larger than a tile is a group of its own.
    big = ((c1 - c0) > tile) | ((r1 - r0) > tile)
    key = np.where(big, -1 - np.arange(len(idx)), (r0 // tile) * (w // tile + 1) + c0 // tile)
    order = np.argsort(key, kind="stable")
    starts = np.flatnonzero(np.r_[True, key[order][1:] != key[order][:-1]])
    with _gdal_cache_at_most(RASTER_CACHE_BYTES):
        _stat_by_group(rb, nodata, idx, order, starts, c0, c1, r0, r1, stat, values)
    return values, ~inside


def _stat_by_group(rb, nodata, idx, order, starts, c0, c1, r0, r1, stat, values):
    """Fill values[idx] group by group, each group reading the one block its windows cover."""
    for g, start in enumerate(starts):
        members = order[start : starts[g + 1] if g + 1 < len(starts) else len(order)]
        bx0, bx1 = int(c0[members].min()), int(c1[members].max())
        by0, by1 = int(r0[members].min()), int(r1[members].max())
        block = _read_block(rb, bx0, by0, bx1 - bx0, by1 - by0)
        values[idx[members]] = _block_stat(
            block, nodata, c0[members] - bx0, c1[members] - bx0,
            r0[members] - by0, r1[members] - by0, stat,
        )  # fmt: skip


def _block_stat(block, nodata, a0, a1, b0, b1, stat):
    """The statistic of block[b0:b1, a0:a1] per window, nodata and non-finite cells excluded."""
    valid = np.isfinite(block)
    if nodata is not None:
        valid &= block != nodata
    if stat in ("mean", "sum"):
        total = _window_sums(np.where(valid, block, 0.0), a0, a1, b0, b1)
        if valid.all():
            count = ((a1 - a0) * (b1 - b0)).astype(np.float64)
        else:
            count = _window_sums(valid.astype(np.float64), a0, a1, b0, b1)
        with np.errstate(invalid="ignore", divide="ignore"):
            res = total / count if stat == "mean" else total
        return np.where(count > 0, res, np.nan)
    reduce = np.nanmedian if stat == "median" else np.nanmax
    return _window_reduce(np.where(valid, block, np.nan), a0, a1, b0, b1, reduce)


def _window_sums(data, a0, a1, b0, b1):
    """Sums of data[b0:b1, a0:a1] for many windows from one summed-area table."""
    sat = np.zeros((data.shape[0] + 1, data.shape[1] + 1))
    np.cumsum(np.cumsum(data, axis=0), axis=1, out=sat[1:, 1:])
    return sat[b1, a1] - sat[b0, a1] - sat[b1, a0] + sat[b0, a0]


def _window_reduce(data, a0, a1, b0, b1, reduce, max_cells=4_000_000):
    """reduce (np.nanmedian, np.nanmax) of data[b0:b1, a0:a1] per window; NaN where all NaN.

    Windows of one shape are gathered into a (k, height, width) array and reduced together,
    at most max_cells at a time; a geographic raster has few shapes (width grows with latitude).
    """
    out = np.full(len(a0), np.nan)
    shapes, group = np.unique(np.column_stack([b1 - b0, a1 - a0]), axis=0, return_inverse=True)
    for g, (height, width) in enumerate(shapes):
        members = np.flatnonzero(group == g)
        if height <= 0 or width <= 0:
            continue
        step = max(1, max_cells // (height * width))
        for start in range(0, len(members), step):
            k = members[start : start + step]
            rows = b0[k, None, None] + np.arange(height)[None, :, None]
            cols = a0[k, None, None] + np.arange(width)[None, None, :]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN windows give NaN
                out[k] = reduce(data[rows, cols], axis=(1, 2))
    return out


def _project(lon, lat, srs):
    wgs = osr.SpatialReference()
    wgs.ImportFromEPSG(4326)
    wgs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    ct = osr.CoordinateTransformation(wgs, srs)
    pts = np.column_stack([lon, lat, np.zeros(len(lon))])
    out = np.asarray(ct.TransformPoints(pts), float)
    return out[:, 0], out[:, 1]


def polygon_field_values(source, field, lon, lat, context, role=None, with_units=False):
    """The `field` value of the polygon containing each point (NaN where none).

    `role` names the parameter in error messages (default: the ground truth). With
    `with_units`, also the feature id of that polygon (-1 where none): the unit a cluster
    bootstrap resamples.
    """
    numeric_field(source, field, role or tr("Ground truth"))
    request = QgsFeatureRequest().setDestinationCrs(
        WGS84, to_wgs84(source.sourceCrs(), context).context()
    )
    request.setSubsetOfAttributes([field], source.fields())
    geoms, vals, fids = [], [], []
    for feature in _features(source, request):
        geom = feature.geometry()
        if geom is None or geom.isNull() or geom.isEmpty():
            continue
        if not geom.isGeosValid():
            geom = geom.makeValid()
        geoms.append(geometry.from_wkb(bytes(geom.asWkb())))
        vals.append(feature[field])
        fids.append(feature.id())
    values = as_float(vals)
    out = np.full(len(lon), np.nan)
    units = np.full(len(lon), -1, dtype=np.int64)
    if not geoms:
        return (out, units) if with_units else out
    poly_idx, point_idx = geometry.polygons_hit(geoms, lon, lat)
    # A point on a shared border takes the first polygon that holds it.
    order = np.lexsort((poly_idx, point_idx))
    point_idx, poly_idx = point_idx[order], poly_idx[order]
    first = np.unique(point_idx, return_index=True)[1]
    out[point_idx[first]] = values[poly_idx[first]]
    units[point_idx[first]] = np.asarray(fids, dtype=np.int64)[poly_idx[first]]
    return (out, units) if with_units else out


def point_field_values(source, field, lon, lat, max_km, context):
    """The `field` value of the nearest point within max_km (great-circle), NaN where none."""
    from scipy.spatial import cKDTree

    from ..core.sampling import km_to_chord, lonlat_to_xyz

    numeric_field(source, field, tr("Ground truth"))
    plon, plat, cols = point_arrays(source, context, [field])
    values = as_float(cols[field])
    keep = np.isfinite(plon) & np.isfinite(plat)
    out = np.full(len(lon), np.nan)
    if not keep.any():
        return out
    tree = cKDTree(lonlat_to_xyz(plon[keep], plat[keep]))
    dist, idx = tree.query(lonlat_to_xyz(lon, lat), distance_upper_bound=float(km_to_chord(max_km)))
    hit = np.isfinite(dist)
    out[hit] = values[keep][idx[hit]]
    return out


# ---------------------------------------------------------------- GeoPackage writing


def write_points_layer(path, name, columns, fields=None, overwrite=True):
    """Write one point layer (EPSG:4326) from numpy columns into a GeoPackage.

    `columns` must hold `lon` and `lat`; other columns are written when listed in `fields`
    (name -> OGR type), missing ones stay NULL. OGR creates the table and its metadata,
    sqlite3 inserts all rows in one executemany, then OGR adds the spatial index and extent.
    Returns the layer URI for QGIS.
    """
    fields = fields or RATED_FIELDS
    ds = _open_gpkg(path)
    if ds.GetLayerByName(name) is not None:
        if not overwrite:
            raise QgsProcessingException(tr("Layer {name} exists.").format(name=name))
        ds.DeleteLayer(name)
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(4326)
    layer = ds.CreateLayer(name, srs, ogr.wkbPoint, options=["SPATIAL_INDEX=NO", "FID=fid"])
    for fname, ftype in fields.items():
        layer.CreateField(ogr.FieldDefn(fname, ftype))
    geom_column = layer.GetGeometryColumn()
    ds = None  # creates the table

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
    ds.ExecuteSQL(f"SELECT CreateSpatialIndex('{name}', '{geom_column}')")
    ds.ExecuteSQL(f"RECOMPUTE EXTENT ON {name}")
    ds = None
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
    ds = _open_gpkg(path)
    if ds.GetLayerByName(name) is not None:
        ds.DeleteLayer(name)
    layer = ds.CreateLayer(name, None, ogr.wkbNone)
    for fname, ftype in fields.items():
        layer.CreateField(ogr.FieldDefn(fname, ftype))
    defn = layer.GetLayerDefn()
    ds.StartTransaction()
    for row in rows:
        feat = ogr.Feature(defn)
        for fname in fields:
            v = row.get(fname)
            if v is None or (isinstance(v, float) and math.isnan(v)):
                continue
            feat.SetField(fname, v.item() if hasattr(v, "item") else v)
        layer.CreateFeature(feat)
    ds.CommitTransaction()
    ds = None
    return f"{path}|layername={name}"


def _open_gpkg(path):
    if os.path.exists(path):
        ds = ogr.Open(path, 1)
        if ds is None:
            raise QgsProcessingException(tr("Cannot open {path} for writing.").format(path=path))
        return ds
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    return ogr.GetDriverByName("GPKG").CreateDataSource(path)


def layer_name(model, topic):
    """A GeoPackage table name for one model x topic: lower case, [a-z0-9_] only."""
    text = f"{model}_{topic}".lower()
    clean = "".join(c if c.isalnum() else "_" for c in text)
    while "__" in clean:
        clean = clean.replace("__", "_")
    return clean.strip("_")[:60] or "ratings"


# ---------------------------------------------------------------- Processing sinks

# OGR field types -> the Qt type names QgsField takes (QMetaType.Type and QVariant.Type share them).
_QT_TYPE = {
    ogr.OFTInteger64: "LongLong",
    ogr.OFTInteger: "Int",
    ogr.OFTReal: "Double",
    ogr.OFTString: "QString",
}


def field_type(name):
    """The QgsField type for a Qt type name ("Double", "QString", ...): QMetaType.Type from QGIS
    3.38 on (QGIS 4 knows no other), QVariant.Type before (3.22-3.36 accept only that)."""
    from qgis.core import Qgis
    from qgis.PyQt.QtCore import QMetaType

    meta = getattr(QMetaType.Type, name)
    if Qgis.versionInt() >= 33800:
        return meta
    from qgis.PyQt.QtCore import QVariant  # qt6: allow (QGIS < 3.38 is Qt5)

    return QVariant.Type(int(meta))  # qt6: allow (the same type, as QVariant.Type)


def qgs_fields(fields=None):
    """QgsFields for a name -> OGR type schema (RATED_FIELDS by default)."""
    from qgis.core import QgsField, QgsFields

    out = QgsFields()
    for name, kind in (fields or RATED_FIELDS).items():
        out.append(QgsField(name, field_type(_QT_TYPE[kind])))
    return out


def _py(v):
    if v is None:
        return None
    if isinstance(v, float) and v != v:
        return None
    return v.item() if hasattr(v, "item") else v


def add_point_features(sink, fields, columns, feedback=None, with_geometry=True):
    """Add one feature per row of numpy/list columns to a Processing sink (lon/lat geometry)."""
    from qgis.core import QgsFeature, QgsFeatureSink, QgsGeometry, QgsPointXY

    names = [f.name() for f in fields]
    n = len(next(iter(columns.values()))) if columns else 0
    cols = [columns.get(name) for name in names]
    batch = []
    for i in range(n):
        feat = QgsFeature(fields)
        feat.setAttributes([None if c is None else _py(c[i]) for c in cols])
        if with_geometry:
            x, y = float(columns["lon"][i]), float(columns["lat"][i])
            if x == x and y == y:
                feat.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(x, y)))
        batch.append(feat)
        if len(batch) == 5000:
            sink.addFeatures(batch, QgsFeatureSink.Flag.FastInsert)
            batch = []
            if feedback is not None:
                if feedback.isCanceled():
                    return False
                feedback.setProgress(100.0 * i / max(n, 1))
    sink.addFeatures(batch, QgsFeatureSink.Flag.FastInsert)
    return True


def read_columns(source, context, names):
    """Attribute columns of a source (existing names only) plus lon/lat in EPSG:4326."""
    present = [n for n in names if source.fields().lookupField(n) >= 0]
    lon, lat, cols = point_arrays(source, context, present)
    cols["lon"], cols["lat"] = lon, lat
    return cols


def raster_candidates(path, band, region=None, max_cells=1_000_000):
    """Cell centres (lon/lat) and values > 0 of a weight raster inside a lon/lat region.

    Only the region's window is read (one per polygon part), at full resolution up to
    max_cells cells per window; a larger window is read as averaged blocks. A global raster
    so still gives every cell of a small region (the paper's Bay Area study on a 1-km raster).
    """
    ds = gdal.Open(path)
    if ds is None or not ds.GetProjection():
        raise QgsProcessingException(
            tr("The weight raster has no coordinate reference system; assign one first.")
        )
    srs = osr.SpatialReference()
    srs.ImportFromWkt(ds.GetProjection())
    srs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    gt = ds.GetGeoTransform()
    w, h = ds.RasterXSize, ds.RasterYSize
    windows = [(0, 0, w, h)] if region is None else _region_windows(region, srs, gt, w, h)
    rb = ds.GetRasterBand(band)
    nodata = rb.GetNoDataValue()
    xs, ys, vals, keys = [], [], [], []
    for x0, y0, ww, hh in windows:
        step = max(1.0, math.sqrt(ww * hh / max_cells))
        bw, bh = max(1, int(ww / step)), max(1, int(hh / step))
        data = rb.ReadAsArray(
            x0, y0, ww, hh, buf_xsize=bw, buf_ysize=bh, resample_alg=gdal.GRIORA_Average
        ).astype(np.float64)
        if nodata is not None:
            data[data == nodata] = np.nan
        rows, cols = np.nonzero(np.isfinite(data) & (data > 0))
        cx, cy = ww / bw, hh / bh  # cells per buffer cell
        xs.append(gt[0] + (x0 + (cols + 0.5) * cx) * gt[1])
        ys.append(gt[3] + (y0 + (rows + 0.5) * cy) * gt[5])
        vals.append(data[rows, cols])
        keys.append((y0 + rows * cy) * (w + 1) + x0 + cols * cx)  # one id per cell, for overlaps
    x, y, weights = np.concatenate(xs), np.concatenate(ys), np.concatenate(vals)
    if len(windows) > 1:  # windows of different parts may overlap: keep each cell once
        first = np.unique(np.concatenate(keys), return_index=True)[1]
        x, y, weights = x[first], y[first], weights[first]
    if not srs.IsGeographic():
        x, y = _unproject(x, y, srs)
    if region is not None and len(x):
        inside = geometry.contains_xy(region, x, y)
        x, y, weights = x[inside], y[inside], weights[inside]
    return np.column_stack([x, y]), weights


def _region_windows(region, srs, gt, w, h):
    """Pixel windows (x0, y0, width, height) covering each polygon part of a lon/lat region."""
    out = []
    for part in getattr(region, "geoms", [region]):
        x0, y0, x1, y1 = part.bounds
        if not srs.IsGeographic():
            ring = np.asarray(geometry.segmentize(part, 0.1).exterior.coords)
            px, py = _project(ring[:, 0], ring[:, 1], srs)
            ok = np.isfinite(px) & np.isfinite(py)
            if not ok.any():
                continue
            x0, x1, y0, y1 = px[ok].min(), px[ok].max(), py[ok].min(), py[ok].max()
        cols = sorted(((x0 - gt[0]) / gt[1], (x1 - gt[0]) / gt[1]))
        rows = sorted(((y0 - gt[3]) / gt[5], (y1 - gt[3]) / gt[5]))
        c0, c1 = max(0, int(math.floor(cols[0]))), min(w, int(math.ceil(cols[1])))
        r0, r1 = max(0, int(math.floor(rows[0]))), min(h, int(math.ceil(rows[1])))
        if c1 > c0 and r1 > r0:
            out.append((c0, r0, c1 - c0, r1 - r0))
    return out


def _unproject(x, y, srs):
    wgs = osr.SpatialReference()
    wgs.ImportFromEPSG(4326)
    wgs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    ct = osr.CoordinateTransformation(srs, wgs)
    out = np.asarray(ct.TransformPoints(np.column_stack([x, y, np.zeros(len(x))])), float)
    return out[:, 0], out[:, 1]


# GeoNames' licence (CC BY 4.0) asks for attribution wherever its data go: every layer GeoBias
# makes from the gazetteer (points sampled by its population, prompts naming its places) says so
# in its metadata, which a GeoPackage keeps (gpkg_metadata) and QGIS shows under Information.
GEONAMES_RIGHTS = (
    "Place names, administrative divisions and populations from GeoNames "
    "(https://www.geonames.org), licensed under CC BY 4.0"
)
GEONAMES_LICENCE = "GeoNames data: CC BY 4.0, https://creativecommons.org/licenses/by/4.0/"


def with_geonames_credit(metadata):
    """The layer metadata with the GeoNames attribution in its rights and licences (once)."""
    if GEONAMES_RIGHTS not in metadata.rights():
        metadata.setRights([*metadata.rights(), GEONAMES_RIGHTS])
    if GEONAMES_LICENCE not in metadata.licenses():
        metadata.setLicenses([*metadata.licenses(), GEONAMES_LICENCE])
    return metadata


def has_geonames_credit(layer):
    return layer is not None and GEONAMES_RIGHTS in layer.metadata().rights()


def credit_geonames(layer_or_uri, context=None):
    """Give a written layer the GeoNames attribution: on the layer object (a memory output that
    Processing loads) and, for a GeoPackage, in the file itself. Returns the layer's metadata."""
    from qgis.core import QgsProcessingUtils, QgsProviderRegistry, QgsVectorLayer

    layer = layer_or_uri
    if isinstance(layer_or_uri, str):
        layer = QgsProcessingUtils.mapLayerFromString(layer_or_uri, context) if context else None
        if layer is None:
            layer = QgsVectorLayer(layer_or_uri, "geonames", "ogr")
    if layer is None or not layer.isValid():
        return None
    metadata = with_geonames_credit(layer.metadata())
    layer.setMetadata(metadata)
    registry = QgsProviderRegistry.instance()
    parts = registry.decodeUri("ogr", layer.source()) if layer.providerType() == "ogr" else {}
    path = parts.get("path") or ""
    if path.lower().endswith(".gpkg"):
        name = parts.get("layerName")
        if not name:  # a sink's file holds one layer with geometries (and maybe its styles)
            ds = ogr.Open(path)
            layers = [ds.GetLayer(i) for i in range(ds.GetLayerCount())] if ds else []
            spatial = [g.GetName() for g in layers if g.GetGeomType() != ogr.wkbNone]
            name = spatial[0] if len(spatial) == 1 else ""
            layers = ds = None
        if name:
            uri = registry.encodeUri("ogr", {"path": path, "layerName": name})
            registry.saveLayerMetadata("ogr", uri, metadata)
    return metadata
