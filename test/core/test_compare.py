"""core.compare: pivots of model x topic metrics and mean ranks on points matched by coordinates."""

import csv
import io

import numpy as np
import pytest
from scipy import stats

from geobias.core.stats.metrics import fractional_rank, mean_rank, pearson_r2, rank_error
from geobias.core.survey.comparisons import (
    MEAN_ACROSS_MODELS,
    MEAN_ACROSS_TOPICS,
    Scores,
    align,
    by_language,
    mean_ranks,
    pivot,
    pivots,
    rank_spread,
    to_csv,
    to_markdown,
)

RECORDS = [
    {"model": "a", "topic": "IMR", "bias_score": 0.2, "mad": 2.0},
    {"model": "b", "topic": "IMR", "bias_score": 0.4, "mad": 1.0},
    {"model": "a", "topic": "Attractiveness", "bias_score": 0.1, "mad": None},
    {"model": "b", "topic": "Attractiveness", "bias_score": float("nan"), "mad": 0.5},
]


def test_pivot_layout_and_means():
    p = pivot(RECORDS, "bias_score")
    assert p.topics == ("IMR", "Attractiveness") and p.models == ("a", "b")
    np.testing.assert_array_equal(p.values, [[0.2, 0.4], [0.1, np.nan]])
    # Means skip missing values: a topic with one model's value has that value as its mean.
    np.testing.assert_allclose(p.mean_across_models(), [0.3, 0.1])
    np.testing.assert_allclose(p.mean_across_topics(), [0.15, 0.4])
    assert p.overall() == pytest.approx((0.2 + 0.4 + 0.1) / 3)
    header, rows = p.table()
    assert header == ["topic", "a", "b", MEAN_ACROSS_MODELS]
    assert rows[-1][0] == MEAN_ACROSS_TOPICS and rows[-1][1] == pytest.approx(0.15)
    assert np.isnan(pivot(RECORDS, "mad").values[1, 0])


def test_pivot_with_given_order_and_a_duplicate_is_an_error():
    p = pivot(RECORDS, "mad", models=["b", "a"], topics=["Attractiveness"])
    np.testing.assert_array_equal(p.values, [[0.5, np.nan]])
    with pytest.raises(ValueError, match="two results"):
        pivot(RECORDS + RECORDS[:1], "mad")
    assert [q.metric for q in pivots(RECORDS, ("mad", "bias_score"))] == ["mad", "bias_score"]


def test_csv_and_markdown():
    p = pivot(RECORDS, "bias_score")
    rows = list(csv.reader(io.StringIO(to_csv(p))))
    assert rows[0] == ["topic", "a", "b", MEAN_ACROSS_MODELS]
    assert float(rows[1][1]) == 0.2 and rows[2][2] == ""  # full precision, empty for missing
    assert float(rows[3][3]) == p.overall()
    md = to_markdown(p).splitlines()
    assert md[0].startswith("**Bias score")
    assert md[2] == "| Topic | a | b | Mean (across models) |"
    assert md[4] == "| IMR | 0.20 | 0.40 | 0.30 |"
    assert md[5] == "| Attractiveness | 0.10 |  | 0.10 |"


def test_align_matches_points_by_coordinates_whatever_their_order():
    rng = np.random.default_rng(1)
    lon, lat = rng.uniform(-180, 180, 50), rng.uniform(-60, 70, 50)
    truth = rng.uniform(0, 100, 50)
    a, b = rng.uniform(0, 9.9, 50), rng.uniform(0, 9.9, 50)
    # Model b lost 5 points (unanswered rows are absent from imported tables) and is shuffled.
    keep = rng.permutation(50)[:45]
    scores = [Scores("a", lon, lat, a, truth), Scores("b", lon[keep], lat[keep], b[keep])]
    x, y, matrix, t = align(scores)
    np.testing.assert_array_equal(x, lon)
    np.testing.assert_array_equal(t, truth)
    np.testing.assert_array_equal(matrix[0], a)
    expected_b = np.full(50, np.nan)
    expected_b[keep] = b[keep]
    np.testing.assert_array_equal(matrix[1], expected_b)

    m = mean_ranks(scores)
    assert m.models == ("a", "b")
    np.testing.assert_array_equal(m.n_models, np.where(np.isnan(expected_b), 1, 2))
    # Against core.metrics on the aligned arrays, and by hand from fractional ranks.
    np.testing.assert_allclose(m.mean_rank, mean_rank([a, expected_b]))
    by_hand = np.nanmean([fractional_rank(a), fractional_rank(expected_b)], axis=0)
    np.testing.assert_allclose(m.mean_rank, by_hand)
    errors = np.nanmean([rank_error(a, truth), rank_error(expected_b, truth)], axis=0)
    np.testing.assert_allclose(m.mean_rank_error, errors)


