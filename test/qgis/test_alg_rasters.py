"""Rasters at scale (issue 13, items 10 and 11): weighted sampling reads the region's window at
full resolution; ground truth reads windows around the points, never the points' bounding box."""

import numpy as np
import pytest
from osgeo import gdal, osr
from shapely.geometry import box

from geobias.processing import rasters as layers

BAY_AREA = box(-122.6, 37.2, -121.7, 38.1)  # lon/lat


def world_raster(path, res_deg, fill=1.0, dtype=gdal.GDT_Float32, window=None):
    """A global geographic raster (or one over `window` = (w, s, e, n)) filled with `fill`."""
    w, s, e, n = window or (-180, -90, 180, 90)
    cols, rows = int(round((e - w) / res_deg)), int(round((n - s) / res_deg))
    ds = gdal.GetDriverByName("GTiff").Create(
        str(path), cols, rows, 1, dtype, ["TILED=YES", "COMPRESS=DEFLATE"]
    )
    ds.SetGeoTransform((w, res_deg, 0, n, 0, -res_deg))
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(4326)
    ds.SetProjection(srs.ExportToWkt())
    band = ds.GetRasterBand(1)
    band.SetNoDataValue(-1)
    band.Fill(fill)
    ds = None
    return str(path)


def cells_inside(region, res_deg, origin=(-180, 90)):
    """Centres of the cells of a raster grid that lie in region (what full resolution gives)."""
    w, s, e, n = region.bounds
    c0, c1 = int(np.floor((w - origin[0]) / res_deg)), int(np.ceil((e - origin[0]) / res_deg))
    r0, r1 = int(np.floor((origin[1] - n) / res_deg)), int(np.ceil((origin[1] - s) / res_deg))
    cols, rows = np.meshgrid(np.arange(c0, c1), np.arange(r0, r1))
    x = origin[0] + (cols.ravel() + 0.5) * res_deg
    y = origin[1] - (rows.ravel() + 0.5) * res_deg
    import shapely

    return int(shapely.contains_xy(region, x, y).sum())


def test_weighted_candidates_from_a_global_raster_keep_full_resolution_in_the_region(tmp_path):
    path = world_raster(tmp_path / "global005.tif", 0.05)  # 7,200 x 3,600 cells
    cand, weights = layers.raster_candidates(path, 1, BAY_AREA)
    assert len(cand) == cells_inside(BAY_AREA, 0.05) == 324
    assert (weights == 1).all()
    assert np.allclose(np.round((cand[:, 0] + 180) / 0.05 - 0.5), (cand[:, 0] + 180) / 0.05 - 0.5)


def test_paper_neighbourhood_study_2000_points_from_a_1km_raster(processing_ready, tmp_path):
    """Paper A.5: 2,000 points in the Bay Area weighted by a WorldPop-like 1-km raster."""
    res = 1 / 120
    path = world_raster(tmp_path / "pop1km.tif", res, window=(-130, 30, -110, 45))  # 2400 x 1800
    cand, _ = layers.raster_candidates(path, 1, BAY_AREA)
    assert len(cand) == cells_inside(BAY_AREA, res, origin=(-130, 45))
    from qgis.core import QgsFeature, QgsGeometry, QgsVectorLayer

    import processing

    region = QgsVectorLayer("Polygon?crs=EPSG:4326", "bay", "memory")
    f = QgsFeature()
    f.setGeometry(QgsGeometry.fromWkt(BAY_AREA.wkt))
    region.dataProvider().addFeatures([f])
    out = processing.run("geobias:samplepoints", {"REGION": region, "COUNT": 2000, "METHOD": 2,
                         "WEIGHT_RASTER": path, "OUTPUT": "memory:"})  # fmt: skip
    assert out["N_POINTS"] == 2000


@pytest.mark.parametrize("stat", ["mean", "sum", "median", "max"])
def test_ground_truth_windows_read_in_tiles_match_whole_reads(tmp_path, monkeypatch, stat):
    rng = np.random.default_rng(0)
    res = 0.5
    path = str(tmp_path / "r.tif")
    ds = gdal.GetDriverByName("GTiff").Create(path, 720, 360, 1, gdal.GDT_Float32)
    ds.SetGeoTransform((-180, res, 0, 90, 0, -res))
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(4326)
    ds.SetProjection(srs.ExportToWkt())
    data = rng.random((360, 720)).astype(np.float32)
    data[rng.random(data.shape) < 0.1] = -1
    ds.GetRasterBand(1).SetNoDataValue(-1)
    ds.GetRasterBand(1).WriteArray(data)
    ds = None
    lon = np.concatenate([rng.uniform(-180, 180, 300), [179.9, -179.9, 0.1]])
    lat = np.concatenate([np.degrees(np.arcsin(rng.uniform(-1, 1, 300))), [0, 0, 89.9]])
    reads = []
    real = layers._read_block

    def recording(band, x0, y0, w, h):
        reads.append(w * h)
        return real(band, x0, y0, w, h)

    monkeypatch.setattr(layers, "_read_block", recording)
    got, outside = layers.raster_window_stat(path, 1, lon, lat, 200.0, stat, tile=64)
    assert not outside.any() and len(reads) > 10
    # No read is much larger than a tile plus its windows (the old code read 720 x 360 at
    # once); the polar point's window is read alone, the raster's width but a few rows high.
    assert max(reads) <= (64 + 20) ** 2
    # The windows themselves are what a read of the whole raster gives.
    monkeypatch.setattr(layers, "_read_block", real)
    whole, _ = layers.raster_window_stat(path, 1, lon, lat, 200.0, stat, tile=10_000)
    assert np.allclose(got, whole, equal_nan=True)


