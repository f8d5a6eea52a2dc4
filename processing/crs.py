"""Coordinate reference systems: transforms to lon/lat, and regions taken to lon/lat whole."""

from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsCoordinateTransform,
    QgsGeometry,
    QgsProcessingException,
    QgsProject,
)

from ..i18n_util import tr

WGS84 = QgsCoordinateReferenceSystem("EPSG:4326")


def to_wgs84(crs, context=None):
    """A transform from `crs` to EPSG:4326 using the project's datum transformations."""
    ctx = context.transformContext() if context is not None else QgsProject.instance()
    if not hasattr(ctx, "calculateDatumTransforms"):
        ctx = ctx.transformContext()
    return QgsCoordinateTransform(crs, WGS84, ctx)


def _osr(crs):
    """An osr SpatialReference (x/y = lon/lat order) for a QgsCoordinateReferenceSystem."""
    from osgeo import osr

    srs = osr.SpatialReference()
    if srs.ImportFromWkt(crs.toWkt(QgsCoordinateReferenceSystem.WktVariant.WKT_PREFERRED)) != 0:
        srs.ImportFromProj4(crs.toProj())
    srs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    return srs


def _transform_arrays(ct, x, y):
    """Vectorised osr transform; points it cannot transform come back NaN."""
    import numpy as np

    pts = np.column_stack([x, y, np.zeros(len(x))])
    try:
        out = np.asarray(ct.TransformPoints(pts), float)
    except RuntimeError:  # some PROJ builds raise for the whole batch: do it point by point
        out = np.full((len(x), 3), np.nan)
        for i, (px, py, _) in enumerate(pts):
            try:
                out[i] = ct.TransformPoint(float(px), float(py))
            except RuntimeError:
                pass
    out[~np.isfinite(out).all(axis=1) | (np.abs(out) > 1e15).any(axis=1)] = np.nan
    return out[:, 0], out[:, 1]


def lonlat_region(region, crs):
    """A shapely (Multi)Polygon in `crs` as a lon/lat region: densified, split at ±180 and with
    polar caps closed (core.regions), so areas across the antimeridian or around a pole keep
    their shape."""
    import numpy as np
    from osgeo import osr

    from ..core.geo import geometry
    from ..core.geo.regions import region_to_lonlat

    srs = _osr(crs)
    wgs = osr.SpatialReference()
    wgs.ImportFromEPSG(4326)
    wgs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    to_ll = osr.CoordinateTransformation(srs, wgs)
    from_ll = osr.CoordinateTransformation(wgs, srs)

    def contains_pole(lat):
        x, y = _transform_arrays(from_ll, np.array([0.0]), np.array([float(lat)]))
        return bool(np.isfinite(x[0]) and geometry.contains_xy(region, x[:1], y[:1])[0])

    try:
        return region_to_lonlat(region, lambda x, y: _transform_arrays(to_ll, x, y), contains_pole)
    except ValueError as err:
        raise QgsProcessingException(tr("The region has no polygon with an area.")) from err


def lonlat_geometry(geom, crs):
    """A polygon QgsGeometry in `crs` as a lon/lat QgsGeometry through lonlat_region, so an area
    drawn or viewed on a polar or Pacific-centred map keeps its shape (the dock's areas)."""
    from ..core.geo import geometry

    crs = crs if crs.isValid() else QgsCoordinateReferenceSystem("EPSG:4326")
    region = lonlat_region(geometry.from_wkb(bytes(geom.asWkb())), crs)
    out = QgsGeometry()
    out.fromWkb(region.wkb)
    return out
