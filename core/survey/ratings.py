"""Ratings from completions: the greedy rating, refusals, and the logprob expected value."""

from __future__ import annotations

import csv
import math
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from ..messages import Message
from ..wording import listing
from .numerals import DECIMAL_MARKS, normalise

if TYPE_CHECKING:  # numpy is imported where values are read: loading GeoBias needs none
    import numpy as np

# "My answer is 7.5." with tolerance for case, extra spaces, markdown bold and quotes. "10" or
# "10.0" in this explicit format is the top of the scale and reads as 9.9 (TOP_OF_SCALE).
_ANSWER = re.compile(
    r"my\s+answer\s+is\s*[:\s*_\"'`]*(?<![\d.-])(\d(?:\.\d+)?|10(?:\.0+)?)(?!\d)", re.I
)
TOP_OF_SCALE = 9.9
# A fallback rating is one digit with at most one decimal: "7", "7.5" (not "10.0", "-3", "4.123").
_NUMBER = re.compile(r"(?<![\w.\-])(\d(?:\.\d)?)(?![\d]|\.\d)")
# A whole number followed by a plural noun counts things ("2 reasons", "3 cities"): no rating.
_COUNT = re.compile(
    r"(?<![\w.])\d+\s+(?!(?:is|as|was|this|its|has|does|plus|minus|thus|yes)\b)[a-z]+s\b", re.I
)
# Spans that only echo the scale or a denominator: "0.0 to 9.9", "0 - 9.9", "/10", "out of 9.9",
# and a truncated echo of the prompt's "(On a Scale from 0" (max_tokens cuts it off).
_SCALE_ECHO = re.compile(
    r"(?:\b0(?:\.0)?\s*(?:to|-|–|and)\s*(?:9\.9|10(?:\.0)?)\b)"
    r"|(?:\bscale\s+(?:of|from)\s+\d+(?:\.\d+)?(?:\s*(?:to|-|–|and)\s*\d+(?:\.\d+)?)?)"
    r"|(?:(?:/|\bout\s+of)\s*\d+(?:\.\d+)?)",
    re.I,
)
# A range is not a rating: the rating's number joined to a second one by a dash ("6-7",
# "6 – 7.5", "6~7") or a range word ("6 to 7", "between 6 and 7", "from 6 to 7"; "and" only
# after "between" or "from": "6 and 7" alone reads 6, as before) leaves the answer unanswered,
# reason "range" (docs/method.md). The rating's number may also be a range's second end.
_JOINED = re.compile(r"\s*(?:[-‐‑–—~]|\bto\b)\s*\d", re.I)
_JOINED_AND = re.compile(r"\s*(?:[-‐‑–—~]|\bto\b|\band\b)\s*\d", re.I)
_RANGE_WORD_BEFORE = re.compile(r"\b(?:between|from)\s+$", re.I)
_SECOND_END = re.compile(r"\d\s*(?:[-‐‑–—~]|\bto\b)\s*$", re.I)
# In another prompt language only the dashes: its range words are not known here.
_JOINED_ANY = re.compile(r"\s*[-‐‑–—~]\s*\d")
_SECOND_END_ANY = re.compile(r"\d\s*[-‐‑–—~]\s*$")
# A numbered list marker at the start of a line ("1. The area...") is not a rating.
_LIST_MARKER = re.compile(r"^\s*\d[.)]\s+(?=[A-Za-z])", re.M)

_PAIR = re.compile(r"\d\.\d+")
# A top-logprob alternative at the rating's first token, read as the rating it begins: a digit
# with an optional decimal part or trailing punctuation ("7", "7.", "7.3", "4,"), or ten.
_ALT_RATING = re.compile(r"(\d)(?:\.\d*)?[.,;!]?")
_ALT_TEN = re.compile(r"10(?:\.0*)?[.,;!]?")
# Raw token pieces from servers that do not decode them: SentencePiece's word start "▁",
# GPT-2 byte-level BPE's space "Ġ" and newline "Ċ"; each stands for one character.
_PIECES = str.maketrans({"\u2581": " ", "\u0120": " ", "\u010a": "\n"})
_REFUSAL = re.compile(
    r"\b(?:i'?m sorry|i am sorry|i apologi[sz]e|sorry, but|as an ai|as a language model"
    r"|i (?:cannot|can ?not|can't|can’t|am unable to|'m unable to|won't|will not|do not|don't)"
    r" (?:provide|give|rate|assign|determine|make|answer|offer|predict|estimate|comply)"
    r"|(?:cannot|can't|unable to) (?:be )?(?:provide|determine|rate|accurately)"
    r"|not (?:appropriate|possible|ethical|able to)|inappropriate|unethical"
    r"|i don'?t have (?:access|enough|sufficient|the)|insufficient (?:data|information)"
    r"|not (?:enough|sufficient) (?:data|information))",
    re.I,
)


