"""Every GeoBias algorithm inside the real /usr/bin/qgis_process.bin, the binary that crashed.

The binary loads QGIS's GEOS globally (a shapely on another GEOS segfaulted here) and aborts
on `import xllamacpp`. Every run below goes through an import hook (PYQGIS_STARTUP) that
refuses and records any import of an inference library (llama.cpp's, torch, transformers), so
each also proves that the embedded model and HERB's masked LM stay in their child processes.
Data are real: the bundled countries, a raster rasterized from their population density,
country centroids, the paper's GPT-3.5 ratings.
"""

import json
import os
import sqlite3
import subprocess
import sysconfig
import time

import pytest
from osgeo import gdal, ogr

from geobias.paths import DATA
from geobias.test.batchfake import answer_batch
from geobias.test.faultserver import FaultServer
from geobias.test.netfixtures import Tinyproxy
from geobias.test.tiny_mlm import build_in_child

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COUNTRIES = os.path.join(DATA, "world_countries.gpkg")
QGIS_PROCESS = (
    "/usr/bin/qgis_process.bin"  # the /usr/bin/qgis_process wrapper adds a flag 3.22 rejects
)
CSV = os.path.join(ROOT, "resources", "reference", "geollm-gpt35",
                   "gpt_3_5_turbo_0613_Infant_Mortality_Rate_world_prompts.csv")  # fmt: skip
EUROPE = (-10.0, 35.0, 30.0, 60.0)  # xmin, ymin, xmax, ymax
HOOK = """
import os, sys
class RefuseInference:
    '''GeoBias must never import an inference library into QGIS: record and refuse it.'''
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("xllamacpp", "llama_cpp", "torch", "transformers"):
            with open(os.environ["GEOBIAS_IMPORT_LOG"], "a") as f:
                f.write(name + "\\n")
            raise ImportError(name + " must not be imported into the QGIS process")
        return None
sys.meta_path.insert(0, RefuseInference())
"""


class QgisProcess:
    """qgis_process.bin in a fresh profile with GeoBias enabled and the import hook."""

    def __init__(self, home):
        self.home = home
        plugins = home / "profiles" / "default" / "python" / "plugins"
        plugins.mkdir(parents=True)
        os.symlink(ROOT, plugins / "geobias")
        (home / "hook.py").write_text(HOOK)
        self.imports = home / "imports.log"
        # qgis_process runs the system Python: the venv's packages (shapely, xllamacpp for the
        # model's child process) come through PYTHONPATH, as scripts/qgis_process.sh does.
        site = [sysconfig.get_paths()["purelib"]]
        self.env = dict(os.environ, QT_QPA_PLATFORM="offscreen", QGIS_CUSTOM_CONFIG_PATH=str(home),
                        PYTHONPATH=os.pathsep.join(site), PYQGIS_STARTUP=str(home / "hook.py"),
                        GEOBIAS_IMPORT_LOG=str(self.imports))  # fmt: skip
        enable = self.call("plugins", "enable", "geobias")
        assert enable.returncode == 0, enable.stderr[-2000:]

    def call(self, *args, timeout=900):
        """Run qgis_process.bin; the finished process, its pid kept in `last_pid`."""
        proc = subprocess.Popen([QGIS_PROCESS, *args], env=self.env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)  # fmt: skip
        self.last_pid = proc.pid
        out, err = proc.communicate(timeout=timeout)
        return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)

    def run(self, alg, **params):
        """Run geobias:<alg> with --json; its results. Fails on a non-zero exit or an import."""
        args = ["--json", "run", f"geobias:{alg}", "--"]
        for key, value in params.items():
            for v in value if isinstance(value, list) else [value]:
                args.append(f"{key}={v}")
        proc = self.call(*args)
        assert proc.returncode == 0, (alg, proc.returncode, proc.stderr[-3000:])
        assert not self.imports.exists(), self.imports.read_text()
        return json.loads(proc.stdout[proc.stdout.index("{") :])["results"]


@pytest.fixture(scope="module")
def qp(tmp_path_factory):
    runner = QgisProcess(tmp_path_factory.mktemp("qgis-process"))
    yield runner
    os.unlink(runner.home / "profiles" / "default" / "python" / "plugins" / "geobias")


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """Region polygons, a weight/truth raster and truth points made from the bundled countries."""
    folder = tmp_path_factory.mktemp("data")
    region = str(folder / "region.gpkg")
    gdal.VectorTranslate(region, COUNTRIES, layers=["countries"], layerName="region",
                         where="iso_a3 IN ('FRA', 'DEU', 'ESP', 'ITA', 'POL')")  # fmt: skip
    raster = str(folder / "density.tif")
    gdal.Rasterize(raster, COUNTRIES, layers=["countries"], attribute="pop_density",
                   outputBounds=[-180, -90, 180, 90], xRes=0.5, yRes=0.5, noData=-1,
                   outputType=gdal.GDT_Float32, initValues=-1, outputSRS="EPSG:4326")  # fmt: skip
    points = str(folder / "centroids.gpkg")
    sql = ("SELECT ST_Centroid(geom) AS geom, infant_mortality FROM countries "
           "WHERE infant_mortality IS NOT NULL")  # fmt: skip
    gdal.VectorTranslate(points, COUNTRIES, layerName="centroids", SQLDialect="SQLite",
                         SQLStatement=sql)  # fmt: skip
    return {"region": region, "raster": raster, "points": points, "folder": folder}


