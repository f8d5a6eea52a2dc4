"""The plugin installed in a temporary profile, run headless through qgis_process."""

import json
import os
import shutil
import sqlite3
import subprocess
import sys

import pytest
from qgis.core import QgsVectorLayer

from geobias.paths import DATA

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COUNTRIES = os.path.join(DATA, "world_countries.gpkg") + "|layername=countries"
QGIS_PROCESS = (
    "/usr/bin/qgis_process.bin"  # the /usr/bin/qgis_process wrapper adds a flag 3.22 rejects
)


@pytest.mark.skipif(not os.path.exists(QGIS_PROCESS), reason="qgis_process.bin not installed")
def test_import_and_ground_truth_through_qgis_process_save_styles(tmp_path, reference_dir):
    plugins = tmp_path / "profiles" / "default" / "python" / "plugins"
    plugins.mkdir(parents=True)
    os.symlink(ROOT, plugins / "geobias")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", QGIS_CUSTOM_CONFIG_PATH=str(tmp_path))
    # qgis_process runs the system Python: give it the venv's packages (shapely).
    site = [p for p in sys.path if p.endswith("site-packages") and ".venv" in p]
    env["PYTHONPATH"] = os.pathsep.join(site + [env.get("PYTHONPATH", "")])
    enable = subprocess.run([QGIS_PROCESS, "plugins", "enable", "geobias"], env=env,
                            capture_output=True, text=True, timeout=120)  # fmt: skip
    assert enable.returncode == 0, enable.stderr
    csv = os.path.join(reference_dir, "gpt_3_5_turbo_0613_Infant_Mortality_Rate_world_prompts.csv")
    out = tmp_path / "out.gpkg"
    args = [QGIS_PROCESS, "--json", "run", "geobias:importratings", "--",
            f"INPUT={csv}", "MODEL=gpt-3.5", f"OUTPUT={out}"]  # fmt: skip
    result = run(args, env)
    assert result["N_POINTS"] == 1999
    layer = QgsVectorLayer(str(out), "r", "ogr")
    assert layer.featureCount() == 1999 and "rank_error" in layer.fields().names()
    # Nothing loads the output headless: the algorithm itself saved the styles, rank default.
    assert saved_styles(out) == {"rank": 1, "rating": 0, "rank_error": 0, "truth_rank": 0}

    truth = tmp_path / "truth.gpkg"
    args = [QGIS_PROCESS, "--json", "run", "geobias:samplegroundtruth", "--",
            f"INPUT={out}", f"POLYGONS={COUNTRIES}", "POLYGON_FIELD=infant_mortality",
            f"OUTPUT={truth}"]  # fmt: skip
    result = run(args, env)
    assert result["N_TRUTH"] > 1500
    # With a ground truth the rank error is the default style.
    assert saved_styles(truth) == {"rank_error": 1, "rank": 0, "rating": 0, "truth_rank": 0}
    shutil.rmtree(plugins)


def run(args, env):
    """Run qgis_process with --json; its results."""
    proc = subprocess.run(args, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout[proc.stdout.index("{") :])["results"]


def saved_styles(path):
    """{style name: useAsDefault} of a GeoPackage's layer_styles."""
    with sqlite3.connect(path) as con:
        return dict(con.execute("select styleName, useAsDefault from layer_styles").fetchall())
