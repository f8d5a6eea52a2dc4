"""Diagnostics name the real Python (issue 35 item 4): inside QGIS `sys.executable` may be the
first python3 on PATH, a pyenv shim (a shell script); the report must give the interpreter."""

import os
import subprocess
import sys

from geobias.core.runtime.diagnostics import interpreter_path


def test_a_pyenv_shim_is_not_reported_as_the_python(tmp_path, monkeypatch):
    shim = tmp_path / ".pyenv" / "shims" / "python3"
    shim.parent.mkdir(parents=True)
    shim.write_text('#!/usr/bin/env bash\nexec "$(pyenv root)/libexec/pyenv" exec "$0" "$@"\n')
    shim.chmod(0o755)
    monkeypatch.setattr(sys, "executable", str(shim))
    monkeypatch.setattr(sys, "_base_executable", str(shim), raising=False)
    path = interpreter_path()
    assert path and path != str(shim) and os.path.isfile(path)
    with open(path, "rb") as f:
        assert f.read(2) != b"#!"  # a binary, not a script
    out = subprocess.run([path, "-I", "-c", "import sys; print(sys.version_info[:2])"],
                         capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
    assert out == str(tuple(sys.version_info[:2]))
