"""Peak memory of the raster paths on a 1-km world raster (issues 13 and 23): target <= 1 GB.

The benchmark writes a synthetic 43,200 x 21,600 float32 raster (30 arc-seconds, WorldPop's
1-km grid; tiled, compressed, kept in build/bench/ for the next run) and measures, each in a
fresh child process, the peak resident memory of:
- world raster-weighted sampling (`geobias:samplepoints`, METHOD raster, 2,000 points), with
  GeoBias's bound on GDAL's block cache and, side by side, with GDAL's default cache (5% of
  RAM) as before issue 23;
- raster_window_stat (ground truth, anchors) for two points far apart and for a world survey
  (2,000 points, importance + farthest point by population, the paper's design), next to the
  memory the old read of the points' bounding box would have needed.
The sampling peak goes to `make bench`'s reliability table.
"""

import os
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reliability import record  # noqa: E402

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RASTER = os.path.join(ROOT, "build", "bench", "world_1km.tif")
W, H = 43_200, 21_600
TARGET_MB = 1024


def write_raster(path):
    """The synthetic world raster: smooth values, nodata over a band of 'ocean'."""
    from osgeo import gdal, osr

    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".part"
    options = ["TILED=YES", "BLOCKXSIZE=512", "BLOCKYSIZE=512", "COMPRESS=DEFLATE", "ZLEVEL=1",
               "BIGTIFF=YES", "NUM_THREADS=2"]  # fmt: skip
    ds = gdal.GetDriverByName("GTiff").Create(tmp, W, H, 1, gdal.GDT_Float32, options)
    ds.SetGeoTransform((-180, 1 / 120, 0, 90, 0, -1 / 120))
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(4326)
    ds.SetProjection(srs.ExportToWkt())
    band = ds.GetRasterBand(1)
    band.SetNoDataValue(-1)
    col = (np.sin(np.arange(W) / 700.0) * 50 + 60).astype(np.float32)
    for y0 in range(0, H, 512):
        rows = np.arange(y0, min(H, y0 + 512))
        strip = np.add.outer((np.cos(rows / 300.0) * 40).astype(np.float32), col)
        strip[:, 20_000:21_000] = -1
        band.WriteArray(strip, 0, y0)
    ds = None
    os.replace(tmp, path)


# Peak memory from /proc (VmHWM): getrusage's ru_maxrss survives execve on Linux, so a child
# would report its parent's peak. The high-water mark is reset just before the call.
CHILD = r"""
import sys, numpy as np
from qgis.core import QgsApplication
app = QgsApplication([], False); app.initQgis()
from geobias.processing.rasters import raster_window_stat

def status(key):
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) / 1024 for line in f if line.startswith(key))

lon = np.load(sys.argv[2]); lat = np.load(sys.argv[3])
base = status("VmRSS:")
with open("/proc/self/clear_refs", "w") as f:
    f.write("5")  # reset the peak to the current resident size
values, outside = raster_window_stat(sys.argv[1], 1, lon, lat, 5.0, sys.argv[4])
print(base, status("VmHWM:"), int(np.isfinite(values).sum()))
"""


# World raster-weighted sampling through Processing, as the toolbox and qgis_process run it.
# "default": GeoBias's bound lifted, so GDAL keeps its default cache (the code before issue 23).
SAMPLING_CHILD = r"""
import sys, time
from osgeo import gdal
from qgis.core import QgsApplication
app = QgsApplication([], False); app.initQgis()
sys.path.insert(0, "/usr/share/qgis/python/plugins")
from processing.core.Processing import Processing
Processing.initialize()
import processing
from geobias.processing import rasters
from geobias.processing.definitions import SAMPLE_METHODS
from geobias.processing.provider import GeoBiasProvider

provider = GeoBiasProvider()
QgsApplication.processingRegistry().addProvider(provider)
if sys.argv[2] == "default":
    rasters.RASTER_CACHE_BYTES = 2**62

def status(key):
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) / 1024 for line in f if line.startswith(key))

cache = gdal.GetCacheMax()
base = status("VmRSS:")
with open("/proc/self/clear_refs", "w") as f:
    f.write("5")
t = time.perf_counter()
out = processing.run("geobias:samplepoints", {"COUNT": 2000, "METHOD": SAMPLE_METHODS.index(
    "raster"), "WEIGHT_RASTER": sys.argv[1], "OUTPUT": "memory:"})
seconds = time.perf_counter() - t
print(base, status("VmHWM:"), out["N_POINTS"], cache / 2**20, seconds)
"""


