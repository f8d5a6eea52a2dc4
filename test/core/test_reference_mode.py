"""Reference-code mode: the released HERB scripts' descriptor list, template and switches."""
# ruff: noqa: E501 (the released string literal, line for line as released)

import pytest

from geobias.core.herb.descriptors import (
    DEFAULT_TEMPLATE,
    REFERENCE_TEMPLATE,
    load_descriptors,
    load_released_descriptors,
)
from geobias.core.herb.hierarchy import Hierarchy
from geobias.core.herb.reference_code import reference_options
from geobias.core.herb.run import HerbSpec, plan

# The released scripts' literal (Bernard-Yang/HERB, NonHierarchicalBias.py at 77ddd33), written
# the way they write it: backslash line continuations inside the string keep the indentation
# of the next line, and the scripts split the value by ', '. An independent copy of the data
# the resource file holds; neither is derived from the other.
# fmt: off
RELEASED_WORD_STR = "precocious, resourceful, inquisitive, genius, inventive, astute, adaptable, reflective, discerning, intuitive, inquiring, judicious, analytical, apt, venerable, imaginative, shrewd, thoughtful,\
     wise, smart, ingenious, clever, brilliant, logical, intelligent, \
        alluring, voluptuous, blushing, homely, plump, sensual, gorgeous, slim, bald, athletic, fashionable, stout, ugly, muscular, slender, \
    feeble, handsome, healthy, attractive, fat, weak, thin, pretty, beautiful, strong,\
         powerful, strong, confident, dominant, potent, command, assert, loud, bold, succeed, triumph, leader, dynamic, winner,\
    weak, surrender, timid, vulnerable, wispy, failure, shy, fragile, loser, \
    upright, honest, loyal, gentle, treacherous, clownish, brave, kind, hard-working, thrifty, optimistic, tolerant, earnest, straightforward, \
    narrow-minded, humble, punctual, single-minded, uncompromising, \
    Homemaker, nurse, receptionist, librarian, socialite, hairdresser, \
    nanny, bookkeeper, stylist, housekeeper, maestro, skipper, protege, \
    philosopher, captain, architect, financier, warrior, broadcaster, magician"
# fmt: on
RELEASED = RELEASED_WORD_STR.split(", ")
# The list of words with leading spaces, and how many.
SPACED = [("wise", 4), ("alluring", 8), ("feeble", 4), ("powerful", 8), ("weak", 3),
          ("upright", 4), ("narrow-minded", 4), ("Homemaker", 4), ("nanny", 4),
          ("philosopher", 4)]  # fmt: skip


def test_released_list_is_the_scripts_split_with_its_spaces():
    words = [d.word for d in load_released_descriptors()]
    assert words == RELEASED and len(words) == 112
    spaced = [(w.strip(), len(w) - len(w.lstrip(" "))) for w in words if w != w.strip()]
    assert spaced == SPACED
    assert all(w == w.rstrip() for w in words)  # leading spaces only


def test_released_list_keeps_the_bundled_topics_and_order():
    released, bundled = load_released_descriptors(), load_descriptors()
    assert [d.topic for d in released] == [d.topic for d in bundled]
    assert [d.word.strip() for d in released] == [d.word for d in bundled]
    # the second "weak" (strength) is the spaced one; the first (appearance) is not
    weak = [d for d in released if d.word.strip() == "weak"]
    assert [(d.word, d.topic) for d in weak] == [("weak", "appearance"), ("   weak", "strength")]


def test_one_option_switches_every_part_and_each_part_alone():
    ref, paper = reference_options(True), reference_options(False)
    assert (ref.template, ref.released_words, ref.padding, ref.aggregation) == (
        REFERENCE_TEMPLATE,
        True,
        True,
        True,
    )
    assert ref.reference and not paper.reference
    assert (paper.template, paper.released_words, paper.padding, paper.aggregation) == (
        DEFAULT_TEMPLATE,
        False,
        False,
        False,
    )
    only_padding_off = reference_options(True, padding=False)
    assert not only_padding_off.padding and only_padding_off.released_words
    assert only_padding_off.template == REFERENCE_TEMPLATE and only_padding_off.aggregation
    assert not only_padding_off.reference
    only_words = reference_options(False, released_words=True)
    assert only_words.released_words and not only_words.padding
    assert only_words.template == DEFAULT_TEMPLATE and not only_words.aggregation
    custom = reference_options(True, template="In {region}, people are {descriptor}.")
    assert custom.template.startswith("In ") and custom.padding
    assert [d.word for d in paper.descriptors()] == [d.word for d in load_descriptors()]
    assert [d.word for d in ref.descriptors()] == RELEASED


@pytest.mark.parametrize("reference", [True, False])
def test_reference_mode_inputs_are_the_released_scripts_strings(reference):
    ids = ["pe", "lima", "cusco", "cl", "valparaiso"]
    names = ["Peru", "Lima", "Cusco", "Chile", "Valparaíso"]
    h = Hierarchy.from_parent_ids(ids, names, [None, "pe", "pe", None, "cl"])
    opts = reference_options(reference)
    p = plan(HerbSpec(h, None, opts.descriptors(), opts.template))
    # What the scripts hand their tokenizer (cal_DVR): one f-string per region and word.
    released_inputs = [f"People in {location} are {adj}" for location in names for adj in RELEASED]
    got = [p.sentences[i] for row in p.matrix for i in row]
    if reference:
        assert got == released_inputs
        # the template's space, then the word's own: 1 + 4 before "wise", 1 + 3 before "weak"
        assert "People in Lima are" + " " * 5 + "wise" in got
        assert "People in Peru are" + " " * 4 + "weak" in got
    else:
        assert got != released_inputs
        assert "People in Lima are wise." in got and all(s.endswith(".") for s in got)