@dataclass(frozen=True)
class Rating:
    """One answer: greedy rating, expected values from logprobs, answered and refusal flags."""

    rating: float | None
    expected: float | None = None
    expected_fine: float | None = None
    answered: bool = False
    refusal: bool = False
    # Why an answer is unanswered: "refusal", "range" (two numbers: is_range) or "" (none read).
    reason: str = ""


@dataclass(frozen=True)
class AnswerFormat:
    """How answers read in one prompt language (core/survey/languages.py builds it from a file).

    `phrase` is what comes before the rating ("Ma réponse est"), `decimal` the language's
    decimal separator, `scale` the scale phrases its prompt uses (an echo of them is no
    rating) and `refusals` its declining phrases. English answers are read by the module's
    own patterns (answer=None), kept exactly as they were before languages came.
    """

    phrase: str
    decimal: str = "."
    scale: tuple = ()
    refusals: tuple = ()


# Between the answer phrase and the rating: spaces, markdown, quotes and colons of any script.
_LEAD = r"[:：\s*_\"'`«»“”„‘’「」『』]*"
# The rating after the answer phrase: there a comma is a decimal mark in every language.
_RATING = r"(?<![0-9.\-])([0-9](?:[.,][0-9]+)?|10(?:[.,]0+)?)(?![0-9])"
# A fallback rating outside the English path: digits may follow a letter of a script written
# without spaces (Chinese "评分7.5"), not a Latin letter or a digit ("A4", "COVID19").
_NUMBER_ANY = re.compile(r"(?<![0-9A-Za-z_.\-])([0-9](?:\.[0-9])?)(?![0-9]|\.[0-9])")
# Echoes of "0.0 <a word> 9.9" in any language: "0,0 à 9,9", "0.0到9.9", "0.0 से 9.9".
_SCALE_ANY = re.compile(r"(?<![0-9.])0(?:\.0)?\s*[^\s0-9]{1,8}\s*(?:9\.9|10(?:\.0)?)(?![0-9])")
_LIST_MARKER_ANY = re.compile(r"^\s*[0-9][.)]\s+(?=[^\W\d_])", re.M)


# Arabic short vowels, tanween, shadda, sukun and tatweel: optional in writing, so a refusal
# phrase matches with or without them.
_ARABIC_MARKS = re.compile("[\u064b-\u0652\u0640]")


def _spaceless(ch: str) -> bool:
    """A character of a script written without spaces between words (CJK, kana)."""
    return "\u3000" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff" or "\uff00" <= ch <= "\uffef"


def _words(phrase: str, bounded: bool = False) -> str:
    """A phrase as a pattern: its words with any run of spaces between them, either
    apostrophe; `bounded`: not inside a longer word (except in scripts without spaces)."""
    phrase = _ARABIC_MARKS.sub("", phrase)
    body = r"\s+".join(re.escape(w).replace("'", "['’]") for w in phrase.split())
    if bounded and not _spaceless(phrase[0]):
        body = r"(?<!\w)" + body
    if bounded and not _spaceless(phrase[-1]):
        body += r"(?!\w)"
    return body


@lru_cache(maxsize=64)
def _patterns(answer: AnswerFormat) -> dict:
    """Compiled patterns of one answer format (answers are normalised to ASCII digits first)."""
    marks = "." + "".join(DECIMAL_MARKS) + ("," if answer.decimal == "," else "")
    if answer.decimal not in marks:
        marks += answer.decimal
    phrases = [p for p in (answer.phrase, "My answer is") if p.strip()]
    refusals = [_words(r, bounded=True) for r in answer.refusals if r.strip()]
    scales = [_words(normalise(s, marks)) for s in answer.scale if s.strip()]
    return {
        "marks": marks,
        "answer": re.compile("|".join(f"(?:{_words(p)}){_LEAD}{_RATING}" for p in phrases), re.I),
        "refusal": re.compile("|".join(refusals), re.I) if refusals else None,
        "scale": re.compile("|".join(scales), re.I) if scales else None,
    }


