"""Survey points on the sphere: uniform, weighted (importance + farthest point) and grids.

All functions take and return longitude/latitude in degrees (WGS84); point arrays are (n, 2)
with [lon, lat] columns. Randomness comes from ``numpy.random.default_rng(seed)`` only.
"""

from __future__ import annotations

import numpy as np
from shapely.geometry import MultiPolygon, Polygon
from shapely.geometry.base import BaseGeometry

from ..messages import Message
from . import geometry

EARTH_RADIUS_KM = 6371.0088  # IUGG mean Earth radius
KM_PER_DEG = np.pi * EARTH_RADIUS_KM / 180.0
COMPASS8 = np.array(
    ["North", "North-East", "East", "South-East", "South", "South-West", "West", "North-West"]
)


# --- great-circle helpers --------------------------------------------------------------------


def haversine_km(lon1, lat1, lon2, lat2) -> np.ndarray:
    """Great-circle distance in km between points (broadcasting numpy arrays)."""
    lon1, lat1, lon2, lat2 = (
        np.radians(np.asarray(v, dtype=float)) for v in (lon1, lat1, lon2, lat2)
    )
    h = (
        np.sin((lat2 - lat1) / 2) ** 2
        + np.cos(lat1) * np.cos(lat2) * np.sin((lon2 - lon1) / 2) ** 2
    )
    return 2 * EARTH_RADIUS_KM * np.arcsin(np.sqrt(np.clip(h, 0.0, 1.0)))


def bearing_deg(lon1, lat1, lon2, lat2) -> np.ndarray:
    """Initial great-circle bearing from point 1 to point 2, degrees clockwise from north."""
    lon1, lat1, lon2, lat2 = (
        np.radians(np.asarray(v, dtype=float)) for v in (lon1, lat1, lon2, lat2)
    )
    dlon = lon2 - lon1
    y = np.sin(dlon) * np.cos(lat2)
    x = np.cos(lat1) * np.sin(lat2) - np.sin(lat1) * np.cos(lat2) * np.cos(dlon)
    return np.degrees(np.arctan2(y, x)) % 360.0


def compass8(bearing) -> np.ndarray:
    """8-point compass names (North, North-East, ...) for bearings in degrees; 45-degree sectors."""
    index = np.floor((np.asarray(bearing, dtype=float) % 360.0 + 22.5) / 45.0).astype(int) % 8
    return COMPASS8[index]


def lonlat_to_xyz(lon, lat) -> np.ndarray:
    """Unit vectors (n, 3) for lon/lat degrees (chord length is monotone in arc length)."""
    lon = np.radians(np.asarray(lon, dtype=float))
    lat = np.radians(np.asarray(lat, dtype=float))
    cos_lat = np.cos(lat)
    return np.stack([cos_lat * np.cos(lon), cos_lat * np.sin(lon), np.sin(lat)], axis=-1)


def chord_to_km(chord) -> np.ndarray:
    """Great-circle km for a chord length between unit vectors."""
    return 2 * EARTH_RADIUS_KM * np.arcsin(np.clip(np.asarray(chord, dtype=float) / 2, 0.0, 1.0))


def km_to_chord(km) -> np.ndarray:
    """Chord length between unit vectors for a great-circle distance in km."""
    return 2 * np.sin(np.minimum(np.asarray(km, dtype=float) / EARTH_RADIUS_KM, np.pi) / 2)


# --- regions ---------------------------------------------------------------------------------


def region_parts(region) -> list[Polygon]:
    """Check a lon/lat (Multi)Polygon and return its non-empty polygon parts, else ValueError."""
    if not isinstance(region, BaseGeometry):
        raise ValueError(Message("sampling.not_shapely", kind=repr(type(region))))
    if not isinstance(region, (Polygon, MultiPolygon)):
        raise ValueError(Message("sampling.not_polygon", kind=region.geom_type))
    if region.is_empty:
        raise ValueError(Message("sampling.empty"))
    if not region.is_valid:
        reason = geometry.is_valid_reason(region)
        raise ValueError(Message("sampling.invalid", reason=reason))
    minx, miny, maxx, maxy = region.bounds
    if miny < -90 or maxy > 90:
        raise ValueError(Message("sampling.latitudes", south=miny, north=maxy))
    parts = [p for p in getattr(region, "geoms", [region]) if not p.is_empty and p.area > 0]
    if not parts:
        raise ValueError(Message("sampling.no_area"))
    return parts


