"""Styles of the overlay outputs: census units by mean rank error (or rank), LISA clusters in
their classic colours, Gi* hot and cold spots, countries by how often a model named them;
saved in the GeoPackage and applied on load."""

import numpy as np
from qgis.core import (
    QgsFillSymbol,
    QgsGraduatedSymbolRenderer,
    QgsLayerTreeLayer,
    QgsMarkerSymbol,
    QgsProcessingLayerPostProcessorInterface,
    QgsRendererRange,
    QgsRuleBasedRenderer,
    QgsVectorLayer,
    QgsVectorLayerUtils,
    QgsWkbTypes,
)

from ..core.stats.hotspots import NO_NEIGHBOURS, NOT_SIGNIFICANT
from ..i18n_util import QT_TRANSLATE_NOOP, tr
from .styles import RAMPS, delete_saved_styles, is_geopackage, ramp, topic_polarity

NO_DATA = "#d9d9d9"
# Mean rank errors of whole units are smaller than those of single points: narrower classes.
# ColorBrewer RdBu (colour-blind safe), red = the model overestimates, blue = underestimates.
UNIT_ERROR_CLASSES = (
    (0.25, None, "#b2182b", "strong overestimate (> +0.25)"),
    (0.1, 0.25, "#ef8a62", "overestimate (+0.1 to +0.25)"),
    (-0.1, 0.1, "#f7f7f7", "about right (−0.1 to +0.1)"),
    (-0.25, -0.1, "#67a9cf", "underestimate (−0.25 to −0.1)"),
    (None, -0.25, "#2166ac", "strong underestimate (< −0.25)"),
)
# GeoDa's LISA cluster map colours.
LISA_COLOURS = (
    ("HH", "#ff0000", "High–High (hot spot)"),
    ("LL", "#0000ff", "Low–Low (cold spot)"),
    ("HL", "#f4ada8", "High–Low (high outlier)"),
    ("LH", "#a7adf9", "Low–High (low outlier)"),
    (NOT_SIGNIFICANT, "#eeeeee", "not significant"),
    (NO_NEIGHBOURS, "#ffffff", "no neighbours"),
)
GI_COLOURS = (
    (3, "#d7191c", "hot spot, 99% confidence"),
    (2, "#fc8d59", "hot spot, 95%"),
    (1, "#fed090", "hot spot, 90%"),
    (0, "#f0f0f0", "not significant"),
    (-1, "#c6dbef", "cold spot, 90%"),
    (-2, "#6baed6", "cold spot, 95%"),
    (-3, "#2c7bb6", "cold spot, 99% confidence"),
)


def _labels():
    """The legend texts (literal tr() calls, so the translation tools find them)."""
    return {
        "strong overestimate (> +0.25)": tr("strong overestimate (> +0.25)"),
        "overestimate (+0.1 to +0.25)": tr("overestimate (+0.1 to +0.25)"),
        "about right (−0.1 to +0.1)": tr("about right (−0.1 to +0.1)"),
        "underestimate (−0.25 to −0.1)": tr("underestimate (−0.25 to −0.1)"),
        "strong underestimate (< −0.25)": tr("strong underestimate (< −0.25)"),
        "High–High (hot spot)": tr("High–High (hot spot)"),
        "Low–Low (cold spot)": tr("Low–Low (cold spot)"),
        "High–Low (high outlier)": tr("High–Low (high outlier)"),
        "Low–High (low outlier)": tr("Low–High (low outlier)"),
        "not significant": tr("not significant"),
        "no neighbours": tr("no neighbours"),
        "hot spot, 99% confidence": tr("hot spot, 99% confidence"),
        "hot spot, 95%": tr("hot spot, 95%"),
        "hot spot, 90%": tr("hot spot, 90%"),
        "cold spot, 90%": tr("cold spot, 90%"),
        "cold spot, 95%": tr("cold spot, 95%"),
        "cold spot, 99% confidence": tr("cold spot, 99% confidence"),
        "close (error < 0.1)": tr("close (error < 0.1)"),
        "error 0.1–0.25": tr("error 0.1–0.25"),
        "error 0.25–0.5": tr("error 0.25–0.5"),
        "far (error ≥ 0.5)": tr("far (error ≥ 0.5)"),
        "more than double": tr("more than double"),
        "a quarter to double too high": tr("a quarter to double too high"),
        "within a quarter": tr("within a quarter"),
        "a quarter to half too low": tr("a quarter to half too low"),
        "less than half": tr("less than half"),
    }


