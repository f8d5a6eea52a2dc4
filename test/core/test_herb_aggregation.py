"""HERB aggregation against hand computations and a literal loop-by-loop transcription of
docs/design.md (and of the published code, for reference_code mode)."""

import itertools
import math

import numpy as np
import pytest

from geobias.core.herb.aggregation import (
    AggregationError,
    aggregate,
    flat_baseline,
    mean_abs_pair_difference,
    pair_weighted_distance_sums,
)
from geobias.core.herb.descriptors import Descriptor
from geobias.core.herb.hierarchy import Hierarchy


def words(d, topics=("a", "b")):
    return [Descriptor(f"w{i}", topics[i % len(topics)]) for i in range(d)]


def unit(x):
    x = np.asarray(x, dtype=float)
    return x / np.linalg.norm(x)


# --- a hierarchy small enough to compute by hand -------------------------------------------


def test_two_leaves_by_hand():
    # P has two leaf children; everything below is worked out on paper.
    h = Hierarchy.from_parent_ids(["P", "a", "b"], ["P", "A", "B"], [None, "P", "P"])
    s = np.array([[-1.0, -1.0], [-3.0, -4.0], [-4.0, -3.0]])
    z = np.array([-2.0, -1.0, -3.0])
    r = aggregate(h, s, z, words(2), topics=False, flat=False)
    # v_A = (-0.6, -0.8), v_B = (-0.8, -0.6); centroid (-0.7, -0.7); |diffs| = (0.2, 0.2),
    # alpha = (0.5, 0.5); V_P = normalise(0.5 * centroid + v_P) = -(1, 1)/sqrt(2).
    assert r.v[1] == pytest.approx([-0.6, -0.8])
    assert r.V[0] == pytest.approx([-1 / math.sqrt(2), -1 / math.sqrt(2)])
    # One pair, weight 1: C = ||v_A - v_B|| = sqrt(0.08).
    assert r.C_w[0] == pytest.approx(math.sqrt(0.08))
    assert r.C_z[0] == pytest.approx(math.sqrt(0.08))
    # Child biases: distance to the centroid, sqrt(0.02) each.
    assert r.child_bias[1:] == pytest.approx([math.sqrt(0.02)] * 2)
    assert r.deviation[1] == pytest.approx([0.1, 0.1])
    # The root has one child (P): no sparseness, its vector is P's.
    assert math.isnan(r.C_w[r.root]) and r.V[r.root] == pytest.approx(r.V[0])


def test_three_leaves_weights_by_hand():
    # Three leaf children on the unit circle in 2-D, own vector along the diagonal.
    h = Hierarchy.from_parent_ids(list("Pabc"), list("PABC"), [None, "P", "P", "P"])
    va, vb, vc = [1.0, 0.0], [0.0, 1.0], unit([1.0, 1.0])
    s = -np.array([[1.0, 1.0], va, vb, vc]) * 3.0  # negative, like log-probs
    z = np.array([0.0, -1.0, -2.0, -3.0])
    r = aggregate(h, s, z, words(2), topics=False, flat=False)
    vs = -np.array([va, vb, vc])
    centroid = vs.mean(axis=0)
    b = np.linalg.norm(vs - centroid, axis=1)
    dist = {(0, 1): math.sqrt(2), (0, 2): np.linalg.norm(vs[0] - vs[2]), (1, 2): 0.0}
    dist[(1, 2)] = np.linalg.norm(vs[1] - vs[2])
    num = sum(math.exp(b[k] + b[j]) * dist[(k, j)] for k, j in dist)
    den = sum(math.exp(b[k] + b[j]) for k, j in dist)
    assert r.C_w[0] == pytest.approx(num / den)
    zk = z[1:]
    num = sum(math.exp(zk[k] + zk[j]) * dist[(k, j)] for k, j in dist)
    den = sum(math.exp(zk[k] + zk[j]) for k, j in dist)
    assert r.C_z[0] == pytest.approx(num / den)
    # c_i = mean over the 3 pairs of |difference|: column 0 has values -1, 0, -0.7071.
    c0 = (1 + (1 - 1 / math.sqrt(2)) + 1 / math.sqrt(2)) / 3
    c = mean_abs_pair_difference(vs)
    assert c[0] == pytest.approx(c0) and c[1] == pytest.approx(c0)
    alpha = np.exp(c) / np.exp(c).sum()
    assert r.V[0] == pytest.approx(unit(alpha * centroid + unit(s[0])))


