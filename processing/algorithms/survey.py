"""geobias:survey — sample points, rate them, add ground truth, compute bias metrics, in one go."""

from qgis.core import (
    QgsProcessingOutputMultipleLayers,
    QgsProcessingOutputString,
    QgsProcessingParameterFileDestination,
)

from ...i18n_util import QT_TRANSLATE_NOOP, tr
from ..base import GeoBiasAlgorithm
from ..language_choices import countries_of, tagged
from ..parameters import (
    AnchorParameters,
    BootstrapParameters,
    BudgetParameters,
    CacheParameter,
    ConnectionParameters,
    PromptParameters,
    SamplesParameter,
    SamplingParameters,
    TruthParameters,
    add_endpoint_parameters,
)


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
            "survival (as 'Bias metrics'; without an anchor, the bundled countries' infant "
            "survival, as in the dock). The log names the model and the time the requests should "
            "take (from the rate measured in earlier runs on this machine) before it starts. "
            "Writes one styled layer per model and topic, a 'metrics' table and a 'runs' table "
            "into one GeoPackage. The runs table says what was measured: the study area "
            "(STUDY_AREA, else the region layer, the extent or the world) with its area and "
            "extent, ground truth and anchor as layer.field (TRUTH_NAME and ANCHOR_NAME override "
            "them), model, endpoint, prompt and score. In several prompt languages, each language "
            "gets its own layers, metrics rows (with its home bias, as 'Bias metrics') and runs "
            "row."
        )

    def initAlgorithm(self, config=None):
        SamplingParameters.add(self)
        add_endpoint_parameters(self)
        CacheParameter.add(self)
        BudgetParameters.add(self)
        SamplesParameter.add(self)
        TruthParameters.add(self)
        AnchorParameters.add(self)
        BootstrapParameters.add(self, seed=False)  # SEED (sampling) also seeds the bootstrap
        self.addParameter(
            QgsProcessingParameterFileDestination(
                "OUTPUT", tr("Survey GeoPackage"), tr("GeoPackage (*.gpkg)")
            )
        )
        self.addOutput(QgsProcessingOutputMultipleLayers("OUTPUT_LAYERS", tr("Rated layers")))
        self.addOutput(QgsProcessingOutputString("METRICS", tr("Metrics table URI")))

    def processAlgorithm(self, parameters, context, feedback):
        import numpy as np

        from ..endpoints import running_endpoint
        from ..features import polygon_field_values
        from ..gpkg import write_table, writing
        from ..metadata import COUNTRY_LANGUAGES_RIGHTS, credit_geonames
        from ..metrics_table import format_table, metric_fields, metrics_row
        from ..points import sample_points
        from ..progress import PartFeedback, step_text
        from ..rating import check_count, load_outputs, load_tables, rate, score_kinds, write_rated
        from ..runs import append_runs, language_records, now, run_record
        from ..truth import anchor_values, truth_columns

        started = now()
        path = self.parameterAsFileOutput(parameters, "OUTPUT", context)
        connection = ConnectionParameters.read(self, parameters, context)
        prompt = PromptParameters.read(self, parameters, context)
        template, score_kind, topics = prompt.template, prompt.score_kind, prompt.topics
        truth_source = TruthParameters.read(self, parameters, context, topics)
        anchor_source = AnchorParameters.read(self, parameters, context)
        bootstrap = BootstrapParameters.read(self, parameters, context)
        n_boot, seed = bootstrap.n_boot, bootstrap.seed
        sampling = SamplingParameters.read(self, parameters, context, feedback)
        budget = BudgetParameters.read(self, parameters, context)
        samples = SamplesParameter.read(self, parameters, context)
        # Before sampling: COUNT=1e9 is refused here, not sampled (or cut to what the method
        # can place) and then sent.
        draws = samples if score_kind == "sampled" else 1
        check_count(sampling, topics, prompt.languages, template, budget, draws)

        pts, _ = sample_points(sampling, feedback)
        lon, lat = pts[:, 0], pts[:, 1]
        pids = np.arange(len(lon), dtype=np.int64)
        feedback.pushInfo(tr("Sampled {n} points ({m}).").format(n=len(lon), m=sampling.method))
        truth = units = None
        if truth_source.source is not None:
            truth, units = polygon_field_values(
                truth_source.source, truth_source.field_name, lon, lat, context,
                tr("Ground truth field (TRUTH_FIELD)"), with_units=True,
            )  # fmt: skip
        anchor, anchor_units, anchor_name = anchor_values(
            anchor_source, lon, lat, context, feedback
        )
        if bootstrap.kind == "points":
            units = anchor_units = None

        languages = prompt.languages
        countries = countries_of(lon, lat) if tagged(languages) else None
        with running_endpoint(connection, feedback) as ep:
            # The requests fill the bar to 90; metrics and writing the rest (to 100 at the end).
            asking, said = PartFeedback(feedback, 0, 90), []
            cache_path = CacheParameter.read(self, parameters, context)
            rated, stats = rate(lon, lat, pids, topics, ep, template, score_kind, asking,
                                cache_path, languages=languages, after=said,
                                budget=budget, samples=samples)  # fmt: skip
            step_text(feedback, tr("Computing the bias metrics…"))
            rows = []
            for (topic, code), cols in rated.items():
                t = truth if (truth is not None and truth_source.applies_to(topic)) else None
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
                        language=code if "language" in cols else "", countries=countries,
                    )
                )  # fmt: skip
            record = run_record(
                self.id(), parameters, started, ep, template, topics, n_points=len(lon),
                score_kind=score_kinds(rated), truth=truth_source.label, anchor=anchor_name,
                **sampling.area.fields(),
            )  # fmt: skip
            model_name = ep.model
        # Everything is computed: only now write, so a failure above leaves no partial file.
        with writing(path) as written:  # a full disk: one sentence, no half-written file
            # The runs rows first (one per prompt language): the layers' descriptions
            # (metadata) are made from them.
            append_runs(path, language_records(record, languages, stats, template))
            uris = write_rated(
                path, rated, model_name, geonames=template.uses_gazetteer, written=written
            )
            metrics_uri = write_table(path, "metrics", rows, metric_fields(rows))
            written["metrics"] = len(rows)
            if any(r.get("language") for r in rows):  # home bias read GeoNames' languages
                credit_geonames(metrics_uri, rights=COUNTRY_LANGUAGES_RIGHTS)
        load_outputs(context, uris)
        load_tables(context, {metrics_uri: tr("Bias metrics")}, "METRICS")
        feedback.setProgress(100)  # the bar ends before the summary (one stream in qgis_process)
        for line in said + [format_table(rows)]:
            feedback.pushInfo(line)
        return {"OUTPUT": path, "OUTPUT_LAYERS": list(uris), "METRICS": metrics_uri}
