"""One way to reach a model: the factory that turns settings from Processing or the dock into a
core endpoint or sentence scorer, the embedded model started on demand, QGIS's network settings
(proxy, certificate authorities) applied to every remote endpoint."""

import math
import os
import socket
from contextlib import contextmanager
from urllib.parse import urlsplit

from qgis.core import QgsApplication, QgsAuthMethodConfig, QgsProcessingException

from ..core.engine.chat import server_endpoint
from ..i18n_util import QT_TRANSLATE_NOOP, message_text, says, tr
from .definitions import HERB_MODELS
from .network import use_qgis_network


def api_key_from_auth(authcfg):
    """The API key stored in the QGIS authentication database (Basic password or token)."""
    if not authcfg:
        return None
    cfg = QgsAuthMethodConfig()
    ok = QgsApplication.authManager().loadAuthenticationConfig(authcfg, cfg, True)
    if isinstance(ok, tuple):  # PyQGIS returns (ok, config): the tuple itself is always true
        ok, cfg = ok
    if not ok:
        raise QgsProcessingException(
            tr("API key (AUTH_CONFIG): the authentication configuration {id} cannot be "
               "loaded.").format(id=authcfg)
        )  # fmt: skip
    return cfg.config("password") or cfg.config("token") or cfg.config("apikey") or None


def limits(connection):
    """The rate limits a Connection carries to its Endpoint (0: unlimited, None on the
    Endpoint), and its patience with throttling (minutes on the Connection, seconds on the
    Endpoint)."""
    return {"rpm": connection.rpm or None, "tpm": connection.tpm or None,
            "patience_s": 60.0 * getattr(connection, "patience", 30.0)}  # fmt: skip


def make_endpoint(connection):
    """The one endpoint factory: a core Endpoint for a Connection, on QGIS's network settings
    (proxy, certificate authorities), with its answer constraint and rate limits. Every run,
    Test connection, the diagnostics and the estimates build their endpoint here; the shared
    local model is not started (see running_endpoint)."""
    from ..core.engine.chat import PROVIDERS, Endpoint, with_constraint

    c = connection
    overrides = {"concurrency": c.concurrency, "api_key": c.api_key, **limits(c)}
    if getattr(c, "reasoning", False):  # else recognised by its name (core.llm)
        overrides["reasoning"] = True
    if c.base_url:
        overrides["base_url"] = c.base_url
    if c.provider in PROVIDERS:
        endpoint = Endpoint.from_provider(c.provider, c.model, **overrides)
    elif not c.base_url:
        raise QgsProcessingException(tr("A custom provider needs a base URL."))
    else:
        endpoint = Endpoint(model=c.model, provider="custom", **overrides)
    return use_qgis_network(with_constraint(endpoint, c.constraint))


EMBEDDED_CANNOT_START = QT_TRANSLATE_NOOP("@default", "The embedded model could not start: {err}")


def embedded_cannot_start(text):
    """Whether a run ended because the shared embedded model could not start (running again
    without a fix fails the same way)."""
    return says(text, EMBEDDED_CANNOT_START)


@contextmanager
def running_endpoint(connection, feedback):
    """The endpoint to use; for the embedded provider without a URL, the shared local model."""
    model, concurrency = connection.model, connection.concurrency
    if connection.shared_model:
        from ..core.runtime import models
        from ..core.runtime.embedded import shared_port, shared_server
        from ..host import embedded_python

        # MODEL may name a bundled model (core/runtime/models.py); otherwise the default serves it.
        known = models.find_model(model) if model else None
        if shared_port() is None:
            feedback.pushInfo(tr("Starting the embedded local model on 127.0.0.1 ..."))
        try:
            # A child process shared with the dock and later runs; it stops with the plugin.
            server = shared_server(embedded_python(), model=known.key if known else None)
        except Exception as err:  # noqa: BLE001 - any start failure is a clear Processing error
            raise QgsProcessingException(
                tr(EMBEDDED_CANNOT_START).format(err=message_text(err))
            ) from err
        from ..core.engine.chat import with_constraint

        endpoint = server_endpoint(
            server, concurrency=min(concurrency, server.parallel), **limits(connection)
        )
        if model and not known:
            endpoint.model = model
        yield with_constraint(endpoint, connection.constraint)
        return
    if not model:
        raise QgsProcessingException(tr("Give the model name."))
    yield make_endpoint(connection)


def start_embedded(port=None, model=None, feedback=None):
    """Start the shared embedded model (`model`: a core/runtime/models.py name, None: the default)
    on `port` unless it already runs there, and return its base URL; another model running there
    is replaced. Call it off the GUI thread: loading a model takes seconds."""
    from ..core.runtime.embedded import shared_port, shared_server
    from ..host import embedded_python

    if port is None or shared_port() != port:
        if feedback is not None:
            feedback.setProgressText(tr("Starting the embedded local model…"))
    return shared_server(embedded_python(), port, model).base_url


_planned_port = None


def embedded_port():
    """The port of the shared embedded model: the running one's, else a free one to start on.
    The free one is kept while it stays free, so a survey's estimate (prepared in one job) names
    the host its run (planned in the next) starts the model on."""
    global _planned_port
    from ..core.runtime.embedded import free_port, port_is_free, shared_port

    running = shared_port()
    if running:
        return running
    if _planned_port is None or not port_is_free(_planned_port):
        _planned_port = free_port()
    return _planned_port


def stop_embedded():
    """Stop the shared embedded model (plugin unload, QGIS quitting)."""
    from ..core.runtime.embedded import stop_shared

    stop_shared()


