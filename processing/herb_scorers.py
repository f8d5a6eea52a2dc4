"""HERB's scorers in one registry. Each declares its key (geobias:herb's SCORER choice), its
labels, the factory that builds it, the parameters it reads (and the message when a needed one
is empty) and where it runs; `make_scorer`, the SCORER parameter (definitions.HERB_SCORERS),
the HERB tab, the parameter help and docs/processing.md all read this list.

A new scorer is its core class (core/herb/) and one `register(...)` line below: see
docs/design.md, "A new HERB scorer".
"""

import os
from dataclasses import dataclass, field
from typing import Any, Callable
from urllib.parse import urlsplit

from ..i18n_util import QT_TRANSLATE_NOOP, message_text, says, tr


@dataclass(frozen=True)
class ScorerRequest:
    """What make_scorer passes a factory: the connection (URL, model, key, concurrency) and the
    embedded scorer's method, bundled model or GGUF file, the masked LM's padding rule."""

    connection: Any
    feedback: Any = None
    method: str = "whole"
    model: str = ""
    model_file: str = ""
    reference_padding: bool = False


@dataclass(frozen=True)
class HerbScorer:
    """One HERB scorer: `label` is Processing's choice (an English source marked for
    translation), `short` the dock's narrow label (empty: the label), `help` its sentence in the
    parameter help. `reads` are the HerbModelParameters keys it uses (the HERB tab shows those
    fields); `needs` maps the ones that may not be empty to the message saying so. `local`: it
    runs on this machine (timed before the user agrees); `embedded`: it runs the bundled model
    runtime (the tab offers Install local model when it is missing)."""

    key: str
    label: str
    factory: Callable[[ScorerRequest], tuple]
    help: str
    short: str = ""
    reads: tuple = ()
    needs: dict = field(default_factory=dict)
    local: bool = False
    embedded: bool = False

    def missing(self, connection):
        """The message for the first needed field left empty ("" when none is)."""
        given = {"URL": connection.base_url, "MODEL": connection.model}
        for key, message in self.needs.items():
            if not given.get(key):
                return tr(message)
        return ""


SCORERS = {}  # key -> HerbScorer, in Processing's order (the SCORER parameter's values)


def register(scorer):
    """Add a scorer; its position is its SCORER value, so a new one goes last."""
    if scorer.key in SCORERS:
        raise ValueError(f"HERB scorer {scorer.key!r} registered twice")
    SCORERS[scorer.key] = scorer
    return scorer


def local_scorer(kind, host):
    """Whether a HERB scorer runs on this machine (the embedded model, a masked LM, a server on
    127.0.0.1 or localhost): timing it before the user agrees sends nothing away."""
    h = (host or "").lower()
    return SCORERS[kind].local or h.startswith(("127.", "localhost", "[::1]"))


def make_scorer(kind, connection, feedback=None, method="whole", model=None, model_file="",
                reference_padding=False):  # fmt: skip
    """(core sentence scorer, host) for HERB: `kind` a registered key, the connection's base
    URL, model, key and concurrency; the embedded scorer's `method` (a HERB_METHODS key),
    bundled `model` (a HERB_MODELS key; None: the default) or `model_file` (any GGUF);
    `reference_padding` the masked LM's padding rule of the released scripts
    (core/herb/reference_code.py). A scorer that cannot start is a QgsProcessingException."""
    from qgis.core import QgsProcessingException

    from .definitions import HERB_MODELS

    scorer = SCORERS[kind]
    problem = scorer.missing(connection)
    if problem:
        raise QgsProcessingException(problem)
    request = ScorerRequest(connection, feedback, method, model or HERB_MODELS.default,
                            model_file, reference_padding)  # fmt: skip
    try:
        return scorer.factory(request)
    except QgsProcessingException:
        raise
    except Exception as err:  # noqa: BLE001 - ScorerError, the embedded model's start failures
        raise QgsProcessingException(tr(CANNOT_START).format(err=message_text(err))) from err


CANNOT_START = QT_TRANSLATE_NOOP("@default", "The scorer cannot start: {err}")


def cannot_start(text):
    """Whether an error's text is make_scorer's "the scorer cannot start": the run never
    began, so running again without a fix fails the same way."""
    return says(text, CANNOT_START)


# ------------------------------------------------------------------ the factories


def _remote(request, timeout):
    """A remote server's Endpoint, reached like the survey's endpoints: QGIS's proxy and CAs."""
    from ..core.engine.chat import Endpoint
    from .network import use_qgis_network

    c = request.connection
    return use_qgis_network(
        Endpoint(c.base_url, c.model, provider="custom", api_key=c.api_key,
                 concurrency=c.concurrency, timeout=timeout)
    )  # fmt: skip


def llamacpp_scorer(request):
    """A llama.cpp server's /completion, token by token (forced decoding)."""
    from ..core.herb.scorers import LlamaCppScorer

    url = request.connection.base_url
    return LlamaCppScorer.from_endpoint(_remote(request, 120.0)), urlsplit(url).netloc or url


def echo_scorer(request):
    """A /v1/completions endpoint with echo and logprobs (vLLM and the like)."""
    from ..core.herb.scorers import EchoCompletionsScorer

    endpoint = _remote(request, 60.0)
    return EchoCompletionsScorer.from_endpoint(endpoint), endpoint.host()