def _symbol(geometry_type, color):
    if geometry_type == QgsWkbTypes.GeometryType.PointGeometry:
        return QgsMarkerSymbol.createSimple(
            {"name": "circle", "color": color, "outline_color": "#232323",
             "outline_width": "0.2", "size": "2.4"}
        )  # fmt: skip
    return QgsFillSymbol.createSimple(
        {"color": color, "outline_color": "#6e6e6e", "outline_width": "0.1",
         "outline_width_unit": "MM"}
    )  # fmt: skip


def _rules(geometry_type, rules):
    """A rule-based renderer from (expression, colour, label) in legend order."""
    root = QgsRuleBasedRenderer.Rule(None)
    for expression, color, label in rules:
        root.appendChild(
            QgsRuleBasedRenderer.Rule(_symbol(geometry_type, color), 0, 0, expression, label)
        )
    return QgsRuleBasedRenderer(root)


def unit_renderer(geometry_type, field="mean_rank_error", topic=None, min_points=None):
    """Units by mean rank error (diverging) or, without rank errors, by mean rank (sequential);
    units flagged few_points in grey."""
    labels = _labels()
    few = tr("too few points") if min_points is None else tr(
        "too few points (< {n})").format(n=min_points)  # fmt: skip
    rules = [('"few_points" = 1', NO_DATA, few)]
    ok = '"few_points" = 0 AND '
    if field == "mean_rank_error":
        for lo, hi, color, label in UNIT_ERROR_CLASSES:
            cond = [f'"{field}" >= {lo}' if lo is not None else "",
                    f'"{field}" < {hi}' if hi is not None else ""]  # fmt: skip
            rules.append((ok + " AND ".join(c for c in cond if c), color, labels[label]))
    else:  # mean rank 0..1 in five classes, highest first
        colours = ramp(RAMPS[topic_polarity(topic)])
        names = [tr("highest (0.8–1)"), tr("high (0.6–0.8)"), tr("middle (0.4–0.6)"),
                 tr("low (0.2–0.4)"), tr("lowest (0–0.2)")]  # fmt: skip
        for k, label in enumerate(names):
            lo = 0.8 - 0.2 * k
            cond = f'"{field}" >= {lo:.1f}' if k < 4 else f'"{field}" < 0.2'
            if 0 < k < 4:
                cond += f' AND "{field}" < {lo + 0.2:.1f}'
            rules.append((ok + cond, colours.color(1 - k / 4).name(), label))
    rules.append((f'"{field}" IS NULL AND "few_points" = 0', "#ffffff", tr("no value")))
    return _rules(geometry_type, rules)


# Recall answers (geobias:recallsurvey): the relative error in four classes, pale to dark red,
# and the log ratio diverging (ColorBrewer RdBu: red overstated, blue understated).
RECALL_ERROR_CLASSES = (
    (None, 0.1, "#ffffb2", "close (error < 0.1)"),
    (0.1, 0.25, "#fecc5c", "error 0.1–0.25"),
    (0.25, 0.5, "#fd8d3c", "error 0.25–0.5"),
    (0.5, None, "#e31a1c", "far (error ≥ 0.5)"),
)
_LN2, _LN125 = float(np.log(2.0)), float(np.log(1.25))
RECALL_RATIO_CLASSES = (
    (_LN2, None, "#b2182b", "more than double"),
    (_LN125, _LN2, "#ef8a62", "a quarter to double too high"),
    (-_LN125, _LN125, "#f7f7f7", "within a quarter"),
    (-_LN2, -_LN125, "#67a9cf", "a quarter to half too low"),
    (None, -_LN2, "#2166ac", "less than half"),
)


