"""Bad parameters for every geobias:* algorithm (issue 23, item 8), generated from the
algorithms' own parameter definitions.

For each algorithm a *baseline* is built from its definitions (defaults, a valid value for
every mandatory parameter, the endpoint pointed at a counting server so that nothing can reach
a real model), and each parameter gets the bad values its type admits (wrong type, out of
range, missing or empty layer, layer without CRS, text for a number, a folder for a file, a
read-only output path...). A case is the baseline with one bad value (and, for a field or a
band, its parent layer given, so that the bad value is the one that matters).

A case passes when the run fails with an error naming the parameter (its key or its label;
QGIS's own "Incorrect parameter value for COUNT" counts), no exception other than
QgsProcessingException escaped GeoBias's code (the traceback a user would see), nothing was
written (the case's folders, the read-only folder, the caches in the QGIS profile), no child
process was started (the embedded model, HERB's masked LM) and the counting server got no
connection.

Used by test/qgis/test_bad_parameters.py (every case inside one QGIS process, a sample per
algorithm through qgis_process.bin) and by benchmarks/bench_bad_parameters.py (the count).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sysconfig
import time
from dataclasses import dataclass, field

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
QGIS_PROCESS = "/usr/bin/qgis_process.bin"

# Kinds of bad values, in the order a case list shows them. Booleans have none: QGIS reads any
# value as true or false.
KINDS = (
    "missing", "empty", "blank", "text", "nan", "wrong_type", "below_min", "above_max",
    "out_of_range", "negative", "empty_selection", "no_such_file", "folder", "not_a_folder",
    "garbage", "not_a_layer", "empty_layer", "no_crs", "wrong_geometry", "not_a_raster",
    "no_such_field", "wrong_field_type", "no_such_band", "zero_extent", "not_a_url",
    "no_such_authcfg", "output_is_folder", "output_is_file", "read_only_output",
)  # fmt: skip

# qgis_process takes strings only: these kinds stay inside the QGIS process.
IN_PROCESS_ONLY = ("wrong_type", "nan")

# Geometry types of QgsProcessing.SourceType: 0 points, 1 lines, 2 polygons, -1/5 any.
POINT, LINE, POLYGON = 0, 1, 2


# ------------------------------------------------------------------ data the cases use


@dataclass
class Fixtures:
    """Files the baselines and the bad values point at, made once in `folder`."""

    folder: str
    points: str = ""  # rated points (every field the algorithms read)
    polygons: str = ""  # census-like units with numeric fields
    lines: str = ""  # a line layer: the wrong geometry for every GeoBias input
    empty_points: str = ""
    empty_polygons: str = ""
    nocrs_points: str = ""
    nocrs_polygons: str = ""
    raster: str = ""
    nocrs_raster: str = ""
    ratings_csv: str = ""
    batch_jsonl: str = ""
    descriptors: str = ""
    survey_gpkg: str = ""
    a_folder: str = ""
    a_file: str = ""
    read_only: str = ""

    POINT_NUMERIC = ("score", "truth", "rank_error", "rating", "rank")
    POLYGON_NUMERIC = ("infant_mortality", "infant_survival", "pop_density", "mean_rank_error")


POINT_FIELDS = (("pid", "int"), ("lon", "real"), ("lat", "real"), ("model", "str"),
                ("topic", "str"), ("score_kind", "str"), ("score", "real"), ("rating", "real"),
                ("expected", "real"), ("answered", "int"), ("failed", "int"),
                ("no_score", "int"), ("completion", "str"), ("prompt", "str"), ("rank", "real"),
                ("truth", "real"), ("truth_rank", "real"), ("rank_error", "real"))  # fmt: skip
POLYGON_FIELDS = (("name", "str"), ("iso_a3", "str"), ("infant_mortality", "real"),
                  ("infant_survival", "real"), ("pop_density", "real"),
                  ("mean_rank_error", "real"), ("n_points", "int"), ("flagged", "int"))  # fmt: skip


def _write_layer(path, geometry, fields, rows, crs=True):
    """A vector file (GeoPackage, FlatGeobuf when crs=False: a GeoPackage always has one)."""
    from osgeo import ogr, osr

    driver = ogr.GetDriverByName("GPKG" if path.endswith(".gpkg") else "FlatGeobuf")
    ds = driver.CreateDataSource(path)
    srs = None
    if crs:
        srs = osr.SpatialReference()
        srs.ImportFromEPSG(4326)
    types = {"int": ogr.OFTInteger64, "real": ogr.OFTReal, "str": ogr.OFTString}
    layer = ds.CreateLayer(os.path.splitext(os.path.basename(path))[0], srs, geometry)
    for name, kind in fields:
        layer.CreateField(ogr.FieldDefn(name, types[kind]))
    for wkt, values in rows:
        feature = ogr.Feature(layer.GetLayerDefn())
        for (name, _), value in zip(fields, values):
            feature.SetField(name, value)
        feature.SetGeometry(ogr.CreateGeometryFromWkt(wkt))
        layer.CreateFeature(feature)
    ds = None
    return path


def _write_raster(path, crs=True):
    from osgeo import gdal, osr

    ds = gdal.GetDriverByName("GTiff").Create(path, 360, 180, 1, gdal.GDT_Float32)
    ds.SetGeoTransform((-180, 1, 0, 90, 0, -1))
    if crs:
        srs = osr.SpatialReference()
        srs.ImportFromEPSG(4326)
        ds.SetProjection(srs.ExportToWkt())
    band = ds.GetRasterBand(1)
    band.SetNoDataValue(-1)
    band.WriteArray(np.add.outer(np.arange(180), np.arange(360)).astype(np.float32) + 1)
    ds = None
    return path


def make_read_only(path):
    """A folder nobody can write into, root included (chattr +i, else a read-only tmpfs)."""
    os.makedirs(path, exist_ok=True)
    os.chmod(path, 0o555)
    if os.geteuid() == 0:
        try:
            immutable = subprocess.run(["chattr", "+i", path], capture_output=True).returncode
        except FileNotFoundError:  # no e2fsprogs (a minimal chroot)
            immutable = 1
        if immutable != 0:
            subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", path],
                           check=True, capture_output=True)  # fmt: skip
    probe = os.path.join(path, "probe")
    try:
        open(probe, "w").close()
    except OSError:
        return path
    os.unlink(probe)
    raise RuntimeError(f"{path} could not be made read-only")


def release_read_only(path):
    """Undo make_read_only (so the folder can be deleted)."""
    if os.geteuid() == 0:
        subprocess.run(["umount", path], capture_output=True)
        try:
            subprocess.run(["chattr", "-i", path], capture_output=True)
        except FileNotFoundError:
            pass
    os.chmod(path, 0o755)


def make_fixtures(folder):
    """Every file the cases point at, in `folder`."""
    os.makedirs(folder, exist_ok=True)
    fx = Fixtures(folder)
    j = os.path.join
    rng = np.random.default_rng(0)
    n = 40
    lon, lat = rng.uniform(-10, 30, n), rng.uniform(0, 50, n)
    score = np.round(rng.uniform(0, 9.9, n), 1)
    truth = rng.uniform(1, 100, n)
    point_rows = [
        (f"POINT ({x} {y})",
         [i, x, y, "m", "Infant Mortality Rate", "greedy", s, s, None, 1, 0, 0, f"My answer is "
          f"{s}.", "prompt", (i + 0.5) / n, t, ((n - i) - 0.5) / n, (2 * i + 1 - n) / n])
        for i, (x, y, s, t) in enumerate(zip(lon, lat, score, truth))
    ]  # fmt: skip
    squares = []
    for k in range(12):
        x0, y0 = -10 + 10 * (k % 4), 0 + 15 * (k // 4)
        x1, y1 = x0 + 10, y0 + 15
        wkt = f"POLYGON (({x0} {y0}, {x1} {y0}, {x1} {y1}, {x0} {y1}, {x0} {y0}))"
        squares.append((wkt, [f"unit {k}", f"U{k:02d}", 10.0 + 7 * k, 1000 - 10 - 7 * k,
                              50.0 + k, (k - 6) / 10, 5 + k, 0]))  # fmt: skip
    fx.points = _write_layer(j(folder, "points.gpkg"), 1, POINT_FIELDS, point_rows)
    fx.polygons = _write_layer(j(folder, "polygons.gpkg"), 3, POLYGON_FIELDS, squares)
    fx.lines = _write_layer(j(folder, "lines.gpkg"), 2, [("name", "str")],
                            [("LINESTRING (0 0, 10 10)", ["a line"])])  # fmt: skip
    fx.empty_points = _write_layer(j(folder, "empty_points.gpkg"), 1, POINT_FIELDS, [])
    fx.empty_polygons = _write_layer(j(folder, "empty_polygons.gpkg"), 3, POLYGON_FIELDS, [])
    fx.nocrs_points = _write_layer(j(folder, "nocrs_points.fgb"), 1, POINT_FIELDS, point_rows,
                                   crs=False)  # fmt: skip
    fx.nocrs_polygons = _write_layer(j(folder, "nocrs_polygons.fgb"), 3, POLYGON_FIELDS, squares,
                                     crs=False)  # fmt: skip
    fx.raster = _write_raster(j(folder, "raster.tif"))
    fx.nocrs_raster = _write_raster(j(folder, "nocrs_raster.tif"), crs=False)
    fx.ratings_csv = j(folder, "ratings.csv")
    with open(fx.ratings_csv, "w") as f:
        f.write("Latitude,Longitude,Predictions\n")
        f.writelines(f"{y:.4f},{x:.4f},{s}\n" for x, y, s in zip(lon, lat, score))
    fx.batch_jsonl = j(folder, "batch_output.jsonl")
    with open(fx.batch_jsonl, "w") as f:
        body = {"choices": [{"index": 0, "message": {"role": "assistant",
                                                     "content": "My answer is 5.0."}}]}  # fmt: skip
        f.write(json.dumps({"custom_id": "k0", "response": {"status_code": 200, "body": body}}))
        f.write("\n")
    fx.descriptors = j(folder, "descriptors.txt")
    with open(fx.descriptors, "w") as f:
        f.write("morality\thonest\nmorality\tcruel\n")
    fx.survey_gpkg = fx.points
    fx.a_folder = j(folder, "a_folder")
    os.makedirs(fx.a_folder)
    fx.a_file = j(folder, "a_file.txt")
    with open(fx.a_file, "w") as f:
        f.write("a file, not a folder\n")
    fx.read_only = make_read_only(j(folder, "read_only"))
    return fx


# ------------------------------------------------------------------ cases


@dataclass
class Case:
    alg: str  # geobias:<name>
    param: str
    kind: str
    params: dict
    label: str  # the parameter's description, which an error may name instead of its key
    out: str  # the folder the case's outputs go to: it must stay empty

    @property
    def id(self):
        return f"{self.alg.split(':')[1]}:{self.param}:{self.kind}"

    @property
    def cli(self):
        """The parameters as qgis_process arguments, or None when they are not all strings."""
        if self.kind in IN_PROCESS_ONLY:
            return None
        args = []
        for key, value in self.params.items():
            for v in value if isinstance(value, (list, tuple)) else [value]:
                if isinstance(v, float) and not np.isfinite(v):
                    return None
                args.append(f"{key}={v}")
        return args


def is_optional(d):
    from qgis.core import QgsProcessingParameterDefinition

    return bool(d.flags() & QgsProcessingParameterDefinition.Flag.FlagOptional)


def _layer_kind(d):
    """POINT or POLYGON: the geometry a source parameter takes (polygons where both are)."""
    types = d.dataTypes() if hasattr(d, "dataTypes") else [d.layerType()]
    return POLYGON if POLYGON in types else POINT


def _extension(d):
    """The extension a file parameter wants ('' for any), from its extension or filter."""
    if d.extension():
        return d.extension()
    text = d.fileFilter() or ""
    if "*." in text:
        return text.split("*.", 1)[1].split()[0].rstrip(");")
    return ""


def _valid_file(d, fx, out):
    ext = _extension(d)
    return {"csv": fx.ratings_csv, "jsonl": fx.batch_jsonl, "gpkg": fx.survey_gpkg,
            "txt": fx.descriptors, "sqlite": os.path.join(out, "cache.sqlite")}.get(
        ext, fx.a_file)  # fmt: skip


def valid_value(alg, d, fx, out):
    """A valid value for parameter definition d (used for mandatory parameters and parents)."""
    t = d.type()
    if t in ("source", "vector"):
        return fx.polygons if _layer_kind(d) == POLYGON else fx.points
    if t == "multilayer":
        return [fx.points]
    if t == "raster":
        return fx.raster
    if t == "field":
        parent = alg.parameterDefinition(d.parentLayerParameterName())
        polygons = _layer_kind(parent) == POLYGON
        numeric = Fixtures.POLYGON_NUMERIC if polygons else Fixtures.POINT_NUMERIC
        chosen = numeric[0] if d.dataType() != 1 else ("name" if polygons else "topic")
        return [chosen] if d.allowMultiple() else chosen
    if t == "band":
        return 1
    if t == "file":
        return fx.a_folder if d.behavior() == 1 else _valid_file(d, fx, out)
    if t in ("fileDestination", "sink", "vectorDestination", "rasterDestination"):
        ext = d.defaultFileExtension() or "gpkg"
        return os.path.join(out, f"{d.name().lower()}.{ext}")
    if t == "folderDestination":
        return os.path.join(out, d.name().lower())
    if t == "string":
        return "x"
    if t == "extent":
        return "-10,30,0,50 [EPSG:4326]"
    return d.defaultValue()


def safe_settings(alg, url):
    """Settings by parameter key that keep every run away from real models: remote endpoints
    at the counting server `url` (never the embedded model), HERB's sentences from it too."""
    from geobias.processing.definitions import HERB_SCORERS, PROVIDERS

    wanted = {"PROVIDER": PROVIDERS.index("custom"), "BASE_URL": url, "MODEL": "counting",
              "SCORER": HERB_SCORERS.index("echo"), "URL": url}  # fmt: skip
    return {k: v for k, v in wanted.items() if alg.parameterDefinition(k) is not None}


