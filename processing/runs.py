"""The `runs` table: how a GeoPackage was made (template, parameters, model, host, versions, times).

Never holds an API key: endpoints go in through Endpoint.public_dict() and parameters are
filtered of anything that looks like a secret.
"""

import json
import os
import uuid
from datetime import datetime, timezone

from osgeo import ogr
from qgis.core import Qgis, QgsFeatureRequest, QgsProcessingException

from ..i18n_util import tr
from .gpkg import close, ogr_failure, ogr_ok

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
    # The tokens the answers of this run used (their `usage`) and their cost at the prices
    # given (PRICE_INPUT/PRICE_OUTPUT; NULL when no price was given: unknown, not free).
    "prompt_tokens": ogr.OFTInteger64,
    "completion_tokens": ogr.OFTInteger64,
    "cost": ogr.OFTReal,
    # What the answers showed the endpoint can do (core/engine/capabilities.py, JSON):
    # log-probabilities and their alternatives, system_fingerprint.
    "capabilities": ogr.OFTString,
    "plugin_version": ogr.OFTString,
    "qgis_version": ogr.OFTString,
    # What was measured (processing/run_facts.py): the study area as the user gave it, its area,
    # lon/lat extent ("x0 y0 x1 y1") and simplified outline (WKT, EPSG:4326); ground truth and
    # anchor as layer.field; the score kind the layer holds.
    "study_area": ogr.OFTString,
    "study_area_km2": ogr.OFTReal,
    "study_area_extent": ogr.OFTString,
    "study_area_wkt": ogr.OFTString,
    "truth": ogr.OFTString,
    "anchor": ogr.OFTString,
    "score_kind": ogr.OFTString,
    # What repeating the run needs, as JSON (run_manifest): versions and commit, the model file's
    # SHA-256, the server's build, seed, template checksum and language, constraint, score kind.
    "manifest": ogr.OFTString,
}
# The fields a run derived from another (ground truth added, units aggregated) keeps from it.
INHERITED = ("model", "provider", "endpoint_host", "endpoint", "template_name", "template_prefix",
             "template_body", "topics", "n_points", "study_area", "study_area_km2",
             "study_area_extent", "study_area_wkt", "truth", "anchor", "score_kind",
             "language", "manifest")  # fmt: skip
# Written only by runs with a prompt language other than English (one record per language,
# its template in that language); English-only runs keep the table as it was.
LANGUAGE_FIELD = {"language": ogr.OFTString}
SECRET_WORDS = ("key", "token", "secret", "password", "auth")


def now():
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


PLUGIN_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


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
        "prompt_tokens": getattr(stats, "prompt_tokens", 0),
        "completion_tokens": getattr(stats, "completion_tokens", 0),
        "cost": getattr(stats, "cost", None),
        "capabilities": getattr(stats, "capabilities", "") or None,
    }


def run_record(algorithm, parameters, started, endpoint=None, template=None, topics=(),
               stats=None, **extra):  # fmt: skip
    """One row of the runs table; `stats` (a core.survey.RunStats): what the run sent, and what
    its answers said served them (in the manifest)."""
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
    if stats is not None:
        row.update(stats_fields(stats))
    row.update(extra)
    row["manifest"] = json.dumps(run_manifest(row, public, template, stats), sort_keys=True)
    return row


def run_manifest(row, public, template, stats=None):
    """What repeating a run needs beyond its parameters (issue 33): GeoBias's version and commit,
    QGIS and Python, the model file (name, size, SHA-256), the server and its build, the seed,
    the prompt template's SHA-256 and language, constraint, score kind, whether the model name
    is a moving alias, and what the answers said served them (with_served)."""
    from ..core.runtime import manifest as m

    provider, model = public.get("provider", ""), public.get("model", "")
    text = getattr(template, "prefix", "") + "\n" + getattr(template, "body", "")
    manifest = {
        "geobias": {"version": plugin_version(), "commit": m.git_commit(PLUGIN_DIR)},
        "qgis": Qgis.QGIS_VERSION,
        "python": m.python_version(),
        "model": {"name": model, "provider": provider, "alias": m.alias_flag(provider, model),
                  **m.model_file_facts(provider, model)},
        "server": m.server_facts(provider) if public else {},
        "seed": public.get("seed"),
        "constraint": public.get("constraint"),
        "score_kind": row.get("score_kind"),
        "template": {"name": getattr(template, "name", ""),
                     "sha256": m.text_sha256(text) if template is not None else None,
                     "language": row.get("language") or "en"},
        "parameters": json.loads(row.get("parameters") or "{}"),
    }  # fmt: skip
    return with_served(manifest, stats, provider, model)


