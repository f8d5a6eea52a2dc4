"""importratings -> samplegroundtruth -> biasmetrics on the real GPT-3.5 ratings and sample data."""

import os
import sqlite3

import numpy as np
import pytest
from osgeo import gdal, osr
from qgis.core import QgsProcessingException, QgsVectorLayer

from geobias.core.stats.hotspots import points_moran
from geobias.paths import DATA

COUNTRIES = os.path.join(DATA, "world_countries.gpkg") + "|layername=countries"
RATED = {"pid", "lat", "lon", "model", "topic", "rating", "expected", "score", "answered",
         "completion", "prompt", "rank", "truth", "truth_rank", "rank_error"}  # fmt: skip
METRICS = {"model", "topic", "score_kind", "n_points", "n_answered", "answer_rate", "mad", "gini",
           "rho_truth", "rho_truth_p", "rho_truth_lo", "rho_truth_hi", "anchor", "rho_anchor",
           "bias_score", "moran_i", "moran_p", "reason"}  # fmt: skip


def run(alg, params):
    import processing

    return processing.run(alg, params)


def imr_csv(reference_dir):
    return os.path.join(reference_dir, "gpt_3_5_turbo_0613_Infant_Mortality_Rate_world_prompts.csv")


def saved_styles(path):
    """{style name: useAsDefault} of a GeoPackage's layer_styles."""
    with sqlite3.connect(path) as con:
        return dict(con.execute("select styleName, useAsDefault from layer_styles").fetchall())


def values(layer, field):
    from geobias.processing.features import as_float

    return as_float([f[field] for f in layer.getFeatures()])


@pytest.fixture()
def imported(processing_ready, reference_dir, tmp_path):
    out = str(tmp_path / "imr.gpkg")
    res = run(
        "geobias:importratings",
        {"INPUT": imr_csv(reference_dir), "MODEL": "gpt-3.5", "OUTPUT": out},
    )
    return res, out


def test_import_schema_ranks_and_saved_styles(imported):
    res, out = imported
    layer = QgsVectorLayer(res["OUTPUT"], "r", "ogr")
    assert layer.isValid() and layer.crs().authid() == "EPSG:4326"
    assert RATED <= set(layer.fields().names())
    assert res["N_POINTS"] == layer.featureCount() == 1999
    first = next(layer.getFeatures())
    assert first["topic"] == "Infant Mortality Rate" and first["model"] == "gpt-3.5"
    rank = values(layer, "rank")
    assert rank.min() >= 0 and rank.max() == 1.0
    # The algorithm saves its styles into the GeoPackage itself (processing.run loads nothing).
    assert saved_styles(out) == {"rank": 1, "rating": 0, "rank_error": 0, "truth_rank": 0}
    # Styling again (the post-processor, the dock) replaces them rather than asking or adding.
    from geobias.processing.styles import style_layer

    assert set(style_layer(layer)) == {"rank", "rating", "rank_error", "truth_rank"}
    with sqlite3.connect(out) as con:
        assert con.execute("select count(*) from layer_styles").fetchone()[0] == 4
    renderer = layer.renderer()
    assert renderer.classAttribute() == "rank"
    ranges = renderer.ranges()  # kept: a range's symbol dies with a temporary copy
    # Infant mortality: higher is worse, so the highest ranks (first in the legend) are dark red.
    top, bottom = ranges[0].symbol().color(), ranges[-1].symbol().color()
    assert ranges[0].label() == "highest (0.8–1)"  # the legend's heading says of what
    assert top.red() > 2 * top.green() and bottom.lightness() > top.lightness()


