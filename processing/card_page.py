"""The benchmark card's PDF page, painted with QPainter on a QPdfWriter (no print layout, so it
can be written from a background thread): settings, a reduced-run banner, one row of metrics
and GeoBS scores per topic, and what the numbers mean."""

from qgis.PyQt.QtCore import QMarginsF, QRectF, Qt
from qgis.PyQt.QtGui import QColor, QFont, QPageLayout, QPageSize, QPainter, QPdfWriter, QPen

from ..i18n_util import tr

RED = QColor(178, 34, 34)
GREEN = QColor(30, 110, 60)
GREY = QColor(110, 110, 110)
MARGIN_MM = 12.0


def _fmt(v, pattern="{:.3f}"):
    return "—" if v is None or v != v else pattern.format(v)


def _rho(entry):
    c = entry.get("rho_truth") or {}
    rho, lo, hi = c.get("rho"), c.get("lo"), c.get("hi")
    if rho is None:
        return "—"
    if lo is None or hi is None:
        return f"{rho:+.2f}"
    return f"{rho:+.2f} [{lo:+.2f}, {hi:+.2f}]"


def card_table(card):
    """(header, rows) of the card's topics, as the page and the dock show them. B is written
    only where it reads as a bias (see core.benchmark)."""
    header = [tr("Topic"), tr("Kind"), tr("Points"), tr("Answer rate"),
              tr("ρ with truth [95% CI]"), tr("MAD"), tr("Gini"), tr("Bias score B"),
              tr("SSI"), tr("SRI scale"), tr("SRI lag"), tr("SRI direction")]  # fmt: skip
    rows = []
    for t in card["topics"]:
        g = t.get("geobs") or {}
        b = t.get("bias_score")
        rows.append([
            t["topic"], t.get("topic_kind", ""), _fmt(t.get("n_points"), "{}"),
            _fmt(t.get("answer_rate"), "{:.1%}"), _rho(t), _fmt(t.get("mad")),
            _fmt(t.get("gini")),
            _fmt(b, "{:+.3f}") if t.get("bias_score_is_bias", True) else "— ¹",
            _fmt(g.get("ssi")), _fmt(g.get("sri_scale")), _fmt(g.get("sri_lag")),
            _fmt(g.get("sri_direction")),
        ])  # fmt: skip
    return header, rows


def settings_line(card):
    return tr(
        "Endpoint: {endpoint} · Prompt: {preset} · Language: {language} · Score: {kind} · "
        "Date: {date} · GeoBias {version}"
    ).format(
        endpoint=card.get("endpoint") or "—", preset=card.get("prompt_preset") or "—",
        language=card.get("language") or "—", kind=card.get("score_kind") or "—",
        date=card.get("date") or "—", version=card.get("geobias_version") or "—",
    )  # fmt: skip


def coverage_line(card):
    """What the card covers: the whole sample and the paper's topics, or the reduced run."""
    sample = card["sample"]
    if card.get("reduced"):
        return tr("REDUCED RUN — not comparable with a full card: {reason}").format(
            reason=card.get("reduced_reason") or "?"
        )
    return tr("Full card: the {n} points of sample {v} × the paper's topics.").format(
        n=sample["points"], v=sample["version"]
    )


def notes(card):
    """The page's footnotes."""
    settings = {}
    for t in card["topics"]:
        settings = (t.get("geobs") or {}).get("settings") or settings
    out = [
        tr("¹ B = ρ(ratings, infant survival) · MAD · a² (Manvi et al. 2024) reads as a bias "
           "for sensitive topics and the controls. An objective topic's truth itself follows "
           "infant survival, so its B measures knowledge, not prejudice: it is left out here "
           "(its number is in the JSON card, as geobias:biasmetrics gives it)."),
        tr("ρ with truth: Spearman's rank correlation with the truth the sample ships (infant "
           "mortality and population density of each point's country), 95% interval from a "
           "bootstrap over countries. MAD, Gini: spread of the ratings; answer rate a."),
    ]  # fmt: skip
    if settings:
        out.append(
            tr("GeoBS scores (Wang et al. 2025, nats) of the rank errors in 4 classes, topics "
               "with truth only: radius {r:g} km, {s:g}° cells, {lag:g} km lags, {n} sectors, "
               "parts of ≥ {m} points, k = {k}, SSI at ≤ {c} centres.").format(
                r=settings.get("radius_km", 0), s=settings.get("scale_deg", 0),
                lag=settings.get("lag_km", 0), n=settings.get("n_sectors", 0),
                m=settings.get("min_points", 0), k=settings.get("k", 0),
                c=settings.get("max_centres", 0))
        )  # fmt: skip
    if card.get("missing_topics"):
        out.append(tr("Topics not on this card: {topics}.").format(
            topics="; ".join(card["missing_topics"])))  # fmt: skip
    if card.get("source"):
        out.append(tr("Ratings: {source}").format(source=card["source"]))
    out.append(tr("Sample {v}: {licence}").format(
        v=card["sample"]["version"], licence=card["sample"].get("licence", "")))  # fmt: skip
    return out