def baseline_extras(name, fx):
    """What makes some algorithms' baseline a valid call beyond their mandatory parameters:
    one ground-truth source, one batch input, one rated layer to compare, a small HERB scope."""
    return {
        "samplegroundtruth": {"POLYGONS": fx.polygons, "POLYGON_FIELD": "infant_mortality"},
        "importbatch": {"INPUT": fx.batch_jsonl},
        "comparemodels": {"INPUT": [fx.points]},
        "herb": {"CONTINENTS": "South America", "MAX_CITIES": 0, "DESCRIPTORS": fx.descriptors},
        "samplepoints": {"COUNT": 5},
        "survey": {"COUNT": 5},
    }.get(name, {})


def baseline(alg, fx, out, url):
    """A valid call of `alg` from its definitions, every output in `out`."""
    params = {}
    for d in alg.parameterDefinitions():
        if is_optional(d) and not d.isDestination():
            continue
        default = d.defaultValue()
        if d.isDestination() or default is None or default == "" or d.type() == "field":
            value = valid_value(alg, d, fx, out)
            if value is not None:
                params[d.name()] = value
    params.update(safe_settings(alg, url))
    params.update(baseline_extras(alg.name(), fx))
    return params


def bad_values(alg, d, fx):
    """[(kind, value, context)] for parameter d: its bad values and the parameters they need
    to matter (a field's or a band's parent layer)."""
    t, name = d.type(), d.name()
    optional = is_optional(d)
    j = os.path.join
    nowhere = j(fx.folder, "no", "such", "folder")
    out_list = []

    def add(kind, value, context=None):
        out_list.append((kind, value, context or {}))

    if not optional and d.defaultValue() in (None, "") and not d.isDestination():
        add("missing", None)
    if t == "number":
        add("text", "abc")
        add("nan", float("nan"))
        add("wrong_type", [1, 2])
        lo, hi = d.minimum(), d.maximum()
        if lo > -1e300:
            add("below_min", lo - 1)
        if hi < 1e300:
            add("above_max", hi + 1)
        if not optional:
            add("empty", "")
    elif t == "enum":
        n = len(d.options())
        add("out_of_range", n)
        add("negative", -1)
        add("text", "no such option")
        if d.allowMultiple():
            if not optional:
                add("empty_selection", [])
        else:
            add("wrong_type", [0, 1])
    elif t == "string":
        if not optional:
            add("empty", "")
            add("blank", "   ")
        if name.endswith("_FIELD"):
            add("no_such_field", "no_such_field")
        if name.endswith("URL"):
            add("not_a_url", "not a url")
    elif t in ("source", "vector", "multilayer"):
        kind = _layer_kind(d)
        wrap = (lambda v: [v]) if t == "multilayer" else (lambda v: v)
        add("no_such_file", wrap(j(nowhere, "layer.gpkg")))
        add("folder", wrap(fx.a_folder))
        add("not_a_layer", wrap(fx.a_file))
        add("empty_layer", wrap(fx.empty_polygons if kind == POLYGON else fx.empty_points))
        add("no_crs", wrap(fx.nocrs_polygons if kind == POLYGON else fx.nocrs_points))
        add("wrong_geometry", wrap(fx.lines))
        add("wrong_type", wrap(42) if t != "multilayer" else 42)
    elif t == "raster":
        add("no_such_file", j(nowhere, "raster.tif"))
        add("folder", fx.a_folder)
        add("not_a_raster", fx.points)
        add("no_crs", fx.nocrs_raster)
    elif t == "band":
        context = {d.parentLayerParameterName(): fx.raster}
        add("no_such_band", 99, context)
        add("negative", -1, context)
        add("text", "abc", context)
    elif t == "field":
        parent = alg.parameterDefinition(d.parentLayerParameterName())
        is_polygon = _layer_kind(parent) == POLYGON
        context = {parent.name(): fx.polygons if is_polygon else fx.points}
        wrap = (lambda v: [v]) if d.allowMultiple() else (lambda v: v)
        add("no_such_field", wrap("no_such_field"), context)
        if is_optional(parent):  # a field named without its layer is refused, not ignored
            add("without_layer", valid_value(alg, d, fx, ""), {parent.name(): None})
        if d.dataType() == 0:  # numeric
            add("wrong_field_type", wrap("name" if is_polygon else "topic"), context)
    elif t == "file":
        if d.behavior() == 1:  # a folder
            add("no_such_file", nowhere)
            add("not_a_folder", fx.a_file)
        else:
            ext = _extension(d) or "txt"
            garbage = j(fx.folder, f"garbage.{ext}")
            if not os.path.exists(garbage):
                with open(garbage, "wb") as f:
                    f.write(b"\x00\x01 this is not a ." + ext.encode() + b" file \xff\xfe\n")
            add("no_such_file", j(nowhere, f"file.{ext}"))
            add("folder", fx.a_folder)
            add("garbage", garbage)
    elif t == "extent":
        add("text", "abc")
        add("zero_extent", "5,5,45,45 [EPSG:4326]")
        add("invalid_crs", "-10,30,0,50 [EPSG:999999]")
    elif t == "authcfg":
        add("no_such_authcfg", "nosuch1")
    elif d.isDestination():
        ext = d.defaultFileExtension() or "gpkg"
        if t == "folderDestination":
            add("output_is_file", fx.a_file)
            add("read_only_output", j(fx.read_only, "folder"))
        else:
            add("output_is_folder", fx.a_folder)
            add("read_only_output", j(fx.read_only, f"out.{ext}"))
    return out_list