def point_coords(path):
    ds = ogr.Open(str(path))
    layer = ds.GetLayer(0)
    return [(f.GetGeometryRef().GetX(), f.GetGeometryRef().GetY()) for f in layer]


def inside(coords, box, slack=0.01):
    x0, y0, x1, y1 = box
    return all(x0 - slack <= x <= x1 + slack and y0 - slack <= y <= y1 + slack for x, y in coords)


def in_polygons(coords, path, tolerance=1e-6):
    """Whether every point lies in (or on) the union of a polygon layer (checked by OGR)."""
    union = ogr.Geometry(ogr.wkbMultiPolygon)
    ds = ogr.Open(path)  # kept: OGR's layer dies with its dataset
    for feature in ds.GetLayer(0):
        union = union.Union(feature.GetGeometryRef())
    area = union.Buffer(tolerance)
    point = ogr.Geometry(ogr.wkbPoint)
    outside = []
    for x, y in coords:
        point.SetPoint_2D(0, x, y)
        if not area.Contains(point):
            outside.append((x, y))
    return not outside


def test_the_readme_command_exits_0(tmp_path):
    # As docs/development.md shows it, through scripts/qgis_process.sh, in a fresh profile.
    env = dict(os.environ, GEOBIAS_QGIS_CONFIG=str(tmp_path / "profile"))
    out = tmp_path / "sp.gpkg"
    cmd = ["scripts/qgis_process.sh", "run", "geobias:samplepoints", "--",
           "EXTENT=-10,30,35,60 [EPSG:4326]", "COUNT=20", "METHOD=0", f"OUTPUT={out}"]  # fmt: skip
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]  # was a segmentation fault (139)
    coords = point_coords(out)
    assert len(coords) == 20 and inside(coords, (-10, 35, 30, 60))  # x -10..30, y 35..60
    os.unlink(tmp_path / "profile" / "profiles" / "default" / "python" / "plugins" / "geobias")


METHODS = {0: "uniform", 1: "population", 2: "raster", 3: "grid", 4: "hex"}


@pytest.mark.parametrize("method", sorted(METHODS), ids=list(METHODS.values()))
@pytest.mark.parametrize("area", ["REGION", "EXTENT"])
def test_samplepoints_every_method_on_a_region_and_an_extent(qp, data, tmp_path, area, method):
    params = {"COUNT": 40, "METHOD": method, "SEED": 3, "OUTPUT": tmp_path / "points.gpkg"}
    if area == "REGION":
        params["REGION"] = data["region"]
    else:
        x0, y0, x1, y1 = EUROPE
        params["EXTENT"] = f"{x0},{x1},{y0},{y1} [EPSG:4326]"  # QGIS: xmin,xmax,ymin,ymax
    if METHODS[method] == "raster":
        params["WEIGHT_RASTER"] = data["raster"]
    result = qp.run("samplepoints", **params)
    coords = point_coords(tmp_path / "points.gpkg")
    assert result["N_POINTS"] == len(coords)
    if METHODS[method] in ("grid", "hex"):
        assert 30 <= len(coords) <= 50  # a grid comes close to the count
    else:
        assert len(coords) == 40
    if area == "REGION":
        assert in_polygons(coords, data["region"])
    else:
        assert inside(coords, EUROPE)