def recall_renderer(geometry_type, field="rel_error"):
    """Recall answers by relative error (sequential) or log ratio (diverging); unanswered
    polygons grey, answered ones without a truth white."""
    labels = _labels()
    classes = RECALL_ERROR_CLASSES if field == "rel_error" else RECALL_RATIO_CLASSES
    rules = [('"answered" = 0', NO_DATA, tr("unanswered"))]
    for lo, hi, color, label in classes:
        cond = [f'"{field}" >= {lo!r}' if lo is not None else "",
                f'"{field}" < {hi!r}' if hi is not None else ""]  # fmt: skip
        rules.append((" AND ".join(c for c in cond if c), color, labels[label]))
    rules.append((f'"answered" = 1 AND "{field}" IS NULL', "#ffffff", tr("no value")))
    return _rules(geometry_type, rules)


def lisa_renderer(geometry_type):
    labels = _labels()
    return _rules(
        geometry_type,
        [(f"\"lisa_class\" = '{c}'", color, labels[label]) for c, color, label in LISA_COLOURS]
        + [('"lisa_class" IS NULL', NO_DATA, tr("left out (no value)"))],
    )


def gi_renderer(geometry_type):
    labels = _labels()
    return _rules(
        geometry_type,
        [(f'"gi_bin" = {b}', color, labels[label]) for b, color, label in GI_COLOURS]
        + [('"gi_bin" IS NULL', NO_DATA, tr("left out (no value)"))],
    )


def mentions_renderer(layer, field="mentions", classes=5):
    """Countries by how often the answers named them: graduated (integer classes at the
    quantiles of the counts above zero, pale to dark blue), transparent where never named so
    the map beneath shows through."""
    values, _ok, _nulls = QgsVectorLayerUtils.getDoubleValues(layer, field)
    named = np.asarray([v for v in values if v == v and v > 0], float)
    hidden = QgsFillSymbol.createSimple(
        {"style": "no", "outline_color": "#9e9e9e", "outline_width": "0.1",
         "outline_width_unit": "MM"}
    )  # fmt: skip
    ranges = [QgsRendererRange(-0.5, 0.5, hidden, tr("not named"))]
    if len(named):
        breaks = np.unique(np.ceil(np.quantile(named, np.linspace(0, 1, classes + 1))))
        lows = [1.0] + [b + 1 for b in breaks[1:-1]]
        spans = [(lo, hi) for lo, hi in zip(lows, breaks[1:]) if hi >= lo] or [(1.0, breaks[-1])]
        colours = ramp("Blues")
        for k, (lo, hi) in enumerate(spans):
            t = 0.25 + 0.75 * (k + 1) / len(spans)
            if lo == hi == 1:
                label = tr("named once")
            else:
                span = f"{lo:.0f}" if lo == hi else f"{lo:.0f}–{hi:.0f}"
                label = tr("named {n} times").format(n=span)
            symbol = _symbol(QgsWkbTypes.GeometryType.PolygonGeometry, colours.color(t).name())
            ranges.append(QgsRendererRange(lo - 0.5, hi + 0.5, symbol, label))
    renderer = QgsGraduatedSymbolRenderer(field, ranges)
    renderer.setSourceColorRamp(ramp("Blues"))
    return renderer


def move_below_points(layer, project):
    """Put `layer` right under the last point layer beside it in the layer tree, so that the
    points stay visible over its polygons."""
    node = project.layerTreeRoot().findLayer(layer.id())
    if node is None:
        return False
    parent = node.parent()
    children = parent.children()
    last = -1
    for i, child in enumerate(children):
        other = child.layer() if isinstance(child, QgsLayerTreeLayer) else None
        if (
            other is not None
            and other is not layer
            and isinstance(other, QgsVectorLayer)
            and other.geometryType() == QgsWkbTypes.GeometryType.PointGeometry
        ):
            last = i
    if last < children.index(node):
        return False
    parent.insertChildNode(last + 1, node.clone())
    parent.removeChildNode(node)
    return True


