"""Styles as paper 1 draws its maps, layer post-processors, and default styles in the GeoPackage."""

import os

import numpy as np
from qgis.core import (
    QgsClassificationQuantile,
    QgsFeatureRequest,
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
from .metadata import facts_text, store_metadata
from .run_facts import fact_rows
from .runs import run_info

POINT_SIZE = 2.4  # mm: rated points stay visible over a basemap at any scale
OUTLINE = "#232323"  # a thin dark ring keeps pale classes (about right, mid ranks) visible
# Colour-blind-safe ramps (ColorBrewer / viridis). A topic where a higher value is worse
# (infant mortality) ranks from pale yellow to dark red, one where higher is better from pale
# to dark blue, any other on the neutral viridis: red-yellow-green would read a high infant
# mortality rating as "good".
RAMPS = {False: "YlOrRd", True: "YlGnBu", None: "Viridis"}
# Rank errors: blue underestimates, near-white "about right", red overestimates (RdBu is
# readable by colour-blind readers); five classes a reader can name.
ERROR_BREAKS = (-1.0, -0.5, -0.15, 0.15, 0.5, 1.0)


def ramp(name, invert=False):
    """A named colour ramp of QGIS's default style (a yellow-red gradient if it has none)."""
    colours = QgsStyle.defaultStyle().colorRamp(name)
    if colours is None:  # a profile without the default style database
        colours = QgsGradientColorRamp(QColor("#ffffcc"), QColor("#800026"))
    if invert:
        colours.invert()
    return colours


def _symbol(color):
    return QgsMarkerSymbol.createSimple(
        {
            "name": "circle",
            "color": color.name(),
            "outline_color": OUTLINE,
            "outline_width": "0.2",
            "outline_width_unit": "MM",
            "size": str(POINT_SIZE),
        }
    )


def topic_polarity(topic):
    """True if a higher value of the topic is better, False if worse, None if neither."""
    from ..core.survey.topics import get_topic

    return get_topic(topic).higher_is_better if topic else None


def _classes(field, classes, ramp):
    """A renderer from [(lo, hi, label)] in legend order, coloured along `ramp` by position
    of the class (first class = end of the ramp: legends read top = highest)."""
    ranges = []
    n = len(classes)
    for i, (lo, hi, label) in enumerate(classes):
        t = (n - 1 - i) / (n - 1) if n > 1 else 0.5
        ranges.append(QgsRendererRange(lo, hi, _symbol(ramp.color(t)), label))
    renderer = QgsGraduatedSymbolRenderer(field, ranges)
    renderer.setSourceColorRamp(ramp.clone())
    renderer.setSourceSymbol(_symbol(QColor("#888888")))
    return renderer


def rank_renderer(field="rank", topic=None):
    """Fractional ranks 0..1 in five named classes, highest first (a legend reads downwards).

    The legend's heading (legend_heading) says whose ranks they are: the ratings', the ground
    truth's ("truth_rank"), the mean across models ("mean_rank"); the labels stay short enough
    for the Layers panel.
    """
    eps = 1e-9  # the ends 0 and 1 belong to the outer classes
    classes = [
        (0.8, 1.0 + eps, tr("highest (0.8–1)")),
        (0.6, 0.8, tr("high (0.6–0.8)")),
        (0.4, 0.6, tr("middle (0.4–0.6)")),
        (0.2, 0.4, tr("low (0.2–0.4)")),
        (0.0 - eps, 0.2, tr("lowest (0–0.2)")),
    ]
    return _classes(field, classes, ramp(RAMPS[topic_polarity(topic)]))


def rank_error_renderer(field="rank_error"):
    """Rank error = rank of rating − rank of truth, in five classes from strong overestimate
    (red, top) to strong underestimate (blue). The labels write the breaks of ERROR_BREAKS
    (in the translation's decimal style)."""
    b = ERROR_BREAKS
    eps = 1e-9
    classes = [
        (b[4], b[5] + eps, tr("overestimate > 0.5")),
        (b[3], b[4], tr("overestimate 0.15–0.5")),
        (b[2], b[3], tr("about right (±0.15)")),
        (b[1], b[2], tr("underestimate 0.15–0.5")),
        (b[0] - eps, b[1], tr("underestimate > 0.5")),
    ]
    # RdBu runs red -> blue; inverted, its end (the first class, overestimates) is red.
    return _classes(field, classes, ramp("RdBu", invert=True))


def rank_spread_renderer(field="rank_spread"):
    """The spread of a point's rank across languages (0..1), in four classes from "the same
    in every language" to "the language changes the rank most" (top)."""
    eps = 1e-9
    classes = [
        (0.5, 1.0 + eps, tr("moves most (spread > 0.5)")),
        (0.25, 0.5, tr("moves (0.25–0.5)")),
        (0.1, 0.25, tr("moves little (0.1–0.25)")),
        (0.0 - eps, 0.1, tr("about the same in every language (< 0.1)")),
    ]
    return _classes(field, classes, ramp(RAMPS[None]))


def quantile_breaks(values, classes=5):
    """Class breaks at the quantiles of the finite values (duplicates merged)."""
    values = np.asarray(values, float)
    values = values[np.isfinite(values)]
    if len(values) == 0:
        return np.array([])
    breaks = np.unique(np.quantile(values, np.linspace(0, 1, classes + 1)))
    return np.repeat(breaks, 2) if len(breaks) == 1 else breaks


def rating_renderer(layer, field="score", classes=5, values=None, topic=None):
    """Raw ratings (0.0–9.9) graduated by quantiles (as the paper's rating maps), highest first.

    `values` are the field's values when the caller has them (no second read of the layer).
    """
    if values is None:
        values, _ok, _nulls = QgsVectorLayerUtils.getDoubleValues(layer, field)
    breaks = quantile_breaks(values, classes)
    spans = [(float(a), float(b)) for a, b in zip(breaks[:-1], breaks[1:])][::-1]
    named = [(a, b, f"{a:.1f}–{b:.1f}") for a, b in spans]  # the heading says "Rating"
    renderer = _classes(field, named, ramp(RAMPS[topic_polarity(topic)]))
    renderer.setClassificationMethod(QgsClassificationQuantile())
    return renderer


def ssi_z_renderer(field="ssi_z"):
    """The standardised Moran's I of a neighbourhood's errors (the z of its local SSI) in five
    classes drawn as the rank errors: errors more clustered than chance (red, top) to more
    dispersed (blue); |z| < 1.96 is what a random arrangement gives 95% of the time."""
    big = 1e9
    classes = [
        (2.576, big, tr("errors strongly clustered (z > 2.58)")),
        (1.96, 2.576, tr("errors clustered (z 1.96 to 2.58)")),
        (-1.96, 1.96, tr("as by chance (|z| < 1.96)")),
        (-2.576, -1.96, tr("errors dispersed (z −2.58 to −1.96)")),
        (-big, -2.576, tr("errors strongly dispersed (z < −2.58)")),
    ]
    return _classes(field, classes, ramp("RdBu", invert=True))


def quantile_renderer(field, values, label, classes=5):
    """`field` graduated by quantiles of its `values` on the yellow-red ramp, highest first;
    `label` formats each class from a and b."""
    breaks = quantile_breaks(values, classes)
    spans = [(float(a), float(b)) for a, b in zip(breaks[:-1], breaks[1:])][::-1]
    named = [(a, b, label.format(a=a, b=b)) for a, b in spans]
    renderer = _classes(field, named, ramp(RAMPS[False]))
    renderer.setClassificationMethod(QgsClassificationQuantile())
    return renderer


# Saved styles: name, description, the field drawn.
STYLE_SETS = (
    ("rank", QT_TRANSLATE_NOOP("@default", "Rank of the rating (0 lowest – 1 highest)"), "rank"),
    (
        "rank_error",
        QT_TRANSLATE_NOOP("@default", "Rank error: overestimate (red) / underestimate (blue)"),
        "rank_error",
    ),
    ("rating", QT_TRANSLATE_NOOP("@default", "Rating 0.0–9.9 by quantiles"), "score"),
    (
        "truth_rank",
        QT_TRANSLATE_NOOP("@default", "Rank of the ground truth (0 lowest – 1 highest)"),
        "truth_rank",
    ),
    # Comparison layers (geobias:comparemodels): the same classes, across models (§4.3-4.4).
    (
        "mean_rank",
        QT_TRANSLATE_NOOP("@default", "Mean rank across models (0 lowest – 1 highest)"),
        "mean_rank",
    ),
    (
        "mean_rank_error",
        QT_TRANSLATE_NOOP("@default", "Mean rank error: common overestimate (red) / underestimate"),
        "mean_rank_error",
    ),
    # Local GeoBS scores (geobias:geobiasscores): the SSI's z and the SSI itself.
    (
        "ssi_z",
        QT_TRANSLATE_NOOP(
            "@default", "Local SSI: errors clustered (red) or dispersed (blue) around the point"
        ),
        "ssi_z",
    ),
    (
        "ssi",
        QT_TRANSLATE_NOOP("@default", "Local spatial self-information of the errors (nats)"),
        "ssi",
    ),
    # Across prompt languages: how far a point's rank moves from one language to another.
    (
        "rank_spread",
        QT_TRANSLATE_NOOP(
            "@default", "Spread of the rank across prompt languages (largest − smallest)"
        ),
        "rank_spread",
    ),  # fmt: skip
)


def legend_heading(field):
    """The heading of a GeoBias layer's legend: what the classes drawn from `field` are ("" for
    a field GeoBias does not style)."""
    return {
        "rank": tr("Rank of the rating"),
        "truth_rank": tr("Rank of the ground truth"),
        "rank_error": tr("Rank error: rating − truth"),
        "score": tr("Rating, by quantiles"),
        "mean_rank": tr("Mean rank"),  # of the models compared: the group says so
        "mean_rank_error": tr("Mean rank error"),
    }.get(field, "")


def renderer_for(style, layer, values=None, topic=None):
    """The renderer of one saved style; `values` (field -> array) spares reading the layer."""
    if style in ("rank_error", "mean_rank_error"):
        return rank_error_renderer(style)
    if style == "rank_spread":
        return rank_spread_renderer(style)
    if style == "rating":
        return rating_renderer(layer, values=(values or {}).get("score"), topic=topic)
    if style == "ssi_z":
        return ssi_z_renderer()
    if style == "ssi":
        local = (values or {}).get("ssi")
        if local is None:
            local, _ok, _nulls = QgsVectorLayerUtils.getDoubleValues(layer, "ssi")
        return quantile_renderer("ssi", local, tr("SSI {a:.2f}–{b:.2f} nats"))
    return rank_renderer(style, topic)  # rank, truth_rank, mean_rank


def short_model(model):
    """A model name short enough for the Layers panel ("SmolLM2-135M-Instruct.Q4_1" ->
    "SmolLM2-135M", "gpt-3.5-turbo-0613" -> "gpt-3.5-turbo"); the full name is in the metadata.
    An ablation's variant ("… [no_address]") is kept."""
    import re

    name = str(model)
    variant = re.search(r"\s*\[[^\]]*\]$", name)
    if variant:
        base = short_model(name[: variant.start()])
        return f"{base} {variant.group().strip()}"
    name = name.split("/")[-1]
    name = re.sub(r"\.(gguf|Q\d\w*|F16|F32|BF16)$", "", name, flags=re.I)
    name = re.sub(r"[-_.](Q\d\w*|GGUF|F16|BF16)$", "", name, flags=re.I)
    name = re.sub(r"[-_](instruct|chat|it)$", "", name, flags=re.I)
    name = re.sub(r"-\d{4}(-\d{2}-\d{2})?$", "", name)
    return name if len(name) <= 18 else name[:17] + "…"


def short_topic(topic):
    """A topic name for the Layers panel ("Average Attractiveness of Residents" ->
    "Attractiveness of residents")."""
    name = str(topic)
    if name.startswith("Average ") and len(name) > 20:
        name = name[len("Average ") :]
        name = name[0].upper() + name[1:]
    name = name.replace(" of Residents", " of residents")
    return name if len(name) <= 28 else name[:27] + "…"


def layer_name(model, topic, language=""):
    """The rated layer's name in the Layers panel, "topic · model", both short (the full names
    are in the layer's metadata), and "[code]" for a layer asked in a prompt language."""
    name = f"{short_topic(topic)} · {short_model(model)}"
    return f"{name} [{language}]" if language else name


def layer_info(layer):
    """What a rated layer's description says: its model, topic, score kind, points and facts.

    Read once, before any style is saved: in QGIS 3.22 a layer object reads no feature once a
    style has been saved into its GeoPackage (another connection changed the file).
    """
    names = layer.fields().names()
    info = {"model": "", "topic": "", "kind": "", "language": "", "n": layer.featureCount()}
    wanted = [n for n in ("model", "topic", "score_kind", "language") if n in names]
    if "model" in names and "topic" in names:
        for f in layer.getFeatures(QgsFeatureRequest().setLimit(1)):
            values = {n: f[n] for n in wanted}
            for key, name in (("model", "model"), ("topic", "topic"), ("kind", "score_kind"),
                              ("language", "language")):  # fmt: skip
                value = values.get(name)
                info[key] = value if isinstance(value, str) else ""
    # A layer asked in a prompt language reads its language's runs row.
    language = info["language"] if "language" in names else None
    info["facts"] = layer_facts(layer, info["model"], info["topic"], info["kind"], info["n"],
                                language)  # fmt: skip
    return info


def describe_layer(layer, style, info=None):
    """Title and abstract of a rated layer's metadata: the map title, the full model and topic
    names, what the colours mean and what was measured (the facts of its runs table); saved
    into its GeoPackage by style_layer. `info`: layer_info(layer), read before styles are saved."""
    info = info or layer_info(layer)
    model, topic = info["model"], info["topic"]
    description = dict((s, d) for s, d, _f in STYLE_SETS).get(style, "")
    title = tr("{topic} as rated by {model}: {what}").format(
        topic=topic or layer.name(), model=model or "?", what=tr(description).lower()
    )
    polarity = topic_polarity(topic)
    higher = (
        tr("A higher value of this topic is worse.")
        if polarity is False
        else tr("A higher value of this topic is better.")
        if polarity is True
        else ""
    )
    abstract = tr(
        "GeoBias survey layer. Model: {model}. Topic: {topic}. {n} points. Map: {what}. {higher}"
    ).format(
        model=model or "?",
        topic=topic or "?",
        n=info["n"],
        what=tr(description),
        higher=higher,
    )
    if info["facts"]:  # what was measured, as the runs table of the layer's GeoPackage says
        abstract = f"{abstract.strip()}\n\n{facts_text(info['facts'])}"
    meta = layer.metadata()
    meta.setTitle(title)
    meta.setAbstract(abstract.strip())
    meta.setKeywords({"GeoBias": ["GeoBias", model, topic]})
    layer.setMetadata(meta)
    return title


def layer_facts(layer, model="", topic="", kind="", n_points=None, language=None):
    """(label, value) rows of what a layer measured, from the runs table of its GeoPackage
    (or its folder's; the row of its prompt `language` when given); [] when none records it."""
    run = run_info(layer.source(), model or None, topic or None, language=language)
    if run is None:
        return []
    return fact_rows(run, model, topic, kind, n_points=n_points)


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
    if default.endswith("rank_error") and not has_values(layer, default, values):
        default = default[: -len("_error")]  # rank_error -> rank, mean_rank_error -> mean_rank
    save = save and is_geopackage(layer)
    info = layer_info(layer)  # before a style is saved: the layer reads nothing afterwards
    if save:
        delete_saved_styles(layer, [style for style, _, _ in STYLE_SETS])
    saved = []
    chosen = None
    topic = info["topic"] or None
    for style, description, field in STYLE_SETS:
        if layer.fields().lookupField(field) < 0 or not (save or style == default):
            continue
        renderer = renderer_for(style, layer, values, topic)
        if style == default:
            chosen = renderer
        elif save:
            layer.setRenderer(renderer)
            describe_layer(layer, style, info)
            layer.saveStyleToDatabase(style, tr(description), False, "")
            saved.append(style)
    if chosen is None:
        return saved
    layer.setRenderer(chosen)
    describe_layer(layer, default, info)
    if save:
        layer.saveStyleToDatabase(default, tr("GeoBias default style"), True, "")
        store_metadata(layer)  # the title and what was measured travel with the file
        saved.append(default)
    layer.triggerRepaint()
    return saved


def describe_shown(layer):
    """describe_layer for the style the layer shows now (after its default style loaded)."""
    renderer = layer.renderer()
    field = renderer.classAttribute() if hasattr(renderer, "classAttribute") else ""
    style = {"rank_error": "rank_error", "score": "rating", "truth_rank": "truth_rank",
             "mean_rank": "mean_rank", "mean_rank_error": "mean_rank_error",
             "ssi_z": "ssi_z", "ssi": "ssi", "rank_spread": "rank_spread"}  # fmt: skip
    return describe_layer(layer, style.get(field, "rank"))


def _first_value(layer, field):
    if layer.fields().lookupField(field) < 0:
        return None
    for f in layer.getFeatures(QgsFeatureRequest().setLimit(1)):
        return str(f[field])
    return None


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
