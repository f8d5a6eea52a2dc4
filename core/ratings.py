"""Ratings from completions: the greedy rating, refusals, and the logprob expected value."""

from __future__ import annotations

import csv
import math
import re
from dataclasses import dataclass
from functools import lru_cache

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


def _mask(text: str, pattern: re.Pattern) -> str:
    """Blank out matches with spaces so character positions stay put."""
    return pattern.sub(lambda m: " " * len(m.group(0)), text)


def find_rating(text: str | None) -> tuple[float, int, int] | None:
    """(rating, start, end) of the rating's characters in the text, or None."""
    if not text:
        return None
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


def parse_rating(text: str | None) -> float | None:
    """The rating in `My answer is X.X`, else the first number 0.0-9.9; None if not answered."""
    found = find_rating(text)
    return None if found is None else found[0]


def is_refusal(text: str | None) -> bool:
    """True when the completion uses declining language ("I'm sorry", "as an AI", ...)."""
    return bool(text) and _REFUSAL.search(text) is not None


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


def _token_at(starts: list[int], ends: list[int], pos: int) -> int:
    """Index of the token whose characters cover position `pos`."""
    for i, (s, e) in enumerate(zip(starts, ends)):
        if s <= pos < e:
            return i
    return -1


def expected_value(
    logprobs_content: list[dict] | None, text: str | None = None
) -> tuple[float | None, float | None]:
    """(E[first digit], finer expected rating) at the tokens holding the rating.

    The rating is located in the text the tokens spell (not at a fixed token index, as the
    paper's code assumed). At the token holding its first digit, every top-logprob alternative
    counts by the first digit of the rating it begins ("7", " 7.3", "▁7" count as 7; "10" as
    9; words and other numbers not at all), renormalised over those that count. The finer value
    adds E[second digit]/10 from the next token, or, when one token holds the whole rating,
    averages the alternatives that spell a whole rating. `text` is unused (kept for callers).
    """
    if not logprobs_content:
        return None, None
    tokens = [(entry.get("token") or "").translate(_PIECES) for entry in logprobs_content]
    spelled = "".join(tokens)
    found = find_rating(spelled)
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
    first = _digit_expectation(entry)
    if first is None:
        return None, None
    fine = None
    if end - start >= 3 and spelled[start + 1] == ".":  # "d.d...": second digit at start + 2
        j = _token_at(starts, ends, start + 2)
        if j > i:
            second = _digit_expectation(logprobs_content[j], _second_digit_of)
            if second is not None:
                fine = first + second / 10.0
        elif j == i:  # one token holds "d.d"
            fine = _pair_expectation(entry)
    return first, fine


def rate_completion(text: str | None, logprobs_content: list[dict] | None = None) -> Rating:
    """Everything one completion says: rating, expected values, answered and refusal flags."""
    rating = parse_rating(text)
    expected = fine = None
    if rating is not None and logprobs_content:
        try:
            expected, fine = expected_value(logprobs_content, text)
        except (AttributeError, TypeError, ValueError):  # a provider's malformed logprobs
            pass
    answered = rating is not None
    # A refusal is a completion that declined to rate; hedged text that still rates is answered.
    return Rating(rating, expected, fine, answered, (not answered) and is_refusal(text))


# The scale of the paper's prompt ("On a Scale from 0.0 to 9.9").
PAPER_SCALE = (0.0, 9.9)


def outside_scale(values, lo: float = PAPER_SCALE[0], hi: float = PAPER_SCALE[1]) -> np.ndarray:
    """Mask of finite ratings outside [lo, hi] (a tolerance of 1e-9 for rounding)."""
    v = np.asarray(values, dtype=float)
    with np.errstate(invalid="ignore"):
        return np.isfinite(v) & ((v < lo - 1e-9) | (v > hi + 1e-9))


def to_paper_scale(values, lo: float, hi: float) -> np.ndarray:
    """Ratings given on [lo, hi] mapped linearly onto the paper's 0.0-9.9 (MAD compares then)."""
    if not hi > lo:
        raise ValueError(f"the scale needs its top above its bottom, got {lo}..{hi}")
    v = np.asarray(values, dtype=float)
    if (lo, hi) == PAPER_SCALE:
        return v.copy()
    return (v - lo) / (hi - lo) * (PAPER_SCALE[1] - PAPER_SCALE[0]) + PAPER_SCALE[0]


class RatingsTableError(ValueError):
    """A ratings table that cannot be read (missing columns, non-numeric values)."""


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
            raise RatingsTableError(f"{path}: empty file, expected a header row")
        wanted = {"lat": lat, "lon": lon, "value": value}
        defaults = {"lat": "Latitude", "lon": "Longitude", "value": "Predictions"}
        cols = {
            role: _find_column(header, name, role, name == defaults[role])
            for role, name in wanted.items()
        }
        missing = [wanted[r] for r, c in cols.items() if c < 0]
        if missing:
            raise RatingsTableError(
                f"{path}: missing column(s) {missing}; the file has {[h.strip() for h in header]}"
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
                        f"{path}: row {line}, column {header[c].strip()!r}: "
                        f"{cell!r} is not a number"
                    ) from None
    result = {role: np.asarray(v, dtype=float) for role, v in out.items()}
    bad = ~np.isfinite(result["lat"]) | (np.abs(result["lat"]) > 90)
    bad |= ~np.isfinite(result["lon"]) | (np.abs(result["lon"]) > 180)
    if bad.any():
        line = lines[int(np.flatnonzero(bad)[0])]
        raise RatingsTableError(f"{path}: row {line}: latitude/longitude missing or out of range")
    return result
