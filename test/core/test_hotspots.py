"""Spatial weights, local and global Moran's I, Gi*, adjusted p-values (no PySAL needed; the
comparison with PySAL's esda is in test/esda)."""

import numpy as np
import pytest

from geobias.core.geo.sampling import haversine_km
from geobias.core.stats.hotspots import (
    NO_NEIGHBOURS,
    NOT_SIGNIFICANT,
    getis_ord_star,
    gi_bins,
    global_moran,
    lisa_classes,
    local_moran,
    permutation_draws,
    points_moran,
)
from geobias.core.stats.multiple_testing import benjamini_hochberg, holm
from geobias.core.stats.spatial_weights import (
    distance_band_weights,
    knn_weights,
    spherical_centroid,
)


def grid(n=10):
    """Units on an n x n grid 1 km apart (planar), ids row by row."""
    x, y = np.meshgrid(np.arange(n, dtype=float), np.arange(n, dtype=float))
    return x.ravel(), y.ravel()


def test_knn_is_great_circle_across_the_antimeridian():
    lon = np.array([179.9, -179.9, 170.0, 160.0])
    lat = np.zeros(4)
    w = knn_weights(lon, lat, 1)
    # In degrees 179.9 and -179.9 are 359.8 apart; on the sphere 22 km.
    assert w.neighbours()[0].tolist() == [1] and w.neighbours()[1].tolist() == [0]
    assert w.cardinalities.tolist() == [1, 1, 1, 1]


def test_knn_never_counts_a_unit_as_its_own_neighbour_even_at_one_place():
    lon = np.array([0.0, 0.0, 0.0, 1.0, 2.0])
    lat = np.zeros(5)
    w = knn_weights(lon, lat, 2)
    for i, nb in enumerate(w.neighbours()):
        assert i not in nb and len(nb) == 2
    assert set(w.neighbours()[0]) == {1, 2}


def test_distance_band_in_km_on_the_sphere():
    lon = np.array([0.0, 0.0, 0.0, 10.0])
    lat = np.array([0.0, 0.9, 1.8, 0.0])  # 100 km apart along a meridian
    step = float(haversine_km(0, 0, 0, 0.9))
    w = distance_band_weights(lon, lat, step)  # a neighbour exactly at the band is inside
    assert [nb.tolist() for nb in w.neighbours()] == [[1], [0, 2], [1], []]
    assert w.islands.tolist() == [False, False, False, True]
    assert (w.adjacency != w.adjacency.T).nnz == 0  # symmetric
    assert w.row_standardised().sum(axis=1).A1.tolist() == [1.0, 1.0, 1.0, 0.0]


def test_planar_weights_in_km():
    x, y = grid(3)
    w = distance_band_weights(x, y, 1.0, geographic=False)
    assert w.cardinalities.reshape(3, 3).tolist() == [[2, 3, 2], [3, 4, 3], [2, 3, 2]]


def test_bad_weights_input_says_why():
    with pytest.raises(ValueError, match="more than 3 units"):
        knn_weights([0, 1, 2], [0, 0, 0], 3)
    with pytest.raises(ValueError, match="finite"):
        knn_weights([0, np.nan, 2], [0, 0, 0], 1)
    with pytest.raises(ValueError, match="longer than 0"):
        distance_band_weights([0, 1], [0, 0], 0)


def test_spherical_centroid_of_parts_across_the_antimeridian():
    lon, lat = spherical_centroid([179.0, -179.0], [-17.0, -17.0])
    assert abs(abs(lon) - 180.0) < 1e-9 and abs(lat + 17.0) < 0.01


def test_permutation_draws_are_distinct_and_uniform():
    rng = np.random.default_rng(0)
    draws = permutation_draws(rng, 10, 4, 20000)
    assert all(len(set(row)) == 4 for row in draws[:500].tolist())
    # Every column, on its own, is uniform over the pool (so are the first j columns).
    for col in range(4):
        counts = np.bincount(draws[:, col], minlength=10)
        assert np.all(np.abs(counts / 20000 - 0.1) < 0.012)


def test_local_moran_finds_a_planted_cluster():
    x, y = grid(10)
    rng = np.random.default_rng(4)
    value = rng.normal(0, 1, 100)
    hot = (x < 3) & (y < 3)
    cold = (x > 6) & (y > 6)
    value[hot] += 4
    value[cold] -= 4
    w = knn_weights(x, y, 4, geographic=False)
    res = local_moran(value, w, permutations=999, seed=1)
    classes = lisa_classes(res, 0.05)
    assert (classes[hot] == "HH").mean() >= 0.75
    assert (classes[cold] == "LL").mean() >= 0.75
    assert (classes[~hot & ~cold] == NOT_SIGNIFICANT).mean() > 0.8
    # The same seed gives the same p-values; another seed other ones.
    again = local_moran(value, w, permutations=999, seed=1)
    assert np.array_equal(res.p_sim, again.p_sim)
    assert not np.array_equal(res.p_sim, local_moran(value, w, 999, seed=2).p_sim)
    # The smallest p-value possible is 1 / (permutations + 1).
    assert res.p_sim.min() == pytest.approx(1 / 1000)


