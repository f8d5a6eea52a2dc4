"""Table cells the dock's tables share."""

import math

from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtWidgets import QTableWidgetItem


def number(value):
    """A float of `value`, NaN for None or anything that is not a number."""
    try:
        return float(value)
    except (TypeError, ValueError):
        return math.nan


class NumberItem(QTableWidgetItem):
    """A table cell holding a number, shown to `decimals` places and sorted by value; an empty
    cell (NaN: no value) sorts last whichever way the column is sorted, so the values stay on
    top of a column sorted high to low as well as low to high."""

    def __init__(self, value, decimals=2, empty=""):
        self.value = number(value)
        text = empty if math.isnan(self.value) else f"{self.value:.{decimals}f}"
        super().__init__(text)
        self.setTextAlignment(int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter))

    def _descending(self):
        table = self.tableWidget()
        header = table.horizontalHeader() if table is not None else None
        return header is not None and (
            header.sortIndicatorOrder() == Qt.SortOrder.DescendingOrder
        )  # fmt: skip

    def __lt__(self, other):
        if not isinstance(other, NumberItem):
            return super().__lt__(other)
        a, b = self.value, other.value
        if math.isnan(a) or math.isnan(b):
            if math.isnan(a) and math.isnan(b):
                return False
            # Qt puts the smaller first going up and the larger first going down: an empty
            # cell is the largest going up and the smallest going down.
            return math.isnan(a) if self._descending() else math.isnan(b)
        return a < b