def test_mean_ranks_without_truth_have_no_rank_error():
    lon = np.array([0.0, 1.0, 2.0, 3.0])
    m = mean_ranks([Scores("a", lon, lon, [1, 2, 3, 4]), Scores("b", lon, lon, [4, 3, 2, 1])])
    np.testing.assert_allclose(m.mean_rank, 0.5)  # two models disagreeing completely
    assert np.isnan(m.mean_rank_error).all()
    with pytest.raises(ValueError):
        mean_ranks([])


def test_pearson_r2_against_scipy():
    rng = np.random.default_rng(2)
    x = rng.normal(size=200)
    y = 0.5 * x + rng.normal(size=200)
    y[:7] = np.nan
    r = stats.pearsonr(x[7:], y[7:])[0]
    assert pearson_r2(x, y) == pytest.approx(r * r, rel=1e-12)
    assert np.isnan(pearson_r2([1, 1, 1, 1], [1, 2, 3, 4]))
    assert np.isnan(pearson_r2([1, 2], [1, 2]))


def test_by_language_puts_the_languages_across():
    records = [
        {"model": "m", "topic": "A", "language": "en", "rho_truth": 0.5},
        {"model": "m", "topic": "A", "language": "fr", "rho_truth": 0.1},
        {"model": "m", "topic": "B", "language": "fr", "rho_truth": -0.2},
    ]
    p = by_language(records, "rho_truth", ["en", "fr"])
    assert p.models == ("en", "fr") and p.topics == ("A", "B") and p.columns == "languages"
    assert p.values[0].tolist() == [0.5, 0.1]
    assert np.isnan(p.values[1, 0]) and p.values[1, 1] == -0.2
    assert p.table()[0][-1] == "Mean (across languages)"
    two = by_language(records + [dict(records[0], model="n", rho_truth=0.9)], "rho_truth")
    assert two.topics == ("A · m", "B · m", "A · n")


def test_rank_spread_is_the_range_of_each_points_rank_across_languages():
    rng = np.random.default_rng(3)
    lon, lat = rng.uniform(-50, 50, 30), rng.uniform(-50, 50, 30)
    en = rng.uniform(0, 9.9, 30)
    fr = en + rng.normal(0, 3, 30)
    ar = rng.uniform(0, 9.9, 30)
    ar[:5] = np.nan  # points Arabic did not answer
    sel = slice(3, None)  # French asked fewer points
    spread = rank_spread({
        "en": [Scores("m", lon, lat, en)],
        "fr": [Scores("m", lon[sel], lat[sel], fr[sel])],
        "ar": [Scores("m", lon, lat, ar)],
    })  # fmt: skip
    assert spread.languages == ("en", "fr", "ar") and len(spread.lon) == 30
    want = np.full((3, 30), np.nan)
    want[0] = fractional_rank(en)
    want[1, 3:] = fractional_rank(fr[sel])
    want[2] = fractional_rank(ar)
    np.testing.assert_allclose(spread.ranks, want)
    n = np.isfinite(want).sum(0)
    assert spread.n_languages.tolist() == n.tolist()
    rng_want = np.nanmax(want, 0) - np.nanmin(want, 0)
    np.testing.assert_allclose(spread.spread, np.where(n >= 2, rng_want, np.nan))
    np.testing.assert_allclose(spread.sd, np.where(n >= 2, np.nanstd(want, 0), np.nan))
    with pytest.raises(ValueError, match="two languages"):
        rank_spread({"en": [Scores("m", lon, lat, en)]})
