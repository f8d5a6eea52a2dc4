"""Common base of the GeoBias algorithms: instance creation, groups, icon, translated strings."""

from qgis.core import QgsProcessingAlgorithm
from qgis.PyQt.QtGui import QIcon

from ..i18n_util import tr
from ..paths import ICON

GROUPS = {
    "survey": "Rating survey",
    "truth": "Ground truth and metrics",
}


class GeoBiasAlgorithm(QgsProcessingAlgorithm):
    """Subclasses set NAME, DISPLAY, GROUP and HELP and implement the two Processing hooks."""

    NAME = ""
    DISPLAY = ""
    GROUP = "survey"
    HELP = ""

    def name(self):
        return self.NAME

    def displayName(self):
        return tr(self.DISPLAY)

    def group(self):
        return tr(GROUPS[self.GROUP])

    def groupId(self):
        return self.GROUP

    def shortHelpString(self):
        return tr(self.HELP)

    def icon(self):
        return QIcon(ICON)

    def createInstance(self):
        return type(self)()
