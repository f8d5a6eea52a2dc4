"""Points in a study area: uniform on the sphere, weighted (population or raster) with farthest
point sampling, or a grid."""

import numpy as np
from osgeo import ogr
from qgis.core import QgsProcessingException

from ..core import geometry, sampling
from ..i18n_util import message_text, tr
from .rasters import raster_candidates

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
    """(lonlat (k, 2), weights or NaN (k,)) for a lon/lat region; `method` is a
    definitions.SAMPLE_METHODS key."""
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


def sample_points(sampling, feedback):
    """(lonlat (k, 2), weights (k,)) for a parameters.Sampling; errors say why."""
    region = sampling.region if sampling.region is not None else world()
    n, method = sampling.count, sampling.method
    try:
        pts, weights = sample(region, n, method, sampling.seed, sampling.raster_path, sampling.band)
    except ValueError as err:
        raise QgsProcessingException(message_text(err)) from err
    if len(pts) == 0:
        raise QgsProcessingException(tr("No point could be sampled in the region."))
    if len(pts) < n and method not in ("grid", "hex"):
        feedback.pushWarning(tr("Only {k} of {n} points could be sampled.").format(k=len(pts), n=n))
    return pts, weights
