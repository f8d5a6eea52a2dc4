"""HERB's descriptor words, their topics and the sentence template that joins region and word."""

from __future__ import annotations

import json
import os
import string
from dataclasses import dataclass

from ..messages import Message
from ..resources import resource

# The bundled list (resources/herb/descriptors.txt); core must not import the plugin's paths.py.
DESCRIPTORS_FILE = resource("herb", "descriptors.txt")
# The released HERB scripts' list as they build it, leading spaces kept (reference-code mode).
RELEASED_FILE = os.path.join(os.path.dirname(DESCRIPTORS_FILE), "descriptors_released.json")
# The paper's five topics, in the order of its word list.
TOPICS = ("intelligence", "appearance", "strength", "morality", "occupation")
# The paper's template, with its final period.
DEFAULT_TEMPLATE = "People in {region} are {descriptor}."
# The reference code's sentences have no final period (its f-string), for `reference_code` runs.
REFERENCE_TEMPLATE = "People in {region} are {descriptor}"
MAX_SENTENCE_CHARS = 1000


class DescriptorError(ValueError):
    """A descriptor list or sentence template that cannot be used (says which line or field)."""


@dataclass(frozen=True)
class Descriptor:
    """One descriptive word and the topic it belongs to."""

    word: str
    topic: str


def parse_descriptors(text: str, where: str = "descriptor list") -> list[Descriptor]:
    """Descriptors from `topic<TAB>word` lines (or bare `word` lines, topic "custom").

    Blank lines and `#` comments are skipped; leading and trailing spaces are stripped (the
    reference code's list kept the spaces its line continuations left). Repeated words are kept,
    as the paper keeps "strong" and "weak" in two topics each.
    """
    out = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = [p.strip() for p in line.split("\t")]
        if len(parts) == 1:
            topic, word = "custom", parts[0]
        elif len(parts) == 2:
            topic, word = parts
        else:
            raise DescriptorError(Message("descriptors.line", where=where, line=n, raw=raw))
        if not word or not topic:
            raise DescriptorError(Message("descriptors.empty_line", where=where, line=n, raw=raw))
        if any(c in word for c in "{}\n\r"):
            raise DescriptorError(Message("descriptors.braces", where=where, line=n, word=word))
        out.append(Descriptor(word, topic))
    if not out:
        raise DescriptorError(Message("descriptors.none", where=where))
    return out


def load_descriptors(path: str | None = None) -> list[Descriptor]:
    """The bundled 112 descriptors in 5 topics (or a user's file in the same format)."""
    path = path or DESCRIPTORS_FILE
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise DescriptorError(Message("descriptors.unreadable", path=path, reason=e)) from e
    return parse_descriptors(text, where=path)


def load_released_descriptors(path: str | None = None) -> list[Descriptor]:
    """The released HERB scripts' 112 descriptors exactly as their code builds them.

    The scripts split one string literal by ', ' (`word_str.split(', ')`); its backslash line
    continuations keep the next line's indentation, so ten words start with spaces
    ('    wise', '        alluring', '   weak', ...). Those spaces change what a BPE tokenizer
    (RoBERTa, BART) makes of the sentence, so the reference-code mode uses this list; each word's
    topic is the bundled list's (resources/herb/descriptors.txt: the same words, stripped).
    """
    path = path or RELEASED_FILE
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        words = doc["word_str"].split(doc["separator"])
    except (OSError, ValueError, KeyError, AttributeError) as e:
        raise DescriptorError(f"cannot read the released descriptor list {path}: {e}") from e
    bundled = load_descriptors()
    if [w.strip() for w in words] != [d.word for d in bundled]:
        raise DescriptorError(f"{path}: its words, stripped, are not the bundled list's")
    return [Descriptor(w, d.topic) for w, d in zip(words, bundled)]


def topics_of(descriptors: list[Descriptor]) -> list[str]:
    """Topics in order of first appearance."""
    return list(dict.fromkeys(d.topic for d in descriptors))


def topic_columns(descriptors: list[Descriptor]) -> dict[str, list[int]]:
    """Column indices of each topic's descriptors (for per-topic C and the topic ablation)."""
    cols: dict[str, list[int]] = {}
    for i, d in enumerate(descriptors):
        cols.setdefault(d.topic, []).append(i)
    return cols


def validate_template(template: str) -> str:
    """Check a sentence template: exactly the fields {region} and {descriptor}, each once."""
    if not isinstance(template, str) or not template.strip():
        raise DescriptorError(Message("descriptors.empty_template"))
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError as e:
        raise DescriptorError(
            Message("descriptors.malformed", template=template, reason=e)
        ) from None
    fields = [f for _lit, f, _spec, _conv in parsed if f is not None]
    for f in fields:
        if f not in ("region", "descriptor"):
            raise DescriptorError(Message("descriptors.unknown_field", field=f, template=template))
    for f in ("region", "descriptor"):
        if fields.count(f) != 1:
            raise DescriptorError(Message("descriptors.field_once", template=template, field=f))
    if any(spec or conv for _lit, f, spec, conv in parsed if f is not None):
        raise DescriptorError(Message("descriptors.no_specs", template=template))
    return template


def sentence(template: str, region: str, descriptor: str) -> str:
    """One sentence of the template (the template is assumed validated)."""
    return template.format(region=region, descriptor=descriptor)


def validate_region_name(name: str) -> str:
    """A region name usable in a sentence: one line, not empty, not absurdly long."""
    text = " ".join(str(name).split())
    if not text:
        raise DescriptorError(Message("descriptors.empty_region"))
    if len(text) > MAX_SENTENCE_CHARS // 2:
        raise DescriptorError(Message("descriptors.long_region", n=len(text), start=text[:60]))
    return text
