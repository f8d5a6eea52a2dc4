"""Ground truth and anchors at points: rank errors against a truth, values from a polygon
field or a raster window."""

import os

import numpy as np
from qgis.core import QgsProcessingException

from ..core.stats.metrics import fractional_rank, rank_error
from ..i18n_util import tr
from .features import polygon_field_values
from .rasters import raster_window_stat


def truth_columns(score, truth):
    """rank, truth_rank and rank_error (> 0: the model overestimates) for score and truth arrays."""
    score, truth = np.asarray(score, float), np.asarray(truth, float)
    both = np.isfinite(score) & np.isfinite(truth)
    truth_rank = np.full(len(truth), np.nan)
    truth_rank[both] = fractional_rank(truth[both])
    return {
        "rank": fractional_rank(score),
        "truth": truth,
        "truth_rank": truth_rank,
        "rank_error": rank_error(score, truth),
    }


def truth_from_raster(layer, band, lon, lat, window_km, stat, feedback):
    """Window statistic of a raster layer at each point; points off the raster are counted."""
    if not layer.crs().isValid():
        raise QgsProcessingException(
            tr("The raster {name} has no coordinate reference system; assign one first.").format(
                name=layer.name()
            )
        )
    path = layer.source().split("|")[0]
    values, outside = raster_window_stat(path, band, lon, lat, window_km, stat)
    if outside.any():
        feedback.pushWarning(
            tr("{n} points lie outside the raster; their truth is null.").format(
                n=int(outside.sum())
            )
        )
    return values, int(outside.sum())


def anchor_values(anchor, lon, lat, context, feedback):
    """(values or None, units or None, name) of a parameters.AnchorSource at each point,
    higher = better off.

    Polygons give the field value of the containing polygon (units: the polygons); a raster
    gives the same window statistic as ground truth from a raster (no units). The name is the
    anchor's label (`Countries.infant_survival`), "-" in front when negated.
    """
    if anchor.polygons is not None:
        values, units = polygon_field_values(
            anchor.polygons, anchor.field_name, lon, lat, context,
            tr("Anchoring field (ANCHOR_FIELD)"), True,
        )  # fmt: skip
        name = anchor.label or anchor.field_name
    elif anchor.raster is not None:
        values = truth_from_raster(
            anchor.raster, anchor.band, lon, lat, anchor.window_km, anchor.statistic, feedback
        )[0]
        units = None
        name = anchor.label or os.path.basename(anchor.raster.source().split("|")[0])
    else:
        return None, None, ""
    if anchor.negate:
        values = -values
        name = f"-{name}"
    return values, units, name
