"""The dock docked narrow (offscreen, in QGIS's main window): at 350 and 450 px every tab can be
reached, every button of every tab lies whole inside the dock, the first column of every table
shows a dozen characters, and the selected row's metrics read whole without scrolling sideways.

The font is the one the QGIS desktop uses on Linux without a desktop environment (Qt's generic
"Sans Serif" 9 pt: what a user of `make qgis` or the desktop tests sees)."""

import os
import shutil
import subprocess

import numpy as np
import pytest
from qgis.core import QgsApplication, QgsProject, QgsVectorLayer
from qgis.PyQt.QtCore import Qt, QTranslator
from qgis.PyQt.QtGui import QFont, QFontMetrics
from qgis.PyQt.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QPushButton,
    QTableView,
    QTreeView,
    QWidget,
)

from geobias.core.herb.aggregation import aggregate
from geobias.core.herb.descriptors import load_descriptors
from geobias.core.herb.hierarchy import geonames_hierarchy
from geobias.paths import COUNTRIES, DATA, PLUGIN_DIR, REFERENCE
from geobias.processing.herb_io import world_geometries, write_results
from geobias.processing.runs import append_runs
from geobias.test.qtstub import wait_job
from geobias.ui import survey_plan
from geobias.ui.dock import GeoBiasDock
from geobias.ui.settings import save_endpoints

IMR, ATTR = "Infant Mortality Rate", "Average Attractiveness of Residents"
CSV = {
    IMR: "gpt_3_5_turbo_0613_Infant_Mortality_Rate_world_prompts.csv",
    ATTR: "gpt_3_5_turbo_0613_Average_Attractiveness_of_Residents_world_prompts.csv",
}
MODEL = "gpt-3.5-turbo-0613"
TS = os.path.join(PLUGIN_DIR, "i18n", "geobias_fr.ts")


@pytest.fixture()
def desktop_font(qgis_app):
    before = QApplication.font()
    QApplication.setFont(QFont("Sans Serif", 9))
    yield
    QApplication.setFont(before)


@pytest.fixture(params=["en", "fr"])
def language(request, qgis_app, tmp_path_factory):
    """The dock in English, and in French (longer words: the same widths must hold)."""
    if request.param == "en":
        yield "en"
        return
    lrelease = shutil.which("lrelease")
    assert lrelease, "lrelease is missing (Debian: qttools5-dev-tools)"
    qm = str(tmp_path_factory.mktemp("qm") / "geobias_fr.qm")
    subprocess.run([lrelease, "-silent", TS, "-qm", qm], check=True)
    translator = QTranslator()
    assert translator.load(qm)
    QgsApplication.instance().installTranslator(translator)
    before = QgsApplication.instance().translation()
    QgsApplication.setTranslation("fr")  # as `qgis --lang fr`: numbers follow too
    yield "fr"
    QgsApplication.setTranslation(before)
    QgsApplication.instance().removeTranslator(translator)


@pytest.fixture()
def docked(qgis_iface, qgis_new_project, processing_ready, desktop_font, language, qgis_app,
           tmp_path):  # fmt: skip
    """The dock in the main window's right dock area, beside a map-sized central widget, with
    results in every tab: two topics rated by GPT-3.5 (Results, Compare), their rank errors
    per country (Overlay), HERB over Europe (Regional bias)."""
    QgsProject.instance().setFileName(str(tmp_path / "project.qgz"))
    window = qgis_iface.mainWindow()
    central = window.centralWidget()
    if central is None:
        window.setCentralWidget(QWidget())
    dock = GeoBiasDock(qgis_iface)
    dock.messages = []
    dock.push = lambda text, *a, **k: dock.messages.append(text)
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    window.resize(1400, 900)
    window.show()
    fill(dock, tmp_path)
    qgis_app.processEvents()
    yield dock
    window.removeDockWidget(dock)
    dock.close_survey()
    dock.deleteLater()
    save_endpoints([])