def _find_in(text: str, answer: AnswerFormat) -> tuple[float, int, int] | None:
    """find_rating for a prompt language: any digit script, its decimal mark, its phrase."""
    pat = _patterns(answer)
    clean = normalise(text, pat["marks"])  # one character for one: positions stay put
    m = pat["answer"].search(clean)
    if m:
        g = next(i for i in range(1, (m.lastindex or 0) + 1) if m.group(i) is not None)
        return min(float(m.group(g).replace(",", ".")), TOP_OF_SCALE), m.start(g), m.end(g)
    if is_refusal(text, answer):
        return None
    for pattern in (pat["scale"], _SCALE_ANY, _SCALE_ECHO, _LIST_MARKER_ANY, _COUNT):
        if pattern is not None:
            clean = _mask(clean, pattern)
    m = _NUMBER_ANY.search(clean)
    if m:
        return float(m.group(1)), m.start(1), m.end(1)
    return None


def _mask(text: str, pattern: re.Pattern) -> str:
    """Blank out matches with spaces so character positions stay put."""
    return pattern.sub(lambda m: " " * len(m.group(0)), text)


def find_rating(
    text: str | None, answer: AnswerFormat | None = None
) -> tuple[float, int, int] | None:
    """(rating, start, end) of the rating's characters in the text, or None; None for a
    range ("between 6 and 7", "6-7": is_range).

    `answer`: a prompt language's answer format (None: English, as the paper asked).
    """
    found = _find_number(text, answer)
    if found is None or _range_around(text, found[1], found[2], answer):
        return None
    return found


def is_range(text: str | None, answer: AnswerFormat | None = None) -> bool:
    """True when the number a rating would be read from is one end of a range: two numbers
    joined by a dash or a range word ("between 6 and 7", "6 to 7", "6-7"). Such an answer is
    unanswered, reason "range": taking either end would invent a rating."""
    found = _find_number(text, answer)
    return found is not None and _range_around(text, found[1], found[2], answer)


def _range_around(text: str, start: int, end: int, answer: AnswerFormat | None) -> bool:
    """The number at text[start:end] is joined to another by a dash or a range word."""
    head = text[:start]
    if answer is not None:
        text = normalise(text, _patterns(answer)["marks"])  # ASCII digits, positions kept
        return bool(_JOINED_ANY.match(text, end) or _SECOND_END_ANY.search(text[:start]))
    if _JOINED.match(text, end) or _SECOND_END.search(head):
        return True
    return bool(_RANGE_WORD_BEFORE.search(head) and _JOINED_AND.match(text, end))


def _find_number(
    text: str | None, answer: AnswerFormat | None = None
) -> tuple[float, int, int] | None:
    """(rating, start, end) of the number a rating is read from, ranges not yet excluded."""
    if not text:
        return None
    if answer is not None:
        return _find_in(text, answer)
    m = _ANSWER.search(text)
    if m:
        return min(float(m.group(1)), TOP_OF_SCALE), m.start(1), m.end(1)
    # The bare-number fallback reads only completions that do not decline: a number in "There
    # are 2 reasons I can't rate this" is not a rating.
    if is_refusal(text):
        return None
    clean = _mask(_mask(_mask(text, _SCALE_ECHO), _LIST_MARKER), _COUNT)
    m = _NUMBER.search(clean)
    if m:
        return float(m.group(1)), m.start(1), m.end(1)
    return None


def parse_rating(text: str | None, answer: AnswerFormat | None = None) -> float | None:
    """The rating in `My answer is X.X`, else the first number 0.0-9.9; None if not answered.

    With a prompt language's `answer` format, its own phrase ("Ma réponse est 7,5."), decimal
    mark and any script's digits (٧٫٥, ७.५, ７．５) read the same.
    """
    found = find_rating(text, answer)
    return None if found is None else found[0]


def is_refusal(text: str | None, answer: AnswerFormat | None = None) -> bool:
    """True when the completion uses declining language ("I'm sorry", "as an AI", ...), in
    English or in the phrases of a prompt language's `answer` format."""
    if not text:
        return False
    if _REFUSAL.search(text) is not None:
        return True
    pattern = _patterns(answer)["refusal"] if answer is not None else None
    return pattern is not None and pattern.search(_ARABIC_MARKS.sub("", text)) is not None


