"""Enabling GeoBias must not slow a QGIS start (issue 34 item 7): loading the plugin imports no
science. The provider registers its algorithms (QGIS calls each initAlgorithm then) and initGui
adds the toolbar, the Options entry and the dock's frame, whose tabs are built when it is first
shown; numpy, scipy, shapely, requests and GeoBias's core science are imported when a job (or
the dock) first needs them. Each check runs in a fresh Python with QGIS
initialised, as a start is: in this test process other tests have imported everything already.
"""

import json
import os
import subprocess
import sys

import pytest

# Modules (and their submodules) a start must not import; the first GeoBias frames that
# imported one are reported, so a failure names the line to make lazy. osgeo (~25 ms) is still
# imported by the algorithms' OGR field-type tables.
SCIENCE = ("scipy", "numpy", "shapely", "requests", "urllib3")
FORBIDDEN = {"process": SCIENCE, "gui": SCIENCE}

CHILD = r"""
import json, os, sys
sys.path.insert(0, "/usr/share/qgis/python/plugins")
FORBIDDEN = tuple(json.loads(os.environ["GEOBIAS_FORBIDDEN"]))
first = {}

def frames():
    '''(file, line, function) of the calling frames, outermost first. Read from the frames
    themselves: traceback.extract_stack reads source lines, and on Python 3.13 that imports
    tokenize, which comes back here.'''
    out, f = [], sys._getframe(1)
    while f is not None:
        out.append((f.f_code.co_filename, f.f_lineno, f.f_code.co_name))
        f = f.f_back
    return out[::-1]

class Witness:
    '''Record the GeoBias line that first imports a forbidden module (imports go on).'''
    def find_spec(self, name, path=None, target=None):
        hit = [f for f in FORBIDDEN if name == f or name.startswith(f + ".")]
        if not hit or hit[0] in first:
            return None
        stack = frames()
        if any(fn == "_find_and_load" for _, _, fn in stack):  # an import, not a find_spec
            first[hit[0]] = [f"{file}:{line}" for file, line, _ in stack if "geobias" in file][-5:]
        return None

sys.meta_path.insert(0, Witness())
from qgis.core import QgsApplication
app = QgsApplication([], os.environ["GEOBIAS_START"] == "gui")
app.initQgis()
before = [m for m in FORBIDDEN if m in sys.modules]
import geobias
from qgis.core import Qgis
out = {"before": before, "qgis": Qgis.QGIS_VERSION_INT}
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
    out["dock_built"] = plugin.dock.built
else:  # qgis_process: initProcessing only
    plugin = geobias.classFactory(None)
    plugin.initProcessing()
provider = QgsApplication.processingRegistry().providerById("geobias")
out["algorithms"] = len(provider.algorithms()) if provider else 0
out["parameters"] = sum(len(a.parameterDefinitions()) for a in provider.algorithms())
out["loaded"] = {m: first.get(m, []) for m in FORBIDDEN if m in sys.modules}
if os.environ["GEOBIAS_START"] == "gui":  # the toolbar button shows the dock: now it is built
    iface.window.show()
    plugin.actions[0].trigger()
    out["tabs_on_show"] = plugin.dock.ui.tabs.count() if plugin.dock.built else 0
    plugin.unload()
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
    # QGIS 3.22 alone imports none of them; 3.38 and later import numpy and shapely themselves
    # (QgsGeometry.as_numpy/as_shapely), which GeoBias cannot be blamed for. The rest it must
    # not import, and QGIS never imports those: the check can fail.
    assert not set(out["before"]) - {"numpy", "shapely"}, out
    if out["qgis"] < 33800:
        assert out["before"] == [], out
    assert out["algorithms"] >= 19 and out["parameters"] > 100, out  # really registered
    if kind == "gui":
        assert out["dock_visible"] is False and out["dock_built"] is False, out
        assert out["tabs_on_show"] == 6, out
    ours = {m: where for m, where in out["loaded"].items() if m not in out["before"]}
    assert ours == {}, "imported at start (first GeoBias frames):\n" + json.dumps(ours, indent=1)
