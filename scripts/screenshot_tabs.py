"""Run inside the QGIS desktop (`make screenshot`): the guide's Regional bias and Compare tabs,
and every tab of the dock docked narrow, as a user sees them.

GPT-3.5's infant mortality (with the bundled countries' truth) and attractiveness ratings are
opened in the Results tab; the Compare tab compares them; the Regional bias tab runs HERB with
the embedded model on Oceania's countries (three descriptors); the Overlay tab aggregates and
correlates. Saves 05-herb.png and 06-compare.png (the whole window, dock 470 px), then for a dock
of 350 and of 450 px every tab (narrow_<width>_<tab>.png, the dock), the Layers panel's legend
(legend.png) and the guide opened by Help on this machine without a web browser (help.png).
Each narrow tab is checked as test/qgis/test_ui_narrow.py checks it offscreen; a failure fails
its step. Facts and screenshots go to $GEOBIAS_DESKTOP_OUT, then QGIS quits."""

import os
import sys

from qgis.core import QgsProject, QgsRectangle
from qgis.PyQt.QtCore import Qt, QTimer
from qgis.PyQt.QtGui import QFontMetrics
from qgis.PyQt.QtTest import QTest
from qgis.PyQt.QtWidgets import QAbstractButton, QDockWidget, QPushButton, QTableView
from qgis.utils import iface, plugins

from geobias.qt_compat import QAction

sys.path.insert(0, os.path.join(os.environ["GEOBIAS_ROOT"], "test", "desktop"))
from driver import DialogAnswerer, Recorder, click, pump, wait_until  # noqa: E402

OUT = os.environ["GEOBIAS_DESKTOP_OUT"]
SCREEN = (1600, 1000)
IMR, ATTR = "Infant Mortality Rate", "Average Attractiveness of Residents"
# (model, topic, the paper's file, score kind: 0 greedy, 1 expected value)
RATINGS = (
    ("gpt-3.5-turbo-0613", IMR, "gpt_3_5_turbo_0613_Infant_Mortality_Rate_world_prompts.csv", 0),
    ("gpt-3.5-turbo-0613", ATTR,
     "gpt_3_5_turbo_0613_Average_Attractiveness_of_Residents_world_prompts.csv", 0),
    ("gpt-3.5 logprobs", IMR,
     "gpt_3_5_turbo_0613_Infant_Mortality_Rate_world_prompts_expected_value.csv", 1),
)  # fmt: skip
rec = Recorder(OUT, timeout=float(os.environ.get("GEOBIAS_DESKTOP_TIMEOUT", "900")))


def dock():
    return plugins["geobias"].dock


def setup():
    import processing
    from geobias.paths import COUNTRIES, REFERENCE

    window = iface.mainWindow()
    window.setGeometry(0, 0, *SCREEN)
    browser = window.findChild(QDockWidget, "Browser")
    if browser is not None:  # more room for the map
        browser.hide()
    folder = os.path.join(OUT, "data")
    os.makedirs(folder, exist_ok=True)
    QgsProject.instance().setFileName(os.path.join(folder, "tabs.qgz"))
    paths = []
    for model, topic, name, kind in RATINGS:
        k = len(paths)
        out = processing.run("geobias:importratings", {
            "INPUT": os.path.join(REFERENCE, name), "MODEL": model, "TOPIC": topic, "SCORE": kind,
            "OUTPUT": os.path.join(folder, f"rated_{k}.gpkg")})["OUTPUT"]  # fmt: skip
        if topic == IMR:
            out = processing.run("geobias:samplegroundtruth", {
                "INPUT": out, "POLYGONS": COUNTRIES, "POLYGON_FIELD": "infant_mortality",
                "OUTPUT": os.path.join(folder, f"truth_{k}.gpkg")})["OUTPUT"]  # fmt: skip
        paths.append(out.split("|")[0])
    window.findChild(QAction, "GeoBiasShowDock").trigger()
    wait_until(lambda: dock().isVisible(), 10, "the dock")
    window.resizeDocks([dock()], [470], Qt.Orientation.Horizontal)
    d = dock()
    d.ui.nameEdit.setText("gpt-3.5")
    d.show_tab(d.area)
    click(d.area.countriesButton)
    pump(0.5)
    task = d.results.open_files(paths)  # a background job
    wait_until(lambda: task is not None and d.panel.task is not task, 300, "the results to open")
    rec.facts["rated"] = [lyr.name() for lyr in d.results.rated_layers]
    iface.messageBar().clearWidgets()


