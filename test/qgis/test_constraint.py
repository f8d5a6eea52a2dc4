"""Issue 28, item 1 in QGIS: the answer constraint in Processing (CONSTRAINT) and in the Options
page, a message that names answers without a rating, and Test connection's rating prompt."""

import sqlite3

import pytest
from qgis.core import QgsApplication, QgsProcessingException, QgsSettings, QgsVectorLayer

from geobias.core.runtime.models import MODELS
from geobias.processing.definitions import CONSTRAINTS, PROVIDERS
from geobias.test.faultserver import PROSE, FaultServer
from geobias.test.qtstub import wait_for
from geobias.ui import settings as gs

GEMMA = MODELS["gemma3-270m"].name  # what scripts/llm.py's server calls its model


def run(alg, params):
    import processing

    return processing.run(alg, params)


@pytest.fixture()
def points(processing_ready):
    return run("geobias:samplepoints", {"COUNT": 6, "METHOD": 1, "SEED": 3,
                                        "OUTPUT": "memory:"})["OUTPUT"]  # fmt: skip


def rate(points, fs, tmp_path, constraint=None, provider="llamacpp", model=GEMMA):
    params = {"INPUT": points, "PROVIDER": PROVIDERS.index(provider), "BASE_URL": fs.base_url,
              "MODEL": model, "CONCURRENCY": 2, "TOPICS": "Infant Mortality Rate",
              "OUTPUT": str(tmp_path / "rated.gpkg")}  # fmt: skip
    if constraint is not None:
        params["CONSTRAINT"] = CONSTRAINTS.index(constraint)
    return run("geobias:ratelocations", params)


@pytest.mark.parametrize("provider", ["llamacpp", "custom"])
def test_a_bundled_model_behind_a_plain_server_is_constrained_by_default(points, tmp_path,
                                                                         provider):  # fmt: skip
    with FaultServer(always="prose") as fs:
        res = rate(points, fs, tmp_path, provider=provider)
    layer = QgsVectorLayer(res["OUTPUT_LAYERS"][0], "r", "ogr")
    assert res["N_ANSWERED"] == 6 and layer.featureCount() == 6
    with sqlite3.connect(str(tmp_path / "rated.gpkg")) as con:
        (endpoint,) = con.execute("SELECT endpoint FROM runs").fetchone()
    assert '"constraint": "grammar"' in endpoint


def test_answers_without_a_rating_say_so_quote_one_and_suggest_the_constraint(points, tmp_path):
    with FaultServer(always="prose") as fs, pytest.raises(QgsProcessingException) as err:
        rate(points, fs, tmp_path, constraint="none")
    message = str(err.value)
    assert "None of the 6 answers" in message and "held a rating" in message
    assert PROSE in message
    assert CONSTRAINTS.label("grammar") in message and "larger model" in message
    assert "reachable" not in message
    # The prose stays in the cache for inspection; the default constraint asks again.
    with FaultServer(always="prose") as fs:
        res = rate(points, fs, tmp_path)
        assert fs.n_requests == 6
    assert res["N_ANSWERED"] == 6


def test_failed_requests_still_point_at_the_endpoint(points, tmp_path):
    with FaultServer(always="400") as fs, pytest.raises(QgsProcessingException) as err:
        rate(points, fs, tmp_path, model="unknown-model")
    # Every request refused the same way: the run stops early and names the endpoint's answer
    # (no constraint advice for answers that never came).
    text = str(err.value)
    assert "HTTP 400" in text and fs.base_url.split("/")[2] in text and "constraint" not in text


def test_every_rating_algorithm_has_the_constraint_and_probes_do_not(processing_ready):
    registry = QgsApplication.processingRegistry()
    for alg_id in ("ratelocations", "survey", "ablation", "exportbatch"):
        param = registry.algorithmById(f"geobias:{alg_id}").parameterDefinition("CONSTRAINT")
        assert param is not None and param.options() == CONSTRAINTS.labels(), alg_id
        assert param.defaultValue() == CONSTRAINTS.index("auto")
    assert registry.algorithmById("geobias:probes").parameterDefinition("CONSTRAINT") is None


@pytest.fixture()
def clean_settings(qgis_app):
    QgsSettings().remove(gs.SETTINGS_GROUP)
    yield QgsSettings()
    QgsSettings().remove(gs.SETTINGS_GROUP)


def test_options_page_keeps_a_constraint_per_endpoint_and_tests_with_a_rating_prompt(
    clean_settings,
):
    from geobias.ui.options import GeoBiasOptionsPage

    with FaultServer(always="prose") as fs:
        page = GeoBiasOptionsPage()
        assert [page.providerCombo.itemText(i) for i in range(page.providerCombo.count())] == (
            PROVIDERS.labels()
        )
        page.add()
        page.nameEdit.setText("My llama.cpp")
        page.providerCombo.setCurrentIndex(page.providerCombo.findData("llamacpp"))
        page.baseUrlEdit.setText(fs.base_url)
        page.modelCombo.setEditText("fault")  # the fault server's only model
        page.constraintCombo.setCurrentIndex(page.constraintCombo.findData("none"))
        page.testButton.click()
        wait_for(lambda: page.task is None, what="the connection test")
        text = page.statusLabel.text()
        assert "model fault is available" in text and "holds no rating" in text, text
        assert PROSE in text and CONSTRAINTS.label("grammar") in text
        page.constraintCombo.setCurrentIndex(page.constraintCombo.findData("grammar"))
        page.testButton.click()
        wait_for(lambda: page.task is None, what="the connection test")
        assert "rating" in page.statusLabel.text() and "My answer is" in page.statusLabel.text()
        # What the endpoint can do (issue 31 item 3), from the probe's requests.
        assert "Log-probabilities with" in page.statusLabel.text(), page.statusLabel.text()
        assert "n=2 returned 1 choice(s)" in page.statusLabel.text()
        from geobias.core.engine.capabilities import PROBE_REQUESTS

        # a rating prompt and the probe (log-probabilities taken: not asked twice)
        assert fs.n_requests == 2 * (1 + PROBE_REQUESTS - 1)
        page.apply()
    stored = gs.find_endpoint("My llama.cpp")
    assert stored.constraint == "grammar" and stored.endpoint().constraint == "grammar"
