"""OpenAI Batch JSONL: export a survey's pending requests, import the batch output into the cache.

The same files work with OpenAI's Batch API and vLLM's batch runner (`vllm run-batch`), or any
runner that answers each line (Ray Data across a cluster). The custom_id is the request's cache
key, so imported answers complete the survey with no requests, and importing is idempotent: the
same output imported twice, or the outputs of many nodes in any order, give the same cache.

Batch services take one model per file and cap a file at 50,000 requests and 200 MB (OpenAI's
limits; vLLM has none, so the same files run there): `write_batches` writes one series of files
per endpoint and model, split at those caps.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..messages import Message

if TYPE_CHECKING:  # the network is imported where requests are written: loading needs none
    from ..engine.cache import SurveyCache
    from ..engine.chat import Endpoint

BATCH_URL = "/v1/chat/completions"
MAX_REQUESTS = 50_000  # requests per input file (OpenAI Batch API)
MAX_BYTES = 200 * 1024 * 1024  # bytes per input file (OpenAI Batch API: 200 MB)


@dataclass
class BatchFile:
    """One written JSONL file: its path, the model and endpoint it is for, its size."""

    path: str
    model: str
    base_url: str
    n_requests: int
    n_bytes: int


@dataclass
class BatchImport:
    """What importing batch output did: answers stored, failures recorded (retried by the next
    run), failures ignored because the request already has an answer, lines read."""

    n_answers: int = 0
    n_failed: int = 0
    n_already_answered: int = 0
    n_lines: int = 0


def pending_requests(spec, gazetteer, cache: SurveyCache) -> list[tuple[Endpoint, str, dict]]:
    """(endpoint, cache key, body) of every request of the survey not answered yet, no repeats."""
    from ..engine.chat import ChatClient
    from .run import _language, _plan

    out, seen = [], set()
    language = _language(spec)  # its answer grammar, for a constrained endpoint
    for ep, _topic, prompts in _plan(spec, gazetteer):
        client = ChatClient(ep)
        items = {}
        for p in prompts:
            body = client.request_body(p, language)
            items.setdefault(cache.key(ep, body), body)
        client.close()
        have = cache.has_many(items)
        for key, body in items.items():
            if key not in have and key not in seen:
                seen.add(key)
                out.append((ep, key, body))
    return out


def _slug(text: str) -> str:
    """A file-name-safe form of a model name ("openai/gpt-4o-mini" -> "openai-gpt-4o-mini")."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-.") or "model"


def write_batches(
    requests_: list[tuple[Endpoint, str, dict]],
    folder: str,
    stem: str = "batch",
    max_requests: int = MAX_REQUESTS,
    max_bytes: int = MAX_BYTES,
) -> list[BatchFile]:
    """Write requests as Batch JSONL: one series of files per endpoint and model, each file at
    most `max_requests` lines and `max_bytes` bytes, named <stem>-<model>-<part>.jsonl."""
    from ..engine.chat import normalise_base_url

    if max_requests < 1 or max_bytes < 1:
        raise ValueError(Message("batch.caps"))
    groups: dict[tuple[str, str], list[tuple[str, dict]]] = {}
    for ep, key, body in requests_:
        groups.setdefault((normalise_base_url(ep.base_url), ep.model), []).append((key, body))
    os.makedirs(folder, exist_ok=True)
    names: dict[str, int] = {}
    files: list[BatchFile] = []
    for (base_url, model), items in groups.items():
        name = _slug(model)
        names[name] = names.get(name, 0) + 1
        if names[name] > 1:  # the same model name at another endpoint
            name = f"{name}-{names[name]}"
        part, f, current = 0, None, None
        for key, body in items:
            url = "/v1/completions" if "prompt" in body else BATCH_URL  # Endpoint.api
            line = {"custom_id": key, "method": "POST", "url": url, "body": body}
            data = (json.dumps(line, ensure_ascii=False) + "\n").encode("utf-8")
            if len(data) > max_bytes:
                raise ValueError(Message("batch.too_big", n=len(data), cap=max_bytes))
            full = current is not None and (
                current.n_requests >= max_requests or current.n_bytes + len(data) > max_bytes
            )
            if current is None or full:
                if f is not None:
                    f.close()
                part += 1
                path = os.path.join(folder, f"{stem}-{name}-{part:03d}.jsonl")
                f = open(path, "wb")  # closed when the part is full, or after the last line
                current = BatchFile(path, model, base_url, 0, 0)
                files.append(current)
            f.write(data)
            current.n_requests += 1
            current.n_bytes += len(data)
        if f is not None:
            f.close()
    return files


def export_batch(spec, gazetteer, cache: SurveyCache, folder: str, **caps) -> list[BatchFile]:
    """Export the survey's pending requests to Batch JSONL files in `folder` (no API key in
    them); `caps` are write_batches' stem, max_requests and max_bytes."""
    return write_batches(pending_requests(spec, gazetteer, cache), folder, **caps)


