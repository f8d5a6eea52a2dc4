"""The dock's tabs in QGIS (offscreen): size, ground truth per topic, bundled layers, area text,
sampling methods, anchor, endpoint list, plural counts, results from GeoPackages or layers."""

import os
import warnings

import pytest
from qgis.core import QgsGeometry, QgsMapLayerProxyModel, QgsProject, QgsRasterLayer, QgsVectorLayer
from qgis.PyQt.QtWidgets import QMessageBox, QScrollArea

from geobias.paths import COUNTRIES, DATA, REFERENCE
from geobias.processing.definitions import SAMPLE_METHODS
from geobias.test.qtstub import wait_job
from geobias.ui import survey_job as survey_job_module
from geobias.ui import survey_plan
from geobias.ui.dock import GeoBiasDock
from geobias.ui.results import COLUMNS
from geobias.ui.settings import EMBEDDED_NAME, EndpointConfig, embedded_endpoints, save_endpoints

IMR, DENSITY = "Infant Mortality Rate", "Population Density"


@pytest.fixture()
def dock(qgis_iface, qgis_new_project, processing_ready):
    d = GeoBiasDock(qgis_iface)
    yield d
    d.close_survey()
    d.deleteLater()
    save_endpoints([])


def countries_layer():
    layer = QgsVectorLayer(
        os.path.join(DATA, "world_countries.gpkg") + "|layername=countries", "mine", "ogr"
    )
    QgsProject.instance().addMapLayer(layer)
    return layer


def test_every_tab_scrolls_and_the_dock_stays_under_600_px(dock, qgis_app):
    tabs = dock.ui.tabs
    names = [tabs.tabText(i) for i in range(tabs.count())]
    assert names == ["Area", "Survey", "Results", "Overlay", "Regional bias", "Compare"]
    for i in range(tabs.count()):
        tabs.setCurrentIndex(i)
        qgis_app.processEvents()
        assert isinstance(tabs.widget(i), QScrollArea)
        assert dock.minimumSizeHint().height() <= 600, tabs.tabText(i)
        # The content is taller than the dock may be: it scrolls instead of growing the dock.
        assert tabs.widget(i).widget().minimumSizeHint().height() > 300
    # Run and Cancel are below the tabs, not inside one.
    for button in (dock.panel.runButton, dock.panel.cancelButton, dock.panel.progressBar):
        assert not tabs.isAncestorOf(button)


def test_bundled_fields_are_proposed_per_topic_and_never_carried_to_another(dock):
    survey = dock.survey
    survey.set_checked_topics([IMR])
    assert survey.truth_for_run() == {}  # nothing to propose without the bundled layer
    countries = dock.area.add_bundled("countries")
    assert survey.truth_for_run() == {IMR: (countries.id(), "infant_mortality")}
    # The trap: switching the topic must not keep infant mortality as its truth.
    survey.set_checked_topics([DENSITY])
    assert survey.truth_for_run() == {DENSITY: (countries.id(), "pop_density")}
    survey.set_checked_topics(["Average Attractiveness of Residents"])
    assert survey.truth_for_run() == {}  # no truth: no rank errors for this topic
    table = survey.truthTable
    assert table.rowCount() == 1 and table.cellWidget(0, 1).currentLayer() is None
    # The user's "none" for a paper topic is kept, not proposed again.
    survey.set_checked_topics([IMR])
    combo = table.cellWidget(0, 1)
    combo.setLayer(None)
    combo.activated.emit(combo.currentIndex())  # as when the user picks "none" in the list
    survey.set_checked_topics([IMR, DENSITY])
    assert survey.truth_for_run() == {DENSITY: (countries.id(), "pop_density")}


def test_a_field_picked_for_a_topic_is_one_that_names_it(dock):
    layer = countries_layer()  # not the bundled one by name: no proposal from the catalogue
    dock.survey.set_checked_topics([DENSITY])
    dock.survey.truthTable.cellWidget(0, 1).setLayer(layer)
    assert dock.survey.truth[DENSITY] == (layer.id(), "pop_density")


def steps_of(plan):
    return [s[0] if isinstance(s[0], str) else s[1] for s in plan.task.steps]


def test_only_topics_with_a_ground_truth_get_rank_errors(dock):
    countries = dock.area.add_bundled("countries")
    dock.area.drawn = QgsGeometry.fromWkt("POLYGON((0 40,10 40,10 48,0 48,0 40))")
    dock.area.drawRadio.setChecked(True)
    dock.area.nPointsSpin.setValue(3)
    dock.survey.set_checked_topics([IMR, "Average Attractiveness of Residents"])
    plan = survey_plan.plan(dock.settings(), dock.area_geometry(), estimate=False)
    truth_steps = [s for s in steps_of(plan) if s == "geobias:samplegroundtruth"]
    assert len(truth_steps) == 1  # IMR only
    assert dock.settings().truth == [f"{IMR}\t{countries.id()}\tinfant_mortality"]


