"""QGIS <-> numpy for areal units: polygons as shapely in their own CRS, points moved into that
CRS, each feature's place for spatial weights, attribute columns, and writing units back."""

import math

import numpy as np
from qgis.core import (
    QgsCoordinateTransform,
    QgsFeature,
    QgsFeatureRequest,
    QgsField,
    QgsFields,
    QgsProcessingException,
    QgsUnitTypes,
    QgsWkbTypes,
)

from ..core.geo import geometry
from ..core.stats.spatial_weights import spherical_centroid
from ..i18n_util import tr
from .features import add_to_sink, field_type, source_features

QT_TYPES = {"int": "Int", "real": "Double", "text": "QString"}


def unit_polygons(source, feedback=None):
    """(feature ids, shapely polygons in the source's CRS) of a polygon source; invalid
    geometries repaired, features without a geometry kept out (their id is not listed)."""
    request = QgsFeatureRequest().setNoAttributes()
    fids, geoms, repaired = [], [], 0
    for feature in source_features(source, request):
        geom = feature.geometry()
        if geom is None or geom.isNull() or geom.isEmpty():
            continue
        if not geom.isGeosValid():
            geom = geom.makeValid()
            repaired += 1
        fids.append(feature.id())
        geoms.append(geometry.from_wkb(bytes(geom.asWkb())))
    if repaired and feedback is not None:
        feedback.pushWarning(
            tr("{n} invalid polygon geometries were repaired with makeValid.").format(n=repaired)
        )
    return np.asarray(fids, dtype=np.int64), geoms


def points_in_crs(source, crs, context, fields=()):
    """x, y of a point source's features in `crs` (NaN where they cannot be transformed) and
    attribute columns, in feature order."""
    transform = QgsCoordinateTransform(source.sourceCrs(), crs, context.transformContext())
    request = QgsFeatureRequest()
    request.setSubsetOfAttributes(list(fields), source.fields())
    xs, ys, cols = [], [], {f: [] for f in fields}
    for feature in source.getFeatures(request):
        x = y = math.nan
        geom = feature.geometry()
        if geom is not None and not geom.isNull():
            p = geom.centroid().asPoint()
            try:
                q = transform.transform(p)
                x, y = q.x(), q.y()
            except Exception:  # QgsCsException: the point lies outside the CRS's area
                pass
        xs.append(x)
        ys.append(y)
        for f in fields:
            cols[f].append(feature[f])
    return np.asarray(xs, float), np.asarray(ys, float), cols


def columns_of(source, names, context=None):
    """Attribute columns (lists) and feature ids of a source, in feature order."""
    request = QgsFeatureRequest().setFlags(QgsFeatureRequest.Flag.NoGeometry)
    request.setSubsetOfAttributes(list(names), source.fields())
    cols, fids = {n: [] for n in names}, []
    for feature in source.getFeatures(request):
        fids.append(feature.id())
        for n in names:
            cols[n].append(feature[n])
    return cols, np.asarray(fids, dtype=np.int64)


def unit_places(source, context):
    """Each feature's place for spatial weights: (fids, x, y, geographic).

    Lon/lat layers give lon/lat degrees (great-circle weights): a polygon's place is the mean
    direction of its parts' centroids weighted by their area, which stays right for a country
    split at the antimeridian. Projected layers give the centroid in km. Features without a
    geometry get NaN.
    """
    crs = source.sourceCrs()
    geographic = crs.isGeographic()
    factor = 1.0
    if not geographic:
        factor = QgsUnitTypes.fromUnitToUnitFactor(
            crs.mapUnits(), QgsUnitTypes.DistanceUnit.DistanceKilometers
        )
        if not factor > 0 or not math.isfinite(factor):
            raise QgsProcessingException(
                tr("The layer's CRS {crs} has no linear unit; reproject it first.").format(
                    crs=crs.authid()
                )
            )
    fids, xs, ys = [], [], []
    request = QgsFeatureRequest().setNoAttributes()
    for feature in source_features(source, request):
        fids.append(feature.id())
        geom = feature.geometry()
        x = y = math.nan
        if geom is not None and not geom.isNull() and not geom.isEmpty():
            if geographic and geom.type() == QgsWkbTypes.GeometryType.PolygonGeometry:
                x, y = _lonlat_place(geom)
            else:
                p = geom.centroid().asPoint()
                x, y = p.x() * factor, p.y() * factor
        xs.append(x)
        ys.append(y)
    return np.asarray(fids, np.int64), np.asarray(xs, float), np.asarray(ys, float), geographic


def _lonlat_place(geom):
    parts = geom.asGeometryCollection() if geom.isMultipart() else [geom]
    lon, lat, weight = [], [], []
    for part in parts:
        c = part.centroid().asPoint()
        lon.append(c.x())
        lat.append(c.y())
        weight.append(max(part.area(), 1e-12) * math.cos(math.radians(c.y())))
    try:
        return spherical_centroid(lon, lat, weight)
    except ValueError:
        c = geom.centroid().asPoint()
        return c.x(), c.y()


def extended_fields(source_fields, extra):
    """The source's fields plus `extra` (name -> "int"/"real"/"text"); an extra field whose
    name the source already has replaces it. Returns (fields, positions of the extras)."""
    fields = QgsFields()
    for f in source_fields:
        if f.name() not in extra:
            fields.append(f)
    for name, kind in extra.items():
        fields.append(QgsField(name, field_type(QT_TYPES[kind])))
    return fields, {name: fields.lookupField(name) for name in extra}


def _value(v):
    if v is None:
        return None
    if isinstance(v, (float, np.floating)):
        return None if not math.isfinite(float(v)) else float(v)
    if isinstance(v, (np.integer, np.bool_)):
        return int(v)
    return v


def write_units(source, sink, fields, positions, values_by_fid, feedback):
    """Copy the source's features into the sink with the extra columns filled per feature id
    (values_by_fid: fid -> {name: value}); False when cancelled."""
    total = max(source.featureCount(), 1)
    batch = []
    for k, feature in enumerate(source_features(source, QgsFeatureRequest())):
        out = QgsFeature(fields)
        out.setGeometry(feature.geometry())
        attrs = [None] * fields.count()
        for f in feature.fields():
            i = fields.lookupField(f.name())
            if i >= 0 and f.name() not in positions:
                attrs[i] = feature[f.name()]
        for name, value in values_by_fid.get(feature.id(), {}).items():
            attrs[positions[name]] = _value(value)
        out.setAttributes(attrs)
        batch.append(out)
        if len(batch) == 2000:
            add_to_sink(sink, batch)
            batch = []
            if feedback.isCanceled():
                return False
            feedback.setProgress(80 + 20.0 * k / total)
    add_to_sink(sink, batch)
    return True


# The value analysed when none is named: units from 'Aggregate ratings to polygons', else
# rated points with ground truth. (QGIS 3.22 does not apply a field parameter's default when
# the parameter is left out, so these parameters are optional and default here.)
DEFAULT_VALUE_FIELDS = ("mean_rank_error", "rank_error")


def value_field_of(alg, parameters, name, context, source):
    """The field named by parameter `name`, or the first of DEFAULT_VALUE_FIELDS the source has."""
    field = alg.parameterAsString(parameters, name, context)
    if field:
        return field
    for candidate in DEFAULT_VALUE_FIELDS:
        if source.fields().lookupField(candidate) >= 0:
            return candidate
    raise QgsProcessingException(
        tr("Choose the value to analyse ({name}): the layer has neither mean_rank_error nor "
           "rank_error.").format(name=name)
    )  # fmt: skip
