"""Layers joining the user's project: one place that checks QGIS accepted them."""


def add_layer(project, layer, group=None, at=None):
    """Add `layer` to `project`: into `group` of the layer tree (the root when only `at` is
    given) at position `at` (appended when None), else at the top as QGIS adds layers. False
    when QGIS refuses it (an invalid layer, or one already there), with nothing added to the
    tree, so no caller shows a layer the project does not hold."""
    placed = group is not None or at is not None
    if project.addMapLayer(layer, not placed) is None:
        return False
    if placed:
        parent = group if group is not None else project.layerTreeRoot()
        if at is None:
            parent.addLayer(layer)
        else:
            parent.insertLayer(at, layer)
    return True
