"""Chat completions against any OpenAI-compatible endpoint: pooled, rate-limited, retried."""

from __future__ import annotations

import json
import re
import threading
from dataclasses import asdict, dataclass, field, replace
from urllib.parse import urlsplit

from ..messages import Message
from ..wording import listing
from .http_client import (
    RETRY_STATUS,
    Cause,
    EndpointError,
    EndpointStoppedError,
    HttpClient,
    RateLimiter,
    RequestError,
    ThrottledStopError,
    TransientError,
    estimate_tokens,
    hide_password,
    normalise_base_url,
    parse_retry_after,
    proxy_for,
    status_error,
)

__all__ = [
    "ANSWER_GBNF",
    "ANSWER_JSON_SCHEMA",
    "ANSWER_REGEX",
    "APIS",
    "CONSTRAINED_MAX_TOKENS",
    "CONSTRAINTS",
    "CONSTRAINT_CHOICES",
    "FAMILY_CONSTRAINTS",
    "PROVIDERS",
    "REASONING_MAX_TOKENS",
    "ChatClient",
    "Completion",
    "Endpoint",
    "completion_from_response",
    "family_constraint",
    "is_reasoning_model",
    "prompt_of",
    "resolve_constraint",
    "with_constraint",
    # The connection's names, at home in core/engine/http_client.py, kept importable from here.
    "Cause",
    "EndpointError",
    "EndpointStoppedError",
    "RateLimiter",
    "RequestError",
    "ThrottledStopError",
    "TransientError",
    "estimate_tokens",
    "hide_password",
    "normalise_base_url",
    "parse_retry_after",
    "proxy_for",
]

# logprobs: True = supported, False = not, None = detect on the first answers.
PROVIDERS: dict[str, dict] = {
    # SmolLM2-135M rarely follows "My answer is X.X." unaided (0 of 40 infant-mortality prompts
    # in the demo), so the bundled model answers through llama.cpp's grammar. Every other
    # preset leaves constraints off: a constraint hides refusals, which the answer rate counts.
    # Under the grammar it sometimes spells "My answer is" letter by letter, which the paper's
    # max_tokens of 10 cuts short; the grammar bounds the answer, so 24 tokens cost nothing.
    # It listens on 127.0.0.1 in a child process: never through a proxy.
    "embedded": {
        "base_url": "http://127.0.0.1:0/v1",
        "logprobs": True,
        "constraint": "grammar",
        "max_tokens": 24,
        "proxy": "",
    },
    "openai": {"base_url": "https://api.openai.com/v1", "logprobs": True},
    "ollama": {"base_url": "http://localhost:11434/v1", "logprobs": None},
    "vllm": {"base_url": "http://localhost:8000/v1", "logprobs": True},
    "llamacpp": {"base_url": "http://localhost:8080/v1", "logprobs": True},
    "lmstudio": {"base_url": "http://localhost:1234/v1", "logprobs": None},
    "together": {"base_url": "https://api.together.xyz/v1", "logprobs": True},
    "openrouter": {"base_url": "https://openrouter.ai/api/v1", "logprobs": None},
    "gemini": {
        "base_url": "https://generativelanguage.googleapis.com/v1beta/openai",
        "logprobs": None,
    },
    # Anthropic's OpenAI-compatible layer ignores logprobs, top_logprobs, seed and
    # response_format and takes n = 1 only (its "OpenAI SDK compatibility" page): greedy ratings,
    # known before the first request.
    "anthropic": {"base_url": "https://api.anthropic.com/v1", "logprobs": False},
    # Mistral's API returns no log-probabilities and refuses a field it does not know with 422
    # "extra_forbidden", so none is sent; it takes response_format with a JSON schema.
    "mistral": {"base_url": "https://api.mistral.ai/v1", "logprobs": False},
}
# Which output constraint each provider family understands (see Endpoint.constraint):
# llama.cpp's "grammar", vLLM's "regex" (structured_outputs, vLLM >= 0.12; "guided_regex" for
# older servers), OpenAI-style "json_schema".
CONSTRAINTS = ("grammar", "regex", "guided_regex", "json_schema")
# What a user chooses per endpoint: a constraint, none, or "auto": none unless the model is
# known not to follow the answer format unaided (the bundled models, whichever server runs
# them), then the constraint its server family takes.
CONSTRAINT_CHOICES = ("auto", "none") + CONSTRAINTS
FAMILY_CONSTRAINTS = {
    "embedded": "grammar",
    "llamacpp": "grammar",
    # A custom URL serving a bundled model serves a GGUF file: llama.cpp's server, most often.
    "custom": "grammar",
    "vllm": "regex",
    "ollama": "json_schema",
    "lmstudio": "json_schema",
    "openai": "json_schema",
    "together": "json_schema",
    "openrouter": "json_schema",
    "gemini": "json_schema",
    "mistral": "json_schema",
}
# A constrained answer is bounded by its constraint; a small model may spell "My answer is"
# letter by letter under a grammar, which the paper's 10 tokens would cut short.
CONSTRAINED_MAX_TOKENS = 24

