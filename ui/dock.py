"""The GeoBias dock: one tab per task (its own widget module and .ui file in ui/), the run's
progress and Run/Cancel below the tabs, always visible.

A tab is a QWidget and a tab.DockTab (fill/apply the survey settings, reset, close_tab, its
own run panel), built with the dock as its parent and registered by one line in TABS;
add_tab() puts it in a scroll area so the dock stays short beside other panels.
"""

import os

from qgis.core import Qgis, QgsProject
from qgis.PyQt import uic
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtWidgets import (
    QComboBox,
    QDockWidget,
    QFormLayout,
    QFrame,
    QMenu,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QWidget,
)

from ..core.wording import strip_reprs
from ..i18n_util import QT_TRANSLATE_NOOP, tr
from ..paths import GUIDE
from .notice import dismiss
from .outputs import OutputKeeper
from .task import error_sentence, log
from .wheel import ignore_wheel_unless_focused

UI_FILE = os.path.join(os.path.dirname(__file__), "dock.ui")


def compact_combo(combo, chars=10):
    """A combo box whose width does not grow with its longest item (long layer names, prompt
    presets): the dock stays narrow and the full text shows when the list opens."""
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(chars)


# The dock's tabs in order: (dock attribute, module in ui/, class, title). A new tab is its
# module (a DockTab, ui/tab.py) with its .ui file, and one line here. Named, not imported: the
# tabs (and the science they import) load when the dock is first shown, not at QGIS's start.
TABS = (
    ("area", "area_tab", "AreaTab", QT_TRANSLATE_NOOP("@default", "Area")),
    ("survey", "survey_tab", "SurveyTab", QT_TRANSLATE_NOOP("@default", "Survey")),
    ("results", "results_tab", "ResultsTab", QT_TRANSLATE_NOOP("@default", "Results")),
    ("overlay", "overlay_tab", "OverlayTab", QT_TRANSLATE_NOOP("@default", "Overlay")),
    ("herb", "herb_tab", "HerbTab", QT_TRANSLATE_NOOP("@default", "Regional bias")),
    ("compare", "compare_tab", "CompareTab", QT_TRANSLATE_NOOP("@default", "Compare")),
)


