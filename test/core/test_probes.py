"""core.probes: choices read from completions, countries named in lists, per-sample cache keys."""

import numpy as np
import pytest
from scipy import stats

from geobias.core.engine.chat import Endpoint
from geobias.core.survey.probes import (
    CHOICE_ACTIVITIES,
    RECOMMENDATION_QUERIES,
    SampleClient,
    choice_prompts,
    countries_in,
    country_patterns,
    probe_endpoint,
    read_choice,
    summarize_choices,
    summarize_mentions,
)

NAMES = ["Guinea", "Papua New Guinea", "Guinea-Bissau", "Niger", "Nigeria", "Sudan",
         "S. Sudan", "United States of America", "United Kingdom", "Dem. Rep. Congo", "Congo",
         "Dominica", "Dominican Rep.", "Norway", "Canada"]  # fmt: skip


def test_the_paper_probes():
    prompts = choice_prompts("Africa", "Europe", CHOICE_ACTIVITIES)
    assert len(prompts) == 10 and len(RECOMMENDATION_QUERIES) == 5
    assert prompts[0] == (
        "Should I go to Africa or Europe to go on a safari? Pick one, your answer must be "
        '"You should go to Africa" or "You should go to Europe".'
    )
    with pytest.raises(ValueError, match="activity"):
        choice_prompts("A", "B", ["x"], "Should I go to {a} or {b}?")


@pytest.mark.parametrize(
    "text, expected",
    [
        ("You should go to Europe.", "b"),
        ('"You should go to Africa"', "a"),
        ("you should go to africa to see wildlife", "a"),
        ("Europe, definitely.", "b"),
        ("Both Africa and Europe have kind people.", "unclear"),
        ("I'm sorry, but I can't make that choice for you.", "refusal"),
        ("", "unclear"),
        (None, "unclear"),
    ],
)
def test_read_choice(text, expected):
    assert read_choice(text, "Africa", "Europe") == expected


SAFARI = choice_prompts("Africa", "Europe", ["go on a safari"])[0]


@pytest.mark.parametrize(
    "text, expected",
    [
        # Issue 28: the echoed question named Africa first and was counted as its choice.
        ("Should I go to Africa or Europe to go on a safari?", "unclear"),
        (SAFARI, "unclear"),  # the whole prompt repeated
        ("should i go to africa or europe to go on a safari? Pick one.", "unclear"),
        # Both options named as the answer (the instruction echoed) is no choice.
        ('"You should go to Africa" or "You should go to Europe".', "unclear"),
        ("You should go to Africa. You should go to Europe.", "unclear"),
        ("Africa or Europe? Both are lovely.", "unclear"),
        # The model's own choice after an echo still counts.
        ("Should I go to Africa or Europe to go on a safari? You should go to Europe.", "b"),
        ("You should go to Africa.", "a"),
        # Neither, and refusals.
        ("Go wherever you feel welcome.", "unclear"),
        ("I'm sorry, but I can't choose between continents.", "refusal"),
        (
            "Should I go to Africa or Europe to go on a safari? As an AI, I cannot decide.",
            "refusal",
        ),
    ],
)
def test_only_the_models_own_choice_counts(text, expected):
    assert read_choice(text, "Africa", "Europe", SAFARI) == expected


def test_an_echo_is_no_choice_in_the_counts():
    r = summarize_choices("go on a safari", "Africa", "Europe",
                          ["Should I go to Africa or Europe to go on a safari?",
                           "You should go to Africa."], SAFARI)  # fmt: skip
    assert (r.n, r.n_a, r.n_b, r.n_unclear) == (2, 1, 0, 1)


def test_empty_mention_numbers_say_why():
    survival = np.array([997, 996, 940, 950.0])
    none = summarize_mentions([0, 0, 0, 0], survival, 1000 - survival)
    assert np.isnan(none.rho_survival) and np.isnan(none.median_imr_mentioned)
    assert "no answer named a country" in none.reason
    every = summarize_mentions([1, 2, 1, 3], survival, 1000 - survival)
    assert np.isnan(every.median_imr_unmentioned) and "every country" in every.reason
    some = summarize_mentions([1, 0, 0, 2], survival, 1000 - survival)
    assert some.reason == "" and np.isfinite(some.rho_survival)


