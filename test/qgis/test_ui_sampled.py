"""Issue 31 item 4, the dock: the Survey tab offers the sampled score with its draws (Processing's
SAMPLES, one set of limits), the draws are saved with the project, the estimate counts them and
a dock survey against a local chat server writes the sampled mean and its standard error."""

import pytest
from qgis.core import QgsApplication, QgsGeometry, QgsProject

from geobias.core.engine.capabilities import PROBE_REQUESTS
from geobias.core.survey.sampled import first_digit
from geobias.processing.definitions import SAMPLES_DEFAULT, SAMPLES_MAX, SAMPLES_MIN
from geobias.test.faultserver import FaultServer, prompt_rating
from geobias.test.qtstub import wait_for
from geobias.ui import survey_plan
from geobias.ui.dock import GeoBiasDock
from geobias.ui.settings import EndpointConfig, SurveySettings, save_endpoints
from geobias.ui.survey_job import confirmation_text

TOPIC = "Infant Mortality Rate"
FRANCE = "POLYGON((-1 43.5,6 43.5,6 49,-1 49,-1 43.5))"


@pytest.fixture()
def dock(qgis_iface, qgis_new_project, processing_ready):
    d = GeoBiasDock(qgis_iface)
    yield d
    d.close_survey()
    d.deleteLater()
    save_endpoints([])


def choose_sampled(tab, k):
    tab.scoreCombo.setCurrentIndex(tab.scoreCombo.findData("sampled"))
    tab.drawsSpin.setValue(k)


def test_the_draws_box_takes_processings_limits_and_counts_for_the_sampled_score_only(dock):
    tab = dock.survey
    samples = QgsApplication.processingRegistry().algorithmById(
        "geobias:ratelocations").parameterDefinition("SAMPLES")  # fmt: skip
    assert (samples.defaultValue(), samples.minimum(), samples.maximum()) == (
        SAMPLES_DEFAULT, SAMPLES_MIN, SAMPLES_MAX)  # fmt: skip
    spin = tab.drawsSpin
    assert (spin.value(), spin.minimum(), spin.maximum()) == (
        SAMPLES_DEFAULT, SAMPLES_MIN, SAMPLES_MAX)  # fmt: skip
    assert tab.scoreCombo.currentData() == "auto" and not spin.isEnabled()
    assert tab.scoreCombo.findData("sampled") >= 0
    choose_sampled(tab, 4)
    assert spin.isEnabled()
    s = dock.settings()
    assert (s.score, s.samples) == ("sampled", 4)
    cfg = EndpointConfig("stub", "custom", "http://127.0.0.1:9/v1", "m")
    params = survey_plan.rate_params(s, cfg, None, "out.gpkg")
    assert params["SAMPLES"] == 4 and params["SCORE"] == 3  # Processing's sampled score
    tab.scoreCombo.setCurrentIndex(tab.scoreCombo.findData("greedy"))
    assert not spin.isEnabled()
    assert "SAMPLES" not in survey_plan.rate_params(dock.settings(), cfg, None, "out.gpkg")


def test_the_draws_are_saved_with_the_project_and_restored_on_reopen(dock, tmp_path):
    choose_sampled(dock.survey, 7)
    path = str(tmp_path / "sampled.qgz")
    project = QgsProject.instance()
    assert project.write(path)
    project.clear()  # a new project: the defaults
    assert dock.survey.drawsSpin.value() == SAMPLES_DEFAULT
    assert dock.survey.scoreCombo.currentData() == "auto"
    assert project.read(path)
    assert SurveySettings.read().samples == 7
    assert dock.survey.scoreCombo.currentData() == "sampled"
    assert dock.survey.drawsSpin.value() == 7 and dock.survey.drawsSpin.isEnabled()


