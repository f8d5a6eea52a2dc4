"""QGIS features <-> numpy: polygon sources as lon/lat regions, points and fields as arrays,
columns back into Processing sinks."""

import math

import numpy as np
from osgeo import ogr
from qgis.core import (
    QgsFeatureRequest,
    QgsProcessingException,
    QgsProcessingFeatureSource,
)

from ..core.geo import geometry
from ..i18n_util import tr
from .crs import WGS84, lonlat_region, to_wgs84
from .gpkg import RATED_FIELDS


def region_geometry(source, context, feedback, selected_only=False):
    """Union of a polygon source's features as a shapely geometry in lon/lat, repaired if needed.

    Features are read and repaired in their own CRS, then taken to lon/lat by lonlat_region.
    """
    request = QgsFeatureRequest()
    request.setFlags(QgsFeatureRequest.Flag.NoFlags)
    parts, repaired = [], 0
    for feature in source_features(source, request):
        geom = feature.geometry()
        if geom is None or geom.isNull() or geom.isEmpty():
            continue
        if not geom.isGeosValid():
            geom = geom.makeValid()
            repaired += 1
        parts.append(geometry.from_wkb(bytes(geom.asWkb())))
    polygons = [p for g in parts for p in _polygons(g)]
    if repaired:
        feedback.pushWarning(
            tr("{n} invalid region geometries were repaired with makeValid.").format(n=repaired)
        )
    region = geometry.union_all(polygons) if polygons else None
    if region is None or region.is_empty or region.area == 0:
        raise QgsProcessingException(tr("The region has no polygon with an area."))
    return lonlat_region(region, source.sourceCrs())


def source_features(source, request):
    """Features without Processing's invalid-geometry check: GeoBias repairs them itself."""
    if isinstance(source, QgsProcessingFeatureSource):
        return source.getFeatures(
            request, QgsProcessingFeatureSource.Flag.FlagSkipGeometryValidityChecks
        )
    return source.getFeatures(request)


def extent_region(rectangle, crs, context):
    """A QgsRectangle in `crs` as a lon/lat shapely region (see lonlat_region)."""
    rect = geometry.box(
        rectangle.xMinimum(), rectangle.yMinimum(), rectangle.xMaximum(), rectangle.yMaximum()
    )
    if rect.is_empty or rect.area == 0:
        raise QgsProcessingException(tr("The extent is empty."))
    return lonlat_region(rect, crs)


def _polygons(geom):
    if geom.geom_type == "Polygon":
        return [] if geom.is_empty else [geom]
    return [p for part in getattr(geom, "geoms", []) for p in _polygons(part)]


def point_arrays(source, context, fields=()):
    """lon, lat (EPSG:4326) and attribute columns of a point source, in feature order."""
    transform = to_wgs84(source.sourceCrs(), context)
    request = QgsFeatureRequest().setDestinationCrs(WGS84, transform.context())
    lon, lat, cols = [], [], {f: [] for f in fields}
    for feature in source.getFeatures(request):
        geom = feature.geometry()
        if geom is None or geom.isNull():
            lon.append(math.nan)
            lat.append(math.nan)
        else:
            p = geom.centroid().asPoint()
            lon.append(p.x())
            lat.append(p.y())
        for f in fields:
            cols[f].append(feature[f])
    return np.asarray(lon, float), np.asarray(lat, float), cols


def numeric_field(source, name, role):
    """Check that `name` is a numeric field of `source`, else a clear Processing error."""
    index = source.fields().lookupField(name)
    if index < 0:
        raise QgsProcessingException(
            tr("{role}: the layer has no field '{name}'.").format(role=role, name=name)
        )
    if not source.fields().at(index).isNumeric():
        raise QgsProcessingException(
            tr("{role}: field '{name}' is not numeric.").format(role=role, name=name)
        )
    return index


def as_float(values):
    """Attribute values (None/NULL QVariant allowed) as a float array with NaN for missing."""
    out = np.full(len(values), np.nan)
    for i, v in enumerate(values):
        try:
            out[i] = float(v)
        except (TypeError, ValueError):
            pass
    return out


# ---------------------------------------------------------------- ground truth from layers


def polygon_field_values(source, field, lon, lat, context, role=None, with_units=False):
    """The `field` value of the polygon containing each point (NaN where none).

    `role` names the parameter in error messages (default: the ground truth). With
    `with_units`, also the feature id of that polygon (-1 where none): the unit a cluster
    bootstrap resamples.
    """
    numeric_field(source, field, role or tr("Ground truth"))
    request = QgsFeatureRequest().setDestinationCrs(
        WGS84, to_wgs84(source.sourceCrs(), context).context()
    )
    request.setSubsetOfAttributes([field], source.fields())
    geoms, vals, fids = [], [], []
    for feature in source_features(source, request):
        geom = feature.geometry()
        if geom is None or geom.isNull() or geom.isEmpty():
            continue
        if not geom.isGeosValid():
            geom = geom.makeValid()
        geoms.append(geometry.from_wkb(bytes(geom.asWkb())))
        vals.append(feature[field])
        fids.append(feature.id())
    values = as_float(vals)
    out = np.full(len(lon), np.nan)
    units = np.full(len(lon), -1, dtype=np.int64)
    if not geoms:
        return (out, units) if with_units else out
    poly_idx, point_idx = geometry.polygons_hit(geoms, lon, lat)
    # A point on a shared border takes the first polygon that holds it.
    order = np.lexsort((poly_idx, point_idx))
    point_idx, poly_idx = point_idx[order], poly_idx[order]
    first = np.unique(point_idx, return_index=True)[1]
    out[point_idx[first]] = values[poly_idx[first]]
    units[point_idx[first]] = np.asarray(fids, dtype=np.int64)[poly_idx[first]]
    return (out, units) if with_units else out


