"""Batch JSONL export and import: a survey completed by a batch service sends no requests."""

import json

import numpy as np

from geobias.core.batch import export_batch, import_batch
from geobias.core.cache import SurveyCache
from geobias.core.llm import Endpoint
from geobias.core.prompts import make_template
from geobias.core.survey import SurveySpec, estimate, run_survey
from geobias.test.faultserver import FaultServer, chat_response, prompt_rating


def test_export_then_import_completes_the_survey(tmp_path):
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    t = make_template("t", "Rate. ", "({lat:.3f}, {lon:.3f}) {topic}:")
    lon, lat = np.linspace(-5, 5, 12), np.linspace(40, 45, 12)
    with FaultServer() as fs:
        ep = Endpoint(fs.base_url, "gpt-x", api_key="sk-BATCHSECRET", logprobs=True)
        spec = SurveySpec(lon, lat, ["Attractiveness", "Crime Rate"], [ep], t)
        run_survey(SurveySpec(lon[:3], lat[:3], ["Attractiveness"], [ep], t), None, cache)
        assert fs.n_requests == 3
        path = tmp_path / "batch.jsonl"
        assert export_batch(spec, None, cache, str(path)) == 21  # 24 minus 3 already answered
        text = path.read_text()
        assert "sk-BATCHSECRET" not in text
        lines = [json.loads(x) for x in text.splitlines()]
        assert {x["url"] for x in lines} == {"/v1/chat/completions"}
        assert all(x["method"] == "POST" and x["body"]["model"] == "gpt-x" for x in lines)
        assert len({x["custom_id"] for x in lines}) == 21

        # What a batch service returns: one line per request, one of them failed.
        out = tmp_path / "out.jsonl"
        rows = []
        for i, x in enumerate(lines):
            prompt = x["body"]["messages"][0]["content"]
            if i == 0:
                rows.append(
                    {
                        "custom_id": x["custom_id"],
                        "response": None,
                        "error": {"code": "server_error", "message": "boom"},
                    }
                )
            else:
                rows.append(
                    {
                        "custom_id": x["custom_id"],
                        "error": None,
                        "response": {"status_code": 200, "body": chat_response(prompt, True)},
                    }
                )
        out.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
        assert import_batch(str(out), cache) == (20, 1)
        assert estimate(spec, None, cache).n_requests == 1
        assert len(cache.failures()) == 1
        answers = run_survey(spec, None, cache)
        assert fs.n_requests == 4  # only the failed batch line was sent here
        assert all(a.rating.rating == prompt_rating(a.prompt) for a in answers)
        assert all(a.rating.expected is not None for a in answers)
        assert export_batch(spec, None, cache, str(path)) == 0
