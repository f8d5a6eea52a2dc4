"""One HTTP client for every model server GeoBias talks to: pooled, proxied, rate-limited, retried.

The survey's chat requests (core/engine/chat.py) and HERB's remote scorers (core/herb/scorers.py)
both go through `HttpClient`: a urllib3 connection pool per server, through the proxy and trusting
the certificate authorities the caller gives (in QGIS, those of its network options), with
timeouts, a token-bucket rate limit, retries of transient faults (the statuses in
`RETRY_STATUS`, dropped connections, malformed answers) with capped exponential back-off and
jitter, the server's Retry-After honoured, waits that a cancel interrupts, and errors in words.

Back-off of attempt a (0-based): ``min(cap, base * 2**a) * U(0.5, 1)``, at least the server's
Retry-After (itself capped at ``10 * cap``); a Retry-After of 0 retries at once.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import threading
import time
import urllib.request
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar
from urllib.parse import unquote, urlsplit, urlunsplit

import requests.certs
import urllib3

from ..messages import MESSAGES, Message
from ..wording import plain_reason
from .throttle import (
    DEFAULT_PATIENCE_S,
    REAL_CLOCK,
    THROTTLE_STATUS,
    Pace,
    Throttle,
    parse_retry_after,
    ratelimit_wait,
)

__all__ = [
    "PROXY_AUTH",
    "RETRY_STATUS",
    "Cause",
    "EndpointError",
    "EndpointStoppedError",
    "HttpClient",
    "RateLimiter",
    "RequestError",
    "ThrottledStopError",
    "TransientError",
    "ca_bundle",
    "estimate_tokens",
    "hide_password",
    "normalise_base_url",
    "parse_retry_after",
    "pool_manager",
    "proxy_for",
    "status_error",
]

PROXY_AUTH = MESSAGES["http.proxy_auth"]
# Statuses worth another attempt: timeouts, conflicts, rate limits, server and gateway faults.
RETRY_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 520, 522, 524, 529})

T = TypeVar("T")


class EndpointError(RuntimeError):
    """A fatal endpoint problem (bad key, no access, wrong URL or model): stop the run."""


@dataclass(frozen=True)
class Cause:
    """How one attempt failed, in parts a message can be written from (in any language).

    kind: "timeout" (no answer within `timeout` seconds), "connection" (refused, reset,
    unreachable: `detail`), "status" (HTTP `status`), "content" (HTTP `status` with a body that
    is not an answer: `content_type`, `detail`), "ended" (the server's process ended, e.g. the
    embedded model's child was killed: `detail`). Two attempts fail "the same way" when kind,
    status and content type agree (`signature`). `throttled`: the server said "too many
    requests" (waited out, see core/engine/throttle.py); `connect`: no connection was made
    (refused, no such host).
    """

    kind: str
    status: int = 0
    content_type: str = ""
    timeout: float = 0.0
    detail: str = ""
    throttled: bool = False
    connect: bool = False

    @property
    def broken(self) -> bool:
        """Whether the cause says the endpoint itself is wrong rather than one attempt unlucky:
        no answer within a read timeout, no connection, or a 200 that is not JSON (a login
        page). Resets, 5xx and truncated JSON are transient."""
        if self.kind == "content":
            return "json" not in self.content_type
        return self.kind == "timeout" or (self.kind == "connection" and self.connect)

    @property
    def signature(self) -> tuple:
        return (self.kind, self.status, self.content_type)

    def words(self) -> str:
        """The cause in English words ("answered HTTP 200 with text/html instead of JSON")."""
        if self.kind == "timeout":
            return f"gave no answer within {self.timeout:g} s (read timeout)"
        if self.kind == "content":
            what = self.content_type or "a body"
            return f"answered HTTP {self.status} with {what} instead of a JSON answer"
        if self.kind == "status":
            return f"answered HTTP {self.status}"
        if self.kind == "ended":
            return f"stopped running ({self.detail})"
        return f"could not be reached ({self.detail})" if self.detail else "could not be reached"


class RequestError(RuntimeError):
    """One request that could not be answered (after retries, or a non-retryable 4xx)."""

    def __init__(self, message: str, cause: Cause | None = None):
        super().__init__(message)
        self.cause = cause


class TransientError(Exception):
    """A failure worth retrying; carries the server's Retry-After in seconds if given, how the
    attempt failed (`cause`; None: not a fault of the endpoint, e.g. an option it lacks) and
    whether the server's ``x-ratelimit-*`` headers named its rate (`rate_named`; else a
    throttled attempt makes the run learn the rate, see core/engine/throttle.py)."""

    def __init__(self, message: str, retry_after: float | None = None, cause: Cause | None = None,
                 rate_named: bool = False):  # fmt: skip
        super().__init__(message)
        self.retry_after = retry_after
        self.cause = cause
        self.rate_named = rate_named


class EndpointStoppedError(EndpointError):
    """A run stopped early: its requests kept failing the same way (see engine.FailureStreak).

    cause: the last attempt's Cause; attempts: the failed attempts in the streak; answered:
    attempts answered in this run before the streak (0: the endpoint never answered); host.
    """

    def __init__(self, cause: Cause, attempts: int, answered: int, host: str):
        self.cause, self.attempts, self.answered, self.host = cause, attempts, answered, host
        if answered:
            text = (
                f"stopped after {attempts} requests in a row failed: {host} "
                f"{cause.words()}; the answers so far are kept and a new run continues"
            )
        else:
            text = (
                f"stopped after the first {attempts} requests all failed the same way: "
                f"{host} {cause.words()} and answered nothing; a new run continues"
            )
        super().__init__(text)


class ThrottledStopError(EndpointError):
    """A run stopped because the endpoint kept throttling it for longer than the user's patience.

    cause: the last throttled attempt's Cause; waited: seconds throttled without an answer;
    answered: attempts answered in this run; host. Nothing was recorded as failed: a new run
    asks the same requests again.
    """

    def __init__(self, cause: Cause, waited: float, answered: int, host: str):
        self.cause, self.waited, self.answered, self.host = cause, waited, answered, host
        self.attempts = 0
        minutes = waited / 60.0
        super().__init__(
            f"stopped after {minutes:.1f} min throttled without an answer: {host} "
            f"{cause.words()} (too many requests); the answers so far are kept and nothing was "
            "marked failed, so Resume (or running again) asks the rest once the endpoint's "
            "limit allows"
        )


def status_error(response, host: str, text: str) -> Exception:
    """The error a retryable status means (RETRY_STATUS): a spent quota or credit (OpenAI's
    ``insufficient_quota`` 429) is fatal; 429, 503, 529, or any status whose rate-limit headers
    say nothing is left, is throttling (TransientError with the server's wait and a throttled
    Cause); the rest are transient faults (with Retry-After)."""
    status = response.status
    headers = response.headers
    if status == 429 and _quota_spent(response.data):
        return EndpointError(Message("http.quota", host=host, text=text))
    retry_after = parse_retry_after(headers.get("Retry-After"))
    reset = ratelimit_wait(headers)
    if reset is not None:
        retry_after = max(retry_after or 0.0, reset)
    throttled = status in THROTTLE_STATUS or reset is not None
    return TransientError(
        Message("http.status", status=status, text=text),
        retry_after,
        Cause("status", status, throttled=throttled),
        rate_named=reset is not None or bool(headers.get("x-ratelimit-limit-requests")),
    )


def _quota_spent(data: bytes) -> bool:
    """Whether a 429's JSON says the account has no credit or its quota is spent."""
    try:
        error = json.loads(data).get("error")
    except (ValueError, AttributeError):
        return b"insufficient_quota" in data[:2000]
    if not isinstance(error, dict):
        return False
    return "insufficient_quota" in (str(error.get("code")), str(error.get("type")))


