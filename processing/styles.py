"""Styles as paper 1 draws its maps, layer post-processors, and default styles in the GeoPackage."""

import os

import numpy as np
from qgis.core import (
    QgsClassificationQuantile,
    QgsGradientColorRamp,
    QgsGraduatedSymbolRenderer,
    QgsMarkerSymbol,
    QgsProcessingLayerPostProcessorInterface,
    QgsRendererRange,
    QgsStyle,
    QgsVectorLayer,
    QgsVectorLayerUtils,
)
from qgis.PyQt.QtGui import QColor

from ..i18n_util import QT_TRANSLATE_NOOP, tr

N_CLASSES = 10
POINT_SIZE = 1.8


def _ramp(name, invert=False):
    ramp = QgsStyle.defaultStyle().colorRamp(name)
    if ramp is None:  # a profile without the default style database
        ramp = QgsGradientColorRamp(QColor("#d73027"), QColor("#1a9850"))
        ramp.setStops([])
    if invert:
        ramp.invert()
    return ramp


def _symbol(color):
    symbol = QgsMarkerSymbol.createSimple(
        {"name": "circle", "color": color.name(), "outline_style": "no", "size": str(POINT_SIZE)}
    )
    return symbol


def _graduated(field, breaks, ramp, decimals=2):
    """Classes between consecutive `breaks`, coloured along `ramp` from first to last class."""
    n = len(breaks) - 1
    ranges = []
    for i in range(n):
        a, b = float(breaks[i]), float(breaks[i + 1])
        color = ramp.color(i / (n - 1) if n > 1 else 0.5)
        label = f"{a:.{decimals}f} – {b:.{decimals}f}"
        ranges.append(QgsRendererRange(a, b, _symbol(color), label))
    renderer = QgsGraduatedSymbolRenderer(field, ranges)
    renderer.setSourceColorRamp(ramp.clone())
    return renderer


def _fixed_ranges(field, lo, hi, ramp, decimals=2):
    """Equal-width classes over [lo, hi] coloured along `ramp` (fixed, data-independent)."""
    renderer = _graduated(field, np.linspace(lo, hi, N_CLASSES + 1), ramp, decimals)
    # Values exactly at the ends belong to the outer classes.
    renderer.updateRangeLowerValue(0, lo - 1e-9)
    renderer.updateRangeUpperValue(N_CLASSES - 1, hi + 1e-9)
    return renderer


def rank_renderer(field="rank"):
    """Fractional ranks 0..1 on the red-yellow-green ramp (low rank red, high rank green)."""
    return _fixed_ranges(field, 0.0, 1.0, _ramp("RdYlGn"))


def rank_error_renderer(field="rank_error", bound=1.0):
    """Rank errors symmetric around 0: red overestimates (> 0), white 0, blue underestimates."""
    # RdBu runs red -> blue; inverted it runs blue (negative) -> red (positive).
    return _fixed_ranges(field, -bound, bound, _ramp("RdBu", invert=True))


def quantile_breaks(values, classes=5):
    """Class breaks at the quantiles of the finite values (duplicates merged)."""
    values = np.asarray(values, float)
    values = values[np.isfinite(values)]
    if len(values) == 0:
        return np.array([])
    breaks = np.unique(np.quantile(values, np.linspace(0, 1, classes + 1)))
    return np.repeat(breaks, 2) if len(breaks) == 1 else breaks


def rating_renderer(layer, field="score", classes=5, values=None):
    """Raw ratings graduated by quantiles (as the paper's rating maps).

    `values` are the field's values when the caller has them (no second read of the layer).
    """
    if values is None:
        values, _ok, _nulls = QgsVectorLayerUtils.getDoubleValues(layer, field)
    renderer = _graduated(field, quantile_breaks(values, classes), _ramp("RdYlGn"), decimals=1)
    renderer.setClassificationMethod(QgsClassificationQuantile())
    renderer.setSourceSymbol(_symbol(QColor("#888888")))
    return renderer


# Saved styles: name, description, the field drawn.
STYLE_SETS = (
    ("rank", QT_TRANSLATE_NOOP("@default", "Rank of the score (0..1), red-yellow-green"), "rank"),
    (
        "rank_error",
        QT_TRANSLATE_NOOP("@default", "Rank error: red overestimate, white 0, blue underestimate"),
        "rank_error",
    ),
    ("rating", QT_TRANSLATE_NOOP("@default", "Score by quantiles"), "score"),
    ("truth_rank", QT_TRANSLATE_NOOP("@default", "Rank of the ground truth (0..1)"), "truth_rank"),
)


