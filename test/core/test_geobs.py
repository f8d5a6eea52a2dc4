"""GeoBS scores: hand-computed cases, known patterns, the permutation moments by enumeration,
and the cross-check against PyGBS's published tables (test/core/data, MIT, see its README)."""

import csv
import itertools
import math
import warnings
from pathlib import Path

import numpy as np
import pytest

from geobias.core.geo.sampling import EARTH_RADIUS_KM, haversine_km
from geobias.core.stats import geobs
from geobias.core.stats.geobs import (
    GeoBSSettings,
    bin_errors,
    direction_sri,
    geobs_scores,
    hit_miss,
    km_from_radians,
    lag_sri,
    neighbour_pairs,
    scale_sri,
    ssi,
)

PYGBS = Path(__file__).parent / "data" / "pygbs_fmow_sentinel_subset.csv"
KM_PER_DEG = math.pi * EARTH_RADIUS_KM / 180


@pytest.fixture(autouse=True)
def no_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


def grid(n_side=60, step=0.5, lon0=0.0, lat0=0.0):
    """A regular lon/lat grid near the equator (about 55 km apart)."""
    lo, la = np.meshgrid(lon0 + step * np.arange(n_side), lat0 + step * np.arange(n_side))
    return lo.ravel(), la.ravel()


# --- classes and distances -------------------------------------------------------------------


def test_bin_errors_codes_symmetric_odd_and_keeps_nan():
    e = [-0.5, -0.25, -0.1, 0.0, 0.1, 0.3, np.nan]
    np.testing.assert_array_equal(bin_errors(e), [-3, -1, -1, 1, 1, 3, np.nan])
    np.testing.assert_array_equal(bin_errors([0.5, 2.5], edges=[1.0]), [-1, 1])
    with pytest.raises(ValueError, match="even number"):
        bin_errors(e, edges=[0.0, 1.0])
    with pytest.raises(ValueError, match="increase"):
        bin_errors(e, edges=[1.0, 0.0, 2.0])
    np.testing.assert_array_equal(hit_miss([1, 0, np.nan, True]), [1, -1, np.nan, 1])


def test_neighbour_pairs_are_great_circle_within_the_radius():
    rng = np.random.default_rng(0)
    lon, lat = rng.uniform(-180, 180, 400), np.degrees(np.arcsin(rng.uniform(-1, 1, 400)))
    i, j, km = neighbour_pairs(lon, lat, 2000.0)
    ref = haversine_km(lon[:, None], lat[:, None], lon[None], lat[None])
    assert len(i) == int((ref <= 2000.0).sum())
    np.testing.assert_allclose(km, ref[i, j], atol=1e-6)
    assert np.all(km[i == j] == 0)
    assert km_from_radians(0.05) == pytest.approx(318.55, abs=0.01)


# --- SRI: hand-computed cases ----------------------------------------------------------------


def two_rings():
    """A centre and 4 points 50 km away (class A), 5 points 150 km away (class B)."""
    bearings = np.radians([0, 90, 180, 270])
    lon, lat = [0.0], [0.0]
    for d, n in ((50.0, 4), (150.0, 5)):
        for b in np.linspace(0, 2 * np.pi, n, endpoint=False) if n == 5 else bearings:
            lat.append(d / KM_PER_DEG * np.cos(b))
            lon.append(d / KM_PER_DEG * np.sin(b))
    values = np.array([1.0] * 5 + [-1.0] * 5)
    return np.array(lon), np.array(lat), values


def test_lag_sri_by_hand():
    lon, lat, v = two_rings()
    r = lag_sri(lon, lat, v, radius_km=200.0, lag_km=100.0, min_points=5)
    # Neighbourhood of the centre: P = (1/2, 1/2); the rings: Q = (1, 0) and (0, 1), each half
    # of the points: SRI = 1/2 ln 2 + 1/2 ln 2.
    assert r.n_neighbours[0] == 10 and r.n_parts[0] == 2
    assert r.local[0] == pytest.approx(math.log(2))
    # PyGBS's direction D(P || Q + smooth): each ring misses one class.
    eps = 1e-8
    r2 = lag_sri(lon, lat, v, 200.0, 100.0, 5, divergence="global||local", smooth=eps)
    one = 0.5 * math.log(0.5 / (1 + eps)) + 0.5 * math.log(0.5 / eps)
    assert r2.local[0] == pytest.approx(one)
    # With parts of at least 6 points no part qualifies: the centre is not evaluated.
    r3 = lag_sri(lon, lat, v, 200.0, 100.0, min_points=6)
    assert np.isnan(r3.local[0]) and r3.n_parts[0] == 0


