"""Adjusted p-values for many tests at once: Holm (family-wise error) and Benjamini–Hochberg
(false discovery rate). NaN p-values are left out of the family and stay NaN.

(scipy.stats.false_discovery_control arrived in scipy 1.11; Debian 12 ships 1.10.)
"""

from __future__ import annotations

import numpy as np


def _finite(p) -> tuple[np.ndarray, np.ndarray]:
    p = np.asarray(p, dtype=float).ravel()
    ok = np.isfinite(p)
    if ((p[ok] < 0) | (p[ok] > 1)).any():
        raise ValueError("p-values must lie in [0, 1]")
    return p, ok


def holm(p) -> np.ndarray:
    """Holm's step-down adjusted p-values: reject where adjusted p <= alpha keeps the chance
    of any false rejection <= alpha."""
    p, ok = _finite(p)
    out = np.full(p.shape, np.nan)
    q = p[ok]
    m = len(q)
    if m == 0:
        return out
    order = np.argsort(q, kind="stable")
    adjusted = np.maximum.accumulate((m - np.arange(m)) * q[order])
    res = np.empty(m)
    res[order] = np.minimum(adjusted, 1.0)
    out[ok] = res
    return out


def benjamini_hochberg(p) -> np.ndarray:
    """Benjamini–Hochberg adjusted p-values (q-values): reject where q <= alpha keeps the
    expected share of false discoveries <= alpha (independent or positively dependent tests)."""
    p, ok = _finite(p)
    out = np.full(p.shape, np.nan)
    q = p[ok]
    m = len(q)
    if m == 0:
        return out
    order = np.argsort(q, kind="stable")
    scaled = q[order] * m / np.arange(1, m + 1)
    # Never below p itself (q * m / m can round one ulp under q).
    adjusted = np.maximum(np.minimum.accumulate(scaled[::-1])[::-1], q[order])
    res = np.empty(m)
    res[order] = np.minimum(adjusted, 1.0)
    out[ok] = res
    return out
