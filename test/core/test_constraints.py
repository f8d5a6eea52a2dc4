"""Issue 28, item 1: any endpoint, any model: an answer constraint chosen per endpoint, "auto"
constrains the models known not to follow the format behind any server, a changed constraint
asks again (it is part of the request body, so of the cache key), one real rating prompt tests
a connection."""

import numpy as np
import pytest

from geobias.core.engine.cache import SurveyCache
from geobias.core.engine.chat import (
    CONSTRAINED_MAX_TOKENS,
    ChatClient,
    Endpoint,
    family_constraint,
    resolve_constraint,
    with_constraint,
)
from geobias.core.geo.gazetteer import Gazetteer
from geobias.core.runtime.models import MODELS, recognise
from geobias.core.survey.run import SurveySpec, check_rating, run_survey
from geobias.test.faultserver import PROSE, FaultServer

GEMMA = MODELS["gemma3-270m"]
SMOL = MODELS["smollm2-135m"]


@pytest.mark.parametrize(
    "name, model",
    [
        ("gemma-3-270m-q4_k_m", GEMMA),  # scripts/llm.py's /v1/models id
        ("/models/gemma-3-270m-q4_k_m.gguf", GEMMA),  # llama-server names the file
        ("C:\\models\\SmolLM2-135M-Instruct.Q4_1.gguf", SMOL),
        ("HuggingFaceTB/SmolLM2-135M-Instruct", SMOL),  # vLLM's id
        ("smollm2:135m", SMOL),  # Ollama's tag
        ("gemma3-270m", GEMMA),  # the registry's key
        ("gpt-4o-mini", None),
        ("llama-3-8b-instruct", None),
        ("", None),
    ],
)
def test_bundled_models_are_recognised_behind_any_server(name, model):
    assert recognise(name) is model


@pytest.mark.parametrize(
    "provider, model, expected",
    [
        # The case: the project's own llama.cpp server, llama.cpp preset and custom.
        ("llamacpp", "gemma-3-270m-q4_k_m", "grammar"),
        ("custom", "gemma-3-270m-q4_k_m", "grammar"),
        ("vllm", "HuggingFaceTB/SmolLM2-135M-Instruct", "regex"),
        ("ollama", "smollm2:135m", "json_schema"),
        # A model not known to need it answers freely: a constraint would hide its refusals.
        ("llamacpp", "qwen2.5-7b-instruct", None),
        ("openai", "gpt-4o-mini", None),
    ],
)
def test_auto_constrains_a_known_model_as_its_server_family_takes_it(provider, model, expected):
    ep = with_constraint(Endpoint("http://127.0.0.1:9/v1", model, provider=provider))
    assert ep.constraint == expected
    assert ep.max_tokens == (CONSTRAINED_MAX_TOKENS if expected else 10)
    if expected:
        assert family_constraint(provider) == expected
        body = ChatClient(ep).request_body("p")
        key = {"grammar": "grammar", "regex": "structured_outputs",
               "json_schema": "response_format"}[expected]  # fmt: skip
        assert key in body


def test_an_explicit_choice_wins_and_the_embedded_preset_keeps_its_grammar():
    embedded = Endpoint.from_provider("embedded", GEMMA.name)
    assert with_constraint(embedded, "auto").constraint == "grammar"
    assert with_constraint(embedded, "none").constraint is None
    assert with_constraint(embedded, "regex").constraint == "regex"
    free = Endpoint("http://127.0.0.1:9/v1", "gpt-4o-mini", provider="openai")
    assert with_constraint(free, "json_schema").constraint == "json_schema"
    assert with_constraint(free, None) is free  # None is "auto": nothing to change
    assert resolve_constraint("none", "llamacpp", GEMMA.name) is None
    with pytest.raises(ValueError, match="unknown constraint"):
        resolve_constraint("bnf", "llamacpp", GEMMA.name)


def test_the_constraint_is_part_of_the_cache_key(tmp_path):
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    free = Endpoint("http://127.0.0.1:9/v1", GEMMA.name, provider="llamacpp")
    keys = set()
    for choice in ("none", "grammar", "regex", "guided_regex", "json_schema"):
        ep = with_constraint(free, choice)
        keys.add(cache.key(ep, ChatClient(ep).request_body("the same prompt")))
    assert len(keys) == 5


def test_prose_is_kept_and_a_changed_constraint_asks_again(tmp_path):
    """The issue's survey: a small model behind a plain server answers in prose. The prose is
    cached (for inspection) and a resume with the same settings sends nothing; with the
    constraint every point is asked again and answered."""
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    lon, lat = np.linspace(-5, 20, 10), np.linspace(40, 55, 10)
    with FaultServer(always="prose") as fs:
        free = Endpoint(fs.base_url, GEMMA.name, provider="llamacpp", concurrency=2)
        free = with_constraint(free, "none")
        spec = SurveySpec(lon, lat, ["Infant Mortality Rate"], [free])
        prose = run_survey(spec, Gazetteer.load(), cache)
        assert fs.n_requests == 10
        assert not any(a.rating.answered for a in prose)
        assert {a.completion for a in prose} == {PROSE}
        again = run_survey(spec, Gazetteer.load(), cache)  # Resume: the prose from the cache
        assert fs.n_requests == 10 and {a.completion for a in again} == {PROSE}
        constrained = with_constraint(free, "auto")  # the default for this model: grammar
        assert constrained.constraint == "grammar"
        spec.endpoints = [constrained]
        rated = run_survey(spec, Gazetteer.load(), cache)
        assert fs.n_requests == 20  # asked again
        assert all(a.rating.answered for a in rated)


def test_a_connection_test_sends_one_rating_prompt_and_reads_it():
    with FaultServer(always="prose") as fs:
        free = Endpoint(fs.base_url, GEMMA.name, provider="llamacpp")
        check = check_rating(with_constraint(free, "none"), Gazetteer.load())
        assert fs.n_requests == 1
        assert "Paris" in check.prompt and "Infant Mortality Rate" in check.prompt
        assert check.text == PROSE and not check.rating.answered
        check = check_rating(with_constraint(free), Gazetteer.load())
        assert check.text.startswith("My answer is") and check.rating.answered