def spherical_bbox_area(bounds: np.ndarray) -> np.ndarray:
    """Area of lon/lat boxes (k, 4: minx, miny, maxx, maxy) on the unit sphere."""
    bounds = np.atleast_2d(bounds)
    dlon = np.radians(bounds[:, 2] - bounds[:, 0])
    return dlon * (np.sin(np.radians(bounds[:, 3])) - np.sin(np.radians(bounds[:, 1])))


def spherical_area_km2(region) -> float:
    """Area of a lon/lat region on the sphere, in km² (edges taken straight in lon/sin(lat))."""
    region_parts(region)
    # Lambert cylindrical equal-area: x = lon (rad), y = sin(lat); planar area there is exact.
    equal_area = geometry.transform(
        region, lambda c: np.column_stack([np.radians(c[:, 0]), np.sin(np.radians(c[:, 1]))])
    )
    return float(equal_area.area * EARTH_RADIUS_KM**2)


# --- uniform ---------------------------------------------------------------------------------


def sample_uniform(region, n: int, seed: int = 0) -> np.ndarray:
    """n points uniform on the sphere (equal area, not equal degrees) inside a lon/lat region."""
    parts = region_parts(region)
    if n < 0:
        raise ValueError(Message("sampling.negative_n"))
    if n == 0:
        return np.empty((0, 2))
    rng = np.random.default_rng(seed)
    bounds = np.array([p.bounds for p in parts])
    weight = spherical_bbox_area(bounds)
    weight = weight / weight.sum()
    for p in parts:
        geometry.prepare(p)
    sin_lo = np.sin(np.radians(bounds[:, 1]))
    sin_hi = np.sin(np.radians(bounds[:, 3]))
    chunks, have, accept_rate = [], 0, 0.5
    while have < n:
        size = int(min(max((n - have) / accept_rate * 1.2, 1024), 2_000_000))
        # A point drawn in part i's box is kept only if it lies in part i, so overlapping boxes
        # of different parts do not double the density there.
        part = rng.choice(len(parts), size=size, p=weight)
        lon = rng.uniform(bounds[part, 0], bounds[part, 2])
        lat = np.degrees(np.arcsin(rng.uniform(sin_lo[part], sin_hi[part])))
        keep = np.zeros(size, dtype=bool)
        for i in np.unique(part):
            sel = part == i
            keep[sel] = geometry.contains_xy(parts[i], lon[sel], lat[sel])
        accept_rate = max(keep.mean(), 1e-4)
        chunks.append(np.column_stack([lon[keep], lat[keep]]))
        have += int(keep.sum())
    return np.concatenate(chunks)[:n]


# --- weighted: importance + farthest point -----------------------------------------------------


def importance_pool(weights: np.ndarray, size: int, rng: np.random.Generator) -> np.ndarray:
    """Indices of `size` draws without replacement with probability proportional to weight."""
    w = np.nan_to_num(np.asarray(weights, dtype=float), nan=0.0)
    if (w < 0).any():
        raise ValueError(Message("sampling.negative_weights"))
    positive = np.flatnonzero(w > 0)
    size = min(size, positive.size)
    if size == 0:
        return np.empty(0, dtype=int)
    # Gumbel top-k: the `size` largest log(w) + Gumbel noise are a weighted draw without
    # replacement (Efraimidis & Spirakis); O(m) instead of numpy's sequential choice.
    keys = np.log(w[positive]) + rng.gumbel(size=positive.size)
    top = np.argpartition(-keys, size - 1)[:size]
    top = top[np.argsort(-keys[top])]
    return positive[top]


def farthest_point_order(xyz: np.ndarray, n: int, start: int = 0) -> np.ndarray:
    """Greedy farthest point sampling of n rows of unit vectors xyz (great-circle distances)."""
    n = min(n, len(xyz))
    chosen = np.empty(n, dtype=int)
    if n == 0:
        return chosen
    chosen[0] = start
    # Max cosine to the chosen set; the farthest point (in arc length) has the smallest one.
    nearest_cos = xyz @ xyz[start]
    for k in range(1, n):
        nxt = int(np.argmin(nearest_cos))
        chosen[k] = nxt
        np.maximum(nearest_cos, xyz @ xyz[nxt], out=nearest_cos)
    return chosen


