"""`make lint` enforces the Python floor: 3.9, what QGIS 3.22-3.28 ship on Windows and macOS."""

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from check_compat import check_source  # noqa: E402

FLOOR = "3.9"


def vermin(path):
    """vermin from the venv (requirements.txt), as `make lint` runs it."""
    exe = os.path.join(os.path.dirname(sys.executable), "vermin")
    cmd = [exe, f"-t={FLOOR}-", "--no-tips", "--violations", "--eval-annotations", path]
    return subprocess.run(cmd, capture_output=True, text=True)


@pytest.mark.parametrize(
    "code",
    [
        "for a, b in zip([1], [2], strict=True):\n    pass\n",
        "from datetime import UTC\n",
        "match 1:\n    case 1:\n        pass\n",
        "import itertools\nitertools.pairwise([1, 2])\n",
    ],
)
def test_vermin_rejects_newer_than_the_floor(tmp_path, code):
    p = tmp_path / "new.py"
    p.write_text(code)
    if code.startswith("match") and sys.version_info < (3, 10):
        # vermin parses with the running Python; on the floor itself `match` is no syntax.
        with pytest.raises(SyntaxError):
            compile(code, str(p), "exec")
        return
    assert vermin(str(p)).returncode != 0


def test_vermin_accepts_the_floor(tmp_path):
    p = tmp_path / "old.py"
    p.write_text("from datetime import timezone\nprint(list(zip([1], [2])))\n")
    assert vermin(str(p)).returncode == 0


@pytest.mark.parametrize(
    "code",
    [
        "isinstance(1, int | float)\n",
        "Alias = list[int] | None\n",
        "from dataclasses import dataclass\n@dataclass\nclass A:\n    x: float | None = None\n",
        "def f(a: int | None = None):\n    pass\n",
    ],
)
def test_runtime_unions_are_found(code):
    assert check_source(code)


@pytest.mark.parametrize(
    "code",
    [
        "from __future__ import annotations\ndef f(a: int | None) -> str | None:\n    pass\n",
        "from __future__ import annotations\nclass A:\n    x: float | None = None\n",
        "flags = 1 | 2\nmask = a | b\n",
    ],
)
def test_lazy_annotations_and_bit_operations_pass(code):
    assert check_source(code) == []


def test_the_tree_is_clean():
    out = subprocess.run(
        [sys.executable, os.path.join(ROOT, "scripts", "check_compat.py"), ROOT],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stdout