def fill(dock, tmp_path):
    rated = []
    for topic, name in CSV.items():
        path = survey_plan.run_algorithm("geobias:importratings", {
            "INPUT": os.path.join(REFERENCE, name), "MODEL": MODEL, "TOPIC": topic, "SCORE": 0,
            "OUTPUT": str(tmp_path / f"rated_{len(rated)}.gpkg")})["OUTPUT"]  # fmt: skip
        if topic == IMR:
            path = survey_plan.run_algorithm("geobias:samplegroundtruth", {
                "INPUT": path, "POLYGONS": COUNTRIES, "POLYGON_FIELD": "infant_mortality",
                "OUTPUT": str(tmp_path / "truth_imr.gpkg")})["OUTPUT"]  # fmt: skip
        rated.append(path.split("|")[0])
    dock.rated_paths = rated
    wait_job(dock, dock.results.open_files(rated))
    layers = dock.results.rated_layers
    assert len(layers) == 2 and dock.results.metrics.rowCount() == 2
    dock.compare.open_files(rated)
    wait_job(dock, dock.compare.compare())
    assert dock.compare.pivots
    countries = QgsVectorLayer(os.path.join(DATA, "world_countries.gpkg") + "|layername=countries",
                               "countries", "ogr")  # fmt: skip
    QgsProject.instance().addMapLayer(countries)
    dock.survey.set_checked_topics([IMR, ATTR])
    dock.survey.truth[IMR] = (countries.id(), "infant_mortality")
    dock.survey.refresh_truth_table()
    overlay = dock.overlay
    overlay.pointsCombo.setLayer(next(lyr for lyr in layers if "truth" in lyr.fields().names()))
    overlay.unitsCombo.setLayer(countries)
    wait_job(dock, overlay.aggregate())
    wait_job(dock, overlay.correlate())
    assert overlay.corrTable.rowCount() > 0
    h = geonames_hierarchy(continents=["Europe"], max_cities_per_country=1)
    words = load_descriptors()[:6]
    rng = np.random.default_rng(1)
    result = aggregate(h, -rng.uniform(2, 8, (len(h), len(words))), -rng.uniform(2, 8, len(h)),
                       words)  # fmt: skip
    path = str(tmp_path / "herb.gpkg")
    uris, _regions = write_results(path, result, world_geometries(h))
    append_runs(path, [{"model": "gguf:SmolLM2-135M-Instruct.Q4_1.gguf"}])
    dock.herb.show_results({"OUTPUT": path, "OUTPUT_LAYERS": list(uris)})


def within(widget, dock):
    """The widget's rectangle in the dock's coordinates lies inside the dock, left to right."""
    left = widget.mapTo(dock, widget.rect().topLeft()).x()
    return 0 <= left and left + widget.width() <= dock.width()


def tables(page):
    """The page's tables and trees that show rows."""
    views = page.findChildren(QAbstractItemView)
    return [v for v in views if v.isVisible() and isinstance(v, (QTableView, QTreeView))
            and v.model().rowCount() > 0]  # fmt: skip


@pytest.mark.parametrize("width", [350, 450])
def test_every_tab_its_buttons_and_first_columns_fit_a_narrow_dock(docked, qgis_app, width):
    dock = docked
    window = dock.parentWidget()
    window.resizeDocks([dock], [width], Qt.Orientation.Horizontal)
    qgis_app.processEvents()
    assert dock.width() == width, "the dock's minimum width is larger"
    tabs = dock.ui.tabs
    twelve = QFontMetrics(dock.font()).averageCharWidth() * 12
    for i in range(tabs.count()):
        tabs.setCurrentIndex(i)
        qgis_app.processEvents()
        name = tabs.tabText(i)
        # Every tab is one click away: its button is whole inside the dock, none scrolled away.
        for b in dock.strip.buttons():
            assert b.isVisible() and within(b, dock), (name, b.text())
            assert b.width() >= b.sizeHint().width(), (name, b.text())
        page = tabs.widget(i).widget()
        viewport = tabs.widget(i).viewport()
        assert page.minimumSizeHint().width() <= viewport.width(), f"{name} is clipped"
        assert dock.ui.nameEdit.isVisible(), name
        # The run panel of the tab (Regional bias: its own) below the tabs, whole.
        panel = dock.current_panel()
        assert panel.isVisible() and not tabs.isAncestorOf(panel), name
        shown = [b for b in dock.findChildren(QAbstractButton) if b.isVisible()]
        assert panel.runButton in shown and panel.cancelButton in shown, name
        for b in shown:
            assert within(b, dock), (name, b.text() or b.objectName())
            if isinstance(b, QPushButton):  # never squashed below its text
                assert b.width() >= b.sizeHint().width(), (name, b.text())
        for view in tables(page):
            shows = view.columnWidth(0)
            assert shows >= twelve, (name, view.objectName(), shows, twelve)
            if isinstance(view, QTreeView):
                continue
            assert view.columnViewportPosition(0) == 0  # in view, not scrolled away
            # Wrapped at word boundaries, a one-line row would show "Infant ..." only.
            assert not view.wordWrap(), (name, view.objectName())
            text = str(view.model().index(0, 0).data() or "")
            if len(text) >= 12:
                fm = QFontMetrics(view.font())
                assert fm.horizontalAdvance(text[:12]) < shows, (name, text)


