"""End to end in the real QGIS desktop: the plugin from `make package`'s zip in a fresh profile,
driven like a user (scenario_survey.py) with the real embedded model on a handful of points.

One QGIS session runs the whole scenario; each test below reads one part of its JSON result.
Screenshots are saved in build/desktop/ (look at them after a change to the dock).
"""

import os
import re

import pytest

from geobias.core.runtime.embedded import MODEL_NAME
from geobias.test.desktop.launch import OUT, step_ok

pytestmark = pytest.mark.desktop
TOPIC = "Infant Mortality Rate"
OPEN_COUNT_BUG = re.compile(
    r"ExecuteSQL\(\): sqlite3_step\(SELECT COUNT\(\*\) FROM \(SELECT 1 FROM \"truth_[^\"]*\" "
    r"LIMIT 100000\)\)|^stderr: unable to open database file$"
)


def test_qgis_ran_the_whole_scenario_and_quit_cleanly(run, facts):
    assert run.returncode == 0, run.tail()
    assert run.result["done"] and not run.result.get("timeout"), run.tail()
    for step in run.result["steps"]:
        assert step["ok"], f"{step['name']}: {step.get('error')}\n{step.get('traceback', '')}"
    # The plugin QGIS loaded is the one unzipped into the fresh profile, not the source tree.
    assert "/profiles/geobias/python/plugins/geobias/" in facts["plugin_file"]
    errors = [m for _t, tag, _lvl, m in run.result["log"] if tag == "Python error"]
    assert not errors, errors[:3]
    # No ResourceWarning, no GDAL error (issue 35 item 7), but one: QGIS's OGR provider now and
    # then fails its approximate count of a truth layer just written ("unable to open database
    # file", once in the last three CI runs, never on a rerun here). That bug is open in issue
    # 35; every other problem line still fails this test.
    problems = [p for p in run.log_problems() if not OPEN_COUNT_BUG.search(p)]
    assert problems == [], problems


def test_a_polygon_drawn_with_the_map_tool_is_the_study_area(run, facts):
    step_ok(run, "draw_area")
    draw = facts["draw"]
    assert draw["vertices"] == 4 and draw["draw_radio"] and draw["tool_released"]
    # The clicks land on the map where they were aimed (a pixel is ~0.1° here).
    assert draw["area_deg2"] == pytest.approx(draw["expected_area_deg2"], rel=0.03)


def test_preview_samples_points_inside_the_drawn_area_and_sends_nothing(run, facts):
    step_ok(run, "preview")
    first = facts["previews"][0]
    assert first["points"] == 6 and first["inside"] == 6 and first["band_points"] == 6
    assert "6" in first["label"]


def test_a_survey_with_the_embedded_model_gives_styled_layers_metrics_and_plots(run, facts):
    step_ok(run, "first_survey")
    first = facts["first"]
    assert len(first["confirm"]) == 1 and "6 requests" in first["confirm"][0]
    assert first["requests"] == 6 and first["cached"] == 0
    assert first["progress"] == 100, first["progress_text"]
    assert first["tab"] == "ResultsTab"
    (rated,) = first["rated"]
    assert rated["features"] == 6 and rated["topics"] == [TOPIC]
    assert rated["models"] == [MODEL_NAME]  # the default embedded model
    assert rated["completions"] == 6 and rated["answered"] >= 4  # real answers, kept
    # Points on a coast may miss the simplified country polygons: most have a truth.
    assert 4 <= rated["with_truth"] <= 6
    assert rated["graduated"] and rated["field"] == "rank_error" and rated["classes"] >= 2
    assert {"rank", "rank_error", "rating"} <= set(rated["styles"])
    assert "Bias metrics" in first["layers"]
    (row,) = first["metrics_rows"]
    assert row["topic"] == TOPIC and row["n"] == 6
    assert -1.0 <= row["rho"] <= 1.0 and row["answer_rate"] == pytest.approx(rated["answered"] / 6)
    assert first["plot"] == {
        "points": 6,
        "with_truth": rated["with_truth"],
        "rank_errors": rated["with_truth"],
        "title": f"{MODEL_NAME} · {TOPIC}",
    }