def masked_lm_scorer(request):
    """A transformers masked LM, in a child process (torch is native code, never in QGIS's)."""
    from ..core.herb.scorers import ChildMaskedLMScorer
    from ..host import embedded_python

    if request.feedback is not None:
        request.feedback.pushInfo(tr("Loading the masked language model in a child process ..."))
    scorer = ChildMaskedLMScorer(
        request.connection.model, threads=2, python=embedded_python(),
        reference_padding=request.reference_padding,
    )  # fmt: skip
    return scorer, "local"


class _OwnServerScorer:
    """A forced-decoding scorer on a llama.cpp server started for it alone (a GGUF file the
    shared embedded server does not serve); closing it stops the server."""

    def __init__(self, scorer, server):
        self._scorer, self._server = scorer, server

    def __getattr__(self, name):
        return getattr(self._scorer, name)

    def score_batch(self, sentences):
        return self._scorer.score_batch(sentences)

    def close(self):
        try:
            self._scorer.close()
        finally:
            self._server.stop()


def embedded_scorer(request):
    """The bundled model or a GGUF file on this machine: "whole", every sentence in one pass of
    llama.cpp in a child process (core/herb/whole_sentence.py); "forced", token by token from a
    llama.cpp server (the shared embedded one for a bundled model), the reference path."""
    from qgis.core import QgsProcessingException

    from ..core.engine.chat import server_endpoint
    from ..core.herb.scorers import LlamaCppScorer
    from ..core.runtime.embedded import EmbeddedServer, shared_port, shared_server
    from ..host import embedded_python

    method, model, model_file = request.method, request.model, request.model_file
    concurrency, feedback = request.connection.concurrency, request.feedback
    if model_file and not os.path.isfile(model_file):
        raise QgsProcessingException(
            tr("Model file (MODEL_FILE): {path} is not a file.").format(path=model_file)
        )
    if method == "whole":
        from ..core.herb.whole_sentence import WholeSentenceScorer

        if feedback is not None:
            feedback.pushInfo(tr("Loading the model in a child process to score whole "
                                 "sentences ..."))  # fmt: skip
        # The child resolves a bundled key or the file (an absolute path: the child's working
        # folder is QGIS's).
        target = os.path.abspath(model_file) if model_file else model
        return WholeSentenceScorer(target, python=embedded_python()), "local"
    if model_file:
        # The shared server serves bundled models only: a server of its own for this file.
        if feedback is not None:
            feedback.pushInfo(tr("Starting a llama.cpp server for the model file ..."))
        server = EmbeddedServer(os.path.abspath(model_file), parallel=2,
                                python=embedded_python())  # fmt: skip
        server.start()
        try:
            ep = server_endpoint(server, concurrency=min(concurrency, server.parallel))
            return _OwnServerScorer(LlamaCppScorer.from_endpoint(ep), server), ep.host()
        except Exception:
            server.stop()
            raise
    if shared_port() is None and feedback is not None:
        feedback.pushInfo(tr("Starting the embedded local model on 127.0.0.1 ..."))
    server = shared_server(embedded_python(), model=model)
    ep = server_endpoint(server, concurrency=min(concurrency, server.parallel))
    return LlamaCppScorer.from_endpoint(ep), ep.host()


# ------------------------------------------------------------------ the registry
# Kept as calls without a trailing comma in QT_TRANSLATE_NOOP: pylupdate5 reads them so.
NEED_URL = QT_TRANSLATE_NOOP("@default", "Give the server's URL.")
SERVER = ("URL", "AUTH_CONFIG")

register(HerbScorer(
    "embedded", QT_TRANSLATE_NOOP("@default", "Embedded local model"), embedded_scorer,
    QT_TRANSLATE_NOOP("@default", "the embedded model (bundled, or a GGUF file)"),
    reads=("METHOD", "EMBEDDED_MODEL", "MODEL_FILE"), local=True, embedded=True,
))  # fmt: skip
register(HerbScorer(
    "llamacpp", QT_TRANSLATE_NOOP("@default", "llama.cpp server (URL)"), llamacpp_scorer,
    QT_TRANSLATE_NOOP("@default", "a llama.cpp server"),
    short=QT_TRANSLATE_NOOP("@default", "llama.cpp server"), reads=SERVER,
    needs={"URL": NEED_URL},
))  # fmt: skip
register(HerbScorer(
    "echo", QT_TRANSLATE_NOOP(
        "@default", "/v1/completions with echo and logprobs (URL and model, e.g. vLLM)"),
    echo_scorer, QT_TRANSLATE_NOOP("@default", "a /v1/completions endpoint with echo"),
    short=QT_TRANSLATE_NOOP("@default", "Completions with echo (vLLM)"),
    reads=(*SERVER, "MODEL"),
    needs={"URL": NEED_URL,
           "MODEL": QT_TRANSLATE_NOOP("@default", "Give the model name the server serves.")},
))  # fmt: skip
register(HerbScorer(
    "transformers", QT_TRANSLATE_NOOP("@default", "transformers masked LM (model folder or name)"),
    masked_lm_scorer, QT_TRANSLATE_NOOP("@default", "a transformers masked LM"),
    short=QT_TRANSLATE_NOOP("@default", "Masked LM (transformers)"), reads=("MODEL",),
    needs={"MODEL": QT_TRANSLATE_NOOP("@default", "Give the transformers model's folder or name.")},
    local=True,
))  # fmt: skip
