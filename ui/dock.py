"""The GeoBias dock: study area, survey settings, run in the background, results."""

import os
import time

from qgis.core import (
    Qgis,
    QgsApplication,
    QgsCoordinateReferenceSystem,
    QgsCoordinateTransform,
    QgsFeatureRequest,
    QgsGeometry,
    QgsMapLayerProxyModel,
    QgsProject,
    QgsRectangle,
    QgsVectorLayer,
    QgsWkbTypes,
)
from qgis.gui import QgsRubberBand
from qgis.PyQt import uic
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtGui import QColor
from qgis.PyQt.QtWidgets import (
    QDockWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QTreeWidgetItem,
)

from ..core.prompts import PRESET_LABELS, PRESETS, build_prompts
from ..core.topics import TOPICS, get_topic
from ..host import embedded_problem
from ..i18n_util import tr
from ..paths import DATA
from . import runner
from .maptool import WGS84, PolygonMapTool, RatedPointTool, style_area_band, to_wgs84
from .results import BiasPlot, MetricsTableModel, rows_from_layer
from .settings import SurveySettings, load_endpoints
from .task import log

FORM, _ = uic.loadUiType(os.path.join(os.path.dirname(__file__), "dock.ui"))
WORLD_WKT = "POLYGON((-180 -90,180 -90,180 90,-180 90,-180 -90))"


def method_labels():
    """Sampling methods (key, translated label)."""
    return (
        ("uniform", tr("Uniform on the sphere")),
        ("gazetteer", tr("Weighted by gazetteer population")),
        ("raster", tr("Weighted by a raster")),
        ("grid", tr("Regular grid")),
    )


def score_labels():
    return (
        ("auto", tr("Automatic (expected value where the model gives logprobs)")),
        ("expected", tr("Expected value (logprobs)")),
        ("greedy", tr("Greedy rating")),
    )


def kind_labels():
    return {
        "objective": tr("objective"),
        "sensitive": tr("sensitive"),
        "independent": tr("independent"),
        "custom": tr("custom"),
    }


COUNTRIES = os.path.join(DATA, "world_countries.gpkg")


def fmt_duration(seconds):
    if seconds is None or seconds != seconds or seconds == float("inf"):
        return "–"
    seconds = int(seconds)
    if seconds >= 3600:
        return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"
    if seconds >= 60:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds} s"


