"""Points in a study area: uniform on the sphere, weighted (population or raster) with farthest
point sampling, or a grid."""

import numpy as np
from osgeo import ogr
from qgis.core import QgsProcessingException

from ..core.geo import geometry, sampling
from ..i18n_util import message_text, tr
from .definitions import SAMPLE_METHODS
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


def grid_note(method, asked, placed, spacing_km=None):
    """Why a grid has another count than asked ("" when it has the count)."""
    if method not in ("grid", "hex") or placed == asked:
        return ""
    apart = tr(" ({km:.0f} km apart)").format(km=spacing_km) if spacing_km else ""
    return tr(
        "The {grid} placed {k} of the {n} points asked{apart}: a regular grid fits only "
        "certain numbers of nodes inside an area, and {k} is the closest to {n} it found. "
        "Ask for another count, or choose a weighted method for exactly {n} points."
    ).format(grid=SAMPLE_METHODS.label(method).lower(), k=placed, n=asked, apart=apart)


def sample(region, n, method, seed=0, weight_raster=None, band=1, gazetteer=None, notes=None):
    """(lonlat (k, 2), weights or NaN (k,)) for a lon/lat region; `method` is a
    definitions.SAMPLE_METHODS key. `notes` (a list) receives why a grid has another count."""
    if method == "uniform":
        pts = sampling.sample_uniform(region, n, seed=seed)
        return pts, np.full(len(pts), np.nan)
    if method in ("grid", "hex"):
        kind = "square" if method == "grid" else "hex"
        pts, spacing = np.empty((0, 2)), None
        if n > 0:
            pts, spacing = sampling.grid_for_count(region, n, kind)
        note = grid_note(method, n, len(pts), spacing)
        if note and notes is not None:
            notes.append(note)
        return pts, np.full(len(pts), np.nan)
    if method == "population":
        if gazetteer is None:
            from ..core.geo.gazetteer import Gazetteer

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
    notes = []
    try:
        pts, weights = sample(region, n, method, sampling.seed, sampling.raster_path,
                              sampling.band, notes=notes)  # fmt: skip
    except ValueError as err:
        raise QgsProcessingException(message_text(err)) from err
    if len(pts) == 0:
        raise QgsProcessingException(tr("No point could be sampled in the region."))
    for note in notes:
        feedback.pushWarning(note)
    if len(pts) < n and method not in ("grid", "hex"):
        feedback.pushWarning(tr("Only {k} of {n} points could be sampled.").format(k=len(pts), n=n))
    return pts, weights
