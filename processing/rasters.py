"""Rasters read as numpy: window statistics at points (ground truth, anchors) and weighted
candidates (sampling), with GDAL's block cache bounded."""

import math
import os
import threading
import warnings
from contextlib import contextmanager

import numpy as np
from osgeo import gdal, osr
from qgis.core import (
    QgsProcessingException,
)

from ..core.geo import geometry
from ..i18n_util import tr

# GDAL's block cache while GeoBias reads a raster (see gdal_cache_bounded).
RASTER_CACHE_BYTES = 64 * 2**20


KM_PER_DEGREE = 111.32


def _read_block(band, x0, y0, w, h):
    """One window of a band as float64 (the only place rasters are read: tests count reads)."""
    return band.ReadAsArray(int(x0), int(y0), int(w), int(h)).astype(np.float64)


def _read_averaged(band, x0, y0, w, h, bw, bh):
    """A window of a band averaged down to bw x bh cells, as float64 (sampling weights)."""
    data = band.ReadAsArray(
        int(x0), int(y0), int(w), int(h), buf_xsize=bw, buf_ysize=bh,
        resample_alg=gdal.GRIORA_Average,
    )  # fmt: skip
    return data.astype(np.float64)


# One bound for every reader at once: the first to enter saves the cache size, the last to
# leave restores it (two tasks reading rasters side by side must not restore each other's).
_cache_lock = threading.Lock()
_cache_state = {"users": 0, "saved": None}


@contextmanager
def gdal_cache_bounded(nbytes=None):
    """Cap GDAL's block cache at nbytes (default RASTER_CACHE_BYTES) while GeoBias reads a
    raster, then restore it.

    Sampling weights and ground-truth windows use each block once, and a world raster would
    otherwise fill the default cache (5% of RAM: 6.4 GB on a 128 GB workstation) with blocks
    never read again. The cache is process-wide (QGIS's own rendering shares it), so the
    bound lasts only while a reader runs; nested and concurrent readers share one bound.
    """
    nbytes = RASTER_CACHE_BYTES if nbytes is None else nbytes
    with _cache_lock:
        if _cache_state["users"] == 0:
            _cache_state["saved"] = gdal.GetCacheMax()
        _cache_state["users"] += 1
        if gdal.GetCacheMax() > nbytes:
            gdal.SetCacheMax(nbytes)
    try:
        yield
    finally:
        with _cache_lock:
            _cache_state["users"] -= 1
            if _cache_state["users"] == 0 and gdal.GetCacheMax() != _cache_state["saved"]:
                gdal.SetCacheMax(_cache_state["saved"])


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
    with gdal_cache_bounded():
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
    with gdal_cache_bounded():
        for x0, y0, ww, hh in windows:
            step = max(1.0, math.sqrt(ww * hh / max_cells))
            bw, bh = max(1, int(ww / step)), max(1, int(hh / step))
            data = _read_averaged(rb, x0, y0, ww, hh, bw, bh)
            if nodata is not None:
                data[data == nodata] = np.nan
            rows, cols = np.nonzero(np.isfinite(data) & (data > 0))
            cx, cy = ww / bw, hh / bh  # cells per buffer cell
            xs.append(gt[0] + (x0 + (cols + 0.5) * cx) * gt[1])
            ys.append(gt[3] + (y0 + (rows + 0.5) * cy) * gt[5])
            vals.append(data[rows, cols])
            keys.append((y0 + rows * cy) * (w + 1) + x0 + cols * cx)  # one id per cell
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
