"""The GeoBias dock: study area, survey settings, run, results."""

from qgis.PyQt.QtWidgets import QDockWidget, QLabel, QVBoxLayout, QWidget

from ..i18n_util import tr


class GeoBiasDock(QDockWidget):
    """Dock widget; the survey UI is built in later issues."""

    def __init__(self, iface, parent=None):
        super().__init__(tr("GeoBias"), parent or iface.mainWindow())
        self.iface = iface
        body = QWidget(self)
        layout = QVBoxLayout(body)
        layout.addWidget(QLabel(tr("Draw or pick a study area to start a survey."), body))
        self.setWidget(body)

    def close_survey(self):
        """Stop background work and release map tools before the plugin unloads."""
