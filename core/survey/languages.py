"""Prompt languages: the paper's prompt, topics and answer format in other languages, as data.

Each language is one JSON file (``resources/languages/<code>.json``, schema in
docs/languages.md): the GeoLLM prompt's sentences and section headings, the 16 topic names, the
answer phrase ("Ma réponse est X,X."), how it writes numbers (digits and decimal mark), compass
words and "km" for the nearby places, its refusal phrases and optional place-name overrides. A
user adds a language by adding a file (`add_folder`); files are checked when loaded and a bad
one is refused with a message naming the file and the field.

English renders byte for byte the prompts of core/survey/prompts.py, so caches of earlier surveys
keep answering (the cache key is the request itself, which differs per language anyway).
"""

from __future__ import annotations

import json
import re
import string
from dataclasses import dataclass, field
from pathlib import Path

from ..resources import resource
from ..wording import listing
from .numerals import ASCII_DIGITS, SCRIPTS, format_number
from .prompts import DEFAULT_PRESET, PRESETS, PromptTemplate, TemplateError, point_descriptions
from .prompts import short_address as _short_address
from .ratings import AnswerFormat
from .topics import TOPICS, get_topic

__all__ = [
    "BUNDLED_DIR",
    "DEFAULT_LANGUAGE",
    "DIRECTIONS",
    "Language",
    "LanguageError",
    "add_folder",
    "available",
    "get_language",
    "load_language",
    "load_languages",
]

BUNDLED_DIR = Path(resource("languages"))
DEFAULT_LANGUAGE = "en"
SCHEMA = 1
# The gazetteer's compass words (core/geo/sampling.py COMPASS8), which a file translates.
DIRECTIONS = ("North", "North-East", "East", "South-East", "South", "South-West", "West",
              "North-West")  # fmt: skip
_CODE = re.compile(r"^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$")
# One line of the gazetteer's nearby places (core/geo/gazetteer.py): "12.3 km North-East: Name".
_NEARBY_LINE = re.compile(
    r"^(\d+\.\d) km ("
    + "|".join(sorted(map(re.escape, DIRECTIONS), key=len, reverse=True))
    + r"): (.*)$"
)
# Which sections each preset of core/survey/prompts.py joins (the paper's prompt and its ablations).
_PRESET_SECTIONS = {
    "geollm": ("coordinates", "address", "nearby", "question"),
    "no_coordinates": ("address", "nearby", "question"),
    "no_nearby": ("coordinates", "address", "question"),
    "no_address": ("coordinates", "nearby", "question"),
    "short_address": ("coordinates", "short_address", "nearby", "question"),
}
# The placeholders each section must hold, and no others.
_SECTION_FIELDS = {
    "coordinates": {"lat", "lon"},
    "address": {"address"},
    "nearby": {"nearby"},
    "question": {"topic"},
}
_KEYS = {
    "schema",
    "code",
    "name",
    "native_name",
    "spoken",
    "numbers",
    "prompt",
    "answer",
    "nearby_line",
    "km",
    "directions",
    "topics",
    "refusals",
    "place_names",
    "translation",
}
_REQUIRED = _KEYS - {"place_names", "refusals", "native_name"}
_extra_folders: list[Path] = []


class LanguageError(ValueError):
    """A language file that cannot be used (the message names the file and the field)."""


class _Number:
    """A number that formats itself in a language's digits and decimal mark ({lat:.5f})."""

    __slots__ = ("value", "digits", "decimal")

    def __init__(self, value: float, digits: str, decimal: str):
        self.value, self.digits, self.decimal = float(value), digits, decimal

    def __format__(self, spec: str) -> str:
        return format_number(self.value, spec or "", self.digits, self.decimal)


def _fields(text: str) -> set[str]:
    return {f for _l, f, _s, _c in string.Formatter().parse(text) if f is not None}


