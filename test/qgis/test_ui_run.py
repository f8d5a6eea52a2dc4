"""The dock's Run path against a local stub chat server: chain, layers, styles, estimate, resume."""

import os
import sys
import uuid

import pytest
from qgis.core import (
    QgsGeometry,
    QgsGraduatedSymbolRenderer,
    QgsLayoutItemLabel,
    QgsProject,
    QgsVectorLayer,
)

from geobias.paths import DATA
from geobias.test.faultserver import FaultServer
from geobias.test.qtstub import wait_for, wait_job
from geobias.ui import results, survey_plan
from geobias.ui.dock import GeoBiasDock
from geobias.ui.settings import EndpointConfig, save_endpoints

# Run from the repository root, `processing` would be the plugin's own folder, not QGIS's.
sys.path.insert(0, "/usr/share/qgis/python/plugins")

TOPIC = "Infant Mortality Rate"
FRANCE = "POLYGON((-1 43.5,6 43.5,6 49,-1 49,-1 43.5))"


@pytest.fixture()
def dock(qgis_iface, qgis_new_project, processing_ready):
    d = GeoBiasDock(qgis_iface)
    yield d
    d.close_survey()
    d.deleteLater()
    save_endpoints([])


def setup_survey(dock, fs, name, n_points, truth=True):
    # A model name of this server's own: a later test's server on a reused port would otherwise
    # find this one's answers in the profile's cache (the key is URL, model and body).
    if not hasattr(fs, "model_name"):
        fs.model_name = f"fault-{uuid.uuid4().hex[:8]}"
    save_endpoints([EndpointConfig("stub", "custom", fs.base_url, fs.model_name, concurrency=2)])
    ui = dock.area
    dock.ui.nameEdit.setText(name)
    ui.drawn = QgsGeometry.fromWkt(FRANCE)
    ui.drawRadio.setChecked(True)
    ui.nPointsSpin.setValue(n_points)
    ui.methodCombo.setCurrentIndex(ui.methodCombo.findData("uniform"))
    ui.seedSpin.setValue(7)
    dock.survey.set_checked_topics([TOPIC])
    dock.survey.refresh_models({"stub"})
    if truth:
        countries = QgsVectorLayer(
            os.path.join(DATA, "world_countries.gpkg") + "|layername=countries", "countries", "ogr"
        )
        QgsProject.instance().addMapLayer(countries)
        dock.survey.truth[TOPIC] = (countries.id(), "infant_mortality")


def run_once(dock, monkeypatch):
    """Press Run (accepting the confirmation); returns the estimates the dock showed."""
    shown = []

    def confirm(plan):
        shown.append(plan.estimate)
        return True

    monkeypatch.setattr(dock.survey_job, "confirm", confirm)
    dock.survey_job.run()
    assert dock.panel.task is not None, "the run did not start"
    wait_for(lambda: dock.panel.task is None)
    return shown


def test_run_adds_styled_layers_metrics_and_resumes_for_free(dock, monkeypatch):
    with FaultServer() as fs:
        setup_survey(dock, fs, "stub run", 6)
        shown = run_once(dock, monkeypatch)
        assert len(shown) == 1
        est = shown[0]
        host = fs.base_url.split("//")[1].split("/")[0]
        assert est.n_requests == 6 and est.hosts == [host]
        assert fs.n_requests == 6
        assert dock.panel.progressBar.value() == 100

        group = QgsProject.instance().layerTreeRoot().findGroup("GeoBias — stub run")
        layers = [n.layer() for n in group.findLayers()]
        rated = [lyr for lyr in layers if lyr.fields().lookupField("score") >= 0]
        assert len(rated) == 1 and rated[0].featureCount() == 6
        renderer = rated[0].renderer()
        assert isinstance(renderer, QgsGraduatedSymbolRenderer)
        assert renderer.classAttribute() == "rank_error"  # the truth topic shows rank errors
        styles = rated[0].styleManager().styles()
        assert {"rank", "rating"} <= set(styles), styles
        truths = [f["truth"] for f in rated[0].getFeatures()]
        assert all(t is not None and 0 < float(t) < 200 for t in truths)  # France's IMR

        assert dock.results.metrics.rowCount() == 1
        row = dock.results.metrics.rows[0]
        assert row["model"] == fs.model_name and row["topic"] == TOPIC
        assert row["rho"] is not None and row["rho_lo"] is not None
        assert len(dock.results.plot.truth) == 6 and (dock.results.plot.truth > 0).all()

        # Same survey again: the estimate sees the cache and nothing is sent.
        shown = run_once(dock, monkeypatch)
        assert shown == []  # nothing to confirm when every answer is cached
        assert fs.n_requests == 6
        group = QgsProject.instance().layerTreeRoot().findGroup("GeoBias — stub run")
        assert len([n for n in group.findLayers()]) == 2  # replaced, not duplicated
        plan = survey_plan.plan(dock.settings(), dock.area_geometry(), estimate=True)
        assert plan.estimate.n_requests == 0 and plan.estimate.n_cached == 6


