"""Prompt languages against the real embedded models: how each bundled tokenizer splits the
digits of each script, every language's answer grammar, expected values from real
log-probabilities (a byte-level tokenizer's split digits included), a survey in three languages.
"""

import json
import math
import re

import numpy as np
import pytest
import requests

from geobias.core.engine.cache import SurveyCache
from geobias.core.engine.chat import ChatClient, server_endpoint
from geobias.core.geo.gazetteer import Gazetteer
from geobias.core.runtime import models
from geobias.core.runtime.embedded import EmbeddedServer
from geobias.core.survey.language_runs import estimate_languages, run_survey_languages
from geobias.core.survey.languages import get_language, language_from_dict, load_languages
from geobias.core.survey.numerals import SCRIPTS, digit_value
from geobias.core.survey.ratings import _alternatives, _script_digit_expectation, rate_completion
from geobias.core.survey.run import SurveySpec

pytestmark = pytest.mark.integration

LAGOS = (3.38, 6.52)
LOG: list = []  # what the models answered, printed at the end (pytest -s) for the docs


@pytest.fixture(scope="module", autouse=True)
def _print_log():
    yield
    for row in LOG:
        print("languages:", row)


@pytest.fixture(scope="module")
def smollm():
    with EmbeddedServer(models.model_path("smollm2-135m"), parallel=1) as server:
        yield server


def tokens(server, text):
    r = requests.post(server.base_url[:-3] + "/tokenize", timeout=10,
                      json={"content": text, "with_pieces": True})  # fmt: skip
    return r.json()["tokens"]


def digit_tokens(server):
    """Per script, the token ids of each of its ten digits written alone."""
    return {s: [[t["id"] for t in tokens(server, d)] for d in digits]
            for s, digits in SCRIPTS.items()}  # fmt: skip


def test_gemma_has_one_token_per_digit_in_every_script(embedded_server):
    ids = digit_tokens(embedded_server)
    for script, per_digit in ids.items():
        assert all(len(t) == 1 for t in per_digit), script
        assert len({t[0] for t in per_digit}) == 10, script  # ten distinct tokens
    assert len({t[0] for per in ids.values() for t in per}) == 50  # no token shared by scripts


def test_smollm2_splits_other_scripts_into_bytes(smollm):
    ids = digit_tokens(smollm)
    assert all(len(t) == 1 for t in ids["latin"])
    for script in ("arabic-indic", "extended-arabic-indic", "devanagari", "fullwidth"):
        per = ids[script]
        assert all(len(t) == 2 for t in per), script
        assert len({t[0] for t in per}) == 1, script  # one lead token for all ten digits
        assert len({t[1] for t in per}) == 10, script  # the second token tells them apart


def ask(server, lang, topic="Infant Mortality Rate"):
    """A paper prompt about Lagos in `lang`, through the endpoint's own answer mode with the
    language's grammar; the completion and its rating."""
    prompt = lang.build_prompts([LAGOS[0]], [LAGOS[1]], topic, Gazetteer.load())[0]
    client = ChatClient(server_endpoint(server))
    body = client.request_body(prompt, lang)
    assert body["grammar"] == lang.gbnf
    out = client.post(body)
    client.close()
    return out, rate_completion(out.text, out.logprobs_content, lang.parser)


def digits_offered(lang, content, nth=0):
    """The digit values among the top alternatives at the entry of the rating's nth digit (any
    script; byte-level alternatives read with their lead bytes, as ratings.py reads them)."""
    entries = [e for e in content if any(ch in lang.digits for ch in e["token"] or "")]
    found = []
    for text, _lp in _alternatives(entries[nth]):
        d = [digit_value(ch) for ch in text.strip()]
        if len(d) >= 1 and d[0] is not None:
            found.append(d[0])
    return found


@pytest.mark.parametrize("code", sorted(load_languages()))
def test_every_language_answers_through_its_grammar(embedded_server, code):
    lang = get_language(code)
    out, r = ask(embedded_server, lang)
    assert re.fullmatch(lang.regex, out.text), out.text
    assert r.answered and 0.0 <= r.rating <= 9.9
    # top_logprobs are the model's own distribution, before the grammar: the expected value
    # exists when the model itself put a digit among its top alternatives at the rating
    offered = digits_offered(lang, out.logprobs_content)
    assert (r.expected is not None) == bool(offered), (out.text, offered)
    if offered:
        assert min(offered) <= r.expected <= max(offered)
    LOG.append((code, out.text, r.expected, sorted(set(offered))))


