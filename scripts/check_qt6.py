"""Static check for QGIS 4 / Qt6: what QGIS's own PyQt5 to PyQt6 migration script would change.

QGIS ships `scripts/pyqt5_to_pyqt6/pyqt5_to_pyqt6.py` to port plugins; code it would rewrite or
warn about breaks on QGIS 4. This finds the same things without changing files, so GeoBias stays
loadable on QGIS 3.22 to 4.x from one source:

- enums used without their scope (`Qt.AlignLeft` for `Qt.AlignmentFlag.AlignLeft`,
  `QgsWkbTypes.Point` for `QgsWkbTypes.Type.Point`): PyQt6 and QGIS 4 only know the scoped
  names, which QGIS 3.22's PyQt5 5.15 also accepts. The enums come from the Qt and QGIS modules
  of the running QGIS, the way the migration script builds its table;
- `QVariant` field types (`QVariant.Double`: QGIS 4 wants `QMetaType.Type.Double`) and
  `QVariant()` for NULL;
- Qt5-only names: `exec_`, `qApp`, `QRegExp`, `QDesktopWidget` (`.desktop()`),
  `QFontMetrics.width`, `activated[str]`, compiled resources, enums Qt6 renamed
  (`Qt.MidButton`...), `QDateTime` built from 8 numbers or from a bare `QDate`;
- imports from `PyQt5`/`PyQt6` or `qgis.PyQt.Qt` instead of `qgis.PyQt.QtCore` and friends;
- classes Qt6 moved to another module (`QAction` from QtWidgets to QtGui...), imported from
  either Qt module or used as `QtWidgets.QAction`: they come from qt_compat.py, which picks
  the module the running Qt has (QGIS 4's QtWidgets shim does not re-export them).

A line that must keep a Qt5 form (a version switch) says so with `# qt6: allow (why)`.

Usage: python scripts/check_qt6.py [--fix] [paths...]   (exit 1 and one line per finding)
--fix scopes the unambiguous enums in place (the mechanical part); the rest is by hand.
"""

from __future__ import annotations

import ast
import enum
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_compat import python_files  # noqa: E402

ALLOW = "# qt6: allow"
QT_MODULES = ("QtCore", "QtGui", "QtWidgets", "QtNetwork", "QtXml", "QtSvg", "QtPrintSupport",
              "QtSql", "QtTest")  # fmt: skip
QGIS_MODULES = ("qgis.core", "qgis.gui", "qgis.analysis")
# Classes Qt6 moved: name -> (Qt5 module, Qt6 module). qt_compat.py imports the first group.
MOVED = {
    **{name: ("QtWidgets", "QtGui") for name in ("QAction", "QActionGroup", "QShortcut",
       "QFileSystemModel", "QUndoCommand", "QUndoGroup", "QUndoStack")},
    "QOpenGLWidget": ("QtWidgets", "QtOpenGLWidgets"),
}  # fmt: skip
# Enum members Qt6 renamed (the migration script's table): old name -> scoped new name.
RENAMED = {
    ("Qt", "MidButton"): "Qt.MouseButton.MiddleButton",
    ("Qt", "TextColorRole"): "Qt.ItemDataRole.ForegroundRole",
    ("Qt", "BackgroundColorRole"): "Qt.ItemDataRole.BackgroundRole",
    ("QPainter", "HighQualityAntialiasing"): "QPainter.RenderHint.Antialiasing",
}


def enum_table() -> dict[tuple[str, str], set[str]]:
    """(class, member) -> names of the enums of that class holding the member, from the
    installed PyQt and QGIS (members reached through subclasses included, as `QDialog.Accepted`
    for QDialog.DialogCode.Accepted)."""
    import importlib

    from qgis.PyQt.QtCore import Qt

    sip_enum = type(type(Qt.AlignLeft))  # qt6: allow (the metatype of PyQt5's enums)
    modules = [importlib.import_module(f"qgis.PyQt.{m}") for m in QT_MODULES]
    modules += [importlib.import_module(m) for m in QGIS_MODULES]
    table: dict[tuple[str, str], set[str]] = {}
    for module in modules:
        for name, cls in vars(module).items():
            if not isinstance(cls, type) or name.startswith("_"):
                continue
            for attr in dir(cls):
                if attr.startswith("_"):
                    continue
                try:
                    value = getattr(cls, attr)
                except Exception:  # some sip descriptors refuse class access
                    continue
                kind = type(value)
                if not (isinstance(kind, sip_enum) or isinstance(value, enum.Enum)):
                    continue
                if getattr(cls, kind.__name__, None) is kind and kind.__name__ != attr:
                    table.setdefault((name, attr), set()).add(kind.__name__)
    return table


