"""Benchmark of core.hotspots beside PySAL's esda (test-only, requirements-dev.txt) on the same
weights: local Moran's I with 999 conditional permutations and Gi* on the bundled US counties'
unemployment (3,100+ counties, 8 nearest neighbours). Prints what, measured, target, ok."""

import math
import os
import time
import warnings

import numpy as np
from osgeo import ogr

from geobias.core.stats.hotspots import getis_ord_star, global_moran, local_moran
from geobias.core.stats.spatial_weights import knn_weights
from geobias.paths import DATA


def timed(fn, repeat=3):
    """Best wall time of a few runs, in seconds."""
    best = math.inf
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def counties():
    """Centroid lon/lat and unemployment of the bundled US counties that have a value."""
    ds = ogr.Open(os.path.join(DATA, "us_counties.gpkg"))
    lon, lat, value = [], [], []
    for f in ds.GetLayerByName("counties"):
        v = f.GetField("unemployment")
        g = f.GetGeometryRef()
        if v is None or g is None:
            continue
        c = g.Centroid()
        lon.append(c.GetX())
        lat.append(c.GetY())
        value.append(float(v))
    return np.array(lon), np.array(lat), np.array(value)


def main():
    lon, lat, value = counties()
    w = knn_weights(lon, lat, 8)
    n = len(value)
    rows = []
    ours_local = timed(lambda: local_moran(value, w, 999, 0))
    ours_gi = timed(lambda: getis_ord_star(value, w))
    ours_global = timed(lambda: global_moran(value, w, 999, 0))
    try:
        import esda
        from libpysal.weights import W
    except ImportError:
        esda = None
    if esda is not None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            pw = W({i: nb.tolist() for i, nb in enumerate(w.neighbours())}, silence_warnings=True)
            theirs_local = timed(lambda: esda.Moran_Local(value, pw, transformation="r",
                                                          permutations=999, seed=0))  # fmt: skip
            pb = W({i: nb.tolist() for i, nb in enumerate(w.neighbours())}, silence_warnings=True)
            theirs_gi = timed(lambda: esda.G_Local(value, pb, transform="B", star=True,
                                                   permutations=0))  # fmt: skip
            theirs_global = timed(lambda: esda.Moran(value, pw, transformation="r",
                                                     permutations=999))  # fmt: skip
        for what, ours, theirs in (
            (f"local Moran's I + 999 conditional permutations, {n} counties", ours_local,
             theirs_local),
            (f"Getis-Ord Gi* (z only), {n} counties", ours_gi, theirs_gi),
            (f"global Moran's I + 999 permutations, {n} counties", ours_global, theirs_global),
        ):  # fmt: skip
            ratio = ours / theirs
            rows.append((what, f"{ours:.3f} s vs esda {theirs:.3f} s ({ratio:.2f}x)",
                         "<= esda's time", ratio <= 1.0))  # fmt: skip
    else:
        rows.append((f"local Moran's I + 999 permutations, {n} counties", f"{ours_local:.3f} s",
                     "esda not installed: no side-by-side ratio", True))  # fmt: skip
    width = max(len(r[0]) for r in rows)
    print(f"{'what':<{width}}  measured  target  ok")
    for what, measured, target, ok in rows:
        print(f"{what:<{width}}  {measured}  {target}  {'ok' if ok else 'SLOWER'}")


if __name__ == "__main__":
    main()
