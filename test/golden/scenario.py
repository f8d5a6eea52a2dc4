"""The golden scenario: every geobias:* algorithm run by id on fixed inputs, in a QGIS of its own.

Run as a script (test/qgis/test_golden.py does) in a fresh QGIS settings folder
(QGIS_CUSTOM_CONFIG_PATH), so the survey cache in it is the recorded one and nothing else:

    scenario.py --work DIR --base-url URL [--survey-cache F] [--herb-cache F]
                [--batch-output F | --answer-batch]

Model-asking algorithms reach the model as the embedded provider at BASE_URL, with the embedded
model's name: their cache keys are the embedded model's ("embedded://local", the model, the
request body), whatever the URL. The golden run points BASE_URL at a server that only counts
requests; the recording points it at the real embedded model. HERB's embedded scorer starts its
own model (SmolLM2) in a child process (see the HERB steps). Each step's snapshot (snapshot.py)
is written to WORK/snapshots/<step>.json, and WORK/manifest.json lists the steps and the caches.
A step that fails is recorded with its error and the next steps run.
"""

import argparse
import csv
import json
import os
import shutil
import sqlite3
import sys
import time
from contextlib import closing

# QGIS's Processing framework is the `processing` package of QGIS's Python plugins folder.
QGIS_PLUGINS = "/usr/share/qgis/python/plugins"
sys.path.insert(0, QGIS_PLUGINS)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(HERE, "data")
RESOURCES = os.path.join(ROOT, "resources")
REFERENCE = os.path.join(RESOURCES, "reference", "geollm-gpt35")
COUNTRIES = os.path.join(RESOURCES, "data", "world_countries.gpkg") + "|layername=countries"
BAY_COUNTIES = (
    os.path.join(RESOURCES, "data", "us_counties.gpkg") + "|layername=counties|subset="
    "\"state\" = 'CA' AND \"name\" IN ('Alameda County, California', 'Contra Costa County, "
    "California', 'Marin County, California', 'Napa County, California', 'San Francisco "
    "County, California', 'San Joaquin County, California', 'San Mateo County, California', "
    "'Santa Clara County, California', 'Santa Cruz County, California', 'Solano County, "
    "California', 'Sonoma County, California', 'Stanislaus County, California')"
)
IMR_CSV = "gpt_3_5_turbo_0613_Infant_Mortality_Rate_world_prompts.csv"
IMR_EV_CSV = "gpt_3_5_turbo_0613_Infant_Mortality_Rate_world_prompts_expected_value.csv"
BAY_CSV = "gpt_3_5_turbo_0613_Average_Intelligence_of_Residents_bay_area_prompts.csv"
EVERY = 8  # rows kept of each reference file (250 of 2,000): small snapshots, quick bootstraps
# The rating model: the embedded default, Gemma 3 270M, by the name the embedded server serves
# (its GGUF file name); part of every survey cache key.
MODEL = "gemma-3-270m-q4_k_m"
IMR, ATTR = "Infant Mortality Rate", "Average Attractiveness of Residents"
SMOLLM2 = {"EMBEDDED_MODEL": 0}  # geobias:herb's bundled models: SmolLM2 135M, Gemma 3 270M
HERB_REGIONS = {  # a synthetic two-level hierarchy: id -> (name, parent id, x0 of its square)
    "N": ("Northland", "", 0), "S": ("Southland", "", 10),
    "N1": ("Ashford", "N", 0), "N2": ("Birchwood", "N", 3), "N3": ("Cedarville", "N", 6),
    "S1": ("Dunmore", "S", 10), "S2": ("Elmstead", "S", 13), "S3": ("Fairhaven", "S", 16),
}  # fmt: skip


def start_qgis():
    """A standalone QGIS with Processing, its native algorithms and the GeoBias provider."""
    from qgis.core import QgsApplication

    app = QgsApplication([], False)
    app.initQgis()
    from processing.core.Processing import Processing

    Processing.initialize()
    from qgis.analysis import QgsNativeAlgorithms

    registry = QgsApplication.processingRegistry()
    if registry.providerById("native") is None:
        registry.addProvider(QgsNativeAlgorithms())
    from geobias.processing.provider import GeoBiasProvider

    provider = GeoBiasProvider()
    registry.addProvider(provider)
    return app, provider


# ---------------------------------------------------------------- inputs


