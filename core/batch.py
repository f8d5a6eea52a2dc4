"""OpenAI Batch JSONL: export a survey's pending requests, import the batch output into the cache.

The same files work with OpenAI's Batch API and vLLM's batch runner (`vllm run-batch`). The
custom_id is the request's cache key, so imported answers complete the survey with no requests.
"""

from __future__ import annotations

import json

from .cache import SurveyCache
from .llm import ChatClient, Endpoint

BATCH_URL = "/v1/chat/completions"


def pending_requests(spec, gazetteer, cache: SurveyCache) -> list[tuple[Endpoint, str, dict]]:
    """(endpoint, cache key, body) of every request of the survey not answered yet, no repeats."""
    from .survey import _plan

    out, seen = [], set()
    for ep, _topic, prompts in _plan(spec, gazetteer):
        client = ChatClient(ep)
        items = {}
        for p in prompts:
            body = client.request_body(p)
            items.setdefault(cache.key(ep, body), body)
        client.close()
        have = cache.has_many(items)
        for key, body in items.items():
            if key not in have and key not in seen:
                seen.add(key)
                out.append((ep, key, body))
    return out


def write_batch(requests_: list[tuple[Endpoint, str, dict]], path: str) -> int:
    """Write requests as Batch JSONL lines; returns the number written."""
    with open(path, "w", encoding="utf-8") as f:
        for _ep, key, body in requests_:
            line = {"custom_id": key, "method": "POST", "url": BATCH_URL, "body": body}
            f.write(json.dumps(line, ensure_ascii=False) + "\n")
    return len(requests_)


def export_batch(spec, gazetteer, cache: SurveyCache, path: str) -> int:
    """Export the survey's pending requests to a Batch JSONL file (no API key in it)."""
    return write_batch(pending_requests(spec, gazetteer, cache), path)


def import_batch(path: str, cache: SurveyCache) -> tuple[int, int]:
    """Store a batch output JSONL in the cache; returns (answers stored, failures recorded).

    Output lines look like {"custom_id", "response": {"status_code", "body"}, "error"}.
    Lines that failed are recorded as failures, so a later run retries them.
    """
    answers, n_failed = [], 0
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except ValueError as e:
                raise ValueError(f"{path}:{n}: not JSON") from e
            key = row.get("custom_id")
            if not key:
                raise ValueError(f"{path}:{n}: no custom_id")
            resp = row.get("response") or {}
            body = resp.get("body")
            ok = (
                not row.get("error")
                and resp.get("status_code", 200) == 200
                and isinstance(body, dict)
                and body.get("choices")
            )
            if ok:
                answers.append((key, body))
            else:
                err = row.get("error") or {"status_code": resp.get("status_code"), "body": body}
                cache.put_failure(key, "batch: " + json.dumps(err)[:500])
                n_failed += 1
    cache.put_many(answers)
    return len(answers), n_failed
