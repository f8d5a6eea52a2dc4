"""geobias:ratelocations — a model rates every point on each topic; a layer per model x topic."""

import os
import socket
from contextlib import contextmanager
from urllib.parse import urlsplit

import numpy as np
from qgis.core import (
    QgsApplication,
    QgsAuthMethodConfig,
    QgsProcessing,
    QgsProcessingContext,
    QgsProcessingException,
    QgsProcessingOutputMultipleLayers,
    QgsProcessingOutputNumber,
    QgsProcessingParameterAuthConfig,
    QgsProcessingParameterEnum,
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterNumber,
    QgsProcessingParameterString,
)

from ..core.metrics import fractional_rank
from ..core.prompts import DEFAULT_PRESET, PRESETS
from ..i18n_util import QT_TRANSLATE_NOOP, tr
from .base import GeoBiasAlgorithm
from .layers import credit_geonames, layer_name, point_arrays, write_points_layer
from .network import use_qgis_network
from .runs import append_runs, now, run_record, stats_fields
from .styles import post_processor, style_file

PROVIDER_NAMES = ("embedded", "openai", "ollama", "vllm", "llamacpp", "lmstudio", "together",
                  "openrouter", "gemini", "custom")  # fmt: skip
# "auto" (the default, in the dock too): the expected value when the endpoint gives logprobs,
# the greedy rating when it gives none. A score column always holds one kind.
SCORE_KINDS = ("expected", "greedy", "auto")
DEFAULT_SCORE = SCORE_KINDS.index("auto")
DEFAULT_TOPICS = "Infant Mortality Rate"


def split_topics(text):
    """Topics from 'A; B' or one per line, stripped, without duplicates."""
    parts = [t.strip() for line in text.splitlines() for t in line.split(";")]
    return list(dict.fromkeys(t for t in parts if t))


def api_key_from_auth(authcfg):
    """The API key stored in the QGIS authentication database (Basic password or token)."""
    if not authcfg:
        return None
    cfg = QgsAuthMethodConfig()
    if not QgsApplication.authManager().loadAuthenticationConfig(authcfg, cfg, True):
        raise QgsProcessingException(
            tr("Authentication configuration {id} cannot be loaded.").format(id=authcfg)
        )
    return cfg.config("password") or cfg.config("token") or cfg.config("apikey") or None


def make_endpoint(provider, base_url, model, api_key=None, concurrency=4):
    """A core Endpoint from the algorithm's endpoint parameters, on QGIS's network settings
    (proxy, certificate authorities)."""
    from ..core.llm import PROVIDERS, Endpoint

    overrides = {"concurrency": concurrency, "api_key": api_key}
    if base_url:
        overrides["base_url"] = base_url
    if provider in PROVIDERS:
        endpoint = Endpoint.from_provider(provider, model, **overrides)
    elif not base_url:
        raise QgsProcessingException(tr("A custom provider needs a base URL."))
    else:
        endpoint = Endpoint(model=model, provider="custom", **overrides)
    return use_qgis_network(endpoint)


@contextmanager
def running_endpoint(provider, base_url, model, api_key, concurrency, feedback):
    """The endpoint to use; for the embedded provider without a URL, the shared local model."""
    if provider == "embedded" and not base_url:
        from ..core import models
        from ..core.embedded import shared_port, shared_server
        from ..host import embedded_python

        # MODEL may name a bundled model (core/models.py); otherwise the default serves it.
        known = models.find_model(model) if model else None
        if shared_port() is None:
            feedback.pushInfo(tr("Starting the embedded local model on 127.0.0.1 ..."))
        try:
            # A child process shared with the dock and later runs; it stops with the plugin.
            server = shared_server(embedded_python(), model=known.key if known else None)
        except Exception as err:  # noqa: BLE001 - any start failure is a clear Processing error
            raise QgsProcessingException(
                tr("The embedded model could not start: {err}").format(err=err)
            ) from err
        endpoint = server.endpoint(concurrency=min(concurrency, server.parallel))
        if model and not known:
            endpoint.model = model
        yield endpoint
        return
    if not model:
        raise QgsProcessingException(tr("Give the model name."))
    yield make_endpoint(provider, base_url, model, api_key, concurrency)


def default_cache_path():
    folder = os.path.join(QgsApplication.qgisSettingsDirPath(), "geobias")
    os.makedirs(folder, exist_ok=True)
    return os.path.join(folder, "survey_cache.sqlite")


