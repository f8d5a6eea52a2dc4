"""geobias:comparemodels — the paper's tables across models x topics, and mean rank maps."""

import numpy as np
from qgis.core import (
    QgsProcessing,
    QgsProcessingException,
    QgsProcessingOutputMultipleLayers,
    QgsProcessingOutputString,
    QgsProcessingParameterFile,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterFolderDestination,
    QgsProcessingParameterMultipleLayers,
    QgsProcessingParameterString,
)

from ...core.compare import Scores, mean_ranks, pivots, to_markdown
from ...core.metrics import pearson_r2
from ...i18n_util import QT_TRANSLATE_NOOP, tr
from ..base import GeoBiasAlgorithm
from ..comparison import (
    COMPARE_FIELDS,
    labelled,
    pivot_fields,
    pivot_rows,
    survey_layers,
    write_folder,
    write_mean_layer,
)
from ..gpkg import write_table
from ..metrics_table import layer_metrics
from ..parameters import AnchorParameters, BootstrapParameters, split_topics
from ..rating import load_outputs
from ..styles import short_topic


class CompareModelsAlgorithm(GeoBiasAlgorithm):
    NAME = "comparemodels"
    DISPLAY = QT_TRANSLATE_NOOP("@default", "Compare models and topics")
    GROUP = "truth"

    def help_text(self):
        return tr(
            "Compares several models and topics rated on the same points, as the tables and maps "
            "of Manvi et al. (2024): for every model and topic the metrics of 'Bias metrics' "
            "(Spearman's rho with the ground truth and with the anchor, by default the bundled "
            "countries' infant survival as in the dock, bias score, MAD, answer "
            "rate, Gini) and Pearson's r² with the ground truth, pivoted into one table per "
            "metric (topics down, models across) with the mean across models and the mean across "
            "topics, written into the output GeoPackage (tables pivot_<metric> and the long table "
            "compare_metrics) and, with a folder, as CSV files and one Markdown file. For each "
            "topic, a point layer of the mean rank across models (each model ranked on its own) "
            "and, where the points have a ground truth, the mean rank error: common over- (red) "
            "and underestimates (blue). Input: rated layers, or a survey GeoPackage whose rated "
            "layers are all read; points of different layers are matched by their coordinates."
        )

    def initAlgorithm(self, config=None):
        self.addParameter(
            QgsProcessingParameterMultipleLayers(
                "INPUT",
                tr("Rated points layers"),
                QgsProcessing.SourceType.TypeVectorPoint,
                optional=True,
            )
        )
        self.addParameter(
            QgsProcessingParameterFile(
                "SURVEY", tr("Survey GeoPackage (all its rated layers)"), extension="gpkg",
                optional=True,
            )
        )  # fmt: skip
        self.addParameter(
            QgsProcessingParameterString(
                "MODELS", tr("Models to compare (separated by ;, empty: all)"), "", optional=True
            )
        )
        self.addParameter(
            QgsProcessingParameterString(
                "TOPICS", tr("Topics to compare (separated by ;, empty: all)"), "", optional=True
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
            QgsProcessingParameterFileDestination(
                "OUTPUT", tr("Comparison GeoPackage"), tr("GeoPackage (*.gpkg)")
            )
        )
        self.addParameter(
            QgsProcessingParameterFolderDestination(
                "TABLES_FOLDER", tr("Folder for the CSV and Markdown tables"), optional=True,
                createByDefault=False,
            )
        )  # fmt: skip
        self.addOutput(
            QgsProcessingOutputMultipleLayers("MEAN_RANK_LAYERS", tr("Mean rank layers"))
        )
        self.addOutput(QgsProcessingOutputString("METRICS", tr("Metrics table URI")))
        self.addOutput(QgsProcessingOutputMultipleLayers("PIVOTS", tr("Pivot tables")))
        self.addOutput(QgsProcessingOutputString("MARKDOWN", tr("The tables as Markdown")))

    def input_layers(self, parameters, context):
        layers = list(self.parameterAsLayerList(parameters, "INPUT", context) or [])
        survey = self.parameterAsFile(parameters, "SURVEY", context)
        score_field = self.parameterAsString(parameters, "SCORE_FIELD", context)
        if survey:
            found = survey_layers(survey, score_field)
            if not found:
                raise QgsProcessingException(
                    tr("Survey GeoPackage (SURVEY): {path} has no rated layer (fields model, topic "
                       "and {score}).").format(path=survey, score=score_field)
                )  # fmt: skip
            layers += found
        if not layers:
            raise QgsProcessingException(
                tr("Give rated points layers (INPUT) or a survey GeoPackage (SURVEY).")
            )
        return layers

    def processAlgorithm(self, parameters, context, feedback):
        layers = self.input_layers(parameters, context)
        score_field = self.parameterAsString(parameters, "SCORE_FIELD", context)
        truth_field = self.parameterAsString(parameters, "TRUTH_FIELD", context)
        truth_named = bool(parameters.get("TRUTH_FIELD")) and truth_field != "truth"
        anchor = AnchorParameters.read(self, parameters, context)
        bootstrap = BootstrapParameters.read(self, parameters, context)
        want_models = split_topics(self.parameterAsString(parameters, "MODELS", context))
        want_topics = split_topics(self.parameterAsString(parameters, "TOPICS", context))
        path = self.parameterAsFileOutput(parameters, "OUTPUT", context)
        folder = self.parameterAsString(parameters, "TABLES_FOLDER", context)

        rows, arrays, origin = [], [], []
        for k, layer in enumerate(layers):
            feedback.setProgressText(tr("Metrics of {layer}…").format(layer=layer.name()))
            for row, cols in layer_metrics(
                layer, context, feedback, score_field, truth_field, truth_named, bootstrap, anchor
            ):
                truth = cols["truth"]
                row["r2_truth"] = np.nan if truth is None else pearson_r2(cols["score"], truth)
                rows.append(row)
                arrays.append(cols)
                origin.append(layer.name())
            if feedback.isCanceled():
                return {}
            feedback.setProgress(80.0 * (k + 1) / len(layers))
        labelled(rows)
        keep = [
            i for i, r in enumerate(rows)
            if (not want_models or r["model"] in want_models or r["label"] in want_models)
            and (not want_topics or r["topic"] in want_topics)
        ]  # fmt: skip
        self.check_selection(rows, keep, want_models, want_topics)
        rows = [rows[i] for i in keep]
        arrays = [arrays[i] for i in keep]
        origin = [origin[i] for i in keep]
        self.check_duplicates(rows, origin)
        models = list(dict.fromkeys(r["label"] for r in rows))
        topics = list(dict.fromkeys(r["topic"] for r in rows))
        feedback.pushInfo(
            tr("Comparing {m} model(s) on {t} topic(s).").format(m=len(models), t=len(topics))
        )
        records = [dict(r, model=r["label"]) for r in rows]
        tables = pivots(records, models=models, topics=topics)

        # Everything is computed before anything is written.
        means = {}
        for topic in topics:
            group = [
                Scores(r["label"], a["lon"], a["lat"], a["score"], a["truth"])
                for r, a in zip(rows, arrays)
                if r["topic"] == topic
            ]
            means[topic] = mean_ranks(group)
        metrics_uri = write_table(path, "compare_metrics", rows, COMPARE_FIELDS)
        pivot_uris = [
            write_table(path, f"pivot_{p.metric}", pivot_rows(p), pivot_fields(p)) for p in tables
        ]
        layer_uris = {}
        for topic, m in means.items():
            uri = write_mean_layer(path, topic, m)
            layer_uris[uri] = tr("Mean rank · {topic}").format(topic=short_topic(topic))
            style = "mean_rank_error" if np.isfinite(m.mean_rank_error).any() else "mean_rank"
            load_outputs(context, {uri: layer_uris[uri]}, "MEAN_RANK_LAYERS", style)
        markdown = "\n".join(to_markdown(p) for p in tables)
        if folder:
            write_folder(folder, tables, markdown)
        feedback.pushInfo(markdown)
        feedback.setProgress(100.0)
        return {
            "OUTPUT": path,
            "TABLES_FOLDER": folder or None,
            "MEAN_RANK_LAYERS": list(layer_uris),
            "METRICS": metrics_uri,
            "PIVOTS": pivot_uris,
            "MARKDOWN": markdown,
        }

    @staticmethod
    def check_selection(rows, keep, want_models, want_topics):
        """A clear error when MODELS or TOPICS name nothing in the input."""
        have_models = {r["model"] for r in rows} | {r["label"] for r in rows}
        have_topics = {r["topic"] for r in rows}
        for wanted, have, param in (
            (want_models, have_models, "MODELS"),
            (want_topics, have_topics, "TOPICS"),
        ):
            missing = [w for w in wanted if w not in have]
            if missing:
                raise QgsProcessingException(
                    tr("{param}: {missing} not in the input (it has: {have}).").format(
                        param=param, missing=", ".join(missing), have=", ".join(sorted(have))
                    )
                )
        if not keep:
            raise QgsProcessingException(tr("Nothing to compare: no rated model and topic."))

    @staticmethod
    def check_duplicates(rows, origin):
        seen = {}
        for r, name in zip(rows, origin):
            key = (r["label"], r["topic"])
            if key in seen:
                raise QgsProcessingException(
                    tr("Model {model} rated topic {topic} in two layers ({a}, {b}): choose one of "
                       "them.").format(model=key[0], topic=key[1], a=seen[key], b=name)
                )  # fmt: skip
            seen[key] = name