# OpenAI's reasoning models (o1, o3, o4-mini, GPT-5; also behind a router as "openai/o3") reject
# max_tokens, a temperature other than 1 and logprobs. "gpt-5-chat" is a plain chat model.
_REASONING_MODEL = re.compile(r"^(?:o[1-9](?:-|$)|gpt-5(?!-chat)(?:[.-]|$))", re.I)
# Reasoning tokens count against max_completion_tokens: with the paper's 10 tokens such a model
# spends them all thinking and returns nothing. 4,096 leaves room for a low-effort answer.
REASONING_MAX_TOKENS = 4096


def is_reasoning_model(model: str) -> bool:
    """True for OpenAI's reasoning models (o-series, GPT-5), by name."""
    return bool(_REASONING_MODEL.match((model or "").rsplit("/", 1)[-1]))


APIS = ("chat", "completions")

# Constrained answers keep the paper's "My answer is X.X.": after "My answer is " the model
# predicts the first digit in context, so its logprobs carry the expected value (a bare "X.X"
# grammar left SmolLM2's first-digit distribution nearly flat: MAD 0.005 over 40 points).
ANSWER_GBNF = 'root ::= "My answer is " [0-9] "." [0-9] "."'
ANSWER_REGEX = r"My answer is [0-9]\.[0-9]\."
ANSWER_JSON_SCHEMA = {
    "name": "rating",
    "strict": True,
    "schema": {
        "type": "object",
        "properties": {"rating": {"type": "number", "minimum": 0.0, "maximum": 9.9}},
        "required": ["rating"],
        "additionalProperties": False,
    },
}


def family_constraint(provider: str) -> str:
    """The answer constraint a provider's server family takes (llama.cpp grammar by default)."""
    return FAMILY_CONSTRAINTS.get(provider, "grammar")


def resolve_constraint(choice: str | None, provider: str, model: str,
                       current: str | None = None) -> str | None:  # fmt: skip
    """The constraint an endpoint sends for a user's `choice` (CONSTRAINT_CHOICES; None =
    "auto"). "auto" keeps a preset's constraint (`current`, the embedded model's grammar),
    else gives a model known not to follow the format (core/runtime/models.py recognises it behind
    any server) its server family's constraint, else none: a constraint would hide refusals,
    which the answer rate counts."""
    choice = choice or "auto"
    if choice not in CONSTRAINT_CHOICES:
        raise ValueError(f"unknown constraint {choice!r}; use one of {CONSTRAINT_CHOICES}")
    if choice == "none":
        return None
    if choice != "auto":
        return choice
    if current:
        return current
    from ..runtime.models import recognise

    known = recognise(model)
    return family_constraint(provider) if known is not None and known.constraint else None