def test_direction_and_scale_sri_by_hand():
    # East of the centre one class, west the other: two sectors split them exactly.
    lon = np.array([0.0, 0.5, 0.6, 0.7, -0.5, -0.6, -0.7])
    lat = np.array([0.0, 0.1, -0.1, 0.0, 0.1, -0.1, 0.0])
    v = np.array([1.0, 1, 1, 1, -1, -1, -1])
    d = direction_sri(lon, lat, v, 150.0, n_sectors=2, min_points=3)
    # The centre has no direction: the sectors hold 3 + 3 of the 7 points, P = (3/7, 4/7).
    p_east, p_west = 4 / 7, 3 / 7
    want = 3 / 7 * math.log(1 / p_east) + 3 / 7 * math.log(1 / p_west)
    assert d.local[0] == pytest.approx(want)
    # Sectors starting east (90 degrees) cut north/south instead: both mix the classes.
    turned = direction_sri(lon, lat, v, 150.0, n_sectors=2, min_points=3, start_deg=90.0)
    assert turned.local[0] < d.local[0] / 4
    # 1-degree cells anchored at the centre (a corner): only the cell north-east of it holds 3
    # points (the centre and two east of it), all of one class.
    s = scale_sri(lon, lat, v, 150.0, scale_deg=1.0, min_points=3)
    assert s.n_parts[0] == 1 and s.local[0] == pytest.approx(3 / 7 * math.log(1 / p_east))


def test_sri_random_field_near_zero_clustered_high_gradient_in_direction():
    rng = np.random.default_rng(3)
    lon, lat = grid()
    random_field = hit_miss(rng.random(len(lon)) < 0.5)
    blocks = hit_miss((np.floor(lon / 5) + np.floor(lat / 5)) % 2 == 0)  # 550 km checkerboard
    # Hits rise and fall from west to east (meridian bands 440 km wide, a little noise).
    east_west = hit_miss(np.sin(2 * np.pi * lon / 8) + rng.normal(0, 0.3, len(lon)) > 0)
    rand = [f(lon, lat, random_field, 400.0, size, 10)
            for f, size in ((scale_sri, 2.0), (lag_sri, 100.0), (direction_sri, 8))]  # fmt: skip
    assert max(r.score for r in rand) < 0.05  # sampling noise only: about (K - 1) / (2 n) nats
    clustered = scale_sri(lon, lat, blocks, 400.0, 2.0, 10)
    assert clustered.score > 10 * rand[0].score
    # The east-west gradient: sectors east and west of a centre differ, rings around it do not.
    d = direction_sri(lon, lat, east_west, 400.0, 8, 10)
    lag = lag_sri(lon, lat, east_west, 400.0, 100.0, 10)
    assert d.score > 3 * rand[2].score and d.score > 3 * lag.score


def test_sri_degenerate_inputs():
    r = lag_sri([], [], [], 100.0, 10.0)
    assert np.isnan(r.score) and "no points" in r.reason
    r = lag_sri([0.0, 50.0], [0.0, 0.0], [1.0, -1.0], 100.0, 10.0, min_points=2)
    assert np.isnan(r.score) and "no part" in r.reason and np.isnan(r.local).all()
    with pytest.raises(ValueError, match="length"):
        lag_sri([0.0], [0.0, 1.0], [1.0], 100.0, 10.0)
    with pytest.raises(ValueError, match="divergence"):
        lag_sri([0.0], [0.0], [1.0], 100.0, 10.0, divergence="kl")


# --- SSI -------------------------------------------------------------------------------------


def ring_graph_stats(nb, k):
    """S1 and S2 of a directed k-nearest-neighbour graph (rows of neighbour indices)."""
    n = len(nb)
    w = np.zeros((n, n))
    w[np.repeat(np.arange(n), k), nb.ravel()] = 1
    s1 = 0.5 * ((w + w.T) ** 2).sum()
    s2 = ((w.sum(axis=1) + w.sum(axis=0)) ** 2).sum()
    return w, s1, s2


