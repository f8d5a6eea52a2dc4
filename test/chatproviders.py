"""Local stand-ins for hosted chat APIs this machine cannot reach, each behaving as its provider
documents (issue 31 item 5); they record every body they were sent.

- AnthropicCompatServer: Anthropic's OpenAI SDK compatibility layer (docs.anthropic.com,
  "OpenAI SDK compatibility"): `logprobs`, `top_logprobs`, `seed`, `response_format` and other
  OpenAI fields are accepted and ignored; `n` must be exactly 1; `temperature` above 1 is capped
  at 1; `choices` always has one entry; the key comes as a bearer token (or x-api-key).
- MistralServer: Mistral's /v1/chat/completions (its OpenAPI ChatCompletionRequest): the fields
  it knows, `random_seed` for a seed, `n` completions; a field it does not know is refused with
  422 and a pydantic `extra_forbidden` detail; no log-probabilities in answers.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from geobias.test.faultserver import prompt_rating

MISTRAL_FIELDS = {
    "model", "messages", "temperature", "top_p", "max_tokens", "stream", "stop", "random_seed",
    "response_format", "tools", "tool_choice", "presence_penalty", "frequency_penalty", "n",
    "prediction", "parallel_tool_calls", "prompt_mode", "safe_prompt", "metadata",
}  # fmt: skip


class _ChatServer:
    """A ThreadingHTTPServer on 127.0.0.1 answering POST /v1/chat/completions via `answer`."""

    key: str | None = "sk-test"  # None: any caller

    def __init__(self):
        self.bodies: list[dict] = []
        self.statuses: list[int] = []
        self.lock = threading.Lock()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def base_url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()

    def authorised(self, headers) -> bool:
        return self.key is None or headers.get("Authorization", "") == f"Bearer {self.key}"

    def answer(self, body: dict) -> tuple[int, dict]:
        raise NotImplementedError

    @staticmethod
    def completion(body: dict, n: int = 1, temperature: float = 0.0, seed=None) -> dict:
        """The fake model's answer: the prompt's rating, and at a temperature above 0 with a
        seed, that rating moved by 1.3 per seed (so draws differ as sampling would)."""
        prompt = body["messages"][-1]["content"]
        r = prompt_rating(prompt)
        if temperature and seed is not None:
            r = round((r + 1.3 * int(seed)) % 10, 1)
        choices = []
        for i in range(n):
            value = r if not temperature or i == 0 else round((r + 0.1 * i) % 10, 1)
            choices.append({"index": i, "finish_reason": "stop",
                            "message": {"role": "assistant",
                                        "content": f"My answer is {value:.1f}."}})  # fmt: skip
        return {
            "id": "chatcmpl-local", "object": "chat.completion", "created": 0,
            "model": body.get("model", ""), "choices": choices,
            "usage": {"prompt_tokens": len(prompt) // 4, "completion_tokens": 8 * n,
                      "total_tokens": len(prompt) // 4 + 8 * n},
        }  # fmt: skip

    def _handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _send(self, status, data):
                payload = json.dumps(data).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
                with server.lock:
                    server.statuses.append(status)

            def do_GET(self):
                if self.path.rstrip("/").endswith("/models"):
                    return self._send(200, {"object": "list", "data": [{"id": "m"}]})
                self._send(404, {"error": {"message": "not found"}})

            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                if self.path != "/v1/chat/completions":
                    return self._send(404, {"error": {"message": "not found"}})
                if not server.authorised(self.headers):
                    return self._send(401, {"error": {"message": "invalid x-api-key"}})
                body = json.loads(raw)
                with server.lock:
                    server.bodies.append(body)
                self._send(*server.answer(body))

        return Handler


class AnthropicCompatServer(_ChatServer):
    """Anthropic's OpenAI-compatible chat completions (see the module's docstring)."""

    def authorised(self, headers) -> bool:
        return super().authorised(headers) or headers.get("x-api-key", "") == self.key

    def answer(self, body):
        if int(body.get("n", 1)) != 1:
            return 400, {"type": "error", "error": {"type": "invalid_request_error",
                                                    "message": "n: must be exactly 1"}}  # fmt: skip
        temperature = min(float(body.get("temperature", 1.0)), 1.0)
        # logprobs, top_logprobs, seed, response_format: accepted and ignored.
        return 200, self.completion(body, 1, temperature)


class MistralServer(_ChatServer):
    """Mistral's chat completions (see the module's docstring)."""

    def answer(self, body):
        extra = sorted(k for k in body if k not in MISTRAL_FIELDS)
        if extra:
            detail = [{"type": "extra_forbidden", "loc": ["body", k],
                       "msg": "Extra inputs are not permitted", "input": body[k]}
                      for k in extra]  # fmt: skip
            return 422, {"object": "error", "message": {"detail": detail},
                         "type": "invalid_request_error", "param": None, "code": None}  # fmt: skip
        n = int(body.get("n", 1))
        return 200, self.completion(
            body, n, float(body.get("temperature", 0.7)), body.get("random_seed")
        )
