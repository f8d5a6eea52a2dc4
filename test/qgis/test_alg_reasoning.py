"""The reasoning switch (issue 23 item 3): REASONING for a model GeoBias does not recognise by
name, greedy ratings said before sending, SCORE=expected refused, notes only after answers."""

import uuid

import numpy as np
import pytest
from qgis.core import QgsApplication, QgsProcessingException, QgsProcessingFeedback, QgsVectorLayer

from geobias.processing.definitions import SCORE_KINDS
from geobias.test.faultserver import FaultServer

ALGORITHMS = ("ratelocations", "survey", "probes", "ablation", "exportbatch")


class Log(QgsProcessingFeedback):
    def __init__(self):
        super().__init__()
        self.infos = []

    def pushInfo(self, info):
        self.infos.append(info)


def run(alg, params, feedback=None):
    import processing

    return processing.run(alg, params, feedback=feedback)


@pytest.fixture()
def points(processing_ready):
    return run("geobias:samplepoints", {"COUNT": 6, "METHOD": 1, "OUTPUT": "memory:"})["OUTPUT"]


def params(points, fs, tmp_path, **kw):
    alias = f"my-deployment-{uuid.uuid4().hex[:6]}"  # an Azure-style alias of a reasoning model
    base = {"INPUT": points, "PROVIDER": 9, "BASE_URL": fs.base_url, "MODEL": alias,
            "CONCURRENCY": 2, "TOPICS": "Infant Mortality Rate",
            "OUTPUT": str(tmp_path / "rated.gpkg")}  # fmt: skip
    return {**base, **kw}


def test_every_rating_algorithm_has_the_switch(processing_ready):
    registry = QgsApplication.processingRegistry()
    for name in ALGORITHMS:
        d = registry.algorithmById(f"geobias:{name}").parameterDefinition("REASONING")
        assert d is not None and d.defaultValue() is False, name


def test_an_alias_of_a_reasoning_model_is_surveyed_with_the_switch(points, tmp_path):
    with FaultServer(always="reasoning") as fs:
        with pytest.raises(QgsProcessingException) as info:
            run("geobias:ratelocations", params(points, fs, tmp_path))
        assert "Reasoning model" in str(info.value) and "reasoning=True" not in str(info.value)
        log = Log()
        res = run("geobias:ratelocations", params(points, fs, tmp_path, REASONING=True), log)
    layer = QgsVectorLayer(res["OUTPUT_LAYERS"][0], "r", "ogr")
    kinds = {f["score_kind"] for f in layer.getFeatures()}
    scores = np.array([f["score"] for f in layer.getFeatures()], float)
    assert kinds == {"greedy"} and np.isfinite(scores).all()  # not an empty score column
    assert any("Greedy ratings only" in i for i in log.infos[:3])  # said before sending


def test_expected_score_on_a_reasoning_model_is_refused_before_sending(points, tmp_path):
    with FaultServer(always="reasoning") as fs:
        expected = SCORE_KINDS.index("expected")
        with pytest.raises(QgsProcessingException, match="no expected value.*SCORE"):
            run("geobias:ratelocations",
                params(points, fs, tmp_path, REASONING=True, SCORE=expected))  # fmt: skip
        with pytest.raises(QgsProcessingException, match="no expected value"):
            run("geobias:ratelocations", params(points, fs, tmp_path, MODEL="o3", SCORE=expected))
        assert fs.n_requests == 0


def test_no_log_probabilities_note_only_when_answers_came_back(points, tmp_path):
    log = Log()
    with FaultServer(always="refusal", logprobs=False) as fs:
        with pytest.raises(QgsProcessingException, match="declined to rate all"):
            run("geobias:ratelocations", params(points, fs, tmp_path, MODEL="plain"), log)
    assert not any("log-probabilities" in i for i in log.infos), log.infos