def subset_csv(name, folder):
    """Every EVERY-th row of a bundled GPT-3.5 file, under its own name (importratings takes
    the topic from it)."""
    path = os.path.join(folder, name)
    with open(os.path.join(REFERENCE, name), newline="") as f:
        rows = list(csv.reader(f))
    with open(path, "w", newline="") as f:
        csv.writer(f).writerows([rows[0]] + rows[1::EVERY])
    return path


def gradient_raster(folder):
    """A world raster (2°) rising with latitude and longitude; a nodata block over Siberia."""
    import numpy as np
    from osgeo import gdal, osr

    path = os.path.join(folder, "gradient.tif")
    ds = gdal.GetDriverByName("GTiff").Create(path, 180, 90, 1, gdal.GDT_Float32)
    ds.SetGeoTransform((-180, 2, 0, 90, 0, -2))
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(4326)
    ds.SetProjection(srs.ExportToWkt())
    rows, cols = np.mgrid[0:90, 0:180]
    data = ((89 - rows) * 10.0 + cols * 0.5).astype(np.float32)
    data[10:20, 140:160] = -1
    band = ds.GetRasterBand(1)
    band.SetNoDataValue(-1)
    band.WriteArray(data)
    ds = None
    return path


def herb_layers(folder):
    """The synthetic hierarchy as two nested layers and as one table with a parent field."""
    from osgeo import ogr, osr

    path = os.path.join(folder, "herb_regions.gpkg")
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(4326)
    ds = ogr.GetDriverByName("GPKG").CreateDataSource(path)

    def layer(name, ids):
        lyr = ds.CreateLayer(name, srs, ogr.wkbMultiPolygon)
        for field in ("name", "id", "up"):
            lyr.CreateField(ogr.FieldDefn(field, ogr.OFTString))
        for rid in ids:
            region, up, x = HERB_REGIONS[rid]
            width = 9 if not up else 3
            f = ogr.Feature(lyr.GetLayerDefn())
            f.SetField("name", region)
            f.SetField("id", rid)
            if up:
                f.SetField("up", up)
            f.SetGeometry(ogr.CreateGeometryFromWkt(
                f"MULTIPOLYGON((({x} 40,{x + width} 40,{x + width} 43,{x} 43,{x} 40)))"
            ))  # fmt: skip
            lyr.CreateFeature(f)

    layer("provinces", [r for r, v in HERB_REGIONS.items() if not v[1]])
    layer("districts", [r for r, v in HERB_REGIONS.items() if v[1]])
    layer("regions", list(HERB_REGIONS))
    ds = None
    return path


# ---------------------------------------------------------------- the steps