def test_cancel_then_resume_sends_each_request_once(dock, monkeypatch):
    with FaultServer(delay_s=0.05) as fs:
        setup_survey(dock, fs, "stub resume", 40, truth=False)
        monkeypatch.setattr(dock.survey_job, "confirm", lambda plan: True)
        dock.survey_job.run()
        wait_for(lambda: fs.n_requests >= 6)
        dock.survey_job.cancel()
        wait_for(lambda: dock.panel.task is None)
        assert dock.panel.runButton.text() == "Resume survey"
        sent = fs.n_requests
        assert 6 <= sent < 40
        shown = run_once(dock, monkeypatch)
        assert shown[0].n_cached >= sent - 2 and shown[0].n_requests <= 40 - sent + 2
        # Only the requests in flight at the cancel (2 threads) may be sent a second time.
        assert 40 <= fs.n_requests <= 40 + 2
        assert sum(c > 1 for c in fs.requests_by_body.values()) <= 2
        assert dock.results.metrics.rowCount() == 1
        assert dock.panel.runButton.text() == "Run survey"


def capture_pushes(dock, monkeypatch):
    pushed = []
    monkeypatch.setattr(
        dock, "push", lambda text, level=None, details=None: pushed.append((text, details))
    )
    return pushed


def test_failed_run_goes_to_the_message_bar_not_a_dialog(dock, monkeypatch, qgis_iface):
    # The endpoint answers 3 requests, then refuses the key: the run stops mid-way.
    with FaultServer(plan={i: "401" for i in range(3, 100)}) as fs:
        setup_survey(dock, fs, "stub fail", 8, truth=False)
        pushed = capture_pushes(dock, monkeypatch)
        run_once(dock, monkeypatch)
        answered = sum(fs.answers_by_body.values())
    assert pushed, "no message for a failed run"
    text, details = pushed[-1]
    assert text.startswith("The survey stopped: ") and "HTTP 401" in text
    assert text.endswith(f"; {answered} of 8 answers are cached, Resume continues."), text
    assert "\n" not in text and "Traceback" not in text and details
    assert dock.panel.runButton.isEnabled() and dock.panel.runButton.text() == "Resume survey"


def test_a_broken_endpoint_stops_early_and_the_dock_says_resume_once(dock, monkeypatch):
    # Every request gets an HTML page with status 200 (a proxy's login page): an early stop.
    with FaultServer(plan={i: "html" for i in range(100)}) as fs:
        setup_survey(dock, fs, "stub html", 12, truth=False)
        pushed = capture_pushes(dock, monkeypatch)
        run_once(dock, monkeypatch)
        sent = fs.n_requests
    text, _details = pushed[-1]
    assert text.startswith("The survey stopped: stopped early") and "0 of 12" in text, text
    assert text.count("Resume") == 1, text
    assert sent <= 8, sent  # not 7 attempts for each of the 12 points


def test_answers_without_a_rating_say_so_and_a_changed_constraint_asks_again(dock, monkeypatch):
    """Issue 28: a model that answers in prose behind a plain server. The dock says the answers
    held no rating, quotes one, names the constraint; with the constraint chosen in the
    Options, Run asks every point again and the survey completes."""
    from geobias.test.faultserver import PROSE

    with FaultServer(always="prose") as fs:
        setup_survey(dock, fs, "stub prose", 6, truth=False)
        pushed = capture_pushes(dock, monkeypatch)
        run_once(dock, monkeypatch)
        assert fs.n_requests == 6
        text, _details = pushed[-1]
        assert "none of the 6 answers" in text and "held a rating" in text, text
        assert "llama.cpp grammar" in text and "another constraint or model asks again" in text
        assert PROSE[:20] in text and "reachable" not in text  # the quote (the bar cuts at 300)
        save_endpoints([EndpointConfig("stub", "custom", fs.base_url, fs.model_name, concurrency=2,
                                       constraint="grammar")])  # fmt: skip
        shown = run_once(dock, monkeypatch)
        assert shown[0].n_requests == 6 and fs.n_requests == 12  # asked again
    assert dock.panel.progressLabel.text().startswith("Done in")


