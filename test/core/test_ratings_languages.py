"""Answers in every prompt language and digit script read to the same 0-9.9 scale; refusals
per language; expected values from log-probabilities whatever script the digit tokens are in."""

import math

import pytest

from geobias.core.survey.languages import get_language, load_languages
from geobias.core.survey.numerals import SCRIPTS, ascii_digits, format_number, normalise
from geobias.core.survey.ratings import expected_value, parse_rating, rate_completion

LANGS = sorted(c for c in load_languages() if c != "en")
SCRIPT_MARKS = {  # each script with the decimal marks it is written with
    "latin": (".", ","),
    "arabic-indic": ("٫", "."),
    "extended-arabic-indic": ("٫", "."),
    "devanagari": (".",),
    "fullwidth": ("．", "."),
}


def written(value: float, script: str, mark: str) -> str:
    return format_number(value, ".1f", SCRIPTS[script], mark)


def test_numerals():
    assert normalise("٧٫٥ ７．５ ७.५ ۷٫۵") == "7.5 7.5 7.5 7.5"
    assert normalise("7,5") == "7,5" and normalise("7,5", ".,") == "7.5"
    assert normalise("1,000 people", ".,") == "1.000 people"  # a mark only between digits
    assert len(ascii_digits("٠١٢٣٤٥٦٧٨٩")) == 10


@pytest.mark.parametrize("code", LANGS)
def test_the_language_answer_in_every_script(code):
    lang = get_language(code)
    fmt = lang.parser
    own = lang.answer.replace("{rating}", lang.number(7.5))
    assert parse_rating(own, fmt) == 7.5
    for script, marks in SCRIPT_MARKS.items():
        for mark in marks + (",",):  # after the answer phrase a comma is a decimal mark
            text = lang.answer.replace("{rating}", written(6.3, script, mark))
            assert parse_rating(text, fmt) == 6.3, text
    # the answer phrase with extra spaces, markdown and a colon; "10" is the top of the scale
    words = lang.answer.split("{rating}")[0].strip()
    assert parse_rating(f"  {words} : **{lang.number(4.0)}**", fmt) == 4.0
    assert parse_rating(f"{words} {written(10, 'latin', '.')[:2]}", fmt) == 9.9
    # English answers to a foreign prompt still count; the scale's echo is no rating
    assert parse_rating("My answer is 2.5.", fmt) == 2.5
    assert parse_rating(lang.scale, fmt) is None
    assert parse_rating(f"{lang.topics['Population Density']} ({lang.scale}):", fmt) is None
    r = rate_completion(own, None, fmt)
    assert r.answered and not r.refusal


@pytest.mark.parametrize("code", LANGS)
def test_refusals_in_each_language(code):
    lang = get_language(code)
    fmt = lang.parser
    assert lang.refusals
    for phrase in lang.refusals:
        text = f"{phrase}, 3 {lang.topics['Average Intelligence of Residents']}."
        r = rate_completion(text, None, fmt)
        assert r.refusal and not r.answered and r.rating is None, (phrase, r)
    # hedged but rated: an answer, not a refusal
    hedged = f"{lang.refusals[0]}. " + lang.answer.replace("{rating}", lang.number(5.0))
    r = rate_completion(hedged, None, fmt)
    assert r.answered and r.rating == 5.0 and not r.refusal
    assert not rate_completion(lang.topics["Population Density"], None, fmt).refusal


def test_language_specific_cases():
    fr, ar, zh, hi, ru = (get_language(c).parser for c in ("fr", "ar", "zh", "hi", "ru"))
    assert parse_rating("Ma réponse est 7,5.", fr) == 7.5
    assert parse_rating("Sur une échelle de 0,0 à 9,9, je dirais 6,5", fr) == 6.5
    assert parse_rating("إجابتي هي ٣٫٥.", ar) == 3.5
    assert parse_rating("إجابتي هي 3.5.", ar) == 3.5
    assert parse_rating("عذرًا، لا أستطيع تقديم تقييم.", ar) is None  # diacritics or not
    assert rate_completion("عذرًا، لا أستطيع", None, ar).refusal
    assert parse_rating("我的答案是：７．５。", zh) == 7.5
    assert parse_rating("评分7.5", zh) == 7.5  # digits right after Chinese characters
    assert parse_rating("在0.0到9.9的范围内", zh) is None
    assert parse_rating("मेरा उत्तर ७.५ है।", hi) == 7.5
    assert parse_rating("0.0 से 9.9 के पैमाने पर", hi) is None
    assert parse_rating("Мой ответ: 8,2.", ru) == 8.2
    assert parse_rating("Мой ответ: 8,23.", ru) == 8.23
    assert parse_rating("1,000 жителей", ru) is None  # a thousands comma is not a rating
    assert parse_rating("Ma réponse est 12.", fr) is None
    assert parse_rating("评分6,3", zh) == 6.0  # outside the answer phrase "," is no decimal in zh


