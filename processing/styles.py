"""Styles as paper 1 draws its maps, layer post-processors, and default styles in the GeoPackage."""

from qgis.core import (
    QgsClassificationQuantile,
    QgsGradientColorRamp,
    QgsGraduatedSymbolRenderer,
    QgsMarkerSymbol,
    QgsProcessingLayerPostProcessorInterface,
    QgsRendererRange,
    QgsStyle,
    QgsVectorLayer,
)
from qgis.PyQt.QtGui import QColor

from ..i18n_util import tr

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


def _fixed_ranges(field, lo, hi, ramp, decimals=2):
    """Equal-width classes over [lo, hi] coloured along `ramp` (fixed, data-independent)."""
    ranges = []
    step = (hi - lo) / N_CLASSES
    for i in range(N_CLASSES):
        a, b = lo + i * step, lo + (i + 1) * step
        color = ramp.color(i / (N_CLASSES - 1))
        label = f"{a:.{decimals}f} – {b:.{decimals}f}"
        ranges.append(QgsRendererRange(a, b, _symbol(color), label))
    # Values exactly at the ends belong to the outer classes.
    ranges[0].setLowerValue(lo - 1e-9)
    ranges[-1].setUpperValue(hi + 1e-9)
    renderer = QgsGraduatedSymbolRenderer(field, ranges)
    renderer.setSourceColorRamp(ramp.clone())
    return renderer


def rank_renderer(field="rank"):
    """Fractional ranks 0..1 on the red-yellow-green ramp (low rank red, high rank green)."""
    return _fixed_ranges(field, 0.0, 1.0, _ramp("RdYlGn"))


def rank_error_renderer(field="rank_error", bound=1.0):
    """Rank errors symmetric around 0: red overestimates (> 0), white 0, blue underestimates."""
    # RdBu runs red -> blue; inverted it runs blue (negative) -> red (positive).
    return _fixed_ranges(field, -bound, bound, _ramp("RdBu", invert=True))


def rating_renderer(layer, field="score", classes=5):
    """Raw ratings graduated by quantiles (as the paper's rating maps)."""
    renderer = QgsGraduatedSymbolRenderer(field)
    renderer.setClassificationMethod(QgsClassificationQuantile())
    renderer.setSourceSymbol(_symbol(QColor("#888888")))
    renderer.setSourceColorRamp(_ramp("RdYlGn"))
    renderer.updateClasses(layer, classes)
    return renderer


# Saved styles: name, description, renderer factory, needed field.
STYLE_SETS = (
    ("rank", "Rank of the score (0..1), red-yellow-green", lambda lyr: rank_renderer(), "rank"),
    (
        "rank_error",
        "Rank error: red overestimate, white 0, blue underestimate",
        lambda lyr: rank_error_renderer(),
        "rank_error",
    ),
    ("rating", "Score by quantiles", lambda lyr: rating_renderer(lyr), "score"),
    (
        "truth_rank",
        "Rank of the ground truth (0..1)",
        lambda lyr: rank_renderer("truth_rank"),
        "truth_rank",
    ),
)


def has_values(layer, field):
    """True when `field` exists and holds at least one non-null value."""
    idx = layer.fields().lookupField(field)
    if idx < 0:
        return False
    return layer.maximumValue(idx) is not None and str(layer.maximumValue(idx)) != "NULL"


def style_layer(layer, default="rank", save=True):
    """Apply the default renderer and, for GeoPackage layers, save all styles with it as default."""
    if not isinstance(layer, QgsVectorLayer) or not layer.isValid():
        return []
    if default == "rank_error" and not has_values(layer, "rank_error"):
        default = "rank"
    saved = []
    chosen = None
    is_gpkg = layer.providerType() == "ogr" and ".gpkg" in layer.source().lower()
    for name, description, factory, field in STYLE_SETS:
        if layer.fields().lookupField(field) < 0:
            continue
        renderer = factory(layer)
        if name == default:
            chosen = renderer
        if save and is_gpkg and name != default:
            layer.setRenderer(renderer)
            layer.saveStyleToDatabase(name, tr(description), False, "")
            saved.append(name)
    if chosen is None:
        return saved
    layer.setRenderer(chosen)
    if save and is_gpkg:
        layer.saveStyleToDatabase(default, tr("GeoBias default style"), True, "")
        saved.append(default)
    layer.triggerRepaint()
    return saved


def style_file(uri, default="rank"):
    """Open a GeoPackage layer by URI and save its styles (used after OGR writes)."""
    layer = QgsVectorLayer(uri, "tmp", "ogr")
    return style_layer(layer, default=default)


class StylePostProcessor(QgsProcessingLayerPostProcessorInterface):
    """Styles an output layer when Processing loads it."""

    def __init__(self, default="rank", name=None):
        super().__init__()
        self.default = default
        self.name = name

    def postProcessLayer(self, layer, context, feedback):
        if self.name:
            layer.setName(self.name)
        style_layer(layer, default=self.default)


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
