"""The dock's Area tab: bundled layers and a basemap to draw on, the study area, the points."""

import os

from qgis.core import (
    Qgis,
    QgsApplication,
    QgsCoordinateReferenceSystem,
    QgsCoordinateTransform,
    QgsFeatureRequest,
    QgsGeometry,
    QgsMapLayerProxyModel,
    QgsProcessingException,
    QgsProject,
    QgsRasterLayer,
    QgsRectangle,
    QgsTask,
    QgsVectorLayer,
    QgsVectorLayerFeatureSource,
    QgsWkbTypes,
)
from qgis.gui import QgsRubberBand
from qgis.PyQt import uic
from qgis.PyQt.QtCore import pyqtSignal
from qgis.PyQt.QtGui import QColor
from qgis.PyQt.QtWidgets import QSizePolicy, QWidget

from ..i18n_util import number, tr, translate
from ..paths import DATA
from ..processing.crs import lonlat_geometry
from ..processing.definitions import SAMPLE_METHODS
from ..processing.project_layers import add_layer
from ..processing.run_facts import area_km2
from . import survey_plan
from .maptool import WGS84, PolygonMapTool, style_area_band
from .narrow import add_choices
from .notice import Notice, insert_after
from .tab import DockTab
from .task import AlgorithmChainTask, log

FORM, _ = uic.loadUiType(os.path.join(os.path.dirname(__file__), "area_tab.ui"))
WORLD_WKT = "POLYGON((-180 -90,180 -90,180 90,-180 90,-180 -90))"
# Bundled layers: key -> (file, layer name in the GeoPackage, display name).
BUNDLED = {
    "countries": ("world_countries.gpkg", "countries"),
    "regions": ("admin1.gpkg", "admin1"),
    "counties": ("us_counties.gpkg", "counties"),
}
OSM_URL = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"


def bundled_names():
    return {
        "countries": tr("Countries (GeoBias)"),
        "regions": tr("Regions, admin-1 (GeoBias)"),
        "counties": tr("US counties (GeoBias)"),
    }


def bundled_source(key):
    file, layer = BUNDLED[key]
    return os.path.join(DATA, file) + f"|layername={layer}"


def is_bundled(layer, key):
    """Whether `layer` is the bundled layer `key` (by its file and layer name)."""
    if layer is None or not isinstance(layer, QgsVectorLayer):
        return False
    file, name = BUNDLED[key]
    source = layer.source().replace("\\", "/")
    return source.split("|")[0].endswith("/" + file) and f"layername={name}" in source


def method_labels():
    """Sampling methods (Processing's key, its label, the label again as the tooltip), in
    Processing's order: the toolbox's names, short enough for the narrow dock."""
    return tuple((key, label, label) for key, label in zip(SAMPLE_METHODS.keys,
                                                           SAMPLE_METHODS.labels()))  # fmt: skip


def layer_union(layer, fids, transform_context):
    """The union, in EPSG:4326, of a polygon layer's (or feature source's) features (only
    `fids` when not None)."""
    request = QgsFeatureRequest()
    if fids is not None:
        request.setFilterFids(list(fids))
    request.setDestinationCrs(WGS84, transform_context)
    geoms = [f.geometry() for f in layer.getFeatures(request) if f.hasGeometry()]
    return QgsGeometry.unaryUnion(geoms) if geoms else None


class MeasureTask(QgsTask):
    """The union and area of a polygon layer's features, in a thread: thousands of polygons
    (the US counties) take seconds to union. The features are read through a feature source
    made on the main thread (QGIS's thread-safe way to read a layer elsewhere)."""

    def __init__(self, key, layer, fids):
        super().__init__(tr("GeoBias: measuring the study area"), QgsTask.Flag.CanCancel)
        self.key = key
        self.fids = fids
        self.context = QgsProject.instance().transformContext()
        self.source = QgsVectorLayerFeatureSource(layer)
        self.geometry = None
        self.km2 = None

    def run(self):
        try:
            self.geometry = layer_union(self.source, self.fids, self.context)
            if self.geometry is not None and not self.isCanceled():
                self.km2 = area_km2(self.geometry)
        except Exception as e:  # the label says it could not measure; details in the log
            log(f"could not measure the study area: {e!r}", Qgis.MessageLevel.Warning)
            return False
        return not self.isCanceled()


