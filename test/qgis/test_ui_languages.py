"""The dock in several prompt languages: the Survey tab's language list and preview, a run in
two languages against a local chat server, and the Compare tab with two languages."""

import os
import sys

import pytest
from qgis.core import QgsGeometry, QgsProject, QgsVectorLayer
from qgis.PyQt.QtCore import Qt

from geobias.core.languages import get_language
from geobias.paths import DATA
from geobias.test.faultserver import FaultServer
from geobias.test.qtstub import wait_for
from geobias.ui import runner
from geobias.ui.dock import GeoBiasDock
from geobias.ui.settings import EndpointConfig, SurveySettings, save_endpoints

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


def check(tab, *codes):
    lst = tab.languagesList
    for i in range(lst.count()):
        item = lst.item(i)
        on = item.data(Qt.ItemDataRole.UserRole) in codes
        item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)


def test_the_language_list_checks_english_and_previews_each_language(dock):
    tab = dock.survey
    codes = [tab.languagesList.item(i).data(Qt.ItemDataRole.UserRole)
             for i in range(tab.languagesList.count())]  # fmt: skip
    assert codes[0] == "en" and {"fr", "ar", "zh", "es"} <= set(codes)
    assert tab.checked_languages() == ["en"]
    assert tab.previewLanguageCombo.isHidden()
    dock.area.drawn = QgsGeometry.fromWkt(FRANCE)
    dock.area.drawRadio.setChecked(True)
    tab.set_checked_topics([TOPIC])
    check(tab, "en", "ar")
    assert tab.checked_languages() == ["en", "ar"]
    assert not tab.previewLanguageCombo.isHidden()
    assert tab.previewLanguageCombo.count() == 2
    tab.previewLanguageCombo.setCurrentIndex(tab.previewLanguageCombo.findData("ar"))
    arabic = get_language("ar")
    text = tab.promptPreview.toPlainText()
    assert text.startswith(arabic.prefix) and arabic.topics[TOPIC] in text
    tab.previewLanguageCombo.setCurrentIndex(tab.previewLanguageCombo.findData("en"))
    assert "Coordinates:" in tab.promptPreview.toPlainText()


def test_languages_go_into_the_settings_and_the_parameters(dock, tmp_path):
    check(dock.survey, "fr", "en")
    s = dock.settings()
    assert s.languages == ["en", "fr"]
    s.write()
    assert SurveySettings.read().languages == ["en", "fr"]
    params = runner.language_params(s)
    from geobias.processing.languages import language_choices

    choices = language_choices()
    assert [choices.key(i) for i in params["LANGUAGES"]] == ["en", "fr"]
    assert runner.language_params(SurveySettings()) == {}  # English alone: as before
    s.languages = ["xx", "fr"]  # a language whose file went away is dropped
    assert runner.survey_languages(s) == ["fr"]


def test_a_run_in_two_languages_loads_a_layer_per_language(dock, monkeypatch):
    with FaultServer() as fs:
        save_endpoints([EndpointConfig("stub", "custom", fs.base_url, "fault", concurrency=2)])
        dock.ui.nameEdit.setText("two languages")
        dock.area.drawn = QgsGeometry.fromWkt(FRANCE)
        dock.area.drawRadio.setChecked(True)
        dock.area.nPointsSpin.setValue(5)
        dock.area.methodCombo.setCurrentIndex(dock.area.methodCombo.findData("uniform"))
        dock.survey.set_checked_topics([TOPIC])
        dock.survey.refresh_models({"stub"})
        countries = QgsVectorLayer(
            os.path.join(DATA, "world_countries.gpkg") + "|layername=countries", "countries", "ogr"
        )
        QgsProject.instance().addMapLayer(countries)
        dock.survey.truth[TOPIC] = (countries.id(), "infant_mortality")
        check(dock.survey, "en", "fr")
        shown = []
        monkeypatch.setattr(dock, "confirm", lambda plan: shown.append(plan.estimate) or True)
        dock.run()
        wait_for(lambda: dock.panel.task is None)
        assert shown[0].n_requests == 10 and fs.n_requests == 10
    group = QgsProject.instance().layerTreeRoot().findGroup("GeoBias — two languages")
    rated = [n.layer() for n in group.findLayers()
             if n.layer().fields().lookupField("score") >= 0]  # fmt: skip
    assert sorted(lyr.name() for lyr in rated) == [f"{TOPIC} [en]", f"{TOPIC} [fr]"]
    langs = {next(lyr.getFeatures())["language"] for lyr in rated}
    assert langs == {"en", "fr"}
    assert all(lyr.fields().lookupField("rank_error") >= 0 for lyr in rated)
    metrics = [lyr for lyr in QgsProject.instance().mapLayers().values()
               if lyr.fields().lookupField("home_first") >= 0]  # fmt: skip
    assert metrics and {f["language"] for f in metrics[0].getFeatures()} == {"en", "fr"}
