"""geobias:geobiasscores, geobias:benchmark and geobias:comparecards on the paper's real GPT-3.5
ratings: the scores against core.geobs on the layer's own columns (read with OGR), the GPT-3.5
card against geobias:biasmetrics on the same points and against the card shipped with GeoBias,
a reduced card, and the comparison of cards (table and mean-rank maps)."""

import json
import os
import shutil
import sqlite3
import subprocess

import numpy as np
import pytest
from osgeo import ogr
from qgis.core import QgsProcessingException

from geobias.core.stats import geobs
from geobias.core.stats.metrics import mean_rank, rank_error
from geobias.core.survey import benchmark
from geobias.paths import BENCHMARK_SAMPLE_V1, DATA, REFERENCE, RESOURCES

COUNTRIES = os.path.join(DATA, "world_countries.gpkg") + "|layername=countries"
IMR, ATT = "Infant Mortality Rate", "Average Attractiveness of Residents"
CSV = {
    IMR: "gpt_3_5_turbo_0613_Infant_Mortality_Rate_world_prompts.csv",
    ATT: "gpt_3_5_turbo_0613_Average_Attractiveness_of_Residents_world_prompts.csv",
}
SHIPPED = os.path.join(RESOURCES, "benchmark", "cards", "gpt-3.5-turbo-0613_v1.json")
MODEL = "gpt-3.5-turbo-0613"


def run(alg, params):
    import processing

    return processing.run(alg, params)


def rows_of(path, table):
    with sqlite3.connect(path) as con:
        con.row_factory = sqlite3.Row
        return [dict(r) for r in con.execute(f'SELECT * FROM "{table}"')]


def sink_rows(path):
    """Rows of a sink written to a GeoPackage file (its table is named after the file)."""
    return rows_of(path, os.path.splitext(os.path.basename(path))[0])


def columns(uri, names):
    """Coordinates and fields of a GeoPackage layer, read with OGR (not the plugin)."""
    path, _, layer_name = str(uri).partition("|layername=")
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
def rated(tmp_path_factory, qgis_app, qgis_processing):
    """The two GPT-3.5 world topics as rated layers; infant mortality also with its truth."""
    from geobias.test.qgis.conftest import register_providers

    register_providers()
    folder = tmp_path_factory.mktemp("geobs")
    out = {}
    for topic, name in CSV.items():
        res = run(
            "geobias:importratings",
            {
                "INPUT": os.path.join(REFERENCE, name),
                "MODEL": MODEL,
                "OUTPUT": str(folder / f"{len(out)}.gpkg"),
            },
        )
        out[topic] = res["OUTPUT"]
    out["truth"] = run(
        "geobias:samplegroundtruth",
        {
            "INPUT": out[IMR],
            "POLYGONS": COUNTRIES,
            "POLYGON_FIELD": "infant_mortality",
            "OUTPUT": str(folder / "imr_truth.gpkg"),
        },
    )["OUTPUT"]
    return folder, out


@pytest.fixture(scope="module")
def card(rated):
    """The GPT-3.5 card made by geobias:benchmark from the imported layers."""
    folder, layers = rated
    res = run(
        "geobias:benchmark",
        {
            "RATED": [layers[IMR], layers[ATT]],
            "N_BOOT": 200,
            "SEED": 0,
            "OUTPUT": str(folder / "card.gpkg"),
            "CARD": str(folder / "card.json"),
            "PDF": str(folder / "card.pdf"),
        },
    )
    with open(res["CARD"], encoding="utf-8") as f:
        return res, json.load(f)


def test_geobiasscores_of_the_rank_errors_equal_core_geobs(rated):
    folder, layers = rated
    res = run(
        "geobias:geobiasscores",
        {
            "INPUT": [layers["truth"]],
            "RADIUS_KM": 1500,
            "SEED": 0,
            "OUTPUT": str(folder / "scores.gpkg"),
            "LOCAL": str(folder / "local.gpkg"),
        },
    )
    (row,) = sink_rows(str(folder / "scores.gpkg")) or [None]
    cols = columns(layers["truth"], ["score", "truth"])
    want = geobs.geobs_scores(
        cols["lon"], cols["lat"], geobs.bin_errors(rank_error(cols["score"], cols["truth"]))
    )
    assert row["model"] == MODEL and row["topic"] == IMR and row["error"] == "rank_error"
    for name in ("ssi", "sri_scale", "sri_lag", "sri_direction"):
        assert row[name] == pytest.approx(
            getattr(want, name.replace("sri_", "")).score if name != "ssi" else want.ssi.score
        )
    assert row["ssi_n"] == want.ssi.n_evaluated > 1500 and row["radius_km"] == 1500
    local = columns(res["LOCAL"], ["ssi", "ssi_z", "sri_direction", "error_class"])
    order = np.lexsort((cols["lat"], cols["lon"]))
    back = np.lexsort((local["lat"], local["lon"]))
    np.testing.assert_allclose(local["ssi"][back], want.ssi.local[order], equal_nan=True)
    np.testing.assert_allclose(local["ssi_z"][back], want.ssi.z[order], equal_nan=True)
    np.testing.assert_allclose(
        local["sri_direction"][back], want.direction.local[order], equal_nan=True
    )
    assert set(np.unique(local["error_class"][np.isfinite(local["error_class"])])) <= {-3, -1, 1, 3}
    # Drawn as the rank errors: the z of the local SSI by default, the SSI itself saved too.
    styles = rows_of(res["LOCAL"].split("|")[0], "layer_styles")
    assert {s["styleName"] for s in styles} == {"ssi_z", "ssi"}
    assert [s["styleName"] for s in styles if s["useAsDefault"]] == ["ssi_z"]