def algorithms():
    """Every geobias:* algorithm of the registered provider, by id."""
    from qgis.core import QgsApplication

    provider = QgsApplication.processingRegistry().providerById("geobias")
    assert provider is not None, "the geobias provider is not registered"
    return sorted(provider.algorithms(), key=lambda a: a.id())


def generate(fx, out_root, url, algs=None):
    """Every case of every algorithm (or of `algs`, ids), each with its own output folder."""
    cases = []
    for alg in algorithms():
        if algs and alg.id() not in algs:
            continue
        for d in alg.parameterDefinitions():
            for kind, value, context in bad_values(alg, d, fx):
                out = os.path.join(out_root, f"{alg.name()}-{d.name()}-{kind}".lower())
                params = baseline(alg, fx, out, url)
                for key, v in context.items():
                    if v is None:  # the case needs this parameter left out
                        params.pop(key, None)
                    else:
                        params.setdefault(key, v)
                if value is None:
                    params.pop(d.name(), None)
                else:
                    params[d.name()] = value
                cases.append(Case(alg.id(), d.name(), kind, params, d.description(), out))
    return cases


# ------------------------------------------------------------------ watching a case


def children(pid=None):
    """Pids of the live (or zombie) child processes of `pid` (this process)."""
    pid = pid or os.getpid()
    found = set()
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.add(int(entry))
    return found


