"""core/geo/geometry.py gives the same answers on shapely 1.8 (Debian 12) and 2.x.

`make test-core` runs this on the venv's shapely 2.1, `make test-floor` on 2.0, `make
test-shapely18` on Debian's 1.8.5; GEOBIAS_EXPECT_SHAPELY, set by each target, makes sure each
really imports the one it names.
"""

import os

import numpy as np
import pytest
import shapely
from shapely.geometry import MultiPolygon, Point, Polygon, box

from geobias.core.geo import geometry

BOWTIE = Polygon([(0, 0), (2, 2), (2, 0), (0, 2)])


def test_the_expected_shapely_is_imported():
    version = shapely.__version__.split(".")
    if shapely.__version__.startswith("0+"):  # a build without version metadata (Debian sid)
        assert geometry.SHAPELY2, "only shapely 2 builds have shipped without a version"
        return
    assert tuple(int(v) for v in version[:2]) >= (1, 8), "GeoBias supports shapely 1.8 and 2.x"
    assert geometry.SHAPELY2 == (version[0] == "2")
    want = os.environ.get("GEOBIAS_EXPECT_SHAPELY")  # set by the make targets
    if want:
        assert version[: len(want.split("."))] == want.split("."), shapely.__file__


def test_geos_version_is_three_numbers():
    version = geometry.geos_version()
    assert len(version) == 3 and all(isinstance(v, int) for v in version)
    assert version >= (3, 8, 0)


def test_contains_and_intersects_xy_differ_on_the_boundary():
    square = box(0, 0, 2, 2)
    x, y = [1.0, 2.0, 3.0], [1.0, 1.0, 1.0]  # inside, on the edge, outside
    assert geometry.contains_xy(square, x, y).tolist() == [True, False, False]
    assert geometry.intersects_xy(square, x, y).tolist() == [True, True, False]
    assert geometry.contains_xy(square, [], []).shape == (0,)


def test_prepare_keeps_answers():
    ell = Polygon([(0, 0), (10, 0), (10, 2), (2, 2), (2, 10), (0, 10)])
    geometry.prepare(ell)
    assert geometry.contains_xy(ell, [1, 5, 5], [5, 1, 5]).tolist() == [True, True, False]


def test_transform_applies_an_array_function_to_every_ring():
    holed = Polygon(box(0, 0, 4, 4).exterior.coords, [box(1, 1, 2, 2).exterior.coords])
    moved = geometry.transform(holed, lambda c: c * 2 + np.array([10.0, 0.0]))
    assert moved.bounds == (10.0, 0.0, 18.0, 8.0)
    assert moved.area == pytest.approx(4 * holed.area)
    multi = geometry.transform(MultiPolygon([box(0, 0, 1, 1), box(2, 2, 3, 3)]), lambda c: -c)
    assert multi.geom_type == "MultiPolygon" and multi.bounds == (-3.0, -3.0, 0.0, 0.0)


def test_validity_reason_and_repair():
    assert not BOWTIE.is_valid
    assert "Self-intersection" in geometry.is_valid_reason(BOWTIE)
    assert geometry.is_valid_reason(box(0, 0, 1, 1)) == "Valid Geometry"
    fixed = geometry.make_valid(BOWTIE)
    assert fixed.is_valid and fixed.area == pytest.approx(2.0)
    square = box(0, 0, 1, 1)
    assert geometry.make_valid(square).equals(square)


def test_union_all_merges_overlaps():
    union = geometry.union_all([box(0, 0, 2, 2), box(1, 1, 3, 3), box(10, 10, 11, 11)])
    assert union.geom_type == "MultiPolygon"
    assert union.area == pytest.approx(8.0)


def test_from_wkb_round_trip():
    geom = MultiPolygon([box(0, 0, 1, 1), box(2, 2, 3, 5)])
    assert geometry.from_wkb(geom.wkb).equals(geom)
    assert geometry.from_wkb(bytearray(Point(1.5, -2).wkb)).coords[0] == (1.5, -2.0)


def test_polygons_hit_pairs_points_with_every_polygon_that_holds_them():
    polygons = [box(0, 0, 2, 2), box(2, 0, 4, 2), box(10, 10, 11, 11)]
    x = np.array([1.0, 2.0, 3.0, 50.0, 10.5])
    y = np.array([1.0, 1.0, 1.0, 50.0, 10.5])
    poly, point = geometry.polygons_hit(polygons, x, y)
    pairs = sorted(zip(poly.tolist(), point.tolist()))
    # The point on the shared edge (2, 1) is in both; the far point in none.
    assert pairs == [(0, 0), (0, 1), (1, 1), (1, 2), (2, 4)]
    empty = geometry.polygons_hit(polygons, [], [])
    assert empty[0].size == 0 and empty[1].size == 0
    assert geometry.polygons_hit([], x, y)[0].size == 0


def test_box_is_a_polygon():
    world = geometry.box(-180, -90, 180, 90)
    assert world.geom_type == "Polygon" and world.area == 64800
