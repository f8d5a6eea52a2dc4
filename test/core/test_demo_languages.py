"""The home bias of `make demo-languages` against an independent computation.

The demo writes, per prompt language and point, the coordinates, the country the metrics used,
both scores and the truth (points.csv), and its metrics rows with their home bias (metrics.csv).
This test recomputes from points.csv alone, without core/survey/home_bias.py or
core/stats/metrics.py: each point's country by shapely point-in-polygon on the bundled countries
(read with OGR), the rank errors with scipy's average ranks, the home countries from the GeoNames
table and the language files read as plain CSV and JSON, H and its stratified country bootstrap
written out in numpy. It checks the recording of the demo run docs/demos.md reports (test/core/data/
demo_languages/) and, when `make demo-languages` has run here, its fresh output too.
"""

import csv
import json
import os

import numpy as np
import pytest
from scipy.stats import rankdata

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RECORDED = os.path.join(ROOT, "test", "core", "data", "demo_languages")
FRESH = os.path.join(ROOT, "output", "demo-languages")
RUNS = [RECORDED] + ([FRESH] if os.path.exists(os.path.join(FRESH, "metrics.csv")) else [])


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def num(text):
    return float(text) if text not in ("", None) else np.nan


def spoken(code):
    with open(os.path.join(ROOT, "resources", "languages", f"{code}.json"), encoding="utf-8") as f:
        return {s.split("-")[0].lower() for s in json.load(f)["spoken"]}


def home_sets(codes):
    """{"first": countries listing one of `codes` first, "listed": listing one at all}."""
    path = os.path.join(ROOT, "resources", "languages", "country_languages.csv")
    with open(path, encoding="utf-8") as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    first, listed = set(), set()
    for r in rows:
        tags = [t.strip().split("-")[0].lower() for t in r["languages"].split(",") if t.strip()]
        if tags and tags[0] in codes:
            first.add(r["iso_a2"])
        if set(tags) & codes:
            listed.add(r["iso_a2"])
    return {"first": first, "listed": listed}


def scaled_ranks(x):
    return (rankdata(x) - 1.0) / (len(x) - 1.0)


def home_bias(values, countries, home, n_boot, seed, ci=0.95):
    """H and its stratified country bootstrap, each replicate's points concatenated."""
    ok = np.isfinite(values) & (countries != "")
    v, c = values[ok], countries[ok]
    at_home = np.array([x in home for x in c], dtype=bool)
    names = sorted(set(c))
    h = [n for n in names if n in home]
    o = [n for n in names if n not in home]
    if not h or not o:
        return np.nan, np.nan, np.nan, len(h), len(o)
    diff = v[at_home].mean() - v[~at_home].mean()
    if len(h) < 2 or len(o) < 2:
        return diff, np.nan, np.nan, len(h), len(o)
    by = {n: v[c == n] for n in names}
    rng = np.random.default_rng(seed)
    dh = rng.integers(0, len(h), size=(n_boot, len(h)))
    do = rng.integers(0, len(o), size=(n_boot, len(o)))
    boots = [np.concatenate([by[h[i]] for i in dh[b]]).mean()
             - np.concatenate([by[o[i]] for i in do[b]]).mean() for b in range(n_boot)]  # fmt: skip
    tail = (1 - ci) / 2 * 100
    return diff, np.percentile(boots, tail), np.percentile(boots, 100 - tail), len(h), len(o)


def gpkg_wkb(blob):
    """The WKB inside a GeoPackage geometry blob (GeoPackage 1.3, 2.1.3: "GP", version, flags,
    srs id, then an envelope of 0, 4, 6, 6 or 8 doubles by the flags' bits 1-3)."""
    flags = blob[3]
    doubles = {0: 0, 1: 4, 2: 6, 3: 6, 4: 8}[(flags >> 1) & 0b111]
    return bytes(blob[8 + 8 * doubles :])


def countries_by_shapely(lon, lat):
    """Each point's ISO alpha-2 from the bundled countries (first polygon holding it), read with
    sqlite3 and shapely alone (no GDAL: the floor and shapely 1.8 runs have none)."""
    import sqlite3
    from contextlib import closing

    from shapely import wkb
    from shapely.geometry import Point

    path = os.path.join(ROOT, "resources", "data", "world_countries.gpkg")
    with closing(sqlite3.connect(path)) as con:
        (column,) = con.execute(
            "SELECT column_name FROM gpkg_geometry_columns WHERE table_name = 'countries'"
        ).fetchone()
        rows = con.execute(f'SELECT "{column}", iso_a2 FROM countries').fetchall()
    polys, codes = [], []
    for blob, code in rows:
        if blob is None or not (isinstance(code, str) and len(code) == 2 and code.isalpha()):
            continue
        geom = wkb.loads(gpkg_wkb(blob))
        polys.append(geom if geom.is_valid else geom.buffer(0))
        codes.append(code)
    out = np.full(len(lon), "", dtype=object)
    for i, (x, y) in enumerate(zip(lon, lat)):
        p = Point(x, y)
        for poly, code in zip(polys, codes):
            if poly.covers(p):
                out[i] = code
                break
    return out


@pytest.mark.parametrize("folder", RUNS, ids=[os.path.basename(r) for r in RUNS])
def test_the_demos_home_bias_matches_an_independent_computation(folder):
    points = read_csv(os.path.join(folder, "points.csv"))
    metrics = read_csv(os.path.join(folder, "metrics.csv"))
    assert metrics and points
    checked = 0
    for row in metrics:
        code, field = row["language"], row["score_field"]
        mine = [p for p in points if p["language"] == code]
        lon = np.array([float(p["lon"]) for p in mine])
        lat = np.array([float(p["lat"]) for p in mine])
        iso = np.array([p["iso_a2"] for p in mine], dtype=object)
        assert (countries_by_shapely(lon, lat) == iso).all(), code
        ok = np.array([p["answered"] == "1" and p["failed"] != "1" for p in mine])
        score = np.where(ok, [num(p[field]) for p in mine], np.nan)
        truth = np.array([num(p["truth"]) for p in mine])
        both = np.isfinite(score) & np.isfinite(truth)
        errors = np.full(len(mine), np.nan)
        if both.sum() > 1:
            errors[both] = scaled_ranks(score[both]) - scaled_ranks(truth[both])
        if field == "score":  # the layer's own rank errors are the expected value's
            written = np.array([num(p["rank_error"]) for p in mine])
            np.testing.assert_allclose(written, errors, rtol=1e-9, atol=1e-12)
        n_boot, seed = int(row["n_boot"]), int(row["seed"])
        for mode, home in home_sets(spoken(code)).items():
            h, lo, hi, k_home, k_other = home_bias(errors, iso, home, n_boot, seed)
            want = [num(row[f"home_{mode}"]), num(row[f"home_{mode}_lo"]),
                    num(row[f"home_{mode}_hi"])]  # fmt: skip
            np.testing.assert_allclose(want, [h, lo, hi], rtol=1e-9, atol=1e-12,
                                       err_msg=f"{code} {field} {mode}")  # fmt: skip
            assert int(row[f"home_{mode}_countries"]) == k_home
            assert int(row[f"home_{mode}_others"]) == k_other
            checked += np.isfinite(h)
    assert checked > 0  # at least one language had points at home and elsewhere
