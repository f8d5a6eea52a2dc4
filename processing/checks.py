"""The values a user gave, checked before anything runs: what QGIS's own checks let through.

`check_given_values` runs in every GeoBias algorithm's `checkParameterValues` and again in
`prepareAlgorithm` (processing/base.py), so a bad value is refused in a sentence naming its
parameter before anything is read, written, started or sent (docs/design.md, Bad parameters).
"""

import math
import os
import re

from qgis.core import (
    QgsProcessing,
    QgsProcessingOutputLayerDefinition,
    QgsProcessingParameterField,
    QgsProcessingParameterFile,
    QgsProperty,
    QgsWkbTypes,
)

from ..i18n_util import QT_TRANSLATE_NOOP, tr

# A file parameter whose file may not exist yet (GeoBias creates it, e.g. a cache): its
# definition's metadata holds {MAY_CREATE: True}.
MAY_CREATE = "geobias_may_create"


# The largest value of each count-like integer parameter (by key, in every algorithm): enough
# for any real study, small enough that a typo (1e9 samples) is refused before it is tried
# rather than ending in a MemoryError or a run of years. processing/base.py applies them.
COUNT_LIMITS = {
    "N_BOOT": 100_000,  # bootstrap resamples
    "PERMUTATIONS": 99_999,
    "N_SAMPLES": 1_000,  # probes: answers per prompt
    "MAX_TOKENS": 32_768,
    "COUNT": 1_000_000,  # sampled points
    "N_POINTS": 1_000_000,
    "MAX_REQUESTS": 10_000_000,
    "MIN_POINTS": 1_000_000,
    "SECTORS": 360,
    "K": 1_000,  # neighbours
    "MAX_CENTRES": 100_000,
    "MAX_CITIES": 1_000,  # HERB: cities per country
    "MIN_POPULATION": 100_000_000,  # HERB: above the largest city
    "MAX_MB": 100_000,
    # A survey's size is guarded by MAX_REQUESTS, which says the run's requests and cost.
    "survey/COUNT": None,
}


def count_limit(algorithm, key):
    """The largest value of parameter `key` of `algorithm` (its NAME), or None."""
    return COUNT_LIMITS.get(f"{algorithm}/{key}", COUNT_LIMITS.get(key))


def bound_count(definition, algorithm=""):
    """Give a count-like integer parameter its largest value (COUNT_LIMITS), unless it has a
    smaller one already."""
    limit = count_limit(algorithm, definition.name())
    if limit is not None and definition.type() == "number" and definition.maximum() > limit:
        definition.setMaximum(limit)
    return definition


def check_given_values(alg, parameters, context):
    """The first problem of a value the user gave, in a sentence naming its parameter ("" if
    none).

    What QGIS's own checks let through: a number that is NaN ("nan" passes them), a layer that
    cannot be loaded, has no coordinate reference system, no features or the wrong geometry, a
    field or a band its layer lacks, a folder for a file or a file for a folder, a missing
    input file, a zero-area extent, an output that cannot be written. A value is checked when
    given, whether or not the other settings use it, so a bad value never waits for a run to
    reach it. Called before a run (checkParameterValues, prepareAlgorithm): nothing is read
    beyond the layers' metadata and nothing is written.
    """
    for d in alg.parameterDefinitions():
        value = parameters.get(d.name())
        if value is None or (isinstance(value, (str, list)) and not value):
            continue
        problem = _value_problem(alg, d, value, parameters, context)
        if problem:
            return tr("{label} ({key}): {problem}").format(
                label=short_label(d), key=d.name(), problem=problem
            )
    return ""


def short_label(definition):
    """A parameter's label without its parenthesised explanation, for messages that add the
    key: "Anchoring field (higher = better off…)" → "Anchoring field"."""
    return definition.description().split(" (")[0]


