"""Chat client against the fault-injecting local server: retries, fatal errors, logprobs, limits."""

import email.utils
import time

import pytest

from geobias.core.engine.chat import (
    ANSWER_REGEX,
    PROVIDERS,
    ChatClient,
    Endpoint,
    EndpointError,
    RateLimiter,
    RequestError,
    completion_from_response,
    is_reasoning_model,
    normalise_base_url,
    parse_retry_after,
)
from geobias.core.survey.ratings import rate_completion
from geobias.test.faultserver import FaultServer, prompt_rating


def client_for(fs, backoff=0.001, model_override="fault", **kw):
    kw.setdefault("max_retries", 3)
    kw.setdefault("timeout", 0.3)
    return ChatClient(Endpoint(fs.base_url, model_override, **kw), backoff_base=backoff)


def test_api_key_is_not_in_repr_or_public_dict():
    ep = Endpoint("https://api.openai.com/v1", "gpt-4o-mini", api_key="sk-secret-123")
    assert "sk-secret-123" not in repr(ep)
    assert "sk-secret-123" not in str(ep.public_dict())
    assert ep.public_dict()["model"] == "gpt-4o-mini"
    assert ep.host() == "api.openai.com"


def test_provider_presets():
    assert set(PROVIDERS) >= {
        "embedded", "openai", "ollama", "vllm", "llamacpp", "lmstudio", "together", "openrouter",
        "gemini",
    }  # fmt: skip
    ep = Endpoint.from_provider("ollama", "llama3.2", concurrency=2)
    assert ep.base_url == "http://localhost:11434/v1" and ep.concurrency == 2
    assert normalise_base_url("HTTP://LocalHost:8000/v1/") == "http://localhost:8000/v1"


def test_request_body_and_constraints():
    c = ChatClient(Endpoint("http://x/v1", "m"))
    body = c.request_body("hello")
    assert body["messages"] == [{"role": "user", "content": "hello"}]
    assert body["temperature"] == 0.0 and body["max_tokens"] == 10
    assert body["logprobs"] is True and body["top_logprobs"] == 5
    assert "grammar" not in body and "response_format" not in body
    assert "grammar" in ChatClient(Endpoint("http://x/v1", "m", constraint="grammar")).request_body(
        "p"
    )
    # vLLM >= 0.12 takes the regex as structured_outputs (guided_regex was removed).
    regex = ChatClient(Endpoint("http://x/v1", "m", constraint="regex")).request_body("p")
    assert regex["structured_outputs"] == {"regex": ANSWER_REGEX} and "guided_regex" not in regex
    js = ChatClient(Endpoint("http://x/v1", "m", constraint="json_schema")).request_body("p")
    assert js["response_format"]["type"] == "json_schema"
    assert "logprobs" not in ChatClient(Endpoint("http://x/v1", "m", logprobs=False)).request_body(
        "p"
    )


def test_retry_after_seconds_and_http_date():
    assert parse_retry_after("7") == 7.0
    now = time.time()
    date = email.utils.formatdate(now + 30, usegmt=True)
    assert 28 <= parse_retry_after(date, now=now) <= 31
    assert parse_retry_after("garbage") is None and parse_retry_after(None) is None


@pytest.mark.parametrize(
    "fault", ["429", "500", "503", "reset", "malformed", "truncated", "empty_choices", "timeout"]
)
def test_transient_faults_are_retried(fault):
    with FaultServer(plan={0: fault, 1: fault}, hang_s=1.0) as fs:
        c = client_for(fs)
        out = c.complete("Rate this place")
        assert out.text == f"My answer is {prompt_rating('Rate this place'):.1f}."
        assert out.logprobs_content and out.logprobs_content[4]["token"].isdigit()
        assert fs.n_requests == 3


def test_gives_up_after_max_retries():
    with FaultServer(always="500") as fs:
        with pytest.raises(RequestError, match="500"):
            client_for(fs, max_retries=2).complete("p")
        assert fs.n_requests == 3


def test_retry_after_is_honoured():
    with FaultServer(plan={0: "429"}, retry_after="0.4") as fs:
        t = time.monotonic()
        client_for(fs).complete("p")
        assert time.monotonic() - t >= 0.4


@pytest.mark.parametrize("fault", ["401", "404_model"])
def test_auth_and_model_errors_stop_at_once(fault):
    with FaultServer(always=fault) as fs:
        with pytest.raises(EndpointError):
            client_for(fs, max_retries=6).complete("p")
        assert fs.n_requests == 1


def test_wrong_path_is_fatal():
    with FaultServer() as fs:
        c = ChatClient(Endpoint(fs.base_url.replace("/v1", "/nope"), "m"))
        with pytest.raises(EndpointError, match="404"):
            c.complete("p")


def test_refusal_is_an_answer_not_an_error():
    with FaultServer(always="refusal") as fs:
        out = client_for(fs).complete("p")
        assert "cannot" in out.text and fs.n_requests == 1


def test_logprobs_rejected_with_400_continue_greedy():
    with FaultServer(always="400_logprobs") as fs:
        c = client_for(fs)
        out = c.complete("p")
        assert out.text.startswith("My answer is") and out.logprobs_content is None
        assert c.logprobs_supported is False
        n = fs.n_requests
        c.complete("q")  # remembered: no second rejected attempt
        assert fs.n_requests == n + 1