def test_inspect_shows_the_clicked_points_prompt_and_answer(run, facts):
    step_ok(run, "inspect_point")
    inspect = facts["inspect"]
    assert inspect["completion"] in inspect["text"]
    assert inspect["prompt_start"] in inspect["text"]
    assert f"Topic: {TOPIC}" in inspect["text"]
    # Which value is the score, and why it may differ from the number in the answer.
    assert "Score: " in inspect["text"], inspect["text"]
    assert "the expected value" in inspect["text"] or "the greedy rating" in inspect["text"]


def test_a_cancelled_survey_resumes_from_the_cached_answers(run, facts):
    step_ok(run, "cancel_and_resume")
    cancelled, resumed = facts["cancelled"], facts["resumed"]
    assert cancelled["requests"] == 12 and cancelled["progress"] < 100
    assert "Cancelled" in cancelled["progress_text"] and cancelled["run_button"] == "Resume survey"
    assert not cancelled["group"]  # nothing half-done was added to the project
    # Resume sends only what the cancelled run had not answered.
    assert 2 <= resumed["cached"] < 12 and resumed["requests"] == 12 - resumed["cached"]
    assert f"{resumed['cached']} of 12 answers come from the cache" in resumed["confirm"][0]
    assert resumed["progress"] == 100 and resumed["run_button"] == "Run survey"
    (rated,) = resumed["rated"]
    assert rated["features"] == 12 and rated["completions"] == 12
    assert resumed["metrics_rows"][0]["n"] == 12


def test_a_whole_world_survey(run, facts):
    step_ok(run, "world_survey")
    world = facts["world"]
    assert world["progress"] == 100, world["progress_text"]
    (rated,) = world["rated"]
    assert rated["features"] == 4 and rated["completions"] == 4
    assert world["metrics_rows"][0]["n"] == 4


def test_a_survey_over_selected_features_of_a_layer(run, facts):
    step_ok(run, "layer_survey")
    layer = facts["layer"]
    assert layer["progress"] == 100, layer["progress_text"]
    (rated,) = layer["rated"]
    assert rated["features"] == 5 and layer["inside"] == 5  # in France, Germany or Poland
    assert rated["with_truth"] >= 3


def test_the_regional_bias_tab_runs_herb_and_shows_styled_layers_table_and_bars(run, facts):
    step_ok(run, "herb_tab")
    herb = facts["herb"]
    # 15 regions (South America, its 14 countries) x 2 morality words of the file + 15 names.
    assert len(herb["confirm"]) == 1 and "45 sentences" in herb["confirm"][0]
    assert herb["progress"] == 100 and herb["progress_text"].startswith("Done"), herb
    layers = {lyr["name"].split(":")[0]: lyr for lyr in herb["layers"]}
    assert layers["Continent"]["features"] == 1 and layers["Country"]["features"] == 14
    assert layers["Continent"]["field"] == "c_w" and layers["Country"]["field"] == "deviation"
    assert "regional bias C (higher = more inconsistent" in herb["layers"][-1]["name"]
    rows = herb["rows"]
    assert len(rows) == 16 and rows[0][0] == "South America"  # sorted by C, highest first
    assert float(rows[0][1]) > 0 and rows[0][3] == "14"  # C_w, sub-regions
    title, labels = herb["child_bars"]
    assert "South America" in title and len(labels) == 12  # its countries, at most 12
    # South America is the only continent in scope: nothing sets it apart, and the tab says so.
    title, labels = herb["word_bars_first"]
    assert "no siblings here" in title and labels == []
    title, labels = herb["word_bars"]
    assert herb["word_bars_region"] in title and "apart from its siblings" in title
    assert sorted(labels) == ["cruel (morality)", "honest (morality)"]  # not strength


def test_the_regional_bias_tab_runs_a_masked_lm_outside_qgis(run, facts):
    step_ok(run, "herb_masked_lm")
    herb = facts["herb_mlm"]
    # 15 regions x 2 words + 15 names, scored by the tiny BERT in a child process.
    assert len(herb["confirm"]) == 1 and "45 sentences" in herb["confirm"][0]
    assert herb["progress"] == 100 and herb["progress_text"].startswith("Done"), herb
    assert len(herb["rows"]) == 16 and float(herb["rows"][0][1]) > 0
    assert herb["loaded"] == []  # torch and transformers never entered QGIS
    assert herb["children_left"] == []  # the run stopped its child


def test_screenshots_are_saved(run):
    for name in ("01_drawing", "02_preview", "03_confirm", "04_results", "05_inspect"):
        path = os.path.join(OUT, f"{name}.png")
        assert os.path.getsize(path) > 10_000, path
