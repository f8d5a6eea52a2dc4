"""The embedded model stays out of the caller's process, and its Python is found on every QGIS.

xllamacpp aborts the QGIS binaries when imported there (a native library clash), so only the
launcher, core/runtime/embedded_server.py, run as a child process, may import it.
"""

import ast
import os
import subprocess
import sys

import pytest

from geobias.core.runtime import embedded

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INFERENCE = ("xllamacpp", "llama_cpp")
LAUNCHER = os.path.join("core", "runtime", "embedded_server.py")


def plugin_sources():
    """Every Python file of the plugin and its tools (not the venvs or build output)."""
    skip = {".venv", "build", "output", ".git", "__pycache__"}
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in skip]
        for name in files:
            if name.endswith(".py"):
                yield os.path.relpath(os.path.join(folder, name), ROOT)


def imported_modules(path):
    tree = ast.parse(open(os.path.join(ROOT, path), encoding="utf-8").read())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "import_module":
            yield from (a.value for a in node.args if isinstance(a, ast.Constant))


def test_only_the_launcher_imports_an_inference_library():
    importers = sorted(
        path
        for path in plugin_sources()
        if any(m.split(".")[0] in INFERENCE for m in imported_modules(path))
    )
    # The launcher, and the whole-sentence scorer's child process with its C API bindings
    # (llama_capi.py imports xllamacpp only in that child; core/runtime/whole_sentence_worker.py).
    child = [
        os.path.join("core", "runtime", "llama_capi.py"),
        os.path.join("core", "runtime", "whole_sentence_worker.py"),
    ]
    assert importers == sorted([LAUNCHER, *child])


def test_only_the_masked_lm_modules_import_torch():
    # MaskedLMScorer imports them lazily; QGIS runs it in core/herb/mlm_worker.py's child process.
    plugin = [p for p in plugin_sources() if not p.startswith(("test", "benchmarks", "scripts"))]
    importers = sorted(
        path
        for path in plugin
        if any(m.split(".")[0] in ("torch", "transformers") for m in imported_modules(path))
    )
    assert importers == [
        os.path.join("core", "herb", "mlm_worker.py"),
        os.path.join("core", "herb", "scorers.py"),
    ]


