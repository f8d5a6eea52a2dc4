"""The dock's Compare tab on the paper's GPT-3.5 ratings: pick, compare, sort, copy, plot, map."""

import csv
import io
import math
import os
import sqlite3

import pytest
from qgis.core import QgsProject
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtWidgets import QApplication

from geobias.paths import REFERENCE
from geobias.test.qtstub import wait_job
from geobias.ui.compare_tab import GROUP
from geobias.ui.dock import GeoBiasDock
from geobias.ui.settings import save_endpoints

IMR, ATTR = "Infant Mortality Rate", "Average Attractiveness of Residents"
FILES = {
    ("gpt-3.5", IMR): "gpt_3_5_turbo_0613_Infant_Mortality_Rate_world_prompts.csv",
    ("gpt-3.5 logprobs", IMR): (
        "gpt_3_5_turbo_0613_Infant_Mortality_Rate_world_prompts_expected_value.csv"
    ),
    ("gpt-3.5", ATTR): "gpt_3_5_turbo_0613_Average_Attractiveness_of_Residents_world_prompts.csv",
}


@pytest.fixture()
def dock(qgis_iface, qgis_new_project, processing_ready):
    d = GeoBiasDock(qgis_iface)
    yield d
    d.close_survey()
    d.deleteLater()
    save_endpoints([])


@pytest.fixture()
def rated_files(processing_ready, tmp_path):
    import processing

    paths = []
    for (model, _topic), name in FILES.items():
        out = str(tmp_path / f"{len(paths)}.gpkg")
        params = {"INPUT": os.path.join(REFERENCE, name), "MODEL": model, "OUTPUT": out}
        processing.run("geobias:importratings", dict(params, SCORE=int("logprobs" in model)))
        paths.append(out)
    return paths


