"""geobias:exportbatch and geobias:importbatch through processing.run: export a rating run as
Batch JSONL, answer it with a fake batch service (with error lines), import, then rate: only the
failed requests reach the endpoint."""

import sqlite3
import uuid

import pytest
from qgis.core import QgsProcessingException

from geobias.test.batchfake import answer_batch
from geobias.test.faultserver import FaultServer

TOPICS = "Infant Mortality Rate; Population Density"


def run(alg, params):
    import processing

    return processing.run(alg, params)


@pytest.fixture()
def points(processing_ready):
    return run("geobias:samplepoints", {"COUNT": 9, "METHOD": 1, "SEED": 7, "OUTPUT": "memory:"})[
        "OUTPUT"
    ]


def test_export_answer_import_then_rate_sends_only_the_failed(points, tmp_path):
    model = f"batch-{uuid.uuid4().hex[:8]}"  # a fresh cache entry (the profile's cache persists)
    with FaultServer() as fs:
        endpoint = {"PROVIDER": 9, "BASE_URL": fs.base_url, "MODEL": model, "TOPICS": TOPICS}
        out = run("geobias:exportbatch", {"INPUT": points, **endpoint, "MAX_REQUESTS": 10,
                                          "OUTPUT": str(tmp_path / "requests")})  # fmt: skip
        assert (out["N_REQUESTS"], out["N_FILES"]) == (18, 2)
        files = out["FILES"].splitlines()
        assert all(f.endswith(f"-{model}-00{i}.jsonl") for i, f in enumerate(files, 1))
        (tmp_path / "results").mkdir()
        ok, failed = answer_batch(files, tmp_path / "results" / "out.jsonl", fail_every=6)
        assert (ok, failed) == (15, 3)
        imported = run("geobias:importbatch", {"FOLDER": str(tmp_path / "results")})
        assert (imported["N_ANSWERS"], imported["N_FAILED"], imported["N_FILES"]) == (15, 3, 1)
        assert fs.n_requests == 0

        rated = run("geobias:ratelocations", {"INPUT": points, **endpoint,
                                              "OUTPUT": str(tmp_path / "rated.gpkg")})  # fmt: skip
        assert rated["N_ANSWERED"] == 18
        assert fs.n_requests == 3  # the batch's error lines, sent now
        with sqlite3.connect(tmp_path / "rated.gpkg") as con:
            sent, cached = con.execute("SELECT n_requests, n_cached FROM runs").fetchone()
        assert (sent, cached) == (3, 15)
        again = run("geobias:exportbatch", {"INPUT": points, **endpoint,
                                            "OUTPUT": str(tmp_path / "again")})  # fmt: skip
        assert again["N_REQUESTS"] == 0 and again["FILES"] == ""


def test_rating_from_imported_answers_needs_no_endpoint(points, tmp_path):
    # The export named a cluster's vLLM, unreachable from here: all answers came by batch.
    model = f"cluster-{uuid.uuid4().hex[:8]}"
    endpoint = {"PROVIDER": 3, "BASE_URL": "http://127.0.0.1:9/v1", "MODEL": model,
                "TOPICS": "Infant Mortality Rate"}  # fmt: skip
    out = run("geobias:exportbatch", {"INPUT": points, **endpoint,
                                      "OUTPUT": str(tmp_path / "requests")})  # fmt: skip
    answer_batch(out["FILES"].splitlines(), tmp_path / "out.jsonl")
    run("geobias:importbatch", {"INPUT": str(tmp_path / "out.jsonl")})
    rated = run("geobias:ratelocations", {"INPUT": points, **endpoint,
                                          "OUTPUT": str(tmp_path / "rated.gpkg")})  # fmt: skip
    assert rated["N_ANSWERED"] == 9


def test_bad_input_is_a_clear_error_and_stores_nothing(points, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"custom_id": "k", "response": {"status_code": 200, "body": {}}}\nnot json\n')
    with pytest.raises(QgsProcessingException, match="bad.jsonl"):
        run("geobias:importbatch", {"INPUT": str(bad)})
    with pytest.raises(QgsProcessingException, match="either"):
        run("geobias:importbatch", {})
    with pytest.raises(QgsProcessingException, match="embedded"):
        run("geobias:exportbatch", {"INPUT": points, "PROVIDER": 0,
                                    "OUTPUT": str(tmp_path / "x")})  # fmt: skip


def cache_rows():
    from geobias.processing.endpoints import default_cache_path

    with sqlite3.connect(default_cache_path()) as con:
        return [con.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
                for t in ("responses", "failures")]  # fmt: skip


def test_importing_what_is_not_batch_output_names_it_and_records_nothing(points, tmp_path):
    """Issue 28, item 5: the request file GeoBias exported, an empty file, another provider's
    format: a message naming what it is and what was expected; nothing recorded, not even
    from a good file beside them in the folder."""
    model = f"batch-{uuid.uuid4().hex[:8]}"
    endpoint = {"PROVIDER": 3, "BASE_URL": "http://127.0.0.1:9/v1", "MODEL": model,
                "TOPICS": TOPICS}  # fmt: skip
    out = run("geobias:exportbatch", {"INPUT": points, **endpoint,
                                      "OUTPUT": str(tmp_path / "requests")})  # fmt: skip
    (requests,) = out["FILES"].splitlines()
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    anthropic = tmp_path / "anthropic.jsonl"
    anthropic.write_text('{"custom_id": "k", "result": {"type": "succeeded"}}\n')
    before = cache_rows()
    for path, said in ((requests, "is a request file"), (empty, "is empty"),
                       (anthropic, "Anthropic Message Batches results")):  # fmt: skip
        with pytest.raises(QgsProcessingException) as err:
            run("geobias:importbatch", {"INPUT": str(path)})
        message = str(err.value)
        assert said in message and "expected OpenAI Batch output" in message, message
        assert "Nothing was recorded" in message
    folder = tmp_path / "results"
    folder.mkdir()
    answer_batch([requests], folder / "a_good.jsonl")
    (folder / "b_requests.jsonl").write_text(open(requests, encoding="utf-8").read())
    with pytest.raises(QgsProcessingException, match="b_requests.jsonl is a request file"):
        run("geobias:importbatch", {"FOLDER": str(folder)})
    assert cache_rows() == before
