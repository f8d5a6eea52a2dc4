"""The bundled countries carry each row's infant mortality year, a continent, a UN region and a
World Bank income group (scripts/build_sample_data.py; sources in resources/data/README.md)."""

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

GPKG = Path(__file__).resolve().parents[2] / "resources/data/world_countries.gpkg"
CONTINENTS = {"Africa", "Antarctica", "Asia", "Europe", "North America", "Oceania", "South America"}
INCOME = {"High income", "Upper middle income", "Lower middle income", "Low income"}


@pytest.fixture(scope="module")
def rows():
    with closing(sqlite3.connect(GPKG)) as db:
        db.row_factory = sqlite3.Row
        return [
            dict(r)
            for r in db.execute(
                "SELECT name, iso_a2, iso_a3, infant_mortality, imr_source, imr_year, continent,"
                " region, income_group FROM countries"
            )
        ]


def by_iso(rows, iso_a2):
    (row,) = [r for r in rows if r["iso_a2"] == iso_a2]
    return row


def test_each_infant_mortality_names_its_own_year(rows):
    years = {"gapminder 2015": 2015, "UNICEF SOWC 2018": 2018, None: None}
    assert all(r["imr_year"] == years[r["imr_source"]] for r in rows)
    assert {r["imr_year"] for r in rows} == {2015, 2018, None}


def test_every_named_country_has_a_continent_and_region(rows):
    named = [r for r in rows if r["name"]]
    assert all(r["continent"] in CONTINENTS and r["region"] for r in named)
    france = by_iso(rows, "FR")
    assert (france["continent"], france["region"]) == ("Europe", "Western Europe")
    assert by_iso(rows, "MX")["continent"] == "North America"
    assert by_iso(rows, "BR")["continent"] == "South America"
    # Kosovo: Natural Earth's ISO3 is -99, its ISO2 matches.
    assert by_iso(rows, "XK")["continent"] == "Europe"


def test_income_groups_are_the_world_banks_four_or_none(rows):
    groups = [r["income_group"] for r in rows]
    assert set(groups) <= INCOME | {None} and groups.count(None) < 30
    assert by_iso(rows, "FR")["income_group"] == "High income"
    assert by_iso(rows, "EG")["income_group"] == "Lower middle income"
    assert by_iso(rows, "VE")["income_group"] is None  # unclassified by the World Bank (FY2023)
