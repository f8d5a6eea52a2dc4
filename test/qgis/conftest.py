"""QGIS tests run offscreen with pytest-qgis; native algorithms are registered by hand."""

import os
import subprocess
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# From the repository root `import processing` would find the plugin's own processing/ folder;
# the tests mean QGIS's Processing framework. pytest-qgis appends this folder; it must come first.
QGIS_PLUGINS = "/usr/share/qgis/python/plugins"
while QGIS_PLUGINS in sys.path:
    sys.path.remove(QGIS_PLUGINS)
sys.path.insert(0, QGIS_PLUGINS)
import pytest  # noqa: E402

# Bind the name now: pytest may later put the clone's folder first on sys.path (it does when
# the folder's name is no valid package name, e.g. a CI clone in `geobias-ci`).
import processing  # noqa: E402, F401

_KEEP = []


def register_providers():
    """QGIS's native algorithms and the GeoBias provider, registered if they are not.

    Standalone QGIS 3.22 has no `native:` algorithms until QgsNativeAlgorithms is added.
    """
    from qgis.analysis import QgsNativeAlgorithms
    from qgis.core import QgsApplication

    registry = QgsApplication.processingRegistry()
    if registry.providerById("native") is None:
        registry.addProvider(QgsNativeAlgorithms())
    from geobias.processing.provider import GeoBiasProvider

    if registry.providerById("geobias") is None:
        # Keep the Python wrapper alive: if sip collects it, the registry keeps a provider
        # whose Python-side algorithms are gone ("algorithm not found").
        _KEEP.append(GeoBiasProvider())
        registry.addProvider(_KEEP[-1])
    return registry


@pytest.fixture()
def processing_ready(qgis_app, qgis_processing):
    """Processing with QGIS's native algorithms and the GeoBias provider registered.

    Checked for every test: the plugin lifecycle tests remove the provider they find.
    """
    return register_providers()


@pytest.fixture(scope="session")
def wheel_shapely(tmp_path_factory):
    """A folder with a manylinux shapely wheel bundling a GEOS other than QGIS's, for
    PYTHONPATH: the shapely that crashed QGIS before issue 9. Tests check GeoBias refuses it
    instead. Shapely 2.1.2's wheel brings GEOS 3.13, for QGIS on another GEOS (3.22 on Debian 12
    has 3.11, 3.44 on sid 3.14 or newer); QGIS 3.40 (Debian 13) has 3.13: shapely 2.0.7's wheel
    brings 3.11 (it has none for Python 3.14). From PyPI, or
    from $GEOBIAS_WHEELHOUSE where the tests run without a network (make test-matrix)."""
    from qgis.core import Qgis

    target = tmp_path_factory.mktemp("wheel-shapely")
    version = "2.0.7" if (Qgis.geosVersionMajor(), Qgis.geosVersionMinor()) == (3, 13) else "2.1.2"
    pip = [sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check", "--no-deps",
           "--only-binary", ":all:", "--target", str(target), f"shapely=={version}"]  # fmt: skip
    if os.environ.get("GEOBIAS_WHEELHOUSE"):  # make test-matrix: downloaded while building
        pip += ["--no-index", "--find-links", os.environ["GEOBIAS_WHEELHOUSE"]]
    subprocess.run(pip, check=True, capture_output=True, timeout=300)
    assert list(target.glob("shapely.libs/libgeos_c-*")), "not the wheel with its own GEOS"
    return str(target)


@pytest.fixture(scope="session")
def wheel_versions(wheel_shapely):
    """(shapely version, GEOS version) of that wheel, as a Python importing it sees them."""
    code = "import shapely; print(shapely.__version__, shapely.geos_version_string)"
    env = dict(os.environ, PYTHONPATH=wheel_shapely)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    shapely_version, geos = out.stdout.split()
    return shapely_version, geos.split("-")[0]


@pytest.fixture(scope="session", autouse=True)
def output_folder(qgis_app, tmp_path_factory):
    """The GeoBias output folder of projects not saved: a temporary one, not ~/GeoBias."""
    from qgis.core import QgsSettings

    from geobias.ui.outputs import OUTPUT_FOLDER_SETTING

    folder = tmp_path_factory.mktemp("geobias-outputs")
    QgsSettings().setValue(OUTPUT_FOLDER_SETTING, str(folder))
    yield folder
    QgsSettings().remove(OUTPUT_FOLDER_SETTING)


@pytest.fixture(autouse=True)
def no_modal_questions(monkeypatch):
    """A QMessageBox.question that no test answers would wait for a click forever (offscreen,
    nobody clicks): it is answered No. A test that asks for a question patches it itself."""
    from qgis.PyQt.QtWidgets import QMessageBox

    asked = []

    def question(parent, title, text, *args, **kwargs):
        asked.append(text)
        return QMessageBox.StandardButton.No

    monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
    return asked


# QGIS 3.40 and 3.44 (the matrix's chroots) segfault in the interpreter's teardown after every
# test has run and pytest has printed its summary (GDAL and layout objects destroyed in the
# wrong order); a user's quit is tested where users quit (test/desktop, qgis_process). With
# GEOBIAS_FAST_EXIT=1 (scripts/matrix_tests.sh) the session ends with pytest's own exit status
# once the summary is out, skipping that teardown.
def pytest_sessionfinish(session, exitstatus):
    session.config._geobias_exitstatus = int(exitstatus)


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    if os.environ.get("GEOBIAS_FAST_EXIT") == "1":
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(getattr(config, "_geobias_exitstatus", 0))


@pytest.fixture()
def layer_tree_view(qgis_iface, monkeypatch):
    """A real layer tree view behind pytest-qgis's mock iface: QGIS 3.44's result loading
    (processing.runAndLoadResults) hands iface.layerTreeView() to C++, which refuses a mock."""
    from qgis.core import QgsLayerTreeModel, QgsProject
    from qgis.gui import QgsLayerTreeView

    view = QgsLayerTreeView()
    view.setModel(QgsLayerTreeModel(QgsProject.instance().layerTreeRoot()))
    monkeypatch.setattr(qgis_iface, "layerTreeView", lambda: view)
    yield view
