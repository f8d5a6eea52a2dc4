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
from ..host import embedded_problem
from ..i18n_util import QT_TRANSLATE_NOOP, tr, translate
from ..paths import GUIDE
from ..processing.endpoints import stop_embedded
from . import survey_plan
from .area_tab import AreaTab
from .compare_tab import CompareTab
from .herb_tab import HerbTab
from .narrow import TabStrip
from .outputs import OutputKeeper
from .overlay_tab import OverlayTab
from .past_runs import RunsCombo
from .results_tab import ResultsTab
from .run_panel import RunPanel
from .settings import SurveySettings, default_survey_name
from .survey_tab import SurveyTab
from .task import error_sentence, log
from .wheel import ignore_wheel_unless_focused

FORM, _ = uic.loadUiType(os.path.join(os.path.dirname(__file__), "dock.ui"))


def step_labels():
    """What the progress line says when a step of the run starts (by algorithm or label)."""
    return {
        "embedded": tr("Starting the embedded model…"),
        "geobias:ratelocations": tr("Rating the points…"),
        "geobias:samplegroundtruth": tr("Sampling the ground truth…"),
        "collect": tr("Styling the layers…"),
        "geobias:biasmetrics": tr("Computing the bias metrics…"),
        "load": tr("Loading the layers…"),
    }


def confirmation_text(plan):
    """What the survey will ask of which model, how long it should take (from the rate each
    model had on this machine before), its cost, and the question."""
    from ..processing.endpoints import model_label
    from ..processing.progress import estimate_text, remembered_left, survey_key

    est = plan.estimate
    cost = (
        tr("Estimated cost: {c:.4f} (at the prices set in the options).").format(c=est.cost)
        if est.cost is not None
        else tr("No price is set for these endpoints.")
    )
    lines = []
    for ep, part in plan.parts:
        if not part.n_requests:
            continue
        left, runs = remembered_left(survey_key(ep), part.n_requests)
        lines.append(
            tr("• {model} at {host}: {n} requests, {time}").format(
                model=model_label(ep.model), host=ep.host(), n=part.n_requests,
                time=estimate_text(left, runs),
            )
        )  # fmt: skip
    from .batch import batch_alternative

    alternative = batch_alternative(plan)
    if alternative:  # live or batch: the user sees the choice
        cost = f"{cost}\n{alternative}"
    return tr(
        "{n} requests will be sent ({cached} of {total} answers come from the cache):\n"
        "{models}\nAbout {tok} prompt tokens.\n{cost}\n\nStart the survey?"
    ).format(
        n=est.n_requests,
        cached=est.n_cached,
        total=est.n_total or est.n_requests + est.n_cached,
        models="\n".join(lines) or ", ".join(est.hosts),
        tok=est.prompt_tokens,
        cost=cost,
    )


def prepare_labels(n):
    """What the progress line says while a survey is prepared (points sampled, requests
    counted) before its confirmation."""
    return {
        "geobias:samplepoints": translate("@default", "Sampling %n point(s)…", None, n),
        "points": tr("Reading the points…"),
        "estimate": tr("Counting the requests…"),
    }


def compact_combo(combo, chars=10):
    """A combo box whose width does not grow with its longest item (long layer names, prompt
    presets): the dock stays narrow and the full text shows when the list opens."""
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(chars)


# The dock's tabs in order: (dock attribute, class, title). A new tab is its module (a DockTab,
# ui/tab.py) with its .ui file, and one line here.
TABS = (
    ("area", AreaTab, QT_TRANSLATE_NOOP("@default", "Area")),
    ("survey", SurveyTab, QT_TRANSLATE_NOOP("@default", "Survey")),
    ("results", ResultsTab, QT_TRANSLATE_NOOP("@default", "Results")),
    ("overlay", OverlayTab, QT_TRANSLATE_NOOP("@default", "Overlay")),
    ("herb", HerbTab, QT_TRANSLATE_NOOP("@default", "Regional bias")),
    ("compare", CompareTab, QT_TRANSLATE_NOOP("@default", "Compare")),
)


