"""What keeps the dock readable when it is docked narrow (350 px and up): a tab strip that wraps
onto a second row instead of hiding tabs behind scroll arrows, a layout that wraps its buttons,
first table columns wide enough for a dozen characters, and combo boxes whose choices read
whole."""

from qgis.PyQt.QtCore import QEvent, QObject, QRect, QSize, Qt
from qgis.PyQt.QtGui import QFontMetrics
from qgis.PyQt.QtWidgets import (
    QButtonGroup,
    QHeaderView,
    QLayout,
    QSizePolicy,
    QToolButton,
    QWidget,
)

# The first column of every table shows at least this many characters.
FIRST_COLUMN_CHARS = 12
# Room a table cell takes around its text (the style's margins, a sort arrow's gap).
CELL_PADDING = 14


def chars_width(widget, chars):
    """Pixels `chars` average characters of the widget's font take."""
    return QFontMetrics(widget.font()).averageCharWidth() * chars


def first_column_width(view, chars=FIRST_COLUMN_CHARS):
    """The least width of a table's first column: `chars` characters and the cell's padding."""
    return chars_width(view, chars) + CELL_PADDING


def fit_first_column(view, most=None, chars=FIRST_COLUMN_CHARS):
    """Size a table's first column to its contents, at least `chars` characters, at most
    `most` pixels (long names are elided; their tooltip has them whole)."""
    view.setWordWrap(False)  # wrapped, a one-line row would show only the first word
    view.resizeColumnToContents(0)
    width = max(view.columnWidth(0), first_column_width(view, chars))
    if most is not None:
        width = min(width, max(most, first_column_width(view, chars)))
    view.setColumnWidth(0, width)
    return width


class FlowLayout(QLayout):
    """Widgets left to right, wrapping onto the next row when the width runs out."""

    def __init__(self, parent=None, spacing=2):
        super().__init__(parent)
        self._items = []
        self._gap = spacing
        self.setContentsMargins(0, 0, 0, 0)

    def addItem(self, item):
        self._items.append(item)

    def count(self):
        return len(self._items)

    def itemAt(self, index):
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index):
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def hasHeightForWidth(self):
        return True

    def heightForWidth(self, width):
        return self._arrange(QRect(0, 0, width, 0), move=False)

    def setGeometry(self, rect):
        super().setGeometry(rect)
        self._arrange(rect, move=True)

    def sizeHint(self):
        """One row of every item."""
        m = self.contentsMargins()
        hints = [item.sizeHint() for item in self._items]
        width = sum(h.width() for h in hints) + self._gap * max(0, len(hints) - 1)
        height = max((h.height() for h in hints), default=0)
        return QSize(width + m.left() + m.right(), height + m.top() + m.bottom())

    def minimumSize(self):
        """The widest item: anything narrower would clip it."""
        m = self.contentsMargins()
        width = max((item.minimumSize().width() for item in self._items), default=0)
        height = max((item.minimumSize().height() for item in self._items), default=0)
        return QSize(width + m.left() + m.right(), height + m.top() + m.bottom())

    def _arrange(self, rect, move):
        """Place the items in rows within `rect` (or only measure); returns the height used."""
        m = self.contentsMargins()
        left, top = rect.x() + m.left(), rect.y() + m.top()
        right = rect.x() + rect.width() - m.right()
        x, y, row_height = left, top, 0
        for item in self._items:
            if item.isEmpty():
                continue
            size = item.sizeHint()
            if x > left and x + size.width() > right:  # wrap
                x, y = left, y + row_height + self._gap
                row_height = 0
            if move:
                item.setGeometry(QRect(x, y, min(size.width(), right - x), size.height()))
            x += size.width() + self._gap
            row_height = max(row_height, size.height())
        return y + row_height - rect.y() + m.bottom()