@dataclass(frozen=True, eq=False)
class Language:
    """One prompt language, as read from its file (see `load_language`)."""

    code: str
    name: str
    native_name: str
    spoken: tuple  # ISO 639 codes matched against GeoNames' country language lists
    digits: str
    decimal: str
    prefix: str
    sections: dict
    scale: str
    answer: str  # the answer's format, the rating as {rating}: "Ma réponse est {rating}."
    placeholder: str  # how the prompt writes the rating to give: "X,X"
    nearby_line: str
    km: str
    directions: dict
    topics: dict
    refusals: tuple = ()
    place_names: dict = field(default_factory=dict)
    translation: dict = field(default_factory=dict)
    path: str = ""

    # --- prompts --------------------------------------------------------------------------

    def presets(self) -> dict[str, PromptTemplate]:
        """The paper's prompt and its ablations in this language, by survey/prompts.py's names."""
        out = {}
        for name, parts in _PRESET_SECTIONS.items():
            body = "\n\n".join(self.sections[p] for p in parts)
            out[name] = PromptTemplate(name=name, prefix=self.prefix, body=body)
        return out

    def template(self, template: PromptTemplate | str | None = None) -> PromptTemplate:
        """This language's version of a preset (by name, or the English preset itself); a
        user's own template is the user's text and is used as it is (None: the paper's)."""
        if template is None:
            template = DEFAULT_PRESET
        if isinstance(template, str):
            if template not in _PRESET_SECTIONS:
                raise KeyError(
                    f"no prompt preset {template!r}; available: {listing(sorted(PRESETS))}"
                )
            return self.presets()[template]
        preset = PRESETS.get(template.name)
        if preset is not None and preset.text == template.text:
            return self.presets()[template.name]
        return template

    def topic(self, name: str) -> str:
        """The prompt's words for a topic: the paper's 16 translated, any other as typed (and
        English ones as typed too, so "infant mortality rate" asks what it always asked)."""
        t = get_topic(name)
        if t.kind == "custom" or self.topics.get(t.name, t.name) == t.name:
            return name
        return self.topics[t.name]

    def number(self, value: float, spec: str = ".1f") -> str:
        """A number as this language writes it (its digits and decimal mark)."""
        return format_number(value, spec, self.digits, self.decimal)

    @property
    def plain(self) -> bool:
        """True when prompts need no rewriting beyond the template (English)."""
        return (
            self.digits == ASCII_DIGITS
            and self.decimal == "."
            and not self.place_names
            and self.nearby_line == "{distance} {km} {direction}: {name}"
            and self.km == "km"
            and all(self.directions[d] == d for d in DIRECTIONS)
        )

    def localise_address(self, address: str) -> str:
        """An address with this language's place-name overrides applied to its parts."""
        if not self.place_names or not address:
            return address
        return ", ".join(self.place_names.get(p, p) for p in address.split(", "))

    def localise_nearby(self, text: str) -> str:
        """The gazetteer's nearby-place lines ("3.2 km South-West: Gardens") in this language;
        a line of another shape (a user's own gazetteer) is kept as it is."""
        if not text:
            return text
        out = []
        for line in text.split("\n"):
            m = _NEARBY_LINE.match(line)
            if m:
                km, direction, place = m.groups()
                line = self.nearby_line.format(
                    distance=self.number(float(km), ".1f"),
                    km=self.km,
                    direction=self.directions[direction],
                    name=self.place_names.get(place, place),
                )
            out.append(line)
        return "\n".join(out)

    def build_prompts(
        self, lon, lat, topic: str, gazetteer, template: PromptTemplate | str | None = None
    ) -> list[str]:
        """Prompts for points on one topic in this language (core/prompts.build_prompts's
        contract: the gazetteer is asked only what the template uses)."""
        from .prompts import build_prompts

        tpl = self.template(template)
        words = self.topic(topic)
        if self.plain:
            return build_prompts(lon, lat, words, gazetteer, tpl)
        return self._build(lon, lat, words, gazetteer, tpl)

    def _build(self, lon, lat, words: str, gazetteer, tpl: PromptTemplate) -> list[str]:
        lon, lat, addresses, texts = point_descriptions(lon, lat, tpl, gazetteer)
        fmt = tpl.text.format
        out = []
        for x, y, a, t in zip(lon.tolist(), lat.tolist(), addresses, texts):
            out.append(
                fmt(
                    lat=_Number(y, self.digits, self.decimal),
                    lon=_Number(x, self.digits, self.decimal),
                    topic=words,
                    address=self.localise_address(a),
                    nearby=self.localise_nearby(t),
                    short_address=self.localise_address(_short_address(a)) if a else "",
                )
            )
        return out

    # --- answers ----------------------------------------------------------------------------

    @property
    def answer_format(self) -> AnswerFormat:
        """What core/survey/ratings.py needs to read answers in this language."""
        return AnswerFormat(
            phrase=self.answer.split("{rating}")[0].strip(),
            decimal=self.decimal,
            scale=(self.scale,),
            refusals=tuple(self.refusals),
        )

    @property
    def parser(self) -> AnswerFormat | None:
        """The answer format for core/survey/ratings.py; None for English, which keeps the patterns
        ratings.py has always used (results from existing caches stay exactly as they were)."""
        return None if self.code == DEFAULT_LANGUAGE else self.answer_format

    def _digit_class(self) -> str:
        d = self.digits
        if all(ord(b) - ord(a) == 1 for a, b in zip(d, d[1:])):
            return f"[{d[0]}-{d[-1]}]"
        return "[" + d + "]"

    @property
    def gbnf(self) -> str:
        """llama.cpp's grammar for the answer: the phrase, digit, decimal mark, digit, the rest."""
        before, after = self.answer.split("{rating}")
        d = self._digit_class()

        def lit(s: str) -> str:
            return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'

        parts = ([lit(before)] if before else []) + [d, lit(self.decimal), d]
        parts += [lit(after)] if after else []
        return "root ::= " + " ".join(parts)

    @property
    def regex(self) -> str:
        """The same answer as a regular expression (vLLM's structured outputs)."""
        before, after = self.answer.split("{rating}")
        d = self._digit_class()

        def esc(s: str) -> str:
            return re.sub(r"([.^$*+?{}\[\]\\|()])", r"\\\1", s)

        return esc(before) + d + esc(self.decimal) + d + esc(after)


