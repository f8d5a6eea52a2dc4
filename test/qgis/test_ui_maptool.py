"""The polygon map tool driven by synthetic mouse and key events in a non-WGS84 project CRS."""

import pytest
from qgis.core import (
    QgsApplication,
    QgsCoordinateReferenceSystem,
    QgsCoordinateTransform,
    QgsPointXY,
    QgsProject,
    QgsRectangle,
)
from qgis.gui import QgsMapCanvas, QgsMapMouseEvent
from qgis.PyQt.QtCore import QEvent, QPoint, Qt
from qgis.PyQt.QtGui import QKeyEvent
from qgis.PyQt.QtTest import QTest

from geobias.ui.maptool import PolygonMapTool

MERCATOR = QgsCoordinateReferenceSystem("EPSG:3857")
WGS84 = QgsCoordinateReferenceSystem("EPSG:4326")


@pytest.fixture()
def canvas(qgis_app):
    qgis_canvas = QgsMapCanvas()
    qgis_canvas.resize(600, 400)
    qgis_canvas.show()
    QgsApplication.processEvents()  # the canvas takes its size from the resize event
    qgis_canvas.setDestinationCrs(MERCATOR)
    # Western Europe in Web Mercator metres.
    qgis_canvas.setExtent(QgsRectangle(-1_000_000, 4_000_000, 2_000_000, 6_000_000))
    assert qgis_canvas.mapSettings().outputSize().width() > 500
    yield qgis_canvas
    qgis_canvas.close()
    qgis_canvas.deleteLater()


def pixel_of(canvas, lon, lat):
    """The canvas pixel of a lon/lat point."""
    tr = QgsCoordinateTransform(WGS84, MERCATOR, QgsProject.instance())
    xy = tr.transform(QgsPointXY(lon, lat))
    p = canvas.getCoordinateTransform().transform(xy)
    return QPoint(round(p.x()), round(p.y()))


def click(tool, canvas, pixel, button=Qt.LeftButton):
    ev = QgsMapMouseEvent(canvas, QEvent.MouseButtonRelease, pixel, button, button, Qt.NoModifier)
    tool.canvasReleaseEvent(ev)


def key(tool, k, mods=Qt.NoModifier):
    tool.keyPressEvent(QKeyEvent(QEvent.KeyPress, k, mods))


def finished(tool):
    got = []
    tool.polygonFinished.connect(got.append)
    return got


def test_draw_in_mercator_gives_wgs84_polygon(canvas):
    tool = PolygonMapTool(canvas)
    canvas.setMapTool(tool)
    got = finished(tool)
    corners = [(0.0, 40.0), (10.0, 40.0), (10.0, 48.0), (0.0, 48.0)]
    for lon, lat in corners:
        click(tool, canvas, pixel_of(canvas, lon, lat))
    click(tool, canvas, pixel_of(canvas, 5.0, 44.0))  # a stray vertex, undone below
    key(tool, Qt.Key_Z, Qt.ControlModifier)
    assert len(tool.points) == 4
    click(tool, canvas, pixel_of(canvas, 5.0, 30.0), Qt.RightButton)  # finish
    assert len(got) == 1
    bbox = got[0].boundingBox()
    # One pixel is ~5 km here: corners come back within 0.1 degree in lon/lat.
    assert bbox.xMinimum() == pytest.approx(0.0, abs=0.1)
    assert bbox.xMaximum() == pytest.approx(10.0, abs=0.1)
    assert bbox.yMinimum() == pytest.approx(40.0, abs=0.1)
    assert bbox.yMaximum() == pytest.approx(48.0, abs=0.1)
    assert got[0].contains(QgsPointXY(5.0, 44.0))
    assert not got[0].contains(QgsPointXY(5.0, 30.0))
    assert tool.points == []  # ready for a new drawing


def test_enter_finishes_backspace_undoes_escape_cancels(canvas):
    tool = PolygonMapTool(canvas)
    got = finished(tool)
    cancelled = []
    tool.drawingCancelled.connect(lambda: cancelled.append(True))
    for lon, lat in [(0, 40), (10, 40)]:
        click(tool, canvas, pixel_of(canvas, lon, lat))
    key(tool, Qt.Key_Return)  # two vertices: not a polygon yet, keeps drawing
    assert got == [] and len(tool.points) == 2
    click(tool, canvas, pixel_of(canvas, 10, 48))
    key(tool, Qt.Key_Backspace)
    assert len(tool.points) == 2
    click(tool, canvas, pixel_of(canvas, 5, 48))
    key(tool, Qt.Key_Enter)
    assert len(got) == 1
    triangle = got[0]
    assert triangle.contains(QgsPointXY(5, 43)) and not triangle.contains(QgsPointXY(9.5, 47))
    click(tool, canvas, pixel_of(canvas, 0, 40))
    key(tool, Qt.Key_Escape)
    assert cancelled == [True] and tool.points == [] and len(got) == 1


def test_double_click_on_viewport_finishes(canvas):
    tool = PolygonMapTool(canvas)
    canvas.setMapTool(tool)
    got = finished(tool)
    vp = canvas.viewport()
    for lon, lat in [(0, 40), (10, 40), (10, 48)]:
        QTest.mouseClick(vp, Qt.LeftButton, Qt.NoModifier, pixel_of(canvas, lon, lat))
    QTest.mouseDClick(vp, Qt.LeftButton, Qt.NoModifier, pixel_of(canvas, 0, 48))
    assert len(got) == 1
    assert got[0].boundingBox().xMaximum() == pytest.approx(10.0, abs=0.1)
    canvas.unsetMapTool(tool)
