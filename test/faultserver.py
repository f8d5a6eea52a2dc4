"""A local OpenAI-compatible chat server that injects faults, for client and runner tests.

Listens on 127.0.0.1 only. Faults are chosen per request by arrival index (`plan`) or at random
with a seed (`probs`). It counts requests and successful answers per request body, so tests can
show that nothing is lost and no answered request is sent twice.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import re
import socket
import ssl
import struct
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

FAULTS = (
    "timeout",  # answer only after `hang_s` (longer than the client's timeout)
    "429",  # Too Many Requests with Retry-After
    "quota",  # 429 insufficient_quota: OpenAI's "no credit left / quota spent" (not a wait)
    "500",
    "503",
    "reset",  # close the connection without an answer (TCP RST)
    "malformed",  # 200 with a body that is not JSON
    "html",  # 200 with an HTML page (Content-Type text/html): a portal or proxy's login page
    "truncated",  # 200 with JSON cut in half
    "refusal",  # 200, the model declines to rate
    "empty_choices",  # 200 with "choices": []
    "no_logprobs",  # 200 without logprobs
    "401",
    "404_model",
    "400_logprobs",  # 400 saying logprobs are unsupported
    "400",  # a request the endpoint will not answer (not retried): it fails, the run goes on
    "reasoning",  # an OpenAI o-series/GPT-5 model: rejects max_tokens, temperature and logprobs
    "prose",  # a small model that ignores the answer format unless the request constrains it
    "echo",  # a small model that repeats the question (its first sentence) as its answer
)
# What the "prose" fault answers (as Gemma 3 270M did behind a llama.cpp server, issue 28).
PROSE = "You are a student at a university in Latvia."
# The request fields that constrain an answer (core.llm.ChatClient.request_body).
CONSTRAINT_FIELDS = ("grammar", "structured_outputs", "guided_regex", "response_format")
# Completion tokens the "reasoning" fault spends thinking before it answers.
REASONING_TOKENS = 300


def reasoning_rejection(body: dict) -> dict | None:
    """OpenAI's 400 error for a parameter its reasoning models reject, None if all is accepted."""
    for param in ("max_tokens", "logprobs", "top_logprobs"):
        if param in body:
            return {
                "message": f"Unsupported parameter: '{param}' is not supported with this model."
                + (" Use 'max_completion_tokens' instead." if param == "max_tokens" else ""),
                "type": "invalid_request_error",
                "param": param,
                "code": "unsupported_parameter",
            }
    if body.get("temperature", 1) != 1:
        return {
            "message": f"Unsupported value: 'temperature' does not support "
            f"{body['temperature']} with this model. Only the default (1) value is supported.",
            "type": "invalid_request_error",
            "param": "temperature",
            "code": "unsupported_value",
        }
    return None


def body_id(body: bytes | dict) -> str:
    """A short id of a request body (canonical JSON), as the server counts them."""
    if isinstance(body, (bytes, bytearray)):
        body = json.loads(body)
    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def prompt_rating(prompt: str) -> float:
    """The deterministic rating the fake model gives a prompt (0.0 to 9.9)."""
    return int(hashlib.md5(prompt.encode()).hexdigest()[:4], 16) % 100 / 10


def chat_response(prompt: str, logprobs: bool, text: str | None = None) -> dict:
    """A chat.completion JSON; with logprobs, the digit tokens carry top_logprobs."""
    r = prompt_rating(prompt)
    text = text if text is not None else f"My answer is {r:.1f}."
    out = {
        "id": "chatcmpl-fault",
        "object": "chat.completion",
        "model": "fault",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": len(prompt) // 4, "completion_tokens": 8},
    }
    if logprobs and text in ("A", "B"):  # a pairwise answer: the letter at 0.7, the other 0.3
        other = "B" if text == "A" else "A"
        top = [
            {"token": text, "logprob": math.log(0.7)},
            {"token": other, "logprob": math.log(0.3)},
        ]
        out["choices"][0]["logprobs"] = {"content": [{"token": text, "logprob": math.log(0.7),
                                                      "top_logprobs": top}]}  # fmt: skip
    elif logprobs:
        tokens = ["My", " answer", " is", " ", text[13:14], ".", text[15:16], "."]
        content = []
        for tok in tokens:
            top = [{"token": tok, "logprob": -0.1}]
            if tok.isdigit():
                other = str((int(tok) + 1) % 10)
                top = [{"token": tok, "logprob": -0.2231}, {"token": other, "logprob": -1.6094}]
            content.append({"token": tok, "logprob": top[0]["logprob"], "top_logprobs": top})
        out["choices"][0]["logprobs"] = {"content": content}
    return out


