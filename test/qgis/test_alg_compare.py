"""geobias:comparemodels on the paper's real GPT-3.5 ratings: two topics, greedy and logprobs.

The pivots are checked against the single-layer algorithm (biasmetrics, exactly) and against
metrics computed here from the layers' raw columns; the mean rank layers against
core.metrics.mean_rank on points matched by coordinates in the test itself.
"""

import csv
import os
import sqlite3

import numpy as np
import pytest
from osgeo import ogr
from qgis.core import QgsProcessingException
from scipy import stats

from geobias.core.stats.metrics import gini, mad, mean_rank, mean_rank_error
from geobias.paths import DATA, REFERENCE

COUNTRIES = os.path.join(DATA, "world_countries.gpkg") + "|layername=countries"
IMR, ATTR = "Infant Mortality Rate", "Average Attractiveness of Residents"
FILES = {
    ("gpt-3.5", IMR): "gpt_3_5_turbo_0613_Infant_Mortality_Rate_world_prompts.csv",
    ("gpt-3.5", ATTR): "gpt_3_5_turbo_0613_Average_Attractiveness_of_Residents_world_prompts.csv",
    ("gpt-3.5 logprobs", IMR): (
        "gpt_3_5_turbo_0613_Infant_Mortality_Rate_world_prompts_expected_value.csv"
    ),
    ("gpt-3.5 logprobs", ATTR): (
        "gpt_3_5_turbo_0613_Average_Attractiveness_of_Residents_world_prompts_expected_value.csv"
    ),
}
ANCHOR = {"ANCHOR": COUNTRIES, "ANCHOR_FIELD": "infant_survival"}
SINGLE = (
    "answer_rate",
    "mad",
    "gini",
    "rho_truth",
    "rho_truth_lo",
    "rho_truth_hi",
    "rho_anchor",
    "rho_anchor_lo",
    "rho_anchor_hi",
    "bias_score",
    "n_points",
)


def run(alg, params):
    import processing

    return processing.run(alg, params)


def rows_of(path, table):
    with sqlite3.connect(path) as con:
        con.row_factory = sqlite3.Row
        return [dict(r) for r in con.execute(f'SELECT * FROM "{table}"')]


def columns(uri, names):
    """Point coordinates and fields of a GeoPackage layer, read with OGR (not the plugin)."""
    path, _, layer_name = uri.partition("|layername=")
    ds = ogr.Open(path)
    layer = ds.GetLayerByName(layer_name) if layer_name else ds.GetLayer(0)
    out = {n: [] for n in ("lon", "lat", *names)}
    for f in layer:
        g = f.GetGeometryRef()
        out["lon"].append(g.GetX())
        out["lat"].append(g.GetY())
        for n in names:
            v = f.GetField(n)
            out[n].append(np.nan if v is None else v)
    return {k: np.asarray(v, float) for k, v in out.items()}


@pytest.fixture(scope="module")
def rated(tmp_path_factory, _processing):
    """The four reference tables as rated layers; infant mortality with its truth by country."""
    folder = tmp_path_factory.mktemp("compare")
    layers = {}
    for (model, topic), name in FILES.items():
        kind = 1 if "logprobs" in model else 0
        out = str(folder / f"{len(layers)}.gpkg")
        res = run(
            "geobias:importratings",
            {"INPUT": os.path.join(REFERENCE, name), "MODEL": model, "SCORE": kind, "OUTPUT": out},
        )
        uri = res["OUTPUT"]
        if topic == IMR:
            truth = str(folder / f"{len(layers)}_truth.gpkg")
            uri = run(
                "geobias:samplegroundtruth",
                {
                    "INPUT": uri,
                    "POLYGONS": COUNTRIES,
                    "POLYGON_FIELD": "infant_mortality",
                    "OUTPUT": truth,
                },
            )["OUTPUT"]
        layers[(model, topic)] = uri
    return folder, layers


@pytest.fixture(scope="module")
def compared(rated):
    folder, layers = rated
    out = str(folder / "compare.gpkg")
    res = run(
        "geobias:comparemodels",
        {
            "INPUT": list(layers.values()),
            **ANCHOR,
            "N_BOOT": 100,
            "OUTPUT": out,
            "TABLES_FOLDER": str(folder / "tables"),
        },
    )
    return res, out


@pytest.fixture(scope="module")
def _processing(qgis_app, qgis_processing):
    from qgis.analysis import QgsNativeAlgorithms
    from qgis.core import QgsApplication

    from geobias.processing.provider import GeoBiasProvider

    registry = QgsApplication.processingRegistry()
    if registry.providerById("native") is None:
        registry.addProvider(QgsNativeAlgorithms())
    if registry.providerById("geobias") is None:
        provider = GeoBiasProvider()
        registry.addProvider(provider)
        _processing.keep = provider