def add_choices(combo, choices):
    """Fill a combo box with (key, short label, full label) choices: the dock's narrow box shows
    the short label whole, the full one (Processing's, with its details) is the choice's tooltip
    in the open list and the box's tooltip for the current choice."""
    for key, short, full in choices:
        combo.addItem(short, key)
        combo.setItemData(combo.count() - 1, full, Qt.ItemDataRole.ToolTipRole)

    def show_tooltip(*_args):
        combo.setToolTip(combo.currentData(Qt.ItemDataRole.ToolTipRole) or "")

    combo.currentIndexChanged.connect(show_tooltip)
    show_tooltip()


def wrap_row(row):
    """Let a row of buttons (a QHBoxLayout of a .ui form) wrap onto a second row in a narrow
    dock: its widgets move into a FlowLayout that takes the row's place."""
    outer = row.parent()
    index = next(i for i in range(outer.count()) if outer.itemAt(i).layout() is row)
    widgets = [row.itemAt(i).widget() for i in range(row.count())]
    holder = QWidget()
    flow = FlowLayout(holder, spacing=row.spacing() if row.spacing() >= 0 else 6)
    for widget in widgets:
        if widget is not None:
            flow.addWidget(widget)
    outer.takeAt(index)
    outer.insertWidget(index, holder)
    return holder


class TabStrip(QWidget):
    """The tabs of a QTabWidget as a row of buttons that wraps onto a second row in a narrow
    dock (a tab bar would hide the last tabs behind scroll arrows). The tab widget keeps its
    pages, titles and current index; its own bar is hidden."""

    def __init__(self, tabs, parent=None):
        super().__init__(parent)
        self.tabs = tabs
        self.group = QButtonGroup(self)
        self.group.setExclusive(True)
        self.flow = FlowLayout(self)
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)
        tabs.tabBar().hide()
        tabs.currentChanged.connect(self._current_changed)

    def add(self, index, title):
        """A button for the tab at `index` (call after QTabWidget.addTab)."""
        button = QToolButton(self)
        button.setText(title)
        button.setToolTip(title)
        button.setCheckable(True)
        button.setAutoRaise(True)
        button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        button.setObjectName(f"tab{index}")
        button.clicked.connect(lambda _checked=False, i=index: self.tabs.setCurrentIndex(i))
        self.group.addButton(button, index)
        self.flow.addWidget(button)
        self._current_changed(self.tabs.currentIndex())
        return button

    def buttons(self):
        return [self.group.button(i) for i in range(self.tabs.count())]

    def _current_changed(self, index):
        button = self.group.button(index)
        if button is not None:
            button.setChecked(True)
        for b in self.group.buttons():  # the current tab reads as the heading of its page
            font = b.font()
            font.setBold(b is button)
            b.setFont(font)

    def hasHeightForWidth(self):
        return True

    def heightForWidth(self, width):
        return self.flow.heightForWidth(width)

    def sizeHint(self):
        return self.flow.sizeHint()

    def minimumSizeHint(self):
        return self.flow.minimumSize()


def stretch_first_column(view, widths):
    """The first column takes the room the others leave, which shrink (down to their
    contents' minimum) before it gets narrower than FIRST_COLUMN_CHARS characters.

    `widths` are the preferred widths of the other columns; re-applied on every resize."""
    view.setWordWrap(False)  # wrapped, a one-line row would show only the first word
    header = view.horizontalHeader()
    header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
    for col in range(1, 1 + len(widths)):
        header.setSectionResizeMode(col, QHeaderView.ResizeMode.Fixed)

    def fit():
        room = view.viewport().width() - first_column_width(view)
        share = max(40, room // max(1, len(widths)))
        for col, want in enumerate(widths, start=1):
            header.resizeSection(col, min(want, share))

    class Refit(QObject):
        """Resize events of the view's viewport (the view's own come before its viewport is
        resized) reach fit()."""

        def eventFilter(self, obj, event):
            if event.type() == QEvent.Type.Resize:
                fit()
            return False

    refit = Refit(view)
    view.viewport().installEventFilter(refit)
    fit()
    return refit
