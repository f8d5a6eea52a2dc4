"""Rating parser, refusal flag, logprob expected values at the found digit token, CSV import."""

import math
from pathlib import Path

import numpy as np
import pytest

from geobias.core.survey.ratings import (
    RatingsTableError,
    expected_value,
    is_refusal,
    parse_rating,
    rate_completion,
    read_ratings_table,
)

# The paper's GPT-3.5 ratings, bundled with the plugin (resources/reference).
REFERENCE = str(Path(__file__).resolve().parents[2] / "resources/reference/geollm-gpt35") + "/"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("My answer is 7.5.", 7.5),
        ("My answer is 7.5", 7.5),
        ("my answer is   6.0 .", 6.0),
        ("My answer is **4.2**.", 4.2),
        ('My answer is "3.3".', 3.3),
        ("My answer is 7.", 7.0),
        ("My answer is 0.0.", 0.0),
        ("My answer is 9.25.", 9.25),
        ("Sure! My answer is 8.1. It is dense.", 8.1),
        ("On a scale from 0.0 to 9.9, I'd say 6.5", 6.5),
        ("Between 0 and 9.9: 3", 3.0),
        ("I would rate it 6.5/10", 6.5),
        ("Rating: 8.5 out of 9.9", 8.5),
        ("I'd give it a 7.", 7.0),
        ("My answer is X.X. Actually 2.5", 2.5),
        ("My answer is 10.0.", 9.9),
        ("A rating of 10.0", None),
        ("Score: -3.0", None),
        ("Precisely 4.123", None),
        ("My answer is X.X.", None),
        ("1. The area is rural", None),
        ("On a Scale from 0.0 to 9.9", None),
        ("Paris, France (On a Scale from 0", None),  # real SmolLM2 answer cut by max_tokens
        ("On a scale of 10, 4.5", 4.5),
        ("I'm sorry, but I cannot provide a rating.", None),
        ("", None),
        (None, None),
    ],
)
def test_parse_rating(text, expected):
    assert parse_rating(text) == expected


def test_refusals_are_flagged_only_when_not_answered():
    for text in [
        "I'm sorry, but I can't provide",
        "As an AI, I do not have",
        "It is not appropriate to rate",
        "I cannot provide a rating for",
        "I apologize, but",
    ]:
        r = rate_completion(text)
        assert is_refusal(text) and r.refusal and not r.answered and r.rating is None
    hedged = rate_completion("I'm sorry, it's hard to say. My answer is 5.0.")
    assert hedged.answered and hedged.rating == 5.0 and not hedged.refusal
    silent = rate_completion("Nearby Places: Lagos")
    assert not silent.answered and not silent.refusal
    assert not is_refusal("My answer is 6.5.")


def entry(token, alts=None):
    """An OpenAI chat logprobs content entry; alts maps token -> probability."""
    alts = alts or {token: 1.0}
    return {
        "token": token,
        "logprob": math.log(alts.get(token, 1e-9)),
        "top_logprobs": [{"token": t, "logprob": math.log(p)} for t, p in alts.items()],
    }


def test_expected_value_finds_the_first_digit_token_separate_digits():
    # llama.cpp style: digits and the point are separate tokens; the digit is NOT at index 4.
    content = [
        entry("Sure"),
        entry("."),
        entry(" My"),
        entry(" answer"),
        entry(" is"),
        entry(" "),
        entry("7", {"7": 0.5, "6": 0.3, "8": 0.1, " The": 0.1}),
        entry("."),
        entry("5", {"5": 0.6, "0": 0.4}),
        entry("."),
    ]
    text = "".join(e["token"] for e in content)
    e, fine = expected_value(content, text)
    assert e == pytest.approx((7 * 0.5 + 6 * 0.3 + 8 * 0.1) / 0.9)
    assert fine == pytest.approx(e + (5 * 0.6 + 0 * 0.4) / 10)
    r = rate_completion(text, content)
    assert r.rating == 7.5 and r.expected == e and r.expected_fine == fine


def test_expected_value_openai_style_tokens():
    # " 7" and "7" are both the digit 7 and add up; ".5" carries the second digit.
    content = [
        entry("My"),
        entry(" answer"),
        entry(" is"),
        entry(" 7", {" 7": 0.5, "7": 0.1, " 6": 0.3, " seven": 0.1}),
        entry(".5", {".5": 0.5, ".0": 0.25, ".9": 0.25}),
        entry("."),
    ]
    e, fine = expected_value(content, "My answer is 7.5.")
    assert e == pytest.approx((7 * 0.6 + 6 * 0.3) / 0.9)
    assert fine == pytest.approx(e + (5 * 0.5 + 0 * 0.25 + 9 * 0.25) / 10)
    # "7." as one token, and alternatives like "6." count as their digit
    content = [entry("My answer is"), entry(" 7.", {" 7.": 0.75, " 6.": 0.25}), entry("0")]
    e, fine = expected_value(content)
    assert e == pytest.approx(6.75) and fine == pytest.approx(6.75)


