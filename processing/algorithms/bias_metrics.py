"""geobias:biasmetrics — answer rate, MAD, Gini, Spearman rho with truth and anchor, bias score."""

import json
import os

from qgis.core import (
    QgsProcessing,
    QgsProcessingException,
    QgsProcessingParameterFeatureSink,
    QgsProcessingParameterMultipleLayers,
    QgsProcessingParameterString,
    QgsWkbTypes,
)

from ...i18n_util import QT_TRANSLATE_NOOP, tr
from ..base import GeoBiasAlgorithm
from ..parameters import AnchorParameters, BootstrapParameters


class BiasMetricsAlgorithm(GeoBiasAlgorithm):
    NAME = "biasmetrics"
    DISPLAY = QT_TRANSLATE_NOOP("@default", "Bias metrics")
    GROUP = "truth"

    def help_text(self):
        return tr(
            "Computes, for every model and topic in the rated points layers: the number of points "
            "and answered points, the answer rate a, the mean absolute deviation (MAD) and Gini "
            "coefficient of the scores, Spearman's rho with the ground truth (field 'truth') with "
            "its p-value and a bootstrap 95% interval, Spearman's rho with an anchoring "
            "distribution taken from a polygon layer field or a raster (without one: the "
            "bundled countries' infant survival, as in the dock), and the bias score "
            "B = rho(anchor) · MAD · a² of Manvi et al. (2024). With ground truth, "
            "the global Moran's I of the rank errors (each point's 8 nearest points, "
            "great-circle, with a permutation p-value) says whether the errors cluster in space. "
            "Degenerate cases (no answers, constant ratings) give empty values with a reason. "
            "Layers asked in a prompt language (field language) get a row per language with its "
            "home bias: the mean rank error of the points in the countries where the language "
            "is spoken minus elsewhere (GeoNames' country languages: listed first, and listed at "
            "all), with a 95% bootstrap interval over countries; without signal (rho with the "
            "truth's interval spans 0) the reason says that no home-bias claim holds."
        )

    def initAlgorithm(self, config=None):
        self.addParameter(
            QgsProcessingParameterMultipleLayers(
                "INPUT", tr("Rated points layers"), QgsProcessing.SourceType.TypeVectorPoint
            )
        )
        self.addParameter(QgsProcessingParameterString("SCORE_FIELD", tr("Score field"), "score"))
        self.addParameter(
            QgsProcessingParameterString(
                "TRUTH_FIELD", tr("Ground truth field"), "truth", optional=True
            )
        )
        AnchorParameters.add(self)
        BootstrapParameters.add(self)
        self.addParameter(
            QgsProcessingParameterFeatureSink(
                "OUTPUT", tr("Bias metrics"), QgsProcessing.SourceType.TypeVector
            )
        )

    def processAlgorithm(self, parameters, context, feedback):
        from ..features import add_point_features, qgs_fields
        from ..metadata import COUNTRY_LANGUAGES_RIGHTS, credit_geonames
        from ..metrics_table import format_table, layer_metrics, metric_fields
        from ..runs import append_runs, derived_record, now

        started = now()
        layers = self.parameterAsLayerList(parameters, "INPUT", context)
        if not layers:
            raise QgsProcessingException(tr("Give at least one rated points layer."))
        score_field = self.parameterAsString(parameters, "SCORE_FIELD", context)
        truth_field = self.parameterAsString(parameters, "TRUTH_FIELD", context)
        # The default 'truth' may be empty (no ground truth yet); a field the user named may not.
        truth_named = bool(parameters.get("TRUTH_FIELD")) and truth_field != "truth"
        anchor = AnchorParameters.read(self, parameters, context)
        bootstrap = BootstrapParameters.read(self, parameters, context)
        rows = []
        for k, layer in enumerate(layers):
            for row, _arrays in layer_metrics(
                layer, context, feedback, score_field, truth_field, truth_named, bootstrap, anchor
            ):
                rows.append(row)
            if feedback.isCanceled():
                return {}
            feedback.setProgress(100.0 * (k + 1) / len(layers))
        schema = metric_fields(rows)
        fields = qgs_fields(schema)
        sink, dest = self.parameterAsSink(
            parameters, "OUTPUT", context, fields, QgsWkbTypes.Type.NoGeometry
        )
        if sink is None:
            raise QgsProcessingException(self.invalidSinkError(parameters, "OUTPUT"))
        columns = {name: [r.get(name) for r in rows] for name in schema}
        add_point_features(sink, fields, columns, with_geometry=False)
        del sink  # closes the file
        if "language" in schema:  # home bias read GeoNames' country languages
            credit_geonames(dest, context, rights=COUNTRY_LANGUAGES_RIGHTS)
        path = str(dest).split("|")[0]
        if path.lower().endswith(".gpkg") and os.path.isfile(path):
            # What the table measured: the first layer's run (study area, prompt… in its
            # row's language), the models, topics and languages of its rows, and the anchor.
            codes = list(dict.fromkeys(str(r["language"]) for r in rows if r.get("language")))
            first = (rows[0].get("language") or None) if rows else None
            record = derived_record(layers[0].source(), self.id(), parameters, started,
                                    language=first, anchor=anchor.label or None)  # fmt: skip
            record["model"] = "; ".join(dict.fromkeys(str(r["model"]) for r in rows))
            record["topics"] = json.dumps(list(dict.fromkeys(str(r["topic"]) for r in rows)))
            if codes:
                record["language"] = "; ".join(codes)
            append_runs(path, [record])
        feedback.pushInfo(format_table(rows))
        return {"OUTPUT": dest}
