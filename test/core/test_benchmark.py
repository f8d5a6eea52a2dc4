"""Benchmark card: the shipped sample v1, the GPT-3.5 card's numbers against core.metrics and
scipy computed on the same points, reduced cards, JSON and comparison rows."""

import json
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from geobias.core.stats import geobs, metrics
from geobias.core.survey import benchmark
from geobias.core.survey.ratings import read_ratings_table

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "resources" / "benchmark" / "sample_v1.gpkg"
REF = ROOT / "resources" / "reference" / "geollm-gpt35" / "gpt_3_5_turbo_0613_"
ATT = "Average Attractiveness of Residents"
IMR = "Infant Mortality Rate"


@pytest.fixture(scope="module")
def sample():
    return benchmark.read_sample(str(SAMPLE))


@pytest.fixture(scope="module")
def gpt35(sample):
    """The GPT-3.5 ratings of the two world topics, placed on the sample's points."""
    out = {}
    for topic, name in (
        (ATT, "Average_Attractiveness_of_Residents"),
        (IMR, "Infant_Mortality_Rate"),
    ):
        t = read_ratings_table(f"{REF}{name}_world_prompts.csv")
        out[topic] = (t, benchmark.on_sample(sample, t["lon"], t["lat"], t["value"]))
    return out


@pytest.fixture(scope="module")
def card(sample, gpt35):
    truth = sample.fields["infant_mortality"]
    anchor = sample.fields["infant_survival"]
    entries = [
        benchmark.topic_entry(
            topic,
            gpt35[topic][1],
            sample.lon,
            sample.lat,
            truth=truth if topic == IMR else None,
            anchor=anchor,
            truth_units=sample.iso_a3,
            n_boot=200,
        )  # fmt: skip
        for topic in (ATT, IMR)
    ]
    endpoint = "OpenAI (recorded by Manvi et al.)"
    return benchmark.build_card("gpt-3.5-turbo-0613", endpoint, entries, sample,
                                prompt_preset="paper", date="2024-01-01")  # fmt: skip


def test_sample_v1_is_the_papers_2000_points_with_its_notes(sample, gpt35):
    assert sample.version == "v1" and len(sample) == 2000
    np.testing.assert_array_equal(sample.point_id, np.arange(1, 2001))
    assert "Apache License 2.0" in sample.info["licence"] and "no seed" in sample.info["method"]
    att = gpt35[ATT][0]
    np.testing.assert_array_equal(sample.lon, att["lon"])  # file order is point order
    np.testing.assert_array_equal(sample.lat, att["lat"])
    survival, imr = sample.fields["infant_survival"], sample.fields["infant_mortality"]
    has = ~np.isnan(imr)
    assert 1800 < has.sum() < 2000 and np.all(sample.iso_a3[has] != "")
    np.testing.assert_allclose(survival[has], 1000 - imr[has])


def test_gpt35_card_equals_core_metrics_on_the_same_points(card, gpt35, sample):
    assert card["reduced"] and "2 of the 16 topics" in card["reduced_reason"]
    assert IMR not in card["missing_topics"] and len(card["missing_topics"]) == 14
    att, imr = (e for e in card["topics"])
    att_values, imr_values = gpt35[ATT][0]["value"], gpt35[IMR][0]["value"]
    # Answer rate, MAD, Gini from the files directly (the paper's figures, test_metrics).
    assert att["answer_rate"] == 1.0 and imr["answer_rate"] == pytest.approx(1999 / 2000)
    assert att["mad"] == pytest.approx(metrics.mad(att_values)) == pytest.approx(0.575, abs=1e-3)
    assert att["gini"] == pytest.approx(metrics.gini(att_values))
    assert imr["mad"] == pytest.approx(metrics.mad(imr_values)) == pytest.approx(2.40, abs=5e-3)
    assert round(imr["gini"], 2) == 0.30
    # rho with truth: scipy on the points having both.
    truth = sample.fields["infant_mortality"]
    x = gpt35[IMR][1]
    both = ~np.isnan(x) & ~np.isnan(truth)
    rho, p = stats.spearmanr(x[both], truth[both])
    assert imr["rho_truth"]["rho"] == pytest.approx(rho) and imr["rho_truth"]["n"] == both.sum()
    assert imr["rho_truth"]["p"] == pytest.approx(p, rel=1e-6)
    assert imr["rho_truth"]["bootstrap"].startswith("clusters")
    # Bias score B = rho(anchor) * MAD * a^2, rho from scipy.
    anchor = sample.fields["infant_survival"]
    ok = ~np.isnan(gpt35[ATT][1]) & ~np.isnan(anchor)
    rho_a = stats.spearmanr(gpt35[ATT][1][ok], anchor[ok])[0]
    assert att["bias_score"] == pytest.approx(rho_a * metrics.mad(att_values) * 1.0**2)
    # GeoBS on the rank errors where truth ships; none (said why) where it does not.
    assert att["geobs"] is None and "no truth" in att["geobs_reason"]
    g = imr["geobs"]
    errors = metrics.rank_error(x, truth)
    again = geobs.geobs_scores(sample.lon, sample.lat, geobs.bin_errors(errors))
    assert g["sri_lag"] == pytest.approx(again.lag.score) and g["ssi"] == pytest.approx(
        again.ssi.score
    )
    assert g["ssi_n"] == again.ssi.n_evaluated > 1500 and g["settings"]["radius_km"] == 1500.0


