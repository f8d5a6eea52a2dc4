"""The pairwise survey (issue 36 item 2): both orders of a connected design asked through the
engine, choices read, Bradley–Terry strengths that recover the order the fake model follows."""

import numpy as np
import pytest

from geobias.core.engine.cache import SurveyCache
from geobias.core.engine.chat import ChatClient, Endpoint
from geobias.core.geo.gazetteer import Gazetteer
from geobias.core.survey.pairwise import (
    PairFormat,
    choice_probability,
    pair_prompts,
    read_choice,
    run_pairwise,
    strength_to_scale,
)
from geobias.core.survey.run import RunStats
from geobias.test.faultserver import FaultServer
from geobias.test.faultserver import northern_choice as northern


@pytest.mark.parametrize("text, want", [
    ("A", 0), ("B", 1), (" b.", 1), ("Answer: A", 0), ("(B)", 1), ("Location A", 0),
    ("A or B", None), ("", None), (None, None), ("My answer is 4.5.", None), ("Both", None),
])  # fmt: skip
def test_a_choice_is_one_letter(text, want):
    assert read_choice(text) == want


def test_both_orders_of_each_pair():
    prompts, first, second = pair_prompts(["P0", "P1", "P2"], [(0, 1), (1, 2)], "Wealth")
    assert list(first) == [0, 1, 1, 2] and list(second) == [1, 0, 2, 1]
    assert "Location A: P1\nLocation B: P0" in prompts[1] and "higher Wealth" in prompts[0]


def test_a_constrained_endpoint_is_held_to_a_letter():
    ep = Endpoint("http://h/v1", "m", constraint="grammar")
    assert ChatClient(ep).request_body("p", PairFormat())["grammar"] == 'root ::= "A" | "B"'


def test_strengths_follow_the_models_choices_and_the_order_effect_is_measured(tmp_path):
    rng = np.random.default_rng(3)
    lon, lat = rng.uniform(-10, 30, 24), rng.uniform(-40, 60, 24)
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    with FaultServer(answer=northern) as fs:
        ep = Endpoint(fs.base_url, "m", logprobs=False)  # greedy choices
        stats = RunStats()
        res = run_pairwise(lon, lat, "Latitude", ep, cache, Gazetteer.load(), opponents=6,
                           stats=stats)  # fmt: skip
        sent = fs.n_requests
        again = run_pairwise(lon, lat, "Latitude", ep, cache, Gazetteer.load(), opponents=6)
        assert fs.n_requests == sent  # all from the cache
    assert sent == len(res.prompts) == stats.n_requests and res.n_unanswered == 0
    assert np.array_equal(again.fit.strength, res.fit.strength)
    assert res.comparisons.min() >= 2 * 6  # both orders of at least six opponents each
    rho = np.corrcoef(np.argsort(np.argsort(res.fit.strength)), np.argsort(np.argsort(lat)))[0, 1]
    assert rho > 0.9
    assert res.fit.order_effect > 2 * res.fit.order_se  # the leaning to A is found
    scaled = strength_to_scale(res.fit.strength)
    assert scaled.min() > 0 and scaled.max() < 9
    assert np.array_equal(np.argsort(scaled), np.argsort(res.fit.strength))


def test_the_probability_of_a_letter_comes_from_its_log_probabilities():
    def entry(*alts):
        return {"token": alts[0][0], "logprob": alts[0][1],
                "top_logprobs": [{"token": t, "logprob": lp} for t, lp in alts]}  # fmt: skip

    assert choice_probability([entry(("A", np.log(0.6)), (" B", np.log(0.2)))]) == pytest.approx(
        0.75
    )
    assert choice_probability([entry((" ", -0.1)), entry(("B", np.log(0.9)))]) == pytest.approx(0.0)
    assert choice_probability([entry(("The", -0.1), ("A", -3.0))]) == pytest.approx(1.0)
    assert choice_probability([entry(("Both", -0.1))]) is None
    assert choice_probability(None) is None


def test_with_log_probabilities_the_fit_uses_the_probability_of_the_first(tmp_path):
    rng = np.random.default_rng(6)
    lon, lat = rng.uniform(-10, 30, 12), rng.uniform(-40, 60, 12)
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    with FaultServer(answer=northern) as fs:
        res = run_pairwise(lon, lat, "Latitude", Endpoint(fs.base_url, "m", logprobs=True),
                           cache, Gazetteer.load(), opponents=11)  # fmt: skip
        greedy = run_pairwise(lon, lat, "Latitude", Endpoint(fs.base_url, "m", logprobs=False),
                              SurveyCache(str(tmp_path / "g.sqlite")), Gazetteer.load(),
                              opponents=11)  # fmt: skip
    assert res.kind == "probability" and greedy.kind == "greedy"
    assert set(np.round(res.p_first, 6)) == {0.7, 0.3} and np.isnan(greedy.p_first).all()
    # The fake model is sure at 0.7 only: strengths closer together than from hard choices.
    assert np.ptp(res.fit.strength) < np.ptp(greedy.fit.strength)
    rho = np.corrcoef(np.argsort(np.argsort(res.fit.strength)), np.argsort(np.argsort(lat)))[0, 1]
    assert rho > 0.9


def test_unreadable_answers_are_left_out_of_the_fit(tmp_path):
    rng = np.random.default_rng(4)
    lon, lat = rng.uniform(0, 20, 6), rng.uniform(0, 50, 6)
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    with FaultServer(answer=lambda p: "A or B" if "Location A" in p and hash(p) % 3 == 0
                     else northern(p)) as fs:  # fmt: skip
        res = run_pairwise(lon, lat, "Latitude", Endpoint(fs.base_url, "m"), cache,
                           Gazetteer.load(), opponents=5)  # fmt: skip
    assert 0 < res.n_unanswered < len(res.prompts)
    assert int(res.comparisons.sum()) == 2 * (len(res.prompts) - res.n_unanswered)
    assert res.fit is not None and res.fit.n_comparisons == len(res.prompts) - res.n_unanswered