def with_constraint(endpoint: Endpoint, choice: str | None = "auto") -> Endpoint:
    """The endpoint with the answer constraint of `choice` (see resolve_constraint); a
    constrained answer gets at least CONSTRAINED_MAX_TOKENS tokens."""
    constraint = resolve_constraint(choice, endpoint.provider, endpoint.model, endpoint.constraint)
    if constraint == endpoint.constraint:
        return endpoint
    tokens = max(endpoint.max_tokens, CONSTRAINED_MAX_TOKENS) if constraint else endpoint.max_tokens
    return replace(endpoint, constraint=constraint, max_tokens=tokens)


@dataclass
class Endpoint:
    """Where and how to ask one model; everything but the key can be saved with a project."""

    base_url: str
    model: str
    provider: str = "custom"
    api_key: str | None = field(default=None, repr=False)
    max_tokens: int = 10
    temperature: float = 0.0
    # A sampling seed sent with each request (None: none), e.g. one per draw of a sampled score;
    # Mistral calls it random_seed, Anthropic ignores it.
    seed: int | None = None
    # Answers asked in one request (the body's `n`; 1 leaves it out): the sampled score's k
    # draws in one request where the endpoint returns several choices (core/survey/sampled.py).
    choices: int = 1
    top_logprobs: int = 5
    logprobs: bool | None = None
    constraint: str | None = None
    # "chat" (/chat/completions, the server's chat template) or "completions" (/completions:
    # the prompt as plain text, for a base model that has no chat template).
    api: str = "chat"
    concurrency: int = 4
    rpm: float | None = None
    tpm: float | None = None
    timeout: float = 60.0
    max_retries: int = 6
    # Seconds throttled (429, 503) without an answer before a run stops (core/engine/throttle.py).
    patience_s: float = 1800.0
    price_in: float | None = None
    price_out: float | None = None
    # None = recognise a reasoning model by its name (is_reasoning_model).
    reasoning: bool | None = None
    reasoning_effort: str | None = "low"
    reasoning_max_tokens: int = REASONING_MAX_TOKENS
    # The network path, never saved (a proxy URL may hold its password): `proxy` is a URL such
    # as "http://user:secret@proxy.example:3128" (or socks5://, which needs PySocks), "" for a
    # direct connection, None for the system's settings (HTTPS_PROXY/NO_PROXY, the Windows
    # registry, macOS). `ca_certs` is a PEM file of the certificate authorities to trust (None:
    # REQUESTS_CA_BUNDLE, else the system's bundle). In QGIS both come from its network options.
    proxy: str | None = field(default=None, repr=False)
    ca_certs: str | None = None
    # The model file's SHA-256 where GeoBias runs it (the embedded model; "" for a remote one,
    # whose weights it cannot see): never sent, part of each answer's cache key.
    model_sha256: str = ""

    def is_reasoning(self) -> bool:
        """Whether requests take the reasoning-model form (max_completion_tokens, greedy)."""
        return is_reasoning_model(self.model) if self.reasoning is None else bool(self.reasoning)

    def completion_budget(self) -> int:
        """Completion tokens one request may use (what cost estimates count)."""
        return self.reasoning_max_tokens if self.is_reasoning() else self.max_tokens

    def host(self) -> str:
        """The host (and port) requests go to, for the pre-run summary."""
        return urlsplit(self.base_url).netloc

    def public_dict(self) -> dict:
        """All settings except the API key and the network path (a proxy URL may hold a
        password), safe for projects, layers, logs and reports."""
        d = asdict(self)
        for secret in ("api_key", "proxy", "ca_certs"):
            d.pop(secret, None)
        if not d["model_sha256"]:  # a remote model's: runs rows keep their earlier fields
            d.pop("model_sha256")
        return d

    @classmethod
    def from_provider(cls, provider: str, model: str, **overrides) -> Endpoint:
        """An endpoint from a named preset (PROVIDERS), with any field overridden."""
        preset = dict(PROVIDERS[provider])
        if provider == "embedded":  # each bundled model has its own answer mode
            from ..runtime.models import answer_mode

            preset.update(answer_mode(model))
        preset.update(overrides)
        return cls(model=model, provider=provider, **preset)