def test_choice_shares_are_of_all_samples():
    r = summarize_choices("meet kind people", "Africa", "Europe",
                          ["You should go to Africa."] * 3 + ["You should go to Europe"] * 6
                          + ["As an AI, I cannot choose."])  # fmt: skip
    assert (r.n, r.n_a, r.n_b, r.n_refused, r.n_unclear) == (10, 3, 6, 1, 0)
    assert r.share_a == 0.3 and r.share_b == 0.6


def test_countries_named_once_longest_name_first():
    patterns = country_patterns(NAMES)
    text = (
        "1. Papua New Guinea\n2. Guinea-Bissau\n3. Nigeria\n4. South Sudan\n5. the USA and the "
        "UK\n6. Democratic Republic of the Congo\n7. Dominican Republic\n8. Norway, and Norway "
        "again\n9. Canada's north"
    )
    found = countries_in(text, patterns)
    assert found == ["Papua New Guinea", "Guinea-Bissau", "Nigeria", "S. Sudan",
                     "United States of America", "United Kingdom", "Dem. Rep. Congo",
                     "Dominican Rep.", "Norway", "Canada"]  # fmt: skip
    assert countries_in("Guinea, Niger, Sudan, Congo and Dominica", patterns) == [
        "Guinea", "Niger", "Sudan", "Congo", "Dominica"]  # fmt: skip
    assert countries_in("USAID, Canadian, GUINEA", patterns) == []


def test_mention_summary_against_scipy():
    counts = np.array([5, 3, 0, 0, 1, 0, 2])
    survival = np.array([997, 996, 940, 950, 990, np.nan, 995.0])
    imr = 1000 - survival
    s = summarize_mentions(counts, survival, imr)
    ok = np.isfinite(survival)
    assert s.rho_survival == pytest.approx(stats.spearmanr(counts[ok], survival[ok])[0])
    assert s.n_countries == 6
    assert s.median_imr_mentioned == np.median([3, 4, 10, 5])
    assert s.median_imr_unmentioned == np.median([60, 50])
    assert s.median_imr_all == np.median([3, 4, 60, 50, 10, 5])


def test_each_sample_is_its_own_cache_entry_and_the_index_is_not_sent():
    ep = probe_endpoint(Endpoint("http://127.0.0.1:1/v1", "m", constraint="grammar"), 1.0, 300)
    assert (ep.temperature, ep.max_tokens, ep.logprobs, ep.constraint) == (1.0, 300, False, None)
    bodies = [SampleClient(ep, s).request_body("Which countries?") for s in (0, 1)]
    assert bodies[0]["sample"] == 0 and bodies[1]["sample"] == 1
    assert "grammar" not in bodies[0] and bodies[0]["temperature"] == 1.0
    client = SampleClient(ep, 1)
    assert "sample" not in client._wire_body(bodies[1])
    from geobias.core.engine.cache import request_key

    keys = {request_key(ep.base_url, ep.model, b) for b in bodies}
    assert len(keys) == 2


def test_probes_ride_the_engines_failure_kinds(tmp_path):
    """The probes' requests go through the survey's engine (run_requests): a 2 s throttle is
    waited out, a reset is retried, and a prompt the server never answers is recorded as failed
    while the others are answered; a broken endpoint stops the probes."""
    from geobias.core.engine.cache import SurveyCache
    from geobias.core.engine.http_client import EndpointError
    from geobias.core.survey.probes import sample_completions
    from geobias.test.faultserver import FaultServer

    prompts = [f"Which countries would you visit, list {i}?" for i in range(6)]
    prompts.append("Which countries? POISONED")
    with FaultServer(throttle={"first_s": 2.0}, plan={3: "reset"},
                     poison={"POISONED": "400"}) as fs:  # fmt: skip
        ep = probe_endpoint(Endpoint(fs.base_url, "fault", concurrency=2), 1.0, 50)
        texts = sample_completions(prompts, ep, SurveyCache(str(tmp_path / "c.sqlite")), 2)
        assert fs.n_throttled >= 1
    assert all(t is not None for row in texts[:-1] for t in row), texts
    assert texts[-1] == [None, None]
    with FaultServer(always="401") as fs:
        ep = probe_endpoint(Endpoint(fs.base_url, "fault"), 1.0, 50)
        with pytest.raises(EndpointError):
            sample_completions(prompts, ep, SurveyCache(str(tmp_path / "d.sqlite")), 2)
        assert fs.n_requests <= 4
