"""GeoBS scores of rated layers: the per-point error in classes, one scores row and the local
scores of every point per model x topic x score kind, and the text table of the scores."""

import numpy as np
from osgeo import ogr
from qgis.core import QgsProcessingException

from ..core.stats import geobs
from ..core.stats.metrics import rank_error
from ..i18n_util import message_text, tr
from .features import as_float, numeric_field, read_columns
from .metrics_table import groups
from .progress import step_text

SCORE_FIELDS = {
    "model": ogr.OFTString,
    "topic": ogr.OFTString,
    "score_kind": ogr.OFTString,
    "error": ogr.OFTString,  # what was scored: rank_error, answered or the field's name
    "classes": ogr.OFTString,  # the class edges, e.g. "-0.25, 0, 0.25"
    "n_points": ogr.OFTInteger,
    "n_coded": ogr.OFTInteger,  # points with an error class
    "ssi": ogr.OFTReal,
    "ssi_n": ogr.OFTInteger,
    "sri_scale": ogr.OFTReal,
    "sri_scale_n": ogr.OFTInteger,
    "sri_lag": ogr.OFTReal,
    "sri_lag_n": ogr.OFTInteger,
    "sri_direction": ogr.OFTReal,
    "sri_direction_n": ogr.OFTInteger,
    "radius_km": ogr.OFTReal,
    "scale_deg": ogr.OFTReal,
    "lag_km": ogr.OFTReal,
    "n_sectors": ogr.OFTInteger,
    "min_points": ogr.OFTInteger,
    "k": ogr.OFTInteger,
    "max_centres": ogr.OFTInteger,
    "seed": ogr.OFTInteger,
    "reason": ogr.OFTString,
}
LOCAL_FIELDS = {
    "pid": ogr.OFTInteger64,
    "lat": ogr.OFTReal,
    "lon": ogr.OFTReal,
    "model": ogr.OFTString,
    "topic": ogr.OFTString,
    "error_class": ogr.OFTInteger,  # the class code of the point's error (odd, 0 is none)
    "ssi": ogr.OFTReal,  # local SSI in nats (evaluated centres only)
    "ssi_z": ogr.OFTReal,  # standardised unscaled Moran's I of the neighbourhood
    "ssi_neighbours": ogr.OFTInteger,
    "ssi_background": ogr.OFTInteger,
    "sri_scale": ogr.OFTReal,
    "sri_lag": ogr.OFTReal,
    "sri_direction": ogr.OFTReal,
    "sri_neighbours": ogr.OFTInteger,
}
# Columns of the text table and of the Results tab, with their labels.
SUMMARY = (("ssi", "SSI"), ("sri_scale", "SRI scale"), ("sri_lag", "SRI lag"),
           ("sri_direction", "SRI direction"))  # fmt: skip


def area_settings(lon, lat):
    """The GeoBS settings a layer's points are scored with wherever GeoBias shows their scores
    (the report, the dock's Results): the card's for points over the world, neighbourhoods
    scaled to a smaller area's points."""
    from .report_layout import points_box

    world = points_box(np.asarray(lon, float), np.asarray(lat, float))[1]
    return geobs.GeoBSSettings() if world else geobs.scaled_settings(lon, lat)


def error_codes(columns, error, truth_field="truth", field_name="", edges=()):
    """(class codes, edges text, reason) of one group's points: NaN where a point has no error
    (no score, no truth, a failed request). `error` is a definitions.GEOBS_ERRORS key."""
    n = len(columns["lon"])
    answered = as_float(columns["answered"]) == 1 if "answered" in columns else None
    failed = as_float(columns["failed"]) == 1 if "failed" in columns else np.zeros(n, bool)
    score = as_float(columns["score"]) if "score" in columns else np.full(n, np.nan)
    if error == "answered":
        hit = np.isfinite(score) if answered is None else answered
        hit = np.where(failed, np.nan, hit.astype(float))  # a failed request was not asked
        return geobs.hit_miss(hit), tr("answered = +1, not = −1"), ""
    if error == "field":
        values = as_float(columns[field_name])
        return geobs.bin_errors(values, edges), ", ".join(f"{e:g}" for e in edges), ""
    truth = as_float(columns[truth_field]) if truth_field in columns else np.full(n, np.nan)
    if not np.isfinite(truth).any():
        return np.full(n, np.nan), "", tr("no ground truth: no rank errors")
    scored = np.where(failed, np.nan, score)
    if answered is not None:
        scored = np.where(answered, scored, np.nan)
    codes = geobs.bin_errors(rank_error(scored, truth))
    return codes, ", ".join(f"{e:g}" for e in geobs.RANK_ERROR_EDGES), ""


def scores_row(model, topic, kind, error_name, edges_text, codes, result, settings, reason=""):
    """One row of the scores table from a core.geobs.GeoBSScores (None: not computed)."""
    row = {
        "model": model,
        "topic": topic,
        "score_kind": kind,
        "error": error_name,
        "classes": edges_text,
        "n_points": len(codes),
        "n_coded": int(np.isfinite(codes).sum()),
        "reason": reason,
    }
    row.update({k: v for k, v in settings.as_dict().items() if k in SCORE_FIELDS})
    if result is not None:
        summary = result.summary()
        row.update({k: summary.get(k) for k in SCORE_FIELDS if k in summary})
        why = [f"{name}: {summary[name + '_reason']}" for name, _ in SUMMARY
               if summary.get(name + "_reason")]  # fmt: skip
        row["reason"] = "; ".join([reason] + why if reason else why)
    return row


