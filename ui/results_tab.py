"""The dock's Results tab: metrics table and plots of a survey run from the dock, opened from
GeoPackages (toolbox, qgis_process, an earlier session) or taken from the Layers panel; the
prompt and answer of any rated point clicked on the map."""

import os
import re

from qgis.core import (
    Qgis,
    QgsFeatureRequest,
    QgsProject,
    QgsVectorLayer,
)
from qgis.PyQt import uic
from qgis.PyQt.QtCore import Qt, QUrl
from qgis.PyQt.QtGui import QDesktopServices
from qgis.PyQt.QtWidgets import QApplication, QFileDialog, QPushButton, QWidget

from ..i18n_util import tr
from ..processing.styles import describe_shown, layer_name
from . import runner
from .maptool import RatedPointTool
from .results import BiasPlot, MetricsTableModel, rows_from_layer
from .task import error_sentence

FORM, _ = uic.loadUiType(os.path.join(os.path.dirname(__file__), "results_tab.ui"))
RATED_FIELDS = ("model", "topic", "score")


def is_rated(layer):
    """A GeoBias rated points layer: points with model, topic and score fields."""
    if not isinstance(layer, QgsVectorLayer) or not layer.isValid() or not layer.isSpatial():
        return False
    names = layer.fields().names()
    return all(n in names for n in RATED_FIELDS)


def is_metrics(layer):
    """A bias metrics table (no geometry; model, topic and rho or MAD columns)."""
    if not isinstance(layer, QgsVectorLayer) or not layer.isValid() or layer.isSpatial():
        return False
    names = {n.lower() for n in layer.fields().names()}
    return {"model", "topic"} <= names and bool({"mad", "rho", "rho_truth", "gini"} & names)


def gpkg_layers(path):
    """The layers of a GeoPackage as (uri, name), in the file's order."""
    from osgeo import ogr

    ds = ogr.Open(path)
    if ds is None:
        return []
    names = [ds.GetLayer(i).GetName() for i in range(ds.GetLayerCount())]
    ds = None  # close before QGIS opens the layers
    return [(f"{path}|layername={name}", name) for name in names]


def group_name(paths):
    """The layer group of opened results: the file's name, or for the files of a dock run
    (<survey>/<date-time>/rated_*.gpkg, truth_*.gpkg) the survey and its date."""
    name = os.path.splitext(os.path.basename(paths[0]))[0]
    if len(paths) == 1 and not name.startswith(("rated_", "truth_", "metrics", "points")):
        return name
    folder = os.path.dirname(os.path.abspath(paths[0]))
    name = os.path.basename(folder)
    if re.fullmatch(r"[0-9-]+", name):  # a run's time stamp: say which survey
        name = f"{os.path.basename(os.path.dirname(folder))} {name}"
    return name


