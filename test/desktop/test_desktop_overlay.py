"""The census overlay and the report in the real QGIS desktop (scenario_overlay.py): the Overlay
tab's buttons, the Results tab's Report button, and QGIS quitting cleanly afterwards with the
report's layout and layers in the project. Screenshots stay in build/desktop-overlay/."""

import os
import shutil
import subprocess

import pytest

from geobias.test.desktop.launch import ROOT, run_scenario, step_ok

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scenario_overlay.py")
OUT = os.path.join(ROOT, "build", "desktop-overlay")


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    if not shutil.which("xvfb-run"):
        pytest.fail("xvfb-run is missing (Debian xvfb): the desktop tests cannot run")
    shutil.rmtree(OUT, ignore_errors=True)
    outcome = run_scenario(SCRIPT, OUT, str(tmp_path_factory.mktemp("qgis-profiles")), timeout=900)
    assert outcome.result, "the scenario wrote no result\n" + outcome.tail()
    return outcome


def test_overlay_tab_aggregates_correlates_and_finds_hot_spots(run):
    step_ok(run, "open_ratings")
    step_ok(run, "overlay")
    facts = run.result["facts"]
    assert facts["units"]["renderer"] == "RuleRenderer" and facts["units"]["features"] > 200
    fields = {row[0]: row for row in facts["correlations"]}
    assert fields["infant_mortality"][1].startswith("-0.")  # underrated where it is highest
    assert "variables tested" in facts["note"]
    assert facts["scatter"]["x"] == "infant_mortality" and facts["scatter"]["points"] > 50
    assert "Global Moran's I = 0.1" in facts["moran"]
    assert facts["hot_layers"] == [["Hot spots of mean_rank_error", "RuleRenderer"]]  # JSON


def test_report_button_writes_the_pdf_and_qgis_quits_cleanly(run):
    step_ok(run, "report")
    report = run.result["facts"]["report"]
    assert report["exists"] and report["size"] > 100_000
    assert report["pages"] == report["layout_pages"] == 4  # with the hot spots page
    assert report["map_layers_in_project"] and run.result["facts"]["saved"]
    info = subprocess.run(["pdfinfo", report["pdf"]], capture_output=True, text=True, check=True)
    assert "Pages:           4" in info.stdout
    # The project held the report's layout and layers when QGIS quit: it must not crash.
    assert run.result["done"] and not run.died, run.tail()
    assert run.log_problems() == []  # no ResourceWarning, no GDAL error (issue 35)
