"""Benchmark of core.geobs: the four GeoBS scores on 100,000 points (target <= 5 s in all).

100,000 points uniform on the sphere with a hit/miss field; a 400 km neighbourhood holds about
100 of them, as 1,500 km does on the 2,000-point world sample of the benchmark card. The SSI is
evaluated on a seeded sample of 2,000 centres (GeoBSSettings.max_centres), the SRIs on every
point. Prints what, measured, target, ok, and the share of each score in the total.
"""

import math
import time

import numpy as np

from geobias.core import geobs

N = 100_000
TARGET_S = 5.0


def timed(fn, repeat=2):
    """Best wall time of a few runs, in seconds, and the last result."""
    best, out = math.inf, None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


def main():
    rng = np.random.default_rng(0)
    lon = rng.uniform(-180, 180, N)
    lat = np.degrees(np.arcsin(rng.uniform(-1, 1, N)))
    codes = geobs.hit_miss(rng.random(N) < 0.5 + 0.3 * np.sin(np.radians(lon)))
    s = geobs.GeoBSSettings(radius_km=400.0, scale_deg=2.0, lag_km=100.0, n_sectors=8)
    cpu = time.process_time()
    total, result = timed(lambda: geobs.geobs_scores(lon, lat, codes, s))
    cpu = (time.process_time() - cpu) / 2  # CPU seconds of one run: less sensitive to load
    pairs, _ = timed(lambda: geobs.neighbour_pairs(lon, lat, s.radius_km), repeat=1)
    ssi, _ = timed(lambda: geobs.ssi(lon, lat, codes, s.radius_km, max_centres=s.max_centres),
                   repeat=1)  # fmt: skip
    rows = [
        (
            f"all four scores, {N:,} points",
            f"{total:.2f} s",
            f"{TARGET_S:.0f} s",
            total <= TARGET_S,
        ),
        ("  CPU time of one run (all threads)", f"{cpu:.2f} s", "", True),
        ("  of which the neighbour pairs", f"{pairs / total:.0%}", "", True),
        (f"  of which the SSI ({s.max_centres:,} centres)", f"{ssi / total:.0%}", "", True),
    ]
    width = max(len(r[0]) for r in rows)
    print(f"{'what':<{width}}  {'measured':>10}  {'target':>7}  ok")
    for what, measured, target, ok in rows:
        print(f"{what:<{width}}  {measured:>10}  {target:>7}  {'yes' if ok else 'NO'}")
    print("scores:", {k: round(v, 4) if isinstance(v, float) else v
                      for k, v in result.summary().items()})  # fmt: skip


if __name__ == "__main__":
    main()