def show_only(group_name):
    """Only this layer group (and the countries) on the map; its legend open, others closed."""
    root = QgsProject.instance().layerTreeRoot()
    view = iface.layerTreeView()
    for group in root.findGroups():
        shown = group.name() == group_name
        group.setItemVisibilityChecked(shown)
        group.setExpanded(shown)
        index = view.node2index(group)  # through the view's proxy model
        if shown:
            view.expandRecursively(index)
        else:
            view.collapse(index)


def rated_imr():
    return next(lyr for lyr in QgsProject.instance().mapLayers().values()
                if lyr.name() == f"{IMR} · gpt-3.5-turbo")  # fmt: skip


def compare():
    d = dock()
    tab = d.compare
    d.show_tab(tab)
    pump(0.3)
    click(tab.layersButton)
    click(tab.compareButton)
    wait_until(lambda: tab.pivotTable.rowCount() > 0, 300, "the comparison")
    tab.metricCombo.setCurrentIndex(tab.metricCombo.findData("bias_score"))
    rec.facts["compare"] = [tab.pivotTable.item(r, 0).text()
                            for r in range(tab.pivotTable.rowCount())]  # fmt: skip
    from geobias.ui.compare_tab import GROUP

    show_only(GROUP)
    iface.mapCanvas().setExtent(QgsRectangle(-180, -60, 180, 85))
    iface.messageBar().clearWidgets()
    pump(1.0)
    rec.shot("06-compare")


def herb():
    d = dock()
    ui = d.herb
    d.show_tab(ui)
    QTest.keyClicks(ui.continentsEdit, "Oceania")
    ui.citiesSpin.setValue(0)  # stop at countries
    QTest.keyClicks(ui.topicsEdit, "morality")
    words = os.path.join(OUT, "data", "herb_words.txt")
    with open(words, "w") as f:
        f.write("morality\thonest\nmorality\tcruel\nmorality\tkind\n")
    QTest.keyClicks(ui.descriptorsFile.lineEdit(), words)
    pump(0.2)
    with DialogAnswerer(rec, "herb_confirm") as dialog:
        panel = ui.panel
        click(panel.runButton)
        wait_until(lambda: dialog.texts or "Stopped" in panel.progressLabel.text(), 600,
                   "the HERB estimate and its confirmation")  # fmt: skip
        wait_until(lambda: panel.task is None and (panel.progressBar.value() == 100
                   or "Stopped" in panel.progressLabel.text()), 900, "HERB")  # fmt: skip
    assert panel.progressBar.value() == 100, panel.progressLabel.text()
    table = ui.regionTable
    rows = range(table.rowCount())
    rec.facts["herb"] = [[table.item(i, j).text() for j in range(3)] for i in rows]
    table.selectRow(next((i for i in rows if table.item(i, 0).text() == "Oceania"), 0))
    group = next(g.name() for g in QgsProject.instance().layerTreeRoot().findGroups()
                 if g.name().startswith("GeoBias — HERB"))  # fmt: skip
    show_only(group)
    iface.mapCanvas().setExtent(QgsRectangle(105, -52, 185, 5))
    iface.messageBar().clearWidgets()
    pump(1.0)
    bar = d.ui.tabs.currentWidget().verticalScrollBar()  # the table and the bars in view
    bar.setValue(bar.maximum())
    pump(0.5)
    rec.shot("05-herb")


