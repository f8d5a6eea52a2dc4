"""A small survey run from the dock against the real embedded model (the default, via llama.cpp).

Runs without pytest-qgis (`make test-integration` passes -p no:pytest_qgis): the fixture below
starts its own offscreen QgsApplication with a fresh profile, so the survey cache starts empty.
"""

import os
import sys

import pytest

from geobias.core.runtime import embedded
from geobias.core.runtime.embedded import MODEL_NAME
from geobias.test.qtstub import StubIface, wait_for

pytestmark = pytest.mark.integration

TOPIC = "Infant Mortality Rate"
# Europe and Africa: countries with very different infant mortality.
AREA = "POLYGON((-10 0,40 0,40 50,-10 50,-10 0))"


@pytest.fixture(scope="module")
def qgis_env(tmp_path_factory):
    """QgsApplication (offscreen), a stub iface, Processing with the GeoBias provider."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    profile = tmp_path_factory.mktemp("qgis-profile")
    from qgis.core import QgsApplication, QgsProject
    from qgis.gui import QgsMapCanvas
    from qgis.PyQt.QtCore import QCoreApplication, QSettings
    from qgis.PyQt.QtWidgets import QMainWindow

    if QgsApplication.instance() is not None:
        pytest.skip("a QgsApplication already runs in this process (run with -p no:pytest_qgis)")
    QCoreApplication.setOrganizationName("QGIS")
    QCoreApplication.setApplicationName("QGIS3")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(profile))
    app = QgsApplication([], True, str(profile))
    app.initQgis()
    window = QMainWindow()
    iface = StubIface(window, QgsMapCanvas(window))
    from geobias.processing.provider import GeoBiasProvider

    provider = GeoBiasProvider()
    assert QgsApplication.processingRegistry().addProvider(provider)
    yield iface
    QgsProject.instance().clear()
    QgsApplication.processingRegistry().removeProvider(provider)


def test_dock_runs_a_real_survey_and_resumes_from_the_cache(qgis_env, monkeypatch):
    from qgis.core import (
        QgsApplication,
        QgsGeometry,
        QgsGraduatedSymbolRenderer,
        QgsProject,
        QgsVectorLayer,
    )

    from geobias.core.engine import chat
    from geobias.paths import DATA
    from geobias.processing.endpoints import default_cache_path, embedded_port
    from geobias.ui.dock import GeoBiasDock
    from geobias.ui.settings import EMBEDDED_NAME

    assert default_cache_path().startswith(QgsApplication.qgisSettingsDirPath())
    dock = GeoBiasDock(qgis_env)
    model_pid = None
    try:
        ui = dock.area
        dock.ui.nameEdit.setText("embedded")
        ui.drawn = QgsGeometry.fromWkt(AREA)
        ui.drawRadio.setChecked(True)
        ui.nPointsSpin.setValue(6)
        ui.methodCombo.setCurrentIndex(ui.methodCombo.findData("population"))
        dock.survey.set_checked_topics([TOPIC])
        dock.survey.refresh_models({EMBEDDED_NAME})
        countries = QgsVectorLayer(
            os.path.join(DATA, "world_countries.gpkg") + "|layername=countries", "countries", "ogr"
        )
        QgsProject.instance().addMapLayer(countries)
        dock.survey.truth[TOPIC] = (countries.id(), "infant_mortality")

        shown = []
        job = dock.survey_job
        monkeypatch.setattr(job, "confirm", lambda plan: shown.append(plan.estimate) or True)
        sent = []
        post = chat.ChatClient.post

        def counting_post(self, *args, **kwargs):
            sent.append(1)
            return post(self, *args, **kwargs)

        monkeypatch.setattr(chat.ChatClient, "post", counting_post)

        logged = []
        QgsApplication.messageLog().messageReceived.connect(
            lambda msg, tag, level: logged.append(msg)
        )
        dock.survey_job.run()
        assert dock.panel.task is not None
        # A time-out only: Gemma 3 270M (the default) took over 240 s for these 6 requests at
        # load 15 on this shared machine's 2 cores (about 1.3 s per request when idle).
        wait_for(lambda: dock.panel.task is None, timeout=900.0)
        assert dock.panel.progressBar.value() == 100, (dock.panel.progressLabel.text(), logged[-5:])
        assert len(shown) == 1
        port = embedded_port()
        model_pid = embedded.shared_server().pid  # the dock's model: a child process
        assert model_pid != os.getpid() and "xllamacpp" not in sys.modules
        assert shown[0].n_requests == 6 and shown[0].hosts == [f"127.0.0.1:{port}"]
        assert len(sent) == 6, dock.panel.progressLabel.text()

        group = QgsProject.instance().layerTreeRoot().findGroup("GeoBias — embedded")
        assert group is not None
        layers = [n.layer() for n in group.findLayers()]
        rated = [lyr for lyr in layers if lyr.fields().lookupField("score") >= 0]
        assert len(rated) == 1 and rated[0].featureCount() == 6
        assert isinstance(rated[0].renderer(), QgsGraduatedSymbolRenderer)
        assert rated[0].renderer().classAttribute() == "rank_error"
        feats = list(rated[0].getFeatures())
        assert all(f["completion"] for f in feats)  # the model's real answers are kept
        assert all("Coordinates:" in f["prompt"] for f in feats)
        assert sum(f["truth"] is not None and f["truth"] == f["truth"] for f in feats) >= 4
        assert dock.results.metrics.rowCount() == 1
        row = dock.results.metrics.rows[0]
        assert row["model"] == MODEL_NAME and row["topic"] == TOPIC
        dock.results.show_answer(feats[0])
        text = dock.results.answerText.toPlainText()
        assert feats[0]["completion"] in text and "Nearby Places" in text

        # The same survey again: everything comes from the cache, nothing is sent.
        dock.survey_job.run()
        wait_for(lambda: dock.panel.task is None, timeout=240.0)
        assert len(shown) == 1 and len(sent) == 6
        assert dock.results.metrics.rowCount() == 1
    finally:
        dock.close_survey()
        assert embedded.shared_port() is None
        if model_pid:
            assert not os.path.exists(f"/proc/{model_pid}"), "the model outlived the dock"
        dock.deleteLater()


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-p", "no:pytest_qgis", "-q"]))
