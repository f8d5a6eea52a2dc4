"""The GeoBias entry in QGIS's Options dialog, registered at start; the page itself (ui/options.py,
with the endpoint and model code it needs) is imported when the Options dialog opens."""

from qgis.gui import QgsOptionsWidgetFactory
from qgis.PyQt.QtGui import QIcon

from ..i18n_util import tr
from ..paths import ICON


class GeoBiasOptionsFactory(QgsOptionsWidgetFactory):
    def __init__(self):
        super().__init__()
        self.setTitle(tr("GeoBias"))

    def icon(self):
        return QIcon(ICON)

    def createWidget(self, parent):
        from .options import GeoBiasOptionsPage

        return GeoBiasOptionsPage(parent)


def register_options_page(iface):
    factory = GeoBiasOptionsFactory()
    iface.registerOptionsWidgetFactory(factory)
    return factory


def unregister_options_page(iface, factory):
    iface.unregisterOptionsWidgetFactory(factory)
