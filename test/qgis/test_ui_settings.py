"""Survey settings round-trip through a saved and re-read project."""

from qgis.core import QgsProject

from geobias.ui.settings import SurveySettings, truth_map


def test_survey_settings_round_trip_through_project_file(qgis_app, tmp_path):
    project = QgsProject()
    s = SurveySettings(
        name="Europe test",
        area_mode="draw",
        area_wkt="POLYGON((0 40,10 40,10 48,0 40))",
        selected_only=True,
        n_points=37,
        method="grid",
        seed=5,
        topics=["Infant Mortality Rate", "Average Happiness"],
        endpoints=["a", "b"],
        preset="no_address",
        score="expected",
        truth=["Infant Mortality Rate\tlayer_1\timr", "Average Happiness\t\t"],
        truth_confirmed=["Average Happiness\tlife_exp"],
    )
    s.write(project)
    path = str(tmp_path / "p.qgz")
    assert project.write(path)
    other = QgsProject()
    assert other.read(path)
    assert SurveySettings.read(other) == s
    assert truth_map(s.truth) == {
        "Infant Mortality Rate": ("layer_1", "imr"),
        "Average Happiness": ("", ""),  # chosen: no ground truth
    }
    assert SurveySettings.read(QgsProject()) == SurveySettings()


def test_a_project_from_before_the_per_topic_truth_keeps_its_ground_truth(qgis_app):
    project = QgsProject()
    SurveySettings(topics=["Population Density"]).write(project)
    for key, value in (("truth_layer", "countries_1"), ("truth_field", "pop_density")):
        project.writeEntry("GeoBias", key, value)
    s = SurveySettings.read(project)
    assert truth_map(s.truth) == {"Population Density": ("countries_1", "pop_density")}