def check_reachable(endpoint, timeout=5.0):
    """Fail fast (before hundreds of retried requests) when nothing listens at the endpoint,
    or at the proxy the requests go through (the endpoint itself may be out of direct reach)."""
    from ..core.llm import hide_password, proxy_for

    via = proxy_for(endpoint.base_url, endpoint.proxy)
    parts = (
        urlsplit(via if "://" in via else f"http://{via}") if via else urlsplit(endpoint.base_url)
    )
    default = {"https": 443, "http": 80}.get(parts.scheme, 1080)  # socks*: 1080
    try:
        socket.create_connection((parts.hostname, parts.port or default), timeout=timeout).close()
    except OSError as err:
        if via:
            message = tr("The proxy {proxy} (QGIS network settings) is not reachable: {err}")
            raise QgsProcessingException(message.format(proxy=hide_password(via), err=err)) from err
        raise QgsProcessingException(
            tr("The endpoint {host} is not reachable: {err}").format(host=endpoint.host(), err=err)
        ) from err


def rate(lon, lat, pids, topics, endpoint, template, score_kind, feedback, cache_path=None):
    """Run the survey; returns ({topic: rated columns}, RunStats). Raises on fatal errors."""
    from ..core.cache import CacheError, SurveyCache
    from ..core.gazetteer import Gazetteer
    from ..core.llm import EndpointError
    from ..core.survey import RunStats, SurveySpec, estimate, run_survey

    spec = SurveySpec(lon, lat, list(topics), [endpoint], template, pids)
    try:
        cache = SurveyCache(cache_path or default_cache_path())
    except CacheError as err:
        raise QgsProcessingException(str(err)) from err
    gazetteer = Gazetteer.load()
    # Answers imported from a batch service need no endpoint: check it only if there is work.
    if estimate(spec, gazetteer, cache).n_requests:
        check_reachable(endpoint)

    def progress(p):
        feedback.setProgress(100.0 * p.done / max(p.total, 1))
        feedback.setProgressText(
            tr("{d}/{t} requests, {r:.1f}/s, answer rate {a:.0%}").format(
                d=p.done, t=p.total, r=p.rate, a=p.answer_rate
            )
        )

    stats = RunStats()
    try:
        answers = run_survey(
            spec,
            gazetteer,
            cache,
            progress=progress,
            is_cancelled=feedback.isCanceled,
            stats=stats,
        )
    except EndpointError as err:
        msg = tr("The endpoint refused the survey: {err}").format(err=err)
        raise QgsProcessingException(msg) from err
    if feedback.isCanceled():
        raise QgsProcessingException(tr("Cancelled; answers so far are cached for a re-run."))
    by_topic = {}
    n = len(lon)
    kind, note = resolve_score_kind(score_kind, answers, endpoint)
    if note:
        feedback.pushInfo(note)
    for k, topic in enumerate(topics):
        chunk = answers[k * n : (k + 1) * n]
        by_topic[topic] = answer_columns(chunk, lon, lat, pids, endpoint.model, topic, kind)
        by_topic[topic]["score_note"] = note
    if stats.n_failed:
        feedback.pushWarning(
            tr(
                "{f} of {n} requests failed after retries: those points were not asked (failed "
                "= 1), they are outside the answer rate; run again to retry them."
            ).format(f=stats.n_failed, n=len(answers))
        )
    if not any(cols["answered"].any() for cols in by_topic.values()):
        errors = [a.error for a in answers if a.error]
        detail = errors[0] if errors else tr("no completion held a rating")
        raise QgsProcessingException(
            tr("No point was answered ({detail}). Is the endpoint {host} reachable?").format(
                detail=detail, host=endpoint.host()
            )
        )
    return by_topic, stats


def resolve_score_kind(score_kind, answers, endpoint):
    """("expected" | "greedy", note): "auto" is the expected value when logprobs came back."""
    has_expected = any(a.rating.expected is not None for a in answers)
    if score_kind != "auto":
        if score_kind == "expected" and not has_expected:
            return score_kind, tr(
                "No answer came with log-probabilities: the expected value is empty everywhere; "
                "choose the greedy rating for {model}."
            ).format(model=endpoint.model)
        return score_kind, ""
    if has_expected:
        return "expected", ""
    if endpoint.is_reasoning():
        note = tr(
            "Greedy ratings only: reasoning models such as {model} give no log-probabilities."
        )
    else:
        note = tr("Greedy ratings only: {model} gave no log-probabilities.")
    return "greedy", note.format(model=endpoint.model)


