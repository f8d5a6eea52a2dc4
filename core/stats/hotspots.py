"""Where the bias concentrates: local Moran's I (LISA) with conditional permutation p-values
and HH/LL/HL/LH classes, Getis–Ord Gi*, and the global Moran's I.

Definitions follow Anselin (1995) and Ord & Getis (1995) as PySAL's esda computes them, and the
tests check the numbers against esda on the same weights:
- z = (y − mean) / sd (population sd); local I_i = (n − 1) · z_i · Σ_j w_ij z_j / Σ z², with
  row-standardised weights w (the lag is the neighbours' mean z);
- conditional permutation: z_i stays, its neighbours' values are drawn without replacement
  from the other n − 1 units; one matrix of draws serves every unit (as esda's `crand`); the
  pseudo p-value folds the two tails: (min(#sim >= I, #sim < I) + 1) / (permutations + 1);
- Gi*: binary weights with the unit itself included, z_i = (Σ_j w_ij y_j − ȳ W_i) /
  (s · sqrt((n Σ_j w_ij² − W_i²) / (n − 1))), W_i = Σ_j w_ij, s the population sd. This form
  is unchanged by a shift of y, so it holds for rank errors, which are negative as often as
  positive (esda's G / Σy form equals it for positive data and flips sign when the mean is
  negative); p two-sided from the normal;
- global I = (n / S0) · z'Wz / z'z with the same row-standardised W, tested two ways as esda
  tests it: the normal approximation (z_norm, two-sided p_norm) and the permutation test
  (z_sim = (I − mean of the permuted I) / their sd, and the pseudo p-value p_sim folded like the
  local ones, so one-sided: the tail the observed I lies in). A z goes with the p of its own test.
Every value y must be finite: leave units without a value out before building the weights.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..messages import Message
from .multiple_testing import benjamini_hochberg
from .spatial_weights import Weights, knn_weights

# Quadrants of the Moran scatter plot, numbered as esda numbers them.
QUADRANTS = {1: "HH", 2: "LH", 3: "LL", 4: "HL"}
NOT_SIGNIFICANT = "not significant"
NO_NEIGHBOURS = "no neighbours"


def _standardised(y) -> np.ndarray:
    y = np.asarray(y, dtype=float).ravel()
    if not np.isfinite(y).all():
        raise ValueError(Message("hotspots.finite"))
    sd = y.std()
    if not sd > 0:
        raise ValueError(Message("hotspots.constant"))
    return (y - y.mean()) / sd


def _check(y: np.ndarray, w: Weights) -> None:
    if len(y) != w.n:
        raise ValueError(Message("hotspots.count", n=len(y), units=w.n))
    if len(y) < 3:
        raise ValueError(Message("hotspots.three"))


def _fold(larger: np.ndarray, permutations: int) -> np.ndarray:
    """esda's pseudo p-value: the smaller tail count, + 1, over permutations + 1."""
    larger = np.minimum(larger, permutations - larger)
    return (larger + 1.0) / (permutations + 1.0)


def permutation_draws(rng: np.random.Generator, pool: int, k: int, rows: int) -> np.ndarray:
    """`rows` ordered samples of k distinct indices from range(pool) (Floyd's algorithm, then
    each row shuffled, so any first j columns are a uniform sample of j)."""
    if k > pool:
        raise ValueError(f"cannot draw {k} distinct values from {pool}")
    out = np.empty((rows, k), dtype=np.int64)
    for col, top in enumerate(range(pool - k, pool)):
        t = rng.integers(0, top + 1, size=rows)
        taken = (out[:, :col] == t[:, None]).any(axis=1)
        out[:, col] = np.where(taken, top, t)
    return rng.permuted(out, axis=1)


@dataclass(frozen=True)
class LocalMoran:
    """Local Moran's I per unit with its conditional-permutation pseudo p-value."""

    I: np.ndarray  # noqa: E741 (the statistic's name)
    z: np.ndarray  # the standardised values
    lag: np.ndarray  # the neighbours' mean z (row-standardised spatial lag)
    quadrant: np.ndarray  # 1 HH, 2 LH, 3 LL, 4 HL (0 for a unit without neighbours)
    p_sim: np.ndarray  # NaN for a unit without neighbours
    permutations: int
    seed: int