def with_served(manifest, stats, provider, model):
    """The manifest (a dict) with what the answers of `stats` (a RunStats; None: none) said
    served them: `served_model_id`, the `model` they reported (the configured name stays in
    model.name), and `system_fingerprint`, each one value, a list when several were seen (a
    fingerprint changed mid-run), None when none was; `capabilities` as the answers showed
    them. `alias` is judged by the reported ids when there are some: the snapshot that answered
    is what a re-run asks for (gpt-4o answered by gpt-4o-2024-08-06 is pinned)."""
    from ..core.runtime.manifest import alias_flag

    served = list(getattr(stats, "served_models", None) or [])
    prints = list(getattr(stats, "fingerprints", None) or [])
    manifest["served_model_id"] = _one_or_all(served)
    manifest["system_fingerprint"] = _one_or_all(prints)
    manifest["capabilities"] = json.loads(getattr(stats, "capabilities", "") or "{}")
    if served and isinstance(manifest.get("model"), dict):
        manifest["model"]["alias"] = any(alias_flag(provider, s) for s in served)
    return manifest


def _one_or_all(values):
    return None if not values else values[0] if len(values) == 1 else values


def run_manifest_sha(text):
    from ..core.runtime.manifest import text_sha256

    return text_sha256(text)


def language_records(record, languages, stats, template):
    """One runs-table row per prompt language of a run (the same run_id): its language, its
    template in that language and its own requests. An English-only run keeps one row without
    a language."""
    from ..core.survey.languages import get_language

    if list(languages) == ["en"]:
        row = dict(record, **stats_fields(stats["en"]))
        manifest = json.loads(record.get("manifest") or "{}")
        if manifest:
            row["manifest"] = _served_json(manifest, record, stats["en"])
        return [row]
    rows = []
    for code in languages:
        tpl = get_language(code).template(template) if template is not None else None
        row = dict(record, language=code, **stats_fields(stats[code]),
                   template_name=getattr(tpl, "name", ""),
                   template_prefix=getattr(tpl, "prefix", ""),
                   template_body=getattr(tpl, "body", ""))  # fmt: skip
        manifest = json.loads(record.get("manifest") or "{}")
        if manifest:  # this language's template and answers
            text = getattr(tpl, "prefix", "") + "\n" + getattr(tpl, "body", "")
            manifest["template"] = {"name": getattr(tpl, "name", ""), "language": code,
                                    "sha256": run_manifest_sha(text) if tpl else None}  # fmt: skip
            row["manifest"] = _served_json(manifest, record, stats[code])
        rows.append(row)
    return rows


def _served_json(manifest, record, stats):
    with_served(manifest, stats, record.get("provider", ""), record.get("model", ""))
    return json.dumps(manifest, sort_keys=True)


def append_runs(path, rows):
    """Append rows to the `runs` table of a GeoPackage, creating it if needed."""
    ds = (
        ogr.Open(path, 1)
        if os.path.exists(path)
        else ogr.GetDriverByName("GPKG").CreateDataSource(path)
    )
    if ds is None:
        raise QgsProcessingException(tr("Cannot open {path} for writing.").format(path=path))
    layer = ds.GetLayerByName("runs")
    if layer is None:
        layer = ds.CreateLayer("runs", None, ogr.wkbNone)
    if layer is None:
        raise QgsProcessingException(ogr_failure("runs"))
    fields = dict(RUN_FIELDS)
    if any(row.get("language") for row in rows):
        fields.update(LANGUAGE_FIELD)
    for name, kind in fields.items():  # a table from an older version gains new fields
        if layer.GetLayerDefn().GetFieldIndex(name) < 0:
            ogr_ok(layer.CreateField(ogr.FieldDefn(name, kind)), "runs")
    defn = layer.GetLayerDefn()
    for row in rows:
        feat = ogr.Feature(defn)
        for name in fields:
            value = row.get(name)
            if value is not None and defn.GetFieldIndex(name) >= 0:
                feat.SetField(name, value)
        ogr_ok(layer.CreateFeature(feat), "runs")
    layer = defn = None
    close(ds, "runs")


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