def answer_columns(answers, lon, lat, pids, model, topic, score_kind):
    """Rated points columns from core.survey Answers (one per point, in point order).

    The score holds one kind only: an answered point without it (no logprobs for an expected
    value) keeps an empty score and no_score = 1, never the other kind in its place.
    """
    n = len(answers)
    rating = np.array([_f(a.rating.rating) for a in answers])
    expected = np.array([_f(a.rating.expected) for a in answers])
    answered = np.array([bool(a.rating.answered) for a in answers])
    failed = np.array([bool(getattr(a, "failed", False)) for a in answers])
    score = (expected if score_kind == "expected" else rating).copy()
    score[~answered] = np.nan
    no_score = answered & ~np.isfinite(score)
    nan = np.full(n, np.nan)
    return {
        "pid": np.asarray(pids, dtype=np.int64),
        "lat": np.asarray(lat, float),
        "lon": np.asarray(lon, float),
        "model": [model] * n,
        "topic": [topic] * n,
        "rating": rating,
        "expected": expected,
        "score_kind": [score_kind] * n,
        "score": score,
        "answered": answered.astype(np.int64),
        "no_score": no_score.astype(np.int64),
        "failed": failed.astype(np.int64),
        "completion": [a.completion or a.error or "" for a in answers],
        "prompt": [a.prompt for a in answers],
        "rank": fractional_rank(score),
        "truth": nan,
        "truth_rank": nan,
        "rank_error": nan,
    }


def _f(v):
    return np.nan if v is None else float(v)


def write_rated(path, by_topic, model, default_style="rank", geonames=True):
    """Write one styled layer per topic into the GeoPackage; returns {uri: display name}.
    `geonames`: the prompts named gazetteer places, which the layer's metadata credits."""
    out = {}
    for topic, columns in by_topic.items():
        name = layer_name(model, topic)
        uri = write_points_layer(path, name, columns)
        style_file(uri, default_style, values=columns)
        if geonames:
            credit_geonames(uri)
        out[uri] = f"{model}: {topic}"
    return out


def load_outputs(context, uris, output_name="OUTPUT", default_style="rank"):
    """Ask Processing to load written layers on completion, styled by post-processors."""
    for uri, name in uris.items():
        details = QgsProcessingContext.LayerDetails(name, context.project(), output_name)
        details.setPostProcessor(post_processor(default_style, name))
        context.addLayerToLoadOnCompletion(uri, details)


def endpoint_parameters(alg):
    """Adds PROVIDER, BASE_URL, MODEL, AUTH_CONFIG, CONCURRENCY, PRESET, SCORE to an algorithm."""
    alg.addParameter(
        QgsProcessingParameterEnum(
            "PROVIDER", tr("Provider preset"), list(PROVIDER_NAMES), defaultValue=0
        )
    )
    alg.addParameter(
        QgsProcessingParameterString(
            "BASE_URL", tr("Base URL (empty: the preset's; embedded: start a local model)"),
            "", optional=True,
        )
    )  # fmt: skip
    alg.addParameter(
        QgsProcessingParameterString(
            "MODEL", tr("Model (empty for the embedded model)"), "", optional=True
        )
    )
    alg.addParameter(
        QgsProcessingParameterAuthConfig(
            "AUTH_CONFIG", tr("API key (QGIS authentication configuration)"), optional=True
        )
    )
    alg.addParameter(
        QgsProcessingParameterNumber(
            "CONCURRENCY", tr("Concurrent requests"), defaultValue=4, minValue=1, maxValue=64
        )
    )
    alg.addParameter(
        QgsProcessingParameterEnum(
            "PRESET",
            tr("Prompt preset"),
            list(PRESETS),
            defaultValue=list(PRESETS).index(DEFAULT_PRESET),
        )
    )
    alg.addParameter(
        QgsProcessingParameterEnum(
            "SCORE",
            tr("Score"),
            [
                tr("Expected value (from log-probabilities)"),
                tr("Greedy rating"),
                tr("Automatic: the expected value where the endpoint gives log-probabilities"),
            ],
            defaultValue=DEFAULT_SCORE,
        )
    )
    alg.addParameter(
        QgsProcessingParameterString("TOPICS", tr("Topics (separated by ;)"), DEFAULT_TOPICS)
    )