# --- loading --------------------------------------------------------------------------------


def _need(cond: bool, where: str, message: str) -> None:
    if not cond:
        raise LanguageError(f"{where}: {message}")


def _text(data: dict, key: str, where: str) -> str:
    value = data.get(key)
    _need(isinstance(value, str) and value.strip() != "", where, f"{key!r} must be non-empty text")
    return value


def _mapping(data: dict, key: str, where: str, wanted=None) -> dict:
    value = data.get(key, {})
    _need(isinstance(value, dict), where, f"{key!r} must be an object")
    for k, v in value.items():
        _need(isinstance(v, str) and v.strip() != "", where, f"{key}[{k!r}] must be non-empty text")
    if wanted is not None:
        missing = [w for w in wanted if w not in value]
        _need(not missing, where, f"{key!r} lacks {listing(missing)}")
        unknown = sorted(set(value) - set(wanted))
        _need(not unknown, where, f"{key!r} has unknown entries {listing(unknown)}")
    return value


def _section(prompt: dict, key: str, where: str) -> str:
    text = _text(prompt, key, where)
    try:
        found = _fields(text)
    except ValueError as e:
        raise LanguageError(
            f"{where}: prompt.{key} is a malformed format string ({e}); write literal braces "
            "as {{ and }}"
        ) from None
    wanted = _SECTION_FIELDS[key]
    names = sorted("{" + f + "}" for f in wanted)
    _need(
        found == wanted,
        where,
        f"prompt.{key} must hold exactly {listing(names, '')}, found {listing(sorted(found))}",
    )
    return text


