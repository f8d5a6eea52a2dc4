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
}
# Written only by runs with a prompt language other than English (one record per language,
# its template in that language); English-only runs keep the table as it was.
LANGUAGE_FIELD = {"language": ogr.OFTString}
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
    }
    row.update(extra)
    return row


def language_records(record, languages, stats, template):
    """One runs-table row per prompt language of a run (the same run_id): its language, its
    template in that language and its own requests. An English-only run keeps one row without
    a language."""
    from ..core.languages import get_language

    if list(languages) == ["en"]:
        return [dict(record, **stats_fields(stats["en"]))]
    rows = []
    for code in languages:
        tpl = get_language(code).template(template) if template is not None else None
        rows.append(dict(record, language=code, **stats_fields(stats[code]),
                         template_name=getattr(tpl, "name", ""),
                         template_prefix=getattr(tpl, "prefix", ""),
                         template_body=getattr(tpl, "body", "")))  # fmt: skip
    return rows


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
    fields = dict(RUN_FIELDS)
    if any(row.get("language") for row in rows):
        fields.update(LANGUAGE_FIELD)
    for name, kind in fields.items():  # a table from an older version gains new fields
        if layer.GetLayerDefn().GetFieldIndex(name) < 0:
            layer.CreateField(ogr.FieldDefn(name, kind))
    defn = layer.GetLayerDefn()
    for row in rows:
        feat = ogr.Feature(defn)
        for name in fields:
            value = row.get(name)
            if value is not None and defn.GetFieldIndex(name) >= 0:
                feat.SetField(name, value)
        layer.CreateFeature(feat)
    ds = None
