"""Issue 28, item 2: the mouse wheel never changes a setting of the dock or the options page; it
scrolls the panel, and changes a combo or spin box only once that has the focus."""

import pytest
from qgis.core import QgsSettings
from qgis.PyQt.QtCore import QPoint, QPointF, Qt
from qgis.PyQt.QtGui import QWheelEvent
from qgis.PyQt.QtWidgets import QAbstractSpinBox, QApplication, QComboBox

from geobias.ui import settings as gs
from geobias.ui.dock import GeoBiasDock
from geobias.ui.options import GeoBiasOptionsPage


def wheel(widget, notches):
    """A wheel turn of `notches` (negative: towards the user) over the middle of `widget`,
    delivered as Qt delivers the window system's: to the widget, then to each parent until one
    accepts it (QApplication::notify; an event sent by code is not propagated, so the
    propagation is done here, and the desktop test turns a real wheel)."""
    pos = widget.rect().center()
    w = widget
    while w is not None:
        event = QWheelEvent(QPointF(pos), QPointF(w.mapToGlobal(pos)), QPoint(0, 0),
                            QPoint(0, 120 * notches), Qt.MouseButton.NoButton,
                            Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase,
                            False)  # fmt: skip
        QApplication.sendEvent(w, event)
        if event.isAccepted() or w.isWindow():
            return w
        pos = w.mapToParent(pos)
        w = w.parentWidget()
    return None


def value(w):
    return w.currentIndex() if isinstance(w, QComboBox) else w.value()


def guarded(root):
    out = [w for kind in (QComboBox, QAbstractSpinBox) for w in root.findChildren(kind)]
    # A combo without a choice, or a spin box at both ends, cannot show a change.
    return [w for w in out if (w.count() > 1 if isinstance(w, QComboBox) else True)]


@pytest.fixture()
def dock(qgis_iface, qgis_new_project):
    d = GeoBiasDock(qgis_iface)
    d.setFloating(True)  # a window of its own: shown without the main window
    d.resize(380, 420)  # shorter than its tabs: they scroll
    d.show()
    QApplication.processEvents()
    yield d
    d.close_survey()
    d.deleteLater()


def test_scrolling_the_dock_changes_no_setting(dock):
    before = dock.settings()
    scrolled = 0
    for i, tab in enumerate(dock.tab_widgets()):
        dock.ui.tabs.setCurrentIndex(i)
        QApplication.processEvents()
        bar = dock.ui.tabs.widget(i).verticalScrollBar()
        widgets = guarded(tab)
        states = [value(w) for w in widgets]
        for w in widgets:
            w.clearFocus()
            start = bar.value()
            wheel(w, -3)
            scrolled += bar.value() != start  # the wheel went on to the scroll area
            wheel(w, 3)
        assert [value(w) for w in widgets] == states, dock.ui.tabs.tabText(i)
    assert dock.settings() == before
    assert scrolled > 0  # the tabs scrolled under the wheel instead


def test_a_focused_widget_still_takes_the_wheel(dock):
    spin = dock.area.nPointsSpin
    dock.activateWindow()
    spin.setFocus(Qt.FocusReason.MouseFocusReason)
    QApplication.processEvents()
    if not spin.hasFocus():
        pytest.fail("the offscreen window gave no focus")
    start = spin.value()
    wheel(spin, 1)
    assert spin.value() == start + spin.singleStep()
    assert spin.focusPolicy() == Qt.FocusPolicy.StrongFocus  # the wheel itself gives no focus


def test_scrolling_the_options_page_changes_no_setting(qgis_app):
    QgsSettings().remove(gs.SETTINGS_GROUP)
    page = GeoBiasOptionsPage()
    page.add()  # an editable endpoint: every widget enabled
    page.show()
    widgets = guarded(page)
    assert page.providerCombo in widgets and page.constraintCombo in widgets
    states = [value(w) for w in widgets]
    for w in widgets:
        w.clearFocus()
        wheel(w, -2)
        wheel(w, 1)
    assert [value(w) for w in widgets] == states
    QgsSettings().remove(gs.SETTINGS_GROUP)
