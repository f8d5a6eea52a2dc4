"""Processing benchmarks: write rated points with styles; ground truth from raster and polygons."""

import os
import sys
import tempfile
import time

import numpy as np

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
N = 100_000


def rated_columns(n, rng):
    from geobias.processing.rating import rated_columns as columns

    lon = rng.uniform(-180, 180, n)
    lat = np.degrees(np.arcsin(rng.uniform(-1, 1, n)))
    values = np.round(rng.uniform(0, 9.9, n), 1)
    return columns(lon, lat, values, "bench", "Infant Mortality Rate")


def bench_write(tmp, cols):
    from geobias.processing.gpkg import write_points_layer
    from geobias.processing.styles import style_file

    path = os.path.join(tmp, "bench.gpkg")
    t = time.perf_counter()
    uri = write_points_layer(path, "rated", cols)
    written = time.perf_counter() - t
    style_file(uri, "rank", values=cols)  # as ratelocations does: breaks from the arrays
    return time.perf_counter() - t, written


def make_raster(tmp):
    """A world raster at 1/12 degree (about 9 km), float32, with a nodata value."""
    from osgeo import gdal, osr

    path = os.path.join(tmp, "truth.tif")
    ds = gdal.GetDriverByName("GTiff").Create(path, 4320, 2160, 1, gdal.GDT_Float32)
    ds.SetGeoTransform((-180, 1 / 12, 0, 90, 0, -1 / 12))
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(4326)
    ds.SetProjection(srs.ExportToWkt())
    ds.GetRasterBand(1).WriteArray(np.random.default_rng(0).random((2160, 4320), dtype=np.float32))
    ds.GetRasterBand(1).SetNoDataValue(-1)
    ds = None
    return path


def bench_raster(path, cols, stat):
    from geobias.processing.rasters import raster_window_stat

    t = time.perf_counter()
    raster_window_stat(path, 1, cols["lon"], cols["lat"], 25.0, stat)
    return time.perf_counter() - t


def bench_polygons(cols):
    from qgis.core import QgsProcessingContext, QgsVectorLayer

    from geobias.paths import DATA
    from geobias.processing.features import polygon_field_values

    countries = QgsVectorLayer(
        os.path.join(DATA, "world_countries.gpkg") + "|layername=countries", "c", "ogr"
    )
    ctx = QgsProcessingContext()
    t = time.perf_counter()
    polygon_field_values(countries, "infant_mortality", cols["lon"], cols["lat"], ctx)
    return time.perf_counter() - t


def main():
    from qgis.core import QgsApplication

    app = QgsApplication([], False)
    app.initQgis()
    rng = np.random.default_rng(0)
    cols = rated_columns(N, rng)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        total, written = bench_write(tmp, cols)
        rows.append(("write 100k rated points + styles (GPKG)", total, 5.0))
        rows.append(("  of which writing the points", written, None))
        raster = make_raster(tmp)
        rows.append(
            ("ground truth 100k points, raster 25 km mean", bench_raster(raster, cols, "mean"), 2.0)
        )
        rows.append(
            (
                "ground truth 100k points, raster 25 km median",
                bench_raster(raster, cols, "median"),
                None,
            )
        )
    rows.append(("ground truth 100k points, country polygons", bench_polygons(cols), 3.0))
    print(f"{'what':48} {'measured s':>10} {'target s':>9} ok")
    for what, measured, target in rows:
        if target is None:
            print(f"{what:48} {measured:10.2f} {'-':>9} -")
        else:
            ok = "yes" if measured <= target else "NO"
            print(f"{what:48} {measured:10.2f} {target:9.1f} {ok}")
    app.exitQgis()
    return 0


if __name__ == "__main__":
    sys.exit(main())
