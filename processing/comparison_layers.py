"""Comparisons across models, topics and prompt languages: survey layers, pivot tables,
mean-rank layers and the rank spread across languages."""

import os

import numpy as np
from osgeo import ogr
from qgis.core import QgsProcessingException, QgsVectorLayer

from ..core.survey.comparisons import to_csv
from ..i18n_util import tr
from .gpkg import safe_name, table_name, write_points_layer
from .metrics_table import METRIC_FIELDS
from .styles import style_file

# The long table: one row per model x topic, the single-layer metrics plus the compared label.
COMPARE_FIELDS = {"label": ogr.OFTString, **METRIC_FIELDS, "r2_truth": ogr.OFTReal}
MEAN_RANK_FIELDS = {
    "lat": ogr.OFTReal,
    "lon": ogr.OFTReal,
    "model": ogr.OFTString,  # "mean of <models>": the layer's metadata names them
    "topic": ogr.OFTString,
    "n_models": ogr.OFTInteger,  # models that scored this point
    "mean_rank": ogr.OFTReal,
    "truth": ogr.OFTReal,
    "mean_rank_error": ogr.OFTReal,
}
RATED_NEEDS = ("model", "topic")  # fields a survey GeoPackage's rated layers have
SPREAD_FIXED = {
    "lat": ogr.OFTReal,
    "lon": ogr.OFTReal,
    "topic": ogr.OFTString,
    "n_languages": ogr.OFTInteger,  # languages that ranked this point
    "rank_spread": ogr.OFTReal,  # the largest minus the smallest of the languages' ranks
    "rank_sd": ogr.OFTReal,  # their standard deviation
}


def survey_layers(path, score_field):
    """The rated point layers of a survey GeoPackage (those with model, topic and the score)."""
    try:
        ds = ogr.Open(path)
    except RuntimeError:  # GDAL with exceptions on (QGIS 3.40+): the same as None
        ds = None
    if ds is None:
        raise QgsProcessingException(
            tr("Survey GeoPackage (SURVEY): {path} cannot be opened.").format(path=path)
        )
    names = []
    for i in range(ds.GetLayerCount()):
        lyr = ds.GetLayerByIndex(i)
        defn = lyr.GetLayerDefn()
        fields = {defn.GetFieldDefn(k).GetName() for k in range(defn.GetFieldCount())}
        is_point = ogr.GT_Flatten(lyr.GetGeomType()) == ogr.wkbPoint
        if is_point and fields.issuperset((*RATED_NEEDS, score_field)):
            names.append(lyr.GetName())
    ds = None
    layers = [QgsVectorLayer(f"{path}|layername={name}", name, "ogr") for name in names]
    return [lyr for lyr in layers if lyr.isValid()]


def labelled(rows):
    """Column labels: the model, with its score kind when a model comes in several kinds."""
    kinds = {}
    for r in rows:
        kinds.setdefault(r["model"], set()).add(r["score_kind"])
    for r in rows:
        several = len(kinds[r["model"]]) > 1
        r["label"] = f"{r['model']} ({r['score_kind']})" if several else r["model"]
    return rows


def mixed_score_warning(rows):
    """A warning when the compared layers mix sampled expected values with log-probability
    ones ("" otherwise): both estimate the mean first digit, the sampled one with its own
    sampling noise (its score_se), so a difference between them is partly that noise."""
    kinds = {}
    for r in rows:
        kinds.setdefault(r.get("score_kind", ""), []).append(r.get("label") or r["model"])
    if "sampled" not in kinds or "expected" not in kinds:
        return ""
    return tr(
        "These layers mix sampled expected values ({sampled}) with expected values from "
        "log-probabilities ({expected}): both estimate the mean first digit, but a sampled one "
        "carries sampling noise (its score_se), so part of a difference between them is that "
        "noise; compare like with like where you can."
    ).format(sampled=", ".join(dict.fromkeys(kinds["sampled"])),
             expected=", ".join(dict.fromkeys(kinds["expected"])))  # fmt: skip


def pivot_fields(p):
    """A pivot table's schema: topic, a column per model (or variant), the mean column."""
    fields = {"topic": ogr.OFTString}
    fields.update({m: ogr.OFTReal for m in p.models})
    fields[f"mean_across_{p.columns}"] = ogr.OFTReal
    return fields


def pivot_rows(p):
    """A pivot's rows (the mean across topics last) as dicts for write_table."""
    _header, rows = p.table()
    names = list(pivot_fields(p))
    return [dict(zip(names, r)) for r in rows]


def write_mean_layer(path, topic, m, language=""):
    """The mean rank (and rank error) layer of one topic (in one prompt language, when given),
    styled as the single-model layers."""
    n = len(m.lon)
    columns = {
        "lat": m.lat,
        "lon": m.lon,
        "model": [tr("mean of {models}").format(models=", ".join(m.models))] * n,
        "topic": [topic] * n,
        "n_models": m.n_models.astype(np.int64),
        "mean_rank": m.mean_rank,
        "truth": m.truth,
        "mean_rank_error": m.mean_rank_error,
    }
    fields = MEAN_RANK_FIELDS
    if language:
        columns["language"] = [language] * n
        fields = dict(MEAN_RANK_FIELDS, language=ogr.OFTString)
    name = table_name("mean_rank", topic, language)
    uri = write_points_layer(path, name, columns, fields)
    style_file(uri, "mean_rank_error", values=columns)
    return uri


def write_markdown_beside(path, markdown):
    """The tables as Markdown in a file beside the GeoPackage `path` (<name>.md); its path."""
    md = os.path.splitext(path)[0] + ".md"
    with open(md, "w", encoding="utf-8") as f:
        f.write(markdown if markdown.endswith("\n") else markdown + "\n")
    return md


def write_spread_layer(path, topic, spread):
    """The spread of each point's rank across prompt languages on one topic
    (core/survey/comparisons.py RankSpread): where the language changes the answer most; each
    language's rank too."""
    n = len(spread.lon)
    columns = {
        "lat": spread.lat,
        "lon": spread.lon,
        "topic": [topic] * n,
        "n_languages": spread.n_languages.astype(np.int64),
        "rank_spread": spread.spread,
        "rank_sd": spread.sd,
    }
    fields = dict(SPREAD_FIXED)
    for code, ranks in zip(spread.languages, spread.ranks):
        name = f"rank_{safe_name(code)}"
        columns[name] = ranks
        fields[name] = ogr.OFTReal
    uri = write_points_layer(path, table_name("rank_spread", topic), columns, fields)
    style_file(uri, "rank_spread", values=columns)
    return uri


def write_folder(folder, tables, markdown, names=None):
    """<metric>.csv per pivot (or the given file names, without .csv) and comparison.md with
    every table."""
    os.makedirs(folder, exist_ok=True)
    for k, p in enumerate(tables):
        stem = names[k] if names else p.metric
        with open(os.path.join(folder, f"{stem}.csv"), "w", encoding="utf-8") as f:
            f.write(to_csv(p))
    with open(os.path.join(folder, "comparison.md"), "w", encoding="utf-8") as f:
        f.write(markdown)
