"""Home bias: does a model rate places differently when asked in their own language?

For a prompt language, the mean of a per-point value (the rank error of the paper, or the rank
of the rating where there is no truth) over points in the countries where that language is
spoken, minus its mean over points in the other countries:

    H = mean{v_i : c_i in S} - mean{v_i : c_i not in S}

where c_i is point i's country and S the language's home countries. With rank errors (rating
rank minus truth rank, > 0: overestimated) H > 0 says the model rates its language's countries
higher, relative to their truth, than it rates the rest of the world.

"Spoken" comes from GeoNames' country language lists (resources/languages/
country_languages.csv, built by scripts/build_country_languages.py). Those lists are broad
(India lists French; France lists Breton, Corsican, Catalan, Basque and Occitan), so S is
taken two ways: countries that list the language first ("first") and countries that list it
at all ("listed"). A tag's language is its part before "-" ("en-IN" is English).

Points of one country are not independent (one country's truth, one model's idea of it), so
the interval is a cluster bootstrap over countries, stratified: each replicate draws the home
countries with replacement among the home countries and the others among the others, and
recomputes H with every drawn country's points (Davison & Hinkley 1997, ch. 3.8).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..resources import resource
from ..wording import listing

__all__ = [
    "MODES",
    "TABLE",
    "HomeBias",
    "country_languages",
    "home_bias",
    "home_bias_for",
    "home_countries",
]

TABLE = Path(resource("languages", "country_languages.csv"))
MODES = ("first", "listed")


@lru_cache(maxsize=4)
def _read(path: str) -> dict[str, tuple[str, ...]]:
    with open(path, newline="", encoding="utf-8") as f:
        rows = csv.DictReader(line for line in f if not line.startswith("#"))
        return {
            r["iso_a2"]: tuple(t.strip() for t in r["languages"].split(",") if t.strip())
            for r in rows
        }


def country_languages(path=None) -> dict[str, tuple[str, ...]]:
    """ISO 3166 alpha-2 -> the GeoNames language tags of that country, main language first."""
    return _read(str(path or TABLE))


def _base(tag: str) -> str:
    return tag.split("-")[0].strip().lower()


def home_countries(spoken, mode: str = "first", table=None) -> set[str]:
    """Countries (ISO alpha-2) where any of the ISO 639 codes `spoken` is the first listed
    language (mode "first") or listed at all ("listed")."""
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; use one of {listing(MODES)}")
    if isinstance(spoken, str):
        spoken = (spoken,)
    wanted = {_base(s) for s in spoken}
    table = country_languages() if table is None else table
    out = set()
    for code, tags in table.items():
        bases = [_base(t) for t in tags]
        if wanted & set(bases[:1] if mode == "first" else bases):
            out.add(code)
    return out


@dataclass(frozen=True)
class HomeBias:
    """H = mean at home - mean elsewhere, its bootstrap interval [lo, hi] and the counts."""

    difference: float
    lo: float
    hi: float
    home_mean: float
    other_mean: float
    n_home_countries: int
    n_other_countries: int
    n_home_points: int
    n_other_points: int
    reason: str = ""
    language: str = ""
    mode: str = ""


def _nan(reason: str, counts=(0, 0, 0, 0), **kw) -> HomeBias:
    return HomeBias(np.nan, np.nan, np.nan, np.nan, np.nan, *counts, reason=reason, **kw)


def home_bias(
    values,
    countries,
    home,
    n_boot: int = 1000,
    seed: int = 0,
    ci: float = 0.95,
    language: str = "",
    mode: str = "",
) -> HomeBias:
    """H for per-point `values` (NaN: no value) in `countries` (ISO alpha-2 per point; "" or
    None: no country, left out), with `home` the home countries; seeded percentile interval."""
    v = np.asarray(values, dtype=float).ravel()
    c = np.asarray(["" if x is None else str(x) for x in countries], dtype=object)
    if len(c) != len(v):
        raise ValueError(f"values and countries differ in length: {len(v)} vs {len(c)}")
    keep = np.isfinite(v) & (c != "")
    v, c = v[keep], c[keep]
    names, idx = np.unique(c.astype(str), return_inverse=True)
    idx = idx.ravel()
    sums = np.bincount(idx, weights=v, minlength=len(names))
    counts = np.bincount(idx, minlength=len(names)).astype(float)
    at_home = np.array([n in home for n in names], dtype=bool)
    kh, ko = int(at_home.sum()), int((~at_home).sum())
    nh, no = int(counts[at_home].sum()), int(counts[~at_home].sum())
    tags = dict(language=language, mode=mode)
    if kh == 0:
        return _nan("no point in a country where the language is spoken", (kh, ko, nh, no), **tags)
    if ko == 0:
        return _nan("no point outside the countries where it is spoken", (kh, ko, nh, no), **tags)
    home_mean = sums[at_home].sum() / nh
    other_mean = sums[~at_home].sum() / no
    diff = home_mean - other_mean
    lo = hi = np.nan
    reason = ""
    if kh < 2 or ko < 2:
        reason = "too few countries for an interval (one on a side)"
    elif n_boot > 0:
        rng = np.random.default_rng(seed)
        hs, hc = sums[at_home], counts[at_home]
        os_, oc = sums[~at_home], counts[~at_home]
        dh = rng.integers(0, kh, size=(n_boot, kh))
        do = rng.integers(0, ko, size=(n_boot, ko))
        boots = hs[dh].sum(1) / hc[dh].sum(1) - os_[do].sum(1) / oc[do].sum(1)
        tail = (1.0 - ci) / 2.0 * 100.0
        lo, hi = (float(x) for x in np.percentile(boots, [tail, 100.0 - tail]))
    return HomeBias(float(diff), lo, hi, float(home_mean), float(other_mean), kh, ko, nh, no,
                    reason, **tags)  # fmt: skip


def home_bias_for(
    language, values, countries, table=None, n_boot: int = 1000, seed: int = 0, ci: float = 0.95
) -> dict[str, HomeBias]:
    """H of a prompt language (a core/survey/languages.py Language, or its ISO 639 code) both ways:
    {"first": ..., "listed": ...}."""
    spoken = getattr(language, "spoken", None) or (language,)
    code = getattr(language, "code", str(language))
    if not spoken:
        return {m: _nan("the language file names no country language", language=code, mode=m)
                for m in MODES}  # fmt: skip
    return {
        m: home_bias(
            values,
            countries,
            home_countries(spoken, m, table),
            n_boot,
            seed,
            ci,
            language=code,
            mode=m,
        )  # fmt: skip
        for m in MODES
    }
