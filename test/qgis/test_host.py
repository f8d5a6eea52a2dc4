"""host.py: the plugin checks QGIS's Python for its packages and for a shapely on QGIS's GEOS."""

import os
import subprocess
import sys

import pytest

from geobias import host

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
QGIS_PROCESS = "/usr/bin/qgis_process.bin"
CSV = os.path.join(
    ROOT, "resources", "reference", "geollm-gpt35",
    "gpt_3_5_turbo_0613_Infant_Mortality_Rate_world_prompts.csv",
)  # fmt: skip


def test_version_tuple_reads_geos_and_package_versions():
    assert host.version_tuple("3.11.1-CAPI-1.17.1") == (3, 11, 1)
    assert host.version_tuple("3.13.1") == (3, 13, 1)
    assert host.version_tuple("1.8") == (1, 8, 0)
    assert host.version_tuple("2.1.2") > host.version_tuple("1.8.5")


def test_the_venv_shapely_is_built_on_qgis_geos(qgis_app):
    # The bootstrap builds shapely from source on the system GEOS, never the manylinux wheel.
    import shapely

    ours, qgis = host.geos_versions()
    assert ours == qgis, f"{shapely.__file__} uses GEOS {ours}, QGIS {qgis}"
    folder = os.path.dirname(os.path.dirname(shapely.__file__))
    assert not os.path.isdir(os.path.join(folder, "shapely.libs")), "the wheel's bundled GEOS"
    assert host.shapely_problem() is None
    assert host.missing_requirements() == []


@pytest.mark.parametrize("version, missing", [("0+unknown", []), ("1.7.1", ["shapely"]),
                                              ("2.1.0", [])])  # fmt: skip
def test_a_shapely_without_version_metadata_is_accepted(monkeypatch, version, missing):
    # Debian sid's python3-shapely 2.1 says "0+unknown": no reason to refuse it.
    real = host.installed_version
    monkeypatch.setattr(host, "installed_version",
                        lambda m, r: version if m == "shapely" else real(m, r))  # fmt: skip
    assert host.missing_requirements() == missing


def test_versions_are_read_beside_the_package_without_importing_it(tmp_path, monkeypatch):
    # The metadata in the folder the package is found in, not another copy's; a package
    # without metadata is imported (one that fails to import is missing, as the desktop test's
    # hidden shapely).
    (tmp_path / "gbfake_ok").mkdir()
    (tmp_path / "gbfake_ok" / "__init__.py").write_text("raise RuntimeError('imported')\n")
    info = tmp_path / "gbfake_ok-3.2.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: gbfake-ok\nVersion: 3.2.1\n")
    (tmp_path / "gbfake_bare").mkdir()
    (tmp_path / "gbfake_bare" / "__init__.py").write_text("__version__ = '0.9'\n")
    (tmp_path / "gbfake_broken").mkdir()
    (tmp_path / "gbfake_broken" / "__init__.py").write_text("raise ModuleNotFoundError('hidden')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert host.installed_version("gbfake_ok", "gbfake-ok") == "3.2.1"  # never imported
    assert host.installed_version("gbfake_bare", "gbfake-bare") == "0.9"
    assert host.installed_version("gbfake_broken", "gbfake-broken") is None
    assert host.installed_version("gbfake_absent", "gbfake-absent") is None
    needs = (("gbfake_ok", "gbfake-ok", (3, 3)), ("gbfake_broken", "gbfake-broken", (1,)))
    monkeypatch.setattr(host, "REQUIREMENTS", needs)
    assert host.missing_requirements() == ["gbfake-ok", "gbfake-broken"]


@pytest.mark.parametrize(
    "platform, expect",
    [("linux", "sudo apt install python3-shapely python3-scipy"),
     ("win32", "OSGeo4W Shell and run: python -m pip install shapely scipy"),
     ("darwin", "/Applications/QGIS.app/Contents/MacOS/bin/python3 -m pip install")],
)  # fmt: skip
def test_missing_message_says_how_to_install_on_each_platform(monkeypatch, platform, expect):
    monkeypatch.setattr(sys, "platform", platform)
    message = host.missing_message(["shapely", "scipy"])
    assert expect in message and "restart QGIS" in message


def process(args, pythonpath, config):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", QGIS_CUSTOM_CONFIG_PATH=str(config),
               PYTHONPATH=pythonpath)  # fmt: skip
    return subprocess.run([QGIS_PROCESS, *args], env=env, capture_output=True, text=True,
                          timeout=300)  # fmt: skip


def test_qgis_process_refuses_a_shapely_on_another_geos_instead_of_crashing(
    tmp_path, wheel_shapely, wheel_versions
):
    plugins = tmp_path / "profiles" / "default" / "python" / "plugins"
    plugins.mkdir(parents=True)
    os.symlink(ROOT, plugins / "geobias")
    assert process(["plugins", "enable", "geobias"], wheel_shapely, tmp_path).returncode == 0
    sample = process(["run", "geobias:samplepoints", "--", "EXTENT=-10,30,35,60 [EPSG:4326]",
                      "COUNT=20", "METHOD=0", f"OUTPUT={tmp_path / 'sp.gpkg'}"],
                     wheel_shapely, tmp_path)  # fmt: skip
    # Before issue 9 this was a segmentation fault (exit 139).
    assert sample.returncode == 1, (sample.returncode, sample.stderr[-2000:])
    said = sample.stdout + sample.stderr
    from qgis.core import Qgis

    _, geos = wheel_versions
    qgis_geos = f"{Qgis.geosVersionMajor()}.{Qgis.geosVersionMinor()}"
    assert f"GEOS {geos}" in said and f"QGIS uses GEOS {qgis_geos}" in said, said[-2000:]
    assert "python3-shapely" in said
    assert not (tmp_path / "sp.gpkg").exists()
    # Algorithms that never call GEOS still run: points are written as WKB by numpy.
    rated = process(["run", "geobias:importratings", "--", f"INPUT={CSV}", "MODEL=gpt-3.5",
                     f"OUTPUT={tmp_path / 'rated.gpkg'}"], wheel_shapely, tmp_path)  # fmt: skip
    assert rated.returncode == 0, rated.stderr[-2000:]
    os.unlink(plugins / "geobias")
