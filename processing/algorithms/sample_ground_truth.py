"""geobias:samplegroundtruth — truth, truth_rank, rank_error from a raster, polygon or points."""

from qgis.core import (
    QgsFields,
    QgsProcessing,
    QgsProcessingException,
    QgsProcessingOutputNumber,
    QgsProcessingParameterBand,
    QgsProcessingParameterEnum,
    QgsProcessingParameterFeatureSink,
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterNumber,
    QgsProcessingParameterRasterLayer,
    QgsProcessingParameterString,
)

from ...i18n_util import QT_TRANSLATE_NOOP, tr
from ..base import GeoBiasAlgorithm
from ..definitions import STATISTICS
from ..parameters import (
    POINTS,
    POLYGONS,
    add_layer_and_field,
    add_truth_name,
    read_name,
    source_label,
)
from ..run_facts import layer_field, layer_label


class SampleGroundTruthAlgorithm(GeoBiasAlgorithm):
    NAME = "samplegroundtruth"
    DISPLAY = QT_TRANSLATE_NOOP("@default", "Sample ground truth")
    GROUP = "truth"

    def help_text(self):
        return tr(
            "Adds the ground truth to rated points from one of your layers and computes rank "
            "errors. Give exactly one source: a raster (the statistic of the cells in a square "
            "window of the given size in km around each point, nodata excluded; the paper used 25 "
            "km² areas, i.e. a 5 km window), a polygon layer and field (the value of the polygon "
            "containing the point, e.g. a census unit; its id goes into truth_unit, so 'Bias "
            "metrics' resamples the points of one unit together), or a point layer and field (the "
            "nearest "
            "point within the maximum distance). Layers in any CRS are reprojected. Writes truth, "
            "truth_rank (fractional rank of the truth, 0..1) and rank_error = rank − truth_rank (> "
            "0: the model overestimates, red; < 0: underestimates, blue). Points without a truth "
            "keep a null truth and are counted. A GeoPackage output gets a 'runs' row with the "
            "rating run's facts (model, endpoint, prompt, study area) and the ground truth as "
            "layer.field (TRUTH_NAME overrides it)."
        )

    def initAlgorithm(self, config=None):
        self.addParameter(
            QgsProcessingParameterFeatureSource(
                "INPUT", tr("Rated points"), [QgsProcessing.SourceType.TypeVectorPoint]
            )
        )
        self.addParameter(QgsProcessingParameterString("SCORE_FIELD", tr("Score field"), "score"))
        self.addParameter(
            QgsProcessingParameterRasterLayer("RASTER", tr("Ground truth raster"), optional=True)
        )
        self.addParameter(
            QgsProcessingParameterBand("BAND", tr("Band"), 1, "RASTER", optional=True)
        )
        self.addParameter(
            QgsProcessingParameterNumber(
                "WINDOW_KM",
                tr("Window size (km)"),
                QgsProcessingParameterNumber.Type.Double,
                5.0,
                minValue=0.0,
            )
        )
        self.addParameter(
            QgsProcessingParameterEnum(
                "STATISTIC",
                tr("Window statistic"),
                STATISTICS.labels(),
                defaultValue=STATISTICS.default_index,
            )
        )
        add_layer_and_field(
            self, "POLYGONS", tr("Ground truth polygons"), POLYGONS,
            "POLYGON_FIELD", tr("Polygon truth field"),
        )  # fmt: skip
        add_layer_and_field(
            self,
            "POINTS",
            tr("Ground truth points"),
            POINTS,
            "POINT_FIELD",
            tr("Point truth field"),
        )
        self.addParameter(
            QgsProcessingParameterNumber(
                "MAX_DISTANCE_KM",
                tr("Maximum distance to a truth point (km)"),
                QgsProcessingParameterNumber.Type.Double,
                25.0,
                minValue=0.0,
            )
        )
        add_truth_name(self)
        self.addParameter(
            QgsProcessingParameterFeatureSink("OUTPUT", tr("Rated points with ground truth"))
        )
        self.addOutput(QgsProcessingOutputNumber("N_TRUTH", tr("Points with a truth")))
        self.addOutput(QgsProcessingOutputNumber("N_MISSING", tr("Points without a truth")))

    def truth_label(self, parameters, context):
        """The ground truth as the outputs name it: TRUTH_NAME, else layer.field (a raster and
        its band)."""
        name = read_name(self, parameters, context, "TRUTH_NAME")
        if name:
            return name
        raster = self.parameterAsRasterLayer(parameters, "RASTER", context)
        if raster is not None:
            band = self.parameterAsInt(parameters, "BAND", context) or 1
            return tr("{raster}, band {band}").format(raster=layer_label(raster), band=band)
        for key, field_key in (("POLYGONS", "POLYGON_FIELD"), ("POINTS", "POINT_FIELD")):
            if parameters.get(key):
                field = self.parameterAsString(parameters, field_key, context)
                return layer_field(source_label(self, parameters, key, context), field)
        return ""

    def truth(self, parameters, context, feedback, lon, lat):
        """(truth, units or None) from whichever source was given (exactly one).

        Units are the ids of the truth polygons: points in one polygon share their truth, and
        'Bias metrics' resamples them together (cluster bootstrap).
        """
        from ..features import point_field_values, polygon_field_values
        from ..truth import truth_from_raster

        raster = self.parameterAsRasterLayer(parameters, "RASTER", context)
        polygons = self.parameterAsSource(parameters, "POLYGONS", context)
        points = self.parameterAsSource(parameters, "POINTS", context)
        given = [s for s in (raster, polygons, points) if s is not None]
        if len(given) != 1:
            raise QgsProcessingException(
                tr("Give exactly one ground truth source: a raster, a polygon or a point layer.")
            )
        if raster is not None:
            band = self.parameterAsInt(parameters, "BAND", context) or 1
            window = self.parameterAsDouble(parameters, "WINDOW_KM", context)
            stat = STATISTICS.key(self.parameterAsEnum(parameters, "STATISTIC", context))
            return truth_from_raster(raster, band, lon, lat, window, stat, feedback)[0], None
        if polygons is not None:
            field = self.parameterAsString(parameters, "POLYGON_FIELD", context)
            if not field:
                raise QgsProcessingException(tr("Choose the polygon truth field."))
            return polygon_field_values(polygons, field, lon, lat, context, with_units=True)
        field = self.parameterAsString(parameters, "POINT_FIELD", context)
        if not field:
            raise QgsProcessingException(tr("Choose the point truth field."))
        km = self.parameterAsDouble(parameters, "MAX_DISTANCE_KM", context)
        return point_field_values(points, field, lon, lat, km, context), None

    def processAlgorithm(self, parameters, context, feedback):
        import numpy as np

        from ..features import as_float, numeric_field, qgs_fields, read_columns
        from ..gpkg import RATED_FIELDS
        from ..metadata import credit_geonames, has_geonames_credit
        from ..runs import derived_record, now
        from ..styles import style_output
        from ..truth import truth_columns

        started = now()
        source = self.parameterAsSource(parameters, "INPUT", context)
        if source is None:
            raise QgsProcessingException(self.invalidSourceError(parameters, "INPUT"))
        score_field = self.parameterAsString(parameters, "SCORE_FIELD", context)
        numeric_field(source, score_field, tr("Score field (SCORE_FIELD)"))
        names = [f.name() for f in source.fields()]
        columns = read_columns(source, context, names)
        feedback.setProgress(20)
        truth, units = self.truth(parameters, context, feedback, columns["lon"], columns["lat"])
        if feedback.isCanceled():
            return {}
        feedback.setProgress(60)
        columns.update(truth_columns(as_float(columns[score_field]), truth))
        # A unit only where there is a truth; NULL for raster and point truth (no shared value).
        columns["truth_unit"] = (
            [None] * len(truth)
            if units is None
            else [int(u) if u >= 0 and np.isfinite(t) else None for u, t in zip(units, truth)]
        )
        if "score" in columns:
            columns["score"] = as_float(columns["score"])
        fields = QgsFields(source.fields())
        extra = qgs_fields(
            {
                k: RATED_FIELDS[k]
                for k in ("rank", "truth", "truth_rank", "rank_error", "truth_unit")
            }
        )
        for f in extra:
            if fields.lookupField(f.name()) < 0:
                fields.append(f)
        # The output says what it measured on its own: the rating run's facts and the truth's.
        model, topic, language = (
            str(columns[k][0]) if k in columns and len(columns[k]) and columns[k][0] else None
            for k in ("model", "topic", "language")
        )
        rated = self.parameterAsVectorLayer(parameters, "INPUT", context)
        record = derived_record(
            rated.source() if rated is not None else "", self.id(), parameters, started, model,
            topic, language, truth=self.truth_label(parameters, context), n_points=len(truth),
        )  # fmt: skip
        dest = self.write_points(parameters, context, fields, columns, feedback, "rank_error",
                                 runs=[record])  # fmt: skip
        if dest is None:
            return {}
        if has_geonames_credit(self.parameterAsVectorLayer(parameters, "INPUT", context)):
            credit_geonames(dest, context)  # the prompts name GeoNames places
        n_truth = int(np.isfinite(truth).sum())
        n_missing = len(truth) - n_truth
        feedback.pushInfo(
            tr("{t} of {n} points have a ground truth.").format(t=n_truth, n=len(truth))
        )
        if n_missing:
            feedback.pushWarning(tr("{m} points have no ground truth.").format(m=n_missing))
        style_output(context, dest, "rank_error")
        return {"OUTPUT": dest, "N_TRUTH": n_truth, "N_MISSING": n_missing}
