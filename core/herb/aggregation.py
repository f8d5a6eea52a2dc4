"""HERB aggregation (Li et al. 2022) over a region hierarchy, from sentence scores.

Input: s[r, i], the score of the sentence "People in r are d_i." for every region r (leaves and
the regions above them), and z[r], the score of r's bare name. docs/design.md (section HERB)
states every formula and choice; `reference_code=True` reproduces the published code's
number-changing bugs instead, to compare with the paper's tables.
"""

from __future__ import annotations

import contextlib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from ..messages import Message
from .descriptors import Descriptor, topic_columns
from .hierarchy import Hierarchy

_EXACT_MAX = 512  # clusters up to this size: float64 distances; above: float32 Gram blocks
_BLOCK = 256  # rows per block of a cluster's pairwise distances (fastest here: fits the cache)
_FLAT_ROWS, _FLAT_COLS = 512, 4096  # flat baseline blocks, where OpenBLAS's sgemm ran fastest


class AggregationError(ValueError):
    """Scores that cannot be aggregated (missing, wrong shape, a zero vector)."""


@dataclass
class HerbResult:
    """HERB of one model over one hierarchy; arrays have one row per region plus the root last.

    C_w, C_z: aggregated bias (NaN for a region with fewer than two children, 0 in reference
    mode); topic_C_w/z[t]: C from topic t's descriptors only; without_C_w/z[t]: C without t;
    flat[name]: plain mean pairwise distance of all v in a top-level region's subtree, and over
    all regions under the root's name.
    """

    hierarchy: Hierarchy
    descriptors: list[Descriptor]
    scores: np.ndarray  # (n, d) s: mean log-probability of each sentence
    z: np.ndarray  # (n,) mean log-probability of each bare region name
    v: np.ndarray  # (n, d) s / ||s||
    V: np.ndarray  # (n + 1, d) aggregated descriptive vectors (normalised), root last
    C_w: np.ndarray  # (n + 1,)
    C_z: np.ndarray  # (n + 1,)
    child_bias: np.ndarray  # (n,) the C_k each region brings into its parent's pair weights
    deviation: np.ndarray  # (n, d) |V_k,i - centroid_i| of its parent's cluster
    n_children: np.ndarray  # (n + 1,)
    topic_C_w: dict[str, np.ndarray] = field(default_factory=dict)
    topic_C_z: dict[str, np.ndarray] = field(default_factory=dict)
    without_C_w: dict[str, np.ndarray] = field(default_factory=dict)
    without_C_z: dict[str, np.ndarray] = field(default_factory=dict)
    flat: dict[str, float] = field(default_factory=dict)
    reference_code: bool = False

    @property
    def root(self) -> int:
        """Row of the root (Earth) in the (n + 1)-row arrays."""
        return len(self.hierarchy)

    def region_rows(self) -> list[RegionRow]:
        """One plain record per region, the root first, then by depth and row."""
        h = self.hierarchy
        order = [self.root] + sorted(range(len(h)), key=lambda i: (h.depth[i], i))
        rows = []
        for i in order:
            is_root = i == self.root
            rows.append(
                RegionRow(
                    row=i,
                    level="root" if is_root else h.level_name(i),
                    region=h.root if is_root else h.names[i],
                    parent="" if is_root else h.parent_name(i),
                    C_w=float(self.C_w[i]),
                    C_z=float(self.C_z[i]),
                    topic_C_w={t: float(a[i]) for t, a in self.topic_C_w.items()},
                    topic_C_z={t: float(a[i]) for t, a in self.topic_C_z.items()},
                    without_C_w={t: float(a[i]) for t, a in self.without_C_w.items()},
                    without_C_z={t: float(a[i]) for t, a in self.without_C_z.items()},
                    z=float("nan") if is_root else float(self.z[i]),
                    n_children=int(self.n_children[i]),
                    child_bias=float("nan") if is_root else float(self.child_bias[i]),
                    flat=self.flat.get(h.root if is_root else h.names[i], float("nan"))
                    if is_root or h.depth[i] == 0
                    else float("nan"),
                    vector=self.V[i].copy(),
                )
            )
        return rows

    def descriptor_rows(self) -> list[DescriptorRow]:
        """One record per region x descriptor: score, v, V and the deviation from the centroid."""
        h = self.hierarchy
        out = []
        for r in range(len(h)):
            for i, d in enumerate(self.descriptors):
                out.append(
                    DescriptorRow(
                        h.names[r],
                        h.level_name(r),
                        d.word,
                        d.topic,
                        float(self.scores[r, i]),
                        float(self.v[r, i]),
                        float(self.V[r, i]),
                        float(self.deviation[r, i]),
                    )
                )
        return out


