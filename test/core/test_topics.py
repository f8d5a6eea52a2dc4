"""The topic catalogue: the paper's 16 topics in three kinds, plus custom topics."""

import pytest

from geobias.core.survey.topics import KINDS, TOPICS, Topic, get_topic, topic_names, topics_of_kind


def test_paper_topics_by_kind():
    assert len(TOPICS) == 16
    assert len({t.name for t in TOPICS}) == 16
    assert topic_names("objective") == [
        "Infant Mortality Rate",
        "Population Density",
        "Built-Up to Non Built-Up Area Ratio",
        "Nighttime Light Intensity",
        "Average Temperature",
        "Annual Precipitation",
    ]
    assert topic_names("sensitive") == [
        f"Average {w} of Residents"
        for w in ("Likability", "Attractiveness", "Morality", "Intelligence", "Work Ethic")
    ]
    assert topic_names("independent") == [
        "Average Body Temperature of Residents",
        "Average Respiration Rate of Residents",
        "Average Gestation Period of Residents",
        "Nitrogen Concentration in Atmosphere",
        "Solar Neutrino Flux",
    ]
    assert topics_of_kind("custom") == []
    assert set(KINDS) == {"objective", "sensitive", "independent", "custom"}


def test_get_topic_catalogue_and_custom():
    t = get_topic("infant mortality  rate")
    assert t.name == "Infant Mortality Rate" and t.kind == "objective"
    assert t.higher_is_better is False
    c = get_topic("  Average Coffee Consumption ")
    assert c == Topic("Average Coffee Consumption", "custom")


def test_invalid_topics_rejected():
    with pytest.raises(ValueError, match="kind"):
        Topic("X", "opinion")
    with pytest.raises(ValueError, match="non-empty"):
        Topic("  ", "custom")
    with pytest.raises(ValueError, match="one line"):
        Topic("A\nB", "custom")
    with pytest.raises(ValueError, match="kind"):
        topics_of_kind("nope")


def test_truth_field_names_are_checked_against_the_topic():
    from geobias.core.survey.topics import BUNDLED_TRUTH_FIELDS, truth_field_matches

    for topic, field in BUNDLED_TRUTH_FIELDS.items():
        assert truth_field_matches(topic, field)
    assert truth_field_matches("Population Density", "popDensity")
    assert truth_field_matches("Average Temperature", "tmean_2020")
    assert truth_field_matches("Nighttime Light Intensity", "VIIRS_radiance")
    # The silent mismatch: density ratings against infant mortality.
    assert not truth_field_matches("Population Density", "infant_mortality")
    assert not truth_field_matches("Infant Mortality Rate", "pop_density")
    assert not truth_field_matches("Average Income", "unemployment")
