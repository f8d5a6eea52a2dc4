"""Combo and spin boxes that the mouse wheel changes only once they have the focus.

Scrolling a panel with the wheel passes over its widgets; a combo or spin box under the pointer
would take the wheel and change a setting without notice. QGIS's own panels ignore the wheel
there unless the widget was clicked or tabbed into first; GeoBias's dock and options page do
the same: the wheel then scrolls the panel.
"""

from qgis.PyQt.QtCore import QEvent, QObject, Qt
from qgis.PyQt.QtWidgets import QAbstractSpinBox, QComboBox

GUARDED = (QComboBox, QAbstractSpinBox)


class WheelGuard(QObject):
    """An event filter: a wheel over an unfocused guarded widget goes to its parents."""

    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Wheel and not obj.hasFocus():
            event.ignore()  # not accepted: Qt hands it on to the parent (the scroll area)
            return True
        return False


_GUARD = WheelGuard()


def guard_widget(widget):
    """Let `widget` take the wheel only while it has the focus (a click or Tab gives it)."""
    widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # not WheelFocus: the wheel gives none
    widget.removeEventFilter(_GUARD)  # once only, however often a tab is guarded
    widget.installEventFilter(_GUARD)
    return widget


def ignore_wheel_unless_focused(root):
    """Guard every combo and spin box inside `root` (call it again for widgets added later)."""
    widgets = [w for kind in GUARDED for w in root.findChildren(kind)]
    if isinstance(root, GUARDED):
        widgets.append(root)
    for w in widgets:
        guard_widget(w)
    return widgets