def snapshot(folder):
    """{path: (size, mtime)} of every file under `folder` (the QGIS profile's GeoBias data)."""
    out = {}
    for base, _dirs, files in os.walk(folder):
        for name in files:
            path = os.path.join(base, name)
            try:
                st = os.stat(path)
            except OSError:
                continue
            out[path] = (st.st_size, st.st_mtime_ns)
    return out


def written(before, after):
    """Files created or changed between two snapshots."""
    return sorted(p for p, v in after.items() if before.get(p) != v)


def names_parameter(message, case):
    """Whether an error message names the case's parameter (its key or its label)."""
    text = message.lower()
    return case.param.lower() in text or case.label.lower() in text


@dataclass
class Outcome:
    case: Case
    error: str = ""  # the message the user sees ("" = the run succeeded)
    traceback: str = ""  # an exception other than QgsProcessingException, with its traceback
    written: list = field(default_factory=list)
    children: list = field(default_factory=list)
    connections: int = 0
    seconds: float = 0.0

    @property
    def problems(self):
        """What is wrong with this outcome, in words ([] when the case passed)."""
        out = []
        if not self.error:
            out.append("accepted (the run succeeded)")
        elif not names_parameter(self.error, self.case):
            out.append(f"the error does not name {self.case.param}: {self.error[:300]!r}")
        if self.traceback:
            out.append(f"traceback: {self.traceback[-600:]}")
        if self.written:
            out.append(f"wrote {self.written[:3]}")
        if self.children:
            out.append(f"started child processes {self.children}")
        if self.connections:
            out.append(f"reached the endpoint ({self.connections} connections)")
        return out


