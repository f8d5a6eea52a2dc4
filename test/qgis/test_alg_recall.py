"""geobias:recallsurvey (issue 36 item 1) against the fault server answering as a model that
knows some countries' numbers, overstates others' by a fifth and gives a range for one: the
layer's errors by hand, the range unanswered, the groups table's ratio, the size guard and a
re-run from the cache."""

import math
import re
import uuid

import pytest
from qgis.core import QgsProcessingException, QgsVectorLayer

from geobias.test.faultserver import FaultServer
from geobias.test.qgis.test_alg_presets import Log, run

TRUTH = {"Alpha": 10.0, "Beta": 20.0, "Gamma": 40.0, "Delta": 5.0, "Epsilon": 8.0}
CONTINENT = {"Alpha": "North", "Beta": "North", "Gamma": "South", "Delta": "South",
             "Epsilon": "South"}  # fmt: skip
OVERSTATED = {"Gamma", "Delta"}  # answered as the truth × 1.2
RANGE = "Epsilon"  # answered "between 5 and 7"
_PLACE = re.compile(r"of (\w+) in (\d{4})")


def null(v):
    """Whether an attribute is NULL (QGIS gives a null QVariant)."""
    return v is None or (hasattr(v, "isNull") and v.isNull()) or v != v


def answer(prompt):
    """The truth, ×1.2 for the overstated places, a range for one."""
    name = _PLACE.search(prompt).group(1)
    if name == RANGE:
        return "Between 5 and 7."
    value = TRUTH[name] * (1.2 if name in OVERSTATED else 1.0)
    return f"About {value:g} deaths."


@pytest.fixture
def countries(processing_ready, tmp_path):
    """Five square countries in a GeoPackage with a continent and infant mortality."""
    from osgeo import ogr, osr

    path = str(tmp_path / "countries.gpkg")
    ds = ogr.GetDriverByName("GPKG").CreateDataSource(path)
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(4326)
    layer = ds.CreateLayer("countries", srs, ogr.wkbPolygon)
    for name, kind in (
        ("name", ogr.OFTString),
        ("continent", ogr.OFTString),
        ("infant_mortality", ogr.OFTReal),
        ("imr_source", ogr.OFTString),
    ):
        layer.CreateField(ogr.FieldDefn(name, kind))  # fmt: skip
    for k, (name, value) in enumerate(TRUTH.items()):
        feat = ogr.Feature(layer.GetLayerDefn())
        feat.SetField("name", name)
        feat.SetField("continent", CONTINENT[name])
        feat.SetField("infant_mortality", value)
        feat.SetField("imr_source", "UNICEF SOWC 2018" if name == "Beta" else "gapminder 2015")
        x = 10.0 * k
        ring = f"POLYGON(({x} 0,{x + 5} 0,{x + 5} 5,{x} 5,{x} 0))"
        feat.SetGeometry(ogr.CreateGeometryFromWkt(ring))
        layer.CreateFeature(feat)
    ds = None
    return f"{path}|layername=countries"


def _params(countries, tmp_path, **extra):
    params = {"INPUT": countries, "NAME_FIELD": "name", "FIELDS": ["infant_mortality"],
              "GROUP_FIELD": "continent", "PROVIDER": 9, "MODEL": f"m-{uuid.uuid4().hex[:8]}",
              "N_BOOT": 200, "CACHE": str(tmp_path / "c.sqlite"),
              "OUTPUT": str(tmp_path / "recall.gpkg")}  # fmt: skip
    params.update(extra)
    return params


