"""Survey results in the dock: a sortable metrics table and a small rating/rank-error plot."""

import math

import numpy as np
from qgis.core import QgsFeatureRequest
from qgis.PyQt.QtCore import QAbstractTableModel, QModelIndex, QRectF, QSize, Qt
from qgis.PyQt.QtGui import QBrush, QColor, QPainter
from qgis.PyQt.QtWidgets import QSizePolicy, QWidget

from ..i18n_util import tr
from ..processing.plots import PlotStyle, paint_bias_plot

# Column key, header, and the names a metrics layer/table may use for it.
COLUMNS = (
    ("model", "Model", ("model",)),
    ("topic", "Topic", ("topic",)),
    ("n", "n", ("n_points", "n", "points")),
    ("rho", "ρ truth", ("rho", "truth_rho", "spearman", "rho_truth")),
    ("rho_ci", "95% CI", ()),
    ("mad", "MAD", ("mad",)),
    ("gini", "Gini", ("gini",)),
    ("answer_rate", "Answer rate", ("answer_rate", "a")),
    ("anchor_rho", "ρ anchor", ("anchor_rho", "rho_anchor")),
    ("bias_score", "Bias score", ("bias_score", "bias", "b")),
    ("moran_i", "Moran's I", ("moran_i",)),
    # GeoBS scores of the rank errors (geobias:geobiasscores), merged in by merge_scores.
    ("ssi", "SSI", ("ssi",)),
    ("sri", "SRI", ()),
)
SRI_PARTS = ("sri_scale", "sri_lag", "sri_direction")
ALIASES = {
    "rho_lo": ("rho_lo", "rho_truth_lo", "truth_rho_lo", "rho_low", "ci_lo", "lo"),
    "rho_hi": ("rho_hi", "rho_truth_hi", "truth_rho_hi", "rho_high", "ci_hi", "hi"),
    "reason": ("reason",),
    "n_failed": ("n_failed",),
    "n_no_score": ("n_no_score",),
    "bootstrap": ("bootstrap",),
    "moran_p": ("moran_p",),
    "score_kind": ("score_kind",),
    **{name: (name,) for name in SRI_PARTS},
    "language": ("language",),  # the prompt language's code (rows of a survey in languages)
}
SortRole = Qt.ItemDataRole.UserRole + 1


def column_headers():
    """Translated column headers (literal tr() calls so the translation tools find them)."""
    return {
        "model": tr("Model"),
        "topic": tr("Topic"),
        "n": tr("n"),
        "rho": tr("ρ truth"),
        "rho_ci": tr("95% CI"),
        "mad": tr("MAD"),
        "gini": tr("Gini"),
        "answer_rate": tr("Answers"),
        "anchor_rho": tr("ρ anchor"),
        "bias_score": tr("Bias score"),
        "moran_i": tr("Moran's I"),
        "ssi": tr("SSI"),
        "sri": tr("SRI scale/lag/dir."),
    }


def detail_labels():
    """The metrics' names in the detail pane (room for whole words there)."""
    return {
        "n": tr("Points"),
        "rho": tr("ρ with the ground truth"),
        "rho_ci": tr("95% interval of ρ"),
        "mad": tr("MAD of the ratings"),
        "gini": tr("Gini of the ratings"),
        "answer_rate": tr("Answer rate"),
        "anchor_rho": tr("ρ with the anchor"),
        "bias_score": tr("Bias score B"),
        "moran_i": tr("Moran's I of the rank errors"),
        "ssi": tr("GeoBS self-information SSI (nats)"),
        "sri": tr("GeoBS relative information SRI: scale / lag / direction (nats)"),
    }


def metric_details(model, row):
    """Every metric of one table row as HTML (name, value, and the cell's note beneath): the
    detail pane under the table, readable whole in a narrow dock."""
    from html import escape

    index = model.index(row, 0)
    if not index.isValid():
        return ""
    values = model.rows[row]
    names = detail_labels()  # every column has one (a test checks): no bare key is shown
    lines = [f"<p><b>{escape(str(values.get('model', '')))}</b><br>"
             f"{escape(str(values.get('topic', '')))}</p>",
             "<table cellspacing='0' cellpadding='1'>"]  # fmt: skip
    for col, (key, _header, _aliases) in enumerate(COLUMNS):
        if key in ("model", "topic"):
            continue
        cell = model.index(row, col)
        text = model.data(cell, Qt.ItemDataRole.DisplayRole)
        note = model.data(cell, Qt.ItemDataRole.ToolTipRole)
        lines.append(f"<tr><td>{escape(names.get(key, key))}</td>"
                     f"<td align='right'>&nbsp;{escape(str(text))}</td></tr>")  # fmt: skip
        if note:
            lines.append(f"<tr><td colspan='2'><small>{escape(str(note))}</small></td></tr>")
    lines.append("</table>")
    return "".join(lines)


