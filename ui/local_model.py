"""*Install local model*, *Repair* and *Remove* (core/runtime/model_env.py) as a background job.

The widget sits on the Options page and in a dialog the dock opens when the embedded model is
missing. Its job runs through the one run panel (ui/run_panel.py): progress, Cancel, why it
stopped; pip's lines go to the log box. Everything installed goes into GeoBias's own model
environment, made by a child Python: QGIS's own Python gains nothing.
"""

import os

from qgis.core import Qgis, QgsApplication, QgsTask
from qgis.PyQt import uic
from qgis.PyQt.QtCore import QObject, pyqtSignal
from qgis.PyQt.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QMessageBox,
    QVBoxLayout,
    QWidget,
)

from ..core.runtime import model_env, models
from ..core.wording import shortened
from ..i18n_util import tr, translate
from .notice import Notice
from .run_panel import RunPanel
from .task import AlgorithmChainTask, log

__all__ = ["EnvJobTask", "LocalModelWidget", "install_dialog", "model_installed", "step_labels"]

FORM, _ = uic.loadUiType(os.path.join(os.path.dirname(__file__), "local_model.ui"))


def step_labels():
    """What the progress line says for each of model_env's steps."""
    return {
        "python": tr("Finding a Python for the model environment…"),
        "venv": tr("Creating the model environment…"),
        "xllamacpp": tr("Installing xllamacpp and numpy…"),
        "model": tr("Installing the model's packages…"),
        "reassemble": tr("Reassembling the model file…"),
        "verify": tr("Starting the model and asking it one question…"),
        "remove": tr("Removing the model environment…"),
    }


def fmt_bytes(n):
    """'812 MB', '1.2 GB'."""
    if n >= 1e9:
        return tr("{n} GB").format(n=f"{n / 1e9:.1f}")
    return tr("{n} MB").format(n=f"{n / 1e6:.0f}")


class _InstalledNotifier(QObject):
    """Tells open docks that an Install or Repair succeeded (from the Options page or the
    dock's window): their "model missing" messages are no longer true."""

    installed = pyqtSignal()


_NOTIFIER = _InstalledNotifier()


def model_installed():
    """The signal emitted after a successful Install or Repair."""
    return _NOTIFIER.installed


class EnvJobTask(AlgorithmChainTask):
    """One model_env job (install, repair or remove) in the task's thread; `line` carries each
    output line to the log box, `env_error` the whole sentence of a refusal."""

    line = pyqtSignal(str)

    def __init__(self, description, action, model=None, wheels=None):
        super().__init__(description, [(self._work, action)])
        self.action, self.model, self.wheels = action, model, wheels or None
        self.env_error = ""
        self._step = None
        self._labels = step_labels()

    def _progress(self, fraction, step, line):
        self.feedback.setProgress(100.0 * fraction)
        if step != self._step:
            self._step = step
            self.feedback.setProgressText(self._labels.get(step, step))
        if line:
            self.line.emit(line)

    def _work(self, task):
        cancelled = self.feedback.isCanceled
        try:
            if self.action == "remove":
                return {"removed": model_env.remove(self._progress)}
            run = model_env.repair if self.action == "repair" else model_env.install
            return {"result": run(self.model, self.wheels, self._progress, cancelled)}
        except model_env.CancelledError:
            self.feedback.cancel()
            return {}
        except model_env.EnvError as e:  # a sentence for the user (what to install, why)
            self.env_error = str(e)
            self.fail(str(e))
            return {}