@dataclass
class RegionRow:
    """HERB results of one region (or the root) as plain values."""

    row: int
    level: str
    region: str
    parent: str
    C_w: float
    C_z: float
    topic_C_w: dict[str, float]
    topic_C_z: dict[str, float]
    without_C_w: dict[str, float]
    without_C_z: dict[str, float]
    z: float
    n_children: int
    child_bias: float
    flat: float  # plain baseline (top-level regions and the root only)
    vector: np.ndarray


@dataclass
class DescriptorRow:
    """One region x descriptor: the sentence score, v, V and |V - centroid| in its cluster."""

    region: str
    level: str
    word: str
    topic: str
    score: float
    v: float
    V: float
    deviation: float


def normalise_rows(s: np.ndarray) -> np.ndarray:
    """v = s / ||s|| row by row (a zero row is an error: it has no direction)."""
    norm = np.linalg.norm(s, axis=1)
    if np.any(norm == 0) or not np.all(np.isfinite(norm)):
        bad = np.flatnonzero((norm == 0) | ~np.isfinite(norm))
        raise AggregationError(Message("herb.zero_rows", rows=list(bad[:5])))
    return s / norm[:, None]


def softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - np.max(x))
    return e / e.sum()


def mean_abs_pair_difference(w: np.ndarray) -> np.ndarray:
    """Per column: mean over unordered pairs of rows of |w_k - w_l| (Gini's mean difference),
    from the sorted column in O(m log m): sum_{k<l} |x_(l) - x_(k)| = sum_j x_(j) (2j - m - 1)."""
    m = w.shape[0]
    coef = 2.0 * np.arange(1, m + 1) - m - 1
    cols = np.sort(np.ascontiguousarray(w.T), axis=1)  # sorting contiguous rows is far faster
    return cols @ coef * (2.0 / (m * (m - 1)))


def pair_weighted_distance_sums(w: np.ndarray, u: np.ndarray) -> np.ndarray:
    """For each column j of u: sum over pairs k < l of u[k,j] u[l,j] ||w_k - w_l||.

    Small clusters in float64; large ones by float32 Gram blocks of centred vectors (relative
    error ~1e-6), the upper triangle only, never an m x m matrix.
    """
    m = w.shape[0]
    if m <= _EXACT_MAX:
        x = w - w.mean(axis=0)
        sq = np.einsum("ij,ij->i", x, x)
        d2 = sq[:, None] + sq[None, :] - 2.0 * (x @ x.T)
        np.fill_diagonal(d2, 0.0)
        d = np.sqrt(np.maximum(d2, 0.0))
        return 0.5 * np.einsum("kq,kq->q", u, d @ u)
    left, right = _squared_distance_factors(w)
    u32 = u.astype(np.float32)
    total = np.zeros(u.shape[1])
    for i0 in range(0, m, _BLOCK):
        i1 = min(m, i0 + _BLOCK)
        g = left[i0:i1] @ right[i0:].T  # squared distances to this row and all after it
        _sqrt_abs(g)
        diag = g[:, : i1 - i0]
        np.fill_diagonal(diag, 0.0)
        diag *= 0.5  # the diagonal block holds each pair twice
        du = g @ u32[i0:]
        total += np.einsum("kq,kq->q", u32[i0:i1], du, dtype=np.float64)
    return total


def _sqrt_abs(g: np.ndarray) -> None:
    """In place: distances from float32 squared distances. Rounding leaves a near-zero squared
    distance within ~1e-7 of 0 on either side; |.| treats both sides alike and, unlike
    np.maximum (not vectorised for float32 here), costs a fraction of the square root."""
    np.abs(g, out=g)
    np.sqrt(g, out=g)


