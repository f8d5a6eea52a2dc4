"""A long session in the real QGIS desktop (issue 23, item 7; scenario_long_session.py): ten
surveys of 20 points and three HERB runs with the embedded model, the dock closed and opened,
the plugin reloaded as Plugin Reloader does. Every reload leaves no child process, no second
Processing provider and no connection behind; every Run click starts its tasks once. QGIS's
memory growth over the session is measured by `make bench` (benchmarks/bench_long_session.py),
not asserted here. Screenshots of failed steps stay in build/desktop-long/."""

import os
import shutil

import pytest

from geobias.test.desktop.launch import ROOT, run_scenario, step_ok

pytestmark = pytest.mark.desktop
SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scenario_long_session.py")
OUT = os.path.join(ROOT, "build", "desktop-long")
N_SURVEYS = 10


def run_long_session(profiles, out=OUT, n_surveys=N_SURVEYS):
    """Run the scenario in a fresh QGIS desktop (the benchmark runs it too)."""
    shutil.rmtree(out, ignore_errors=True)
    return run_scenario(SCRIPT, out, profiles, timeout=1500,
                        env={"GEOBIAS_LONG_SURVEYS": str(n_surveys)})  # fmt: skip


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    if not shutil.which("xvfb-run"):
        pytest.fail("xvfb-run is missing (Debian xvfb): the desktop tests cannot run")
    outcome = run_long_session(str(tmp_path_factory.mktemp("qgis-profiles")))
    assert not outcome.died, "QGIS died\n" + outcome.tail()
    assert outcome.result, "the scenario wrote no result\n" + outcome.tail()
    return outcome


@pytest.fixture(scope="module")
def facts(session):
    return session.result["facts"]


def test_the_whole_session_ran_and_qgis_quit_cleanly(session):
    assert session.returncode == 0, session.tail()
    assert session.result["done"] and not session.result.get("timeout"), session.tail()
    for step in session.result["steps"]:
        step_ok(session, step["name"])
    errors = [m for _t, tag, _lvl, m in session.result["log"] if tag == "Python error"]
    assert not errors, errors[:3]


def test_ten_surveys_and_three_herb_runs_finished(facts):
    runs = facts["runs"]
    surveys = [r for r in runs if r["kind"] == "survey"]
    herbs = [r for r in runs if r["kind"] == "herb"]
    assert len(surveys) == N_SURVEYS and len(herbs) == 3
    for run in runs:
        assert run["text"].startswith("Done") and run["progress"] == 100, run
    for run in surveys:
        assert run["requests"] + run["cached"] == 20 and run["group_layers"] >= 1, run
    # The first survey asked the model; the cache answered every later one, across reloads.
    assert surveys[0]["requests"] > 0 and surveys[0]["confirmations"] == 1
    assert all(r["requests"] == 0 and r["confirmations"] == 0 for r in surveys[1:])
    assert herbs[0]["confirmations"] == 1 and herbs[0]["rows"] == 16  # Earth, South America, 14
    assert all(r["confirmations"] == 0 and r["rows"] == 16 for r in herbs[1:])


def test_every_run_click_started_its_tasks_once(facts):
    """A connection left by an unloaded plugin (or made twice by a reload) handles a click
    twice: the same click would start its tasks twice. A survey is two tasks (preparing the
    points and the estimate, then the run), HERB two (the estimate, then the scoring)."""
    runs = facts["runs"]
    assert [r["tasks"] for r in runs if r["kind"] == "survey"] == [2] * N_SURVEYS
    assert [r["tasks"] for r in runs if r["kind"] == "herb"] == [2, 2, 2]


def test_unload_leaves_no_child_process_provider_or_dock(facts):
    unloads = facts["unloads"]
    assert [u["label"] for u in unloads] == ["before the runs", "mid-session", "at the end"]
    # Mid-session and at the end the embedded model ran: the unload stopped it.
    for u in unloads[1:]:
        assert any("embedded_server" in c[2] for c in u["children_before"]), u
    for u in unloads:
        assert u["children_left"] == [], u
        parts = u["parts"]
        assert parts["providers"] == 0 and not parts["active"], u
        assert parts["docks"] == [] and parts["toolbars"] == [] and parts["modules"] == 0, u


def test_every_load_adds_one_provider_one_dock_one_toolbar(facts):
    start = facts["start"]["parts"]
    loads = [facts["start"]] + facts["loads"]
    assert len(loads) == 3
    for load in loads:
        parts = load["parts"]
        assert parts["providers"] == 1 and parts["algorithms"] == start["algorithms"], load
        assert parts["algorithms"][0] >= 16
        assert parts["docks"] == ["GeoBiasDock"] and parts["toolbars"] == ["GeoBiasToolbar"]


def test_no_connection_outlives_an_unload(facts):
    """After each unload QGIS's long-lived signals have as many receivers as after the first,
    made before any run: nothing the plugin connected during the runs stayed connected."""
    first, *later = [u["receivers"] for u in facts["unloads"]]
    for receivers in later:
        grown = {k: (first[k], v) for k, v in receivers.items() if v > first[k]}
        assert not grown, grown


def test_the_dock_closes_and_opens_with_its_button(facts):
    # Hidden with the button, shown, closed by its own close button (the button follows),
    # shown again.
    assert facts["dock_states"] == [False, True, False, True]


def test_memory_is_recorded_for_the_benchmark(facts):
    rss = [r["rss_mb"] for r in facts["runs"]]
    assert len(rss) == N_SURVEYS + 3 and all(v > 100 for v in rss)