def model_children(parent_pid):
    """Embedded model processes whose parent was `parent_pid` (from their command line)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read().split(b"\0")
        except OSError:
            continue
        if any(c.endswith(b"embedded_server.py") for c in cmd) and str(parent_pid).encode() in cmd:
            found.append(int(pid))
    return found


@pytest.mark.integration
def test_ratelocations_with_the_embedded_model(qp, tmp_path):
    coords = [(2.35, 48.86), (3.38, 6.52), (139.69, 35.69)]  # Paris, Lagos, Tokyo
    points = tmp_path / "points.csv"
    points.write_text("lon,lat\n" + "".join(f"{x},{y}\n" for x, y in coords))
    source = f"delimitedtext://file://{points}?xField=lon&yField=lat&crs=EPSG:4326"
    result = qp.run("ratelocations", INPUT=source, PROVIDER=0, TOPICS="Infant Mortality Rate",
                    OUTPUT=tmp_path / "rated.gpkg")  # fmt: skip
    assert result["N_ANSWERED"] == 3
    with sqlite3.connect(tmp_path / "rated.gpkg") as con:
        table = result["OUTPUT_LAYERS"][0].split("layername=")[1]
        ratings = [r for (r,) in con.execute(f'SELECT rating FROM "{table}"')]
        (host,) = con.execute("SELECT DISTINCT endpoint_host FROM runs").fetchone()
    assert len(ratings) == 3 and all(0.0 <= r <= 9.9 for r in ratings)
    assert host.startswith("127.0.0.1")
    # The model ran in a child of that qgis_process (import hook: not inside it), which ends
    # with it.
    deadline = time.monotonic() + 30
    while model_children(qp.last_pid) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert model_children(qp.last_pid) == []


@pytest.mark.integration
def test_survey_with_the_embedded_model(qp, data, tmp_path):
    result = qp.run("survey", REGION=data["region"], COUNT=3, METHOD=1, PROVIDER=0,
                    TOPICS="Infant Mortality Rate", TRUTH=COUNTRIES + "|layername=countries",
                    TRUTH_FIELD="infant_mortality", N_BOOT=50,
                    OUTPUT=tmp_path / "survey.gpkg")  # fmt: skip
    assert len(result["OUTPUT_LAYERS"]) == 1
    with sqlite3.connect(tmp_path / "survey.gpkg") as con:
        table = result["OUTPUT_LAYERS"][0].split("layername=")[1]
        rows = con.execute(f'SELECT rating, truth FROM "{table}"').fetchall()
        metrics = con.execute("SELECT n_points FROM metrics").fetchall()
    assert len(rows) == 3 and all(t is not None for _, t in rows)
    assert metrics == [(3,)]
    # The report says which endpoint got the prompts: the embedded model, on this machine.
    pdf = tmp_path / "survey.pdf"
    report = qp.run("report", INPUT=result["OUTPUT_LAYERS"][0], N_BOOT=20, DPI=50, OUTPUT=pdf)
    assert report["PAGES"] == 3  # facts and ranks, metrics and plots, rank errors
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout  # fmt: skip
    text = " ".join(text.split())
    assert "127.0.0.1" in text and "nothing left the machine" in text and "Lambert" in text
    assert "Prompt preset" in text and "3 points" in text
    # What was measured, as qgis_process gave it: the REGION layer and the truth's layer.field.
    assert "Countries.infant_mortality" in text and "km²" in text and "the world" not in text


@pytest.fixture(scope="module")
def rated(qp, tmp_path_factory):
    """The paper's 1,999 GPT-3.5 infant mortality ratings, imported through qgis_process."""
    out = tmp_path_factory.mktemp("rated") / "rated.gpkg"
    result = qp.run("importratings", INPUT=CSV, MODEL="gpt-3.5", OUTPUT=out)
    assert result["N_POINTS"] == 1999 and result["N_ANSWERED"] > 1900
    return str(out)


def saved_styles(path):
    """{style name: useAsDefault} of a GeoPackage's layer_styles."""
    with sqlite3.connect(path) as con:
        return dict(con.execute("select styleName, useAsDefault from layer_styles").fetchall())


def test_importratings_saves_its_styles(rated):
    # Nothing loads the output headless: the algorithm itself saved the styles, rank default.
    assert saved_styles(rated) == {"rank": 1, "rating": 0, "rank_error": 0, "truth_rank": 0}


@pytest.mark.parametrize("kind", ["raster", "polygons", "points"])
def test_samplegroundtruth_from_a_raster_polygons_or_points(qp, data, rated, tmp_path, kind):
    sources = {
        "raster": {"RASTER": data["raster"], "WINDOW_KM": 100, "STATISTIC": 0},
        "polygons": {"POLYGONS": COUNTRIES + "|layername=countries",
                     "POLYGON_FIELD": "infant_mortality"},
        "points": {"POINTS": data["points"], "POINT_FIELD": "infant_mortality",
                   "MAX_DISTANCE_KM": 1000},
    }  # fmt: skip
    out = tmp_path / "truth.gpkg"
    result = qp.run("samplegroundtruth", INPUT=rated, OUTPUT=out, **sources[kind])
    assert result["N_TRUTH"] > 1000 and result["N_TRUTH"] + result["N_MISSING"] == 1999
    # With a ground truth the rank error is the default style.
    assert saved_styles(out) == {"rank_error": 1, "rank": 0, "rating": 0, "truth_rank": 0}


def test_biasmetrics_with_truth_and_anchor(qp, rated, tmp_path):
    truth = tmp_path / "truth.gpkg"
    qp.run("samplegroundtruth", INPUT=rated, POLYGONS=COUNTRIES + "|layername=countries",
           POLYGON_FIELD="infant_mortality", OUTPUT=truth)  # fmt: skip
    out = tmp_path / "metrics.gpkg"
    qp.run("biasmetrics", INPUT=[truth], TRUTH_FIELD="truth",
           ANCHOR=COUNTRIES + "|layername=countries", ANCHOR_FIELD="infant_survival",
           N_BOOT=100, OUTPUT=out)  # fmt: skip
    with sqlite3.connect(out) as con:
        con.row_factory = sqlite3.Row
        (row,) = con.execute("SELECT * FROM metrics").fetchall()
    # GPT-3.5's infant mortality ratings follow the truth closely (the paper's rho is ~0.8).
    assert row["model"] == "gpt-3.5" and row["n_points"] == 1999
    assert 0.6 < row["rho_truth"] <= 1.0 and row["mad"] > 0
    # Higher rated infant mortality where infants survive less: a negative anchor correlation.
    assert row["rho_anchor"] < 0 and row["bias_score"] is not None


# --- issue 21 item 10: one progress stream that reaches 100, the dock's default anchor ---

STREAM = "0...10...20...30...40...50...60...70...80...90...100 - done."