class LocalModelWidget(QWidget, FORM):
    """The model environment's state, and Install / Repair / Remove with their log."""

    changed = pyqtSignal()  # a job finished: the environment may differ

    def __init__(self, parent=None, push=None):
        super().__init__(parent)
        self.setupUi(self)
        self.push = push or self._push_here
        self.panel = RunPanel(self, tr("Install local model"), tr("Install local model"),
                              self.push, step_labels())  # fmt: skip
        self.panel.runButton.setObjectName("installButton")
        self.panel.runButton.setToolTip(
            tr("Make GeoBias's own Python environment for the local model and install it "
               "there (QGIS's Python is not changed)")
        )  # fmt: skip
        self.panelLayout.addWidget(self.panel)
        self.notice = Notice(self)
        self.panelLayout.addWidget(self.notice)
        for m in models.MODELS.values():
            self.installModelCombo.addItem(m.label, m.key)
        self.installModelCombo.setCurrentIndex(
            self.installModelCombo.findData(models.DEFAULT_MODEL)
        )
        self.panel.runRequested.connect(lambda: self.start("install"))
        self.repairButton.clicked.connect(lambda: self.start("repair"))
        self.removeEnvButton.clicked.connect(lambda: self.start("remove"))
        self.wheelBrowseButton.clicked.connect(self.choose_wheels)
        self.panel.busyChanged.connect(self._busy)
        self.status = None
        self.status_task = None
        self._again = False
        self.last_result = None
        self.refresh()

    # --- the environment's state -------------------------------------------------------
    def refresh(self):
        """Look at the environment in the background (its Python answers in a child)."""
        if self.status_task is not None:
            self._again = True  # the environment changed while it was being read
            return
        self._again = False
        self.envStatusLabel.setText(tr("Looking at the model environment…"))

        def done(exception, status=None):
            self.status_task = None
            if self._again:
                self.refresh()
                return
            if exception is not None:
                log(f"model environment status failed: {exception!r}", Qgis.MessageLevel.Warning)
                self.envStatusLabel.setText(tr("The model environment could not be read."))
                return
            self.show_status(status)

        self.status_task = QgsTask.fromFunction(
            tr("GeoBias: looking at the local model"), lambda task: model_env.status(),
            on_finished=done,
        )  # fmt: skip
        QgsApplication.taskManager().addTask(self.status_task)

    def show_status(self, st):
        """Say what is installed, where, and the disk it uses."""
        self.status = st
        if not st.exists:
            text = tr("The local model is not installed ({venv} does not exist).").format(
                venv=st.venv
            )
        else:
            installed = [models.MODELS[k].label for k, m in st.models.items() if m["installed"]]
            text = tr("Model environment: {venv} (Python {python}, xllamacpp {x}, numpy {n})."
                      ).format(venv=st.venv, python=st.python_version or "?",
                               x=st.xllamacpp or tr("not installed"),
                               n=st.numpy or tr("not installed"))  # fmt: skip
            text += " " + (
                tr("Models installed: {names}.").format(names=", ".join(installed))
                if installed
                else tr("No model is installed.")
            )
            if st.missing and (st.complete or not st.managed):
                # An environment made before numpy was part of it: the survey runs, HERB's
                # whole-sentence scoring does not.
                text += " " + tr(
                    "It lacks {names}, which the local model's features need: Repair installs them."
                ).format(names=", ".join(st.missing))
            if st.managed and not st.complete:
                text += " " + tr("The last install did not finish: Repair or Remove it.")
            elif not st.managed:
                text += " " + tr("It was made by hand: Remove leaves it alone.")
            if st.error:
                text += " " + st.error
        text += " " + tr("Disk used: {size}.").format(size=fmt_bytes(st.disk_bytes))
        self.envStatusLabel.setText(text)
        self._busy(self.panel.busy)

    def _busy(self, busy):
        exists = self.status is not None and self.status.exists
        self.repairButton.setEnabled(not busy and exists)
        self.removeEnvButton.setEnabled(not busy and exists)
        self.installModelCombo.setEnabled(not busy)
        self.wheelEdit.setEnabled(not busy)
        self.wheelBrowseButton.setEnabled(not busy)

    # --- jobs ----------------------------------------------------------------------------
    def choose_wheels(self):
        folder = QFileDialog.getExistingDirectory(
            self, tr("Folder of wheels for an offline install"), self.wheelEdit.text()
        )
        if folder:
            self.wheelEdit.setText(folder)

    def confirm_remove(self):
        answer = QMessageBox.question(
            self, tr("Remove the local model"),
            tr("Delete the model environment and the model files Install local model made "
               "({size})? Surveys and their cached answers are kept."
               ).format(size=fmt_bytes(self.status.disk_bytes if self.status else 0)),
        )  # fmt: skip
        return answer == QMessageBox.StandardButton.Yes

    def start(self, action):
        """Start Install, Repair or Remove in the background (False when one already runs)."""
        if self.panel.busy:
            return False
        if action == "remove" and not self.confirm_remove():
            return False
        self.notice.clear_text()
        self.logView.clear()
        descriptions = {
            "install": tr("GeoBias: installing the local model"),
            "repair": tr("GeoBias: repairing the local model"),
            "remove": tr("GeoBias: removing the local model"),
        }
        task = EnvJobTask(descriptions[action], action, self.installModelCombo.currentData(),
                          self.wheelEdit.text().strip())  # fmt: skip
        task.line.connect(self.logView.appendPlainText)
        started = self.panel.start(
            task, self._done, explain=lambda sentence: self._failed(task, sentence),
            resumable=False, labels={},
            cancelled_text=tr("Cancelled. Remove deletes what was made so far; Install "
                              "continues it."),
        )  # fmt: skip
        if started:
            task.taskTerminated.connect(self._after)
        return started

    def _done(self, task):
        result = task.results[-1] if task.results else {}
        self.panel.succeeded(task)
        if "result" in result:
            r = result["result"]
            self.last_result = r
            # The check shows that the model runs and answers, not what it knows: a base model
            # may repeat the question, and then the check did not pass (model_env.answers_check).
            if r.answered:
                check = tr("Check passed: asked “{question}”, the model answered “{answer}”.")
            elif r.answer:
                check = tr("Check not passed: the model runs but did not answer “{question}”: "
                           "its reply “{answer}” only repeats the question.")  # fmt: skip
            else:
                check = tr("Check not passed: the model runs but gave an empty reply to "
                           "“{question}”.")  # fmt: skip
            text = tr("Installed {model} in {venv}. {check} Disk used: {size}.").format(
                model=models.MODELS[r.model].label, venv=r.venv, size=fmt_bytes(r.disk_bytes),
                check=check.format(question=model_env.CHECK_PROMPT, answer=shortened(r.answer)),
            )  # fmt: skip
            level = Qgis.MessageLevel.Success if r.answered else Qgis.MessageLevel.Warning
            self.notice.show_text(text, level)
            _NOTIFIER.installed.emit()
        else:
            n = len(result.get("removed", []))
            self.notice.show_text(
                translate("@default", "Removed the model environment (%n item(s)).", None, n),
                Qgis.MessageLevel.Success,
            )
        self._after()

    def _failed(self, task, sentence):
        self.notice.show_text(task.env_error or sentence, Qgis.MessageLevel.Critical)
        if task.env_error:  # the whole sentence is in the notice, below
            self.panel.set_text(tr("Stopped."))

    def _after(self):
        self.refresh()
        self.changed.emit()

    def _push_here(self, text, level, details=None):
        """Without a message bar: the failure in the widget's own notice, details logged."""
        if details:
            log(str(details), level)
        self.notice.show_text(text, level)

    def stop(self):
        self.panel.stop()


def install_dialog(parent, push=None):
    """A window with the same Install / Repair / Remove (the dock offers it when the embedded
    model is missing). Returns it shown, not modal: the install runs in the background."""
    dialog = QDialog(parent)
    dialog.setObjectName("GeoBiasInstallDialog")
    dialog.setWindowTitle(tr("GeoBias: install the local model"))
    layout = QVBoxLayout(dialog)
    widget = LocalModelWidget(dialog, push)
    layout.addWidget(widget)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, dialog)
    buttons.rejected.connect(dialog.reject)
    layout.addWidget(buttons)
    dialog.widget = widget
    dialog.finished.connect(lambda _r: None if widget.panel.busy else dialog.deleteLater())
    dialog.resize(560, 420)
    dialog.show()
    return dialog
