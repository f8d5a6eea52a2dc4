"""Benchmark: gazetteer load and prompt inputs, weighted and uniform sampling (issue 3 targets).

Run: .venv/bin/python benchmarks/bench_sampling_gazetteer.py
Each row is the median of a few runs, so a busy machine does not decide the verdict alone.
"""

from __future__ import annotations

import sqlite3
import statistics
import time

import numpy as np
import shapely

from geobias.core.geo.gazetteer import Gazetteer
from geobias.core.geo.sampling import sample_uniform, sample_weighted

WORLD_MAP = "/usr/share/qgis/resources/data/world_map.gpkg"
PAPER_REQUESTS_PER_S = 1.0  # Nominatim / Overpass usage policies: about one request per second


def timed(fn, repeat: int = 3) -> tuple[float, object]:
    """Median wall time of fn() over `repeat` runs, and its last result."""
    times, result = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), result


def gpkg_geometry(blob: bytes):
    """Shapely geometry from a GeoPackage geometry blob (GP header, optional envelope, WKB)."""
    flags = blob[3]
    envelope_bytes = {0: 0, 1: 32, 2: 48, 3: 48, 4: 64}[(flags >> 1) & 0b111]
    return shapely.from_wkb(blob[8 + envelope_bytes :])


def country(name: str):
    """A detailed country (Multi)Polygon from QGIS's world_map.gpkg (Natural Earth)."""
    with sqlite3.connect(f"file:{WORLD_MAP}?mode=ro", uri=True) as db:
        (blob,) = db.execute("SELECT geom FROM countries WHERE NAME = ?", (name,)).fetchone()
    return shapely.make_valid(gpkg_geometry(blob))


def load_gazetteer() -> Gazetteer:
    """Cold load of the bundled gazetteer including its KD-tree."""
    Gazetteer._cache.clear()
    gaz = Gazetteer.load()
    gaz.tree  # noqa: B018 - build the KD-tree now, it is part of being ready to answer
    return gaz


def main() -> None:
    """Run the benchmarks and print a table: what, measured, target, ok."""
    rows = []

    t, gaz = timed(load_gazetteer)
    rows.append((f"gazetteer load + KD-tree ({len(gaz):,} places)", t, 0.5))

    rng = np.random.default_rng(0)
    pick = rng.choice(len(gaz), 10_000, p=gaz.population / gaz.population.sum())
    lon = gaz.lon[pick] + rng.normal(0, 0.1, pick.size)
    lat = np.clip(gaz.lat[pick] + rng.normal(0, 0.1, pick.size), -90, 90)
    t_prompts, (addresses, texts) = timed(lambda: gaz.describe(lon, lat))
    rows.append(("10,000 prompts: address + nearby places", t_prompts, 1.0))

    m = 100_000
    cand = np.column_stack(
        [rng.uniform(-180, 180, m), np.degrees(np.arcsin(rng.uniform(-1, 1, m)))]
    )
    weights = rng.pareto(1.2, m)
    t, _ = timed(lambda: sample_weighted(cand, weights, 2000, seed=0))
    rows.append(("2,000 of 100,000 weighted (importance + FPS)", t, 1.0))

    for name in ("Indonesia", "Canada"):
        region = country(name)
        n_parts = len(getattr(region, "geoms", [region]))
        t, _ = timed(lambda region=region: sample_uniform(region, 10_000, seed=0))
        rows.append((f"10,000 uniform points in {name} ({n_parts} parts)", t, 0.5))

    print(f"{'what':<52} {'measured':>10} {'target':>8}  ok")
    for what, measured, target in rows:
        ok = "yes" if measured <= target else "NO"
        print(f"{what:<52} {measured:>9.3f}s {target:>7.1f}s  {ok}")

    rate = len(addresses) / t_prompts
    paper_rate = PAPER_REQUESTS_PER_S / 2  # one Nominatim + one Overpass request per prompt
    print()
    lines = np.mean([text.count("\n") for text in texts])
    print(f"GeoBias prompt inputs: {rate:,.0f} prompts/s offline ({lines:.1f} nearby places each).")
    print(
        f"The paper's tooling: one network round trip per address and per nearby query at about "
        f"{PAPER_REQUESTS_PER_S:g} request/s"
    )
    print(
        f"  -> about {paper_rate:g} prompts/s, so 10,000 prompts took about "
        f"{10_000 / paper_rate / 3600:.1f} h (GeoBias: {t_prompts:.2f} s, "
        f"{rate / paper_rate:,.0f}x faster)."
    )


if __name__ == "__main__":
    main()
