"""Rated points per census unit, and a bias measure against many census variables."""

import numpy as np
import pytest

from geobias.core.stats.aggregate import aggregate_units, first_unit
from geobias.core.stats.correlate import correlate_fields, significance_counts


def test_points_on_a_shared_border_count_once_in_the_first_unit():
    # point 0 in unit 1; point 1 on the border of units 2 and 0; point 2 nowhere
    unit = first_unit([0, 1, 1], [1, 2, 0], 3)
    assert unit.tolist() == [1, 0, -1]


def test_unit_summaries():
    unit = np.array([0, 0, 0, 1, 1, -1, 2])
    score = np.array([2.0, 4.0, np.nan, 6.0, 8.0, 5.0, np.nan])
    rank = np.array([0.1, 0.3, np.nan, 0.6, 0.9, 0.5, np.nan])
    error = np.array([-0.2, 0.2, np.nan, 0.4, np.nan, 0.0, np.nan])
    failed = np.array([0, 0, 0, 0, 0, 0, 1], bool)
    s = aggregate_units(unit, 4, score, rank, error, failed=failed, min_points=2)
    assert s.n_points.tolist() == [3, 2, 1, 0]
    assert s.n_scored.tolist() == [2, 2, 0, 0]
    # unit 0: 2 of 3 answered; unit 2: its only request failed, so nothing was asked
    assert np.allclose(s.answer_rate, [2 / 3, 1.0, np.nan, np.nan], equal_nan=True)
    assert np.allclose(s.mean_rating, [3.0, 7.0, np.nan, np.nan], equal_nan=True)
    assert np.allclose(s.mean_rank, [0.2, 0.75, np.nan, np.nan], equal_nan=True)
    assert np.allclose(s.mean_rank_error, [0.0, 0.4, np.nan, np.nan], equal_nan=True)
    assert s.few_points.tolist() == [False, False, True, True]
    assert s.n_outside == 1


def test_an_answered_point_without_a_score_counts_as_answered_but_not_in_the_means():
    s = aggregate_units([0, 0], 1, [np.nan, 3.0], answered=[True, True], min_points=2)
    assert s.answer_rate[0] == 1.0 and s.mean_rating[0] == 3.0 and s.few_points[0]


def test_bad_unit_index_is_refused():
    with pytest.raises(ValueError, match="outside"):
        aggregate_units([0, 3], 2, [1.0, 2.0])


def test_correlate_fields_with_adjusted_p_values():
    rng = np.random.default_rng(0)
    value = rng.normal(size=200)
    fields = {
        "related": value * 2 + rng.normal(scale=0.5, size=200),
        "noise": rng.normal(size=200),
        "constant": np.ones(200),
    }
    res = correlate_fields(value, fields, n_boot=200, seed=1)
    by = {r.field: r for r in res}
    assert by["related"].correlation.rho > 0.9 and by["related"].correlation.lo > 0.8
    assert by["constant"].correlation.reason == "constant reference values"
    assert np.isnan(by["constant"].p_holm)
    # Holm over the two tested variables doubles the smallest p-value (capped at 1).
    assert by["related"].p_holm == pytest.approx(min(1.0, 2 * by["related"].correlation.p))
    assert by["noise"].p_bh >= by["noise"].correlation.p
    assert significance_counts(res)[0] == 2


def test_correlate_fields_with_a_cluster_bootstrap():
    unit = np.repeat(np.arange(20), 5)
    census = np.repeat(np.arange(20.0), 5)
    value = census + np.random.default_rng(2).normal(scale=3, size=100)
    res = correlate_fields(value, {"census": census}, n_boot=200, clusters=unit)
    assert res[0].correlation.bootstrap == "clusters (20)"