# --- a literal transcription of design.md ---------------------------------------------------


def naive_herb(h, s, z):
    """design.md, loop by loop: returns V, C_w, C_z (root last)."""
    n = len(h)
    v = s / np.linalg.norm(s, axis=1, keepdims=True)
    kids = {r: [k for k in range(n) if h.parent[k] == r] for r in range(n)}
    kids[n] = [k for k in range(n) if h.parent[k] == -1]
    V = {}
    C_w, C_z = {}, {}
    for r in sorted(range(n), key=lambda i: -h.depth[i]) + [n]:
        k = kids[r]
        if len(k) < 2:
            V[r] = v[r] if r < n else V[k[0]]
            C_w[r] = C_z[r] = math.nan
            continue
        W = np.array([V[i] for i in k])
        m = len(k)
        centroid = W.mean(axis=0)
        pairs = list(itertools.combinations(range(m), 2))
        c = np.array(
            [sum(abs(W[a, i] - W[b, i]) for a, b in pairs) / len(pairs) for i in range(s.shape[1])]
        )
        alpha = np.exp(c) / np.exp(c).sum()
        agg = alpha * centroid + (v[r] if r < n else 0.0)
        V[r] = agg / np.linalg.norm(agg)
        bias = []
        for i in k:
            if not kids[i]:
                bias.append(np.linalg.norm(V[i] - centroid))
            elif len(kids[i]) == 1:
                bias.append(0.0)
            else:
                bias.append(C_w[i])
        for out, wts in ((C_w, bias), (C_z, [z[i] for i in k])):
            num = sum(math.exp(wts[a] + wts[b]) * np.linalg.norm(W[a] - W[b]) for a, b in pairs)
            den = sum(math.exp(wts[a] + wts[b]) for a, b in pairs)
            out[r] = num / den
    return (
        np.array([V[i] for i in range(n + 1)]),
        np.array([C_w[i] for i in range(n + 1)]),
        np.array([C_z[i] for i in range(n + 1)]),
    )


def random_tree(rng, n_top=3, max_kids=4, depth=3):
    """A random 3-level tree with regions of 0, 1 and several children."""
    ids, parents = [], []
    for t in range(n_top):
        ids.append(f"t{t}")
        parents.append(None)
        for c in range(int(rng.integers(0, max_kids + 1)) if t else 1):
            ids.append(f"t{t}c{c}")
            parents.append(f"t{t}")
            if depth > 2:
                for g in range(int(rng.integers(0, max_kids + 2))):
                    ids.append(f"t{t}c{c}g{g}")
                    parents.append(f"t{t}c{c}")
    return Hierarchy.from_parent_ids(ids, ids, parents)


@pytest.mark.parametrize("seed", range(6))
def test_matches_design_transcription(seed):
    rng = np.random.default_rng(seed)
    h = random_tree(rng)
    d = 7
    s = -rng.uniform(2, 9, (len(h), d))
    z = -rng.uniform(3, 12, len(h))
    r = aggregate(h, s, z, words(d), topics=False, flat=False)
    V, C_w, C_z = naive_herb(h, s, z)
    assert r.V == pytest.approx(V, rel=1e-10, abs=1e-12)
    np.testing.assert_allclose(r.C_w, C_w, rtol=1e-10, equal_nan=True)
    np.testing.assert_allclose(r.C_z, C_z, rtol=1e-10, equal_nan=True)
    nk = h.n_children()
    assert np.isnan(r.C_w[:-1][nk < 2]).all() and np.isfinite(r.C_w[:-1][nk >= 2]).all()


