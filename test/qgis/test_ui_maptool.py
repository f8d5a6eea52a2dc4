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


def click(tool, canvas, pixel, button=Qt.MouseButton.LeftButton):
    ev = QgsMapMouseEvent(
        canvas,
        QEvent.Type.MouseButtonRelease,
        pixel,
        button,
        button,
        Qt.KeyboardModifier.NoModifier,
    )
    tool.canvasReleaseEvent(ev)


def key(tool, k, mods=Qt.KeyboardModifier.NoModifier):
    tool.keyPressEvent(QKeyEvent(QEvent.Type.KeyPress, k, mods))


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
    key(tool, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert len(tool.points) == 4
    click(tool, canvas, pixel_of(canvas, 5.0, 30.0), Qt.MouseButton.RightButton)  # finish
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
    key(tool, Qt.Key.Key_Return)  # two vertices: not a polygon yet, keeps drawing
    assert got == [] and len(tool.points) == 2
    click(tool, canvas, pixel_of(canvas, 10, 48))
    key(tool, Qt.Key.Key_Backspace)
    assert len(tool.points) == 2
    click(tool, canvas, pixel_of(canvas, 5, 48))
    key(tool, Qt.Key.Key_Enter)
    assert len(got) == 1
    triangle = got[0]
    assert triangle.contains(QgsPointXY(5, 43)) and not triangle.contains(QgsPointXY(9.5, 47))
    click(tool, canvas, pixel_of(canvas, 0, 40))
    key(tool, Qt.Key.Key_Escape)
    assert cancelled == [True] and tool.points == [] and len(got) == 1


def test_double_click_on_viewport_finishes(canvas):
    tool = PolygonMapTool(canvas)
    canvas.setMapTool(tool)
    got = finished(tool)
    vp = canvas.viewport()
    for lon, lat in [(0, 40), (10, 40), (10, 48)]:
        QTest.mouseClick(
            vp,
            Qt.MouseButton.LeftButton,
            Qt.KeyboardModifier.NoModifier,
            pixel_of(canvas, lon, lat),
        )
    QTest.mouseDClick(
        vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, pixel_of(canvas, 0, 48)
    )
    assert len(got) == 1
    assert got[0].boundingBox().xMaximum() == pytest.approx(10.0, abs=0.1)
    canvas.unsetMapTool(tool)


def _draw(canvas, crs, extent, corners):
    """Draw a polygon by its corners (in `crs` map units) on a canvas in `crs`; the lon/lat
    polygon the tool emits."""
    canvas.setDestinationCrs(crs)
    canvas.setExtent(extent)
    tool = PolygonMapTool(canvas)
    canvas.setMapTool(tool)
    got = finished(tool)
    for x, y in corners:
        p = canvas.getCoordinateTransform().transform(QgsPointXY(x, y))
        click(tool, canvas, QPoint(round(p.x()), round(p.y())))
    key(tool, Qt.Key.Key_Return)
    assert len(got) == 1
    return got[0]


def test_an_area_drawn_around_the_pole_keeps_the_pole(canvas):
    # NSIDC polar stereographic north: a square of 2,000 km around the North Pole.
    polar = QgsCoordinateReferenceSystem("EPSG:3413")
    d = 1_000_000
    geom = _draw(canvas, polar, QgsRectangle(-3 * d, -3 * d, 3 * d, 3 * d),
                 [(-d, -d), (d, -d), (d, d), (-d, d)])  # fmt: skip
    for lon in (-170.0, -100.0, 0.0, 45.0, 179.0):
        assert geom.contains(QgsPointXY(lon, 89.0)), lon  # a plain reprojection loses the cap
    assert not geom.contains(QgsPointXY(0.0, 70.0))


def test_an_area_drawn_across_the_antimeridian_stays_in_the_pacific(canvas):
    # PDC Mercator (centred on 150°W): Fiji to Samoa across 180°.
    pacific = QgsCoordinateReferenceSystem("EPSG:3832")
    to_map = QgsCoordinateTransform(WGS84, pacific, QgsProject.instance())
    lonlat = [(170.0, -20.0), (-170.0, -20.0), (-170.0, -10.0), (170.0, -10.0)]
    corners = [to_map.transform(QgsPointXY(lon, lat)) for lon, lat in lonlat]
    xs, ys = [p.x() for p in corners], [p.y() for p in corners]
    extent = QgsRectangle(min(xs), min(ys), max(xs), max(ys))
    extent.scale(2.0)
    geom = _draw(canvas, pacific, extent, [(p.x(), p.y()) for p in corners])
    assert geom.contains(QgsPointXY(179.5, -15.0))
    assert geom.contains(QgsPointXY(-179.5, -15.0))
    assert not geom.contains(QgsPointXY(0.0, -15.0))  # not the long way round the globe
    assert geom.boundingBox().yMinimum() == pytest.approx(-20.0, abs=0.2)