def test_pivots_reproduce_the_single_layer_metrics_exactly(rated, compared):
    folder, layers = rated
    res, out = compared
    pivot = {r["topic"]: r for r in rows_of(out, "pivot_bias_score")}
    long = {(r["model"], r["topic"]): r for r in rows_of(out, "compare_metrics")}
    assert set(long) == set(FILES)
    for (model, topic), uri in layers.items():
        single = folder / f"{len(model)}_{len(topic)}"
        single.mkdir()
        single = str(single / "single.gpkg")
        run("geobias:biasmetrics", {"INPUT": [uri], **ANCHOR, "N_BOOT": 100, "OUTPUT": single})
        (one,) = rows_of(single, "single")
        for name in SINGLE:
            assert long[(model, topic)][name] == one[name], (model, topic, name)
        assert pivot[topic][model] == one["bias_score"]
        for metric in ("rho_truth", "rho_anchor", "mad", "answer_rate", "gini"):
            row = {r["topic"]: r for r in rows_of(out, f"pivot_{metric}")}[topic]
            assert row[model] == one[metric], (metric, model, topic)
    # The sensitive topic has no ground truth: its rho with truth stays empty.
    assert rows_of(out, "pivot_rho_truth")[1]["gpt-3.5"] is None


def test_pivots_against_metrics_computed_from_the_raw_columns(rated, compared):
    _folder, layers = rated
    _res, out = compared
    tables = {
        m: {r["topic"]: r for r in rows_of(out, f"pivot_{m}")}
        for m in ("rho_truth", "r2_truth", "mad", "gini", "answer_rate", "bias_score")
    }
    anchor_rho = {}
    for (model, topic), uri in layers.items():
        cols = columns(uri, ["score", "truth"] if topic == IMR else ["score"])
        s = cols["score"]
        assert tables["mad"][topic][model] == pytest.approx(mad(s), abs=1e-12)
        assert tables["mad"][topic][model] == pytest.approx(np.mean(np.abs(s - s.mean())), rel=1e-9)
        assert tables["gini"][topic][model] == pytest.approx(gini(s), abs=1e-12)
        assert tables["answer_rate"][topic][model] == 1.0  # imported rows are all answered
        if topic == IMR:
            ok = np.isfinite(cols["truth"])
            rho = stats.spearmanr(s[ok], cols["truth"][ok])[0]
            r = stats.pearsonr(s[ok], cols["truth"][ok])[0]
            assert tables["rho_truth"][topic][model] == pytest.approx(rho, abs=1e-12)
            assert tables["r2_truth"][topic][model] == pytest.approx(r * r, abs=1e-12)
        anchor_rho[(model, topic)] = tables["bias_score"][topic][model] / mad(s)
    # The paper's Table 1-2 figures for GPT-3.5: rho 0.78 (greedy) and 0.81 (logprobs) with
    # the truth of infant mortality; here against country-level truth, so only near them.
    assert (
        0.65
        < tables["rho_truth"][IMR]["gpt-3.5"]
        < tables["rho_truth"][IMR]["gpt-3.5 logprobs"]
        < 0.95
    )
    # Mean across models / topics are the plain means of the cells.
    for topic in (IMR, ATTR):
        row = tables["mad"][topic]
        assert row["mean_across_models"] == pytest.approx(
            (row["gpt-3.5"] + row["gpt-3.5 logprobs"]) / 2
        )
    mean_row = tables["mad"]["Mean (across topics)"]
    assert mean_row["gpt-3.5"] == pytest.approx(
        (tables["mad"][IMR]["gpt-3.5"] + tables["mad"][ATTR]["gpt-3.5"]) / 2
    )


