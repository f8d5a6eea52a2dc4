"""Options page: endpoints persist in QgsSettings, their keys only in the auth database."""

import pytest
from qgis.core import QgsApplication, QgsSettings

from geobias.ui import settings as gs
from geobias.ui.options import GeoBiasOptionsPage

SECRET = "sk-test-GEOBIAS-0123456789abcdef"


@pytest.fixture()
def clean_settings(qgis_app):
    QgsSettings().remove(gs.SETTINGS_GROUP)
    yield QgsSettings()
    QgsSettings().remove(gs.SETTINGS_GROUP)


@pytest.fixture()
def auth_ready(qgis_app):
    manager = QgsApplication.authManager()
    if manager.isDisabled():
        pytest.skip("QGIS authentication system disabled")
    if not manager.masterPasswordIsSet() and not manager.setMasterPassword("geobias-test", True):
        pytest.skip("the test profile's auth database has another master password")
    return manager


def all_settings_text(s):
    return "\n".join(f"{k}={s.value(k)}" for k in s.allKeys())


def test_embedded_endpoint_is_default_and_read_only(clean_settings):
    from geobias.core.runtime import models

    page = GeoBiasOptionsPage()
    n = len(models.MODELS)  # one built-in endpoint per bundled model, the default first
    assert all(e.is_embedded for e in page.endpoints[:n]) and page.endpointList.count() == n
    assert page.endpoints[0].name == gs.EMBEDDED_NAME
    assert page.endpoints[0].model == models.get_model().name
    assert not page.apiKeyEdit.isEnabled() and not page.removeButton.isEnabled()
    # Each built-in model says its licence; none can be edited or removed.
    for row, e in enumerate(page.endpoints[:n]):
        page.endpointList.setCurrentRow(row)
        m = models.find_model(e.model)
        assert m.licence in page.statusLabel.text() and m.licence_url in page.statusLabel.text()
        assert not page.modelCombo.isEnabled() and not page.removeButton.isEnabled()
    page.remove()
    page.apply()
    names = [e.name for e in gs.load_endpoints()]
    assert names == [e.name for e in gs.embedded_endpoints()] and names[0] == gs.EMBEDDED_NAME
    # SmolLM2 keeps the endpoint name that projects saved before it stopped being the default.
    assert "Embedded SmolLM2 (local)" in names


def test_key_goes_to_auth_database_never_to_settings(clean_settings, auth_ready):
    page = GeoBiasOptionsPage()
    page.add()
    page.nameEdit.setText("OpenAI test")
    page.modelCombo.setEditText("gpt-4o-mini")
    page.priceInSpin.setValue(0.15)
    page.apiKeyEdit.setText(SECRET)
    page.apply()
    assert SECRET not in all_settings_text(QgsSettings())
    stored = gs.find_endpoint("OpenAI test")
    assert stored is not None and stored.model == "gpt-4o-mini"
    assert stored.price_in == pytest.approx(0.15)
    assert stored.base_url == "https://api.openai.com/v1"
    assert stored.authcfg and gs.api_key(stored.authcfg) == SECRET
    assert stored.endpoint().api_key is None  # the key is resolved only when asked
    assert stored.endpoint(with_key=True).api_key == SECRET
    assert SECRET not in repr(stored.endpoint(with_key=True))
    QgsSettings().sync()
    with open(QgsSettings().fileName(), encoding="utf-8", errors="replace") as f:
        assert SECRET not in f.read()
    # A second page shows the endpoint with a stored key and keeps it on apply.
    page2 = GeoBiasOptionsPage()
    page2.endpointList.setCurrentRow(len(gs.embedded_endpoints()))
    assert page2.authSelect.configId() == stored.authcfg and page2.apiKeyEdit.text() == ""
    page2.apply()
    assert gs.find_endpoint("OpenAI test").authcfg == stored.authcfg
    QgsApplication.authManager().removeAuthenticationConfig(stored.authcfg)


def test_remove_endpoint(clean_settings):
    page = GeoBiasOptionsPage()
    page.add()
    page.add()
    n = len(gs.embedded_endpoints())
    assert page.endpointList.count() == n + 2
    page.remove()
    page.apply()
    assert len(gs.load_endpoints()) == n + 1


@pytest.mark.integration  # the venv's xllamacpp
def test_the_python_for_the_local_model_is_checked_and_saved(clean_settings, tmp_path):
    import sys

    from geobias.host import PYTHON_SETTING, embedded_python
    from geobias.test.qtstub import wait_for

    page = GeoBiasOptionsPage()
    page.pythonEdit.setText(sys.executable)  # the venv's Python has xllamacpp and the model
    page.pythonCheckButton.click()
    wait_for(lambda: page.python_task is None, what="the check")
    assert page.pythonStatusLabel.text().startswith(f"{sys.executable} runs the model ")
    bare = tmp_path / "python3"
    bare.write_text(f'#!/bin/sh\nexec {sys.executable} -I -S "$@"\n')
    bare.chmod(0o755)
    page.pythonEdit.setText(str(bare))
    page.pythonCheckButton.click()
    wait_for(lambda: page.python_task is None, what="the check")
    assert "xllamacpp cannot be imported" in page.pythonStatusLabel.text()
    assert "pip install xllamacpp" in page.pythonStatusLabel.text()
    page.apply()
    assert embedded_python() == str(bare)
    QgsSettings().remove(PYTHON_SETTING)
    assert embedded_python() is None


def test_the_reasoning_switch_is_saved_and_reaches_the_survey(clean_settings):
    """Issue 23 item 3: a reasoning model by another name (an alias) can be surveyed."""
    from geobias.ui.settings import SurveySettings
    from geobias.ui.survey_plan import rate_params, run_endpoint

    page = GeoBiasOptionsPage()
    page.add()
    page.nameEdit.setText("alias")
    page.modelCombo.setEditText("my-o3-deployment")
    page.baseUrlEdit.setText("https://example.invalid/v1")
    assert not page.reasoningCheck.isChecked()
    page.reasoningCheck.setChecked(True)
    page.apply()
    (cfg,) = [e for e in gs.load_endpoints() if e.name == "alias"]
    assert cfg.reasoning is True
    assert run_endpoint(cfg).is_reasoning()  # the estimate's request body and cache key
    assert rate_params(SurveySettings(), cfg, None, "out.gpkg")["REASONING"] is True
    page = GeoBiasOptionsPage()  # shown again: the box is ticked
    page.select([e.name for e in page.endpoints].index("alias"))
    assert page.reasoningCheck.isChecked()


def test_an_environment_without_numpy_says_so_and_offers_repair(qgis_app):
    # Made by an install before numpy was part of the environment: complete, but HERB's
    # whole-sentence child cannot run there.
    from geobias.core.runtime.model_env import EnvStatus
    from geobias.ui.local_model import LocalModelWidget

    widget = LocalModelWidget()
    st = EnvStatus("/home/ana/.local/share/geobias/venv", True, True, True, "3.11.2",
                   "2026.10.11549", missing=["numpy"])  # fmt: skip
    widget.show_status(st)
    text = widget.envStatusLabel.text()
    assert "numpy not installed" in text and "lacks numpy" in text and "Repair" in text
    assert widget.repairButton.isEnabled()