def printed_progress(stdout):
    """The lines qgis_process printed from the first progress mark to "done"."""
    lines = stdout.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith("0..."))
    end = next(i for i, ln in enumerate(lines) if ln.endswith(" - done."))
    return lines[start : end + 1]


def test_samplepoints_progress_reaches_100(qp, tmp_path):
    proc = qp.call("run", "geobias:samplepoints", "--", "EXTENT=-10,30,35,60 [EPSG:4326]",
                   "COUNT=20", "METHOD=0", f"OUTPUT={tmp_path / 'points.gpkg'}")  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert printed_progress(proc.stdout) == [STREAM]  # it stopped at 60


def test_survey_prints_one_progress_stream_and_anchors_on_infant_survival(qp, data, tmp_path):
    # No ANCHOR: the bundled countries' infant survival, as the dock does (rho anchor and B
    # were empty); the model named before the requests, their counts kept out of the stream.
    with FaultServer(delay_s=0.02) as fs:
        proc = qp.call("run", "geobias:survey", "--", f"REGION={data['region']}", "COUNT=25",
                       "METHOD=0", "PROVIDER=9", f"BASE_URL={fs.base_url}", "MODEL=fault",
                       "CONCURRENCY=1", "TOPICS=Infant Mortality Rate", "N_BOOT=20",
                       f"TRUTH={COUNTRIES}|layername=countries", "TRUTH_FIELD=infant_mortality",
                       f"OUTPUT={tmp_path / 'survey.gpkg'}")  # fmt: skip
        host = fs.base_url.split("//")[1].split("/")[0]
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert printed_progress(proc.stdout) == [STREAM]  # was ~65 "n/25 requests" lines in it
    before = proc.stdout[: proc.stdout.index(STREAM)]
    assert f"Rating 25 points on 1 topic(s) with fault at {host}: 25 requests" in before
    assert "/25 requests" not in proc.stdout
    with sqlite3.connect(tmp_path / "survey.gpkg") as con:
        con.row_factory = sqlite3.Row
        (row,) = con.execute("SELECT * FROM metrics").fetchall()
        (run,) = con.execute("SELECT anchor FROM runs").fetchall()
    # Named as the dock names it, in the metrics and in the facts of the runs row.
    assert row["anchor"] == run["anchor"] == "Countries.infant_survival"
    assert row["rho_anchor"] is not None and row["bias_score"] is not None


# --- issue 13 where the user runs it: regions in projected CRSs, field errors, rating scales ---


def region_file(path, wkt, epsg):
    """A GeoPackage with one polygon in EPSG:`epsg`."""
    from osgeo import osr

    srs = osr.SpatialReference()
    srs.ImportFromEPSG(epsg)
    ds = ogr.GetDriverByName("GPKG").CreateDataSource(str(path))
    layer = ds.CreateLayer("region", srs, ogr.wkbPolygon)
    feature = ogr.Feature(layer.GetLayerDefn())
    feature.SetGeometry(ogr.CreateGeometryFromWkt(wkt))
    layer.CreateFeature(feature)
    ds = None
    return str(path)


def test_regions_across_the_antimeridian_and_around_the_pole(qp, tmp_path):
    from geobias.core.geo.sampling import haversine_km

    # Fiji in PDC Mercator (lon 176..182 = -178, lat -20..-15), and 1,000 km around the pole.
    fiji = region_file(tmp_path / "fiji.gpkg", "POLYGON((2890000 -2258000, 3558000 -2258000, "
                       "3558000 -1678000, 2890000 -1678000, 2890000 -2258000))", 3832)  # fmt: skip
    out = tmp_path / "fiji_points.gpkg"
    result = qp.run("samplepoints", REGION=fiji, COUNT=60, METHOD=0, OUTPUT=out)
    lon, lat = zip(*point_coords(out))
    assert result["N_POINTS"] == 60 and all(x >= 175.9 or x <= -177.9 for x in lon)
    assert all(-20.1 <= y <= -14.9 for y in lat) and min(lon) < 0 < max(lon)
    circle = ogr.CreateGeometryFromWkt("POINT (0 0)").Buffer(1_000_000, 16).ExportToWkt()
    pole = region_file(tmp_path / "pole.gpkg", circle, 3413)
    out = tmp_path / "pole_points.gpkg"
    qp.run("samplepoints", REGION=pole, COUNT=100, METHOD=3, OUTPUT=out)
    lon, lat = zip(*point_coords(out))
    d = haversine_km(0, 90, lon, lat)
    assert 70 <= len(d) <= 130 and d.max() < 1050 and d.min() < 200


def test_biasmetrics_field_errors_name_the_parameter(qp, rated):
    for field in ("model", "nope"):
        proc = qp.call("run", "geobias:biasmetrics", "--", f"INPUT={rated}",
                       f"TRUTH_FIELD={field}", "OUTPUT=TEMPORARY_OUTPUT")  # fmt: skip
        said = proc.stdout + proc.stderr
        assert proc.returncode != 0 and "Ground truth field (TRUTH_FIELD)" in said
        assert "Traceback" not in said