def _piece(token) -> str:
    """A token's text with raw SentencePiece/byte-BPE markers decoded, stripped."""
    return (token or "").translate(_PIECES).strip()


@lru_cache(maxsize=4096)
def _first_digit_of(token: str) -> int | None:
    """The first digit of the rating a first-token alternative begins, None if it begins none.

    " 7", "7", "7.", "7.3", "▁7", "Ġ7" count as 7; "10" (the top of the scale, read as 9.9)
    counts as 9; other numbers ("12", "-3") and words are no rating on the 0.0-9.9 scale.
    """
    s = _piece(token)
    if _ALT_TEN.fullmatch(s):
        return int(TOP_OF_SCALE)
    m = _ALT_RATING.fullmatch(s)
    return int(m.group(1)) if m else None


@lru_cache(maxsize=4096)
def _second_digit_of(token: str) -> int | None:
    """The digit a second-digit alternative stands for: "5", ".5", "5.", "▁5"."""
    s = _piece(token)
    if s.startswith("."):
        s = s[1:]
    if s.endswith("."):
        s = s[:-1]
    return int(s) if len(s) == 1 and s in "0123456789" else None


def _digit_expectation(entry: dict, digit_of=_first_digit_of) -> float | None:
    """E[digit] over the top-logprob alternatives that stand for a digit, renormalised."""
    total = weighted = 0.0
    alternatives = entry.get("top_logprobs") or []
    if not alternatives:  # no alternatives given: the chosen token is certain
        alternatives = [{"token": entry.get("token", ""), "logprob": 0.0}]
    for alt in alternatives:
        d = digit_of(alt.get("token") or "")
        lp = alt.get("logprob")
        if d is not None and lp is not None and math.isfinite(lp):
            p = math.exp(lp)
            total += p
            weighted += d * p
    return weighted / total if total > 0 else None


def _pair_expectation(entry: dict) -> float | None:
    """E[rating] over the alternatives that spell a whole rating "d.d" (one token holds it)."""
    values, weights = [], []
    for alt in entry.get("top_logprobs") or []:
        s = _piece(alt.get("token")).rstrip(".,;!")
        lp = alt.get("logprob")
        if _PAIR.fullmatch(s) and lp is not None and math.isfinite(lp):
            values.append(float(s))
            weights.append(math.exp(lp))
    total = sum(weights)
    if total <= 0:
        return None
    return sum(v * w for v, w in zip(values, weights)) / total


def _is_continuation(data) -> bool:
    """Bytes that begin inside a UTF-8 character (10xxxxxx)."""
    return bool(data) and 0x80 <= data[0] <= 0xBF


def _alternatives(entry: dict) -> list[tuple[str, float]]:
    """(text, logprob) of an entry's alternatives, each as the text it would spell there.

    A byte-level tokenizer (SmolLM2's) writes a digit of another script as two tokens, a
    lead byte all ten digits share and a continuation byte that tells them apart. llama.cpp
    reports such a character as one entry whose alternatives are the continuation bytes
    alone ("\ufffd", bytes [169]): each is read with the entry's own lead bytes in front.
    Alternatives that cannot continue the character there (a whole token) are left out.
    """
    alternatives = entry.get("top_logprobs") or []
    if not alternatives:  # no alternatives given: the chosen token is certain
        return [(entry.get("token") or "", 0.0)]
    own = bytes(entry.get("bytes") or b"")
    continued = own and any(_is_continuation(a.get("bytes")) for a in alternatives)
    out = []
    for alt in alternatives:
        lp = alt.get("logprob")
        if lp is None or not math.isfinite(lp):
            continue
        if not continued:
            out.append((alt.get("token") or "", lp))
            continue
        data = bytes(alt.get("bytes") or b"")
        if not _is_continuation(data):
            continue
        for j in range(1, len(own)):  # the shortest cut of the entry's bytes it completes
            try:
                out.append(((own[:-j] + data).decode("utf-8"), lp))
                break
            except UnicodeDecodeError:
                continue
    return out


def _any_script(token: str) -> str:
    """A token's text with raw markers decoded and its digits and decimal marks in ASCII
    ("٫٥" -> ".5", ",5" -> ".5", "７．" -> "7.")."""
    s = normalise(_piece(token), ".,٫．").replace("٫", ".").replace("．", ".")
    return "." + s[1:] if s[:1] == "," and s[1:2].isdigit() else s


