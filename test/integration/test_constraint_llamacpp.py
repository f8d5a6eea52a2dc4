"""Issue 28, item 1 on the real model: the embedded model's llama.cpp server reached as any
llama.cpp server (the llama.cpp preset, not the embedded one) answers in the format, because the
automatic constraint recognises the bundled model and sends the grammar; a changed constraint
asks again."""

import numpy as np
import pytest

from geobias.core.engine.cache import SurveyCache
from geobias.core.engine.chat import Endpoint, with_constraint
from geobias.core.geo.gazetteer import Gazetteer
from geobias.core.survey.run import RunStats, SurveySpec, check_rating, run_survey

pytestmark = pytest.mark.integration


def test_the_bundled_model_behind_a_plain_llamacpp_endpoint_is_constrained(embedded_server,
                                                                          tmp_path):  # fmt: skip
    plain = Endpoint(embedded_server.base_url, embedded_server.model_name, provider="llamacpp",
                     concurrency=embedded_server.parallel, timeout=120.0)  # fmt: skip
    auto = with_constraint(plain)
    assert auto.constraint == "grammar"
    check = check_rating(auto, Gazetteer.load())
    assert check.rating.answered, check.text
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    lon, lat = np.array([2.35, 3.38, 139.69, -77.04]), np.array([48.86, 6.52, 35.69, -12.05])
    free = SurveySpec(lon, lat, ["Infant Mortality Rate"], [with_constraint(plain, "none")])
    first = RunStats()
    run_survey(free, Gazetteer.load(), cache, stats=first)
    assert first.n_requests == 4
    constrained = SurveySpec(lon, lat, ["Infant Mortality Rate"], [auto])
    second = RunStats()
    answers = run_survey(constrained, Gazetteer.load(), cache, stats=second)
    assert second.n_requests == 4 and second.n_cached == 0  # asked again, not the free answers
    assert all(a.rating.answered for a in answers), [a.completion for a in answers]