class GeoBiasDock(QDockWidget):
    """Draw or pick a study area, choose topics and models, run, read the bias."""

    def __init__(self, iface, parent=None):
        super().__init__(tr("GeoBias"), parent or iface.mainWindow())
        self.iface = iface
        self.canvas = iface.mapCanvas()
        from qgis.PyQt.QtWidgets import QWidget

        self.body = QWidget(self)
        self.ui = FORM()
        self.ui.setupUi(self.body)
        self.setWidget(self.body)
        self.drawn = None  # QgsGeometry in EPSG:4326
        self.preview_points = None  # (lon, lat) arrays of the last preview
        self.preview_layer = None
        self.task = None
        self.rated_layers = []
        self.last_results = None
        self.draw_tool = None
        self.identify_tool = None
        self._gazetteer = None
        self.area_band = QgsRubberBand(self.canvas, QgsWkbTypes.PolygonGeometry)
        style_area_band(self.area_band)
        self.points_band = QgsRubberBand(self.canvas, QgsWkbTypes.PointGeometry)
        self.points_band.setColor(QColor(20, 20, 20, 220))
        self.points_band.setFillColor(QColor(250, 200, 0, 230))
        self.points_band.setIcon(QgsRubberBand.ICON_CIRCLE)
        self.points_band.setIconSize(6)
        self._setup_widgets()
        self._connect()
        self.load_settings()

    # ------------------------------------------------------------------ setup
    def _setup_widgets(self):
        ui = self.ui
        ui.areaLayerCombo.setFilters(QgsMapLayerProxyModel.PolygonLayer)
        ui.weightLayerCombo.setFilters(QgsMapLayerProxyModel.RasterLayer)
        ui.weightLayerCombo.setAllowEmptyLayer(True)
        for combo in (ui.truthLayerCombo, ui.anchorLayerCombo):
            combo.setFilters(QgsMapLayerProxyModel.PolygonLayer | QgsMapLayerProxyModel.PointLayer)
            combo.setAllowEmptyLayer(True)
        for key, label in method_labels():
            ui.methodCombo.addItem(label, key)
        for key, label in score_labels():
            ui.scoreCombo.addItem(label, key)
        for key in PRESETS:
            ui.presetCombo.addItem(tr(PRESET_LABELS.get(key, key)), key)
        for topic in TOPICS:
            self._add_topic_item(topic.name, topic.kind, topic.description, checked=False)
        ui.topicsTree.header().setStretchLastSection(False)
        ui.topicsTree.header().setSectionResizeMode(0, ui.topicsTree.header().Stretch)
        ui.topicsTree.header().setSectionResizeMode(1, ui.topicsTree.header().ResizeToContents)
        self.metrics = MetricsTableModel(self)
        ui.metricsView.setModel(self.metrics)
        ui.metricsView.verticalHeader().hide()
        ui.metricsView.horizontalHeader().setStretchLastSection(False)
        self.plot = BiasPlot(self.body)
        ui.plotLayout.addWidget(self.plot)
        self.refresh_models()
        self._method_changed()

    def _connect(self):
        ui = self.ui
        ui.drawButton.toggled.connect(self._toggle_draw)
        for w in (ui.drawRadio, ui.layerRadio, ui.extentRadio, ui.worldRadio):
            w.toggled.connect(self._area_changed)
        ui.areaLayerCombo.layerChanged.connect(self._area_changed)
        ui.selectedCheck.toggled.connect(self._area_changed)
        ui.methodCombo.currentIndexChanged.connect(self._method_changed)
        ui.previewButton.clicked.connect(self.preview)
        ui.addTopicButton.clicked.connect(self.add_custom_topic)
        ui.customTopicEdit.returnPressed.connect(self.add_custom_topic)
        ui.topicsTree.itemChanged.connect(lambda *_: self._topics_changed())
        ui.presetCombo.currentIndexChanged.connect(lambda *_: self.update_prompt_preview())
        ui.truthLayerCombo.layerChanged.connect(ui.truthFieldCombo.setLayer)
        ui.anchorLayerCombo.layerChanged.connect(ui.anchorFieldCombo.setLayer)
        ui.configureButton.clicked.connect(self.configure_endpoints)
        ui.runButton.clicked.connect(self.run)
        ui.cancelButton.clicked.connect(self.cancel)
        ui.identifyButton.toggled.connect(self._toggle_identify)
        ui.metricsView.selectionModel().currentRowChanged.connect(self._row_selected)
        project = QgsProject.instance()
        project.readProject.connect(self.load_settings)
        project.writeProject.connect(self.save_settings)
        project.cleared.connect(self.load_settings)

    def _topics_changed(self):
        self._refresh_truth_topics()
        self.update_prompt_preview()

    def _refresh_truth_topics(self, wanted=None):
        """The topics the ground truth may measure: the ticked ones (first by default)."""
        combo = self.ui.truthTopicCombo
        wanted = wanted if wanted is not None else combo.currentText()
        combo.blockSignals(True)
        combo.clear()
        combo.addItems(self.checked_topics())
        combo.setCurrentIndex(max(0, combo.findText(wanted)))
        combo.blockSignals(False)

    def _add_topic_item(self, name, kind, description="", checked=True):
        item = QTreeWidgetItem([name, kind_labels().get(kind, kind)])
        item.setFlags(item.flags() | Qt.ItemIsUserCheckable)
        item.setCheckState(0, Qt.Checked if checked else Qt.Unchecked)
        item.setToolTip(0, tr(description) if description else "")
        item.setData(0, Qt.UserRole, name)
        self.ui.topicsTree.addTopLevelItem(item)
        return item

    def refresh_models(self, checked=None):
        """Fill the models list from the configured endpoints (QGIS Options > GeoBias)."""
        if checked is None:
            checked = set(self.checked_models())
        self.ui.modelsList.clear()
        for e in load_endpoints():
            label = e.name if e.is_embedded else f"{e.name} — {e.model}"
            item = QListWidgetItem(label)
            item.setData(Qt.UserRole, e.name)
            item.setFlags(item.flags() | Qt.ItemIsUserCheckable)
            item.setCheckState(Qt.Checked if e.name in checked else Qt.Unchecked)
            self.ui.modelsList.addItem(item)

    # ------------------------------------------------------------------ settings
    def settings(self):
        """The dock's current choices."""
        ui = self.ui
        mode = (
            "draw"
            if ui.drawRadio.isChecked()
            else "layer"
            if ui.layerRadio.isChecked()
            else "extent"
            if ui.extentRadio.isChecked()
            else "world"
        )
        layer = ui.areaLayerCombo.currentLayer()
        return SurveySettings(
            name=ui.nameEdit.text().strip() or "survey",
            area_mode=mode,
            area_wkt=self.drawn.asWkt(6) if self.drawn is not None else "",
            area_layer=layer.id() if layer else "",
            selected_only=ui.selectedCheck.isChecked(),
            n_points=ui.nPointsSpin.value(),
            method=ui.methodCombo.currentData(),
            weight_layer=ui.weightLayerCombo.currentLayer().id()
            if ui.weightLayerCombo.currentLayer()
            else "",
            seed=ui.seedSpin.value(),
            topics=self.checked_topics(),
            endpoints=self.checked_models(),
            preset=ui.presetCombo.currentData(),
            score=ui.scoreCombo.currentData(),
            truth_layer=ui.truthLayerCombo.currentLayer().id()
            if ui.truthLayerCombo.currentLayer()
            else "",
            truth_field=ui.truthFieldCombo.currentField(),
            anchor_layer=ui.anchorLayerCombo.currentLayer().id()
            if ui.anchorLayerCombo.currentLayer()
            else "",
            truth_topic=ui.truthTopicCombo.currentText(),
            anchor_field=ui.anchorFieldCombo.currentField(),
        )

    def apply_settings(self, s):
        ui = self.ui
        project = QgsProject.instance()
        ui.nameEdit.setText(s.name)
        self.drawn = QgsGeometry.fromWkt(s.area_wkt) if s.area_wkt else None
        {"draw": ui.drawRadio, "layer": ui.layerRadio, "extent": ui.extentRadio}.get(
            s.area_mode, ui.worldRadio
        ).setChecked(True)
        if project.mapLayer(s.area_layer):
            ui.areaLayerCombo.setLayer(project.mapLayer(s.area_layer))
        ui.selectedCheck.setChecked(s.selected_only)
        ui.nPointsSpin.setValue(s.n_points)
        ui.methodCombo.setCurrentIndex(max(0, ui.methodCombo.findData(s.method)))
        ui.weightLayerCombo.setLayer(project.mapLayer(s.weight_layer))
        ui.seedSpin.setValue(s.seed)
        known = {
            self.ui.topicsTree.topLevelItem(i).data(0, Qt.UserRole) for i in range(self._n_topics())
        }
        for name in s.topics:
            if name not in known:
                t = get_topic(name)
                self._add_topic_item(t.name, t.kind, t.description)
        for i in range(self._n_topics()):
            item = ui.topicsTree.topLevelItem(i)
            item.setCheckState(
                0, Qt.Checked if item.data(0, Qt.UserRole) in s.topics else Qt.Unchecked
            )
        self.refresh_models(set(s.endpoints))
        ui.presetCombo.setCurrentIndex(max(0, ui.presetCombo.findData(s.preset)))
        ui.scoreCombo.setCurrentIndex(max(0, ui.scoreCombo.findData(s.score)))
        ui.truthLayerCombo.setLayer(project.mapLayer(s.truth_layer))
        ui.truthFieldCombo.setLayer(ui.truthLayerCombo.currentLayer())
        ui.truthFieldCombo.setField(s.truth_field)
        self._refresh_truth_topics(s.truth_topic)
        ui.anchorLayerCombo.setLayer(project.mapLayer(s.anchor_layer))
        ui.anchorFieldCombo.setLayer(ui.anchorLayerCombo.currentLayer())
        ui.anchorFieldCombo.setField(s.anchor_field)
        self._area_changed()

    def load_settings(self, *args):
        self.apply_settings(SurveySettings.read())

    def save_settings(self, *args):
        self.settings().write()

    def _n_topics(self):
        return self.ui.topicsTree.topLevelItemCount()

    def checked_topics(self):
        tree = self.ui.topicsTree
        return [
            tree.topLevelItem(i).data(0, Qt.UserRole)
            for i in range(self._n_topics())
            if tree.topLevelItem(i).checkState(0) == Qt.Checked
        ]

    def checked_models(self):
        lst = self.ui.modelsList
        return [
            lst.item(i).data(Qt.UserRole)
            for i in range(lst.count())
            if lst.item(i).checkState() == Qt.Checked
        ]

    def add_custom_topic(self):
        text = " ".join(self.ui.customTopicEdit.text().split())
        if not text:
            return
        if text in self.checked_topics() + [
            self.ui.topicsTree.topLevelItem(i).data(0, Qt.UserRole) for i in range(self._n_topics())
        ]:
            self.push(tr("Topic {t} is already in the list.").format(t=text), Qgis.Info)
            return
        t = get_topic(text)
        self._add_topic_item(t.name, t.kind, t.description)
        self.ui.customTopicEdit.clear()

    # ------------------------------------------------------------------ study area
    def _toggle_draw(self, on):
        if on:
            self.ui.drawRadio.setChecked(True)
            if self.draw_tool is None:
                self.draw_tool = PolygonMapTool(self.canvas)
                self.draw_tool.polygonFinished.connect(self._drawn)
                self.draw_tool.drawingCancelled.connect(
                    lambda: self.ui.drawButton.setChecked(False)
                )
                self.draw_tool.deactivated.connect(lambda: self.ui.drawButton.setChecked(False))
            self.canvas.setMapTool(self.draw_tool)
            self.iface.messageBar().pushMessage(
                tr("GeoBias"),
                tr(
                    "Click to add vertices; Backspace undoes, right click or Enter finishes, "
                    "Esc cancels."
                ),
                Qgis.Info,
                5,
            )
        elif self.draw_tool is not None and self.canvas.mapTool() is self.draw_tool:
            self.canvas.unsetMapTool(self.draw_tool)

    def _drawn(self, geometry):
        self.drawn = geometry
        self.ui.drawButton.setChecked(False)
        self.ui.drawRadio.setChecked(True)
        self._area_changed()

    def area_geometry(self):
        """The study area as a QgsGeometry in EPSG:4326 (None if not defined yet)."""
        ui = self.ui
        if ui.drawRadio.isChecked():
            return QgsGeometry(self.drawn) if self.drawn is not None else None
        if ui.layerRadio.isChecked():
            layer = ui.areaLayerCombo.currentLayer()
            if layer is None:
                return None
            request = QgsFeatureRequest()
            if ui.selectedCheck.isChecked():
                request.setFilterFids(layer.selectedFeatureIds())
            request.setDestinationCrs(WGS84, QgsProject.instance().transformContext())
            geoms = [f.geometry() for f in layer.getFeatures(request) if f.hasGeometry()]
            return QgsGeometry.unaryUnion(geoms) if geoms else None
        if ui.extentRadio.isChecked():
            rect = QgsGeometry.fromRect(self.canvas.extent())
            geom = to_wgs84(rect, self.canvas.mapSettings().destinationCrs())
            clip = QgsGeometry.fromRect(QgsRectangle(-180, -90, 180, 90))
            return geom.intersection(clip)
        return QgsGeometry.fromWkt(WORLD_WKT)

    def _area_changed(self, *args):
        self.preview_points = None
        self.points_band.reset(QgsWkbTypes.PointGeometry)
        self.area_band.reset(QgsWkbTypes.PolygonGeometry)
        geom = self.area_geometry()
        if geom is None or geom.isEmpty():
            self.ui.areaLabel.setText(tr("No study area yet."))
            return
        if not self.ui.worldRadio.isChecked():
            self.area_band.setToGeometry(geom, QgsCoordinateReferenceSystem("EPSG:4326"))
        box = geom.boundingBox()
        self.ui.areaLabel.setText(
            tr("Area: {w:.2f}° to {e:.2f}° E, {s:.2f}° to {n:.2f}° N").format(
                w=box.xMinimum(), e=box.xMaximum(), s=box.yMinimum(), n=box.yMaximum()
            )
        )
        self.update_prompt_preview()

    def _method_changed(self, *args):
        raster = self.ui.methodCombo.currentData() == "raster"
        self.ui.weightLayerCombo.setEnabled(raster)
        self.ui.weightLabel.setEnabled(raster)

    # ------------------------------------------------------------------ preview
    def preview(self):
        """Sample the points with geobias:samplepoints and show them on the map (nothing sent)."""
        geom = self.area_geometry()
        if geom is None:
            self.push(tr("Draw or pick a study area first."), Qgis.Warning)
            return
        try:
            layer = runner.sample_points(self.settings(), geom)
        except Exception as e:  # shown in the message bar, details in the log
            self.push(tr("Could not sample points: {e}").format(e=e), Qgis.Warning, details=e)
            return
        self.show_preview(layer)

    def show_preview(self, layer):
        self.preview_layer = layer
        self.points_band.reset(QgsWkbTypes.PointGeometry)
        lon, lat = [], []
        transform = QgsCoordinateTransform(layer.crs(), WGS84, QgsProject.instance())
        for f in layer.getFeatures():
            p = transform.transform(f.geometry().asPoint())
            lon.append(p.x())
            lat.append(p.y())
        self.preview_points = (lon, lat)
        dest = QgsCoordinateTransform(
            WGS84, self.canvas.mapSettings().destinationCrs(), QgsProject.instance()
        )
        for i, (x, y) in enumerate(zip(lon, lat)):
            self.points_band.addPoint(dest.transform(x, y), i == len(lon) - 1)
        self.ui.areaLabel.setText(
            tr("{n} points sampled (preview, nothing sent).").format(n=len(lon))
        )
        self.update_prompt_preview()

    def gazetteer(self):
        if self._gazetteer is None:
            from ..core.gazetteer import Gazetteer

            self._gazetteer = Gazetteer.load()
        return self._gazetteer

    def update_prompt_preview(self):
        """The exact prompt of the first point and topic (centroid of the area before a preview)."""
        topics = self.checked_topics()
        if not topics:
            self.ui.promptPreview.setPlainText(tr("Tick at least one topic."))
            return
        if self.preview_points and self.preview_points[0]:
            lon, lat = self.preview_points[0][0], self.preview_points[1][0]
            where = tr("first sampled point")
        else:
            geom = self.area_geometry()
            if geom is None or geom.isEmpty():
                self.ui.promptPreview.setPlainText("")
                return
            p = geom.pointOnSurface().asPoint()
            lon, lat = p.x(), p.y()
            where = tr("a point in the area; preview the points to see the first one")
        try:
            template = PRESETS[self.ui.presetCombo.currentData() or "geollm"]
            prompt = build_prompts([lon], [lat], topics[0], self.gazetteer(), template)[0]
        except Exception as e:
            log(f"prompt preview failed: {e!r}", Qgis.Warning)
            prompt = tr("(prompt preview unavailable: {e})").format(e=e)
        self.ui.promptLabel.setText(tr("Prompt for {where}").format(where=where))
        self.ui.promptPreview.setPlainText(prompt)

    # ------------------------------------------------------------------ endpoints
    def configure_endpoints(self):
        self.iface.showOptionsDialog(self.iface.mainWindow(), currentPage="GeoBias")
        self.refresh_models()

    # ------------------------------------------------------------------ run
    def run(self):
        """Confirm what will be sent, then run the survey algorithms as a background task."""
        if self.task is not None:
            return
        s = self.settings()
        geom = self.area_geometry()
        if geom is None:
            self.push(tr("Draw or pick a study area first."), Qgis.Warning)
            return
        if not s.topics or not s.endpoints:
            self.push(tr("Tick at least one topic and one model."), Qgis.Warning)
            return
        s.write()
        if runner.uses_embedded(s):
            # Before sampling and the confirmation: say what to install, not fail afterwards.
            problem = embedded_problem()
            if problem:
                self.push(problem[0], Qgis.Critical, details=problem[1])
                return
        try:
            plan = runner.plan(s, geom, self.preview_layer)
        except Exception as e:
            self.push(tr("Cannot start the survey: {e}").format(e=e), Qgis.Warning, details=e)
            return
        if plan.estimate is not None and plan.estimate.n_requests and not self.confirm(plan):
            return
        self.start(plan)

    def confirm(self, plan):
        est = plan.estimate
        cost = (
            tr("Estimated cost: {c:.4f} (at the prices set in the options).").format(c=est.cost)
            if est.cost is not None
            else tr("No price is set for these endpoints.")
        )
        text = tr(
            "{n} requests will be sent to {hosts} ({cached} of {total} answers come from the "
            "cache).\nAbout {tok} prompt tokens.\n{cost}\n\nStart the survey?"
        ).format(
            n=est.n_requests,
            hosts=", ".join(est.hosts) or tr("no host"),
            cached=est.n_cached,
            total=est.n_total or est.n_requests + est.n_cached,
            tok=est.prompt_tokens,
            cost=cost,
        )
        answer = QMessageBox.question(
            self, tr("GeoBias survey"), text, QMessageBox.Yes | QMessageBox.No, QMessageBox.Yes
        )
        return answer == QMessageBox.Yes

    def start(self, plan):
        """Start the plan's task; progress, results and errors come back through signals."""
        self.plan = plan
        self.task = plan.task
        self.task_started = time.monotonic()
        self.task.progressChanged.connect(self._progress)
        self.task.feedback.text.connect(self._progress_text)
        self.step_text = ""
        self.task.feedback.message.connect(lambda m, level: log(m, Qgis.MessageLevel(level)))
        self.task.taskCompleted.connect(self._completed)
        self.task.taskTerminated.connect(self._terminated)
        self.ui.runButton.setEnabled(False)
        self.ui.cancelButton.setEnabled(True)
        self.ui.progressBar.setValue(0)
        self.ui.progressLabel.setText(tr("Starting…"))
        QgsApplication.taskManager().addTask(self.task)

    def _progress(self, percent):
        self.ui.progressBar.setValue(int(percent))
        self._show_progress_text(percent)

    def _progress_text(self, text):
        self.step_text = text
        self._show_progress_text(self.ui.progressBar.value())

    def _show_progress_text(self, percent):
        """The step's own text (done/total, rate, answer rate) and the run's ETA."""
        elapsed = time.monotonic() - self.task_started
        eta = elapsed * (100.0 - percent) / percent if percent > 1 else None
        text = self.step_text
        if eta is not None:
            text = tr("{text} · ETA {eta}").format(text=text, eta=fmt_duration(eta))
        self.ui.progressLabel.setText(text)

    def cancel(self):
        if self.task is not None:
            self.task.cancel()
            self.ui.progressLabel.setText(tr("Cancelling…"))

    def _finish_task(self):
        self.task = None
        self.ui.runButton.setEnabled(True)
        self.ui.cancelButton.setEnabled(False)

    def _terminated(self):
        task = self.task
        self._finish_task()
        if task is not None and task.error:
            self.push(
                tr("Survey failed: {e}").format(e=task.error), Qgis.Critical, details=task.error
            )
            self.ui.progressLabel.setText(tr("Failed."))
        else:
            self.ui.runButton.setText(tr("Resume survey"))
            self.ui.progressLabel.setText(
                tr("Cancelled. Answers so far are cached: Resume continues where it stopped.")
            )

    def _completed(self):
        task = self.task
        self._finish_task()
        self.ui.runButton.setText(tr("Run survey"))
        try:
            layers = self.plan.load(task.results)
        except Exception as e:
            self.push(tr("Could not load the results: {e}").format(e=e), Qgis.Critical, details=e)
            return
        self.show_results(layers)
        self.ui.progressBar.setValue(100)
        self.ui.progressLabel.setText(tr("Done in {t}.").format(t=fmt_duration(task.elapsed)))

    # ------------------------------------------------------------------ results
    def show_results(self, layers, group_name=None):
        """Add layers under "GeoBias — <survey>" and fill the metrics table and plot."""
        name = group_name or self.ui.nameEdit.text().strip() or "survey"
        root = QgsProject.instance().layerTreeRoot()
        title = f"GeoBias — {name}"
        group = root.findGroup(title)
        if group is None:
            group = root.insertGroup(0, title)
        else:  # a re-run replaces the results of the earlier one
            QgsProject.instance().removeMapLayers([n.layerId() for n in group.findLayers()])
        metrics = None
        self.rated_layers = []
        for layer in layers:
            if not layer.isValid():
                continue
            QgsProject.instance().addMapLayer(layer, False)
            group.addLayer(layer)
            if isinstance(layer, QgsVectorLayer) and not layer.isSpatial():
                metrics = layer
            elif isinstance(layer, QgsVectorLayer) and layer.fields().lookupField("score") >= 0:
                self.rated_layers.append(layer)
        if metrics is not None:
            self.show_metrics(metrics)
        self.ui.tabs.setCurrentWidget(self.ui.resultsTab)

    def show_metrics(self, metrics_layer):
        self.metrics.set_rows(rows_from_layer(metrics_layer))
        self.fit_metrics_table()
        if self.metrics.rowCount():
            self.ui.metricsView.selectRow(0)
            self._row_selected(self.metrics.index(0, 0))

    def fit_metrics_table(self, text_width=135):
        """Numbers at full width, long model/topic names elided (full text in the tooltip), and
        the table no taller than its rows so the plot gets the rest."""
        view = self.ui.metricsView
        view.setWordWrap(False)
        view.setTextElideMode(Qt.ElideMiddle)
        view.resizeColumnsToContents()
        for col in (0, 1):
            view.setColumnWidth(col, min(view.columnWidth(col), text_width))
        rows = max(2, min(self.metrics.rowCount(), 8))
        height = (
            view.horizontalHeader().height() + rows * view.verticalHeader().defaultSectionSize()
        )
        scroll = view.horizontalScrollBar().sizeHint().height()
        view.setMaximumHeight(height + scroll + 2 * view.frameWidth() + 2)

    def _row_selected(self, index, *args):
        if not index.isValid() or index.row() >= len(self.metrics.rows):
            return
        row = self.metrics.rows[index.row()]
        layer = self._rated_layer(row["model"], row["topic"])
        if layer is None:
            self.plot.set_data([], title=f"{row['model']} · {row['topic']}")
            return
        self.plot.set_data(*plot_columns(layer), title=f"{row['model']} · {row['topic']}")

    def _rated_layer(self, model, topic):
        """The rated layer of one metrics row (one layer per model x topic)."""
        for layer in self.rated_layers:
            names = layer.fields().names()
            if "model" not in names or "topic" not in names:
                continue
            request = QgsFeatureRequest().setLimit(1)
            request.setFlags(QgsFeatureRequest.NoGeometry)
            for f in layer.getFeatures(request):
                if str(f["model"]) == model and str(f["topic"]) == topic:
                    return layer
        return self.rated_layers[0] if len(self.rated_layers) == 1 else None

    def _toggle_identify(self, on):
        if on:
            if self.identify_tool is None:
                self.identify_tool = RatedPointTool(self.canvas)
                self.identify_tool.featureIdentified.connect(self.show_answer)
                self.identify_tool.deactivated.connect(
                    lambda: self.ui.identifyButton.setChecked(False)
                )
            layer = self.iface.activeLayer()
            if layer not in self.rated_layers and self.rated_layers:
                layer = self.rated_layers[0]
            if layer is None:
                self.push(tr("Run a survey first: there is no rated layer."), Qgis.Info)
                self.ui.identifyButton.setChecked(False)
                return
            self.identify_tool.setLayer(layer)
            self.canvas.setMapTool(self.identify_tool)
        elif self.identify_tool is not None and self.canvas.mapTool() is self.identify_tool:
            self.canvas.unsetMapTool(self.identify_tool)

    def show_answer(self, feature):
        """A rated point's model, topic, rating (score, truth, rank error), full answer, prompt."""
        names = feature.fields().names()
        missing = tr("(not recorded)")

        def get(n, default=""):
            v = feature[n] if n in names else None
            return default if v is None or str(v) == "NULL" else v

        def num(n):
            v = _num(get(n))
            return "–" if v != v else f"{v:.3g}"

        self.ui.answerText.setPlainText(
            tr(
                "Model: {m}\nTopic: {t}\nRating: {r} (score {s}; ground truth {g}; "
                "rank error {e})\n\nAnswer:\n{a}\n\nPrompt:\n{p}"
            ).format(
                m=get("model"),
                t=get("topic"),
                r=num("rating"),
                s=num("score"),
                g=num("truth"),
                e=num("rank_error"),
                a=get("completion", missing),
                p=get("prompt", missing),
            )
        )

    # ------------------------------------------------------------------ messages
    def push(self, text, level=Qgis.Warning, details=None):
        """A message bar entry; details (an exception or text) go to the GeoBias log panel."""
        if details is not None:
            import traceback

            if isinstance(details, BaseException):
                details = "".join(
                    traceback.format_exception(type(details), details, details.__traceback__)
                )
            log(str(details), level)
        bar = self.iface.messageBar()
        widget = bar.createMessage(tr("GeoBias"), text)
        if details is not None:
            button = QPushButton(tr("Details"), widget)
            button.clicked.connect(self.iface.openMessageLog)
            widget.layout().addWidget(button)
        bar.pushWidget(widget, level, 0 if level >= Qgis.Critical else 8)

    def close_survey(self):
        """Stop background work and release map tools before the plugin unloads."""
        if self.task is not None:
            self.task.cancel()
            self.task = None
        runner.stop_embedded()
        for tool in (self.draw_tool, self.identify_tool):
            if tool is not None and self.canvas.mapTool() is tool:
                self.canvas.unsetMapTool(tool)
        if self.draw_tool is not None:
            self.draw_tool.clean()
        for band in (self.area_band, self.points_band):
            band.reset()
            self.canvas.scene().removeItem(band)
        project = QgsProject.instance()
        for signal, slot in (
            (project.readProject, self.load_settings),
            (project.writeProject, self.save_settings),
            (project.cleared, self.load_settings),
        ):
            try:
                signal.disconnect(slot)
            except TypeError:
                pass


def _num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return float("nan")


def plot_columns(layer):
    """(score, truth, rank error) of a rated layer; NaN where a field is absent or NULL."""
    names = layer.fields().names()
    wanted = [
        "score" if "score" in names else "rating",
        "truth",
        "rank_error",
    ]
    present = [n for n in wanted if n in names]
    request = QgsFeatureRequest().setFlags(QgsFeatureRequest.NoGeometry)
    request.setSubsetOfAttributes(present, layer.fields())
    cols = ([], [], [])
    for f in layer.getFeatures(request):
        for col, n in zip(cols, wanted):
            col.append(_num(f[n]) if n in names else float("nan"))
    return cols