def _script_digit_expectation(entry: dict, second: bool = False) -> float | None:
    """E[digit] at an entry, counting digits of every script (the model's choice of script
    is not its rating: under an Arabic-Indic grammar Gemma still weighs "1" against "٠")."""
    total = weighted = 0.0
    digit_of = _second_digit_of if second else _first_digit_of
    for text, lp in _alternatives(entry):
        d = digit_of(_any_script(text))
        if d is not None:
            p = math.exp(lp)
            total += p
            weighted += d * p
    return weighted / total if total > 0 else None


def _script_pair_expectation(entry: dict) -> float | None:
    """_pair_expectation counting ratings spelled in any script ("٧٫٥", "7,5")."""
    values, weights = [], []
    for text, lp in _alternatives(entry):
        t = _any_script(text).rstrip(".,;!")
        if _PAIR.fullmatch(t):
            values.append(float(t))
            weights.append(math.exp(lp))
    total = sum(weights)
    return sum(v * w for v, w in zip(values, weights)) / total if total > 0 else None


def _token_at(starts: list[int], ends: list[int], pos: int) -> int:
    """Index of the token whose characters cover position `pos`."""
    for i, (s, e) in enumerate(zip(starts, ends)):
        if s <= pos < e:
            return i
    return -1


def expected_value(
    logprobs_content: list[dict] | None,
    text: str | None = None,
    answer: AnswerFormat | None = None,
) -> tuple[float | None, float | None]:
    """(E[first digit], finer expected rating) at the tokens holding the rating.

    The rating is located in the text the tokens spell (not at a fixed token index, as the
    paper's code assumed). At the token holding its first digit, every top-logprob alternative
    counts by the first digit of the rating it begins ("7", " 7.3", "▁7" count as 7; "10" as
    9; words and other numbers not at all), renormalised over those that count. The finer value
    adds E[second digit]/10 from the next token, or, when one token holds the whole rating,
    averages the alternatives that spell a whole rating. `text` is unused (kept for callers).
    With a prompt language's `answer` format the rating is found as `find_rating` finds it
    there, and digits of every script count, a byte-level tokenizer's split ones included.
    """
    if not logprobs_content:
        return None, None
    tokens = [(entry.get("token") or "").translate(_PIECES) for entry in logprobs_content]
    spelled = "".join(tokens)
    found = find_rating(spelled, answer)
    if found is None:
        return None, None
    _, start, end = found
    starts, pos = [], 0
    for t in tokens:
        starts.append(pos)
        pos += len(t)
    ends = starts[1:] + [pos]
    i = _token_at(starts, ends, start)
    if i < 0:
        return None, None
    entry = logprobs_content[i]
    if answer is not None:
        spelled = normalise(spelled, _patterns(answer)["marks"])
    first = _digit_expectation(entry) if answer is None else _script_digit_expectation(entry)
    if first is None:
        return None, None
    fine = None
    point = "." if answer is None else ".,"
    if end - start >= 3 and spelled[start + 1] in point:  # "d.d...": second digit at start + 2
        j = _token_at(starts, ends, start + 2)
        if j > i:
            second = (
                _digit_expectation(logprobs_content[j], _second_digit_of)
                if answer is None
                else _script_digit_expectation(logprobs_content[j], second=True)
            )
            if second is not None:
                fine = first + second / 10.0
        elif j == i:  # one token holds "d.d"
            fine = _pair_expectation(entry) if answer is None else _script_pair_expectation(entry)
    return first, fine


def rate_completion(
    text: str | None,
    logprobs_content: list[dict] | None = None,
    answer: AnswerFormat | None = None,
) -> Rating:
    """Everything one completion says: rating, expected values, answered and refusal flags.

    `answer`: the prompt language's answer format (None: English, the paper's).
    """
    rating = parse_rating(text, answer)
    expected = fine = None
    if rating is not None and logprobs_content:
        try:
            expected, fine = expected_value(logprobs_content, text, answer)
        except (AttributeError, TypeError, ValueError):  # a provider's malformed logprobs
            pass
    answered = rating is not None
    # A refusal is a completion that declined to rate; hedged text that still rates is answered.
    refusal = (not answered) and is_refusal(text, answer)
    reason = "" if answered else "refusal" if refusal else "range" if is_range(text, answer) else ""
    return Rating(rating, expected, fine, answered, refusal, reason)


