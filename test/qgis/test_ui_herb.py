"""The dock's Regional bias tab (offscreen): parameters of its choices, and a HERB GeoPackage
written by geobias:herb's writer shown as layers, a table sorted by C and bar charts."""

import os
from pathlib import Path

import numpy as np
import pytest
from qgis.core import (
    QgsApplication,
    QgsFeature,
    QgsGeometry,
    QgsProcessingContext,
    QgsProject,
    QgsVectorLayer,
)

from geobias.core.herb.aggregation import aggregate
from geobias.core.herb.descriptors import DEFAULT_TEMPLATE, REFERENCE_TEMPLATE, load_descriptors
from geobias.core.herb.hierarchy import geonames_hierarchy
from geobias.processing.definitions import HERB_MODELS
from geobias.processing.herb_io import world_geometries, write_results
from geobias.processing.parameters import HerbReferenceParameters
from geobias.processing.runs import append_runs
from geobias.ui.dock import GeoBiasDock


@pytest.fixture()
def dock(qgis_iface, qgis_new_project, processing_ready):
    d = GeoBiasDock(qgis_iface)
    yield d
    d.close_survey()
    d.deleteLater()


def test_the_tab_turns_its_choices_into_herb_parameters(dock):
    herb = dock.herb
    herb.continentsEdit.setText("South America")
    herb.citiesSpin.setValue(3)
    p = herb.parameters()
    assert p["SCOPE"] == 0 and p["CONTINENTS"] == "South America" and p["MAX_CITIES"] == 3
    assert p["SCORER"] == 0 and not herb.urlEdit.isVisibleTo(herb)
    assert not herb.authSelect.isVisibleTo(herb) and p["REFERENCE_CODE"] is False
    assert "AUTH_CONFIG" not in p
    # The embedded model: whole sentences by default, the bundled model or a GGUF file.
    assert herb.methodCombo.isVisibleTo(herb) and herb.modelFile.isVisibleTo(herb)
    assert p["METHOD"] == 0 and p["MODEL_FILE"] == ""
    assert p["EMBEDDED_MODEL"] == HERB_MODELS.index("gemma3-270m")  # the survey's model too
    herb.methodCombo.setCurrentIndex(herb.methodCombo.findData("forced"))
    herb.modelFile.setFilePath("/models/other.gguf")
    p = herb.parameters()
    assert p["METHOD"] == 1 and p["MODEL_FILE"] == "/models/other.gguf"
    herb.modelFile.setFilePath("")
    herb.referenceCheck.setChecked(True)
    assert herb.parameters()["REFERENCE_CODE"] is True
    # The switch turns every part of the released code on; a part set alone wins.
    alg = QgsApplication.processingRegistry().algorithmById("geobias:herb")
    context = QgsProcessingContext()
    opts = HerbReferenceParameters.read(alg, herb.parameters(), context)
    assert opts.reference and opts.template == REFERENCE_TEMPLATE
    herb.paddingPartCombo.setCurrentIndex(herb.paddingPartCombo.findData("paper"))
    herb.templatePartCombo.setCurrentIndex(herb.templatePartCombo.findData("paper"))
    opts = HerbReferenceParameters.read(alg, herb.parameters(), context)
    assert opts.released_words and opts.aggregation and not opts.padding
    assert opts.template == DEFAULT_TEMPLATE
    herb.referenceCheck.setChecked(False)
    herb.wordsPartCombo.setCurrentIndex(herb.wordsPartCombo.findData("released"))
    opts = HerbReferenceParameters.read(alg, herb.parameters(), context)
    assert opts.released_words and not opts.aggregation and not opts.padding
    assert "    wise" in [d.word for d in opts.descriptors()]
    herb.scorerCombo.setCurrentIndex(1)
    assert herb.urlEdit.isVisibleTo(herb) and not herb.modelEdit.isVisibleTo(herb)
    assert not herb.methodCombo.isVisibleTo(herb)  # a remote server: forced decoding
    assert "METHOD" not in herb.parameters()
    assert herb.authSelect.isVisibleTo(herb)  # a protected llama.cpp or vLLM endpoint
    herb.scopeCombo.setCurrentIndex(1)
    assert herb.topLayerCombo.isVisibleTo(herb) and not herb.citiesSpin.isVisibleTo(herb)
    with pytest.raises(ValueError, match="upper and the lower layer"):
        herb.parameters()  # no polygon layer in the project


