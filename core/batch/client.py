"""The providers' batch endpoints over HTTP (requests): upload, create, status, cancel,
download, delete, each answered as one `Remote` whatever the provider calls its fields.

The API key goes in a header only (OpenAI and Mistral: Authorization, Anthropic: x-api-key,
Gemini: x-goog-api-key) and never into a message, a file or a Remote. Transient failures
(connection, 429, 5xx) are retried with exponential back-off on an injectable sleep.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field

import requests

from ..engine.http_client import RETRY_STATUS
from ..engine.throttle import parse_retry_after
from ..messages import Message

DEFAULT_BASES = {
    "openai": "https://api.openai.com/v1",
    "anthropic": "https://api.anthropic.com/v1",
    "gemini": "https://generativelanguage.googleapis.com",
    "mistral": "https://api.mistral.ai/v1",
}
ANTHROPIC_VERSION = "2023-06-01"
ENDED = ("completed", "failed", "expired", "cancelled")


@dataclass
class Remote:
    """A provider batch as GeoBias tracks it: status is one of validating, in_progress,
    finalizing, completed, failed, expired, cancelling, cancelled (`raw_status` the provider's
    word); counts are requests done (answered or failed) and failed of `n_total`."""

    provider: str
    batch_id: str
    status: str
    raw_status: str = ""
    input_file_id: str = ""
    output_file_id: str = ""
    error_file_id: str = ""
    n_total: int = 0
    n_done: int = 0
    n_failed: int = 0
    errors: list = field(default_factory=list)

    @property
    def ended(self) -> bool:
        return self.status in ENDED


class BatchApiError(RuntimeError):
    """A provider refused or could not be reached; the message names the host and what it
    said, never the key."""


_OPENAI_STATUS = {s: s for s in ("validating", "failed", "in_progress", "finalizing",
                                 "completed", "expired", "cancelling", "cancelled")}  # fmt: skip
_MISTRAL_STATUS = {"QUEUED": "validating", "RUNNING": "in_progress", "SUCCESS": "completed",
                   "FAILED": "failed", "TIMEOUT_EXCEEDED": "expired",
                   "CANCELLATION_REQUESTED": "cancelling", "CANCELLED": "cancelled"}  # fmt: skip
_GEMINI_STATUS = {"PENDING": "validating", "RUNNING": "in_progress", "SUCCEEDED": "completed",
                  "FAILED": "failed", "CANCELLED": "cancelled", "EXPIRED": "expired",
                  "UNSPECIFIED": "validating"}  # fmt: skip


def _int(v) -> int:
    try:
        return int(v or 0)
    except (TypeError, ValueError):
        return 0


class BatchClient:
    """One provider's batch API for one account.

    Parameters
    ----------
    provider : str
        "openai", "anthropic", "gemini" or "mistral".
    api_key : str
        Sent in the provider's header only.
    base_url : str, optional
        The API root (default the provider's; a test server's URL).
    proxy, ca_certs : str, optional
        As for core's HTTP client: "" direct, None the system's; a PEM bundle to trust.
    sleep : callable
        Waits between retries (a fake clock in tests).
    """

    def __init__(self, provider: str, api_key: str | None, base_url: str | None = None,
                 proxy: str | None = None, ca_certs: str | None = None, timeout: float = 120.0,
                 max_retries: int = 4, sleep=time.sleep):  # fmt: skip
        if provider not in DEFAULT_BASES:
            raise ValueError(Message("batchapi.unknown_provider", provider=provider,
                                     known=", ".join(DEFAULT_BASES)))  # fmt: skip
        self.provider = provider
        self.base = (base_url or DEFAULT_BASES[provider]).rstrip("/")
        self.timeout, self.max_retries, self.sleep = timeout, max_retries, sleep
        self.session = requests.Session()
        self.session.headers["User-Agent"] = "GeoBias"
        if proxy is not None:
            self.session.trust_env = proxy is None
            self.session.proxies = {"http": proxy, "https": proxy} if proxy else {}
        if ca_certs:
            self.session.verify = ca_certs
        if api_key:
            header = {"anthropic": "x-api-key", "gemini": "x-goog-api-key"}.get(provider)
            if header:
                self.session.headers[header] = api_key
            else:
                self.session.headers["Authorization"] = f"Bearer {api_key}"
        if provider == "anthropic":
            self.session.headers["anthropic-version"] = ANTHROPIC_VERSION
        self.n_requests = 0

    # --- HTTP ---

    def _call(self, method: str, path: str, *, expect_json=True, **kw):
        url = path if path.startswith("http") else self.base + path
        host = url.split("/")[2]
        # Not HttpClient.retrying: that shares a run's Throttle, rate limits and failure streak
        # over urllib3 JSON posts; a batch call is one lone requests call (multipart, streamed).
        for attempt in range(self.max_retries + 1):
            self.n_requests += 1
            try:
                r = self.session.request(method, url, timeout=self.timeout, **kw)
            except requests.RequestException as e:
                if attempt == self.max_retries:
                    raise BatchApiError(Message("http.unreachable", host=host,
                                                reason=type(e).__name__)) from e  # fmt: skip
                self.sleep(min(60.0, 2.0**attempt))
                continue
            if r.status_code in RETRY_STATUS and attempt < self.max_retries:
                wait = parse_retry_after(r.headers.get("Retry-After"))
                self.sleep(min(60.0, 2.0**attempt) if wait is None else wait)
                continue
            if r.status_code >= 400:
                if r.status_code in (401, 403):
                    raise BatchApiError(Message("http.refused_key", host=host,
                                                status=r.status_code))  # fmt: skip
                raise BatchApiError(Message("http.url_status", url=url.split("?")[0],
                                            status=r.status_code, text=r.text[:300]))  # fmt: skip
            if not expect_json:
                return r
            try:
                return r.json()
            except ValueError as e:
                raise BatchApiError(Message("http.not_json", url=url.split("?")[0])) from e
        raise AssertionError("unreachable")  # the loop returns or raises

    def _upload_multipart(self, path: str, purpose: str = "batch") -> str:
        with open(path, "rb") as f:
            files = {"file": (os.path.basename(path), f, "application/jsonl")}
            return self._call("POST", "/files", files=files, data={"purpose": purpose})["id"]

    # --- the four providers ---

    def submit(self, path: str, model: str, metadata: dict | None = None) -> Remote:
        """Upload one batch file (written in this provider's format) and create its batch."""
        metadata = {k: str(v) for k, v in (metadata or {}).items()}
        p = self.provider
        if p == "openai":
            file_id = self._upload_multipart(path)
            body = {"input_file_id": file_id, "endpoint": "/v1/chat/completions",
                    "completion_window": "24h", "metadata": metadata}  # fmt: skip
            remote = self._openai(self._call("POST", "/batches", json=body))
        elif p == "mistral":
            file_id = self._upload_multipart(path)
            body = {"input_files": [file_id], "model": model, "endpoint": "/v1/chat/completions",
                    "metadata": metadata}  # fmt: skip
            remote = self._mistral(self._call("POST", "/batch/jobs", json=body))
        elif p == "anthropic":
            with open(path, encoding="utf-8") as f:
                reqs = [json.loads(line) for line in f if line.strip()]
            remote = self._anthropic(self._call("POST", "/messages/batches",
                                                json={"requests": reqs}))  # fmt: skip
            file_id = ""
        else:
            file_id = self._gemini_upload(path)
            name = model if model.startswith("models/") else f"models/{model}"
            body = {"batch": {"display_name": metadata.get("name", "geobias"),
                              "input_config": {"file_name": file_id}}}  # fmt: skip
            remote = self._gemini(self._call("POST", f"/v1beta/{name}:batchGenerateContent",
                                             json=body))  # fmt: skip
        remote.input_file_id = file_id
        return remote

    def status(self, batch_id: str) -> Remote:
        p = self.provider
        if p == "openai":
            return self._openai(self._call("GET", f"/batches/{batch_id}"))
        if p == "mistral":
            return self._mistral(self._call("GET", f"/batch/jobs/{batch_id}"))
        if p == "anthropic":
            return self._anthropic(self._call("GET", f"/messages/batches/{batch_id}"))
        return self._gemini(self._call("GET", f"/v1beta/{batch_id}"))

    def cancel(self, batch_id: str) -> Remote:
        p = self.provider
        if p == "openai":
            return self._openai(self._call("POST", f"/batches/{batch_id}/cancel"))
        if p == "mistral":
            return self._mistral(self._call("POST", f"/batch/jobs/{batch_id}/cancel"))
        if p == "anthropic":
            return self._anthropic(self._call("POST", f"/messages/batches/{batch_id}/cancel"))
        self._call("POST", f"/v1beta/{batch_id}:cancel")
        return self.status(batch_id)

    def download(self, remote: Remote, folder: str) -> list[str]:
        """The batch's result files (output, then errors) written into `folder`; the paths."""
        os.makedirs(folder, exist_ok=True)
        safe = remote.batch_id.replace("/", "_")
        out = []
        targets = []
        if self.provider in ("openai", "mistral"):
            for kind, fid in (("output", remote.output_file_id), ("errors", remote.error_file_id)):
                if fid:
                    targets.append((kind, f"/files/{fid}/content"))
        elif self.provider == "anthropic":
            targets.append(("output", f"/messages/batches/{remote.batch_id}/results"))
        elif remote.output_file_id:
            targets.append(
                ("output", f"/download/v1beta/{remote.output_file_id}:download?alt=media")
            )
        for kind, url in targets:
            path = os.path.join(folder, f"{self.provider}-{safe}-{kind}.jsonl")
            r = self._call("GET", url, expect_json=False, stream=True)
            tmp = path + ".part"
            with open(tmp, "wb") as f:
                for chunk in r.iter_content(1 << 20):
                    f.write(chunk)
            os.replace(tmp, path)  # a torn download never looks complete
            out.append(path)
        return out

    def cleanup(self, remote: Remote) -> None:
        """Delete the provider-side files (input, output, errors; Anthropic: the batch)."""
        if self.provider == "anthropic":
            self._call("DELETE", f"/messages/batches/{remote.batch_id}")
            return
        for fid in (remote.input_file_id, remote.output_file_id, remote.error_file_id):
            if fid:
                path = f"/v1beta/{fid}" if self.provider == "gemini" else f"/files/{fid}"
                self._call("DELETE", path)

    # --- the providers' batch objects as Remote ---

    def _openai(self, b: dict) -> Remote:
        counts = b.get("request_counts") or {}
        errors = [e.get("message", "") for e in ((b.get("errors") or {}).get("data") or [])]
        done = _int(counts.get("completed")) + _int(counts.get("failed"))
        return Remote("openai", b["id"], _OPENAI_STATUS.get(b.get("status"), "in_progress"),
                      b.get("status", ""), b.get("input_file_id") or "",
                      b.get("output_file_id") or "", b.get("error_file_id") or "",
                      _int(counts.get("total")), done, _int(counts.get("failed")),
                      errors)  # fmt: skip

    def _mistral(self, b: dict) -> Remote:
        errors = [e.get("message", "") for e in b.get("errors") or []]
        return Remote("mistral", b["id"], _MISTRAL_STATUS.get(b.get("status"), "in_progress"),
                      b.get("status", ""), (b.get("input_files") or [""])[0],
                      b.get("output_file") or "", b.get("error_file") or "",
                      _int(b.get("total_requests")), _int(b.get("completed_requests")),
                      _int(b.get("failed_requests")), errors)  # fmt: skip

    def _anthropic(self, b: dict) -> Remote:
        c = b.get("request_counts") or {}
        left = _int(c.get("processing"))
        failed = _int(c.get("errored")) + _int(c.get("canceled")) + _int(c.get("expired"))
        total = left + _int(c.get("succeeded")) + failed
        raw = b.get("processing_status", "")
        if raw == "ended":
            if b.get("cancel_initiated_at"):
                status = "cancelled"
            elif _int(c.get("expired")):
                status = "expired"  # the 24 h window ran out: what came back is imported
            else:
                status = "completed"
        else:
            status = "cancelling" if raw == "canceling" else "in_progress"
        return Remote("anthropic", b["id"], status, raw, "", b.get("results_url") or "", "",
                      total, total - left, failed)  # fmt: skip

    def _gemini(self, b: dict) -> Remote:
        meta = b.get("metadata") or {}
        raw = meta.get("state", "")
        status = _GEMINI_STATUS.get(raw.replace("BATCH_STATE_", "").replace("JOB_STATE_", ""),
                                    "in_progress")  # fmt: skip
        stats = meta.get("batchStats") or {}
        out = (meta.get("output") or {}).get("responsesFile") or \
            (b.get("response") or {}).get("responsesFile") or ""  # fmt: skip
        total = _int(stats.get("requestCount"))
        errors = [b["error"].get("message", "")] if b.get("error") else []
        return Remote("gemini", b["name"], status, raw, "", out, "", total,
                      total - _int(stats.get("pendingRequestCount", total)),
                      _int(stats.get("failedRequestCount")), errors)  # fmt: skip

    def _gemini_upload(self, path: str) -> str:
        """The Files API's resumable upload: start (the size and type), then upload+finalize."""
        size = os.path.getsize(path)
        start = self._call(
            "POST", "/upload/v1beta/files", expect_json=False,
            headers={"X-Goog-Upload-Protocol": "resumable", "X-Goog-Upload-Command": "start",
                     "X-Goog-Upload-Header-Content-Length": str(size),
                     "X-Goog-Upload-Header-Content-Type": "application/jsonl"},
            json={"file": {"display_name": os.path.basename(path)}},
        )  # fmt: skip
        url = start.headers.get("X-Goog-Upload-URL") or start.headers.get("x-goog-upload-url")
        if not url:
            raise BatchApiError(Message("batchapi.no_upload_url", host=self.base.split("/")[2]))
        with open(path, "rb") as f:
            done = self._call("POST", url, data=f, headers={
                "Content-Length": str(size), "X-Goog-Upload-Offset": "0",
                "X-Goog-Upload-Command": "upload, finalize"})  # fmt: skip
        return done["file"]["name"]

    def close(self) -> None:
        self.session.close()
