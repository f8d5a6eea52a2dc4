"""Rated points summarised per areal unit (census tract, district, country).

Each point belongs to at most one unit (the caller decides which one for a point on a shared
border). Means are over the points that have the value; a unit with fewer scored points than
`min_points` is flagged, not dropped, so a map can grey it out and statistics can leave it out.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class UnitSummary:
    """Per-unit arrays (length n_units); NaN where a unit has no value to average."""

    n_points: np.ndarray  # points in the unit (failed requests included)
    n_scored: np.ndarray  # points with a score
    answer_rate: np.ndarray  # answered / (points − failed requests)
    mean_rating: np.ndarray
    mean_rank: np.ndarray
    mean_rank_error: np.ndarray
    few_points: np.ndarray  # True where n_scored < min_points
    n_outside: int  # points in no unit


def _mean(unit, values, n_units):
    ok = (unit >= 0) & np.isfinite(values)
    count = np.bincount(unit[ok], minlength=n_units).astype(float)
    total = np.bincount(unit[ok], weights=values[ok], minlength=n_units)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, total / np.maximum(count, 1), np.nan), count


def aggregate_units(
    unit,
    n_units: int,
    score,
    rank=None,
    rank_error=None,
    answered=None,
    failed=None,
    min_points: int = 5,
) -> UnitSummary:
    """Summaries per unit from each point's unit index (−1: in no unit).

    `answered` marks points whose completion held a rating (default: a finite score);
    `failed` marks requests that failed after retries: they were not asked, so they count
    neither as answered nor in the answer rate's denominator, as in core.metrics.summarize.
    """
    unit = np.asarray(unit, dtype=np.int64).ravel()
    n = len(unit)
    score = np.asarray(score, dtype=float).ravel()
    if len(score) != n:
        raise ValueError(f"{len(score)} scores for {n} points")
    if n and (unit.max(initial=-1) >= n_units or unit.min(initial=0) < -1):
        raise ValueError("a unit index lies outside 0..n_units − 1")
    nan = np.full(n, np.nan)
    rank = nan if rank is None else np.asarray(rank, float).ravel()
    rank_error = nan if rank_error is None else np.asarray(rank_error, float).ravel()
    failed = np.zeros(n, bool) if failed is None else np.asarray(failed, bool).ravel()
    answered = np.isfinite(score) if answered is None else np.asarray(answered, bool).ravel()
    answered = answered & ~failed
    inside = unit >= 0
    n_points = np.bincount(unit[inside], minlength=n_units)
    n_asked = np.bincount(unit[inside & ~failed], minlength=n_units)
    n_answered = np.bincount(unit[inside & answered], minlength=n_units)
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = np.where(n_asked > 0, n_answered / np.maximum(n_asked, 1), np.nan)
    scored = np.where(answered, score, np.nan)
    mean_rating, n_scored = _mean(unit, scored, n_units)
    return UnitSummary(
        n_points=n_points,
        n_scored=n_scored.astype(np.int64),
        answer_rate=rate,
        mean_rating=mean_rating,
        mean_rank=_mean(unit, np.where(answered, rank, np.nan), n_units)[0],
        mean_rank_error=_mean(unit, np.where(answered, rank_error, np.nan), n_units)[0],
        few_points=n_scored < min_points,
        n_outside=int((~inside).sum()),
    )


def first_unit(point_idx, unit_idx, n_points: int) -> np.ndarray:
    """Each point's unit from (point, unit) hit pairs: the lowest unit index when a point lies
    on a border shared by several, −1 when it lies in none. So every point counts once."""
    point_idx = np.asarray(point_idx, dtype=np.int64)
    unit_idx = np.asarray(unit_idx, dtype=np.int64)
    out = np.full(n_points, -1, dtype=np.int64)
    if len(point_idx):
        order = np.lexsort((unit_idx, point_idx))
        p, u = point_idx[order], unit_idx[order]
        first = np.unique(p, return_index=True)[1]
        out[p[first]] = u[first]
    return out
