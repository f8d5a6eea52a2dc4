"""The few shapely operations GeoBias needs, the same on shapely 1.8 and 2.x.

QGIS users get the shapely their distribution ships: Debian 12 has 1.8.5, Debian 13, OSGeo4W
and conda have 2.x. Both must be built on the GEOS that QGIS itself loads (see host.py), so
GeoBias takes whichever is installed; every version difference lives here and nowhere else.
"""

from __future__ import annotations

import numpy as np
import shapely
from shapely.geometry import box  # noqa: F401  (re-exported: the same on 1.8 and 2.x)

# By what the module offers, not by its version: Debian sid's python3-shapely 2.1 reports
# "0+unknown" (built without version metadata).
SHAPELY2 = hasattr(shapely, "from_wkb")

if SHAPELY2:
    GEOS_VERSION = tuple(shapely.geos_version)
else:  # 1.8: the version lives in shapely.geos
    from shapely import ops, validation, vectorized, wkb
    from shapely.geos import geos_version as GEOS_VERSION  # noqa: N812


def geos_version() -> tuple[int, int, int]:
    """(major, minor, patch) of the GEOS library this shapely calls."""
    return tuple(int(v) for v in GEOS_VERSION[:3])


def contains_xy(geom, x, y) -> np.ndarray:
    """Whether each point (x[i], y[i]) lies in the interior of geom (boolean array)."""
    return _points_in(geom, x, y, boundary=False)


def intersects_xy(geom, x, y) -> np.ndarray:
    """Whether each point lies in geom or on its boundary (boolean array)."""
    return _points_in(geom, x, y, boundary=True)


def _points_in(geom, x, y, boundary: bool) -> np.ndarray:
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    if x.size == 0:
        return np.zeros(x.shape, dtype=bool)
    if SHAPELY2:
        return (shapely.intersects_xy if boundary else shapely.contains_xy)(geom, x, y)
    inside = vectorized.contains(geom, x, y)  # prepares geom on each call
    return inside | vectorized.touches(geom, x, y) if boundary else inside


def prepare(geom) -> None:
    """Prepare geom in place for repeated point tests (2.x; 1.8 prepares per call instead)."""
    if SHAPELY2:
        shapely.prepare(geom)


def transform(geom, func):
    """A copy of geom with func applied to its coordinates, an (n, 2) array -> (n, 2) array."""
    if SHAPELY2:
        return shapely.transform(geom, func)

    def xy(x, y, z=None):
        out = np.asarray(func(np.column_stack([x, y])), dtype=float)
        return out[:, 0], out[:, 1]

    return ops.transform(xy, geom)


def is_valid_reason(geom) -> str:
    """Why geom is invalid ("Valid Geometry" when it is), as GEOS says it."""
    if SHAPELY2:
        return shapely.is_valid_reason(geom)
    return validation.explain_validity(geom)


def make_valid(geom):
    """geom repaired by GEOS's MakeValid (unchanged when already valid)."""
    if SHAPELY2:
        return shapely.make_valid(geom)
    return geom if geom.is_valid else validation.make_valid(geom)


def union_all(geoms):
    """The union of a sequence of geometries."""
    if SHAPELY2:
        return shapely.union_all(list(geoms))
    return ops.unary_union(list(geoms))


def from_wkb(data: bytes):
    """A geometry from WKB bytes."""
    if SHAPELY2:
        return shapely.from_wkb(bytes(data))
    return wkb.loads(bytes(data))


def polygons_hit(polygons, x, y) -> tuple[np.ndarray, np.ndarray]:
    """(polygon index, point index) pairs where point i lies in (or on) polygon j.

    Shapely 2 queries an STRtree of the points with each polygon (prepared once); 1.8's
    STRtree returns geometries rather than indices, so there each polygon tests the points
    inside its bounding box.
    """
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    if not len(polygons) or not x.size:
        return np.empty(0, dtype=np.intp), np.empty(0, dtype=np.intp)
    if SHAPELY2:
        tree = shapely.STRtree(shapely.points(x, y))
        poly_idx, point_idx = tree.query(list(polygons), predicate="intersects")
        return poly_idx.astype(np.intp), point_idx.astype(np.intp)
    poly_out, point_out = [], []
    for j, poly in enumerate(polygons):
        minx, miny, maxx, maxy = poly.bounds
        near = np.flatnonzero((x >= minx) & (x <= maxx) & (y >= miny) & (y <= maxy))
        hit = near[intersects_xy(poly, x[near], y[near])]
        poly_out.append(np.full(hit.size, j, dtype=np.intp))
        point_out.append(hit)
    return np.concatenate(poly_out), np.concatenate(point_out)


def segmentize(polygon, max_length: float):
    """A Polygon with vertices added so no edge is longer than max_length (ring by ring)."""
    if SHAPELY2:
        return shapely.segmentize(polygon, max_length)
    from shapely.geometry import Polygon

    def dense(ring):
        c = np.asarray(ring.coords)[:, :2]
        seg = np.hypot(*np.diff(c, axis=0).T)
        n = np.maximum(1, np.ceil(seg / max_length).astype(int))
        t = np.concatenate([np.arange(k) / k for k in n])
        start = np.repeat(np.arange(len(seg)), n)
        pts = c[start] + (c[start + 1] - c[start]) * t[:, None]
        return np.vstack([pts, c[-1:]])

    return Polygon(dense(polygon.exterior), [dense(r) for r in polygon.interiors])