_PAIR_COORDS = re.compile(r"Location ([AB]): .*\((-?\d+\.\d+), (-?\d+\.\d+)\)")


def northern_choice(prompt: str, leaning_deg: float = 15.0) -> str:
    """A pairwise answer (core/survey/pairwise.py): the place further north, and A when the
    two are within `leaning_deg` degrees of latitude (a leaning to the first-named place)."""
    lat = {m[0]: float(m[1]) for m in _PAIR_COORDS.findall(prompt)}
    if abs(lat["A"] - lat["B"]) < leaning_deg:
        return "A"
    return "A" if lat["A"] > lat["B"] else "B"


def numbered_choice(prompt: str, j: int) -> dict:
    """Choice j of an n > 1 answer: the prompt's rating plus j, mod 10."""
    rating = (prompt_rating(prompt) + j) % 10
    return {"index": j, "message": {"role": "assistant", "content": f"My answer is {rating:.1f}."},
            "finish_reason": "stop"}  # fmt: skip


def echo_response(prompts: list[str], model: str = "fault") -> dict:
    """A /v1/completions answer with `echo` and `logprobs` (vLLM's): per prompt, a BOS token
    without log-probability, the prompt's tokens (words with their leading space) with
    deterministic log-probabilities, and one generated token."""
    choices = []
    for i, prompt in enumerate(prompts):
        words = re.findall(r"\s*\S+", prompt)
        values = [-(1 + int(hashlib.md5(prompt[: k + 1].encode()).hexdigest()[:4], 16) % 500 / 100)
                  for k in range(len(words))]  # fmt: skip
        tokens = ["<s>", *words, "."]
        choices.append({"index": i, "text": "".join(words) + ".", "finish_reason": "length",
                        "logprobs": {"tokens": tokens, "token_logprobs": [None, *values, -0.1],
                                     "top_logprobs": None, "text_offset": None}})  # fmt: skip
    return {"id": "cmpl-fault", "object": "text_completion", "model": model, "choices": choices}