def test_importratings_warns_about_ratings_outside_the_scale(qp, tmp_path):
    mine = tmp_path / "mine.csv"
    mine.write_text("Latitude,Longitude,Predictions\n1,2,3.5\n3,4,12.0\n5,6,-3\n")
    proc = qp.call("run", "geobias:importratings", "--", f"INPUT={mine}",
                   f"OUTPUT={tmp_path / 'mine.gpkg'}")  # fmt: skip
    said = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "2 ratings lie outside the scale 0–9.9" in said


# --- issue 15: census overlay, correlation, hot spots ---


def test_aggregate_correlate_and_hotspots(qp, rated, tmp_path):
    countries = COUNTRIES + "|layername=countries"
    truth = tmp_path / "truth.gpkg"
    qp.run("samplegroundtruth", INPUT=rated, POLYGONS=countries,
           POLYGON_FIELD="infant_mortality", OUTPUT=truth)  # fmt: skip
    units = tmp_path / "units.gpkg"
    result = qp.run("aggregatetopolygons", INPUT=truth, POLYGONS=countries, MIN_POINTS=5,
                    OUTPUT=units)  # fmt: skip
    assert result["N_UNITS"] > 100 and result["N_FLAGGED"] > 0
    assert saved_styles(units) == {"mean_rank_error": 1, "mean_rank": 0}
    table = tmp_path / "corr.gpkg"
    result = qp.run("correlate", INPUT=units, VALUE_FIELD="mean_rating",
                    FIELDS=["infant_mortality", "life_exp", "gdp_percap"], N_BOOT=200,
                    OUTPUT=table)  # fmt: skip
    assert result["N_FIELDS"] == 3 and "3 variables tested" in result["NOTE"]
    with sqlite3.connect(table) as con:
        rho = dict(con.execute("SELECT field, rho FROM corr").fetchall())
    assert rho["infant_mortality"] > 0.7 and rho["life_exp"] < -0.6
    hot, moran = tmp_path / "hot.gpkg", tmp_path / "moran.gpkg"
    result = qp.run("hotspots", INPUT=units, WEIGHTS=1, DISTANCE_KM=1500, PERMUTATIONS=199,
                    FDR="true", OUTPUT=hot, METRICS=moran)  # fmt: skip
    assert result["N_UNITS"] > 50 and -1 < result["MORAN_I"] < 1
    assert saved_styles(hot) == {"lisa": 1, "gi": 0}
    with sqlite3.connect(moran) as con:
        (i, fdr, weights) = con.execute("SELECT moran_i, fdr, weights FROM moran").fetchone()
    assert i == pytest.approx(result["MORAN_I"]) and fdr == 1
    assert weights == "distance band 1500 km (great-circle)"
    pdf = tmp_path / "report.pdf"
    result = qp.run("report", INPUT=truth, HOTSPOTS=hot, N_BOOT=100, DPI=50, OUTPUT=pdf)
    pngs = result["PNG_FILES"].split(";")
    # facts and ranks, metrics and plots, rank errors, hot spots
    assert result["PAGES"] == 4 == len(pngs) and all(os.path.getsize(p) > 10_000 for p in pngs)
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    assert "Pages:           4" in info.stdout


def test_comparemodels_on_two_reference_topics(qp, rated, tmp_path):
    attractiveness = CSV.replace("Infant_Mortality_Rate", "Average_Attractiveness_of_Residents")
    other = tmp_path / "attractiveness.gpkg"
    qp.run("importratings", INPUT=attractiveness, MODEL="gpt-3.5", OUTPUT=other)
    out, tables = tmp_path / "compare.gpkg", tmp_path / "tables"
    anchor = {"ANCHOR": COUNTRIES + "|layername=countries", "ANCHOR_FIELD": "infant_survival"}
    result = qp.run("comparemodels", INPUT=[rated, other], **anchor, N_BOOT=0, OUTPUT=out,
                    TABLES_FOLDER=tables)  # fmt: skip
    assert len(result["MEAN_RANK_LAYERS"]) == 2 and len(result["PIVOTS"]) == 7
    with sqlite3.connect(out) as con:
        bias = dict(con.execute('SELECT topic, "gpt-3.5" FROM pivot_bias_score').fetchall())
        n = con.execute("SELECT count(*) FROM mean_rank_infant_mortality_rate").fetchone()[0]
    # The paper's Table: GPT-3.5's attractiveness ratings follow infant survival (rho 0.50,
    # B 0.29 with country-level survival here near it); infant mortality ratings oppose it.
    assert 0.1 < bias["Average Attractiveness of Residents"] < 0.5
    assert bias["Infant Mortality Rate"] < 0 and n == 1999
    assert "| Average Attractiveness of Residents |" in (tables / "comparison.md").read_text()
    assert saved_styles(out) == {"mean_rank": 1, "mean_rank_error": 0}