def devanagari_hindi():
    """Hindi written with Devanagari digits (a user's file could say so)."""
    data = json.loads(
        get_language("hi").path and open(get_language("hi").path, encoding="utf-8").read()
    )
    data["code"] = "hi-deva"
    data["numbers"]["digits"] = "devanagari"
    data["prompt"]["question"] = (
        data["prompt"]["question"].replace("0.0", "०.०").replace("9.9", "९.९")
    )
    data["prompt"]["scale"] = data["prompt"]["scale"].replace("0.0", "०.०").replace("9.9", "९.९")
    return language_from_dict(data, "hi-deva.json")


@pytest.mark.parametrize("code", ["ar", "hi-deva"])
def test_byte_level_digits_still_give_an_expected_value(smollm, code):
    lang = get_language(code) if code == "ar" else devanagari_hindi()
    out, r = ask(smollm, lang)
    assert re.fullmatch(lang.regex, out.text), out.text
    # llama.cpp joins the digit's byte tokens into one entry; its alternatives are the last
    # bytes alone (U+FFFD), which ratings.py reads with the entry's lead bytes in front
    digit = next(e for e in out.logprobs_content if e["token"] and e["token"][0] in lang.digits)
    assert len(digit["bytes"]) >= 2
    assert any(a["token"] == "\ufffd" and 0x80 <= a["bytes"][0] <= 0xBF
               for a in digit["top_logprobs"])  # fmt: skip
    assert r.answered
    # at the second digit (the model sure a digit comes) the continuation bytes read with the
    # entry's lead bytes are digits: E[second digit] by hand equals what ratings.py computes
    entry = [e for e in out.logprobs_content if any(ch in lang.digits for ch in e["token"])][1]
    lead = bytes(entry["bytes"][:-1])  # the digit's last byte is its own token (see above)
    total = weighted = 0.0
    for a in entry["top_logprobs"]:
        try:
            d = digit_value((lead + bytes(a["bytes"])).decode("utf-8").strip())
        except UnicodeDecodeError:
            continue
        if d is not None:
            total += math.exp(a["logprob"])
            weighted += d * math.exp(a["logprob"])
    assert total > 0
    assert _script_digit_expectation(entry, second=True) == pytest.approx(weighted / total)
    second = digits_offered(lang, out.logprobs_content, nth=1)
    first = digits_offered(lang, out.logprobs_content)
    assert (r.expected is not None) == bool(first)
    LOG.append((code, out.text, r.expected, sorted(set(first)), sorted(set(second))))


def test_a_survey_in_three_languages(embedded_server, tmp_path):
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    gaz = Gazetteer.load()
    lon, lat = np.array([LAGOS[0], 2.35, 139.69]), np.array([LAGOS[1], 48.86, 35.69])
    spec = SurveySpec(lon, lat, ["Population Density"], [server_endpoint(embedded_server)])
    est = estimate_languages(spec, ["en", "fr", "ar"], gaz, cache)
    assert (est.n_requests, est.n_total) == (9, 9)
    seen = []
    answers = run_survey_languages(spec, ["en", "fr", "ar"], gaz, cache, progress=seen.append)
    assert [a.language for a in answers] == ["en"] * 3 + ["fr"] * 3 + ["ar"] * 3
    assert {a.topic for a in answers} == {"Population Density"}  # the topic's one name
    assert "Densité de population" in answers[3].prompt and "٫" in answers[6].prompt
    assert all(a.rating.answered and a.rating.expected is not None for a in answers)
    assert seen[-1].done == seen[-1].total == 9
    # English asks what a survey without a language asks: the same cache entries
    from geobias.core.survey.run import run_survey

    spec = SurveySpec(lon, lat, ["Population Density"], [server_endpoint(embedded_server)])
    plain = run_survey(spec, gaz, cache)
    assert [a.prompt for a in plain] == [a.prompt for a in answers[:3]]
    assert estimate_languages(spec, ["en", "fr", "ar"], gaz, cache).n_requests == 0