class FaultServer:
    """Start with `with FaultServer(...) as fs:`; `fs.base_url` ends in /v1."""

    def __init__(
        self,
        plan: dict[int, str] | None = None,
        probs: dict[str, float] | None = None,
        seed: int = 0,
        retry_after: str = "0",
        hang_s: float = 1.0,
        delay_s: float = 0.0,
        always: str | None = None,
        logprobs: bool = True,
        tls: dict | None = None,
        echo: bool = False,
        poison: dict[str, str] | None = None,
        throttle: dict | None = None,
        poison_first: int = 0,
        poison_fault: str = "reset",
        honour_n: bool = False,
        answer=None,
        model: str = "fault",
        fingerprints: dict[int, str] | None = None,
    ):
        self.plan = dict(plan or {})
        # Prompts holding one of these texts always get its fault ("this prompt only" failures).
        self.poison = dict(poison or {})
        # ... and so do the first `poison_first` distinct prompts the server sees.
        self.poison_first, self.poison_fault = poison_first, poison_fault
        self.poisoned: set[str] = set()
        self.prompts_seen: set[str] = set()
        # A rate limit like a provider's (see `throttled`): {"first_s": seconds from the first
        # request during which every request gets 429 with Retry-After} and/or {"rpm": R} (a
        # token bucket of R requests a minute, burst R/60 at least 1: 429 with Retry-After
        # beyond it), {"headers": True} adds OpenAI's x-ratelimit-* headers.
        self.throttle = dict(throttle or {})
        self.t_first: float | None = None
        self.bucket = None
        self.n_throttled = 0
        self.answer_times: list[float] = []  # when each chat answer went out (monotonic)
        self.throttle_times: list[float] = []  # when each throttled 429 went out
        self.probs = dict(probs or {})
        self.seed = seed
        self.retry_after = retry_after
        self.hang_s = hang_s
        self.delay_s = delay_s
        self.always = always
        self.logprobs = logprobs
        # n > 1 answered with n choices, choice j rating the prompt j higher (mod 10) so each
        # draw is told apart; False: n ignored, one choice (Anthropic's compatible layer).
        self.honour_n = honour_n
        # answer(prompt) -> the text to answer instead of a rating (None: the rating as usual),
        # e.g. a letter for a pairwise prompt.
        self.answer = answer
        # The `model` chat answers report, and their `system_fingerprint` from the request of
        # each arrival index on ({0: "fp_a", 3: "fp_b"}: a backend changed mid-run); none by
        # default.
        self.model = model
        self.fingerprints = dict(fingerprints or {})
        self.echo = echo  # also answer /v1/completions with echo (HERB's sentence scorer)
        self.n_echo_requests = 0
        self.lock = threading.Lock()
        self.n_requests = 0
        self.n_connections = 0  # TCP connections accepted (a bare reachability check counts)
        self.requests_by_body: Counter = Counter()
        self.n_asked: Counter = Counter()  # chat requests by the `n` they asked (1: none)
        self.arrivals: list[str] = []  # body ids of the chat requests, in arrival order
        self.authorizations: Counter = Counter()  # Authorization headers seen, with counts
        self.via: Counter = Counter()  # Via headers seen (an HTTP proxy adds one)
        self.answers_by_body: Counter = Counter()
        self.faults: Counter = Counter()
        self.closing = threading.Event()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.httpd.daemon_threads = True
        self.tls = tls
        if tls:  # HTTPS with a certificate from test/netfixtures.make_ca
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(tls["cert"], tls["key"])
            self.httpd.socket = context.wrap_socket(self.httpd.socket, server_side=True)
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def base_url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"{'https' if self.tls else 'http'}://{host}:{port}/v1"

    def fault_for(self, index: int) -> str | None:
        """The fault injected into request number `index` (0-based arrival order)."""
        if self.always:
            return self.always
        if index in self.plan:
            return self.plan[index]
        if self.probs:
            rng = random.Random(f"{self.seed}:{index}")
            u = rng.random()
            acc = 0.0
            for fault, p in sorted(self.probs.items()):
                acc += p
                if u < acc:
                    return fault
        return None

    def _handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # keep test output quiet
                pass

            def setup(self):
                super().setup()
                with server.lock:
                    server.n_connections += 1
                # Headers and body go out in two writes: without this, Nagle + delayed ACK
                # cap each connection at about 25 requests/s.
                self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

            def _send(self, status: int, payload: bytes, headers: dict | None = None,
                      content_type: str = "application/json"):  # fmt: skip
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", content_type)
                    self.send_header("Content-Length", str(len(payload)))
                    for k, v in (headers or {}).items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    # The client gave up first (a timeout, a stopped run): nothing to answer.
                    self.close_connection = True

            def do_GET(self):
                with server.lock:
                    server.via[self.headers.get("Via", "")] += 1
                if self.path.rstrip("/").endswith("/models"):
                    data = {"object": "list", "data": [{"id": "fault", "object": "model"}]}
                    self._send(200, json.dumps(data).encode())
                else:
                    self._send(404, b'{"error":"not found"}')

            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                if self.path == "/v1/completions" and server.echo:
                    body = json.loads(raw)
                    with server.lock:
                        server.n_echo_requests += 1
                        server.authorizations[self.headers.get("Authorization", "")] += 1
                    if server.always == "html":  # a broken server before HERB's scorer too
                        page = b"<!doctype html><html><body>Sign in</body></html>"
                        return self._send(200, page, content_type="text/html")
                    if server.always == "timeout":
                        server.closing.wait(server.hang_s)
                        return self._send(504, b'{"error":"late"}')
                    prompts = body.get("prompt") or []
                    prompts = [prompts] if isinstance(prompts, str) else prompts
                    return self._send(200, json.dumps(echo_response(prompts)).encode())
                if self.path != "/v1/chat/completions":
                    return self._send(404, b'{"error":"not found"}')
                body = json.loads(raw)
                bid = body_id(body)
                with server.lock:
                    index = server.n_requests
                    server.n_requests += 1
                    server.requests_by_body[bid] += 1
                    server.n_asked[int(body.get("n") or 1)] += 1
                    server.arrivals.append(bid)
                    server.authorizations[self.headers.get("Authorization", "")] += 1
                    server.via[self.headers.get("Via", "")] += 1
                fault = server.fault_for(index)
                with server.lock:
                    server.faults[fault] += 1
                if server.delay_s:
                    time.sleep(server.delay_s)
                prompt = body["messages"][0]["content"]
                if fault is None:
                    fault = next((f for text, f in server.poison.items() if text in prompt), None)
                with server.lock:
                    if prompt not in server.prompts_seen:
                        server.prompts_seen.add(prompt)
                        if len(server.poisoned) < server.poison_first:
                            server.poisoned.add(prompt)
                if fault is None and prompt in server.poisoned:
                    fault = server.poison_fault
                wait = server.throttled()
                if wait is not None and fault is None:
                    return self._send(429, b'{"error":{"message":"Rate limit reached",'
                                      b'"type":"requests","code":"rate_limit_exceeded"}}',
                                      server.throttle_headers(wait))  # fmt: skip
                want_lp = bool(body.get("logprobs")) and server.logprobs
                late = fault == "timeout"
                if late:
                    server.closing.wait(server.hang_s)
                    fault = None  # a late answer the client has given up on
                if fault == "429":
                    err = b'{"error":{"message":"rate limited"}}'
                    return self._send(429, err, {"Retry-After": server.retry_after})
                if fault == "quota":  # OpenAI's error body for a spent quota
                    err = {"error": {"message": "You exceeded your current quota, please check "
                                     "your plan and billing details.", "type": "insufficient_quota",
                                     "param": None, "code": "insufficient_quota"}}  # fmt: skip
                    return self._send(429, json.dumps(err).encode())
                if fault in ("500", "503"):
                    return self._send(int(fault), b'{"error":{"message":"server error"}}')
                if fault == "401":
                    return self._send(401, b'{"error":{"message":"Incorrect API key"}}')
                if fault == "404_model":
                    msg = b'{"error":{"message":"The model `x` does not exist"}}'
                    return self._send(404, msg)
                if fault == "400_logprobs" and "logprobs" in body:
                    msg = b'{"error":{"message":"logprobs is not supported by this model"}}'
                    return self._send(400, msg)
                if fault == "400":
                    msg = (
                        b'{"error":{"message":"This model\'s maximum context length is exceeded"}}'
                    )
                    return self._send(400, msg)
                if fault == "reasoning":
                    error = reasoning_rejection(body)
                    if error is not None:
                        return self._send(400, json.dumps({"error": error}).encode())
                    resp = chat_response(prompt, False)
                    budget = int(body.get("max_completion_tokens") or 1 << 30)
                    if budget < REASONING_TOKENS + 8:  # the budget ran out while reasoning
                        resp["choices"][0]["message"]["content"] = ""
                        resp["choices"][0]["finish_reason"] = "length"
                    resp["usage"]["completion_tokens"] = min(budget, REASONING_TOKENS + 8)
                    with server.lock:
                        server.answers_by_body[bid] += 1
                    return self._send(200, json.dumps(resp).encode())
                if fault == "reset":
                    self.connection.setsockopt(
                        socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0)
                    )
                    self.close_connection = True
                    self.connection.close()
                    return
                if fault == "malformed":
                    return self._send(200, b"<html>Bad Gateway</html>")
                if fault == "html":
                    page = b"<!doctype html><html><body>Sign in to continue</body></html>"
                    return self._send(200, page, content_type="text/html; charset=utf-8")
                if fault == "empty_choices":
                    return self._send(200, b'{"id":"x","object":"chat.completion","choices":[]}')
                text = "I cannot provide ratings about places." if fault == "refusal" else None
                if text is None and server.answer is not None:
                    text = server.answer(prompt)
                if fault == "prose" and not any(k in body for k in CONSTRAINT_FIELDS):
                    text = PROSE
                if fault == "echo":
                    text = re.split(r"(?<=[.?!])\s", prompt.strip(), maxsplit=1)[0]
                resp = chat_response(prompt, want_lp and fault != "no_logprobs", text)
                server.served(resp, index)
                n = int(body.get("n") or 1)
                if server.honour_n and n > 1 and text is None:
                    resp["choices"] = [numbered_choice(prompt, j) for j in range(n)]
                    resp["usage"]["completion_tokens"] *= n
                payload = json.dumps(resp).encode()
                if fault == "truncated":
                    return self._send(200, payload[: len(payload) // 2])
                if not late:
                    with server.lock:
                        server.answers_by_body[bid] += 1
                        server.answer_times.append(time.monotonic())
                self._send(200, payload, server.limit_headers())

        return Handler

    def served(self, resp: dict, index: int) -> None:
        """Put in a chat answer the model and fingerprint the request at `index` is told."""
        resp["model"] = self.model
        since = [i for i in self.fingerprints if i <= index]
        if since:
            resp["system_fingerprint"] = self.fingerprints[max(since)]

    def throttled(self) -> float | None:
        """Seconds the client should wait when this request is over the limit, else None."""
        if not self.throttle:
            return None
        now = time.monotonic()
        with self.lock:
            if self.t_first is None:
                self.t_first = now
            first_s = self.throttle.get("first_s")
            if first_s and now - self.t_first < first_s:
                self.n_throttled += 1
                self.throttle_times.append(now)
                return max(0.0, first_s - (now - self.t_first))
            rpm = self.throttle.get("rpm")
            if not rpm:
                return None
            rate, burst = rpm / 60.0, max(1.0, self.throttle.get("burst", rpm / 60.0))
            tokens, last = self.bucket if self.bucket is not None else (burst, now)
            tokens = min(burst, tokens + (now - last) * rate)
            if tokens >= 1.0:
                self.bucket = (tokens - 1.0, now)
                return None
            self.bucket = (tokens, now)
            self.n_throttled += 1
            self.throttle_times.append(now)
            return (1.0 - tokens) / rate

    def limit_headers(self) -> dict:
        """OpenAI's x-ratelimit-* headers on an answer, when the server enforces an rpm and
        was asked to say so ({"headers": True})."""
        rpm = self.throttle.get("rpm")
        if not (rpm and self.throttle.get("headers")):
            return {}
        with self.lock:
            tokens = self.bucket[0] if self.bucket is not None else 0.0
        return {"x-ratelimit-limit-requests": f"{rpm:g}",
                "x-ratelimit-remaining-requests": str(int(tokens)),
                "x-ratelimit-reset-requests": f"{60.0 / rpm:.3f}s"}  # fmt: skip

    def throttle_headers(self, wait: float) -> dict:
        """Retry-After (whole seconds, as HTTP says, at least 1) and, if asked, OpenAI's
        x-ratelimit-* headers."""
        headers = {"Retry-After": str(max(1, int(wait + 0.999)))}
        if self.throttle.get("headers"):
            rpm = self.throttle.get("rpm")
            if rpm:
                headers["x-ratelimit-limit-requests"] = f"{rpm:g}"
            headers["x-ratelimit-remaining-requests"] = "0"
            headers["x-ratelimit-reset-requests"] = f"{wait:.3f}s"
        return headers

    def start(self) -> FaultServer:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.closing.set()
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(5)

    def __enter__(self) -> FaultServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def serve_forever(port: int = 0, **kwargs) -> None:
    """Run a fault server in this process until killed (for subprocess tests and benchmarks)."""
    fs = FaultServer(**kwargs)
    if port:
        fs.httpd.server_close()
        fs.httpd = ThreadingHTTPServer(("127.0.0.1", port), fs._handler())
    fs.start()
    print(fs.base_url, flush=True)
    while True:
        time.sleep(3600)


def serve_instant(port: int = 0) -> None:
    """A minimal asyncio chat stub answering at once with a fixed answer (for throughput runs)."""
    import asyncio

    payload = json.dumps(chat_response("instant", True)).encode()
    head = (
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
        + str(len(payload)).encode()
        + b"\r\n\r\n"
    )
    reply = head + payload

    async def handle(reader, writer):
        try:
            while True:
                headers = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in headers.split(b"\r\n"):
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":", 1)[1])
                if length:
                    await reader.readexactly(length)
                writer.write(reply)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    async def main():
        server = await asyncio.start_server(handle, "127.0.0.1", port)
        print(f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}/v1", flush=True)
        async with server:
            await server.serve_forever()

    asyncio.run(main())