def test_zero_and_one_child_regions_explicitly():
    # T: children X (no children), Y (one child y1), Q (two children).
    ids = ["T", "X", "Y", "y1", "Q", "q1", "q2"]
    parents = [None, "T", "T", "Y", "T", "Q", "Q"]
    h = Hierarchy.from_parent_ids(ids, ids, parents)
    rng = np.random.default_rng(3)
    s = -rng.uniform(1, 5, (len(h), 4))
    z = -rng.uniform(1, 5, len(h))
    r = aggregate(h, s, z, words(4), topics=False, flat=False)
    row = {name: i for i, name in enumerate(ids)}
    v = s / np.linalg.norm(s, axis=1, keepdims=True)
    # No sparseness with fewer than two children: C missing, V = the region's own v.
    for name in ("X", "Y", "y1", "q1"):
        assert math.isnan(r.C_w[row[name]]) and math.isnan(r.C_z[row[name]])
    assert r.V[row["X"]] == pytest.approx(v[row["X"]])
    assert r.V[row["Y"]] == pytest.approx(v[row["Y"]])
    # In T's pair weights: X (a leaf) brings its distance to the centroid, Y (one child) 0,
    # Q its C_w.
    centroid = r.V[[row["X"], row["Y"], row["Q"]]].mean(axis=0)
    assert r.child_bias[row["X"]] == pytest.approx(np.linalg.norm(v[row["X"]] - centroid))
    assert r.child_bias[row["Y"]] == 0.0
    assert r.child_bias[row["Q"]] == pytest.approx(r.C_w[row["Q"]])
    assert r.n_children[row["T"]] == 3 and r.n_children[r.root] == 1


def test_large_cluster_float32_blocks_match_float64():
    rng = np.random.default_rng(0)
    w = rng.normal(size=(1500, 30))
    w /= np.linalg.norm(w, axis=1, keepdims=True)
    u = rng.uniform(0.5, 1.5, (1500, 2))
    got = pair_weighted_distance_sums(w, u)
    want = np.zeros(2)
    for i in range(0, 1500, 300):  # float64 reference, row blocks
        d = np.linalg.norm(w[i : i + 300, None, :] - w[None, :, :], axis=2)
        want += np.einsum("kq,kl,lq->q", u[i : i + 300], d, u)
    want /= 2
    np.testing.assert_allclose(got, want, rtol=2e-5)


def test_gini_mean_difference_matches_pairs():
    rng = np.random.default_rng(1)
    w = rng.normal(size=(40, 5))
    want = np.mean([np.abs(w[a] - w[b]) for a, b in itertools.combinations(range(40), 2)], axis=0)
    assert mean_abs_pair_difference(w) == pytest.approx(want)


def test_flat_baseline_matches_all_pairs_and_counts_duplicates():
    rng = np.random.default_rng(2)
    h = random_tree(rng, n_top=3)
    s = -rng.uniform(1, 5, (len(h), 6))
    s[5] = s[6]  # two regions with identical vectors (like two cities sharing a name)
    v = s / np.linalg.norm(s, axis=1, keepdims=True)
    got = flat_baseline(h, v)
    top = h.top_ancestor()

    def mean_pairs(rows):
        return np.mean([np.linalg.norm(v[a] - v[b]) for a, b in itertools.combinations(rows, 2)])

    for t in np.flatnonzero(h.depth == 0):
        rows = np.flatnonzero(top == t)
        if len(rows) > 1:
            assert got[h.names[t]] == pytest.approx(mean_pairs(rows), rel=1e-5)
    assert got["Earth"] == pytest.approx(mean_pairs(range(len(h))), rel=1e-5)


