"""The dock's Overlay tab in QGIS (offscreen): GPT-3.5's infant mortality ratings aggregated to
the bundled countries, correlated with their indicators (table, note, scatter plot) and searched
for hot spots, each with one click, as a user does it."""

import os
import re

import numpy as np
import pytest
from qgis.core import QgsProject, QgsVectorLayer
from qgis.PyQt.QtCore import Qt

from geobias.paths import COUNTRIES, DATA, REFERENCE
from geobias.test.qtstub import wait_job
from geobias.ui import survey_plan
from geobias.ui.dock import GeoBiasDock
from geobias.ui.settings import save_endpoints

IMR = os.path.join(REFERENCE, "gpt_3_5_turbo_0613_Infant_Mortality_Rate_world_prompts.csv")


@pytest.fixture()
def dock(qgis_iface, qgis_new_project, processing_ready, tmp_path):
    QgsProject.instance().setFileName(str(tmp_path / "project.qgz"))
    d = GeoBiasDock(qgis_iface)
    d.messages = []
    d.push = lambda text, *a, **k: d.messages.append(text)
    yield d
    d.close_survey()
    d.deleteLater()
    save_endpoints([])


def rated_with_truth(tmp_path):
    rated = survey_plan.run_algorithm("geobias:importratings", {
        "INPUT": IMR, "MODEL": "gpt-3.5-turbo-0613", "TOPIC": "Infant Mortality Rate",
        "OUTPUT": str(tmp_path / "rated.gpkg")})["OUTPUT"]  # fmt: skip
    truth = survey_plan.run_algorithm("geobias:samplegroundtruth", {
        "INPUT": rated, "POLYGONS": COUNTRIES, "POLYGON_FIELD": "infant_mortality",
        "OUTPUT": str(tmp_path / "truth.gpkg")})["OUTPUT"]  # fmt: skip
    layer = QgsVectorLayer(truth, "IMR", "ogr")
    QgsProject.instance().addMapLayer(layer)
    return layer


def test_aggregate_correlate_and_hot_spots_from_the_dock(dock, tmp_path):
    tab = dock.overlay
    assert tab.aggregate() is None
    assert "Choose a rated points layer" in tab.notices["aggregate"].text()
    points = rated_with_truth(tmp_path)
    countries = QgsVectorLayer(os.path.join(DATA, "world_countries.gpkg") + "|layername=countries",
                               "countries", "ogr")  # fmt: skip
    QgsProject.instance().addMapLayer(countries)
    tab.pointsCombo.setLayer(points)
    tab.unitsCombo.setLayer(countries)
    wait_job(dock, tab.aggregate())
    units = tab.units_layer
    assert units is not None and QgsProject.instance().mapLayer(units.id()) is units
    assert units.renderer().type() == "RuleRenderer"  # styled from the GeoPackage
    assert "fewer than 5 (grey)" in dock.messages[-1]
    # The new units are the layer to correlate; the bundled indicators are ticked.
    assert tab.corrLayerCombo.currentLayer() is units
    assert tab.valueFieldCombo.currentField() == "mean_rank_error"
    assert {"infant_mortality", "life_exp", "gdp_percap", "pop_density"} <= set(
        tab.checked_fields()
    )
    assert "n_points" not in [tab.fieldsList.item(i).text() for i in range(tab.fieldsList.count())]
    wait_job(dock, tab.correlate())
    result = tab.corr_result
    assert tab.corrTable.rowCount() == result["N_FIELDS"] >= 4
    assert "variables tested" in tab.noteLabel.text()
    fields = [tab.corrTable.item(r, 0).text() for r in range(tab.corrTable.rowCount())]
    row = fields.index("infant_mortality")
    assert tab.corrTable.item(row, 1).text().startswith("-0.")  # underrated where it is high
    tab.corrTable.setCurrentCell(row, 0)
    assert tab.scatter.xlabel == "infant_mortality" and tab.scatter.ylabel == "mean_rank_error"
    assert np.isfinite(tab.scatter.x).sum() > 50
    image = tab.scatter.grab().toImage()
    colours = {image.pixelColor(x, y).name() for x in range(0, image.width(), 3)
               for y in range(0, image.height(), 3)}  # fmt: skip
    assert len(colours) > 3  # points drawn
    # Hot spots with the distance band, then k nearest neighbours.
    assert tab.hotLayerCombo.currentLayer() is units
    tab.weightsCombo.setCurrentIndex(1)
    assert tab.kmSpin.isEnabled() and not tab.kSpin.isEnabled()
    tab.weightsCombo.setCurrentIndex(0)
    wait_job(dock, tab.hotspots())
    result = tab.hot_result
    assert result["N_UNITS"] > 50 and "Global Moran's I = 0.1" in tab.moranLabel.text()
    # The permutation test's own z beside its p (issue 35: the normal z sat beside it).
    assert "(permutation test: z = {:.2f}, one-sided p = {:.3f})".format(
        result["MORAN_Z_SIM"], result["MORAN_P"]) in tab.moranLabel.text()  # fmt: skip
    hot = [lyr for lyr in QgsProject.instance().mapLayers().values()
           if lyr.name() == "Hot spots of mean_rank_error"]  # fmt: skip
    assert len(hot) == 1 and hot[0].renderer().type() == "RuleRenderer"


