"""Plots drawn with QPainter, shared by the dock's widgets and the report's pictures: rating vs
ground truth with the rank-error histogram, and a scatter plot of a bias measure against a
census field. No plotting library: QGIS's Python has none we may rely on."""

from dataclasses import dataclass

import numpy as np
from qgis.PyQt.QtCore import QPointF, QRectF, Qt
from qgis.PyQt.QtGui import QColor, QFont, QImage, QPainter, QPen

from ..i18n_util import tr

POINT_COLOUR = QColor(40, 90, 160, 170)
OVER, UNDER = QColor(200, 60, 50), QColor(50, 100, 190)  # as on the rank-error map


@dataclass
class PlotStyle:
    """Font and colours: the widget's palette in the dock, black on white in the report."""

    font: QFont
    text: QColor
    base: QColor


def paint_bias_plot(p, rect, style, rating, truth=None, rank_error=None, title=""):
    """Rating vs ground truth scatter (left) and the rank-error histogram (right) in `rect`."""
    rating = np.asarray(rating, float)
    truth = np.asarray(truth if truth is not None else [], float)
    rank_error = np.asarray(rank_error if rank_error is not None else [], float)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.fillRect(rect, style.base)
    x, y, w, h = rect.left(), rect.top(), rect.width(), rect.height()
    top = _title(p, rect, style, title)
    half = w / 2
    _scatter(p, QRectF(x + 34, y + top + 4, half - 44, h - top - 26), style, rating, truth)
    _histogram(p, QRectF(x + half + 24, y + top + 4, half - 34, h - top - 26), style, rank_error)