def server_endpoint(server, **overrides) -> Endpoint:
    """An Endpoint for a running embedded server (core/runtime/embedded.py EmbeddedServer: its
    URL, slots and model name), one request per slot at a time; a bundled model's answer mode
    comes with the preset."""
    if server.base_url is None:
        raise ValueError("the embedded server is not running; call start() first")
    settings = {"base_url": server.base_url, "concurrency": server.parallel, "timeout": 120.0,
                "model_sha256": getattr(server, "model_sha256", "") or ""}  # fmt: skip
    settings.update(overrides)
    return Endpoint.from_provider("embedded", server.model_name, **settings)


@dataclass
class Completion:
    """One chat answer: text, OpenAI-style logprobs content, finish reason, usage, raw JSON."""

    text: str | None
    logprobs_content: list[dict] | None
    finish_reason: str | None
    usage: dict | None
    raw: dict


def prompt_of(body: dict) -> str:
    """The prompt text of a request body (chat or completions API)."""
    if "prompt" in body:
        return body["prompt"]
    return body["messages"][0]["content"]


def _legacy_logprobs(lp: dict) -> list[dict] | None:
    """The completions API's {tokens, token_logprobs, top_logprobs} as chat-style content."""
    tokens = lp.get("tokens")
    if not isinstance(tokens, list):
        return None
    chosen = lp.get("token_logprobs") or [None] * len(tokens)
    tops = lp.get("top_logprobs") or [None] * len(tokens)
    return [
        {
            "token": t,
            "logprob": c,
            "top_logprobs": [{"token": k, "logprob": v} for k, v in (top or {}).items()],
        }
        for t, c, top in zip(tokens, chosen, tops)
    ]


def completion_from_response(resp: dict) -> Completion:
    """Text and logprobs from a chat.completion or text_completion JSON (TransientError if none)."""
    choices = resp.get("choices") if isinstance(resp, dict) else None
    if not choices or not isinstance(choices, list) or not isinstance(choices[0], dict):
        cause = Cause("content", 200, "JSON without choices", detail="no choices")
        raise TransientError(Message("llm.no_choices"), cause=cause)
    choice = choices[0]
    message = choice.get("message")
    if message is None and "text" in choice:  # the completions API
        text = choice.get("text")
    else:
        message = message or {}
        text = message.get("content")
        if text is None and message.get("refusal"):
            text = message["refusal"]
    lp = choice.get("logprobs")
    content = None
    if isinstance(lp, dict):
        content = lp["content"] if "content" in lp else _legacy_logprobs(lp)
    return Completion(text, content or None, choice.get("finish_reason"), resp.get("usage"), resp)


def _is_model_error(status: int, text: str) -> bool:
    low = text.lower()
    return "model" in low and any(
        s in low for s in ("not found", "does not exist", "not exist", "unknown model", "no such")
    )


def _unsupported_message(ep: Endpoint, wire: dict, text: str) -> Message:
    """A clear message for an endpoint that rejects a parameter GeoBias sends."""
    param = ""
    try:
        data = json.loads(text)
        error = data.get("error") or {}
        param, text = error.get("param") or "", error.get("message") or text
        # Mistral (pydantic): {"message": {"detail": [{"loc": ["body", "seed"], ...}]}}
        nested = data.get("message")
        detail = data.get("detail") or (nested.get("detail") if isinstance(nested, dict) else None)
        if not param and isinstance(detail, list) and detail and isinstance(detail[0], dict):
            loc = detail[0].get("loc") or []
            param = str(loc[-1]) if loc else ""
            text = str(detail[0].get("msg") or text)
    except (ValueError, AttributeError, TypeError):
        pass
    sent = ", ".join(k for k in wire if k not in ("model", "messages"))
    hint = Message("llm.hint_reasoning" if ep.is_reasoning() else "llm.hint_not_reasoning")
    what = Message("llm.param", param=param) if param else Message("llm.a_param")
    return Message("llm.unsupported", host=ep.host(), what=what, model=ep.model, sent=sent,
                   text=text, hint=hint)  # fmt: skip