def test_card_json_and_comparison_with_a_reduced_run(card, gpt35, sample):
    text = benchmark.card_json(card)
    back = json.loads(text)
    assert back["model"] == "gpt-3.5-turbo-0613" and back["sample"]["version"] == "v1"
    assert "NaN" not in text
    # A reduced run: 200 points of the sample, one topic.
    few = np.full(len(sample), np.nan)
    few[:200] = gpt35[ATT][1][:200]
    survival = sample.fields["infant_survival"][:200]
    entry = benchmark.topic_entry(ATT, few[:200], sample.lon[:200], sample.lat[:200],
                                  anchor=survival, n_boot=0)  # fmt: skip
    small = benchmark.build_card("embedded", "local", [entry], sample, expected_topics=[ATT])
    assert small["reduced"] and small["reduced_reason"] == f"{ATT}: 200 of the sample's 2000 points"
    rows = benchmark.compare_cards([card, small])
    assert [(r["model"], r["topic"]) for r in rows] == [
        ("gpt-3.5-turbo-0613", ATT), ("embedded", ATT),
        ("gpt-3.5-turbo-0613", IMR), ("embedded", IMR),
    ]  # fmt: skip
    assert rows[1]["n_points"] == 200 and rows[3]["mad"] is None and rows[3]["reduced"]
    assert rows[2]["ssi"] == card["topics"][1]["geobs"]["ssi"]
    assert set(rows[0]) == set(benchmark.COMPARE_COLUMNS)


def test_on_sample_matches_coordinates_and_refuses_duplicates(sample):
    v = benchmark.on_sample(sample, sample.lon[:3] + 1e-7, sample.lat[:3], [1.0, 2.0, 3.0])
    assert v[:3].tolist() == [1.0, 2.0, 3.0] and np.isnan(v[3:]).all()
    with pytest.raises(ValueError, match="twice"):
        benchmark.on_sample(sample, sample.lon[[0, 0]], sample.lat[[0, 0]], [1.0, 2.0])


def test_bias_score_reads_as_bias_only_without_truth_following_survival(card):
    att, imr = card["topics"]
    # Infant mortality: B is large and negative because the ratings know the truth (1000 -
    # survival); it keeps its number (equal to biasmetrics's) but says it is no bias.
    assert imr["bias_score"] < -1.5 and imr["bias_score_is_bias"] is False
    assert "knowledge" in imr["bias_score_note"] and imr["topic_kind"] == "objective"
    assert att["bias_score_is_bias"] is True and "bias_score_note" not in att
    assert benchmark.bias_reads_as_bias("Solar Neutrino Flux")
    assert benchmark.bias_reads_as_bias("Cost of a coffee") and not benchmark.bias_reads_as_bias(
        "Cost of a coffee", has_truth=True
    )


def test_card_keeps_scores_in_sample_order_and_reads_back(tmp_path, sample, gpt35):
    x = gpt35[ATT][1]
    entry = benchmark.topic_entry(ATT, x, sample.lon, sample.lat, n_boot=0, scores=x)
    card = benchmark.build_card("m", "local", [entry], sample, expected_topics=[ATT])
    path = tmp_path / "card.json"
    path.write_text(benchmark.card_json(card), encoding="utf-8")
    back = benchmark.read_card(str(path))
    np.testing.assert_array_equal(benchmark.card_scores(back, ATT), np.round(x, 6))
    assert benchmark.card_scores(back, IMR) is None and not back["reduced"]
    path.write_text('{"format": 99}', encoding="utf-8")
    with pytest.raises(ValueError, match="not a GeoBias card"):
        benchmark.read_card(str(path))