class AreaTab(QWidget, FORM, DockTab):
    """Where to sample: a drawn polygon, a layer's (selected) features, the map extent or the
    world, and how many points with which method. Emits areaChanged when the area changes."""

    areaChanged = pyqtSignal()

    def __init__(self, dock):
        super().__init__(dock)
        self.setupUi(self)
        self.dock = dock
        self.iface = dock.iface
        self.canvas = dock.canvas
        self.drawn = None  # QgsGeometry in EPSG:4326
        self.preview_points = None  # (lon, lat) of the last preview
        self.preview_layer = None
        self.draw_tool = None
        self.measured = None  # (key, geometry, km²) of a layer area, unioned in a task
        self.measuring = None  # the MeasureTask under way
        self.notice = Notice(self)
        insert_after(self.pointsBox, self.notice, self.layout())
        self.area_band = QgsRubberBand(self.canvas, QgsWkbTypes.GeometryType.PolygonGeometry)
        style_area_band(self.area_band)
        self.points_band = QgsRubberBand(self.canvas, QgsWkbTypes.GeometryType.PointGeometry)
        self.points_band.setColor(QColor(20, 20, 20, 220))
        self.points_band.setFillColor(QColor(250, 200, 0, 230))
        self.points_band.setIcon(QgsRubberBand.IconType.ICON_CIRCLE)
        self.points_band.setIconSize(6)
        for box in (self.mapBox, self.areaBox, self.pointsBox):  # the spacer takes the rest
            box.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        self.areaLayerCombo.setFilters(QgsMapLayerProxyModel.Filter.PolygonLayer)
        self.weightLayerCombo.setFilters(QgsMapLayerProxyModel.Filter.RasterLayer)
        self.weightLayerCombo.setAllowEmptyLayer(True)
        add_choices(self.methodCombo, method_labels())
        self.countriesButton.clicked.connect(lambda: self.add_bundled("countries"))
        self.regionsButton.clicked.connect(lambda: self.add_bundled("regions"))
        self.countiesButton.clicked.connect(lambda: self.add_bundled("counties"))
        self.basemapButton.clicked.connect(self.add_basemap)
        self.drawButton.toggled.connect(self._toggle_draw)
        for w in (self.drawRadio, self.layerRadio, self.extentRadio, self.worldRadio):
            w.toggled.connect(self._area_changed)
        self.areaLayerCombo.layerChanged.connect(self._area_changed)
        self.selectedCheck.toggled.connect(self._area_changed)
        self.methodCombo.currentIndexChanged.connect(self._method_changed)
        self.nPointsSpin.valueChanged.connect(lambda *_: self._show_area_text())
        self.previewButton.clicked.connect(self.preview)
        self._method_changed()

    # ------------------------------------------------------------------ map layers
    def add_bundled(self, key):
        """Add a bundled layer (once) and show it; returns it."""
        project = QgsProject.instance()
        for layer in project.mapLayers().values():
            if is_bundled(layer, key):
                self.iface.setActiveLayer(layer)
                return layer
        layer = QgsVectorLayer(bundled_source(key), bundled_names()[key], "ogr")
        if not layer.isValid():
            self.dock.push(tr("The bundled layer {f} could not be read.").format(f=key))
            return None
        symbol = layer.renderer().symbol()
        symbol.setColor(QColor(238, 236, 228))
        symbol.symbolLayer(0).setStrokeColor(QColor(150, 150, 150))
        symbol.symbolLayer(0).setStrokeWidth(0.15)
        if not add_layer(project, layer):
            self.dock.push(tr("The bundled layer {f} could not be read.").format(f=key))
            return None
        return layer

    def add_basemap(self):
        """OpenStreetMap tiles at the bottom of the layer tree (needs the internet)."""
        project = QgsProject.instance()
        for layer in project.mapLayers().values():
            if isinstance(layer, QgsRasterLayer) and OSM_URL in layer.source():
                return layer
        uri = f"type=xyz&url={OSM_URL}&zmax=19&zmin=0"
        layer = QgsRasterLayer(uri, tr("OpenStreetMap"), "wms")
        if not layer.isValid():
            self.dock.push(tr("The OpenStreetMap basemap could not be set up."))
            return None
        if not add_layer(project, layer, at=-1):
            self.dock.push(tr("The OpenStreetMap basemap could not be set up."))
            return None
        self.iface.messageBar().pushMessage(
            tr("GeoBias"),
            tr(
                "OpenStreetMap basemap added: its tiles load from the internet "
                "(© OpenStreetMap contributors). Without a connection it stays blank."
            ),
            Qgis.MessageLevel.Info,
            8,
        )
        return layer

    # ------------------------------------------------------------------ study area
    def _toggle_draw(self, on):
        if on:
            self.drawRadio.setChecked(True)
            if self.draw_tool is None:
                self.draw_tool = PolygonMapTool(self.canvas)
                self.draw_tool.polygonFinished.connect(self._drawn)
                self.draw_tool.drawingCancelled.connect(lambda: self.drawButton.setChecked(False))
                self.draw_tool.deactivated.connect(lambda: self.drawButton.setChecked(False))
            self.canvas.setMapTool(self.draw_tool)
            self.iface.messageBar().pushMessage(
                tr("GeoBias"),
                tr(
                    "Click to add vertices; Backspace undoes, right click or Enter finishes, "
                    "Esc cancels."
                ),
                Qgis.MessageLevel.Info,
                5,
            )
        elif self.draw_tool is not None and self.canvas.mapTool() is self.draw_tool:
            self.canvas.unsetMapTool(self.draw_tool)

    def _drawn(self, geometry):
        self.drawn = geometry
        self.drawButton.setChecked(False)
        self.drawRadio.setChecked(True)
        self._area_changed()

    def mode(self):
        if self.drawRadio.isChecked():
            return "draw"
        if self.layerRadio.isChecked():
            return "layer"
        if self.extentRadio.isChecked():
            return "extent"
        return "world"

    def layer_key(self):
        """What a layer area depends on: the layer, and its selection when only that counts."""
        layer = self.areaLayerCombo.currentLayer()
        if layer is None:
            return None
        selected = self.selectedCheck.isChecked()
        fids = tuple(sorted(layer.selectedFeatureIds())) if selected else None
        return layer.id(), fids

    def study_area(self):
        """What to sample as a survey_plan.StudyArea, without unioning a layer (None: no area)."""
        mode = self.mode()
        if mode == "layer":
            key = self.layer_key()
            if key is None or (key[1] is not None and not key[1]):
                return None
            return survey_plan.StudyArea(layer_id=key[0], selected=key[1] is not None)
        geom = self.area_geometry()
        if geom is None or geom.isEmpty():
            return None
        return survey_plan.StudyArea(wkt=geom.asWkt())

    def area_geometry(self):
        """The study area as a QgsGeometry in EPSG:4326 (None if not defined yet).

        A layer's union comes from the measuring task when it has finished; otherwise it is
        made here (slow for thousands of polygons: the dock itself waits for the task)."""
        mode = self.mode()
        if mode == "draw":
            return QgsGeometry(self.drawn) if self.drawn is not None else None
        if mode == "layer":
            key = self.layer_key()
            if key is None:
                return None
            if self.measured is not None and self.measured[0] == key:
                return QgsGeometry(self.measured[1]) if self.measured[1] is not None else None
            layer = self.areaLayerCombo.currentLayer()
            context = QgsProject.instance().transformContext()
            return layer_union(layer, key[1], context)
        if mode == "extent":
            rect = QgsGeometry.fromRect(self.canvas.extent())
            try:
                geom = lonlat_geometry(rect, self.canvas.mapSettings().destinationCrs())
            except QgsProcessingException:
                return None
            clip = QgsGeometry.fromRect(QgsRectangle(-180, -90, 180, 90))
            return geom.intersection(clip)
        return QgsGeometry.fromWkt(WORLD_WKT)

    def shown_area(self):
        """(geometry, km²) for the label and the map, without waiting: a layer's union is
        measured in a task (started here) and None until it is done."""
        if self.mode() != "layer":
            geom = self.area_geometry()
            if geom is None or geom.isEmpty():
                return None, None
            return geom, area_km2(geom)
        key = self.layer_key()
        if key is None:
            return None, None
        if self.measured is not None and self.measured[0] == key:
            return self.measured[1], self.measured[2]
        self.measure(key)
        return None, None

    def measure(self, key):
        """Union and measure the layer's features in a task (one at a time; the newest wins)."""
        if self.measuring is not None and self.measuring.key == key:
            return
        if self.measuring is not None:
            self.measuring.cancel()
        task = MeasureTask(key, self.areaLayerCombo.currentLayer(), key[1])
        task.taskCompleted.connect(lambda: self._measured(task))
        task.taskTerminated.connect(lambda: self._measured(task))
        self.measuring = task
        QgsApplication.taskManager().addTask(task)

    def _measured(self, task):
        if self.measuring is not task:
            return  # an older area's task
        self.measuring = None
        self.measured = (task.key, task.geometry, task.km2)
        if self.mode() == "layer" and self.layer_key() == task.key:
            self._show_area_band()
            self._show_area_text()
            self.areaChanged.emit()

    def _area_changed(self, *args):
        self.preview_points = None
        self.preview_layer = None
        self.points_band.reset(QgsWkbTypes.GeometryType.PointGeometry)
        self._show_area_band()
        self._show_area_text()
        self.areaChanged.emit()

    def _show_area_band(self):
        self.area_band.reset(QgsWkbTypes.GeometryType.PolygonGeometry)
        geom, _km2 = self.shown_area()
        if geom is not None and not geom.isEmpty() and self.mode() != "world":
            self.area_band.setToGeometry(geom, QgsCoordinateReferenceSystem("EPSG:4326"))

    def _show_area_text(self):
        """The area's size in km², its extent and how many points a run samples there."""
        geom, km2 = self.shown_area()
        if geom is None or geom.isEmpty():
            if self.measuring is not None:
                self.areaLabel.setText(tr("Measuring the study area…"))
            else:
                self.areaLabel.setText(
                    tr("No study area yet: draw one, pick a layer or the world.")
                )
            return
        box = geom.boundingBox()
        if self.preview_points is not None:
            n = len(self.preview_points[0])
            points = translate("@default", "%n point(s) sampled (preview, nothing sent).", None, n)
        else:
            n = self.nPointsSpin.value()
            points = translate("@default", "%n point(s) will be sampled.", None, n)
        self.areaLabel.setText(
            tr("Area: {km2} km², {w}° to {e}° E, {s}° to {n}° N. {points}").format(
                km2=number(km2),
                w=number(box.xMinimum(), 1),
                e=number(box.xMaximum(), 1),
                s=number(box.yMinimum(), 1),
                n=number(box.yMaximum(), 1),
                points=points,
            )
        )

    def _method_changed(self, *args):
        raster = self.methodCombo.currentData() == "raster"
        self.weightLayerCombo.setEnabled(raster)
        self.weightLabel.setEnabled(raster)

    # ------------------------------------------------------------------ preview
    def preview(self):
        """Sample the points with geobias:samplepoints in a background job on the dock's run
        panel and show them on the map (nothing sent). Returns the task, or None."""
        self.notice.clear_text()
        area = self.study_area()
        if area is None:
            self.notice.show_text(tr("Draw or pick a study area first."))
            return None
        settings = self.dock.settings()
        path = os.path.join(survey_plan.output_dir(settings.name), "points.gpkg")
        n = settings.n_points
        task = AlgorithmChainTask(
            tr("GeoBias: sampling points"),
            [("geobias:samplepoints", survey_plan.sample_params(settings, area, path)),
             (survey_plan.points_step, "points")],
        )  # fmt: skip
        labels = {"geobias:samplepoints": translate("@default", "Sampling %n point(s)…", None, n),
                  "points": tr("Reading the points…")}  # fmt: skip
        if not self.dock.start_job(task, self._previewed, self.notice.show_text, labels):
            return None
        return task

    def _previewed(self, task):
        result = task.results[-1]
        self.show_preview(result["LAYER"], result["LONLAT"])
        self.dock.panel.succeeded(task)
        note = survey_plan.sampling_note(self.dock.settings(), result["LAYER"])
        if note:  # a grid that could not place the asked count says so
            self.dock.push(note, Qgis.MessageLevel.Info)

    def show_preview(self, layer, lonlat=None):
        """The previewed points on the map; `lonlat` as read in the task (else read here)."""
        self.preview_layer = layer
        self.points_band.reset(QgsWkbTypes.GeometryType.PointGeometry)
        if lonlat is None:
            lon, lat = [], []
            transform = QgsCoordinateTransform(layer.crs(), WGS84, QgsProject.instance())
            for f in layer.getFeatures():
                p = transform.transform(f.geometry().asPoint())
                lon.append(p.x())
                lat.append(p.y())
        else:
            lon, lat = (list(map(float, v)) for v in lonlat)
        self.preview_points = (lon, lat)
        dest = QgsCoordinateTransform(
            WGS84, self.canvas.mapSettings().destinationCrs(), QgsProject.instance()
        )
        for i, (x, y) in enumerate(zip(lon, lat)):
            self.points_band.addPoint(dest.transform(x, y), i == len(lon) - 1)
        self._show_area_text()
        self.areaChanged.emit()

    def first_point(self):
        """(lon, lat, from_preview) of the point the prompt preview shows, or None."""
        if self.preview_points and self.preview_points[0]:
            return self.preview_points[0][0], self.preview_points[1][0], True
        geom, _km2 = self.shown_area()
        if geom is None or geom.isEmpty():
            return None
        p = geom.pointOnSurface().asPoint()
        return p.x(), p.y(), False

    # ------------------------------------------------------------------ settings
    def fill(self, s):
        """Copy this tab's choices into SurveySettings `s`."""
        layer = self.areaLayerCombo.currentLayer()
        weight = self.weightLayerCombo.currentLayer()
        s.area_mode = self.mode()
        s.area_wkt = self.drawn.asWkt(6) if self.drawn is not None else ""
        s.area_layer = layer.id() if layer else ""
        s.selected_only = self.selectedCheck.isChecked()
        s.n_points = self.nPointsSpin.value()
        s.method = self.methodCombo.currentData()
        s.weight_layer = weight.id() if weight else ""
        s.seed = self.seedSpin.value()

    def apply(self, s):
        project = QgsProject.instance()
        self.drawn = QgsGeometry.fromWkt(s.area_wkt) if s.area_wkt else None
        {"draw": self.drawRadio, "layer": self.layerRadio, "extent": self.extentRadio}.get(
            s.area_mode, self.worldRadio
        ).setChecked(True)
        if project.mapLayer(s.area_layer):
            self.areaLayerCombo.setLayer(project.mapLayer(s.area_layer))
        self.selectedCheck.setChecked(s.selected_only)
        self.nPointsSpin.setValue(s.n_points)
        self.methodCombo.setCurrentIndex(max(0, self.methodCombo.findData(s.method)))
        self.weightLayerCombo.setLayer(project.mapLayer(s.weight_layer))
        self.seedSpin.setValue(s.seed)
        self._area_changed()

    def close_tab(self):
        """Release the map tool and rubber bands (plugin unload)."""
        if self.measuring is not None:
            self.measuring.cancel()
            self.measuring = None
        if self.draw_tool is not None:
            if self.canvas.mapTool() is self.draw_tool:
                self.canvas.unsetMapTool(self.draw_tool)
            self.draw_tool.clean()
        for band in (self.area_band, self.points_band):
            band.reset()
            self.canvas.scene().removeItem(band)