class ChatClient:
    """A pooled, thread-safe client for one Endpoint, with limits, retries and logprob detection.

    The connection (pool, proxy, certificate authorities, timeouts, rate limits, retries with
    back-off) is an `HttpClient` made from the endpoint (`http`); this class adds what chat
    completions need: the request body, what each status means, logprob detection.

    Parameters
    ----------
    endpoint : Endpoint
        Where and how to ask.
    backoff_base, backoff_cap : float
        Seconds of the retry back-off (see core/engine/http_client.py).
    **http
        Other HttpClient arguments (clock, throttle).
    """

    def __init__(self, endpoint: Endpoint, backoff_base: float = 0.5, backoff_cap: float = 30.0,
                 **http):  # fmt: skip
        self.endpoint = endpoint
        if endpoint.api not in APIS:
            raise ValueError(Message("llm.unknown_api", api=endpoint.api, known=listing(APIS)))
        path = "/completions" if endpoint.api == "completions" else "/chat/completions"
        self.url = normalise_base_url(endpoint.base_url) + path
        self.http = HttpClient.from_endpoint(
            endpoint, self.url, backoff_base=backoff_base, backoff_cap=backoff_cap, **http
        )
        # Reasoning models give no logprobs: greedy ratings only.
        self.logprobs_supported: bool | None = (
            False if endpoint.is_reasoning() else endpoint.logprobs
        )
        self._missing_logprobs = 0
        self.n_answers = 0  # completions received; a rejected parameter before any is fatal
        self._lock = threading.Lock()

    def request_body(self, prompt: str, answer_format=None) -> dict:
        """The canonical request body (also the cache key's content) for one prompt.

        `answer_format`: the prompt language's answer (anything with `gbnf` and `regex`, such as
        a core/survey/languages.py Language) for the grammar and regex constraints; None: English.
        """
        ep = self.endpoint
        body = {"model": ep.model}
        if ep.api == "completions":
            body["prompt"] = prompt
        else:
            body["messages"] = [{"role": "user", "content": prompt}]
        if ep.is_reasoning():
            # Only what o-series/GPT-5 accept: no temperature (always 1) and no logprobs.
            body["max_completion_tokens"] = ep.completion_budget()
            if ep.reasoning_effort:
                body["reasoning_effort"] = ep.reasoning_effort
        else:
            body["temperature"] = ep.temperature
            body["max_tokens"] = ep.max_tokens
            if ep.seed is not None:
                body["random_seed" if ep.provider == "mistral" else "seed"] = int(ep.seed)
            if ep.choices > 1:
                body["n"] = int(ep.choices)
            if ep.logprobs is not False and ep.api == "completions":
                body["logprobs"] = ep.top_logprobs  # the completions API counts alternatives
            elif ep.logprobs is not False:
                body["logprobs"] = True
                body["top_logprobs"] = ep.top_logprobs
        gbnf = ANSWER_GBNF if answer_format is None else answer_format.gbnf
        regex = ANSWER_REGEX if answer_format is None else answer_format.regex
        if ep.constraint == "grammar":
            body["grammar"] = gbnf
        elif ep.constraint == "regex":
            body["structured_outputs"] = {"regex": regex}
        elif ep.constraint == "guided_regex":
            body["guided_regex"] = regex
        elif ep.constraint == "json_schema":
            body["response_format"] = {"type": "json_schema", "json_schema": ANSWER_JSON_SCHEMA}
        elif ep.constraint is not None:
            raise ValueError(
                Message("llm.unknown_constraint", constraint=ep.constraint,
                        known=listing(CONSTRAINTS))
            )  # fmt: skip
        return body

    def _wire_body(self, body: dict) -> dict:
        """What is actually sent: the canonical body minus logprobs once they are known absent."""
        if self.logprobs_supported is False and "logprobs" in body:
            body = {k: v for k, v in body.items() if k not in ("logprobs", "top_logprobs")}
        return body

    def _note_logprobs(self, body: dict, completion: Completion) -> None:
        if "logprobs" not in body or self.logprobs_supported is not None:
            return
        with self._lock:
            if completion.logprobs_content:
                self.logprobs_supported = True
            else:
                # Three answers in a row without logprobs: the endpoint ignores the option.
                self._missing_logprobs += 1
                if self._missing_logprobs >= 3:
                    self.logprobs_supported = False

    def _post_once(self, body: dict) -> dict:
        """One attempt: the answer's JSON, or the error its status means."""
        ep = self.endpoint
        wire = self._wire_body(body)
        r = self.http.send("POST", self.url, wire)
        status = r.status
        if status in (200, 407):  # the answer, or the proxy refused its credentials
            return self.http.json_of(r, self.url)
        text = r.data[:500].decode("utf-8", "replace")
        if status in (401, 403):
            raise EndpointError(
                Message("llm.refused_model", refused=self.http.refused(status), model=ep.model,
                        text=text)
            )  # fmt: skip
        if status == 404 or _is_model_error(status, text):
            raise EndpointError(
                Message("llm.wrong_model", url=self.url, status=status, model=ep.model, text=text)
            )
        if status in RETRY_STATUS:  # throttled (waited out), a spent quota, or transient
            raise status_error(r, self.http.host, text)
        # 422: Mistral's refusal of a field it does not know ("extra_forbidden").
        if status in (400, 422) and "logprob" in text.lower() and "logprobs" in wire:
            with self._lock:
                self.logprobs_supported = False
            raise TransientError(Message("llm.no_logprobs"), 0.0)
        low = text.lower()
        refused = "unsupported" in low or (status == 422 and "extra_forbidden" in low)
        if status in (400, 422) and refused and self.n_answers == 0:
            # Every request would be rejected the same way: stop instead of "finishing" a survey
            # with zero answers.
            raise EndpointError(_unsupported_message(ep, wire, text))
        raise RequestError(
            Message("http.status", status=status, text=text), Cause("status", status)
        )

    def post(self, body: dict, is_cancelled=None) -> Completion:
        """Send one body with limits and retries.

        Parameters
        ----------
        body : dict
            A canonical body from `request_body`.
        is_cancelled : callable, optional
            Polled while waiting; a cancel ends the wait with RequestError.

        Returns
        -------
        Completion

        Raises
        ------
        RequestError
            No answer after the endpoint's retries, a request it will not answer, or cancelled.
        EndpointError
            A fault every request would meet (key, URL, model, TLS, proxy credentials).
        """
        tokens = estimate_tokens(prompt_of(body)) + self.endpoint.completion_budget()
        completion = self.http.retrying(
            lambda: completion_from_response(self._post_once(body)), is_cancelled, tokens
        )
        self._note_logprobs(body, completion)
        with self._lock:
            self.n_answers += 1
        return completion

    def complete(self, prompt: str) -> Completion:
        """Ask one prompt (no cache)."""
        return self.post(self.request_body(prompt))

    def list_models(self) -> list[str]:
        """Model ids the endpoint offers (GET /models; EndpointError if that fails)."""
        data = self.http.get_json(normalise_base_url(self.endpoint.base_url) + "/models")
        items = (data.get("data") or data.get("models") or []) if isinstance(data, dict) else []
        return [m.get("id") or m.get("name") for m in items if isinstance(m, dict)]

    def close(self) -> None:
        """Close pooled connections."""
        self.http.close()