def test_a_recall_survey_scores_each_answer_and_each_group(countries, tmp_path):
    log = Log()
    params = _params(countries, tmp_path)
    with FaultServer(answer=answer) as fs:
        params["BASE_URL"] = fs.base_url
        res = run("geobias:recallsurvey", params, log)
        sent = fs.n_requests
        run("geobias:recallsurvey", dict(params, OUTPUT=str(tmp_path / "again.gpkg")))
        assert fs.n_requests == sent  # the second run from the cache
    assert sent == 5 and res["N_ANSWERED"] == 4
    layer = QgsVectorLayer(res["OUTPUT_LAYERS"][0], "r", "ogr")
    assert layer.isValid() and layer.geometryType() == 2  # polygons
    # A choropleth of the relative error by default, the log ratio saved beside it.
    styles = layer.listStylesInDatabase()[2]
    assert {"rel_error", "log_ratio"} <= set(styles)
    legend = [r.label() for r in layer.renderer().rootRule().children()]
    assert legend[0] == "unanswered" and "close (error < 0.1)" in legend
    feats = {f["name"]: f for f in layer.getFeatures()}
    assert set(feats) == set(TRUTH)
    for name, truth in TRUTH.items():
        f = feats[name]
        assert f["truth"] == truth and f["group"] == CONTINENT[name]
        assert "infant mortality rate" in f["prompt"] and "per 1,000 live births" in f["prompt"]
        if name == RANGE:
            assert f["answered"] == 0 and f["reason"] == "range" and null(f["answer"])
            assert null(f["rel_error"]) and null(f["log_ratio"])
            continue
        a = truth * (1.2 if name in OVERSTATED else 1.0)
        assert f["answered"] == 1 and f["reason"] == "" and f["answer"] == pytest.approx(a)
        assert f["rel_error"] == pytest.approx(abs(a - truth) / max(a, truth))
        assert f["log_ratio"] == pytest.approx(math.log(a / truth))
    # The year is each feature's source's: Beta's infant mortality is UNICEF's of 2018.
    assert "in 2018" in feats["Beta"]["prompt"] and "in 2015" in feats["Alpha"]["prompt"]
    table = QgsVectorLayer(f"{params['OUTPUT']}|layername=groups", "g", "ogr")
    rows = {r["group"]: r for r in table.getFeatures()}
    assert set(rows) == {"North", "South"}
    south = 0.2 / 1.2  # Gamma and Delta overstated by a fifth, Epsilon unanswered
    assert rows["North"]["n"] == 2 and rows["North"]["mean_rel_error"] == pytest.approx(0.0)
    assert rows["South"]["n"] == 2 and rows["South"]["mean_rel_error"] == pytest.approx(south)
    # Both answered errors are a sixth: every resample's mean is too.
    assert rows["South"]["ci_low"] == pytest.approx(south) == rows["South"]["ci_high"]
    assert rows["South"]["field"] == "infant_mortality"
    assert null(rows["North"]["ratio"])  # the best group's mean is 0: no ratio
    assert any("South: mean relative error 0.167" in line for line in log.lines), log.lines
    runs = QgsVectorLayer(f"{params['OUTPUT']}|layername=runs", "runs", "ogr")
    row = next(runs.getFeatures())
    assert row["algorithm"] == "geobias:recallsurvey" and row["n_requests"] == sent


def test_the_ratio_to_the_best_group(countries, tmp_path):
    """North's answers half as high again, South's a fifth: South is the best group, North's
    ratio the two means' ratio."""

    def doubled(prompt):
        name = _PLACE.search(prompt).group(1)
        return f"{TRUTH[name] * (1.5 if CONTINENT[name] == 'North' else 1.2):g}"

    params = _params(countries, tmp_path)
    with FaultServer(answer=doubled) as fs:
        params["BASE_URL"] = fs.base_url
        run("geobias:recallsurvey", params)
    table = QgsVectorLayer(f"{params['OUTPUT']}|layername=groups", "g", "ogr")
    rows = {r["group"]: r for r in table.getFeatures()}
    north, south = 0.5 / 1.5, 0.2 / 1.2
    assert rows["North"]["mean_rel_error"] == pytest.approx(north)
    assert rows["South"]["ratio"] == pytest.approx(1.0)
    assert rows["North"]["ratio"] == pytest.approx(north / south)


def test_a_recall_survey_larger_than_max_requests_is_refused_before_sending(countries, tmp_path):
    with FaultServer(answer=answer) as fs:
        params = _params(countries, tmp_path, BASE_URL=fs.base_url, MAX_REQUESTS=4)
        with pytest.raises(
            QgsProcessingException, match=r"5 requests \(1 field\(s\) of 5 polygons"
        ):
            run("geobias:recallsurvey", params)
        assert fs.n_requests == 0


