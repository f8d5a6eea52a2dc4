"""What a run spends, counted from the answers' usage, and the cost limit that stops it
(issue 31 item 6)."""

import pytest

from geobias.core.engine.budget import BudgetExceededError, Spend
from geobias.core.engine.cache import SurveyCache
from geobias.core.engine.chat import Endpoint
from geobias.test.faultserver import FaultServer


def test_usage_is_counted_and_an_answer_without_it_at_its_budget():
    spend = Spend(price_in=2.0, price_out=8.0)
    spend.add({"prompt_tokens": 100, "completion_tokens": 10})
    spend.add({"input_tokens": 50, "output_tokens": 5})  # Anthropic's names
    spend.add(None, prompt="x" * 40, budget=24)  # no usage: the most it could cost
    assert spend.completion_tokens == 10 + 5 + 24 and spend.n_estimated == 1
    assert 150 < spend.prompt_tokens < 170
    assert spend.cost == pytest.approx((spend.prompt_tokens * 2 + 39 * 8) / 1e6)
    assert not spend.exceeded()  # no limit


def test_no_limit_without_a_price():
    spend = Spend(max_cost=0.01)
    spend.add({"prompt_tokens": 10**9, "completion_tokens": 10**9})
    assert not spend.priced and not spend.exceeded()


def test_run_requests_stops_at_the_limit_and_keeps_what_arrived(tmp_path):
    from geobias.core.survey.run import run_requests

    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    prompts = [f"prompt number {i} " * 10 for i in range(40)]  # about 50 tokens each
    spend = Spend(price_in=1000.0, price_out=1000.0, max_cost=0.25)
    with FaultServer() as fs:
        ep = Endpoint(fs.base_url, "m", concurrency=1)
        with pytest.raises(BudgetExceededError) as info:
            run_requests(prompts, ep, cache, spend=spend)
        sent = fs.n_requests
    assert info.value.spend is spend and spend.cost >= 0.25
    assert spend.n_answers == sent and 2 <= sent <= 6  # ~0.058 a request: stopped at once
    assert len(SurveyCache(str(tmp_path / "c.sqlite"))) == sent  # what arrived is cached