def test_local_moran_definition_on_a_small_example():
    # Path graph 0-1-2-3 with values 1, 2, 3, 10 (row-standardised lag: neighbours' mean z).
    y = np.array([1.0, 2.0, 3.0, 10.0])
    w = distance_band_weights([0, 1, 2, 3], [0, 0, 0, 0], 1.0, geographic=False)
    res = local_moran(y, w, permutations=0)
    z = (y - y.mean()) / y.std()
    lag = np.array([z[1], (z[0] + z[2]) / 2, (z[1] + z[3]) / 2, z[2]])
    assert np.allclose(res.I, 3 * z * lag / (z @ z), atol=1e-12)
    assert res.quadrant.tolist() == [3, 3, 2, 4]  # LL, LL, LH, HL
    assert np.isnan(res.p_sim).all()


def test_islands_have_no_class_and_no_gi():
    x = np.array([0.0, 1.0, 2.0, 50.0])
    w = distance_band_weights(x, np.zeros(4), 1.5, geographic=False)
    y = np.array([1.0, 2.0, 4.0, 3.0])
    res = local_moran(y, w, permutations=99)
    assert lisa_classes(res, 1.0)[3] == NO_NEIGHBOURS and np.isnan(res.p_sim[3])
    gi = getis_ord_star(y, w)
    assert np.isnan(gi.z[3]) and gi_bins(gi)[3] == 0


def test_gi_star_is_shift_invariant_and_signed_by_the_neighbourhood():
    x, y = grid(8)
    value = np.where((x < 3) & (y < 3), 1.0, 0.0) - 0.5  # a hot corner on negative-mean data
    w = distance_band_weights(x, y, 1.5, geographic=False)
    gi = getis_ord_star(value, w)
    shifted = getis_ord_star(value + 100.0, w)
    assert np.allclose(gi.z, shifted.z, atol=1e-9)
    assert gi.z[0] > 3 and gi_bins(gi)[0] == 3  # the corner is a hot spot at 99%
    assert gi.z[-1] < 0


def test_global_moran_sign():
    x, y = grid(8)
    w = distance_band_weights(x, y, 1.0, geographic=False)  # rook neighbours
    smooth = global_moran(x + y, w, permutations=199, seed=0)
    checker = global_moran(((x + y) % 2) * 2.0 - 1, w, permutations=199, seed=0)
    assert smooth.I > 0.8 and smooth.p_sim == pytest.approx(1 / 200)
    assert checker.I == pytest.approx(-1.0) and checker.z_norm < -5
    assert smooth.expected == pytest.approx(-1 / 63)


def test_constant_values_are_refused():
    w = knn_weights([0, 1, 2, 3], [0, 0, 0, 0], 1, geographic=False)
    with pytest.raises(ValueError, match="constant"):
        local_moran([2.0] * 4, w)
    with pytest.raises(ValueError, match="finite"):
        global_moran([1.0, np.nan, 2.0, 3.0], w)


def test_holm_and_benjamini_hochberg_match_their_definitions():
    p = np.array([0.01, 0.04, 0.03, 0.02, 0.05, np.nan])
    # R: p.adjust(c(.01, .04, .03, .02, .05), "holm") and "BH"
    assert np.allclose(holm(p)[:5], [0.05, 0.09, 0.09, 0.08, 0.09])
    assert np.allclose(benjamini_hochberg(p)[:5], [0.05] * 5)
    assert np.isnan(holm(p)[5]) and np.isnan(benjamini_hochberg(p)[5])
    assert np.allclose(benjamini_hochberg([0.001, 0.5, 0.04]), [0.003, 0.5, 0.06])
    with pytest.raises(ValueError):
        holm([1.2])


def test_adjusted_p_values_are_never_below_p():
    p = np.random.default_rng(3).uniform(size=997)
    assert (benjamini_hochberg(p) >= p).all() and (holm(p) >= p).all()


def test_points_moran_leaves_out_points_without_a_value():
    rng = np.random.default_rng(1)
    lon, lat = rng.uniform(-10, 10, 60), rng.uniform(40, 50, 60)
    value = lon + rng.normal(0, 1, 60)  # a west-east gradient clusters
    value[::7] = np.nan
    ok = np.isfinite(value)
    m = points_moran(lon, lat, value, k=5, permutations=99, seed=2)
    ref = global_moran(value[ok], knn_weights(lon[ok], lat[ok], 5), 99, 2)
    assert m.I == ref.I and m.p_sim == ref.p_sim and m.n == ok.sum() and m.I > 0.5
    assert points_moran(lon, lat, np.ones(60)) is None  # constant: nothing to measure
    assert points_moran(lon[:5], lat[:5], value[:5]) is None  # too few points


def test_a_moran_without_variance_has_no_z_and_no_warning():
    """Issue 28, item 8: 9 points with 8 neighbours each (every point the neighbour of all the
    others) give I = -1/(n-1) for every permutation: Var(I) is 0. A toolbox survey of 9 points
    logged numpy's "divide by zero" from here."""
    import warnings

    rng = np.random.default_rng(0)
    lon, lat = rng.uniform(0, 10, 9), rng.uniform(0, 10, 9)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m = points_moran(lon, lat, rng.normal(size=9))
    assert m.I == pytest.approx(-1 / 8) and m.expected == pytest.approx(-1 / 8)
    assert np.isnan(m.z_norm) and np.isnan(m.p_norm) and 0 <= m.p_sim <= 1
    assert np.isnan(m.z_sim)  # the permutation test has no spread either