@pytest.mark.integration
def test_herb_with_the_embedded_model_on_south_america(qp, tmp_path):
    # South America and its 14 countries (no cities), three descriptors: 60 sentences.
    words = tmp_path / "words.txt"
    words.write_text("intelligence\tintelligent\nmorality\thonest\nmorality\tcruel\n")
    out = tmp_path / "herb.gpkg"
    result = qp.run("herb", SCOPE=0, CONTINENTS="South America", MAX_CITIES=0,
                    DESCRIPTORS=words, CACHE=tmp_path / "cache.sqlite", OUTPUT=out)  # fmt: skip
    assert result["N_SENTENCES"] == 15 * 3 + 15 and result["N_TO_SCORE"] == 60
    with sqlite3.connect(out) as con:
        continent = con.execute("SELECT region, n_children, c_w, c_z FROM herb_0_continent")
        ((name, kids, c_w, c_z),) = continent.fetchall()
        countries = con.execute("SELECT region, c_morality, deviation FROM herb_1_country")
        countries = countries.fetchall()
        n_words = con.execute("SELECT count(*) FROM herb_descriptors").fetchone()[0]
        defaults = dict(con.execute("SELECT f_table_name, styleName FROM layer_styles "
                                    "WHERE useAsDefault").fetchall())  # fmt: skip
        (host,) = con.execute("SELECT endpoint_host FROM runs").fetchone()
    assert name == "South America" and kids == 14 and c_w > 0 and c_z > 0
    assert result["C_ROOT"] is None  # one continent: the Earth has no C (NaN, JSON null)
    assert len(countries) == 14 and all(d > 0 for _, _, d in countries)
    assert n_words == 15 * 3 and host == "local"  # whole sentences in the model's child
    assert defaults == {"herb_0_continent": "c_w", "herb_1_country": "deviation"}
    # Forced decoding (the reference path, the embedded llama.cpp server): the same scores.
    forced = tmp_path / "forced.gpkg"
    qp.run("herb", SCOPE=0, CONTINENTS="South America", MAX_CITIES=0, DESCRIPTORS=words,
           METHOD=1, CACHE=tmp_path / "forced.sqlite", OUTPUT=forced)  # fmt: skip
    scores = {}
    for path in (out, forced):
        with sqlite3.connect(path) as con:
            rows = con.execute("SELECT region, descriptor, score FROM herb_descriptors")
            scores[path] = {(r, d): v for r, d, v in rows}
            (host,) = con.execute("SELECT endpoint_host FROM runs").fetchone()
    assert host.startswith("127.0.0.1") and scores[out].keys() == scores[forced].keys()
    assert max(abs(scores[out][k] - scores[forced][k]) for k in scores[out]) <= 1e-4
    # Polygons: the continent dissolved from Natural Earth countries, Brazil's own outline.
    ds = ogr.Open(str(out))
    feature = ds.GetLayerByName("herb_0_continent").GetNextFeature()  # kept: owns its geometry
    geom = feature.GetGeometryRef()
    assert geom.GetGeometryName() == "MULTIPOLYGON" and 1500 < geom.GetArea() < 2000
    brazil = [f for f in ds.GetLayerByName("herb_1_country") if f["region"] == "Brazil"]
    assert brazil[0].GetGeometryRef().GetArea() > 500


def test_herb_with_a_masked_lm_keeps_torch_out_of_qgis(qp, tmp_path):
    # SCORER=3 (transformers) on a tiny random BERT: the import hook refuses torch and
    # transformers inside qgis_process.bin, so this run succeeds only with the model in its
    # child process (core/herb/mlm_worker.py).
    words = tmp_path / "words.txt"
    words.write_text("intelligence\tintelligent\nmorality\thonest\nmorality\tcruel\n")
    vocab = ["people", "in", "are", ".", "intelligent", "honest", "cruel"]
    folder = build_in_child(str(tmp_path / "tiny-bert"), vocab)
    params = dict(SCOPE=0, CONTINENTS="South America", MAX_CITIES=0, DESCRIPTORS=words,
                  SCORER=3, MODEL=folder or tmp_path / "tiny-bert", CACHE=tmp_path / "c.sqlite",
                  OUTPUT=tmp_path / "herb.gpkg")  # fmt: skip
    if folder is None:  # without torch anywhere: what to install, nothing written
        args = ["run", "geobias:herb", "--", *(f"{k}={v}" for k, v in params.items())]
        proc = qp.call(*args)
        assert proc.returncode != 0 and "pip install torch==2.13.0 transformers" in proc.stderr
        assert not (tmp_path / "herb.gpkg").exists()
        return
    result = qp.run("herb", **params)
    assert result["N_SENTENCES"] == 60 and result["N_TO_SCORE"] == 60
    with sqlite3.connect(tmp_path / "herb.gpkg") as con:
        (c_w,) = con.execute("SELECT c_w FROM herb_0_continent").fetchone()
        scores = [s for (s,) in con.execute("SELECT score FROM herb_descriptors")]
        (provider, model) = con.execute("SELECT provider, model FROM runs").fetchone()
    assert c_w > 0 and len(scores) == 45 and all(-20 < s < 0 for s in scores)
    assert (provider, model) == ("transformers", folder)


