"""Qt classes that moved between Qt 5 and Qt 6, imported from wherever the running Qt has them.

Qt 6 moved QAction, QActionGroup, QShortcut, QFileSystemModel and the undo framework from
QtWidgets to QtGui. QGIS 4's PyQt6 shim for QtWidgets re-exports nothing from QtGui, so
`from qgis.PyQt.QtWidgets import QAction` fails there at the plugin's first import, and
`from qgis.PyQt.QtGui import QAction` fails on QGIS 3 (Qt 5). Import them from here;
scripts/check_qt6.py (`make lint`) flags an import of one of them from either Qt module.
"""

try:  # Qt 6 (QGIS 4)
    from qgis.PyQt.QtGui import (  # qt6: allow (the one place that picks the module)
        QAction,
        QActionGroup,
        QFileSystemModel,
        QShortcut,
        QUndoCommand,
        QUndoGroup,
        QUndoStack,
    )
except ImportError:  # Qt 5 (QGIS 3)
    from qgis.PyQt.QtWidgets import (  # qt6: allow (the one place that picks the module)
        QAction,
        QActionGroup,
        QFileSystemModel,
        QShortcut,
        QUndoCommand,
        QUndoGroup,
        QUndoStack,
    )

__all__ = ["QAction", "QActionGroup", "QFileSystemModel", "QShortcut", "QUndoCommand",
           "QUndoGroup", "QUndoStack"]  # fmt: skip
