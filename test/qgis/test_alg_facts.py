"""Issue 21, item 2: every result states what it measured. A survey of a polygon drawn over
Africa, rated by a local chat server, with the bundled countries' truth: the points, ratings and
ground truth GeoPackages' runs rows, the layers' metadata and the report's PDF name the drawn
area (its km² and extent), `Countries.infant_mortality`, the anchor, model, endpoint, prompt
preset, score kind, date and version; the report's maps are zoomed to Africa, not the world."""

import math
import os
import re
import subprocess
import unicodedata

import pytest
from qgis.core import (
    QgsApplication,
    QgsCoordinateReferenceSystem,
    QgsCoordinateTransform,
    QgsFeature,
    QgsGeometry,
    QgsProcessingFeatureSourceDefinition,
    QgsProject,
    QgsVectorLayer,
)

from geobias.paths import DATA
from geobias.processing.runs import plugin_version, read_runs
from geobias.test.faultserver import FaultServer
from geobias.test.qgis.conftest import register_providers

COUNTRIES = os.path.join(DATA, "world_countries.gpkg") + "|layername=countries"
# A polygon drawn over Africa (lon/lat): as the dock's map tool hands it over.
AFRICA = "POLYGON((-17 -35,52 -35,52 37,-17 37,-17 -35))"
DRAWN = "a polygon drawn on the map"
SECRET = "sk-test-facts-NEVER-WRITTEN-71c2"
# The authalic radius of the WGS84 ellipsoid (km): a lon/lat rectangle's area on that sphere is
# R² Δλ (sin φ1 − sin φ0), close to the ellipsoid's.
R_AUTHALIC = 6371.0072


def run(alg, params):
    import processing

    return processing.run(alg, params)


def pdf_text(path):
    out = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True,
                         text=True, check=True).stdout  # fmt: skip
    return " ".join(unicodedata.normalize("NFKC", out).split())


def drawn_layer(wkt):
    """The dock's study area layer: a memory polygon layer in EPSG:4326."""
    layer = QgsVectorLayer("MultiPolygon?crs=EPSG:4326", "study area", "memory")
    feature = QgsFeature()
    feature.setGeometry(QgsGeometry.fromWkt(wkt))
    layer.dataProvider().addFeatures([feature])
    return layer


@pytest.fixture(scope="module")
def survey(qgis_app, qgis_processing, tmp_path_factory):
    """samplepoints (the drawn area, as the dock names it) → ratelocations (with an API key) →
    samplegroundtruth (bundled countries); the files of each step."""
    from geobias.ui.settings import store_api_key

    register_providers()
    manager = QgsApplication.authManager()
    if not manager.masterPasswordIsSet():
        assert manager.setMasterPassword("geobias-test", True)
    authcfg = store_api_key("facts test", SECRET)
    folder = tmp_path_factory.mktemp("facts")
    points = run("geobias:samplepoints", {
        "REGION": drawn_layer(AFRICA), "COUNT": 25, "METHOD": 0, "SEED": 3,
        "STUDY_AREA": DRAWN, "OUTPUT": str(folder / "points.gpkg"),
    })["OUTPUT"]  # fmt: skip
    with FaultServer() as fs:
        rated = run("geobias:ratelocations", {
            "INPUT": points, "PROVIDER": 9, "BASE_URL": fs.base_url, "MODEL": "fake-model",
            "AUTH_CONFIG": authcfg, "TOPICS": "Infant Mortality Rate",
            "OUTPUT": str(folder / "rated.gpkg"),
        })  # fmt: skip
        url = fs.base_url
    truth = run("geobias:samplegroundtruth", {
        "INPUT": rated["OUTPUT_LAYERS"][0], "POLYGONS": COUNTRIES,
        "POLYGON_FIELD": "infant_mortality", "OUTPUT": str(folder / "truth.gpkg"),
    })["OUTPUT"]  # fmt: skip
    yield {"folder": folder, "points": points, "rated": rated, "truth": truth, "url": url}
    manager.removeAuthenticationConfig(authcfg)


def africa_km2():
    lat0, lat1 = math.radians(-35), math.radians(37)
    return R_AUTHALIC**2 * math.radians(52 - -17) * (math.sin(lat1) - math.sin(lat0))


