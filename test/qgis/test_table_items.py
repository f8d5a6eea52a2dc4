"""One NumberItem (issue 34 item 4) for the Compare and Regional bias tables: sorted by value,
an empty cell last whichever way the column is sorted (the two copies disagreed: Compare put
empty cells first going down, Regional bias first going up)."""

import math

import pytest
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtWidgets import QTableWidget, QTableWidgetItem

from geobias.ui.table_items import NumberItem


@pytest.fixture()
def table(qgis_app):
    values = [2.0, None, 1.0, math.nan, 3.0, "not a number"]
    t = QTableWidget(len(values), 2)
    for i, v in enumerate(values):
        t.setItem(i, 0, NumberItem(v))
        t.setItem(i, 1, QTableWidgetItem(f"row {i}"))
    t.setSortingEnabled(True)
    yield t
    t.deleteLater()


def column(t):
    return [t.item(i, 0).text() for i in range(t.rowCount())]


@pytest.mark.parametrize(
    "order, expected",
    [
        (Qt.SortOrder.AscendingOrder, ["1.00", "2.00", "3.00", "", "", ""]),
        (Qt.SortOrder.DescendingOrder, ["3.00", "2.00", "1.00", "", "", ""]),
    ],
)
def test_empty_cells_sort_last_both_ways(table, order, expected):
    table.sortByColumn(0, order)
    assert column(table) == expected


def test_a_cell_shows_its_decimals_or_its_empty_text(qgis_app):
    assert NumberItem(0.123456, 4, "–").text() == "0.1235"
    assert NumberItem(None, 4, "–").text() == "–"
    assert math.isnan(NumberItem("x").value)
    # Outside a table (no header): empty last going up.
    assert NumberItem(1.0) < NumberItem(None) and not NumberItem(None) < NumberItem(1.0)
