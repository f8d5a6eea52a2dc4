"""What an endpoint can do, found out rather than assumed (issue 31 item 3): whether answers carry
log-probabilities and how many top alternatives, how many choices come back for n = 2, its
`system_fingerprint`, and which parameters it refuses (HTTP 400 or 422).

`probe` sends a few requests (what *Test connection* does); `observed` reads the same from
answers a run already has (its cached responses), at no cost.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

from .chat import ChatClient, Endpoint
from .http_client import EndpointError

__all__ = ["PROBE_REQUESTS", "Capabilities", "observed", "probe"]

# Requests probe() sends at most: the body as a survey sends it with log-probabilities asked
# (again without them when they are refused, as Mistral does), one with n = 2, one with a seed.
PROBE_REQUESTS = 4


@dataclass
class Capabilities:
    """What the endpoint showed (None: not found out)."""

    logprobs: bool | None = None
    top_logprobs: int | None = None  # alternatives per token in the answers
    choices_for_n2: int | None = None  # choices returned when n = 2 was asked
    seed: bool | None = None  # a seed was taken (not refused)
    system_fingerprint: str | None = None
    rejected: list[str] = field(default_factory=list)  # parameters refused with 400/422

    def note(self, raw: dict) -> None:
        """Take in one chat.completion JSON."""
        if not isinstance(raw, dict):
            return
        fingerprint = raw.get("system_fingerprint")
        if fingerprint:
            self.system_fingerprint = str(fingerprint)
        choices = raw.get("choices") or []
        first = choices[0] if choices and isinstance(choices[0], dict) else {}
        lp = first.get("logprobs")
        content = lp.get("content") if isinstance(lp, dict) else None
        if content:
            self.logprobs = True
            tops = [len(e.get("top_logprobs") or []) for e in content if isinstance(e, dict)]
            self.top_logprobs = max([self.top_logprobs or 0, *tops])
        elif self.logprobs is None and first:
            self.logprobs = False

    def as_json(self) -> str:
        """The runs-table field: the findings as JSON."""
        return json.dumps(asdict(self), sort_keys=True)


def _rejected(status: int) -> bool:
    return status in (400, 422)


def probe(endpoint: Endpoint, prompt: str) -> Capabilities:
    """Ask the endpoint `prompt` up to PROBE_REQUESTS times, once plainly (log-probabilities
    asked unless a reasoning model), once with n = 2, once with a seed; nothing is cached.
    Raises EndpointError (or TransientError: no answer) when the plain request fails."""
    caps = Capabilities()
    client = ChatClient(endpoint)
    try:
        body = client.request_body(prompt)
        if not endpoint.is_reasoning():
            body.update(logprobs=True, top_logprobs=endpoint.top_logprobs)
        r = client.http.send("POST", client.url, body)
        if _rejected(r.status):
            caps.rejected.append("logprobs" if "logprob" in _text(r).lower() else "body")
            body = {k: v for k, v in body.items() if k not in ("logprobs", "top_logprobs")}
            r = client.http.send("POST", client.url, body)
        if r.status != 200:
            raise EndpointError(f"{endpoint.host()} answered HTTP {r.status}: {_text(r)[:200]}")
        caps.note(client.http.json_of(r, client.url))
        plain = {k: v for k, v in body.items() if k not in ("logprobs", "top_logprobs")}
        r = client.http.send("POST", client.url, dict(plain, n=2))
        if _rejected(r.status):
            caps.rejected.append("n")
            caps.choices_for_n2 = 1
        elif r.status == 200:
            raw = client.http.json_of(r, client.url)
            caps.note(raw)
            caps.choices_for_n2 = len(raw.get("choices") or [])
        if not endpoint.is_reasoning():
            name = "random_seed" if endpoint.provider == "mistral" else "seed"
            r = client.http.send("POST", client.url, dict(plain, **{name: 1}))
            caps.seed = not _rejected(r.status)
            if not caps.seed:
                caps.rejected.append(name)
    finally:
        client.close()
    return caps


def _text(r) -> str:
    return r.data[:500].decode("utf-8", "replace")


def observed(raws) -> Capabilities:
    """The Capabilities a run's own answers show (their raw JSON, e.g. from the cache)."""
    caps = Capabilities()
    for raw in raws:
        caps.note(raw)
    return caps