class TracebackSpy:
    """Records any exception other than QgsProcessingException that leaves an algorithm's
    checkParameterValues, prepareAlgorithm, processAlgorithm or postProcessAlgorithm (Processing
    turns it into a bare message; the user of a plugin sees a traceback in some front ends)."""

    METHODS = ("checkParameterValues", "prepareAlgorithm", "processAlgorithm",
               "postProcessAlgorithm")  # fmt: skip

    def __init__(self):
        self.seen = []
        self.saved = []

    def __enter__(self):
        import functools
        import traceback

        from qgis.core import QgsProcessingException

        for alg in algorithms():
            cls = type(alg)
            for name in self.METHODS:
                if name not in vars(cls) and not any(
                    name in vars(b) for b in cls.__mro__[1:] if b.__module__.startswith("geobias")
                ):
                    continue
                real = getattr(cls, name)

                @functools.wraps(real)
                def spy(*args, _real=real, **kwargs):
                    try:
                        return _real(*args, **kwargs)
                    except QgsProcessingException:
                        raise
                    except Exception:
                        self.seen.append(traceback.format_exc())
                        raise

                self.saved.append((cls, name, vars(cls).get(name)))
                setattr(cls, name, spy)
        return self

    def __exit__(self, *exc):
        for cls, name, original in reversed(self.saved):
            if original is None:
                delattr(cls, name)
            else:
                setattr(cls, name, original)