def test_truth_from_countries_and_metrics_match_paper(imported, tmp_path):
    res, _ = imported
    truth = run("geobias:samplegroundtruth", {
        "INPUT": res["OUTPUT"], "POLYGONS": COUNTRIES, "POLYGON_FIELD": "infant_mortality",
        "OUTPUT": str(tmp_path / "truth.gpkg"),
    })  # fmt: skip
    layer = QgsVectorLayer(truth["OUTPUT"], "t", "ogr")
    t, err = values(layer, "truth"), values(layer, "rank_error")
    assert truth["N_TRUTH"] == np.isfinite(t).sum() > 1500
    assert truth["N_MISSING"] == np.isnan(t).sum() > 0  # ocean / unmatched points
    assert np.nanmin(err) < 0 < np.nanmax(err) and np.all(np.abs(err[np.isfinite(err)]) <= 1)
    assert saved_styles(truth["OUTPUT"])["rank_error"] == 1  # truth exists: rank error default
    metrics = run("geobias:biasmetrics", {
        "INPUT": [truth["OUTPUT"]], "ANCHOR": COUNTRIES, "ANCHOR_FIELD": "infant_survival",
        "N_BOOT": 200, "OUTPUT": "memory:",
    })["OUTPUT"]  # fmt: skip
    assert METRICS <= set(metrics.fields().names())
    (row,) = list(metrics.getFeatures())
    assert row["mad"] == pytest.approx(2.40, abs=0.01) and row["gini"] == pytest.approx(
        0.30, abs=0.01
    )
    assert row["rho_truth"] > 0.6 and row["rho_truth_lo"] < row["rho_truth"] < row["rho_truth_hi"]
    # Rating infant mortality high where survival is low: B is negative.
    assert row["rho_anchor"] < -0.6 and row["bias_score"] < 0
    # The rank errors cluster in space (GPT-3.5 misjudges whole regions): Moran's I on the
    # points' 8 nearest neighbours, the same as from the layer's own rank_error field.
    lon, lat = values(layer, "lon"), values(layer, "lat")
    moran = points_moran(lon, lat, err, seed=0)
    assert row["moran_i"] == pytest.approx(moran.I) and row["moran_p"] == moran.p_sim
    assert row["moran_i"] > 0.1 and row["moran_p"] < 0.01


def make_raster(path, with_crs=True):
    """A 1 km-ish grid over (0..10E, 40..50N) whose value is the column index; -1 is nodata."""
    ds = gdal.GetDriverByName("GTiff").Create(path, 1000, 1000, 1, gdal.GDT_Float32)
    ds.SetGeoTransform((0, 0.01, 0, 50, 0, -0.01))
    if with_crs:
        srs = osr.SpatialReference()
        srs.ImportFromEPSG(4326)
        ds.SetProjection(srs.ExportToWkt())
    data = np.tile(np.arange(1000, dtype=np.float32), (1000, 1))
    data[:, 500:502] = -1
    band = ds.GetRasterBand(1)
    band.SetNoDataValue(-1)
    band.WriteArray(data)
    ds = None
    return path


def test_truth_from_raster_window_and_outside_points(imported, tmp_path):
    res, _ = imported
    raster = make_raster(str(tmp_path / "r.tif"))
    out = run("geobias:samplegroundtruth", {
        "INPUT": res["OUTPUT"], "RASTER": raster, "WINDOW_KM": 5, "STATISTIC": 0,
        "OUTPUT": "memory:",
    })  # fmt: skip
    layer = out["OUTPUT"]
    lon, t = values(layer, "lon"), values(layer, "truth")
    inside = np.isfinite(t)
    assert out["N_TRUTH"] == inside.sum() > 0 and out["N_MISSING"] == (~inside).sum() > 1000
    # Mean of the column index over a window centred on the point ≈ the point's column.
    assert np.allclose(t[inside], lon[inside] / 0.01, atol=2.0)


def test_raster_without_crs_is_a_clear_error(imported, tmp_path):
    res, _ = imported
    raster = make_raster(str(tmp_path / "nocrs.tif"), with_crs=False)
    with pytest.raises(QgsProcessingException, match="coordinate reference system"):
        run(
            "geobias:samplegroundtruth",
            {"INPUT": res["OUTPUT"], "RASTER": raster, "OUTPUT": "memory:"},
        )


def test_non_numeric_truth_field_is_refused(imported):
    res, _ = imported
    with pytest.raises(QgsProcessingException):
        run("geobias:samplegroundtruth", {
            "INPUT": res["OUTPUT"], "POLYGONS": COUNTRIES, "POLYGON_FIELD": "name",
            "OUTPUT": "memory:",
        })  # fmt: skip