def test_runs_rows_carry_the_drawn_area_and_the_truth_as_layer_field(survey):
    folder = survey["folder"]
    (sampled,) = read_runs(str(folder / "points.gpkg"))
    assert sampled["algorithm"] == "geobias:samplepoints" and sampled["study_area"] == DRAWN
    assert sampled["study_area_km2"] == pytest.approx(africa_km2(), rel=0.005)
    x0, y0, x1, y1 = map(float, sampled["study_area_extent"].split())
    assert (x0, y0, x1, y1) == pytest.approx((-17, -35, 52, 37))
    assert QgsGeometry.fromWkt(sampled["study_area_wkt"]).boundingBox().width() == pytest.approx(69)
    # The ratings carry the area they were sampled in, with their own model, prompt and score.
    (rated,) = read_runs(str(folder / "rated.gpkg"))
    assert rated["study_area"] == DRAWN and rated["study_area_km2"] == sampled["study_area_km2"]
    assert rated["model"] == "fake-model" and rated["template_name"] == "geollm"
    assert rated["score_kind"] == "expected" and rated["plugin_version"] == plugin_version()
    # The ground truth's file says on its own what it measured: the rating run's facts and
    # the truth as layer.field (the bundled countries by the name of their data).
    (truth,) = read_runs(survey["truth"])
    assert truth["algorithm"] == "geobias:samplegroundtruth"
    assert truth["truth"] == "Countries.infant_mortality"
    assert truth["study_area"] == DRAWN and truth["model"] == "fake-model"
    assert truth["endpoint_host"] == rated["endpoint_host"] and truth["n_requests"] == 0


def test_layer_metadata_states_what_was_measured(survey):
    layer = QgsVectorLayer(survey["truth"], "truth", "ogr")
    abstract = layer.metadata().abstract()
    km2 = f"{read_runs(survey['truth'])[0]['study_area_km2']:,.0f}"
    for part in (f"Study area: {DRAWN}, {km2} km²", "Ground truth: Countries.infant_mortality",
                 "Model: fake-model", "Prompt preset: geollm", "Score: expected value",
                 f"GeoBias {plugin_version()}"):  # fmt: skip
        assert part in abstract, (part, abstract)
    rated = QgsVectorLayer(survey["rated"]["OUTPUT_LAYERS"][0], "rated", "ogr")
    assert f"Study area: {DRAWN}" in rated.metadata().abstract()
    assert "Ground truth: none" in rated.metadata().abstract()


def test_report_names_the_drawn_area_truth_and_anchor_and_zooms_to_it(survey):
    folder = survey["folder"]
    pdf = folder / "report.pdf"
    res = run("geobias:report", {
        "INPUT": survey["truth"], "ANCHOR": COUNTRIES, "ANCHOR_FIELD": "infant_survival",
        "N_BOOT": 50, "DPI": 50, "OUTPUT": str(pdf),
    })  # fmt: skip
    text = pdf_text(pdf)
    row = read_runs(survey["truth"])[0]
    km2 = f"{row['study_area_km2']:,.0f}"
    host = survey["url"].split("//")[1]
    # (A long value wraps in its cell: pdftotext puts the label between its lines.)
    parts = ("Study area", f"{DRAWN}, {km2} km² (longitude -17.00° to 52.00°, latitude",
             "-35.00° to 37.00°); 25 points", "Ground truth Countries.infant_mortality",
             "Anchor Countries.infant_survival", "Model fake-model", f"Endpoint custom at {host}",
             "Prompt preset geollm", "Score expected value", f"Date {row['started'][:10]}",
             f"GeoBias {plugin_version()}", "Spearman's rho with the anchor")  # fmt: skip
    for part in parts:
        part = unicodedata.normalize("NFKC", part)  # as pdf_text reads it: km² -> km2
        assert part in text, (part, text[:1500])
    assert "the world" not in text and "Equal Earth" not in text
    # The maps are centred on Africa in a Lambert projection and show the drawn outline.
    layout = QgsProject.instance().layoutManager().layoutByName(res["LAYOUT"])
    maps = [i for i in layout.items() if i.__class__.__name__ == "QgsLayoutItemMap"]
    assert maps and all("+proj=laea" in m.crs().toProj() for m in maps)
    lon0 = float(re.search(r"\+lon_0=([-0-9.]+)", maps[0].crs().toProj()).group(1))
    lat0 = float(re.search(r"\+lat_0=([-0-9.]+)", maps[0].crs().toProj()).group(1))
    assert (lon0, lat0) == pytest.approx((17.5, 1.0))
    outline = [lyr for lyr in maps[0].layers() if lyr.name() == "Study area"]
    assert outline and outline[0].featureCount() == 1
    # Africa is inside the map, which is far from a world map (Equal Earth is 34,500 km wide).
    extent = maps[0].extent()
    to_map = QgsCoordinateTransform(QgsCoordinateReferenceSystem("EPSG:4326"), maps[0].crs(),
                                    QgsProject.instance())  # fmt: skip
    africa = to_map.transformBoundingBox(QgsGeometry.fromWkt(AFRICA).boundingBox())
    # (the map is wider than tall: Africa, taller than wide, sets its height)
    assert extent.contains(africa) and extent.height() < 1.3 * africa.height()
    # No API key in anything written.
    for path in (pdf, folder / "rated.gpkg", folder / "truth.gpkg", folder / "points.gpkg"):
        assert SECRET.encode() not in path.read_bytes()
    assert SECRET not in text


