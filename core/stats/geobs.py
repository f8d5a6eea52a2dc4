"""GeoBS geo-bias scores of per-point errors: spatial self-information (SSI) and spatial
relative information (SRI) with its scale-grid, distance-lag and direction-sector partitions.

Reference: Z. Wang, N. Wu, Q. Cao, J. Xia, Z. Liu, Y. Xie, A. Nambi, T. Ganu, N. Lao, N. Liu,
G. Mai, "GeoBS: Information-Theoretic Quantification of Geographic Bias in AI Models",
arXiv 2509.23482 (2025); reference code seai-lab/PyGBS (MIT). The SSI rests on Z. Wang,
K. Janowicz, G. Mai, I. Majic, "Probing the Information Theoretical Roots of Spatial Dependence
Measures", COSIT 2024 (arXiv 2405.18459). GeoBias's own implementation: great-circle distances
(unit vectors, chord kd-trees), centres block by block with numpy (every array a few MB, see
BLOCK_PAIRS); where it differs from PyGBS
(listed in docs/method.md, "GeoBS scores") it says so in the function's notes.

Errors are per point: a rank error, an absolute error, a hit/miss indicator. The SSI and SRI
work on discrete classes: :func:`bin_errors` bins continuous errors into stated classes and
:func:`hit_miss` codes an indicator. Class codes are non-zero because 0 is the code of the SSI's
generated background points (as in PyGBS); codes are symmetric around 0 so that a balanced
field has the background's value as its mean.

Distances are kilometres on a sphere of radius ``EARTH_RADIUS_KM`` and grid cells are degrees
(GeoBS and PyGBS state them in radians of arc: 0.05 rad = 318.6 km, see ``km_from_radians``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy, scipy and shapely are imported where scores are computed
    import numpy as np

__all__ = [
    "RANK_ERROR_EDGES",
    "GeoBSSettings",
    "GeoBSScores",
    "SRIResult",
    "SSIResult",
    "bin_errors",
    "direction_sri",
    "geobs_scores",
    "hit_miss",
    "km_from_radians",
    "lag_sri",
    "neighbour_pairs",
    "scale_sri",
    "scaled_settings",
    "ssi",
]

# Rank errors (rank of rating - rank of truth, in [-1, 1]) in four classes: strongly and
# slightly under-rated, slightly and strongly over-rated. An even number of classes keeps 0 free
# for the background points.
RANK_ERROR_EDGES = (-0.25, 0.0, 0.25)


def km_from_radians(angle) -> float:
    """Great-circle km for an angle in radians of arc (the unit GeoBS and PyGBS state)."""
    from ..geo.sampling import EARTH_RADIUS_KM

    return float(angle) * EARTH_RADIUS_KM


# --- classes ---------------------------------------------------------------------------------


def bin_errors(errors, edges=RANK_ERROR_EDGES) -> np.ndarray:
    """Class codes of continuous errors binned at `edges` (NaN stays NaN).

    Class c (1-based) holds edges[c-2] <= e < edges[c-1]; its code is 2c - M - 1 for M classes
    (M = len(edges) + 1), i.e. -3, -1, 1, 3 for four classes: odd integers symmetric around 0,
    which is reserved for background points. M must be even (an odd M would code its middle
    class 0).
    """
    import numpy as np

    edges = np.asarray(edges, dtype=float).ravel()
    if len(edges) % 2 == 0:
        raise ValueError(f"{len(edges)} edges give {len(edges) + 1} classes: use an even number")
    if np.any(np.diff(edges) <= 0):
        raise ValueError("class edges must increase")
    e = np.asarray(errors, dtype=float).ravel()
    out = np.full(e.shape, np.nan)
    ok = np.isfinite(e)
    c = np.searchsorted(edges, e[ok], side="right") + 1
    out[ok] = 2 * c - (len(edges) + 1) - 1
    return out


def hit_miss(hit) -> np.ndarray:
    """+1 for a hit, -1 for a miss (PyGBS's coding of hit@k); NaN where `hit` is NaN."""
    import numpy as np

    h = np.asarray(hit, dtype=float).ravel()
    return np.where(np.isnan(h), np.nan, np.where(h > 0, 1.0, -1.0))


# --- neighbourhoods --------------------------------------------------------------------------


def neighbour_pairs(lon, lat, radius_km: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(centre, neighbour, km) for every ordered pair of points within `radius_km`, self pairs
    included, in no particular order (great-circle, via a chord kd-tree on unit vectors)."""
    import numpy as np
    from scipy.spatial import cKDTree

    from ..geo.sampling import EARTH_RADIUS_KM, km_to_chord, lonlat_to_xyz

    xyz = lonlat_to_xyz(lon, lat).reshape(-1, 3)
    n = len(xyz)
    half = cKDTree(xyz).query_pairs(float(km_to_chord(radius_km)), output_type="ndarray")
    i = np.concatenate([half[:, 0], half[:, 1], np.arange(n)])
    j = np.concatenate([half[:, 1], half[:, 0], np.arange(n)])
    x, y, z = xyz.T
    # From coordinate differences: a point's distance to itself (or a duplicate) is exactly 0.
    half_chord = np.sqrt((x[i] - x[j]) ** 2 + (y[i] - y[j]) ** 2 + (z[i] - z[j]) ** 2) / 2
    return i, j, 2 * EARTH_RADIUS_KM * np.arcsin(np.minimum(half_chord, 1.0))


def _bearings(lon_c, lat_c, xyz, i, j) -> np.ndarray:
    """Initial bearing from centre i (at lon_c, lat_c) to point j (unit vectors `xyz`) in
    radians, clockwise from north, in [0, 2 pi): the direction of j's unit vector in the tangent
    plane (east, north) at i."""
    import numpy as np

    lo, la = np.radians(lon_c), np.radians(lat_c)
    sin_lo, cos_lo, sin_la = np.sin(lo), np.cos(lo), np.sin(la)
    xj, yj = xyz[j, 0], xyz[j, 1]
    east = cos_lo[i] * yj - sin_lo[i] * xj
    north = np.cos(la)[i] * xyz[j, 2] - sin_la[i] * (cos_lo[i] * xj + sin_lo[i] * yj)
    return np.arctan2(east, north) % (2 * np.pi)


def _spatial_order(lon, lat) -> np.ndarray:
    """A permutation putting nearby points next to each other (a kd-tree's leaf order)."""
    from scipy.spatial import cKDTree

    from ..geo.sampling import lonlat_to_xyz

    return cKDTree(lonlat_to_xyz(lon, lat).reshape(-1, 3)).indices


def _clean(lon, lat, values):
    """Float arrays of the points that have coordinates and a value, and their indices."""
    import numpy as np

    lon, lat, v = (np.asarray(a, dtype=float).ravel() for a in (lon, lat, values))
    if not (len(lon) == len(lat) == len(v)):
        raise ValueError(f"lon, lat and values differ in length: {len(lon)}, {len(lat)}, {len(v)}")
    keep = np.flatnonzero(np.isfinite(lon) & np.isfinite(lat) & np.isfinite(v))
    return lon[keep], lat[keep], v[keep], keep


# Pairs per block of centres. Blocks keep every temporary array a few MB, far below the size
# above which each new array costs fresh pages from the system (about 4x faster on 10^7 pairs).
BLOCK_PAIRS = 500_000


def _neighbour_blocks(xyz, radius_km: float):
    """(c0, c1, i, j, km) for consecutive blocks of centres c0 <= c < c1: every pair of a
    centre (local index i = c - c0) and a point j within `radius_km` (self included), with
    its great-circle km from the kd-tree's chord (the same as :func:`neighbour_pairs`'s).
    Blocks grow or shrink to about BLOCK_PAIRS pairs."""
    import numpy as np
    from scipy.spatial import cKDTree

    from ..geo.sampling import EARTH_RADIUS_KM, km_to_chord

    n = len(xyz)
    tree = cKDTree(xyz)
    chord = float(km_to_chord(radius_km))
    c0, step = 0, 1024
    while c0 < n:
        c1 = min(n, c0 + step)
        rec = cKDTree(xyz[c0:c1]).sparse_distance_matrix(tree, chord, output_type="ndarray")
        i, j = rec["i"], rec["j"]
        yield c0, c1, i, j, 2 * EARTH_RADIUS_KM * np.arcsin(np.minimum(rec["v"] / 2, 1.0))
        step = max(64, int(BLOCK_PAIRS * (c1 - c0) / max(len(i), 1)))
        c0 = c1


# --- SRI -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SRIResult:
    """Spatial relative information of one partition kind.

    `score` is the mean of the local SRI over evaluated centres weighted by neighbourhood size;
    `local` (nats, NaN where not evaluated), `n_neighbours` and `n_parts` (parts of at least
    `min_points` points) are per input point.
    """

    partition: str  # "scale", "lag" or "direction"
    score: float
    local: np.ndarray
    n_neighbours: np.ndarray
    n_parts: np.ndarray
    radius_km: float
    size: float  # scale: cell side in degrees; lag: ring width in km; direction: sectors
    min_points: int
    divergence: str
    n_evaluated: int
    reason: str = ""


def _part_ids(kind, size, lon_c, lat_c, start_c, lon, lat, xyz, i, j, km, radius_km):
    """Part of each pair (centre i, neighbour j) in the centre's partition (-1: none), and how
    many part ids a centre can have. Centres are indexed in `lon_c`, `lat_c`, `start_c`
    (bearing of the first sector, degrees), neighbours in `lon`, `lat`, `xyz`."""
    import numpy as np

    from ..geo.sampling import EARTH_RADIUS_KM

    if kind == "lag":
        n_part = int(np.floor(radius_km / size)) + 1
        return np.minimum(np.floor(km / size).astype(np.int64), n_part - 1), n_part
    if kind == "direction":
        first = np.radians(start_c)[i]
        turn = (_bearings(lon_c, lat_c, xyz, i, j) - first) % (2 * np.pi)
        sector = np.minimum(np.floor(turn / (2 * np.pi / size)).astype(np.int64), size - 1)
        # A neighbour at the centre's own place has no direction: it belongs to no sector.
        return np.where(km > 0, sector, -1), int(size)
    if kind == "scale":
        # Cells of `size` degrees anchored at the centre (a corner of four cells), as PyGBS;
        # longitude differences wrap at the antimeridian. Each centre numbers only the cells
        # its disc can reach: 2 k_lat rows by 2 k_lon[c] columns, k_lon from the disc's widest
        # longitude span at the centre's latitude (all of it when the disc holds a pole).
        r = radius_km / EARTH_RADIUS_KM
        k_lat = int(np.ceil(np.degrees(r) / size)) + 1
        phi = np.radians(lat_c)
        with np.errstate(invalid="ignore", divide="ignore"):
            span = np.degrees(np.arcsin(np.clip(np.sin(r) / np.cos(phi), 0.0, 1.0)))
        span = np.where(np.abs(phi) + r >= np.pi / 2 - 1e-12, 180.0, span)
        k_lon = np.ceil(span / size).astype(np.int64) + 1
        cells = 2 * k_lat * 2 * k_lon
        offset = np.cumsum(cells) - cells
        rows = np.floor((lat[j] - lat_c[i]) / size).astype(np.int64) + k_lat
        cols = np.floor(((lon[j] - lon_c[i] + 180.0) % 360.0 - 180.0) / size).astype(np.int64)
        cols = np.clip(cols + k_lon[i], 0, 2 * k_lon[i] - 1)
        # Part ids are global here (offset per centre): one "centre" of cells.sum() parts.
        return offset[i] + rows * 2 * k_lon[i] + cols, (offset, cells)
    raise ValueError(f"unknown partition {kind!r}")


def _part_counts(i, part, n_part, cls, n, m):
    """Class counts (parts x m) of every part id, and each part's centre. `n_part` is the
    number of part ids per centre, or (offset, count) per centre for globally numbered ids."""
    import numpy as np

    if isinstance(n_part, tuple):
        offset, count = n_part
        key, total = part, int(count.sum())
        centre_of = np.repeat(np.arange(n), count)
    else:
        key, total = i * n_part + part, n * n_part
        centre_of = np.arange(total) // n_part
    if total * m <= 50_000_000:
        counts = np.bincount(key * m + cls, minlength=total * m).reshape(-1, m)
        return counts, centre_of
    occurring, part_of = np.unique(key, return_inverse=True)  # too many ids: number those used
    counts = np.bincount(part_of.ravel() * m + cls, minlength=len(occurring) * m)
    return counts.reshape(-1, m), centre_of[occurring]


def _local_sri(kind, size, start, lon, lat, xyz, cls_j, total, block, radius_km, min_points,
               divergence, smooth):  # fmt: skip
    """(local SRI, number of parts) of the centres of one block (c0, c1, i, j, km) of
    :func:`_neighbour_blocks`, given the neighbours' classes `cls_j` and the class counts of
    each neighbourhood `total` (centres x classes)."""
    import numpy as np

    c0, c1, i, j, km = block
    nc, m = total.shape
    size_i = total.sum(axis=1)
    start_c = np.broadcast_to(np.asarray(start, dtype=float), lon.shape)[c0:c1]
    part, n_part = _part_ids(kind, size, lon[c0:c1], lat[c0:c1], start_c, lon, lat, xyz, i, j,
                             km, radius_km)  # fmt: skip
    ok = part >= 0
    counts, centre = _part_counts(i[ok], part[ok], n_part, cls_j[ok], nc, m)
    n_g = counts.sum(axis=1)
    big = n_g >= min_points
    counts, n_g, centre = counts[big].astype(float), n_g[big].astype(float), centre[big]
    q = counts / n_g[:, None]
    p = total[centre] / size_i[centre, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        if divergence == "local||global":
            # D(Q || P) is finite: a part's classes all occur in its neighbourhood.
            terms = np.where(q > 0, q * np.log(q / np.where(p > 0, p, 1.0)), 0.0)
        else:  # PyGBS's D(P || Q + smooth): a class absent from a part costs -p ln(smooth)
            terms = np.where(p > 0, p * np.log(p / (q + smooth)), 0.0)
    kl = terms.sum(axis=1)
    local = np.bincount(centre, weights=kl * n_g / size_i[centre], minlength=nc)
    return local, np.bincount(centre, minlength=nc)


def _sris(partitions, lon, lat, values, radius_km, min_points, divergence, smooth,
          pairs=None) -> list:  # fmt: skip
    """SRIResults of several partitions (kind, size, start) of the same neighbourhoods, block
    by block of centres (one neighbour search for all). `pairs` (of :func:`neighbour_pairs`
    on these points, all with a value, in this order) replaces the search."""
    import numpy as np

    from ..geo.sampling import lonlat_to_xyz

    if radius_km <= 0 or any(size <= 0 for _k, size, _s in partitions):
        raise ValueError("radius and partition size must be positive")
    if divergence not in ("local||global", "global||local"):
        raise ValueError(f"divergence is 'local||global' or 'global||local', not {divergence!r}")
    n_in = len(np.asarray(lon).ravel())
    lon, lat, v, keep = _clean(lon, lat, values)
    starts = [np.asarray(s, dtype=float).ravel()[keep] if np.ndim(s) > 0 else float(s)
              for _k, _size, s in partitions]  # fmt: skip
    if pairs is None and len(v):  # neighbours next to each other in memory: faster gathers
        order = _spatial_order(lon, lat)
        lon, lat, v, keep = lon[order], lat[order], v[order], keep[order]
        starts = [s[order] if np.ndim(s) > 0 else s for s in starts]
    n = len(v)
    local = [np.zeros(n) for _ in partitions]
    parts = [np.zeros(n, dtype=np.int64) for _ in partitions]
    size_i = np.zeros(n)
    if n:
        cls = np.unique(v, return_inverse=True)[1].ravel()
        m = int(cls.max()) + 1
        xyz = lonlat_to_xyz(lon, lat).reshape(-1, 3)
        blocks = [(0, n, *pairs)] if pairs is not None else _neighbour_blocks(xyz, radius_km)
        for block in blocks:
            c0, c1, i = block[:3]
            cls_j = cls[block[3]]
            # Each neighbourhood's class distribution: the P its parts are compared with.
            total = np.bincount(i * m + cls_j, minlength=(c1 - c0) * m).reshape(-1, m)
            total = total.astype(float)
            size_i[c0:c1] = total.sum(axis=1)
            for k, (kind, size, _s) in enumerate(partitions):
                local[k][c0:c1], parts[k][c0:c1] = _local_sri(
                    kind, size, starts[k], lon, lat, xyz, cls_j, total, block, radius_km,
                    min_points, divergence, smooth,
                )  # fmt: skip
    n_nb = np.zeros(n_in, dtype=np.int64)
    n_nb[keep] = size_i.astype(np.int64)
    out = []
    for (kind, size, _s), local_all, pc in zip(partitions, local, parts):
        full, n_parts = np.full(n_in, np.nan), np.zeros(n_in, dtype=np.int64)
        n_parts[keep] = pc
        evaluated = pc > 0
        full[keep[evaluated]] = local_all[evaluated]
        n_eval = int(evaluated.sum())
        score, reason = np.nan, ""
        if n == 0:
            reason = "no points with a value"
        elif n_eval == 0:
            reason = f"no part of any neighbourhood holds {min_points} points"
        else:
            w = size_i[evaluated]
            score = float(np.sum(local_all[evaluated] * w) / w.sum())
        out.append(SRIResult(kind, score, full, n_nb.copy(), n_parts, float(radius_km),
                             float(size), int(min_points), divergence, n_eval,
                             reason))  # fmt: skip
    return out


def _sri(kind, lon, lat, values, radius_km, size, min_points, divergence, smooth, start,
         pairs=None) -> SRIResult:  # fmt: skip
    return _sris([(kind, size, start)], lon, lat, values, radius_km, min_points, divergence,
                 smooth, pairs)[0]  # fmt: skip


_SRI_DOC = """

    For each point c (the centre), its neighbourhood is every point within `radius_km`
    (great-circle, c included) and P_c the neighbourhood's class distribution. The neighbourhood
    is split into parts; each part g holding at least `min_points` points has its class
    distribution Q_g, and

        SRI_c = sum_g (n_g / N_c) D(Q_g || P_c),   D(Q || P) = sum_k q_k ln(q_k / p_k)

    in nats (n_g points in part g, N_c in the neighbourhood; smaller parts weigh 0). A centre
    with no such part is not evaluated (NaN). The score is the mean of SRI_c over evaluated
    centres weighted by N_c. ``divergence="global||local"`` gives PyGBS's D(P_c || Q_g + smooth)
    instead (docs/method.md). A spatially random field gives SRI near 0: only the sampling noise
    of Q_g, about (K - 1) / (2 n_g) nats for K classes. Neighbourhoods are searched block by
    block of centres; `pairs` (from :func:`neighbour_pairs` on the same points, all with a
    value) gives them instead.
    """


def scale_sri(lon, lat, values, radius_km: float, scale_deg: float, min_points: int = 10,
              divergence: str = "local||global", smooth: float = 1e-8,
              pairs=None) -> SRIResult:  # fmt: skip
    """Scale-grid SRI: the neighbourhood split into latitude/longitude cells of `scale_deg`
    degrees anchored at the centre (GeoBS's multi-scale factor)."""
    return _sri("scale", lon, lat, values, radius_km, scale_deg, min_points, divergence,
                smooth, 0.0, pairs)  # fmt: skip


def lag_sri(lon, lat, values, radius_km: float, lag_km: float, min_points: int = 10,
            divergence: str = "local||global", smooth: float = 1e-8,
            pairs=None) -> SRIResult:  # fmt: skip
    """Distance-lag SRI: the neighbourhood split into rings [k lag, (k + 1) lag) of great-circle
    distance from the centre (GeoBS's distance-decay factor)."""
    return _sri("lag", lon, lat, values, radius_km, lag_km, min_points, divergence, smooth,
                0.0, pairs)  # fmt: skip


def direction_sri(lon, lat, values, radius_km: float, n_sectors: int = 8, min_points: int = 10,
                  divergence: str = "local||global", smooth: float = 1e-8, start_deg=0.0,
                  pairs=None) -> SRIResult:  # fmt: skip
    """Direction-sector SRI: the neighbourhood split into `n_sectors` equal sectors of initial
    bearing from the centre, the first starting at `start_deg` clockwise from north (a number,
    or one per point) (GeoBS's anisotropy factor). Points at the centre's own place belong to
    no sector."""
    if int(n_sectors) != n_sectors or n_sectors < 2:
        raise ValueError("n_sectors must be an integer >= 2")
    return _sri("direction", lon, lat, values, radius_km, int(n_sectors), min_points,
                divergence, smooth, start_deg, pairs)  # fmt: skip


for _f in (scale_sri, lag_sri, direction_sri):
    _f.__doc__ += _SRI_DOC


# --- SSI -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SSIResult:
    """Spatial self-information within each evaluated centre's neighbourhood.

    `score` is the mean local SSI (nats) over evaluated centres; `local`, `z` (the standardised
    unscaled Moran's I), `n_neighbours` and `n_background` are per input point, NaN or 0 where
    the point was not evaluated. `marked` is False for presence vs background only.
    """

    score: float
    local: np.ndarray
    z: np.ndarray
    n_neighbours: np.ndarray
    n_background: np.ndarray
    marked: bool
    radius_km: float
    k: int
    density: str  # "auto (5x the neighbourhood's)" or "<d> per 10,000 km²"
    moments: str
    min_points: int
    n_evaluated: int
    n_centres: int  # centres asked (all points, or a seeded sample of max_centres)
    reason: str = ""


def _ring_counts(spacing_km: np.ndarray, radius_km: float, last_ring: str):
    """(rings, background points) per centre of :func:`_rings`."""
    import numpy as np

    ratio = radius_km / spacing_km
    if last_ring == "inside":
        n_rings = np.floor(ratio + 1e-9).astype(np.int64)
    elif last_ring == "beyond":
        n_rings = np.ceil(ratio - 1e-9).astype(np.int64)
    else:
        raise ValueError(f"last_ring is 'inside' or 'beyond', not {last_ring!r}")
    ring = np.arange(1, int(n_rings.max()) + 1 if len(n_rings) else 1)
    before_ring = np.concatenate([[0], np.cumsum(np.ceil(2 * np.pi * ring).astype(np.int64))])
    return n_rings, before_ring[n_rings]


def _rings(spacing_km: np.ndarray, radius_km: float, last_ring: str):
    """Concentric background rings around each centre: ring r = 1, 2, ... at r * spacing holding
    ceil(2 pi r) points evenly spaced in bearing from north, up to the radius ("inside") or, as
    PyGBS, to the first ring at or beyond it ("beyond"). Returns the owner (centre) index, km
    from the centre and bearing (radians) of every background point, and the count per centre."""
    import numpy as np

    n_rings, per_centre = _ring_counts(spacing_km, radius_km, last_ring)
    ring = np.arange(1, int(n_rings.max()) + 1 if len(n_rings) else 1)
    per_ring = np.ceil(2 * np.pi * ring).astype(np.int64)
    before_ring = np.concatenate([[0], np.cumsum(per_ring)])
    owner = np.repeat(np.arange(len(spacing_km)), per_centre)
    pos = np.arange(len(owner)) - np.repeat(np.cumsum(per_centre) - per_centre, per_centre)
    ring_of = np.searchsorted(before_ring[1:], pos, side="right")  # 0-based ring
    on_ring = pos - before_ring[ring_of]
    km = (ring_of + 1) * spacing_km[owner]
    # From north, counter-clockwise (PyGBS's order, which decides ties in the k nearest).
    return owner, km, (-2 * np.pi * on_ring / per_ring[ring_of]) % (2 * np.pi), per_centre


def _destination(xyz_c: np.ndarray, owner: np.ndarray, km: np.ndarray,
                 bearing: np.ndarray) -> np.ndarray:  # fmt: skip
    """Unit vectors at `km` (great-circle) along `bearing` from the centres `xyz_c[owner]`
    (the tangent directions are computed once per centre)."""
    import numpy as np

    from ..geo.sampling import EARTH_RADIUS_KM

    x, y = xyz_c[:, 0], xyz_c[:, 1]
    norm = np.hypot(x, y)
    pole = norm < 1e-12  # at a pole any east will do
    safe = np.where(pole, 1.0, norm)
    east = np.stack([np.where(pole, 0.0, -y / safe), np.where(pole, 1.0, x / safe),
                     np.zeros_like(x)], axis=1)  # fmt: skip
    north = np.cross(xyz_c, east)
    d = (km / EARTH_RADIUS_KM)[:, None]
    tangent = np.cos(bearing)[:, None] * north[owner] + np.sin(bearing)[:, None] * east[owner]
    return np.cos(d) * xyz_c[owner] + np.sin(d) * tangent


def _exact_moments(n, k, m2, m4, s1, s2):
    """Mean and deviation of the unscaled Moran's I over random permutations of the values
    (Cliff & Ord 1981, randomisation), per neighbourhood: I~ = S0 m2 I with S0 = n k."""
    import numpy as np

    s0 = n * k
    ei = -1.0 / (n - 1)
    b2 = m4 / (m2 * m2)
    a = n * ((n * n - 3 * n + 3) * s1 - n * s2 + 3 * s0 * s0)
    b = b2 * ((n * n - n) * s1 - 2 * n * s2 + 6 * s0 * s0)
    vi = (a - b) / ((n - 1) * (n - 2) * (n - 3) * s0 * s0) - ei * ei
    return s0 * m2 * ei, s0 * m2 * np.sqrt(vi)


def _wang2024_moments(codes, counts, k):
    """Approximate mean and deviation of the unscaled Moran's I given the value scheme
    T_M = {(c_p, n_p)} on a k-regular graph (Wang et al. 2024; the approximation behind
    PyGBS's published SSI tables): the class-pair edge counts |S_pq| are taken as binomial,
    mean  sum_{p!=q} a_p a_q k n_p n_q / N + sum_p a_p^2 (k n_p (n_p - 1) / N - 1),
    and the variance with the majority class r eliminated through sum_q |S_pq| = k n_p:
    sum_{p!=q; p,q!=r} ((c_p - c_r)(c_q - c_r))^2 n_min (k n_max / N)(1 - k n_max / N)
    + sum_{p!=r} (c_p - c_r)^4 2 (n_p - 1)(k n_p / N)(1 - k (2 n_p - 1) / (3 N)),
    where a_p = c_p - xbar. `counts` is (groups, classes) for the class `codes`."""
    import numpy as np

    n = counts.sum(axis=1, keepdims=True)
    xbar = (counts * codes).sum(axis=1, keepdims=True) / n
    a = codes[None, :] - xbar  # (g, M)
    np_, nq = counts[:, :, None], counts[:, None, :]
    same = np.eye(len(codes), dtype=bool)[None]
    coef = a[:, :, None] * a[:, None, :]
    mean_count = np.where(
        same, k * np_ * (np_ - 1) / n[:, :, None] - 1, k * np_ * nq / n[:, :, None]
    )
    present = (np_ > 0) & (nq > 0)
    mu = np.where(present, coef * mean_count, 0.0).sum(axis=(1, 2))
    r = np.argmax(counts, axis=1)
    c_r = codes[r][:, None]
    d = codes[None, :] - c_r  # c_p - c_r, (g, M)
    lo, hi = np.minimum(np_, nq), np.maximum(np_, nq)
    pq = (
        (d[:, :, None] * d[:, None, :]) ** 2
        * lo
        * (k * hi / n[:, :, None])
        * (1 - k * hi / n[:, :, None])
    )
    pp = d**4 * 2 * (counts - 1) * (k * counts / n) * (1 - k * (2 * counts - 1) / (3 * n))
    var = np.where(present & ~same, pq, 0.0).sum(axis=(1, 2)) + np.where(counts > 0, pp, 0.0).sum(
        axis=1
    )
    return mu, np.sqrt(var)


def _tie_key(dist: np.ndarray) -> np.ndarray:
    """Chord distances (at most 2 within a neighbourhood) quantised to 1e-9 of that diameter:
    distances equal to that precision are ties (infinite ones stay infinite)."""
    import numpy as np

    with np.errstate(invalid="ignore"):
        tie = np.round(dist * (1e9 / 2.0))
    return np.where(np.isfinite(tie), tie, np.inf)


def _knn(pts: np.ndarray, k: int, sizes=None) -> np.ndarray:
    """Each point's k nearest other points (rows of indices), within its group when `sizes`
    (lengths of consecutive groups of `pts`) is given. Ties (:func:`_tie_key`) go to the
    lower index, however many points tie: the regular background rings have exact ties by
    symmetry (a centre is equidistant from the 7 points of the first ring), and the graph (so
    the SSI) must not depend on rounding.

    The k + 1 nearest other points settle a row unless the k-th and the (k+1)-th tie; those
    rows are asked again for 4 more, and the few whose tie runs further, for all it holds."""
    import numpy as np
    from scipy.spatial import cKDTree

    t = len(pts)
    sizes = np.array([t]) if sizes is None else np.asarray(sizes, dtype=np.int64)
    starts = np.cumsum(sizes) - sizes
    out = np.empty((t, k), dtype=np.int32 if t < 2**31 else np.int64)
    trees = [cKDTree(pts[a : a + n]) for a, n in zip(starts.tolist(), sizes.tolist())]
    # A small tree per group: shallower than one tree of every group, and each group's
    # coordinates as they are (no shift to keep groups apart, which would round distances).
    dist, idx = _group_query(trees, pts, starts, sizes, np.arange(t), k + 2)
    own = idx[:, : k + 1] == np.arange(t)[:, None]
    edge = _tie_key(dist[:, k])
    clear = (edge != _tie_key(dist[:, k + 1])) & (own.sum(axis=1) == 1)
    out[clear] = idx[clear, : k + 1][~own[clear]].reshape(-1, k)
    tied = np.flatnonzero(~clear)
    if len(tied):
        dist, idx = _group_query(trees, pts, starts, sizes, tied, k + 5)
        done = _tie_key(dist[:, -1]) != edge[tied]
        out[tied[done]] = _first_others(dist[done], idx[done], tied[done], k)
        group = np.searchsorted(starts, tied[~done], side="right") - 1
        for r, g in zip(tied[~done].tolist(), group.tolist()):  # a tie past k + 5: all of it
            d, i = trees[g].query(pts[r], int(sizes[g]))
            out[r] = _first_others(d[None], i[None] + starts[g], np.array([r]), k)[0]
    return out


def _group_query(trees, pts, starts, sizes, rows, n_ask):
    """(distances, indices) of the `n_ask` nearest points of each row's own group (rows in
    increasing order); missing neighbours (a small group) are at infinity with index len(pts)."""
    import numpy as np

    dist = np.full((len(rows), n_ask), np.inf)
    idx = np.full((len(rows), n_ask), len(pts), dtype=np.int64)
    group = np.searchsorted(starts, rows, side="right") - 1
    cuts = (np.flatnonzero(np.diff(group)) + 1).tolist()
    for a, b in zip([0] + cuts, cuts + [len(rows)]):
        g = int(group[a])
        d, i = trees[g].query(pts[rows[a:b]], min(n_ask, int(sizes[g])))
        d, i = d.reshape(b - a, -1), i.reshape(b - a, -1)
        dist[a:b, : d.shape[1]], idx[a:b, : d.shape[1]] = d, i + starts[g]
    return dist, idx


def _first_others(dist, idx, rows, k):
    """The first k indices other than the row's own, sorted by (tie key, index)."""
    import numpy as np

    idx = np.take_along_axis(idx, np.lexsort((idx, _tie_key(dist)), axis=-1), axis=1)
    own = idx == rows[:, None]
    return idx[~own & (np.cumsum(~own, axis=1) <= k)].reshape(len(rows), k)


BLOCK_POINTS = 65_536  # observed and background points per block of SSI neighbourhoods


def _blocks(weights, limit: int) -> list:
    """Consecutive (start, stop) ranges of items whose `weights` add up to about `limit`."""
    import numpy as np

    weights = np.asarray(weights, dtype=np.int64)
    block = (np.cumsum(weights) - weights) // max(int(limit), 1)
    cuts = np.flatnonzero(np.diff(block)) + 1
    edges = np.concatenate([[0], cuts, [len(weights)]]).tolist()
    return list(zip(edges[:-1], edges[1:]))


def _ssi_block(xyz, v, chosen, members, spacing, radius_km, last_ring, k, moments, codes):
    """(SSI, z, evaluated) of the neighbourhoods of the centres `chosen`, whose observed
    points are `members` (indices, nearest first) and background ring spacing `spacing`."""
    import numpy as np

    g = len(chosen)
    sizes = np.array([len(mb) for mb in members], dtype=np.int64)
    owner, bkm, bbear, _ = _rings(spacing, radius_km, last_ring)
    # Every neighbourhood's points (observed, then background) in one array, group by group.
    group = np.concatenate([np.repeat(np.arange(g), sizes), owner])
    observed = np.concatenate(members).astype(np.int64)
    pts = np.concatenate([xyz[observed], _destination(xyz[chosen], owner, bkm, bbear)])
    x = np.concatenate([v[observed], np.zeros(len(owner))])
    order = np.argsort(group, kind="stable")
    group, pts, x = group[order], pts[order], x[order]
    size_g = np.bincount(group, minlength=g)
    nb = _knn(pts, k, size_g)
    t = len(pts)
    size_g = size_g.astype(float)
    zc = x - (np.bincount(group, weights=x, minlength=g) / size_g)[group]
    m2 = np.bincount(group, weights=zc**2, minlength=g) / size_g
    i_obs = np.bincount(group, weights=zc * zc[nb].sum(axis=1), minlength=g)
    with np.errstate(divide="ignore", invalid="ignore"):
        if moments == "exact":
            m4 = np.bincount(group, weights=zc**4, minlength=g) / size_g
            mutual = (nb[nb] == np.arange(t)[:, None, None]).any(axis=2).sum(axis=1)
            s1 = size_g * k + np.bincount(group, weights=mutual, minlength=g)
            indeg = np.bincount(nb.ravel(), minlength=t)
            s2 = np.bincount(group, weights=(k + indeg) ** 2.0, minlength=g)
            mu, sigma = _exact_moments(size_g, k, m2, m4, s1, s2)
        else:
            cls = np.searchsorted(codes, x)
            counts = np.bincount(group * len(codes) + cls, minlength=g * len(codes))
            mu, sigma = _wang2024_moments(codes, counts.reshape(g, -1).astype(float), k)
        zscore = (i_obs - mu) / sigma
        info = 0.5 * zscore**2 + np.log(sigma * np.sqrt(2 * np.pi))
    return info, zscore, (m2 > 0) & (sigma > 0) & np.isfinite(info)


def ssi(lon, lat, values=None, radius_km: float = 1500.0, k: int = 4, density="auto",
        min_points: int = 5, max_centres: int | None = 2000, seed: int = 0, centres=None,
        moments: str = "exact", last_ring: str = "inside") -> SSIResult:  # fmt: skip
    """Spatial self-information of the neighbourhood of each centre (GeoBS's SSI).

    Within each centre's neighbourhood (points within `radius_km`, the centre included, at least
    `min_points`), background points are generated on concentric rings (spacing 1/sqrt(density))
    and given the value 0; observed points get their class code (`values`: the marked SSI) or 1
    (``values=None``: the unmarked SSI of presence vs background). With binary weights w_ij = 1
    when j is one of i's `k` nearest points of that set (great-circle distance), the unscaled
    Moran's I of the neighbourhood,

        I~ = sum_ij w_ij (x_i - xbar)(x_j - xbar),

    is an event whose probability depends on how the same values (the value scheme T_M, fixed)
    could be arranged on the same places. Its self-information (Wang et al. 2024), with the
    normal approximation of I~'s distribution (mean mu, deviation sigma), is

        SSI = -ln P(I~ = I~obs) = (I~obs - mu)^2 / (2 sigma^2) + ln(sigma sqrt(2 pi))

    in nats: the more surprising the arrangement (clustered or dispersed), the higher. The
    score is the mean over evaluated centres. `z` = (I~obs - mu) / sigma is kept per point.

    Parameters
    ----------
    density : "auto" or float
        Background points per 10,000 km²; "auto" takes PyGBS's rule, 5 times the
        neighbourhood's own density (5 n / (pi r^2)), rounded up to whole points per steradian.
    moments : "exact" or "wang2024"
        mu and sigma: the exact moments over random permutations (Cliff & Ord 1981), or the
        binomial approximation of Wang et al. (2024) that PyGBS's published tables use.
    last_ring : "inside" or "beyond"
        Background rings up to the radius, or (PyGBS) to the first ring at or beyond it.
    max_centres, seed, centres :
        The centres evaluated: `centres` (indices), else all points when there are at most
        `max_centres`, else a seeded sample of that many (the result says how many).

    Notes
    -----
    PyGBS's published tables are -ln of the normal density (what is computed here); its
    current code takes -ln of the two-sided tail 2 Phi(-|z|) instead, adds 1 to sigma and
    floors the probability at 1e-256. GeoBias follows the paper and the tables
    (docs/method.md, "GeoBS scores").
    """
    import numpy as np
    from scipy.spatial import cKDTree

    from ..geo.sampling import EARTH_RADIUS_KM, km_to_chord, lonlat_to_xyz

    marked = values is not None
    if not marked:
        values = np.ones(len(np.asarray(lon).ravel()))
    if k < 1 or min_points < 2:
        raise ValueError("k must be >= 1 and min_points >= 2")
    if moments not in ("exact", "wang2024"):
        raise ValueError(f"moments is 'exact' or 'wang2024', not {moments!r}")
    n_in = len(np.asarray(lon).ravel())
    lon, lat, v, keep = _clean(lon, lat, values)
    if marked and np.any(v == 0):
        raise ValueError("class code 0 is reserved for background points (see bin_errors)")
    local, zs = np.full(n_in, np.nan), np.full(n_in, np.nan)
    n_nb, n_bg = np.zeros(n_in, np.int64), np.zeros(n_in, np.int64)
    auto = isinstance(density, str)
    if auto and density != "auto":
        raise ValueError(f"density is 'auto' or a number, not {density!r}")
    if not auto and not density > 0:
        raise ValueError("density must be positive")
    label = "auto (5x the neighbourhood's)" if auto else f"{float(density):g} per 10,000 km²"
    need = max(min_points, k + 1)

    def result(score, n_eval, n_centres, reason=""):
        return SSIResult(score, local, zs, n_nb, n_bg, marked, float(radius_km), int(k), label,
                         moments, int(min_points), n_eval, n_centres, reason)  # fmt: skip

    n = len(v)
    if centres is not None:
        pos = np.full(n_in, -1)
        pos[keep] = np.arange(n)
        chosen = pos[np.asarray(centres, dtype=np.int64).ravel()]
        chosen = np.unique(chosen[chosen >= 0])
    elif max_centres is not None and n > max_centres:
        chosen = np.sort(np.random.default_rng(seed).choice(n, int(max_centres), replace=False))
    else:
        chosen = np.arange(n)
    if len(chosen) == 0:
        return result(np.nan, 0, 0, "no centres")
    xyz = lonlat_to_xyz(lon, lat).reshape(-1, 3)
    members = cKDTree(xyz).query_ball_point(xyz[chosen], float(km_to_chord(radius_km)))
    sizes = np.array([len(mb) for mb in members], dtype=np.int64)
    # Each neighbourhood nearest first (the order decides ties in the k nearest, see _knn).
    members = [np.asarray(mb, dtype=np.int64) for mb in members]
    members = [mb[np.argsort(((xyz[mb] - xyz[c]) ** 2).sum(axis=1), kind="stable")]
               for mb, c in zip(members, chosen)]  # fmt: skip
    n_nb[keep[chosen]] = sizes
    n_centres = len(chosen)
    big = sizes >= need
    chosen, sizes = chosen[big], sizes[big]
    members = [mb for mb, b in zip(members, big) if b]
    if len(chosen) == 0:
        return result(np.nan, 0, n_centres, f"no neighbourhood holds {need} points")
    g = len(chosen)
    if auto:  # PyGBS: ceil(5 n / (pi r^2)) points per steradian, r in radians
        r_rad = radius_km / EARTH_RADIUS_KM
        per_sr = np.ceil(5.0 * sizes / (np.pi * r_rad**2))
        spacing = EARTH_RADIUS_KM / np.sqrt(per_sr)
    else:
        spacing = np.full(g, 100.0 / np.sqrt(float(density)))
    n_ring_pts = _ring_counts(spacing, float(radius_km), last_ring)[1]
    n_bg[keep[chosen]] = n_ring_pts
    codes = np.unique(np.concatenate([v, [0.0]]))  # every class, and the background's 0
    info, zscore, good = np.empty(g), np.empty(g), np.empty(g, dtype=bool)
    # Neighbourhoods block by block: every array stays a few MB (see BLOCK_PAIRS).
    for b0, b1 in _blocks(sizes + n_ring_pts, BLOCK_POINTS):
        info[b0:b1], zscore[b0:b1], good[b0:b1] = _ssi_block(
            xyz, v, chosen[b0:b1], members[b0:b1], spacing[b0:b1], float(radius_km),
            last_ring, k, moments, codes,
        )  # fmt: skip
    local[keep[chosen]] = np.where(good, info, np.nan)
    zs[keep[chosen]] = np.where(good, zscore, np.nan)
    n_eval = int(good.sum())
    if n_eval == 0:
        return result(np.nan, 0, n_centres, "every neighbourhood has a single value")
    return result(float(np.mean(info[good])), n_eval, n_centres)


# --- all scores ------------------------------------------------------------------------------


@dataclass(frozen=True)
class GeoBSSettings:
    """The parameters of one set of GeoBS scores (stated on a benchmark card).

    Defaults suit about 2,000 points over the world's land (a neighbourhood of 1,500 km holds
    about 90 of them). GeoBS's own experiments use radius 0.05 rad (318.6 km), scale and lag
    0.005-0.01 rad, 8 or 12 sectors and parts of at least 10 or 20 points, on far denser data.
    """

    radius_km: float = 1500.0
    scale_deg: float = 10.0
    lag_km: float = 500.0
    n_sectors: int = 8
    min_points: int = 10  # SRI parts
    k: int = 4  # SSI nearest neighbours ("rook" in PyGBS)
    density: object = "auto"  # SSI background, "auto" or points per 10,000 km²
    ssi_min_points: int = 5
    max_centres: int | None = 2000
    seed: int = 0
    divergence: str = "local||global"

    def as_dict(self) -> dict:
        return {f: getattr(self, f) for f in self.__dataclass_fields__}


def scaled_settings(lon, lat, neighbours: int = 82, base: GeoBSSettings | None = None):
    """`base` (default: the card's settings) with its radius, cells and lags scaled to a point
    set: the radius is the median great-circle distance from a point to its `neighbours`-th
    nearest (at most a fifth of the points, at least 10), cells and lags keep their ratio to
    it (10 deg and 500 km at 1,500 km). On the card's 2,000 world points 82 neighbours give
    about the card's 1,500 km; a regional survey gets regional neighbourhoods."""
    import numpy as np
    from scipy.spatial import cKDTree

    from ..geo.sampling import EARTH_RADIUS_KM, lonlat_to_xyz

    base = base or GeoBSSettings()
    lon, lat = (np.asarray(a, dtype=float).ravel() for a in (lon, lat))
    ok = np.isfinite(lon) & np.isfinite(lat)
    xyz = lonlat_to_xyz(lon[ok], lat[ok]).reshape(-1, 3)
    m = int(min(neighbours, max(10, len(xyz) // 5), len(xyz) - 1))
    if m < 1:
        return base
    chord = cKDTree(xyz).query(xyz, m + 1)[0][:, -1]
    km = float(np.median(2 * EARTH_RADIUS_KM * np.arcsin(np.minimum(chord / 2, 1.0))))
    if not km > 0:
        return base
    ratio = km / base.radius_km
    fields = base.as_dict()
    fields.update(radius_km=km, scale_deg=base.scale_deg * ratio, lag_km=base.lag_km * ratio)
    return GeoBSSettings(**fields)


@dataclass(frozen=True)
class GeoBSScores:
    """SSI (marked) and the three SRIs of one error field, with the settings used."""

    ssi: SSIResult
    scale: SRIResult
    lag: SRIResult
    direction: SRIResult
    settings: GeoBSSettings = field(default_factory=GeoBSSettings)

    def summary(self) -> dict:
        """The four scores and their evaluated-centre counts (NaN as None), for tables/JSON."""
        import numpy as np

        def num(x):
            return None if x is None or not np.isfinite(x) else float(x)

        out = {}
        for name, r in (("ssi", self.ssi), ("sri_scale", self.scale), ("sri_lag", self.lag),
                        ("sri_direction", self.direction)):  # fmt: skip
            out[name] = num(r.score)
            out[f"{name}_n"] = int(r.n_evaluated)
            if r.reason:
                out[f"{name}_reason"] = r.reason
        return out


def geobs_scores(lon, lat, codes, settings: GeoBSSettings | None = None) -> GeoBSScores:
    """Marked SSI and the scale, lag and direction SRIs of class-coded errors (see
    :func:`bin_errors`, :func:`hit_miss`), the SRIs sharing one neighbour search."""
    s = settings or GeoBSSettings()
    if int(s.n_sectors) != s.n_sectors or s.n_sectors < 2:
        raise ValueError("n_sectors must be an integer >= 2")
    partitions = [("scale", s.scale_deg, 0.0), ("lag", s.lag_km, 0.0),
                  ("direction", int(s.n_sectors), 0.0)]  # fmt: skip
    scale, lag, direction = _sris(partitions, lon, lat, codes, s.radius_km, s.min_points,
                                  s.divergence, 1e-8)  # fmt: skip
    ss = ssi(lon, lat, codes, s.radius_km, s.k, s.density, s.ssi_min_points, s.max_centres, s.seed)
    return GeoBSScores(ss, scale, lag, direction, s)