def newest_run(path, model=None, topic=None, with_facts=False, language=None, strict=False):
    """The newest row of a GeoPackage's runs table for this model and topic (rows naming no
    model or topics match any, unless `strict`; a row of several models, "a; b", matches each);
    with `with_facts`, only rows that record a study area; with a `language` (a code, or "" for
    a run in English alone), only that language's rows: a run in several prompt languages
    writes a row per language."""
    best = None
    for row in read_runs(path):
        if language is not None and (row.get("language") or "") != language:
            continue
        try:
            topics = json.loads(row.get("topics") or "[]")
        except ValueError:
            topics = []
        models = [m.strip() for m in str(row.get("model") or "").split(";") if m.strip()]
        if model and (models or strict) and model not in models:
            continue
        if topic and (topics or strict) and topic not in topics:
            continue
        if with_facts and not row.get("study_area"):
            continue
        if best is None or str(row.get("started") or "") >= str(best.get("started") or ""):
            best = row
    return best


def run_info(source, model=None, topic=None, language=None):
    """The newest run of this model and topic (and prompt language, see newest_run) in a
    layer's GeoPackage or, for a file written beside others (a dock run's folder: ratings,
    ground truth, metrics), in the GeoPackages of its folder; None when there is none
    (imported ratings, another tool's file)."""
    path = str(source).split("|")[0]
    if not path.lower().endswith(".gpkg") or not os.path.exists(path):
        return None
    run = newest_run(path, model, topic, language=language)
    if run is not None or not (model and topic):
        return run
    # Another file's run only when it names this model and topic: a folder may hold others'.
    folder = os.path.dirname(os.path.abspath(path))
    for name in sorted(os.listdir(folder)):
        other = os.path.join(folder, name)
        if name.lower().endswith(".gpkg") and other != os.path.abspath(path):
            run = newest_run(other, model, topic, language=language, strict=True)
            if run is not None:
                return run
    return None


def layer_language(layer):
    """A rated layer's prompt language: the code in its `language` field (rated layers hold
    one), None for a layer without one (English alone, units, imported ratings)."""
    if layer is None or layer.fields().lookupField("language") < 0:
        return None
    request = QgsFeatureRequest().setLimit(1).setFlags(QgsFeatureRequest.Flag.NoGeometry)
    for feature in layer.getFeatures(request.setSubsetOfAttributes(["language"], layer.fields())):
        value = feature["language"]
        return value if isinstance(value, str) and value else None
    return None


def derived_record(source, algorithm, parameters, started, model=None, topic=None,
                   language=None, **changes):  # fmt: skip
    """A runs row for an output made from a rated layer (ground truth added, units
    aggregated): the facts of the run that rated it (its model, endpoint, prompt, study area)
    with this algorithm's own, so the output says what it measured on its own. Its counts of
    requests are its own: none. `language`: the rated layer's prompt language (its row of a
    run in several languages, whose prompt it keeps); "" or None for none."""
    parent = run_info(source, model, topic, language=language or None) or {}
    row = run_record(algorithm, parameters, started)
    row.update({k: parent[k] for k in INHERITED if parent.get(k) not in (None, "")})
    if language:
        row["language"] = language
    if model and not row.get("model"):
        row["model"] = model
    if topic and row.get("topics") in (None, "", "[]"):
        row["topics"] = json.dumps([topic])
    row.update({k: v for k, v in changes.items() if v is not None})
    return row


def record_derived(dest, source, algorithm, parameters, started, model=None, topic=None,
                   language=None, **changes):  # fmt: skip
    """Append to a GeoPackage output (a sink's destination) the runs row of an output made
    from a rated layer (derived_record); other formats have no runs table. Called once the
    output's styles are saved: QGIS 3.22 reads nothing from a layer object whose file another
    connection changed meanwhile."""
    path = str(dest).split("|")[0]
    if not path.lower().endswith(".gpkg") or not os.path.isfile(path):
        return None
    row = derived_record(source, algorithm, parameters, started, model, topic, language,
                         **changes)  # fmt: skip
    append_runs(path, [row])
    return row