# Saved styles of each output kind: (name, description, renderer factory).
STYLE_SETS = {
    "recall": (
        ("rel_error", QT_TRANSLATE_NOOP("@default", "Relative error of the recalled number")),
        (
            "log_ratio",
            QT_TRANSLATE_NOOP("@default", "Recalled number over the truth: too high or too low"),
        ),
    ),
    "units": (
        ("mean_rank_error", QT_TRANSLATE_NOOP("@default", "Mean rank error per unit")),
        ("mean_rank", QT_TRANSLATE_NOOP("@default", "Mean rank of the ratings per unit")),
    ),
    "hotspots": (
        ("lisa", QT_TRANSLATE_NOOP("@default", "Local Moran's I clusters (LISA)")),
        ("gi", QT_TRANSLATE_NOOP("@default", "Getis–Ord Gi* hot and cold spots")),
    ),
    "mentions": (
        (
            "mentions",
            QT_TRANSLATE_NOOP("@default", "Countries by how often the answers named them"),
        ),
    ),
}


def renderer_for(style, layer, topic=None, min_points=None):
    gtype = layer.geometryType()
    if style == "lisa":
        return lisa_renderer(gtype)
    if style == "gi":
        return gi_renderer(gtype)
    if style == "mentions":
        return mentions_renderer(layer)
    if style in ("rel_error", "log_ratio"):
        return recall_renderer(gtype, style)
    return unit_renderer(gtype, style, topic, min_points)


def has_values(layer, field):
    idx = layer.fields().lookupField(field)
    return idx >= 0 and layer.maximumValue(idx) is not None and str(
        layer.maximumValue(idx)) != "NULL"  # fmt: skip


def style_overlay(layer, kind, save=True, topic=None, min_points=None):
    """Apply the default style of an overlay output ('units' or 'hotspots') and, for a
    GeoPackage layer, save all its styles there (the default one as default)."""
    if not isinstance(layer, QgsVectorLayer) or not layer.isValid():
        return None
    styles = STYLE_SETS[kind]
    default = styles[0][0]
    if kind == "units" and not has_values(layer, "mean_rank_error"):
        default = "mean_rank"
    save = save and is_geopackage(layer)
    if save:
        delete_saved_styles(layer, [name for name, _ in styles])
        for name, description in styles:
            if name != default:
                layer.setRenderer(renderer_for(name, layer, topic, min_points))
                layer.saveStyleToDatabase(name, tr(description), False, "")
    layer.setRenderer(renderer_for(default, layer, topic, min_points))
    if save:
        layer.saveStyleToDatabase(default, tr("GeoBias default style"), True, "")
    layer.triggerRepaint()
    return default


def save_overlay_styles(dest, kind, topic=None, min_points=None):
    """Save the styles into a sink output when it is a GeoPackage file (after the sink closed)."""
    path = dest.split("|")[0]
    if not path.lower().endswith(".gpkg"):
        return None
    return style_overlay(QgsVectorLayer(dest, "tmp", "ogr"), kind, True, topic, min_points)


class OverlayPostProcessor(QgsProcessingLayerPostProcessorInterface):
    """Styles an overlay output when Processing loads it."""

    def __init__(self, kind, name=None, topic=None, min_points=None):
        super().__init__()
        self.kind, self.name, self.topic, self.min_points = kind, name, topic, min_points

    def postProcessLayer(self, layer, context, feedback):
        if self.name:
            layer.setName(self.name)
        style_overlay(layer, self.kind, False, self.topic, self.min_points)
        if self.kind == "mentions":  # polygons under the points
            move_below_points(layer, context.project())


_KEEP = []  # Processing keeps only a raw pointer to a post-processor


def style_overlay_output(context, layer_id, kind, name=None, topic=None, min_points=None):
    if context.willLoadLayerOnCompletion(layer_id):
        proc = OverlayPostProcessor(kind, name, topic, min_points)
        _KEEP.append(proc)
        del _KEEP[:-200]
        context.layerToLoadOnCompletionDetails(layer_id).setPostProcessor(proc)
