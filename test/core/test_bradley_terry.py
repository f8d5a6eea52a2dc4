"""Bradley–Terry scores (issue 36 item 2) against an independent maximum-likelihood fit
(scipy's general optimiser on the same likelihood), on synthetic choices with known strengths."""

import numpy as np
import pytest
from scipy.optimize import minimize

from geobias.core.stats.bradley_terry import connected_pairs, fit_bradley_terry, is_connected


def _choices(strength, pairs, h, seed, repeats=1):
    """Both orders of every pair, `repeats` times, chosen as the model says."""
    rng = np.random.default_rng(seed)
    first, second = [], []
    for _ in range(repeats):
        for i, j in pairs:
            first += [i, j]
            second += [j, i]
    first, second = np.array(first), np.array(second)
    p = 1 / (1 + np.exp(-(strength[first] - strength[second] + h)))
    return first, second, rng.random(first.size) < p


def _scipy_fit(first, second, chosen, n, ridge=0.1):
    """The same penalised likelihood (the prior on s and h) maximised by BFGS; the ridge on s
    identifies their mean."""

    def nll(x):
        s = x[:n]
        eta = s[first] - s[second] + x[n]
        return -np.sum(chosen * eta - np.logaddexp(0, eta)) + 0.5 * ridge * np.sum(x**2)

    res = minimize(nll, np.zeros(n + 1), method="BFGS", options={"gtol": 1e-9})
    return res.x[:n] - res.x[:n].mean(), res.x[n]


def test_strengths_and_order_effect_equal_an_independent_fit_and_recover_the_order():
    n = 30
    truth = np.linspace(-2, 2, n)
    pairs = connected_pairs(n, 8, seed=1)
    first, second, chosen = _choices(truth, pairs, h=0.4, seed=2, repeats=3)
    fit = fit_bradley_terry(first, second, chosen, n)
    s, h = _scipy_fit(first, second, chosen, n)
    assert fit.converged
    plain = fit_bradley_terry(first, second, chosen, n, ridge=1e-9)  # the plain MLE as well
    s0, h0 = _scipy_fit(first, second, chosen, n, ridge=0.0)
    assert np.allclose(plain.strength, s0, atol=1e-3) and plain.order_effect == pytest.approx(
        h0, abs=1e-3
    )
    assert np.allclose(fit.strength, s, atol=2e-4) and fit.order_effect == pytest.approx(
        h, abs=2e-4
    )
    assert abs(fit.strength.mean()) < 1e-12
    rho = np.corrcoef(np.argsort(np.argsort(fit.strength)), np.arange(n))[0, 1]
    assert rho > 0.9
    assert fit.order_effect == pytest.approx(0.4, abs=3 * fit.order_se)


def test_standard_errors_match_the_spread_over_replications():
    n = 8
    truth = np.linspace(-1, 1, n)
    pairs = connected_pairs(n, n - 1)  # all pairs
    fits = [fit_bradley_terry(*_choices(truth, pairs, 0.0, seed, repeats=4), n)
            for seed in range(80)]  # fmt: skip
    spread = np.std([f.strength for f in fits], axis=0)
    mean_se = np.mean([f.se for f in fits], axis=0)
    assert np.allclose(mean_se, spread, rtol=0.25)  # 80 replications: ~8% noise


def test_separable_choices_stay_finite_and_in_order():
    """Temperature-0 answers: every pair decided the same way in both orders (0 > 1 > 2)."""
    first, second = np.array([0, 1, 0, 2, 1, 2]), np.array([1, 0, 2, 0, 2, 1])
    chosen = np.array([True, False, True, False, True, False])
    fit = fit_bradley_terry(first, second, chosen, 3)
    assert fit.converged and np.all(np.isfinite(fit.strength)) and np.all(np.isfinite(fit.se))
    assert list(np.argsort(-fit.strength)) == [0, 1, 2] and np.abs(fit.strength).max() < 10


def test_a_model_that_always_answers_a_keeps_a_finite_order_effect_and_no_strength_gap():
    first, second = np.array([0, 1, 0, 2, 1, 2]), np.array([1, 0, 2, 0, 2, 1])
    fit = fit_bradley_terry(first, second, np.ones(6, bool), 3)
    assert fit.converged and np.isfinite(fit.order_effect) and fit.order_effect > 1
    assert np.allclose(fit.strength, 0, atol=1e-9)  # both orders chose "A": no place preferred


def test_without_an_order_effect_h_is_zero():
    first, second, chosen = _choices(np.array([0.0, 1.0, 2.0]), [(0, 1), (1, 2), (0, 2)], 0, 3, 5)
    fit = fit_bradley_terry(first, second, chosen, 3, order_effect=False)
    assert fit.order_effect == 0.0 and fit.order_se == 0.0 and fit.se.shape == (3,)


def test_the_pair_design_is_connected_and_meets_its_opponents():
    for n, k in [(40, 8), (101, 3), (5, 10), (2, 1)]:
        pairs = connected_pairs(n, k, seed=7)
        assert is_connected(pairs, n) and len(set(pairs)) == len(pairs)
        degree = np.bincount(np.array(pairs).ravel(), minlength=n)
        assert degree.min() >= min(k, n - 1)
        assert all(i < j for i, j in pairs)
    assert not is_connected([(0, 1), (2, 3)], 4)


def test_bad_comparisons_are_refused():
    with pytest.raises(ValueError, match="itself"):
        fit_bradley_terry([0], [0], [True], 2)
    with pytest.raises(ValueError, match="outside"):
        fit_bradley_terry([0], [5], [True], 2)
