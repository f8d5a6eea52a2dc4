"""The embedded model is deterministic (issue 33 item 1): the same survey from two empty caches,
the second on the same warm server, gives bit-identical log-probabilities, expected values,
greedy ratings and metrics at concurrency 2.

Two slots decoded together and a prompt resumed from another prompt's cached prefix change the
batch llama.cpp computes a token in, and its logits are not bit-identical across batch sizes:
on two slots with prompt-cache reuse the same survey differed in a fifth of its expected values.
"""

import os

import numpy as np
import pytest
import requests

from geobias.core.engine.cache import SurveyCache
from geobias.core.engine.chat import ChatClient, server_endpoint, with_constraint
from geobias.core.runtime.embedded import EmbeddedServer
from geobias.core.stats.metrics import bias_score, gini, mad, spearman
from geobias.core.survey.prompts import make_template
from geobias.core.survey.run import SurveySpec, run_survey

pytestmark = pytest.mark.integration

N = 80
# A short prompt (the paper's is ~350 tokens) keeps 2 x 80 requests within the suite's budget;
# the prefix every prompt shares is what the server's prompt cache would reuse.
TEMPLATE = make_template(
    "repro", "Rate places on a scale from 0.0 to 9.9. ",
    "Coordinates: ({lat:.3f}, {lon:.3f}). {topic}:",
)  # fmt: skip


def points(n=N, seed=33):
    rng = np.random.default_rng(seed)
    return rng.uniform(-180, 180, n), np.degrees(np.arcsin(rng.uniform(-1, 1, n)))


@pytest.fixture(scope="module")
def deterministic_server():
    with EmbeddedServer(parallel=2, deterministic=True) as server:
        yield server


def survey(server, path):
    """One survey of N points at concurrency 2 from an empty cache: answers, raw responses."""
    lon, lat = points()
    ep = with_constraint(server_endpoint(server, concurrency=2), "auto")
    spec = SurveySpec(lon, lat, ["Attractiveness"], [ep], TEMPLATE)
    cache = SurveyCache(path)
    answers = run_survey(spec, None, cache)
    client = ChatClient(ep)
    raw = [cache.get(cache.key(ep, client.request_body(a.prompt))) for a in answers]
    return answers, raw


def metrics(answers):
    _, lat = points()
    e = np.array([np.nan if a.rating.expected is None else a.rating.expected for a in answers])
    ok = ~np.isnan(e)
    rho = spearman(e[ok], np.abs(lat[ok]), n_boot=200)
    rate = ok.mean()
    return (rho.rho, rho.p, rho.lo, rho.hi, mad(e[ok]), gini(e[ok]),
            bias_score(rho.rho, mad(e[ok]), rate))  # fmt: skip


def test_same_survey_twice_from_empty_caches_is_bit_identical(deterministic_server, tmp_path):
    assert not os.path.exists(tmp_path / "a.sqlite")
    first, raw1 = survey(deterministic_server, str(tmp_path / "a.sqlite"))
    second, raw2 = survey(deterministic_server, str(tmp_path / "b.sqlite"))  # warm server
    assert len(first) == len(second) == N
    assert sum(a.rating.expected is not None for a in first) >= N // 2  # real answers
    assert all(r is not None for r in raw1 + raw2)  # every answer was asked, not failed
    logprobs1 = [r["choices"][0]["logprobs"] for r in raw1]
    logprobs2 = [r["choices"][0]["logprobs"] for r in raw2]
    differ = [i for i in range(N) if logprobs1[i] != logprobs2[i]]
    assert differ == [], f"{len(differ)} of {N} log-probabilities differ"
    assert [a.rating.expected for a in first] == [a.rating.expected for a in second]
    assert [a.rating.rating for a in first] == [a.rating.rating for a in second]
    assert [a.completion for a in first] == [a.completion for a in second]
    assert metrics(first) == metrics(second)


def test_the_deterministic_server_has_one_slot(deterministic_server):
    slots = requests.get(deterministic_server.base_url[:-3] + "/slots", timeout=30).json()
    assert len(slots) == 1
