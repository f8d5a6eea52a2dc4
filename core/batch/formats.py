"""Each provider's batch request line and result line, translated to and from the
OpenAI-compatible chat request GeoBias sends live and the chat.completion it caches.

The custom_id (Gemini: key) of every line is the live request's cache key, and the request
translates back to the very body it came from (`live_body`), so a batch answer and a live
answer of the same prompt share one cache entry. Limits are the providers' documented ones.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..messages import Message

MB = 1024 * 1024


@dataclass(frozen=True)
class Format:
    """A provider's batch format: its limits per batch and whether the live OpenAI-compatible
    endpoint gives log-probabilities (the body must carry only what the batch can)."""

    name: str
    max_requests: int
    max_bytes: int
    live_base_url: str
    logprobs: bool
    window: str = "24h"


FORMATS = {
    # OpenAI Batch API: JSONL {custom_id, method, url, body}, 50,000 requests / 200 MB a file.
    "openai": Format("openai", 50_000, 200 * MB, "https://api.openai.com/v1", True),
    # Anthropic Message Batches: {custom_id, params}, 100,000 requests / 256 MB a batch.
    "anthropic": Format("anthropic", 100_000, 256 * MB, "https://api.anthropic.com/v1", False),
    # Gemini batch mode: a JSONL file of {key, request} up to 2 GB.
    "gemini": Format(
        "gemini",
        10**9,
        2048 * MB,
        "https://generativelanguage.googleapis.com/v1beta/openai",
        True,
        "48h",
    ),  # fmt: skip
    # Mistral batch: JSONL {custom_id, body}, the model on the job; 1,000,000 requests a job.
    "mistral": Format("mistral", 1_000_000, 512 * MB, "https://api.mistral.ai/v1", False),
}

CHAT_URL = "/v1/chat/completions"


class FormatError(ValueError):
    """A request the provider's batch format cannot carry (the message says which field)."""


def _unsupported(provider: str, body: dict, allowed) -> None:
    extra = sorted(set(body) - set(allowed))
    if extra:
        raise FormatError(Message("batchapi.unsupported", provider=provider,
                                  fields=", ".join(extra)))  # fmt: skip


# --- OpenAI (and Azure OpenAI, vLLM run-batch) ---


def openai_line(key: str, body: dict) -> dict:
    url = "/v1/completions" if "prompt" in body else CHAT_URL
    return {"custom_id": key, "method": "POST", "url": url, "body": body}


# --- Mistral: the model is set on the job, not in the line ---


def mistral_line(key: str, body: dict) -> dict:
    _unsupported("mistral", body, ("model", "messages", "max_tokens", "temperature",
                                   "response_format", "random_seed"))  # fmt: skip
    return {"custom_id": key, "body": {k: v for k, v in body.items() if k != "model"}}


def mistral_to_openai(line: dict, model: str) -> dict:
    return {"model": model, **line["body"]}


# --- Anthropic Message Batches ---

_ANTHROPIC_FIELDS = ("model", "messages", "max_tokens", "temperature")


def anthropic_request(key: str, body: dict) -> dict:
    """{custom_id, params} for one OpenAI-compatible chat body (system messages go to
    `system`); FormatError for what Messages cannot take (logprobs, grammars)."""
    _unsupported("anthropic", body, _ANTHROPIC_FIELDS)
    if "max_tokens" not in body:
        raise FormatError(Message("batchapi.unsupported", provider="anthropic",
                                  fields="max_tokens (required)"))  # fmt: skip
    params = {"model": body["model"], "max_tokens": body["max_tokens"]}
    system = [m["content"] for m in body["messages"] if m["role"] == "system"]
    if system:
        params["system"] = "\n".join(system)
    params["messages"] = [m for m in body["messages"] if m["role"] != "system"]
    if "temperature" in body:
        params["temperature"] = body["temperature"]
    return {"custom_id": key, "params": params}


