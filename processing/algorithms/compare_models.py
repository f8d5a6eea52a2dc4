"""geobias:comparemodels — the paper's tables across models x topics, and mean rank maps."""

from dataclasses import replace

from qgis.core import (
    QgsProcessing,
    QgsProcessingException,
    QgsProcessingOutputFile,
    QgsProcessingOutputMultipleLayers,
    QgsProcessingOutputString,
    QgsProcessingParameterFile,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterFolderDestination,
    QgsProcessingParameterMultipleLayers,
    QgsProcessingParameterString,
)

from ...i18n_util import QT_TRANSLATE_NOOP, tr
from ..base import GeoBiasAlgorithm
from ..parameters import AnchorParameters, BootstrapParameters, split_topics


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
            "layers are all read; points of different layers are matched by their coordinates. "
            "Prompt languages are a dimension too: with layers in several languages (field "
            "language), the paper's pivots per language (pivot_<metric>_<language>), each "
            "metric with the languages across (pivot_<metric>_languages), the mean rank maps per "
            "language, and per topic a layer of the spread of each point's rank across the "
            "languages (rank_spread_<topic>: where the language changes the answer most)."
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
        self.addParameter(
            QgsProcessingParameterString(
                "LANGUAGES", tr("Prompt languages to compare (codes separated by ;, empty: all)"),
                "", optional=True,
            )
        )  # fmt: skip
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
        self.addOutput(QgsProcessingOutputFile("MARKDOWN_FILE", tr("Markdown file of the tables")))
        self.addOutput(
            QgsProcessingOutputMultipleLayers(
                "SPREAD_LAYERS", tr("Rank spread across languages layers")
            )
        )

    def input_layers(self, parameters, context):
        from ..comparison_layers import survey_layers

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
        import numpy as np

        from ...core.stats.metrics import pearson_r2
        from ...core.survey.comparisons import (
            PIVOT_METRICS,
            Scores,
            by_language,
            mean_ranks,
            pivots,
            rank_spread,
            to_markdown,
        )
        from ..comparison_layers import (
            COMPARE_FIELDS,
            labelled,
            mixed_score_warning,
            pivot_fields,
            pivot_rows,
            write_folder,
            write_markdown_beside,
            write_mean_layer,
            write_spread_layer,
        )
        from ..gpkg import safe_name, write_table
        from ..metrics_table import layer_metrics, metric_fields
        from ..progress import step_text
        from ..rating import load_outputs, load_tables
        from ..runs import append_runs, derived_record, now
        from ..styles import short_topic

        started = now()
        layers = self.input_layers(parameters, context)
        score_field = self.parameterAsString(parameters, "SCORE_FIELD", context)
        truth_field = self.parameterAsString(parameters, "TRUTH_FIELD", context)
        truth_named = bool(parameters.get("TRUTH_FIELD")) and truth_field != "truth"
        anchor = AnchorParameters.read(self, parameters, context)
        bootstrap = BootstrapParameters.read(self, parameters, context)
        want_models = split_topics(self.parameterAsString(parameters, "MODELS", context))
        want_topics = split_topics(self.parameterAsString(parameters, "TOPICS", context))
        want_languages = split_topics(self.parameterAsString(parameters, "LANGUAGES", context))
        path = self.parameterAsFileOutput(parameters, "OUTPUT", context)
        folder = self.parameterAsString(parameters, "TABLES_FOLDER", context)

        rows, arrays, origin = [], [], []
        for k, layer in enumerate(layers):
            step_text(feedback, tr("Metrics of {layer}…").format(layer=layer.name()))
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
            and (not want_languages or r.get("language", "") in want_languages)
        ]  # fmt: skip
        self.check_selection(rows, keep, want_models, want_topics, want_languages)
        rows = [rows[i] for i in keep]
        arrays = [arrays[i] for i in keep]
        origin = [origin[i] for i in keep]
        self.check_duplicates(rows, origin)
        models = list(dict.fromkeys(r["label"] for r in rows))
        topics = list(dict.fromkeys(r["topic"] for r in rows))
        languages = list(dict.fromkeys(r.get("language", "") for r in rows))
        mixed = mixed_score_warning(rows)
        if mixed:
            feedback.pushWarning(mixed)
        several = len(languages) > 1
        if several:
            feedback.pushInfo(
                tr("Comparing {m} model(s) on {t} topic(s) in {n} prompt languages.").format(
                    m=len(models), t=len(topics), n=len(languages)
                )
            )
        else:
            feedback.pushInfo(
                tr("Comparing {m} model(s) on {t} topic(s).").format(m=len(models), t=len(topics))
            )
        records = [dict(r, model=r["label"]) for r in rows]
        # (table name, pivot, Markdown title): the paper's pivots, per language when there are
        # several, then each metric with the languages across.
        tables = []
        if not several:
            tables = [(f"pivot_{p.metric}", p, "") for p in pivots(records, models=models,
                                                                   topics=topics)]  # fmt: skip
        else:
            for code in languages:
                mine = [r for r in records if r.get("language", "") == code]
                for p in pivots(mine, models=[m for m in models if any(
                        r["model"] == m for r in mine)], topics=topics):  # fmt: skip
                    name = f"pivot_{p.metric}_{safe_name(code or 'none')}"
                    tables.append((name, p, f"{p.title} — {code}"))
            across_title = tr("by prompt language")
            for metric in PIVOT_METRICS:
                across = by_language(records, metric, languages)
                tables.append((f"pivot_{metric}_languages", across,
                               f"{across.title} — {across_title}"))  # fmt: skip

        # Everything is computed before anything is written.
        means, spreads = {}, {}
        for topic in topics:
            for code in languages:
                group = [
                    Scores(r["label"], a["lon"], a["lat"], a["score"], a["truth"])
                    for r, a in zip(rows, arrays)
                    if r["topic"] == topic and r.get("language", "") == code
                ]
                if group:
                    means[(topic, code)] = mean_ranks(group)
            if several:
                by_code = {
                    code: [Scores(r["label"], a["lon"], a["lat"], a["score"], a["truth"])
                           for r, a in zip(rows, arrays)
                           if r["topic"] == topic and r.get("language", "") == code]
                    for code in languages
                }  # fmt: skip
                by_code = {c: g for c, g in by_code.items() if g}
                if len(by_code) > 1:
                    spreads[topic] = rank_spread(by_code)
        # What each compared layer measured (its study area, prompt in its language, truth),
        # with the anchor.
        language_of = {}
        for r, o in zip(rows, origin):
            language_of.setdefault(o, r.get("language") or None)
        append_runs(path, [derived_record(lyr.source(), self.id(), parameters, started,
                                          language=language_of[lyr.name()],
                                          anchor=anchor.label or None)
                           for lyr in layers if lyr.name() in language_of])  # fmt: skip
        fields = metric_fields(rows, COMPARE_FIELDS)
        metrics_uri = write_table(path, "compare_metrics", rows, fields)
        pivot_uris = [write_table(path, name, pivot_rows(p), pivot_fields(p))
                      for name, p, _title in tables]  # fmt: skip
        layer_uris = {}
        for (topic, code), m in means.items():
            uri = write_mean_layer(path, topic, m, code if several else "")
            name = tr("Mean rank · {topic}").format(topic=short_topic(topic))
            layer_uris[uri] = f"{name} [{code}]" if several else name
            style = "mean_rank_error" if np.isfinite(m.mean_rank_error).any() else "mean_rank"
            load_outputs(context, {uri: layer_uris[uri]}, "MEAN_RANK_LAYERS", style)
        spread_uris = {}
        for topic, spread in spreads.items():
            uri = write_spread_layer(path, topic, spread)
            spread_uris[uri] = tr("Rank spread across languages · {topic}").format(
                topic=short_topic(topic)
            )
            load_outputs(context, {uri: spread_uris[uri]}, "SPREAD_LAYERS", "rank_spread")
        markdown = "\n".join(
            to_markdown(replace(p, label=title) if title else p) for _n, p, title in tables
        )
        md_path = write_markdown_beside(path, markdown)
        if folder:
            names = [n[len("pivot_") :] for n, _p, _t in tables]
            write_folder(folder, [p for _n, p, _t in tables], markdown, names)
        feedback.pushInfo(markdown)
        load_tables(context, {metrics_uri: tr("Comparison metrics")}, "METRICS")
        # A pivot's table name holds its metric and, across languages, the language too.
        load_tables(
            context,
            {uri: tr("Comparison: {metric}").format(metric=name[len("pivot_") :])
             for uri, (name, _p, _t) in zip(pivot_uris, tables)},
            "PIVOTS",
        )  # fmt: skip
        feedback.setProgress(100.0)
        result = {
            "OUTPUT": path,
            "TABLES_FOLDER": folder or None,
            "MEAN_RANK_LAYERS": list(layer_uris),
            "METRICS": metrics_uri,
            "PIVOTS": pivot_uris,
            "MARKDOWN": markdown,
            "MARKDOWN_FILE": md_path,
        }
        if several:  # comparisons in one language keep the results they always had
            result["SPREAD_LAYERS"] = list(spread_uris)
        return result

    @staticmethod
    def check_selection(rows, keep, want_models, want_topics, want_languages=()):
        """A clear error when MODELS, TOPICS or LANGUAGES name nothing in the input."""
        have_models = {r["model"] for r in rows} | {r["label"] for r in rows}
        have_topics = {r["topic"] for r in rows}
        have_languages = {r.get("language", "") for r in rows} - {""}
        for wanted, have, param in (
            (want_models, have_models, "MODELS"),
            (want_topics, have_topics, "TOPICS"),
            (want_languages, have_languages, "LANGUAGES"),
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
            key = (r["label"], r["topic"], r.get("language", ""))
            if key in seen:
                raise QgsProcessingException(
                    tr("Model {model} rated topic {topic} in two layers ({a}, {b}): choose one of "
                       "them.").format(model=key[0], topic=key[1], a=seen[key], b=name)
                )  # fmt: skip
            seen[key] = name