def default_cache_path():
    folder = os.path.join(QgsApplication.qgisSettingsDirPath(), "geobias")
    os.makedirs(folder, exist_ok=True)
    return os.path.join(folder, "survey_cache.sqlite")


def check_reachable(endpoint, timeout=5.0):
    """Fail fast (before hundreds of retried requests) when nothing listens at the endpoint,
    or at the proxy the requests go through (the endpoint itself may be out of direct reach)."""
    from ..core.engine.chat import hide_password, proxy_for

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
            raise QgsProcessingException(
                message.format(proxy=hide_password(via), err=message_text(err))
            ) from err
        raise QgsProcessingException(
            tr("The endpoint {host} is not reachable: {err}").format(
                host=endpoint.host(), err=message_text(err)
            )
        ) from err


# HERB's embedded model: definitions.HERB_MODELS's default (see the README's HERB section for
# why it is not the survey's Gemma 3 270M).
HERB_EMBEDDED_MODEL = HERB_MODELS.default


def model_label(name):
    """A model as people know it: a bundled embedded model's label ("Gemma 3 270M (base,
    Q4_K_M)"), any other model's own name."""
    from ..core.runtime.models import find_model

    known = find_model(name) if name else None
    return known.label if known is not None else (name or "?")


def herb_model_label(kind, model="", url="", embedded=None, model_file=""):
    """The model HERB scores with, named before the run: the embedded one's label (`embedded`: a
    definitions.HERB_MODELS key, else the default; `model_file`: a GGUF file instead), the model
    name or folder given, or the server's."""
    from .herb_scorers import SCORERS

    if SCORERS[kind].embedded:
        if model_file:
            return os.path.basename(model_file)
        return model_label(embedded or HERB_EMBEDDED_MODEL)
    if model:
        return model_label(model)
    if url:
        return tr("the model served at {url}").format(url=url)
    return "?"


def probe_scorer(scorer, sentence):
    """Score one sentence first: a server that gives no log-probabilities for the sentence's
    own tokens (a chat-only endpoint, no echo) fails here, before anything is run or written."""
    from ..core.engine.http_client import EndpointStoppedError
    from ..core.engine.workers import FailureStreak
    from ..core.herb.scorers import ScorerError

    # A broken server fails this probe within two attempts (two read timeouts if it hangs).
    watch = FailureStreak(concurrency=1)
    scorer.watch(watch)
    try:
        (out,) = scorer.score_batch([sentence])
    except ScorerError as err:
        out = None
        why = message_text(err)
    else:
        why = out.error
    finally:
        scorer.watch(None)
    if watch.tripped() is not None:
        host = getattr(getattr(scorer, "http", None), "client", None)
        stop = EndpointStoppedError(*watch.tripped(), host.host if host is not None else "")
        raise QgsProcessingException(stopped_sentence(stop, tr("scores")))
    if out is None or out.error:
        raise QgsProcessingException(
            tr("The model cannot score sentences: {why}. HERB needs the log-probability of "
               "every token of a sentence: the embedded model, a llama.cpp server, a "
               "/v1/completions endpoint with echo and logprobs (vLLM), or a local masked "
               "LM; a chat-only endpoint cannot give them.").format(why=why)
        )  # fmt: skip
    return out


def cause_words(cause):
    """How the endpoint failed (a core.http_client.Cause), in the user's language."""
    if cause.kind == "timeout":
        return tr("gave no answer within {s:g} s (read timeout)").format(s=cause.timeout)
    if cause.kind == "content":
        what = cause.content_type or tr("a body")
        return tr("answered HTTP {status} with {what} instead of a JSON answer").format(
            status=cause.status, what=what
        )
    if cause.kind == "status":
        return tr("answered HTTP {status}").format(status=cause.status)
    if cause.detail:
        return tr("could not be reached ({detail})").format(detail=cause.detail)
    return tr("could not be reached")


def waiting_text(p):
    """The countdown while the endpoint throttles a run (a core Progress with waiting_s)."""
    cause = p.waiting_cause
    status = getattr(cause, "status", 0) or 429
    return tr(
        "Throttled: the endpoint answered HTTP {status} (too many requests); waiting {s:.0f} s "
        "before asking again, {m:.0f} min of patience left."
    ).format(status=status, s=math.ceil(p.waiting_s), m=p.patience_left_s / 60.0)


def stopped_sentence(err, what=None):
    """One sentence for a run stopped early on a broken endpoint (core EndpointStoppedError): the
    cause, and that a new run (the dock's Resume) continues where this one stopped; or for a run
    throttled beyond the user's patience (core ThrottledStopError)."""
    what = what or tr("answers")
    if hasattr(err, "waited"):  # ThrottledStopError: nothing was marked failed
        return tr(
            "Stopped after {m:.1f} min throttled without an answer: {host} {cause} (too many "
            "requests) for longer than the patience. The {what} so far are cached and nothing "
            "was marked failed: Resume (or running again) asks the rest once the endpoint's "
            "limit allows."
        ).format(m=err.waited / 60.0, host=err.host, cause=cause_words(err.cause), what=what)
    if err.cause.kind == "ended":
        return tr(
            "The embedded model stopped during the run ({detail}); the {what} so far are "
            "cached, and Resume (or running again) restarts it and continues."
        ).format(detail=err.cause.detail, what=what)
    if err.answered:
        text = tr(
            "Stopped after {n} requests in a row failed: {host} {cause}; the {what} so far are "
            "cached and Resume (or running again) continues."
        )
    else:
        text = tr(
            "Stopped early: the first {n} requests all failed the same way, {host} {cause} and "
            "answered nothing; Resume (or running again) continues once it is fixed."
        )
    return text.format(n=err.attempts, host=err.host, cause=cause_words(err.cause), what=what)
