"""Metrics table filled from a metrics layer and from core summaries, sortable; plot paints."""

import numpy as np
import pytest
from qgis.core import QgsFeature, QgsField, QgsVectorLayer
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtWidgets import QTableView

from geobias.core.stats.metrics import rank_error, summarize
from geobias.processing.features import field_type
from geobias.ui.results import (
    COLUMNS,
    BiasPlot,
    MetricsTableModel,
    rows_from_layer,
    rows_from_summaries,
)

COL = {key: i for i, (key, _h, _n) in enumerate(COLUMNS)}


def metrics_layer(rows):
    layer = QgsVectorLayer("None", "metrics", "memory")
    names = ["model", "topic", "n_points", "rho", "rho_lo", "rho_hi", "mad", "gini"]
    names += ["answer_rate", "bias_score"]
    fields = [
        QgsField(n, field_type("QString" if n in ("model", "topic") else "Double")) for n in names
    ]
    layer.dataProvider().addAttributes(fields)
    layer.updateFields()
    feats = []
    for r in rows:
        f = QgsFeature(layer.fields())
        f.setAttributes([r.get(n) for n in names])
        feats.append(f)
    layer.dataProvider().addFeatures(feats)
    return layer


def test_table_filled_from_layer_and_sortable(qgis_app):
    rows = [
        {
            "model": "m1",
            "topic": "B",
            "n_points": 10,
            "rho": 0.5,
            "rho_lo": 0.2,
            "rho_hi": 0.7,
            "mad": 1.0,
            "gini": 0.1,
            "answer_rate": 1.0,
            "bias_score": 0.3,
        },
        {
            "model": "m2",
            "topic": "A",
            "n_points": 12,
            "rho": -0.2,
            "rho_lo": -0.5,
            "rho_hi": 0.1,
            "mad": 2.5,
            "gini": 0.3,
            "answer_rate": 0.5,
            "bias_score": None,
        },
        {
            "model": "m3",
            "topic": "C",
            "n_points": 8,
            "rho": 0.9,
            "rho_lo": 0.8,
            "rho_hi": 0.95,
            "mad": 0.2,
            "gini": 0.05,
            "answer_rate": 0.75,
            "bias_score": -0.1,
        },
    ]
    model = MetricsTableModel()
    model.set_rows(rows_from_layer(metrics_layer(rows)))
    view = QTableView()
    view.setModel(model)
    view.setSortingEnabled(True)
    assert model.rowCount() == 3 and model.columnCount() == len(COLUMNS)

    def column(key):
        return [model.data(model.index(i, COL[key])) for i in range(model.rowCount())]

    assert column("rho_ci")[column("model").index("m1")] == "[0.20, 0.70]"
    view.sortByColumn(COL["mad"], Qt.SortOrder.DescendingOrder)
    assert column("model") == ["m2", "m1", "m3"]
    view.sortByColumn(COL["rho"], Qt.SortOrder.AscendingOrder)
    assert column("rho") == ["-0.20", "0.50", "0.90"]
    view.sortByColumn(COL["bias_score"], Qt.SortOrder.AscendingOrder)
    assert column("model") == ["m3", "m1", "m2"]  # missing bias score sorts last
    assert column("bias_score")[2] == "–"
    view.sortByColumn(COL["topic"], Qt.SortOrder.AscendingOrder)
    assert column("topic") == ["A", "B", "C"]


def test_rows_from_core_summaries(qgis_app):
    rng = np.random.default_rng(1)
    truth = rng.normal(size=200)
    rating = np.clip(5 + 2 * truth + rng.normal(size=200), 0, 9.9)
    rating[:20] = np.nan
    s = summarize(rating, truth=truth, anchor=truth, n_boot=200)
    model = MetricsTableModel()
    model.set_rows(rows_from_summaries([("smol", "Infant Mortality Rate", s)]))
    assert model.data(model.index(0, COL["answer_rate"])) == f"{s.answer_rate:.2f}"
    assert float(model.data(model.index(0, COL["rho"]))) == pytest.approx(s.truth.rho, abs=0.006)
    assert s.truth.rho > 0.5


def test_plot_paints_scatter_and_histogram(qgis_app):
    rng = np.random.default_rng(2)
    truth = rng.normal(size=100)
    rating = np.clip(5 + truth, 0, 9.9)
    plot = BiasPlot()
    plot.resize(400, 180)
    plot.set_data(rating, truth, rank_error(rating, -truth), title="test")
    image = plot.grab().toImage()
    colors = {image.pixelColor(x, y).name() for x in range(0, 400, 3) for y in range(0, 180, 3)}
    assert len(colors) > 4  # points and red/blue bars were drawn