def local_columns(columns, pid, model, topic, codes, result):
    """The local scores layer's columns of one group (NaN where a point was not evaluated)."""
    n = len(codes)
    nan = np.full(n, np.nan)
    return {
        "pid": pid,
        "lat": np.asarray(columns["lat"], float),
        "lon": np.asarray(columns["lon"], float),
        "model": [model] * n,
        "topic": [topic] * n,
        "error_class": [None if not np.isfinite(c) else int(c) for c in codes],
        "ssi": nan if result is None else result.ssi.local,
        "ssi_z": nan if result is None else result.ssi.z,
        "ssi_neighbours": np.zeros(n, np.int64) if result is None else result.ssi.n_neighbours,
        "ssi_background": np.zeros(n, np.int64) if result is None else result.ssi.n_background,
        "sri_scale": nan if result is None else result.scale.local,
        "sri_lag": nan if result is None else result.lag.local,
        "sri_direction": nan if result is None else result.direction.local,
        "sri_neighbours": np.zeros(n, np.int64) if result is None else result.lag.n_neighbours,
    }


def layer_scores(layer, context, feedback, geobs_input, settings, truth_field="truth"):
    """Yield (scores row, local columns) for every (model, topic, score kind) of a rated
    layer; `geobs_input` is a parameters.GeoBSInput, `settings` a core GeoBSSettings."""
    error, field_name, edges = geobs_input.error, geobs_input.field_name, geobs_input.edges
    if field_name:  # checked whenever named, used with ERROR = field
        numeric_field(layer, field_name, tr("Error field (ERROR_FIELD)"))
    if error == "rank_error" and layer.fields().lookupField(truth_field) < 0:
        raise QgsProcessingException(
            tr("TRUTH_FIELD: layer {layer} has no field '{name}': rank errors need the ground "
               "truth ('Sample ground truth'), or choose another error.").format(
                layer=layer.name(), name=truth_field)
        )  # fmt: skip
    names = ["pid", "model", "topic", "score_kind", "language", "answered", "failed", "score",
             truth_field]  # fmt: skip
    columns = read_columns(layer, context, names + ([field_name] if field_name else []))
    if error == "rank_error" and not np.isfinite(as_float(columns[truth_field])).any():
        # A survey's other topics have the field without values: said in their rows.
        feedback.pushInfo(
            tr("Layer {layer} has no ground truth in '{name}': no rank errors to score.")
            .format(layer=layer.name(), name=truth_field)
        )  # fmt: skip
    n = len(columns["lon"])
    pids = as_float(columns["pid"]) if "pid" in columns else np.arange(n, dtype=float)
    for (model, topic, kind, language), idx in groups(columns).items():
        if feedback.isCanceled():
            return
        model = model or layer.name()
        if language:  # one row per prompt language, named as the layers are: model [code]
            model = f"{model} [{language}]"
        group = {k: ([v[i] for i in idx] if isinstance(v, list) else np.asarray(v)[idx])
                 for k, v in columns.items()}  # fmt: skip
        codes, edges_text, reason = error_codes(group, error, truth_field, field_name, edges)
        step_text(
            feedback,
            tr("GeoBS scores of {model} · {topic} ({n} points)…").format(
                model=model, topic=topic, n=len(idx)
            ),
        )
        result = None
        if np.isfinite(codes).any():
            lon, lat = group["lon"], group["lat"]
            try:
                result = geobs.geobs_scores(lon, lat, codes, settings)
            except ValueError as err:  # settings the scores refuse (a zero radius, ...)
                raise QgsProcessingException(message_text(err)) from err
        elif not reason:
            reason = tr("no point has an error class")
        name = field_name if error == "field" else error
        row = scores_row(model, topic, kind, name, edges_text, codes, result, settings, reason)
        pid = np.where(np.isfinite(pids[idx]), pids[idx], -1).astype(np.int64)
        yield row, local_columns(group, pid, model, topic, codes, result)


def format_scores(rows):
    """The scores as a plain text table (feedback, the dock's Results tab)."""

    def num(v):
        return "" if v is None or v != v else f"{v:.3f}"

    header = ("model", "topic", "error", "n") + tuple(label for _k, label in SUMMARY)
    table = [header]
    for r in rows:
        table.append((str(r.get("model") or ""), str(r.get("topic") or ""),
                      str(r.get("error") or ""), str(r.get("n_coded") or 0))
                     + tuple(num(r.get(k)) for k, _label in SUMMARY))  # fmt: skip
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    return "\n".join(
        "  ".join(cell.ljust(w) if i < 3 else cell.rjust(w)
                  for i, (cell, w) in enumerate(zip(row, widths)))
        for row in table
    )  # fmt: skip
