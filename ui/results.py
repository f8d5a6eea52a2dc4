"""Survey results in the dock: a sortable metrics table and a small rating/rank-error plot."""

import math

import numpy as np
from qgis.PyQt.QtCore import QAbstractTableModel, QModelIndex, QPointF, QRectF, QSize, Qt
from qgis.PyQt.QtGui import QBrush, QColor, QFont, QPainter, QPen
from qgis.PyQt.QtWidgets import QSizePolicy, QWidget

from ..i18n_util import tr

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
)
ALIASES = {
    "rho_lo": ("rho_lo", "rho_truth_lo", "truth_rho_lo", "rho_low", "ci_lo", "lo"),
    "rho_hi": ("rho_hi", "rho_truth_hi", "truth_rho_hi", "rho_high", "ci_hi", "hi"),
    "reason": ("reason",),
    "n_failed": ("n_failed",),
    "n_no_score": ("n_no_score",),
    "bootstrap": ("bootstrap",),
}
SortRole = Qt.UserRole + 1


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
    }


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

    def headerData(self, section, orientation, role=Qt.DisplayRole):
        if orientation == Qt.Horizontal and role == Qt.DisplayRole:
            return column_headers().get(COLUMNS[section][0], COLUMNS[section][1])
        if orientation == Qt.Horizontal and role == Qt.ToolTipRole:
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
            }.get(COLUMNS[section][0])
        return None

    def data(self, index, role=Qt.DisplayRole):
        if not index.isValid():
            return None
        row = self.rows[index.row()]
        key = COLUMNS[index.column()][0]
        if role == Qt.DisplayRole:
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
            return _fmt(row.get(key), 3 if key == "bias_score" else 2)
        if role == SortRole:
            if key in ("model", "topic"):
                return row.get(key, "")
            v = _num(row.get("rho_lo" if key == "rho_ci" else key))
            return math.inf if math.isnan(v) else v
        if role == Qt.ToolTipRole and key in ("model", "topic"):
            return row.get(key, "")
        if role == Qt.ToolTipRole and key == "rho" and row.get("reason"):
            return str(row.get("reason"))
        if role == Qt.ToolTipRole and key == "rho_ci" and row.get("bootstrap"):
            return tr("Bootstrap: {kind}").format(kind=row.get("bootstrap"))
        if role == Qt.ToolTipRole and key == "answer_rate":
            notes = []
            failed, no_score = _num(row.get("n_failed")), _num(row.get("n_no_score"))
            if failed > 0:
                notes.append(tr("{n} requests failed: not asked, outside the answer rate").format(
                    n=int(failed)))  # fmt: skip
            if no_score > 0:
                notes.append(tr("{n} answered points have no score of this kind").format(
                    n=int(no_score)))  # fmt: skip
            return "\n".join(notes) or None
        if role == Qt.TextAlignmentRole and key not in ("model", "topic"):
            return int(Qt.AlignRight | Qt.AlignVCenter)
        if role == Qt.ForegroundRole and key == "bias_score":
            v = _num(row.get(key))
            if not math.isnan(v) and abs(v) >= 0.1:
                return QBrush(QColor(180, 30, 30) if v > 0 else QColor(30, 70, 180))
        return None

    def sort(self, column, order=Qt.AscendingOrder):
        key = COLUMNS[column][0]
        self.layoutAboutToBeChanged.emit()
        decorated = [(self._sort_key(r, key), i, r) for i, r in enumerate(self.rows)]
        decorated.sort(key=lambda t: (t[0], t[1]), reverse=order == Qt.DescendingOrder)
        self.rows = [r for _, _, r in decorated]
        self.layoutChanged.emit()

    @staticmethod
    def _sort_key(row, key):
        if key in ("model", "topic"):
            return (0, row.get(key, "").casefold())
        v = _num(row.get("rho_lo" if key == "rho_ci" else key))
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
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Preferred)

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
        p.setRenderHint(QPainter.Antialiasing)
        p.fillRect(self.rect(), self.palette().base())
        w, h = self.width(), self.height()
        top = 18
        p.setPen(self.palette().text().color())
        font = QFont(self.font())
        font.setBold(True)
        p.setFont(font)
        p.drawText(QRectF(4, 0, w - 8, top), Qt.AlignLeft | Qt.AlignVCenter, self.title)
        p.setFont(self.font())
        half = w / 2
        self._scatter(p, QRectF(34, top + 4, half - 44, h - top - 26))
        self._histogram(p, QRectF(half + 24, top + 4, half - 34, h - top - 26))
        p.end()

    def _axes(self, p, r, xlabel, ylabel):
        p.setPen(QPen(QColor(120, 120, 120), 1))
        p.drawLine(r.bottomLeft(), r.bottomRight())
        p.drawLine(r.bottomLeft(), r.topLeft())
        p.setPen(self.palette().text().color())
        p.drawText(
            QRectF(r.left(), r.bottom() + 2, r.width(), 16), Qt.AlignHCenter | Qt.AlignTop, xlabel
        )
        p.save()
        p.translate(r.left() - 18, r.center().y())
        p.rotate(-90)
        p.drawText(QRectF(-r.height() / 2, -8, r.height(), 16), Qt.AlignCenter, ylabel)
        p.restore()

    def _scatter(self, p, r):
        x, y = self.truth, self.rating
        ok = np.isfinite(x) & np.isfinite(y) if len(x) == len(y) else np.zeros(0, bool)
        if not ok.any():
            self._rating_histogram(p, r)
            return
        self._axes(p, r, tr("ground truth"), tr("rating"))
        x, y = x[ok], y[ok]
        x0, x1 = float(x.min()), float(x.max())
        x1 = x1 if x1 > x0 else x0 + 1
        self._ticks(p, r, x0, x1)
        p.setPen(Qt.NoPen)
        p.setBrush(QColor(40, 90, 160, 170))
        radius = 3.0 if len(x) < 200 else 2.2  # a handful of points must still be seen
        for xi, yi in zip(x.tolist(), y.tolist()):
            px = r.left() + (xi - x0) / (x1 - x0) * r.width()
            py = r.bottom() - min(max(yi, 0.0), 9.9) / 9.9 * r.height()
            p.drawEllipse(QPointF(px, py), radius, radius)

    def _ticks(self, p, r, x0, x1):
        """Smallest and largest truth value under the x axis, 0 and 9.9 beside the y axis."""
        p.setPen(QColor(110, 110, 110))
        font = QFont(self.font())
        font.setPointSizeF(max(6.0, font.pointSizeF() * 0.8))
        p.save()
        p.setFont(font)
        below = QRectF(r.left(), r.bottom() + 1, r.width(), 12)
        p.drawText(below, Qt.AlignLeft | Qt.AlignTop, f"{x0:.3g}")
        p.drawText(below, Qt.AlignRight | Qt.AlignTop, f"{x1:.3g}")
        p.drawText(QRectF(r.left() + 2, r.top(), 30, 12), Qt.AlignLeft | Qt.AlignTop, "9.9")
        p.restore()

    def _rating_histogram(self, p, r):
        """Without a ground truth: the distribution of the ratings (0.0 to 9.9)."""
        self._axes(p, r, tr("rating (no ground truth)"), tr("points"))
        y = self.rating[np.isfinite(self.rating)]
        if not len(y):
            p.drawText(r, Qt.AlignCenter, tr("no answers"))
            return
        counts, _ = np.histogram(np.clip(y, 0.0, 9.9), bins=10, range=(0.0, 10.0))
        peak = max(int(counts.max()), 1)
        bw = r.width() / len(counts)
        p.setPen(Qt.NoPen)
        p.setBrush(QColor(40, 90, 160, 170))
        for i, c in enumerate(counts.tolist()):
            bh = c / peak * r.height()
            p.drawRect(QRectF(r.left() + i * bw + 0.5, r.bottom() - bh, bw - 1, bh))

    def _histogram(self, p, r):
        self._axes(p, r, tr("rank error"), tr("points"))
        e = self.rank_error[np.isfinite(self.rank_error)]
        if not len(e):
            p.drawText(r, Qt.AlignCenter | Qt.TextWordWrap, tr("no rank errors (no ground truth)"))
            return
        counts, edges = np.histogram(e, bins=20, range=(-1.0, 1.0))
        peak = max(int(counts.max()), 1)
        bw = r.width() / len(counts)
        p.setPen(Qt.NoPen)
        for i, c in enumerate(counts.tolist()):
            mid = (edges[i] + edges[i + 1]) / 2
            # Red for overestimates, blue for underestimates, as on the map.
            color = QColor(200, 60, 50) if mid > 0 else QColor(50, 100, 190)
            p.setBrush(color)
            bh = c / peak * r.height()
            p.drawRect(QRectF(r.left() + i * bw + 0.5, r.bottom() - bh, bw - 1, bh))
        p.setPen(QPen(QColor(90, 90, 90), 1, Qt.DashLine))
        p.drawLine(QPointF(r.center().x(), r.top()), QPointF(r.center().x(), r.bottom()))
