"""geobias:ratelocations — a model rates every point on each topic; a layer per model x topic."""

from qgis.core import (
    QgsProcessing,
    QgsProcessingOutputMultipleLayers,
    QgsProcessingOutputNumber,
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterFileDestination,
)

from ...i18n_util import QT_TRANSLATE_NOOP, tr
from ..base import GeoBiasAlgorithm
from ..parameters import (
    INPUT,
    OUTPUT,
    BudgetParameters,
    CacheParameter,
    ConnectionParameters,
    PromptParameters,
    SamplesParameter,
    add_endpoint_parameters,
)


class RateLocationsAlgorithm(GeoBiasAlgorithm):
    NAME = "ratelocations"
    DISPLAY = QT_TRANSLATE_NOOP("@default", "Rate locations")
    GROUP = "survey"
    USES_GEOS = False  # points are written as WKB by numpy, no shapely

    def help_text(self):
        return tr(
            "Asks a large language model to rate every point on each topic (0.0–9.9) with the "
            "paper's zero-shot prompt (coordinates, address and nearby places from the bundled "
            "GeoNames gazetteer), and writes one rated points layer per model and topic into a "
            "GeoPackage, with a 'runs' table recording the prompt template, parameters, model, "
            "endpoint host (never the API key), versions and times, and the study area that "
            "'Sample points' recorded with the points (else the points' extent). Endpoint: a "
            "provider preset (embedded = a small local model in its own process on 127.0.0.1, "
            "kept for later runs; or any OpenAI-compatible service), a base URL, the model name "
            "and an authentication configuration holding the API key. Score: the expected value "
            "of the first digit from the log-probabilities, the greedy rating, or automatic (the "
            "default: the expected value when the endpoint gives log-probabilities, else the "
            "greedy rating). A score column holds one kind: answered points without it are "
            "marked no_score = 1. Requests that fail after retries are marked failed = 1 and are "
            "not counted as refusals. Answers are cached, so a cancelled run resumes. Prompt "
            "languages: the prompt, topics and answer format in each chosen language (English "
            "by default; a language is a file, see the guide); every language other than "
            "English alone writes its own layers, named and tagged with its code (field "
            "language), and a runs-table row of its own."
        )

    def initAlgorithm(self, config=None):
        self.addParameter(
            QgsProcessingParameterFeatureSource(
                INPUT, tr("Points to rate"), [QgsProcessing.SourceType.TypeVectorPoint]
            )
        )
        add_endpoint_parameters(self)
        CacheParameter.add(self)
        BudgetParameters.add(self)
        SamplesParameter.add(self)
        self.addParameter(
            QgsProcessingParameterFileDestination(
                OUTPUT, tr("Rated points GeoPackage"), tr("GeoPackage (*.gpkg)")
            )
        )
        self.addOutput(QgsProcessingOutputMultipleLayers("OUTPUT_LAYERS", tr("Rated layers")))
        self.addOutput(QgsProcessingOutputNumber("N_ANSWERED", tr("Answered points")))

    def processAlgorithm(self, parameters, context, feedback):
        from ..endpoints import running_endpoint
        from ..gpkg import writing
        from ..progress import step_text
        from ..rating import input_facts, load_outputs, rate, read_points, score_kinds, write_rated
        from ..runs import append_runs, language_records, now, run_record

        started = now()
        path = self.parameterAsFileOutput(parameters, OUTPUT, context)
        connection = ConnectionParameters.read(self, parameters, context)
        prompt = PromptParameters.read(self, parameters, context)
        template, score_kind, topics = prompt.template, prompt.score_kind, prompt.topics
        languages = prompt.languages
        budget = BudgetParameters.read(self, parameters, context)
        samples = SamplesParameter.read(self, parameters, context)
        lon, lat, pids = read_points(self, parameters, context)
        with running_endpoint(connection, feedback) as ep:
            # rate() names the model and the time it should take before it starts.
            cache_path = CacheParameter.read(self, parameters, context)
            rated, stats = rate(lon, lat, pids, topics, ep, template, score_kind, feedback,
                                cache_path, languages=languages, budget=budget,
                                samples=samples)  # fmt: skip
            step_text(feedback, tr("Writing the rated layers…"))
            record = run_record(
                self.id(), parameters, started, ep, template, topics, n_points=len(lon),
                score_kind=score_kinds(rated), **input_facts(self, parameters, context, lon, lat),
            )  # fmt: skip
            with writing(path) as written:  # a full disk: one sentence, no half-written file
                # The runs rows first (one per prompt language): the layers' descriptions
                # (metadata) are made from them.
                append_runs(path, language_records(record, languages, stats, template))
                uris = write_rated(
                    path, rated, ep.model, geonames=template.uses_gazetteer, written=written
                )
        load_outputs(context, uris)
        n_answered = int(sum(c["answered"].sum() for c in rated.values()))
        return {"OUTPUT": path, "OUTPUT_LAYERS": list(uris), "N_ANSWERED": n_answered}
