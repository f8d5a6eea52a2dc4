"""Local stand-ins for the providers' batch APIs (OpenAI, Anthropic, Gemini, Mistral), built from
their API references: files, batch creation, status with slow progress, results, error files,
expiry, cancellation, partial failures. Each is checked with the provider's official SDK
(test/sdk), so it does not merely agree with GeoBias's client.

Every status call moves a batch one step (`steps` calls from created to ended); the answers
are faultserver's chat completions ("My answer is X.X." with logprobs when asked).
"""

from __future__ import annotations

import email.parser
import json
import re
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

try:
    from geobias.test.faultserver import chat_response
except ImportError:  # the SDK venv: test/ is on sys.path
    from faultserver import chat_response

KEYS = {"openai": "sk-batch-test", "anthropic": "sk-ant-batch-test",
        "gemini": "gm-batch-test", "mistral": "ms-batch-test"}  # fmt: skip


def _iso(t: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def _prompt(provider: str, line: dict) -> tuple[str, bool, str]:
    """(prompt, logprobs asked, model) of one request line."""
    if provider == "anthropic":
        p = line["params"]
        return p["messages"][-1]["content"], False, p["model"]
    if provider == "gemini":
        r = line["request"]
        cfg = r.get("generationConfig") or r.get("generation_config") or {}
        text = "".join(p["text"] for p in r["contents"][-1]["parts"])
        return text, bool(cfg.get("responseLogprobs") or cfg.get("response_logprobs")), ""
    body = line["body"]
    return body["messages"][-1]["content"], bool(body.get("logprobs")), body.get("model", "")


class Batch:
    def __init__(self, provider, lines, model, steps):
        self.provider, self.lines, self.model, self.steps = provider, lines, model, steps
        self.id = {"openai": "batch_", "anthropic": "msgbatch_", "mistral": "",
                   "gemini": "batches/"}[provider] + uuid.uuid4().hex[:16]  # fmt: skip
        self.created = time.time()
        self.polls = 0
        self.cancelled = False
        self.ended = False
        self.output_file = self.error_file = None
        self.input_file = None


class BatchServer:
    """One provider's batch API on 127.0.0.1.

    `fail`: request indices (0-based) answered with an error; `expire_after`: a batch ends
    expired with only that many answered; `invalid`: batches fail validation; `steps`: status
    calls before a batch ends; `rate_limit_once`: the first create answers 429.
    """

    def __init__(self, provider: str, steps: int = 3, fail=(), expire_after: int | None = None,
                 invalid: bool = False, rate_limit_once: bool = False):  # fmt: skip
        self.provider, self.steps = provider, steps
        self.fail, self.expire_after, self.invalid = set(fail), expire_after, invalid
        self.rate_limit_once = rate_limit_once
        self.files: dict[str, dict] = {}  # id -> {"name", "data", "purpose"}
        self.batches: dict[str, Batch] = {}
        self.deleted: list[str] = []
        self.log: list[tuple[str, str]] = []
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_GET(self):
                server._handle(self, "GET")

            def do_POST(self):
                server._handle(self, "POST")

            def do_DELETE(self):
                server._handle(self, "DELETE")

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        root = f"http://127.0.0.1:{self.port}"
        self.base_url = root if provider == "gemini" else root + "/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()

    # --- plumbing ---

    def _send(self, h, status, obj=None, raw: bytes | None = None, headers=None):
        data = raw if raw is not None else json.dumps(obj).encode()
        h.send_response(status)
        h.send_header(
            "Content-Type", "application/json" if raw is None else "application/octet-stream"
        )
        h.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            h.send_header(k, v)
        h.end_headers()
        h.wfile.write(data)

    def _error(self, h, status, message, kind="invalid_request_error"):
        if self.provider == "anthropic":
            obj = {"type": "error", "error": {"type": kind, "message": message}}
        elif self.provider == "gemini":
            obj = {"error": {"code": status, "message": message, "status": "INVALID_ARGUMENT"}}
        elif self.provider == "mistral":
            obj = {"object": "error", "message": message, "type": kind, "code": None}
        else:
            obj = {"error": {"message": message, "type": kind, "param": None, "code": None}}
        self._send(h, status, obj)

    def _authorised(self, h) -> bool:
        key = KEYS[self.provider]
        if self.provider == "anthropic":
            # The API reference documents x-api-key; the Python SDK (2.x) sends a bearer token.
            given = h.headers.get("x-api-key") or h.headers.get("Authorization", "")[7:]
            ok = given == key and h.headers.get("anthropic-version")
        elif self.provider == "gemini":
            ok = h.headers.get("x-goog-api-key") == key or f"key={key}" in h.path
            # A resumable upload's session URL is its own credential (the SDK sends no key).
            token = h.path.split("upload_id=")[1].split("&")[0] if "upload_id=" in h.path else ""
            ok = ok or ("upload:" + token) in self.files
        else:
            ok = h.headers.get("Authorization") == f"Bearer {key}"
        if not ok:
            self._error(h, 401, "invalid api key", "authentication_error")
        return bool(ok)

    def _body(self, h) -> bytes:
        n = int(h.headers.get("Content-Length") or 0)
        return h.rfile.read(n) if n else b""

    def _handle(self, h, method):
        path = h.path.split("?")[0]
        with self.lock:
            self.log.append((method, path))
        if not self._authorised(h):
            return
        try:
            getattr(self, "_" + self.provider)(h, method, path)
        except KeyError as e:
            self._error(h, 404, f"not found: {e}", "not_found_error")

    def _new_file(self, name, data, purpose="batch") -> str:
        prefix = {"openai": "file-", "mistral": "", "gemini": "files/"}.get(self.provider, "")
        fid = prefix + uuid.uuid4().hex[:16]
        if self.provider == "mistral":
            fid = str(uuid.uuid4())
        self.files[fid] = {"name": name, "data": data, "purpose": purpose,
                           "created": int(time.time())}  # fmt: skip
        return fid

    def _multipart(self, h) -> tuple[str, bytes, str]:
        raw = self._body(h)
        head = f"Content-Type: {h.headers['Content-Type']}\r\nMIME-Version: 1.0\r\n\r\n".encode()
        msg = email.parser.BytesParser().parsebytes(head + raw)
        name, data, purpose = "upload.jsonl", b"", ""
        for part in msg.get_payload():
            field = part.get_param("name", header="content-disposition")
            if field == "file":
                name = part.get_filename() or name
                data = part.get_payload(decode=True)
            elif field == "purpose":
                purpose = part.get_payload(decode=True).decode()
        return name, data, purpose

    # --- the batch's life ---

    def _advance(self, b: Batch) -> None:
        """One status call: a step of progress; at the last, the batch ends."""
        if b.ended:
            return
        b.polls += 1
        if b.cancelled or b.polls >= self.steps or self.invalid:
            self._finish(b)

    def _n_answered_now(self, b: Batch) -> int:
        if b.ended:
            return len(self._results(b)[0])
        n = len(b.lines) * b.polls // max(1, self.steps)
        return n

    def _results(self, b: Batch):
        """(answered rows, error rows) as (index, line) lists."""
        if self.invalid:
            return [], []
        limit = len(b.lines)
        if b.cancelled:
            limit = len(b.lines) // 2
        if self.expire_after is not None:
            limit = min(limit, self.expire_after)
        ok, bad = [], []
        for i, line in enumerate(b.lines[:limit]):
            (bad if i in self.fail else ok).append((i, line))
        return ok, bad

    def _finish(self, b: Batch) -> None:
        b.ended = True
        ok, bad = self._results(b)
        if self.provider in ("openai", "mistral"):
            out = "".join(json.dumps(self._oa_row(b, i, line, False)) + "\n" for i, line in ok)
            err_rows = [self._oa_row(b, i, line, True) for i, line in bad]
            if self.provider == "openai" and (self.expire_after is not None or b.cancelled):
                done = {i for i, _ in ok + bad}
                for i, line in enumerate(b.lines):
                    if i not in done:
                        kind = "batch_cancelled" if b.cancelled else "batch_expired"
                        err_rows.append({"id": f"batch_req_{i}", "custom_id": line["custom_id"],
                                         "response": None, "error": {"code": kind, "message":
                                         "This request could not be executed before the "
                                         "completion window expired."}})  # fmt: skip
            if ok:
                b.output_file = self._new_file("output.jsonl", out.encode(), "batch_output")
            if err_rows:
                text = "".join(json.dumps(r) + "\n" for r in err_rows)
                b.error_file = self._new_file("errors.jsonl", text.encode(), "batch_output")
        elif self.provider == "gemini" and not self.invalid:
            rows = []
            for _i, line in ok:
                rows.append({"key": line["key"], "response": self._gemini_response(line)})
            for _i, line in bad:
                rows.append({"key": line["key"], "error": {"code": 500, "message": "internal",
                                                            "status": "INTERNAL"}})  # fmt: skip
            text = "".join(json.dumps(r) + "\n" for r in rows)
            b.output_file = self._new_file("responses.jsonl", text.encode())

    def _oa_row(self, b, i, line, failed):
        if failed:
            if i % 2:
                return {
                    "id": f"batch_req_{i}",
                    "custom_id": line["custom_id"],
                    "response": None,
                    "error": {"code": "server_error", "message": "The server had an error"},
                }
            body = {"error": {"message": "overloaded", "type": "server_error"}}
            return {"id": f"batch_req_{i}", "custom_id": line["custom_id"],
                    "response": {"status_code": 500, "request_id": f"req_{i}", "body": body},
                    "error": None}  # fmt: skip
        prompt, logprobs, _ = _prompt(self.provider, line)
        body = chat_response(prompt, logprobs)
        body["model"] = b.model
        return {"id": f"batch_req_{i}", "custom_id": line["custom_id"],
                "response": {"status_code": 200, "request_id": f"req_{i}", "body": body},
                "error": None}  # fmt: skip

    # --- OpenAI: /v1/files, /v1/batches ---

    def _file_object(self, fid):
        f = self.files[fid]
        obj = {"id": fid, "object": "file", "bytes": len(f["data"]), "created_at": f["created"],
               "filename": f["name"], "purpose": f["purpose"]}  # fmt: skip
        if self.provider == "openai":
            obj["status"] = "processed"
        else:
            obj.update(sample_type="batch_result" if "output" in f["purpose"] else "batch_request",
                       source="upload", num_lines=f["data"].count(b"\n"))  # fmt: skip
            obj["purpose"] = "batch"
        return obj

    def _files(self, h, method, path) -> bool:
        m = re.fullmatch(r"/v1/files(?:/([^/]+))?(/content)?", path)
        if not m:
            return False
        fid, content = m.group(1), m.group(2)
        if method == "POST" and fid is None:
            name, data, purpose = self._multipart(h)
            if purpose != "batch":
                self._error(h, 400, f"purpose must be batch, not {purpose!r}")
                return True
            self._send(h, 200, self._file_object(self._new_file(name, data, purpose)))
        elif method == "GET" and content:
            self._send(h, 200, raw=self.files[fid]["data"])
        elif method == "GET":
            self._send(h, 200, self._file_object(fid))
        elif method == "DELETE":
            del self.files[fid]
            self.deleted.append(fid)
            self._send(h, 200, {"id": fid, "object": "file", "deleted": True})
        return True

    def _openai_object(self, b: Batch) -> dict:
        ok, bad = self._results(b) if b.ended else ([], [])
        if b.ended:
            status = "failed" if self.invalid else "cancelled" if b.cancelled else \
                "expired" if self.expire_after is not None else "completed"  # fmt: skip
            completed, failed = len(ok), len(bad)
        else:
            status = "cancelling" if b.cancelled else "validating" if b.polls == 0 else \
                "in_progress"  # fmt: skip
            completed, failed = self._n_answered_now(b), 0
        t = int(b.created)
        errors = None
        if self.invalid:
            errors = {
                "object": "list",
                "data": [
                    {
                        "code": "invalid_json_line",
                        "line": 1,
                        "message": "This line is not parseable as valid JSON.",
                        "param": None,
                    }
                ],
            }
        return {
            "id": b.id, "object": "batch", "endpoint": "/v1/chat/completions", "errors": errors,
            "input_file_id": b.input_file, "completion_window": "24h", "status": status,
            "output_file_id": b.output_file, "error_file_id": b.error_file, "created_at": t,
            "in_progress_at": t if b.polls else None, "expires_at": t + 86400,
            "finalizing_at": None, "completed_at": t + 60 if status == "completed" else None,
            "failed_at": t if status == "failed" else None,
            "expired_at": t + 86400 if status == "expired" else None,
            "cancelling_at": t if b.cancelled else None,
            "cancelled_at": t if status == "cancelled" else None,
            "request_counts": {"total": len(b.lines), "completed": completed, "failed": failed},
            "metadata": b.metadata,
        }  # fmt: skip

    def _openai(self, h, method, path):
        if self._files(h, method, path):
            return
        m = re.fullmatch(r"/v1/batches(?:/([^/]+))?(/cancel)?", path)
        if not m:
            raise KeyError(path)
        bid, cancel = m.group(1), m.group(2)
        if method == "POST" and bid is None:
            req = json.loads(self._body(h))
            if self.rate_limit_once:
                self.rate_limit_once = False
                self._error(h, 429, "Enqueued token limit reached", "rate_limit_error")
                return
            if req.get("endpoint") not in ("/v1/chat/completions", "/v1/completions",
                                           "/v1/embeddings", "/v1/responses"):  # fmt: skip
                self._error(h, 400, "unsupported endpoint")
                return
            if req.get("completion_window") != "24h":
                self._error(h, 400, "completion_window must be 24h")
                return
            data = self.files[req["input_file_id"]]["data"].decode()
            lines = [json.loads(x) for x in data.splitlines() if x.strip()]
            models = {x["body"].get("model") for x in lines}
            b = Batch("openai", lines, models.pop() if len(models) == 1 else "", self.steps)
            b.input_file, b.metadata = req["input_file_id"], req.get("metadata")
            self.batches[b.id] = b
            self._send(h, 200, self._openai_object(b))
        elif method == "GET" and bid is None:
            data = [self._openai_object(b) for b in self.batches.values()]
            self._send(h, 200, {"object": "list", "data": data, "first_id": None,
                                "last_id": None, "has_more": False})  # fmt: skip
        elif method == "POST" and cancel:
            b = self.batches[bid]
            b.cancelled = True
            self._send(h, 200, self._openai_object(b))
        elif method == "GET":
            b = self.batches[bid]
            self._advance(b)
            self._send(h, 200, self._openai_object(b))
        else:
            raise KeyError(path)

    # --- Mistral: /v1/files, /v1/batch/jobs ---

    def _mistral_object(self, b: Batch) -> dict:
        ok, bad = self._results(b) if b.ended else ([], [])
        if b.ended:
            status = "FAILED" if self.invalid else "CANCELLED" if b.cancelled else \
                "TIMEOUT_EXCEEDED" if self.expire_after is not None else "SUCCESS"  # fmt: skip
            done, failed = len(ok) + len(bad), len(bad)
        else:
            status = "CANCELLATION_REQUESTED" if b.cancelled else "QUEUED" if b.polls == 0 \
                else "RUNNING"  # fmt: skip
            done, failed = self._n_answered_now(b), 0
        t = int(b.created)
        errors = [{"message": "invalid request file", "count": 1}] if self.invalid else []
        return {
            "id": b.id, "object": "batch", "input_files": [b.input_file],
            "metadata": b.metadata, "endpoint": "/v1/chat/completions", "model": b.model,
            "agent_id": None, "output_file": b.output_file, "error_file": b.error_file,
            "errors": errors, "outputs": None, "status": status, "created_at": t,
            "total_requests": len(b.lines), "completed_requests": done,
            "succeeded_requests": done - failed, "failed_requests": failed,
            "started_at": t if b.polls else None, "completed_at": t + 60 if b.ended else None,
        }  # fmt: skip

    def _mistral(self, h, method, path):
        if self._files(h, method, path):
            return
        m = re.fullmatch(r"/v1/batch/jobs(?:/([^/]+))?(/cancel)?", path)
        if not m:
            raise KeyError(path)
        bid, cancel = m.group(1), m.group(2)
        if method == "POST" and bid is None:
            req = json.loads(self._body(h))
            if not req.get("model") or not req.get("input_files"):
                self._error(h, 422, "model and input_files are required")
                return
            data = b"".join(self.files[f]["data"] for f in req["input_files"]).decode()
            lines = [json.loads(x) for x in data.splitlines() if x.strip()]
            if any("model" in x.get("body", {}) for x in lines):
                self._error(h, 400, "the model is set on the job, not in the lines")
                return
            b = Batch("mistral", lines, req["model"], self.steps)
            b.input_file, b.metadata = req["input_files"][0], req.get("metadata")
            self.batches[b.id] = b
            self._send(h, 200, self._mistral_object(b))
        elif method == "POST" and cancel:
            b = self.batches[bid]
            b.cancelled = True
            self._send(h, 200, self._mistral_object(b))
        elif method == "GET" and bid:
            b = self.batches[bid]
            self._advance(b)
            self._send(h, 200, self._mistral_object(b))
        else:
            raise KeyError(path)

    # --- Anthropic: /v1/messages/batches ---

    def _anthropic_object(self, b: Batch) -> dict:
        t = _iso(b.created)
        n = len(b.lines)
        if b.ended:
            ok, bad = self._results(b)
            answered = len(ok) + len(bad)
            counts = {"processing": 0, "succeeded": len(ok), "errored": len(bad),
                      "canceled": n - answered if b.cancelled else 0,
                      "expired": n - answered if not b.cancelled else 0}  # fmt: skip
            status = "ended"
        else:
            counts = {"processing": n - self._n_answered_now(b),
                      "succeeded": self._n_answered_now(b), "errored": 0, "canceled": 0,
                      "expired": 0}  # fmt: skip
            status = "canceling" if b.cancelled else "in_progress"
        root = f"http://127.0.0.1:{self.port}"
        return {
            "id": b.id, "type": "message_batch", "processing_status": status,
            "request_counts": counts, "ended_at": _iso(time.time()) if b.ended else None,
            "created_at": t, "expires_at": _iso(b.created + 86400),
            "archived_at": None, "cancel_initiated_at": t if b.cancelled else None,
            "results_url": f"{root}/v1/messages/batches/{b.id}/results" if b.ended else None,
        }  # fmt: skip

    def _anthropic_results(self, b: Batch) -> bytes:
        ok, bad = self._results(b)
        done = set()
        rows = []
        for i, line in ok:
            prompt, _, model = _prompt("anthropic", line)
            text = chat_response(prompt, False)["choices"][0]["message"]["content"]
            msg = {"id": f"msg_{i:04d}", "type": "message", "role": "assistant", "model": model,
                   "content": [{"type": "text", "text": text}], "stop_reason": "end_turn",
                   "stop_sequence": None,
                   "usage": {"input_tokens": len(prompt) // 4, "output_tokens": 8}}  # fmt: skip
            rows.append({"custom_id": line["custom_id"],
                         "result": {"type": "succeeded", "message": msg}})  # fmt: skip
            done.add(i)
        for i, line in bad:
            err = {"type": "error", "error": {"type": "overloaded_error",
                                              "message": "Overloaded"}}  # fmt: skip
            rows.append({"custom_id": line["custom_id"], "result": {"type": "errored",
                                                                    "error": err}})  # fmt: skip
            done.add(i)
        for i, line in enumerate(b.lines):
            if i not in done:
                kind = "canceled" if b.cancelled else "expired"
                rows.append({"custom_id": line["custom_id"], "result": {"type": kind}})
        return "".join(json.dumps(r) + "\n" for r in rows).encode()

    def _anthropic(self, h, method, path):
        m = re.fullmatch(r"/v1/messages/batches(?:/([^/]+))?(/cancel|/results)?", path)
        if not m:
            raise KeyError(path)
        bid, tail = m.group(1), m.group(2)
        if method == "POST" and bid is None:
            req = json.loads(self._body(h))
            lines = req.get("requests") or []
            ids = [x.get("custom_id", "") for x in lines]
            if not lines or len(set(ids)) != len(ids) or \
                    not all(re.fullmatch(r"[a-zA-Z0-9_-]{1,64}", i) for i in ids):  # fmt: skip
                self._error(h, 400, "requests: custom_id must be unique, 1-64 of [a-zA-Z0-9_-]")
                return
            for x in lines:
                if "max_tokens" not in x["params"] or "model" not in x["params"]:
                    self._error(h, 400, "params: model and max_tokens are required")
                    return
            b = Batch("anthropic", lines, lines[0]["params"]["model"], self.steps)
            self.batches[b.id] = b
            self._send(h, 200, self._anthropic_object(b))
        elif method == "GET" and tail == "/results":
            b = self.batches[bid]
            if not b.ended:
                self._error(h, 400, "batch has not ended")
                return
            self._send(h, 200, raw=self._anthropic_results(b))
        elif method == "POST" and tail == "/cancel":
            b = self.batches[bid]
            b.cancelled = True
            self._send(h, 200, self._anthropic_object(b))
        elif method == "DELETE" and bid:
            b = self.batches[bid]
            if not b.ended:
                self._error(h, 400, "a batch can be deleted once it has ended")
                return
            del self.batches[bid]
            self.deleted.append(bid)
            self._send(h, 200, {"id": bid, "type": "message_batch_deleted"})
        elif method == "GET" and bid:
            b = self.batches[bid]
            self._advance(b)
            self._send(h, 200, self._anthropic_object(b))
        else:
            raise KeyError(path)

    # --- Gemini: Files API (resumable upload), models/*:batchGenerateContent, batches/* ---

    def _gemini_response(self, line: dict) -> dict:
        prompt, logprobs, _ = _prompt("gemini", line)
        chat = chat_response(prompt, logprobs)
        text = chat["choices"][0]["message"]["content"]
        cand = {"content": {"parts": [{"text": text}], "role": "model"}, "finishReason": "STOP",
                "index": 0}  # fmt: skip
        if logprobs:
            content = chat["choices"][0]["logprobs"]["content"]
            cand["logprobsResult"] = {
                "topCandidates": [{"candidates": [{"token": t["token"],
                                                   "logProbability": t["logprob"]}
                                                  for t in c["top_logprobs"]]} for c in content],
                "chosenCandidates": [{"token": c["token"], "logProbability": c["logprob"]}
                                     for c in content],
            }  # fmt: skip
        return {"candidates": [cand], "modelVersion": "gemini-test",
                "usageMetadata": {"promptTokenCount": len(prompt) // 4,
                                  "candidatesTokenCount": 8, "totalTokenCount":
                                  len(prompt) // 4 + 8}}  # fmt: skip

    def _gemini_object(self, b: Batch) -> dict:
        if b.ended:
            ok, bad = self._results(b)
            state = "BATCH_STATE_FAILED" if self.invalid else "BATCH_STATE_CANCELLED" if \
                b.cancelled else "BATCH_STATE_EXPIRED" if self.expire_after is not None else \
                "BATCH_STATE_SUCCEEDED"  # fmt: skip
            pending, good, failed = len(b.lines) - len(ok) - len(bad), len(ok), len(bad)
        else:
            state = "BATCH_STATE_PENDING" if b.polls == 0 else "BATCH_STATE_RUNNING"
            good = self._n_answered_now(b)
            pending, failed = len(b.lines) - good, 0
        meta = {
            "@type": "type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatch",
            "model": b.model, "displayName": b.metadata, "state": state,
            "createTime": _iso(b.created), "updateTime": _iso(time.time()),
            "inputConfig": {"fileName": b.input_file},
            "batchStats": {"requestCount": str(len(b.lines)),
                           "successfulRequestCount": str(good), "failedRequestCount": str(failed),
                           "pendingRequestCount": str(pending)},
        }  # fmt: skip
        out = {"name": b.id, "metadata": meta}
        if b.ended:
            meta["endTime"] = _iso(time.time())
            out["done"] = True
            if b.output_file:
                meta["output"] = {"responsesFile": b.output_file}
                out["response"] = {"@type": meta["@type"].replace("Batch", "BatchOutput"),
                                   "responsesFile": b.output_file}  # fmt: skip
            if self.invalid:
                out["error"] = {"code": 3, "message": "invalid input file"}
        return out

    def _gemini(self, h, method, path):
        root = f"http://127.0.0.1:{self.port}"
        if method == "POST" and path == "/upload/v1beta/files" and "upload_id=" not in h.path:
            if h.headers.get("X-Goog-Upload-Command") != "start":
                self._error(h, 400, "start a resumable upload first")
                return
            meta = json.loads(self._body(h) or b"{}").get("file") or {}
            token = uuid.uuid4().hex
            name = meta.get("display_name") or meta.get("displayName") or "upload"
            self.files["upload:" + token] = {"name": name, "data": b"", "purpose": "",
                                             "created": int(time.time())}  # fmt: skip
            self._send(h, 200, {}, headers={
                "X-Goog-Upload-URL": f"{root}/upload/v1beta/files?upload_id={token}",
                "X-Goog-Upload-Status": "active"})  # fmt: skip
            return
        if method == "POST" and path == "/upload/v1beta/files":
            if "finalize" not in (h.headers.get("X-Goog-Upload-Command") or ""):
                self._error(h, 400, "upload, finalize expected")
                return
            token = h.path.split("upload_id=")[1].split("&")[0]
            pending = self.files.pop("upload:" + token)
            data = self._body(h)
            fid = self._new_file(pending["name"], data)
            f = {"name": fid, "displayName": pending["name"], "mimeType": "application/jsonl",
                 "sizeBytes": str(len(data)), "createTime": _iso(time.time()),
                 "state": "ACTIVE", "source": "UPLOADED",
                 "uri": f"{root}/v1beta/{fid}"}  # fmt: skip
            self._send(h, 200, {"file": f}, headers={"X-Goog-Upload-Status": "final"})
            return
        # The REST reference downloads under /download/v1beta; the SDK asks /v1beta directly.
        m = re.fullmatch(r"(?:/download)?/v1beta/(files/[^/:]+):download", path)
        if m and method == "GET":
            self._send(h, 200, raw=self.files[m.group(1)]["data"])
            return
        m = re.fullmatch(r"/v1beta/(models/[^/:]+):batchGenerateContent", path)
        if m and method == "POST":
            req = json.loads(self._body(h))
            batch = req.get("batch") or {}
            fname = (batch.get("input_config") or batch.get("inputConfig") or {}).get(
                "file_name") or (batch.get("inputConfig") or {}).get("fileName")  # fmt: skip
            data = self.files[fname]["data"].decode()
            lines = [json.loads(x) for x in data.splitlines() if x.strip()]
            b = Batch("gemini", lines, m.group(1), self.steps)
            b.input_file = fname
            b.metadata = batch.get("display_name") or batch.get("displayName") or ""
            self.batches[b.id] = b
            self._send(h, 200, self._gemini_object(b))
            return
        m = re.fullmatch(r"/v1beta/(batches/[^/:]+)(:cancel)?", path)
        if m:
            b = self.batches[m.group(1)]
            if method == "POST" and m.group(2):
                b.cancelled = True
                self._send(h, 200, {})
            elif method == "DELETE":
                del self.batches[b.id]
                self.deleted.append(b.id)
                self._send(h, 200, {})
            else:
                self._advance(b)
                self._send(h, 200, self._gemini_object(b))
            return
        m = re.fullmatch(r"/v1beta/(files/[^/:]+)", path)
        if m and method == "DELETE":
            del self.files[m.group(1)]
            self.deleted.append(m.group(1))
            self._send(h, 200, {})
            return
        raise KeyError(path)