def test_topic_c_and_ablation_are_the_aggregation_on_those_columns():
    rng = np.random.default_rng(4)
    h = random_tree(rng)
    desc = [Descriptor(f"w{i}", t) for i, t in enumerate("aabbbcc")]
    s = -rng.uniform(1, 9, (len(h), 7))
    z = -rng.uniform(1, 9, len(h))
    r = aggregate(h, s, z, desc, flat=False)
    cols = {"a": [0, 1], "b": [2, 3, 4], "c": [5, 6]}
    for t, c in cols.items():
        only = aggregate(h, s[:, c], z, [desc[i] for i in c], topics=False, flat=False)
        rest = [i for i in range(7) if i not in c]
        without = aggregate(h, s[:, rest], z, [desc[i] for i in rest], topics=False, flat=False)
        np.testing.assert_allclose(r.topic_C_w[t], only.C_w, equal_nan=True)
        np.testing.assert_allclose(r.topic_C_z[t], only.C_z, equal_nan=True)
        np.testing.assert_allclose(r.without_C_w[t], without.C_w, equal_nan=True)
    # The per-topic numbers differ from the full C (the topic matters).
    assert not np.allclose(r.topic_C_w["a"][r.root], r.C_w[r.root])


# --- reference_code mode: the published code's arithmetic --------------------------------


def ref_weighted(weights, X):
    """The published Eq. 8/9 loops: softmax pair weights, then the extra 2 / (m (m - 1))."""
    m = len(X)
    pairs = list(itertools.combinations(range(m), 2))
    den = sum(np.exp(weights[i] + weights[j]) for i, j in pairs)
    wv = sum(np.exp(weights[i] + weights[j]) / den * np.linalg.norm(X[i] - X[j]) for i, j in pairs)
    return 2 * wv / (m * (m - 1))


def naive_reference(h, s, z):
    """The published scripts' arithmetic for a continent -> country -> city tree, written out
    as they compute it (prepareContinent.py, calculateBias.py, calculateBiasVariant.py)."""
    n = len(h)
    v = s / np.linalg.norm(s, axis=1, keepdims=True)
    kids = {r: [k for k in range(n) if h.parent[k] == r] for r in range(n)}
    continents = [i for i in range(n) if h.depth[i] == 0]
    out_C, out_Cz = {}, {}
    cont_V, cont_C, cont_Cz = [], [], []
    for cont in continents:
        Vc, Cc, Czc = [], [], []
        for country in kids[cont]:
            cities = kids[country]
            m = len(cities)
            if m == 0:
                Vc.append(v[country])
                Cc.append(0.0)
                Czc.append(0.0)
                continue
            if m == 1:
                Vc.append(v[country] + v[cities[0]])
                Cc.append(0.0)
                Czc.append(0.0)
                continue
            X = v[cities]
            avg = X.mean(axis=0)
            CR = np.zeros(m)
            for line in range(m - 1):
                cal = ((X[line] - X[line + 1 :]) ** 2).sum(axis=0)  # overwritten each time
                CR[line] = np.linalg.norm(X[line] - avg)
            c = 2 * cal / (m * (m - 1))
            e = np.exp(c) / np.exp(c).sum()
            Vc.append(e * avg + v[country])
            f = np.zeros(m)
            f[-1] = z[cities[-1]]
            Cc.append(ref_weighted(CR, X))
            Czc.append(ref_weighted(f, X))
        Vc, Cc, Czc = np.array(Vc), np.array(Cc), np.array(Czc)
        m = len(Vc)
        for line in range(m - 1):
            cal = ((Vc[line] - Vc[line + 1 :]) ** 2).sum(axis=0)
        c = 2 * cal / (m * (m - 1))
        e = np.exp(c) / np.exp(c).sum()
        Vn = Vc / np.linalg.norm(Vc, axis=1, keepdims=True)
        cont_V.append(e * Vn.mean(axis=0) + s[cont])  # raw scores of the continent
        f = np.zeros(m)
        f[-1] = z[kids[cont][-1]]
        cont_C.append(ref_weighted(Cc, Vn))
        cont_Cz.append(ref_weighted(f, Vn))
        out_C[cont], out_Cz[cont] = cont_C[-1], cont_Cz[-1]
    Vc, Cc = np.array(cont_V), np.array(cont_C)
    m = len(Vc)
    Vn = Vc / np.linalg.norm(Vc, axis=1, keepdims=True)
    f = np.zeros(m)
    f[-1] = z[continents[-1]]
    return out_C, out_Cz, [ref_weighted(Cc, Vn), ref_weighted(f, Vn)]