def point_field_values(source, field, lon, lat, max_km, context):
    """The `field` value of the nearest point within max_km (great-circle), NaN where none."""
    from scipy.spatial import cKDTree

    from ..core.geo.sampling import km_to_chord, lonlat_to_xyz

    numeric_field(source, field, tr("Ground truth"))
    plon, plat, cols = point_arrays(source, context, [field])
    values = as_float(cols[field])
    keep = np.isfinite(plon) & np.isfinite(plat)
    out = np.full(len(lon), np.nan)
    if not keep.any():
        return out
    tree = cKDTree(lonlat_to_xyz(plon[keep], plat[keep]))
    dist, idx = tree.query(lonlat_to_xyz(lon, lat), distance_upper_bound=float(km_to_chord(max_km)))
    hit = np.isfinite(dist)
    out[hit] = values[keep][idx[hit]]
    return out


# ---------------------------------------------------------------- GeoPackage writing


# ---------------------------------------------------------------- Processing sinks

# OGR field types -> the Qt type names QgsField takes (QMetaType.Type and QVariant.Type share them).
_QT_TYPE = {
    ogr.OFTInteger64: "LongLong",
    ogr.OFTInteger: "Int",
    ogr.OFTReal: "Double",
    ogr.OFTString: "QString",
}


def field_type(name):
    """The QgsField type for a Qt type name ("Double", "QString", ...): QMetaType.Type from QGIS
    3.38 on (QGIS 4 knows no other), QVariant.Type before (3.22-3.36 accept only that)."""
    from qgis.core import Qgis
    from qgis.PyQt.QtCore import QMetaType

    meta = getattr(QMetaType.Type, name)
    if Qgis.versionInt() >= 33800:
        return meta
    from qgis.PyQt.QtCore import QVariant  # qt6: allow (QGIS < 3.38 is Qt5)

    return QVariant.Type(int(meta))  # qt6: allow  # noqa: QGS402 (QGIS < 3.38 takes no other)


def qgs_fields(fields=None):
    """QgsFields for a name -> OGR type schema (RATED_FIELDS by default)."""
    from qgis.core import QgsField, QgsFields

    out = QgsFields()
    for name, kind in (fields or RATED_FIELDS).items():
        out.append(QgsField(name, field_type(_QT_TYPE[kind])))
    return out


def _py(v):
    if v is None:
        return None
    if isinstance(v, float) and v != v:
        return None
    return v.item() if hasattr(v, "item") else v


def add_to_sink(sink, features):
    """Add features to a Processing sink, or raise with the sink's own error: a write that
    failed (a full disk, a constraint) must never pass for an output."""
    from qgis.core import QgsFeatureSink

    if features and not sink.addFeatures(features, QgsFeatureSink.Flag.FastInsert):
        raise QgsProcessingException(
            tr("Could not write the output's features: {error}").format(
                error=sink.lastError() or tr("unknown error")
            )
        )


def add_point_features(sink, fields, columns, feedback=None, with_geometry=True):
    """Add one feature per row of numpy/list columns to a Processing sink (lon/lat geometry)."""
    from qgis.core import QgsFeature, QgsGeometry, QgsPointXY

    names = [f.name() for f in fields]
    n = len(next(iter(columns.values()))) if columns else 0
    cols = [columns.get(name) for name in names]
    batch = []
    for i in range(n):
        feat = QgsFeature(fields)
        feat.setAttributes([None if c is None else _py(c[i]) for c in cols])
        if with_geometry:
            x, y = float(columns["lon"][i]), float(columns["lat"][i])
            if x == x and y == y:
                feat.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(x, y)))
        batch.append(feat)
        if len(batch) == 5000:
            add_to_sink(sink, batch)
            batch = []
            if feedback is not None:
                if feedback.isCanceled():
                    return False
                feedback.setProgress(100.0 * i / max(n, 1))
    add_to_sink(sink, batch)
    return True


def read_columns(source, context, names):
    """Attribute columns of a source (existing names only) plus lon/lat in EPSG:4326."""
    present = [n for n in names if source.fields().lookupField(n) >= 0]
    lon, lat, cols = point_arrays(source, context, present)
    cols["lon"], cols["lat"] = lon, lat
    return cols