def normalise_base_url(url: str) -> str:
    """Lower-case scheme and host, no trailing slash: one cache key per real endpoint."""
    parts = urlsplit(url.strip())
    path = parts.path.rstrip("/")
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), path, parts.query, ""))


def proxy_for(url: str, proxy: str | None) -> str:
    """The proxy URL requests to `url` go through ("" = direct).

    Parameters
    ----------
    url : str
        Where the requests go.
    proxy : str or None
        The proxy to use ("" = direct); None follows the system's settings for the URL's scheme
        and host (standard library: HTTPS_PROXY/NO_PROXY, the Windows registry, macOS).

    Returns
    -------
    str
        The proxy URL, "" for a direct connection.
    """
    if proxy is not None:
        return proxy.strip()
    parts = urlsplit(url)
    if parts.hostname and urllib.request.proxy_bypass(parts.hostname):
        return ""
    return urllib.request.getproxies().get(parts.scheme, "")


def hide_password(url: str) -> str:
    """A proxy URL fit for a message: the password, if any, replaced by ***."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = f"{parts.username}:***@{parts.hostname}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def ca_bundle(ca_certs: str | None) -> str:
    """The PEM file of trusted authorities: the endpoint's, else REQUESTS_CA_BUNDLE or
    CURL_CA_BUNDLE (as requests honours them), else the system bundle requests uses."""
    return (
        ca_certs
        or os.environ.get("REQUESTS_CA_BUNDLE")
        or os.environ.get("CURL_CA_BUNDLE")
        or requests.certs.where()
    )


def pool_manager(url: str, proxy: str | None, ca_certs: str | None, maxsize: int):
    """A urllib3 connection pool for `url` through its proxy, verifying TLS.

    Public urllib3 API only: PoolManager, ProxyManager (Basic credentials from the proxy URL),
    SOCKSProxyManager (needs PySocks).

    Parameters
    ----------
    url : str
        Where the requests go (chooses the system proxy when `proxy` is None).
    proxy : str or None
        As in `proxy_for`.
    ca_certs : str or None
        PEM file of the authorities to trust (see `ca_bundle`).
    maxsize : int
        Connections kept per host.

    Returns
    -------
    urllib3.PoolManager
        A pool manager (or proxy manager) ready for `urlopen`.
    """
    via = proxy_for(url, proxy)
    options = {
        "num_pools": 4,
        "maxsize": maxsize,
        "cert_reqs": "CERT_REQUIRED",
        "ca_certs": ca_bundle(ca_certs),
    }
    if not via:
        return urllib3.PoolManager(**options)
    parts = urlsplit(via if "://" in via else "http://" + via)
    if parts.scheme.startswith("socks"):
        try:
            from urllib3.contrib.socks import SOCKSProxyManager
        except ImportError as e:  # urllib3's SOCKS support needs PySocks
            raise EndpointError(Message("http.socks", proxy=hide_password(via))) from e
        return SOCKSProxyManager(urlunsplit(parts), **options)
    headers = {}
    if parts.username is not None:
        credentials = f"{unquote(parts.username)}:{unquote(parts.password or '')}"
        headers = urllib3.make_headers(proxy_basic_auth=credentials)
    host = parts.hostname + (f":{parts.port}" if parts.port else "")
    bare = urlunsplit((parts.scheme, host, "", "", ""))
    return urllib3.ProxyManager(bare, proxy_headers=headers, **options)


def estimate_tokens(text: str) -> int:
    """Cheap token estimate (about 4 characters per token for English BPE vocabularies)."""
    return max(1, (len(text) + 3) // 4)


_SHARED: weakref.WeakValueDictionary = weakref.WeakValueDictionary()
_SHARED_LOCK = threading.Lock()


def endpoint_id(base_url: str, model: str, api_key: str | None) -> str:
    """Who an endpoint's limits belong to: base URL, model and a key id (a hash prefix of the
    key, never the key itself), the name the shared limiters go by."""
    key_id = hashlib.sha256(api_key.encode()).hexdigest()[:12] if api_key else "-"
    return f"{normalise_base_url(base_url)} {model} key:{key_id}"


def shared_limiter(owner: str, kind: str, per_minute: float, burst: float | None = None):
    """The one RateLimiter of `owner`'s `kind` ("rpm", "tpm") limit in this process: every job
    asking the same endpoint at once (a dock survey and a HERB run) shares it, so together
    they stay within it. Kept while a client holds it; a new value makes a new one."""
    with _SHARED_LOCK:
        name = f"{owner} {kind}={per_minute:g}"
        limiter = _SHARED.get(name)
        if limiter is None:
            limiter = RateLimiter(per_minute, burst)
            _SHARED[name] = limiter
        return limiter


def shared_pace(owner: str) -> Pace:
    """The one Pace of `owner` in this process (the server's "wait until" and the learned
    rate): every job asking the endpoint at once waits out its throttling together and is
    paced by the rate any of them learned. Kept while a client holds it."""
    with _SHARED_LOCK:
        name = f"{owner} pace"
        pace = _SHARED.get(name)
        if pace is None:
            pace = Pace()
            _SHARED[name] = pace
        return pace


class RateLimiter:
    """Thread-safe token bucket: `rate` units per second, bursts up to `burst` units."""

    def __init__(self, per_minute: float, burst: float | None = None):
        self.rate = per_minute / 60.0
        self.burst = float(burst if burst is not None else max(1.0, per_minute / 60.0))
        self._tokens = self.burst
        self._last = time.monotonic()
        self._lock = threading.Lock()

    def acquire(self, amount: float = 1.0, is_cancelled=None) -> bool:
        """Block until `amount` units are available (False if cancelled while waiting)."""
        amount = min(float(amount), self.burst)
        while True:
            with self._lock:
                now = time.monotonic()
                self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
                self._last = now
                if self._tokens >= amount:
                    self._tokens -= amount
                    return True
                wait = (amount - self._tokens) / self.rate
            if is_cancelled is not None and is_cancelled():
                return False
            time.sleep(min(wait, 0.25))


def _reason(error: Exception) -> str:
    """The innermost cause of a urllib3 error (MaxRetryError wraps the real one), in words."""
    return plain_reason(error)


class HttpClient:
    """A pooled, thread-safe JSON client for one server, with limits, retries and cancel.

    Parameters
    ----------
    url : str
        The server's base URL (its scheme and host choose the system proxy; its host names the
        server in messages).
    api_key : str, optional
        Sent as ``Authorization: Bearer``; never in a message.
    proxy : str, optional
        "" direct, None the system's settings, else a proxy URL (see `proxy_for`).
    ca_certs : str, optional
        PEM file of the authorities to trust (see `ca_bundle`).
    concurrency : int
        Requests in flight at once (the pool keeps at least 4 connections).
    timeout : float
        Seconds to wait for an answer (connecting: at most 10).
    max_retries : int
        Attempts after the first for a transient fault.
    rpm, tpm : float, optional
        Requests and (estimated) tokens per minute at most.
    backoff_base, backoff_cap : float
        Seconds of the exponential back-off (see the module's docstring).
    patience_s : float
        Seconds throttled without an answer before the run stops (core/engine/throttle.py).
    clock : Clock, optional
        Where waits read the time (a FakeClock in core tests).
    throttle : Throttle, optional
        Shared with other clients of the same endpoint; default one of this client's own.
    owner : str, optional
        The endpoint's identity (`endpoint_id`): its rpm/tpm limiters are shared by every
        client of it in the process.
    """

    def __init__(
        self,
        url: str,
        *,
        api_key: str | None = None,
        proxy: str | None = None,
        ca_certs: str | None = None,
        concurrency: int = 4,
        timeout: float = 60.0,
        max_retries: int = 6,
        rpm: float | None = None,
        tpm: float | None = None,
        backoff_base: float = 0.5,
        backoff_cap: float = 30.0,
        patience_s: float = DEFAULT_PATIENCE_S,
        clock=None,
        throttle: Throttle | None = None,
        owner: str | None = None,
    ):
        self.url = url
        self.clock = clock or REAL_CLOCK
        # One limiter per endpoint in the process (`owner`: from_endpoint names it), shared
        # by every job asking it at once; without an owner, this client's own.
        self.owner = owner
        # Throttling is waited out by every request to the endpoint together (throttle.py):
        # the server's time and the learned rate are the endpoint's, the concurrency the run's.
        pace = shared_pace(owner) if owner is not None else None
        self.throttle = throttle or Throttle(concurrency, patience_s, self.clock, pace=pace)
        self.host = urlsplit(url).netloc
        self.proxy, self.ca_certs = proxy, ca_certs
        self.pool_size = max(4, int(concurrency))
        self.timeout = timeout
        self.max_retries = max_retries
        self.backoff_base, self.backoff_cap = backoff_base, backoff_cap
        self.headers = {"Content-Type": "application/json", "User-Agent": "GeoBias"}
        if api_key:
            self.headers["Authorization"] = f"Bearer {api_key}"
        # Requests evenly spaced (a burst of 1): a server's own token bucket then never sees
        # more than the rate, however its bursts are counted.
        self.rpm = self._limiter("rpm", rpm, burst=1.0) if rpm else None
        # Allow a burst of one minute's tokens so a single long prompt can always pass.
        self.tpm = self._limiter("tpm", tpm, burst=tpm) if tpm else None
        self.user_rpm = bool(rpm)  # else the endpoint's x-ratelimit-limit-requests sets it
        self.learned_rpm = None
        # urllib3's public pool managers (requests' own transport) with the proxy and the
        # certificate authorities; made on first use, so a bad proxy is a request error.
        self._http = None
        self.via = ""  # the proxy URL requests go through ("" = direct), once the pool exists
        self.n_requests = 0  # attempts sent (each retry counts)
        self.n_answered = 0  # attempts answered
        # The run's failure policy (engine.FailureStreak or alike), told about every attempt:
        # `attempt(cause or None) -> (cause, attempts, answered) or None`, `tripped()`.
        self.watch = None
        self._lock = threading.Lock()

    @classmethod
    def from_endpoint(cls, endpoint, url: str | None = None, **overrides) -> HttpClient:
        """A client with an Endpoint's connection settings (core.llm.Endpoint or alike).

        Parameters
        ----------
        endpoint : Endpoint
            Gives base_url, api_key, proxy, ca_certs, concurrency, timeout, max_retries, rpm,
            tpm and patience_s.
        url : str, optional
            The base URL if not the endpoint's (normalised).
        **overrides
            Any other constructor argument (backoff_base, backoff_cap, ...).

        Returns
        -------
        HttpClient
        """
        settings = {
            "api_key": endpoint.api_key,
            "proxy": endpoint.proxy,
            "ca_certs": endpoint.ca_certs,
            "concurrency": endpoint.concurrency,
            "timeout": endpoint.timeout,
            "max_retries": endpoint.max_retries,
            "rpm": endpoint.rpm,
            "tpm": endpoint.tpm,
            "patience_s": getattr(endpoint, "patience_s", DEFAULT_PATIENCE_S),
            "owner": endpoint_id(endpoint.base_url, endpoint.model, endpoint.api_key),
        }
        settings.update(overrides)
        return cls(url or normalise_base_url(endpoint.base_url), **settings)

    def _limiter(self, kind: str, per_minute: float, burst: float | None = None):
        if self.owner is None:
            return RateLimiter(per_minute, burst)
        return shared_limiter(self.owner, kind, per_minute, burst)

    def learn(self, headers) -> None:
        """Take the endpoint's own requests-per-minute limit (``x-ratelimit-limit-requests``,
        OpenAI's and others') as the rate when the user set none: its limit is the speed."""
        if self.user_rpm:
            return
        value = headers.get("x-ratelimit-limit-requests")
        if not value:
            return
        try:
            limit = float(value)
        except ValueError:
            return
        if limit > 0 and limit != self.learned_rpm:
            with self._lock:
                self.learned_rpm = limit
                self.rpm = self._limiter("rpm", limit, burst=1.0)

    def pool(self):
        """The connection pool (through the proxy), made once."""
        if self._http is None:
            with self._lock:
                if self._http is None:
                    self.via = proxy_for(self.url, self.proxy)
                    self._http = pool_manager(self.url, self.via, self.ca_certs, self.pool_size)
        return self._http

    def send(self, method: str, url: str, body: dict | None = None, read_timeout=None):
        """One attempt, no retry: the server's response whatever its status.

        Parameters
        ----------
        method : str
            "GET" or "POST".
        url : str
            The full URL.
        body : dict, optional
            Sent as JSON (``json.dumps`` with its default separators).
        read_timeout : float, optional
            Seconds to wait for the answer; default the client's timeout.

        Returns
        -------
        urllib3.BaseHTTPResponse
            With ``status``, ``headers`` and ``data`` (read in full).

        Raises
        ------
        EndpointError
            TLS refused, or the proxy refused its credentials on an HTTPS tunnel.
        TransientError
            No answer (connection refused or reset, timeout, proxy unreachable).
        """
        read = self.timeout if read_timeout is None else read_timeout
        data = None if body is None else json.dumps(body).encode("utf-8")
        pool = self.pool()
        try:
            response = pool.urlopen(
                method, url, body=data, headers=self.headers, retries=False, redirect=False,
                timeout=urllib3.Timeout(connect=min(10.0, read), read=read),
                preload_content=True,
            )  # fmt: skip
            self.learn(response.headers)
            return response
        except urllib3.exceptions.SSLError as e:
            raise EndpointError(Message("http.tls", host=self.host, reason=_reason(e))) from e
        except urllib3.exceptions.ProxyError as e:
            if "407" in str(e):  # an HTTPS tunnel refused: every request would be
                raise EndpointError(Message("http.proxy_auth", host=self.host)) from e
            raise TransientError(Message("http.proxy", reason=_reason(e))) from e
        except urllib3.exceptions.TimeoutError as e:
            cause = Cause("timeout", timeout=read)
            raise TransientError(plain_reason(e), cause=cause) from e
        except (urllib3.exceptions.HTTPError, OSError) as e:
            reason = plain_reason(e)  # no reprs: a user reads it
            connect = isinstance(e, urllib3.exceptions.NewConnectionError)  # refused, no host
            cause = Cause("connection", detail=reason, connect=connect)
            raise TransientError(reason, cause=cause) from e
        finally:
            with self._lock:
                self.n_requests += 1

    def refused(self, status: int) -> Message:
        """What a 401/403 means: the API key, or (behind a proxy, which may answer it) maybe
        the proxy's credentials."""
        if self.via:
            return Message("http.refused_key_or_proxy", host=self.host, status=status,
                           proxy=hide_password(self.via))  # fmt: skip
        return Message("http.refused_key", host=self.host, status=status)

    def json_of(self, response, url: str) -> dict:
        """The JSON of a response, or the error its status means.

        Raises
        ------
        EndpointError
            407 (proxy credentials), 401/403 (key or access).
        TransientError
            A status in RETRY_STATUS (with its Retry-After), or a 200 that is not JSON.
        RequestError
            Any other status.
        """
        status = response.status
        if status == 200:
            try:
                return json.loads(response.data)
            except ValueError as e:
                kind = response.headers.get("Content-Type", "").split(";")[0].strip().lower()
                cause = Cause("content", 200, kind, detail="malformed JSON")
                raise TransientError(
                    Message("http.malformed_json", host=self.host), cause=cause
                ) from e
        text = response.data[:300].decode("utf-8", "replace")
        if status == 407:
            raise EndpointError(Message("http.proxy_auth", host=self.host))
        if status in (401, 403):
            raise EndpointError(
                Message("http.refused_text", refused=self.refused(status), text=text)
            )
        if status in RETRY_STATUS:
            raise status_error(response, self.host, text)
        raise RequestError(
            Message("http.url_status", url=url, status=status, text=text), Cause("status", status)
        )

    def backoff(self, attempt: int, retry_after: float | None) -> float:
        """Seconds to wait before attempt `attempt + 1` (module docstring's formula)."""
        delay = min(self.backoff_cap, self.backoff_base * 2**attempt)
        delay = delay * (0.5 + random.random() / 2)  # jitter: spread retries of many threads
        if retry_after is not None:
            delay = max(delay, min(retry_after, 10 * self.backoff_cap))
        return delay

    def retrying(
        self,
        attempt: Callable[[], T],
        is_cancelled: Callable[[], bool] | None = None,
        tokens: float = 0.0,
    ) -> T:
        """Call `attempt` until it returns, within the rate limits, retrying TransientError.

        A throttled attempt (Cause.throttled) is waited out with every other request to the
        endpoint (`throttle`) and does not use up the retries; the run stops with
        ThrottledStopError once the endpoint has throttled it for longer than the patience.

        Parameters
        ----------
        attempt : callable
            One try; raises TransientError for a fault worth retrying.
        is_cancelled : callable, optional
            Polled while waiting (for the rate limit or a back-off).
        tokens : float
            Tokens the request costs against `tpm`.

        Returns
        -------
        What `attempt` returned.

        Raises
        ------
        RequestError
            No answer after ``max_retries + 1`` failed attempts, or cancelled while waiting.
        ThrottledStopError
            Throttled for longer than the patience.
        """
        last = ""
        failures = 0
        throttle = self.throttle
        while True:
            self._check_watch()
            self._check_throttle()
            if not throttle.enter(is_cancelled):
                self._check_throttle()
                raise RequestError(Message("http.cancelled"))
            # The rate's tokens are taken once a slot is free, right before sending: taken
            # earlier, requests waiting for a slot would reach the server in a burst.
            rpm, tpm = self.rpm, self.tpm
            if (rpm and not rpm.acquire(1, is_cancelled)) or (
                tpm and not tpm.acquire(tokens, is_cancelled)
            ):
                throttle.leave()
                raise RequestError(Message("http.cancelled"))
            try:
                result = attempt()
            except TransientError as e:
                throttle.leave()
                last = e
                if e.cause is not None and e.cause.throttled:
                    wait = e.retry_after
                    if wait is None:
                        wait = self.backoff(min(throttle.backoff_step(), 16), None)
                    # A 429 that names no rate (x-ratelimit-*): the throttle learns the rate.
                    if throttle.throttled(e.cause, wait, pace=not e.rate_named) is not None:
                        self._check_throttle()
                    continue  # the wait happens in throttle.enter, for every request
                self._observe(e.cause)
                failures += 1
                if failures > self.max_retries:
                    break
                # After a timeout the wait has already been long: retry at once (a hung server
                # is then recognised within two read timeouts, see engine.FailureStreak).
                quick = e.retry_after == 0.0 or (
                    e.cause is not None and e.cause.kind == "timeout" and e.retry_after is None
                )
                delay = 0.0 if quick else self.backoff(failures - 1, e.retry_after)
                deadline = self.clock.now() + delay
                while self.clock.now() < deadline:
                    if is_cancelled is not None and is_cancelled():
                        raise RequestError(Message("http.cancelled_after", last=last)) from None
                    self._check_watch()
                    self.clock.sleep(min(0.1, max(0.0, deadline - self.clock.now())))
                continue
            except RequestError as e:
                throttle.leave()
                self._observe(e.cause)
                raise
            except BaseException:
                throttle.leave()
                raise
            throttle.leave(answered=True)
            with self._lock:
                self.n_answered += 1
            if self.watch is not None:
                self.watch.attempt(None)
            return result
        raise RequestError(Message("http.no_answer", attempts=self.max_retries + 1, last=last))

    def _check_throttle(self) -> None:
        """Send nothing more once the throttle's patience is spent."""
        stop = self.throttle.stopped
        if stop is not None:
            raise ThrottledStopError(stop[0], stop[1], self.n_answered, self.host)

    def _observe(self, cause: Cause | None) -> None:
        """Tell the run's failure policy how an attempt failed; raise once it stops the run."""
        if self.watch is None or cause is None:
            return
        stop = self.watch.attempt(cause)
        if stop is not None:
            raise EndpointStoppedError(stop[0], stop[1], stop[2], self.host)

    def _check_watch(self) -> None:
        """Send nothing more once the run's failure policy has stopped it."""
        stop = self.watch.tripped() if self.watch is not None else None
        if stop is not None:
            raise EndpointStoppedError(stop[0], stop[1], stop[2], self.host)

    def post_json(self, url: str, body: dict, is_cancelled=None) -> dict:
        """POST a JSON body and return the JSON answer, with limits and retries.

        Raises
        ------
        EndpointError, RequestError
            As `send`, `json_of` and `retrying` say.
        """
        tokens = estimate_tokens(json.dumps(body)) if self.tpm else 0.0
        return self.retrying(lambda: self.json_of(self.send("POST", url, body), url),
                             is_cancelled, tokens)  # fmt: skip

    def get_json(self, url: str) -> dict:
        """GET a JSON document in one attempt (waiting at most 30 s): any failure is fatal.

        Raises
        ------
        EndpointError
            Unreachable, refused, another status than 200, or not JSON.
        """
        try:
            r = self.send("GET", url, read_timeout=min(30.0, self.timeout))
        except TransientError as e:
            raise EndpointError(Message("http.unreachable", host=self.host, reason=e)) from e
        if r.status == 407:
            raise EndpointError(Message("http.proxy_auth", host=self.host))
        if r.status in (401, 403):
            raise EndpointError(self.refused(r.status))
        if r.status != 200:
            text = r.data[:300].decode("utf-8", "replace")
            raise EndpointError(Message("http.url_status", url=url, status=r.status, text=text))
        try:
            return json.loads(r.data)
        except ValueError as e:
            raise EndpointError(Message("http.not_json", url=url)) from e

    def close(self) -> None:
        """Close pooled connections."""
        if self._http is not None:
            self._http.clear()