@pytest.mark.parametrize("width", [350, 450])
def test_the_selected_rows_metrics_read_whole_without_scrolling(docked, qgis_app, width):
    dock = docked
    window = dock.parentWidget()
    window.resizeDocks([dock], [width], Qt.Orientation.Horizontal)
    # The row is picked while another tab shows (as when results arrive), then the Results tab
    # is shown, then the dock resized: the pane follows.
    dock.show_tab(dock.area)
    qgis_app.processEvents()
    results = dock.results
    row = next(r for r, values in enumerate(results.metrics.rows) if values["topic"] == IMR)
    results.metricsView.selectRow(1 - row)
    results.metricsView.selectRow(row)
    dock.show_tab(results)
    qgis_app.processEvents()
    window.resizeDocks([dock], [800 - width], Qt.Orientation.Horizontal)
    qgis_app.processEvents()
    window.resizeDocks([dock], [width], Qt.Orientation.Horizontal)
    qgis_app.processEvents()
    view = results.metricsView  # both rows in view
    assert view.rowViewportPosition(1) + view.rowHeight(1) <= view.viewport().height()
    pane = results.metricsDetail
    assert pane.isVisible()
    text = pane.toPlainText()
    values = results.metrics.rows[row]
    assert MODEL in text and IMR in text
    for col in range(2, results.metrics.columnCount()):  # every metric as the table shows it
        assert str(results.metrics.index(row, col).data()) in text
    assert f"{values['rho']:.2f}" in text and f"{values['moran_i']:.2f}" in text
    # Wrapped to the pane: nothing to scroll, sideways or down.
    assert pane.horizontalScrollBar().maximum() == 0
    assert pane.document().idealWidth() <= pane.viewport().width()
    assert pane.verticalScrollBar().maximum() == 0
    # ...and no taller than its text at this width (it was sized for a narrower dock before).
    assert pane.height() <= pane.document().size().height() + 2 * pane.frameWidth() + 4
    assert within(pane, dock)


def test_the_detail_pane_fits_its_text_when_results_arrive_in_another_tab(docked, qgis_iface,
                                                                          qgis_app):  # fmt: skip
    """A survey's results come while another tab shows: the pane, sized before it was ever laid
    out (100 px wide), takes its text's height once the Results tab shows."""
    window = docked.parentWidget()
    dock = GeoBiasDock(qgis_iface)
    dock.push = lambda *a, **k: None
    window.tabifyDockWidget(docked, dock)
    dock.show()
    dock.raise_()
    window.resizeDocks([dock], [450], Qt.Orientation.Horizontal)
    dock.show_tab(dock.area)
    qgis_app.processEvents()
    try:
        wait_job(dock, dock.results.open_files(docked.rated_paths))  # then the Results tab shows
        qgis_app.processEvents()
        pane = dock.results.metricsDetail
        assert pane.isVisible()
        text_height = pane.document().size().height()
        assert pane.height() <= text_height + 2 * pane.frameWidth() + 4, (
            pane.height(),
            text_height,
        )
        assert within(pane, dock)
    finally:
        window.removeDockWidget(dock)
        dock.close_survey()
        dock.deleteLater()