def squares(name, rows):
    """A memory polygon layer of (name, id, parent id) unit squares side by side."""
    layer = QgsVectorLayer(
        "Polygon?crs=EPSG:4326&field=name:string&field=id:string&field=up:string", name, "memory"
    )
    feats = []
    for x, attrs in enumerate(rows):
        f = QgsFeature(layer.fields())
        f.setAttributes(list(attrs))
        f.setGeometry(QgsGeometry.fromWkt(f"POLYGON(({x} 0, {x + 1} 0, {x + 1} 1, {x} 1, {x} 0))"))
        feats.append(f)
    layer.dataProvider().addFeatures(feats)
    return layer


def test_three_nested_layers_become_a_three_level_hierarchy(dock):
    # A country, its two states and each state's two counties: the tab's middle layer is optional
    # and its fields show only once it is chosen.
    country = squares("country", [("Utopia", "U", None)])
    states = squares("states", [("North", "N", "U"), ("South", "S", "U")])
    counties = squares(
        "counties",
        [("Ash", "1", "N"), ("Birch", "2", "N"), ("Cedar", "3", "S"), ("Dune", "4", "S")],
    )
    QgsProject.instance().addMapLayers([country, states, counties])
    herb = dock.herb
    herb.scopeCombo.setCurrentIndex(1)
    # The layers came after the tab: the lower combo shows "counties" (first by name), and its
    # field combos must list that layer's fields although no layerChanged was emitted.
    assert herb.lowLayerCombo.currentLayer() is counties
    assert herb.lowParentCombo.layer() is counties and herb.lowNameCombo.layer() is counties
    herb.topLayerCombo.setLayer(country)
    assert herb.midLayerCombo.currentLayer() is None
    assert herb.midLayerCombo.isVisibleTo(herb) and not herb.midNameCombo.isVisibleTo(herb)
    two = herb.parameters()
    assert two["LAYER_2"] is counties and "LAYER_3" not in two
    herb.midLayerCombo.setLayer(states)
    assert herb.midNameCombo.isVisibleTo(herb) and herb.midParentCombo.isVisibleTo(herb)
    for combo, field in ((herb.topNameCombo, "name"), (herb.topIdCombo, "id"),
                         (herb.midNameCombo, "name"), (herb.midIdCombo, "id"),
                         (herb.midParentCombo, "up"), (herb.lowNameCombo, "name"),
                         (herb.lowParentCombo, "up")):  # fmt: skip
        combo.setField(field)
    p = herb.parameters()
    assert [p[f"LAYER_{k}"] for k in (1, 2, 3)] == [country, states, counties]
    assert p["PARENT_FIELD_2"] == "up" and p["ID_FIELD_2"] == "id" and p["PARENT_FIELD_3"] == "up"
    # The algorithm reads them as three levels with the right parents.
    alg = QgsApplication.processingRegistry().createAlgorithmById("geobias:herb")
    h, geoms, _text = alg.read_scope(p, QgsProcessingContext())
    assert h.n_levels == 3 and len(h) == 7 and len(geoms) == 7
    by_name = {n: i for i, n in enumerate(h.names)}
    assert (
        h.parent_name(by_name["Cedar"]) == "South" and h.parent_name(by_name["North"]) == "Utopia"
    )
    herb.midLayerCombo.setLayer(None)
    assert not herb.midNameCombo.isVisibleTo(herb)