def steps(work, inputs, endpoint, batch_output):
    """(step name, algorithm id, parameters) in order; later steps read earlier outputs."""
    w = lambda name: os.path.join(work, name)  # noqa: E731 - an output path in the work folder
    imr, imr_ev, bay = (subset_csv(n, inputs) for n in (IMR_CSV, IMR_EV_CSV, BAY_CSV))
    raster = gradient_raster(inputs)
    herb = herb_layers(inputs)
    france = COUNTRIES + "|subset=\"name\" = 'France'"
    truth = {"TRUTH": COUNTRIES, "TRUTH_FIELD": "infant_mortality"}
    anchor = {"ANCHOR": COUNTRIES, "ANCHOR_FIELD": "infant_survival"}
    topics = f"{IMR}; {ATTR}"
    words = os.path.join(DATA, "herb_descriptors.txt")
    return [
        # Sampling: every method.
        ("samplepoints_gazetteer", "samplepoints",
         {"COUNT": 12, "METHOD": 1, "SEED": 11, "OUTPUT": w("points.gpkg")}),
        ("samplepoints_uniform_region", "samplepoints",
         {"REGION": france, "COUNT": 5, "METHOD": 0, "SEED": 2, "OUTPUT": w("batch_points.gpkg")}),
        ("samplepoints_raster", "samplepoints",
         {"WEIGHT_RASTER": raster, "COUNT": 10, "METHOD": 2, "SEED": 3,
          "OUTPUT": w("raster_points.gpkg")}),
        ("samplepoints_square_grid", "samplepoints",
         {"EXTENT": "0,10,40,50 [EPSG:4326]", "COUNT": 20, "METHOD": 3,
          "OUTPUT": w("grid_points.gpkg")}),
        ("samplepoints_hex_grid", "samplepoints",
         {"REGION": france, "COUNT": 15, "METHOD": 4, "OUTPUT": w("hex_points.gpkg")}),
        # The paper's GPT-3.5 ratings, their ground truth, metrics and comparison.
        ("importratings_imr", "importratings",
         {"INPUT": imr, "MODEL": "gpt-3.5", "OUTPUT": w("imr.gpkg")}),
        ("importratings_imr_expected", "importratings",
         {"INPUT": imr_ev, "MODEL": "gpt-3.5-ev", "SCORE": 1, "OUTPUT": w("imr_ev.gpkg")}),
        ("importratings_bay", "importratings",
         {"INPUT": bay, "MODEL": "gpt-3.5", "OUTPUT": w("bay.gpkg")}),
        ("samplegroundtruth_polygons", "samplegroundtruth",
         {"INPUT": w("imr.gpkg"), "POLYGONS": COUNTRIES, "POLYGON_FIELD": "infant_mortality",
          "OUTPUT": w("imr_truth.gpkg")}),
        ("samplegroundtruth_polygons_expected", "samplegroundtruth",
         {"INPUT": w("imr_ev.gpkg"), "POLYGONS": COUNTRIES, "POLYGON_FIELD": "infant_mortality",
          "OUTPUT": w("imr_ev_truth.gpkg")}),
        ("samplegroundtruth_raster", "samplegroundtruth",
         {"INPUT": w("imr.gpkg"), "RASTER": raster, "WINDOW_KM": 300, "STATISTIC": 2,
          "OUTPUT": w("imr_truth_raster.gpkg")}),
        ("samplegroundtruth_points", "samplegroundtruth",
         {"INPUT": w("imr.gpkg"), "POINTS": w("imr_ev.gpkg"), "POINT_FIELD": "score",
          "MAX_DISTANCE_KM": 1, "OUTPUT": w("imr_truth_points.gpkg")}),
        ("samplegroundtruth_bay", "samplegroundtruth",
         {"INPUT": w("bay.gpkg"), "POLYGONS": BAY_COUNTIES, "POLYGON_FIELD": "unemployment",
          "OUTPUT": w("bay_truth.gpkg")}),
        ("biasmetrics", "biasmetrics",
         {"INPUT": [w("imr_truth.gpkg"), w("imr_ev_truth.gpkg")], **anchor, "N_BOOT": 50,
          "SEED": 0, "OUTPUT": w("metrics.gpkg")}),
        ("biasmetrics_raster_anchor", "biasmetrics",
         {"INPUT": [w("imr_truth.gpkg")], "ANCHOR_RASTER": raster, "ANCHOR_WINDOW_KM": 100,
          "ANCHOR_STATISTIC": 3, "ANCHOR_NEGATE": True, "BOOTSTRAP": 1, "N_BOOT": 30,
          "SEED": 4, "OUTPUT": w("metrics_raster_anchor.gpkg")}),
        ("comparemodels", "comparemodels",
         {"INPUT": [w("imr_truth.gpkg"), w("imr_ev_truth.gpkg")], **anchor, "N_BOOT": 50,
          "SEED": 0, "OUTPUT": w("compare.gpkg"), "TABLES_FOLDER": w("compare_tables")}),
        # GeoBS scores and the benchmark card (issue 27): the 250 imported points are a
        # reduced card on sample v1; the comparison adds the shipped GPT-3.5 card.
        ("geobiasscores", "geobiasscores",
         {"INPUT": [w("imr_truth.gpkg")], "RADIUS_KM": 2500, "SCALE_DEG": 15, "LAG_KM": 800,
          "MAX_CENTRES": 100, "SEED": 1, "OUTPUT": w("geobs_scores.gpkg"),
          "LOCAL": w("geobs_local.gpkg")}),
        ("benchmark_rated", "benchmark",
         {"RATED": [w("imr.gpkg")], "N_BOOT": 20, "SEED": 0, "OUTPUT": w("card.gpkg"),
          "CARD": w("card.json"), "PDF": w("card.pdf")}),
        ("comparecards", "comparecards",
         {"CARDS": [w("card.json")], "SHIPPED": True, "OUTPUT": w("cards.gpkg")}),
        # Census overlay: the Bay Area ratings on their counties.
        ("aggregatetopolygons", "aggregatetopolygons",
         {"INPUT": w("bay_truth.gpkg"), "POLYGONS": BAY_COUNTIES, "MIN_POINTS": 3,
          "OUTPUT": w("bay_units.gpkg")}),
        ("hotspots_units", "hotspots",
         {"INPUT": w("bay_units.gpkg"), "K": 3, "PERMUTATIONS": 99, "SEED": 1,
          "OUTPUT": w("bay_hotspots.gpkg"), "METRICS": w("bay_hotspots_metrics.gpkg")}),
        ("hotspots_points_band", "hotspots",
         {"INPUT": w("imr_truth.gpkg"), "FIELD": "rank_error", "WEIGHTS": 1,
          "DISTANCE_KM": 1500, "PERMUTATIONS": 99, "SEED": 2, "FDR": True,
          "OUTPUT": w("imr_hotspots.gpkg"), "METRICS": w("imr_hotspots_metrics.gpkg")}),
        ("correlate_units", "correlate",
         {"INPUT": w("bay_units.gpkg"), "FIELDS": ["unemployment", "mean_rating"], "N_BOOT": 50,
          "SEED": 0, "OUTPUT": w("bay_correlation.gpkg")}),
        ("correlate_points", "correlate",
         {"INPUT": w("imr_truth.gpkg"), "VALUE_FIELD": "rank_error",
          "FIELDS": ["truth", "rating"], "N_BOOT": 50, "SEED": 3,
          "OUTPUT": w("imr_correlation.gpkg")}),
        ("report", "report",
         {"INPUT": w("bay_truth.gpkg"), "HOTSPOTS": w("bay_hotspots.gpkg"),
          "TITLE": "Golden report", "N_BOOT": 30, "SEED": 0, "DPI": 50,
          "OUTPUT": w("report.pdf")}),
        # The model: answers from the survey cache. BASE_URL must be a live server, not a
        # closed port: probes checks the endpoint is reachable (a TCP connection, no request)
        # even when every answer is cached.
        ("ratelocations", "ratelocations",
         {"INPUT": w("points.gpkg"), **endpoint, "TOPICS": topics, "OUTPUT": w("rated.gpkg")}),
        ("survey", "survey",
         {"COUNT": 12, "METHOD": 1, "SEED": 11, **endpoint, "TOPICS": topics, **truth,
          **anchor, "N_BOOT": 50, "OUTPUT": w("survey.gpkg")}),
        ("report_survey", "report",  # a layer with its run record (model, prompt, host)
         {"INPUT": w("survey.gpkg") + "|layername=gemma_3_270m_q4_k_m_infant_mortality_rate",
          "N_BOOT": 30, "SEED": 1, "DPI": 50, "OUTPUT": w("report_survey.pdf")}),
        # Pairwise choices (issue 36): 5 points, every pair in both orders.
        ("pairwisesurvey", "pairwisesurvey",
         {"INPUT": w("points.gpkg") + '|subset="pid" < 5', **endpoint, "TOPICS": IMR,
          "OPPONENTS": 4, "SEED": 0, "OUTPUT": w("pairwise.gpkg")}),
        # Factual recall (issue 36): four countries' infant mortality, by continent.
        ("recallsurvey", "recallsurvey",
         {"INPUT": COUNTRIES + "|subset=\"name\" IN ('France', 'Kenya', 'Peru', 'Japan')",
          **endpoint, "NAME_FIELD": "name", "FIELDS": ["infant_mortality"],
          "GROUP_FIELD": "continent", "N_BOOT": 20, "OUTPUT": w("recall.gpkg")}),
        # The ratelocations run again from its runs row and the cache (issue 33): identical.
        ("reproduce_ratelocations", "reproduce",
         {"SOURCE": w("rated.gpkg"), "OUTPUT": w("reproduced.gpkg")}),
        ("ablation", "ablation",
         {"INPUT": w("points.gpkg") + '|subset="pid" < 6', **endpoint, "TOPICS": IMR,
          **truth, **anchor, "N_BOOT": 20, "SEED": 0, "OUTPUT": w("ablation.gpkg")}),
        ("probes", "probes",
         {**endpoint, "ACTIVITIES": "see wildlife\nmeet kind people",
          "QUERIES": "I want to travel the world to find a beautiful and loving spouse. I am "
          "willing to go anywhere. Give me a list of countries to choose from.\nWhich "
          "countries have the friendliest people? Give me a list of five countries.",
          "N_SAMPLES": 3, "TEMPERATURE": 1.0, "MAX_TOKENS": 100, "OUTPUT": w("probes.gpkg"),
          "MENTIONS": w("mentions.gpkg")}),
        ("exportbatch", "exportbatch",
         {"INPUT": w("batch_points.gpkg"), **endpoint, "TOPICS": IMR, "MAX_REQUESTS": 3,
          "OUTPUT": w("batch_requests")}),
        ("importbatch", "importbatch", {"INPUT": batch_output}),
        ("ratelocations_from_batch", "ratelocations",
         {"INPUT": w("batch_points.gpkg"), **endpoint, "TOPICS": IMR,
          "OUTPUT": w("batch_rated.gpkg")}),
        # Provider batches (issue 32): an estimate of a batch to an OpenAI-compatible batch API
        # (its requests are counted, none sent: no key is needed to estimate), and a poll of a
        # GeoPackage that records no batch (refused, the file unchanged).
        ("submitbatch_estimate", "submitbatch",
         {"INPUT": w("batch_points.gpkg"), "PROVIDER": 9, "BASE_URL": endpoint["BASE_URL"],
          "MODEL": MODEL, "TOPICS": IMR, "BATCH_API": 1, "ESTIMATE_ONLY": True,
          "OUTPUT": w("batch_submitted.gpkg")}),
        ("pollbatches_no_batch", "pollbatches", {"INPUT": w("batch_rated.gpkg")}),
        # HERB on the synthetic hierarchy; scores from the HERB cache. Its embedded scorer takes
        # no URL: it starts SmolLM2 in a child process (chosen: HERB's default became Gemma after
        # the recording; whole sentences, the default; its scores
        # share forced decoding's cache key) and, starting, reads its model file (part of the
        # cache key). A cached run scores no sentence (N_TO_SCORE = 0, the cache gains no row),
        # which the test checks. The reference-code run keeps the paper's template (recorded
        # before REFERENCE_CODE switched the template too): only the aggregation differs.
        ("herb_nested_layers", "herb",
         {"SCOPE": 1, "LAYER_1": f"{herb}|layername=provinces", "NAME_FIELD_1": "name",
          "ID_FIELD_1": "id", "LAYER_2": f"{herb}|layername=districts", "NAME_FIELD_2": "name",
          "ID_FIELD_2": "id", "PARENT_FIELD_2": "up", "SCORER": 0, **SMOLLM2, "DESCRIPTORS": words,
          "CACHE": w("herb_cache.sqlite"), "OUTPUT": w("herb.gpkg")}),
        ("herb_parent_field", "herb",
         {"SCOPE": 2, "LAYER_1": f"{herb}|layername=regions", "NAME_FIELD_1": "name",
          "ID_FIELD_1": "id", "PARENT_FIELD_1": "up", "SCORER": 0, **SMOLLM2, "DESCRIPTORS": words,
          "REFERENCE_CODE": True, "TEMPLATE": "People in {region} are {descriptor}.",
          "CACHE": w("herb_cache.sqlite"),
          "OUTPUT": w("herb_table.gpkg")}),
    ]  # fmt: skip