# The scale of the paper's prompt ("On a Scale from 0.0 to 9.9").
PAPER_SCALE = (0.0, 9.9)


def outside_scale(values, lo: float = PAPER_SCALE[0], hi: float = PAPER_SCALE[1]) -> np.ndarray:
    """Mask of finite ratings outside [lo, hi] (a tolerance of 1e-9 for rounding)."""
    import numpy as np

    v = np.asarray(values, dtype=float)
    with np.errstate(invalid="ignore"):
        return np.isfinite(v) & ((v < lo - 1e-9) | (v > hi + 1e-9))


def to_paper_scale(values, lo: float, hi: float) -> np.ndarray:
    """Ratings given on [lo, hi] mapped linearly onto the paper's 0.0-9.9 (MAD compares then)."""
    import numpy as np

    if not hi > lo:
        raise ValueError(Message("ratings.scale", lo=lo, hi=hi))
    v = np.asarray(values, dtype=float)
    if (lo, hi) == PAPER_SCALE:
        return v.copy()
    return (v - lo) / (hi - lo) * (PAPER_SCALE[1] - PAPER_SCALE[0]) + PAPER_SCALE[0]


class RatingsTableError(ValueError):
    """A ratings table that cannot be read (missing columns, non-numeric values).

    `missing` lists the roles ("lat", "lon", "value") whose column was not found, so a caller
    can name the setting that asked for it.
    """

    def __init__(self, message: str, missing: tuple = ()):
        super().__init__(message)
        self.missing = tuple(missing)


_ALIASES = {
    "lat": ("latitude", "lat", "y"),
    "lon": ("longitude", "lon", "lng", "long", "x"),
    "value": ("predictions", "prediction", "rating", "ratings", "value", "expected"),
}


def _find_column(header: list[str], wanted: str, role: str, defaulted: bool) -> int:
    keys = [h.strip().casefold() for h in header]
    names = [wanted] + (list(_ALIASES[role]) if defaulted else [])
    for name in names:
        if name.casefold() in keys:
            return keys.index(name.casefold())
    return -1


def read_ratings_table(
    path: str, lat: str = "Latitude", lon: str = "Longitude", value: str = "Predictions"
) -> dict[str, np.ndarray]:
    """A model's recorded ratings from a CSV ({"lat","lon","value"}); empty values are NaN."""
    import numpy as np

    with open(path, newline="", encoding="utf-8-sig") as f:
        sample = f.read(4096)
        f.seek(0)
        try:
            dialect = csv.Sniffer().sniff(sample, delimiters=",;\t")
        except csv.Error:
            dialect = csv.excel
        rows = csv.reader(f, dialect)
        header = next(rows, None)
        if not header:
            raise RatingsTableError(Message("ratings.empty_file", path=path))
        wanted = {"lat": lat, "lon": lon, "value": value}
        defaults = {"lat": "Latitude", "lon": "Longitude", "value": "Predictions"}
        cols = {
            role: _find_column(header, name, role, name == defaults[role])
            for role, name in wanted.items()
        }
        missing = [wanted[r] for r, c in cols.items() if c < 0]
        if missing:
            raise RatingsTableError(
                Message(
                    "ratings.missing_columns",
                    path=path,
                    missing=listing(missing),
                    found=listing(h.strip() for h in header),
                ),
                missing=[r for r, c in cols.items() if c < 0],
            )
        out = {role: [] for role in cols}
        lines = []
        for line, row in enumerate(rows, start=2):
            if not any(cell.strip() for cell in row):
                continue
            lines.append(line)
            for role, c in cols.items():
                cell = row[c].strip() if c < len(row) else ""
                if cell == "" and role == "value":
                    out[role].append(math.nan)  # not answered
                    continue
                try:
                    out[role].append(float(cell))
                except ValueError:
                    raise RatingsTableError(
                        Message(
                            "ratings.not_number",
                            path=path,
                            line=line,
                            column=header[c].strip(),
                            cell=cell,
                        )
                    ) from None
    result = {role: np.asarray(v, dtype=float) for role, v in out.items()}
    bad = ~np.isfinite(result["lat"]) | (np.abs(result["lat"]) > 90)
    bad |= ~np.isfinite(result["lon"]) | (np.abs(result["lon"]) > 180)
    if bad.any():
        line = lines[int(np.flatnonzero(bad)[0])]
        raise RatingsTableError(Message("ratings.bad_location", path=path, line=line))
    return result