def test_results_show_as_layers_a_table_sorted_by_c_and_bars(dock, tmp_path):
    # Europe's countries with two cities each, scores from a fixed random draw (no model).
    h = geonames_hierarchy(continents=["Europe"], max_cities_per_country=2)
    words = load_descriptors()[:10]
    rng = np.random.default_rng(1)
    result = aggregate(h, -rng.uniform(2, 8, (len(h), len(words))), -rng.uniform(2, 8, len(h)),
                       words)  # fmt: skip
    path = str(tmp_path / "herb.gpkg")
    uris, _regions = write_results(path, result, world_geometries(h))
    append_runs(path, [{"model": "gguf:SmolLM2-135M-Instruct.Q4_1.gguf"}])
    herb = dock.herb
    herb.show_results({"OUTPUT": path, "OUTPUT_LAYERS": list(uris)})
    group = QgsProject.instance().layerTreeRoot().findGroup("GeoBias — HERB — SmolLM2-135M")
    names = [n.layer().name() for n in group.findLayers()]
    assert names[0].startswith("City: distance") and names[-1].startswith("Continent: regional")
    country = [n.layer() for n in group.findLayers() if n.layer().name().startswith("Country")]
    assert country[0].renderer().classAttribute() == "c_w"
    table = herb.regionTable
    assert table.rowCount() == len(h) + 1
    c = [table.item(i, 1).text() for i in range(table.rowCount())]
    values = [float(v) for v in c if v != "–"]
    assert values == sorted(values, reverse=True) and len(values) >= 30
    # The highest C is selected first; then a user picks France: its two cities (leaves, by
    # their distance from their centre) and the descriptors that set France apart.
    assert table.selectionModel().selectedRows()[0].row() == 0
    row = next(i for i in range(table.rowCount()) if table.item(i, 0).text() == "France")
    table.selectRow(row)
    assert herb.childBars.title == "Sub-regions of France: distance from their centre"
    assert len(herb.childBars.values) == 2 and all(v > 0 for v in herb.childBars.values)
    assert "France" in herb.wordBars.title and len(herb.wordBars.values) == 10
    assert herb.wordBars.values == sorted(herb.wordBars.values, reverse=True)
    # Europe is the only continent in scope: no siblings, so no column of 0.0000 (issue 35).
    row = next(i for i in range(table.rowCount()) if table.item(i, 0).text() == "Europe")
    table.selectRow(row)
    assert herb.wordBars.title == "Europe has no siblings here: no descriptor sets it apart"
    assert herb.wordBars.values == []


@pytest.mark.integration  # the embedded model scores (Gemma 3 270M, HERB's default)
def test_the_tab_runs_herb_on_the_users_memory_layers(dock, tmp_path, monkeypatch):
    """The user's own layers (memory ones here) reach the background job as snapshots made on
    the main thread, never as the project's objects; the run scores and shows its results."""
    from qgis.PyQt.QtWidgets import QMessageBox
    from qtstub import wait_for

    from geobias.ui.task import LayerSnapshot

    country = squares("country", [("Utopia", "U", None), ("Erewhon", "E", None)])
    towns = squares("towns", [("Ash", "1", "U"), ("Birch", "2", "U"), ("Cedar", "3", "E"),
                              ("Dune", "4", "E")])  # fmt: skip
    QgsProject.instance().addMapLayers([country, towns])
    herb = dock.herb
    herb.scopeCombo.setCurrentIndex(1)
    herb.topLayerCombo.setLayer(country)
    herb.lowLayerCombo.setLayer(towns)
    for combo, field in ((herb.topNameCombo, "name"), (herb.topIdCombo, "id"),
                         (herb.lowNameCombo, "name"), (herb.lowParentCombo, "up")):  # fmt: skip
        combo.setField(field)
    words = tmp_path / "words.txt"
    words.write_text("morality\thonest\nmorality\tcruel\n")
    herb.descriptorsFile.setFilePath(str(words))
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: QMessageBox.StandardButton.Yes)  # fmt: skip
    herb.run()
    assert isinstance(herb.params["LAYER_1"], LayerSnapshot)
    assert isinstance(herb.params["LAYER_2"], LayerSnapshot)
    root = QgsProject.instance().layerTreeRoot()
    wait_for(lambda: root.findGroup("GeoBias — HERB — gemma-3-270m") is not None
             and herb.panel.task is None, 300, "HERB on the user's layers")  # fmt: skip
    assert herb.regionTable.rowCount() >= 3  # the Earth and the two countries have a C
    assert country.featureCount() == 2 and towns.featureCount() == 4  # untouched