def test_ground_truth_layers_are_polygon_or_point_layers(dock):
    """The truth combos offer polygon and point layers, set without QGIS 3.34+'s deprecated
    int overload of setFilters (or'ed flags are an int in PyQt5)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        dock.survey.set_checked_topics([DENSITY])
    assert not [w for w in caught if "setFilters" in str(w.message)]
    combo = dock.survey.truthTable.cellWidget(0, 1)
    wanted = QgsMapLayerProxyModel.Filter.PolygonLayer | QgsMapLayerProxyModel.Filter.PointLayer
    assert int(combo.filters()) == int(wanted)


def test_a_mismatched_ground_truth_needs_an_explicit_confirmation(dock, monkeypatch):
    countries = dock.area.add_bundled("countries")
    dock.area.drawn = QgsGeometry.fromWkt("POLYGON((0 40,10 40,10 48,0 48,0 40))")
    dock.area.drawRadio.setChecked(True)
    dock.survey.set_checked_topics([DENSITY])
    field_combo = dock.survey.truthTable.cellWidget(0, 2)
    field_combo.setField("infant_mortality")  # density ratings against infant mortality
    assert dock.survey.mismatches() == [(DENSITY, "infant_mortality")]
    asked, planned = [], []

    def fake_plan(*args, **kwargs):
        planned.append(args)
        raise RuntimeError("stopped before sampling (test)")

    monkeypatch.setattr(survey_plan, "prepare_task", fake_plan)
    # The default model is the embedded one; where it is not installed (QGIS 3.40/3.44 in make
    # test-matrix) the dock would stop at "install xllamacpp" after the confirmation.
    monkeypatch.setattr(survey_job_module, "embedded_problem", lambda: None)
    monkeypatch.setattr(
        QMessageBox, "question", lambda *a, **k: asked.append(a[2]) or QMessageBox.StandardButton.No
    )
    dock.survey_job.run()
    assert len(asked) == 1 and "infant_mortality" in asked[0] and DENSITY in asked[0]
    assert planned == [] and dock.panel.task is None  # refused: nothing sampled, nothing sent
    monkeypatch.setattr(
        QMessageBox,
        "question",
        lambda *a, **k: asked.append(a[2]) or QMessageBox.StandardButton.Yes,
    )
    dock.survey_job.run()
    assert len(planned) == 1  # confirmed: the run goes on
    assert dock.settings().truth_confirmed == [f"{DENSITY}\tinfant_mortality"]
    dock.survey_job.run()
    assert len(asked) == 2  # asked once per pair, not at every run
    assert countries.isValid()


def test_bundled_layers_and_the_basemap_are_one_click_away(dock, qgis_iface):
    area = dock.area
    project = QgsProject.instance()
    for key, name in (
        ("countries", "Countries (GeoBias)"),
        ("regions", "Regions, admin-1 (GeoBias)"),
        ("counties", "US counties (GeoBias)"),
    ):
        button = {
            "countries": area.countriesButton,
            "regions": area.regionsButton,
            "counties": area.countiesButton,
        }[key]
        button.click()
        layers = [lyr for lyr in project.mapLayers().values() if lyr.name() == name]
        assert len(layers) == 1 and layers[0].isValid() and layers[0].featureCount() > 200
        button.click()  # a second click adds no copy
        assert len([lyr for lyr in project.mapLayers().values() if lyr.name() == name]) == 1
    area.basemapButton.click()
    osm = [lyr for lyr in project.mapLayers().values() if isinstance(lyr, QgsRasterLayer)]
    assert len(osm) == 1 and "tile.openstreetmap.org" in osm[0].source()
    # Under every other layer; its tiles need the network, which the message says.
    assert project.layerTreeRoot().findLayers()[-1].layer() is osm[0]
    assert "internet" in area.basemapButton.toolTip()


def test_the_area_label_gives_km2_and_the_point_count(dock):
    area = dock.area
    area.nPointsSpin.setValue(1)
    area.drawn = QgsGeometry.fromWkt("POLYGON((0 0,1 0,1 1,0 1,0 0))")
    area.drawRadio.setChecked(True)
    area._area_changed()
    text = area.areaLabel.text()
    assert "12,309 km²" in text or "12309 km²" in text.replace("\u202f", "").replace(" ", "")
    assert "1 point will be sampled." in text  # singular
    area.nPointsSpin.setValue(5)
    assert "5 points will be sampled." in area.areaLabel.text()
    area.worldRadio.setChecked(True)
    digits = "".join(c for c in area.areaLabel.text().split("km²")[0] if c.isdigit())
    assert int(digits) == pytest.approx(510_065_622, rel=1e-3)  # Earth's surface


def test_the_dock_offers_the_hex_grid_and_previews_it(dock):
    area = dock.area
    methods = [area.methodCombo.itemData(i) for i in range(area.methodCombo.count())]
    assert methods == list(SAMPLE_METHODS.keys)  # Processing's keys: no mirrored list to drift
    area.drawn = QgsGeometry.fromWkt("POLYGON((0 40,10 40,10 48,0 48,0 40))")
    area.drawRadio.setChecked(True)
    area.nPointsSpin.setValue(20)
    area.methodCombo.setCurrentIndex(methods.index("hex"))
    wait_job(dock, area.preview())
    assert area.preview_layer is not None and 10 <= area.preview_layer.featureCount() <= 30
    assert "sampled (preview, nothing sent)" in area.areaLabel.text()


def test_the_anchor_combo_names_the_bundled_default(dock):
    assert dock.survey.anchorLayerCombo.currentText() == "Countries' infant survival"
    assert not dock.survey.anchorFieldCombo.isEnabled()
    assert dock.settings().anchor_layer == ""  # the default: runner uses the bundled countries


def test_endpoints_saved_in_the_options_appear_in_the_dock_at_once(dock):
    names = lambda: [  # noqa: E731
        dock.survey.modelsList.item(i).text() for i in range(dock.survey.modelsList.count())
    ]
    built_in = [e.name for e in embedded_endpoints()]  # every bundled model, the default first
    assert names() == built_in and built_in[0] == EMBEDDED_NAME
    save_endpoints([EndpointConfig("Lab vLLM", "vllm", "http://127.0.0.1:9/v1", "qwen")])
    assert names() == built_in + ["Lab vLLM — qwen"]


def test_counts_take_the_languages_plural_form(qgis_app):
    from geobias import i18n_util

    assert i18n_util.translate("@default", "%n model(s) offered.", None, 1) == "1 model offered."
    assert i18n_util.translate("@default", "%n model(s) offered.", None, 2) == "2 models offered."
    translator = i18n_util.install_translator("fr")
    try:
        t = i18n_util.translate
        assert t("@default", "%n model(s) offered.", None, 1) == "1 modèle proposé."
        assert t("@default", "%n model(s) offered.", None, 3) == "3 modèles proposés."
    finally:
        i18n_util.remove_translator(translator)


def test_processing_help_is_escaped_and_shown_whole(processing_ready):
    from qgis.PyQt.QtGui import QTextDocument

    algs = [a for a in processing_ready.algorithms() if a.provider().id() == "geobias"]
    assert len(algs) >= 6
    for alg in algs:
        doc = QTextDocument()
        doc.setHtml(alg.shortHelpString())
        # The help text whole, then the parameters, each with its sentence (issue 28).
        plain = " ".join(doc.toPlainText().split())
        assert plain.startswith(" ".join(alg.help_text().split()) + " Parameters "), alg.id()
        for p in alg.parameterDefinitions():
            assert " ".join(p.help().split()) in plain, (alg.id(), p.name())
    truth = processing_ready.algorithmById("geobias:samplegroundtruth")
    assert "&lt; 0: underestimates, blue" in truth.shortHelpString()


def reference_gpkgs(tmp_path):
    """The paper's GPT-3.5 infant mortality ratings, with the countries' truth, as a dock run's
    folder would hold them (rated points with truth) — written by the toolbox algorithms."""
    rated = survey_plan.run_algorithm(
        "geobias:importratings",
        {
            "INPUT": os.path.join(
                REFERENCE, "gpt_3_5_turbo_0613_Infant_Mortality_Rate_world_prompts.csv"
            ),
            "MODEL": "gpt-3.5-turbo-0613",
            "TOPIC": IMR,
            "SCORE": 0,
            "OUTPUT": str(tmp_path / "rated.gpkg"),
        },
    )["OUTPUT"]
    truth = survey_plan.run_algorithm(
        "geobias:samplegroundtruth",
        {
            "INPUT": rated,
            "POLYGONS": COUNTRIES,
            "POLYGON_FIELD": "infant_mortality",
            "OUTPUT": str(tmp_path / "toolbox" / "truth_imr.gpkg"),
        },
    )["OUTPUT"]
    return truth.split("|")[0]


def test_results_of_the_toolbox_open_in_the_results_tab(dock, tmp_path):
    (tmp_path / "toolbox").mkdir()
    path = reference_gpkgs(tmp_path)
    wait_job(dock, dock.results.open_files([path]))
    layers = dock.results.rated_layers
    assert len(layers) == 1
    group = QgsProject.instance().layerTreeRoot().findGroup("GeoBias — toolbox")
    assert group is not None
    rated = layers[0]
    assert rated.name() == "Infant Mortality Rate · gpt-3.5-turbo"  # topic · model, even alone
    assert rated.renderer().classAttribute() == "rank_error"
    assert "gpt-3.5-turbo-0613" in rated.metadata().abstract()
    (row,) = dock.results.metrics.rows
    assert row["topic"] == IMR and row["n"] > 1500 and row["rho"] > 0.6
    # The rank errors cluster in space: the table's Moran's I column (8 nearest points).
    col = [key for key, _h, _n in COLUMNS].index("moran_i")
    assert row["moran_i"] > 0.3 and dock.results.metrics.data(
        dock.results.metrics.index(0, col)) == f"{row['moran_i']:.2f}"  # fmt: skip
    assert len(dock.results.plot.rating) == rated.featureCount()
    assert dock.ui.tabs.currentWidget().widget() is dock.results
    # The GeoBS scores of the rank errors, from geobias:geobiasscores in the same job: the
    # errors are more clustered than a random arrangement of them (SSI about 4.0 there).
    assert row["ssi"] > 4.2 and 0.1 < row["sri_direction"] < 1
    col = [key for key, _h, _n in COLUMNS].index("sri")
    shown = dock.results.metrics.data(dock.results.metrics.index(0, col))
    assert shown == "/".join(f"{row[k]:.2f}" for k in ("sri_scale", "sri_lag", "sri_direction"))


def test_layers_picked_in_the_layers_panel_fill_the_results_tab(dock, tmp_path):
    (tmp_path / "toolbox").mkdir()
    layer = QgsVectorLayer(reference_gpkgs(tmp_path), "picked", "ogr")
    QgsProject.instance().addMapLayer(layer)
    countries_layer()  # not rated: ignored
    # Nothing selected: every rated layer of the project.
    wait_job(dock, dock.results.use_selected_layers())
    assert dock.results.rated_layers == [layer]
    assert dock.results.metrics.rowCount() == 1
    assert dock.results.metrics.rows[0]["model"] == "gpt-3.5-turbo-0613"
    assert dock.results.metrics.rows[0]["ssi"] > 4.2


def test_the_report_button_writes_the_pdf_and_keeps_the_layout(dock, tmp_path):
    (tmp_path / "toolbox").mkdir()
    QgsProject.instance().setFileName(str(tmp_path / "project.qgz"))  # reports go beside it
    messages = []
    dock.push = lambda text, *a, **k: messages.append(text)
    assert dock.results.make_report() is None and "Open results" in dock.results.notice.text()
    wait_job(dock, dock.results.open_files([reference_gpkgs(tmp_path)]))
    task = wait_job(dock, dock.results.make_report(), 300)
    result = task.results[-1]
    assert messages == [] and dock.panel.progressBar.value() == 100
    pdf = result["OUTPUT"]
    assert pdf.startswith(str(tmp_path / "geobias" / "reports")) and os.path.getsize(pdf) > 10_000
    assert result["PAGES"] == 3  # facts and ranks, metrics, rank errors; no hot spots page
    layout = QgsProject.instance().layoutManager().layoutByName(result["LAYOUT"])
    assert layout is not None and "gpt-3.5-turbo" in result["LAYOUT"]


def test_a_gpkg_without_rated_points_says_so(dock, qgis_iface):
    messages = []
    dock.push = lambda text, *a, **k: messages.append(text)
    wait_job(dock, dock.results.open_files([os.path.join(DATA, "admin1.gpkg")]))
    assert dock.results.rated_layers == []
    assert messages == [] and "No rated points layer" in dock.results.notice.text()


def test_layer_names_fit_the_layers_panel():
    from geobias.processing.styles import layer_name

    assert layer_name("SmolLM2-135M-Instruct.Q4_1", IMR) == "Infant Mortality Rate · SmolLM2-135M"
    assert layer_name("gpt-3.5-turbo-0613", IMR) == "Infant Mortality Rate · gpt-3.5-turbo"
    # An ablation's variant stays in the name.
    assert layer_name("gemma-3-270m-it-Q4_K_M.gguf [no_address]", IMR).endswith(
        "· gemma-3-270m [no_address]")  # fmt: skip
    long = layer_name(
        "meta-llama/Llama-3.1-70B-Instruct-Turbo", "Average Attractiveness of Residents"
    )
    assert long == "Attractiveness of residents · Llama-3.1-70B-Ins…" and len(long) <= 48
