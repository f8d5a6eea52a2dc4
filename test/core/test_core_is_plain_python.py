"""core/ must stay usable from plain Python: no qgis, no Qt, directly or indirectly."""

import ast
import os
import pkgutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORE = os.path.join(ROOT, "core")
FORBIDDEN = ("qgis", "PyQt5", "PyQt6", "sip", "PySide2", "PySide6")


def core_modules():
    """Every core module as a dotted name below core ("survey.run"), subpackages included.
    Walked as geobias.core.*: a bare name ("batch", "survey") could import whatever else on
    sys.path has that name, or nothing, and its modules would go unchecked."""
    prefix = "geobias.core."
    found = pkgutil.walk_packages([CORE], prefix=prefix)
    return sorted(m.name[len(prefix) :] for m in found if not m.ispkg)


def core_files():
    """Every core source, relative to core/."""
    for base, _dirs, names in os.walk(CORE):
        for name in sorted(names):
            if name.endswith(".py"):
                yield os.path.relpath(os.path.join(base, name), CORE)


def test_core_sources_do_not_import_qgis_or_qt():
    offenders = []
    for name in core_files():
        tree = ast.parse(open(os.path.join(CORE, name), encoding="utf-8").read())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                mods = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                mods = [node.module or ""]
            else:
                continue
            offenders += [f"{name}: {m}" for m in mods if m.split(".")[0] in FORBIDDEN]
    assert offenders == []


def test_importing_every_core_module_loads_no_qgis_or_qt():
    modules = core_modules()
    assert modules, "core/ has no modules"
    code = (
        "import sys, importlib\n"
        f"for m in {modules!r}: importlib.import_module('geobias.core.' + m)\n"
        f"bad = sorted(k for k in sys.modules if k.split('.')[0] in {FORBIDDEN!r})\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
