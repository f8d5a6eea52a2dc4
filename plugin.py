"""GeoBias plugin lifecycle: toolbar, menu, dock, options page and Processing provider."""

import sys

from qgis.core import Qgis, QgsApplication, QgsMessageLog
from qgis.PyQt.QtCore import Qt, QTimer
from qgis.PyQt.QtGui import QIcon

from .host import missing_message, missing_requirements, shapely_problem
from .i18n_util import install_translator, remove_translator, tr
from .paths import ICON
from .processing.provider import GeoBiasProvider
from .qt_compat import QAction

MENU = "&GeoBias"


class GeoBiasPlugin:
    """Created by classFactory; QGIS calls initProcessing, initGui and unload."""

    def __init__(self, iface):
        self.iface = iface
        self.provider = None
        self.translator = install_translator()
        self.actions = []
        self.toolbar = None
        self.dock = None
        self.options_factory = None
        self.missing = missing_requirements()

    def initProcessing(self):
        """Register the provider; works without a GUI (qgis_process, tests)."""
        if self.missing:
            QgsMessageLog.logMessage(
                missing_message(self.missing), "GeoBias", Qgis.MessageLevel.Critical
            )
            return
        # Whether shapely may run (its GEOS) is not checked here: importing shapely and numpy
        # would slow every start. Each algorithm that uses GEOS checks it before it runs and
        # refuses with the reason; the desktop says it once QGIS has started (initGui).
        if self.provider is None:
            # The user's own prompt languages (<profile>/geobias/languages), before the
            # algorithms list the LANGUAGES choices.
            from .processing.language_choices import register_user_folder

            register_user_folder()
            provider = GeoBiasProvider()
            # The registry takes ownership; it refuses (and deletes) a second `geobias` provider.
            if QgsApplication.processingRegistry().addProvider(provider):
                self.provider = provider

    def initGui(self):
        from .ui.diagnostics import watch_log

        watch_log()  # the last GeoBias log errors, for Copy diagnostics
        self.initProcessing()
        # The embedded model is a child process: stop it with QGIS (it would also notice).
        QgsApplication.instance().aboutToQuit.connect(_stop_embedded_model)
        if self.missing:
            # Load anyway, so the user learns what to install instead of seeing a traceback.
            self.toolbar = self.iface.addToolBar("GeoBias")
            self.toolbar.setObjectName("GeoBiasToolbar")
            explain = QAction(QIcon(ICON), tr("GeoBias: missing packages"), self.iface.mainWindow())
            explain.setObjectName("GeoBiasMissing")
            explain.triggered.connect(self._show_missing)
            self._add_action(explain, toolbar=True)
            self._show_missing()
            return
        from .ui.dock import GeoBiasDock

        self.dock = GeoBiasDock(self.iface, lazy=True)  # its tabs at first show: a fast start
        self.dock.setObjectName("GeoBiasDock")
        self.iface.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.dock)
        self.dock.hide()

        self.toolbar = self.iface.addToolBar("GeoBias")
        self.toolbar.setObjectName("GeoBiasToolbar")
        show = QAction(QIcon(ICON), tr("GeoBias survey"), self.iface.mainWindow())
        show.setObjectName("GeoBiasShowDock")
        show.setCheckable(True)
        show.setToolTip(tr("Show or hide the GeoBias dock"))
        show.toggled.connect(self.dock.setVisible)
        self.dock.visibilityChanged.connect(show.setChecked)
        self._add_action(show, toolbar=True)

        from .processing.legend import install_headings
        from .ui.options_factory import register_options_page

        self.options_factory = register_options_page(self.iface)
        install_headings()  # "Rank error: rating − truth" over the classes in the Layers panel
        # After the start, not during it: the check imports shapely (and numpy).
        QTimer.singleShot(0, self._say_shapely_problem)

    def _say_shapely_problem(self):
        """Say in the message bar (and the log) why the geometry algorithms refuse, if they do."""
        if self.toolbar is None:  # unloaded before the start finished
            return
        problem = shapely_problem()
        if problem:
            QgsMessageLog.logMessage(problem, "GeoBias", Qgis.MessageLevel.Critical)
            self.iface.messageBar().pushMessage("GeoBias", problem, Qgis.MessageLevel.Critical, 0)

    def _show_missing(self):
        self.iface.messageBar().pushMessage(
            "GeoBias", missing_message(self.missing), Qgis.MessageLevel.Critical, 0
        )

    def _add_action(self, action, toolbar=False):
        self.iface.addPluginToMenu(MENU, action)
        if toolbar:
            self.toolbar.addAction(action)
        self.actions.append(action)

    def unload(self):
        """Remove everything initGui and initProcessing added, so a reload starts clean."""
        for action in self.actions:
            self.iface.removePluginMenu(MENU, action)
            if self.toolbar is not None:
                self.toolbar.removeAction(action)
            action.deleteLater()
        self.actions = []
        if self.toolbar is not None:
            self.toolbar.deleteLater()
            self.toolbar = None
        if self.dock is not None:
            from .processing.legend import remove_headings

            remove_headings()
            self.dock.close_survey()
            self.iface.removeDockWidget(self.dock)
            self.dock.deleteLater()
            self.dock = None
        if self.options_factory is not None:
            from .ui.options_factory import unregister_options_page

            unregister_options_page(self.iface, self.options_factory)
            self.options_factory = None
        if self.provider is not None:
            QgsApplication.processingRegistry().removeProvider(self.provider)
            self.provider = None
        _stop_embedded_model()
        from .ui.diagnostics import unwatch_log

        unwatch_log()
        remove_translator(self.translator)
        self.translator = None
        _forget_modules()


def _stop_embedded_model():
    """Stop the shared embedded model child process, if one runs."""
    from .core.runtime.embedded import stop_shared

    stop_shared()
    try:
        QgsApplication.instance().aboutToQuit.disconnect(_stop_embedded_model)
    except TypeError:  # not connected (headless) or already disconnected
        pass


def _forget_modules():
    """Drop this plugin's modules so a reload imports fresh code.

    QGIS's unloadPlugin only forgets modules its import hook saw by name; parent packages of
    relative imports (`from .processing.provider import X` leaves `<plugin>.processing`) stay.
    """
    package = __name__.rpartition(".")[0]
    for name in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
        del sys.modules[name]