def test_truth_from_nearest_point_layer(imported):
    res, _ = imported
    src = QgsVectorLayer(res["OUTPUT"], "src", "ogr")
    out = run("geobias:samplegroundtruth", {
        "INPUT": res["OUTPUT"], "POINTS": src, "POINT_FIELD": "score", "MAX_DISTANCE_KM": 1,
        "OUTPUT": "memory:",
    })["OUTPUT"]  # fmt: skip
    # Each point is its own nearest truth point: truth == score, no rank error.
    assert np.allclose(values(out, "truth"), values(out, "score"))
    assert np.nanmax(np.abs(values(out, "rank_error"))) < 1e-9


def test_import_refuses_table_without_answers(processing_ready, tmp_path):
    path = tmp_path / "empty.csv"
    path.write_text("Latitude,Longitude,Predictions\n1.0,2.0,\n3.0,4.0,\n")
    out = tmp_path / "never.gpkg"
    with pytest.raises(QgsProcessingException, match="answered"):
        run("geobias:importratings", {"INPUT": str(path), "OUTPUT": str(out)})
    assert not out.exists()


def test_write_points_layer_nulls_index_extent_and_replace(tmp_path):
    from geobias.processing.gpkg import write_points_layer

    path = str(tmp_path / "w.gpkg")
    cols = {
        "pid": np.arange(3, dtype=np.int64),
        "lon": np.array([10.0, np.nan, -20.5]),
        "lat": np.array([45.0, 1.0, -30.25]),
        "rating": np.array([1.5, np.nan, 9.9]),
        "model": ["m", None, "é"],
    }
    write_points_layer(path, "old", cols)
    uri = write_points_layer(path, "old", cols)  # replaced, not appended
    layer = QgsVectorLayer(uri, "w", "ogr")
    assert layer.isValid() and layer.featureCount() == 3 and layer.crs().authid() == "EPSG:4326"
    feats = {f["pid"]: f for f in layer.getFeatures()}
    assert feats[0].geometry().asPoint().x() == 10.0 and feats[2]["model"] == "é"
    assert feats[1].geometry().isNull()  # NaN coordinates: no geometry
    assert is_null(feats[1]["rating"]) and is_null(feats[1]["model"])
    assert is_null(feats[0]["truth"]) and feats[0]["rating"] == 1.5  # truth: column not given
    assert layer.hasSpatialIndex() == layer.SpatialIndexPresent
    extent = layer.extent()
    assert (extent.xMinimum(), extent.yMaximum()) == (-20.5, 45.0)


def is_null(value):
    return value is None or (hasattr(value, "isNull") and value.isNull())


def test_window_median_and_max_match_a_loop_over_windows():
    from geobias.processing.rasters import _window_reduce

    rng = np.random.default_rng(3)
    data = rng.random((40, 60))
    data[rng.random(data.shape) < 0.3] = np.nan
    data[:5, :5] = np.nan  # an all-nodata window
    a0 = rng.integers(0, 55, 200)
    b0 = rng.integers(0, 35, 200)
    a1, b1 = a0 + rng.integers(1, 6, 200), b0 + rng.integers(1, 6, 200)
    a0[0], a1[0], b0[0], b1[0] = 0, 5, 0, 5
    for fn in (np.nanmedian, np.nanmax):
        got = _window_reduce(data, a0, a1, b0, b1, fn, max_cells=50)  # several chunks
        for k in range(len(a0)):
            win = data[b0[k] : b1[k], a0[k] : a1[k]]
            want = fn(win) if np.isfinite(win).any() else np.nan
            assert got[k] == want or (np.isnan(got[k]) and np.isnan(want))


def test_quantile_breaks_from_arrays():
    from geobias.processing.styles import quantile_breaks

    breaks = quantile_breaks([np.nan, 4, 1, 2, 3, 5, 6, 7, 8, 9, 10], 5)
    assert breaks[0] == 1 and breaks[-1] == 10 and len(breaks) == 6
    assert list(quantile_breaks([2.0, 2.0, np.nan])) == [2.0, 2.0]
    assert len(quantile_breaks([np.nan])) == 0