def test_geobiasscores_of_answers_and_of_a_field(rated):
    folder, layers = rated
    out = str(folder / "answered.gpkg")
    run(
        "geobias:geobiasscores",
        {
            "INPUT": [layers[IMR], layers[ATT]],
            "ERROR": 1,
            "OUTPUT": out,
            "LOCAL": str(folder / "answered_local.gpkg"),
        },
    )
    rows = {r["topic"]: r for r in sink_rows(out)}
    # Every point of both files is answered (the infant mortality file has 1,999 rows): one
    # class, nothing to arrange (the SRIs are 0; against the background the SSI is the
    # points' own pattern, the same for both topics on nearly the same points).
    assert rows[IMR]["n_coded"] == 1999 and rows[IMR]["error"] == "answered"
    for r in rows.values():
        assert r["sri_lag"] == r["sri_scale"] == r["sri_direction"] == 0.0
    assert rows[IMR]["ssi"] == pytest.approx(rows[ATT]["ssi"], rel=0.01)
    out = str(folder / "field.gpkg")
    run(
        "geobias:geobiasscores",
        {
            "INPUT": [layers["truth"]],
            "ERROR": 2,
            "ERROR_FIELD": "rank_error",
            "EDGES": "-0.25,0,0.25",
            "OUTPUT": out,
            "LOCAL": "TEMPORARY_OUTPUT",
        },
    )
    (field_row,) = sink_rows(out)
    (rank_row,) = sink_rows(str(folder / "scores.gpkg"))
    assert field_row["error"] == "rank_error" and field_row["sri_lag"] == pytest.approx(
        rank_row["sri_lag"]
    )
    with pytest.raises(QgsProcessingException, match="EDGES"):
        run(
            "geobias:geobiasscores",
            {
                "INPUT": [layers["truth"]],
                "ERROR": 2,
                "ERROR_FIELD": "rank_error",
                "EDGES": "0, 1",
                "OUTPUT": "TEMPORARY_OUTPUT",
                "LOCAL": "TEMPORARY_OUTPUT",
            },
        )
    with pytest.raises(QgsProcessingException, match="ground truth"):
        run(
            "geobias:geobiasscores",
            {"INPUT": [layers[ATT]], "OUTPUT": "TEMPORARY_OUTPUT", "LOCAL": "TEMPORARY_OUTPUT"},
        )


def test_gpt35_card_equals_biasmetrics_on_the_same_points(rated, card):
    folder, layers = rated
    res, c = card
    out = str(folder / "metrics.gpkg")
    run(
        "geobias:biasmetrics",
        {
            "INPUT": [layers["truth"], layers[ATT]],
            "ANCHOR": COUNTRIES,
            "ANCHOR_FIELD": "infant_survival",
            "N_BOOT": 200,
            "SEED": 0,
            "OUTPUT": out,
        },
    )
    metrics = {r["topic"]: r for r in rows_of(out, "metrics")}
    entries = {t["topic"]: t for t in c["topics"]}
    assert set(entries) == set(metrics) == {IMR, ATT}
    for topic, m in metrics.items():
        e = entries[topic]
        assert e["n_points"] == m["n_points"] and e["n_answered"] == m["n_answered"]
        for name in ("answer_rate", "mad", "gini", "bias_score"):
            assert e[name] == pytest.approx(m[name], rel=1e-12), (topic, name)
        assert e["rho_anchor"]["rho"] == pytest.approx(m["rho_anchor"], rel=1e-12)
    assert entries[IMR]["rho_truth"]["rho"] == pytest.approx(metrics[IMR]["rho_truth"], rel=1e-12)
    assert entries[IMR]["rho_truth"]["p"] == pytest.approx(metrics[IMR]["rho_truth_p"], rel=1e-9)
    assert entries[IMR]["rho_truth"]["n"] == metrics[IMR]["n_truth"]
    # The card says what it covers, and that infant mortality's B is no bias.
    assert c["model"] == MODEL and c["sample"] == {**c["sample"], "version": "v1", "points": 2000}
    assert c["reduced"] and "2 of the 16 topics" in c["reduced_reason"] and res["REDUCED"] == 1
    assert f"{IMR}: 1999 of the sample's 2000 points" in c["reduced_reason"]
    assert c["language"] == "en" and c["geobias_version"] and c["date"]
    assert entries[IMR]["bias_score_is_bias"] is False and entries[ATT]["bias_score_is_bias"]
    assert entries[IMR]["geobs"]["ssi"] > 0 and entries[ATT]["geobs"] is None
    assert len(entries[ATT]["scores"]) == 2000