def test_exact_moments_equal_enumeration_of_every_arrangement():
    rng = np.random.default_rng(1)
    pts = rng.normal(size=(8, 3))
    k = 2
    nb = geobs._knn(pts, k)
    w, s1, s2 = ring_graph_stats(nb, k)
    values = np.array([0.0, 0, 0, 0, 0, 1, 1, 2])
    arrangements = {p for p in itertools.permutations(values)}
    stats = []
    for a in arrangements:
        z = np.array(a) - values.mean()
        stats.append(z @ w @ z)
    z = values - values.mean()
    n = float(len(values))
    m2, m4 = (z**2).mean(), (z**4).mean()
    mu, sigma = geobs._exact_moments(n, k, m2, m4, s1, s2)
    assert mu == pytest.approx(np.mean(stats))
    assert sigma == pytest.approx(np.std(stats))


def test_wang2024_mean_by_hand_for_two_classes():
    # Two classes 0 (n0 = 6) and 1 (n1 = 4), k = 4, N = 10: a_0 = -0.4, a_1 = 0.6;
    # mu = 2 a0 a1 k n0 n1 / N + a0^2 (k n0 (n0 - 1) / N - 1) + a1^2 (k n1 (n1 - 1) / N - 1)
    mu, sigma = geobs._wang2024_moments(np.array([0.0, 1.0]), np.array([[6.0, 4.0]]), 4)
    want = (
        2 * -0.4 * 0.6 * 4 * 6 * 4 / 10 + 0.16 * (4 * 6 * 5 / 10 - 1) + 0.36 * (4 * 4 * 3 / 10 - 1)
    )
    assert mu[0] == pytest.approx(want)
    # Majority class 0 eliminated: only class 1's own term, (1 - 0)^4 2 (n1 - 1) (k n1 / N)...
    var = 2 * 3 * (4 * 4 / 10) * (1 - 4 * 7 / 30)
    assert sigma[0] == pytest.approx(math.sqrt(var))


def test_ssi_random_field_is_unsurprising_clustered_is_surprising():
    rng = np.random.default_rng(2)
    lon, lat = grid(40)
    random_field = hit_miss(rng.random(len(lon)) < 0.5)
    halves = hit_miss(lon > 10 + rng.normal(0, 2, len(lon)))
    kw = {"radius_km": 300.0, "density": 1.0}  # background sparser than the grid
    rand = ssi(lon, lat, random_field, **kw)
    clus = ssi(lon, lat, halves, **kw)
    assert rand.n_evaluated == len(lon) and rand.moments == "exact"
    # For a random arrangement z is standard normal: mean z^2 near 1 (here on 1,600 centres).
    assert 0.6 < np.nanmean(rand.z**2) < 1.6
    split = np.abs(lon - 10) < 3  # neighbourhoods that hold both classes
    assert np.nanmean(clus.z[split] ** 2) > 3 * np.nanmean(rand.z[split] ** 2)
    assert np.nanmean(clus.local[split]) > np.nanmean(rand.local[split]) + 1
    # SSI = z^2 / 2 + ln(sigma sqrt(2 pi)), so the clustered field scores higher overall.
    assert clus.score > rand.score


def test_ssi_centres_sample_and_degenerate():
    lon, lat = grid(20)
    v = hit_miss(lon > 5)
    r = ssi(lon, lat, v, 300.0, max_centres=50, seed=4)
    assert r.n_centres == 50 and np.isfinite(r.local).sum() == r.n_evaluated <= 50
    again = ssi(lon, lat, v, 300.0, max_centres=50, seed=4)
    np.testing.assert_array_equal(np.isnan(r.local), np.isnan(again.local))
    only = ssi(lon, lat, v, 300.0, centres=[0, 5])
    assert only.n_centres == 2 and np.isfinite(only.local[[0, 5]]).all()
    assert np.isnan(ssi([0.0, 1.0], [0.0, 0.0], None, 10.0).score)
    with pytest.raises(ValueError, match="reserved"):
        ssi(lon, lat, np.zeros(len(lon)), 300.0)
    with pytest.raises(ValueError, match="moments"):
        ssi(lon, lat, v, 300.0, moments="approx")


# --- PyGBS's published tables ----------------------------------------------------------------


def pygbs_table():
    with open(PYGBS, newline="") as f:
        rows = list(csv.DictReader(f))

    def col(name):
        return np.array([float(r[name]) if r[name] else np.nan for r in rows])

    return np.degrees(col("long")), np.degrees(col("lat")), col


