"""Metrics: known values, the paper's reference figures and bias-score table, degenerate input."""

import warnings
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from geobias.core.stats.metrics import (
    Correlation,
    answer_rate,
    average_ranks,
    bias_score,
    bootstrap_spearman,
    fractional_rank,
    gini,
    mad,
    mean_rank,
    mean_rank_error,
    rank_error,
    spearman,
    summarize,
)
from geobias.core.survey.ratings import read_ratings_table

# The paper's GPT-3.5 ratings, bundled with the plugin (resources/reference).
REF = (
    str(Path(__file__).resolve().parents[2] / "resources" / "reference" / "geollm-gpt35")
    + "/gpt_3_5_turbo_0613_"
)
ATTRACTIVENESS = REF + "Average_Attractiveness_of_Residents_world_prompts.csv"
ATTRACTIVENESS_EV = REF + "Average_Attractiveness_of_Residents_world_prompts_expected_value.csv"
INFANT_MORTALITY = REF + "Infant_Mortality_Rate_world_prompts.csv"

MODELS = ["GPT-4 Turbo", "GPT-3.5 Turbo", "Gemini Pro", "Mixtral 8x7B", "Llama 2 70B"]
TOPICS = ["Likability", "Attractiveness", "Morality", "Intelligence", "Work Ethic"]
# Transcribed from the paper (llms-are-geographically-biased.txt): Section 4.1 table of rho with
# infant survival, Table 4 (MAD), the answer-rate table and the bias-score table, sensitive topics.
PAPER_RHO = [
    [0.39, 0.47, 0.50, 0.47, 0.16],
    [0.11, 0.50, 0.50, 0.44, 0.27],
    [0.10, 0.45, 0.63, 0.55, 0.17],
    [0.22, 0.62, 0.67, 0.65, 0.18],
    [0.47, 0.48, 0.65, 0.41, 0.33],
]
PAPER_MAD = [
    [0.57, 0.24, 0.83, 0.93, 0.34],
    [0.04, 0.57, 0.71, 0.71, 0.46],
    [0.12, 0.24, 1.23, 0.81, 0.10],
    [0.03, 0.54, 0.81, 0.65, 0.05],
    [0.49, 0.26, 0.96, 0.39, 0.70],
]
PAPER_ANSWER_RATE = [
    [1.00, 1.00, 1.00, 1.00, 1.00],
    [0.98, 1.00, 1.00, 1.00, 1.00],
    [0.98, 1.00, 1.00, 0.92, 1.00],
    [0.99, 1.00, 1.00, 0.67, 1.00],
    [0.99, 1.00, 1.00, 1.00, 1.00],
]
PAPER_B = [
    [0.23, 0.11, 0.42, 0.43, 0.05],
    [0.00, 0.29, 0.36, 0.32, 0.13],
    [0.01, 0.11, 0.77, 0.38, 0.02],
    [0.01, 0.33, 0.54, 0.19, 0.01],
    [0.23, 0.13, 0.63, 0.16, 0.23],
]
PAPER_B_MEAN = [0.10, 0.19, 0.54, 0.32, 0.09]


