"""Issue 15: rated points per census unit, correlation with census fields, bias hot spots, on
the bundled world countries (GPT-3.5's infant mortality ratings) and US counties (GPT-3.5's
Bay Area ratings, 2009 unemployment)."""

import os

import numpy as np
import pytest
from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsFeature,
    QgsGeometry,
    QgsPointXY,
    QgsProcessingException,
    QgsProcessingFeedback,
    QgsVectorLayer,
)
from scipy import stats

from geobias.core.stats.hotspots import getis_ord_star, global_moran, local_moran
from geobias.core.stats.spatial_weights import knn_weights
from geobias.paths import DATA, REFERENCE
from geobias.processing.features import as_float
from geobias.test.qgis.conftest import register_providers

COUNTRIES = os.path.join(DATA, "world_countries.gpkg") + "|layername=countries"
COUNTIES = os.path.join(DATA, "us_counties.gpkg") + "|layername=counties"
IMR = os.path.join(REFERENCE, "gpt_3_5_turbo_0613_Infant_Mortality_Rate_world_prompts.csv")
BAY = os.path.join(
    REFERENCE, "gpt_3_5_turbo_0613_Average_Intelligence_of_Residents_bay_area_prompts.csv"
)
INDICATORS = ["infant_mortality", "life_exp", "gdp_percap", "pop_density"]


def run(alg, params, feedback=None):
    import processing

    return processing.run(alg, params, feedback=feedback)


class Log(QgsProcessingFeedback):
    def __init__(self):
        super().__init__()
        self.infos, self.warnings = [], []

    def pushInfo(self, info):
        self.infos.append(info)

    def pushWarning(self, warning):
        self.warnings.append(warning)


def layer(uri):
    lyr = uri if isinstance(uri, QgsVectorLayer) else QgsVectorLayer(uri, "l", "ogr")
    assert lyr.isValid(), uri
    return lyr


def column(lyr, name):
    return as_float([f[name] for f in layer(lyr).getFeatures()])


@pytest.fixture(scope="module")
def world(qgis_app, qgis_processing, tmp_path_factory):
    """GPT-3.5's infant mortality ratings with the countries' truth, aggregated to countries."""
    register_providers()
    folder = tmp_path_factory.mktemp("overlay")
    params = {"INPUT": IMR, "MODEL": "gpt-3.5-turbo-0613", "TOPIC": "Infant Mortality Rate",
              "OUTPUT": str(folder / "imr.gpkg")}  # fmt: skip
    rated = run("geobias:importratings", params)["OUTPUT"]
    params = {"INPUT": rated, "POLYGONS": COUNTRIES, "POLYGON_FIELD": "infant_mortality",
              "OUTPUT": str(folder / "truth.gpkg")}  # fmt: skip
    truth = run("geobias:samplegroundtruth", params)["OUTPUT"]
    log = Log()
    params = {"INPUT": truth, "POLYGONS": COUNTRIES, "MIN_POINTS": 5,
              "OUTPUT": str(folder / "units.gpkg")}  # fmt: skip
    units = run("geobias:aggregatetopolygons", params, log)
    return {"folder": folder, "rated": rated, "truth": truth, "units": units, "log": log}


def test_aggregate_gpt35_ratings_to_countries(world):
    units = layer(world["units"]["OUTPUT"])
    truth = layer(world["truth"])
    names = units.fields().names()
    for f in ["name", "infant_mortality", "n_points", "n_scored", "answer_rate", "mean_rating",
              "mean_rank", "mean_rank_error", "few_points"]:  # fmt: skip
        assert f in names  # the census fields come along
    n_points = column(units, "n_points")
    assert n_points.sum() + world["units"]["N_OUTSIDE"] == truth.featureCount()
    assert world["units"]["N_UNITS"] == int((n_points > 0).sum()) > 100
    # Independently: the points' truth units (from 'Sample ground truth') give the same means.
    by_unit = {}
    for f in truth.getFeatures():
        if f["truth_unit"] is not None and str(f["truth_unit"]) != "NULL":
            by_unit.setdefault(int(f["truth_unit"]), []).append((f["score"], f["rank_error"]))
    checked = 0
    for f in units.getFeatures():
        rows = by_unit.get(f.id())
        if not rows or f["n_points"] != len(rows):
            continue  # a unit with points without truth (none in this data) is skipped
        assert f["mean_rating"] == pytest.approx(np.mean([r[0] for r in rows]))
        assert f["mean_rank_error"] == pytest.approx(np.mean([r[1] for r in rows]))
        checked += 1
    assert checked > 100
    few = column(units, "few_points")
    assert np.array_equal(few == 1, column(units, "n_scored") < 5)
    assert units.renderer().type() == "RuleRenderer"  # the default style saved in the file
    labels = [r.label() for r in units.renderer().rootRule().children()]
    assert any("overestimate" in lbl for lbl in labels) and any("few" in lbl for lbl in labels)


