"""Enabling GeoBias must not slow a QGIS start (issue 34 item 7): loading the plugin imports no
science. The provider registers its algorithms (QGIS calls each initAlgorithm then) and initGui
builds the toolbar and the closed dock; numpy, scipy, shapely, requests and GeoBias's core
science are imported when a job first needs them. Each check runs in a fresh Python with QGIS
initialised, as a start is: in this test process other tests have imported everything already.
"""

import json
import os
import subprocess
import sys

import pytest

# Modules (and their submodules) a start must not import; the first GeoBias frames that
# imported one are reported, so a failure names the line to make lazy. osgeo (~25 ms) is still
# imported by the algorithms' OGR field-type tables; the desktop's dock still builds its tabs.
SCIENCE = ("scipy", "numpy", "shapely", "requests", "urllib3")
FORBIDDEN = {"process": SCIENCE, "gui": ("scipy.stats",)}

CHILD = r"""
import json, os, sys, traceback
sys.path.insert(0, "/usr/share/qgis/python/plugins")
FORBIDDEN = tuple(json.loads(os.environ["GEOBIAS_FORBIDDEN"]))
first = {}

class Witness:
    '''Record the GeoBias line that first imports a forbidden module (imports go on).'''
    def find_spec(self, name, path=None, target=None):
        hit = [f for f in FORBIDDEN if name == f or name.startswith(f + ".")]
        stack = traceback.extract_stack()
        importing = any(fr.name == "_find_and_load" for fr in stack)  # not a find_spec
        if hit and hit[0] not in first and importing:
            frames = [f"{fr.filename}:{fr.lineno}" for fr in stack if "geobias" in fr.filename]
            first[hit[0]] = frames[-5:]
        return None

sys.meta_path.insert(0, Witness())
from qgis.core import QgsApplication
app = QgsApplication([], os.environ["GEOBIAS_START"] == "gui")
app.initQgis()
before = [m for m in FORBIDDEN if m in sys.modules]
import geobias
out = {"before": before}
if os.environ["GEOBIAS_START"] == "gui":
    from qgis.gui import QgsMapCanvas, QgsMessageBar
    from qgis.PyQt.QtWidgets import QMainWindow

    class Iface:
        '''What initGui asks of QGIS's iface: a real window, bar and canvas; menus no-ops.'''
        def __init__(self):
            self.window = QMainWindow()
            self.bar, self.canvas = QgsMessageBar(self.window), QgsMapCanvas(self.window)
        def mainWindow(self): return self.window
        def messageBar(self): return self.bar
        def mapCanvas(self): return self.canvas
        def addToolBar(self, name): return self.window.addToolBar(name)
        def addDockWidget(self, area, dock): self.window.addDockWidget(area, dock)
        def __getattr__(self, name): return lambda *args, **kwargs: None

    iface = Iface()
    plugin = geobias.classFactory(iface)
    plugin.initProcessing()  # as QGIS does for hasProcessingProvider=yes, then initGui
    plugin.initGui()
    out["dock_visible"] = plugin.dock.isVisible()
else:  # qgis_process: initProcessing only
    plugin = geobias.classFactory(None)
    plugin.initProcessing()
provider = QgsApplication.processingRegistry().providerById("geobias")
out["algorithms"] = len(provider.algorithms()) if provider else 0
out["parameters"] = sum(len(a.parameterDefinitions()) for a in provider.algorithms())
out["loaded"] = {m: first.get(m, []) for m in FORBIDDEN if m in sys.modules}
print("RESULT " + json.dumps(out))
"""


def start(kind):
    """Start QGIS in a fresh Python, load GeoBias the way `kind` ("process" or "gui") does."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", GEOBIAS_START=kind,
               GEOBIAS_FORBIDDEN=json.dumps(FORBIDDEN[kind]))  # fmt: skip
    proc = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True,
                          text=True, timeout=300)  # fmt: skip
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")]
    assert proc.returncode == 0 and lines, (proc.returncode, proc.stderr[-3000:])
    return json.loads(lines[-1][len("RESULT ") :])


@pytest.mark.parametrize("kind", ["process", "gui"])
def test_loading_geobias_imports_no_science(kind):
    out = start(kind)
    assert out["before"] == [], out  # QGIS alone imports none of them: the check can fail
    assert out["algorithms"] >= 19 and out["parameters"] > 100, out  # really registered
    if kind == "gui":
        assert out["dock_visible"] is False, out
    assert out["loaded"] == {}, "imported at start (first GeoBias frames):\n" + json.dumps(
        out["loaded"], indent=1
    )
