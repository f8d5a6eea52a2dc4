"""Regions from projected coordinates to lon/lat (issue 13, item 8): antimeridian and poles.

The projections here are the spherical formulas of the real CRSs (PDC Mercator, EPSG:3832,
centred at 150°E; a north polar stereographic like EPSG:3413); the QGIS tests run the EPSG
codes themselves through geobias:samplepoints.
"""

import numpy as np
import pytest
from shapely.geometry import Point, Polygon, box

from geobias.core.geo.regions import region_to_lonlat, unwrap_longitudes, wrap_longitudes
from geobias.core.geo.sampling import EARTH_RADIUS_KM as R
from geobias.core.geo.sampling import haversine_km, sample_grid, sample_uniform

FIJI = (176.0, -20.0, 182.0, -15.0)  # lon 176..182 = 176..180 and -180..-178


def mercator_150(x, y):
    """Inverse spherical Mercator with central meridian 150°E (as EPSG:3832), km."""
    lon = np.degrees(np.asarray(x) / R) + 150.0
    lat = np.degrees(2 * np.arctan(np.exp(np.asarray(y) / R)) - np.pi / 2)
    return wrap_longitudes(lon), lat


def to_mercator_150(lon, lat):
    x = R * np.radians((np.asarray(lon) - 150.0 + 180.0) % 360.0 - 180.0)
    return x, R * np.log(np.tan(np.pi / 4 + np.radians(np.asarray(lat)) / 2))


def polar_north(x, y, lon0=-45.0):
    """Inverse spherical north polar stereographic (pole at 0, 0), km."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    rho = np.hypot(x, y)
    lat = 90.0 - 2 * np.degrees(np.arctan(rho / (2 * R)))
    return wrap_longitudes(lon0 + np.degrees(np.arctan2(x, -y))), lat


def in_fiji(pts):
    lon, lat = pts[:, 0], pts[:, 1]
    return ((lon >= 176) | (lon <= -178)) & (lat >= -20) & (lat <= -15)


def test_unwrap_and_wrap_longitudes():
    assert unwrap_longitudes([178, 179.5, -179.5, -178]).tolist() == [178, 179.5, 180.5, 182]
    assert wrap_longitudes([182, -181, 180, 540, -180]).tolist() == [-178, 179, 180, 180, -180]


def test_projected_area_across_the_antimeridian_stays_around_fiji():
    x0, y0 = to_mercator_150(FIJI[0], FIJI[1])
    x1, y1 = to_mercator_150(182.0, FIJI[3])
    region = region_to_lonlat(box(x0, y0, x1, y1), mercator_150)
    assert region.geom_type == "MultiPolygon" and len(region.geoms) == 2
    minx, miny, maxx, maxy = region.bounds
    assert (
        (minx, maxx) == (-180.0, 180.0)
        and miny == pytest.approx(-20)
        and maxy == pytest.approx(-15)
    )
    assert sum(g.area for g in region.geoms) == pytest.approx(6 * 5, rel=1e-3)  # not 354° wide
    pts = sample_uniform(region, 100, seed=0)
    assert in_fiji(pts).all()
    assert (pts[:, 0] < 0).sum() > 10 and (pts[:, 0] > 0).sum() > 40  # both sides, by area


def test_lonlat_polygon_past_180_is_split_and_normalised():
    region = region_to_lonlat(box(*FIJI), lambda x, y: (x, y))
    pts = sample_uniform(region, 200, seed=1)
    assert np.abs(pts[:, 0]).max() <= 180 and in_fiji(pts).all()
    grid = sample_grid(region, n=60)
    assert np.abs(grid[:, 0]).max() <= 180 and in_fiji(grid).all() and 40 <= len(grid) <= 80


def test_hole_across_the_antimeridian_stays_a_hole():
    x0, y0 = to_mercator_150(176.0, -20.0)
    x1, y1 = to_mercator_150(182.0, -15.0)
    hx0, hy0 = to_mercator_150(178.5, -18.5)
    hx1, hy1 = to_mercator_150(181.5, -16.5)
    ring = box(x0, y0, x1, y1).exterior.coords
    hole = box(hx0, hy0, hx1, hy1).exterior.coords
    region = region_to_lonlat(Polygon(ring, [hole]), mercator_150)
    pts = sample_uniform(region, 300, seed=2)
    lon_u = np.where(pts[:, 0] < 0, pts[:, 0] + 360, pts[:, 0])
    in_hole = (lon_u > 178.5) & (lon_u < 181.5) & (pts[:, 1] > -18.5) & (pts[:, 1] < -16.5)
    assert in_fiji(pts).all() and not in_hole.any()


def test_circle_around_the_north_pole_is_a_polar_cap():
    radius_km = 1000.0
    rho = 2 * R * np.tan(radius_km / R / 2)  # polar stereographic radius of that circle
    circle = Point(0, 0).buffer(rho, 256)
    region = region_to_lonlat(circle, polar_north, contains_pole=lambda lat: lat > 0)
    minx, miny, maxx, maxy = region.bounds
    assert (minx, maxx, maxy) == (-180, 180, 90)
    assert miny == pytest.approx(90 - np.degrees(radius_km / R), abs=0.01)
    pts = sample_uniform(region, 500, seed=0)
    d = haversine_km(0, 90, pts[:, 0], pts[:, 1])
    assert d.max() <= radius_km + 1
    # Uniform on the cap, not on its rim: mean distance ≈ 2/3 of the radius.
    assert d.mean() == pytest.approx(2 / 3 * radius_km, rel=0.06) and d.min() < 150
    grid = sample_grid(region, n=100)
    dg = haversine_km(0, 90, grid[:, 0], grid[:, 1])
    assert 70 <= len(grid) <= 130 and dg.max() <= radius_km + 1 and dg.min() < 150


def test_ring_around_the_south_pole_without_a_pole_test():
    def polar_south(x, y):
        lon, lat = polar_north(x, y, lon0=0.0)
        return lon, -lat

    rho = 2 * R * np.tan(800.0 / R / 2)
    region = region_to_lonlat(Point(0, 0).buffer(rho, 128), polar_south)
    assert region.bounds[1] == -90 and region.bounds[3] == pytest.approx(
        -90 + np.degrees(800 / R), abs=0.01
    )


def test_region_outside_the_projection_is_an_error():
    with pytest.raises(ValueError, match="no area"):
        region_to_lonlat(box(0, 0, 1, 1), lambda x, y: (np.full(len(x), np.nan), y))


def test_a_quadrilateral_drawn_on_the_map_stays_one_polygon():
    # Four clicks on a lon/lat map (CI stop 30's desktop run): make_valid had left a sliver of
    # area 1e-27 beside the 1,735 deg² area, so the study area came out as a MultiPolygon.
    clicked = [
        (-12.035297190703481, 4.983888475969841),
        (30.03743226481207, 5.030042739538812),
        (29.98451092962666, 50.028681152508526),
        (-5.015170909811749, 50.035143074570826),
    ]
    region = region_to_lonlat(Polygon(clicked), lambda x, y: (np.asarray(x), np.asarray(y)))
    assert region.geom_type == "Polygon"
    assert region.area == pytest.approx(Polygon(clicked).area, rel=1e-9)
