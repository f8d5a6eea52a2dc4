"""One real QGIS desktop session runs the whole scenario (scenario_survey.py); every test in
this folder reads its part of the JSON result. Screenshots stay in build/desktop/."""

import os
import shutil

import pytest

from geobias.test.desktop.launch import OUT, run_scenario
from geobias.test.tiny_mlm import build_in_child

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scenario_survey.py")


@pytest.fixture(scope="session")
def run(tmp_path_factory):
    if not shutil.which("xvfb-run"):
        pytest.fail("xvfb-run is missing (Debian xvfb): the desktop tests cannot run")
    shutil.rmtree(OUT, ignore_errors=True)
    # The Regional bias tab's masked-LM step scores with a tiny random BERT, built here.
    words = ["people", "in", "are", ".", "honest", "cruel"]
    mlm = build_in_child(str(tmp_path_factory.mktemp("tiny-bert")), words) or ""
    outcome = run_scenario(SCRIPT, OUT, str(tmp_path_factory.mktemp("qgis-profiles")),
                           timeout=1800, env={"GEOBIAS_TINY_MLM": mlm})  # fmt: skip
    assert not outcome.died, "QGIS died\n" + outcome.tail()
    assert outcome.result, "the scenario wrote no result\n" + outcome.tail()
    return outcome


@pytest.fixture(scope="session")
def facts(run):
    return run.result["facts"]
