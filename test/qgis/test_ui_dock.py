"""The dock: settings round-trip through the project, results shown from layers."""

import os

import pytest
from qgis.core import QgsFeature, QgsField, QgsGeometry, QgsPointXY, QgsProject, QgsVectorLayer

from geobias.paths import DATA
from geobias.processing.features import field_type
from geobias.ui.dock import GeoBiasDock
from geobias.ui.settings import SurveySettings


@pytest.fixture()
def dock(qgis_iface, qgis_new_project):
    d = GeoBiasDock(qgis_iface)
    yield d
    d.close_survey()
    d.deleteLater()


def test_settings_round_trip_through_project(dock, tmp_path):
    area, survey = dock.area, dock.survey
    dock.ui.nameEdit.setText("Round trip")
    area.nPointsSpin.setValue(42)
    area.methodCombo.setCurrentIndex(area.methodCombo.findData("hex"))
    survey.scoreCombo.setCurrentIndex(survey.scoreCombo.findData("expected"))
    survey.presetCombo.setCurrentIndex(survey.presetCombo.findData("no_address"))
    survey.customTopicEdit.setText("Average   Happiness")
    survey.add_custom_topic()
    countries = QgsVectorLayer(
        os.path.join(DATA, "world_countries.gpkg") + "|layername=countries", "c", "ogr"
    )
    QgsProject.instance().addMapLayer(countries)
    countries_id = countries.id()
    survey.truth["Average Happiness"] = (countries_id, "life_exp")
    survey.confirmed.add(("Average Happiness", "life_exp"))
    area.drawn = QgsGeometry.fromWkt("POLYGON((0 40,10 40,10 48,0 40))")
    area.drawRadio.setChecked(True)
    before = dock.settings()
    assert before.method == "hex" and before.truth_confirmed == ["Average Happiness\tlife_exp"]
    assert "Average Happiness" in before.topics and before.area_mode == "draw"
    path = str(tmp_path / "dock.qgz")
    assert QgsProject.instance().write(path)  # writeProject signal saves the dock settings
    QgsProject.instance().clear()
    assert dock.settings().n_points != 42
    assert QgsProject.instance().read(path)
    after = dock.settings()
    assert after == before
    assert SurveySettings.read() == before
    # The bundled countries' field is proposed for the paper's topic, the user's choice kept.
    assert survey.truth_for_run() == {
        "Average Happiness": (countries_id, "life_exp"),
        "Infant Mortality Rate": (countries_id, "infant_mortality"),
    }
    tree = survey.topicsTree
    kinds = {
        tree.topLevelItem(i).text(0): tree.topLevelItem(i).text(1)
        for i in range(tree.topLevelItemCount())
    }
    assert kinds["Average Happiness"] == "custom" and kinds["Infant Mortality Rate"] == "objective"


TEXT, REAL = field_type("QString"), field_type("Double")


def rated_layer():
    layer = QgsVectorLayer("Point?crs=EPSG:4326", "rated", "memory")
    names = ["model", "topic", "rating", "score", "truth", "rank_error", "completion", "prompt"]
    types = [TEXT, TEXT] + [REAL] * 4 + [TEXT] * 2
    layer.dataProvider().addAttributes([QgsField(n, t) for n, t in zip(names, types)])
    layer.updateFields()
    feats = []
    for i in range(20):
        f = QgsFeature(layer.fields())
        f.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(i, i / 2)))
        f.setAttributes(
            [
                "m",
                "T",
                i / 3,
                i / 3,
                float(i),
                (i - 10) / 20,
                f"My answer is {i / 3:.1f}.",
                f"prompt {i}",
            ]
        )
        feats.append(f)
    layer.dataProvider().addFeatures(feats)
    return layer


def metrics_layer():
    layer = QgsVectorLayer("None", "metrics", "memory")
    names = ["model", "topic", "n_points", "rho", "mad", "gini", "answer_rate", "bias_score"]
    types = [TEXT, TEXT] + [REAL] * 6
    layer.dataProvider().addAttributes([QgsField(n, t) for n, t in zip(names, types)])
    layer.updateFields()
    f = QgsFeature(layer.fields())
    f.setAttributes(["m", "T", 20, 1.0, 1.7, 0.3, 1.0, 0.5])
    layer.dataProvider().addFeatures([f])
    return layer


def test_a_second_run_under_the_same_name_keeps_the_first_runs_layers(dock):
    """Issue 35 item 2: each run its own group, layer names unique in the project."""
    project = QgsProject.instance()
    first = [rated_layer(), metrics_layer()]
    dock.show_results(first, group_name="Infant Mortality Rate")
    second = [rated_layer(), metrics_layer()]
    dock.show_results(second, group_name="Infant Mortality Rate")
    root = project.layerTreeRoot()
    one, two = (
        root.findGroup("GeoBias — Infant Mortality Rate"),
        root.findGroup("GeoBias — Infant Mortality Rate (2)"),
    )
    assert one is not None and two is not None
    assert {n.layerId() for n in one.findLayers()} == {lyr.id() for lyr in first}
    assert {n.layerId() for n in two.findLayers()} == {lyr.id() for lyr in second}
    names = [lyr.name() for lyr in project.mapLayers().values()]
    assert len(names) == len(set(names)) == 4 and "rated (2)" in names


def test_show_results_groups_layers_and_fills_table(dock):
    rated, metrics = rated_layer(), metrics_layer()
    dock.show_results([rated, metrics], group_name="unit")
    group = QgsProject.instance().layerTreeRoot().findGroup("GeoBias — unit")
    assert group is not None and {x.name() for x in group.findLayers()} >= {"rated", "metrics"}
    results = dock.results
    assert results.metrics.rowCount() == 1
    assert results.metrics.data(results.metrics.index(0, 3)) == "1.00"
    assert len(results.plot.rating) == 20 and results.plot.rank_error[0] == pytest.approx(-0.5)
    results.show_answer(next(rated.getFeatures()))
    assert "My answer is 0.0." in results.answerText.toPlainText()
    assert "prompt 0" in results.answerText.toPlainText()
