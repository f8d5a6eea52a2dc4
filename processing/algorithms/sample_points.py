"""geobias:samplepoints — points in a region: uniform on the sphere, weighted, or a grid."""

from qgis.core import (
    QgsProcessing,
    QgsProcessingOutputNumber,
    QgsProcessingParameterFeatureSink,
)

from ...i18n_util import QT_TRANSLATE_NOOP, tr
from ..base import GeoBiasAlgorithm
from ..parameters import OUTPUT, SamplingParameters


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
            "output is EPSG:4326 with pid, lon, lat and the sampling weight; a GeoPackage output "
            "also gets a 'runs' table naming the study area (as STUDY_AREA gives it, or the "
            "region layer, the extent or the world), its area in km² and its extent, which "
            "'Rate locations' carries into the ratings."
        )

    def initAlgorithm(self, config=None):
        SamplingParameters.add(self)
        self.addParameter(
            QgsProcessingParameterFeatureSink(
                OUTPUT, tr("Sampled points"), QgsProcessing.SourceType.TypeVectorPoint
            )
        )
        self.addOutput(QgsProcessingOutputNumber("N_POINTS", tr("Number of points")))

    def processAlgorithm(self, parameters, context, feedback):
        import numpy as np

        from ..features import qgs_fields
        from ..metadata import credit_geonames
        from ..points import POINT_FIELDS, sample_points
        from ..progress import PartFeedback
        from ..runs import now, run_record

        started = now()
        feedback.setProgress(10)
        sampling = SamplingParameters.read(self, parameters, context, feedback)
        pts, weights = sample_points(sampling, feedback)
        feedback.setProgress(60)
        writing = PartFeedback(feedback, 60, 100)  # the features' progress, after the sampling
        columns = {
            "pid": np.arange(len(pts), dtype=np.int64),
            "lon": pts[:, 0],
            "lat": pts[:, 1],
            "weight": weights,
        }
        # The study area travels with the points: rating them copies it into the ratings' runs.
        record = run_record(self.id(), parameters, started, n_points=len(pts),
                            **sampling.area.fields())  # fmt: skip
        fields = qgs_fields(POINT_FIELDS)
        dest = self.write_points(parameters, context, fields, columns, writing, runs=[record])
        if dest is None:
            return {}
        if sampling.method == "population":  # GeoNames places and populations
            credit_geonames(dest, context)
        return {OUTPUT: dest, "N_POINTS": len(pts)}
