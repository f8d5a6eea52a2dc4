"""Home bias against an independent numpy computation; GeoNames' country languages table."""

from contextlib import closing

import numpy as np
import pytest

from geobias.core.survey.home_bias import (
    country_languages,
    home_bias,
    home_bias_for,
    home_countries,
)
from geobias.core.survey.languages import get_language, load_languages


def test_the_bundled_table_is_keyed_like_the_countries_layer():
    import sqlite3
    from pathlib import Path

    table = country_languages()
    gpkg = Path(__file__).resolve().parents[2] / "resources/data/world_countries.gpkg"
    with closing(sqlite3.connect(gpkg)) as db:
        codes = {r[0] for r in db.execute("SELECT iso_a2 FROM countries") if r[0].isalpha()}
    assert codes <= set(table)  # every country of the layer has its row
    assert table["FR"][0] == "fr-FR" and "oc" in table["FR"]
    assert table["IN"][0] == "en-IN" and "hi" in table["IN"] and "fr" in table["IN"]


def test_listed_first_and_listed_at_all():
    assert "FR" in home_countries("fr", "first") and "IN" not in home_countries("fr", "first")
    assert "IN" in home_countries("fr", "listed")  # GeoNames lists French for India
    assert home_countries("hi", "first") == set()  # India lists English first
    assert home_countries("hi", "listed") == {"IN", "AE"}  # the UAE lists Hindi fourth
    assert {"TZ"} == home_countries("sw", "first") and "KE" in home_countries("sw", "listed")
    assert {"CN", "TW"} <= home_countries("zh", "first")
    for lang in load_languages().values():
        assert home_countries(lang.spoken, "first") <= home_countries(lang.spoken, "listed")
    with pytest.raises(ValueError, match="mode"):
        home_countries("fr", "spoken")


def synthetic(seed=1, n_countries=40, shift=0.1):
    """Points in countries, each country with its own offset; home countries shifted."""
    rng = np.random.default_rng(seed)
    names = [f"C{i:02d}" for i in range(n_countries)]
    home = set(names[:8])
    per = rng.integers(1, 30, n_countries)
    countries = np.repeat(names, per)
    offset = dict(zip(names, rng.normal(0, 0.1, n_countries)))
    values = np.array([offset[c] + (shift if c in home else 0.0) for c in countries])
    values += rng.normal(0, 0.2, len(values))
    values[rng.random(len(values)) < 0.1] = np.nan  # unanswered points
    countries = countries.astype(object)
    countries[rng.random(len(values)) < 0.03] = ""  # points in no country
    return values, countries, home


def independent(values, countries, home, n_boot, seed, ci=0.95):
    """The definition written out: point means by masks, and a stratified country bootstrap
    drawing the same country indices, each replicate's points gathered by concatenation."""
    ok = ~np.isnan(values) & (countries != "")
    v, c = values[ok], countries[ok]
    in_home = np.array([x in home for x in c])
    diff = v[in_home].mean() - v[~in_home].mean()
    names = sorted(set(c))
    h = [n for n in names if n in home]
    o = [n for n in names if n not in home]
    by = {n: v[c == n] for n in names}
    rng = np.random.default_rng(seed)
    dh = rng.integers(0, len(h), size=(n_boot, len(h)))
    do = rng.integers(0, len(o), size=(n_boot, len(o)))
    boots = []
    for b in range(n_boot):
        hv = np.concatenate([by[h[i]] for i in dh[b]])
        ov = np.concatenate([by[o[i]] for i in do[b]])
        boots.append(hv.mean() - ov.mean())
    tail = (1 - ci) / 2 * 100
    return diff, np.percentile(boots, tail), np.percentile(boots, 100 - tail), len(h), len(o)


def test_home_bias_matches_an_independent_computation():
    values, countries, home = synthetic()
    got = home_bias(values, countries, home, n_boot=400, seed=7)
    diff, lo, hi, kh, ko = independent(values, countries, home, 400, 7)
    assert got.difference == pytest.approx(diff, abs=1e-12)
    assert got.lo == pytest.approx(lo, abs=1e-12) and got.hi == pytest.approx(hi, abs=1e-12)
    assert (got.n_home_countries, got.n_other_countries) == (kh, ko)
    assert got.lo < got.difference < got.hi and not got.reason
    # a real shift of 0.3 is found; none at all gives an interval around zero
    shifted = home_bias(*synthetic(seed=2, shift=0.3), n_boot=400)
    assert shifted.lo > 0.1
    flat = home_bias(*synthetic(seed=3, shift=0.0), n_boot=400)
    assert flat.lo < 0 < flat.hi


def test_degenerate_cases_say_why():
    v = np.array([0.1, 0.2, np.nan, 0.3])
    c = np.array(["FR", "FR", "DE", "DE"], dtype=object)
    r = home_bias(v, c, {"ES"})
    assert np.isnan(r.difference) and "no point in a country" in r.reason
    r = home_bias(v, c, {"FR", "DE"})
    assert np.isnan(r.difference) and "no point outside" in r.reason
    r = home_bias(v, c, {"FR"})
    assert r.difference == pytest.approx(0.15 - 0.3) and np.isnan(r.lo) and "too few" in r.reason
    with pytest.raises(ValueError, match="length"):
        home_bias(v, c[:2], {"FR"})


def test_home_bias_for_a_language_both_ways():
    rng = np.random.default_rng(0)
    table = country_languages()
    codes = sorted(table)
    countries = np.array(rng.choice(codes, 3000), dtype=object)
    french = home_countries("fr", "listed")
    values = rng.normal(0, 0.1, 3000) + np.array([0.2 if c in french else 0.0 for c in countries])
    out = home_bias_for(get_language("fr"), values, countries, n_boot=200)
    assert set(out) == {"first", "listed"}
    assert out["listed"].n_home_countries == len(french & set(countries))
    assert out["first"].n_home_countries < out["listed"].n_home_countries
    assert out["listed"].difference == pytest.approx(0.2, abs=0.03)
    assert out["listed"].language == "fr" and out["first"].mode == "first"
    hindi = home_bias_for(get_language("hi"), values, countries, n_boot=50)
    assert np.isnan(hindi["first"].difference) and hindi["first"].reason