def test_pygbs_sri_table_neighbourhoods_and_empty_parts():
    # sri_threshold_10_radius_0.05_n-splits_8_lag_0.01_scale_0.01: every score is 0 because no
    # part of any neighbourhood reaches 10 points; 'weight' is the neighbourhood size.
    lon, lat, col = pygbs_table()
    v = hit_miss(col("hit1"))
    r = km_from_radians(0.05)
    for result in (direction_sri(lon, lat, v, r, 8), lag_sri(lon, lat, v, r, km_from_radians(0.01)),
                   scale_sri(lon, lat, v, r, math.degrees(0.01))):  # fmt: skip
        np.testing.assert_array_equal(result.n_neighbours, col("sri_weight"))
        assert result.n_evaluated == 0 and np.isnan(result.local).all()


def test_pygbs_ssi_table_reproduced_with_the_papers_moments():
    # ssi_radius_0.075: unmarked (pnp) and marked (rp, hit@1 as +1/-1) SSI where the
    # neighbourhood holds at least 5 points, auto background density, k = 4.
    lon, lat, col = pygbs_table()
    r = km_from_radians(0.075)
    kw = {"moments": "wang2024", "last_ring": "beyond", "min_points": 5}
    unmarked = ssi(lon, lat, None, r, **kw)
    marked = ssi(lon, lat, hit_miss(col("hit1")), r, **kw)
    listed = np.isfinite(col("pnp_ssi"))
    np.testing.assert_array_equal(np.isfinite(unmarked.local), listed)
    np.testing.assert_array_equal(unmarked.n_neighbours[listed], col("ssi_weight")[listed])
    # Rows 4 and 17: the k-nearest graph has exact ties among the regular background rings,
    # which PyGBS breaks by rounding noise and GeoBias by point order (docs/method.md).
    ties = np.zeros(len(lon), bool)
    ties[[4, 17]] = True
    np.testing.assert_allclose(unmarked.local[listed & ~ties], col("pnp_ssi")[listed & ~ties],
                               rtol=1e-7)  # fmt: skip
    assert np.all(np.abs(unmarked.local[ties] - col("pnp_ssi")[ties]) < 0.2)
    # Marked: exact where the neighbourhood holds misses only (two classes with the
    # background); with hits and misses PyGBS's variance uses an asymmetric class-pair
    # coefficient where the paper's is (c_p - c_r)(c_q - c_r): a gap below 0.01 nats.
    hits = np.array([
        (col("hit1")[np.abs(haversine_km(lon[i], lat[i], lon, lat)) <= r] > 0).any()
        for i in range(len(lon))
    ])  # fmt: skip
    single = listed & ~ties & ~hits
    assert single.sum() >= 10
    np.testing.assert_allclose(marked.local[single], col("rp_ssi")[single], rtol=1e-7)
    both = listed & ~ties & hits
    assert both.sum() >= 5
    np.testing.assert_allclose(marked.local[both], col("rp_ssi")[both], atol=0.01)
    assert not np.allclose(marked.local[both], col("rp_ssi")[both], atol=1e-6)
    # GeoBias's default, the exact permutation moments, differs from the approximation.
    exact = ssi(lon, lat, None, r, min_points=5, last_ring="beyond")
    assert np.nanmax(np.abs(exact.local - col("pnp_ssi"))) > 1.0


# --- all scores ------------------------------------------------------------------------------


def test_geobs_scores_skip_missing_values_and_map_back():
    rng = np.random.default_rng(5)
    lon, lat = grid(30)
    errors = rng.normal(0, 0.3, len(lon))
    errors[::7] = np.nan
    codes = bin_errors(errors)
    s = GeoBSSettings(radius_km=400.0, scale_deg=2.0, lag_km=100.0, min_points=8)
    out = geobs_scores(lon, lat, codes, s)
    missing = np.isnan(errors)
    for part in (out.scale, out.lag, out.direction, out.ssi):
        assert np.isnan(part.local[missing]).all()
        assert part.n_neighbours[missing].sum() == 0
    alone = lag_sri(lon[~missing], lat[~missing], codes[~missing], 400.0, 100.0, 8)
    np.testing.assert_allclose(out.lag.local[~missing], alone.local)
    summary = out.summary()
    assert set(summary) >= {"ssi", "sri_scale", "sri_lag", "sri_direction", "ssi_n"}
    assert summary["sri_lag"] == pytest.approx(alone.score)
    assert out.settings.as_dict()["radius_km"] == 400.0