def language_from_dict(data: dict, where: str = "language") -> Language:
    """A checked Language from a file's parsed JSON (LanguageError names what is wrong)."""
    _need(isinstance(data, dict), where, "a language file holds one JSON object")
    unknown = sorted(set(data) - _KEYS)
    _need(not unknown, where, f"unknown keys {listing(unknown)}; allowed: {listing(sorted(_KEYS))}")
    missing = sorted(_REQUIRED - set(data))
    _need(not missing, where, f"missing keys {listing(missing)}")
    _need(data["schema"] == SCHEMA, where, f"schema must be {SCHEMA}, got {data['schema']!r}")
    code = _text(data, "code", where)
    _need(bool(_CODE.match(code)), where, f"code {code!r} is not a language tag like 'fr'")
    spoken = data["spoken"]
    _need(
        isinstance(spoken, list) and all(isinstance(s, str) and _CODE.match(s) for s in spoken),
        where,
        "'spoken' must be a list of ISO 639 codes (e.g. [\"fr\"]); [] if spoken nowhere",
    )
    numbers = data["numbers"]
    _need(
        isinstance(numbers, dict) and set(numbers) == {"digits", "decimal"},
        where,
        '\'numbers\' must be {"digits": ..., "decimal": ...}',
    )
    digits = numbers["digits"]
    digits = SCRIPTS.get(digits, digits) if isinstance(digits, str) else digits
    _need(
        isinstance(digits, str)
        and len(digits) == 10
        and all(ch.isdecimal() and int(ch) == i for i, ch in enumerate(digits)),
        where,
        f"numbers.digits must be a script name ({listing(sorted(SCRIPTS))}) or ten digits 0-9 "
        "in order",
    )
    decimal = numbers["decimal"]
    _need(
        isinstance(decimal, str) and len(decimal) == 1 and not decimal.isalnum(),
        where,
        "numbers.decimal must be one mark such as '.', ',' or '٫'",
    )

    prompt = data["prompt"]
    _need(isinstance(prompt, dict), where, "'prompt' must be an object")
    wanted = {"prefix", "coordinates", "address", "nearby", "question", "scale"}
    _need(set(prompt) == wanted, where, f"'prompt' must have exactly {listing(sorted(wanted))}")
    lines = prompt["prefix"]
    _need(
        isinstance(lines, list)
        and len(lines) == 3
        and all(isinstance(s, str) and s.strip() and "\n" not in s for s in lines),
        where,
        "prompt.prefix must be the paper's three sentences, one string each",
    )
    sections = {k: _section(prompt, k, where) for k in _SECTION_FIELDS}
    sections["short_address"] = sections["address"].replace("{address}", "{short_address}")
    scale = _text(prompt, "scale", where)
    _need(scale in sections["question"], where, "prompt.question must contain prompt.scale")
    for value in (0.0, 9.9):
        shown = format_number(value, ".1f", digits, decimal)
        _need(shown in scale, where, f"prompt.scale must write {value} as {shown!r} (numbers)")

    answer = data["answer"]
    _need(
        isinstance(answer, dict) and set(answer) == {"format", "placeholder"},
        where,
        '\'answer\' must be {"format": ..., "placeholder": ...}',
    )
    fmt = _text(answer, "format", where)
    _need(
        fmt.count("{rating}") == 1 and fmt.split("{rating}")[0].strip() != "",
        where,
        "answer.format must hold {rating} once, after the answer's first words",
    )
    placeholder = _text(answer, "placeholder", where)
    example = fmt.replace("{rating}", placeholder)
    prefix = "\n".join(lines) + "\n\n\n"
    _need(example in prefix, where, f"prompt.prefix must show the answer format {example!r}")

    nearby_line = _text(data, "nearby_line", where)
    try:
        line_fields = _fields(nearby_line)
    except ValueError as e:
        raise LanguageError(f"{where}: nearby_line is a malformed format string ({e})") from None
    _need(
        line_fields == {"distance", "km", "direction", "name"},
        where,
        "nearby_line must hold {distance}, {km}, {direction} and {name}",
    )
    km = _text(data, "km", where)
    directions = _mapping(data, "directions", where, DIRECTIONS)
    topics = _mapping(data, "topics", where, [t.name for t in TOPICS])
    refusals = data.get("refusals", [])
    _need(
        isinstance(refusals, list) and all(isinstance(r, str) and r.strip() for r in refusals),
        where,
        "'refusals' must be a list of phrases",
    )
    place_names = _mapping(data, "place_names", where)
    translation = data["translation"]
    _need(
        isinstance(translation, dict) and "method" in translation and "checked" in translation,
        where,
        "'translation' must say its 'method' and whether it was 'checked'",
    )
    lang = Language(
        code=code,
        name=_text(data, "name", where),
        native_name=data.get("native_name") or data["name"],
        spoken=tuple(spoken),
        digits=digits,
        decimal=decimal,
        prefix=prefix,
        sections=sections,
        scale=scale,
        answer=fmt,
        placeholder=placeholder,
        nearby_line=nearby_line,
        km=km,
        directions=directions,
        topics=topics,
        refusals=tuple(refusals),
        place_names=place_names,
        translation=translation,
        path=where,
    )
    try:
        lang.presets()
    except TemplateError as e:
        raise LanguageError(f"{where}: {e}") from None
    return lang


