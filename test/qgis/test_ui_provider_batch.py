"""The dock's provider batches: a submitted GeoPackage is polled in the background with back-off
until its batch ends, its rated layers are then on the map and the message bar says so; the
polling resumes when the project is opened again; the survey's confirmation compares the live
run with a provider batch."""

import uuid

from qgis.core import QgsApplication, QgsProject

from geobias.core.engine.chat import Endpoint
from geobias.core.survey.run import Estimate
from geobias.test.batchservers import KEYS, BatchServer
from geobias.test.qgis.test_ui_run import capture_pushes, dock  # noqa: F401 - the dock fixture
from geobias.test.qtstub import wait_for
from geobias.ui import batch
from geobias.ui.survey_job import confirmation_text
from geobias.ui.survey_plan import Plan


def submit(tmp_path, server, authcfg, model):
    import processing

    points = processing.run("geobias:samplepoints", {"COUNT": 4, "METHOD": 1, "SEED": 5,
                                                     "OUTPUT": "memory:"})["OUTPUT"]  # fmt: skip
    return processing.run("geobias:submitbatch", {
        "INPUT": points, "PROVIDER": 1, "MODEL": model, "TOPICS": "Crime Rate",
        "AUTH_CONFIG": authcfg, "CACHE": str(tmp_path / "cache.sqlite"),
        "BATCH_URL": server.base_url, "OUTPUT": str(tmp_path / "batch.gpkg")})  # fmt: skip


def key_config():
    from geobias.ui.settings import store_api_key

    manager = QgsApplication.authManager()
    if not manager.masterPasswordIsSet():
        assert manager.setMasterPassword("geobias-test", True)
    return store_api_key("dock batch", KEYS["openai"])


def test_submitted_batch_is_polled_to_its_layers_and_resumed_on_reopen(
    dock,  # noqa: F811
    tmp_path,
    monkeypatch,
):
    pushed = capture_pushes(dock, monkeypatch)
    authcfg = key_config()
    poller = dock.batch_poller
    poller.base_s = 0.05  # the back-off's first step, in seconds (a minute in use)
    with BatchServer("openai", steps=3) as server:
        results = submit(tmp_path, server, authcfg, f"dock-{uuid.uuid4().hex[:8]}")
        assert results["N_SUBMITTED"] == 1
        batch.submitted(dock, True, results, authcfg)
        assert batch.tracked() == [{"gpkg": results["OUTPUT"], "auth": authcfg}]
        # Saved with the project and resumed when it is opened again.
        project = QgsProject.instance()
        path = str(tmp_path / "survey.qgz")
        assert project.write(path)
        poller.stop()
        project.clear()
        assert batch.tracked() == []
        assert project.read(path)
        assert batch.tracked() and poller.timer.isActive()
        wait_for(lambda: not batch.tracked(), timeout=60, what="the batch polls")
        polls = [p for p in server.log if p[0] == "GET" and p[1].startswith("/v1/batches/")]
        assert len(polls) == 3  # until it ended, then imported: no poll after that
        layers = [lyr for lyr in project.mapLayers().values() if "crime" in lyr.name().lower()]
        assert len(layers) == 1 and layers[0].featureCount() == 4
        assert any("provider batch is done" in text for text, _ in pushed)
        assert not poller.timer.isActive()  # nothing left to poll
    QgsApplication.authManager().removeAuthenticationConfig(authcfg)


def test_back_off_doubles_while_nothing_moves(dock):  # noqa: F811
    poller = dock.batch_poller
    assert poller.delay_ms() == 60_000
    poller.n_unchanged = 3
    assert poller.delay_ms() == 480_000
    poller.n_unchanged = 20
    assert poller.delay_ms() == 1_800_000


def test_the_confirmation_compares_live_and_batch(qgis_app):
    remote = Endpoint("https://api.openai.com/v1", "gpt-4o-mini", provider="openai")
    local = Endpoint("http://127.0.0.1:8080/v1", "m", provider="llamacpp")
    for eps, expect in (([remote], True), ([local], False)):
        parts = [(ep, Estimate(40, 0, 4000, 320, [ep.host()], None, 0, 40)) for ep in eps]
        plan = Plan(None, parts=parts)
        plan.estimate = Estimate(40, 0, 4000, 320, [], 0.5, 0, 40)
        text = confirmation_text(plan)
        assert ("As a provider batch" in text) == expect, text
        if expect:
            assert "40 requests at half the price, about 0.2500" in text
