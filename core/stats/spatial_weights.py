"""Spatial weights for local statistics: k nearest neighbours or a distance band.

Lon/lat data are compared by great-circle distance: points become unit vectors and a KD-tree
of them finds neighbours by chord length, which grows with arc length, so the nearest chords
are the nearest great-circle neighbours and a band of d km is a chord of 2·sin(d / 2R).
Projected data use plain Euclidean distance in km. The neighbour matrix is binary and sparse
(CSR, no self-neighbours); statistics standardise its rows where they need to.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import sparse
from scipy.spatial import cKDTree

from ..geo.sampling import km_to_chord, lonlat_to_xyz
from ..messages import Message


@dataclass(frozen=True)
class Weights:
    """Binary neighbours of n units (CSR matrix, adjacency[i, j] = 1 if j is i's neighbour)."""

    adjacency: sparse.csr_matrix
    kind: str  # how they were built, e.g. "8 nearest neighbours" or "distance band 500 km"

    @property
    def n(self) -> int:
        return self.adjacency.shape[0]

    @property
    def cardinalities(self) -> np.ndarray:
        """Number of neighbours of each unit."""
        return np.diff(self.adjacency.indptr)

    @property
    def islands(self) -> np.ndarray:
        """Units without any neighbour (a distance band too short for them)."""
        return self.cardinalities == 0

    def row_standardised(self) -> sparse.csr_matrix:
        """Each row divided by its sum (the spatial lag is then a neighbourhood mean);
        an island's row stays zero."""
        card = self.cardinalities.astype(float)
        scale = np.divide(1.0, card, out=np.zeros_like(card), where=card > 0)
        return sparse.diags(scale) @ self.adjacency.astype(float)

    def neighbours(self) -> list[np.ndarray]:
        """The neighbours of each unit, as index arrays."""
        a = self.adjacency
        return [a.indices[a.indptr[i] : a.indptr[i + 1]] for i in range(self.n)]


def _points(x, y, geographic: bool) -> np.ndarray:
    x, y = np.asarray(x, float).ravel(), np.asarray(y, float).ravel()
    if x.shape != y.shape:
        raise ValueError(Message("metrics.xy_lengths", x=x.shape, y=y.shape))
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise ValueError(Message("weights.finite"))
    return lonlat_to_xyz(x, y) if geographic else np.column_stack([x, y])


def _csr(rows: np.ndarray, cols: np.ndarray, n: int) -> sparse.csr_matrix:
    data = np.ones(len(rows))
    a = sparse.csr_matrix((data, (rows, cols)), shape=(n, n))
    a.sum_duplicates()
    a.data[:] = 1.0
    a.sort_indices()
    return a


def knn_weights(x, y, k: int, geographic: bool = True) -> Weights:
    """Each unit's k nearest other units (x, y: lon/lat degrees, or km when not geographic).

    Ties at the k-th distance are broken by the KD-tree's order. Units at the same place are
    each other's neighbours, never their own.
    """
    pts = _points(x, y, geographic)
    n = len(pts)
    if k < 1:
        raise ValueError(Message("weights.k"))
    if n <= k:
        raise ValueError(Message("weights.too_few", k=k, n=n))
    tree = cKDTree(pts)
    # k + 1 candidates: the unit itself is among them, usually first; drop it wherever it is.
    _, idx = tree.query(pts, k=k + 1)
    own = idx == np.arange(n)[:, None]
    keep = ~own
    # Rows where the unit did not come back (duplicates filled the k + 1): drop the farthest.
    missing = ~own.any(axis=1)
    keep[missing, -1] = False
    cols = idx[keep].reshape(n, k)
    rows = np.repeat(np.arange(n), k)
    return Weights(_csr(rows, cols.ravel(), n), f"{k} nearest neighbours")


def distance_band_weights(x, y, km: float, geographic: bool = True) -> Weights:
    """Every other unit within `km` (great-circle for lon/lat, Euclidean in km otherwise)."""
    pts = _points(x, y, geographic)
    n = len(pts)
    if not km > 0:
        raise ValueError(Message("weights.band"))
    radius = float(km_to_chord(km)) if geographic else float(km)
    # A hair more than the band: a unit exactly at the band's distance is inside it.
    pairs = cKDTree(pts).query_pairs(radius * (1 + 1e-12), output_type="ndarray")
    rows = np.concatenate([pairs[:, 0], pairs[:, 1]])
    cols = np.concatenate([pairs[:, 1], pairs[:, 0]])
    return Weights(_csr(rows, cols, n), f"distance band {km:g} km")


def spherical_centroid(lon, lat, weights=None) -> tuple[float, float]:
    """The weighted mean direction of lon/lat points, as lon/lat: a centre that stays right
    across the antimeridian (parts of Fiji at 179° and −179° average to 180°, not 0°)."""
    xyz = lonlat_to_xyz(lon, lat)
    w = np.ones(len(xyz)) if weights is None else np.asarray(weights, float)
    v = (xyz * w[:, None]).sum(axis=0)
    norm = np.linalg.norm(v)
    if not norm > 0:
        raise ValueError(Message("weights.direction"))
    v /= norm
    return float(np.degrees(np.arctan2(v[1], v[0]))), float(np.degrees(np.arcsin(v[2])))
