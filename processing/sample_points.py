"""geobias:samplepoints — points in a region: uniform on the sphere, weighted, or a grid."""

import numpy as np
from osgeo import ogr
from qgis.core import (
    QgsProcessing,
    QgsProcessingException,
    QgsProcessingOutputNumber,
    QgsProcessingParameterBand,
    QgsProcessingParameterEnum,
    QgsProcessingParameterExtent,
    QgsProcessingParameterFeatureSink,
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterNumber,
    QgsProcessingParameterRasterLayer,
)

from ..core import geometry, sampling
from ..i18n_util import QT_TRANSLATE_NOOP, tr
from .base import GeoBiasAlgorithm
from .layers import (
    WGS84,
    credit_geonames,
    extent_region,
    qgs_fields,
    raster_candidates,
    region_geometry,
)

METHODS = ("uniform", "population", "raster", "grid", "hex")
METHOD_LABELS = (
    QT_TRANSLATE_NOOP("@default", "Uniform on the sphere"),
    QT_TRANSLATE_NOOP("@default", "Weighted by gazetteer population (importance + farthest point)"),
    QT_TRANSLATE_NOOP("@default", "Weighted by a raster (importance + farthest point)"),
    QT_TRANSLATE_NOOP("@default", "Square grid"),
    QT_TRANSLATE_NOOP("@default", "Hexagonal grid"),
)
POINT_FIELDS = {
    "pid": ogr.OFTInteger64,
    "lon": ogr.OFTReal,
    "lat": ogr.OFTReal,
    "weight": ogr.OFTReal,
}


def world():
    """The whole world as a lon/lat box (made on use: no GEOS call when the module loads)."""
    return geometry.box(-180, -90, 180, 90)


def sample(region, n, method, seed=0, weight_raster=None, band=1, gazetteer=None):
    """(lonlat (k, 2), weights or NaN (k,)) for a lon/lat region, by one of METHODS."""
    if method == "uniform":
        pts = sampling.sample_uniform(region, n, seed=seed)
        return pts, np.full(len(pts), np.nan)
    if method in ("grid", "hex"):
        pts = sampling.sample_grid(region, n=n, kind="square" if method == "grid" else "hex")
        return pts, np.full(len(pts), np.nan)
    if method == "population":
        if gazetteer is None:
            from ..core.gazetteer import Gazetteer

            gazetteer = Gazetteer.load()
        cand, weights = gazetteer.candidates(None if region.equals(world()) else region)
    else:
        if weight_raster is None:
            raise QgsProcessingException(tr("The raster-weighted method needs a weight raster."))
        cand, weights = raster_candidates(weight_raster, band, region)
    if len(cand) == 0:
        raise QgsProcessingException(
            tr("No candidate location with a positive weight in the region.")
        )
    idx = sampling.sample_weighted(cand, np.asarray(weights, float), n, seed=seed)
    return cand[idx], np.asarray(weights, float)[idx]


def add_sampling_parameters(alg):
    """REGION, EXTENT, COUNT, METHOD, WEIGHT_RASTER, BAND and SEED (samplepoints and survey)."""
    alg.addParameter(
        QgsProcessingParameterFeatureSource(
            "REGION",
            tr("Region polygons"),
            [QgsProcessing.SourceType.TypeVectorPolygon],
            optional=True,
        )
    )
    alg.addParameter(QgsProcessingParameterExtent("EXTENT", tr("Region extent"), optional=True))
    alg.addParameter(
        QgsProcessingParameterNumber("COUNT", tr("Number of points"), defaultValue=200, minValue=1)
    )
    alg.addParameter(
        QgsProcessingParameterEnum(
            "METHOD", tr("Sampling method"), [tr(m) for m in METHOD_LABELS], defaultValue=1
        )
    )
    alg.addParameter(
        QgsProcessingParameterRasterLayer("WEIGHT_RASTER", tr("Weight raster"), optional=True)
    )
    alg.addParameter(
        QgsProcessingParameterBand("BAND", tr("Weight band"), 1, "WEIGHT_RASTER", optional=True)
    )
    alg.addParameter(QgsProcessingParameterNumber("SEED", tr("Random seed"), defaultValue=0))


