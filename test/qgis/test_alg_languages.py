"""Prompt languages through Processing: ratelocations, survey and exportbatch in several
languages against a local chat server (which answers every prompt in English, as small models
often do: the parser of every language reads the English phrase too)."""

import json
import os
import sqlite3

import numpy as np
import pytest
from qgis.core import QgsProcessingException, QgsVectorLayer

from geobias.core.survey.languages import get_language
from geobias.paths import DATA
from geobias.processing.features import as_float
from geobias.processing.language_choices import countries_of, language_choices
from geobias.processing.metadata import COUNTRY_LANGUAGES_RIGHTS
from geobias.processing.runs import read_runs
from geobias.test.faultserver import FaultServer

COUNTRIES = os.path.join(DATA, "world_countries.gpkg") + "|layername=countries"
IMR = "Infant Mortality Rate"


def run(alg, params):
    import processing

    return processing.run(alg, params)


def languages(*codes):
    choices = language_choices()
    return [choices.index(c) for c in codes]


@pytest.fixture()
def points(processing_ready):
    return run("geobias:samplepoints", {"COUNT": 10, "METHOD": 1, "OUTPUT": "memory:"})["OUTPUT"]


def test_the_choices_are_the_language_files_english_first(processing_ready):
    choices = language_choices()
    assert choices.keys[0] == "en" and choices.default == "en"
    assert {"fr", "ar", "zh", "es", "ru", "hi", "pt", "sw", "id"} <= set(choices.keys)
    assert choices.source_labels[choices.index("fr")] == "Français (French)"


def test_ratelocations_in_two_languages_tags_layers_and_runs(points, tmp_path):
    out = str(tmp_path / "rated.gpkg")
    with FaultServer() as fs:
        res = run("geobias:ratelocations", {
            "INPUT": points, "PROVIDER": 9, "BASE_URL": fs.base_url, "MODEL": "fake-model",
            "TOPICS": IMR, "LANGUAGES": languages("en", "fr"), "OUTPUT": out,
        })  # fmt: skip
    assert len(res["OUTPUT_LAYERS"]) == 2 and res["N_ANSWERED"] == 20
    by_language = {}
    for uri in res["OUTPUT_LAYERS"]:
        layer = QgsVectorLayer(uri, "r", "ogr")
        codes = {f["language"] for f in layer.getFeatures()}
        assert len(codes) == 1
        by_language[codes.pop()] = (uri, [f["prompt"] for f in layer.getFeatures()])
    assert set(by_language) == {"en", "fr"}
    assert by_language["fr"][0].endswith("_fr")
    assert all(p.startswith(get_language("fr").prefix) for p in by_language["fr"][1])
    assert all("Coordinates:" in p for p in by_language["en"][1])
    with sqlite3.connect(out) as con:
        rows = con.execute("select language, template_prefix, n_requests from runs").fetchall()
    assert sorted(r[0] for r in rows) == ["en", "fr"]
    assert {r[0]: r[1] for r in rows}["fr"] == get_language("fr").prefix
    assert all(r[2] == 10 for r in rows)


def test_english_alone_writes_what_it_always_wrote(points, tmp_path):
    out = str(tmp_path / "rated.gpkg")
    with FaultServer() as fs:
        res = run("geobias:ratelocations", {
            "INPUT": points, "PROVIDER": 9, "BASE_URL": fs.base_url, "MODEL": "fake-model",
            "TOPICS": IMR, "OUTPUT": out,
        })  # fmt: skip
    layer = QgsVectorLayer(res["OUTPUT_LAYERS"][0], "r", "ogr")
    assert "language" not in layer.fields().names()
    assert res["OUTPUT_LAYERS"][0].endswith("layername=fake_model_infant_mortality_rate")
    with sqlite3.connect(out) as con:
        columns = [r[1] for r in con.execute("pragma table_info(runs)")]
    assert "language" not in columns


def test_no_language_is_an_error(points, tmp_path):
    with pytest.raises(QgsProcessingException, match="LANGUAGES"):
        run("geobias:ratelocations", {
            "INPUT": points, "PROVIDER": 9, "BASE_URL": "http://127.0.0.1:9/v1", "MODEL": "m",
            "LANGUAGES": [], "OUTPUT": str(tmp_path / "x.gpkg"),
        })  # fmt: skip