def test_an_exception_in_an_algorithm_reads_as_one_sentence(dock, monkeypatch):
    # The failure of issue 9: a GEOS error raised in the background run, after the answers.
    from geobias.processing import rating

    def broken(*args, **kwargs):
        raise ValueError(
            "GEOSException: IllegalArgumentException: WKB output dimension must be 2 or 3"
        )

    monkeypatch.setattr(rating, "write_points_layer", broken)
    with FaultServer() as fs:
        setup_survey(dock, fs, "stub exception", 4, truth=False)
        pushed = capture_pushes(dock, monkeypatch)
        run_once(dock, monkeypatch)
    ((text, details),) = pushed
    assert text == (
        "The survey stopped: WKB output dimension must be 2 or 3; 4 of 4 answers are cached, "
        "Resume continues."
    )
    assert "Traceback (most recent call last)" in details and "in broken" in details


def test_without_a_python_for_the_model_the_dock_says_what_to_install_before_the_run(
    dock, monkeypatch, tmp_path
):
    from geobias.core.runtime import embedded
    from geobias.host import model_install_line
    from geobias.ui import dock as dock_module
    from geobias.ui.settings import EMBEDDED_NAME

    # The only Python found has no site-packages, so no xllamacpp (as on a stock QGIS).
    bare = tmp_path / "python3"
    bare.write_text(f'#!/bin/sh\nexec {sys.executable} -I -S "$@"\n')
    bare.chmod(0o755)
    monkeypatch.setattr(embedded, "python_candidates", lambda override=None: [str(bare)])
    with FaultServer() as fs:
        setup_survey(dock, fs, "no model", 3, truth=False)
    dock.survey.refresh_models({EMBEDDED_NAME})
    offered, logged, confirmed = [], [], []
    # The message carries the one-click install; the details go to the GeoBias log.
    monkeypatch.setattr(dock, "_push_with_button", lambda text, level, button=None: offered.append(
        (text, button and button[0])))  # fmt: skip
    monkeypatch.setattr(dock_module, "log", lambda text, level=None: logged.append(text))
    monkeypatch.setattr(dock.survey_job, "confirm", lambda plan: confirmed.append(plan) or True)
    monkeypatch.setattr(survey_plan, "sample_points", lambda *a, **k: pytest.fail("sampled"))
    dock.survey_job.run()
    assert dock.panel.task is None and confirmed == []  # stopped before sampling and confirmation
    ((text, label),) = offered
    assert "xllamacpp" in text and model_install_line() in text
    assert label == "Install local model…"
    assert any(f"{bare}: xllamacpp cannot be imported" in t for t in logged)


EUROPE = "POLYGON((-10 36,30 36,30 60,-10 60,-10 36))"


def test_the_dock_shows_the_ssi_the_report_prints(dock, monkeypatch, tmp_path):
    """Issue 35: the dock showed SSI "–" while the report printed "SSI 2.81 nats (14 centres)".
    A regional survey's Results row holds the SSI the report of its layer prints (the report
    scales the neighbourhoods to a region's points: the dock scores them the same way)."""
    with FaultServer() as fs:
        setup_survey(dock, fs, "ssi run", 60)
        dock.area.drawn = QgsGeometry.fromWkt(EUROPE)
        run_once(dock, monkeypatch)
    (row,) = dock.results.metrics.rows
    ssi = row["ssi"]
    assert ssi is not None and ssi == ssi, row  # a number, not "–"
    column = next(i for i, (key, _h, _a) in enumerate(results.COLUMNS) if key == "ssi")
    assert dock.results.metrics.data(dock.results.metrics.index(0, column)) == f"{ssi:.2f}"
    assert f"{ssi:.2f}" in dock.results.metricsDetail.toPlainText()
    (layer,) = dock.results.rated_layers
    report = survey_plan.run_algorithm("geobias:report", {
        "INPUT": layer.source(), "DPI": 30, "N_BOOT": 50,
        "OUTPUT": str(tmp_path / "report.pdf")})  # fmt: skip
    layout = QgsProject.instance().layoutManager().layoutByName(report["LAYOUT"])
    texts = " ".join(i.text() for i in layout.items() if isinstance(i, QgsLayoutItemLabel))
    assert f"SSI {ssi:.2f} nats (" in texts, texts
    # The same layer opened from its file, and taken from the Layers panel: the same SSI.
    path = layer.source().split("|")[0]
    for show in (lambda: dock.results.open_files([path]),
                 lambda: dock.results.compute_metrics([layer])):  # fmt: skip
        dock.results.metrics.set_rows([])
        wait_job(dock, show())
        assert [r["ssi"] for r in dock.results.metrics.rows] == [ssi]
