"""Recall survey core: answers read in each bundled prompt language; errors by hand."""

import math

import numpy as np
import pytest

from geobias.core.survey.recall import (
    group_errors,
    log_ratio,
    parse_number,
    recall_prompt,
    relative_error,
)

ANSWERS = [
    ("en", "About 38,250,000 people.", 38_250_000),
    ("en", "The population was approximately 38.25 million.", 38_250_000),
    ("en", "1,234", 1234),
    ("en", "1.234", 1.234),
    ("fr", "Environ 1 234 habitants", 1234),
    ("fr", "1\u202f234,5 km²", 1234.5),
    ("fr", "1.234", 1234),
    ("fr", "environ 38,2 millions", 38_200_000),
    ("es", "Aproximadamente 1.234 habitantes", 1234),
    ("es", "unos 47,4 millones", 47_400_000),
    ("ar", "حوالي ١٬٢٣٤ نسمة", 1234),
    ("ar", "٣٨٫٢ مليون", 38_200_000),
]


@pytest.mark.parametrize("lang,text,value", ANSWERS)
def test_parse_number_real_shapes(lang, text, value):
    got, reason = parse_number(text, lang)
    assert reason == ""
    assert got == pytest.approx(value)


@pytest.mark.parametrize(
    "lang,text",
    [
        ("en", "between 30 and 40 million"),
        ("en", "30-40 million"),
        ("fr", "de 30 à 40 millions"),
        ("es", "entre 30 y 40 millones"),
        ("ar", "بين ٣٠ و ٤٠ مليون"),
    ],
)
def test_range_is_unanswered(lang, text):
    assert parse_number(text, lang) == (None, "range")


def test_no_number():
    assert parse_number("I don't know.", "en") == (None, "no number")


def test_prompt_names_parent_unit_year():
    p = recall_prompt("Ontario", "population", "people", 2020, parent="Canada")
    assert "Ontario, Canada" in p and "2020" in p and "people" in p


def test_errors_by_hand():
    a, b = [110.0, 50.0, 0.0, np.nan], [100.0, 100.0, 0.0, 5.0]
    np.testing.assert_allclose(relative_error(a, b), [10 / 110, 50 / 100, 0.0, np.nan])
    np.testing.assert_allclose(log_ratio(a, b), [math.log(1.1), math.log(0.5), np.nan, np.nan])


def test_group_ratio_by_hand():
    e = [0.1, 0.3, 0.4, 0.8, np.nan]
    rows = {r["group"]: r for r in group_errors(e, ["A", "A", "B", "B", "B"], n_boot=200)}
    assert rows["A"]["mean_rel_error"] == pytest.approx(0.2)
    assert rows["B"]["mean_rel_error"] == pytest.approx(0.6) and rows["B"]["n"] == 2
    assert rows["B"]["ratio"] == pytest.approx(3.0) and rows["A"]["ratio"] == 1.0
    assert 0.1 <= rows["A"]["ci_low"] <= 0.2 <= rows["A"]["ci_high"] <= 0.3


def test_group_errors_without_resamples_give_no_interval():
    rows = group_errors([0.1, 0.3, 0.2], ["a", "a", "b"], n_boot=0)
    assert [r["mean_rel_error"] for r in rows] == pytest.approx([0.2, 0.2])
    assert all(math.isnan(r["ci_low"]) and math.isnan(r["ci_high"]) for r in rows)
    assert [r["ratio"] for r in rows] == pytest.approx([1.0, 1.0])


def test_a_question_back_or_the_asked_year_is_not_an_answer():
    """What the embedded Gemma 270M answers: a question back, repeating the year asked."""
    from geobias.core.survey.recall import parse_number

    assert parse_number("What is the life expectancy at birth in 2014?", "en", 2014) == (
        None, "question")  # fmt: skip
    assert parse_number("Kenya in 2014?", "en") == (None, "question")
    assert parse_number("In 2019, it was 35.2 deaths per 1,000.", "en", 2019) == (35.2, "")
    assert parse_number("2014", "en", 2014) == (None, "no number")
    assert parse_number("2014", "en") == (2014.0, "")  # no year asked: a number like any
    assert parse_number("3.5. Is that right?", "en") == (3.5, "")  # the first sentence answers
    assert parse_number("Between 2014 and 2015?", "en", 2014)[1] == "question"
