"""Numbers in the world's digit scripts: writing a prompt's numbers, reading an answer's.

A prompt language writes its numbers with its own ten digits and decimal separator (French
"9,9", Arabic "٩٫٩"); answers may come back in any script. Reading maps every Unicode decimal
digit (Arabic-Indic ٠-٩, Extended Arabic-Indic ۰-۹, Devanagari ०-९, full-width ０-９, ...) to
its ASCII digit one character for one character, so positions in the text stay put (the
log-probability code finds the rating's token by its character position).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

__all__ = [
    "ASCII_DIGITS",
    "DECIMAL_MARKS",
    "SCRIPTS",
    "ascii_digits",
    "digit_value",
    "format_number",
    "normalise",
]

ASCII_DIGITS = "0123456789"
# Digit sets a language file may name by script instead of spelling the ten characters.
SCRIPTS: dict[str, str] = {
    "latin": ASCII_DIGITS,
    "arabic-indic": "٠١٢٣٤٥٦٧٨٩",  # U+0660-0669, the Arab world east of Libya
    "extended-arabic-indic": "۰۱۲۳۴۵۶۷۸۹",  # U+06F0-06F9, Persian and Urdu
    "devanagari": "०१२३४५६७८९",  # U+0966-096F
    "fullwidth": "０１２３４５６７８９",  # U+FF10-FF19, East Asian typesetting
}
# Decimal marks besides "." and ",": the Arabic decimal separator and the full-width stop.
DECIMAL_MARKS = ("٫", "．")


def digit_value(ch: str) -> int | None:
    """The value 0-9 of one decimal digit character of any script, else None."""
    return unicodedata.decimal(ch, None) if len(ch) == 1 else None


class _DigitTable(dict):
    """str.translate table: a decimal digit of any script -> its ASCII digit, others kept
    (looked up on first sight and remembered, so no scan of all of Unicode is needed)."""

    def __missing__(self, cp: int):
        v = unicodedata.decimal(chr(cp), None) if cp > 0x7F else None
        out = chr(cp) if v is None else str(v)  # never None: translate would delete it
        self[cp] = out
        return out


_DIGITS = _DigitTable()


def ascii_digits(text: str) -> str:
    """`text` with every decimal digit written as its ASCII digit (same length)."""
    return text.translate(_DIGITS) if not text.isascii() else text


@lru_cache(maxsize=64)
def _decimal_pattern(marks: str) -> re.Pattern:
    return re.compile(r"(?<=[0-9])[" + re.escape(marks) + r"](?=[0-9])")


def normalise(text: str, decimal_marks: str = "." + "".join(DECIMAL_MARKS)) -> str:
    """ASCII digits and "." for every decimal mark in `decimal_marks` between two digits.

    One character stays one character: "٧٫٥" -> "7.5", "７．５" -> "7.5", "7,5" -> "7.5" only
    when "," is among `decimal_marks` (a language that writes decimal commas).
    """
    text = ascii_digits(text)
    marks = "".join(m for m in decimal_marks if m != ".")
    return _decimal_pattern(marks).sub(".", text) if marks else text


def format_number(value: float, spec: str = ".1f", digits: str = ASCII_DIGITS, decimal: str = "."):
    """`value` formatted with a str.format spec, then written in `digits` with `decimal`.

    >>> format_number(9.9, ".1f", SCRIPTS["arabic-indic"], "٫")
    '٩٫٩'
    """
    text = format(float(value), spec)
    if digits != ASCII_DIGITS:
        text = text.translate(str.maketrans(ASCII_DIGITS, digits))
    if decimal != ".":
        text = text.replace(".", decimal)
    return text