class GeoBiasDock(QDockWidget):
    """Draw or pick a study area, choose topics and models, run, read the bias."""

    def __init__(self, iface, parent=None, lazy=False):
        """`lazy` (the plugin's dock): build the tabs when first shown or used, not now."""
        super().__init__(tr("GeoBias"), parent or iface.mainWindow())
        self.iface = iface
        self.canvas = iface.mapCanvas()
        self.built = False  # the tabs: built when the dock is first shown or used (build())
        self.install_window = None
        self.install_offer = None  # the "model missing" message bar entry, while shown
        self.watching_install = False  # connected to local_model.model_installed()
        self.details_box = None  # the window the last Details button opened
        # What must work from the start, the dock opened or not: outputs stay with the project
        # (moved beside it when saved, a warning before loss) and open provider batches are
        # polled.
        from .batch import start_poller

        start_poller(self)
        self.keeper = OutputKeeper(iface, self.pusher(), self, running=lambda: self.job_running())
        project = QgsProject.instance()
        project.readProject.connect(self.load_settings)
        project.writeProject.connect(self.save_settings)
        project.cleared.connect(self.load_settings)
        for signal in (project.readProject, project.cleared, project.projectSaved):
            signal.connect(self.refresh_runs)
        if not lazy:
            self.build()

    def __getattr__(self, name):
        """A part of the built dock (a tab, the run panel…) asked for before the dock was first
        shown (by code: a test, another plugin): build the dock now."""
        state = self.__dict__
        if name.startswith("__") or state.get("built", True) or state.get("building"):
            raise AttributeError(name)
        self.build()
        return getattr(self, name)

    def showEvent(self, event):
        if not self.built:
            self.build()
        super().showEvent(event)

    def build(self):
        """The dock's content: its tabs, run panel and menus, with the project's settings.
        Deferred from the start of QGIS so that enabling GeoBias costs a start almost nothing."""
        if self.built or self.__dict__.get("building"):
            return
        self.building = True
        try:
            self._build_parts()
            self.built = True
        finally:  # a failed build is tried again at the next show, not left half-marked
            self.building = False
        self.load_settings()
        self.refresh_runs()

    def _build_parts(self):
        """The widgets of build(): the form, run panel, tabs, help and Batch menus."""
        import importlib

        from .batch import batch_button
        from .narrow import TabStrip
        from .run_panel import RunPanel
        from .survey_job import SurveyJob, step_labels

        form, _ = uic.loadUiType(UI_FILE)
        self.body = QWidget(self)
        self.ui = form()
        self.ui.setupUi(self.body)
        self.setWidget(self.body)
        self.panel = RunPanel(
            self.body, tr("Run survey"), tr("Resume survey"), self.pusher(), step_labels()
        )
        self.ui.panelLayout.addWidget(self.panel)
        # The tabs as buttons that wrap onto a second row in a narrow dock.
        self.strip = TabStrip(self.ui.tabs, self.body)
        self.ui.bodyLayout.insertWidget(self.ui.bodyLayout.indexOf(self.ui.tabs), self.strip)
        for attribute, module, class_name, title in TABS:  # self.area, self.survey, …
            tab_class = getattr(importlib.import_module(f"{__package__}.{module}"), class_name)
            tab = tab_class(self)
            setattr(self, attribute, tab)
            self.add_tab(tab, tr(title))
        # A tab with a run of its own shows its Run/Cancel where the survey's are, below the
        # tabs (always in view), instead of at the end of its scrolled content.
        self.tab_panels = {
            tab: tab.run_panel() for tab in self.tab_widgets() if tab.run_panel() is not None
        }
        for panel in self.tab_panels.values():
            self.ui.panelLayout.addWidget(panel)
        self._show_survey_run(self.ui.tabs.currentIndex())
        self.ui.tabs.currentChanged.connect(self._show_survey_run)
        self.panel.busyChanged.connect(lambda busy: self._show_survey_run())
        self.area.areaChanged.connect(self.survey.update_prompt_preview)
        # The survey's job runs on the dock's panel, as the other tabs' jobs do (ui/survey_job.py).
        self.survey_job = SurveyJob(self)
        self.panel.runRequested.connect(self.survey_job.run)
        self.ui.helpButton.clicked.connect(self.open_help)
        self.help_menu = QMenu(self.ui.helpButton)
        self.help_menu.addAction(tr("User guide")).triggered.connect(self.open_help)
        self.help_menu.addAction(tr("Copy diagnostics")).triggered.connect(self.copy_diagnostics)
        self.help_menu.addAction(tr("Install local model…")).triggered.connect(self.open_install)
        self.ui.helpButton.setMenu(self.help_menu)
        self.panel.runLayout.addWidget(batch_button(self))
        self.batch_dialog = None

    # ------------------------------------------------------------------ tabs
    def add_tab(self, widget, title):
        """Add a tab (in a scroll area: the dock's height never depends on a tab's content)."""
        for combo in widget.findChildren(QComboBox):
            compact_combo(combo, combo.minimumContentsLength() or 10)  # a tab may set fewer
        widget.layout().setContentsMargins(4, 6, 4, 6)  # the dock is narrow: room for fields
        for form in widget.findChildren(QFormLayout):
            # In a narrow dock a field too wide beside its label goes below it.
            form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        ignore_wheel_unless_focused(widget)  # scrolling the tab never changes a setting
        scroll = QScrollArea(self.ui.tabs)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(widget)
        index = self.ui.tabs.addTab(scroll, title)
        self.strip.add(index, title)
        # Scroll only vertically: the dock is as wide as the widest tab needs.
        bar = scroll.verticalScrollBar().sizeHint().width()
        width = max(w.minimumSizeHint().width() for w in self.tab_widgets()) + bar
        for i in range(self.ui.tabs.count()):
            self.ui.tabs.widget(i).setMinimumWidth(width)
        return index

    def _show_survey_run(self, index=None):
        """The run panel of the current tab below the tabs: its own (Regional bias) or the
        dock's; a job of the other tabs stays in sight there too, with its Cancel. The survey
        name stays: it names the output folders of every tab."""
        shown = self.current_panel()
        for panel in self.tab_panels.values():
            panel.setVisible(panel is shown)
        self.panel.setVisible(shown is self.panel or self.panel.busy)

    def current_panel(self):
        """The run panel of the current tab (the dock's, unless the tab has its own)."""
        widget = self.ui.tabs.currentWidget()
        return self.tab_panels.get(widget.widget() if widget else None, self.panel)

    def start_job(self, task, done, explain, labels=None):
        """Run a tab's background job (sampling, overlay, metrics, report, comparison) on the
        dock's run panel: one job at a time, its progress and Cancel always below the tabs.
        `explain(sentence)` shows why it stopped in the tab. False if another job runs."""
        if self.panel.busy:
            explain(
                tr("{job} is running: wait for it to finish or cancel it.").format(
                    job=self.panel.task.description()
                ),
                Qgis.MessageLevel.Info,
            )
            return False
        return self.panel.start(task, done, explain=explain, resumable=False, labels=labels)

    def tab_widgets(self):
        tabs = self.ui.tabs
        return [tabs.widget(i).widget() for i in range(tabs.count())]

    def show_tab(self, widget):
        for i, w in enumerate(self.tab_widgets()):
            if w is widget:
                self.ui.tabs.setCurrentIndex(i)

    # ------------------------------------------------------------------ settings
    def settings(self):
        """The dock's current choices."""
        from .settings import SurveySettings, default_survey_name

        s = SurveySettings(name=self.ui.nameEdit.text().strip() or default_survey_name())
        for tab in self.tab_widgets():
            tab.fill(s)
        return s

    def apply_settings(self, s):
        self.ui.nameEdit.setText(s.name)
        for tab in self.tab_widgets():
            tab.apply(s)

    def load_settings(self, *args):
        """A new or opened project: its settings, and no result of the previous one."""
        if not self.built:  # build() reads them
            return
        from .settings import SurveySettings

        self.reset_results()
        self.apply_settings(SurveySettings.read())

    def reset_results(self):
        """Empty every tab's results and the run line (a run in progress goes on)."""
        if not self.panel.busy:
            self.survey_job.plan = None
        self.panel.reset()
        for tab in self.tab_widgets():
            tab.reset()

    @property
    def plan(self):
        """The survey plan that runs or ran last (None before the survey's own task)."""
        return self.survey_job.plan

    def save_settings(self, *args):
        if not self.built:  # the project keeps the entries it was read with
            return
        self.settings().write()  # noqa: QGS201 (SurveySettings.write, not QgsProject.write)

    def area_geometry(self):
        return self.area.area_geometry()

    def job_running(self):
        """Whether a background job of the dock (survey, HERB…) is running."""
        if not self.built:
            return False
        from .run_panel import RunPanel

        return any(panel.busy for panel in self.findChildren(RunPanel))

    def refresh_runs(self, *args):
        """The tabs' lists of the project's past runs, read again (a project opened, saved)."""
        if not self.built:
            return
        from .past_runs import RunsCombo

        for combo in self.findChildren(RunsCombo):
            combo.refresh()

    # ------------------------------------------------------------------ results
    def show_results(self, layers, group_name=None, scores=None):
        """Add layers under "GeoBias — <survey>" and fill the metrics table (with the GeoBS
        scores' rows `scores`) and plot."""
        from .settings import default_survey_name

        name = group_name or self.ui.nameEdit.text().strip() or default_survey_name()
        self.results.show_results(layers, name, scores=scores)

    # ------------------------------------------------------------------ help and messages
    def open_help(self):
        """The user guide shipped with the plugin: in the system's browser, else in a QGIS
        window (ui/guide.py); its path in the message bar. Returns that window, if any."""
        from .guide import open_guide

        return open_guide(GUIDE, self, self._push_with_button)

    def copy_diagnostics(self):
        """The diagnostics report on the clipboard and in a file (ui/diagnostics.py)."""
        from .diagnostics import copy_diagnostics

        try:
            _text, path = copy_diagnostics()
        except Exception as e:  # the report of a broken install must not break the dock
            self.push(tr("Cannot make the diagnostics report: {e}.").format(e=error_sentence(e)),
                      Qgis.MessageLevel.Warning, details=e)  # fmt: skip
            return None
        self.push(
            tr("Diagnostics copied to the clipboard and saved in {path}.").format(path=path),
            Qgis.MessageLevel.Success,
        )
        return path

    def offer_install(self, problem):
        """Say the embedded model is missing, with the Options page's Install one click away;
        `problem` is host.embedded_problem()'s (sentence, details)."""
        from .local_model import model_installed

        log(str(problem[1]), Qgis.MessageLevel.Critical)
        dismiss(self.install_offer)  # one offer at a time, however often Run is pressed
        self.install_offer = self._push_with_button(
            problem[0], Qgis.MessageLevel.Critical, (tr("Install local model…"), self.open_install)
        )
        if not self.watching_install:
            model_installed().connect(self.model_installed)
            self.watching_install = True

    def model_installed(self):
        """An Install or Repair succeeded: the "model missing" entry is no longer true."""
        entry, self.install_offer = self.install_offer, None
        dismiss(entry)

    def open_install(self):
        """The Install / Repair / Remove window (ui/local_model.py), one at a time."""
        from .local_model import install_dialog

        window = self.install_window
        try:
            if window is not None and window.isVisible():
                window.raise_()
                window.activateWindow()
                return window
        except RuntimeError:  # deleted when it was closed
            pass
        self.install_window = install_dialog(self.iface.mainWindow(), self.pusher())
        return self.install_window

    def _push_with_button(self, text, level, button=None):
        """push(), or with `button` (text, slot) an entry with that button; the entry."""
        if button is None:
            return self.push(text, level)
        from .guide import message_button

        bar = self.iface.messageBar()
        widget = bar.createMessage(tr("GeoBias"), text)
        message_button(widget, *button)
        # What stops a run stays until closed, as push() keeps it.
        bar.pushWidget(widget, level, 0 if level >= Qgis.MessageLevel.Critical else 15)
        return widget

    def pusher(self):
        """push() looked up at each call (tests and the Details button may replace it)."""
        return lambda *args, **kwargs: self.push(*args, **kwargs)

    def push(self, text, level=Qgis.MessageLevel.Warning, details=None, button=None):
        """A message bar entry (returned: its caller may take it away when its cause is gone);
        details (an exception or text) go whole to the GeoBias log panel and behind the entry's
        Details button; `button` (text, slot) adds the action that fixes the cause."""
        text = strip_reprs(str(text))  # never a repr
        if details is not None:
            import traceback

            if isinstance(details, BaseException):
                details = "".join(
                    traceback.format_exception(type(details), details, details.__traceback__)
                )
            details = str(details)
            log(details, level)
        bar = self.iface.messageBar()
        widget = bar.createMessage(tr("GeoBias"), text)
        if button is not None:
            from .guide import message_button

            message_button(widget, *button)
        if details is not None:
            more = QPushButton(tr("Details"), widget)
            more.clicked.connect(lambda *_a, t=text, d=details: self.show_details(t, d))
            widget.layout().addWidget(more)
        bar.pushWidget(widget, level, 0 if level >= Qgis.MessageLevel.Critical else 8)
        return widget

    def show_details(self, text, details):
        """A message bar entry's whole story in a window: the sentence, then the full text (a
        traceback behind Show Details), with the GeoBias log one click away."""
        from .task import is_traceback

        box = QMessageBox(self.iface.mainWindow())
        box.setIcon(QMessageBox.Icon.Information)
        box.setWindowTitle(tr("GeoBias: details"))
        box.setText(text)
        if is_traceback(details):
            box.setInformativeText(tr("The traceback below is also in the GeoBias log panel."))
            box.setDetailedText(details)
        elif strip_reprs(details).strip() != text.strip():
            box.setInformativeText(strip_reprs(details))
        box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        log_button = box.addButton(tr("Open the log"), QMessageBox.ButtonRole.ActionRole)
        log_button.clicked.connect(self.iface.openMessageLog)
        box.addButton(QMessageBox.StandardButton.Close)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()  # not exec(): QGIS keeps running while it is read
        self.details_box = box
        return box

    def env_remedy(self, error):
        """(Repair…, open the Install/Repair window) when a job stopped because the local
        model's environment is missing or broken (model_env.status() says so), else None: Resume
        would fail again, Repair is the fix."""
        from ..core.runtime import model_env

        try:
            st = model_env.status()
        except Exception as e:  # noqa: BLE001 - the check is a courtesy: never hide the failure
            log(f"could not check the model environment: {e!r}", Qgis.MessageLevel.Warning)
            return None
        if st.exists and not st.missing and not st.error and (st.complete or not st.managed):
            return None
        return tr("Repair…"), self.open_install

    def close_survey(self):
        """Stop background work and release map tools before the plugin unloads."""
        from ..processing.endpoints import stop_embedded

        self.keeper.close()
        if self.built:
            self.panel.stop()
        if self.install_window is not None:
            try:
                self.install_window.widget.stop()  # cancels an install
                self.install_window.close()
                self.install_window.deleteLater()
            except RuntimeError:  # already deleted
                pass
            self.install_window = None
        if self.watching_install:
            from .local_model import model_installed

            model_installed().disconnect(self.model_installed)
            self.watching_install = False
        stop_embedded()
        for tab in self.tab_widgets() if self.built else ():
            tab.close_tab()
        project = QgsProject.instance()
        for signal, slot in (
            (project.readProject, self.load_settings),
            (project.writeProject, self.save_settings),
            (project.cleared, self.load_settings),
            (project.readProject, self.refresh_runs),
            (project.cleared, self.refresh_runs),
            (project.projectSaved, self.refresh_runs),
        ):
            try:
                signal.disconnect(slot)
            except TypeError:
                pass
        poller = getattr(self, "batch_poller", None)
        if poller is not None:
            poller.stop()
            try:
                project.readProject.disconnect(poller.resume)
            except TypeError:
                pass