def paint_scatter(p, rect, style, x, y, xlabel, ylabel, title=""):
    """A scatter plot of y against x (NaN skipped) with both axes' ranges written at the ends."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.fillRect(rect, style.base)
    top = _title(p, rect, style, title)
    r = QRectF(rect.left() + 34, rect.top() + top + 4, rect.width() - 44,
               rect.height() - top - 26)  # fmt: skip
    _axes(p, r, style, xlabel, ylabel)
    ok = np.isfinite(x) & np.isfinite(y)
    if not ok.any():
        p.drawText(r, Qt.AlignmentFlag.AlignCenter, tr("no values"))
        return
    x, y = x[ok], y[ok]
    (x0, x1), (y0, y1) = _range(x), _range(y)
    _ticks(p, r, style, (x0, x1), (y0, y1))
    _dots(p, r, (x - x0) / (x1 - x0), (y - y0) / (y1 - y0))


def image_of(width, height, paint, *args, scale=1, **kwargs):
    """A white QImage with `paint(p, rect, style, ...)` drawn on a width x height canvas,
    `scale` times finer (black text): the report's pictures."""
    image = QImage(int(width * scale), int(height * scale), QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    p = QPainter(image)
    p.scale(scale, scale)
    font = QFont()
    font.setPixelSize(11)
    p.setFont(font)
    paint(p, QRectF(0, 0, width, height), PlotStyle(font, QColor("black"), QColor("white")),
          *args, **kwargs)  # fmt: skip
    p.end()
    return image


def _title(p, rect, style, title):
    if not title:
        return 4
    top = QFont(style.font).pixelSize() * 1.6 if style.font.pixelSize() > 0 else 18
    p.setPen(style.text)
    font = QFont(style.font)
    font.setBold(True)
    p.setFont(font)
    p.drawText(QRectF(rect.left() + 4, rect.top(), rect.width() - 8, top),
               Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, title)  # fmt: skip
    p.setFont(style.font)
    return top


def _range(v):
    lo, hi = float(v.min()), float(v.max())
    return lo, hi if hi > lo else lo + 1


def _axes(p, r, style, xlabel, ylabel):
    p.setPen(QPen(QColor(120, 120, 120), 1))
    p.drawLine(r.bottomLeft(), r.bottomRight())
    p.drawLine(r.bottomLeft(), r.topLeft())
    p.setPen(style.text)
    below = QRectF(r.left(), r.bottom() + 2, r.width(), 16)
    p.drawText(below, Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop, xlabel)
    p.save()
    p.translate(r.left() - 18, r.center().y())
    p.rotate(-90)
    p.drawText(QRectF(-r.height() / 2, -8, r.height(), 16), Qt.AlignmentFlag.AlignCenter, ylabel)
    p.restore()


def _dots(p, r, fx, fy):
    """Points at fractions (0..1) of the plot's width and height."""
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(POINT_COLOUR)
    radius = 3.0 if len(fx) < 200 else 2.2  # a handful of points must still be seen
    for a, b in zip(fx.tolist(), fy.tolist()):
        p.drawEllipse(QPointF(r.left() + a * r.width(), r.bottom() - b * r.height()), radius,
                      radius)  # fmt: skip


def _scatter(p, r, style, rating, truth):
    x, y = truth, rating
    ok = np.isfinite(x) & np.isfinite(y) if len(x) == len(y) else np.zeros(0, bool)
    if not ok.any():
        _rating_histogram(p, r, style, rating)
        return
    _axes(p, r, style, tr("ground truth"), tr("rating"))
    x, y = x[ok], y[ok]
    x0, x1 = _range(x)
    _ticks(p, r, style, (x0, x1), (0.0, 9.9))
    _dots(p, r, (x - x0) / (x1 - x0), np.clip(y, 0.0, 9.9) / 9.9)


def _ticks(p, r, style, xs, ys):
    """The smallest and largest value under the x axis and beside the y axis."""
    p.setPen(QColor(110, 110, 110))
    font = QFont(style.font)
    if font.pixelSize() > 0:
        font.setPixelSize(max(8, int(font.pixelSize() * 0.8)))
    else:
        font.setPointSizeF(max(6.0, font.pointSizeF() * 0.8))
    p.save()
    p.setFont(font)
    below = QRectF(r.left(), r.bottom() + 1, r.width(), 12)
    left, right = Qt.AlignmentFlag.AlignLeft, Qt.AlignmentFlag.AlignRight
    p.drawText(below, left | Qt.AlignmentFlag.AlignTop, f"{xs[0]:.3g}")
    p.drawText(below, right | Qt.AlignmentFlag.AlignTop, f"{xs[1]:.3g}")
    p.drawText(QRectF(r.left() + 2, r.top(), 60, 12), left | Qt.AlignmentFlag.AlignTop,
               f"{ys[1]:.3g}")  # fmt: skip
    if ys[0] != 0:
        p.drawText(QRectF(r.left() + 2, r.bottom() - 12, 60, 12),
                   left | Qt.AlignmentFlag.AlignBottom, f"{ys[0]:.3g}")  # fmt: skip
    p.restore()


def _bars(p, r, counts, colours):
    peak = max(int(counts.max()), 1)
    bw = r.width() / len(counts)
    p.setPen(Qt.PenStyle.NoPen)
    for i, (c, colour) in enumerate(zip(counts.tolist(), colours)):
        p.setBrush(colour)
        bh = c / peak * r.height()
        p.drawRect(QRectF(r.left() + i * bw + 0.5, r.bottom() - bh, bw - 1, bh))


def _rating_histogram(p, r, style, rating):
    """Without a ground truth: the distribution of the ratings (0.0 to 9.9)."""
    _axes(p, r, style, tr("rating (no ground truth)"), tr("points"))
    y = rating[np.isfinite(rating)]
    if not len(y):
        p.drawText(r, Qt.AlignmentFlag.AlignCenter, tr("no answers"))
        return
    counts, _ = np.histogram(np.clip(y, 0.0, 9.9), bins=10, range=(0.0, 10.0))
    _bars(p, r, counts, [POINT_COLOUR] * len(counts))


def _histogram(p, r, style, rank_error):
    _axes(p, r, style, tr("rank error"), tr("points"))
    e = rank_error[np.isfinite(rank_error)]
    if not len(e):
        p.drawText(r, Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap,
                   tr("no rank errors (no ground truth)"))  # fmt: skip
        return
    counts, edges = np.histogram(e, bins=20, range=(-1.0, 1.0))
    mids = (edges[:-1] + edges[1:]) / 2
    # Red for overestimates, blue for underestimates, as on the map.
    _bars(p, r, counts, [OVER if m > 0 else UNDER for m in mids])
    p.setPen(QPen(QColor(90, 90, 90), 1, Qt.PenStyle.DashLine))
    p.drawLine(QPointF(r.center().x(), r.top()), QPointF(r.center().x(), r.bottom()))