def _num(v):
    try:
        f = float(v)
    except (TypeError, ValueError):
        return math.nan
    return f


def row_from_record(record):
    """A table row from a dict of metric fields (any of the known aliases, case-insensitive)."""
    low = {str(k).lower(): v for k, v in record.items()}

    def pick(names):
        for n in names:
            if n in low and low[n] is not None:
                return low[n]
        return None

    row = {}
    for key, _header, names in COLUMNS:
        if names:
            row[key] = pick(names)
    for key, names in ALIASES.items():
        row[key] = pick(names)
    for key in ("model", "topic"):
        row[key] = "" if row[key] is None else str(row[key])
    return row


def rows_from_layer(layer):
    """Rows from a metrics table layer (one feature per model x topic)."""
    names = layer.fields().names()
    return [row_from_record(dict(zip(names, f.attributes()))) for f in layer.getFeatures()]


def merge_scores(rows, score_rows):
    """The GeoBS scores (rows of geobias:geobiasscores' table) added to the metrics rows of
    the same model, topic and score kind; a row of a prompt language finds its scores under
    "model [code]", as geobiasscores names them."""
    by_key = {(str(r.get("model")), str(r.get("topic")), str(r.get("score_kind") or "")): r
              for r in score_rows}  # fmt: skip
    for row in rows:
        model = f"{row['model']} [{row['language']}]" if row.get("language") else row["model"]
        found = by_key.get((model, row["topic"], str(row.get("score_kind") or "")))
        if found is not None:
            for name in ("ssi", *SRI_PARTS):
                row[name] = found.get(name)
    return rows


def _sri_mean(row):
    values = [_num(row.get(n)) for n in SRI_PARTS]
    values = [v for v in values if not math.isnan(v)]
    return sum(values) / len(values) if values else math.nan


def rows_from_summaries(items):
    """Rows from (model, topic, core.metrics.Summary) triples."""
    rows = []
    for model, topic, s in items:
        t = s.truth
        rows.append(
            {
                "model": model,
                "topic": topic,
                "n": s.n_points,
                "rho": t.rho if t else None,
                "rho_lo": t.lo if t else None,
                "rho_hi": t.hi if t else None,
                "mad": s.mad,
                "gini": s.gini,
                "answer_rate": s.answer_rate,
                "anchor_rho": s.anchor.rho if s.anchor else None,
                "bias_score": s.bias_score,
            }
        )
    return rows


def plot_columns(layer, fields=None):
    """(score, truth, rank error) of a rated layer, or of a layer's feature source with its
    `fields`; NaN where a field is absent or NULL. Read in the jobs' tasks for the layers they
    show (thousands of points take a while; a feature source made on the main thread reads a
    layer of the project safely from a task)."""
    fields = fields if fields is not None else layer.fields()
    names = fields.names()
    wanted = [
        "score" if "score" in names else "rating",
        "truth",
        "rank_error",
    ]
    present = [n for n in wanted if n in names]
    request = QgsFeatureRequest().setFlags(QgsFeatureRequest.Flag.NoGeometry)
    request.setSubsetOfAttributes(present, fields)
    cols = ([], [], [])
    for f in layer.getFeatures(request):
        for col, n in zip(cols, wanted):
            col.append(_num(f[n]) if n in names else float("nan"))
    return cols


def _fmt(v, digits=2):
    f = _num(v)
    return "–" if math.isnan(f) else f"{f:.{digits}f}"


