"""The `runs` table: how a GeoPackage was made (template, parameters, model, host, versions, times).

Never holds an API key: endpoints go in through Endpoint.public_dict() and parameters are
filtered of anything that looks like a secret.
"""

import json
import os
import uuid
from datetime import datetime, timezone

from osgeo import ogr
from qgis.core import Qgis

RUN_FIELDS = {
    "run_id": ogr.OFTString,
    "algorithm": ogr.OFTString,
    "started": ogr.OFTString,
    "finished": ogr.OFTString,
    "model": ogr.OFTString,
    "provider": ogr.OFTString,
    "endpoint_host": ogr.OFTString,
    "endpoint": ogr.OFTString,
    "template_name": ogr.OFTString,
    "template_prefix": ogr.OFTString,
    "template_body": ogr.OFTString,
    "topics": ogr.OFTString,
    "parameters": ogr.OFTString,
    "n_points": ogr.OFTInteger64,
    # Requests sent to the endpoint in this run (each once, however often retried), answers
    # taken from the cache, requests that failed after retries; status says if any failed.
    "n_requests": ogr.OFTInteger64,
    "n_cached": ogr.OFTInteger64,
    "n_failed": ogr.OFTInteger64,
    "status": ogr.OFTString,
    "plugin_version": ogr.OFTString,
    "qgis_version": ogr.OFTString,
    # What was measured (processing/facts.py): the study area as the user gave it, its area,
    # lon/lat extent ("x0 y0 x1 y1") and simplified outline (WKT, EPSG:4326); ground truth and
    # anchor as layer.field; the score kind the layer holds.
    "study_area": ogr.OFTString,
    "study_area_km2": ogr.OFTReal,
    "study_area_extent": ogr.OFTString,
    "study_area_wkt": ogr.OFTString,
    "truth": ogr.OFTString,
    "anchor": ogr.OFTString,
    "score_kind": ogr.OFTString,
}
# The fields a run derived from another (ground truth added, units aggregated) keeps from it.
INHERITED = ("model", "provider", "endpoint_host", "endpoint", "template_name", "template_prefix",
             "template_body", "topics", "n_points", "study_area", "study_area_km2",
             "study_area_extent", "study_area_wkt", "truth", "anchor", "score_kind")  # fmt: skip
SECRET_WORDS = ("key", "token", "secret", "password", "auth")


def now():
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def plugin_version():
    path = os.path.join(os.path.dirname(os.path.dirname(__file__)), "metadata.txt")
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.startswith("version="):
                    return line.split("=", 1)[1].strip()
    except OSError:
        pass
    return ""


def public_parameters(parameters):
    """Parameters as JSON-safe values, without anything that could be a credential."""
    out = {}
    for name, value in parameters.items():
        if any(word in name.lower() for word in SECRET_WORDS):
            continue
        if isinstance(value, (str, int, float, bool)) or value is None:
            out[name] = value
        elif isinstance(value, (list, tuple)):
            out[name] = [v if isinstance(v, (str, int, float, bool)) else str(v) for v in value]
        else:
            out[name] = str(value)
    return out


def stats_fields(stats):
    """runs-table fields from a core.survey.RunStats: what was sent, cached and lost."""
    status = "complete"
    if stats.n_failed:
        what = "request failed" if stats.n_failed == 1 else "requests failed"
        status = f"incomplete: {stats.n_failed} {what} (not asked); run again to retry"
    return {
        "n_requests": stats.n_requests,
        "n_cached": stats.n_cached,
        "n_failed": stats.n_failed,
        "status": status,
    }


def run_record(algorithm, parameters, started, endpoint=None, template=None, topics=(), **extra):
    """One row of the runs table."""
    public = endpoint.public_dict() if endpoint is not None else {}
    public.pop("api_key", None)
    row = {
        "run_id": uuid.uuid4().hex,
        "algorithm": algorithm,
        "started": started,
        "finished": now(),
        "model": public.get("model", ""),
        "provider": public.get("provider", ""),
        "endpoint_host": endpoint.host() if endpoint is not None else "",
        "endpoint": json.dumps(public, sort_keys=True) if public else "",
        "template_name": getattr(template, "name", ""),
        "template_prefix": getattr(template, "prefix", ""),
        "template_body": getattr(template, "body", ""),
        "topics": json.dumps(list(topics)),
        "parameters": json.dumps(public_parameters(parameters), sort_keys=True),
        "plugin_version": plugin_version(),
        "qgis_version": Qgis.QGIS_VERSION,
        # A run that asks no model (sampling, ground truth, aggregation) sent nothing.
        "n_requests": 0,
        "n_cached": 0,
        "n_failed": 0,
    }
    row.update(extra)
    return row


