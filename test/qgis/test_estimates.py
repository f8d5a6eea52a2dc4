"""Honest estimates and named models in QGIS (issue 21, items 5 and 9): the run panel's time
left follows a moving rate, the survey's confirmation and log name the model and give the time
as a range from the rate measured on this machine, HERB names its model before the run.

Progress is replayed on the panel's own clock (nothing is timed); the endpoint is a local stub
server that answers slowly enough for a rate to be measured.
"""

import math
import re
import sys

import pytest
from qgis.core import QgsProcessingException, QgsProcessingFeedback

from geobias.core.engine.chat import Endpoint
from geobias.core.engine.throughput import MeasuredRate, RateBook, TimeLeft
from geobias.core.herb.run import HerbEstimate
from geobias.core.runtime.models import MODELS
from geobias.core.survey.run import Estimate
from geobias.processing import progress
from geobias.processing.endpoints import HERB_EMBEDDED_MODEL, herb_model_label
from geobias.processing.herb_io import format_estimate
from geobias.test.faultserver import FaultServer
from geobias.ui.dock import GeoBiasDock
from geobias.ui.run_panel import RunPanel
from geobias.ui.settings import save_endpoints
from geobias.ui.survey_job import confirmation_text
from geobias.ui.survey_plan import Plan

sys.path.insert(0, "/usr/share/qgis/python/plugins")

GEMMA = MODELS["gemma3-270m"]
# A step's progress as recorded on a machine whose load rose a third of the way: (seconds,
# percent of the step) - 1 %/s for 30 s, then 0.25 %/s; the step ends at 310 s.
SLOWING = [(0.0, 0.0)] + [(float(t), float(t - 2)) for t in range(3, 33)]
SLOWING += [(32.0 + 4 * k, 30.0 + k) for k in range(1, 71)]


@pytest.fixture()
def book(tmp_path, monkeypatch):
    """A rate book of its own (not the test profile's)."""
    path = str(tmp_path / "rates.json")
    monkeypatch.setattr(progress, "rates_path", lambda: path)
    return RateBook(path)


class Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


def replayed_panel(qgis_iface, events, upto):
    """A run panel fed the step's progress until `upto` seconds, on its own clock."""
    panel = RunPanel(None, "Run", "Resume", lambda *a, **k: None)
    panel.clock = clock = Clock()
    panel.task = object()  # busy: the panel shows a time left
    panel._new_step()
    for t, percent in events:
        if t > upto:
            break
        clock.t = t
        panel._step_progress(percent)
    clock.t = upto
    return panel


def test_run_panel_time_left_follows_the_moving_rate(qgis_iface):
    t = 32.0 + 4 * 20  # 80 s after the load rose; 50% of the step done
    panel = replayed_panel(qgis_iface, SLOWING, t)
    actual = SLOWING[-1][0] - t
    low, high = panel.time_left()
    assert low <= actual <= high
    # What the panel said before: the elapsed time stretched over the rest of the bar.
    percent = 50.0
    before = t * (100 - percent) / percent
    assert abs(before - actual) / actual > 0.4 and abs((low + high) / 2 - actual) / actual < 0.3
    panel.step_text = "50/100 requests"
    panel._show_progress_text(50)
    text = panel.progressLabel.text()
    assert text.startswith("50/100 requests · ") and text.endswith(" left"), text
    assert re.search(r"\d+–\d+ min|\d+ s – \d+ min", text), text


def test_run_panel_shows_the_steps_own_range_and_says_when_it_is_timing(qgis_iface):
    panel = replayed_panel(qgis_iface, [(0.0, 0.0)], 0.0)
    panel.step_text = "3/40 requests"
    panel._step_eta(math.inf, math.nan, math.nan)  # the engine is still calibrating
    assert panel.progressLabel.text() == "3/40 requests · timing this machine…"
    panel._step_eta(60.0, 40.0, 80.0)
    panel.clock.t = 10.0  # ten seconds later, nothing new: the range has moved on
    assert panel.time_left() == (30.0, 70.0)
    panel._show_progress_text(10)
    assert panel.progressLabel.text() == "3/40 requests · 30–70 s left"


def plan_of(endpoints):
    parts = [(ep, Estimate(n, 0, 100 * n, 8 * n, [ep.host()], None, 0, n)) for ep, n in endpoints]
    plan = Plan(None, parts=parts)
    plan.estimate = Estimate(sum(n for _e, n in endpoints), 0, 0, 0, [], None, 0, 0)
    return plan


def test_the_survey_confirmation_names_each_model_and_its_time(qgis_app, book):
    gemma = Endpoint("http://127.0.0.1:43117/v1", GEMMA.name, concurrency=2)
    remote = Endpoint("https://api.example.org/v1", "gpt-4o-mini", concurrency=4)
    text = confirmation_text(plan_of([(gemma, 50), (remote, 50)]))
    assert f"• {GEMMA.label} at 127.0.0.1:43117: 50 requests, time unknown until the first " \
           "requests are timed on this machine" in text  # fmt: skip
    assert "• gpt-4o-mini at api.example.org: 50 requests" in text
    # Once a run was measured here (0.5 requests/s), the next one gets a range from it.
    book.record(progress.survey_key(gemma), MeasuredRate(0.5, 0.1, 40, 80.0, True))
    port_changed = Endpoint("http://127.0.0.1:51000/v1", GEMMA.name, concurrency=2)
    text = confirmation_text(plan_of([(port_changed, 50)]))
    line = next(ln for ln in text.splitlines() if ln.startswith("• "))
    assert "50 requests, about" in line and "1 earlier run(s) on this machine" in line
    # 100 s at the remembered rate, in a range around it (about x/÷ 2: today's load is unknown).
    low, high = map(int, re.search(r"about (\d+) s – (\d+) min", line).groups())
    assert 40 <= low <= 60 and 3 <= high <= 5, line


