"""Issue 28, item 7: the toolbox's help lists each parameter with a sentence."""

import html

from qgis.core import QgsApplication

from geobias.processing.parameter_help import specific_keys


def algorithms():
    return QgsApplication.processingRegistry().providerById("geobias").algorithms()


def test_every_parameter_has_a_sentence_of_help(processing_ready):
    seen = 0
    for alg in algorithms():
        for p in alg.parameterDefinitions():
            text = p.help()
            assert text.endswith(".") and text[0].isupper(), (alg.id(), p.name(), text)
            assert text.rstrip(".").lower() != p.description().lower(), (alg.id(), p.name())
            seen += 1
    assert seen > 150


def test_the_algorithm_help_lists_every_parameter(processing_ready):
    for alg in algorithms():
        text = alg.shortHelpString()
        start = text.index("<h3>Parameters</h3>")
        assert text.index(html.escape(alg.help_text()[:40], quote=False)) < start
        for p in alg.parameterDefinitions():
            entry = (f"<b>{html.escape(p.description())}</b> <code>{p.name()}</code></dt>"
                     f"<dd>{html.escape(p.help(), quote=False)}</dd>")  # fmt: skip
            assert entry in text, (alg.id(), p.name())


def test_each_specific_sentence_names_a_real_parameter(processing_ready):
    params = {a.name(): {p.name() for p in a.parameterDefinitions()} for a in algorithms()}
    for key in specific_keys():
        alg, name = key.split("/")
        assert name in params.get(alg, set()), key