def _squared_distance_factors(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """float32 factors L, R with (L R^T)[k, l] = ||x_k - x_l||^2, so one matrix product gives
    a block of squared distances: [x, |x|^2, 1] . [-2x, 1, |x|^2] (x centred for precision)."""
    x = (x - x.mean(axis=0)).astype(np.float32)
    sq = np.einsum("ij,ij->i", x, x)[:, None]
    one = np.ones_like(sq)
    return np.hstack([x, sq, one]), np.hstack([-2.0 * x, one, sq])


def _pair_weights(b: np.ndarray) -> tuple[np.ndarray, float]:
    """a_k = exp(b_k - max b) and the sum over pairs of a_k a_l (w_kl = a_k a_l / that sum)."""
    a = np.exp(b - np.max(b))
    return a, 0.5 * (a.sum() ** 2 - (a * a).sum())


def _one_blas_thread():
    """While our two threads share the work, each BLAS call uses one thread: OpenBLAS's own
    threads would oversubscribe the cores and spin while they wait (measured here: 60% more
    CPU time for the same aggregation). threadpoolctl sets that when installed (optional)."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return contextlib.nullcontext()
    return threadpool_limits(limits=1, user_api="blas")


class _Tree:
    """What every aggregation of one hierarchy shares, whatever its descriptor columns."""

    def __init__(self, h: Hierarchy, kids: list[np.ndarray]):
        n = len(h)
        self.h = h
        self.kids = kids
        self.n_kids = np.array([len(k) for k in kids])
        self.leaf = self.n_kids[:n] == 0
        inner = np.flatnonzero(~self.leaf)
        # Bottom-up, the root last.
        self.order = list(inner[np.argsort(-h.depth[inner], kind="stable")]) + [n]
        max_depth = h.n_levels - 1
        self.lowest = {r: bool(np.all(h.depth[kids[r]] == max_depth)) for r in self.order}


def _aggregate(
    tree: _Tree,
    s: np.ndarray,
    z: np.ndarray,
    reference: bool,
    deviations: bool = True,
) -> dict:
    """V, C_w, C_z, child bias and deviations for one set of descriptor columns."""
    h, kids, n_kids, leaf = tree.h, tree.kids, tree.n_kids, tree.leaf
    n, d = s.shape
    v = normalise_rows(s)
    V = np.empty((n + 1, d))
    C_w = np.full(n + 1, np.nan)
    C_z = np.full(n + 1, np.nan)
    bias = np.zeros(n)
    deviation = np.zeros((n, d)) if deviations else None
    # Leaves keep their own vector (the reference code adds raw scores at the top level).
    V[:n][leaf] = v[leaf]
    if reference:
        top_leaf = leaf & (h.depth == 0)
        V[:n][top_leaf] = s[top_leaf]
        C_w[:n][leaf] = C_z[:n][leaf] = 0.0
    for r in tree.order:
        k = kids[r]
        m = len(k)
        own = None if r == n else v[r]
        if reference and r < n and h.depth[r] == 0:
            own = s[r]  # the reference code adds the continent's raw scores, not v
        w = V[k]
        if reference:  # it stores V unnormalised and normalises it only where it is used
            w = w / np.linalg.norm(w, axis=1)[:, None]
        centroid = w.mean(axis=0)
        if deviations:
            deviation[k] = np.abs(w - centroid)
        if m == 1:
            bias[k] = np.linalg.norm(w[0] - centroid) if leaf[k[0]] else 0.0
            if own is None:
                V[r] = w[0]
            elif reference:
                V[r] = own + w[0]
                C_w[r] = C_z[r] = 0.0
            else:
                V[r] = own
            continue
        lowest = tree.lowest[r]
        if reference:
            # Per-dimension sum overwritten in its loop: only the last pair, squared, and the
            # raw stored V above the lowest level.
            x = w if lowest else V[k]
            c = 2.0 * (x[-2] - x[-1]) ** 2 / (m * (m - 1))
        else:
            c = mean_abs_pair_difference(w)
        agg = softmax(c) * centroid
        if own is not None:
            agg = agg + own
        V[r] = agg if reference else agg / np.linalg.norm(agg)
        dist_to_centroid = np.linalg.norm(w - centroid, axis=1)
        if reference:
            b = dist_to_centroid.copy() if lowest else C_w[k].copy()
            if lowest:
                b[-1] = 0.0  # the last child's C stays 0 in the reference code
            zz = np.zeros(m)
            zz[-1] = z[k[-1]]  # z scored only for the last region
        else:
            b = np.where(leaf[k], dist_to_centroid, np.where(n_kids[k] >= 2, C_w[k], 0.0))
            zz = z[k]
        bias[k] = b
        a_w, norm_w = _pair_weights(b)
        a_z, norm_z = _pair_weights(zz)
        sums = pair_weighted_distance_sums(w, np.stack([a_w, a_z], axis=1))
        C_w[r], C_z[r] = sums[0] / norm_w, sums[1] / norm_z
        if reference:  # an extra 2 / (m (m - 1)) on top of weights that already sum to 1
            C_w[r] *= 2.0 / (m * (m - 1))
            C_z[r] *= 2.0 / (m * (m - 1))
    if reference:
        V = V / np.linalg.norm(V, axis=1)[:, None]
    return {"v": v, "V": V, "C_w": C_w, "C_z": C_z, "bias": bias, "deviation": deviation}


def flat_baseline(h: Hierarchy, v: np.ndarray, kids=None, reference: bool = False) -> dict:
    """Plain bias: mean pairwise distance of the v of all regions in each top-level region's
    subtree (itself included), and of all regions (under the root's name). Chunked: never an
    n x n matrix; identical vectors are counted once with their multiplicity."""
    flat = _FlatBaseline(h, v, kids, reference)
    return flat.means(flat.pair_sums(flat.row_blocks()))


class _FlatBaseline:
    """The flat baseline in parts: the sums over row blocks can run on several threads."""

    def __init__(self, h: Hierarchy, v: np.ndarray, kids=None, reference: bool = False):
        n = len(h)
        if reference:
            # The reference code's per-country list holds the only city's v for one-city
            # countries.
            kids = kids if kids is not None else h.children()
            v = v.copy()
            for r in range(n):
                if len(kids[r]) == 1:
                    v[r] = v[kids[r][0]]
        self.h = h
        top = h.top_ancestor()
        self.tops = np.flatnonzero(h.depth == 0)
        group_of_top = np.full(n, -1)
        group_of_top[self.tops] = np.arange(len(self.tops))
        group = group_of_top[top]
        # Identical vectors (regions sharing a name share every sentence) count once, weighted.
        xs, ms, gs = [], [], []
        for g in range(len(self.tops)):
            uniq, counts = np.unique(v[group == g], axis=0, return_counts=True)
            xs.append(uniq)
            ms.append(counts)
            gs.append(np.full(len(uniq), g))
        x = np.concatenate(xs)
        mult = np.concatenate(ms).astype(np.float64)
        grp = np.concatenate(gs)
        self.counts = np.array([m.sum() for m in ms])
        self.left, self.right = _squared_distance_factors(x)
        self.onehot = np.zeros((len(x), len(self.tops)), dtype=np.float32)
        self.onehot[np.arange(len(x)), grp] = mult

    def row_blocks(self, part: int = 0, parts: int = 1) -> range:
        """First rows of this part's row blocks; interleaved parts carry equal work."""
        return range(part * _FLAT_ROWS, len(self.left), parts * _FLAT_ROWS)

    def pair_sums(self, starts) -> np.ndarray:
        """Sums of pair distances by (row group, column group) over the rows of these blocks,
        pairs with the column after the row only."""
        n = len(self.left)
        left, right, onehot = self.left, self.right, self.onehot
        sums = np.zeros((onehot.shape[1], onehot.shape[1]))
        for i0 in starts:
            i1 = min(n, i0 + _FLAT_ROWS)
            for j0 in range(i0, n, _FLAT_COLS):
                j1 = min(n, j0 + _FLAT_COLS)
                g = left[i0:i1] @ right[j0:j1].T
                _sqrt_abs(g)
                if j0 == i0:
                    diag = g[:, : i1 - i0]
                    np.fill_diagonal(diag, 0.0)
                    diag *= 0.5
                per_col_group = g @ onehot[j0:j1]  # (rows, groups)
                sums += onehot[i0:i1].T @ per_col_group  # (groups, groups)
        return sums

    def means(self, sums: np.ndarray) -> dict:
        """Mean pair distance per top-level region and over all regions (the root's name)."""
        out = {}
        counts = self.counts
        for g, t in enumerate(self.tops):
            pairs = counts[g] * (counts[g] - 1) / 2
            out[self.h.names[t]] = float(sums[g, g] / pairs) if pairs else float("nan")
        total = counts.sum()
        pairs = total * (total - 1) / 2
        out[self.h.root] = float(sums.sum() / pairs) if total > 1 else float("nan")
        return out


def aggregate(
    hierarchy: Hierarchy,
    scores: np.ndarray,
    z: np.ndarray,
    descriptors: list[Descriptor],
    reference_code: bool = False,
    topics: bool = True,
    flat: bool = True,
) -> HerbResult:
    """HERB of every region: C_w and C_z, per-topic C and the topic ablation, the flat baseline.

    scores: (n regions, d descriptors) sentence scores in the hierarchy's row order; z: (n,)
    bare-name scores. reference_code=True reproduces the published code's bugs (design.md).
    """
    h = hierarchy
    s = np.asarray(scores, dtype=np.float64)
    z = np.asarray(z, dtype=np.float64)
    if s.ndim != 2 or s.shape != (len(h), len(descriptors)):
        raise AggregationError(
            Message("herb.score_shape", regions=len(h), descriptors=len(descriptors), shape=s.shape)
        )
    if z.shape != (len(h),):
        raise AggregationError(Message("herb.z_shape", regions=len(h), shape=z.shape))
    missing = np.flatnonzero(~np.isfinite(s).all(axis=1) | ~np.isfinite(z))
    if missing.size:
        names = ", ".join(h.names[i] for i in missing[:5])
        raise AggregationError(Message("herb.missing_scores", n=missing.size, names=names))
    if len(h) == 0:
        raise AggregationError(Message("herb.no_regions"))
    kids = h.children()
    tree = _Tree(h, kids)
    # Everything after the scores' check is independent work: the main aggregation, each topic
    # variant and two halves of the flat baseline, on two threads (numpy's sorts, element-wise
    # passes and matrix products release the GIL), the largest jobs first.
    jobs = {}
    with _one_blas_thread(), ThreadPoolExecutor(2, thread_name_prefix="herb-aggregate") as pool:
        flat_parts = None
        if flat:
            base = _FlatBaseline(h, normalise_rows(s), kids, reference_code)
            flat_parts = [pool.submit(base.pair_sums, base.row_blocks(i, 2)) for i in range(2)]
        main_job = pool.submit(_aggregate, tree, s, z, reference_code)
        if topics:
            all_cols = np.arange(len(descriptors))
            for t, c in topic_columns(descriptors).items():
                rest = np.setdiff1d(all_cols, c)
                if rest.size:
                    jobs[("without", t)] = pool.submit(
                        _aggregate, tree, s[:, rest], z, reference_code, False
                    )
                jobs[("only", t)] = pool.submit(_aggregate, tree, s[:, c], z, reference_code, False)
        main = main_job.result()
        result = HerbResult(
            hierarchy=h,
            descriptors=list(descriptors),
            scores=s,
            z=z,
            v=main["v"],
            V=main["V"],
            C_w=main["C_w"],
            C_z=main["C_z"],
            child_bias=main["bias"],
            deviation=main["deviation"],
            n_children=np.array([len(k) for k in kids]),
            reference_code=reference_code,
        )
        for (what, t), job in jobs.items():
            out = job.result()
            if what == "only":
                result.topic_C_w[t], result.topic_C_z[t] = out["C_w"], out["C_z"]
            else:
                result.without_C_w[t], result.without_C_z[t] = out["C_w"], out["C_z"]
        if flat_parts is not None:
            result.flat = base.means(sum(part.result() for part in flat_parts))
    return result
