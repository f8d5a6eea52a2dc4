"""The house's rules (docs/design.md, Architecture), read from the sources' imports: algorithms
are leaves only the provider imports, imports run ui -> processing -> core and never back,
and the dock never passes an enum parameter as a bare position."""

import ast
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PACKAGES = ("core", "processing", "ui")


def sources(folder):
    for base, _dirs, names in os.walk(os.path.join(ROOT, folder)):
        for name in sorted(names):
            if name.endswith(".py"):
                yield os.path.relpath(os.path.join(base, name), ROOT)


def plugin_imports(path):
    """The plugin modules `path` imports, as dotted paths from the plugin root."""
    package = os.path.dirname(path).replace(os.sep, ".").split(".")
    tree = ast.parse(open(os.path.join(ROOT, path), encoding="utf-8").read())
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or node.level == 0:
            continue
        base = package[: len(package) - (node.level - 1)] if node.level > 1 else package
        module = [p for p in base if p] + (node.module.split(".") if node.module else [])
        if node.module is None:  # from . import x
            out += [".".join(module + [a.name]) for a in node.names]
        else:
            out.append(".".join(module))
            out += [".".join(module + [a.name]) for a in node.names]
    return out


def test_only_the_provider_imports_the_algorithms():
    offenders = []
    for folder in ("processing", "ui"):
        for path in sources(folder):
            if path.startswith(os.path.join("processing", "algorithms")):
                continue
            if path == os.path.join("processing", "provider.py"):
                continue
            hits = [m for m in plugin_imports(path) if m.startswith("processing.algorithms")]
            offenders += [f"{path}: {m}" for m in hits]
    assert offenders == []


def test_algorithms_import_library_modules_not_each_other():
    offenders = []
    for path in sources(os.path.join("processing", "algorithms")):
        hits = [m for m in plugin_imports(path) if m.startswith("processing.algorithms.")]
        offenders += [f"{path}: {m}" for m in hits]
    assert offenders == []


def test_imports_run_ui_to_processing_to_core_and_never_back():
    rank = {"core": 0, "processing": 1, "ui": 2}
    offenders = []
    for folder in PACKAGES:
        for path in sources(folder):
            for m in plugin_imports(path):
                top = m.split(".")[0]
                if top in rank and rank[top] > rank[folder]:
                    offenders.append(f"{path}: {m}")
    assert offenders == []


# Enum parameters of the GeoBias algorithms (processing/definitions.py): the dock must pass
# `CHOICES.index(key)`, never a number that depends on the choices' order.
ENUM_KEYS = ("METHOD", "PROVIDER", "PRESET", "SCORE", "BOOTSTRAP", "STATISTIC", "WEIGHTS",
             "SCOPE", "SCORER", "ANCHOR_STATISTIC", "VARIANTS", "LANGUAGES")  # fmt: skip


def test_the_dock_passes_no_enum_as_a_bare_position():
    keys = "|".join(ENUM_KEYS)
    literal = re.compile(rf"""["']({keys})["']\s*[:=]\s*(\d+|\[\s*\d)""")
    keyword = re.compile(rf"""\b({keys})\s*=\s*\d+\b""")
    offenders = []
    for path in sources("ui"):
        for i, line in enumerate(open(os.path.join(ROOT, path), encoding="utf-8"), start=1):
            if literal.search(line) or keyword.search(line):
                offenders.append(f"{path}:{i}: {line.strip()}")
    assert offenders == []


def test_the_dock_never_compares_a_combo_position():
    # "currentIndex() == 0" meant "the first choice" before the choices had keys.
    pattern = re.compile(r"currentIndex\(\)\s*(==|!=|in)\s*[\d(]")
    offenders = []
    for path in sources("ui"):
        for i, line in enumerate(open(os.path.join(ROOT, path), encoding="utf-8"), start=1):
            if pattern.search(line):
                offenders.append(f"{path}:{i}: {line.strip()}")
    assert offenders == []


# core/'s subpackages and what each may import (core/__init__.py): the top-level modules
# (messages, wording, resources) are the ground every subpackage stands on and import none.
CORE_MAY_IMPORT = {
    "": set(),
    "geo": set(),
    "stats": {"geo"},
    "runtime": set(),
    "engine": {"runtime"},
    "survey": {"geo", "stats", "runtime", "engine"},
    "herb": {"stats", "runtime", "engine"},
    # Provider batch APIs: the cache and endpoints, the survey's pending requests.
    "batch": {"engine", "survey", "geo", "stats", "runtime"},
}


def core_part(module):
    """The subpackage of a dotted core module ("core.survey.run" -> "survey"), "" at the top."""
    parts = module.split(".")
    return parts[1] if len(parts) > 2 else ""


def test_core_is_grouped_by_subsystem():
    loose = [p for p in sources("core") if p.count(os.sep) == 1]
    tops = {os.path.basename(p)[:-3] for p in loose} - {"__init__"}
    assert tops == {"messages", "wording", "resources"}, tops
    for part in CORE_MAY_IMPORT:
        if part:
            init = os.path.join(ROOT, "core", part, "__init__.py")
            assert ast.get_docstring(ast.parse(open(init, encoding="utf-8").read())), part


def test_core_subpackages_import_only_what_lies_below():
    offenders = []
    for path in sources("core"):
        here = core_part(path[:-3].replace(os.sep, "."))
        for m in plugin_imports(path):
            if not m.startswith("core."):
                continue
            there = m.split(".")[1]
            if there in CORE_MAY_IMPORT and there != here and there not in CORE_MAY_IMPORT[here]:
                offenders.append(f"{path}: {m}")
    assert offenders == []
