"""The embedded model registry: licences, locating a GGUF, reassembling chunk packages."""

import hashlib
import os
import subprocess
import sys

import pytest

from geobias.core.engine.chat import Endpoint
from geobias.core.runtime import models


def test_every_model_names_its_licence_package_and_answer_mode():
    assert models.DEFAULT_MODEL in models.MODELS
    for m in models.MODELS.values():
        assert m.licence and m.licence_url.startswith("https://") and m.install.startswith("pip")
        assert m.name == m.file[: -len(".gguf")]
        assert m.api in ("chat", "completions") and m.constraint in (None, "grammar")
        assert bool(m.package) != bool(m.chunks)  # a whole file or chunks, never both
        assert models.model_for_file(f"/some/where/{m.file}") is m
    gemma = models.get_model("gemma3-270m")
    assert "Gemma Terms of Use" in gemma.notice and len(gemma.sha256) == 64
    with pytest.raises(KeyError, match="known"):
        models.get_model("gpt-5")
    assert models.model_for_file("/my/own.gguf") is None


def _fake_chunks(tmp_path, monkeypatch, parts):
    """Chunk packages on sys.path and a registry entry for their concatenation."""
    root = tmp_path / "site"
    chunks = []
    for i, data in enumerate(parts):
        pkg = root / f"fakemodel_part{i}" / "data"
        pkg.mkdir(parents=True)
        (pkg.parent / "__init__.py").write_text("raise ImportError('never import a chunk')")
        (pkg / f"fake.gguf.part{i:02d}").write_bytes(data)
        chunks.append((f"fakemodel_part{i}", f"fake.gguf.part{i:02d}"))
    monkeypatch.syspath_prepend(str(root))
    good = hashlib.sha256(b"".join(parts)).hexdigest()
    fake = models.EmbeddedModel(
        key="fake", label="Fake", file="fake.gguf", install="pip install fake-part0 fake-part1",
        licence="MIT", licence_url="https://x", parameters="1", chunks=tuple(chunks), sha256=good,
    )  # fmt: skip
    monkeypatch.setitem(models.MODELS, "fake", fake)
    monkeypatch.setenv("GEOBIAS_MODELS_DIR", str(tmp_path / "models"))
    return fake


def test_chunks_are_reassembled_once_and_checksum_verified(tmp_path, monkeypatch):
    parts = [os.urandom(3000), os.urandom(1234)]
    fake = _fake_chunks(tmp_path, monkeypatch, parts)
    with pytest.raises(models.ModelError, match="pip install fake-part0"):
        models.model_path("fake")  # not reassembled yet: says what to run
    path = models.install("fake")
    assert path == str(tmp_path / "models" / "fake.gguf") == models.model_path("fake")
    with open(path, "rb") as f:
        assert f.read() == b"".join(parts)
    mtime = os.stat(path).st_mtime_ns
    assert models.install("fake") == path and os.stat(path).st_mtime_ns == mtime  # kept
    assert sorted(os.listdir(tmp_path / "models")) == ["fake.gguf"]  # no temporary file left
    assert "fakemodel_part0" not in sys.modules  # found, never imported
    assert fake.name == "fake"


def test_a_bad_chunk_leaves_nothing_that_looks_installed(tmp_path, monkeypatch):
    fake = _fake_chunks(tmp_path, monkeypatch, [b"abc", b"def"])
    monkeypatch.setitem(
        models.MODELS, "fake", models.EmbeddedModel(**{**fake.__dict__, "sha256": "0" * 64})
    )
    with pytest.raises(models.ModelError, match="sha256"):
        models.install("fake")
    assert os.listdir(tmp_path / "models") == []
    with pytest.raises(models.ModelError, match="not installed"):
        models.model_path("fake")


def test_a_model_with_a_notice_gets_it_beside_the_file(tmp_path, monkeypatch):
    fake = _fake_chunks(tmp_path, monkeypatch, [b"abc"])
    notice = "Fake is provided under the Fake Terms"
    monkeypatch.setitem(
        models.MODELS, "fake", models.EmbeddedModel(**{**fake.__dict__, "notice": notice})
    )
    models.install("fake")
    with open(tmp_path / "models" / "NOTICE-fake.txt", encoding="utf-8") as f:
        assert notice in f.read()


def test_a_missing_chunk_says_what_to_install(tmp_path, monkeypatch):
    fake = _fake_chunks(tmp_path, monkeypatch, [b"abc"])
    broken = fake.chunks + (("fakemodel_missing", "fake.gguf.part09"),)
    monkeypatch.setitem(
        models.MODELS, "fake", models.EmbeddedModel(**{**fake.__dict__, "chunks": broken})
    )
    with pytest.raises(models.ModelError, match="part09 .*pip install fake-part0"):
        models.install("fake")


def test_the_script_runs_on_a_python_without_geobias(tmp_path):
    """The model's own process and the bootstrap run core/runtime/models.py with any Python."""
    env = {**os.environ, "GEOBIAS_MODELS_DIR": str(tmp_path), "PYTHONPATH": ""}
    out = subprocess.run(
        [sys.executable, "-S", "-I", models.__file__, "list"], capture_output=True, text=True,
        env=env, check=True,
    )  # fmt: skip
    assert models.get_model().label in out.stdout and "Apache-2.0" in out.stdout
    bad = subprocess.run([sys.executable, "-I", models.__file__, "path", "nope"],
                         capture_output=True, text=True)  # fmt: skip
    assert bad.returncode == 1 and "no embedded model 'nope'" in bad.stderr


def test_the_embedded_preset_takes_each_models_answer_mode():
    for m in models.MODELS.values():
        ep = Endpoint.from_provider("embedded", m.name)
        assert (ep.api, ep.constraint) == (m.api, m.constraint)
    own = Endpoint.from_provider("embedded", "my-own-model")  # a GGUF of the user's own
    assert (own.api, own.constraint) == ("chat", "grammar")


def test_the_model_process_reassembles_pip_installed_chunks_when_first_serving(
    tmp_path, monkeypatch
):
    """A user who only pip-installed the chunk wheels: the launcher (in the model's own process,
    never QGIS) reassembles them before serving, once; a missing chunk still says what to do."""
    from geobias.core.runtime import embedded_server

    parts = [os.urandom(2000), os.urandom(77)]
    _fake_chunks(tmp_path, monkeypatch, parts)
    assert embedded_server.chunks_ready("fake")
    assert not os.path.exists(tmp_path / "models" / "fake.gguf")  # checking changes nothing
    path = embedded_server.resolve_or_install("fake")
    assert path == str(tmp_path / "models" / "fake.gguf")
    with open(path, "rb") as f:
        assert f.read() == b"".join(parts)
    assert not embedded_server.chunks_ready("/my/own.gguf")
    broken = models.MODELS["fake"].chunks + (("fakemodel_missing", "fake.gguf.part09"),)
    monkeypatch.setitem(
        models.MODELS, "fake", models.EmbeddedModel(**{**models.MODELS["fake"].__dict__,
                                                       "chunks": broken, "file": "other.gguf"})
    )  # fmt: skip
    assert not embedded_server.chunks_ready("fake")
    with pytest.raises(embedded_server.EmbeddedError, match="not installed"):
        embedded_server.resolve_or_install("fake")