def cut_texts(root, every_choice=()):
    """The texts of `root`'s visible labels, buttons and combo boxes that do not show whole: a
    label wider than its room (or, word-wrapped, taller), a button narrower than its text, a
    combo's current choice (each choice for the combos named in `every_choice`) wider than its
    box. The dock's combos open wider than themselves (ui/dock.compact_combo), so only what a
    closed one shows counts; layer and field combos show the user's names and are left out."""
    from qgis.gui import QgsFieldComboBox, QgsMapLayerComboBox
    from qgis.PyQt.QtWidgets import QComboBox, QLabel, QStyle, QStyleOptionComboBox

    cut = []
    for label in root.findChildren(QLabel):
        text = label.text()
        if not label.isVisible() or not text or Qt.mightBeRichText(text):
            continue
        if label.wordWrap():
            if label.heightForWidth(label.width()) > label.height():
                cut.append(("wrapped label", label.objectName(), text))
            continue
        fm = label.fontMetrics()
        room = label.contentsRect().width() - 2 * label.margin() - 2 * max(0, label.indent())
        if any(fm.horizontalAdvance(line) > room for line in text.splitlines()):
            cut.append(("label", label.objectName(), text))
    for widget in root.findChildren(QWidget):  # painted text that wraps (Regional bias' bars)
        if widget.layout() is not None or isinstance(widget, QLabel) or not widget.isVisible():
            continue
        if widget.hasHeightForWidth():
            if widget.heightForWidth(widget.width()) > widget.height():
                cut.append(("wrapped text", widget.objectName(), type(widget).__name__))
    for button in root.findChildren(QAbstractButton):
        if button.isVisible() and button.text() and button.width() < button.sizeHint().width():
            cut.append(("button", button.objectName(), button.text()))
    for combo in root.findChildren(QComboBox):
        if not combo.isVisible() or isinstance(combo, QgsFieldComboBox):
            continue
        if isinstance(combo, QgsMapLayerComboBox) and combo.currentLayer() is not None:
            continue  # a layer's name; without one, the dock's own words ("none", the default)
        option = QStyleOptionComboBox()
        combo.initStyleOption(option)
        room = (
            combo.style()
            .subControlRect(
                QStyle.ComplexControl.CC_ComboBox,
                option,
                QStyle.SubControl.SC_ComboBoxEditField,
                combo,
            )
            .width()
        )
        fm = combo.fontMetrics()
        every = combo.objectName() in every_choice
        for text in (
            [combo.itemText(i) for i in range(combo.count())] if every else [option.currentText]
        ):
            if fm.horizontalAdvance(text) > room:
                cut.append(("choice", combo.objectName(), text))
    return cut


# The dock's own choice lists (short labels in the dock, Processing's as tooltips): every choice
# reads whole in the closed box.
CHOICES = ("metricCombo", "methodCombo", "scoreCombo", "presetCombo", "scopeCombo", "scorerCombo")


def test_no_text_is_cut_at_350_px(docked, qgis_app, language, tmp_path):
    """Every tab at 350 px, in English and French: no label, button or choice of a list is cut
    (Compare's "Rho de Spearman avec la vérité terrain" was). A screenshot of each tab is kept
    (GEOBIAS_SCREENSHOTS=folder) for a look."""
    dock = docked
    window = dock.parentWidget()
    window.resizeDocks([dock], [350], Qt.Orientation.Horizontal)
    qgis_app.processEvents()
    assert dock.width() == 350
    folder = os.environ.get("GEOBIAS_SCREENSHOTS") or str(tmp_path)
    tabs = dock.ui.tabs
    if language == "fr":
        assert tabs.tabText(0) == "Zone"
    found = {}
    for i in range(tabs.count()):
        tabs.setCurrentIndex(i)
        qgis_app.processEvents()
        dock.grab().save(os.path.join(folder, f"dock_{language}_350_{i}.png"))
        cut = cut_texts(dock, every_choice=CHOICES)
        if cut:
            found[tabs.tabText(i)] = cut
    assert found == {}, "\n".join(f"{tab}: {cut}" for tab, cut in found.items())
