"""Run inside the QGIS desktop (`make screenshot`): a first survey as the user guide shows it —
the bundled countries added from the dock, a study area drawn over Africa and Europe, the
Survey tab with the proposed ground truth, and the results after a run with the embedded model.
Saves 01-area.png, 02-survey.png and 03-results.png in $GEOBIAS_DESKTOP_OUT, then quits."""

import os
import sys

from qgis.core import QgsProject, QgsRectangle
from qgis.PyQt.QtCore import Qt, QTimer
from qgis.PyQt.QtWidgets import QDockWidget
from qgis.utils import iface, plugins

from geobias.qt_compat import QAction

sys.path.insert(0, os.path.join(os.environ["GEOBIAS_ROOT"], "test", "desktop"))
from driver import DialogAnswerer, Recorder, click, click_map, pump, wait_until  # noqa: E402

OUT = os.environ["GEOBIAS_DESKTOP_OUT"]
N_POINTS = int(os.environ.get("GEOBIAS_SCREENSHOT_POINTS", "16"))
TOPIC = "Infant Mortality Rate"
# From the Gulf of Guinea to the Baltic: countries with very different infant mortality.
POLYGON = [(-17.0, 4.0), (35.0, 4.0), (35.0, 58.0), (-10.0, 58.0)]
rec = Recorder(OUT, timeout=float(os.environ.get("GEOBIAS_DESKTOP_TIMEOUT", "900")))


def setup():
    window = iface.mainWindow()
    window.setGeometry(0, 0, 1600, 1000)
    browser = window.findChild(QDockWidget, "Browser")
    if browser is not None:  # more room for the map
        browser.hide()
    window.findChild(QAction, "GeoBiasShowDock").trigger()
    dock = plugins["geobias"].dock
    wait_until(dock.isVisible, 10, "the dock")
    window.resizeDocks([dock], [470], Qt.Orientation.Horizontal)
    dock.ui.nameEdit.setText("first survey")
    click(dock.area.countriesButton)
    pump(0.5)
    iface.mapCanvas().setExtent(QgsRectangle(-25, -2, 45, 62))
    pump(1.0)
    return dock


def area(dock):
    ui = dock.area
    click(ui.drawButton)
    for lon, lat in POLYGON:
        click_map(lon, lat)
    click_map(POLYGON[-1][0] + 0.5, POLYGON[-1][1], Qt.MouseButton.RightButton)
    wait_until(lambda: ui.drawn is not None, 5, "the drawn polygon")
    ui.nPointsSpin.setValue(N_POINTS)
    ui.methodCombo.setCurrentIndex(ui.methodCombo.findData("population"))
    ui.seedSpin.setValue(1)
    click(ui.previewButton)
    wait_until(lambda: ui.preview_layer is not None, 60, "the preview")
    iface.messageBar().clearWidgets()
    rec.shot("01-area")


def survey(dock):
    from geobias.ui.settings import EMBEDDED_NAME

    ui = dock.survey
    dock.show_tab(ui)
    ui.set_checked_topics([TOPIC])
    ui.refresh_models({EMBEDDED_NAME})
    pump(0.5)
    rec.shot("02-survey")


def results(dock):
    with DialogAnswerer(rec) as dialog:
        click(dock.panel.runButton)
        wait_until(lambda: dock.panel.task is not None or dialog.texts, 120, "the run to start")
        wait_until(lambda: dock.panel.task is None, 900, "the survey")
    assert dock.panel.progressBar.value() == 100, dock.panel.progressLabel.text()
    dock.area.area_band.reset()  # the map shows the results, not the drawn outline
    dock.area.points_band.reset()
    group = QgsProject.instance().layerTreeRoot().findGroup("GeoBias — first survey")
    assert group is not None
    iface.setActiveLayer(group.findLayers()[0].layer())
    iface.messageBar().clearWidgets()
    iface.mapCanvas().refreshAllLayers()
    pump(2.0)
    rec.shot("03-results")


def main():
    try:
        dock = setup()
        for name, fn in (("area", area), ("survey", survey), ("results", results)):
            if not rec.step(name, fn, dock):
                break
    finally:
        rec.finish(0)


QTimer.singleShot(1000, main)
