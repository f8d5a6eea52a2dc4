"""The Anthropic and Mistral presets against local servers behaving as those providers document
(test/chatproviders.py; issue 31 item 5)."""

import pytest

from geobias.core.engine.cache import SurveyCache
from geobias.core.engine.chat import PROVIDERS, ChatClient, Endpoint, EndpointError
from geobias.core.survey.ratings import rate_completion
from geobias.core.survey.run import run_requests
from geobias.test.chatproviders import AnthropicCompatServer, MistralServer

PROMPTS = [f"How safe is place number {i}? My answer is" for i in range(12)]


def test_the_presets_name_the_documented_urls_and_no_logprobs():
    assert PROVIDERS["anthropic"]["base_url"] == "https://api.anthropic.com/v1"
    assert PROVIDERS["mistral"]["base_url"] == "https://api.mistral.ai/v1"
    for name in ("anthropic", "mistral"):
        ep = Endpoint.from_provider(name, "m")
        body = ChatClient(ep).request_body("p")
        assert "logprobs" not in body and "top_logprobs" not in body and "seed" not in body


@pytest.mark.parametrize("server, provider", [(AnthropicCompatServer, "anthropic"),
                                              (MistralServer, "mistral")])  # fmt: skip
def test_a_preset_survey_is_answered_with_greedy_ratings(tmp_path, server, provider):
    with server() as srv:
        ep = Endpoint.from_provider(provider, "m", base_url=srv.base_url, api_key="sk-test")
        res = run_requests(PROMPTS, ep, SurveyCache(str(tmp_path / "c.sqlite")))
    assert set(srv.statuses) == {200} and len(srv.bodies) == len(PROMPTS)
    ratings = [rate_completion(r.completion.text, r.completion.logprobs_content) for r in res]
    assert all(r.answered and r.rating is not None for r in ratings)
    assert all(r.expected is None for r in ratings)  # greedy: no log-probabilities came back


def test_a_custom_url_at_mistral_drops_the_logprobs_it_refuses(tmp_path):
    with MistralServer() as srv:
        ep = Endpoint(srv.base_url, "m", api_key="sk-test", concurrency=1)
        client = ChatClient(ep)
        res = run_requests(PROMPTS, ep, SurveyCache(str(tmp_path / "c.sqlite")), client=client)
    assert all(r.completion is not None for r in res)
    assert srv.statuses[0] == 422 and srv.statuses.count(422) == 1  # refused once, then dropped
    assert client.logprobs_supported is False
    assert all("logprobs" not in b for b in srv.bodies[1:])


def test_a_field_mistral_refuses_stops_the_run_naming_it(tmp_path):
    with MistralServer() as srv:
        ep = Endpoint(srv.base_url, "o3", api_key="sk-test", logprobs=False)  # a reasoning name
        with pytest.raises(EndpointError, match="max_completion_tokens"):
            run_requests(PROMPTS, ep, SurveyCache(str(tmp_path / "c.sqlite")))
    assert len(srv.bodies) <= 2 * ep.concurrency  # stopped at once, not retried per prompt