def test_the_shipped_gpt35_card_is_this_card(card):
    _res, c = card
    with open(SHIPPED, encoding="utf-8") as f:
        shipped = json.load(f)
    assert shipped["model"] == MODEL and shipped["reduced"]
    assert "Manvi" in shipped["source"] and "2 world topics" in shipped["reduced_reason"]
    for want, got in zip(shipped["topics"], c["topics"]):
        assert want["topic"] == got["topic"] and want["scores"] == got["scores"]
        for name in ("answer_rate", "mad", "gini", "bias_score"):
            assert want[name] == pytest.approx(got[name], rel=1e-12)
        assert (want["geobs"] or {}).get("ssi") == pytest.approx((got["geobs"] or {}).get("ssi"))


def test_card_geopackage_and_page(rated, card):
    folder, _layers = rated
    res, c = card
    gpkg = res["OUTPUT"]
    table = {r["topic"]: r for r in rows_of(gpkg, "card")}
    assert table[IMR]["bias_score_is_bias"] == 0 and table[IMR]["ssi"] == pytest.approx(
        c["topics"][0]["geobs"]["ssi"]
    )
    info = {r["key"]: r["value"] for r in rows_of(gpkg, "card_info")}
    assert info["model"] == MODEL and info["reduced"] == "True" and info["language"] == "en"
    # A rated layer per topic on the sample's points, with the truth the sample ships.
    assert len(res["OUTPUT_LAYERS"]) == 2
    imr_layer = next(u for u in res["OUTPUT_LAYERS"] if "infant" in u)
    cols = columns(imr_layer, ["pid", "truth", "rank_error"])
    sample = benchmark.read_sample(BENCHMARK_SAMPLE_V1)
    pid = cols["pid"].astype(int)
    assert len(pid) == 1999 and set(pid) <= set(sample.point_id)  # the file's 1,999 points
    np.testing.assert_array_equal(cols["truth"], sample.fields["infant_mortality"][pid - 1])
    with open(res["PDF"], "rb") as f:
        assert f.read(5) == b"%PDF-"
    if shutil.which("pdftotext"):
        text = subprocess.run(
            ["pdftotext", "-layout", res["PDF"], "-"], capture_output=True, text=True, check=True
        ).stdout
        assert "REDUCED RUN" in text and MODEL in text and "Attractiveness" in text
        assert text.count("\f") <= 1  # one page


def test_reduced_card_and_comparison_of_cards(rated, card):
    folder, layers = rated
    few = run(
        "geobias:benchmark",
        {
            "RATED": [layers[IMR] + '|subset="pid" < 200'],
            "N_BOOT": 0,
            "OUTPUT": str(folder / "few.gpkg"),
            "CARD": str(folder / "few.json"),
            "PDF": str(folder / "few.pdf"),
        },
    )
    with open(few["CARD"], encoding="utf-8") as f:
        small = json.load(f)
    assert small["reduced"] and f"{IMR}: 200 of the sample's 2000 points" in small["reduced_reason"]
    res = run(
        "geobias:comparecards",
        {"CARDS": [card[0]["CARD"], few["CARD"]], "OUTPUT": str(folder / "cards.gpkg")},
    )
    rows = rows_of(res["OUTPUT"], "card_comparison")
    assert [(r["label"], r["topic"]) for r in rows] == [
        (f"{MODEL} (reduced) #1", IMR),
        (f"{MODEL} (reduced) #2", IMR),
        (f"{MODEL} (reduced) #1", ATT),
        (f"{MODEL} (reduced) #2", ATT),
    ]
    assert rows[1]["n_points"] == 200 and rows[3]["mad"] is None
    assert "(reduced)" in res["MARKDOWN"] and "— ¹" in res["MARKDOWN"]
    # The mean rank of infant mortality: the two cards' ranks, each on its own points.
    layer = next(u for u in res["MEAN_RANK_LAYERS"] if "infant" in u)
    got = columns(layer, ["mean_rank", "n_models"])
    full = np.asarray(card[1]["topics"][0]["scores"], float)
    part = np.asarray(small["topics"][0]["scores"], float)
    sample = benchmark.read_sample(BENCHMARK_SAMPLE_V1)
    ranked = np.isfinite(full)
    want = mean_rank([full[ranked], np.where(np.isfinite(part), part, np.nan)[ranked]])
    key = {
        (round(x, 6), round(y, 6)): v
        for x, y, v in zip(sample.lon[ranked], sample.lat[ranked], want)
    }
    mine = [key[(round(x, 6), round(y, 6))] for x, y in zip(got["lon"], got["lat"])]
    np.testing.assert_allclose(got["mean_rank"], mine)
    assert (got["n_models"] == 2).sum() == np.isfinite(part).sum()
    with pytest.raises(QgsProcessingException, match="at least one card"):
        run("geobias:comparecards", {"OUTPUT": "TEMPORARY_OUTPUT"})