def test_expected_value_whole_rating_token_and_missing_cases():
    content = [entry("My answer is "), entry("7.5", {"7.5": 0.5, "6.0": 0.5}), entry(".")]
    e, fine = expected_value(content)
    assert e == pytest.approx(6.5) and fine == pytest.approx(6.75)
    assert expected_value(None, "My answer is 7.5.") == (None, None)
    assert expected_value([entry("I'm"), entry(" sorry")]) == (None, None)
    # no top_logprobs at the digit: the chosen digit is certain
    e, fine = expected_value([{"token": "4", "logprob": -0.1, "top_logprobs": []}])
    assert e == 4.0 and fine is None
    odd = rate_completion("My answer is 5.0.", [None, {"token": 5}])  # malformed logprobs
    assert odd.rating == 5.0 and odd.expected is None
    r = rate_completion("I'm sorry", [entry("I'm"), entry(" sorry")])
    assert r.expected is None and r.rating is None


def test_read_reference_ratings_table():
    t = read_ratings_table(REFERENCE + "gpt_3_5_turbo_0613_Infant_Mortality_Rate_world_prompts.csv")
    assert set(t) == {"lat", "lon", "value"}
    assert len(t["lat"]) == 1999
    assert t["lat"][0] == pytest.approx(-5.87958) and t["lon"][0] == pytest.approx(14.98625)
    assert t["value"][0] == 8.5 and np.all((t["value"] >= 0) & (t["value"] <= 9.9))


def test_read_any_table_case_insensitive_and_errors(tmp_path):
    p = tmp_path / "mine.csv"
    p.write_text("id;LAT;lon;Rating\n1;10.5;20;3.5\n\n2;-10;30;\n", encoding="utf-8")
    t = read_ratings_table(str(p), lat="lat", lon="Lon", value="rating")
    assert t["lat"].tolist() == [10.5, -10.0] and t["lon"].tolist() == [20.0, 30.0]
    assert t["value"][0] == 3.5 and np.isnan(t["value"][1])
    # default names fall back to common aliases
    assert read_ratings_table(str(p))["value"][0] == 3.5
    with pytest.raises(RatingsTableError, match=r'missing column\(s\) "score".*"Rating"'):
        read_ratings_table(str(p), value="score")
    bad = tmp_path / "bad.csv"
    bad.write_text("Latitude,Longitude,Predictions\n1,2,3\n4,5,high\n", encoding="utf-8")
    with pytest.raises(RatingsTableError, match=r"row 3, column 'Predictions': 'high'"):
        read_ratings_table(str(bad))
    far = tmp_path / "far.csv"
    far.write_text("Latitude,Longitude,Predictions\n1,2,3\n95,5,1\n", encoding="utf-8")
    with pytest.raises(RatingsTableError, match="row 3"):
        read_ratings_table(str(far))
    empty = tmp_path / "empty.csv"
    empty.write_text("", encoding="utf-8")
    with pytest.raises(RatingsTableError, match="empty"):
        read_ratings_table(str(empty))


# --- issue 13, item 1: the expected value counts every alternative by the rating it begins ---


def test_expected_value_whole_rating_token_counts_alternatives_by_first_digit():
    # One token holds the whole rating; a 2% single-digit alternative must not take over E.
    content = [
        entry("My answer is"),
        entry(" 7.3", {" 7.3": 0.49, " 5.8": 0.49, " 9": 0.02}),
        entry("."),
    ]
    e, fine = expected_value(content)
    assert e == pytest.approx(7 * 0.49 + 5 * 0.49 + 9 * 0.02)
    # The fine value averages the alternatives that spell a whole rating.
    assert fine == pytest.approx((7.3 * 0.49 + 5.8 * 0.49) / 0.98)


def test_expected_value_multi_character_alternatives_and_out_of_scale_ones():
    # Separate digit tokens: "6.", "8.5" and "4," start with a digit and count by it; "12" is
    # no rating on 0.0-9.9 and "10" is the top of the scale (read as 9.9, first digit 9).
    content = [
        entry("My answer is "),
        entry("7", {"7": 0.4, "6.": 0.2, "8.5": 0.1, "4,": 0.1, "12": 0.1, "10": 0.1}),
        entry("."),
        entry("5"),
    ]
    e, _ = expected_value(content)
    assert e == pytest.approx((7 * 0.4 + 6 * 0.2 + 8 * 0.1 + 4 * 0.1 + 9 * 0.1) / 0.9)


