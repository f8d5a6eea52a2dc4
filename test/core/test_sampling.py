"""Tests for core/geo/sampling.py: spherical uniform sampling, importance + FPS, grids, bearings."""

import numpy as np
import pytest
from shapely.geometry import MultiPolygon, Point, Polygon, box

from geobias.core.geo import sampling as s

WORLD = box(-180, -90, 180, 90)


def inside(geom, x, y):
    """Point-by-point containment with the shapely API common to 1.8 and 2.x (the reference)."""
    return np.array([geom.contains(Point(a, b)) for a, b in zip(x, y)])


def test_uniform_is_uniform_on_sphere_not_in_degrees():
    pts = s.sample_uniform(WORLD, 20000, seed=1)
    above = (pts[:, 1] > 60).mean()
    assert above == pytest.approx((1 - np.sin(np.radians(60))) / 2, abs=0.008)
    assert abs(above - 30 / 180) > 0.05  # the degree fraction would be 1/6


def test_uniform_points_inside_concave_region_and_deterministic():
    ell = Polygon([(0, 0), (10, 0), (10, 2), (2, 2), (2, 10), (0, 10)])
    a = s.sample_uniform(ell, 3000, seed=7)
    assert a.shape == (3000, 2)
    assert inside(ell, a[:, 0], a[:, 1]).all()
    assert np.array_equal(a, s.sample_uniform(ell, 3000, seed=7))
    assert not np.array_equal(a, s.sample_uniform(ell, 3000, seed=8))


def test_uniform_multipolygon_with_overlapping_part_boxes_keeps_density():
    # A C-shaped part whose box contains an island part: boxes overlap, density must not double.
    c_shape = Polygon([(0, 0), (10, 0), (10, 1), (1, 1), (1, 9), (10, 9), (10, 10), (0, 10)])
    island = box(4, 4, 6, 6)
    region = MultiPolygon([c_shape, island])
    pts = s.sample_uniform(region, 20000, seed=3)
    in_island = inside(island, pts[:, 0], pts[:, 1]).mean()
    share = s.spherical_area_km2(island) / s.spherical_area_km2(region)
    assert in_island == pytest.approx(share, abs=0.01)


def test_uniform_antimeridian_and_pole():
    fiji = MultiPolygon([box(175, -20, 180, -15), box(-180, -20, -175, -15)])
    pts = s.sample_uniform(fiji, 4000, seed=0)
    assert inside(fiji, pts[:, 0], pts[:, 1]).all()
    assert (pts[:, 0] > 0).mean() == pytest.approx(0.5, abs=0.04)
    cap = box(-180, 80, 180, 90)
    pts = s.sample_uniform(cap, 4000, seed=0)
    assert (pts[:, 1] >= 80).all() and (pts[:, 1] <= 90).all()
    # uniform on the sphere: sin(lat) is uniform between sin(80) and 1
    z = (np.sin(np.radians(pts[:, 1])) - np.sin(np.radians(80))) / (1 - np.sin(np.radians(80)))
    assert z.mean() == pytest.approx(0.5, abs=0.02)


def test_uniform_edge_cases():
    assert s.sample_uniform(box(0, 0, 1, 1), 0).shape == (0, 2)
    bowtie = Polygon([(0, 0), (1, 1), (1, 0), (0, 1)])
    for bad in (Polygon(), bowtie, Point(0, 0), "world", box(0, 80, 1, 100)):
        with pytest.raises(ValueError):
            s.sample_uniform(bad, 10)


def _random_candidates(m, seed=0):
    rng = np.random.default_rng(seed)
    lon = rng.uniform(-180, 180, m)
    lat = np.degrees(np.arcsin(rng.uniform(-1, 1, m)))
    return np.column_stack([lon, lat]), rng.pareto(1.5, m)


def test_weighted_indices_unique_deterministic_and_skip_zero_weight():
    cand, w = _random_candidates(5000)
    w[:1000] = 0
    idx = s.sample_weighted(cand, w, 300, seed=2)
    assert len(idx) == 300 and len(set(idx.tolist())) == 300
    assert (idx >= 1000).all()
    assert np.array_equal(idx, s.sample_weighted(cand, w, 300, seed=2))
    assert len(s.sample_weighted(cand, w, 0)) == 0
    assert len(s.sample_weighted(cand[:5], np.array([1, 0, 2, 0, 0.0]), 10)) == 2