def append_runs(path, rows):
    """Append rows to the `runs` table of a GeoPackage, creating it if needed."""
    ds = (
        ogr.Open(path, 1)
        if os.path.exists(path)
        else ogr.GetDriverByName("GPKG").CreateDataSource(path)
    )
    layer = ds.GetLayerByName("runs")
    if layer is None:
        layer = ds.CreateLayer("runs", None, ogr.wkbNone)
    for name, kind in RUN_FIELDS.items():  # a table from an older version gains new fields
        if layer.GetLayerDefn().GetFieldIndex(name) < 0:
            layer.CreateField(ogr.FieldDefn(name, kind))
    defn = layer.GetLayerDefn()
    for row in rows:
        feat = ogr.Feature(defn)
        for name in RUN_FIELDS:
            value = row.get(name)
            if value is not None and defn.GetFieldIndex(name) >= 0:
                feat.SetField(name, value)
        layer.CreateFeature(feat)
    ds = None


def read_runs(path):
    """The rows of a GeoPackage's `runs` table as dicts, oldest first ([] without one).

    Read through OGR, as QGIS reads the file: a second SQLite connection closing beside QGIS's
    own (write-ahead log) left QGIS's reads failing with "unable to open database file".
    """
    if not str(path).lower().endswith(".gpkg") or not os.path.isfile(path):
        return []
    ds = ogr.Open(path)
    table = ds.GetLayerByName("runs") if ds is not None else None
    if table is None:
        return []
    defn = table.GetLayerDefn()
    names = [defn.GetFieldDefn(i).GetName() for i in range(defn.GetFieldCount())]
    rows = [{n: feat.GetField(n) for n in names} for feat in table]
    table = ds = None
    return rows


def newest_run(path, model=None, topic=None, with_facts=False):
    """The newest row of a GeoPackage's runs table for this model and topic (rows naming no
    model or topics match any); with `with_facts`, only rows that record a study area."""
    best = None
    for row in read_runs(path):
        try:
            topics = json.loads(row.get("topics") or "[]")
        except ValueError:
            topics = []
        if model and row.get("model") not in (model, None, ""):
            continue
        if topic and topics and topic not in topics:
            continue
        if with_facts and not row.get("study_area"):
            continue
        if best is None or str(row.get("started") or "") >= str(best.get("started") or ""):
            best = row
    return best


def run_info(source, model=None, topic=None):
    """The newest run of this model and topic in a layer's GeoPackage or, for a file written
    beside others (a dock run's folder: ratings, ground truth, metrics), in the GeoPackages of
    its folder; None when there is none (imported ratings, another tool's file)."""
    path = str(source).split("|")[0]
    if not path.lower().endswith(".gpkg") or not os.path.exists(path):
        return None
    run = newest_run(path, model, topic)
    if run is not None:
        return run
    folder = os.path.dirname(os.path.abspath(path))
    for name in sorted(os.listdir(folder)):
        other = os.path.join(folder, name)
        if name.lower().endswith(".gpkg") and other != os.path.abspath(path):
            run = newest_run(other, model, topic)
            if run is not None:
                return run
    return None


def derived_record(source, algorithm, parameters, started, model=None, topic=None, **changes):
    """A runs row for an output made from a rated layer (ground truth added, units
    aggregated): the facts of the run that rated it (its model, endpoint, prompt, study area)
    with this algorithm's own, so the output says what it measured on its own. Its counts of
    requests are its own: none."""
    parent = run_info(source, model, topic) or {}
    row = run_record(algorithm, parameters, started)
    row.update({k: parent[k] for k in INHERITED if parent.get(k) not in (None, "")})
    if model and not row.get("model"):
        row["model"] = model
    if topic and row.get("topics") in (None, "", "[]"):
        row["topics"] = json.dumps([topic])
    row.update({k: v for k, v in changes.items() if v is not None})
    return row


def record_derived(dest, source, algorithm, parameters, started, model=None, topic=None,
                   **changes):  # fmt: skip
    """Append to a GeoPackage output (a sink's destination) the runs row of an output made
    from a rated layer (derived_record); other formats have no runs table. Called once the
    output's styles are saved: QGIS 3.22 reads nothing from a layer object whose file another
    connection changed meanwhile."""
    path = str(dest).split("|")[0]
    if not path.lower().endswith(".gpkg") or not os.path.isfile(path):
        return None
    row = derived_record(source, algorithm, parameters, started, model, topic, **changes)
    append_runs(path, [row])
    return row
