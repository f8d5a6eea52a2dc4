"""GeoBias page in QGIS Options (endpoints); filled in by the endpoints issue."""

from qgis.gui import QgsOptionsPageWidget, QgsOptionsWidgetFactory
from qgis.PyQt.QtGui import QIcon
from qgis.PyQt.QtWidgets import QLabel, QVBoxLayout

from ..i18n_util import tr
from ..paths import ICON


class GeoBiasOptionsPage(QgsOptionsPageWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(tr("LLM endpoints used by GeoBias surveys."), self))

    def apply(self):
        pass


class GeoBiasOptionsFactory(QgsOptionsWidgetFactory):
    def __init__(self):
        super().__init__()
        self.setTitle(tr("GeoBias"))

    def icon(self):
        return QIcon(ICON)

    def createWidget(self, parent):
        return GeoBiasOptionsPage(parent)


def register_options_page(iface):
    factory = GeoBiasOptionsFactory()
    iface.registerOptionsWidgetFactory(factory)
    return factory


def unregister_options_page(iface, factory):
    iface.unregisterOptionsWidgetFactory(factory)
