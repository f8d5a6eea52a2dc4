"""Bad parameters everywhere (issue 23, item 8): for every geobias:* algorithm, the cases that
test/badparams.py generates from its parameter definitions (wrong type, out of range, missing
or empty layer, layer without CRS, text for a number, a folder for a file, a read-only
output...) each fail with an error naming the parameter, without a traceback, without writing
anything, starting a child process or reaching the endpoint (a counting server). Every case
runs inside this QGIS process; a sample per algorithm runs through qgis_process.bin."""

import collections

import pytest
from qgis.core import QgsApplication

from geobias.processing.provider import algorithm_classes
from geobias.test import badparams
from geobias.test.faultserver import FaultServer
from geobias.test.qgis.conftest import register_providers

ALGORITHMS = sorted(f"geobias:{cls.NAME}" for cls in algorithm_classes())


@pytest.fixture(scope="module")
def fixtures(tmp_path_factory):
    fx = badparams.make_fixtures(str(tmp_path_factory.mktemp("badparams-data")))
    yield fx
    badparams.release_read_only(fx.read_only)


@pytest.fixture(scope="module")
def server():
    """The endpoint every case points at: it counts connections and answers 401 (a run that
    gets there stops at once)."""
    with FaultServer(always="401") as fs:
        yield fs


@pytest.fixture(scope="module")
def cases(qgis_app, qgis_processing, fixtures, server, tmp_path_factory):
    register_providers()
    out = tmp_path_factory.mktemp("badparams-out")
    return badparams.generate(fixtures, str(out), server.base_url)


@pytest.fixture(scope="module")
def outcomes(cases, server):
    """Every generated case run once, in this QGIS process: {algorithm id: [Outcome]}."""
    profile_data = QgsApplication.qgisSettingsDirPath() + "geobias"
    by_alg = collections.defaultdict(list)
    with badparams.TracebackSpy() as tracebacks, badparams.PopenSpy() as popens:
        for case in cases:
            by_alg[case.alg].append(
                badparams.run_in_process(case, server, profile_data, tracebacks, popens)
            )
    return by_alg


def test_cases_are_generated_for_every_algorithm_and_parameter(cases):
    from geobias.test.badparams import algorithms

    assert sorted(a.id() for a in algorithms()) == ALGORITHMS
    covered = {(c.alg, c.param) for c in cases}
    for alg in algorithms():
        for d in alg.parameterDefinitions():
            if d.type() == "boolean":  # QGIS reads any value as true or false
                continue
            # Free text that may be empty (a title, a model name, topics): no value is bad by
            # its type alone, only by meaning.
            plain = not d.name().endswith(("_FIELD", "URL"))
            if d.type() == "string" and badparams.is_optional(d) and plain:
                continue
            assert (alg.id(), d.name()) in covered, f"no bad value for {alg.id()} {d.name()}"
    kinds = collections.Counter(c.kind for c in cases)
    for kind in ("wrong_type", "out_of_range", "no_such_file", "empty_layer", "no_crs", "text",
                 "folder", "read_only_output"):  # fmt: skip
        assert kinds[kind] > 0, kind


def test_every_baseline_passes_qgis_checks(cases, fixtures, server, tmp_path):
    """Each case differs from a valid call by its one bad value: the baseline itself passes
    QGIS's parameter checks (and GeoBias's)."""
    from qgis.core import QgsProcessingContext

    for alg in badparams.algorithms():
        params = badparams.baseline(alg, fixtures, str(tmp_path / alg.name()), server.base_url)
        ok, message = alg.checkParameterValues(params, QgsProcessingContext())
        assert ok, (alg.id(), message, params)


@pytest.mark.parametrize("alg", ALGORITHMS)
def test_bad_parameters_inside_qgis(outcomes, alg):
    results = outcomes[alg]
    assert results, f"no case ran for {alg}"
    failures = [f"{o.case.id}: {'; '.join(o.problems)}" for o in results if o.problems]
    assert not failures, f"{len(failures)} of {len(results)} cases:\n" + "\n".join(failures)


@pytest.fixture(scope="module")
def qgis_process_outcomes(cases, server, tmp_path_factory):
    """A sample (one case per algorithm that QGIS's own checker cannot catch) through
    qgis_process.bin."""
    runner = badparams.QgisProcess(tmp_path_factory.mktemp("badparams-qgis-process"))
    try:
        return {c.alg: runner.run(c, server) for c in badparams.sample_per_algorithm(cases)}
    finally:
        runner.close()


@pytest.mark.parametrize("alg", ALGORITHMS)
def test_bad_parameters_through_qgis_process(qgis_process_outcomes, alg):
    assert alg in qgis_process_outcomes, f"no case of {alg} can run through qgis_process"
    outcome = qgis_process_outcomes[alg]
    assert not outcome.problems, f"{outcome.case.id}: {outcome.problems}"
