"""geobias:herb through processing.run: the user's nested layers scored by the real embedded
model, fields, saved styles and numbers checked against the core engine; bad scopes and a
chat-only endpoint refused with nothing written."""

import json
import sqlite3
import sys

import numpy as np
import pytest
from qgis.core import (
    QgsFeature,
    QgsGeometry,
    QgsProcessingException,
    QgsProcessingFeedback,
    QgsVectorLayer,
)

from geobias.core.engine.chat import server_endpoint
from geobias.test.faultserver import FaultServer
from geobias.test.tiny_mlm import build_in_child

WORDS = "intelligence\tintelligent\nintelligence\tstupid\nmorality\thonest\nmorality\tcruel\n"
TOPIC_FIELDS = ["c_intelligence", "c_morality", "c_wo_intelligence", "c_wo_morality"]
FIELDS = ["fid", "region_id", "level", "region", "parent", "c_w", "c_z", *TOPIC_FIELDS, "z",
          "n_children", "deviation", "flat"]  # fmt: skip


def run(params):
    import processing

    return processing.run("geobias:herb", params)


def polygons(name, rows, fields="name:string&field=id:string&field=up:string"):
    """A memory polygon layer of (name, id, parent id, x0) squares."""
    layer = QgsVectorLayer(f"Polygon?crs=EPSG:4326&field={fields}", name, "memory")
    feats = []
    for n, rid, up, x in rows:
        f = QgsFeature(layer.fields())
        f.setAttributes([n, rid, up])
        f.setGeometry(QgsGeometry.fromWkt(f"POLYGON(({x} 0, {x + 1} 0, {x + 1} 1, {x} 1, {x} 0))"))
        feats.append(f)
    layer.dataProvider().addFeatures(feats)
    return layer


@pytest.fixture()
def scope(tmp_path):
    words = tmp_path / "words.txt"
    words.write_text(WORDS)
    countries = polygons("countries", [("Norway", "NO", None, 0), ("Chile", "CL", None, 4)])
    cities = [("Oslo", "1", "NO", 0), ("Bergen", "2", "NO", 1), ("Santiago", "3", "CL", 4),
              ("Valparaiso", "4", "CL", 5)]  # fmt: skip
    cities = polygons("cities", cities)
    return {"SCOPE": 1, "LAYER_1": countries, "NAME_FIELD_1": "name", "ID_FIELD_1": "id",
            "LAYER_2": cities, "NAME_FIELD_2": "name", "PARENT_FIELD_2": "up",
            "DESCRIPTORS": str(words), "CACHE": str(tmp_path / "cache.sqlite"),
            "OUTPUT": str(tmp_path / "herb.gpkg")}  # fmt: skip


def columns(path, table):
    with sqlite3.connect(path) as con:
        con.row_factory = sqlite3.Row
        rows = [dict(r) for r in con.execute(f'SELECT * FROM "{table}"')]
        names = [c[1] for c in con.execute(f'PRAGMA table_info("{table}")')]
    return names, rows