def local_moran(y, w: Weights, permutations: int = 999, seed: int = 0,
                chunk_elems: int = 8_000_000) -> LocalMoran:  # fmt: skip
    """Local Moran's I of y on weights w (rows standardised here), seeded permutations."""
    z = _standardised(y)
    _check(z, w)
    n = len(z)
    ws = w.row_standardised()
    lag = ws @ z
    scaling = (n - 1) / (z @ z)
    local = scaling * z * lag
    quadrant = np.select(
        [(z > 0) & (lag > 0), (z <= 0) & (lag > 0), (z <= 0) & (lag <= 0)], [1, 2, 3], 4
    )
    island = w.islands
    quadrant[island] = 0
    p = np.full(n, np.nan)
    if permutations > 0:
        p = _conditional_p(z, ws, local, scaling, permutations, seed, chunk_elems)
        p[island] = np.nan
    return LocalMoran(local, z, lag, quadrant, p, permutations, seed)


def _conditional_p(z, ws, observed, scaling, permutations, seed, chunk_elems):
    """Pseudo p-values of local I: each unit's neighbours drawn from the other n − 1 units."""
    n = len(z)
    card = np.diff(ws.indptr)
    kmax = int(card.max())
    p = np.full(n, np.nan)
    if kmax == 0:
        return p
    rng = np.random.default_rng(seed)
    draws = permutation_draws(rng, n - 1, kmax, permutations)  # (permutations, kmax)
    # Each unit's weights padded to kmax (all equal within a row: they are standardised).
    weights = np.zeros((n, kmax))
    for i in np.flatnonzero(card):
        weights[i, : card[i]] = ws.data[ws.indptr[i] : ws.indptr[i + 1]]
    step = max(1, chunk_elems // (permutations * kmax))
    units = np.flatnonzero(card)
    for start in range(0, len(units), step):
        i = units[start : start + step]
        # Index j of "the others" is unit j for j < i and unit j + 1 from i on.
        ids = draws[None, :, :] + (draws[None, :, :] >= i[:, None, None])
        lags = np.einsum("upk,uk->up", z[ids], weights[i])
        sims = scaling * z[i, None] * lags
        larger = (sims >= observed[i, None]).sum(axis=1)
        p[i] = _fold(larger, permutations)
    return p


def lisa_classes(result: LocalMoran, alpha: float = 0.05, p=None) -> np.ndarray:
    """HH, LL, HL, LH where the (adjusted) p-value is <= alpha, else "not significant";
    "no neighbours" for islands."""
    p = result.p_sim if p is None else np.asarray(p, float)
    out = np.array([QUADRANTS.get(int(q), NO_NEIGHBOURS) for q in result.quadrant], dtype=object)
    with np.errstate(invalid="ignore"):
        significant = p <= alpha
    out[(result.quadrant > 0) & ~significant] = NOT_SIGNIFICANT
    return out


@dataclass(frozen=True)
class GetisOrd:
    """Getis–Ord Gi* z-scores (binary weights, the unit included) and two-sided p-values."""

    z: np.ndarray
    p: np.ndarray


def _normal_sf(x):
    """The standard normal's upper tail (scipy.stats imported here: loading GeoBias needs none)."""
    from scipy import stats

    return stats.norm.sf(x)


def getis_ord_star(y, w: Weights) -> GetisOrd:
    """Gi* of y on w's neighbours plus the unit itself, each with weight 1. Islands get NaN
    (their only 'neighbourhood' is themselves)."""
    y = np.asarray(y, dtype=float).ravel()
    _standardised(y)  # checks finite, not constant
    _check(y, w)
    n = len(y)
    a = w.adjacency
    total = a @ y + y  # the neighbourhood sum, the unit included
    wsum = w.cardinalities + 1.0
    wsq = wsum  # binary weights: the sum of squares is the sum
    mean = y.mean()
    s = np.sqrt((y * y).mean() - mean * mean)
    with np.errstate(invalid="ignore", divide="ignore"):
        z = (total - mean * wsum) / (s * np.sqrt((n * wsq - wsum * wsum) / (n - 1)))
    z[w.islands] = np.nan
    p = 2.0 * _normal_sf(np.abs(z))
    return GetisOrd(z, p)


# Gi* confidence bins as ArcGIS's Gi_Bin: ±3 at 99%, ±2 at 95%, ±1 at 90%, 0 otherwise.
GI_LEVELS = ((0.01, 3), (0.05, 2), (0.10, 1))


def gi_bins(result: GetisOrd, p=None) -> np.ndarray:
    """+3/+2/+1 hot spot at 99/95/90% confidence, −3/−2/−1 cold spot, 0 neither."""
    p = result.p if p is None else np.asarray(p, float)
    level = np.zeros(len(p), dtype=np.int64)
    for cut, value in GI_LEVELS[::-1]:
        with np.errstate(invalid="ignore"):
            level[p <= cut] = value
    sign = np.sign(np.where(np.isfinite(result.z), result.z, 0.0)).astype(np.int64)
    return sign * level


@dataclass(frozen=True)
class GlobalMoran:
    """Global Moran's I and its two tests, named as esda names them: the normal approximation
    (z_norm, two-sided p_norm) and the permutation test (z_sim, one-sided pseudo p_sim)."""

    I: float  # noqa: E741
    expected: float
    z_norm: float
    p_norm: float  # two-sided
    p_sim: float  # one-sided: the smaller tail of the permuted I, esda's p_sim
    permutations: int
    n: int
    z_sim: float = np.nan  # (I - mean of the permuted I) / their sd (population), esda's z_sim


def global_moran(y, w: Weights, permutations: int = 999, seed: int = 0) -> GlobalMoran:
    """Global Moran's I of y on row-standardised w (esda's Moran with transformation "r")."""
    z = _standardised(y)
    _check(z, w)
    n = len(z)
    ws = w.row_standardised()
    s0 = ws.sum()
    if not s0 > 0:
        raise ValueError(Message("hotspots.no_neighbour"))
    zz = z @ z
    value = float(n / s0 * (z @ (ws @ z)) / zz)
    expected = -1.0 / (n - 1)
    sym = ws + ws.T
    s1 = 0.5 * sym.multiply(sym).sum()
    out_in = np.asarray(ws.sum(axis=1)).ravel() + np.asarray(ws.sum(axis=0)).ravel()
    s2 = float((out_in**2).sum())
    var = (n * n * s1 - n * s2 + 3 * s0 * s0) / ((n - 1) * (n + 1) * s0 * s0) - expected**2
    # Var(I) is 0 when every permutation gives the same I: each unit the neighbour of all the
    # others (k = n - 1 neighbours), where I = -1/(n-1) exactly. No z then, rather than a
    # division by zero (or by the square root of a rounding error, either sign).
    if var > 1e-12 * max(expected * expected, 1e-12):
        z_norm = (value - expected) / np.sqrt(var)
        p_norm = float(2.0 * _normal_sf(abs(z_norm)))
    else:
        z_norm = p_norm = np.nan
    p_sim = z_sim = np.nan
    if permutations > 0:
        rng = np.random.default_rng(seed)
        sims = np.empty(permutations)
        step = max(1, 4_000_000 // n)
        for start in range(0, permutations, step):
            rows = min(step, permutations - start)
            # Shuffled in place in a contiguous copy: the same draws as permuting a broadcast
            # view, without numpy's slow copy of a zero-stride array.
            zp = np.tile(z, (rows, 1))
            rng.permuted(zp, axis=1, out=zp)
            # Column k of zt is permutation k; zt_k · (W zt_k) with both operands contiguous.
            zt = np.ascontiguousarray(zp.T)
            sims[start : start + rows] = n / s0 * np.einsum("ij,ij->j", zt, ws @ zt) / zz
        p_sim = float(_fold(int((sims >= value).sum()), permutations))
        spread = sims.std()
        # Every permutation the same I (see Var(I) above): no z, as for the normal test.
        if spread > 1e-12 * max(abs(expected), 1e-12):
            z_sim = float((value - sims.mean()) / spread)
    return GlobalMoran(value, expected, float(z_norm), p_norm, p_sim, permutations, n, z_sim)


# Points' rank errors: each point's k nearest points (great-circle) as its neighbourhood.
POINT_NEIGHBOURS = 8


def points_moran(lon, lat, values, k: int = POINT_NEIGHBOURS, permutations: int = 999,
                 seed: int = 0) -> GlobalMoran | None:  # fmt: skip
    """Global Moran's I of point values (e.g. rank errors; NaN = left out) on k-nearest-neighbour
    great-circle weights; None with too few points or constant values (nothing to measure)."""
    lon, lat = np.asarray(lon, float).ravel(), np.asarray(lat, float).ravel()
    v = np.asarray(values, float).ravel()
    ok = np.isfinite(v) & np.isfinite(lon) & np.isfinite(lat)
    if ok.sum() <= max(k, 2) or not v[ok].std() > 0:
        return None
    w = knn_weights(lon[ok], lat[ok], k, geographic=True)
    return global_moran(v[ok], w, permutations, seed)


def adjusted(p, fdr: bool) -> np.ndarray:
    """The p-values to classify by: Benjamini–Hochberg q-values with `fdr`, else p as is."""
    return benjamini_hochberg(p) if fdr else np.asarray(p, float)