@pytest.mark.parametrize("seed", range(4))
def test_reference_code_mode_reproduces_the_published_arithmetic(seed):
    rng = np.random.default_rng(10 + seed)
    ids, parents = [], []
    for t in range(4):  # continents, every one with >= 2 countries, some with 0/1 cities
        ids.append(f"t{t}")
        parents.append(None)
        for c in range(int(rng.integers(2, 5))):
            ids.append(f"t{t}c{c}")
            parents.append(f"t{t}")
            for g in range(int(rng.integers(0, 5))):
                ids.append(f"t{t}c{c}g{g}")
                parents.append(f"t{t}c{c}")
    ids.append("t9c0g0")  # keep the deepest level at depth 2
    parents.append("t0c0")
    h = Hierarchy.from_parent_ids(ids, ids, parents)
    d = 6
    s = -rng.uniform(1, 9, (len(h), d))
    z = -rng.uniform(1, 9, len(h))
    r = aggregate(h, s, z, words(d), reference_code=True, topics=False, flat=False)
    C, Cz, earth = naive_reference(h, s, z)
    for cont in C:
        assert r.C_w[cont] == pytest.approx(C[cont], rel=1e-9)
        assert r.C_z[cont] == pytest.approx(Cz[cont], rel=1e-9)
    assert r.C_w[r.root] == pytest.approx(earth[0], rel=1e-9)
    assert r.C_z[r.root] == pytest.approx(earth[1], rel=1e-9)
    # ... and those numbers differ from the default method's.
    default = aggregate(h, s, z, words(d), topics=False, flat=False)
    assert default.C_w[default.root] != pytest.approx(r.C_w[r.root], rel=1e-3)
    # One- and no-city countries report C = 0 there (NaN by default).
    small = np.flatnonzero((h.depth == 1) & (h.n_children() < 2))
    assert (r.C_w[small] == 0).all() and np.isnan(default.C_w[small]).all()


def test_results_as_plain_records():
    h = Hierarchy.from_parent_ids(list("Pabc"), ["P", "A", "B", "C"], [None, "P", "P", "P"])
    rng = np.random.default_rng(5)
    desc = words(4)
    r = aggregate(h, -rng.uniform(1, 5, (4, 4)), -rng.uniform(1, 5, 4), desc)
    rows = r.region_rows()
    assert [x.region for x in rows] == ["Earth", "P", "A", "B", "C"]
    assert rows[0].level == "root" and rows[1].parent == "Earth" and rows[2].parent == "P"
    assert rows[1].n_children == 3 and rows[1].C_w == pytest.approx(r.C_w[0])
    assert set(rows[1].topic_C_w) == {"a", "b"} and set(rows[1].without_C_z) == {"a", "b"}
    assert rows[1].flat == pytest.approx(r.flat["P"]) and rows[0].flat == r.flat["Earth"]
    cells = r.descriptor_rows()
    assert len(cells) == 4 * 4
    a0 = cells[4]  # region A, first descriptor
    assert (a0.region, a0.word, a0.topic) == ("A", "w0", "a")
    assert a0.v == pytest.approx(r.v[1, 0]) and a0.deviation == pytest.approx(r.deviation[1, 0])


def test_bad_scores_are_refused_with_a_clear_message():
    h = Hierarchy.from_parent_ids(["a", "b"], ["A", "B"], [None, None])
    with pytest.raises(AggregationError, match="regions, descriptors"):
        aggregate(h, np.ones((2, 3)), np.ones(2), words(2))
    s = -np.ones((2, 2))
    s[1, 0] = np.nan
    with pytest.raises(AggregationError, match="lack scores.*B"):
        aggregate(h, s, -np.ones(2), words(2))
    with pytest.raises(AggregationError, match="zero"):
        aggregate(h, np.zeros((2, 2)), -np.ones(2), words(2))