@pytest.mark.integration  # the embedded model (native only, not in make test-matrix)
def test_herb_on_nested_layers_matches_the_core_engine(processing_ready, scope):
    from geobias.core.engine.cache import ScoreCache
    from geobias.core.herb.descriptors import load_descriptors
    from geobias.core.herb.hierarchy import Hierarchy
    from geobias.core.herb.run import HerbSpec
    from geobias.core.herb.run import run as core_run
    from geobias.core.herb.scorers import LlamaCppScorer
    from geobias.core.runtime.embedded import shared_server

    out = run(scope)
    path = scope["OUTPUT"]
    assert out["N_SENTENCES"] == 6 * 4 + 6 and out["N_TO_SCORE"] == 30
    assert sorted(u.split("layername=")[1] for u in out["OUTPUT_LAYERS"]) == [
        "herb_0_countries", "herb_1_cities"]  # fmt: skip
    names, top = columns(path, "herb_0_countries")
    _, leaves = columns(path, "herb_1_cities")
    assert names == ["fid", "geom", *FIELDS[1:]]
    _, words = columns(path, "herb_descriptors")
    assert len(words) == 6 * 4 and {"region", "descriptor", "topic", "score", "v",
                                    "deviation"} <= set(words[0])  # fmt: skip
    _, regions = columns(path, "herb_regions")
    assert [r["region"] for r in regions[:1]] == ["Earth"] and len(regions) == 7
    _, runs = columns(path, "runs")
    # The embedded model's default: whole sentences in a child process, no server.
    assert runs[0]["algorithm"] == "geobias:herb" and runs[0]["endpoint_host"] == "local"
    assert json.loads(runs[0]["endpoint"])["method"] == "whole"

    # The same scores (from the cache: nothing scored again) through the core engine's forced
    # decoding: the whole-sentence scorer stores them under forced decoding's key.
    ids = ["NO", "CL", "1", "2", "3", "4"]
    names_ = ["Norway", "Chile", "Oslo", "Bergen", "Santiago", "Valparaiso"]
    h = Hierarchy.from_parent_ids(ids, names_, [None, None, "NO", "NO", "CL", "CL"])
    from geobias.processing.endpoints import HERB_EMBEDDED_MODEL

    scorer = LlamaCppScorer.from_endpoint(server_endpoint(shared_server(model=HERB_EMBEDDED_MODEL)))
    before = scorer.http.n_requests
    spec = HerbSpec(h, scorer, load_descriptors(scope["DESCRIPTORS"]))
    core = core_run(spec, ScoreCache(scope["CACHE"]))
    assert scorer.http.n_requests == before  # everything came from the cache
    scorer.close()
    by_name = {r["region"]: r for r in top + leaves}
    for i, name in enumerate(names_):
        row = by_name[name]
        assert row["n_children"] == (2 if i < 2 else 0)
        assert row["z"] == pytest.approx(core.z[i], abs=1e-9)
        if i < 2:  # a country: C over its two cities, per topic and without each topic
            assert row["c_w"] == pytest.approx(core.C_w[i], rel=1e-9) and row["c_w"] > 0
            assert row["c_z"] == pytest.approx(core.C_z[i], rel=1e-9)
            assert row["c_morality"] == pytest.approx(core.topic_C_w["morality"][i], rel=1e-9)
            assert row["c_wo_morality"] == pytest.approx(core.without_C_w["morality"][i], rel=1e-9)
        else:
            assert row["c_w"] is None  # a leaf has no C
        dev = np.asarray(core.deviation[i]).mean()
        assert row["deviation"] == pytest.approx(dev, rel=1e-9)
    assert regions[0]["c_w"] == pytest.approx(core.C_w[core.root], rel=1e-9)
    assert out["C_ROOT"] == pytest.approx(core.C_w[core.root], rel=1e-9)

    # Styles saved in the GeoPackage: graduated on C where regions have one, else the deviation.
    with sqlite3.connect(path) as con:
        styles = con.execute(
            "SELECT f_table_name, styleName, useAsDefault, description FROM layer_styles"
        ).fetchall()
    default = {t: s for t, s, d, _ in styles if d}
    assert default == {"herb_0_countries": "c_w", "herb_1_cities": "deviation"}
    legend = "regional bias C (higher = more inconsistent judgements of its sub-regions)"
    assert (
        "herb_0_countries", "c_w", 1, legend) in [tuple(s) for s in styles]  # fmt: skip
    layer = QgsVectorLayer(out["OUTPUT_LAYERS"][0], "x", "ogr")
    layer.loadDefaultStyle()
    renderer = layer.renderer()
    assert renderer.type() == "graduatedSymbol"
    assert renderer.classAttribute() in ("c_w", "deviation")

    # A second run resumes from the cache: nothing left to score.
    again = run(dict(scope, OUTPUT=scope["OUTPUT"].replace("herb.gpkg", "again.gpkg")))
    assert again["N_TO_SCORE"] == 0 and again["C_ROOT"] == pytest.approx(out["C_ROOT"])


@pytest.mark.integration  # the embedded model (native only, not in make test-matrix)
def test_estimate_only_writes_nothing(processing_ready, scope, tmp_path):
    out = run(dict(scope, ESTIMATE_ONLY=True, OUTPUT=str(tmp_path / "none.gpkg")))
    assert out["N_SENTENCES"] == 30 and "30 sentences" in out["ESTIMATE"]
    assert not (tmp_path / "none.gpkg").exists()


