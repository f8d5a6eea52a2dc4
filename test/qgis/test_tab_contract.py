"""Tabs on one contract (issue 34 item 4): every dock tab is a DockTab registered in dock.TABS,
the dock calls fill/apply/reset/close_tab on each without looking them up, and a custom topic
with ';' is refused in the Survey tab with the reason (TOPICS separates topics with it)."""

import importlib
import os
import sys
import types

import pytest

from geobias.ui import dock as dock_module
from geobias.ui.dock import TABS, GeoBiasDock
from geobias.ui.tab import DockTab

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture()
def dock(qgis_iface, qgis_new_project, processing_ready):
    d = GeoBiasDock(qgis_iface)
    yield d
    d.close_survey()
    d.deleteLater()


def test_every_tab_is_a_registered_dock_tab(dock):
    tabs = dock.tab_widgets()
    classes = [getattr(importlib.import_module(f"geobias.ui.{m}"), c) for _a, m, c, _t in TABS]
    assert [type(t) for t in tabs] == classes
    assert all(isinstance(t, DockTab) for t in tabs)
    assert [getattr(dock, a) for a, _m, _c, _t in TABS] == tabs
    assert dock.tab_panels == {dock.herb: dock.herb.panel}  # the one tab with its own panel
    with open(os.path.join(ROOT, "ui", "dock.py"), encoding="utf-8") as f:
        assert "hasattr(" not in f.read()  # the contract, not methods looked up by name


def test_a_registered_tab_is_asked_like_the_others(qgis_iface, qgis_new_project,
                                                    processing_ready, monkeypatch):  # fmt: skip
    from qgis.PyQt.QtWidgets import QVBoxLayout, QWidget

    calls = []

    class NoteTab(QWidget, DockTab):
        """The smallest tab: a layout, and the settings' name echoed back."""

        def __init__(self, parent):
            super().__init__(parent)
            QVBoxLayout(self)

        def fill(self, settings):
            calls.append(("fill", settings.name))

        def close_tab(self):
            calls.append(("close", None))

    # A module of its own, as a real tab has (ui/note_tab.py), without a file in the plugin.
    monkeypatch.setitem(sys.modules, "geobias.ui.note_tab", types.SimpleNamespace(NoteTab=NoteTab))
    monkeypatch.setattr(dock_module, "TABS", (*TABS, ("note", "note_tab", "NoteTab", "Note")))
    d = GeoBiasDock(qgis_iface)
    try:
        assert isinstance(d.note, NoteTab) and d.tab_widgets()[-1] is d.note
        d.ui.nameEdit.setText("run one")
        d.settings()
        assert ("fill", "run one") in calls
        d.reset_results()  # DockTab's reset: nothing to do, nothing raised
    finally:
        d.close_survey()
        d.deleteLater()
    assert ("close", None) in calls


def test_a_custom_topic_with_a_semicolon_is_refused_in_the_tab(dock):
    survey = dock.survey
    before = survey.checked_topics()
    survey.customTopicEdit.setText("Income; Crime")
    survey.add_custom_topic()
    assert survey.checked_topics() == before  # nothing added, neither half
    assert survey.topicNotice.isVisibleTo(survey) and "';'" in survey.topicNotice.text()
    assert survey.customTopicEdit.text() == "Income; Crime"  # kept, to be corrected
    survey.customTopicEdit.setText("Average Income")
    survey.add_custom_topic()
    assert "Average Income" in survey.checked_topics()
    assert not survey.topicNotice.isVisibleTo(survey)
