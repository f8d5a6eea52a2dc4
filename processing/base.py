"""Common base of the GeoBias algorithms: instance creation, groups, icon, translated strings."""

import html
import os

from qgis.core import QgsProcessingAlgorithm, QgsProcessingException, QgsWkbTypes
from qgis.PyQt.QtCore import QUrl
from qgis.PyQt.QtGui import QIcon

from ..host import shapely_problem
from ..i18n_util import QT_TRANSLATE_NOOP, tr
from ..paths import ICON, PROCESSING_HELP
from .checks import bound_count, check_given_values
from .crs import WGS84
from .parameter_help import help_texts

GROUPS = {
    "survey": QT_TRANSLATE_NOOP("@default", "Rating survey"),
    "truth": QT_TRANSLATE_NOOP("@default", "Ground truth and metrics"),
    "overlay": QT_TRANSLATE_NOOP("@default", "Census overlay and report"),
    "herb": QT_TRANSLATE_NOOP("@default", "Regional bias (HERB)"),
}


class GeoBiasAlgorithm(QgsProcessingAlgorithm):
    """Subclasses set NAME, DISPLAY and GROUP, write help_text and the Processing hooks.

    Help texts are literal tr("..." "...") calls in each help_text: pylupdate5 finds a string
    split over lines there, but not inside QT_TRANSLATE_NOOP with a trailing comma. They are
    plain text; shortHelpString escapes them, as QGIS shows the help as HTML ("< 0" would start
    a tag and hide the rest).
    """

    NAME = ""
    DISPLAY = ""
    GROUP = "survey"
    # Algorithms that call shapely (GEOS) refuse to run on a shapely that would crash QGIS.
    USES_GEOS = True

    def name(self):
        return self.NAME

    def displayName(self):
        return tr(self.DISPLAY)

    def help_text(self):
        return ""

    def addParameter(self, definition, createOutput=True):
        """Declare a parameter with its help sentence (processing/parameter_help.py), which
        the toolbox shows on the parameter and in the algorithm's help; a count gets its
        largest value (checks.COUNT_LIMITS)."""
        bound_count(definition, self.NAME)
        if not definition.help():
            texts = self.__dict__.get("_help_texts")
            if texts is None:
                texts = self.__dict__["_help_texts"] = help_texts(self.NAME)
            definition.setHelp(texts.get(definition.name(), ""))
        return super().addParameter(definition, createOutput)

    def shortHelpString(self):
        """The help text, then each parameter: its label, name and help sentence."""
        out = [f"<p>{html.escape(self.help_text(), quote=False)}</p>"]
        items = [
            f"<dt><b>{html.escape(p.description())}</b> <code>{p.name()}</code></dt>"
            f"<dd>{html.escape(p.help(), quote=False)}</dd>"
            for p in self.parameterDefinitions()
        ]
        if items:
            title = html.escape(tr("Parameters"))
            out.append(f"<h3>{title}</h3><dl>{''.join(items)}</dl>")
        return "".join(out)

    def group(self):
        return tr(GROUPS[self.GROUP])

    def groupId(self):
        return self.GROUP

    def icon(self):
        return QIcon(ICON)

    def helpUrl(self):
        """This algorithm's section of the help shipped with the plugin (docs/processing.md)."""
        url = QUrl.fromLocalFile(PROCESSING_HELP)
        url.setFragment(self.name())
        return url.toString()

    def createInstance(self):
        return type(self)()

    def checkParameterValues(self, parameters, context):
        problem = shapely_problem() if self.USES_GEOS else None
        if problem:
            return False, problem
        ok, message = super().checkParameterValues(parameters, context)
        if not ok:
            return ok, message
        # What QGIS's checks let through (a NaN, a layer without CRS, a folder for a file...).
        problem = check_given_values(self, parameters, context)
        return (False, problem) if problem else (True, "")

    def postProcessAlgorithm(self, context, feedback):
        # One progress stream that ends at 100 (qgis_process prints it: "0...10...100 - done")
        # whatever the steps reached.
        if feedback is not None:
            feedback.setProgress(100.0)
        return {}

    def prepareAlgorithm(self, parameters, context, feedback):
        # Also here: alg.run() and some callers skip checkParameterValues.
        problem = shapely_problem() if self.USES_GEOS else None
        problem = problem or check_given_values(self, parameters, context)
        if problem:
            raise QgsProcessingException(problem)
        return super().prepareAlgorithm(parameters, context, feedback)

    def write_points(self, parameters, context, fields, columns, feedback, style=None, runs=()):
        """Write point columns to the OUTPUT sink; returns its id, or None when cancelled.

        A GeoPackage output also gets the `runs` rows (what it measured, read by the styles'
        layer descriptions) and, with `style`, the saved styles, that one as default.
        """
        from .features import add_point_features
        from .runs import append_runs
        from .styles import save_output_styles

        sink, dest = self.parameterAsSink(
            parameters, "OUTPUT", context, fields, QgsWkbTypes.Type.Point, WGS84
        )
        if sink is None:
            raise QgsProcessingException(self.invalidSinkError(parameters, "OUTPUT"))
        if not add_point_features(sink, fields, columns, feedback):
            return None
        del sink  # closes the file, so its runs and styles can be saved into it
        path = str(dest).split("|")[0]
        if runs and path.lower().endswith(".gpkg") and os.path.isfile(path):
            append_runs(path, list(runs))
        if style:
            save_output_styles(dest, style, values=columns)
        return dest
