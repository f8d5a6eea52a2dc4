"""The sampled score: k answers at temperature 1, each under its draw index, scored by the mean
first digit and its standard error (issue 31 item 4)."""

import math

import numpy as np
import pytest

from geobias.core.engine.cache import SurveyCache
from geobias.core.engine.chat import ChatClient, Endpoint
from geobias.core.geo.gazetteer import Gazetteer
from geobias.core.survey.run import RunStats, SurveySpec
from geobias.core.survey.sampled import (
    draw_endpoint,
    estimate_sampled,
    first_digit,
    run_sampled,
    sampled_score,
)
from geobias.test.faultserver import FaultServer, prompt_rating


def test_first_digit_is_the_quantity_the_logprob_score_averages():
    assert [first_digit(r) for r in (0.0, 4.5, 9.9, 10.0, None, float("nan"))] == [
        0, 4, 9, 9, None, None]  # fmt: skip


def test_mean_and_standard_error_over_the_rated_draws():
    s = sampled_score([4.5, 5.2, 5.9, None])
    assert s.n == 3 and s.k == 4 and s.mean == pytest.approx(14 / 3)
    assert s.se == pytest.approx(np.std([4, 5, 5], ddof=1) / math.sqrt(3))
    assert sampled_score([None, None]).mean is None
    assert sampled_score([7.1]).se is None  # one draw: no spread to measure


def test_each_draw_is_its_own_seeded_request_and_cache_entry(tmp_path):
    gazetteer = Gazetteer.load()
    lon, lat = np.array([2.35, 13.4, -74.0]), np.array([48.86, 52.5, 40.7])
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    with FaultServer() as fs:
        ep = Endpoint(fs.base_url, "m", logprobs=True)
        spec = SurveySpec(lon, lat, ["Infant Mortality Rate"], [ep])
        assert estimate_sampled(spec, gazetteer, cache, 4).n_requests == 12
        answers, scores = run_sampled(spec, gazetteer, cache, 4)
        sent = fs.n_requests
        bodies = list(fs.requests_by_body)
        again, scores_again = run_sampled(spec, gazetteer, cache, 4)  # all from the cache
        assert fs.n_requests == sent == 12
    assert estimate_sampled(spec, gazetteer, cache, 4).n_requests == 0
    assert estimate_sampled(spec, gazetteer, cache, 5).n_requests == 3  # one more draw each
    assert len(answers) == len(scores) == 3 and scores == scores_again
    # The fake model answers a prompt the same at any temperature: no spread, the digit itself.
    for a, s in zip(answers, scores):
        assert s.n == 4 and s.se == 0 and s.mean == first_digit(prompt_rating(a.prompt))
    assert len(bodies) == 12  # 3 prompts x 4 seeds, all distinct bodies


def test_the_draws_ask_at_temperature_one_with_a_seed_where_taken():
    body = ChatClient(draw_endpoint(Endpoint("http://h/v1", "m", logprobs=True), 3)).request_body
    sent = body("p")
    assert sent["temperature"] == 1.0 and sent["seed"] == 3 and "logprobs" not in sent
    mistral = Endpoint.from_provider("mistral", "m")
    assert ChatClient(draw_endpoint(mistral, 2)).request_body("p")["random_seed"] == 2
    claude = Endpoint.from_provider("anthropic", "m")
    assert "seed" not in ChatClient(draw_endpoint(claude, 2)).request_body("p")


def test_an_endpoint_that_returns_n_choices_answers_all_draws_in_one_request(tmp_path):
    gazetteer = Gazetteer.load()
    lon, lat = np.array([2.35, 13.4, -74.0]), np.array([48.86, 52.5, 40.7])
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    with FaultServer(honour_n=True) as fs:
        ep = Endpoint(fs.base_url, "m", logprobs=True)
        spec = SurveySpec(lon, lat, ["Infant Mortality Rate"], [ep])
        est = estimate_sampled(spec, gazetteer, cache, 4, choices=True)
        per_draw = estimate_sampled(spec, gazetteer, cache, 4)
        assert est.n_requests == 3 and per_draw.n_requests == 12
        assert est.prompt_tokens * 4 == pytest.approx(per_draw.prompt_tokens, abs=4)
        stats = RunStats()
        answers, scores = run_sampled(spec, gazetteer, cache, 4, stats=stats, choices=True)
        assert fs.n_requests == 3 and stats.n_requests == 3 and stats.n_cached == 0
        assert fs.n_asked == {4: 3}
        # Choice d is draw d: the fake model rates choice j of a prompt j higher (mod 10).
        for a, s in zip(answers, scores):
            digits = [first_digit((prompt_rating(a.prompt) + j) % 10) for j in range(4)]
            assert s.n == 4 and s.mean == pytest.approx(sum(digits) / 4)
        # The draws are the cache entries a per-draw run reads: nothing more is sent.
        again, scores_again = run_sampled(spec, gazetteer, cache, 4)
        assert fs.n_requests == 3 and scores_again == scores
        assert estimate_sampled(spec, gazetteer, cache, 4, choices=True).n_requests == 0
        # A fifth draw is asked alone, per prompt (the four are cached).
        run_sampled(spec, gazetteer, cache, 5, choices=True)
        assert fs.n_requests == 6


def test_an_endpoint_that_ignores_n_leaves_the_other_draws_to_their_own_requests(tmp_path):
    gazetteer = Gazetteer.load()
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    with FaultServer() as fs:  # n ignored: one choice back, as Anthropic's layer does
        ep = Endpoint(fs.base_url, "m", logprobs=True)
        spec = SurveySpec(np.array([2.35, 13.4]), np.array([48.86, 52.5]),
                          ["Infant Mortality Rate"], [ep])  # fmt: skip
        answers, scores = run_sampled(spec, gazetteer, cache, 3, choices=True)
        assert fs.n_requests == 2 + 2 * 2  # one n = 3 request each, then draws 1 and 2
    assert [s.n for s in scores] == [3, 3]