def test_ratelocations_follows_the_proxy_of_the_qgis_profile(data, tmp_path):
    # Settings > Options > Network as QGIS saves it in the profile: qgis_process.bin reads it
    # and GeoBias's requests go through that proxy (a real tinyproxy on 127.0.0.1).
    with Tinyproxy(str(tmp_path), user="geo", password="s3cret") as proxy, FaultServer() as fs:
        runner = QgisProcess(tmp_path / "proxied")
        ini = tmp_path / "proxied" / "profiles" / "default" / "QGIS" / "QGIS3.ini"
        with open(ini, "a") as f:
            f.write(f"\n[proxy]\nproxyEnabled=true\nproxyType=HttpProxy\nproxyHost=127.0.0.1\n"
                    f"proxyPort={proxy.port}\nproxyUser=geo\nproxyPassword=s3cret\n")  # fmt: skip
        result = runner.run("ratelocations", INPUT=data["points"], PROVIDER=9,
                            BASE_URL=fs.base_url, MODEL="proxied", TOPICS="Infant Mortality Rate",
                            OUTPUT=tmp_path / "rated.gpkg")  # fmt: skip
        assert result["N_ANSWERED"] == fs.n_requests > 100
        assert all("tinyproxy" in v for v in fs.via), fs.via
        assert len(proxy.hits()) >= 1


def test_batch_round_trip(qp, tmp_path):
    # Export for a batch service, answer with a fake one (error lines included), import, rate:
    # only the failed requests reach the endpoint; a second import changes nothing.
    coords = [(2.35, 48.86), (3.38, 6.52), (139.69, 35.69), (-74.0, 40.71), (28.98, 41.01)]
    points = tmp_path / "points.csv"
    points.write_text("lon,lat\n" + "".join(f"{x},{y}\n" for x, y in coords))
    source = f"delimitedtext://file://{points}?xField=lon&yField=lat&crs=EPSG:4326"
    with FaultServer() as fs:
        endpoint = {"PROVIDER": 9, "BASE_URL": fs.base_url, "MODEL": "batch-model",
                    "TOPICS": "Infant Mortality Rate;Population Density"}  # fmt: skip
        out = qp.run("exportbatch", INPUT=source, MAX_REQUESTS=4, OUTPUT=tmp_path / "req",
                     **endpoint)  # fmt: skip
        assert (out["N_REQUESTS"], out["N_FILES"]) == (10, 3)
        ok, failed = answer_batch(out["FILES"].splitlines(), tmp_path / "out.jsonl", fail_every=4)
        assert (ok, failed) == (8, 2)
        for _ in range(2):  # idempotent
            imported = qp.run("importbatch", INPUT=tmp_path / "out.jsonl")
            assert (imported["N_ANSWERS"], imported["N_FAILED"]) == (8, 2)
        rated = qp.run("ratelocations", INPUT=source, OUTPUT=tmp_path / "rated.gpkg", **endpoint)
        assert rated["N_ANSWERED"] == 10 and fs.n_requests == 2
        # Once rated, the batch's error lines no longer count as failures.
        imported = qp.run("importbatch", INPUT=tmp_path / "out.jsonl")
        assert (imported["N_ANSWERS"], imported["N_FAILED"]) == (8, 0)


@pytest.fixture(scope="module")
def one_thread_model():
    """The embedded model reached by its URL, with one thread (fast on a loaded machine)."""
    from geobias.core.runtime.embedded import EmbeddedServer

    server = EmbeddedServer(parallel=1, threads=1)
    server.start()
    yield {"PROVIDER": 0, "BASE_URL": server.base_url, "MODEL": server.model_name}
    server.stop()


@pytest.mark.integration
def test_ablation_and_probes_with_the_embedded_model(qp, one_thread_model, tmp_path):
    coords = [(2.35, 48.86), (3.38, 6.52), (139.69, 35.69)]  # Paris, Lagos, Tokyo
    points = tmp_path / "points.csv"
    points.write_text("lon,lat\n" + "".join(f"{x},{y}\n" for x, y in coords))
    source = f"delimitedtext://file://{points}?xField=lon&yField=lat&crs=EPSG:4326"
    out = tmp_path / "ablation.gpkg"
    result = qp.run("ablation", INPUT=source, **one_thread_model, TOPICS="Infant Mortality Rate",
                    VARIANTS=[0, 3], TRUTH=COUNTRIES + "|layername=countries",
                    TRUTH_FIELD="infant_mortality", N_BOOT=0, OUTPUT=out)  # fmt: skip
    assert result["N_REQUESTS"] + result["N_CACHED"] == 2 * 3
    with sqlite3.connect(out) as con:
        variants = [v for (v,) in con.execute("SELECT DISTINCT variant FROM ablation")]
        n_runs = con.execute("SELECT count(*) FROM runs").fetchone()[0]
    assert variants == ["geollm", "no_address"] and n_runs == 2
    assert "| Topic | geollm | no_address |" in result["MARKDOWN"]
    out = tmp_path / "probes.gpkg"
    result = qp.run("probes", **one_thread_model, ACTIVITIES="see wildlife", QUERIES="",
                    N_SAMPLES=2, MAX_TOKENS=16, OUTPUT=out)  # fmt: skip
    with sqlite3.connect(out) as con:
        (n, n_a, n_b, n_r, n_u) = con.execute(
            "SELECT n_samples, n_a, n_b, n_refused, n_unclear FROM choices"
        ).fetchone()
        samples = [s for (s,) in con.execute("SELECT sample FROM probe_answers")]
    assert n == 2 and n_a + n_b + n_r + n_u == 2 and sorted(samples) == [0, 1]