def entry(token, alts=None, data=None):
    """A llama.cpp chat logprobs entry; alts maps token text (or (text, bytes)) to prob."""
    alts = alts or {token: 1.0}
    out = {"token": token, "logprob": math.log(1.0), "top_logprobs": []}
    if data is not None:
        out["bytes"] = list(data)
    for t, p in alts.items():
        text, raw = t if isinstance(t, tuple) else (t, None)
        alt = {"token": text, "logprob": math.log(p)}
        if raw is not None:
            alt["bytes"] = list(raw)
        out["top_logprobs"].append(alt)
    return out


def test_expected_value_with_digit_tokens_of_another_script():
    """Gemma's tokenizer: each digit of each script is one token; under an Arabic-Indic
    grammar its alternatives mix scripts ("1" against "٠"), and each counts as its digit."""
    ar = get_language("ar").parser
    content = [
        entry("إجابتي"),
        entry(" هي"),
        entry(" "),
        entry("٧", {"٧": 0.4, "7": 0.2, "٦": 0.2, "X": 0.2}),
        entry("٫", {"٫": 0.9, ".": 0.1}),
        entry("٥", {"٥": 0.5, "0": 0.25, "٩": 0.25}),
        entry("."),
    ]
    text = "".join(e["token"] for e in content)
    e, fine = expected_value(content, text, ar)
    assert e == pytest.approx((7 * 0.6 + 6 * 0.2) / 0.8)
    assert fine == pytest.approx(e + (5 * 0.5 + 0 * 0.25 + 9 * 0.25) / 10)
    r = rate_completion(text, content, ar)
    assert r.rating == 7.5 and r.expected == e and r.expected_fine == fine


def test_expected_value_with_byte_level_tokens():
    """SmolLM2's byte-level tokenizer writes "٩" as two tokens (0xD9, 0xA9); llama.cpp joins
    them into one entry whose alternatives are the second bytes alone, shown as U+FFFD (this
    entry's shape is what the real server returned, test/integration/test_languages_embedded)."""
    ar = get_language("ar").parser
    dev = "\N{DEVANAGARI DIGIT SEVEN}"
    nine, zero, eight = ("٩".encode(), "٠".encode(), "٨".encode())
    first = entry(
        "٩",
        {
            ("\ufffd", nine[1:]): 0.5,
            ("\ufffd", zero[1:]): 0.25,
            ("\ufffd", eight[1:]): 0.125,
            ("\ufffd", "٫".encode()[1:]): 0.0625,
            (".", b"."): 0.0625,
        },  # fmt: skip
        data=nine,
    )
    second = entry("٠", {("\ufffd", zero[1:]): 0.75, ("\ufffd", "٥".encode()[1:]): 0.25}, zero)
    content = [entry("إجابتي هي "), first, entry("٫", data="٫".encode()), second, entry(".")]
    text = "".join(e["token"] for e in content)
    assert parse_rating(text, ar) == 9.0
    e, fine = expected_value(content, text, ar)
    assert e == pytest.approx((9 * 0.5 + 0 * 0.25 + 8 * 0.125) / 0.875)
    assert fine == pytest.approx(e + (0 * 0.75 + 5 * 0.25) / 10)
    # Devanagari is three bytes: two in the shared token, the last one tells the digits apart
    hi = get_language("hi").parser
    d7, d4 = dev.encode(), "४".encode()
    content = [
        entry("मेरा उत्तर "),
        entry(dev, {("\ufffd", d7[2:]): 0.6, ("\ufffd", d4[2:]): 0.4}, d7),
        entry("."),
        entry("5", {"5": 1.0}),
        entry(" है।"),
    ]
    text = "".join(x["token"] for x in content)
    e, fine = expected_value(content, text, hi)
    assert e == pytest.approx(7 * 0.6 + 4 * 0.4) and fine == pytest.approx(e + 0.5)


def test_whole_rating_token_in_another_script():
    fr = get_language("fr").parser
    content = [entry("Ma réponse est "), entry("7,5", {"7,5": 0.5, "6,0": 0.5}), entry(".")]
    e, fine = expected_value(content, None, fr)
    assert e == pytest.approx(6.5) and fine == pytest.approx(6.75)
