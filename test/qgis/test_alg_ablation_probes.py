"""geobias:ablation and geobias:probes on the real embedded model (SmolLM2 in its child process).

Kept small (a handful of points and samples): the machine's two cores are shared.
"""

import os
import sqlite3

import numpy as np
import pytest
from osgeo import ogr, osr
from scipy import stats

from geobias.paths import DATA

# The real embedded model: native only (make test), not in make test-matrix's chroots.
pytestmark = pytest.mark.integration

COUNTRIES = os.path.join(DATA, "world_countries.gpkg") + "|layername=countries"
IMR, ATTR = "Infant Mortality Rate", "Average Attractiveness of Residents"
# Paris, Lagos, Tokyo, Mumbai: countries with very different infant mortality.
CITIES = [(2.35, 48.86), (3.38, 6.52), (139.69, 35.69), (72.88, 19.08)]
VARIANTS = ("geollm", "no_coordinates", "no_nearby", "no_address", "short_address")


@pytest.fixture(scope="module")
def model():
    """The embedded model in its child process, one slot and one thread: on two cores shared
    by several test runs a spinning second thread made it ten times slower (docs/design.md).
    Reached by its base URL, as any llama.cpp server."""
    from geobias.core.runtime.embedded import EmbeddedServer

    server = EmbeddedServer(parallel=1, threads=1)
    server.start()
    yield {"PROVIDER": 0, "BASE_URL": server.base_url, "MODEL": server.model_name,
           "CONCURRENCY": 1}  # fmt: skip
    server.stop()


def run(alg, params):
    import processing

    return processing.run(alg, params)


def rows_of(path, table):
    with sqlite3.connect(path) as con:
        con.row_factory = sqlite3.Row
        return [dict(r) for r in con.execute(f'SELECT * FROM "{table}"')]


@pytest.fixture()
def points(tmp_path):
    path = str(tmp_path / "cities.gpkg")
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(4326)
    ds = ogr.GetDriverByName("GPKG").CreateDataSource(path)
    layer = ds.CreateLayer("cities", srs, ogr.wkbPoint)
    for x, y in CITIES:
        f = ogr.Feature(layer.GetLayerDefn())
        f.SetGeometry(ogr.CreateGeometryFromWkt(f"POINT ({x} {y})"))
        layer.CreateFeature(f)
    ds = None
    return path


def test_ablation_on_the_embedded_model(processing_ready, model, points, tmp_path):
    params = {
        **model, "INPUT": points, "TOPICS": f"{IMR}; {ATTR}", "TRUTH": COUNTRIES,
        "TRUTH_FIELD": "infant_mortality", "TRUTH_TOPICS": IMR, "ANCHOR": COUNTRIES,
        "ANCHOR_FIELD": "infant_survival", "N_BOOT": 0,
    }  # fmt: skip
    out = str(tmp_path / "ablation.gpkg")
    first = run("geobias:ablation", dict(params, OUTPUT=out))
    assert first["N_REQUESTS"] + first["N_CACHED"] == 5 * 2 * len(CITIES)
    table = rows_of(out, "ablation")
    assert len(table) == 5 * 2 * 2  # variants x topics x (greedy, expected)
    layers = {}
    for uri in first["OUTPUT_LAYERS"]:
        name = uri.split("layername=")[1]
        rated = rows_of(out, name)
        variant = rated[0]["model"].split("[")[1].rstrip("]")
        layers[(variant, rated[0]["topic"])] = rated
    assert set(layers) == {(v, t) for v in VARIANTS for t in (IMR, ATTR)}
    # Each variant asked its own prompt (Appendix A.3).
    prompts = {v: layers[(v, IMR)][0]["prompt"] for v in VARIANTS}
    assert "Coordinates:" in prompts["geollm"] and "Coordinates:" not in prompts["no_coordinates"]
    assert "Nearby Places:" not in prompts["no_nearby"] and "Address:" not in prompts["no_address"]
    short = prompts["short_address"].split('Address: "')[1].split('"')[0]
    assert short.count(",") <= 1 and "Address:" in prompts["geollm"]
    # rho against the truth (IMR) and the anchor (attractiveness), recomputed here with scipy
    # from the written layers and the countries layer.
    survival = anchor_at(CITIES)
    by_key = {(r["variant"], r["topic"], r["score_kind"]): r for r in table}
    for (variant, topic), rated in layers.items():
        rated.sort(key=lambda r: r["pid"])
        greedy = np.array([np.nan if r["rating"] is None else r["rating"] for r in rated])
        ref = np.array([r["truth"] for r in rated], float) if topic == IMR else survival
        row = by_key[(variant, topic, "greedy")]
        assert row["against"] == ("truth" if topic == IMR else "Countries.infant_survival")
        ok = np.isfinite(greedy) & np.isfinite(ref)
        if ok.sum() >= 3 and np.ptp(greedy[ok]) > 0:
            assert row["rho"] == pytest.approx(stats.spearmanr(greedy[ok], ref[ok])[0])
        else:
            assert row["rho"] is None and row["reason"]
        whole = by_key[("geollm", topic, "greedy")]["rho"]
        if row["rho"] is not None and whole is not None:
            assert row["change"] == pytest.approx(row["rho"] - whole)
    pivot = {r["topic"]: r for r in rows_of(out, "ablation_greedy")}
    assert set(pivot) == {IMR, ATTR, "Mean (across topics)"}
    assert "Table 1" in first["MARKDOWN"] and "| Topic | geollm | no_coordinates |" in first[
        "MARKDOWN"]  # fmt: skip
    # Again: every answer comes from the cache, nothing is asked, the tables are the same.
    again = run("geobias:ablation", dict(params, OUTPUT=str(tmp_path / "again.gpkg")))
    assert again["N_REQUESTS"] == 0 and again["N_CACHED"] == 5 * 2 * len(CITIES)
    assert rows_of(str(tmp_path / "again.gpkg"), "ablation") == table


