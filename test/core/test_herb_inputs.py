"""HERB inputs: the bundled descriptor list, sentence templates and the GeoNames hierarchy."""

from collections import Counter

import numpy as np
import pytest

from geobias.core.herb.descriptors import (
    DEFAULT_TEMPLATE,
    TOPICS,
    DescriptorError,
    load_descriptors,
    parse_descriptors,
    sentence,
    topic_columns,
    validate_template,
)
from geobias.core.herb.hierarchy import Hierarchy, HierarchyError, geonames_hierarchy


def test_bundled_descriptors_are_the_papers_112_in_5_topics():
    d = load_descriptors()
    assert len(d) == 112
    assert tuple(dict.fromkeys(x.topic for x in d)) == TOPICS
    assert Counter(x.topic for x in d) == {
        "intelligence": 25,
        "appearance": 25,
        "strength": 23,
        "morality": 19,
        "occupation": 20,
    }
    # Repeats kept as the paper has them; no stray spaces from the reference code's string.
    assert sorted(w for w, n in Counter(x.word for x in d).items() if n > 1) == ["strong", "weak"]
    assert all(x.word == x.word.strip() and x.word for x in d)
    assert (d[0].word, d[24].word, d[-1].word) == ("precocious", "intelligent", "magician")
    cols = topic_columns(d)
    assert cols["occupation"] == list(range(92, 112))


def test_template_is_the_papers_with_its_period():
    assert sentence(DEFAULT_TEMPLATE, "Paris", "wise") == "People in Paris are wise."


@pytest.mark.parametrize(
    "template, message",
    [
        ("", "empty"),
        ("People in {region} are nice.", "descriptor"),
        ("{region} {region} {descriptor}", "exactly once"),
        ("People in {place} are {descriptor}.", "unknown field"),
        ("People in {region are {descriptor}.", "malformed"),
        ("People in {region!r} are {descriptor}.", "no format specs"),
    ],
)
def test_bad_templates_are_refused(template, message):
    with pytest.raises(DescriptorError, match=message):
        validate_template(template)


def test_user_templates_and_lists():
    assert validate_template("{descriptor} people live in {region}.")
    d = parse_descriptors("# mine\nkind\nhealth\tstrong\n\n")
    assert [(x.word, x.topic) for x in d] == [("kind", "custom"), ("strong", "health")]
    with pytest.raises(DescriptorError, match="line 1"):
        parse_descriptors("a\tb\tc")
    with pytest.raises(DescriptorError, match="no descriptors"):
        parse_descriptors("# nothing\n")
    with pytest.raises(DescriptorError, match="braces"):
        parse_descriptors("x\t{region}")


def test_geonames_hierarchy_counts():
    h = geonames_hierarchy()
    assert h.level_names == ("continent", "country", "city")
    assert np.bincount(h.depth).tolist() == [6, 247, 34004]  # 252 countries less Antarctica's 5
    tops = [h.names[i] for i in np.flatnonzero(h.depth == 0)]
    assert tops == ["Africa", "Asia", "Europe", "North America", "Oceania", "South America"]
    nk = h.n_children()
    assert nk[h.depth == 0].tolist() == [58, 51, 54, 42, 28, 14]
    # Countries with no city of 15,000 people, and with one (their C is missing).
    assert (nk[h.depth == 1] == 0).sum() == 5 and (nk[h.depth == 1] == 1).sum() == 46
    assert "Antarctica" not in h.names
    fr = h.names.index("France")
    assert h.code[fr] == "FR" and h.parent_name(fr) == "Europe"
    assert all(n == n.strip() for n in h.names)  # "Bonaire, Saint Eustatius and Saba " trimmed


def test_geonames_scopes():
    sa = geonames_hierarchy(continents=["South America"], max_cities_per_country=2)
    assert np.bincount(sa.depth).tolist() == [1, 14, 27]  # the Falklands have no such city
    br = sa.names.index("Brazil")
    cities = [sa.names[i] for i in np.flatnonzero(sa.parent == br)]
    assert set(cities) == {"São Paulo", "Rio de Janeiro"}
    big = geonames_hierarchy(min_population=1_000_000)
    assert (big.population[big.depth == 2] >= 1_000_000).all()
    assert np.bincount(big.depth)[1] == 247  # countries stay, even without such cities
    with pytest.raises(HierarchyError, match="Atlantis"):
        geonames_hierarchy(continents=["Atlantis"])


def test_parent_id_table():
    h = Hierarchy.from_parent_ids([1, 2, 3, 4], ["A", "B", "C", "D"], [None, 1, 1.0, "2"])
    assert h.parent.tolist() == [-1, 0, 0, 1] and h.depth.tolist() == [0, 1, 1, 2]
    assert [k.tolist() for k in h.children()] == [[1, 2], [3], [], [], [0]]
    with pytest.raises(HierarchyError, match="unknown parent"):
        Hierarchy.from_parent_ids(["a", "b"], ["A", "B"], [None, "x"])
    with pytest.raises(HierarchyError, match="duplicate"):
        Hierarchy.from_parent_ids(["a", "a"], ["A", "B"], [None, None])
    with pytest.raises(HierarchyError, match="cycle"):
        Hierarchy.from_parent_ids(["a", "b", "c"], ["A", "B", "C"], [None, "c", "b"])
    with pytest.raises(HierarchyError, match="empty name"):
        Hierarchy.from_parent_ids(["a"], ["  "], [None])