class Log(QgsProcessingFeedback):
    def __init__(self):
        super().__init__()
        self.lines = []

    def pushInfo(self, info):
        self.lines.append(info)


def points_file(tmp_path, n, shift=0.0):
    path = tmp_path / f"points{shift}.csv"
    path.write_text("lon,lat\n" + "".join(f"{2 + 0.1 * i + shift},{45 + shift}\n"
                                          for i in range(n)))  # fmt: skip
    return f"delimitedtext://file://{path}?xField=lon&yField=lat&crs=EPSG:4326"


def test_ratelocations_names_the_model_and_remembers_the_rate_it_measured(
    processing_ready, tmp_path, book
):
    import processing

    with FaultServer(delay_s=0.25) as fs:
        params = {"PROVIDER": 9, "BASE_URL": fs.base_url, "MODEL": "fault", "CONCURRENCY": 1,
                  "TOPICS": "Infant Mortality Rate"}  # fmt: skip
        log = Log()
        processing.run("geobias:ratelocations", dict(params, INPUT=points_file(tmp_path, 12),
                       OUTPUT=str(tmp_path / "a.gpkg")), feedback=log)  # fmt: skip
        host = fs.base_url.split("//")[1].split("/")[0]
        first = next(ln for ln in log.lines if ln.startswith("Rating 12 points"))
        assert f"with fault at {host}: 12 requests, 0 of 12 answers from the cache" in first
        assert "time unknown until the first requests are timed on this machine" in first
        assert any(ln.startswith("Measured on this machine: ") for ln in log.lines)
        # No running text in the log: the counts go to the dock's panel only.
        assert not [ln for ln in log.lines if "/12 requests" in ln]
        remembered = book.get(progress.survey_key(Endpoint(fs.base_url, "fault", concurrency=1)))
        assert remembered is not None and 0 < remembered.per_s < 4.2  # each answer waits 0.25 s

        log = Log()
        processing.run("geobias:ratelocations", dict(params, INPUT=points_file(tmp_path, 6, 1),
                       OUTPUT=str(tmp_path / "b.gpkg")), feedback=log)  # fmt: skip
        second = next(ln for ln in log.lines if ln.startswith("Rating 6 points"))
        assert "about" in second and "1 earlier run(s) on this machine" in second


def test_herb_names_its_model_before_anything_is_scored(processing_ready, tmp_path):
    import processing

    assert herb_model_label("embedded") == MODELS[HERB_EMBEDDED_MODEL].label
    log = Log()
    with FaultServer() as fs:  # chat only: refused at the first sentence, after the log line
        params = {"SCOPE": 0, "CONTINENTS": "Oceania", "MAX_CITIES": 0, "SCORER": 2,
                  "URL": fs.base_url, "MODEL": "fault", "TOPICS": "intelligence",
                  "CACHE": str(tmp_path / "c.sqlite"),
                  "OUTPUT": str(tmp_path / "h.gpkg")}  # fmt: skip
        with pytest.raises(QgsProcessingException):
            processing.run("geobias:herb", params, feedback=log)
    assert log.lines[0].startswith("Model: fault (/v1/completions with echo and logprobs")
    estimate = next(ln for ln in log.lines if " sentences, " in ln)
    assert f"requests to fault on {fs.base_url.split('//')[1].split('/')[0]}" in estimate


def test_the_herb_estimate_is_a_range_from_the_rate_measured_here(qgis_app):
    est = HerbEstimate(754, 0, 754, 848, 180.0, TimeLeft(180.0, 110.0, 290.0))
    text = format_estimate(est, "127.0.0.1:40000", "Oceania, 25 regions", "SmolLM2", timed=46)
    assert text == ("Oceania, 25 regions: 754 sentences, 0 already cached, 848 requests to "
                    "SmolLM2 on 127.0.0.1:40000; about 1–5 min (rate measured now on this "
                    "machine, on 46 sentences).")  # fmt: skip
    unknown = HerbEstimate(754, 0, 754, 848, None, None)
    assert "time unknown until the first sentences are timed" in format_estimate(
        unknown, "api.example.org", "Oceania", "m"
    )


def test_the_regional_bias_tab_names_the_model(qgis_iface, qgis_new_project, processing_ready):
    dock = GeoBiasDock(qgis_iface)
    try:
        herb = dock.herb
        herb.scorerCombo.setCurrentIndex(herb.scorerCombo.findData("embedded"))
        assert herb.modelNameLabel.text() == (
            f"Model: {MODELS[HERB_EMBEDDED_MODEL].label}, on this machine"
        )
        herb.scorerCombo.setCurrentIndex(herb.scorerCombo.findData("echo"))
        herb.modelEdit.setText("Qwen/Qwen2.5-0.5B")
        assert herb.modelNameLabel.text() == "Model: Qwen/Qwen2.5-0.5B"
    finally:
        dock.close_survey()
        dock.deleteLater()
        save_endpoints([])