def test_importing_the_embedded_module_loads_no_inference_library():
    code = (
        "import sys, geobias.core.runtime.embedded as e, geobias.core.runtime.embedded_server\n"
        "e.MODEL_NAME, e.python_candidates()\n"
        f"print(','.join(sorted(k for k in sys.modules if k.split('.')[0] in {INFERENCE!r})))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_the_launcher_runs_with_the_standard_library_alone(tmp_path):
    # The model's Python need not have GeoBias, numpy or requests: only xllamacpp.
    env = dict(os.environ, PYTHONPATH="")
    proc = subprocess.run([sys.executable, "-I", os.path.join(ROOT, LAUNCHER), "--help"],
                          capture_output=True, text=True, env=env, cwd=tmp_path)  # fmt: skip
    assert proc.returncode == 0 and "--parent-pid" in proc.stdout


def touch(path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "w").close()
    return str(path)


def pretend(monkeypatch, platform, prefix, executable):
    """Run python_candidates as inside a QGIS on `platform` with this prefix and binary."""
    for name in ("prefix", "exec_prefix", "base_prefix"):
        monkeypatch.setattr(sys, name, str(prefix))
    monkeypatch.setattr(sys, "executable", executable)
    monkeypatch.setattr(sys, "_base_executable", executable, raising=False)
    monkeypatch.setattr(sys, "platform", platform)


@pytest.fixture()
def no_path_pythons(monkeypatch):
    """Candidates from the platform rules alone: no PATH, no user venv, no override."""
    monkeypatch.setattr(embedded.shutil, "which", lambda name: None)
    monkeypatch.setattr(embedded, "USER_VENV", "/nonexistent/venv/python3")
    monkeypatch.delenv("GEOBIAS_PYTHON", raising=False)
    monkeypatch.delenv("OSGEO4W_ROOT", raising=False)


def test_candidates_on_linux_qgis_come_from_the_prefix_not_sys_executable(
    tmp_path, monkeypatch, no_path_pythons
):
    # Debian's QGIS 3.22 desktop: sys.prefix is /usr, sys.executable a pyenv shim on PATH.
    prefix = tmp_path / "usr"
    ver = f"{sys.version_info[0]}.{sys.version_info[1]}"
    system = touch(prefix / "bin" / f"python{ver}")
    shim = touch(tmp_path / "shims" / "python3")
    pretend(monkeypatch, "linux", prefix, shim)
    found = embedded.python_candidates()
    assert found[0] == system and found.index(system) < found.index(shim)


def test_candidates_on_windows_osgeo4w_skip_the_qgis_binary(tmp_path, monkeypatch, no_path_pythons):
    root = tmp_path / "OSGeo4W"
    apps = root / "apps" / "Python39"
    qgis_bin = touch(root / "bin" / "qgis-bin.exe")
    prefix_python = touch(apps / "python.exe")
    shell_python = touch(root / "bin" / "python3.exe")
    pretend(monkeypatch, "win32", apps, qgis_bin)
    monkeypatch.setenv("OSGEO4W_ROOT", str(root))
    found = embedded.python_candidates()
    assert found[:2] == [prefix_python, shell_python]
    assert qgis_bin not in found


def test_candidates_in_the_macos_bundle(tmp_path, monkeypatch, no_path_pythons):
    contents = tmp_path / "QGIS.app" / "Contents"
    app = touch(contents / "MacOS" / "QGIS")
    bundled = touch(contents / "MacOS" / "bin" / "python3")
    pretend(monkeypatch, "darwin", contents / "Frameworks" / "Python.framework", app)
    assert embedded.python_candidates() == [bundled]


def test_the_override_and_the_user_venv_come_first(tmp_path, monkeypatch, no_path_pythons):
    venv = touch(tmp_path / "venv" / "bin" / "python3")
    mine = touch(tmp_path / "mine" / "python3")
    monkeypatch.setattr(embedded, "USER_VENV", venv)
    found = embedded.python_candidates(override=mine)
    assert found[:2] == [mine, venv]
    # An override that does not exist is still reported first (find_python says why).
    assert embedded.python_candidates(override="/no/such/python")[0] == "/no/such/python"


def test_no_usable_python_names_the_install_line_and_each_reason(monkeypatch, tmp_path):
    # A Python without site-packages (-S) stands for one that lacks xllamacpp.
    bare = tmp_path / "python"
    bare.write_text(f'#!/bin/sh\nexec {sys.executable} -I -S "$@"\n')
    bare.chmod(0o755)
    tried = ["/no/such/python", str(bare)]
    monkeypatch.setattr(embedded, "python_candidates", lambda override=None: tried)
    with pytest.raises(embedded.EmbeddedError) as err:
        embedded.find_python()
    text = str(err.value)
    assert embedded.INSTALL_LINE in text
    assert "/no/such/python does not exist" in text
    assert f"{bare}: xllamacpp cannot be imported" in text


def test_model_name_is_the_alias_else_the_file_name():
    assert embedded.EmbeddedServer().model_name == embedded.MODEL_NAME
    assert embedded.EmbeddedServer(model_path="/m/Gemma-3-270M.Q8_0.gguf").model_name == (
        "Gemma-3-270M.Q8_0"
    )
    assert embedded.EmbeddedServer(alias="gemma3").model_name == "gemma3"


def test_a_venv_child_does_not_inherit_pythonhome_nor_pythonpath(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONHOME", r"C:\OSGeo4W\apps\Python39")
    monkeypatch.setenv("PYTHONPATH", r"C:\OSGeo4W\apps\qgis\python")
    venv_python = touch(tmp_path / "venv" / "bin" / "python3")
    (tmp_path / "venv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    env = embedded.child_env(venv_python)
    assert "PYTHONHOME" not in env and "PYTHONPATH" not in env
    qgis_python = touch(tmp_path / "apps" / "Python39" / "python.exe")
    env = embedded.child_env(qgis_python)
    assert env["PYTHONHOME"] == r"C:\OSGeo4W\apps\Python39"
    assert env["PYTHONPATH"] == r"C:\OSGeo4W\apps\qgis\python"


def test_a_deterministic_server_is_asked_for_on_its_command_line(monkeypatch):
    """One slot and no prompt-cache reuse (embedded_server.py --deterministic); the demos ask
    for it with GEOBIAS_DETERMINISTIC=1, and the shared model is replaced when the mode
    changes."""
    cmd = embedded.EmbeddedServer(parallel=2, deterministic=True)._command("python3", 1234)
    assert "--deterministic" in cmd
    assert "--deterministic" not in embedded.EmbeddedServer(parallel=2)._command("python3", 1)
    monkeypatch.delenv("GEOBIAS_DETERMINISTIC", raising=False)
    assert embedded.deterministic_default() is False
    monkeypatch.setenv("GEOBIAS_DETERMINISTIC", "1")
    assert embedded.deterministic_default() is True
    from geobias.core.runtime import embedded_server

    seen = {}
    monkeypatch.setattr(embedded_server, "serve", lambda a: seen.setdefault("args", a) and 0)
    assert embedded_server.main(["--port", "1", "--deterministic"]) == 0
    assert seen["args"].deterministic is True and seen["args"].parallel == 2