def _failure(row: dict, response: dict) -> str:
    """The error of a failed output line, short and without the request."""
    err = row.get("error") or {"status_code": response.get("status_code"),
                                "body": response.get("body")}  # fmt: skip
    return "batch: " + json.dumps(err, ensure_ascii=False)[:500]


class BatchFormatError(ValueError):
    """A file that is not batch output GeoBias can read; the message says what it is and what
    was expected. Nothing is stored from it."""


EXPECTED = ("OpenAI Batch output: one JSON line per request with its custom_id and a "
            "response (status_code, body) or an error, as OpenAI, Azure OpenAI, vLLM's "
            "run-batch and Mistral write it")  # fmt: skip


def line_kind(row) -> str:
    """What a parsed JSONL line is: "output" (OpenAI Batch output, an answer or an error),
    "request" (OpenAI Batch input, as export_batch writes it), "anthropic_result",
    "anthropic_request", "gemini", "bedrock", or "unknown"."""
    if not isinstance(row, dict):
        return "unknown"
    if row.get("custom_id"):
        if "response" in row or "error" in row:
            return "output"
        if "body" in row and ("url" in row or "method" in row):
            return "request"
        if isinstance(row.get("result"), dict):
            return "anthropic_result"
        if isinstance(row.get("params"), dict):
            return "anthropic_request"
    if "key" in row and ("response" in row or "request" in row):
        return "gemini"
    if "recordId" in row and ("modelInput" in row or "modelOutput" in row):
        return "bedrock"
    return "unknown"


_KINDS = {
    "request": "a request file (the requests a batch service is given, as GeoBias's 'Export "
               "requests for a batch service' writes them), not the results: run it on the "
               "batch service and import the output file it returns",
    "anthropic_result": "Anthropic Message Batches results (custom_id with a result object)",
    "anthropic_request": "Anthropic Message Batches requests (custom_id with params)",
    "gemini": "a Google Gemini batch file (key with request or response)",
    "bedrock": "an Amazon Bedrock batch inference file (recordId, modelInput, modelOutput)",
}  # fmt: skip


def _not_output(path: str, n: int, kind: str) -> BatchFormatError:
    what = _KINDS.get(kind, "not a batch output line (no custom_id with a response or error)")
    where = f"{path}" if n == 1 else f"{path}:{n}"
    return BatchFormatError(Message("batch.not_output", where=where, what=what, expected=EXPECTED))


@dataclass
class BatchOutput:
    """A batch output file as read and checked (read_batch), before anything is stored."""

    answers: dict
    failures: dict
    n_lines: int = 0
    path: str = ""


def read_batch(path: str) -> BatchOutput:
    """Read and check a batch output JSONL (nothing is stored).

    Output lines look like {"custom_id", "response": {"status_code", "body"}, "error"} (OpenAI
    and vLLM alike). An answer replaces an earlier failure of the same request, never the
    other way round. Raises BatchFormatError naming what the file is instead (empty, not JSON
    Lines, the request file itself, another provider's batch format) and what was expected.
    """
    answers: dict[str, dict] = {}
    failures: dict[str, str] = {}
    n_lines = 0
    try:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    row = json.loads(line)
                except ValueError as e:
                    if not n_lines:
                        raise BatchFormatError(
                            Message("batch.not_jsonl", path=path, expected=EXPECTED)
                        ) from e
                    raise BatchFormatError(
                        Message("batch.line_not_json", path=path, line=n, expected=EXPECTED)
                    ) from e
                kind = line_kind(row)
                if kind != "output":
                    raise _not_output(path, n if n_lines else 1, kind)
                n_lines += 1
                key = row["custom_id"]
                response = row.get("response") or {}
                body = response.get("body")
                ok = (
                    not row.get("error")
                    and response.get("status_code", 200) == 200
                    and isinstance(body, dict)
                    and body.get("choices")
                )
                if ok:
                    answers[key] = body
                    failures.pop(key, None)
                elif key not in answers:
                    failures[key] = _failure(row, response)
    except UnicodeDecodeError as e:
        raise BatchFormatError(Message("batch.not_text", path=path, expected=EXPECTED)) from e
    if not n_lines:
        raise BatchFormatError(Message("batch.empty", path=path, expected=EXPECTED))
    return BatchOutput(answers, failures, n_lines, path)


def store_batch(output: BatchOutput, cache: SurveyCache) -> BatchImport:
    """Store what read_batch read: answers by custom_id; a failure is recorded (so a later run
    retries it) unless that request already has an answer (another node's output, an earlier
    import)."""
    result = BatchImport(n_lines=output.n_lines)
    answered = cache.has_many(output.failures)
    cache.put_many(output.answers.items())
    for key, error in output.failures.items():
        if key in answered:
            result.n_already_answered += 1
        else:
            cache.put_failure(key, error)
            result.n_failed += 1
    result.n_answers = len(output.answers)
    return result


def import_batch(path: str, cache: SurveyCache) -> BatchImport:
    """Check and store a batch output JSONL in the cache (read_batch, then store_batch): a
    file that is not batch output stores nothing."""
    return store_batch(read_batch(path), cache)