def test_correlate_needs_a_field(dock):
    tab = dock.overlay
    for i in range(tab.fieldsList.count()):
        tab.fieldsList.item(i).setCheckState(Qt.CheckState.Unchecked)
    assert tab.correlate() is None
    assert "at least one census field" in tab.notices["correlate"].text()


def test_layers_added_together_fill_the_field_lists(dock):
    # Layers opened together (a project, a multi-file drop) after the dock: the empty layer
    # combos show the first layer without emitting layerChanged; the field lists follow anyway.
    countries = QgsVectorLayer(os.path.join(DATA, "world_countries.gpkg") + "|layername=countries",
                               "countries", "ogr")  # fmt: skip
    copy = countries.clone()
    copy.setName("countries again")
    QgsProject.instance().addMapLayers([countries, copy])
    tab = dock.overlay
    shown = tab.corrLayerCombo.currentLayer()
    assert shown is not None and tab.valueFieldCombo.layer() is shown
    assert "infant_mortality" in tab.checked_fields()
    assert tab.hotFieldCombo.layer() is tab.hotLayerCombo.currentLayer() is not None


def bundled_countries():
    countries = QgsVectorLayer(os.path.join(DATA, "world_countries.gpkg") + "|layername=countries",
                               "countries", "ogr")  # fmt: skip
    QgsProject.instance().addMapLayer(countries)
    return countries


def test_the_bias_measure_defaults_to_the_mean_rank_error_never_to_fid(dock, tmp_path):
    tab = dock.overlay
    countries = bundled_countries()
    # A census layer holds no bias measure: the choice stays empty (it was the first numeric
    # field, fid) and Correlate says what to choose.
    for combo, field_combo in ((tab.corrLayerCombo, tab.valueFieldCombo),
                               (tab.hotLayerCombo, tab.hotFieldCombo)):  # fmt: skip
        combo.setLayer(countries)
        assert field_combo.currentField() == "", field_combo.currentField()
    assert tab.correlate() is None and "bias measure" in tab.notices["correlate"].text()
    points = rated_with_truth(tmp_path)
    tab.corrLayerCombo.setLayer(points)
    assert tab.valueFieldCombo.currentField() == "rank_error"
    tab.pointsCombo.setLayer(points)
    tab.unitsCombo.setLayer(countries)
    wait_job(dock, tab.aggregate())
    units = tab.units_layer
    assert tab.valueFieldCombo.currentField() == tab.hotFieldCombo.currentField() == (
        "mean_rank_error")  # fmt: skip
    tab.corrLayerCombo.setLayer(countries)
    tab.corrLayerCombo.setLayer(units)  # picked again by hand
    assert tab.valueFieldCombo.currentField() == "mean_rank_error"


def test_correlate_says_why_its_rows_are_empty_and_which_minimum_fills_them(dock, tmp_path):
    tab = dock.overlay
    tab.pointsCombo.setLayer(rated_with_truth(tmp_path))
    tab.unitsCombo.setLayer(bundled_countries())
    tab.minPointsSpin.setValue(5000)  # more than any country holds: every unit flagged
    wait_job(dock, tab.aggregate())
    result = wait_job(dock, tab.correlate()) and tab.corr_result
    assert all(tab.corrTable.item(r, 1).text() == "–" for r in range(tab.corrTable.rowCount()))
    note = tab.noteLabel.text()
    assert note.startswith("Every unit has fewer scored points than the minimum"), note
    found = re.search(r"minimum of (\d+) points per unit \((\d+) units would count\)", note)
    assert found, note
    assert tab.corrTable.item(0, 1).toolTip() == note  # each empty row says why
    assert result["N_FIELDS"] == 0
    # That minimum fills the table: aggregated with it, the correlations are computed.
    tab.minPointsSpin.setValue(int(found.group(1)))
    wait_job(dock, tab.aggregate())
    result = wait_job(dock, tab.correlate()) and tab.corr_result
    assert result["N_FIELDS"] >= 4 and "variables tested" in tab.noteLabel.text()
    assert all(tab.corrTable.item(r, 1).text() != "–" for r in range(tab.corrTable.rowCount()))