# ------------------------------------------------------------------ GDAL's block cache (issue 23)

BIG_CACHE = 512 * 2**20  # what a user's QGIS may have (5% of RAM by default), above the bound


@pytest.fixture()
def big_cache():
    """GDAL's cache set to BIG_CACHE for a test, the session's size restored afterwards."""
    before = gdal.GetCacheMax()
    gdal.SetCacheMax(BIG_CACHE)
    yield
    gdal.SetCacheMax(before)


@pytest.fixture()
def cache_spy(monkeypatch, big_cache):
    """The cache size at every raster read GeoBias makes."""
    seen = []
    for name in ("_read_block", "_read_averaged"):
        real = getattr(layers, name)

        def spy(*args, _real=real, _name=name):
            seen.append((_name, gdal.GetCacheMax()))
            return _real(*args)

        monkeypatch.setattr(layers, name, spy)
    return seen


def rated_points(n=30):
    """A memory layer of points in the 1,000 x 1,000 test raster's area with lon, lat, score."""
    from qgis.core import QgsFeature, QgsGeometry, QgsPointXY, QgsVectorLayer

    layer = QgsVectorLayer(
        "Point?crs=EPSG:4326&field=lon:double&field=lat:double&field=score:double", "r", "memory"
    )
    rng = np.random.default_rng(1)
    feats = []
    for lon, lat, score in zip(rng.uniform(1, 9, n), rng.uniform(41, 49, n), rng.random(n)):
        f = QgsFeature(layer.fields())
        f.setAttributes([float(lon), float(lat), float(score)])
        f.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(lon, lat)))
        feats.append(f)
    layer.dataProvider().addFeatures(feats)
    return layer


def test_every_raster_path_reads_with_gdal_cache_bounded_and_restores_it(
    processing_ready, tmp_path, cache_spy
):
    """Sampling weights, ground truth and anchors: GDAL's cache is bounded while GeoBias reads
    and the user's size is back afterwards."""
    import processing

    raster = world_raster(tmp_path / "w.tif", 0.01, window=(0, 40, 10, 50))
    points = rated_points()
    runs = {
        "samplepoints": {"COUNT": 20, "METHOD": 2, "WEIGHT_RASTER": raster, "OUTPUT": "memory:"},
        "samplegroundtruth": {"INPUT": points, "RASTER": raster, "OUTPUT": "memory:"},
        "biasmetrics": {"INPUT": [points], "TRUTH_FIELD": "", "ANCHOR_RASTER": raster,
                        "N_BOOT": 0, "OUTPUT": "memory:"},
    }  # fmt: skip
    for alg, params in runs.items():
        cache_spy.clear()
        processing.run(f"geobias:{alg}", params)
        assert cache_spy, f"{alg} read no raster"
        assert all(size <= layers.RASTER_CACHE_BYTES for _, size in cache_spy), (alg, cache_spy)
        assert gdal.GetCacheMax() == BIG_CACHE, alg


def test_a_failing_read_restores_gdal_cache(tmp_path, monkeypatch, big_cache):
    raster = world_raster(tmp_path / "w.tif", 0.5)

    def broken(*args):
        assert gdal.GetCacheMax() <= layers.RASTER_CACHE_BYTES
        raise RuntimeError("read error")

    monkeypatch.setattr(layers, "_read_averaged", broken)
    with pytest.raises(RuntimeError, match="read error"):
        layers.raster_candidates(raster, 1, BAY_AREA)
    assert gdal.GetCacheMax() == BIG_CACHE


def test_readers_side_by_side_share_one_bound(big_cache):
    """Two tasks reading at once: the first to finish must not lift the other's bound."""
    with layers.gdal_cache_bounded():
        with layers.gdal_cache_bounded():
            assert gdal.GetCacheMax() == layers.RASTER_CACHE_BYTES
        assert gdal.GetCacheMax() == layers.RASTER_CACHE_BYTES  # the outer reader still reads
    assert gdal.GetCacheMax() == BIG_CACHE
    # A cache already smaller than the bound is left as the user set it.
    gdal.SetCacheMax(16 * 2**20)
    with layers.gdal_cache_bounded():
        assert gdal.GetCacheMax() == 16 * 2**20
    assert gdal.GetCacheMax() == 16 * 2**20
