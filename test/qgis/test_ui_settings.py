"""Survey settings round-trip through a saved and re-read project."""

from qgis.core import QgsProject

from geobias.ui.settings import SurveySettings


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
        truth_field="imr",
    )
    s.write(project)
    path = str(tmp_path / "p.qgz")
    assert project.write(path)
    other = QgsProject()
    assert other.read(path)
    assert SurveySettings.read(other) == s
    assert SurveySettings.read(QgsProject()) == SurveySettings()
