"""A bias measure (mean rank error per census unit, a rating per point) against many census
variables: Spearman's rho per variable with p-value and bootstrap interval (core.metrics), and
p-values adjusted for testing many variables at once (core.multiple_testing)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .metrics import Correlation, spearman
from .multiple_testing import benjamini_hochberg, holm


@dataclass(frozen=True)
class FieldCorrelation:
    """One variable's Spearman correlation with the bias measure, and its adjusted p-values."""

    field: str
    correlation: Correlation
    p_holm: float
    p_bh: float


def correlate_fields(value, fields: dict, n_boot: int = 1000, seed: int = 0,
                     clusters=None) -> list[FieldCorrelation]:  # fmt: skip
    """Spearman's rho of `value` with each array in `fields` (name -> values, same length).

    `clusters` (a label per row, such as the census unit a point lies in) makes the intervals
    a cluster bootstrap, as in core.metrics.spearman. Holm and Benjamini–Hochberg adjust the
    p-values over the variables that have one.
    """
    corrs = [(name, spearman(value, x, n_boot, seed, clusters=clusters))
             for name, x in fields.items()]  # fmt: skip
    p = np.array([c.p for _, c in corrs], dtype=float)
    p_holm, p_bh = holm(p), benjamini_hochberg(p)
    return [
        FieldCorrelation(name, c, float(h), float(b))
        for (name, c), h, b in zip(corrs, p_holm, p_bh)
    ]


# Spearman's rho needs this many units with a value (core.metrics.spearman).
MIN_UNITS = 3


def minimum_to_fill(n_scored, usable=None, needed: int = MIN_UNITS):
    """The largest minimum point count per unit that leaves `needed` units to correlate, or
    None when fewer than `needed` units have any scored point.

    `n_scored` is each unit's count of scored points (aggregate's n_scored) and `usable`
    which units have a bias value at all (e.g. a finite mean rank error). A unit counts when
    n_scored >= the minimum, so the answer is the `needed`-th largest count.
    """
    n = np.asarray(n_scored, dtype=float)
    ok = np.isfinite(n) & (n > 0)
    if usable is not None:
        ok &= np.asarray(usable, bool)
    counts = np.sort(n[ok])[::-1]
    if len(counts) < needed:
        return None
    return int(counts[needed - 1])


def significance_counts(results: list[FieldCorrelation], alpha: float = 0.05) -> tuple:
    """(variables tested, significant at alpha before adjustment, after Holm's correction
    (family-wise error), at a false discovery rate of alpha (Benjamini–Hochberg))."""
    tested = [r for r in results if np.isfinite(r.correlation.p)]
    return (
        len(tested),
        sum(r.correlation.p <= alpha for r in tested),
        sum(r.p_holm <= alpha for r in tested),
        sum(r.p_bh <= alpha for r in tested),
    )