def read_region(alg, parameters, context, feedback):
    """The region as a lon/lat shapely geometry (world when no region is given)."""
    source = alg.parameterAsSource(parameters, "REGION", context)
    if source is not None:
        return region_geometry(source, context, feedback)
    if parameters.get("EXTENT"):
        rect = alg.parameterAsExtent(parameters, "EXTENT", context)
        crs = alg.parameterAsExtentCrs(parameters, "EXTENT", context)
        if not rect.isEmpty():
            return extent_region(rect, crs if crs.isValid() else WGS84, context)
    feedback.pushInfo(tr("No region given: sampling the whole world."))
    return world()


def sample_from_parameters(alg, parameters, context, feedback):
    """(lonlat (k, 2), weights (k,), method) from the sampling parameters; errors say why."""
    region = read_region(alg, parameters, context, feedback)
    n = alg.parameterAsInt(parameters, "COUNT", context)
    method = METHODS[alg.parameterAsEnum(parameters, "METHOD", context)]
    seed = alg.parameterAsInt(parameters, "SEED", context)
    raster = alg.parameterAsRasterLayer(parameters, "WEIGHT_RASTER", context)
    band = alg.parameterAsInt(parameters, "BAND", context) or 1
    path = raster.source().split("|")[0] if raster is not None else None
    try:
        pts, weights = sample(region, n, method, seed, path, band)
    except ValueError as err:
        raise QgsProcessingException(str(err)) from err
    if len(pts) == 0:
        raise QgsProcessingException(tr("No point could be sampled in the region."))
    if len(pts) < n and method not in ("grid", "hex"):
        feedback.pushWarning(tr("Only {k} of {n} points could be sampled.").format(k=len(pts), n=n))
    return pts, weights, method


class SamplePointsAlgorithm(GeoBiasAlgorithm):
    NAME = "samplepoints"
    DISPLAY = QT_TRANSLATE_NOOP("@default", "Sample points")
    GROUP = "survey"

    def help_text(self):
        return tr(
            "Samples the locations to rate inside a region: the polygons of a layer (or only its "
            "selected features), an extent, or the whole world when neither is given. Methods: "
            "uniform on the sphere (not uniform in degrees); weighted by the population of the "
            "bundled GeoNames places or by a weight raster (e.g. population), combining importance "
            "sampling with farthest point sampling on great-circle distances as the paper does for "
            "its maps; or a square or hexagonal grid of about COUNT points. Invalid region "
            "geometries are repaired (with a warning); layers in any CRS are reprojected. The "
            "output is EPSG:4326 with pid, lon, lat and the sampling weight."
        )

    def initAlgorithm(self, config=None):
        add_sampling_parameters(self)
        self.addParameter(
            QgsProcessingParameterFeatureSink(
                "OUTPUT", tr("Sampled points"), QgsProcessing.SourceType.TypeVectorPoint
            )
        )
        self.addOutput(QgsProcessingOutputNumber("N_POINTS", tr("Number of points")))

    def processAlgorithm(self, parameters, context, feedback):
        feedback.setProgress(10)
        pts, weights, method = sample_from_parameters(self, parameters, context, feedback)
        feedback.setProgress(60)
        columns = {
            "pid": np.arange(len(pts), dtype=np.int64),
            "lon": pts[:, 0],
            "lat": pts[:, 1],
            "weight": weights,
        }
        dest = self.write_points(parameters, context, qgs_fields(POINT_FIELDS), columns, feedback)
        if dest is None:
            return {}
        if method == "population":  # GeoNames places and populations
            credit_geonames(dest, context)
        return {"OUTPUT": dest, "N_POINTS": len(pts)}