def _chain_end(node: ast.AST) -> str | None:
    """The class name an attribute is taken from: `Qt` in `Qt.X` and in `QtCore.Qt.X`."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def check_source(source: str, path: str, table: dict, fixes: list | None = None) -> list[str]:
    """Findings for one module: 'path:line: message'. With a `fixes` list, each unambiguous
    unscoped enum also adds (line, byte column of the member, enum name) to it."""
    tree = ast.parse(source, path)
    lines = source.splitlines()
    found = []

    def report(node, message):
        line = lines[node.lineno - 1] if node.lineno <= len(lines) else ""
        if ALLOW not in line:
            found.append(f"{path}:{node.lineno}: {message}")
            return True
        return False

    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            top = node.module.split(".")[0]
            names = {a.name for a in node.names}
            if top in ("PyQt5", "PyQt6"):
                report(node, f"import from {node.module}: use qgis.PyQt.{node.module[6:]}")
            elif node.module == "qgis.PyQt.Qt":
                report(node, "qgis.PyQt.Qt is gone in Qt6: import Qt from qgis.PyQt.QtCore")
            qt_module = node.module.rpartition(".")[2]
            for name in sorted(names & set(MOVED)):
                old, new = MOVED[name]
                if qt_module in (old, new):
                    report(node, f"{name} is in {old} on Qt5 and {new} on Qt6: import it from "
                           "qt_compat (the plugin's root)")  # fmt: skip
            if "QRegExp" in names:
                report(node, "QRegExp is removed in Qt6: use QRegularExpression")
            if "qApp" in names:
                report(node, "qApp is removed in Qt6: use QApplication.instance()")
            if "resources_rc" in names:
                report(node, "compiled resources are removed in Qt6: load files by path")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in ("PyQt5", "PyQt6"):
                    report(node, f"import {alias.name}: use qgis.PyQt")
        elif isinstance(node, ast.FunctionDef) and node.name == "exec_":
            report(node, "exec_ is gone in Qt6: name it exec")
        elif isinstance(node, ast.Name) and node.id == "qApp":
            report(node, "qApp is removed in Qt6: use QApplication.instance()")
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute):
                if func.attr == "exec_":
                    report(node, "exec_() is gone in Qt6: call exec()")
                elif func.attr == "desktop" and not node.args:
                    report(node, "QDesktopWidget (desktop()) is removed in Qt6: use QScreen")
                elif func.attr == "addAction" and len(node.args) >= 4:
                    report(node, "fragile addAction(...) overload: create the QAction first")
                elif func.attr == "width" and isinstance(func.value, ast.Call):
                    inner = func.value.func
                    if _chain_end(inner) in ("fontMetrics", "QFontMetrics", "QFontMetricsF"):
                        report(node, "QFontMetrics.width() is removed in Qt6: horizontalAdvance()")
            name = _chain_end(func)
            first = node.args[0] if node.args else None
            if name == "QVariant" and (
                first is None
                or (isinstance(first, ast.Attribute) and _chain_end(first.value) == "QVariant")
            ):
                report(node, "QVariant() as NULL breaks on Qt6: use qgis.core.NULL")
            elif name == "QDateTime" and (
                len(node.args) == 8
                or (
                    len(node.args) == 1
                    and isinstance(node.args[0], ast.Call)
                    and _chain_end(node.args[0].func) == "QDate"
                )
            ):
                report(node, "this QDateTime constructor is gone in Qt6: QDateTime(QDate, QTime)")
        elif isinstance(node, ast.Subscript):
            value, index = node.value, node.slice
            if (
                isinstance(value, ast.Attribute)
                and value.attr == "activated"
                and isinstance(index, ast.Name)
                and index.id == "str"
            ):
                report(node, "activated[str] is removed in Qt6: use textActivated")
        elif isinstance(node, ast.Attribute):
            owner = _chain_end(node.value)
            if owner is None:
                continue
            if node.attr in MOVED and owner in MOVED[node.attr]:
                report(node, f"{owner}.{node.attr} is not there on both Qt5 and Qt6: import "
                       f"{node.attr} from qt_compat")  # fmt: skip
                continue
            if owner == "QVariant":
                if node.attr[:1].isupper():
                    report(
                        node,
                        f"QVariant.{node.attr}: QGIS 4 takes QMetaType.Type field types "
                        "(processing/layers.py field_type gives the right one for each QGIS)",
                    )
                continue
            if (owner, node.attr) in RENAMED:
                report(node, f"{owner}.{node.attr} is renamed in Qt6: {RENAMED[owner, node.attr]}")
                continue
            enums = table.get((owner, node.attr))
            if enums:
                scoped = " or ".join(f"{owner}.{e}.{node.attr}" for e in sorted(enums))
                if report(node, f"unscoped enum {owner}.{node.attr}: write {scoped}"):
                    if fixes is not None and len(enums) == 1:
                        column = node.end_col_offset - len(node.attr.encode("utf-8"))
                        fixes.append((node.end_lineno, column, next(iter(enums))))
    return list(dict.fromkeys(found))


def apply_fixes(source: str, fixes: list) -> str:
    """Insert `Enum.` before each member (columns are UTF-8 byte offsets, as ast gives them)."""
    lines = source.splitlines(keepends=True)
    for lineno, column, name in sorted(set(fixes), reverse=True):
        raw = lines[lineno - 1].encode("utf-8")
        lines[lineno - 1] = (raw[:column] + f"{name}.".encode() + raw[column:]).decode("utf-8")
    return "".join(lines)


def main(argv: list[str]) -> int:
    fix = "--fix" in argv
    argv = [a for a in argv if a != "--fix"]
    table = enum_table()
    findings = []
    for path in python_files(argv or ["."]):
        with open(path, encoding="utf-8") as f:
            source = f.read()
        fixes: list = []
        found = check_source(source, path, table, fixes if fix else None)
        if fixes:
            with open(path, "w", encoding="utf-8") as f:
                f.write(apply_fixes(source, fixes))
            found = check_source(apply_fixes(source, fixes), path, table)
        findings.extend(found)
    for line in findings:
        print(line)
    if findings:
        print(f"check_qt6: {len(findings)} finding(s) that break on QGIS 4 / Qt6")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