def sample_weighted(
    candidates: np.ndarray, weights: np.ndarray, n: int, seed: int = 0, oversample: int = 10
) -> np.ndarray:
    """Indices of n candidates: an importance pool (p ∝ weight) thinned by farthest point sampling.

    The paper's 2,000-point maps combine importance sampling by population with farthest point
    sampling; `oversample` balances the two (1 = pure importance, larger = more even coverage).
    Fewer than n indices come back only when fewer than n candidates have a positive weight.
    The order is the farthest-point order, so any prefix is itself a well spread sample.
    """
    candidates = np.asarray(candidates, dtype=float)
    weights = np.asarray(weights, dtype=float)
    if candidates.ndim != 2 or candidates.shape[1] != 2:
        raise ValueError(Message("sampling.candidates"))
    if weights.shape != (len(candidates),):
        raise ValueError(Message("sampling.weights_shape"))
    if n < 0 or oversample < 1:
        raise ValueError(Message("sampling.oversample"))
    rng = np.random.default_rng(seed)
    pool = importance_pool(weights, max(n * int(oversample), n), rng)
    if n == 0 or pool.size == 0:
        return np.empty(0, dtype=int)
    xyz = lonlat_to_xyz(candidates[pool, 0], candidates[pool, 1])
    # The pool is in weighted-draw order, so starting at 0 starts from a weighted random point.
    return pool[farthest_point_order(xyz, n, start=0)]


# --- grids ---------------------------------------------------------------------------------


def _grid_in_parts(parts: list[Polygon], spacing_km: float, kind: str) -> np.ndarray:
    """Grid nodes inside the parts; rows and columns anchored globally so parts share one grid."""
    dlat = spacing_km / KM_PER_DEG
    if kind == "hex":
        dlat *= np.sqrt(3) / 2
    out = []
    for part in parts:
        geometry.prepare(part)
        minx, miny, maxx, maxy = part.bounds
        rows = np.arange(np.ceil(miny / dlat), np.floor(maxy / dlat) + 1)
        for row in rows:
            lat = row * dlat
            cos_lat = np.cos(np.radians(lat))
            if cos_lat < 1e-9:  # a pole: one node
                lons = np.array([0.0]) if minx <= 0 <= maxx else np.array([minx])
            else:
                dlon = min(spacing_km / (KM_PER_DEG * cos_lat), 360.0)
                offset = 0.5 * dlon if (kind == "hex" and int(row) % 2) else 0.0
                first = np.ceil((minx + 180 - offset) / dlon)
                last = np.floor((maxx + 180 - offset) / dlon)
                lons = np.arange(first, last + 1) * dlon - 180 + offset
            lats = np.full(lons.shape, lat)
            inside = geometry.contains_xy(part, lons, lats)
            if inside.any():
                out.append(np.column_stack([lons[inside], lats[inside]]))
    return np.concatenate(out) if out else np.empty((0, 2))


def sample_grid(
    region, n: int | None = None, spacing_km: float | None = None, kind: str = "square"
) -> np.ndarray:
    """A square or hexagonal grid inside region, spacing_km apart on the ground (or ≈ n points).

    Rows are spacing_km apart in latitude (hex: spacing·√3/2, alternate rows shifted half a
    step); along a row nodes are spacing_km apart, so cells keep their ground size at all
    latitudes. With n instead of spacing_km the spacing is chosen from the region's spherical
    area and refined so the count is close to n.
    """
    if kind not in ("square", "hex"):
        raise ValueError(Message("sampling.grid_kind", kind=kind))
    if (n is None) == (spacing_km is None):
        raise ValueError(Message("sampling.n_or_spacing"))
    parts = region_parts(region)
    if spacing_km is not None:
        if not spacing_km > 0:
            raise ValueError(Message("sampling.spacing"))
        return _grid_in_parts(parts, float(spacing_km), kind)
    if n <= 0:
        return np.empty((0, 2))
    return grid_for_count(region, n, kind)[0]


def grid_for_count(region, n: int, kind: str = "square") -> tuple[np.ndarray, float]:
    """(nodes, spacing_km) of the square or hexagonal grid whose count is closest to n found.

    A grid places only certain counts in a region (its nodes inside the boundary): the spacing
    starts from the region's spherical area / n and is rescaled by the count ratio up to four
    times, keeping the closest count. Callers say so when it is not n.
    """
    if kind not in ("square", "hex"):
        raise ValueError(f"kind must be 'square' or 'hex', got {kind!r}")
    parts = region_parts(region)
    cell = spherical_area_km2(region) / n
    spacing = np.sqrt(cell if kind == "square" else 2 * cell / np.sqrt(3))
    points = _grid_in_parts(parts, spacing, kind)
    for _ in range(4):  # boundary effects: rescale by the count ratio, keep the closest
        if len(points) == n:
            break
        trial_spacing = spacing * np.sqrt(max(len(points), 1) / n)
        trial = _grid_in_parts(parts, trial_spacing, kind)
        if abs(len(trial) - n) < abs(len(points) - n):
            points, spacing = trial, trial_spacing
        else:
            break
    return points, float(spacing)
