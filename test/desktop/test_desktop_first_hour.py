"""Issue 10 in the real QGIS desktop: a geographer's first hour in the dock (same QGIS session as
test_desktop_survey.py, see conftest.py)."""

import pytest

from geobias.core.runtime.embedded import MODEL_NAME
from geobias.processing.styles import layer_name
from geobias.test.desktop.launch import step_ok

pytestmark = pytest.mark.desktop
TOPIC = "Infant Mortality Rate"


def test_the_bundled_countries_are_one_click_away_and_give_the_topics_truth(run, facts):
    step_ok(run, "show_dock")  # the Countries button added "Countries (GeoBias)"
    assert facts["truth_table"] == [[TOPIC, "Countries (GeoBias)", "infant_mortality"]]
    # Another paper topic gets its own field, not the one of the topic ticked before.
    assert facts["truth_table_density"] == [["Population Density", "pop_density"]]


def test_a_mismatched_ground_truth_is_not_run_without_confirmation(run, facts):
    step_ok(run, "mismatch_needs_confirmation")
    (question,) = facts["mismatch"]["asked"]
    assert "Population Density ← field infant_mortality" in question
    assert not facts["mismatch"]["started"]


def test_the_area_label_gives_km2_and_the_point_count(run, facts):
    label = facts["draw"]["label"]
    km2 = int("".join(c for c in label.split("km²")[0] if c.isdigit()))
    assert 15e6 < km2 < 25e6, label  # 42° × 45° across the Sahara and Europe
    assert "100 points will be sampled." in label
    assert "6 points sampled (preview, nothing sent)." in facts["previews"][0]["label"]


def test_the_dock_fits_a_1000_px_screen_with_every_tab(run, facts):
    step_ok(run, "dock_fits_and_help")
    assert [s["tab"] for s in facts["sizes"]] == [
        "Area",
        "Survey",
        "Results",
        "Overlay",
        "Regional bias",
        "Compare",
    ]
    for size in facts["sizes"]:
        assert size["dock_min_height"] <= 600, size
        assert size["window_height"] <= 1000 and size["run_visible"], size


def test_help_opens_the_user_guide_shipped_in_the_zip(run, facts):
    ((path, exists, size),) = facts["help"]
    assert path.endswith("/python/plugins/geobias/docs/guide/index.html") and exists
    assert size > 5000


def test_legends_say_what_they_show_in_safe_colours(run, facts):
    rated = facts["first"]["rated"][0]
    assert rated["field"] == "rank_error"
    assert rated["legend"] == [
        "overestimate > 0.5",
        "overestimate 0.15–0.5",
        "about right (±0.15)",
        "underestimate 0.15–0.5",
        "underestimate > 0.5",
    ]
    # The Layers panel shows a heading over the classes: what the colours are.
    assert rated["panel_legend"] == ["Rank error: rating − truth", *rated["legend"]]
    # Red for overestimates (top) to blue for underestimates: RdBu, readable colour-blind.
    top, bottom = rated["colors"][0], rated["colors"][-1]
    assert int(top[1:3], 16) > int(top[5:7], 16) and int(bottom[5:7], 16) > int(bottom[1:3], 16)
    # Points keep a dark outline and a size that stays visible over any background.
    assert rated["outline"] == "#232323" and rated["size_mm"] >= 2.4
    assert rated["name"] == layer_name(MODEL_NAME, TOPIC)  # "topic · model", even alone
    assert MODEL_NAME in rated["title"] and TOPIC in rated["title"]
    assert "A higher value of this topic is worse." in rated["abstract"]


def test_without_truth_no_rank_errors_and_high_infant_mortality_reads_bad(run, facts):
    step_ok(run, "world_survey")  # run with the topic's ground truth set to "none"
    world = facts["world"]
    (rated,) = world["rated"]
    assert rated["field"] == "rank" and rated["with_truth"] == 0
    assert world["plot"]["rank_errors"] == 0 and world["metrics_rows"][0]["rho"] is None
    assert rated["legend"][0] == "highest (0.8–1)"
    assert rated["legend"][-1] == "lowest (0–0.2)"
    assert rated["panel_legend"][0] == "Rank of the rating"
    # Infant mortality: a higher rating is worse, so the highest class is the darkest red
    # (YlOrRd), never the green of a red-yellow-green ramp.
    top, bottom = rated["colors"][0], rated["colors"][-1]
    red, green = int(top[1:3], 16), int(top[3:5], 16)
    assert red > 2 * green and sum(int(bottom[i : i + 2], 16) for i in (1, 3, 5)) > 500


def test_results_of_a_geopackage_open_through_the_file_dialog(run, facts):
    step_ok(run, "open_results_from_files")
    opened = facts["opened"]
    assert opened["dialog"] == ["Open GeoBias results"]
    (rated,) = opened["rated"]
    assert rated["features"] == 6 and rated["field"] == "rank_error"
    assert opened["metrics_rows"][0]["n"] == 6
    with_truth = facts["first"]["rated"][0]["with_truth"]
    assert opened["plot"]["points"] == 6 and opened["plot"]["rank_errors"] == with_truth


def test_progress_says_what_is_happening_in_each_phase(run, facts):
    texts = " | ".join(text for _t, text in facts["first"]["seen"])
    for phase in (
        "Rating the points…",
        "requests",
        "Sampling the ground truth…",
        "Styling the layers…",
        "Computing the bias metrics…",
        "Done in",
    ):
        assert phase in texts, (phase, texts)
