"""geobias:benchmark — the benchmark card: the fixed world sample x the paper's topics x one
model, as one GeoPackage, a JSON card and a PDF page."""

from osgeo import ogr
from qgis.core import (
    QgsProcessing,
    QgsProcessingOutputMultipleLayers,
    QgsProcessingOutputNumber,
    QgsProcessingOutputString,
    QgsProcessingParameterEnum,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterMultipleLayers,
    QgsProcessingParameterNumber,
    QgsProcessingParameterString,
)

from ...i18n_util import QT_TRANSLATE_NOOP, tr
from ..base import GeoBiasAlgorithm
from ..definitions import BENCHMARK_SAMPLES
from ..parameters import (
    BootstrapParameters,
    ConnectionParameters,
    PromptParameters,
    add_endpoint_parameters,
)

INFO_FIELDS = {"key": ogr.OFTString, "value": ogr.OFTString}


class BenchmarkAlgorithm(GeoBiasAlgorithm):
    NAME = "benchmark"
    DISPLAY = QT_TRANSLATE_NOOP("@default", "Benchmark card")
    GROUP = "truth"
    USES_GEOS = False  # points are written as WKB by numpy, no shapely

    def help_text(self):
        return tr(
            "A benchmark card anyone can rerun and compare: the model rates the points of a "
            "fixed, versioned world sample (v1: the paper's own 2,000 points) on the paper's 16 "
            "topics, and the card gives per topic the answer rate, Spearman's rho with the truth "
            "the sample ships (infant mortality and population density by country, cluster "
            "bootstrap over countries), MAD, Gini, the bias score B against infant survival (a "
            "bias for the sensitive topics and controls; for an objective topic it measures "
            "knowledge and the page leaves it out) and the GeoBS scores of the rank errors. "
            "Writes one GeoPackage (a rated layer per topic, the tables card and card_info, the "
            "runs table), the card as JSON (model, endpoint host without any key, prompt preset "
            "and language, date, GeoBias version, the settings, and each topic's scores on the "
            "sample's points) and a one-page PDF. A run on fewer topics or points (N_POINTS: "
            "the first points of the sample) is a reduced card and says so on its face. With "
            "RATED, ratings already made on the sample's points (e.g. imported files) make the "
            "card and no model is asked. Compare cards with 'Compare benchmark cards' or in the "
            "Compare tab."
        )

    def initAlgorithm(self, config=None):
        from ..card import ALL_TOPICS

        self.addParameter(
            QgsProcessingParameterEnum(
                "SAMPLE", tr("Benchmark sample"), BENCHMARK_SAMPLES.labels(),
                defaultValue=BENCHMARK_SAMPLES.default_index,
            )
        )  # fmt: skip
        self.addParameter(
            QgsProcessingParameterMultipleLayers(
                "RATED", tr("Ratings already made on the sample's points (instead of a model)"),
                QgsProcessing.SourceType.TypeVectorPoint, optional=True,
            )
        )  # fmt: skip
        # A card's prompts are English (its language field says so): no LANGUAGES to ignore.
        add_endpoint_parameters(self, with_languages=False)
        self.parameterDefinition(PromptParameters.TOPICS).setDefaultValue(ALL_TOPICS)
        self.addParameter(
            QgsProcessingParameterNumber(
                "N_POINTS", tr("Points of the sample (0: all; fewer make a reduced card)"),
                defaultValue=0, minValue=0,
            )
        )  # fmt: skip
        BootstrapParameters.add(self, kind=False)
        self.addParameter(
            QgsProcessingParameterString(
                "NOTE", tr("A note on the card (makes it a reduced card)"), "", optional=True
            )
        )
        self.addParameter(
            QgsProcessingParameterFileDestination(
                "OUTPUT", tr("Card GeoPackage"), tr("GeoPackage (*.gpkg)")
            )
        )
        self.addParameter(
            QgsProcessingParameterFileDestination("CARD", tr("Card (JSON)"), tr("JSON (*.json)"))
        )
        self.addParameter(
            QgsProcessingParameterFileDestination("PDF", tr("Card page (PDF)"), tr("PDF (*.pdf)"))
        )
        self.addOutput(QgsProcessingOutputMultipleLayers("OUTPUT_LAYERS", tr("Rated layers")))
        self.addOutput(QgsProcessingOutputNumber("REDUCED", tr("Reduced card (1) or full (0)")))
        self.addOutput(QgsProcessingOutputString("MODEL", tr("Model of the card")))

    def processAlgorithm(self, parameters, context, feedback):
        import numpy as np

        from ...core.survey import benchmark
        from ...core.survey.languages import DEFAULT_LANGUAGE
        from ..card import (
            CARD_FIELDS,
            card_rows,
            load_sample,
            ratings_from_layers,
            sample_facts,
            topic_entries,
            write_json,
        )
        from ..card_page import write_card_pdf
        from ..endpoints import running_endpoint
        from ..gpkg import write_table
        from ..progress import step_text
        from ..rating import load_outputs, rate, score_kinds, total_stats, write_rated
        from ..runs import (
            append_runs,
            layer_language,
            now,
            plugin_version,
            run_info,
            run_record,
        )

        started = now()
        version = BENCHMARK_SAMPLES.key(self.parameterAsEnum(parameters, "SAMPLE", context))
        sample = load_sample(version)
        path = self.parameterAsFileOutput(parameters, "OUTPUT", context)
        card_path = self.parameterAsFileOutput(parameters, "CARD", context)
        pdf_path = self.parameterAsFileOutput(parameters, "PDF", context)
        bootstrap = BootstrapParameters.read(self, parameters, context)
        note = self.parameterAsString(parameters, "NOTE", context).strip()
        rated_layers = self.parameterAsLayerList(parameters, "RATED", context) or []
        record, columns_by_topic = None, {}
        if rated_layers:
            by_topic, model = ratings_from_layers(rated_layers, sample, context, feedback)
            run = run_info(rated_layers[0].source(), model, next(iter(by_topic)),
                           language=layer_language(rated_layers[0]) or "")  # fmt: skip
            endpoint = (run or {}).get("endpoint_host") or tr("not recorded (imported ratings)")
            preset = (run or {}).get("template_name") or tr("not recorded")
            kind = next(iter(by_topic.values()))["score_kind"]
            source = tr("from the layers {names}").format(
                names=", ".join(layer.name() for layer in rated_layers))  # fmt: skip
        else:
            connection = ConnectionParameters.read(self, parameters, context)
            prompt = PromptParameters.read(self, parameters, context)
            n = self.parameterAsInt(parameters, "N_POINTS", context) or len(sample)
            idx = np.arange(min(n, len(sample)))
            lon, lat, pids = sample.lon[idx], sample.lat[idx], sample.point_id[idx]
            with running_endpoint(connection, feedback) as ep:
                feedback.pushInfo(
                    tr("Benchmark card: {m} rates {n} points of sample {v} on {k} topic(s).")
                    .format(m=ep.model, n=len(idx), v=version, k=len(prompt.topics))
                )  # fmt: skip
                rated, stats = rate(
                    lon, lat, pids, prompt.topics, ep, prompt.template, prompt.score_kind,
                    feedback,
                )  # fmt: skip
                # The card's prompts are English: rate() keys its columns (topic, "en").
                columns_by_topic = {topic: cols for (topic, _code), cols in rated.items()}
                record = run_record(
                    self.id(), parameters, started, ep, prompt.template, prompt.topics,
                    n_points=len(idx), score_kind=score_kinds(rated), stats=total_stats(stats),
                )  # fmt: skip
                model = ep.model
                endpoint = tr("embedded model (this computer)") if connection.shared_model else (
                    f"{connection.provider} · {ep.host()}")  # fmt: skip
            preset, source = prompt.template.name, ""
            by_topic = {}
            for topic, cols in columns_by_topic.items():
                kind = cols["score_kind"][0]
                full = {key: np.full(len(sample), np.nan) for key in ("scores", "answered",
                                                                      "failed")}  # fmt: skip
                full["scores"][idx] = cols["score"]
                full["answered"][idx] = cols["answered"]
                full["failed"][idx] = cols["failed"]
                full["rated"] = np.isfinite(full["failed"])
                full["score_kind"] = kind
                by_topic[topic] = full
        feedback.setProgress(80)
        entries = topic_entries(by_topic, sample, bootstrap.n_boot, bootstrap.seed, feedback)
        if entries is None:
            return {}
        card = benchmark.build_card(
            model, endpoint, entries, sample, prompt_preset=preset, language=DEFAULT_LANGUAGE,
            geobias_version=plugin_version(), score_kind=kind, note=note, source=source,
        )  # fmt: skip
        step_text(feedback, tr("Writing the card…"))
        if record is None:  # given ratings: their run's endpoint and prompt, where recorded
            n_rated = max(int(np.sum(p["rated"])) for p in by_topic.values())
            record = run_record(self.id(), parameters, started, topics=list(by_topic),
                                model=model, score_kind=kind, n_points=n_rated)  # fmt: skip
            record.update({k: run[k] for k in ("provider", "endpoint_host", "endpoint",
                                               "template_name", "template_prefix",
                                               "template_body") if (run or {}).get(k)})  # fmt: skip
        # What the card measured, in the runs row first: the layers' descriptions are made
        # from it.
        record.update(sample_facts(version, sample, list(by_topic)))
        append_runs(path, [record])
        layers = self.rated_layers(sample, by_topic, columns_by_topic, model)
        uris = write_rated(path, layers, model, default_style="rank_error",
                           geonames=not rated_layers)  # fmt: skip
        write_table(path, "card", card_rows(card), CARD_FIELDS)
        info = [{"key": k, "value": str(card[k])} for k in (
            "model", "endpoint", "prompt_preset", "language", "score_kind", "date",
            "geobias_version", "reduced", "reduced_reason")]  # fmt: skip
        info.append({"key": "sample", "value": f"{version} ({len(sample)} points)"})
        write_table(path, "card_info", info, INFO_FIELDS)
        write_json(card_path, card)
        write_card_pdf(card, pdf_path)
        load_outputs(context, uris, "OUTPUT_LAYERS", "rank_error")
        if card["reduced"]:
            feedback.pushWarning(tr("Reduced card: {why}").format(why=card["reduced_reason"]))
        feedback.pushInfo(tr("Card written: {json} and {pdf}.").format(json=card_path,
                                                                       pdf=pdf_path))  # fmt: skip
        return {
            "OUTPUT": path,
            "CARD": card_path,
            "PDF": pdf_path,
            "OUTPUT_LAYERS": list(uris),
            "REDUCED": int(card["reduced"]),
            "MODEL": model,
        }

    @staticmethod
    def rated_layers(sample, by_topic, columns_by_topic, model):
        """Rated-layer columns of each topic on the sample's rated points, with the truth the
        sample ships (and its country as truth unit), keyed (topic, "") as write_rated reads
        them: the card's prompts are English, no layer carries a language."""
        import numpy as np

        from ..card import sample_truth, unit_codes
        from ..rating import rated_columns
        from ..truth import truth_columns

        out = {}
        for topic, placed in by_topic.items():
            rated = np.flatnonzero(placed["rated"])
            cols = columns_by_topic.get(topic)
            if cols is None:  # given ratings: the GeoBias schema from the placed scores
                cols = rated_columns(sample.lon[rated], sample.lat[rated],
                                     placed["scores"][rated], model, topic,
                                     placed["score_kind"])  # fmt: skip
                cols["answered"] = (placed["answered"][rated] == 1).astype(np.int64)
                cols["failed"] = (placed["failed"][rated] == 1).astype(np.int64)
            cols = dict(cols)
            cols["pid"] = sample.point_id[rated]
            truth, units = sample_truth(sample, topic)
            if truth is not None:
                cols.update(truth_columns(cols["score"], truth[rated]))
                codes = unit_codes(units)[rated]
                cols["truth_unit"] = np.where(np.isfinite(truth[rated]), codes, np.nan)
            out[(topic, "")] = cols
        return out
