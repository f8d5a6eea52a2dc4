"""geobias:pairwisesurvey — "which of two places has a higher <topic>?", ranked by
Bradley–Terry; a rated layer per topic, in the rating survey's schema."""

from qgis.core import (
    QgsProcessing,
    QgsProcessingException,
    QgsProcessingOutputMultipleLayers,
    QgsProcessingOutputNumber,
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterNumber,
    QgsProcessingParameterString,
)

from ...i18n_util import QT_TRANSLATE_NOOP, tr
from ..base import GeoBiasAlgorithm
from ..parameters import (
    DEFAULT_TOPICS,
    INPUT,
    OUTPUT,
    BudgetParameters,
    CacheParameter,
    ConnectionParameters,
    split_topics,
)

OPPONENTS = "OPPONENTS"
SEED = "SEED"
TOPICS = "TOPICS"


class PairwiseSurveyAlgorithm(GeoBiasAlgorithm):
    NAME = "pairwisesurvey"
    DISPLAY = QT_TRANSLATE_NOOP("@default", "Pairwise survey")
    GROUP = "survey"
    USES_GEOS = False

    def help_text(self):
        return tr(
            "Asks a large language model, for pairs of points, which of the two has a higher "
            "value of each topic ('Location A: … Location B: … Answer with the letter A or "
            "B'), each pair in both orders, over a connected design in which every point meets "
            "at least OPPONENTS others (every pair when there are few points). The choices are "
            "ranked with a Bradley–Terry model with an order effect (the model's leaning to the "
            "place named first, reported in the log): one rated points layer per topic whose "
            "score is the strength on the 0–9 scale by the stated mapping 9·σ(s) (nine times "
            "the chance the point is chosen over a point of mean strength), with its standard "
            "error and the comparisons it took part in (fitted from the probability of choosing "
            "the first place where the answers carry log-probabilities, else from the greedy "
            "choices), so ranks, ground truth, metrics and "
            "maps work as for a rating survey (MAD, Gini and B through that mapping only), "
            "and a comparisons table holding every prompt and answer. Answers are cached."
        )

    def initAlgorithm(self, config=None):
        self.addParameter(
            QgsProcessingParameterFeatureSource(
                INPUT, tr("Points to compare"), [QgsProcessing.SourceType.TypeVectorPoint]
            )
        )
        ConnectionParameters.add(self)
        self.addParameter(
            QgsProcessingParameterString(TOPICS, tr("Topics (separated by ;)"), DEFAULT_TOPICS)
        )
        self.addParameter(
            QgsProcessingParameterNumber(
                OPPONENTS, tr("Opponents per point"), QgsProcessingParameterNumber.Type.Integer,
                defaultValue=8, minValue=1, maxValue=500,
            )
        )  # fmt: skip
        self.addParameter(
            QgsProcessingParameterNumber(
                SEED, tr("Seed of the pair design"), QgsProcessingParameterNumber.Type.Integer,
                defaultValue=0, minValue=0, maxValue=2**31 - 1,
            )
        )  # fmt: skip
        CacheParameter.add(self)
        BudgetParameters.add(self)
        self.addParameter(
            QgsProcessingParameterFileDestination(
                OUTPUT, tr("Ranked points GeoPackage"), tr("GeoPackage (*.gpkg)")
            )
        )
        self.addOutput(QgsProcessingOutputMultipleLayers("OUTPUT_LAYERS", tr("Ranked layers")))
        self.addOutput(QgsProcessingOutputNumber("N_COMPARISONS", tr("Answered comparisons")))

    def processAlgorithm(self, parameters, context, feedback):
        from ...core.engine.budget import Spend
        from ...core.engine.cache import CacheError, SurveyCache
        from ...core.geo.gazetteer import Gazetteer
        from ...core.stats.bradley_terry import connected_pairs
        from ...core.survey.pairwise import PAIR_PROMPT, run_pairwise
        from ...core.survey.run import RunStats
        from ...i18n_util import message_text
        from ..endpoints import check_reachable, running_endpoint
        from ..gpkg import rated_fields, table_name, write_points_layer, write_table, writing
        from ..pairwise import COMPARISON_FIELDS, comparison_rows, pairwise_columns
        from ..progress import RunProgress, step_text
        from ..rating import endpoint_errors, load_outputs, read_points
        from ..runs import append_runs, now, run_record
        from ..styles import layer_name, style_file

        started = now()
        path = self.parameterAsFileOutput(parameters, OUTPUT, context)
        connection = ConnectionParameters.read(self, parameters, context)
        topics = split_topics(self.parameterAsString(parameters, TOPICS, context))
        if not topics:
            raise QgsProcessingException(tr("Give at least one topic (TOPICS)."))
        opponents = self.parameterAsInt(parameters, OPPONENTS, context)
        seed = self.parameterAsInt(parameters, SEED, context)
        budget = BudgetParameters.read(self, parameters, context)
        lon, lat, pids = read_points(self, parameters, context)
        if len(lon) < 2:
            raise QgsProcessingException(tr("A pairwise survey needs at least two points."))
        n_pairs = len(connected_pairs(len(lon), opponents, seed))
        n_total = 2 * n_pairs * len(topics)
        if n_total > budget.max_requests:
            raise QgsProcessingException(
                tr("This run is {n} requests ({p} pairs × 2 orders × {k} topic(s)), more than the "
                   "largest run allowed, {m} (MAX_REQUESTS). Ask for fewer points or opponents "
                   "(OPPONENTS), or raise MAX_REQUESTS to run it.").format(
                    n=n_total, p=n_pairs, k=len(topics), m=budget.max_requests)
            )  # fmt: skip
        try:
            cache = SurveyCache(CacheParameter.read(self, parameters, context))
        except CacheError as err:
            raise QgsProcessingException(message_text(err)) from err
        gazetteer = Gazetteer.load()
        spend = Spend(budget.price_in, budget.price_out, budget.max_cost)
        results, stats = {}, RunStats()
        with running_endpoint(connection, feedback) as ep:
            feedback.pushInfo(
                tr("Comparing {n} points in {p} pairs, both orders, on {k} topic(s) with {model}: "
                   "{r} prompts.").format(n=len(lon), p=n_pairs, k=len(topics), model=ep.model,
                                          r=n_total)
            )  # fmt: skip
            check_reachable(ep)
            for t, topic in enumerate(topics):
                if feedback.isCanceled():
                    break
                progress = RunProgress(feedback, start=100.0 * t / len(topics),
                                       end=100.0 * (t + 1) / len(topics))  # fmt: skip
                with endpoint_errors():
                    results[topic] = run_pairwise(
                        lon, lat, topic, ep, cache, gazetteer, opponents, seed, progress=progress,
                        is_cancelled=feedback.isCanceled, stats=stats, spend=spend,
                    )  # fmt: skip
            if feedback.isCanceled():
                raise QgsProcessingException(
                    tr("Cancelled; answers so far are cached for a re-run.")
                )
            for topic, res in results.items():
                fit = res.fit
                if fit is None:
                    feedback.pushWarning(tr("{topic}: no comparison was answered.").format(
                        topic=topic))  # fmt: skip
                    continue
                feedback.pushInfo(
                    tr("{topic}: strengths from the probability of choosing the first place "
                       "(the answers' log-probabilities).").format(topic=topic)
                    if res.kind == "probability"
                    else tr("{topic}: strengths from the greedy choices (no log-probabilities "
                            "in the answers).").format(topic=topic)
                )  # fmt: skip
                feedback.pushInfo(
                    tr("{topic}: {a} of {n} comparisons answered; order effect (log-odds of "
                       "choosing the place named first) {h:+.2f} ± {se:.2f}.").format(
                        topic=topic, a=fit.n_comparisons, n=len(res.prompts),
                        h=fit.order_effect, se=fit.order_se)
                )  # fmt: skip
            step_text(feedback, tr("Writing the ranked layers…"))
            record = run_record(
                self.id(), parameters, started, ep, None, topics, n_points=len(lon),
                score_kind="pairwise", template_name="pairwise", template_body=PAIR_PROMPT,
                stats=stats,
            )  # fmt: skip
            uris = {}
            with writing(path) as written:
                append_runs(path, [record])
                rows = []
                for topic, res in results.items():
                    cols = pairwise_columns(res, lon, lat, pids, ep.model, topic)
                    name = table_name(ep.model, topic)
                    uri = write_points_layer(path, name, cols, rated_fields(sampled=True))
                    written[name] = len(lon)
                    style_file(uri, "rank", values=cols)
                    uris[uri] = layer_name(ep.model, topic, "")
                    rows += comparison_rows(res, pids, topic)
                write_table(path, "comparisons", rows, COMPARISON_FIELDS)
                written["comparisons"] = len(rows)
        load_outputs(context, uris)
        n_answered = sum(r.fit.n_comparisons for r in results.values() if r.fit is not None)
        return {"OUTPUT": path, "OUTPUT_LAYERS": list(uris), "N_COMPARISONS": n_answered}
