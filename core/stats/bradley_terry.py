"""Bradley–Terry scores from pairwise choices (issue 36 item 2).

Each comparison names two places, the first and the second, and says which the model chose.
The model: P(first chosen) = σ(s_first − s_second + h), with a log-strength s per place (mean
zero: only differences are identified) and an order effect h, the log-odds that the place named
first is chosen whatever the two are (a position bias; asking both orders of a pair lets it be
measured apart from the strengths). Fitted by Newton's method on the log-likelihood with a ridge
on s and h, a weak Gaussian prior N(0, 1/ridge) (default variance 10, in log-odds): a model asked at
temperature 0 answers each order the same every time, so its choices are often separable and
the plain maximum-likelihood strengths infinite (and h, when it always answers "A"); the prior
keeps them finite and ordered, and is
small beside the information of a place met a few times with mixed outcomes. Standard errors
from the penalised information (the prior's posterior curvature), for the mean-zero strengths.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["BradleyTerryFit", "connected_pairs", "fit_bradley_terry", "is_connected"]


@dataclass
class BradleyTerryFit:
    """Log-strengths (mean zero) and their standard errors, the order effect h and its, the
    comparisons used, and whether Newton's method converged."""

    strength: np.ndarray
    se: np.ndarray
    order_effect: float
    order_se: float
    n_comparisons: int
    converged: bool
    iterations: int


def _sigmoid(x):
    return 0.5 * (1.0 + np.tanh(0.5 * x))  # exact logistic, no overflow


def fit_bradley_terry(first, second, first_chosen, n: int, order_effect: bool = True,
                      ridge: float = 0.1, tol: float = 1e-10,
                      max_iter: int = 100) -> BradleyTerryFit:  # fmt: skip
    """Fit s (n places) and h from comparisons: `first`, `second` the places' indices (0..n-1)
    in the order they were named, `first_chosen` True where the first was chosen (or the
    probability that it is, e.g. from log-probabilities: the same likelihood). Without
    `order_effect`, h is fixed at 0. Raises ValueError for a pair of a place with itself or an
    index out of range."""
    a = np.asarray(first, dtype=np.intp)
    b = np.asarray(second, dtype=np.intp)
    y = np.asarray(first_chosen, dtype=float)
    if not (a.shape == b.shape == y.shape):
        raise ValueError("first, second and first_chosen must have the same length")
    if a.size and (min(a.min(), b.min()) < 0 or max(a.max(), b.max()) >= n):
        raise ValueError(f"a place index is outside 0..{n - 1}")
    if np.any(a == b):
        raise ValueError("a place is compared with itself")
    m = n + 1 if order_effect else n
    theta = np.zeros(m)
    converged = False
    iterations = 0
    for _ in range(max_iter):
        iterations += 1
        eta = theta[a] - theta[b] + (theta[n] if order_effect else 0.0)
        p = _sigmoid(eta)
        r = y - p
        grad = np.bincount(a, r, minlength=m) - np.bincount(b, r, minlength=m)
        if order_effect:
            grad[n] = r.sum()
        grad -= ridge * theta
        info = _information(a, b, p * (1.0 - p), n, order_effect)
        info[np.arange(m), np.arange(m)] += ridge
        step = np.linalg.solve(info, grad)
        # Backtracking: a full Newton step can overshoot where a place is near-separated.
        before = _penalised_ll(theta, a, b, y, n, order_effect, ridge)
        t = 1.0
        while t > 1e-8 and _penalised_ll(theta + t * step, a, b, y, n, order_effect,
                                         ridge) < before - 1e-12:  # fmt: skip
            t *= 0.5
        step = t * step
        theta += step
        if np.max(np.abs(step)) < tol:
            converged = True
            break
    eta = theta[a] - theta[b] + (theta[n] if order_effect else 0.0)
    p = _sigmoid(eta)
    info = _information(a, b, p * (1.0 - p), n, order_effect)
    info[np.arange(m), np.arange(m)] += ridge
    cov = _centred(np.linalg.inv(info), n)
    se = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    s = theta[:n] - theta[:n].mean()
    h = float(theta[n]) if order_effect else 0.0
    h_se = float(se[n]) if order_effect else 0.0
    return BradleyTerryFit(s, se[:n], h, h_se, int(a.size), converged, iterations)


def _penalised_ll(theta, a, b, y, n, order_effect, ridge):
    eta = theta[a] - theta[b] + (theta[n] if order_effect else 0.0)
    # log σ(η) = −log(1 + e^−η), written to stay finite for large |η|
    ll = np.sum(y * eta - np.logaddexp(0.0, eta))
    return ll - 0.5 * ridge * np.sum(theta**2)


def _information(a, b, w, n, order_effect):
    """The observed information Σ w·x·xᵀ, x = e_first − e_second (and 1 for h)."""
    m = n + 1 if order_effect else n
    rows = [a, b, a, b]
    cols = [a, b, b, a]
    vals = [w, w, -w, -w]
    if order_effect:
        h = np.full(a.shape, n)
        rows += [a, h, b, h, h]
        cols += [h, a, h, b, h]
        vals += [w, w, -w, -w, w]
    flat = np.concatenate(rows) * m + np.concatenate(cols)
    return np.bincount(flat, weights=np.concatenate(vals), minlength=m * m).reshape(m, m)


def _centred(cov, n):
    """The covariance of (s − mean(s), h) from that of (s, h): P·cov·Pᵀ, P centring s."""
    proj = np.eye(cov.shape[0])
    proj[:n, :n] -= 1.0 / n
    return proj @ cov @ proj.T


def is_connected(pairs, n: int) -> bool:
    """Whether the comparisons link every place to every other (else strengths of separate
    groups cannot be set against each other)."""
    parent = list(range(n))

    def root(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in pairs:
        parent[root(int(i))] = root(int(j))
    return n <= 1 or len({root(i) for i in range(n)}) == 1


def connected_pairs(n: int, opponents: int, seed: int = 0) -> list[tuple[int, int]]:
    """Unordered pairs in which each of n places meets at least `opponents` others: every pair
    when that is all pairs (or fewer), else the union of ⌈opponents/2⌉ random Hamiltonian
    cycles, each of which alone connects every place. Sorted, each pair (i < j) once."""
    if n < 2:
        return []
    if opponents >= n - 1:
        return [(i, j) for i in range(n) for j in range(i + 1, n)]
    rng = np.random.default_rng(seed)
    pairs: set[tuple[int, int]] = set()
    cycles = 0
    while cycles < (opponents + 1) // 2 or min(_degrees(pairs, n)) < opponents:
        order = rng.permutation(n)
        for i, j in zip(order, np.roll(order, -1)):
            pairs.add((int(min(i, j)), int(max(i, j))))
        cycles += 1
    return sorted(pairs)


def _degrees(pairs, n):
    deg = [0] * n
    for i, j in pairs:
        deg[i] += 1
        deg[j] += 1
    return deg