def test_aggregate_is_the_same_in_a_projected_crs(world, tmp_path):
    eq = run("native:reprojectlayer", {"INPUT": COUNTRIES, "TARGET_CRS": "EPSG:8857",
                                       "OUTPUT": str(tmp_path / "eq.gpkg")})["OUTPUT"]  # fmt: skip
    res = run("geobias:aggregatetopolygons", {"INPUT": world["truth"], "POLYGONS": eq,
                                             "OUTPUT": str(tmp_path / "u.gpkg")})  # fmt: skip
    out = layer(res["OUTPUT"])
    assert out.crs().authid() == "EPSG:8857"
    a, b = column(out, "n_points"), column(world["units"]["OUTPUT"], "n_points")
    # Reprojected edges bend between their vertices: only points next to a border may move.
    assert np.abs(a - b).sum() <= 10 and a.sum() >= b.sum() - 10


def test_a_point_on_a_shared_border_counts_once(processing_ready):
    polys = QgsVectorLayer("Polygon?crs=EPSG:4326&field=name:string", "p", "memory")
    for name, wkt in (("west", "POLYGON((0 0,1 0,1 1,0 1,0 0))"),
                      ("east", "POLYGON((1 0,2 0,2 1,1 1,1 0))")):  # fmt: skip
        f = QgsFeature(polys.fields())
        f.setAttributes([name])
        f.setGeometry(QgsGeometry.fromWkt(wkt))
        polys.dataProvider().addFeature(f)
    pts = QgsVectorLayer("Point?crs=EPSG:4326&field=score:double&field=rank_error:double",
                         "q", "memory")  # fmt: skip
    for x, y, s in ((1.0, 0.5, 4.0), (0.5, 0.5, 2.0), (1.5, 0.5, 6.0), (5.0, 5.0, 1.0)):
        f = QgsFeature(pts.fields())
        f.setAttributes([s, 0.1])
        f.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(x, y)))
        pts.dataProvider().addFeature(f)
    log = Log()
    res = run("geobias:aggregatetopolygons", {"INPUT": pts, "POLYGONS": polys, "MIN_POINTS": 2,
                                             "OUTPUT": "memory:"}, log)  # fmt: skip
    out = res["OUTPUT"]
    assert column(out, "n_points").tolist() == [2, 1]  # the border point went to the first
    assert column(out, "mean_rating").tolist() == [3.0, 6.0]
    assert column(out, "few_points").tolist() == [0, 1]
    assert res["N_OUTSIDE"] == 1 and any("no unit" in w for w in log.warnings)


def test_aggregate_refuses_a_layer_of_several_models(world, tmp_path):
    merged = run("native:mergevectorlayers", {"LAYERS": [world["truth"], world["truth"]],
                                              "OUTPUT": "memory:"})["OUTPUT"]  # fmt: skip
    merged.startEditing()
    idx = merged.fields().lookupField("model")
    for f in list(merged.getFeatures())[:5]:
        merged.changeAttributeValue(f.id(), idx, "another-model")
    merged.commitChanges()
    with pytest.raises(QgsProcessingException, match="several models or topics"):
        run("geobias:aggregatetopolygons", {"INPUT": merged, "POLYGONS": COUNTRIES,
                                            "OUTPUT": "memory:"})  # fmt: skip


def test_correlate_countries_with_the_bundled_indicators(world):
    units = world["units"]["OUTPUT"]
    log = Log()
    res = run("geobias:correlate", {"INPUT": units, "VALUE_FIELD": "mean_rating",
                                    "FIELDS": INDICATORS, "N_BOOT": 500,
                                    "OUTPUT": "memory:"}, log)  # fmt: skip
    table = {f["field"]: f for f in res["OUTPUT"].getFeatures()}
    assert list(table) == INDICATORS and res["N_FIELDS"] == 4
    # GPT-3.5 rates infant mortality high where it is high, low where people live long.
    assert table["infant_mortality"]["rho"] > 0.7 and table["life_exp"]["rho"] < -0.6
    # Independently, with scipy, over the same units (few_points left out).
    lyr = layer(units)
    keep = column(lyr, "few_points") == 0
    x, y = column(lyr, "mean_rating")[keep], column(lyr, "infant_mortality")[keep]
    ok = np.isfinite(x) & np.isfinite(y)
    rho, p = stats.spearmanr(x[ok], y[ok])
    assert table["infant_mortality"]["rho"] == pytest.approx(rho, abs=1e-12)
    assert table["infant_mortality"]["n"] == ok.sum()
    row = table["gdp_percap"]
    assert row["lo"] <= row["rho"] <= row["hi"] and row["p_holm"] >= row["p"]
    assert "4 variables tested" in res["NOTE"] and res["NOTE"] in log.infos