def anthropic_to_openai(params: dict) -> dict:
    """The OpenAI-compatible body an Anthropic request came from (inverse of
    anthropic_request: the same key)."""
    messages = list(params["messages"])
    if params.get("system"):
        messages.insert(0, {"role": "system", "content": params["system"]})
    body = {"model": params["model"], "messages": messages}
    if "temperature" in params:
        body["temperature"] = params["temperature"]
    body["max_tokens"] = params["max_tokens"]
    return body


_STOP = {"end_turn": "stop", "stop_sequence": "stop", "max_tokens": "length",
         "refusal": "content_filter", "tool_use": "tool_calls"}  # fmt: skip


def anthropic_message_to_chat(message: dict) -> dict:
    """An Anthropic Message as the chat.completion the live OpenAI-compatible endpoint gives."""
    text = "".join(
        b.get("text", "") for b in message.get("content") or [] if b.get("type") == "text"
    )
    usage = message.get("usage") or {}
    pin, pout = usage.get("input_tokens", 0), usage.get("output_tokens", 0)
    return {
        "id": message.get("id", ""),
        "object": "chat.completion",
        "model": message.get("model", ""),
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                     "finish_reason": _STOP.get(message.get("stop_reason"), "stop")}],
        "usage": {"prompt_tokens": pin, "completion_tokens": pout, "total_tokens": pin + pout},
    }  # fmt: skip


# --- Gemini batch mode ---


# (chat body field, generationConfig field) in the body's order; the third is the log-probability
# flag, the fourth the count of alternatives it goes with.
_GEMINI_CONFIG = (("temperature", "temperature"), ("max_tokens", "maxOutputTokens"),
                  ("logprobs", "responseLogprobs"), ("top_logprobs", "logprobs"),
                  ("seed", "seed"))  # fmt: skip


def _gemini_config(settings: dict, to_gemini: bool) -> dict:
    """A chat body's generation settings as a Gemini generationConfig (`to_gemini`), or a
    generationConfig's as chat body fields: each present field renamed, the log-probability
    flag as True when set, and the count of alternatives only with that flag."""
    pairs = _GEMINI_CONFIG if to_gemini else tuple((g, b) for b, g in _GEMINI_CONFIG)
    flag, top = pairs[2][0], pairs[3][0]
    out = {}
    for name, renamed in pairs:
        if name == flag:
            if settings.get(flag):
                out[renamed] = True
        elif name in settings and (name != top or settings.get(flag)):
            out[renamed] = settings[name]
    return out


def gemini_request(key: str, body: dict) -> dict:
    """{key, request} (a GenerateContentRequest) for one OpenAI-compatible chat body: logprobs
    become responseLogprobs / logprobs, so the expected value survives the batch."""
    _unsupported("gemini", body, ("model", "messages", "max_tokens", "temperature", "logprobs",
                                  "top_logprobs", "seed"))  # fmt: skip
    contents, system = [], []
    for m in body["messages"]:
        if m["role"] == "system":
            system.append({"text": m["content"]})
        else:
            role = "model" if m["role"] == "assistant" else "user"
            contents.append({"role": role, "parts": [{"text": m["content"]}]})
    config = _gemini_config(body, to_gemini=True)
    request = {"contents": contents}
    if system:
        request["systemInstruction"] = {"parts": system}
    if config:
        request["generationConfig"] = config
    return {"key": key, "request": request}


def gemini_to_openai(request: dict, model: str) -> dict:
    """The OpenAI-compatible body a Gemini request came from (inverse of gemini_request)."""
    messages = []
    for part in (request.get("systemInstruction") or {}).get("parts", []):
        messages.append({"role": "system", "content": part["text"]})
    for c in request["contents"]:
        role = "assistant" if c.get("role") == "model" else "user"
        messages.append({"role": role, "content": "".join(p["text"] for p in c["parts"])})
    body = {"model": model, "messages": messages}
    body.update(_gemini_config(request.get("generationConfig") or {}, to_gemini=False))
    return body


_GEMINI_STOP = {"STOP": "stop", "MAX_TOKENS": "length", "SAFETY": "content_filter"}


