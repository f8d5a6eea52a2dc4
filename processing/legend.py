"""A heading over the legend of GeoBias's layers in the Layers panel ("Rank error: rating −
truth" above its five classes), so the classes' labels can stay short enough for the panel.

QGIS draws a layer's legend from its QgsMapLayerLegend; GeoBias gives its rated and comparison
layers one that puts a text line before the classes, worded from the field the renderer draws
(switching the layer's style switches the heading). The desktop plugin installs it on every
such layer the project gets (new, opened from a file or a saved project) and restores QGIS's own
legend when it unloads; elsewhere (qgis_process, a project opened without GeoBias) the layers
keep QGIS's legend and lose only the heading.
"""

from qgis.core import (
    QgsDefaultVectorLayerLegend,
    QgsMapLayerLegend,
    QgsProject,
    QgsSimpleLegendNode,
    QgsVectorLayer,
)
from qgis.PyQt import sip
from qgis.PyQt.QtCore import QTimer

# Fields of the layers that get a heading (rated points, comparison means).
STYLED_FIELDS = ("rank", "mean_rank")
# Layers given a headed legend: id -> (layer, the slot re-giving it when QGIS replaces it).
_WATCHED = {}


def heading_of(layer):
    """The heading of the legend the layer shows now ("" if its renderer is not GeoBias's)."""
    from .styles import legend_heading  # with numpy: imported when a layer is, not at start

    renderer = layer.renderer() if isinstance(layer, QgsVectorLayer) else None
    field = renderer.classAttribute() if hasattr(renderer, "classAttribute") else ""
    return legend_heading(field)


class HeadedLegend(QgsDefaultVectorLayerLegend):
    """QGIS's legend of a vector layer with the GeoBias heading as its first line.

    A legend that hides the layer's name has a title of its own (the report's maps): no
    heading there.
    """

    def createLayerTreeModelLegendNodes(self, node_layer):
        nodes = super().createLayerTreeModelLegendNodes(node_layer)
        heading = heading_of(node_layer.layer())
        hidden = node_layer.customProperty("legend/title-style") == "hidden"
        if heading and nodes and not hidden:
            nodes.insert(0, QgsSimpleLegendNode(node_layer, heading))
        # The model that asked owns the nodes: Python must not delete them with this list.
        for node in nodes:
            sip.transferto(node, None)
        return nodes


def wants_heading(layer):
    """A GeoBias rated or comparison layer (it has the fields GeoBias's styles draw)."""
    if not isinstance(layer, QgsVectorLayer) or not layer.isValid():
        return False
    return any(layer.fields().lookupField(f) >= 0 for f in STYLED_FIELDS)


def add_heading(layer):
    """Give the layer the headed legend, and again whenever QGIS replaces it (loading a saved
    style resets a layer's legend); True if the layer wants one."""
    if not wants_heading(layer):
        return False
    if layer.id() not in _WATCHED:

        def legend_changed(layer=layer):
            # Not within the signal: QGIS may still be setting up the legend it just gave.
            QTimer.singleShot(0, lambda: _set_headed(layer))

        layer.legendChanged.connect(legend_changed)
        layer.destroyed.connect(lambda *_a, lid=layer.id(): _WATCHED.pop(lid, None))
        _WATCHED[layer.id()] = (layer, legend_changed)
    _set_headed(layer)
    return True


def _set_headed(layer):
    try:
        if _WATCHED.get(layer.id()) and not isinstance(layer.legend(), HeadedLegend):
            layer.setLegend(HeadedLegend(layer))
    except RuntimeError:  # the layer was deleted meanwhile
        pass


def _layers_added(layers):
    for layer in layers:
        add_heading(layer)


def install_headings(project=None):
    """Headed legends for the project's GeoBias layers, now and as layers come."""
    project = project or QgsProject.instance()
    _layers_added(project.mapLayers().values())
    project.layersAdded.connect(_layers_added)


def remove_headings(project=None):
    """QGIS's own legends back (the plugin unloads: its Python class must not outlive it)."""
    project = project or QgsProject.instance()
    try:
        project.layersAdded.disconnect(_layers_added)
    except TypeError:  # not connected
        pass
    for layer, slot in list(_WATCHED.values()):
        try:
            layer.legendChanged.disconnect(slot)
            if isinstance(layer.legend(), HeadedLegend):
                layer.setLegend(QgsMapLayerLegend.defaultVectorLegend(layer))
        except (RuntimeError, TypeError):  # deleted, or already disconnected
            pass
    _WATCHED.clear()