@pytest.mark.parametrize("marker", ["\u2581", "\u0120"])
def test_expected_value_from_raw_sentencepiece_and_byte_bpe_pieces(marker):
    # Some servers return raw token pieces: "▁7" (SentencePiece) or "Ġ7" (GPT-2 byte BPE).
    content = [
        entry("My"),
        entry(f"{marker}answer"),
        entry(f"{marker}is"),
        entry(f"{marker}7", {f"{marker}7": 0.5, f"{marker}6": 0.3, "8": 0.2}),
        entry("."),
        entry("5", {"5": 0.5, "0": 0.5}),
        entry("."),
    ]
    e, fine = expected_value(content)
    assert e == pytest.approx(7 * 0.5 + 6 * 0.3 + 8 * 0.2)
    assert fine == pytest.approx(e + 0.25)
    r = rate_completion("My answer is 7.5.", content)
    assert r.expected == pytest.approx(e)


# --- item 3: the bare-number fallback never turns a refusal into an answer ---


@pytest.mark.parametrize(
    "text",
    [
        "There are 2 reasons I can't rate this",
        "I cannot rate this location for 3 reasons.",
        "There are 2 reasons to be careful here.",
        "I'm sorry, but rating 1 place against all others is not possible.",
    ],
)
def test_refusals_and_counts_are_not_ratings(text):
    r = rate_completion(text)
    assert not r.answered and r.rating is None
    assert r.refusal == is_refusal(text)


def test_top_of_scale_answer_is_read_as_9_9():
    # The explicit format with 10 ("My answer is 10.0.") is an answer at the top of the scale.
    for text in ("My answer is 10.0.", "My answer is 10.", "My answer is **10**"):
        r = rate_completion(text)
        assert r.answered and r.rating == 9.9
    # Larger numbers and the bare fallback stay unanswered.
    assert parse_rating("My answer is 12.0.") is None
    assert parse_rating("A rating of 10.0") is None


@pytest.mark.parametrize(
    "text",
    [
        "between 6 and 7",  # read 6.0 before issue 35
        "Somewhere between 6.5 and 7.5.",
        "My answer is 6-7.",
        "My answer is 6 – 7.5.",
        "My answer is 8.0-8.5",
        "From 6 to 7",
        "I would say 5 to 6",
        "Around 4~5",
    ],
)
def test_a_range_is_not_a_rating(text):
    """Two numbers joined by a dash or a range word: unanswered, reason "range" (docs/method.md),
    not a refusal and not either end of the range."""
    r = rate_completion(text)
    assert r.rating is None and not r.answered and not r.refusal and r.reason == "range"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("My answer is 7.5 - the area is rich.", 7.5),  # a dash, but no second number
        ("On a scale from 0 to 9.9, my answer is 6.", 6.0),  # the scale, not a range answer
        ("Between 0 and 9.9: 3", 3.0),
        ("6 and 7", 6.0),  # "and" joins a range only after "between" or "from"
        ("My answer is 7. It could be 8.", 7.0),
    ],
)
def test_near_ranges_still_rate(text, expected):
    r = rate_completion(text)
    assert r.rating == expected and r.reason == ""


def test_a_range_in_another_prompt_language_is_its_dashes():
    from geobias.core.survey.ratings import AnswerFormat

    fr = AnswerFormat("Ma réponse est", ",")
    assert rate_completion("Ma réponse est 6-7.", None, fr).reason == "range"
    assert rate_completion("Ma réponse est 6,5.", None, fr).rating == 6.5


def test_refusal_reason():
    r = rate_completion("I'm sorry, but I cannot provide a rating.")
    assert r.refusal and r.reason == "refusal"


def test_the_gpt35_reference_figures_are_unchanged_when_read_as_answers():
    """The paper's GPT-3.5 ratings, each read back through the parser as the answer "My answer
    is X." (and as a bare number): every value is kept, so its MAD and Gini stay the paper's
    (attractiveness 0.575 / 0.07, infant mortality 2.40 / 0.30) under the range rule."""
    from geobias.core.stats.metrics import gini, mad

    figures = {
        "Average_Attractiveness_of_Residents": (0.575, 0.07),
        "Infant_Mortality_Rate": (2.40, 0.30),
    }
    for topic, (paper_mad, paper_gini) in figures.items():
        table = read_ratings_table(f"{REFERENCE}gpt_3_5_turbo_0613_{topic}_world_prompts.csv")
        values = table["value"][np.isfinite(table["value"])]
        for form in ("My answer is {v}.", "{v}"):
            read = np.array([parse_rating(form.format(v=f"{v:g}")) for v in values], float)
            assert np.array_equal(read, np.minimum(values, 9.9))
        assert mad(read) == pytest.approx(paper_mad, abs=0.005)
        assert round(gini(read), 2) == paper_gini
