"""The dock in several prompt languages: the Survey tab's language list and preview, a run in
two languages against a local chat server, and the Compare tab with two languages."""

import os
import sqlite3
import sys

import pytest
from qgis.core import QgsGeometry, QgsLayoutItemLabel, QgsProject, QgsVectorLayer
from qgis.PyQt.QtCore import Qt

from geobias.core.survey.languages import get_language
from geobias.paths import DATA
from geobias.test.faultserver import FaultServer
from geobias.test.qtstub import wait_for, wait_job
from geobias.ui import survey_plan
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


COUNTRIES = os.path.join(DATA, "world_countries.gpkg") + "|layername=countries"


def language_positions(*codes):
    from geobias.processing.language_choices import language_choices

    choices = language_choices()
    return [choices.index(c) for c in codes]


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
    params = survey_plan.language_params(s)
    from geobias.processing.language_choices import language_choices

    choices = language_choices()
    assert [choices.key(i) for i in params["LANGUAGES"]] == ["en", "fr"]
    assert survey_plan.language_params(SurveySettings()) == {}  # English alone: as before
    s.languages = ["xx", "fr"]  # a language whose file went away is dropped
    assert survey_plan.survey_languages(s) == ["fr"]


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
        job = dock.survey_job
        monkeypatch.setattr(job, "confirm", lambda plan: shown.append(plan.estimate) or True)
        dock.survey_job.run()
        wait_for(lambda: dock.panel.task is None)
        assert shown[0].n_requests == 10 and fs.n_requests == 10
    group = QgsProject.instance().layerTreeRoot().findGroup("GeoBias — two languages")
    rated = [n.layer() for n in group.findLayers()
             if n.layer().fields().lookupField("score") >= 0]  # fmt: skip
    assert sorted(lyr.name() for lyr in rated) == [f"{TOPIC} · fault [en]", f"{TOPIC} · fault [fr]"]
    langs = {next(lyr.getFeatures())["language"] for lyr in rated}
    assert langs == {"en", "fr"}
    assert all(lyr.fields().lookupField("rank_error") >= 0 for lyr in rated)
    metrics = [lyr for lyr in QgsProject.instance().mapLayers().values()
               if lyr.fields().lookupField("home_first") >= 0]  # fmt: skip
    assert metrics and {f["language"] for f in metrics[0].getFeatures()} == {"en", "fr"}
    # The Results tab: a row per language, each leading to its own layer.
    table = dock.results.metrics
    shown = sorted(table.data(table.index(r, 1)) for r in range(table.rowCount()))
    assert shown == [f"{TOPIC} [en]", f"{TOPIC} [fr]"]
    for row in table.rows:
        layer = dock.results._rated_layer(row["model"], row["topic"], row.get("score_kind"),
                                          row["language"])  # fmt: skip
        assert next(layer.getFeatures())["language"] == row["language"]


