"""QGIS tests run offscreen with pytest-qgis; native algorithms are registered by hand."""

import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# From the repository root `import processing` would find the plugin's own processing/ folder;
# the tests mean QGIS's Processing framework. pytest-qgis appends this folder; it must come first.
QGIS_PLUGINS = "/usr/share/qgis/python/plugins"
while QGIS_PLUGINS in sys.path:
    sys.path.remove(QGIS_PLUGINS)
sys.path.insert(0, QGIS_PLUGINS)

import pytest  # noqa: E402

_KEEP = []


@pytest.fixture()
def processing_ready(qgis_app, qgis_processing):
    """Processing with QGIS's native algorithms and the GeoBias provider registered.

    Checked for every test: the plugin lifecycle tests remove the provider they find.

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