def test_correlate_points_with_truth_resamples_whole_units(world):
    res = run("geobias:correlate", {"INPUT": world["truth"], "VALUE_FIELD": "score",
                                    "FIELDS": ["truth"], "N_BOOT": 200,
                                    "OUTPUT": "memory:"})  # fmt: skip
    (row,) = list(res["OUTPUT"].getFeatures())
    assert row["bootstrap"].startswith("clusters (") and row["rho"] > 0.7
    assert res["NOTE"] == ""  # one test: nothing to adjust


def test_correlate_says_what_is_missing(world):
    with pytest.raises(QgsProcessingException, match="FIELDS"):
        run("geobias:correlate", {"INPUT": world["units"]["OUTPUT"], "FIELDS": [],
                                  "OUTPUT": "memory:"})  # fmt: skip
    with pytest.raises(QgsProcessingException, match="only the bias measure"):
        run("geobias:correlate", {"INPUT": world["units"]["OUTPUT"],
                                  "FIELDS": ["mean_rank_error"], "OUTPUT": "memory:"})  # fmt: skip


def test_hotspots_of_country_rank_errors(world, tmp_path):
    log = Log()
    units = world["units"]["OUTPUT"]
    res = run("geobias:hotspots", {"INPUT": units, "K": 6, "OUTPUT": str(tmp_path / "h.gpkg"),
                                   "METRICS": "memory:"}, log)  # fmt: skip
    hot = layer(res["OUTPUT"])
    classes = [f["lisa_class"] for f in hot.getFeatures()]
    known = {"HH", "LL", "HL", "LH", "not significant", "no neighbours"}
    assert {c for c in classes if isinstance(c, str)} <= known and "HH" in classes
    analysed = (column(units, "few_points") == 0) & np.isfinite(column(units, "mean_rank_error"))
    assert res["N_UNITS"] == analysed.sum() == np.isfinite(column(hot, "lisa_i")).sum()
    (metrics,) = list(res["METRICS"].getFeatures())
    assert metrics["moran_i"] == pytest.approx(res["MORAN_I"]) and metrics["fdr"] == 0
    assert metrics["n_hh"] == classes.count("HH") == res["N_HH"]
    # GPT-3.5's rank errors cluster, weakly: I = 0.13, permutation p = 0.02 (seed 0).
    assert res["MORAN_I"] > 0.05 and res["MORAN_P"] < 0.05
    # Each z beside the p of its own test (issue 35): the normal approximation's two-sided p,
    # the permutation test's z (esda's z_sim) with its one-sided pseudo p.
    assert metrics["moran_z"] == res["MORAN_Z"] and metrics["moran_p_norm"] == res["MORAN_P_NORM"]
    assert metrics["moran_z_sim"] == res["MORAN_Z_SIM"] and metrics["moran_p_sim"] == res["MORAN_P"]
    said = [i for i in log.infos if "Global Moran's I" in i]
    assert len(said) == 1
    assert "z = {:.2f}, two-sided p = {:.4f}".format(res["MORAN_Z"], res["MORAN_P_NORM"]) in said[0]
    assert "Permutation test (999 permutations): z = {:.2f}, one-sided pseudo p = {:.4f}".format(
        res["MORAN_Z_SIM"], res["MORAN_P"]) in said[0]  # fmt: skip
    assert hot.renderer().type() == "RuleRenderer"
    assert "High–High" in hot.renderer().rootRule().children()[0].label()
    assert np.isnan(column(hot, "lisa_q")).all()
    # With the false discovery rate controlled, q >= p and fewer units are significant.
    fdr = run("geobias:hotspots", {"INPUT": units, "K": 6, "FDR": True, "OUTPUT": "memory:"})
    q, p = column(fdr["OUTPUT"], "lisa_q"), column(fdr["OUTPUT"], "lisa_p")
    ok = np.isfinite(q)
    assert ok.sum() == res["N_UNITS"] and np.all(q[ok] >= p[ok])
    assert fdr["N_HH"] + fdr["N_LL"] <= res["N_HH"] + res["N_LL"]
    assert fdr["MORAN_I"] == res["MORAN_I"]


