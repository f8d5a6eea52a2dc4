"""samplepoints, ratelocations and survey through processing.run, against a local chat server."""

import os
import sqlite3

import numpy as np
import pytest
from qgis.core import QgsFeature, QgsGeometry, QgsProcessingException, QgsVectorLayer

from geobias.paths import DATA
from geobias.processing.features import as_float
from geobias.test.faultserver import FaultServer

COUNTRIES = os.path.join(DATA, "world_countries.gpkg") + "|layername=countries"


def run(alg, params):
    import processing

    return processing.run(alg, params)


def polygon_layer(wkt, crs="EPSG:4326"):
    layer = QgsVectorLayer(f"Polygon?crs={crs}", "region", "memory")
    feature = QgsFeature()
    feature.setGeometry(QgsGeometry.fromWkt(wkt))
    layer.dataProvider().addFeatures([feature])
    return layer


def test_samplepoints_methods_stay_in_region(processing_ready):
    france = COUNTRIES + "|subset=\"name\" = 'France'"
    for method in range(5):
        if method == 2:
            continue  # raster weights: covered by the raster helper test below
        out = run("geobias:samplepoints", {"REGION": france, "COUNT": 40, "METHOD": method,
                                           "OUTPUT": "memory:"})  # fmt: skip
        layer = out["OUTPUT"]
        assert layer.crs().authid() == "EPSG:4326" and out["N_POINTS"] == layer.featureCount()
        assert 20 <= layer.featureCount() <= 60
        fr = QgsVectorLayer(france, "fr", "ogr")
        geom = next(fr.getFeatures()).geometry()
        assert all(geom.contains(f.geometry()) for f in layer.getFeatures())


def test_samplepoints_reprojects_and_repairs_region(processing_ready):
    # A self-intersecting bow-tie in Web Mercator around (0..10E, 40..50N).
    bowtie = "POLYGON((0 4865942, 1113195 6446276, 1113195 4865942, 0 6446276, 0 4865942))"
    out = run("geobias:samplepoints", {"REGION": polygon_layer(bowtie, "EPSG:3857"), "COUNT": 30,
                                       "METHOD": 0, "SEED": 1, "OUTPUT": "memory:"})  # fmt: skip
    xs = np.array([f.geometry().asPoint().x() for f in out["OUTPUT"].getFeatures()])
    ys = np.array([f.geometry().asPoint().y() for f in out["OUTPUT"].getFeatures()])
    assert len(xs) == 30 and xs.min() >= 0 and xs.max() <= 10 and ys.min() >= 40 and ys.max() <= 50


def test_samplepoints_empty_region_is_an_error(processing_ready):
    with pytest.raises(QgsProcessingException, match="region"):
        run("geobias:samplepoints", {"REGION": polygon_layer("POLYGON((0 0, 1 1, 2 2, 0 0))"),
                                     "COUNT": 5, "METHOD": 0, "OUTPUT": "memory:"})  # fmt: skip


@pytest.fixture()
def points(processing_ready):
    return run("geobias:samplepoints", {"COUNT": 12, "METHOD": 1, "OUTPUT": "memory:"})["OUTPUT"]


def test_ratelocations_writes_layers_and_runs_without_key(points, tmp_path):
    out = str(tmp_path / "rated.gpkg")
    with FaultServer() as fs:
        res = run("geobias:ratelocations", {
            "INPUT": points, "PROVIDER": 9, "BASE_URL": fs.base_url, "MODEL": "fake-model",
            "TOPICS": "Infant Mortality Rate; Average Attractiveness of Residents", "OUTPUT": out,
        })  # fmt: skip
    assert len(res["OUTPUT_LAYERS"]) == 2 and res["N_ANSWERED"] == 24
    layer = QgsVectorLayer(res["OUTPUT_LAYERS"][0], "r", "ogr")
    assert layer.featureCount() == 12 and layer.crs().authid() == "EPSG:4326"
    f = next(layer.getFeatures())
    assert f["model"] == "fake-model" and "Coordinates:" in f["prompt"] and f["answered"] == 1
    assert 0 <= f["score"] <= 9.9 and f["score_kind"] == "expected"
    with sqlite3.connect(out) as con:
        run_row = con.execute(
            "select endpoint_host, template_name, parameters from runs"
        ).fetchone()
        styles = {r[0] for r in con.execute("select styleName from layer_styles")}
    assert run_row[0] == fs.base_url.split("/")[2] and run_row[1] == "geollm"
    assert "AUTH" not in run_row[2]
    assert {"rank", "rating"} <= styles


def test_ratelocations_unreachable_endpoint_writes_nothing(points, tmp_path):
    out = tmp_path / "never.gpkg"
    with pytest.raises(QgsProcessingException, match="reachable|refused"):
        run("geobias:ratelocations", {"INPUT": points, "PROVIDER": 9,
                                      "BASE_URL": "http://127.0.0.1:9/v1", "MODEL": "m",
                                      "OUTPUT": str(out)})  # fmt: skip
    assert not out.exists()