@pytest.mark.integration  # the embedded model (native only, not in make test-matrix)
def test_estimate_only_scores_nothing_and_explains_its_requests(processing_ready, scope, tmp_path):
    """Issue 35 item 4: 'score nothing, write nothing' holds even where a run is worth timing
    (666 sentences by forced decoding: the old estimate scored and cached a quarter of them to
    time the model); the time comes from the rate recorded on this machine, and requests that
    outnumber sentences say why (one /tokenize per batch)."""
    from geobias.core.engine.cache import ScoreCache

    cache = tmp_path / "estimate.sqlite"
    params = dict(scope, DESCRIPTORS="", METHOD=1, CACHE=str(cache), ESTIMATE_ONLY=True)
    out = run(params)
    assert out["N_SENTENCES"] == 666 and out["N_TO_SCORE"] == 666
    assert ScoreCache(str(cache)).n_scores() == 0
    assert not (tmp_path / "herb.gpkg").exists()
    text = out["ESTIMATE"]
    assert "666 uncached sentences" in text and "to tokenize them, one per batch of 16" in text


def test_the_estimate_says_why_requests_outnumber_sentences():
    """The issue's 430 requests for 404 uncached sentences: 404 scored, 26 /tokenize batches."""
    from geobias.core.herb.run import HerbEstimate
    from geobias.processing.herb_io import format_estimate

    est = HerbEstimate(448, 44, 404, 430, None, None, n_tokenize=26, batch_size=16)
    text = format_estimate(est, "127.0.0.1:8080", "Oceania", "gemma")
    assert "430 requests" in text and "404 to score the 404 uncached sentences" in text
    assert "26 to tokenize them, one per batch of 16" in text


def scores_of(path):
    """{(region, descriptor): score} of a HERB GeoPackage."""
    _, rows = columns(path, "herb_descriptors")
    return {(r["region"], r["descriptor"]): r["score"] for r in rows}


@pytest.mark.integration  # the embedded model (native only, not in make test-matrix)
def test_whole_sentence_scoring_equals_forced_decoding(processing_ready, tmp_path):
    """The same run by both methods of the embedded model: every sentence's score within
    1e-4, so the same C. Awkward names: non-ASCII (Zürich, Valparaíso, Türkiye), a short one
    that is one token (Lima), one whose tokens are prefixes of the next word's ("Inn"). Not
    İzmir: its İ spans tokens, which forced decoding cannot score (core tests cover it)."""
    words = tmp_path / "words.txt"
    words.write_text(WORDS + "strength\tstrong\noccupation\tnurse\n")
    top = polygons("countries", [("Switzerland", "CH", None, 0), ("Peru", "PE", None, 4),
                                 ("Türkiye", "TR", None, 8)])  # fmt: skip
    low = polygons("cities", [("Zürich", "1", "CH", 0), ("Inn", "2", "CH", 1),
                              ("Lima", "3", "PE", 4), ("Valparaíso", "4", "PE", 5),
                              ("Konya", "5", "TR", 8), ("Ankara", "6", "TR", 9)])  # fmt: skip
    base = {"SCOPE": 1, "LAYER_1": top, "NAME_FIELD_1": "name", "ID_FIELD_1": "id",
            "LAYER_2": low, "NAME_FIELD_2": "name", "PARENT_FIELD_2": "up",
            "DESCRIPTORS": str(words), "EMBEDDED_MODEL": 0}  # fmt: skip
    # SmolLM2 (EMBEDDED_MODEL 0): Gemma's forced decoding on the shared server, once earlier
    # runs have used it, differs by up to 0.035 on a few sentences (the server's cached
    # prompts); test/integration/test_whole_sentence.py compares Gemma on a fresh server.
    out = {}
    for method in ("forced", "whole"):
        out[method] = run(dict(base, METHOD=["whole", "forced"].index(method),
                               CACHE=str(tmp_path / f"{method}.sqlite"),
                               OUTPUT=str(tmp_path / f"{method}.gpkg")))  # fmt: skip
        assert out[method]["N_TO_SCORE"] == 9 * 6 + 9
        _, runs = columns(out[method]["OUTPUT"], "runs")
        assert json.loads(runs[0]["endpoint"])["method"] == method
    forced, whole = (scores_of(out[m]["OUTPUT"]) for m in ("forced", "whole"))
    assert forced.keys() == whole.keys() and len(forced) == 9 * 6
    worst = max(abs(forced[k] - whole[k]) for k in forced)
    assert worst <= 1e-4, worst
    assert all(-30 < v < 0 for v in whole.values())
    assert out["whole"]["C_ROOT"] == pytest.approx(out["forced"]["C_ROOT"], rel=1e-2)