def test_two_qgis_process_surveys_share_one_cache_at_once(qp, data, tmp_path):
    """Issue 23 item 5: two runs on the same points and the same CACHE file at the same time
    both finish, the cache holds every answer once, and a third run sends nothing."""
    cache = tmp_path / "shared.sqlite"
    ds = ogr.Open(data["points"])  # kept: OGR's layer dies with its dataset
    n_points = ds.GetLayer(0).GetFeatureCount()
    ds = None
    with FaultServer(delay_s=0.005) as fs:
        endpoint = {"PROVIDER": 9, "BASE_URL": fs.base_url, "MODEL": "shared-cache",
                    "CONCURRENCY": 4, "TOPICS": "Infant Mortality Rate"}  # fmt: skip

        def args(name):
            params = dict(endpoint, INPUT=data["points"], CACHE=cache, OUTPUT=tmp_path / name)
            return [QGIS_PROCESS, "--json", "run", "geobias:ratelocations", "--",
                    *(f"{k}={v}" for k, v in params.items())]  # fmt: skip

        runs = [subprocess.Popen(args(f"run{i}.gpkg"), env=qp.env, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True) for i in range(2)]  # fmt: skip
        done = [p.communicate(timeout=900) for p in runs]
        for p, (out, err) in zip(runs, done):
            assert p.returncode == 0, err[-3000:]
            assert "locked" not in out + err
            assert json.loads(out[out.index("{") :])["results"]["N_ANSWERED"] == n_points
        with sqlite3.connect(cache) as con:
            rows, keys = con.execute(
                "SELECT COUNT(*), COUNT(DISTINCT key) FROM responses"
            ).fetchone()
            assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert rows == keys == n_points
        sent = fs.n_requests
        assert n_points <= sent <= 2 * n_points
        third = qp.run("ratelocations", INPUT=data["points"], CACHE=cache,
                       OUTPUT=tmp_path / "run3.gpkg", **endpoint)  # fmt: skip
        assert third["N_ANSWERED"] == n_points and fs.n_requests == sent


# --- issue 27: GeoBS scores and the benchmark card in the real qgis_process -------------------


def test_geobiasscores_saves_the_local_layer_drawn_as_the_rank_errors(qp, rated, tmp_path):
    truth = tmp_path / "truth.gpkg"
    qp.run("samplegroundtruth", INPUT=rated, POLYGONS=COUNTRIES + "|layername=countries",
           POLYGON_FIELD="infant_mortality", OUTPUT=truth)  # fmt: skip
    scores, local = tmp_path / "scores.gpkg", tmp_path / "local.gpkg"
    result = qp.run("geobiasscores", INPUT=[truth], OUTPUT=scores, LOCAL=local)
    assert result["OUTPUT"].startswith(str(scores)) and result["LOCAL"].startswith(str(local))
    with sqlite3.connect(scores) as con:
        (ssi, n, sri, radius) = con.execute(
            "SELECT ssi, ssi_n, sri_direction, radius_km FROM scores"
        ).fetchone()
    # GPT-3.5's rank errors cluster in space: more self-information than a random arrangement
    # of them (about 4.0 nats, docs/method.md) and a direction SRI above its noise (0.07).
    assert ssi > 4.2 and n > 1800 and sri > 0.1 and radius == 1500
    assert saved_styles(local) == {"ssi_z": 1, "ssi": 0}


def test_benchmark_card_from_ratings_made_elsewhere(qp, rated, tmp_path):
    out, card, pdf = tmp_path / "card.gpkg", tmp_path / "card.json", tmp_path / "card.pdf"
    result = qp.run("benchmark", RATED=[rated], N_BOOT=50, OUTPUT=out, CARD=card, PDF=pdf)
    assert result["REDUCED"] == 1 and result["MODEL"] == "gpt-3.5"
    doc = json.loads(card.read_text(encoding="utf-8"))
    (entry,) = doc["topics"]
    assert entry["topic"] == "Infant Mortality Rate" and entry["n_points"] == 1999
    assert "1 of the 16 topics" in doc["reduced_reason"] and doc["sample"]["version"] == "v1"
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout  # fmt: skip
    assert "REDUCED RUN" in text and "gpt-3.5" in text


@pytest.mark.integration
def test_benchmark_card_with_the_embedded_model(qp, one_thread_model, tmp_path):
    out, card, pdf = tmp_path / "card.gpkg", tmp_path / "card.json", tmp_path / "card.pdf"
    result = qp.run("benchmark", **one_thread_model, TOPICS="Infant Mortality Rate",
                    N_POINTS=4, N_BOOT=0, OUTPUT=out, CARD=card, PDF=pdf)  # fmt: skip
    doc = json.loads(card.read_text(encoding="utf-8"))
    assert result["REDUCED"] == 1 and doc["model"] == one_thread_model["MODEL"]
    # The endpoint is named by its host, never with a key; the run is recorded.
    assert doc["endpoint"].endswith(one_thread_model["BASE_URL"].split("/")[2])
    assert doc["prompt_preset"] == "geollm" and doc["language"] == "en"
    assert "Infant Mortality Rate: 4 of the sample's 2000 points" in doc["reduced_reason"]
    scores = doc["topics"][0]["scores"]
    assert len(scores) == 2000 and all(v is None for v in scores[4:])
    with sqlite3.connect(out) as con:
        assert con.execute("SELECT n_points FROM runs").fetchone()[0] == 4