def test_herb_failed_goes_away_on_a_new_start_and_on_success(dock, qgis_iface):
    """Issue 35: the red "HERB failed" entry stayed in the message bar after a later run
    succeeded. It goes when a new run starts, and a success leaves no failure in sight."""
    from qtstub import wait_for

    from geobias.ui.task import AlgorithmChainTask

    herb, bar = dock.herb, qgis_iface.messageBar()

    def failing(task):
        task.fail("the scorer cannot start")
        return {}

    def run(work):
        done = []
        herb.start(AlgorithmChainTask("HERB", [(work, "work")]), done.append)
        wait_for(lambda: herb.panel.task is None, 30, "the HERB task")
        return done

    def failures():
        return [i for i in bar.items() if "HERB failed" in i.text()]

    bar.clearWidgets()
    run(failing)
    assert len(failures()) == 1 and herb.panel.progressLabel.text().startswith("Stopped: ")
    run(failing)  # a second failure replaces the first: one entry, not two
    assert len(failures()) == 1
    herb.start(AlgorithmChainTask("HERB", [(lambda task: {}, "work")]), lambda task: None)
    assert failures() == []  # gone as soon as the new run starts
    wait_for(lambda: herb.panel.task is None, 30, "the HERB task")
    run(failing)
    done = run(lambda task: {})
    herb.panel.succeeded(done[0])  # as HerbTab._completed does once the layers are shown
    assert failures() == [] and herb.panel.progressLabel.text().startswith("Done in")


def test_a_scorer_that_cannot_start_says_so_in_full_and_offers_repair(dock, qgis_iface, tmp_path,
                                                                      monkeypatch):  # fmt: skip
    """Issue 35: with a model environment that cannot run the whole-sentence scorer, HERB's
    failure was cut with "…" and offered Resume, which fails the same way. Its entry now has
    Details (the whole text, also whole in the log) and Repair (the Install/Repair window);
    Run says Run, not Resume."""
    from qgis.core import QgsApplication
    from qgis.PyQt.QtWidgets import QPushButton
    from qtstub import wait_for

    from geobias.core.runtime import embedded, models
    from geobias.ui import herb_tab

    # A broken model environment: a venv folder whose python cannot run (half a copy).
    monkeypatch.setenv("HOME", str(tmp_path))
    python = models.env_python()
    os.makedirs(os.path.dirname(python))
    open(python, "w").close()
    os.chmod(python, 0o755)
    monkeypatch.setattr(embedded, "USER_VENV", python)
    others = [str(tmp_path / f"elsewhere{k}" / "bin" / "python3") for k in range(4)]
    for other in others:  # Pythons without xllamacpp or numpy, as on the machine
        os.makedirs(os.path.dirname(other))
        Path(other).write_text('#!/bin/sh\necho \'["xllamacpp", "numpy"]\'\n')
        os.chmod(other, 0o755)
    monkeypatch.setattr(embedded, "python_candidates", lambda override=None: [python, *others])
    # The environment had xllamacpp (the server's check passed), not numpy.
    monkeypatch.setattr(herb_tab, "embedded_problem", lambda: None)
    logged = []
    QgsApplication.messageLog().messageReceived.connect(lambda m, tag, level: logged.append(m))
    country = squares("country", [("Utopia", "U", None), ("Erewhon", "E", None)])
    towns = squares("towns", [("Ash", "1", "U"), ("Cedar", "3", "E")])
    QgsProject.instance().addMapLayers([country, towns])
    herb, bar = dock.herb, qgis_iface.messageBar()
    herb.scopeCombo.setCurrentIndex(1)
    herb.topLayerCombo.setLayer(country)
    herb.lowLayerCombo.setLayer(towns)
    for combo, field in ((herb.topNameCombo, "name"), (herb.topIdCombo, "id"),
                         (herb.lowNameCombo, "name"), (herb.lowParentCombo, "up")):  # fmt: skip
        combo.setField(field)
    bar.clearWidgets()
    herb.run()
    wait_for(lambda: herb.panel.task is None, 120, "the HERB estimate")
    entries = [i for i in bar.items() if "HERB failed" in i.text()]
    assert len(entries) == 1, [i.text() for i in bar.items()]
    entry = entries[0]
    assert "The scorer cannot start" in entry.text()
    buttons = {b.text(): b for b in entry.findChildren(QPushButton)}
    assert "Repair…" in buttons and "Details" in buttons, list(buttons)
    assert herb.panel.runButton.text() == "Run HERB"  # not "Resume HERB"
    assert "Resume" not in herb.panel.progressLabel.text()
    # Details: the whole text, every Python tried, not cut; the same text in the log.
    buttons["Details"].click()
    box = dock.details_box
    whole = box.informativeText()
    assert "The scorer cannot start" in whole and others[-1] in whole and "…" not in whole
    assert len(whole) > len(entry.text())
    assert any(whole in m for m in logged)
    box.close()
    buttons["Repair…"].click()
    window = dock.install_window
    assert window is not None and window.objectName() == "GeoBiasInstallDialog"
    assert window.isVisible()
