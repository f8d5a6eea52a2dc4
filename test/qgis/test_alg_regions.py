"""Regions in projected CRSs through geobias:samplepoints (issue 13, item 8): study areas across
the antimeridian (EPSG:3832, EPSG:3460, lon/lat past 180) and around the North Pole (EPSG:3413)."""

import numpy as np
import pytest
from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsCoordinateTransform,
    QgsFeature,
    QgsGeometry,
    QgsPointXY,
    QgsProject,
    QgsVectorLayer,
)

from geobias.core.geo.sampling import haversine_km

WGS84 = QgsCoordinateReferenceSystem("EPSG:4326")
FIJI = (176.0, -20.0, 182.0, -15.0)  # lon/lat, through the antimeridian


def run(alg, params):
    import processing

    return processing.run(alg, params)


def layer_of(wkt, crs):
    layer = QgsVectorLayer(f"Polygon?crs={crs}", "region", "memory")
    feature = QgsFeature()
    feature.setGeometry(QgsGeometry.fromWkt(wkt))
    layer.dataProvider().addFeatures([feature])
    return layer


def projected_bounds(crs, lon0, lat0, lon1, lat1):
    """Bounds in `crs` of a lon/lat box given with lon1 > 180 (the box through the antimeridian)."""
    ct = QgsCoordinateTransform(WGS84, QgsCoordinateReferenceSystem(crs), QgsProject.instance())
    grid = [
        (lon, lat) for lon in np.linspace(lon0, lon1, 25) for lat in np.linspace(lat0, lat1, 11)
    ]
    pts = [ct.transform(QgsPointXY((lon + 180) % 360 - 180, lat)) for lon, lat in grid]
    xs, ys = [p.x() for p in pts], [p.y() for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def lonlat(layer):
    pts = [f.geometry().asPoint() for f in layer.getFeatures()]
    return np.array([p.x() for p in pts]), np.array([p.y() for p in pts])


def around_fiji(lon, lat, margin=0.0):
    east = lon >= FIJI[0] - margin
    west = lon <= FIJI[2] - 360 + margin
    return (east | west) & (lat >= FIJI[1] - margin) & (lat <= FIJI[3] + margin)


@pytest.mark.parametrize("crs", ["EPSG:3832", "EPSG:3460"])
def test_projected_region_across_the_antimeridian_samples_fiji(processing_ready, crs):
    x0, y0, x1, y1 = projected_bounds(crs, *FIJI)
    region = layer_of(f"POLYGON(({x0} {y0},{x1} {y0},{x1} {y1},{x0} {y1},{x0} {y0}))", crs)
    out = run("geobias:samplepoints", {"REGION": region, "COUNT": 100, "METHOD": 0, "SEED": 3,
                                       "OUTPUT": "memory:"})  # fmt: skip
    lon, lat = lonlat(out["OUTPUT"])
    assert len(lon) == 100 and np.abs(lon).max() <= 180
    # A projected rectangle is a little wider than the lon/lat box it was drawn around.
    margin = 0.0 if crs == "EPSG:3832" else 0.6
    assert around_fiji(lon, lat, margin).all()
    assert (lon < 0).sum() > 5 and (lon > 0).sum() > 30  # both sides of 180


def test_extent_across_the_antimeridian(processing_ready):
    x0, y0, x1, y1 = projected_bounds("EPSG:3832", *FIJI)
    out = run("geobias:samplepoints", {"EXTENT": f"{x0},{x1},{y0},{y1} [EPSG:3832]", "COUNT": 50,
                                       "METHOD": 0, "OUTPUT": "memory:"})  # fmt: skip
    lon, lat = lonlat(out["OUTPUT"])
    assert len(lon) == 50 and around_fiji(lon, lat).all()


def test_lonlat_region_past_180_gives_longitudes_within_180(processing_ready):
    w, s, e, n = FIJI
    region = layer_of(f"POLYGON(({w} {s},{e} {s},{e} {n},{w} {n},{w} {s}))", "EPSG:4326")
    for method in (0, 3, 4):  # uniform, square grid, hex grid
        out = run("geobias:samplepoints", {"REGION": region, "COUNT": 60, "METHOD": method,
                                           "OUTPUT": "memory:"})  # fmt: skip
        lon, lat = lonlat(out["OUTPUT"])
        assert len(lon) >= 40 and np.abs(lon).max() <= 180 and around_fiji(lon, lat).all()
        assert (lon < 0).any() and (lon > 0).any()


def test_circle_around_the_north_pole_in_epsg_3413(processing_ready):
    circle = QgsGeometry.fromPointXY(QgsPointXY(0, 0)).buffer(1_000_000, 64)
    region = layer_of(circle.asWkt(), "EPSG:3413")
    uniform = run("geobias:samplepoints", {"REGION": region, "COUNT": 200, "METHOD": 0,
                                           "OUTPUT": "memory:"})["OUTPUT"]  # fmt: skip
    lon, lat = lonlat(uniform)
    d = haversine_km(0, 90, lon, lat)
    # 1,000 km on the map is about 1,030 km on the ground at the pole (scale true at 70°N).
    assert len(d) == 200 and d.max() < 1050
    assert d.min() < 200 and 550 < d.mean() < 800  # spread over the cap, not on its rim
    grid = run("geobias:samplepoints", {"REGION": region, "COUNT": 100, "METHOD": 3,
                                        "OUTPUT": "memory:"})  # fmt: skip
    lon, lat = lonlat(grid["OUTPUT"])
    d = haversine_km(0, 90, lon, lat)
    assert 70 <= grid["N_POINTS"] <= 130 and d.max() < 1050 and d.min() < 200