class PopenSpy:
    """Records every child process started (subprocess.Popen) while active."""

    def __init__(self):
        self.started = []

    def __enter__(self):
        self.real = subprocess.Popen.__init__
        spy = self

        def init(popen, args, *a, **kw):
            spy.started.append(args if isinstance(args, str) else " ".join(map(str, args)))
            return spy.real(popen, args, *a, **kw)

        subprocess.Popen.__init__ = init
        return self

    def __exit__(self, *exc):
        subprocess.Popen.__init__ = self.real


def run_in_process(case, server, profile_data, tracebacks, popens):
    """Run one case with processing.run; its Outcome (tracebacks and popens: active spies)."""
    from qgis.core import QgsProcessingContext, QgsProcessingFeedback, QgsProject

    import processing

    folders = [case.out]
    os.makedirs(case.out, exist_ok=True)
    before = snapshot(profile_data)
    kids = children()
    n_tracebacks, n_popens = len(tracebacks.seen), len(popens.started)
    connections = server.n_connections
    context = QgsProcessingContext()
    context.setProject(QgsProject.instance())
    feedback = QgsProcessingFeedback()
    t0 = time.monotonic()
    outcome = Outcome(case)
    try:
        processing.run(case.alg, dict(case.params), feedback=feedback, context=context)
    except Exception as err:  # noqa: BLE001 - processing.run raises what the user sees
        outcome.error = str(err) or type(err).__name__
    outcome.seconds = time.monotonic() - t0
    outcome.traceback = "\n".join(tracebacks.seen[n_tracebacks:])
    outcome.written = written(before, snapshot(profile_data))
    for folder in folders:
        outcome.written += [os.path.join(folder, f) for f in os.listdir(folder)]
        shutil.rmtree(folder, ignore_errors=True)
    outcome.children = sorted(children() - kids) + popens.started[n_popens:]
    outcome.connections = server.n_connections - connections
    return outcome