class GeoBiasDock(QDockWidget):
    """Draw or pick a study area, choose topics and models, run, read the bias."""

    def __init__(self, iface, parent=None):
        super().__init__(tr("GeoBias"), parent or iface.mainWindow())
        self.iface = iface
        self.canvas = iface.mapCanvas()
        self.body = QWidget(self)
        self.ui = FORM()
        self.ui.setupUi(self.body)
        self.setWidget(self.body)
        self.plan = None
        self.panel = RunPanel(
            self.body, tr("Run survey"), tr("Resume survey"), self.pusher(), step_labels()
        )
        self.ui.panelLayout.addWidget(self.panel)
        # The tabs as buttons that wrap onto a second row in a narrow dock.
        self.strip = TabStrip(self.ui.tabs, self.body)
        self.ui.bodyLayout.insertWidget(self.ui.bodyLayout.indexOf(self.ui.tabs), self.strip)
        for attribute, tab_class, title in TABS:  # self.area, self.survey, …
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
        self.panel.runRequested.connect(self.run)
        self.ui.helpButton.clicked.connect(self.open_help)
        self.help_menu = QMenu(self.ui.helpButton)
        self.help_menu.addAction(tr("User guide")).triggered.connect(self.open_help)
        self.help_menu.addAction(tr("Copy diagnostics")).triggered.connect(self.copy_diagnostics)
        self.help_menu.addAction(tr("Install local model…")).triggered.connect(self.open_install)
        self.ui.helpButton.setMenu(self.help_menu)
        self.install_window = None
        from .batch import batch_button

        self.panel.runLayout.addWidget(batch_button(self))
        self.batch_dialog = None
        project = QgsProject.instance()
        project.readProject.connect(self.load_settings)
        project.writeProject.connect(self.save_settings)
        project.cleared.connect(self.load_settings)
        self.load_settings()
        # Outputs stay with the project: moved beside it when saved, a warning before loss.
        self.keeper = OutputKeeper(iface, self.pusher(), self, running=lambda: self.job_running())
        for signal in (project.readProject, project.cleared, project.projectSaved):
            signal.connect(self.refresh_runs)

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
        self.reset_results()
        self.apply_settings(SurveySettings.read())

    def reset_results(self):
        """Empty every tab's results and the run line (a run in progress goes on)."""
        if not self.panel.busy:
            self.plan = None
        self.panel.reset()
        for tab in self.tab_widgets():
            tab.reset()

    def save_settings(self, *args):
        self.settings().write()  # noqa: QGS201 (SurveySettings.write, not QgsProject.write)

    def area_geometry(self):
        return self.area.area_geometry()

    def job_running(self):
        """Whether a background job of the dock (survey, HERB…) is running."""
        return any(panel.busy for panel in self.findChildren(RunPanel))

    def refresh_runs(self, *args):
        """The tabs' lists of the project's past runs, read again (a project opened, saved)."""
        for combo in self.findChildren(RunsCombo):
            combo.refresh()

    # ------------------------------------------------------------------ run
    def run(self):
        """Confirm what will be sent, then run the survey algorithms as a background task.

        The points are sampled (unless previewed) and the requests counted in a first
        background job; the confirmation follows, then the survey's own task."""
        if self.panel.busy:
            return
        self.plan = None  # set when the survey's own task starts
        s = self.settings()
        area = self.area.study_area()
        if area is None:
            self.push(tr("Draw or pick a study area first."), Qgis.MessageLevel.Warning)
            return
        if not s.topics or not s.endpoints:
            self.push(tr("Tick at least one topic and one model."), Qgis.MessageLevel.Warning)
            return
        mismatches = self.survey.mismatches()
        if mismatches and not self.confirm_truth(mismatches):
            return
        s = self.settings()  # with the confirmations
        s.write()  # noqa: QGS201 (SurveySettings.write, not QgsProject.write)
        if survey_plan.uses_embedded(s):
            # Before sampling and the confirmation: say what to install, not fail afterwards.
            problem = embedded_problem()
            if problem:
                self.offer_install(problem)
                return
        preview = None
        if self.area.preview_layer is not None and self.area.preview_points is not None:
            preview = (self.area.preview_layer, self.area.preview_points)
        try:
            task = survey_plan.prepare_task(s, area, preview)
        except Exception as e:
            self.push(
                tr("Cannot start the survey: {e}.").format(e=error_sentence(e)),
                Qgis.MessageLevel.Warning,
            )
            return
        self.panel.start(
            task, lambda t: self._prepared(t, s), stopped_sentence=self.cannot_start,
            resumable=False, labels=prepare_labels(s.n_points),
        )  # fmt: skip

    @staticmethod
    def cannot_start(reason):
        return tr("Cannot start the survey: {e}.").format(e=reason)

    def _prepared(self, task, s):
        """Points sampled and requests counted: confirm, build the plan and start it."""
        prepared = task.results[-1]
        try:
            plan = survey_plan.plan(s, None, prepared["LAYER"], estimate=False,
                               lonlat=prepared["LONLAT"])  # fmt: skip
        except Exception as e:
            self.panel.set_text("")
            self.push(
                tr("Cannot start the survey: {e}.").format(e=error_sentence(e)),
                Qgis.MessageLevel.Warning,
                details=e,
            )
            return
        plan.estimate, plan.parts = prepared["ESTIMATE"], prepared.get("PARTS", [])
        self.panel.set_text("")
        if plan.note:
            self.push(plan.note, Qgis.MessageLevel.Info)
        if plan.estimate is not None and plan.estimate.n_requests and not self.confirm(plan):
            self.panel.set_text(tr("Not started."))
            return
        self.start(plan)

    def confirm_truth(self, mismatches):
        """Ask before rank errors compare a topic with a field whose name does not name it."""
        lines = "\n".join(
            tr("• {topic} ← field {field}").format(topic=t, field=f) for t, f in mismatches
        )
        text = tr(
            "The rank errors will compare these ratings with a ground truth whose name does "
            "not say it measures the topic:\n\n{lines}\n\nDoes each field measure its topic?"
        ).format(lines=lines)
        answer = QMessageBox.question(
            self,
            tr("GeoBias: ground truth"),
            text,
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer != QMessageBox.StandardButton.Yes:
            self.push(
                tr("Not started: choose the ground truth of each topic in the Survey tab."),
                Qgis.MessageLevel.Info,
            )
            self.show_tab(self.survey)
            return False
        self.survey.confirmed.update(mismatches)
        return True

    def confirm(self, plan):
        text = confirmation_text(plan)
        answer = QMessageBox.question(
            self,
            tr("GeoBias survey"),
            text,
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.Yes,
        )
        return answer == QMessageBox.StandardButton.Yes

    def start(self, plan):
        """Start the plan's task; progress, results and errors come back through the panel."""
        self.plan = plan
        self.panel.start(
            plan.task, self._completed, stopped_sentence=self.stopped_sentence,
            cancelled_text=tr(
                "Cancelled. Answers so far are cached: Resume continues where it stopped."
            ),
        )  # fmt: skip

    def cancel(self):
        self.panel.cancel()

    def stopped_sentence(self, reason):
        """'The survey stopped: <reason>; 8 of 20 answers are cached, Resume continues.'"""
        if reason[:1].isupper() and reason[1:2].islower():  # "The endpoint…" mid-sentence
            reason = reason[0].lower() + reason[1:]
        reason = reason.rstrip(". ")  # a whole sentence from Processing (a stopped run)
        counts = None
        if self.plan is not None and self.plan.recount is not None:
            try:
                est = self.plan.recount()
                counts = (est.n_cached, est.n_total or est.n_requests + est.n_cached)
            except Exception as e:  # the count is a courtesy: never hide the reason
                log(f"could not count the cached answers: {e!r}", Qgis.MessageLevel.Warning)
        if counts is None:
            return tr("The survey stopped: {reason}.").format(reason=reason)
        if "Resume" in reason:  # an early stop already says what Resume does: say it once
            text = tr("The survey stopped: {reason}. {cached} of {total} answers are cached.")
            return text.format(reason=reason, cached=counts[0], total=counts[1])
        return tr(
            "The survey stopped: {reason}; {cached} of {total} answers are cached, Resume "
            "continues."
        ).format(reason=reason, cached=counts[0], total=counts[1])

    def _completed(self, task):
        try:
            layers = self.plan.load(task.results)
        except Exception as e:
            self.push(
                tr("Could not load the results: {e}.").format(e=error_sentence(e)),
                Qgis.MessageLevel.Critical,
                details=e,
            )
            return
        self.area.points_band.reset()  # the rated points replace the preview on the map
        self.results.columns.update(self.plan.columns)
        self.show_results(layers)
        self.panel.succeeded(task)

    # ------------------------------------------------------------------ results
    def show_results(self, layers, group_name=None):
        """Add layers under "GeoBias — <survey>" and fill the metrics table and plot."""
        name = group_name or self.ui.nameEdit.text().strip() or default_survey_name()
        self.results.show_results(layers, name)

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
        log(str(problem[1]), Qgis.MessageLevel.Critical)
        self._push_with_button(problem[0], Qgis.MessageLevel.Critical,
                               (tr("Install local model…"), self.open_install))  # fmt: skip

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
        """push(), or with `button` (text, slot) an entry with that button."""
        if button is None:
            self.push(text, level)
            return
        from .guide import message_button

        bar = self.iface.messageBar()
        widget = bar.createMessage(tr("GeoBias"), text)
        message_button(widget, *button)
        # What stops a run stays until closed, as push() keeps it.
        bar.pushWidget(widget, level, 0 if level >= Qgis.MessageLevel.Critical else 15)

    def pusher(self):
        """push() looked up at each call (tests and the Details button may replace it)."""
        return lambda *args, **kwargs: self.push(*args, **kwargs)

    def push(self, text, level=Qgis.MessageLevel.Warning, details=None):
        """A message bar entry; details (an exception or text) go to the GeoBias log panel."""
        if details is not None:
            import traceback

            if isinstance(details, BaseException):
                details = "".join(
                    traceback.format_exception(type(details), details, details.__traceback__)
                )
            log(str(details), level)
        bar = self.iface.messageBar()
        widget = bar.createMessage(tr("GeoBias"), strip_reprs(str(text)))  # never a repr
        if details is not None:
            button = QPushButton(tr("Details"), widget)
            button.clicked.connect(self.iface.openMessageLog)
            widget.layout().addWidget(button)
        bar.pushWidget(widget, level, 0 if level >= Qgis.MessageLevel.Critical else 8)

    def close_survey(self):
        """Stop background work and release map tools before the plugin unloads."""
        self.keeper.close()
        self.panel.stop()
        if self.install_window is not None:
            try:
                self.install_window.widget.stop()  # cancels an install
                self.install_window.close()
                self.install_window.deleteLater()
            except RuntimeError:  # already deleted
                pass
            self.install_window = None
        stop_embedded()
        for tab in self.tab_widgets():
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
