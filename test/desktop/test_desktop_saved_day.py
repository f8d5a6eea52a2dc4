"""Issue 21's working day in the real QGIS desktop (scenario_saved_day.py): a survey over a
polygon drawn on Africa, its report, units, correlation, hot spots, a comparison and HERB on
Oceania written before the project is saved; Save moves them next to the project; closing QGIS
over a temporary toolbox output warns and keeps it; a second QGIS session reopens the project
with every GeoBias layer, styled, the tabs list the runs, and a second survey is added and
saved; a third session finds both days. The report's PDF names the drawn area (km²) and
`Countries.infant_mortality`. Screenshots stay in build/desktop-day/."""

import glob
import os
import re
import shutil
import subprocess
import unicodedata

import pytest

from geobias.test.desktop.launch import ROOT, run_scenario, step_ok

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scenario_saved_day.py")
# The real path: QGIS writes the project's relative paths from it, and a path through the
# .venv/src/geobias link (ROOT) would read them from elsewhere when both sit under /tmp.
OUT = os.path.realpath(os.path.join(ROOT, "build", "desktop-day"))


@pytest.fixture(scope="module")
def day(tmp_path_factory):
    if not shutil.which("xvfb-run"):
        pytest.fail("xvfb-run is missing (Debian xvfb): the desktop tests cannot run")
    shutil.rmtree(OUT, ignore_errors=True)
    env = {"GEOBIAS_DAY_PROJECT": os.path.join(OUT, "project", "day.qgz"),
           "GEOBIAS_DAY_OUTPUTS": os.path.join(OUT, "GeoBias")}  # fmt: skip
    os.makedirs(os.path.join(OUT, "project"))
    runs = {}
    # One profile for the three sessions, as a user has: the bundled layers the project names
    # (Countries) stay where the first session found them.
    profiles = str(tmp_path_factory.mktemp("profiles-day"))
    for part in ("save", "reopen", "again"):
        runs[part] = run_scenario(
            SCRIPT, os.path.join(OUT, part), profiles, timeout=2400,
            env=dict(env, GEOBIAS_DAY_PART=part), reuse=True,
        )  # fmt: skip
        assert runs[part].result, f"part {part} wrote no result\n" + runs[part].tail()
        assert not runs[part].died, f"QGIS died in part {part}\n" + runs[part].tail()
    return runs


def test_outputs_move_next_to_the_saved_project_with_their_styles(day):
    save = day["save"]
    for step in ("start", "options_page", "draw_africa", "survey", "report", "aggregate",
                 "correlate_and_hotspots", "compare", "herb", "save_as"):  # fmt: skip
        step_ok(save, step)
    facts = save.result["facts"]
    outputs = os.path.join(OUT, "GeoBias")
    assert facts["options_folder"] == outputs
    assert facts["survey_folder"].startswith(outputs + os.sep)  # not Processing's temp folder
    assert "processing_" not in facts["survey_folder"]
    (question,) = facts["move_question"]
    assert "Move them next to the project" in question
    before = {f["name"]: f for f in facts["before_save"]}
    after = {f["name"]: f for f in facts["after_save"]}
    assert set(before) == set(after) and len(after) >= 4
    project = os.path.join(OUT, "project", "geobias")
    for name, layer in after.items():
        assert layer["valid"] and layer["path"].startswith(project + os.sep), layer
        assert (layer["renderer"], layer["field"], layer["styles"]) == (
            before[name]["renderer"], before[name]["field"], before[name]["styles"])  # fmt: skip
    assert not facts["old_folder_exists"]


def test_closing_qgis_warns_about_a_temporary_output_and_keeps_it(day):
    save = day["save"]
    step_ok(save, "quit")
    facts = save.result["facts"]
    (warning,) = facts["close_warning"]
    assert "toolbox copy" in warning and "temporary folder" in warning
    assert facts["still_open"]  # Cancel kept QGIS open
    assert save.returncode == 0, save.tail()  # Keep them: QGIS quit on its own
    kept = glob.glob(os.path.join(OUT, "project", "geobias", "kept", "*", "*.gpkg"))
    assert kept, "the temporary output was not kept beside the project"


