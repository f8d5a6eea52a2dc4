"""The size and cost guard (issue 31 item 6): MAX_REQUESTS refuses a run before anything is
sent, MAX_COST stops one counted from the answers' `usage`, the runs row keeps the spend."""

import sqlite3
import time
import uuid

import pytest
from qgis.core import QgsProcessingException

from geobias.test.faultserver import FaultServer


def run(alg, params):
    import processing

    return processing.run(alg, params)


@pytest.fixture()
def points(processing_ready):
    return run("geobias:samplepoints", {"COUNT": 24, "METHOD": 1, "OUTPUT": "memory:"})["OUTPUT"]


def test_a_count_of_a_billion_is_refused_before_sampling_or_sending(processing_ready, tmp_path):
    out = tmp_path / "survey.gpkg"
    with FaultServer() as fs:
        start = time.monotonic()
        with pytest.raises(QgsProcessingException) as info:
            run("geobias:survey", {
                "COUNT": 1_000_000_000, "PROVIDER": 9, "BASE_URL": fs.base_url, "MODEL": "m",
                "TOPICS": "Infant Mortality Rate; Average Attractiveness of Residents",
                "PRICE_INPUT": 2.5, "PRICE_OUTPUT": 10.0, "OUTPUT": str(out),
            })  # fmt: skip
        took = time.monotonic() - start
        assert fs.n_connections == 0  # nothing sent, not even a reachability check
    message = str(info.value)
    assert "2000000000 requests" in message and "MAX_REQUESTS" in message
    assert "50000" in message  # the limit it is above
    cost = float(message.split("estimated cost: ")[1].split(" ")[0])
    # Each request is a prompt of some tens of tokens at 2.5/M and 10 answer tokens at 10/M.
    assert 2e9 * 10 * 10 / 1e6 < cost < 2e9 * (400 * 2.5 + 10 * 10) / 1e6
    assert took < 30  # refused, not sampled first (a billion points would take far longer)
    assert not out.exists()


def test_without_prices_the_cost_is_said_unknown(points, tmp_path):
    with FaultServer() as fs:
        with pytest.raises(QgsProcessingException) as info:
            run("geobias:ratelocations", {
                "INPUT": points, "PROVIDER": 9, "BASE_URL": fs.base_url, "MODEL": "m",
                "TOPICS": "Infant Mortality Rate; Average Attractiveness of Residents",
                "MAX_REQUESTS": 40, "OUTPUT": str(tmp_path / "r.gpkg"),
            })  # fmt: skip
        assert fs.n_requests == 0
    message = str(info.value)
    assert "48 requests (24 points × 2 topic(s) × 1 language(s))" in message
    assert "unknown (no price given" in message and "40 (MAX_REQUESTS)" in message


def test_a_cost_limit_needs_prices(points, tmp_path):
    with pytest.raises(QgsProcessingException, match="MAX_COST.*PRICE_INPUT"):
        run("geobias:ratelocations", {"INPUT": points, "PROVIDER": 9, "MODEL": "m",
                                      "BASE_URL": "http://127.0.0.1:9/v1", "MAX_COST": 1.0,
                                      "OUTPUT": str(tmp_path / "r.gpkg")})  # fmt: skip


def test_max_cost_stops_the_run_and_a_rerun_with_more_continues(points, tmp_path):
    out = tmp_path / "r.gpkg"
    params = {"INPUT": points, "PROVIDER": 9, "MODEL": f"m-{uuid.uuid4().hex[:8]}",
              "CONCURRENCY": 1, "TOPICS": "Infant Mortality Rate",
              "CACHE": str(tmp_path / "cache.sqlite"), "PRICE_INPUT": 1000.0,
              "PRICE_OUTPUT": 1000.0, "OUTPUT": str(out)}  # fmt: skip
    with FaultServer() as fs:
        params["BASE_URL"] = fs.base_url
        # The fake server's usage: len(prompt) // 4 prompt tokens and 8 completion tokens.
        with pytest.raises(QgsProcessingException) as info:
            run("geobias:ratelocations", dict(params, MAX_COST=0.2))
        message = str(info.value)
        assert "MAX_COST" in message and "cached" in message
        sent = fs.n_requests
        assert 1 <= sent < 24  # stopped early, one request in flight at a time
        assert not out.exists()
        res = run("geobias:ratelocations", dict(params, MAX_COST=100.0))
        assert res["N_ANSWERED"] == 24
        assert fs.n_requests == 24  # the stopped run's answers came from the cache
        bodies = list(fs.requests_by_body)
    with sqlite3.connect(out) as con:
        row = con.execute(
            "select n_requests, prompt_tokens, completion_tokens, cost from runs"
        ).fetchone()
    assert row[0] == 24 - sent
    assert row[2] == 8 * (24 - sent)
    assert row[3] == pytest.approx((row[1] + row[2]) * 1000 / 1e6)
    assert row[1] > 0 and len(bodies) == 24


def test_without_prices_the_runs_row_has_tokens_and_no_cost(points, tmp_path):
    out = tmp_path / "r.gpkg"
    with FaultServer() as fs:
        run("geobias:ratelocations", {"INPUT": points, "PROVIDER": 9, "BASE_URL": fs.base_url,
                                      "MODEL": f"m-{uuid.uuid4().hex[:8]}",
                                      "TOPICS": "Infant Mortality Rate",
                                      "CACHE": str(tmp_path / "c.sqlite"),
                                      "OUTPUT": str(out)})  # fmt: skip
    with sqlite3.connect(out) as con:
        row = con.execute("select completion_tokens, cost from runs").fetchone()
    assert row == (8 * 24, None)  # unknown, not free


def test_the_draws_of_a_sampled_score_count_before_sampling(processing_ready, tmp_path):
    with pytest.raises(QgsProcessingException) as info:
        run("geobias:survey", {"COUNT": 5000, "PROVIDER": 11, "BASE_URL": "http://127.0.0.1:9/v1",
                               "MODEL": "m", "TOPICS": "Infant Mortality Rate", "SCORE": 3,
                               "SAMPLES": 20, "OUTPUT": str(tmp_path / "s.gpkg")})  # fmt: skip
    message = str(info.value)
    assert "100000 requests (5000 points × 1 topic(s) × 1 language(s) × 20 draws)" in message
    assert "SAMPLES" in message and "MAX_REQUESTS" in message