def renderer_for(style, layer, values=None):
    """The renderer of one saved style; `values` (field -> array) spares reading the layer."""
    if style == "rank_error":
        return rank_error_renderer()
    if style == "rating":
        return rating_renderer(layer, values=(values or {}).get("score"))
    return rank_renderer(style)  # rank, truth_rank


def has_values(layer, field, values=None):
    """True when `field` exists and holds at least one non-null value."""
    idx = layer.fields().lookupField(field)
    if idx < 0:
        return False
    if values is not None and field in values:
        return bool(np.isfinite(np.asarray(values[field], float)).any())
    return layer.maximumValue(idx) is not None and str(layer.maximumValue(idx)) != "NULL"


def is_geopackage(layer):
    return layer.providerType() == "ogr" and layer.dataProvider().storageType() == "GPKG"


def style_layer(layer, default="rank", save=True, values=None):
    """Apply the default renderer and, for GeoPackage layers, save all styles with it as default.

    `default` "rank_error" falls back to "rank" when the layer has no rank errors (no truth).
    Returns the names of the saved styles.
    """
    if not isinstance(layer, QgsVectorLayer) or not layer.isValid():
        return []
    if default == "rank_error" and not has_values(layer, "rank_error", values):
        default = "rank"
    save = save and is_geopackage(layer)
    if save:
        delete_saved_styles(layer, [style for style, _, _ in STYLE_SETS])
    saved = []
    chosen = None
    for style, description, field in STYLE_SETS:
        if layer.fields().lookupField(field) < 0 or not (save or style == default):
            continue
        renderer = renderer_for(style, layer, values)
        if style == default:
            chosen = renderer
        elif save:
            layer.setRenderer(renderer)
            layer.saveStyleToDatabase(style, tr(description), False, "")
            saved.append(style)
    if chosen is None:
        return saved
    layer.setRenderer(chosen)
    if save:
        layer.saveStyleToDatabase(default, tr("GeoBias default style"), True, "")
        saved.append(default)
    layer.triggerRepaint()
    return saved


def delete_saved_styles(layer, names):
    """Delete this layer's saved styles called `names` before saving them again.

    QGIS 3.22 asks in a dialog before overwriting a style of the same name (a hang headless).
    """
    n_related, ids, styles, _descriptions, _error = layer.listStylesInDatabase()
    for style_id, name in zip(ids[:n_related], styles[:n_related]):
        if name in names:
            layer.deleteStyleFromDatabase(style_id)


def style_file(uri, default="rank", values=None):
    """Open a GeoPackage layer by URI and save its styles (used after OGR writes)."""
    layer = QgsVectorLayer(uri, "tmp", "ogr")
    return style_layer(layer, default=default, values=values)


def save_output_styles(dest, default="rank", values=None):
    """Save the styles into a sink output when it is a GeoPackage file, however the algorithm ran.

    Call it after the sink is deleted (the file is complete only then). Other formats
    (memory layers, shapefiles) cannot hold styles: nothing is saved.
    """
    path = dest.split("|")[0]
    if not path.lower().endswith(".gpkg") or not os.path.isfile(path):
        return []
    return style_file(dest, default, values)


class StylePostProcessor(QgsProcessingLayerPostProcessorInterface):
    """Styles an output layer when Processing loads it (the algorithm already saved the styles)."""

    def __init__(self, default="rank", name=None):
        super().__init__()
        self.default = default
        self.name = name

    def postProcessLayer(self, layer, context, feedback):
        if self.name:
            layer.setName(self.name)
        style_layer(layer, default=self.default, save=False)


# Post-processors must outlive the algorithm run: Processing only keeps a raw pointer.
_KEEP = []


def post_processor(default="rank", name=None):
    """A StylePostProcessor kept alive for LayerDetails.setPostProcessor."""
    proc = StylePostProcessor(default, name)
    _KEEP.append(proc)
    del _KEEP[:-200]
    return proc


def style_output(context, layer_id, default="rank", name=None):
    """Attach a styling post-processor to an output that Processing will load."""
    if context.willLoadLayerOnCompletion(layer_id):
        details = context.layerToLoadOnCompletionDetails(layer_id)
        details.setPostProcessor(post_processor(default, name))