def gemini_response_to_chat(response: dict, model: str) -> dict | None:
    """A GenerateContentResponse as a chat.completion (with OpenAI-style logprobs from
    logprobsResult); None when it has no candidate."""
    candidates = response.get("candidates") or []
    if not candidates:
        return None
    cand = candidates[0]
    text = "".join(p.get("text", "") for p in (cand.get("content") or {}).get("parts", []))
    choice = {"index": 0, "message": {"role": "assistant", "content": text},
              "finish_reason": _GEMINI_STOP.get(cand.get("finishReason"), "stop")}  # fmt: skip
    lp = cand.get("logprobsResult")
    if lp:
        chosen = lp.get("chosenCandidates") or []
        tops = lp.get("topCandidates") or [{}] * len(chosen)
        choice["logprobs"] = {"content": [
            {"token": c.get("token", ""), "logprob": c.get("logProbability"),
             "top_logprobs": [{"token": t.get("token", ""), "logprob": t.get("logProbability")}
                              for t in top.get("candidates", [])]}
            for c, top in zip(chosen, tops)
        ]}  # fmt: skip
    usage = response.get("usageMetadata") or {}
    pin, pout = usage.get("promptTokenCount", 0), usage.get("candidatesTokenCount", 0)
    return {
        "id": response.get("responseId", ""),
        "object": "chat.completion",
        "model": response.get("modelVersion", model),
        "choices": [choice],
        "usage": {"prompt_tokens": pin, "completion_tokens": pout, "total_tokens": pin + pout},
    }


# --- one place for all four ---


def request_line(provider: str, key: str, body: dict) -> dict:
    """The provider's batch line for one live request body, its custom_id the cache key."""
    if provider == "openai":
        return openai_line(key, body)
    if provider == "anthropic":
        return anthropic_request(key, body)
    if provider == "gemini":
        return gemini_request(key, body)
    if provider == "mistral":
        return mistral_line(key, body)
    raise ValueError(Message("batchapi.unknown_provider", provider=provider,
                             known=", ".join(FORMATS)))  # fmt: skip


def live_body(provider: str, line: dict, model: str) -> dict:
    """The live OpenAI-compatible body of a batch line (request_line's inverse)."""
    if provider == "openai":
        return line["body"]
    if provider == "anthropic":
        return anthropic_to_openai(line["params"])
    if provider == "gemini":
        return gemini_to_openai(line["request"], model)
    return mistral_to_openai(line, model)


def result_of(provider: str, row: dict, model: str = "") -> tuple[str, dict | None, str | None]:
    """(custom_id, chat.completion or None, failure reason or None) of one result line."""
    if provider == "anthropic":
        key, result = row.get("custom_id"), row.get("result") or {}
        kind = result.get("type")
        if kind == "succeeded":
            return key, anthropic_message_to_chat(result.get("message") or {}), None
        error = result.get("error") or {"type": kind}
        return key, None, f"batch {kind}: " + json.dumps(error, ensure_ascii=False)[:500]
    if provider == "gemini":
        key = row.get("key")
        if row.get("error"):
            return key, None, "batch: " + json.dumps(row["error"], ensure_ascii=False)[:500]
        chat = gemini_response_to_chat(row.get("response") or {}, model)
        if chat is None:
            return key, None, "batch: no candidate in the response"
        return key, chat, None
    # OpenAI and Mistral: {custom_id, response: {status_code, body}, error}
    key = row.get("custom_id")
    response = row.get("response") or {}
    body = response.get("body")
    if isinstance(body, str):  # some writers quote the body
        try:
            body = json.loads(body)
        except ValueError:
            body = None
    if not row.get("error") and response.get("status_code", 200) == 200 and isinstance(body, dict) \
            and body.get("choices"):  # fmt: skip
        return key, body, None
    err = row.get("error") or {"status_code": response.get("status_code"), "body": body}
    return key, None, "batch: " + json.dumps(err, ensure_ascii=False)[:500]