def test_survey_in_two_languages_writes_home_bias(processing_ready, tmp_path):
    out = str(tmp_path / "survey.gpkg")
    with FaultServer() as fs:
        res = run("geobias:survey", {
            "COUNT": 60, "METHOD": 1, "PROVIDER": 9, "BASE_URL": fs.base_url, "MODEL": "fake",
            "TOPICS": IMR, "LANGUAGES": languages("en", "es"),
            "TRUTH": COUNTRIES, "TRUTH_FIELD": "infant_mortality", "N_BOOT": 200,
            "OUTPUT": out,
        })  # fmt: skip
    metrics = QgsVectorLayer(res["METRICS"], "m", "ogr")
    rows = {f["language"]: f for f in metrics.getFeatures()}
    assert set(rows) == {"en", "es"}
    assert COUNTRY_LANGUAGES_RIGHTS in metrics.metadata().rights()
    for code, row in rows.items():
        assert row["topic"] == IMR and row["n_points"] == 60
        # The home bias is the definition's, on the layer's own rank errors and countries.
        uri = next(u for u in res["OUTPUT_LAYERS"] if u.endswith(f"_{code}"))
        layer = QgsVectorLayer(uri, "r", "ogr")
        feats = list(layer.getFeatures())
        err = as_float([f["rank_error"] for f in feats])
        lon = np.array([f.geometry().asPoint().x() for f in feats])
        lat = np.array([f.geometry().asPoint().y() for f in feats])
        iso = countries_of(lon, lat)
        from geobias.core.survey.home_bias import home_countries

        home = home_countries(get_language(code).spoken, "listed")
        keep = np.isfinite(err) & (iso != "")
        at_home = np.array([c in home for c in iso]) & keep
        away = ~np.array([c in home for c in iso]) & keep
        if at_home.any() and away.any():
            want = err[at_home].mean() - err[away].mean()
            assert row["home_listed"] == pytest.approx(want)
        assert row["home_listed_countries"] == len(set(iso[at_home]))


def test_comparemodels_takes_language_as_a_dimension(points, tmp_path):
    rated = str(tmp_path / "rated.gpkg")
    with FaultServer() as fs:
        res = run("geobias:ratelocations", {
            "INPUT": points, "PROVIDER": 9, "BASE_URL": fs.base_url, "MODEL": "fake-model",
            "TOPICS": IMR, "LANGUAGES": languages("en", "ar"), "OUTPUT": rated,
        })  # fmt: skip
    truth = [
        run(
            "geobias:samplegroundtruth",
            {
                "INPUT": uri,
                "SCORE_FIELD": "score",
                "POLYGONS": COUNTRIES,
                "POLYGON_FIELD": "infant_mortality",
                "OUTPUT": str(tmp_path / f"t{k}.gpkg"),
            },
        )["OUTPUT"]  # fmt: skip
        for k, uri in enumerate(res["OUTPUT_LAYERS"])
    ]
    out = str(tmp_path / "compare.gpkg")
    folder = str(tmp_path / "tables")
    cmp = run("geobias:comparemodels", {"INPUT": truth, "N_BOOT": 50, "OUTPUT": out,
                                        "TABLES_FOLDER": folder})  # fmt: skip
    with sqlite3.connect(out) as con:
        tables = {r[0] for r in con.execute("select table_name from gpkg_contents")}
        metrics = con.execute("select language, rho_truth, mad from compare_metrics").fetchall()
        across = con.execute("select topic, en, ar from pivot_rho_truth_languages").fetchall()
        per_ar = con.execute('select topic, "fake-model" from pivot_mad_ar').fetchall()
    assert {
        "pivot_rho_truth_en",
        "pivot_rho_truth_ar",
        "pivot_gini_ar",
        "pivot_mad_en",
        "pivot_rho_truth_languages",
        "mean_rank_infant_mortality_rate_en",
        "mean_rank_infant_mortality_rate_ar",
        "rank_spread_infant_mortality_rate",
    } <= tables
    rho = {lang: r for lang, r, _m in metrics}
    assert across[0] == (IMR, pytest.approx(rho["en"]), pytest.approx(rho["ar"]))
    assert per_ar[0] == (IMR, pytest.approx({lang: m for lang, _r, m in metrics}["ar"]))
    assert os.path.exists(os.path.join(folder, "rho_truth_languages.csv"))
    # The spread layer: each point's largest minus smallest rank over the two languages.
    (spread_uri,) = cmp["SPREAD_LAYERS"]
    spread = QgsVectorLayer(spread_uri, "s", "ogr")
    ranks = {}
    for code in ("en", "ar"):
        uri = next(u for u in res["OUTPUT_LAYERS"] if u.endswith(f"_{code}"))
        layer = QgsVectorLayer(uri, code, "ogr")
        ranks[code] = {(round(f["lon"], 6), round(f["lat"], 6)): f["rank"]
                       for f in layer.getFeatures()}  # fmt: skip
    for f in spread.getFeatures():
        key = (round(f["lon"], 6), round(f["lat"], 6))
        want = abs(ranks["en"][key] - ranks["ar"][key])
        assert f["rank_spread"] == pytest.approx(want)
        assert f["rank_en"] == pytest.approx(ranks["en"][key])
    assert len(cmp["MEAN_RANK_LAYERS"]) == 2