def test_mean_rank_layers_against_core_mean_rank(rated, compared):
    _folder, layers = rated
    res, out = compared
    assert len(res["MEAN_RANK_LAYERS"]) == 2
    for uri in res["MEAN_RANK_LAYERS"]:
        got = columns(uri, ["mean_rank", "mean_rank_error", "n_models", "truth"])
        ds = ogr.Open(out)
        topic = ds.GetLayerByName(uri.split("layername=")[1]).GetNextFeature().GetField("topic")
        ds = None
        # Match the two models' points by coordinates here, independently of the plugin.
        per_model = [
            columns(layers[(m, topic)], ["score", "truth"] if topic == IMR else ["score"])
            for m in ("gpt-3.5", "gpt-3.5 logprobs")
        ]
        keys = [tuple(k) for k in np.round(np.column_stack([got["lon"], got["lat"]]), 6)]
        index = {k: i for i, k in enumerate(keys)}
        assert len(index) == len(keys)
        matrix = np.full((2, len(keys)), np.nan)
        truth = np.full(len(keys), np.nan)
        for k, cols in enumerate(per_model):
            for x, y, v, t in zip(
                cols["lon"], cols["lat"], cols["score"], cols.get("truth", cols["score"] * np.nan)
            ):
                i = index[(round(x, 6), round(y, 6))]
                matrix[k, i] = v
                if np.isfinite(t):
                    truth[i] = t
        # Every point of each model is in the layer, and only those (1,999 or 2,000 points).
        union = {(round(x, 6), round(y, 6)) for c in per_model for x, y in zip(c["lon"], c["lat"])}
        assert set(keys) == union and len(keys) in (1999, 2000)
        assert np.isfinite(matrix).sum() == sum(len(c["score"]) for c in per_model)
        np.testing.assert_allclose(got["mean_rank"], mean_rank(matrix), atol=1e-12)
        np.testing.assert_array_equal(got["n_models"], np.isfinite(matrix).sum(axis=0))
        if topic == IMR:
            np.testing.assert_allclose(
                got["mean_rank_error"], mean_rank_error(matrix, truth), atol=1e-12
            )
        else:
            assert np.isnan(got["mean_rank_error"]).all()
    with sqlite3.connect(out) as con:
        styles = con.execute(
            "select f_table_name, styleName, useAsDefault from layer_styles"
        ).fetchall()
    by_layer = {}
    for table, name, default in styles:
        by_layer.setdefault(table, {})[name] = default
    assert by_layer == {
        "mean_rank_infant_mortality_rate": {"mean_rank": 0, "mean_rank_error": 1},
        # Without a truth the mean rank is the default, as for a single model's layer.
        "mean_rank_average_attractiveness_of_residents": {"mean_rank": 1, "mean_rank_error": 0},
    }


def test_csv_and_markdown_files(rated, compared):
    folder, _layers = rated
    res, out = compared
    tables = folder / "tables"
    with open(tables / "bias_score.csv", encoding="utf-8") as f:
        table = list(csv.reader(f))
    assert table[0] == ["topic", "gpt-3.5", "gpt-3.5 logprobs", "Mean (across models)"]
    pivot = rows_of(out, "pivot_bias_score")
    assert [r[0] for r in table[1:]] == [r["topic"] for r in pivot]
    assert float(table[1][1]) == pivot[0]["gpt-3.5"]
    md = (tables / "comparison.md").read_text(encoding="utf-8")
    assert md == res["MARKDOWN"] and md.count("| Topic |") == 7
    assert f"| {ATTR} | " in md and "Pearson's r²" in md


def test_selection_and_clear_errors(rated, tmp_path):
    _folder, layers = rated
    out = str(tmp_path / "one.gpkg")
    res = run(
        "geobias:comparemodels",
        {
            "INPUT": list(layers.values()),
            "MODELS": "gpt-3.5",
            "TOPICS": IMR,
            "N_BOOT": 0,
            "OUTPUT": out,
        },
    )
    assert [r["topic"] for r in rows_of(out, "pivot_mad")] == [IMR, "Mean (across topics)"]
    assert set(rows_of(out, "pivot_mad")[0]) == {"fid", "topic", "gpt-3.5", "mean_across_models"}
    assert len(res["MEAN_RANK_LAYERS"]) == 1
    with pytest.raises(QgsProcessingException, match="MODELS: gpt-5 not in the input"):
        run(
            "geobias:comparemodels",
            {"INPUT": list(layers.values()), "MODELS": "gpt-5", "OUTPUT": str(tmp_path / "x.gpkg")},
        )
    with pytest.raises(QgsProcessingException, match="rated points layers"):
        run("geobias:comparemodels", {"OUTPUT": str(tmp_path / "y.gpkg")})
    assert not (tmp_path / "x.gpkg").exists() and not (tmp_path / "y.gpkg").exists()
    dup = [layers[("gpt-3.5", IMR)]] * 2
    with pytest.raises(QgsProcessingException, match="in two layers"):
        run("geobias:comparemodels", {"INPUT": dup, "OUTPUT": str(tmp_path / "z.gpkg")})


def test_a_survey_geopackage_as_input(rated, tmp_path):
    """All rated layers of one GeoPackage (as a survey writes them) are read; other tables not."""
    from osgeo import gdal

    _folder, layers = rated
    survey = str(tmp_path / "survey.gpkg")
    for (model, topic), uri in layers.items():
        path, _, name = uri.partition("|layername=")
        if not name:
            ds = ogr.Open(path)  # kept: an OGR layer dies with its dataset
            name = ds.GetLayer(0).GetName()
            ds = None
        gdal.VectorTranslate(
            survey,
            path,
            layers=[name],
            accessMode="append",
            layerName=f"{model}_{topic}".replace(" ", "_").replace(".", "_"),
        )
    res = run(
        "geobias:comparemodels", {"SURVEY": survey, "N_BOOT": 0, "OUTPUT": str(tmp_path / "c.gpkg")}
    )
    assert len(rows_of(str(tmp_path / "c.gpkg"), "compare_metrics")) == 4
    assert len(res["PIVOTS"]) == 7
