"""What an endpoint can do, probed or read from answers (issue 31 item 3), against the fault
server (OpenAI-like, log-probabilities) and the Anthropic and Mistral stand-ins."""

import json

from geobias.core.engine.capabilities import PROBE_REQUESTS, observed, probe
from geobias.core.engine.chat import Endpoint
from geobias.test.chatproviders import AnthropicCompatServer, MistralServer
from geobias.test.faultserver import FaultServer, chat_response

PROMPT = "How high is infant mortality at 48.86, 2.35? My answer is"


def test_an_openai_like_server_shows_logprobs_and_takes_a_seed():
    with FaultServer() as fs:
        caps = probe(Endpoint(fs.base_url, "m"), PROMPT)
        assert fs.n_requests == PROBE_REQUESTS - 1  # log-probabilities taken: no second try
    assert caps.logprobs is True and caps.top_logprobs == 2  # the fake's digit alternatives
    assert caps.choices_for_n2 == 1 and caps.seed is True and caps.rejected == []


def test_anthropic_gives_no_logprobs_and_refuses_n2():
    with AnthropicCompatServer() as srv:
        ep = Endpoint.from_provider("anthropic", "m", base_url=srv.base_url, api_key="sk-test")
        caps = probe(ep, PROMPT)
    assert caps.logprobs is False and caps.top_logprobs is None
    assert caps.rejected == ["n"] and caps.choices_for_n2 == 1
    assert caps.seed is True  # ignored, not refused
    assert "logprobs" in srv.bodies[0]  # asked, and the answer had none


def test_mistral_refuses_logprobs_and_takes_random_seed_and_n2():
    with MistralServer() as srv:
        ep = Endpoint.from_provider("mistral", "m", base_url=srv.base_url, api_key="sk-test")
        caps = probe(ep, PROMPT)
    assert srv.statuses[0] == 422 and caps.rejected == ["logprobs"]
    assert len(srv.bodies) == PROBE_REQUESTS  # the first body again without logprobs
    assert caps.logprobs is False and caps.choices_for_n2 == 2 and caps.seed is True
    assert any("random_seed" in b for b in srv.bodies)


def test_observed_reads_the_answers_a_run_has():
    with_lp = dict(chat_response("p", True), system_fingerprint="fp_44709d6fcb")
    caps = observed([with_lp, chat_response("q", False)])
    assert caps.logprobs is True and caps.top_logprobs == 2
    assert caps.system_fingerprint == "fp_44709d6fcb"
    assert json.loads(caps.as_json())["system_fingerprint"] == "fp_44709d6fcb"
    assert observed([chat_response("p", False)]).logprobs is False
    assert observed([]).logprobs is None
