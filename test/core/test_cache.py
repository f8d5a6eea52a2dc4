"""Survey cache: keys, persistence, failures, threads and processes, no API key on disk."""

import os
import subprocess
import sys
import threading
from contextlib import closing

import pytest

from geobias.core.engine.cache import CacheError, SurveyCache, request_key
from geobias.core.engine.chat import ChatClient, Endpoint


def test_key_depends_on_endpoint_model_and_body_but_not_api_key(tmp_path):
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    a = Endpoint("http://localhost:8000/v1", "m", api_key="k1")
    b = Endpoint("HTTP://LOCALHOST:8000/v1/", "m", api_key="k2")
    body = ChatClient(a).request_body("hello")
    assert cache.key(a, body) == cache.key(b, body)
    assert cache.key(a, body) != cache.key(Endpoint(a.base_url, "m2"), body)
    assert cache.key(a, body) != cache.key(Endpoint("http://other:8000/v1", "m"), body)
    assert cache.key(a, body) != cache.key(a, ChatClient(a).request_body("hello!"))
    reordered = dict(reversed(list(body.items())))
    assert request_key(a.base_url, "m", body) == request_key(a.base_url, "m", reordered)


def test_embedded_model_answers_survive_a_new_port_but_not_a_new_model_file(tmp_path):
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    body = {"messages": [{"role": "user", "content": "p"}]}
    run1 = Endpoint.from_provider("embedded", "SmolLM2.Q4_1", base_url="http://127.0.0.1:4001/v1")
    run2 = Endpoint.from_provider("embedded", "SmolLM2.Q4_1", base_url="http://127.0.0.1:5002/v1")
    other = Endpoint.from_provider("embedded", "Other.Q8_0", base_url="http://127.0.0.1:4001/v1")
    assert cache.key(run1, body) == cache.key(run2, body)
    assert cache.key(run1, body) != cache.key(other, body)
    # Any other server on loopback is a different endpoint per port.
    a = Endpoint("http://127.0.0.1:4001/v1", "m", provider="llamacpp")
    b = Endpoint("http://127.0.0.1:5002/v1", "m", provider="llamacpp")
    assert cache.key(a, body) != cache.key(b, body)


def test_put_get_persist_and_failures(tmp_path):
    path = str(tmp_path / "c.sqlite")
    cache = SurveyCache(path)
    cache.put_failure("k1", "HTTP 503")
    cache.put_failure("k1", "HTTP 503 again")
    assert cache.failures() == {"k1": "HTTP 503 again"}
    cache.put("k1", {"choices": [{"message": {"content": "My answer is 1.0."}}]})
    cache.close()
    again = SurveyCache(path)
    assert again.get("k1")["choices"][0]["message"]["content"] == "My answer is 1.0."
    assert again.failures() == {}  # an answer clears the failure
    assert again.get("nope") is None
    assert set(again.get_many(["k1", "nope"])) == {"k1"}
    assert len(again) == 1
    with open(path, "rb") as f:
        assert f.read(16) == b"SQLite format 3\x00"
    mode = again._con().execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_get_many_beyond_sqlite_parameter_limit(tmp_path):
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    cache.put_many([(f"k{i}", {"i": i}) for i in range(2500)])
    got = cache.get_many([f"k{i}" for i in range(0, 3000, 1)])
    assert len(got) == 2500 and got["k2499"] == {"i": 2499}
    assert len(cache.has_many([f"k{i}" for i in range(2400, 2600)])) == 100