def measure_sampling(cache):
    """(base MB, peak MB, points, GDAL cache MB, seconds) of a world raster-weighted sampling."""
    out = subprocess.run([sys.executable, "-c", SAMPLING_CHILD, RASTER, cache],
                         capture_output=True, text=True, check=True)  # fmt: skip
    base, peak, n, cache_mb, seconds = out.stdout.split()[-5:]
    return float(base), float(peak), int(n), float(cache_mb), float(seconds)


def bench_sampling():
    """The sampling rows (bounded, then GDAL's default cache); records the bounded peak."""
    print(f"{'world raster-weighted sampling, 2,000 points':48} {'peak MB':>8} {'of which':>9} "
          f"{'target':>7} ok {'s':>6}")  # fmt: skip
    for cache, label in (("bounded", "GeoBias (cache bounded while it reads)"),
                         ("default", "GDAL's default cache (before issue 23)")):  # fmt: skip
        base, peak, n, cache_mb, seconds = measure_sampling(cache)
        ok = peak <= TARGET_MB
        print(f"{label:48} {peak:8.0f} {peak - base:9.0f} {TARGET_MB:7d} "
              f"{'yes' if ok else 'NO ':3} {seconds:6.1f}", flush=True)  # fmt: skip
        if cache == "bounded":
            record(
                "raster_sampling_peak",
                f"{peak:.0f} MB",
                ok,
                f"{n} points in {seconds:.0f} s; GDAL's default cache here: {cache_mb:.0f} MB",
            )
    print()


def measure(lon, lat, stat, tmp):
    np.save(os.path.join(tmp, "lon.npy"), lon)
    np.save(os.path.join(tmp, "lat.npy"), lat)
    t = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", CHILD, RASTER, os.path.join(tmp, "lon.npy"),
         os.path.join(tmp, "lat.npy"), stat],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    base, peak, n = out.stdout.split()[-3:]
    return float(base), float(peak), int(n), time.perf_counter() - t


def old_bbox_mb(lon, lat):
    """What the old whole-bounding-box read allocated: float64 block + summed-area copies."""
    cols = (np.max(lon) - np.min(lon)) * 120
    rows = (np.max(lat) - np.min(lat)) * 120
    return cols * rows * 8 * 3 / 2**20


def main():
    import tempfile

    if not os.path.exists(RASTER):
        t = time.perf_counter()
        print(f"writing the synthetic {W} x {H} raster to {RASTER} ...", flush=True)
        write_raster(RASTER)
        print(f"  written in {time.perf_counter() - t:.0f} s", flush=True)
    bench_sampling()
    from geobias.core.geo.gazetteer import Gazetteer
    from geobias.core.geo.sampling import sample_weighted

    gaz = Gazetteer.load()
    places, population = gaz.candidates(None)
    world = places[sample_weighted(places, population, n=2000, seed=0)]
    cases = [
        ("two points far apart (Lima, Tokyo)", np.array([-77.0, 139.7]), np.array([-12.0, 35.7])),
        ("world survey, 2,000 points", world[:, 0], world[:, 1]),
    ]
    print(f"{'what':40} {'stat':6} {'peak MB':>8} {'of which':>9} {'old MB':>8} {'target':>7} ok "
          f"{'s':>5}")  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        for what, lon, lat in cases:
            for stat in ("mean", "median"):
                base, peak, _, seconds = measure(lon, lat, stat, tmp)
                ok = "yes" if peak <= TARGET_MB else "NO"
                print(f"{what:40} {stat:6} {peak:8.0f} {peak - base:9.0f} "
                      f"{old_bbox_mb(lon, lat):8.0f} {TARGET_MB:7d} {ok:3} {seconds:5.1f}",
                      flush=True)  # fmt: skip
    print("peak MB: the child's peak resident memory during the call (QGIS, numpy and GDAL")
    print("loaded); of which: above its level before the call; old MB: what the old read of the")
    print("points' bounding box allocated (float64 block + summed-area copies); s: child's time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
