"""Load, start and unload the plugin the way QGIS does, from a temporary plugin folder."""

import os
import shutil
import sys

import pytest
import qgis.utils
from qgis.core import QgsApplication
from qgis.PyQt.QtCore import QEvent
from qgis.PyQt.QtWidgets import QDockWidget, QToolBar

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Not "geobias": the installed name must not matter, imports inside the plugin are relative.
NAME = "geobias_lifecycle_copy"


def copy_plugin(dest):
    ignore = shutil.ignore_patterns(
        ".venv", ".git", ".qgis-settings", "test", "output", "build", "__pycache__", "*.gpkg-*"
    )
    shutil.copytree(ROOT, os.path.join(dest, NAME), ignore=ignore)


@pytest.fixture()
def plugin_path(tmp_path, qgis_iface):
    # Other tests register a `geobias` provider straight from the tree: start without it.
    registry = QgsApplication.processingRegistry()
    if registry.providerById("geobias") is not None:
        registry.removeProvider("geobias")
    copy_plugin(str(tmp_path))
    sys.path.insert(0, str(tmp_path))
    qgis.utils.plugin_paths.insert(0, str(tmp_path))
    qgis.utils.updateAvailablePlugins()  # as QGIS does at start-up: lists plugin folders
    yield str(tmp_path)
    sys.path.remove(str(tmp_path))
    qgis.utils.plugin_paths.remove(str(tmp_path))


def geobias_leftovers(iface):
    main = iface.mainWindow()
    QgsApplication.processEvents()
    QgsApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)  # run deleteLater()

    def named(cls):
        return [w.objectName() for w in main.findChildren(cls) if "GeoBias" in w.objectName()]

    return {
        "provider": QgsApplication.processingRegistry().providerById("geobias") is not None,
        "docks": named(QDockWidget),
        "toolbars": named(QToolBar),
        "modules": sorted(m for m in sys.modules if m.split(".")[0] == NAME),
        "active": NAME in qgis.utils.active_plugins,
    }


def test_load_start_unload_twice_leaves_nothing(plugin_path, qgis_iface):
    clean = geobias_leftovers(qgis_iface)
    assert clean == {"provider": False, "docks": [], "toolbars": [], "modules": [], "active": False}
    for _ in range(2):
        assert qgis.utils.loadPlugin(NAME), "loadPlugin failed"
        assert qgis.utils.startPlugin(NAME), "startPlugin failed"
        started = geobias_leftovers(qgis_iface)
        assert started["provider"] and started["docks"] == ["GeoBiasDock"]
        assert started["toolbars"] == ["GeoBiasToolbar"] and started["active"]
        plugin = qgis.utils.plugins[NAME]
        assert plugin.actions and all(a.objectName().startswith("GeoBias") for a in plugin.actions)
        assert qgis.utils.unloadPlugin(NAME), "unloadPlugin failed"
        assert geobias_leftovers(qgis_iface) == clean


def test_init_processing_works_without_gui(plugin_path, qgis_app):
    """qgis_process and tests have no iface: initProcessing alone registers the provider."""
    assert qgis.utils.loadPlugin(NAME)
    plugin = sys.modules[NAME].classFactory(None)
    plugin.initProcessing()
    provider = QgsApplication.processingRegistry().providerById("geobias")
    assert provider is not None and provider.name() == "GeoBias"
    plugin.unload()
    assert QgsApplication.processingRegistry().providerById("geobias") is None
    assert not [m for m in sys.modules if m.split(".")[0] == NAME]
