"""GeoBias QGIS plugin: maps what large language models believe about places."""


def classFactory(iface):  # noqa: N802 (QGIS's name)
    """Entry point QGIS calls to create the plugin."""
    from .plugin import GeoBiasPlugin

    return GeoBiasPlugin(iface)