def test_a_field_without_a_known_meaning_needs_its_quantity(countries, tmp_path):
    params = _params(countries, tmp_path, FIELDS=["infant_mortality"], QUANTITIES="a; b")
    with pytest.raises(QgsProcessingException, match="QUANTITIES gives 2 value"):
        run("geobias:recallsurvey", params)


def test_the_bundled_countries_are_asked_their_own_year_by_continent(processing_ready, tmp_path):
    """The bundled layer's infant mortality needs no quantity, unit nor year: each country is
    asked the year of its source (imr_year), and its continents group the errors."""
    from geobias.paths import COUNTRIES

    params = dict(_params(COUNTRIES, tmp_path), GROUP_FIELD="continent", N_BOOT=0)
    with FaultServer(answer=lambda prompt: "12") as fs:
        params["BASE_URL"] = fs.base_url
        res = run("geobias:recallsurvey", params)
        sent = fs.n_requests
    layer = QgsVectorLayer(res["OUTPUT_LAYERS"][0], "r", "ogr")
    feats = {f["name"]: f for f in layer.getFeatures()}
    source = QgsVectorLayer(COUNTRIES, "c", "ogr")
    years = {f["name"]: f["imr_year"] for f in source.getFeatures() if not null(f["imr_year"])}
    # Countries without a value are kept, unasked: they cost no request.
    named = [f for f in source.getFeatures() if not null(f["name"]) and f["name"].strip()]
    unknown = [f["name"] for f in named if null(f["infant_mortality"])]
    assert layer.featureCount() == len(named)  # a feature without a name cannot be asked
    assert unknown and sent == res["N_ANSWERED"] == layer.featureCount() - len(unknown)
    assert {feats[n]["reason"] for n in unknown} == {"no truth"}
    assert {feats[n]["prompt"] for n in unknown} == {""}
    assert {2015, 2018} <= set(years.values())
    for name, year in years.items():
        assert (
            feats[name]["year"] == year
            and f"in {year}, in deaths per 1,000" in feats[name]["prompt"]
        )
    table = QgsVectorLayer(f"{params['OUTPUT']}|layername=groups", "g", "ogr")
    groups = {r["group"] for r in table.getFeatures()}
    assert {"Africa", "Europe", "Asia"} <= groups


def test_the_parent_name_follows_the_name_and_given_words_replace_the_defaults(countries, tmp_path):
    """PARENT_FIELD puts "Alpha, North" in the prompt; QUANTITIES, UNITS and YEARS given
    replace the bundled field's (and its per-feature year)."""
    prompts = []

    def record(prompt):
        prompts.append(prompt)
        return "7"

    params = _params(countries, tmp_path, PARENT_FIELD="continent", QUANTITIES="IMR",
                     UNITS="per mille", YEARS="2020")  # fmt: skip
    with FaultServer(answer=record) as fs:
        params["BASE_URL"] = fs.base_url
        run("geobias:recallsurvey", params)
    assert any(p.startswith("What was the IMR of Alpha, North in 2020, in per mille?")
               for p in prompts)  # fmt: skip
    assert all("in 2020" in p for p in prompts) and len(prompts) == 5


def test_a_field_of_unknown_meaning_is_refused_before_sending(countries, tmp_path):
    """A field GeoBias has no question for needs its quantity, unit and year."""
    from osgeo import ogr

    path = countries.split("|")[0]
    ds = ogr.Open(path, 1)
    ds.GetLayerByName("countries").CreateField(ogr.FieldDefn("score", ogr.OFTReal))
    ds = None
    with FaultServer(answer=answer) as fs:
        params = _params(countries, tmp_path, BASE_URL=fs.base_url, FIELDS=["score"])
        with pytest.raises(QgsProcessingException, match="field score holds: give its "
                                                          "QUANTITIES, UNITS, YEARS"):  # fmt: skip
            run("geobias:recallsurvey", params)
        assert fs.n_requests == 0