def test_missing_logprobs_detected_and_remembered():
    with FaultServer(logprobs=False) as fs:
        c = client_for(fs)
        for i in range(3):
            assert c.complete(f"p{i}").logprobs_content is None
        assert c.logprobs_supported is False
        assert "logprobs" not in c._wire_body(c.request_body("x"))
        # The canonical body (the cache key) does not change with detection.
        assert "logprobs" in c.request_body("x")


def test_list_models():
    with FaultServer() as fs:
        assert client_for(fs).list_models() == ["fault"]


def test_rate_limiter_paces_requests():
    lim = RateLimiter(per_minute=600, burst=1)  # 10 per second
    t = time.monotonic()
    for _ in range(6):
        lim.acquire()
    assert time.monotonic() - t >= 0.45


def test_rpm_limit_applies_to_client():
    with FaultServer() as fs:
        c = client_for(fs, rpm=1200)  # 20/s, burst of 20
        t = time.monotonic()
        for i in range(30):
            c.complete(f"p{i}")
        assert time.monotonic() - t >= 0.4


# --- issue 13, item 13: OpenAI reasoning models (o-series, GPT-5) ---


@pytest.mark.parametrize(
    "model, reasoning",
    [("o1", True), ("o3-mini", True), ("o4-mini-2025-04-16", True), ("gpt-5", True),
     ("gpt-5-mini", True), ("openai/o3", True), ("gpt-4o-mini", False),
     ("gpt-5-chat-latest", False), ("llama3.2", False), ("olmo-2", False)],
)  # fmt: skip
def test_reasoning_models_are_recognised_by_name(model, reasoning):
    assert is_reasoning_model(model) is reasoning


def test_reasoning_model_request_sends_only_what_the_model_accepts():
    ep = Endpoint.from_provider("openai", "o4-mini")
    body = ChatClient(ep).request_body("hello")
    assert "max_tokens" not in body and "temperature" not in body
    assert "logprobs" not in body and "top_logprobs" not in body
    # A budget it can answer in: reasoning tokens count against max_completion_tokens.
    assert body["max_completion_tokens"] == ep.completion_budget() >= 1000
    assert body["reasoning_effort"] == "low"
    # An explicit setting wins over the name.
    plain = ChatClient(Endpoint("http://x/v1", "o4-mini", reasoning=False)).request_body("p")
    assert plain["max_tokens"] == 10 and plain["temperature"] == 0.0


def test_reasoning_model_answers_greedy_within_its_budget():
    with FaultServer(always="reasoning") as fs:
        c = client_for(fs, model_override="o3-mini")
        out = c.complete("Rate this place")
        assert rate_completion(out.text).answered and out.logprobs_content is None
        assert c.logprobs_supported is False and fs.n_requests == 1
        # With the paper's 10 tokens the model spends them thinking: nothing is answered.
        short = client_for(fs, model_override="o3-mini", reasoning_max_tokens=10)
        assert not rate_completion(short.complete("Rate this place").text).answered


def test_unsupported_parameter_on_the_first_request_is_a_fatal_endpoint_error():
    # A reasoning model behind a name GeoBias does not recognise (or forced off).
    with FaultServer(always="reasoning") as fs:
        c = client_for(fs, max_retries=6, reasoning=False)
        with pytest.raises(EndpointError, match=r"max_tokens.*max_completion_tokens|reasoning"):
            c.complete("p")
        assert fs.n_requests == 1


def test_completions_api_sends_the_plain_prompt_and_reads_text():
    ep = Endpoint("http://x/v1", "base-model", api="completions", constraint="grammar")
    c = ChatClient(ep)
    assert c.url == "http://x/v1/completions"
    body = c.request_body("Rate Paris:")
    assert body["prompt"] == "Rate Paris:" and "messages" not in body
    assert body["logprobs"] == 5 and "top_logprobs" not in body  # an int: n alternatives
    assert "grammar" in body
    assert ChatClient(Endpoint("http://x/v1", "m")).url == "http://x/v1/chat/completions"
    with pytest.raises(ValueError, match="unknown api"):
        ChatClient(Endpoint("http://x/v1", "m", api="responses"))
    # llama.cpp answers with chat-style logprobs content; OpenAI's legacy API with lists.
    lp = {"content": [{"token": "7", "logprob": -0.1, "top_logprobs": []}]}
    out = completion_from_response({"choices": [{"text": "My answer is 7.0.", "logprobs": lp}]})
    assert out.text == "My answer is 7.0." and out.logprobs_content == lp["content"]
    legacy = {
        "tokens": [" 7", "."],
        "token_logprobs": [-0.2, -0.01],
        "top_logprobs": [{" 7": -0.2, " 3": -1.9}, {".": -0.01}],
    }
    out = completion_from_response({"choices": [{"text": " 7.", "logprobs": legacy}]})
    assert out.logprobs_content[0]["token"] == " 7"
    assert out.logprobs_content[0]["top_logprobs"][1] == {"token": " 3", "logprob": -1.9}