def test_aggregating_again_replaces_its_own_layer(dock, tmp_path):
    tab = dock.overlay
    tab.pointsCombo.setLayer(rated_with_truth(tmp_path))
    tab.unitsCombo.setLayer(bundled_countries())
    first = wait_job(dock, tab.aggregate()) and tab.units_layer
    root = QgsProject.instance().layerTreeRoot()
    place = [n.layerId() for n in root.children() if hasattr(n, "layerId")].index(first.id())
    tab.minPointsSpin.setValue(2)
    second = wait_job(dock, tab.aggregate()) and tab.units_layer
    aggregated = [lyr for lyr in QgsProject.instance().mapLayers().values()
                  if lyr.name() == "countries: mean rank error"]  # fmt: skip
    assert aggregated == [second] and second is not first
    assert [n.layerId() for n in root.children() if hasattr(n, "layerId")].index(second.id()) == (
        place)  # fmt: skip
    assert tab.corrLayerCombo.currentLayer() is second


def herb_regions(tmp_path):
    """A polygon layer as HERB writes its continents (regions with c_w and c_z), named to come
    first in the units combo."""
    from osgeo import ogr, osr

    path = str(tmp_path / "herb.gpkg")
    ds = ogr.GetDriverByName("GPKG").CreateDataSource(path)
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(4326)
    table = ds.CreateLayer("herb_1_continent", srs, ogr.wkbMultiPolygon)
    for name in ("region", "c_w", "c_z"):
        table.CreateField(ogr.FieldDefn(name, ogr.OFTString if name == "region" else ogr.OFTReal))
    feature = ogr.Feature(table.GetLayerDefn())
    feature.SetField("region", "Oceania")
    feature.SetGeometry(ogr.CreateGeometryFromWkt("MULTIPOLYGON(((110 -50,180 -50,180 0,110 0,"
                                                  "110 -50)))"))  # fmt: skip
    table.CreateFeature(feature)
    ds = None
    layer = QgsVectorLayer(f"{path}|layername=herb_1_continent", "Continent: C_w", "ogr")
    assert layer.isValid()
    assert QgsProject.instance().addMapLayer(layer)
    return layer


def reopen(tmp_path):
    """Save the project, close it and open it again, as a user does."""
    project = QgsProject.instance()
    path = str(tmp_path / "reopened.qgz")
    assert project.write(path)
    project.clear()
    assert project.read(path)
    return {lyr.name(): lyr for lyr in project.mapLayers().values()}


def test_after_reopening_the_units_are_the_users_layer_never_herbs(dock, tmp_path):
    """Issue 35: after reopening, the Overlay tab took HERB's continent layer as its units."""
    tab = dock.overlay
    herb_regions(tmp_path)
    bundled_countries()
    assert tab.unitsCombo.currentLayer().name() == "countries"  # HERB's comes first by name
    layers = reopen(tmp_path)
    assert {"Continent: C_w", "countries"} <= set(layers)
    assert tab.unitsCombo.currentLayer() is layers["countries"]
    # The layer the user chose last is saved with the project and shown again on reopening.
    user = QgsVectorLayer(os.path.join(DATA, "world_countries.gpkg") + "|layername=countries",
                          "zones", "ogr")  # fmt: skip
    assert QgsProject.instance().addMapLayer(user)
    tab.unitsCombo.setLayer(user)  # after "countries" in the combo: not the default
    tab.unitsCombo.activated.emit(tab.unitsCombo.currentIndex())  # as a click does
    layers = reopen(tmp_path)
    assert tab.unitsCombo.currentLayer() is layers["zones"]
    # Even the HERB layer, when the user picks it.
    tab.unitsCombo.setLayer(layers["Continent: C_w"])
    tab.unitsCombo.activated.emit(tab.unitsCombo.currentIndex())
    layers = reopen(tmp_path)
    assert tab.unitsCombo.currentLayer() is layers["Continent: C_w"]