@pytest.mark.integration  # a masked LM needs torch (native only, not in make test-matrix)
def test_the_reference_switch_sets_template_words_and_padding(processing_ready, scope, tmp_path):
    """REFERENCE_CODE: the released scripts' template (no period), their descriptor words
    (leading spaces kept) and their padding rule together; each part still set alone."""
    folder = tiny_masked_lm(tmp_path / "tiny-bert")
    if folder is None:  # the masked LM's padding needs torch (make setup installs it)
        pytest.fail("torch and transformers are needed: run make setup")
    base = {k: v for k, v in scope.items() if k != "DESCRIPTORS"}
    base.update(SCORER=3, MODEL=folder, TOPICS="intelligence")

    def sentences(cache):
        with sqlite3.connect(cache) as con:
            rows = con.execute("SELECT sentence, rule FROM sentence_scores").fetchall()
        # the padded rule names its region batches after a '#'
        return {sentence: rule.split("#")[0] for sentence, rule in rows}

    cache = str(tmp_path / "ref.sqlite")
    out = run(dict(base, REFERENCE_CODE=True, CACHE=cache))
    assert out["N_SENTENCES"] == 6 * 25 + 6
    got = sentences(cache)
    assert "People in Oslo are     wise" in got  # the template's space, then the word's four
    assert "People in Oslo are intelligent" in got and not any(s.endswith(".") for s in got)
    assert set(got.values()) == {"aul-reference-padding"}
    _, runs = columns(scope["OUTPUT"], "runs")
    how = json.loads(runs[-1]["endpoint"])
    assert how["released_words"] and how["reference_padding"] and how["reference_code"]

    # One part alone: the paper's padding under the switch; the switch off but the released
    # words on.
    cache = str(tmp_path / "parts.sqlite")
    paper = ["switch", "paper", "released"].index("paper")
    released = ["switch", "paper", "released"].index("released")
    run(dict(base, REFERENCE_CODE=True, REFERENCE_PADDING=paper, CACHE=cache,
             OUTPUT=str(tmp_path / "a.gpkg")))  # fmt: skip
    got = sentences(cache)
    assert "People in Oslo are     wise" in got and set(got.values()) == {"aul"}
    cache = str(tmp_path / "words.sqlite")
    run(dict(base, RELEASED_WORDS=released, CACHE=cache, OUTPUT=str(tmp_path / "b.gpkg")))
    got = sentences(cache)
    assert "People in Oslo are     wise." in got and "People in Oslo are wise." not in got
    assert set(got.values()) == {"aul"}
    # the switch with a template of the user's: the template wins
    cache = str(tmp_path / "template.sqlite")
    run(dict(base, REFERENCE_CODE=True, TEMPLATE="In {region}, people are {descriptor}!",
             CACHE=cache, OUTPUT=str(tmp_path / "c.gpkg")))  # fmt: skip
    assert "In Oslo, people are     wise!" in sentences(cache)


def refused(params, match, tmp_path):
    with pytest.raises(QgsProcessingException, match=match):
        run(params)
    assert not (tmp_path / "herb.gpkg").exists()


