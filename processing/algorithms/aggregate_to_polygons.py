"""geobias:aggregatetopolygons — rated points summarised per census unit (any polygon layer)."""

from qgis.core import (
    QgsProcessing,
    QgsProcessingException,
    QgsProcessingOutputNumber,
    QgsProcessingParameterFeatureSink,
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterNumber,
    QgsProcessingParameterString,
)

from ...i18n_util import QT_TRANSLATE_NOOP, tr
from ..base import GeoBiasAlgorithm

# The fields added to each unit (a public contract, listed in README's algorithm table).
UNIT_FIELDS = {
    "n_points": "int",
    "n_scored": "int",
    "answer_rate": "real",
    "mean_rating": "real",
    "mean_rank": "real",
    "mean_rank_error": "real",
    "few_points": "int",
}
POINT_COLUMNS = ["model", "topic", "score_kind", "answered", "failed", "rank", "rank_error"]


class AggregateToPolygonsAlgorithm(GeoBiasAlgorithm):
    NAME = "aggregatetopolygons"
    DISPLAY = QT_TRANSLATE_NOOP("@default", "Aggregate ratings to polygons")
    GROUP = "overlay"

    def help_text(self):
        return tr(
            "Summarises rated points per unit of any polygon layer (census tracts, districts, "
            "countries): n_points, n_scored (points with a score), answer_rate (answered / asked; "
            "failed requests were not asked), mean_rating, mean_rank and mean_rank_error (> 0: "
            "the model overestimates the unit). Units with fewer scored points than the minimum "
            "get few_points = 1 and show grey on the map; Correlate and Hot spots leave them out "
            "by default. Points and polygons may be in any CRS (the points are moved into the "
            "polygons' CRS); a point on a border shared by several units counts once, in the "
            "first of them. The output keeps every field of the polygons, so census variables "
            "come along for 'Correlate with census fields'."
        )

    def initAlgorithm(self, config=None):
        self.addParameter(
            QgsProcessingParameterFeatureSource(
                "INPUT", tr("Rated points"), [QgsProcessing.SourceType.TypeVectorPoint]
            )
        )
        self.addParameter(
            QgsProcessingParameterFeatureSource(
                "POLYGONS", tr("Units (polygons)"), [QgsProcessing.SourceType.TypeVectorPolygon]
            )
        )
        self.addParameter(QgsProcessingParameterString("SCORE_FIELD", tr("Score field"), "score"))
        self.addParameter(
            QgsProcessingParameterNumber(
                "MIN_POINTS", tr("Minimum scored points per unit (fewer: flagged few_points)"),
                defaultValue=5, minValue=1,
            )
        )  # fmt: skip
        self.addParameter(
            QgsProcessingParameterFeatureSink(
                "OUTPUT", tr("Units with ratings"), QgsProcessing.SourceType.TypeVectorPolygon
            )
        )
        self.addOutput(QgsProcessingOutputNumber("N_UNITS", tr("Units with at least one point")))
        self.addOutput(QgsProcessingOutputNumber("N_FLAGGED", tr("Units with too few points")))
        self.addOutput(QgsProcessingOutputNumber("N_OUTSIDE", tr("Points in no unit")))

    def processAlgorithm(self, parameters, context, feedback):
        import numpy as np

        from ...core.geo.geometry import polygons_hit
        from ...core.stats.aggregate import aggregate_units, first_unit
        from ...core.stats.metrics import fractional_rank
        from ..features import as_float, numeric_field
        from ..metrics_table import groups
        from ..overlay_styles import save_overlay_styles, style_overlay_output
        from ..runs import layer_language, now, record_derived
        from ..units import extended_fields, points_in_crs, unit_polygons, write_units

        started = now()
        points = self.parameterAsSource(parameters, "INPUT", context)
        polygons = self.parameterAsSource(parameters, "POLYGONS", context)
        if points is None:
            raise QgsProcessingException(self.invalidSourceError(parameters, "INPUT"))
        if polygons is None:
            raise QgsProcessingException(self.invalidSourceError(parameters, "POLYGONS"))
        score_field = self.parameterAsString(parameters, "SCORE_FIELD", context)
        numeric_field(points, score_field, tr("Score field (SCORE_FIELD)"))
        min_points = self.parameterAsInt(parameters, "MIN_POINTS", context)
        present = [c for c in POINT_COLUMNS if points.fields().lookupField(c) >= 0]
        x, y, cols = points_in_crs(points, polygons.sourceCrs(), context, present + [score_field])
        cols["lon"] = x
        mixed = groups(cols)
        if len(mixed) > 1:
            names = "; ".join(" · ".join(k[:2]) for k in list(mixed)[:4])
            raise QgsProcessingException(
                tr("The rated points hold several models or topics ({names}): aggregate one "
                   "rated layer (one model and topic) at a time.").format(names=names)
            )  # fmt: skip
        feedback.setProgress(20)
        fids, geoms = unit_polygons(polygons, feedback)
        if not geoms:
            raise QgsProcessingException(tr("The polygon layer has no geometry."))
        if feedback.isCanceled():
            return {}
        ok = np.isfinite(x) & np.isfinite(y)
        poly_idx, point_idx = polygons_hit(geoms, x[ok], y[ok])
        unit = first_unit(np.flatnonzero(ok)[point_idx], poly_idx, len(x))
        feedback.setProgress(60)
        score = as_float(cols[score_field])
        rank = as_float(cols["rank"]) if "rank" in cols else fractional_rank(score)
        failed = as_float(cols["failed"]) == 1 if "failed" in cols else None
        answered = as_float(cols["answered"]) == 1 if "answered" in cols else None
        rank_error = as_float(cols["rank_error"]) if "rank_error" in cols else None
        summary = aggregate_units(unit, len(geoms), score, rank, rank_error, answered, failed,
                                  min_points)  # fmt: skip
        values = {}
        for k, fid in enumerate(fids.tolist()):
            values[fid] = {
                "n_points": summary.n_points[k],
                "n_scored": summary.n_scored[k],
                "answer_rate": summary.answer_rate[k],
                "mean_rating": summary.mean_rating[k],
                "mean_rank": summary.mean_rank[k],
                "mean_rank_error": summary.mean_rank_error[k],
                "few_points": summary.few_points[k],
            }
        fields, positions = extended_fields(polygons.fields(), UNIT_FIELDS)
        sink, dest = self.parameterAsSink(
            parameters, "OUTPUT", context, fields, polygons.wkbType(), polygons.sourceCrs()
        )
        if sink is None:
            raise QgsProcessingException(self.invalidSinkError(parameters, "OUTPUT"))
        if not write_units(polygons, sink, fields, positions, values, feedback):
            return {}
        del sink
        model, topic = next(iter(mixed))[:2] if mixed else (None, None)
        save_overlay_styles(dest, "units", topic, min_points)
        # What the units measured: the rated layer's run (study area, model, prompt, truth).
        rated = self.parameterAsVectorLayer(parameters, "INPUT", context)
        record_derived(dest, rated.source() if rated else "", self.id(), parameters, started,
                       model or None, topic or None, layer_language(rated))  # fmt: skip
        style_overlay_output(context, dest, "units", tr("Units: mean rank error"), topic,
                             min_points)  # fmt: skip
        n_units = int((summary.n_points > 0).sum())
        n_flagged = int((summary.few_points & (summary.n_points > 0)).sum())
        feedback.pushInfo(
            tr("{p} points in {u} units; {f} units have fewer than {m} scored points "
               "(few_points = 1).").format(p=int((unit >= 0).sum()), u=n_units, f=n_flagged,
                                          m=min_points)
        )  # fmt: skip
        if summary.n_outside:
            feedback.pushWarning(
                tr("{n} points lie in no unit (outside the polygons or not transformable into "
                   "their CRS).").format(n=summary.n_outside)
            )  # fmt: skip
        return {"OUTPUT": dest, "N_UNITS": n_units, "N_FLAGGED": n_flagged,
                "N_OUTSIDE": summary.n_outside}  # fmt: skip