def test_weighted_follows_weights_and_fps_spreads():
    cand, _ = _random_candidates(20000, seed=1)
    w = np.where(cand[:, 0] > 0, 9.0, 1.0)  # east nine times as heavy as west
    pure = s.sample_weighted(cand, w, 400, seed=0, oversample=1)
    assert (cand[pure, 0] > 0).mean() == pytest.approx(0.9, abs=0.05)
    spread = s.sample_weighted(cand, w, 400, seed=0, oversample=20)

    def min_gap_km(idx):
        xyz = s.lonlat_to_xyz(cand[idx, 0], cand[idx, 1])
        d = np.linalg.norm(xyz[:, None] - xyz[None], axis=-1) + 10 * np.eye(len(idx))
        return s.chord_to_km(d.min())

    assert min_gap_km(spread) > 2 * min_gap_km(pure)


def test_weighted_fps_uses_great_circle_not_degrees():
    # A and B are 22 km apart across the pole but 180 degrees apart in longitude.
    cand = np.array([[0.0, 89.9], [180.0, 89.9], [0.0, 60.0]])
    for seed in range(20):
        pair = set(s.sample_weighted(cand, np.ones(3), 2, seed=seed, oversample=5).tolist())
        assert pair != {0, 1}


def test_weighted_rejects_bad_shapes():
    with pytest.raises(ValueError):
        s.sample_weighted(np.zeros((3, 3)), np.ones(3), 1)
    with pytest.raises(ValueError):
        s.sample_weighted(np.zeros((3, 2)), np.ones(4), 1)
    with pytest.raises(ValueError):
        s.sample_weighted(np.zeros((3, 2)), -np.ones(3), 1)


@pytest.mark.parametrize("kind", ["square", "hex"])
def test_grid_count_and_inside(kind):
    region = box(-10, 40, 10, 60)
    pts = s.sample_grid(region, n=500, kind=kind)
    assert abs(len(pts) - 500) <= 25
    assert inside(region, pts[:, 0], pts[:, 1]).all()


def test_square_grid_spacing_is_ground_distance_at_all_latitudes():
    pts = s.sample_grid(box(0, 0, 20, 70), spacing_km=100)
    for lat in np.unique(pts[:, 1])[[0, -1]]:
        row = np.sort(pts[pts[:, 1] == lat, 0])
        gaps = s.haversine_km(row[:-1], lat, row[1:], lat)
        assert np.allclose(gaps, 100, rtol=0.01)
    lats = np.unique(pts[:, 1])
    assert np.allclose(s.haversine_km(0, lats[:-1], 0, lats[1:]), 100, rtol=1e-6)


def test_hex_rows_are_offset():
    pts = s.sample_grid(box(0, -5, 10, 5), spacing_km=200, kind="hex")
    lats = np.unique(pts[:, 1])
    first = [pts[pts[:, 1] == lat, 0].min() for lat in lats[:2]]
    assert abs(first[0] - first[1]) > 0.5  # alternate rows shifted by half a step
    assert np.allclose(s.haversine_km(0, lats[:-1], 0, lats[1:]), 200 * np.sqrt(3) / 2)


def test_grid_arguments():
    with pytest.raises(ValueError):
        s.sample_grid(box(0, 0, 1, 1))
    with pytest.raises(ValueError):
        s.sample_grid(box(0, 0, 1, 1), n=5, spacing_km=10)
    with pytest.raises(ValueError):
        s.sample_grid(box(0, 0, 1, 1), n=5, kind="triangle")


def test_distance_bearing_compass():
    assert s.haversine_km(0, 0, 0, 90) == pytest.approx(np.pi / 2 * s.EARTH_RADIUS_KM)
    assert s.haversine_km(2.3522, 48.8566, -0.1276, 51.5072) == pytest.approx(343.6, abs=1.5)
    b = s.bearing_deg(0, 0, np.array([0, 1, 0, -1]), np.array([1, 0, -1, 0]))
    assert np.allclose(b, [0, 90, 180, 270])
    # initial bearing along a great circle, not the rhumb line: atan(sqrt 2) from 45N to 90E
    assert s.bearing_deg(0, 45, 90, 45) == pytest.approx(np.degrees(np.arctan(np.sqrt(2))))
    names = s.compass8([0, 22.4, 22.6, 90, 135, 180, 225, 270, 315, 337.6, 359.9, -45])
    assert names.tolist() == [
        "North", "North", "North-East", "East", "South-East", "South",
        "South-West", "West", "North-West", "North", "North", "North-West",
    ]  # fmt: skip


def test_spherical_area():
    assert s.spherical_area_km2(WORLD) == pytest.approx(4 * np.pi * s.EARTH_RADIUS_KM**2)
    assert s.spherical_area_km2(box(0, 0, 1, 1)) == pytest.approx(s.KM_PER_DEG**2, rel=1e-4)