def test_ratelocations_rejected_key_is_an_error(points, tmp_path):
    with FaultServer(always="401") as fs, pytest.raises(QgsProcessingException):
        params = {"INPUT": points, "PROVIDER": 9, "BASE_URL": fs.base_url, "MODEL": "m"}
        run("geobias:ratelocations", {**params, "OUTPUT": str(tmp_path / "x.gpkg")})
    assert not (tmp_path / "x.gpkg").exists()


def test_survey_chain_writes_metrics_with_anchor(processing_ready, tmp_path):
    out = str(tmp_path / "survey.gpkg")
    with FaultServer() as fs:
        res = run("geobias:survey", {
            "COUNT": 30, "METHOD": 1, "PROVIDER": 9, "BASE_URL": fs.base_url, "MODEL": "fake",
            "TOPICS": "Infant Mortality Rate;Average Attractiveness of Residents",
            "TRUTH": COUNTRIES, "TRUTH_FIELD": "infant_mortality",
            "ANCHOR": COUNTRIES, "ANCHOR_FIELD": "infant_survival", "N_BOOT": 50, "OUTPUT": out,
        })  # fmt: skip
    metrics = QgsVectorLayer(res["METRICS"], "m", "ogr")
    rows = {f["topic"]: f for f in metrics.getFeatures()}
    assert set(rows) == {"Infant Mortality Rate", "Average Attractiveness of Residents"}
    imr = rows["Infant Mortality Rate"]
    assert imr["n_points"] == 30 and imr["anchor"] == "Countries.infant_survival"
    other = rows["Average Attractiveness of Residents"]
    assert np.isfinite(as_float([imr["rho_truth"]])[0])
    assert np.isnan(as_float([other["rho_truth"]])[0])
    rated = QgsVectorLayer(res["OUTPUT_LAYERS"][0], "r", "ogr")
    assert np.isfinite(as_float([f["truth"] for f in rated.getFeatures()])).any()


def test_raster_weighted_candidates(tmp_path):
    from osgeo import gdal, osr

    from geobias.processing.rasters import raster_candidates

    path = str(tmp_path / "w.tif")
    ds = gdal.GetDriverByName("GTiff").Create(path, 20, 10, 1, gdal.GDT_Float32)
    ds.SetGeoTransform((0, 1, 0, 10, 0, -1))
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(4326)
    ds.SetProjection(srs.ExportToWkt())
    data = np.zeros((10, 20), np.float32)
    data[2, 3] = 5.0
    ds.GetRasterBand(1).WriteArray(data)
    ds = None
    cand, weights = raster_candidates(path, 1)
    assert cand.tolist() == [[3.5, 7.5]] and weights.tolist() == [5.0]


def test_api_key_from_the_auth_database_is_sent_but_never_written(processing_ready, tmp_path):
    """The key reaches the endpoint, and nowhere else: not the GeoPackage, cache or log."""
    from qgis.core import QgsApplication, QgsProcessingFeedback

    from geobias.processing.endpoints import default_cache_path
    from geobias.ui.settings import store_api_key

    manager = QgsApplication.authManager()
    if not manager.masterPasswordIsSet():
        assert manager.setMasterPassword("geobias-test", True)
    secret = "sk-test-NEVER-WRITTEN-5f3a9c"
    authcfg = store_api_key("key test", secret)

    class Log(QgsProcessingFeedback):
        lines = []

        def pushInfo(self, info):
            self.lines.append(info)

        def setProgressText(self, text):
            self.lines.append(text)

    points = polygon_layer("POLYGON((0 40,10 40,10 50,0 50,0 40))")
    pts = run("geobias:samplepoints", {"REGION": points, "COUNT": 4, "METHOD": 0,
                                       "OUTPUT": "memory:"})["OUTPUT"]  # fmt: skip
    out = tmp_path / "keyed.gpkg"
    import processing

    feedback = Log()
    with FaultServer() as fs:
        processing.run("geobias:ratelocations", {"INPUT": pts, "PROVIDER": 9,
                       "BASE_URL": fs.base_url, "MODEL": "m", "AUTH_CONFIG": authcfg,
                       "TOPICS": "Infant Mortality Rate", "OUTPUT": str(out)},
                       feedback=feedback)  # fmt: skip
    assert fs.authorizations[f"Bearer {secret}"] == 4  # the key was used for every request
    cache = default_cache_path()
    files = [str(out), cache] + [cache + s for s in ("-wal", "-shm") if os.path.exists(cache + s)]
    written = b"".join(open(f, "rb").read() for f in files)
    assert secret.encode() not in written
    assert not [line for line in Log.lines if secret in line]
    manager.removeAuthenticationConfig(authcfg)