class MetricsTableModel(QAbstractTableModel):
    """Model × topic metrics; numbers sort numerically (NaN last) through SortRole."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.rows = []

    def set_rows(self, rows):
        self.beginResetModel()
        self.rows = list(rows)
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return column_headers().get(COLUMNS[section][0], COLUMNS[section][1])
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.ToolTipRole:
            return {
                "rho": tr("Spearman's rho of the ratings with the ground truth"),
                "rho_ci": tr("Bootstrap 95% interval of rho"),
                "answer_rate": tr("Answer rate: share of points the model rated"),
                "mad": tr("Mean absolute deviation of the ratings"),
                "gini": tr("Gini coefficient of the ratings"),
                "anchor_rho": tr(
                    "Spearman's rho with the anchoring distribution (infant survival)"
                ),
                "bias_score": tr("Bias score: rho(anchor) × MAD × answer rate²"),
                "moran_i": tr(
                    "Global Moran's I of the rank errors (each point's 8 nearest "
                    "points): above 0 when the errors cluster in space"
                ),
                "ssi": tr(
                    "GeoBS spatial self-information of the rank errors (nats, 1,500 km "
                    "neighbourhoods): how surprising their arrangement is"
                ),
                "sri": tr(
                    "GeoBS spatial relative information of the rank errors (nats) by scale "
                    "grid, distance lag and direction sector: near 0 as by chance"
                ),
            }.get(COLUMNS[section][0])
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        row = self.rows[index.row()]
        key = COLUMNS[index.column()][0]
        if role == Qt.ItemDataRole.DisplayRole:
            if key == "topic" and row.get("language"):
                return f"{row.get(key, '')} [{row['language']}]"
            if key in ("model", "topic"):
                return row.get(key, "")
            if key == "n":
                n = _num(row.get("n"))
                return "–" if math.isnan(n) else str(int(n))
            if key == "rho_ci":
                lo, hi = _num(row.get("rho_lo")), _num(row.get("rho_hi"))
                return "–" if math.isnan(lo) or math.isnan(hi) else f"[{lo:.2f}, {hi:.2f}]"
            if key == "answer_rate":
                failed = _num(row.get("n_failed"))
                if not math.isnan(failed) and failed > 0:  # a run with failures says so
                    return tr("{a} ({n} failed)").format(a=_fmt(row.get(key), 2), n=int(failed))
                return _fmt(row.get(key), 2)
            if key == "sri":
                parts = [_num(row.get(n)) for n in SRI_PARTS]
                return "–" if all(math.isnan(v) for v in parts) else "/".join(
                    _fmt(v, 2) for v in parts)  # fmt: skip
            return _fmt(row.get(key), 3 if key == "bias_score" else 2)
        if role == SortRole:
            if key in ("model", "topic"):
                return row.get(key, "")
            v = _sri_mean(row) if key == "sri" else _num(row.get("rho_lo" if key == "rho_ci"
                                                                 else key))  # fmt: skip
            return math.inf if math.isnan(v) else v
        if role == Qt.ItemDataRole.ToolTipRole and key in ("model", "topic"):
            return row.get(key, "")
        if role == Qt.ItemDataRole.ToolTipRole and key == "rho" and row.get("reason"):
            return str(row.get("reason"))
        if (
            role == Qt.ItemDataRole.ToolTipRole
            and key == "moran_i"
            and not math.isnan(_num(row.get("moran_p")))
        ):
            return tr("permutation p = {p:.3f}").format(p=_num(row.get("moran_p")))
        if role == Qt.ItemDataRole.ToolTipRole and key == "rho_ci" and row.get("bootstrap"):
            return tr("Bootstrap: {kind}").format(kind=row.get("bootstrap"))
        if role == Qt.ItemDataRole.ToolTipRole and key == "answer_rate":
            notes = []
            failed, no_score = _num(row.get("n_failed")), _num(row.get("n_no_score"))
            if failed > 0:
                notes.append(tr("{n} requests failed: not asked, outside the answer rate").format(
                    n=int(failed)))  # fmt: skip
            if no_score > 0:
                notes.append(tr("{n} answered points have no score of this kind").format(
                    n=int(no_score)))  # fmt: skip
            return "\n".join(notes) or None
        if role == Qt.ItemDataRole.TextAlignmentRole and key not in ("model", "topic"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole and key == "bias_score":
            v = _num(row.get(key))
            if not math.isnan(v) and abs(v) >= 0.1:
                return QBrush(QColor(180, 30, 30) if v > 0 else QColor(30, 70, 180))
        return None

    def sort(self, column, order=Qt.SortOrder.AscendingOrder):
        key = COLUMNS[column][0]
        self.layoutAboutToBeChanged.emit()
        decorated = [(self._sort_key(r, key), i, r) for i, r in enumerate(self.rows)]
        decorated.sort(key=lambda t: (t[0], t[1]), reverse=order == Qt.SortOrder.DescendingOrder)
        self.rows = [r for _, _, r in decorated]
        self.layoutChanged.emit()

    @staticmethod
    def _sort_key(row, key):
        if key in ("model", "topic"):
            return (0, row.get(key, "").casefold())
        v = _sri_mean(row) if key == "sri" else _num(row.get("rho_lo" if key == "rho_ci"
                                                             else key))  # fmt: skip
        return (1, 0.0) if math.isnan(v) else (0, v)


class BiasPlot(QWidget):
    """Rating vs ground truth scatter (left) and the rank-error histogram (right)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.rating = np.array([])
        self.truth = np.array([])
        self.rank_error = np.array([])
        self.title = ""
        self.setMinimumHeight(150)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)

    def sizeHint(self):
        return QSize(360, 170)

    def set_data(self, rating, truth=None, rank_error=None, title=""):
        """Ratings, optional truth (same points) and rank errors; NaNs are skipped."""
        self.rating = np.asarray(rating, dtype=float)
        self.truth = np.asarray(truth if truth is not None else [], dtype=float)
        self.rank_error = np.asarray(rank_error if rank_error is not None else [], dtype=float)
        self.title = title
        self.update()

    def paintEvent(self, event):
        p = QPainter(self)
        style = PlotStyle(self.font(), self.palette().text().color(), self.palette().base().color())
        paint_bias_plot(p, QRectF(self.rect()), style, self.rating, self.truth, self.rank_error,
                        self.title)  # fmt: skip
        p.end()