def test_threads_write_concurrently(tmp_path):
    cache = SurveyCache(str(tmp_path / "c.sqlite"))

    def write(t):
        for i in range(200):
            cache.put(f"{t}-{i}", {"t": t, "i": i})

    threads = [threading.Thread(target=write, args=(t,)) for t in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(cache) == 1200


def test_processes_write_concurrently(tmp_path):
    path = str(tmp_path / "c.sqlite")
    SurveyCache(path)
    code = (
        "import sys; from geobias.core.engine.cache import SurveyCache;"
        " c = SurveyCache(sys.argv[1]);"
        "[c.put(f'{sys.argv[2]}-{i}', {'i': i}) for i in range(300)]"
    )
    procs = [subprocess.Popen([sys.executable, "-c", code, path, str(p)]) for p in range(3)]
    assert [p.wait(60) for p in procs] == [0, 0, 0]
    assert len(SurveyCache(path)) == 900


def test_api_key_never_reaches_the_file(tmp_path):
    from geobias.core.survey.run import run_requests
    from geobias.test.faultserver import FaultServer

    secret = "sk-TOPSECRET-4242"
    path = str(tmp_path / "c.sqlite")
    cache = SurveyCache(path)
    with FaultServer() as fs:
        ep = Endpoint(fs.base_url, "m", api_key=secret)
        res = run_requests([f"p{i}" for i in range(20)], ep, cache)
    assert all(r.completion is not None for r in res)
    cache.close()
    blob = b"".join(open(p, "rb").read() for p in (path, path + "-wal") if os.path.exists(p))
    assert b"My answer is" in blob or len(SurveyCache(path)) == 20
    assert secret.encode() not in blob


def test_a_damaged_cache_file_is_a_clear_error_and_is_left_alone(tmp_path):
    path = tmp_path / "damaged.sqlite"
    path.write_bytes(b"\x0a\x0c\x65\x00" * 1024)  # what a torn page header looks like
    with pytest.raises(CacheError, match="cannot be used"):
        SurveyCache(str(path))
    assert path.read_bytes() == b"\x0a\x0c\x65\x00" * 1024


def test_draw_zero_keeps_the_key_of_today_and_each_draw_has_its_own():
    body = {"model": "m", "messages": [{"role": "user", "content": "p"}], "temperature": 1.0}
    base = "http://localhost:8000/v1"
    # The key as it has always been computed: committed caches (the golden test's) still hit.
    import hashlib
    import json

    text = "\n".join((base, "m", json.dumps(body, sort_keys=True, separators=(",", ":"))))
    assert request_key(base, "m", body) == hashlib.sha256(text.encode()).hexdigest()
    assert request_key(base, "m", body, draw=0) == request_key(base, "m", body)
    keys = {request_key(base, "m", body, draw=d) for d in range(10)}
    assert len(keys) == 10
    with pytest.raises(ValueError):
        request_key(base, "m", body, draw=-1)
    cache = SurveyCache.__new__(SurveyCache)  # key() reads no file
    ep = Endpoint(base, "m")
    assert cache.key(ep, body, draw=3) == request_key(base, "m", body, draw=3)


def _old_cache(path):
    """A cache as GeoBias wrote it before model checksums were keyed (no `meta` row)."""
    import sqlite3

    SurveyCache(path).close()
    con = sqlite3.connect(path)
    con.execute("DELETE FROM meta")
    con.commit()
    con.close()


def test_the_embedded_model_files_checksum_is_in_the_key_and_an_older_cache_still_answers(
        tmp_path):  # fmt: skip
    body = {"messages": [{"role": "user", "content": "p"}]}
    url = "http://127.0.0.1:4001/v1"
    a = Endpoint.from_provider("embedded", "SmolLM2.Q4_1", base_url=url, model_sha256="a" * 64)
    b = Endpoint.from_provider("embedded", "SmolLM2.Q4_1", base_url=url, model_sha256="b" * 64)
    before = Endpoint.from_provider("embedded", "SmolLM2.Q4_1", base_url=url)
    new = SurveyCache(str(tmp_path / "new.sqlite"))
    assert len({new.key(a, body), new.key(b, body), new.key(before, body)}) == 3
    # An older cache holds the answer under the key without the checksum: adopted, not missed.
    path = str(tmp_path / "old.sqlite")
    _old_cache(path)
    old = SurveyCache(path)
    old.put(old.key(before, body), {"answer": 5})
    old.put_failure(old.key(before, {"other": 1}), "reset")
    old.close()
    reopened = SurveyCache(path)
    key = reopened.key(a, body)
    assert reopened.has_many([key]) == {key}
    assert reopened.get(key) == {"answer": 5}
    failed = reopened.key(a, {"other": 1})
    assert reopened.failures([failed]) == {failed: "reset"}
    import sqlite3

    with closing(sqlite3.connect(path)) as con:
        keys = {r[0] for r in con.execute("SELECT key FROM responses")}
    assert keys == {key}  # moved, not copied
    # A cache made now never looks for older keys: its misses are misses.
    fresh = SurveyCache(str(tmp_path / "fresh.sqlite"))
    fresh.put(fresh.key(before, body), {"answer": 5})
    assert fresh.get(fresh.key(a, body)) is None


def test_herb_scores_under_a_models_older_identity_are_adopted(tmp_path):
    from geobias.core.engine.cache import ScoreCache

    cache = ScoreCache(str(tmp_path / "s.sqlite"))
    cache.put_scores("llamacpp", "gguf:m.gguf", "r", [("s", -1.0, 3), ("t", -2.0, 4)])
    cache.put_scores("llamacpp", "gguf:m.gguf@0123456789abcdef", "r", [("t", -9.0, 4)])
    cache.adopt_scores("llamacpp", "gguf:m.gguf@0123456789abcdef", "gguf:m.gguf")
    got = cache.get_scores("llamacpp", "gguf:m.gguf@0123456789abcdef", "r", ["s", "t"])
    assert got == {"s": -1.0, "t": -9.0}  # a score of the identity now is kept
    assert cache.get_scores("llamacpp", "gguf:m.gguf", "r", ["s", "t"]) == {}


def test_a_gguf_identity_holds_its_checksum_and_two_files_of_one_name_differ(tmp_path):
    import hashlib

    from geobias.core.herb.scorers import gguf_identity

    one, two = tmp_path / "a" / "m.gguf", tmp_path / "b" / "m.gguf"
    for p, text in ((one, b"one"), (two, b"two")):
        p.parent.mkdir()
        p.write_bytes(text)
    ident, legacy = gguf_identity(str(one))
    assert ident == "gguf:m.gguf@" + hashlib.sha256(b"one").hexdigest()[:16]
    assert legacy == "gguf:m.gguf" and gguf_identity(str(two))[0] != ident
    assert gguf_identity("/elsewhere/remote.gguf") == ("gguf:remote.gguf", "")


def test_the_embedded_servers_endpoint_carries_its_model_files_checksum(tmp_path):
    import hashlib

    from geobias.core.engine.chat import server_endpoint
    from geobias.core.runtime import models
    from geobias.core.runtime.embedded import EmbeddedServer

    gemma = models.get_model("gemma3-270m")
    assert EmbeddedServer().model_sha256 == gemma.sha256  # the default, from the registry
    assert EmbeddedServer(model_path="gemma3-270m").model_sha256 == gemma.sha256
    own = tmp_path / "mine.gguf"
    own.write_bytes(b"weights")
    server = EmbeddedServer(model_path=str(own))
    assert server.model_sha256 == hashlib.sha256(b"weights").hexdigest()
    server.base_url = "http://127.0.0.1:4001/v1"  # as a started server has it
    assert server_endpoint(server).model_sha256 == server.model_sha256
    assert EmbeddedServer(model_path=str(tmp_path / "gone.gguf")).model_sha256 == ""