def test_hotspots_of_us_county_unemployment_match_core(processing_ready, tmp_path):
    from geobias.processing.units import unit_places

    res = run("geobias:hotspots", {"INPUT": COUNTIES, "FIELD": "unemployment", "K": 8,
                                   "PERMUTATIONS": 199, "SEED": 5,
                                   "OUTPUT": str(tmp_path / "h.gpkg")})  # fmt: skip
    hot = layer(res["OUTPUT"])
    counties = layer(COUNTIES)
    _fids, x, y, geographic = unit_places(counties, None)
    value = column(counties, "unemployment")
    ok = np.isfinite(value)
    w = knn_weights(x[ok], y[ok], 8, geographic)
    ours = local_moran(value[ok], w, 199, 5)
    assert np.allclose(column(hot, "lisa_i")[ok], ours.I, atol=1e-12)
    assert np.allclose(column(hot, "lisa_p")[ok], ours.p_sim)
    assert np.allclose(column(hot, "gi_z")[ok], getis_ord_star(value[ok], w).z, atol=1e-12)
    assert res["MORAN_I"] > 0.4 and res["N_HH"] > 100
    # The z and p printed are core's (test/esda checks those against esda).
    glob = global_moran(value[ok], w, 199, 5)
    assert (res["MORAN_Z"], res["MORAN_P_NORM"]) == (glob.z_norm, glob.p_norm)
    assert (res["MORAN_Z_SIM"], res["MORAN_P"]) == (glob.z_sim, glob.p_sim)


def test_distance_band_in_a_projected_crs_agrees_with_great_circle(processing_ready, tmp_path):
    params = {"INPUT": COUNTIES, "TARGET_CRS": "EPSG:5070", "OUTPUT": str(tmp_path / "a.gpkg")}
    albers = run("native:reprojectlayer", params)["OUTPUT"]
    assert QgsCoordinateReferenceSystem("EPSG:5070").isGeographic() is False
    params = {"FIELD": "unemployment", "WEIGHTS": 1, "DISTANCE_KM": 80, "PERMUTATIONS": 99}
    a = run("geobias:hotspots", {**params, "INPUT": albers, "OUTPUT": "memory:"})
    b = run("geobias:hotspots", {**params, "INPUT": COUNTIES, "OUTPUT": "memory:"})
    na, nb = column(a["OUTPUT"], "n_neighbours"), column(b["OUTPUT"], "n_neighbours")
    ok = np.isfinite(na) & np.isfinite(nb)
    assert nb[ok].mean() > 3 and np.abs(na[ok] - nb[ok]).mean() < 0.3


def test_hotspots_need_enough_units(processing_ready):
    pts = QgsVectorLayer("Point?crs=EPSG:4326&field=mean_rank_error:double", "q", "memory")
    for x in (0.0, 1.0):
        f = QgsFeature(pts.fields())
        f.setAttributes([x])
        f.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(x, 0)))
        pts.dataProvider().addFeature(f)
    with pytest.raises(QgsProcessingException, match="at least 3 units"):
        run("geobias:hotspots", {"INPUT": pts, "OUTPUT": "memory:"})


def test_aggregate_bay_area_ratings_to_us_counties_and_correlate_unemployment(processing_ready,
                                                                             tmp_path):  # fmt: skip
    params = {"INPUT": BAY, "MODEL": "gpt-3.5-turbo-0613",
              "TOPIC": "Average Intelligence of Residents",
              "OUTPUT": str(tmp_path / "bay.gpkg")}  # fmt: skip
    rated = run("geobias:importratings", params)["OUTPUT"]
    units = run("geobias:aggregatetopolygons", {"INPUT": rated, "POLYGONS": COUNTIES,
                                               "MIN_POINTS": 20,
                                               "OUTPUT": str(tmp_path / "c.gpkg")})  # fmt: skip
    out = layer(units["OUTPUT"])
    n = column(out, "n_points")
    assert 6 <= (n >= 20).sum() <= 15 and n.sum() + units["N_OUTSIDE"] == 1997
    # No truth in the file: the units are styled by mean rank.
    labels = [r.label() for r in out.renderer().rootRule().children()]
    assert any("highest" in lbl for lbl in labels)
    res = run("geobias:correlate", {"INPUT": units["OUTPUT"], "VALUE_FIELD": "mean_rating",
                                    "FIELDS": ["unemployment"], "N_BOOT": 200,
                                    "OUTPUT": "memory:"})  # fmt: skip
    (row,) = list(res["OUTPUT"].getFeatures())
    assert row["n"] == (n >= 20).sum() and -1 <= row["rho"] <= 1
