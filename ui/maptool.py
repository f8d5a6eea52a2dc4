"""Map tools: draw a study-area polygon, and click a rated point to read its prompt and answer."""

from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsCsException,
    QgsFeature,
    QgsGeometry,
    QgsPointXY,
    QgsProcessingException,
    QgsWkbTypes,
)
from qgis.gui import QgsMapTool, QgsMapToolIdentify, QgsRubberBand
from qgis.PyQt.QtCore import Qt, pyqtSignal
from qgis.PyQt.QtGui import QColor

from ..processing.crs import lonlat_geometry

WGS84 = QgsCoordinateReferenceSystem("EPSG:4326")


def style_area_band(band):
    """The study-area look: translucent orange fill with a dark outline."""
    band.setColor(QColor(230, 120, 20, 200))
    band.setFillColor(QColor(230, 120, 20, 28))
    band.setStrokeColor(QColor(140, 60, 0, 230))
    band.setWidth(2)


class PolygonMapTool(QgsMapTool):
    """Draw a polygon: left click adds a vertex, Backspace/Ctrl+Z undoes one, right click,
    double click or Enter finishes, Esc cancels. Emits the polygon in EPSG:4326."""

    polygonFinished = pyqtSignal(QgsGeometry)
    drawingCancelled = pyqtSignal()

    def __init__(self, canvas):
        super().__init__(canvas)
        self.points = []
        self.hover = None
        self.band = QgsRubberBand(canvas, QgsWkbTypes.GeometryType.PolygonGeometry)
        style_area_band(self.band)
        self.setCursor(Qt.CursorShape.CrossCursor)

    # --- state -----------------------------------------------------------------------------
    def map_crs(self):
        return self.canvas().mapSettings().destinationCrs()

    def add_vertex(self, point):
        self.points.append(QgsPointXY(point))
        self._redraw()

    def undo(self):
        if self.points:
            self.points.pop()
        self._redraw()

    def reset(self):
        self.points = []
        self.hover = None
        self.band.reset(QgsWkbTypes.GeometryType.PolygonGeometry)

    def polygon_map(self):
        """The drawn polygon in the map CRS (None with fewer than 3 vertices)."""
        if len(self.points) < 3:
            return None
        geom = QgsGeometry.fromPolygonXY([self.points + [self.points[0]]])
        return geom.makeValid() if not geom.isGeosValid() else geom

    def finish(self):
        """Emit the polygon in EPSG:4326; too few vertices keeps drawing."""
        geom = self.polygon_map()
        if geom is None or geom.isEmpty():
            return False
        try:
            wgs = lonlat_geometry(geom, self.map_crs())
        except (QgsCsException, QgsProcessingException):
            return False  # nothing with an area on the globe: keep drawing
        self.reset()
        self.polygonFinished.emit(wgs)
        return True

    def cancel(self):
        self.reset()
        self.drawingCancelled.emit()

    def _redraw(self):
        pts = list(self.points) + ([self.hover] if self.hover is not None else [])
        self.band.reset(QgsWkbTypes.GeometryType.PolygonGeometry)
        for i, p in enumerate(pts):
            self.band.addPoint(p, i == len(pts) - 1)

    # --- events ----------------------------------------------------------------------------
    def canvasMoveEvent(self, event):
        if self.points:
            self.hover = QgsPointXY(event.mapPoint())
            self._redraw()

    def canvasReleaseEvent(self, event):
        if event.button() == Qt.MouseButton.LeftButton:
            self.add_vertex(event.mapPoint())
        elif event.button() == Qt.MouseButton.RightButton:
            self.finish()

    def canvasDoubleClickEvent(self, event):
        # The release before the double click already added this vertex.
        self.finish()

    def keyPressEvent(self, event):
        key = event.key()
        ctrl_z = key == Qt.Key.Key_Z and event.modifiers() & Qt.KeyboardModifier.ControlModifier
        if key == Qt.Key.Key_Escape:
            self.cancel()
        elif key == Qt.Key.Key_Backspace or ctrl_z:
            self.undo()
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.finish()
        else:
            event.ignore()
            return
        event.accept()

    def deactivate(self):
        self.reset()
        super().deactivate()

    def clean(self):
        """Remove the rubber band from the canvas for good (plugin unload)."""
        self.reset()
        self.canvas().scene().removeItem(self.band)


class RatedPointTool(QgsMapToolIdentify):
    """Click a point of any rated layer on the map to read its prompt and the model's answer,
    whichever layer is active. `is_rated(layer)` tells which layers qualify."""

    featureIdentified = pyqtSignal(QgsFeature)

    def __init__(self, canvas, is_rated):
        super().__init__(canvas)
        self.is_rated = is_rated
        self.setCursor(Qt.CursorShape.WhatsThisCursor)

    def rated_layers(self):
        """Rated layers shown on the map, top of the layer tree first."""
        return [lyr for lyr in self.canvas().layers() if self.is_rated(lyr)]

    def canvasReleaseEvent(self, event):
        if event.button() != Qt.MouseButton.LeftButton:
            return
        layers = self.rated_layers()
        if not layers:
            return
        hits = self.identify(
            event.x(), event.y(), layers, QgsMapToolIdentify.IdentifyMode.TopDownStopAtFirst
        )
        if hits:
            self.featureIdentified.emit(hits[0].mFeature)