class ResultsTab(QWidget, FORM):
    """Metrics × plot of the selected row; Inspect identifies over every rated layer."""

    def __init__(self, dock):
        super().__init__(dock)
        self.setupUi(self)
        self.dock = dock
        self.iface = dock.iface
        self.canvas = dock.canvas
        self.rated_layers = []
        self.identify_tool = None
        self.metrics = MetricsTableModel(self)
        self.metricsView.setModel(self.metrics)
        self.metricsView.verticalHeader().hide()
        self.metricsView.horizontalHeader().setStretchLastSection(False)
        self.plot = BiasPlot(self)
        self.plotLayout.addWidget(self.plot)
        self.metricsView.selectionModel().currentRowChanged.connect(self._row_selected)
        self.identifyButton.toggled.connect(self._toggle_identify)
        self.openButton.clicked.connect(self.open_results)
        self.layersButton.clicked.connect(self.use_selected_layers)
        self.reportButton.clicked.connect(self.make_report)

    # ------------------------------------------------------------------ loading results
    def show_results(self, layers, group_name):
        """Add layers under "GeoBias — <group_name>" and fill the metrics table and plot."""
        root = QgsProject.instance().layerTreeRoot()
        title = f"GeoBias — {group_name}"
        group = root.findGroup(title)
        if group is None:
            group = root.insertGroup(0, title)
        else:  # a re-run replaces the results of the earlier one
            QgsProject.instance().removeMapLayers([n.layerId() for n in group.findLayers()])
        metrics = None
        rated = []
        for layer in layers:
            if not layer.isValid():
                continue
            QgsProject.instance().addMapLayer(layer, False)
            group.addLayer(layer)
            if is_metrics(layer):
                metrics = layer
            elif is_rated(layer):
                rated.append(layer)
        self.rated_layers = rated
        if metrics is not None:
            self.show_metrics(metrics)
        self.dock.show_tab(self)

    def open_results(self):
        """Pick survey GeoPackages in a file dialog and show them."""
        folder = QgsProject.instance().homePath() or os.path.expanduser("~")
        paths, _ = QFileDialog.getOpenFileNames(
            self, tr("Open GeoBias results"), folder, tr("GeoPackage (*.gpkg)")
        )
        if paths:
            self.open_files(paths)

    def open_files(self, paths):
        """Rated layers and metrics of GeoPackages (a dock run's folder has several, the
        survey algorithm writes one); metrics are computed when no table comes with them."""
        layers, metrics = [], None
        for path in paths:
            for uri, name in gpkg_layers(path):
                layer = QgsVectorLayer(uri, name, "ogr")
                if is_metrics(layer):
                    metrics = layer
                    metrics.setName(tr("Bias metrics"))
                elif is_rated(layer):
                    runner.add_saved_styles(layer)
                    describe_shown(layer)
                    layers.append(layer)
        if not layers:
            self.dock.push(
                tr("No rated points layer (model, topic and score fields) in {files}.").format(
                    files=", ".join(os.path.basename(p) for p in paths)
                ),
                Qgis.MessageLevel.Warning,
            )
            return []
        models = {self._first(layer)[0] for layer in layers}
        for layer in layers:
            model, topic = self._first(layer)
            layer.setName(layer_name(model, topic, with_model=len(models) > 1))
        if metrics is None:
            metrics = self.compute_metrics(layers)
        self.show_results(layers + ([metrics] if metrics is not None else []), group_name(paths))
        return layers

    def use_selected_layers(self):
        """The rated layers selected in the Layers panel (all rated layers if none is)."""
        view = self.iface.layerTreeView() if hasattr(self.iface, "layerTreeView") else None
        chosen = [lyr for lyr in (view.selectedLayers() if view else []) if is_rated(lyr)]
        if not chosen:
            chosen = [lyr for lyr in QgsProject.instance().mapLayers().values() if is_rated(lyr)]
        if not chosen:
            self.dock.push(tr("No rated points layer in the project."), Qgis.MessageLevel.Info)
            return
        metrics = self.compute_metrics(chosen)
        self.rated_layers = chosen
        if metrics is not None:
            self.show_metrics(metrics)
        self.dock.show_tab(self)

    def compute_metrics(self, layers):
        """geobias:biasmetrics over the layers (anchor: the bundled countries' infant survival)."""
        truth = "truth" if all("truth" in lyr.fields().names() for lyr in layers) else ""
        for layer in layers:  # memory layers are found through the project
            if QgsProject.instance().mapLayer(layer.id()) is None:
                QgsProject.instance().addMapLayer(layer, False)
        out = os.path.join(runner.output_dir("results", run=True), "metrics.gpkg")
        try:
            result = runner.run_algorithm(
                "geobias:biasmetrics",
                {
                    "INPUT": [lyr.id() for lyr in layers],
                    "SCORE_FIELD": "score",
                    "TRUTH_FIELD": truth,
                    "ANCHOR": runner.COUNTRIES,
                    "ANCHOR_FIELD": runner.DEFAULT_ANCHOR_FIELD,
                    "OUTPUT": out,
                },
            )
        except Exception as e:
            self.dock.push(
                tr("Could not compute the metrics: {e}.").format(e=error_sentence(e)),
                Qgis.MessageLevel.Warning,
                details=e,
            )
            return None
        return QgsVectorLayer(result["OUTPUT"], tr("Bias metrics"), "ogr")

    @staticmethod
    def _first(layer):
        """(model, topic) of a rated layer's first point."""
        for f in layer.getFeatures(QgsFeatureRequest().setLimit(1)):
            return str(f["model"]), str(f["topic"])
        return "", layer.name()

    # ------------------------------------------------------------------ report
    def report_layer(self):
        """The rated layer of the selected metrics row, else the only one shown."""
        index = self.metricsView.currentIndex()
        if index.isValid() and index.row() < len(self.metrics.rows):
            row = self.metrics.rows[index.row()]
            layer = self._rated_layer(row["model"], row["topic"])
            if layer is not None:
                return layer
        return self.rated_layers[0] if len(self.rated_layers) == 1 else None

    def make_report(self):
        """geobias:report of the selected rated layer, with the newest hot spots layer of the
        project; the PDF beside the project, the layout in Project → Layouts."""
        layer = self.report_layer()
        if layer is None:
            self.dock.push(
                tr("Open results or use selected layers first, then pick a row of the table."),
                Qgis.MessageLevel.Info,
            )
            return None
        spots = [lyr for lyr in QgsProject.instance().mapLayers().values()
                 if isinstance(lyr, QgsVectorLayer) and lyr.isValid()
                 and lyr.fields().lookupField("lisa_class") >= 0]  # fmt: skip
        pdf = os.path.join(runner.output_dir("reports", run=True), "report.pdf")
        params = {"INPUT": layer, "OUTPUT": pdf}
        if spots:
            params["HOTSPOTS"] = spots[-1]
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            result = runner.run_algorithm("geobias:report", params)
        except Exception as e:
            self.dock.push(tr("Could not write the report: {e}").format(e=e),
                           Qgis.MessageLevel.Warning, details=e)  # fmt: skip
            return None
        finally:
            QApplication.restoreOverrideCursor()
        self.report_written(result)
        return result

    def report_written(self, result):
        bar = self.iface.messageBar()
        widget = bar.createMessage(
            tr("GeoBias"),
            tr("Report written: {pdf} ({n} pages). Its layout '{name}' is under Project → "
               "Layouts.").format(pdf=result["OUTPUT"], n=result["PAGES"], name=result["LAYOUT"]),
        )  # fmt: skip
        button = QPushButton(tr("Open PDF"), widget)
        button.clicked.connect(
            lambda: QDesktopServices.openUrl(QUrl.fromLocalFile(result["OUTPUT"]))
        )
        widget.layout().addWidget(button)
        bar.pushWidget(widget, Qgis.MessageLevel.Success, 0)

    # ------------------------------------------------------------------ table and plot
    def show_metrics(self, metrics_layer):
        self.metrics.set_rows(rows_from_layer(metrics_layer))
        self.fit_metrics_table()
        if self.metrics.rowCount():
            self.metricsView.selectRow(0)
            self._row_selected(self.metrics.index(0, 0))

    def fit_metrics_table(self, text_width=135):
        """Numbers at full width, long model/topic names elided (full text in the tooltip), and
        the table no taller than its rows so the plot gets the rest."""
        view = self.metricsView
        view.setWordWrap(False)
        view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
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
        title = f"{row['model']} · {row['topic']}"
        if layer is None:
            self.plot.set_data([], title=title)
            return
        self.plot.set_data(*plot_columns(layer), title=title)

    def _rated_layer(self, model, topic):
        """The rated layer of one metrics row (one layer per model x topic)."""
        for layer in self.rated_layers:
            names = layer.fields().names()
            if "model" not in names or "topic" not in names:
                continue
            request = QgsFeatureRequest().setLimit(1)
            request.setFlags(QgsFeatureRequest.Flag.NoGeometry)
            for f in layer.getFeatures(request):
                if str(f["model"]) == model and str(f["topic"]) == topic:
                    return layer
        return self.rated_layers[0] if len(self.rated_layers) == 1 else None

    # ------------------------------------------------------------------ inspect
    def _toggle_identify(self, on):
        if on:
            if self.identify_tool is None:
                self.identify_tool = RatedPointTool(self.canvas, is_rated)
                self.identify_tool.featureIdentified.connect(self.show_answer)
                self.identify_tool.deactivated.connect(
                    lambda: self.identifyButton.setChecked(False)
                )
            if not self.identify_tool.rated_layers():
                self.dock.push(
                    tr("Run a survey first: there is no rated layer."), Qgis.MessageLevel.Info
                )
                self.identifyButton.setChecked(False)
                return
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

        self.answerText.setPlainText(
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

    def reset(self):
        """Empty the table, the plot and the answer (a new or opened project)."""
        self.rated_layers = []
        self.metrics.set_rows([])
        self.plot.set_data([])
        self.answerText.clear()
        self.identifyButton.setChecked(False)

    def close_tab(self):
        if self.identify_tool is not None and self.canvas.mapTool() is self.identify_tool:
            self.canvas.unsetMapTool(self.identify_tool)


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
    request = QgsFeatureRequest().setFlags(QgsFeatureRequest.Flag.NoGeometry)
    request.setSubsetOfAttributes(present, layer.fields())
    cols = ([], [], [])
    for f in layer.getFeatures(request):
        for col, n in zip(cols, wanted):
            col.append(_num(f[n]) if n in names else float("nan"))
    return cols