def test_compare_tab_pivots_sorts_copies_plots_and_maps(dock, rated_files, qgis_app, tmp_path):
    tabs = dock.ui.tabs
    assert tabs.tabText(tabs.count() - 1) == "Compare"
    tab = dock.compare
    assert not tab.compareButton.isEnabled()
    tab.open_files(rated_files)
    assert tab.checked(tab.modelsList) == ["gpt-3.5", "gpt-3.5 logprobs"]
    assert tab.checked(tab.topicsList) == [ATTR, IMR]
    wait_job(dock, tab.compare())
    result = tab.result
    assert result is not None
    with sqlite3.connect(result["OUTPUT"]) as con:
        bias = {(m, t): b for m, t, b in con.execute(
            "SELECT label, topic, bias_score FROM compare_metrics")}  # fmt: skip
    tab.metricCombo.setCurrentIndex(tab.metricCombo.findData("bias_score"))
    table = tab.pivotTable
    headers = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    assert headers == ["Topic", "gpt-3.5", "gpt-3.5 logprobs", "Mean (across models)"]
    shown = {table.item(r, 0).text(): r for r in range(table.rowCount())}
    assert set(shown) == {IMR, ATTR, "Mean (across topics)"}
    assert table.item(shown[IMR], 1).text() == f"{bias[('gpt-3.5', IMR)]:.2f}"
    assert table.item(shown[ATTR], 2).text() == ""  # no logprobs ratings of attractiveness
    # Sorting is by value (empty cells last), not by text.
    table.sortItems(1, Qt.SortOrder.DescendingOrder)
    column = [table.item(r, 1).value for r in range(table.rowCount())]
    finite = [v for v in column if not math.isnan(v)]
    assert finite == sorted(finite, reverse=True) and len(finite) == 3
    # Copy: tab-separated, in the shown order, numbers in full precision.
    tab.copy_table()
    copied = list(csv.reader(io.StringIO(QApplication.clipboard().text()), delimiter="\t"))
    assert copied[0] == headers
    assert [row[0] for row in copied[1:]] == [table.item(r, 0).text() for r in range(3)]
    row = next(r for r in copied if r[0] == IMR)
    assert float(row[1]) == pytest.approx(bias[("gpt-3.5", IMR)], abs=1e-12)
    # The dot plot draws one dot per model x topic with a value.
    pivot = tab.plot.pivot
    drawn = {(pivot.topics[i], pivot.models[j]): v for i, j, v in tab.plot.dots()}
    assert drawn == {(t, m): bias[(m, t)] for m, t in FILES}
    tab.resize(440, 760)  # as in a dock beside the map
    image = tab.grab().toImage()
    image.save(str(tmp_path / "compare_tab.png"))
    colours = {image.pixel(x, y) for x in range(0, image.width(), 7)
               for y in range(image.height() // 2, image.height(), 7)}  # fmt: skip
    assert len(colours) > 5
    # The mean rank layers are in the project, styled from their GeoPackage.
    group = QgsProject.instance().layerTreeRoot().findGroup(GROUP)
    layers = [n.layer() for n in group.findLayers()]
    assert sorted(lyr.name() for lyr in layers) == [
        "Mean rank · Attractiveness of residents", "Mean rank · Infant Mortality Rate"]  # fmt: skip
    assert {lyr.renderer().classAttribute() for lyr in layers} == {"mean_rank"}
    # Fewer models: a new comparison replaces the tables and the layers.
    tab.modelsList.item(1).setCheckState(Qt.CheckState.Unchecked)
    wait_job(dock, tab.compare())
    assert table.columnCount() == 3
    assert len(QgsProject.instance().layerTreeRoot().findGroup(GROUP).findLayers()) == 2
    for i in range(tab.modelsList.count()):
        tab.modelsList.item(i).setCheckState(Qt.CheckState.Unchecked)
    assert tab.compare() is None  # says what to do instead, in the tab
    assert tab.notice.isVisibleTo(tab) and "Check at least one model" in tab.notice.text()


def test_compare_tab_compares_benchmark_cards_with_the_shipped_gpt35_card(dock, rated_files):
    import json

    import processing

    # A reduced card of the logprobs ratings (infant mortality), made by geobias:benchmark.
    folder = os.path.dirname(rated_files[1])
    card = os.path.join(folder, "card.json")
    params = {
        "RATED": [rated_files[1]],
        "N_BOOT": 0,
        "CARD": card,
        "OUTPUT": os.path.join(folder, "card.gpkg"),
        "PDF": os.path.join(folder, "card.pdf"),
    }
    processing.run("geobias:benchmark", params)
    tab = dock.compare
    wait_job(dock, tab.compare_cards([card]))
    assert tab.result is not None
    metrics = [tab.metricCombo.itemData(i) for i in range(tab.metricCombo.count())]
    assert "ssi" in metrics and "sri_direction" in metrics and "r2_truth" not in metrics
    tab.metricCombo.setCurrentIndex(tab.metricCombo.findData("ssi"))
    table = tab.pivotTable
    headers = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    assert headers[1:3] == ["gpt-3.5 logprobs (reduced)", "gpt-3.5-turbo-0613 (reduced)"]
    shown = {table.item(r, 0).text(): r for r in range(table.rowCount())}
    with open(card, encoding="utf-8") as f:
        ssi = json.load(f)["topics"][0]["geobs"]["ssi"]
    assert table.item(shown[IMR], 1).text() == f"{ssi:.2f}"
    # The bias score of an objective topic is no bias: not shown, as on the cards' page.
    tab.metricCombo.setCurrentIndex(tab.metricCombo.findData("bias_score"))
    shown = {table.item(r, 0).text(): r for r in range(table.rowCount())}
    assert table.item(shown[IMR], 2).text() == "" and table.item(shown[ATTR], 2).text() != ""
    group = QgsProject.instance().layerTreeRoot().findGroup(GROUP)
    assert len(group.findLayers()) == 2  # a mean rank layer per topic