def overlay():
    d = dock()
    tab = d.overlay
    d.show_tab(tab)
    rated = rated_imr()
    countries = next(lyr for lyr in QgsProject.instance().mapLayers().values()
                     if lyr.name() == "Countries (GeoBias)")  # fmt: skip
    tab.pointsCombo.setLayer(rated)
    tab.unitsCombo.setLayer(countries)
    click(tab.aggregateButton)
    wait_until(lambda: tab.corrLayerCombo.currentText().endswith("mean rank error"), 300,
               "the aggregation")  # fmt: skip
    rec.facts["bias_measure"] = tab.valueFieldCombo.currentField()
    click(tab.correlateButton)
    wait_until(lambda: tab.corrTable.rowCount() > 0, 300, "the correlations")
    iface.messageBar().clearWidgets()


def within(widget, container):
    left = widget.mapTo(container, widget.rect().topLeft()).x()
    return 0 <= left and left + widget.width() <= container.width()


def narrow():
    d = dock()
    window = iface.mainWindow()
    problems = []
    facts = {}
    for width in (350, 450):
        window.resizeDocks([d], [width], Qt.Orientation.Horizontal)
        pump(0.5)
        facts[width] = {"dock": d.width(), "tabs": {}}
        if d.width() != width:
            problems.append(f"dock {d.width()} px wide, not {width}")
        tabs = d.ui.tabs
        twelve = QFontMetrics(d.font()).averageCharWidth() * 12
        for i in range(tabs.count()):
            tabs.setCurrentIndex(i)
            pump(0.4)
            name = tabs.tabText(i)
            shown = [b for b in d.findChildren(QAbstractButton) if b.isVisible()]
            out = [b.text() or b.objectName() for b in shown if not within(b, d)]
            squashed = [b.text() for b in shown if isinstance(b, QPushButton)
                        and b.width() < b.sizeHint().width()]  # fmt: skip
            page = tabs.widget(i).widget()
            views = [v for v in page.findChildren(QTableView) if v.isVisible()]
            columns = {v.objectName(): v.columnWidth(0) for v in views
                       if v.model() is not None and v.model().rowCount()}  # fmt: skip
            narrow_columns = {k: w for k, w in columns.items() if w < twelve}
            clipped = page.minimumSizeHint().width() > tabs.widget(i).viewport().width()
            facts[width]["tabs"][name] = {"buttons": len(shown), "outside": out,
                                          "squashed": squashed, "columns": columns,
                                          "clipped": clipped}  # fmt: skip
            if out or squashed or narrow_columns or clipped:
                problems.append(f"{width} px, {name}: outside {out}, squashed {squashed}, "
                                f"columns {narrow_columns}, clipped {clipped}")  # fmt: skip
            rec.shot(f"narrow_{width}_{i}_{name.split()[0].lower()}", d)
    rec.facts["narrow"] = facts
    assert not problems, problems


def legend_and_help():
    d = dock()
    window = iface.mainWindow()
    window.resizeDocks([d], [450], Qt.Orientation.Horizontal)
    d.show_tab(d.results)
    root = QgsProject.instance().layerTreeRoot()
    rated = rated_imr()
    show_only(root.findLayer(rated.id()).parent().name())
    model = iface.layerTreeView().layerTreeModel()
    nodes = model.layerLegendNodes(root.findLayer(rated.id()))
    rec.facts["legend"] = [n.data(Qt.ItemDataRole.DisplayRole) for n in nodes]
    iface.layerTreeView().expandAll()
    iface.mapCanvas().setExtent(QgsRectangle(-30, -40, 60, 60))
    pump(1.0)
    rec.shot("legend")
    window.resizeDocks([d], [470], Qt.Orientation.Horizontal)
    click(d.ui.helpButton)  # no web browser on this machine: the guide in a QGIS window
    guide = getattr(d, "_guide_window", None)
    source = guide.browser.source().toLocalFile() if guide else ""
    rec.facts["help"] = {"window": guide is not None and guide.isVisible(), "source": source}
    pump(1.0)
    if guide is not None:
        rec.shot("help", guide)
        guide.close()


def main():
    try:
        if rec.step("setup", setup):
            for name, fn in (("compare", compare), ("herb", herb), ("overlay", overlay),
                             ("narrow", narrow), ("legend_and_help", legend_and_help)):  # fmt: skip
                rec.step(name, fn)
    finally:
        rec.finish(0)


QTimer.singleShot(1000, main)
