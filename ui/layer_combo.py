"""Following what a QgsMapLayerComboBox shows, QGIS 3.22's quirk included."""


def follow_layer(combo, callback):
    """Call `callback(layer)` whenever the layer `combo` shows changes, including when an empty
    combo gets several layers at once (a project opened, files dropped together): QGIS 3.22 then
    shows the first without emitting layerChanged."""
    shown = [combo.currentLayer()]

    def check(*_args):
        layer = combo.currentLayer()
        if layer is not shown[0]:
            shown[0] = layer
            callback(layer)

    combo.layerChanged.connect(check)
    combo.model().rowsInserted.connect(check)
    combo.model().rowsRemoved.connect(check)