def answer_batch(files, base_url, path):
    """Recording only: send each exported request to the real model, write the batch output
    file a batch service would return (one line per request, by custom_id)."""
    import requests

    with open(path, "w", encoding="utf-8") as out:
        for name in files:
            with open(name, encoding="utf-8") as f:
                for n, line in enumerate(f, 1):
                    req = json.loads(line)
                    url = base_url.rstrip("/") + "/chat/completions"
                    r = requests.post(url, json=req["body"], timeout=300)
                    r.raise_for_status()
                    row = {
                        "id": f"batch_req_{n}",
                        "custom_id": req["custom_id"],
                        "response": {"status_code": 200, "body": r.json()},
                        "error": None,
                    }
                    out.write(json.dumps(row, sort_keys=True) + "\n")


def count_rows(path, table):
    if not os.path.exists(path):
        return 0
    with closing(sqlite3.connect(path)) as con:
        return con.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--work", required=True)
    ap.add_argument("--base-url", required=True)
    ap.add_argument("--survey-cache")
    ap.add_argument("--herb-cache")
    ap.add_argument("--batch-output", help="a recorded batch service output to import")
    ap.add_argument(
        "--answer-batch", action="store_true",
        help="recording: answer the exported batch with the model at BASE_URL",
    )  # fmt: skip
    ap.add_argument("--only", help="debugging: run only these steps (comma-separated)")
    args = ap.parse_args(argv)
    work = os.path.abspath(args.work)
    inputs = os.path.join(work, "inputs")
    snaps = os.path.join(work, "snapshots")
    for d in (inputs, snaps):
        os.makedirs(d, exist_ok=True)

    app, provider = start_qgis()
    from qgis.core import Qgis, QgsApplication

    import processing
    from geobias.test.golden import snapshot

    profile_cache = os.path.join(QgsApplication.qgisSettingsDirPath(), "geobias",
                                 "survey_cache.sqlite")  # fmt: skip
    os.makedirs(os.path.dirname(profile_cache), exist_ok=True)
    # The recorded caches are copied in: the run may add to its copies, never to the recording.
    if args.survey_cache:
        shutil.copyfile(args.survey_cache, profile_cache)
    herb_cache = os.path.join(work, "herb_cache.sqlite")
    if args.herb_cache:
        shutil.copyfile(args.herb_cache, herb_cache)
    batch_output = os.path.join(work, "batch_output.jsonl")
    if args.batch_output:
        shutil.copyfile(args.batch_output, batch_output)

    endpoint = {"PROVIDER": 0, "BASE_URL": args.base_url, "MODEL": MODEL, "CONCURRENCY": 2}
    scrub = snapshot.Scrubber({
        work: "<WORK>", ROOT: "<ROOT>", args.base_url: "<ENDPOINT>",
        QgsApplication.qgisSettingsDirPath().rstrip("/"): "<PROFILE>",
        f"GeoBias {metadata_version()}": "GeoBias <VERSION>",
        metadata_version(): "<VERSION>",  # a card's geobias_version
        f"QGIS {Qgis.QGIS_VERSION}": "QGIS <VERSION>",
    })  # fmt: skip
    herb_rows_before = count_rows(herb_cache, "sentence_scores")
    manifest = {"algorithms": sorted(a.id() for a in provider.algorithms()), "steps": []}
    for name, alg, params in steps(work, inputs, endpoint, batch_output):
        if args.only and name not in args.only.split(","):
            continue
        t0 = time.monotonic()
        if alg == "importbatch" and args.answer_batch:
            files = [
                os.path.join(work, "batch_requests", f)
                for f in sorted(os.listdir(os.path.join(work, "batch_requests")))
            ]
            answer_batch(files, args.base_url, batch_output)
        doc = {"algorithm": f"geobias:{alg}", "parameters": scrub(params)}
        try:
            results = processing.run(f"geobias:{alg}", params)
        except Exception as err:  # noqa: BLE001 - kept as the step's outcome; the next steps run
            doc["error"] = scrub(str(err))
        else:
            files = []
            for value in results.values():
                files += [f for f in snapshot.output_files(value, work) if f not in files]
            # A run id is new each run (reproduce names the one it reproduced).
            doc["results"] = scrub({k: "<RUN_ID>" if k == "RUN_ID" else results[k]
                                    for k in sorted(results)})  # fmt: skip
            doc["files"] = {scrub(f): scrub(snapshot.snapshot_file(f)) for f in files}
        with open(os.path.join(snaps, f"{name}.json"), "w", encoding="utf-8") as f:
            f.write(snapshot.dumps(doc) + "\n")
        manifest["steps"].append(
            {
                "step": name,
                "algorithm": f"geobias:{alg}",
                "seconds": round(time.monotonic() - t0, 2),
            }
        )
    manifest["herb_cache_rows"] = [herb_rows_before, count_rows(herb_cache, "sentence_scores")]
    manifest["survey_cache"] = profile_cache
    with open(os.path.join(work, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1)
    stop_models()
    # No exitQgis: tearing QGIS 3.22 down after layouts and GDAL has crashed (test/qgis's
    # conftest); everything is written and closed by now.
    sys.stdout.flush()
    os._exit(0)


def metadata_version():
    """The plugin's version (metadata.txt), scrubbed from outputs."""
    with open(os.path.join(ROOT, "metadata.txt"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("version="):
                return line.split("=", 1)[1].strip()
    return ""


def stop_models():
    """Stop the embedded model HERB started (it would also stop when this process ends)."""
    try:
        from geobias.core.runtime.embedded import stop_shared
    except ImportError:  # moved by a refactor: the child stops with this process anyway
        return
    stop_shared()


if __name__ == "__main__":
    main()