# ------------------------------------------------------------------ qgis_process.bin

# A startup script for qgis_process: records every child process it starts.
HOOK = """
import os, subprocess
_real = subprocess.Popen.__init__
def _spy(self, args, *a, **kw):
    with open(os.environ["GEOBIAS_POPEN_LOG"], "a") as f:
        f.write((args if isinstance(args, str) else " ".join(map(str, args))) + "\\n")
    return _real(self, args, *a, **kw)
subprocess.Popen.__init__ = _spy
"""


class QgisProcess:
    """/usr/bin/qgis_process.bin in a fresh profile with GeoBias enabled and a Popen spy."""

    def __init__(self, home):
        self.home = str(home)
        plugins = os.path.join(self.home, "profiles", "default", "python", "plugins")
        os.makedirs(plugins)
        os.symlink(ROOT, os.path.join(plugins, "geobias"))
        with open(os.path.join(self.home, "hook.py"), "w") as f:
            f.write(HOOK)
        self.popen_log = os.path.join(self.home, "popen.log")
        self.env = dict(os.environ, QT_QPA_PLATFORM="offscreen", QGIS_CUSTOM_CONFIG_PATH=self.home,
                        PYTHONPATH=sysconfig.get_paths()["purelib"],
                        PYQGIS_STARTUP=os.path.join(self.home, "hook.py"),
                        GEOBIAS_POPEN_LOG=self.popen_log)  # fmt: skip
        enable = subprocess.run([QGIS_PROCESS, "plugins", "enable", "geobias"], env=self.env,
                                capture_output=True, text=True, timeout=300)  # fmt: skip
        assert enable.returncode == 0, enable.stderr[-2000:]

    def profile_data(self):
        return os.path.join(self.home, "profiles", "default", "geobias")

    def close(self):
        os.unlink(os.path.join(self.home, "profiles", "default", "python", "plugins", "geobias"))

    def run(self, case, server):
        """Run one case through qgis_process.bin; its Outcome."""
        folders = [case.out]
        os.makedirs(case.out, exist_ok=True)
        before = snapshot(self.profile_data())
        if os.path.exists(self.popen_log):
            os.unlink(self.popen_log)
        connections = server.n_connections
        t0 = time.monotonic()
        proc = subprocess.run([QGIS_PROCESS, "run", case.alg, "--", *case.cli], env=self.env,
                              capture_output=True, text=True, timeout=600)  # fmt: skip
        outcome = Outcome(case, seconds=time.monotonic() - t0)
        text = proc.stdout + proc.stderr
        if proc.returncode != 0:
            errors = [line for line in text.splitlines() if line.startswith("ERROR:")]
            # QGIS prints the message after "ERROR:" and its continuation lines below it.
            start = text.find("ERROR:")
            outcome.error = text[start:] if errors else f"exit {proc.returncode}: {text[-500:]}"
        if "Traceback (most recent call last)" in text:
            outcome.traceback = text[text.index("Traceback (most recent call last)") :]
        outcome.written = written(before, snapshot(self.profile_data()))
        for folder in folders:
            outcome.written += [os.path.join(folder, f) for f in os.listdir(folder)]
            shutil.rmtree(folder, ignore_errors=True)
        if os.path.exists(self.popen_log):
            with open(self.popen_log) as f:
                outcome.children = f.read().split("\n")[:-1]
        outcome.connections = server.n_connections - connections
        return outcome


def sample_per_algorithm(cases):
    """One case per algorithm for qgis_process, of kinds QGIS's own checker cannot catch (a
    layer's content, a folder for a file, a read-only output...), as varied as the algorithms
    allow: each algorithm takes its least used kind so far, in a fixed order."""
    prefer = ("no_crs", "empty_layer", "read_only_output", "output_is_folder", "garbage",
              "no_such_field", "blank", "not_a_url", "zero_extent", "no_such_band",
              "wrong_geometry", "no_such_authcfg", "output_is_file", "nan")  # fmt: skip
    used = dict.fromkeys(prefer, 0)
    out = []
    for alg in sorted({c.alg for c in cases}):
        mine = [c for c in cases if c.alg == alg and c.kind in used and c.cli is not None]
        if not mine:
            continue
        case = min(mine, key=lambda c: (used[c.kind], prefer.index(c.kind)))
        used[case.kind] += 1
        out.append(case)
    return out