def anchor_at(coords):
    """Infant survival of the country under each point, read with OGR."""
    path, name = COUNTRIES.split("|layername=")
    ds = ogr.Open(path)
    layer = ds.GetLayerByName(name)
    out = []
    for x, y in coords:
        layer.SetSpatialFilter(ogr.CreateGeometryFromWkt(f"POINT ({x} {y})"))
        values = [f.GetField("infant_survival") for f in layer]
        out.append(values[0] if values and values[0] is not None else np.nan)
    layer.SetSpatialFilter(None)
    ds = None
    return np.array(out, float)


def test_probes_on_the_embedded_model(processing_ready, model, tmp_path):
    from qgis.core import QgsVectorLayer

    from geobias.core.survey.probes import read_choice

    params = {
        **model, "ACTIVITIES": "see wildlife\nmeet kind people", "N_SAMPLES": 2,
        "QUERIES": "Give me a list of countries I should consider for a holiday.",
        "MAX_TOKENS": 40, "MENTIONS": str(tmp_path / "mentions.gpkg"),
    }  # fmt: skip
    out = str(tmp_path / "probes.gpkg")
    res = run("geobias:probes", dict(params, OUTPUT=out))
    assert res["N_REQUESTS"] + res["N_CACHED"] == 3 * 2
    answers = rows_of(out, "probe_answers")
    assert len(answers) == 3 * 2 and {r["sample"] for r in answers} == {0, 1}
    choices = {r["activity"]: r for r in rows_of(out, "choices")}
    assert set(choices) == {"see wildlife", "meet kind people"}
    for activity, row in choices.items():
        picks = [read_choice(r["completion"], "Africa", "Europe", r["prompt"]) for r in answers
                 if r["kind"] == "choice" and activity in r["prompt"]]  # fmt: skip
        assert row["n_samples"] == 2 and row["n_a"] == picks.count("a")
        assert row["n_b"] == picks.count("b") and row["n_refused"] == picks.count("refusal")
        assert row["share_a"] == pytest.approx(picks.count("a") / 2)
    # Mentions joined to the bundled countries: the counts are the answers' named countries.
    layer = QgsVectorLayer(res["MENTIONS"], "m", "ogr")
    counts = {f["name"]: f["mentions"] for f in layer.getFeatures()}
    named = [n for r in answers if r["kind"] == "recommendation" for n in
             filter(None, (r["answer"] or "").split("; "))]  # fmt: skip
    assert sum(counts.values()) == len(named) and layer.featureCount() > 200
    from geobias.processing.features import as_float

    survival = as_float([f["infant_survival"] for f in layer.getFeatures()])
    mentions = as_float([f["mentions"] for f in layer.getFeatures()])
    del layer
    ok = np.isfinite(survival)
    if np.ptp(mentions[ok]) > 0:
        rho = stats.spearmanr(mentions[ok], survival[ok])[0]
        assert res["RHO_MENTIONS_SURVIVAL"] == pytest.approx(rho)
    (summary,) = rows_of(out, "recommendations")
    assert summary["n_responses"] == 2
    # Again: all from the cache; one more sample asks only the new sample of each prompt.
    again = run("geobias:probes", dict(params, OUTPUT=str(tmp_path / "again.gpkg")))
    assert again["N_REQUESTS"] == 0 and again["N_CACHED"] == 6
    assert rows_of(str(tmp_path / "again.gpkg"), "probe_answers") == answers
    more = run("geobias:probes", dict(params, N_SAMPLES=3, OUTPUT=str(tmp_path / "more.gpkg")))
    assert more["N_REQUESTS"] + more["N_CACHED"] == 9 and more["N_CACHED"] >= 6
