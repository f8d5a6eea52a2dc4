"""A fake batch service for the batch round-trip tests: answers every request line of exported
JSONL files the way OpenAI's Batch API and vLLM's run-batch do, with error lines on request."""

from __future__ import annotations

import json

from geobias.test.faultserver import chat_response


def answer_batch(request_paths, output_path, fail_every: int = 0) -> tuple[int, int]:
    """Write one output JSONL for the request files; every `fail_every`-th line (1-based) is an
    error line (alternately OpenAI's "error" object and a non-200 response). Returns (answered,
    failed)."""
    rows, n_ok, n_failed, i = [], 0, 0, 0
    for path in request_paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                i += 1
                req = json.loads(line)
                if fail_every and i % fail_every == 0:
                    n_failed += 1
                    if n_failed % 2:
                        error = {"code": "server_error", "message": "The server had an error"}
                        rows.append({"custom_id": req["custom_id"], "response": None,
                                     "error": error})  # fmt: skip
                    else:
                        response = {"status_code": 500, "body": {"error": {"message": "boom"}}}
                        rows.append({"custom_id": req["custom_id"], "response": response,
                                     "error": None})  # fmt: skip
                    continue
                prompt = req["body"]["messages"][0]["content"]
                body = chat_response(prompt, bool(req["body"].get("logprobs")))
                response = {"status_code": 200, "body": body}
                rows.append({"id": f"batch_req_{i}", "custom_id": req["custom_id"],
                             "response": response, "error": None})  # fmt: skip
                n_ok += 1
    with open(output_path, "w", encoding="utf-8") as f:
        f.writelines(json.dumps(r) + "\n" for r in rows)
    return n_ok, n_failed
