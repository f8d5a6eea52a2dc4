"""Issue 28 in the real QGIS desktop (scenario_beside.py): the mouse wheel scrolls the dock and
changes no setting; the project's own llama.cpp server (scripts/llm.py), added as a second
endpoint through Settings → Options → GeoBias with a key in the authentication database, is
constrained as its family takes it and completes a 10-point survey; and (issue 31) a survey on a
server throttling its first 60 s counts the wait down, stays responsive and answers every point.
Screenshots stay in build/desktop-beside/."""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading

import pytest

from geobias.core.runtime.models import get_model
from geobias.test.desktop.launch import ROOT, run_scenario, step_ok
from geobias.test.faultserver import FaultServer

pytestmark = pytest.mark.desktop
SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scenario_beside.py")
OUT = os.path.join(ROOT, "build", "desktop-beside")


@pytest.fixture(scope="module")
def llama_server():
    """scripts/llm.py (`make llm`): the embedded model's llama.cpp server, started by hand."""
    proc = subprocess.Popen(
        [sys.executable, os.path.join(ROOT, "scripts", "llm.py"), "--parallel", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
    )  # fmt: skip
    first = []
    reader = threading.Thread(target=lambda: first.append(proc.stdout.readline()), daemon=True)
    reader.start()
    reader.join(300)
    url = first[0].strip() if first else ""
    if not url.startswith("http://127.0.0.1:"):
        proc.kill()
        pytest.fail(f"scripts/llm.py did not start: {url!r}")
    yield url
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)


@pytest.fixture(scope="module")
def throttling_server():
    """A FaultServer answering 429 + Retry-After to every request of its first 60 s."""
    with FaultServer(throttle={"first_s": 60.0}) as fs:
        yield fs


@pytest.fixture(scope="module")
def run(llama_server, throttling_server, tmp_path_factory):
    if not shutil.which("xvfb-run"):
        pytest.fail("xvfb-run is missing (Debian xvfb): the desktop tests cannot run")
    shutil.rmtree(OUT, ignore_errors=True)
    outcome = run_scenario(SCRIPT, OUT, str(tmp_path_factory.mktemp("qgis-profiles")),
                           timeout=1200, env={"GEOBIAS_LLAMA_URL": llama_server,
                                "GEOBIAS_THROTTLE_URL": throttling_server.base_url})  # fmt: skip
    assert not outcome.died, "QGIS died\n" + outcome.tail()
    assert outcome.result, "the scenario wrote no result\n" + outcome.tail()
    return outcome


def test_the_wheel_scrolls_the_dock_and_changes_no_setting(run):
    step_ok(run, "scroll_the_dock")
    wheel = run.result["facts"]["wheel"]
    assert wheel["widgets"] > 20 and wheel["notches"] > 100
    # The real wheel turned over combo and spin boxes, and the tabs scrolled instead.
    over = {k: v for k, v in wheel["over"].items() if k != "passes"}
    assert over.get("QComboBox", 0) >= 3 and over.get("QSpinBox", 0) >= 3
    assert sum(over.values()) >= 10 and wheel["scrolled_over_widgets"] >= 5, wheel
    assert wheel["changed"] == {}, json.dumps(wheel["changed"], indent=1)
    # Each tab taller than the dock scrolled to its end with the pointer over its widgets.
    positions = run.result["facts"]["scroll_positions"]
    tall = [(p, top) for _tab, p, top in positions if top > 0]
    assert len(tall) >= 4 and all(p == top for p, top in tall), positions


def test_a_second_endpoint_is_added_through_the_options_dialog_with_a_key(run, llama_server):
    step_ok(run, "add_endpoint")
    facts = run.result["facts"]
    options = facts["options"]
    assert "1 model offered" in options["fetched"]
    assert options["model"] == get_model().name  # what scripts/llm.py serves
    # Test connection sent a rating prompt: the bundled model is constrained by default.
    assert "Connected: model" in options["tested"] and "rating" in options["tested"]
    assert "holds no rating" not in options["tested"], options["tested"]
    stored = facts["stored"]
    assert stored["provider"] == "llamacpp" and stored["base_url"] == llama_server
    assert stored["constraint"] == "auto" and stored["endpoint_constraint"] == "grammar"
    assert stored["authcfg"] and stored["key_in_auth_db"]


def test_a_ten_point_survey_completes_on_it(run, llama_server):
    step_ok(run, "survey_on_the_second_endpoint")
    survey = run.result["facts"]["survey"]
    assert run.result["facts"]["method"] == "population"  # the dock's default, the paper's
    assert len(survey["confirm"]) == 1 and "10 requests" in survey["confirm"][0]
    assert survey["progress"] == 100, survey["progress_text"]
    assert survey["features"] == 10 and survey["models"] == [get_model().name]
    assert survey["answered"] >= 8, survey["completions"]
    assert survey["metrics_rows"] == 1
    ((model, provider, host, endpoint, n_requests),) = survey["runs"]
    assert provider == "llamacpp" and host == llama_server.split("/")[2]
    assert json.loads(endpoint)["constraint"] == "grammar" and n_requests == 10
    # The key never leaves the authentication database.
    assert "GEOBIAS-beside" not in json.dumps(run.result)


def test_the_toolbox_help_and_a_new_project(run):
    step_ok(run, "toolbox_help")
    listed, parameters = run.result["facts"]["toolbox_help"]
    assert listed == parameters > 25  # every parameter of geobias:survey, with its sentence
    step_ok(run, "project_new_resets_the_tabs")
    after = run.result["facts"]["after_new_project"]
    assert after["before"][0] == 1 and after["before"][1].startswith("Done in")
    assert (after["metrics_rows"], after["plot_points"], after["progress_text"]) == (0, 0, "")


def test_a_survey_rides_out_a_60_s_throttle_counting_it_down(run, throttling_server):
    step_ok(run, "survey_through_a_throttle")
    facts = run.result["facts"]["throttled"]
    assert len(facts["confirm"]) == 1 and throttling_server.n_throttled >= 1
    # The dock's run line counted the wait down while the server throttled.
    waits = [int(m.group(1)) for _t, text in facts["samples"]
             if (m := re.match(r"Throttled: .*HTTP 429.*waiting (\d+) s", text))]  # fmt: skip
    assert len(waits) >= 3, facts["samples"]
    assert waits == sorted(waits, reverse=True) and waits[0] > waits[-1], waits
    assert facts["countdown_shot"]
    # The GUI stayed responsive: a 100 ms timer never waited a second.
    assert facts["ticks"] >= 500 and facts["max_gap_s"] < 1.0, facts["max_gap_s"]
    # The run finished after the throttle with every point answered.
    assert facts["seconds"] >= 60 and facts["progress_text"].startswith("Done in"), facts
    assert facts["features"] == 10 and facts["answered"] == 10, facts


def test_qgis_quit_cleanly(run):
    assert run.returncode == 0, run.tail()
    assert run.result["done"] and not run.result.get("timeout"), run.tail()
    errors = [m for _t, tag, _lvl, m in run.result["log"] if tag == "Python error"]
    assert not errors, errors[:3]
