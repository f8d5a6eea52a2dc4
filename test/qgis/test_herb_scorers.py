"""The HERB scorer registry (issue 34 item 3): the SCORER parameter, make_scorer, the HERB tab,
the parameter help and docs/processing.md all read processing/herb_scorers.py."""

import os
import re

import pytest
from qgis.core import QgsApplication, QgsProcessingException

from geobias.processing import herb_scorers
from geobias.processing.definitions import HERB_SCORERS
from geobias.processing.herb_scorers import SCORERS, HerbScorer, make_scorer, register
from geobias.processing.parameter_help import scorer_help
from geobias.processing.parameters import Connection, HerbModelParameters
from geobias.ui.dock import GeoBiasDock

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture()
def toy_scorer():
    """A scorer registered for the test alone (one registration line) and removed after."""
    calls = []

    def factory(request):
        calls.append(request)
        return "scorer", "toy-host"

    scorer = register(HerbScorer("toy", "Toy scorer", factory, "a toy", reads=("MODEL",),
                                 needs={"MODEL": "Give the toy's name."}))  # fmt: skip
    yield calls
    del SCORERS[scorer.key]


def test_the_scorer_parameter_is_the_registry(processing_ready):
    assert HERB_SCORERS.keys == tuple(SCORERS)
    alg = QgsApplication.processingRegistry().algorithmById("geobias:herb")
    options = alg.parameterDefinition(HerbModelParameters.SCORER).options()
    assert options == [s.label for s in SCORERS.values()]
    with pytest.raises(ValueError, match="twice"):
        register(SCORERS["echo"])


def test_a_registered_scorer_is_built_by_make_scorer(toy_scorer):
    with pytest.raises(QgsProcessingException, match="Give the toy's name."):
        make_scorer("toy", Connection(provider="toy"))
    assert toy_scorer == []  # nothing built before the needed field is given
    scorer, host = make_scorer("toy", Connection(provider="toy", model="m"), method="forced")
    assert (scorer, host) == ("scorer", "toy-host")
    (request,) = toy_scorer
    assert request.connection.model == "m" and request.method == "forced"
    assert herb_scorers.local_scorer("toy", "127.0.0.1:8080")
    assert not herb_scorers.local_scorer("toy", "api.example.org")


@pytest.mark.parametrize(
    "kind, connection, message",
    [
        ("llamacpp", Connection(), "Give the server's URL."),
        ("echo", Connection(base_url="http://127.0.0.1:9/v1"), "Give the model name"),
        ("transformers", Connection(), "Give the transformers model's folder or name."),
    ],
)
def test_a_needed_field_left_empty_is_said(kind, connection, message):
    with pytest.raises(QgsProcessingException, match=re.escape(message)):
        make_scorer(kind, connection)


def test_a_factory_failure_is_a_processing_error():
    # A URL the scorer cannot use: its core error becomes one clear sentence.
    with pytest.raises(QgsProcessingException, match="The scorer cannot start"):
        make_scorer("llamacpp", Connection(base_url="not a url"))


def test_the_help_and_the_docs_list_every_scorer():
    text = scorer_help()
    assert all(s.help in text for s in SCORERS.values())
    with open(os.path.join(ROOT, "docs", "processing.md"), encoding="utf-8") as f:
        doc = f.read()
    for i, s in enumerate(SCORERS.values()):
        row = re.search(rf"^\| {i} \| {re.escape(s.label)} \| (.*) \|$", doc, re.M)
        assert row, f"docs/processing.md has no SCORER row {i} for {s.key}"
        assert re.findall(r"`(\w+)`", row.group(1)) == list(s.reads)
        needed = re.findall(r"`(\w+)` \(needed\)", row.group(1))
        assert needed == list(s.needs)


def test_the_tab_shows_the_fields_each_scorer_reads(qgis_iface, qgis_new_project,
                                                      processing_ready):  # fmt: skip
    dock = GeoBiasDock(qgis_iface)
    herb = dock.herb
    try:
        fields = {"URL": herb.urlEdit, "AUTH_CONFIG": herb.authSelect, "MODEL": herb.modelEdit,
                  "METHOD": herb.methodCombo, "EMBEDDED_MODEL": herb.embeddedModelCombo,
                  "MODEL_FILE": herb.modelFile}  # fmt: skip
        assert herb.scorerCombo.count() == len(SCORERS)
        for i, s in enumerate(SCORERS.values()):
            herb.scorerCombo.setCurrentIndex(i)
            shown = {k for k, w in fields.items() if w.isVisibleTo(herb)}
            assert shown == set(s.reads), s.key
            assert herb.parameters()["SCORER"] == HERB_SCORERS.index(s.key)
    finally:
        dock.close_survey()
        dock.deleteLater()