def _value_problem(alg, d, value, parameters, context):
    kind = d.type()
    if kind == "number":
        number = alg.parameterAsDouble(parameters, d.name(), context)
        return "" if math.isfinite(number) else tr("{value} is not a number.").format(value=value)
    if kind == "multilayer" and _enum_int(d.layerType()) == _enum_int(
        QgsProcessing.SourceType.TypeFile
    ):  # files of any kind (benchmark cards), not layers
        for path in alg.parameterAsFileList(parameters, d.name(), context):
            if path and os.path.isdir(path):
                return tr("{path} is a folder, not a file.").format(path=path)
            if path and not os.path.exists(path):
                return tr("the file {path} does not exist.").format(path=path)
        return ""
    if kind in ("source", "vector", "multilayer"):
        if kind == "multilayer":
            given = value if isinstance(value, (list, tuple)) else [value]
            layers = alg.parameterAsLayerList(parameters, d.name(), context)
            if len(layers) < len(given):
                return tr("a layer of {value} cannot be loaded.").format(value=value)
            wanted = [d.layerType()]
        else:
            read = alg.parameterAsSource if kind == "source" else alg.parameterAsVectorLayer
            layers = [read(parameters, d.name(), context)]
            if layers[0] is None:
                return tr("{value} cannot be loaded as a layer.").format(value=value)
            wanted = d.dataTypes()
        for layer in layers:
            problem = _layer_problem(layer, wanted)
            if problem:
                return problem
        return ""
    if kind == "raster":
        layer = alg.parameterAsRasterLayer(parameters, d.name(), context)
        if layer is None:
            return tr("{value} cannot be loaded as a raster.").format(value=value)
        if not layer.crs().isValid():
            return tr("the raster {name} has no coordinate reference system; assign one "
                      "first.").format(name=layer.name())  # fmt: skip
        return ""
    if kind == "band":
        return _band_problem(alg, d, value, parameters, context)
    if kind == "field":
        return _field_problem(alg, d, parameters, context)
    if kind == "file":
        return _file_problem(d, alg.parameterAsFile(parameters, d.name(), context))
    if kind == "extent":
        named = re.search(r"\[(.*)\]\s*$", value) if isinstance(value, str) else None
        if named and not alg.parameterAsExtentCrs(parameters, d.name(), context).isValid():
            return tr("{crs} is not a valid coordinate reference system.").format(
                crs=named.group(1).strip() or "[]"
            )
        rect = alg.parameterAsExtent(parameters, d.name(), context)
        if rect.isNull() or rect.width() <= 0 or rect.height() <= 0:
            return tr("the extent {value} is empty.").format(value=value)
        return ""
    if d.isDestination():
        return _destination_problem(d, value)
    return ""


def _enum_int(value):
    """An enum member as its integer value (Qt5 enums are ints, Qt6 ones are not)."""
    return value if isinstance(value, int) else int(getattr(value, "value", value))


_GEOMETRY_WORDS = {
    0: QT_TRANSLATE_NOOP("@default", "points"),
    1: QT_TRANSLATE_NOOP("@default", "lines"),
    2: QT_TRANSLATE_NOOP("@default", "polygons"),
}


def _layer_problem(layer, wanted):
    """A vector layer without CRS, features or the geometry `wanted` (SourceType values)."""
    name = layer.sourceName() if hasattr(layer, "sourceName") else layer.name()
    geometry_type = _enum_int(QgsWkbTypes.geometryType(layer.wkbType()))
    spatial = geometry_type in _GEOMETRY_WORDS
    if spatial and not layer.sourceCrs().isValid():
        return tr("the layer {name} has no coordinate reference system; assign one "
                  "first.").format(name=name)  # fmt: skip
    if layer.featureCount() == 0:
        return tr("the layer {name} has no features.").format(name=name)
    kinds = {_enum_int(t) for t in wanted}
    if kinds <= set(_GEOMETRY_WORDS) and geometry_type not in kinds:
        return tr("the layer {name} holds {found}; {wanted} are expected.").format(
            name=name,
            found=tr(_GEOMETRY_WORDS[geometry_type]) if spatial else tr("no geometry"),
            wanted=tr(" or ").join(tr(_GEOMETRY_WORDS[k]) for k in sorted(kinds)),
        )
    return ""