def test_the_compare_tab_compares_two_languages(dock, tmp_path):
    """Layers rated in English and French (with ground truth): the tab offers the languages,
    shows each metric with the languages across and per language, and maps the mean ranks per
    language and the spread of each point's rank across them."""
    import processing

    rated = str(tmp_path / "rated.gpkg")
    with FaultServer() as fs:
        points = processing.run(
            "geobias:samplepoints", {"COUNT": 12, "METHOD": 1, "SEED": 3, "OUTPUT": "memory:"}
        )["OUTPUT"]
        res = processing.run("geobias:ratelocations", {
            "INPUT": points, "PROVIDER": 9, "BASE_URL": fs.base_url, "MODEL": "fake-model",
            "TOPICS": TOPIC, "LANGUAGES": language_positions("en", "fr"),
            "OUTPUT": rated,
        })  # fmt: skip
    survey = str(tmp_path / "survey.gpkg")
    for uri in res["OUTPUT_LAYERS"]:
        processing.run("geobias:samplegroundtruth", {
            "INPUT": uri, "SCORE_FIELD": "score", "POLYGONS": COUNTRIES,
            "POLYGON_FIELD": "infant_mortality",
            "OUTPUT": f"ogr:dbname='{survey}' table=\"{uri.split('=')[-1]}\" (geom)",
        })  # fmt: skip
    tab = dock.compare
    tab.open_files([survey])
    assert tab.languagesBox.isVisibleTo(tab)
    assert tab.checked(tab.languagesList) == ["en", "fr"]
    assert not tab.choice.isVisibleTo(tab)  # two languages are not two versions of one layer
    wait_job(dock, tab.compare())
    result = tab.result
    with sqlite3.connect(result["OUTPUT"]) as con:
        rho = dict(con.execute("SELECT language, rho_truth FROM compare_metrics"))
    assert set(rho) == {"en", "fr"}
    assert [tab.viewCombo.itemData(i) for i in range(tab.viewCombo.count())] == [
        "languages", "en", "fr"]  # fmt: skip
    assert not tab.viewCombo.isHidden()
    tab.metricCombo.setCurrentIndex(tab.metricCombo.findData("rho_truth"))
    table = tab.pivotTable
    headers = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    assert headers == ["Topic", "en", "fr", "Mean (across languages)"]
    assert table.item(0, 0).text() == TOPIC
    assert table.item(0, 1).text() == f"{rho['en']:.2f}"
    assert table.item(0, 2).text() == f"{rho['fr']:.2f}"
    assert table.item(0, 3).text() == f"{(rho['en'] + rho['fr']) / 2:.2f}"
    assert len(tab.plot.dots()) == 2
    tab.viewCombo.setCurrentIndex(tab.viewCombo.findData("fr"))
    headers = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    assert headers == ["Topic", "fake-model", "Mean (across models)"]
    assert table.item(0, 1).text() == f"{rho['fr']:.2f}"
    names = sorted(layer.name() for layer in tab.mean_layers)
    assert names == [
        "Mean rank · Infant Mortality Rate [en]",
        "Mean rank · Infant Mortality Rate [fr]",
        "Rank spread across languages · Infant Mortality Rate",
    ]
    spread = next(lyr for lyr in tab.mean_layers if lyr.name().startswith("Rank spread"))
    assert spread.renderer().classAttribute() == "rank_spread"
    values = [f["rank_spread"] for f in spread.getFeatures()]
    assert len(values) == 12 and all(0 <= v <= 1 for v in values) and max(values) > 0


def test_each_languages_row_shows_the_ssi_its_report_prints(dock, monkeypatch, tmp_path):
    """Issue 35: the GeoBS scores of a layer asked in a prompt language are named "model
    [code]"; its Results row shows them (it showed "–"), the number its report prints."""
    with FaultServer() as fs:
        save_endpoints([EndpointConfig("stub", "custom", fs.base_url, "fault-ssi", concurrency=2)])
        dock.ui.nameEdit.setText("languages ssi")
        dock.area.drawn = QgsGeometry.fromWkt("POLYGON((-10 36,30 36,30 60,-10 60,-10 36))")
        dock.area.drawRadio.setChecked(True)
        dock.area.nPointsSpin.setValue(40)
        dock.area.methodCombo.setCurrentIndex(dock.area.methodCombo.findData("uniform"))
        dock.survey.set_checked_topics([TOPIC])
        dock.survey.refresh_models({"stub"})
        countries = QgsVectorLayer(COUNTRIES, "countries", "ogr")
        assert QgsProject.instance().addMapLayer(countries)
        dock.survey.truth[TOPIC] = (countries.id(), "infant_mortality")
        check(dock.survey, "en", "fr")
        monkeypatch.setattr(dock.survey_job, "confirm", lambda plan: True)
        dock.survey_job.run()
        wait_for(lambda: dock.panel.task is None)
    rows = dock.results.metrics.rows
    assert sorted(r["language"] for r in rows) == ["en", "fr"]
    for row in rows:
        ssi = row["ssi"]
        assert ssi is not None and ssi == ssi, row
        layer = dock.results._rated_layer(row["model"], row["topic"], row.get("score_kind"),
                                          row["language"])  # fmt: skip
        report = survey_plan.run_algorithm("geobias:report", {
            "INPUT": layer.source(), "DPI": 30, "N_BOOT": 50,
            "OUTPUT": str(tmp_path / f"report_{row['language']}.pdf")})  # fmt: skip
        layout = QgsProject.instance().layoutManager().layoutByName(report["LAYOUT"])
        texts = " ".join(i.text() for i in layout.items() if isinstance(i, QgsLayoutItemLabel))
        assert f"SSI {ssi:.2f} nats (" in texts
