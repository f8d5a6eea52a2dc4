"""Comparisons across models, topics and prompt languages (paper 1, §4.1 tables, §4.3-4.4 mean
rank maps).

A comparison starts from one metrics record per model x topic (what `metrics.summarize` gives
one rated layer) and from each model's scores at its points. It pivots the records into the
paper's tables (topics down, models across, with the "Mean (Across Models)" column and the
"Mean (Across Topics)" row) and puts the models' scores on common points for the mean rank and
mean rank error maps. Across prompt languages, `by_language` pivots a metric with the languages
as columns, and `rank_spread` says per point how far its rank moves from one language to
another. Plain arrays and dataclasses; no QGIS.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, replace

import numpy as np

from ..messages import Message
from ..stats.metrics import mean_rank, mean_rank_error

# The pivoted metrics, in the order of the paper's tables, with their titles. r2_truth is
# Pearson's r² with the ground truth (Appendix A.4), next to Spearman's rho.
PIVOT_METRICS: dict[str, str] = {
    "rho_truth": "Spearman's rho with the ground truth",
    "r2_truth": "Pearson's r² with the ground truth",
    "rho_anchor": "Spearman's rho with the anchor",
    "bias_score": "Bias score B = rho(anchor) · MAD · a²",
    "mad": "Mean absolute deviation (MAD) of the scores",
    "answer_rate": "Answer rate a",
    "gini": "Gini coefficient of the scores",
}
MEAN_ACROSS_MODELS = "Mean (across models)"
MEAN_ACROSS_TOPICS = "Mean (across topics)"
# Points of different layers are the same point when their coordinates agree to 1e-6 degrees
# (about 0.1 m): imported tables lose rows a model did not answer, so row numbers do not match.
COORD_DECIMALS = 6


def _nanmean(x, axis=None):
    """Mean ignoring NaN; NaN (no warning) where there is nothing to average."""
    x = np.asarray(x, float)
    ok = ~np.isnan(x)
    count = ok.sum(axis=axis)
    total = np.where(ok, x, 0.0).sum(axis=axis)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, total / np.maximum(count, 1), np.nan)


@dataclass(frozen=True)
class Pivot:
    """One metric as a topic x model table; NaN where a model has no value for a topic."""

    metric: str
    topics: tuple
    models: tuple
    values: np.ndarray  # shape (len(topics), len(models))
    label: str = ""  # the title, when not the metric's own
    columns: str = "models"  # what the columns are, for the mean column's name

    @property
    def title(self) -> str:
        return self.label or PIVOT_METRICS.get(self.metric, self.metric)

    def mean_across_models(self) -> np.ndarray:
        """Per topic, the mean over the models that have a value (the paper's last column)."""
        return _nanmean(self.values, axis=1)

    def mean_across_topics(self) -> np.ndarray:
        """Per model, the mean over its topics (the paper's "Mean (Across Topics)" row)."""
        return _nanmean(self.values, axis=0)

    def overall(self) -> float:
        """The mean of every value (the corner cell)."""
        return float(_nanmean(self.values.ravel()))

    def table(self) -> tuple[list[str], list[list]]:
        """(header, rows): a row per topic plus the mean row; the mean column last."""
        mean = MEAN_ACROSS_MODELS if self.columns == "models" else f"Mean (across {self.columns})"
        header = ["topic", *self.models, mean]
        by_topic = self.mean_across_models()
        rows = [
            [topic, *self.values[i].tolist(), float(by_topic[i])]
            for i, topic in enumerate(self.topics)
        ]
        rows.append([MEAN_ACROSS_TOPICS, *self.mean_across_topics().tolist(), self.overall()])
        return header, rows


def pivot(records, metric: str, models=None, topics=None) -> Pivot:
    """The `metric` of records (mappings with "model", "topic" and the metric) as a Pivot.

    `models` and `topics` fix the columns and rows (default: in order of first appearance). A
    model x topic given twice is an error: the comparison would silently keep one of them.
    """
    records = list(records)
    models = tuple(models or dict.fromkeys(str(r["model"]) for r in records))
    topics = tuple(topics or dict.fromkeys(str(r["topic"]) for r in records))
    col = {m: j for j, m in enumerate(models)}
    row = {t: i for i, t in enumerate(topics)}
    values = np.full((len(topics), len(models)), np.nan)
    seen = set()
    for r in records:
        m, t = str(r["model"]), str(r["topic"])
        if m not in col or t not in row:
            continue
        if (m, t) in seen:
            raise ValueError(Message("compare.twice", model=m, topic=t))
        seen.add((m, t))
        v = r.get(metric)
        values[row[t], col[m]] = np.nan if v is None else float(v)
    return Pivot(metric, topics, models, values)


def pivots(records, metrics=tuple(PIVOT_METRICS), models=None, topics=None) -> list[Pivot]:
    """One Pivot per metric over the same models and topics."""
    records = list(records)
    return [pivot(records, m, models, topics) for m in metrics]


def _cell(v, digits: int) -> str:
    return "" if v is None or v != v else f"{v:.{digits}f}"


def to_csv(p: Pivot) -> str:
    """The pivot as CSV, full precision, empty cells for missing values."""
    header, rows = p.table()
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for r in rows:
        writer.writerow([r[0], *("" if v != v else repr(float(v)) for v in r[1:])])
    return out.getvalue()


def to_markdown(p: Pivot, digits: int = 2) -> str:
    """The pivot as a Markdown table under its title, `digits` decimals as the paper prints."""
    header, rows = p.table()
    header = ["Topic", *header[1:]]
    lines = [f"**{p.title}**", "", "| " + " | ".join(header) + " |"]
    lines.append("|" + "|".join([" --- "] + [" ---: "] * (len(header) - 1)) + "|")
    for r in rows:
        lines.append("| " + " | ".join([str(r[0]), *(_cell(v, digits) for v in r[1:])]) + " |")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Scores:
    """One model's scores on one topic at its points (NaN = no score; truth NaN = none)."""

    model: str
    lon: np.ndarray
    lat: np.ndarray
    score: np.ndarray
    truth: np.ndarray | None = None


@dataclass(frozen=True)
class MeanRanks:
    """Per point, across models: mean rank, mean rank error and how many models scored it."""

    models: tuple
    lon: np.ndarray
    lat: np.ndarray
    mean_rank: np.ndarray
    mean_rank_error: np.ndarray  # NaN everywhere without a ground truth
    n_models: np.ndarray
    truth: np.ndarray


def align(scores: list[Scores]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(lon, lat, score matrix models x points, truth) on the union of the models' points.

    Points are in the order they first appear. A point a model did not rate gets NaN in its
    row; the truth of a point is the first finite one among the models (a survey's models
    share it).
    """
    index: dict[tuple[float, float], int] = {}
    positions, coords = [], []
    for s in scores:
        lon, lat = np.asarray(s.lon, float), np.asarray(s.lat, float)
        keys = zip(np.round(lon, COORD_DECIMALS).tolist(), np.round(lat, COORD_DECIMALS).tolist())
        pos = np.array([index.setdefault(k, len(index)) for k in keys], dtype=np.int64)
        new = pos >= sum(len(c) for c in coords)  # first seen here: keep these coordinates
        coords.append(np.column_stack([lon, lat])[new][np.unique(pos[new], return_index=True)[1]])
        positions.append(pos)
    coords = np.vstack(coords) if coords else np.empty((0, 2))
    matrix = np.full((len(scores), len(index)), np.nan)
    truth = np.full(len(index), np.nan)
    for k, (s, pos) in enumerate(zip(scores, positions)):
        matrix[k, pos] = np.asarray(s.score, float)
        if s.truth is not None:
            t = np.asarray(s.truth, float)
            fill = np.isnan(truth[pos]) & np.isfinite(t)
            truth[pos[fill]] = t[fill]
    return coords[:, 0], coords[:, 1], matrix, truth


def mean_ranks(scores: list[Scores]) -> MeanRanks:
    """Mean rank and mean rank error across the models (each model ranked on its own points)."""
    if not scores:
        raise ValueError(Message("compare.none"))
    lon, lat, matrix, truth = align(scores)
    ranks = mean_rank(list(matrix))
    errors = mean_rank_error(list(matrix), truth)
    n_models = (~np.isnan(matrix)).sum(axis=0)
    models = tuple(s.model for s in scores)
    return MeanRanks(models, lon, lat, ranks, errors, n_models, truth)


def change_from(p: Pivot, base: str) -> Pivot:
    """Each column minus the `base` column (Appendix A.3: the change from the whole prompt)."""
    if base not in p.models:
        raise ValueError(Message("compare.no_base", base=base))
    ref = p.values[:, [p.models.index(base)]]
    return replace(p, metric=f"{p.metric}_change", values=p.values - ref, label="")


def by_language(records, metric: str, languages=None) -> Pivot:
    """The `metric` of records (mappings with "model", "topic", "language") with the languages
    as columns: a row per topic, or per "topic · model" when there are several models."""
    records = list(records)
    several = len({str(r["model"]) for r in records}) > 1
    relabelled = [
        dict(r, model=str(r["language"]),
             topic=f"{r['topic']} · {r['model']}" if several else str(r["topic"]))
        for r in records
    ]  # fmt: skip
    p = pivot(relabelled, metric, models=languages)
    return replace(p, columns="languages")


@dataclass(frozen=True)
class RankSpread:
    """Per point, how its rank differs across prompt languages.

    `ranks` holds, per language (rows, in `languages` order), the point's mean rank across the
    models asked in that language (NaN where that language has no rank for it); `spread` is the
    largest minus the smallest of them, `sd` their standard deviation, both NaN where fewer
    than two languages rank the point.
    """

    languages: tuple
    lon: np.ndarray
    lat: np.ndarray
    ranks: np.ndarray  # shape (len(languages), n points)
    n_languages: np.ndarray
    spread: np.ndarray
    sd: np.ndarray


def rank_spread(scores_by_language: dict) -> RankSpread:
    """The spread of each point's rank across languages, from {language: [Scores, ...]} (each
    language's models on one topic). A language's rank of a point is its mean rank across that
    language's models (`mean_ranks`), so every language is ranked on its own points."""
    if len(scores_by_language) < 2:
        raise ValueError("a rank spread needs at least two languages")
    per = []
    for code, scores in scores_by_language.items():
        m = mean_ranks(scores)
        per.append(Scores(str(code), m.lon, m.lat, m.mean_rank))
    lon, lat, ranks, _truth = align(per)
    have = ~np.isnan(ranks)
    n = have.sum(axis=0)
    with np.errstate(invalid="ignore"):
        hi = np.where(have, ranks, -np.inf).max(axis=0)
        lo = np.where(have, ranks, np.inf).min(axis=0)
        spread = np.where(n >= 2, hi - lo, np.nan)
        mean = _nanmean(ranks, axis=0)
        var = _nanmean((ranks - mean) ** 2, axis=0)
        sd = np.where(n >= 2, np.sqrt(var), np.nan)
    return RankSpread(tuple(scores_by_language), lon, lat, ranks, n, spread, sd)
