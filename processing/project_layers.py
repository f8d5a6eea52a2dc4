"""Layers joining the user's project: one place that checks QGIS accepted them."""


def add_layer(project, layer, group=None, at=None, unique=False):
    """Add `layer` to `project`: into `group` of the layer tree (the root when only `at` is
    given) at position `at` (appended when None), else at the top as QGIS adds layers. False
    when QGIS refuses it (an invalid layer, or one already there), with nothing added to the
    tree, so no caller shows a layer the project does not hold. `unique`: rename it "name (2)"
    (3, ...) when another layer of the project has its name."""
    if unique:
        layer.setName(unique_name(project, layer.name()))
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


def unique_name(project, name):
    """`name`, or "name (2)", "name (3)"... when a layer of `project` is already called so."""
    taken = {lyr.name() for lyr in project.mapLayers().values()}
    if name not in taken:
        return name
    k = 2
    while f"{name} ({k})" in taken:
        k += 1
    return f"{name} ({k})"


def run_group(project, title, sources):
    """The layer tree group for one run's layers, on top of the tree: `title`, or "title (2)"
    (3, ...) when a group of that title holds another run's layers, which stay. A group that
    holds exactly these `sources` (the same run shown again) is emptied and reused, so a run
    is never shown twice and no other run's layers are ever removed."""
    root = project.layerTreeRoot()
    wanted, name, k = set(sources), title, 1
    while True:
        group = root.findGroup(name)
        if group is None:
            return root.insertGroup(0, name)
        held = {n.layer().source() for n in group.findLayers() if n.layer() is not None}
        if not held or (wanted and held == wanted):
            project.removeMapLayers([n.layerId() for n in group.findLayers()])
            return group
        k += 1
        name = f"{title} ({k})"