# --- ties and blocks -------------------------------------------------------------------------


def test_knn_gives_a_tie_to_the_lower_index_however_many_points_tie():
    # A point with two nearer points and 12 points equidistant on a circle around it (exact
    # ties up to rounding), listed in a shuffled order: its 4 nearest are the two nearer ones
    # and the two lowest indices of the circle, though the circle is longer than 4 + 5.
    rng = np.random.default_rng(7)
    angles = np.radians(30.0 * np.arange(12))
    theta = 0.01
    circle = np.stack([np.sin(theta) * np.cos(angles), np.sin(theta) * np.sin(angles),
                       np.full(12, np.cos(theta))], axis=1)  # fmt: skip
    near = np.array([[0.003, 0.0, 1.0], [0.0, -0.004, 1.0]])
    near /= np.linalg.norm(near, axis=1)[:, None]
    order = rng.permutation(12)
    pts = np.concatenate([[[0.0, 0.0, 1.0]], near, circle[order]])
    nb = geobs._knn(pts, 4)
    assert sorted(nb[0].tolist()) == [1, 2, 3, 4]
    # The same within groups: a second copy of the set, moved and rotated, as its own group.
    turn = np.array([[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 0.0]])
    both = geobs._knn(np.concatenate([pts, pts @ turn.T]), 4, sizes=[len(pts), len(pts)])
    np.testing.assert_array_equal(np.sort(both[: len(pts)], axis=1), np.sort(nb, axis=1))
    np.testing.assert_array_equal(np.sort(both[len(pts) :], axis=1), np.sort(nb, axis=1) + 15)


def test_scores_by_blocks_equal_one_block(monkeypatch):
    rng = np.random.default_rng(8)
    lon, lat = rng.uniform(0, 40, 1500), rng.uniform(-20, 20, 1500)
    codes = bin_errors(rng.normal(0, 0.3, 1500) + lon / 100)
    s = GeoBSSettings(radius_km=500.0, scale_deg=2.0, lag_km=150.0, max_centres=300)
    whole = geobs_scores(lon, lat, codes, s)
    # Every pair in one block: the SRIs on neighbour_pairs of the sorted points.
    order = geobs._spatial_order(lon, lat)
    pairs = neighbour_pairs(lon[order], lat[order], s.radius_km)
    one = lag_sri(lon[order], lat[order], codes[order], s.radius_km, s.lag_km, pairs=pairs)
    np.testing.assert_array_equal(one.local, whole.lag.local[order])
    monkeypatch.setattr(geobs, "BLOCK_PAIRS", 2_000)
    monkeypatch.setattr(geobs, "BLOCK_POINTS", 500)
    small = geobs_scores(lon, lat, codes, s)
    for name in ("scale", "lag", "direction", "ssi"):
        a, b = getattr(whole, name), getattr(small, name)
        np.testing.assert_array_equal(a.local, b.local)
        assert a.score == b.score and a.n_evaluated == b.n_evaluated


def test_scaled_settings_give_the_card_its_radius_and_a_region_its_own():
    rng = np.random.default_rng(9)
    # 2,000 points uniform on the sphere: 82 neighbours lie within about 1,300 km.
    lon = rng.uniform(-180, 180, 2000)
    lat = np.degrees(np.arcsin(rng.uniform(-1, 1, 2000)))
    world = geobs.scaled_settings(lon, lat)
    i, _j, _km = neighbour_pairs(lon, lat, world.radius_km)
    sizes = np.bincount(i, minlength=2000)  # self included: the 82nd neighbour is the 83rd
    assert abs(np.median(sizes) - 83) <= 1
    assert world.scale_deg / world.radius_km == pytest.approx(10.0 / 1500.0)
    assert world.lag_km / world.radius_km == pytest.approx(500.0 / 1500.0)
    # 250 points in a 1-degree square: a fifth of them (50) within the radius, a few tens of km.
    small = geobs.scaled_settings(rng.uniform(0, 1, 250), rng.uniform(0, 1, 250))
    assert 10 < small.radius_km < 60 and small.k == 4 and small.max_centres == 2000