def test_processing_names_the_region_layer_selection_extent_or_world(processing_ready, tmp_path):
    countries = QgsVectorLayer(COUNTRIES, "My countries", "ogr")
    QgsProject.instance().addMapLayer(countries)
    ids = [f.id() for f in countries.getFeatures() if f["name"] in ("Kenya", "Uganda")]
    countries.selectByIds(ids)
    selected = QgsProcessingFeatureSourceDefinition(countries.id(), True)
    cases = {
        "selection": ({"REGION": selected}, "Countries: "),
        "extent": ({"EXTENT": "0,10,40,50 [EPSG:4326]"}, "an extent (EPSG:4326)"),
        "world": ({}, "the world"),
    }
    for name, (params, expected) in cases.items():
        out = str(tmp_path / f"{name}.gpkg")
        run("geobias:samplepoints", {**params, "COUNT": 5, "METHOD": 0, "OUTPUT": out})
        (row,) = read_runs(out)
        assert row["study_area"].startswith(expected), (name, row["study_area"])
    (row,) = read_runs(str(tmp_path / "selection.gpkg"))
    assert "Kenya" in row["study_area"] and "Uganda" in row["study_area"]
    assert "2 selected features" in row["study_area"]
    assert 700_000 < row["study_area_km2"] < 900_000  # Kenya 580,000 + Uganda 240,000 km²
    (row,) = read_runs(str(tmp_path / "world.gpkg"))
    assert row["study_area_extent"].split() == ["-180.000000", "-90.000000", "180.000000",
                                                "90.000000"]  # fmt: skip
    QgsProject.instance().removeMapLayer(countries.id())


def test_survey_names_truth_and_anchor_as_layer_field(processing_ready, tmp_path):
    out = str(tmp_path / "survey.gpkg")
    with FaultServer() as fs:
        res = run("geobias:survey", {
            "REGION": drawn_layer(AFRICA), "COUNT": 12, "METHOD": 0, "PROVIDER": 9,
            "BASE_URL": fs.base_url, "MODEL": "fake", "TOPICS": "Infant Mortality Rate",
            "TRUTH": COUNTRIES, "TRUTH_FIELD": "infant_mortality", "ANCHOR": COUNTRIES,
            "ANCHOR_FIELD": "infant_survival", "ANCHOR_NAME": "UNICEF.survival", "N_BOOT": 0,
            "OUTPUT": out,
        })  # fmt: skip
    (row,) = read_runs(out)
    assert row["truth"] == "Countries.infant_mortality" and row["anchor"] == "UNICEF.survival"
    assert row["study_area"] == "study area"  # the REGION layer's name, as qgis_process gives it
    metrics = QgsVectorLayer(res["METRICS"], "m", "ogr")
    assert [f["anchor"] for f in metrics.getFeatures()] == ["UNICEF.survival"]


def test_overlay_and_comparison_outputs_say_what_they_measured(survey):
    folder = survey["folder"]
    units = run("geobias:aggregatetopolygons", {
        "INPUT": survey["truth"], "POLYGONS": COUNTRIES, "MIN_POINTS": 1,
        "OUTPUT": str(folder / "units.gpkg"),
    })["OUTPUT"]  # fmt: skip
    run("geobias:hotspots", {"INPUT": units, "SKIP_FLAGGED": False, "PERMUTATIONS": 99,
                             "OUTPUT": str(folder / "hot.gpkg")})  # fmt: skip
    run("geobias:comparemodels", {"INPUT": [survey["truth"]], "N_BOOT": 0,
                                  "OUTPUT": str(folder / "compare.gpkg")})  # fmt: skip
    for name, algorithm in (("units", "aggregatetopolygons"), ("hot", "hotspots"),
                            ("compare", "comparemodels")):  # fmt: skip
        (row,) = read_runs(str(folder / f"{name}.gpkg"))
        assert row["algorithm"] == f"geobias:{algorithm}"
        assert row["study_area"] == DRAWN and row["model"] == "fake-model", name
        assert row["truth"] == "Countries.infant_mortality" and row["template_name"] == "geollm"