def test_the_report_of_a_language_layer_gives_its_home_bias_and_credits(points, tmp_path):
    import subprocess
    import unicodedata

    rated = str(tmp_path / "rated.gpkg")
    with FaultServer() as fs:
        res = run("geobias:ratelocations", {
            "INPUT": points, "PROVIDER": 9, "BASE_URL": fs.base_url, "MODEL": "fake-model",
            "TOPICS": IMR, "LANGUAGES": languages("en", "fr"), "OUTPUT": rated,
        })  # fmt: skip
    fr = next(u for u in res["OUTPUT_LAYERS"] if u.endswith("_fr"))
    with_truth = run("geobias:samplegroundtruth", {
        "INPUT": fr, "SCORE_FIELD": "score", "POLYGONS": COUNTRIES,
        "POLYGON_FIELD": "infant_mortality", "OUTPUT": str(tmp_path / "truth.gpkg"),
    })["OUTPUT"]  # fmt: skip
    # Each language's runs row carries the facts; the ground truth made from the French layer
    # copies the French row (its prompt in French), language included, and says so.
    rows = read_runs(rated)
    assert sorted(r["language"] for r in rows) == ["en", "fr"]
    assert all(r["study_area"] and r["score_kind"] for r in rows)
    french = next(r for r in rows if r["language"] == "fr")
    (derived,) = read_runs(with_truth.split("|")[0])
    assert derived["language"] == "fr" and derived["truth"] == "Countries.infant_mortality"
    assert derived["template_body"] == french["template_body"] != rows[0]["template_body"]
    assert derived["study_area"] == french["study_area"]
    abstract = QgsVectorLayer(with_truth, "truth", "ogr").metadata().abstract()
    assert "Prompt language: Français (French) [fr]" in abstract
    pdf = str(tmp_path / "report.pdf")
    run("geobias:report", {"INPUT": with_truth, "N_BOOT": 50, "OUTPUT": pdf})
    text = subprocess.run(["pdftotext", pdf, "-"], capture_output=True, text=True).stdout
    flat = " ".join(unicodedata.normalize("NFKC", text).split())
    # The facts page names the layer's language, with the facts of its own runs row.
    assert "Prompt language Français (French) [fr]" in flat, flat[:1500]
    assert "Study area the points of" in flat and "Ground truth Countries.infant_mortality" in flat
    assert "Home bias of prompt language fr:" in flat
    assert "countries listing it first" in flat and "listing it at all" in flat
    assert "home-bias claim" in flat.lower() or "carry signal" in flat
    assert "Country languages (home bias): GeoNames" in flat


def test_exportbatch_writes_every_languages_requests_with_its_grammar(points, tmp_path):
    import uuid

    model = f"batch-{uuid.uuid4().hex[:8]}"  # fresh cache keys (the profile's cache persists)
    out = run("geobias:exportbatch", {
        "INPUT": points, "PROVIDER": 0, "BASE_URL": "http://127.0.0.1:9/v1", "MODEL": model,
        "TOPICS": IMR, "LANGUAGES": languages("en", "ar"), "OUTPUT": str(tmp_path / "req"),
    })  # fmt: skip
    assert out["N_REQUESTS"] == 20
    lines = [json.loads(line) for f in out["FILES"].splitlines() for line in open(f, "rb")]
    grammars = {line["body"].get("grammar") for line in lines}
    assert grammars == {get_language("en").gbnf, get_language("ar").gbnf}
    arabic = [line for line in lines if line["body"].get("grammar") == get_language("ar").gbnf]
    assert len(arabic) == 10
    assert all(get_language("ar").prefix in a["body"]["messages"][0]["content"] for a in arabic)


def test_ablation_in_two_languages_has_a_row_per_language(points, tmp_path):
    from geobias.processing.definitions import ABLATION_VARIANTS

    out = str(tmp_path / "ablation.gpkg")
    with FaultServer() as fs:
        res = run("geobias:ablation", {
            "INPUT": points, "PROVIDER": 9, "BASE_URL": fs.base_url, "MODEL": "fake-model",
            "TOPICS": IMR, "LANGUAGES": languages("en", "es"),
            "VARIANTS": [ABLATION_VARIANTS.index(v) for v in ("geollm", "no_address")],
            "TRUTH": COUNTRIES, "TRUTH_FIELD": "infant_mortality", "N_BOOT": 20, "OUTPUT": out,
        })  # fmt: skip
    assert len(res["OUTPUT_LAYERS"]) == 4
    with sqlite3.connect(out) as con:
        rows = con.execute(
            "select variant, language, rho, change from ablation where score_kind = 'greedy'"
        ).fetchall()
        pivot_topics = [r[0] for r in con.execute("select topic from ablation_greedy")]
        runs = con.execute("select language, template_body from runs").fetchall()
    assert sorted((v, lang) for v, lang, _r, _c in rows) == [
        ("geollm", "en"),
        ("geollm", "es"),
        ("no_address", "en"),
        ("no_address", "es"),
    ]
    assert all(c == 0 for v, _l, _r, c in rows if v == "geollm")
    assert f"{IMR} [es]" in pivot_topics and f"{IMR} [en]" in pivot_topics
    spanish = [body for lang, body in runs if lang == "es"]
    assert len(spanish) == 2 and all(b.startswith("Coordenadas: ({lat") for b in spanish)