def _parent_layer(alg, d, parameters, context, raster=False):
    parent = d.parentLayerParameterName()
    if not parent or not parameters.get(parent):
        return None
    if raster:
        return alg.parameterAsRasterLayer(parameters, parent, context)
    return alg.parameterAsSource(parameters, parent, context) or alg.parameterAsVectorLayer(
        parameters, parent, context
    )


def _band_problem(alg, d, value, parameters, context):
    raster = _parent_layer(alg, d, parameters, context, raster=True)
    if raster is None:
        return ""
    try:
        band = int(str(value).strip())
    except ValueError:
        return tr("{value} is not a band number.").format(value=value)
    if not 1 <= band <= raster.bandCount():
        return tr("the raster {name} has no band {band} (it has {n}).").format(
            name=raster.name(), band=band, n=raster.bandCount()
        )
    return ""


def _field_problem(alg, d, parameters, context):
    parent = d.parentLayerParameterName()
    if parent and not parameters.get(parent):  # a field of no layer: say so, do not ignore it
        of = alg.parameterDefinition(parent)
        return tr("a field needs its layer, and no layer is given in {label} ({key}).").format(
            label=short_label(of) if of is not None else parent, key=parent
        )
    layer = _parent_layer(alg, d, parameters, context)
    if layer is None:
        return ""
    read = getattr(alg, "parameterAsStrings", None) or alg.parameterAsFields
    fields = layer.fields()
    for name in read(parameters, d.name(), context):
        index = fields.lookupField(name)
        if index < 0:
            return tr("the layer has no field '{name}'.").format(name=name)
        numeric = _enum_int(d.dataType()) == _enum_int(QgsProcessingParameterField.DataType.Numeric)
        if numeric and not fields.at(index).isNumeric():
            return tr("field '{name}' is not numeric.").format(name=name)
    return ""


def _file_problem(d, path):
    if not path:
        return ""
    folder_wanted = _enum_int(d.behavior()) == _enum_int(QgsProcessingParameterFile.Behavior.Folder)
    if folder_wanted:
        if os.path.isdir(path):
            return ""
        if os.path.exists(path):
            return tr("{path} is a file, not a folder.").format(path=path)
        return tr("the folder {path} does not exist.").format(path=path)
    if os.path.isdir(path):
        return tr("{path} is a folder, not a file.").format(path=path)
    if os.path.exists(path):
        return ""
    if (d.metadata() or {}).get(MAY_CREATE):
        return _writable_problem(path)
    return tr("the file {path} does not exist.").format(path=path)


def _destination_path(value):
    """The file or folder path an output parameter's value names ("" for memory layers,
    temporary outputs and database URIs)."""
    if isinstance(value, QgsProcessingOutputLayerDefinition):
        value = value.sink
    if isinstance(value, QgsProperty):
        value = value.staticValue()
    path = str(value or "").split("|")[0]
    if not path or path == QgsProcessing.TEMPORARY_OUTPUT:
        return ""
    # memory:, ogr:, postgres:... (a drive letter such as C:\ is a path)
    scheme = path.split(":", 1)[0] if ":" in path else ""
    if len(scheme) > 1 and scheme.replace("_", "").isalnum():
        return ""
    return path


def _destination_problem(d, value):
    path = _destination_path(value)
    if not path:
        return ""
    if d.type() == "folderDestination":
        if os.path.exists(path) and not os.path.isdir(path):
            return tr("{path} is a file, not a folder.").format(path=path)
    elif os.path.isdir(path):
        return tr("{path} is a folder; give a file name.").format(path=path)
    return _writable_problem(path)


def _writable_problem(path):
    """Whether `path` (or the nearest folder that exists above it) can be written."""
    target = os.path.abspath(path)
    while not os.path.exists(target):
        parent = os.path.dirname(target)
        if parent == target:
            break
        target = parent
    folder = target if os.path.isdir(target) else os.path.dirname(target)
    if not os.access(target, os.W_OK) or not os.access(folder, os.W_OK | os.X_OK):
        return tr("{path} cannot be written (no permission, or a read-only folder).").format(
            path=path
        )
    return ""