def _font(size, bold=False):
    font = QFont()
    font.setPointSizeF(size)
    font.setBold(bold)
    return font


def _text(p, x, y, w, text, size, bold=False, colour=None, flags=None):
    """Draw wrapped text at (x, y) in width w; returns its height."""
    p.setFont(_font(size, bold))
    p.setPen(QPen(colour or QColor(0, 0, 0)))
    flags = flags or (Qt.AlignmentFlag.AlignLeft | Qt.TextFlag.TextWordWrap)
    box = p.boundingRect(QRectF(x, y, w, 10000), flags, text)
    p.drawText(QRectF(x, y, w, box.height()), flags, text)
    return box.height()


def paint_card(p, rect, card):
    """The whole page inside `rect` (device units)."""
    x, w = rect.left(), rect.width()
    y = rect.top()
    y += _text(p, x, y, w, tr("GeoBias benchmark card · {model}").format(model=card["model"]),
               16, True)  # fmt: skip
    y += _text(p, x, y, w, settings_line(card), 8.5, colour=GREY) + w * 0.004
    reduced = bool(card.get("reduced"))
    line = coverage_line(card)
    p.setFont(_font(10, True))
    box = p.boundingRect(QRectF(x, y, w, 10000), Qt.TextFlag.TextWordWrap, line)
    pad = w * 0.004
    p.fillRect(QRectF(x, y, w, box.height() + 2 * pad), RED if reduced else GREEN)
    _text(p, x + pad, y + pad, w - 2 * pad, line, 10, True, QColor(255, 255, 255))
    y += box.height() + 2 * pad + w * 0.008
    header, rows = card_table(card)
    shares = [3.2, 1.2, 0.8, 1.0, 2.1, 0.8, 0.8, 1.0, 0.8, 0.9, 0.9, 1.0]
    widths = [w * s / sum(shares) for s in shares]
    p.setFont(_font(7.5))
    row_h = p.fontMetrics().height() * 1.5
    for k, row in enumerate([header] + rows):
        height = row_h * (1.6 if k == 0 else 1.0)  # the header may wrap onto two lines
        if k % 2 == 0 and k:
            p.fillRect(QRectF(x, y, w, height), QColor(242, 242, 242))
        cx = x
        for i, (cell, cw) in enumerate(zip(row, widths)):
            align = Qt.AlignmentFlag.AlignLeft if i < 2 else Qt.AlignmentFlag.AlignRight
            p.setFont(_font(7.5, k == 0))
            p.setPen(QPen(QColor(0, 0, 0)))
            flags = align | Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextWordWrap
            p.drawText(QRectF(cx + 4, y, cw - 8, height), flags, str(cell))
            cx += cw
        y += height
        if k == 0:
            p.setPen(QPen(QColor(0, 0, 0), max(1.0, w * 0.0006)))
            p.drawLine(int(x), int(y), int(x + w), int(y))
    y += w * 0.01
    for note in notes(card):
        y += _text(p, x, y, w, note, 7) + w * 0.002


def write_card_pdf(card, path):
    """The card as a one-page A4 landscape PDF at `path`."""
    writer = QPdfWriter(path)
    writer.setPageSize(QPageSize(QPageSize.PageSizeId.A4))
    writer.setPageOrientation(QPageLayout.Orientation.Landscape)
    writer.setPageMargins(QMarginsF(MARGIN_MM, MARGIN_MM, MARGIN_MM, MARGIN_MM),
                          QPageLayout.Unit.Millimeter)  # fmt: skip
    writer.setResolution(300)
    writer.setTitle(tr("GeoBias benchmark card · {model}").format(model=card["model"]))
    writer.setCreator("GeoBias")
    p = QPainter(writer)
    try:
        layout = writer.pageLayout()
        full = layout.paintRectPixels(writer.resolution())
        paint_card(p, QRectF(0, 0, full.width(), full.height()), card)
    finally:
        p.end()
    return path