def test_bad_scopes_are_refused_and_write_nothing(processing_ready, scope, tmp_path):
    base = {k: v for k, v in scope.items() if not k.startswith(("LAYER_2", "NAME_FIELD_2",
                                                                "PARENT_FIELD_2"))}  # fmt: skip
    # One layer whose parent links form a cycle.
    cycle = polygons("loop", [("A", "a", "b", 0), ("B", "b", "a", 1), ("C", "c", None, 2)])
    one = dict(base, SCOPE=2, LAYER_1=cycle, PARENT_FIELD_1="up")
    refused(one, "cycle", tmp_path)
    # One layer without any parent: no hierarchy.
    flat = polygons("flat", [("A", "a", None, 0), ("B", "b", None, 1)])
    refused(dict(one, LAYER_1=flat), "no parent relation", tmp_path)
    # A region without a name.
    unnamed = polygons("unnamed", [("A", "a", None, 0), ("", "b", "a", 1), ("C", "c", "a", 2)])
    refused(dict(one, LAYER_1=unnamed), "has no name", tmp_path)
    # Two layers but no parent field, then a parent id that is not in the layer above.
    refused(dict(scope, PARENT_FIELD_2=None), "no parent relation", tmp_path)
    orphan = polygons("orphans", [("Oslo", "1", "SE", 0), ("Bergen", "2", "NO", 1)])
    refused(dict(scope, LAYER_2=orphan), "no id of layer 1", tmp_path)


def test_a_chat_only_endpoint_is_refused(processing_ready, scope, tmp_path):
    with FaultServer() as server:  # answers /v1/chat/completions only
        echo = dict(scope, SCORER=2, URL=server.base_url, MODEL="fault")
        refused(echo, "cannot score sentences.*chat-only", tmp_path)
        refused(dict(scope, SCORER=1, URL=server.base_url), "cannot start", tmp_path)


@pytest.mark.integration  # the embedded model (native only, not in make test-matrix)
def test_a_cancelled_run_writes_nothing_and_keeps_its_scores(processing_ready, scope, tmp_path):
    import processing

    # The paper's 112 descriptors ("strong" and "weak" twice: 110 sentences per region) and the
    # 6 names: 666 sentences, 42 batches of forced decoding; cancel once the first batch has
    # come back. (Whole sentences go 448 to a batch: these 666 are two, and here the cancel
    # after the first came too late to skip the second: the run completed.)
    params = dict(scope, DESCRIPTORS="", METHOD=1, CACHE=str(tmp_path / "cancel.sqlite"))
    feedback = QgsProcessingFeedback()
    feedback.progressChanged.connect(lambda p: p > 0 and feedback.cancel())
    with pytest.raises(QgsProcessingException, match="cancelled.*nothing was written"):
        processing.run("geobias:herb", params, feedback=feedback)
    assert not (tmp_path / "herb.gpkg").exists()
    left = run(dict(params, ESTIMATE_ONLY=True))
    assert left["N_SENTENCES"] == 666 and 0 < left["N_TO_SCORE"] <= 666 - 16


def tiny_masked_lm(folder):
    """A randomly initialised BertForMaskedLM with a vocabulary written here (no weights are
    downloaded), built by another Python so torch stays out of this one; None without torch."""
    words = ["people", "in", "are", ".", "norway", "chile", "oslo", "bergen", "santiago",
             "valparaiso", "intelligent", "stupid", "honest", "cruel"]  # fmt: skip
    return build_in_child(str(folder), words)


def test_a_transformers_masked_lm_from_a_folder(processing_ready, scope, tmp_path):
    folder = tiny_masked_lm(tmp_path / "tiny-bert")
    params = dict(scope, SCORER=3, MODEL=str(folder or tmp_path / "tiny-bert"))
    if folder is None:  # without the optional packages: what to install, nothing written
        refused(params, "pip install torch", tmp_path)
        return
    torch_before = "torch" in sys.modules  # another test may have loaded it into this process
    out = run(params)
    if not torch_before:  # the model ran in a child process (test_qgis_process checks it too)
        assert "torch" not in sys.modules and "transformers" not in sys.modules
    assert out["N_TO_SCORE"] == 30 and out["C_ROOT"] > 0
    _, top = columns(scope["OUTPUT"], "herb_0_countries")
    assert all(r["c_w"] > 0 for r in top)
    _, runs = columns(scope["OUTPUT"], "runs")
    assert runs[0]["provider"] == "transformers" and runs[0]["model"] == folder
    _, words = columns(scope["OUTPUT"], "herb_descriptors")
    assert all(-20 < w["score"] < 0 for w in words)  # mean log-probabilities (AUL)