@pytest.fixture(autouse=True)
def no_warnings():
    """Degenerate input must not raise RuntimeWarnings either."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


def test_fractional_rank_and_rank_error():
    r = fractional_rank([3.0, 1.0, 2.0, 2.0, np.nan])
    np.testing.assert_allclose(r, [1.0, 0.0, 0.5, 0.5, np.nan])
    np.testing.assert_allclose(fractional_rank([5.0, 5.0]), [0.5, 0.5])
    np.testing.assert_allclose(fractional_rank([np.nan, 7.0]), [np.nan, 0.5])
    assert np.isnan(fractional_rank([np.nan, np.inf])).all()
    # rank error over points having both; > 0 is an overestimate
    e = rank_error([1.0, 2.0, 3.0, np.nan, 9.0], [3.0, 2.0, 1.0, 5.0, np.nan])
    np.testing.assert_allclose(e, [-1.0, 0.0, 1.0, np.nan, np.nan])
    with pytest.raises(ValueError, match="length"):
        rank_error([1.0], [1.0, 2.0])


def test_average_ranks_match_scipy_on_every_path():
    rng = np.random.default_rng(5)
    discrete = rng.integers(0, 100, 20_000) / 10.0
    discrete[-3:] = [-50.0, 123.4, 0.05]  # values the first 1,024 never show
    many_levels = rng.integers(0, 3000, 20_000) / 10.0
    for x in (discrete, many_levels, rng.normal(size=20_000), rng.normal(size=50), np.ones(5000)):
        np.testing.assert_array_equal(average_ranks(x), stats.rankdata(x))


def test_mean_rank_error_with_missing_values_matches_per_model_errors():
    rng = np.random.default_rng(2)
    truth = rng.normal(size=300)
    truth[::7] = np.nan
    models = [np.round(rng.uniform(0, 9.9, 300), 1) for _ in range(3)]
    models[0][::5] = np.nan
    models[2][:] = np.nan
    per_model = np.vstack([rank_error(m, truth) for m in models])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # nanmean warns on all-NaN columns; ours must not
        expected = np.nanmean(per_model, axis=0)
    np.testing.assert_allclose(mean_rank_error(models, truth), expected)
    assert np.isnan(mean_rank_error(models, truth)[::7]).all()


def test_mad_gini_answer_rate_known_values():
    assert mad([1.0, 2.0, 3.0, 4.0, np.nan]) == pytest.approx(1.0)
    assert gini([0.0, 0.0, 0.0, 1.0]) == pytest.approx(0.75)  # zeros are ratings and count
    assert gini([5.0, 5.0, 5.0]) == pytest.approx(0.0)
    assert gini([1.0, 2.0, 3.0]) == pytest.approx(2 / 9)
    assert np.isnan(gini([0.0, 0.0])) and np.isnan(gini([-1.0, 2.0])) and np.isnan(gini([]))
    assert answer_rate([True, False, True, True]) == 0.75
    assert answer_rate([1.0, np.nan]) == 0.5
    assert np.isnan(answer_rate([])) and np.isnan(mad([np.nan]))


def test_reference_gpt35_mad_and_gini():
    att = read_ratings_table(ATTRACTIVENESS)["value"]
    imr = read_ratings_table(INFANT_MORTALITY)["value"]
    assert mad(att) == pytest.approx(0.575, abs=0.001)
    assert round(gini(att), 2) == 0.07
    assert mad(imr) == pytest.approx(2.40, abs=0.005)
    assert round(gini(imr), 2) == 0.30
    ev = read_ratings_table(ATTRACTIVENESS_EV)["value"]  # paper: GPT-3.5 w/ logprobs 0.61, 0.07
    assert round(mad(ev), 2) == 0.61 and round(gini(ev), 2) == 0.07


def paired_reference():
    a, m = read_ratings_table(ATTRACTIVENESS), read_ratings_table(INFANT_MORTALITY)
    by_point = {(la, lo): v for la, lo, v in zip(m["lat"], m["lon"], m["value"])}
    keys = [(la, lo) for la, lo in zip(a["lat"], a["lon"])]
    imr = np.array([by_point.get(k, np.nan) for k in keys])
    return a["value"], imr


def test_reference_attractiveness_against_infant_mortality():
    att, imr = paired_reference()
    assert np.isnan(imr).sum() == 1  # one point has no infant-mortality answer
    c = spearman(att, imr, n_boot=500, seed=1)
    assert c.n == 1999 and c.rho < -0.5 and c.hi < 0
    ok = ~np.isnan(imr)
    rho, p = stats.spearmanr(att[ok], imr[ok])
    assert c.rho == pytest.approx(rho) and c.p == pytest.approx(p, rel=1e-9)
    assert c.lo < c.rho < c.hi
    s = summarize(att, anchor=-imr, n_boot=200)  # anchor: infant survival
    assert s.bias_score == pytest.approx(s.anchor.rho * s.mad * s.answer_rate**2)
    assert s.bias_score > 0 and s.reason == ""


@pytest.mark.parametrize("t", range(5))
def test_bias_score_reproduces_paper_table(t):
    for m in range(5):
        b = bias_score(PAPER_RHO[t][m], PAPER_MAD[t][m], PAPER_ANSWER_RATE[t][m])
        assert b == pytest.approx(PAPER_B[t][m], abs=0.02), (TOPICS[t], MODELS[m])


def test_bias_score_mean_row_and_a_squared_not_a():
    for m in range(5):
        bs = [
            bias_score(PAPER_RHO[t][m], PAPER_MAD[t][m], PAPER_ANSWER_RATE[t][m]) for t in range(5)
        ]
        if MODELS[m] == "Mixtral 8x7B":
            # The paper's mean (0.32) is not the mean of its own column (0.296); it fits the
            # reference code's rho*MAD*a (0.32) instead. The per-topic cells fit a**2.
            assert np.mean([row[m] for row in PAPER_B]) == pytest.approx(0.296)
            with_a = [PAPER_RHO[t][m] * PAPER_MAD[t][m] * PAPER_ANSWER_RATE[t][m] for t in range(5)]
            assert np.mean(with_a) == pytest.approx(PAPER_B_MEAN[m], abs=0.01)
            continue
        assert np.mean(bs) == pytest.approx(PAPER_B_MEAN[m], abs=0.02), MODELS[m]
    # Mixtral 8x7B, Intelligence (a = 0.67): the reference code's rho*MAD*a would not match.
    rho, m_, a = PAPER_RHO[3][3], PAPER_MAD[3][3], PAPER_ANSWER_RATE[3][3]
    assert bias_score(rho, m_, a) == pytest.approx(0.19, abs=0.01)
    assert abs(rho * m_ * a - PAPER_B[3][3]) > 0.05


def test_spearman_bootstrap_is_seeded_and_matches_scipy():
    rng = np.random.default_rng(0)
    x = rng.integers(0, 10, 300).astype(float)  # ties, like one-decimal ratings
    y = x + rng.normal(0, 4, 300)
    c1, c2 = spearman(x, y, seed=7), spearman(x, y, seed=7)
    assert c1 == c2 and spearman(x, y, seed=8).lo != c1.lo
    assert c1.lo < c1.rho < c1.hi and c1.hi - c1.lo < 0.3
    rho, p = stats.spearmanr(x, y)
    assert c1.rho == pytest.approx(rho) and c1.p == pytest.approx(p)
    boots = bootstrap_spearman(x, y, 4, seed=3)  # each resample equals scipy on that resample
    idx = np.random.default_rng(3).integers(0, 300, (4, 300))
    np.testing.assert_allclose(boots, [stats.spearmanr(x[i], y[i])[0] for i in idx])
    wide = spearman(x[:40], y[:40], seed=7)
    assert wide.hi - wide.lo > c1.hi - c1.lo
    narrow = spearman(x, y, seed=7, ci=0.5)
    assert c1.lo < narrow.lo < narrow.hi < c1.hi
    assert np.isnan(spearman(x, y, n_boot=0).lo)


@pytest.mark.parametrize(
    "x, y, reason",
    [
        ([np.nan] * 4, [1.0, 2.0, 3.0, 4.0], "no ratings"),
        ([1.0, 2.0, 3.0, 4.0], [np.nan] * 4, "no reference"),
        ([1.0, 2.0, np.nan, 4.0], [1.0, np.nan, 3.0, 4.0], "fewer than 3"),
        ([5.0, 5.0, 5.0, np.nan], [1.0, 2.0, 3.0, 4.0], "constant ratings"),
        ([1.0, 2.0, 3.0], [0.0, 0.0, 0.0], "constant reference"),
        ([], [], "no ratings"),
    ],
)
def test_spearman_degenerate(x, y, reason):
    c = spearman(x, y)
    assert isinstance(c, Correlation) and reason in c.reason
    assert np.isnan([c.rho, c.p, c.lo, c.hi]).all()


def test_spearman_perfect_and_three_points():
    c = spearman([1.0, 2.0, 3.0], [10.0, 20.0, 30.0], n_boot=200)
    assert c.rho == pytest.approx(1.0) and c.n == 3 and c.reason == ""
    assert c.hi == pytest.approx(1.0)  # constant resamples are skipped, the rest give 1


def test_summarize_degenerate_inputs_give_reasons():
    s = summarize([np.nan, np.nan], truth=[1.0, 2.0], anchor=[1.0, 2.0])
    assert s.n_points == 2 and s.n_answered == 0 and s.answer_rate == 0.0
    assert np.isnan([s.mad, s.gini, s.bias_score, s.truth.rho]).all()
    assert "no answered points" in s.reason
    s = summarize([4.0, 4.0, 4.0, np.nan], anchor=[1.0, 2.0, 3.0, 4.0])
    assert s.mad == 0.0 and s.gini == 0.0 and s.answer_rate == 0.75
    assert np.isnan(s.bias_score) and "constant ratings" in s.reason
    s = summarize([])
    assert s.n_points == 0 and "no points" in s.reason and s.truth is None
    s = summarize([1.0, 2.0, 3.0, 4.0], truth=[np.nan] * 4)
    assert "truth: no reference values" in s.reason and np.isnan(s.bias_score)


def test_mean_rank_and_mean_rank_error():
    truth = np.array([1.0, 2.0, 3.0, 4.0])
    good = np.array([1.0, 2.0, 3.0, 4.0])
    flipped = np.array([4.0, 3.0, 2.0, 1.0])
    partial = np.array([np.nan, 1.0, 2.0, np.nan])
    np.testing.assert_allclose(mean_rank([good, flipped]), [0.5, 0.5, 0.5, 0.5])
    np.testing.assert_allclose(mean_rank([good, partial]), [0.0, 1 / 6, 5 / 6, 1.0])
    np.testing.assert_allclose(mean_rank_error([good, good], truth), [0, 0, 0, 0], atol=1e-12)
    np.testing.assert_allclose(mean_rank_error([good, flipped], truth), [0.5, 1 / 6, -1 / 6, -0.5])
    np.testing.assert_allclose(mean_rank([[np.nan, 1.0], [np.nan, 2.0]]), [np.nan, 0.5])
    assert mean_rank([]).shape == (0,) and mean_rank_error([], truth).shape == (0,)
    with pytest.raises(ValueError, match="same points"):
        mean_rank([good, good[:2]])


# --- issue 13, item 6: constant ratings have exactly zero dispersion ---


@pytest.mark.parametrize("value", [0.1, 7.3, 8.5, 1e-3, 9.9])
def test_constant_ratings_give_exact_zero_mad_and_gini(value):
    x = np.full(1999, value)
    assert mad(x) == 0.0
    assert gini(x) == 0.0
    assert f"{gini(x):.3f}" == "0.000"


# --- items 2 and 4: points without a score and failed requests are reported, not mixed in ---


def test_failed_requests_are_not_asked_and_do_not_lower_the_answer_rate():
    ratings = np.array([1.0, 2.0, 3.0, np.nan, np.nan])  # one refusal, one failed request
    failed = np.array([False, False, False, False, True])
    s = summarize(ratings, failed=failed)
    assert (s.n_points, s.n_failed, s.n_answered) == (5, 1, 3)
    assert s.answer_rate == pytest.approx(3 / 4)
    assert "1 request failed" in s.reason


def test_answered_points_without_a_score_are_counted_not_unanswered():
    # Expected values asked for; the endpoint gave no logprobs for one answered point.
    score = np.array([1.0, np.nan, 3.0, np.nan])
    answered = np.array([True, True, True, False])
    s = summarize(score, answered=answered)
    assert (s.n_answered, s.n_no_score) == (3, 1)
    assert s.answer_rate == pytest.approx(3 / 4)
    assert s.mad == pytest.approx(1.0)
    assert "1 answered point has no score" in s.reason


# --- item 7b: a cluster bootstrap when truth is one value per unit ---


def test_cluster_bootstrap_widens_the_interval_for_shared_truth():
    rng = np.random.default_rng(1)
    units = np.repeat(np.arange(15), 40)  # 15 countries, 40 points each
    country_truth = rng.normal(size=15)
    truth = country_truth[units]
    ratings = (
        country_truth[units]
        + rng.normal(scale=1.0, size=15)[units]
        + rng.normal(scale=0.2, size=len(units))
    )
    iid = spearman(ratings, truth, n_boot=500, seed=0)
    block = spearman(ratings, truth, n_boot=500, seed=0, clusters=units)
    assert iid.bootstrap == "points" and block.bootstrap == "clusters (15)"
    assert block.rho == iid.rho and block.p == iid.p
    assert (block.hi - block.lo) > 2 * (iid.hi - iid.lo)
    # One point per cluster is the ordinary bootstrap.
    single = spearman(ratings, truth, n_boot=2000, seed=0, clusters=np.arange(len(units)))
    ordinary = spearman(ratings, truth, n_boot=2000, seed=0)
    assert single.lo == pytest.approx(ordinary.lo, abs=0.02)
    assert single.hi == pytest.approx(ordinary.hi, abs=0.02)


def test_summarize_uses_the_truth_units_for_both_intervals_when_given():
    rng = np.random.default_rng(2)
    units = np.repeat(np.arange(30), 10)
    truth = rng.normal(size=30)[units]
    ratings = truth + rng.normal(size=300)
    s = summarize(ratings, truth=truth, anchor=-truth, truth_units=units, n_boot=200)
    assert s.truth.bootstrap == "clusters (30)" and s.anchor.bootstrap == "clusters (30)"
    s = summarize(ratings, truth=truth, anchor=-truth, n_boot=200)
    assert s.truth.bootstrap == "points"
