"""Regions from any coordinate system to lon/lat: densified, split at ±180, polar caps closed.

A polygon drawn or stored in a projected CRS does not map to lon/lat vertex by vertex: an area
around Fiji in EPSG:3832 has vertices at lon 179 and -179 that a straight lon/lat edge joins
the long way round (a 358°-wide polygon), and a circle around the North Pole in EPSG:3413 has
no lon/lat ring at all without the pole. Here each ring is densified in its own CRS, projected,
its longitudes unwrapped along the ring, a ring that winds once around a pole is closed through
that pole, and the result is cut at ±180 into parts with longitudes in [-180, 180].
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from shapely.geometry import MultiPolygon, Polygon, box
from shapely.geometry.base import BaseGeometry

from ..messages import Message
from . import geometry

# Densify every ring to at least this many segments along the larger side of its bounds.
SEGMENTS = 512

Project = Callable[[np.ndarray, np.ndarray], "tuple[np.ndarray, np.ndarray]"]


def unwrap_longitudes(lon: np.ndarray) -> np.ndarray:
    """Longitudes along a path with every step taken the short way (no jump larger than 180°)."""
    lon = np.asarray(lon, dtype=float)
    if len(lon) < 2:
        return lon.copy()
    step = np.diff(lon)
    step -= 360.0 * np.round(step / 360.0)
    return np.concatenate([lon[:1], lon[0] + np.cumsum(step)])


def wrap_longitudes(lon) -> np.ndarray:
    """Longitudes in [-180, 180] (180 stays 180)."""
    lon = np.asarray(lon, dtype=float)
    out = (lon + 180.0) % 360.0 - 180.0
    return np.where((out == -180.0) & (lon > 0), 180.0, out)


def _ring_lonlat(
    ring: np.ndarray, project: Project, pole_inside: Callable[[float], bool]
) -> Polygon | None:
    """One densified ring as a polygon in unwrapped lon/lat, closed through a pole it winds."""
    lon, lat = project(ring[:, 0], ring[:, 1])
    ok = np.isfinite(lon) & np.isfinite(lat)
    lon, lat = unwrap_longitudes(np.asarray(lon)[ok]), np.clip(np.asarray(lat)[ok], -90, 90)
    if len(lon) < 4:
        return None
    winding = lon[-1] - lon[0]
    if abs(winding) > 180.0:  # once around a pole: close the ring through it
        pole = 90.0 if pole_inside(90.0) else -90.0
        lon = np.concatenate([lon, [lon[-1], lon[0], lon[0]]])
        lat = np.concatenate([lat, [pole, pole, lat[0]]])
    poly = Polygon(np.column_stack([lon, lat]))
    if not poly.is_valid:
        poly = geometry.make_valid(poly)
    return poly if not poly.is_empty and poly.area > 0 else None


def _shift_near(geom: BaseGeometry, reference: BaseGeometry) -> BaseGeometry:
    """geom shifted by whole turns so its longitudes overlap the reference's (holes vs shell)."""
    g0, _, g1, _ = geom.bounds
    r0, _, r1, _ = reference.bounds
    turns = np.round(((g0 + g1) / 2 - (r0 + r1) / 2) / 360.0)
    if turns == 0:
        return geom
    return geometry.transform(geom, lambda c: c - np.array([360.0 * turns, 0.0]))


def _split_at_antimeridian(geom: BaseGeometry) -> list[Polygon]:
    """Parts of an unwrapped lon/lat geometry, each moved into [-180, 180]."""
    minx, _, maxx, _ = geom.bounds
    parts = []
    for k in range(int(np.floor((minx + 180.0) / 360.0)), int(np.ceil((maxx - 180.0) / 360.0)) + 1):
        window = box(-180.0 + 360.0 * k, -90.0, 180.0 + 360.0 * k, 90.0)
        piece = geom.intersection(window)
        if piece.is_empty:
            continue
        if k:
            piece = geometry.transform(piece, lambda c, k=k: c - np.array([360.0 * k, 0.0]))
        parts += [p for p in _polygons(piece) if p.area > 0]
    return parts


def _polygons(geom: BaseGeometry) -> list[Polygon]:
    if isinstance(geom, Polygon):
        return [] if geom.is_empty else [geom]
    return [p for part in getattr(geom, "geoms", []) for p in _polygons(part)]


def region_to_lonlat(
    shape: BaseGeometry,
    project: Project,
    contains_pole: Callable[[float], bool] | None = None,
    segments: int = SEGMENTS,
) -> Polygon | MultiPolygon:
    """A (Multi)Polygon in any CRS as a valid lon/lat (Multi)Polygon within [-180, 180].

    `project(x, y) -> (lon, lat)` maps arrays of the CRS's coordinates (non-finite where it
    cannot); `contains_pole(lat)` says whether the polygon holds the pole at lat ±90 (e.g. by
    projecting the pole into the CRS); without it a ring around a pole is closed through the
    pole on its own side of the equator. Raises ValueError when nothing with an area is left.
    """
    parts = []
    for poly in _polygons(shape):
        minx, miny, maxx, maxy = poly.bounds
        step = max(maxx - minx, maxy - miny) / max(int(segments), 8)
        dense = geometry.segmentize(poly, step) if step > 0 else poly
        shell_coords = np.asarray(dense.exterior.coords)
        shell_lat = project(shell_coords[:, 0], shell_coords[:, 1])[1]

        def pole_inside(pole, shell_lat=shell_lat):
            if contains_pole is not None:
                return bool(contains_pole(pole))
            return (np.nanmean(shell_lat) >= 0) == (pole > 0)

        shell = _ring_lonlat(shell_coords, project, pole_inside)
        if shell is None:
            continue
        holes = [_ring_lonlat(np.asarray(r.coords), project, pole_inside) for r in dense.interiors]
        holes = [_shift_near(h, shell) for h in holes if h is not None]
        if holes:
            shell = shell.difference(geometry.union_all(holes))
        parts += _split_at_antimeridian(shell)
    if not parts:
        raise ValueError(Message("regions.no_area"))
    region = geometry.union_all(parts)
    if not region.is_valid:
        region = geometry.make_valid(region)
    # make_valid can leave a sliver of a closing point's rounding (area ~1e-27 deg² beside a
    # 1,700 deg² quadrilateral drawn on the map): a part with no area to speak of is dropped.
    found = list(_polygons(region))
    tiny = 1e-12 * sum(p.area for p in found)
    polygons = [p for p in found if p.area > tiny]
    if not polygons:
        raise ValueError(Message("regions.no_area"))
    return polygons[0] if len(polygons) == 1 else MultiPolygon(polygons)