def sampled_survey(dock, monkeypatch, fs, k, n, name):
    """Run a dock survey of `n` points with the sampled score at `k` draws against `fs`;
    returns the confirmation's text and the rated layer's features."""
    save_endpoints([EndpointConfig("stub", "custom", fs.base_url, "fault", concurrency=2)])
    dock.ui.nameEdit.setText(name)
    dock.area.drawn = QgsGeometry.fromWkt(FRANCE)
    dock.area.drawRadio.setChecked(True)
    dock.area.nPointsSpin.setValue(n)
    dock.area.methodCombo.setCurrentIndex(dock.area.methodCombo.findData("uniform"))
    dock.survey.set_checked_topics([TOPIC])
    dock.survey.refresh_models({"stub"})
    choose_sampled(dock.survey, k)
    shown = []
    monkeypatch.setattr(dock.survey_job, "confirm",
                        lambda plan: shown.append(confirmation_text(plan)) or True)  # fmt: skip
    dock.survey_job.run()
    wait_for(lambda: dock.panel.task is None)
    assert shown, "the survey asked for no confirmation"
    group = QgsProject.instance().layerTreeRoot().findGroup(f"GeoBias — {name}")
    rated = [nd.layer() for nd in group.findLayers()
             if nd.layer().fields().lookupField("score") >= 0]  # fmt: skip
    assert len(rated) == 1
    feats = list(rated[0].getFeatures())
    assert len(feats) == n and {f["score_kind"] for f in feats} == {"sampled"}
    return shown[0], feats


def test_a_dock_survey_with_the_sampled_score_asks_k_times_and_writes_mean_and_se(
    dock, monkeypatch
):
    k, n = 3, 4
    # Two draws refused (after the probe's requests): their points have fewer rated draws.
    with FaultServer(plan={PROBE_REQUESTS + 1: "refusal", PROBE_REQUESTS + 6: "refusal"}) as fs:
        text, feats = sampled_survey(dock, monkeypatch, fs, k, n, "sampled")
        # The estimate counts every draw: k requests per point, and the server got them
        # (after the algorithm's probe: this server returns one choice whatever n asks).
        assert dock.plan.estimate.n_requests == k * n
        assert k * n < fs.n_requests <= k * n + PROBE_REQUESTS
        assert fs.n_asked[1] >= k * n  # each draw its own request (its own seed)
    assert f"{k * n} requests will be sent" in text and f"asked {k} times" in text
    for f in feats:
        # The fake model gives a prompt one rating: every rated draw has its first digit.
        assert f["score"] == pytest.approx(first_digit(prompt_rating(f["prompt"])))
        if f["n_draws"] >= 2:  # the standard error of identical draws
            assert f["score_se"] == pytest.approx(0.0)
    assert sum(f["n_draws"] for f in feats) == k * n - 2


def test_an_endpoint_that_returns_k_choices_gets_one_request_per_point(dock, monkeypatch):
    k, n = 4, 3
    with FaultServer(honour_n=True) as fs:
        text, feats = sampled_survey(dock, monkeypatch, fs, k, n, "choices")
        assert dock.plan.estimate.n_requests == k * n  # at most: nothing is sent before
        assert fs.n_asked[k] == n  # each point's k draws in one request (n = k)
    assert f"{k * n} requests will be sent" in text
    for f in feats:
        # Choice j rates the prompt j higher (mod 10): the draws differ, the SE is not 0.
        r = prompt_rating(f["prompt"])
        digits = [first_digit(round((r + j) % 10, 1)) for j in range(k)]
        mean = sum(digits) / k
        sd = (sum((d - mean) ** 2 for d in digits) / (k - 1)) ** 0.5
        assert f["n_draws"] == k and f["score"] == pytest.approx(mean)
        assert f["score_se"] == pytest.approx(sd / k**0.5) and f["score_se"] > 0


def test_an_old_project_without_draws_gets_the_default(qgis_app):
    project = QgsProject()
    project.writeEntry("GeoBias", "score", "sampled")
    assert SurveySettings.read(project).samples == SAMPLES_DEFAULT
