"""Every count-like parameter has a largest value (issue 35 item 6): a typo such as
N_SAMPLES=1000000000 is refused in a sentence naming the parameter before anything starts,
instead of a MemoryError in core/survey/probes.py or a run of years."""

import re

import pytest
from qgis.core import QgsProcessingContext, QgsProcessingParameterNumber

from geobias.processing.checks import COUNT_LIMITS, count_limit
from geobias.test import badparams

# Integer parameters that count something (samples, resamples, points, neighbours, cities...).
COUNT_LIKE = re.compile(r"^(N_\w+|COUNT|PERMUTATIONS|K|SECTORS|MAX_\w+|MIN_\w+)$")


def integer_parameters():
    for alg in badparams.algorithms():
        for d in alg.parameterDefinitions():
            if isinstance(d, QgsProcessingParameterNumber) and int(d.dataType()) == 0:
                yield alg, d


def test_every_count_like_integer_parameter_is_bounded(processing_ready):
    counts = [(a.name(), d) for a, d in integer_parameters() if COUNT_LIKE.match(d.name())]
    assert len(counts) > 20  # the provider's algorithms were found
    # survey's COUNT is guarded by MAX_REQUESTS (test_alg_budget.py: a billion is refused).
    guarded = [(a, d) for a, d in counts if (a, d.name()) != ("survey", "COUNT")]
    unbounded = [f"{a} {d.name()}" for a, d in guarded if d.maximum() > 1e12]
    assert not unbounded, unbounded
    for a, d in guarded:
        assert d.name() in COUNT_LIMITS or d.maximum() <= 1e6, f"{a} {d.name()}"
        assert d.maximum() <= (count_limit(a, d.name()) or d.maximum())
        assert d.defaultValue() is None or d.defaultValue() <= d.maximum(), f"{a} {d.name()}"


@pytest.mark.parametrize(
    "alg, key",
    [("geobias:probes", "N_SAMPLES"), ("geobias:survey", "N_BOOT"), ("geobias:hotspots", "K"),
     ("geobias:herb", "MAX_CITIES"), ("geobias:samplepoints", "COUNT")],
)  # fmt: skip
def test_a_huge_count_is_refused_naming_its_parameter(processing_ready, tmp_path, alg, key):
    from qgis.core import QgsApplication

    fx = badparams.make_fixtures(str(tmp_path / "data"))
    algorithm = QgsApplication.processingRegistry().algorithmById(alg)
    params = badparams.baseline(algorithm, fx, str(tmp_path / "out"), "http://127.0.0.1:9/v1")
    ok, message = algorithm.checkParameterValues(params, QgsProcessingContext())
    assert ok, message  # a valid call, but for its one huge count
    params[key] = 1_000_000_000
    ok, message = algorithm.checkParameterValues(params, QgsProcessingContext())
    assert not ok and key in message, message
    badparams.release_read_only(fx.read_only)
