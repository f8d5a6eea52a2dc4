"""Static checks that ruff and vermin miss: code that must run on GeoBias's Python floor.

vermin knows the standard library's versions but not that `int | None` builds a union type at
run time (Python 3.10+), so this finds `|` between types outside annotations (isinstance
arguments, aliases, defaults). Annotations are safe where `from __future__ import annotations`
makes them strings; ruff's FA102 makes sure those modules have it.

Usage: python scripts/check_compat.py [paths...]   (exit 1 and one line per finding)
"""

from __future__ import annotations

import ast
import os
import sys

SKIP_DIRS = {".venv", "build", "output", ".git", "__pycache__", ".pytest_cache", ".ruff_cache"}
TYPE_NAMES = {
    "int", "float", "str", "bytes", "bytearray", "bool", "list", "dict", "tuple", "set",
    "frozenset", "type", "object", "complex", "memoryview", "range",
}  # fmt: skip


def _is_type(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant) and node.value is None:
        return True
    if isinstance(node, ast.Name) and node.id in TYPE_NAMES:
        return True
    if isinstance(node, ast.Subscript):  # list[int] | None
        return _is_type(node.value)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _is_type(node.left) or _is_type(node.right)
    return False


def _annotations(tree: ast.AST) -> set[int]:
    """ids of every node inside an annotation (strings under the __future__ import)."""
    inside: set[int] = set()

    def mark(node):
        if node is not None:
            inside.update(id(n) for n in ast.walk(node))

    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            mark(node.returns)
            args = node.args
            for a in args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]:
                if a is not None:
                    mark(a.annotation)
        elif isinstance(node, ast.AnnAssign):
            mark(node.annotation)
    return inside


def check_source(source: str, path: str = "<string>") -> list[str]:
    """Findings for one module's source: 'path:line: message'."""
    tree = ast.parse(source, path)
    future = any(
        isinstance(n, ast.ImportFrom)
        and n.module == "__future__"
        and any(a.name == "annotations" for a in n.names)
        for n in tree.body
    )
    skip = _annotations(tree) if future else set()
    found = []
    for node in ast.walk(tree):
        if id(node) in skip or not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr)):
            continue
        if _is_type(node.left) or _is_type(node.right):
            found.append(
                f"{path}:{node.lineno}: `X | Y` of types needs Python 3.10 at run time; "
                "use a tuple (isinstance) or Optional/Union"
            )
    # Report each union once (nested `a | b | c` walks twice).
    return list(dict.fromkeys(found))


def python_files(paths):
    for top in paths:
        if os.path.isfile(top):
            yield top
            continue
        for folder, dirs, files in os.walk(top):
            dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
            for name in sorted(files):
                if name.endswith(".py"):
                    yield os.path.join(folder, name)


def main(argv: list[str]) -> int:
    findings = []
    for path in python_files(argv or ["."]):
        with open(path, encoding="utf-8") as f:
            findings.extend(check_source(f.read(), path))
    for line in findings:
        print(line)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