def test_reopened_project_has_every_layer_styled_and_lists_its_runs(day):
    before = {f["name"]: f for f in day["save"].result["facts"]["after_save"]}
    reopen = day["reopen"]
    step_ok(reopen, "reopen")
    step_ok(reopen, "past_runs")
    facts = reopen.result["facts"]
    layers = {f["name"]: f for f in facts["layers"]}
    assert set(before) <= set(layers)
    for name, layer in before.items():
        got = layers[name]
        assert got["valid"] and got["features"] == layer["features"], got
        assert (got["renderer"], got["field"], got["styles"]) == (
            layer["renderer"], layer["field"], layer["styles"])  # fmt: skip
    assert layers["toolbox copy"]["valid"]
    results = facts["runs"]["ResultsTab"]
    assert any("africa_imr" in r for r in results[1:]), results
    assert any("africa_imr" in r for r in facts["runs"]["CompareTab"][1:]), facts["runs"]
    assert len(facts["runs"]["HerbTab"]) >= 2, facts["runs"]  # the HERB run of Oceania
    assert facts["results_rows"] == 1


def test_overlay_compare_and_herb_of_the_day(day):
    facts = day["save"].result["facts"]
    assert facts["correlate_rows"] > 0, facts["correlate_note"]
    assert "Moran" in facts["moran"], facts["hotspots_panel"]
    # The report's copies were selected too: they do not count, so no "two layers" error.
    assert len(facts["compare_selected"]) >= 2, facts["compare_selected"]
    assert len(facts["compare_models"]) == 1 and not facts["compare_notice"], facts
    assert facts["compare_rows"] > 0
    assert facts["herb_confirm"] and "Oceania" in facts["herb_confirm"][0], facts["herb_confirm"]
    assert facts["herb_rows"] > 0, facts["herb_progress"]


def test_a_second_cycle_after_reopening_keeps_the_first_day(day):
    reopen, again = day["reopen"], day["again"]
    step_ok(reopen, "second_cycle")
    facts = reopen.result["facts"]
    assert facts["second_kept"] == [], facts["second_kept"]  # nothing of the first day lost
    assert any("Population Density" in name for name in facts["second_new"]), facts
    assert facts["second_folder"].startswith(os.path.join(OUT, "project", "geobias"))
    assert reopen.returncode == 0, reopen.tail()
    step_ok(again, "reopen")
    saved = {f["name"]: f for f in facts["second_layers"]}
    layers = {f["name"]: f for f in again.result["facts"]["layers"]}
    assert set(saved) <= set(layers)
    for name, layer in saved.items():
        assert layers[name]["valid"] and layers[name]["styles"] == layer["styles"], name


def test_the_report_names_the_drawn_area_and_the_truth(day):
    pdfs = glob.glob(os.path.join(OUT, "project", "geobias", "reports", "*", "report.pdf"))
    assert len(pdfs) == 1, pdfs  # moved with the rest
    out = subprocess.run(["pdftotext", "-layout", pdfs[0], "-"], capture_output=True, text=True,
                         check=True).stdout  # fmt: skip
    text = " ".join(unicodedata.normalize("NFKC", out).split())
    # The drawn polygon (clicked at -17° to 51° of longitude, -34° to 31° of latitude): its km²
    # as the ellipsoid measures it, about 49.6 million, and its extent.
    found = re.search(r"a polygon drawn on the map, ([\d,]+) km2 \(longitude (-1[67]\.\d\d)°", text)
    assert found, text[:800]
    assert 45e6 < float(found.group(1).replace(",", "")) < 55e6
    assert "Countries.infant_mortality" in text and "Countries.infant_survival" in text
    assert "the world" not in text and "Lambert azimuthal" in text
