"""`make lint` fails on what breaks GeoBias on QGIS 4 / Qt6 (scripts/check_qt6.py finds what
QGIS's own PyQt5-to-PyQt6 migration script would change), and the tree is clean."""

import importlib
import os
import subprocess
import sys
import types

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import check_qt6  # noqa: E402

CHECK = os.path.join(ROOT, "scripts", "check_qt6.py")


@pytest.fixture(scope="module")
def table():
    return check_qt6.enum_table()


def lint(path):
    """check_qt6.py as `make lint` runs it."""
    return subprocess.run([sys.executable, CHECK, str(path)], capture_output=True, text=True)


@pytest.mark.parametrize(
    "code, expect",
    [
        ("from qgis.PyQt.QtCore import Qt\nx = Qt.AlignLeft\n", "Qt.AlignmentFlag.AlignLeft"),
        ("from qgis.core import QgsWkbTypes\ng = QgsWkbTypes.PolygonGeometry\n",
         "QgsWkbTypes.GeometryType.PolygonGeometry"),
        ("from qgis.core import Qgis\nlevel = Qgis.Info\n", "Qgis.MessageLevel.Info"),
        ("from qgis.PyQt import QtCore\nm = QtCore.Qt.LeftButton\n", "Qt.MouseButton.LeftButton"),
        ("from qgis.PyQt.QtWidgets import QDialog\nok = QDialog.Accepted\n", "DialogCode"),
        ("from PyQt5.QtCore import QTimer\n", "use qgis.PyQt"),
        ("import PyQt5.QtGui\n", "use qgis.PyQt"),
        ("from qgis.PyQt.QtCore import QVariant\nt = QVariant.Double\n", "QMetaType"),
        ("from qgis.PyQt.QtCore import QVariant\nnull = QVariant()\n", "NULL"),
        ("dialog.exec_()\n", "exec()"),
        ("from qgis.PyQt.QtCore import Qt\nb = Qt.MidButton\n", "Qt.MouseButton.MiddleButton"),
        ("from qgis.PyQt.QtWidgets import qApp\n", "QApplication.instance()"),
        ("w = widget.fontMetrics().width('x')\n", "horizontalAdvance"),
        ("combo.activated[str].connect(f)\n", "textActivated"),
        # Moved in Qt6: from QtWidgets fails on QGIS 4, from QtGui on QGIS 3.
        ("from qgis.PyQt.QtWidgets import QAction\n", "QtGui on Qt6: import it from qt_compat"),
        ("from qgis.PyQt.QtWidgets import QLabel, QActionGroup\n", "QActionGroup is in"),
        ("from qgis.PyQt.QtGui import QShortcut\n", "import it from qt_compat"),
        ("from qgis.PyQt.QtWidgets import QFileSystemModel\n", "QFileSystemModel is in"),
        ("from qgis.PyQt.QtWidgets import QUndoCommand\n", "QUndoCommand is in"),
        ("from qgis.PyQt import QtWidgets\na = QtWidgets.QAction('x')\n",
         "import QAction from qt_compat"),
        ("from qgis.PyQt.QtWidgets import QOpenGLWidget\n", "QtOpenGLWidgets on Qt6"),
    ],
)  # fmt: skip
def test_what_qt6_breaks_is_found(table, code, expect):
    found = check_qt6.check_source(code, "x.py", table)
    assert found and any(expect in f for f in found), found


@pytest.mark.parametrize(
    "code",
    [
        "from qgis.PyQt.QtCore import Qt\n"
        "x = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop\n",
        "from qgis.core import QgsWkbTypes\ng = QgsWkbTypes.GeometryType.PolygonGeometry\n",
        "from qgis.core import Qgis\nlevel = Qgis.MessageLevel.Info\n",
        "from qgis.PyQt.QtCore import QMetaType\nt = QMetaType.Type.Double\n",
        "dialog.exec()\n",
        "from qgis.PyQt.QtCore import QVariant\nt = QVariant.Double  # qt6: allow (QGIS < 3.38)\n",
        "from geobias.qt_compat import QAction, QUndoStack\n",
        "from .qt_compat import QAction\n",
        "from qgis.PyQt.QtWidgets import QWidgetAction, QUndoView, QMenu\n",
    ],
)  # fmt: skip
def test_qt6_ready_code_passes(table, code):
    assert check_qt6.check_source(code, "x.py", table) == []


def test_the_lint_fails_on_an_unscoped_qt_enum(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from qgis.PyQt.QtCore import Qt\nalign = Qt.AlignLeft\n")
    out = lint(bad)
    assert out.returncode == 1 and "Qt.AlignmentFlag.AlignLeft" in out.stdout
    good = tmp_path / "good.py"
    good.write_text("from qgis.PyQt.QtCore import Qt\nalign = Qt.AlignmentFlag.AlignLeft\n")
    assert lint(good).returncode == 0


def test_the_lint_fails_on_a_moved_class_from_its_qt5_module(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from qgis.PyQt.QtWidgets import QAction, QMenu\n")
    out = lint(bad)
    assert out.returncode == 1 and "QAction is in QtWidgets on Qt5 and QtGui on Qt6" in out.stdout
    bad.write_text("from geobias.qt_compat import QAction\nfrom qgis.PyQt.QtWidgets import QMenu\n")
    assert lint(bad).returncode == 0


def test_qt_compat_gives_qt5s_classes_here_and_qt6s_under_qgis_4(monkeypatch):
    from qgis.PyQt import QtWidgets

    from geobias import qt_compat

    assert qt_compat.QAction is QtWidgets.QAction  # qt6: allow (QGIS 3's Qt5 is the truth here)
    assert qt_compat.QFileSystemModel is QtWidgets.QFileSystemModel  # qt6: allow (same)
    # QGIS 4: QtGui has the moved classes, its QtWidgets shim does not re-export them.
    qt6_gui = types.ModuleType("qgis.PyQt.QtGui")
    for name in qt_compat.__all__:
        setattr(qt6_gui, name, type(name, (), {}))
    monkeypatch.setitem(sys.modules, "qgis.PyQt.QtGui", qt6_gui)
    monkeypatch.delitem(sys.modules, "geobias.qt_compat")
    qt6 = importlib.import_module("geobias.qt_compat")
    assert all(getattr(qt6, name) is getattr(qt6_gui, name) for name in qt_compat.__all__)
    monkeypatch.delitem(sys.modules, "geobias.qt_compat")  # the real one again for later tests


def test_scoped_enums_work_on_this_qgis():
    # What the sweep writes must run here too (QGIS 3.22's PyQt5 5.15 and newer).
    from qgis.core import Qgis, QgsProcessing, QgsWkbTypes
    from qgis.PyQt.QtCore import QMetaType, Qt

    assert QgsWkbTypes.GeometryType.PolygonGeometry == QgsWkbTypes.PolygonGeometry  # qt6: allow
    assert Qgis.MessageLevel.Info == Qgis.Info  # qt6: allow
    assert QgsProcessing.SourceType.TypeVectorPoint == QgsProcessing.TypeVectorPoint  # qt6: allow
    assert Qt.AlignmentFlag.AlignLeft == Qt.AlignLeft  # qt6: allow
    assert int(QMetaType.Type.Double) == 6


def test_the_tree_is_clean():
    out = lint(ROOT)
    assert out.returncode == 0, out.stdout[-3000:]
