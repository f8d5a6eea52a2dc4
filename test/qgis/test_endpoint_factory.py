"""One endpoint factory (issue 34 item 2): every Options field reaches the run (the request,
the estimate or the runs row), and Processing builds the endpoint the dock estimated with."""

import json
from dataclasses import fields

import pytest
from qgis.core import QgsApplication, QgsProcessingContext

from geobias.processing.endpoints import make_endpoint
from geobias.processing.parameters import Connection, ConnectionParameters, is_shared_model
from geobias.processing.runs import run_record
from geobias.ui import settings as gs
from geobias.ui.settings import EndpointConfig, SurveySettings
from geobias.ui.survey_plan import rate_params, rated_path, run_endpoint

SECRET = "sk-test-GEOBIAS-factory-0123456789"


@pytest.fixture()
def stored_key(qgis_app):
    manager = QgsApplication.authManager()
    if manager.isDisabled():
        pytest.skip("QGIS authentication system disabled")
    if not manager.masterPasswordIsSet() and not manager.setMasterPassword("geobias-test", True):
        pytest.skip("the test profile's auth database has another master password")
    authcfg = gs.store_api_key("factory test", SECRET)
    assert authcfg
    yield authcfg
    manager.removeAuthenticationConfig(authcfg)


def configured(authcfg):
    """An endpoint whose every field differs from its default."""
    return EndpointConfig(
        name="Factory check",
        provider="openrouter",
        base_url="https://factory.example.invalid/v1",
        model="vendor/some-model",
        authcfg=authcfg,
        price_in=1.25,
        price_out=7.5,
        concurrency=3,
        rpm=42.0,
        reasoning=True,
        constraint="json_schema",
        tpm=9000.0,
        patience=12.0,
    )


def processing_run(params, processing_ready):
    """The Connection and Endpoint geobias:ratelocations builds from the dock's parameters."""
    alg = QgsApplication.processingRegistry().algorithmById("geobias:ratelocations")
    connection = ConnectionParameters.read(alg, params, QgsProcessingContext())
    return connection, make_endpoint(connection)


def test_every_options_field_reaches_the_run(stored_key, processing_ready, tmp_path):
    cfg = configured(stored_key)
    defaults = EndpointConfig(name="")
    changed = [f.name for f in fields(EndpointConfig) if getattr(cfg, f.name) !=
               getattr(defaults, f.name)]  # fmt: skip
    assert changed == [f.name for f in fields(EndpointConfig)]  # every field is exercised
    params = rate_params(SurveySettings(), cfg, None, "out.gpkg")
    connection, run = processing_run(params, processing_ready)
    estimate = run_endpoint(cfg)
    row = json.loads(run_record("geobias:ratelocations", params, "now", run)["endpoint"])
    reaches = {
        "name": lambda: "rated_factory_check" in rated_path(str(tmp_path), cfg),
        "provider": lambda: run.provider == row["provider"] == "openrouter",
        "base_url": lambda: run.base_url == row["base_url"] == cfg.base_url,
        "model": lambda: run.model == row["model"] == cfg.model,
        "authcfg": lambda: run.api_key == SECRET and SECRET not in json.dumps(row),
        "price_in": lambda: estimate.price_in == 1.25,
        "price_out": lambda: estimate.price_out == 7.5,
        "concurrency": lambda: run.concurrency == row["concurrency"] == 3,
        "rpm": lambda: run.rpm == row["rpm"] == 42.0,
        "tpm": lambda: run.tpm == row["tpm"] == 9000.0,
        "patience": lambda: run.patience_s == row["patience_s"] == 720.0,
        "reasoning": lambda: run.reasoning is True and row["reasoning"] is True,
        "constraint": lambda: connection.constraint == "json_schema" and row["constraint"],
    }
    # A new Options field fails here until it reaches the run.
    assert set(reaches) == {f.name for f in fields(EndpointConfig)}
    missing = [name for name, reached in reaches.items() if not reached()]
    assert missing == []
    # The estimate asks what the run asks: one factory, so the same endpoint but the prices.
    same = {k: v for k, v in estimate.public_dict().items() if not k.startswith("price")}
    assert same == {k: v for k, v in run.public_dict().items() if not k.startswith("price")}


def test_test_connection_and_diagnostics_use_the_run_factory(stored_key, processing_ready):
    """Test connection (endpoint(with_key=True)) carries the limits and the key the run has."""
    cfg = configured(stored_key)
    checked = cfg.endpoint(with_key=True)
    _connection, run = processing_run(
        rate_params(SurveySettings(), cfg, None, "out.gpkg"), processing_ready
    )
    assert checked.public_dict() == {**run.public_dict(), "price_in": 1.25, "price_out": 7.5}
    assert checked.api_key == run.api_key == SECRET
    assert cfg.endpoint().api_key is None  # the key only when asked


def test_an_unlimited_endpoint_keeps_its_parameters(processing_ready):
    """0 rpm/tpm are no limit (None on the Endpoint) and add no parameter to the dock's run."""
    cfg = EndpointConfig("plain", "openai", "", "gpt-4o-mini")
    params = rate_params(SurveySettings(), cfg, None, "out.gpkg")
    assert "RPM" not in params and "TPM" not in params
    _connection, run = processing_run(params, processing_ready)
    assert run.rpm is None and run.tpm is None


def test_one_rule_for_the_shared_local_model(processing_ready):
    embedded = gs.embedded_endpoints()[0]
    assert embedded.shared_model and embedded.connection().shared_model
    # Given the local model's URL (the dock's started server) it is an ordinary endpoint.
    assert not embedded.connection(base_url="http://127.0.0.1:8123/v1").shared_model
    assert not EndpointConfig("x", "ollama", "", "m").shared_model
    assert is_shared_model("embedded", "") and not is_shared_model("embedded", "http://h/v1")
    assert Connection().shared_model
