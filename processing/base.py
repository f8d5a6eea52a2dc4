"""Common base of the GeoBias algorithms: instance creation, groups, icon, translated strings."""

from qgis.core import QgsProcessingAlgorithm
from qgis.PyQt.QtGui import QIcon

from ..i18n_util import QT_TRANSLATE_NOOP, tr
from ..paths import ICON

GROUPS = {
    "survey": QT_TRANSLATE_NOOP("@default", "Rating survey"),
    "truth": QT_TRANSLATE_NOOP("@default", "Ground truth and metrics"),
}


class GeoBiasAlgorithm(QgsProcessingAlgorithm):
    """Subclasses set NAME, DISPLAY and GROUP, write shortHelpString and the Processing hooks.

    Help texts are literal tr("..." "...") calls in each shortHelpString: pylupdate5 finds a
    string split over lines there, but not inside QT_TRANSLATE_NOOP with a trailing comma.
    """

    NAME = ""
    DISPLAY = ""
    GROUP = "survey"

    def name(self):
        return self.NAME

    def displayName(self):
        return tr(self.DISPLAY)

    def group(self):
        return tr(GROUPS[self.GROUP])

    def groupId(self):
        return self.GROUP

    def icon(self):
        return QIcon(ICON)

    def createInstance(self):
        return type(self)()