def load_language(path) -> Language:
    """One language file, checked; its name must be its code (``fr.json``)."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        raise LanguageError(f"{path}: cannot be read: {e}") from None
    except json.JSONDecodeError as e:
        raise LanguageError(f"{path}: not valid JSON: {e}") from None
    lang = language_from_dict(data, str(path))
    if path.stem != lang.code:
        raise LanguageError(f"{path}: the file of language {lang.code!r} must be {lang.code}.json")
    return lang


def add_folder(folder) -> None:
    """Look for language files in `folder` too (a user's own languages; they win over bundled
    ones of the same code)."""
    folder = Path(folder)
    if folder not in _extra_folders:
        _extra_folders.append(folder)


_loaded: dict = {}


def _files(folders) -> dict[str, Path]:
    out: dict[str, Path] = {}
    for folder in [BUNDLED_DIR, *_extra_folders, *map(Path, folders)]:
        if folder.is_dir():
            for p in sorted(folder.glob("*.json")):
                out[p.stem] = p
    return out


def load_languages(folders=(), errors: list | None = None) -> dict[str, Language]:
    """Every language file (bundled, added folders, `folders`), by code. A bad file raises
    LanguageError, or, given an `errors` list, is left out and its message appended there (a
    user's broken file then does not hide the other languages)."""
    out = {}
    for code in _files(folders):
        try:
            out[code] = get_language(code, folders)
        except LanguageError as e:
            if errors is None:
                raise
            errors.append(str(e))
    return out


def available(folders=()) -> list[str]:
    """Codes of the languages there are files for (English first, then by code)."""
    codes = sorted(_files(folders))
    return sorted(codes, key=lambda c: (c != DEFAULT_LANGUAGE, c))


def get_language(language=None, folders=()) -> Language:
    """A Language by code (None: English); a Language is returned as it is."""
    if isinstance(language, Language):
        return language
    code = language or DEFAULT_LANGUAGE
    path = _files(folders).get(code)
    if path is None:
        raise KeyError(f"no prompt language {code!r}; available: {available(folders)}")
    stamp = (str(path), path.stat().st_mtime_ns)
    if _loaded.get(code, (None,))[0] != stamp:
        _loaded[code] = (stamp, load_language(path))
    return _loaded[code][1]