def read_connection(alg, parameters, context):
    """(provider, base_url, model, api_key, concurrency): where and how to ask."""
    provider = PROVIDER_NAMES[alg.parameterAsEnum(parameters, "PROVIDER", context)]
    base_url = alg.parameterAsString(parameters, "BASE_URL", context).strip()
    model = alg.parameterAsString(parameters, "MODEL", context).strip()
    api_key = api_key_from_auth(alg.parameterAsString(parameters, "AUTH_CONFIG", context))
    concurrency = alg.parameterAsInt(parameters, "CONCURRENCY", context)
    return provider, base_url, model, api_key, concurrency


def read_endpoint_parameters(alg, parameters, context):
    """(provider, base_url, model, api_key, concurrency, template, score_kind, topics)."""
    provider, base_url, model, api_key, concurrency = read_connection(alg, parameters, context)
    template = PRESETS[list(PRESETS)[alg.parameterAsEnum(parameters, "PRESET", context)]]
    score_kind = SCORE_KINDS[alg.parameterAsEnum(parameters, "SCORE", context)]
    topics = split_topics(alg.parameterAsString(parameters, "TOPICS", context))
    if not topics:
        raise QgsProcessingException(tr("Give at least one topic."))
    return provider, base_url, model, api_key, concurrency, template, score_kind, topics


def read_points(alg, parameters, context):
    """lon, lat (EPSG:4326) and pid (the layer's, else the feature order) of the INPUT points."""
    source = alg.parameterAsSource(parameters, "INPUT", context)
    if source is None:
        raise QgsProcessingException(alg.invalidSourceError(parameters, "INPUT"))
    has_pid = source.fields().lookupField("pid") >= 0
    lon, lat, cols = point_arrays(source, context, ["pid"] if has_pid else [])
    ok = np.isfinite(lon) & np.isfinite(lat)
    if not ok.any():
        raise QgsProcessingException(tr("The input layer has no points."))
    pids = np.asarray(cols["pid"], dtype=np.int64) if has_pid else np.arange(len(lon))
    return lon[ok], lat[ok], pids[ok]


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
            "endpoint host (never the API key), versions and times. Endpoint: a provider preset "
            "(embedded = a small local model in its own process on 127.0.0.1, kept for later "
            "runs; or any OpenAI-compatible service), a base URL, the model name and an "
            "authentication configuration holding the API key. Score: the expected value of the "
            "first digit from the log-probabilities, the greedy rating, or automatic (the "
            "default: the expected value when the endpoint gives log-probabilities, else the "
            "greedy rating). A score column holds one kind: answered points without it are "
            "marked no_score = 1. Requests that fail after retries are marked failed = 1 and are "
            "not counted as refusals. Answers are cached, so a cancelled run resumes."
        )

    def initAlgorithm(self, config=None):
        self.addParameter(
            QgsProcessingParameterFeatureSource(
                "INPUT", tr("Points to rate"), [QgsProcessing.SourceType.TypeVectorPoint]
            )
        )
        endpoint_parameters(self)
        self.addParameter(
            QgsProcessingParameterFileDestination(
                "OUTPUT", tr("Rated points GeoPackage"), tr("GeoPackage (*.gpkg)")
            )
        )
        self.addOutput(QgsProcessingOutputMultipleLayers("OUTPUT_LAYERS", tr("Rated layers")))
        self.addOutput(QgsProcessingOutputNumber("N_ANSWERED", tr("Answered points")))

    def processAlgorithm(self, parameters, context, feedback):
        started = now()
        path = self.parameterAsFileOutput(parameters, "OUTPUT", context)
        values = read_endpoint_parameters(self, parameters, context)
        provider, base_url, model, api_key, concurrency, template, score_kind, topics = values
        lon, lat, pids = read_points(self, parameters, context)
        with running_endpoint(provider, base_url, model, api_key, concurrency, feedback) as ep:
            feedback.pushInfo(
                tr("Rating {n} points on {k} topic(s) with {m} at {h}.").format(
                    n=len(lon), k=len(topics), m=ep.model, h=ep.host()
                )
            )
            by_topic, stats = rate(lon, lat, pids, topics, ep, template, score_kind, feedback)
            feedback.setProgressText(tr("Writing the rated layers…"))
            uris = write_rated(path, by_topic, ep.model, geonames=template.uses_gazetteer)
            record = run_record(
                self.id(), parameters, started, ep, template, topics, n_points=len(lon),
                **stats_fields(stats),
            )  # fmt: skip
        append_runs(path, [record])
        load_outputs(context, uris)
        n_answered = int(sum(c["answered"].sum() for c in by_topic.values()))
        return {"OUTPUT": path, "OUTPUT_LAYERS": list(uris), "N_ANSWERED": n_answered}
