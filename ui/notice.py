"""A tab's own line for what stopped a job or what to do first: shown in the tab that started
the job, where the user can act on it, and kept until the next attempt (the message bar's
entries vanish after a few seconds)."""

from qgis.core import Qgis
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtWidgets import QLabel, QLayout

__all__ = ["Notice", "dismiss", "insert_after"]

# Text and background per level: readable on light and dark themes, not colour alone (the
# sentence says what happened).
COLOURS = {
    Qgis.MessageLevel.Info: ("#1f3b57", "#e3eef9"),
    Qgis.MessageLevel.Success: ("#1e4620", "#e4f3e5"),
    Qgis.MessageLevel.Warning: ("#5c3c00", "#fff4d6"),
    Qgis.MessageLevel.Critical: ("#6b1111", "#fde4e4"),
}


class Notice(QLabel):
    """A word-wrapped, selectable sentence, hidden while empty."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("notice")
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.level = Qgis.MessageLevel.Info
        self.hide()

    def show_text(self, text, level=Qgis.MessageLevel.Warning):
        """Show `text` (empty: hide)."""
        if not text:
            self.clear_text()
            return
        self.level = level
        fg, bg = COLOURS.get(level, COLOURS[Qgis.MessageLevel.Warning])
        self.setStyleSheet(
            f"QLabel#notice {{ color: {fg}; background: {bg}; border-radius: 3px; padding: 4px; }}"
        )
        self.setText(text)
        self.show()

    def clear_text(self):
        self.setText("")
        self.hide()


def _holds(item, widget):
    """Whether a layout item is `widget`, one of its ancestors, or a layout holding it."""
    held = item.widget()
    if held is not None:
        return held is widget or held.isAncestorOf(widget)
    child = item.layout()
    if isinstance(child, QLayout):
        return any(_holds(child.itemAt(k), widget) for k in range(child.count()))
    return False


def insert_after(anchor, widget, layout):
    """Put `widget` in the box `layout` (a tab's top-level layout) right after the item that
    holds `anchor` (a row of buttons, a group box); at the end when none does (the .ui file
    may have been rearranged)."""
    for i in range(layout.count()):
        if _holds(layout.itemAt(i), anchor):
            layout.insertWidget(i + 1, widget)
            return
    layout.addWidget(widget)


def dismiss(entry):
    """Remove a message bar entry (what push() returned) if it is still shown: the user may
    have closed it, or a test's push returned None."""
    if entry is None:
        return
    try:
        entry.dismiss()
    except (RuntimeError, AttributeError):  # deleted with its bar, or not an entry
        pass
