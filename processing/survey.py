"""geobias:survey — sample points, rate them, add ground truth, compute bias metrics, in one go."""

import numpy as np
from qgis.core import (
    QgsProcessing,
    QgsProcessingException,
    QgsProcessingOutputMultipleLayers,
    QgsProcessingOutputString,
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterField,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterNumber,
    QgsProcessingParameterString,
)

from ..i18n_util import QT_TRANSLATE_NOOP, tr
from .base import GeoBiasAlgorithm
from .bias_metrics import (
    BOOTSTRAPS,
    METRIC_FIELDS,
    add_anchor_parameters,
    add_bootstrap_parameter,
    check_anchor_parameters,
    format_table,
    metrics_row,
    read_anchor,
)
from .layers import polygon_field_values, write_table
from .rate_locations import (
    endpoint_parameters,
    load_outputs,
    rate,
    read_endpoint_parameters,
    running_endpoint,
    split_topics,
    write_rated,
)
from .runs import append_runs, now, run_record, stats_fields
from .sample_ground_truth import truth_columns
from .sample_points import add_sampling_parameters, sample_from_parameters


class SurveyAlgorithm(GeoBiasAlgorithm):
    NAME = "survey"
    DISPLAY = QT_TRANSLATE_NOOP("@default", "Run a bias survey")
    GROUP = "survey"

    def help_text(self):
        return tr(
            "The whole job of Manvi et al. (2024) in one go: samples points in the region (as "
            "'Sample points'), has the model rate them on each topic (as 'Rate locations'), takes "
            "the ground truth of the truth topics from a polygon layer field (as 'Sample ground "
            "truth'), and computes the bias metrics with an anchoring field such as infant "
            "survival (as 'Bias metrics'). Writes one styled layer per model and topic, a "
            "'metrics' table and a 'runs' table into one GeoPackage."
        )

    def initAlgorithm(self, config=None):
        add_sampling_parameters(self)
        endpoint_parameters(self)
        self.addParameter(
            QgsProcessingParameterFeatureSource(
                "TRUTH",
                tr("Ground truth polygons"),
                [QgsProcessing.SourceType.TypeVectorPolygon],
                optional=True,
            )
        )
        self.addParameter(
            QgsProcessingParameterField(
                "TRUTH_FIELD", tr("Ground truth field"), parentLayerParameterName="TRUTH",
                type=QgsProcessingParameterField.DataType.Numeric, optional=True,
            )
        )  # fmt: skip
        self.addParameter(
            QgsProcessingParameterString(
                "TRUTH_TOPICS", tr("Topics the ground truth measures (empty: the first topic)"),
                "", optional=True,
            )
        )  # fmt: skip
        add_anchor_parameters(self)
        add_bootstrap_parameter(self)
        self.addParameter(
            QgsProcessingParameterNumber("N_BOOT", tr("Bootstrap resamples"), defaultValue=1000)
        )
        self.addParameter(
            QgsProcessingParameterFileDestination(
                "OUTPUT", tr("Survey GeoPackage"), tr("GeoPackage (*.gpkg)")
            )
        )
        self.addOutput(QgsProcessingOutputMultipleLayers("OUTPUT_LAYERS", tr("Rated layers")))
        self.addOutput(QgsProcessingOutputString("METRICS", tr("Metrics table URI")))

    def processAlgorithm(self, parameters, context, feedback):
        started = now()
        path = self.parameterAsFileOutput(parameters, "OUTPUT", context)
        values = read_endpoint_parameters(self, parameters, context)
        provider, base_url, model, api_key, concurrency, template, score_kind, topics = values
        truth_src = self.parameterAsSource(parameters, "TRUTH", context)
        truth_field = self.parameterAsString(parameters, "TRUTH_FIELD", context)
        if truth_src is not None and not truth_field:
            raise QgsProcessingException(tr("Choose the ground truth field."))
        check_anchor_parameters(self, parameters, context)
        bootstrap = BOOTSTRAPS[self.parameterAsEnum(parameters, "BOOTSTRAP", context)]
        truth_topics = split_topics(self.parameterAsString(parameters, "TRUTH_TOPICS", context))
        truth_topics = truth_topics or topics[:1]
        n_boot = self.parameterAsInt(parameters, "N_BOOT", context)
        seed = self.parameterAsInt(parameters, "SEED", context)  # also seeds the bootstrap

        pts, _, method = sample_from_parameters(self, parameters, context, feedback)
        lon, lat = pts[:, 0], pts[:, 1]
        pids = np.arange(len(lon), dtype=np.int64)
        feedback.pushInfo(tr("Sampled {n} points ({m}).").format(n=len(lon), m=method))
        truth = units = None
        if truth_src is not None:
            truth, units = polygon_field_values(
                truth_src, truth_field, lon, lat, context, tr("Ground truth field (TRUTH_FIELD)"),
                with_units=True,
            )  # fmt: skip
        anchor, anchor_units, anchor_name = read_anchor(
            self, parameters, context, feedback, lon, lat
        )
        if bootstrap == "points":
            units = anchor_units = None

        with running_endpoint(provider, base_url, model, api_key, concurrency, feedback) as ep:
            by_topic, stats = rate(lon, lat, pids, topics, ep, template, score_kind, feedback)
            rows = []
            for topic, cols in by_topic.items():
                t = truth if (truth is not None and topic in truth_topics) else None
                u = units if t is not None else None
                if t is not None:
                    cols.update(truth_columns(cols["score"], t))
                    has = np.isfinite(t) & (units >= 0)
                    cols["truth_unit"] = np.where(has, units, np.nan)  # NaN is written as NULL
                rows.append(
                    metrics_row(
                        ep.model, topic, cols["score_kind"][0], cols["score"], t, anchor,
                        anchor_name, n_boot, seed, answered=cols["answered"] == 1,
                        failed=cols["failed"] == 1, truth_units=u,
                        anchor_units=u if anchor_units is None else anchor_units,
                        note=cols.get("score_note", ""), lon=lon, lat=lat,
                    )
                )  # fmt: skip
            record = run_record(
                self.id(), parameters, started, ep, template, topics, n_points=len(lon),
                **stats_fields(stats),
            )  # fmt: skip
            model_name = ep.model
        # Everything is computed: only now write, so a failure above leaves no partial file.
        uris = write_rated(path, by_topic, model_name, geonames=template.uses_gazetteer)
        metrics_uri = write_table(path, "metrics", rows, METRIC_FIELDS)
        append_runs(path, [record])
        load_outputs(context, uris)
        feedback.pushInfo(format_table(rows))
        return {"OUTPUT": path, "OUTPUT_LAYERS": list(uris), "METRICS": metrics_uri}
