"""The desktop suites' log check (test/desktop/launch.py Outcome.log_problems, issue 35): what a
QGIS session printed or logged that a normal day must not have, and nothing else."""

from geobias.test.desktop.launch import Outcome


def outcome(stdout="", stderr="", **result):
    return Outcome(0, stdout, stderr, result)


def test_a_clean_day_has_no_problems():
    run = outcome(
        "Application state:\nQGIS_PREFIX_PATH env var:\n",
        "Warning: QObject::connect ...\n",
        qgis_log=[[1.0, "", 1, "No styles available on DB"], [2.0, "GDAL", 1, "a note"]],
        warnings=[["DeprecationWarning", "x.py:3", "old"]],
    )
    assert run.log_problems() == []


def test_resource_warnings_and_gdal_errors_are_found_wherever_they_show():
    run = outcome(
        "",
        "ERROR 1: sqlite3_open(/tmp/truth_embedded_0.gpkg) failed: unable to open database file\n"
        "/x/model_env.py:656: ResourceWarning: unclosed file <_io.TextIOWrapper name=5>\n",
        qgis_log=[
            [1.0, "OGR", 2, "Cannot open /tmp/a.gpkg"],
            [2.0, "Python warning", 1, "ResourceWarning: unclosed <socket.socket fd=7>"],
        ],
        warnings=[["ResourceWarning", "core/runtime/model_env.py:664", "unclosed file"]],
    )
    problems = run.log_problems()
    assert len(problems) == 5, problems
    assert problems[0].startswith("stderr: ERROR 1: sqlite3_open")
    assert problems[2] == "log OGR: Cannot open /tmp/a.gpkg"
    assert problems[-1].startswith("ResourceWarning at core/runtime/model_env.py:664")
