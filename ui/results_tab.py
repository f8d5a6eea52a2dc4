"""The dock's Results tab: metrics table and plots of a survey run from the dock, opened from
GeoPackages (toolbox, qgis_process, an earlier session) or taken from the Layers panel; the
prompt and answer of any rated point clicked on the map."""

import os
import re

import numpy as np
from qgis.core import (
    Qgis,
    QgsApplication,
    QgsFeatureRequest,
    QgsProject,
    QgsVectorLayer,
    QgsVectorLayerFeatureSource,
)
from qgis.PyQt import uic
from qgis.PyQt.QtCore import QEvent, Qt, QUrl
from qgis.PyQt.QtGui import QDesktopServices, QTextOption
from qgis.PyQt.QtWidgets import QFileDialog, QPushButton, QWidget

from ..i18n_util import tr
from ..processing.project_layers import add_layer, run_group
from ..processing.report_layout import is_report_copy
from ..processing.styles import describe_shown, layer_name
from . import survey_plan
from .layer_choice import LayerChoice, layer_groups, layer_language
from .maptool import RatedPointTool
from .narrow import chars_width, first_column_width, fit_first_column, wrap_row
from .notice import Notice, insert_after
from .past_runs import RunsCombo, layers_of
from .results import (
    BiasPlot,
    MetricsTableModel,
    merge_scores,
    metric_details,
    plot_columns,
    rows_from_layer,
)
from .tab import DockTab
from .task import AlgorithmChainTask

FORM, _ = uic.loadUiType(os.path.join(os.path.dirname(__file__), "results_tab.ui"))
RATED_FIELDS = ("model", "topic", "score")


def is_rated(layer):
    """A GeoBias rated points layer: points with model, topic and score fields; a report's
    own copies (kept in the project for its layout) are not results of their own."""
    if not isinstance(layer, QgsVectorLayer) or not layer.isValid() or not layer.isSpatial():
        return False
    names = layer.fields().names()
    return all(n in names for n in RATED_FIELDS) and not is_report_copy(layer)


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


def job_labels():
    """What the progress line says during the Results tab's jobs."""
    return {
        "open": tr("Opening the layers…"),
        "metrics": tr("Computing the bias metrics…"),
        "geobias:biasmetrics": tr("Computing the bias metrics…"),
        "load": tr("Loading the layers…"),
        "geobias:report": tr("Writing the report…"),
        "geobs": tr("Computing the geo-bias scores…"),
    }


def metrics_params(sources, truth, out):
    """geobias:biasmetrics over rated layers (anchor: the bundled countries' infant survival)."""
    return {
        "INPUT": sources,
        "SCORE_FIELD": "score",
        "TRUTH_FIELD": truth,
        "ANCHOR": survey_plan.COUNTRIES,
        "ANCHOR_FIELD": survey_plan.DEFAULT_ANCHOR_FIELD,
        "OUTPUT": out,
    }


def has_truth_rows(metrics_layer):
    """Whether a metrics table has a row with a ground truth (rank errors to score); read
    with OGR from its file, whichever thread the layer belongs to."""
    from osgeo import ogr

    if metrics_layer is None:
        return False
    path, _, name = metrics_layer.source().partition("|layername=")
    ds = ogr.Open(path)
    table = (ds.GetLayerByName(name) if name else ds.GetLayer(0)) if ds is not None else None
    if table is None or table.GetLayerDefn().GetFieldIndex("rho_truth") < 0:
        return False
    return any(f.GetField("rho_truth") is not None for f in table)


def point_lonlat(features, crs):
    """(lon, lat) arrays in EPSG:4326 of a layer's or a feature source's points (centroids;
    NaN without a geometry), as the algorithms read them: readable in a job's task."""
    from ..processing.crs import WGS84, to_wgs84

    request = QgsFeatureRequest().setNoAttributes()
    request.setDestinationCrs(WGS84, to_wgs84(crs).context())
    lon, lat = [], []
    for f in features.getFeatures(request):
        geom = f.geometry()
        point = None if geom is None or geom.isNull() else geom.centroid().asPoint()
        lon.append(float("nan") if point is None else point.x())
        lat.append(float("nan") if point is None else point.y())
    return np.asarray(lon, float), np.asarray(lat, float)


def geobs_rows(task, rated, truth, metrics_layer, folder):
    """In a job's task: geobias:geobiasscores of the rated layers' rank errors as rows for the
    metrics table, each layer with the settings its report scores it with (geobs_layers.
    area_settings: the dock shows the report's SSI); none without a ground truth. `rated`:
    (algorithm input, features, CRS) of each layer. None: it failed."""
    from ..processing.geobs_layers import area_settings

    if not truth or not has_truth_rows(metrics_layer):
        return []
    by_settings = {}
    for source, features, crs in rated:
        lon, lat = point_lonlat(features, crs)
        if not (np.isfinite(lon) & np.isfinite(lat)).any():
            continue  # no point to score
        by_settings.setdefault(area_settings(lon, lat), []).append(source)
    rows = []
    for i, (settings, sources) in enumerate(by_settings.items()):
        stem = "" if i == 0 else f"_{i}"
        params = {"INPUT": sources, "TRUTH_FIELD": truth,
                  "RADIUS_KM": settings.radius_km, "SCALE_DEG": settings.scale_deg,
                  "LAG_KM": settings.lag_km,
                  "OUTPUT": os.path.join(folder, f"geobs_scores{stem}.gpkg"),
                  "LOCAL": os.path.join(folder, f"geobs_local{stem}.gpkg")}  # fmt: skip
        result = task.run_algorithm("geobias:geobiasscores", params, len(task.results))
        if result is None:
            return None
        table = QgsVectorLayer(result["OUTPUT"], "geobs", "ogr")
        names = table.fields().names()
        rows += [dict(zip(names, f.attributes())) for f in table.getFeatures()]
    return rows


def first_group(layer):
    """(model, topic) of a rated layer's first point."""
    for f in layer.getFeatures(QgsFeatureRequest().setLimit(1)):
        return str(f["model"]), str(f["topic"])
    return "", layer.name()


def open_gpkgs(paths):
    """In a task: the rated layers (styled, named "topic · model", described) and the metrics
    table of GeoPackages, still in the task's thread."""
    layers, metrics = [], None
    for path in paths:
        for uri, name in gpkg_layers(path):
            layer = QgsVectorLayer(uri, name, "ogr")
            if is_metrics(layer):
                metrics = layer
                metrics.setName(tr("Bias metrics"))
            elif is_rated(layer):
                survey_plan.add_saved_styles(layer)
                describe_shown(layer)
                layers.append(layer)
    for layer in layers:
        layer.setName(layer_name(*first_group(layer), layer_language(layer)))
    return layers, metrics


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


class ResultsTab(QWidget, FORM, DockTab):
    """Metrics × plot of the selected row; Inspect identifies over every rated layer."""

    def __init__(self, dock):
        super().__init__(dock)
        self.setupUi(self)
        self.dock = dock
        self.iface = dock.iface
        self.canvas = dock.canvas
        self.rated_layers = []
        self.columns = {}  # layer id -> plot_columns(layer), read in the jobs' tasks
        self.identify_tool = None
        self.metrics = MetricsTableModel(self)
        self.metricsView.setModel(self.metrics)
        self.metricsView.verticalHeader().hide()
        self.metricsView.horizontalHeader().setStretchLastSection(False)
        self.plot = BiasPlot(self)
        self.plotLayout.addWidget(self.plot)
        wrap_row(self.loadLayout)  # Open / Use selected layers: two rows in a narrow dock
        self.metricsView.selectionModel().currentRowChanged.connect(self._row_selected)
        # Every metric of the selected row, wrapped to the dock's width (no sideways scrolling).
        self.metricsDetail.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        # Its viewport's resizes (the pane's own come before the viewport has its new width).
        self.metricsDetail.viewport().installEventFilter(self)
        self.metricsDetail.hide()
        self.identifyButton.toggled.connect(self._toggle_identify)
        self.openButton.clicked.connect(self.open_results)
        self.layersButton.clicked.connect(self.use_selected_layers)
        self.reportButton.clicked.connect(self.make_report)
        self.notice = Notice(self)
        self.choice = LayerChoice(self)
        insert_after(self.layersButton, self.notice, self.layout())
        insert_after(self.layersButton, self.choice, self.layout())
        self.choice.changed.connect(self._choice_changed)
        self.runsCombo = RunsCombo("survey", self)
        self.resultsLayout.insertWidget(0, self.runsCombo)
        self.runsCombo.runChosen.connect(self.show_run)

    # ------------------------------------------------------------------ loading results
    def show_results(self, layers, group_name, columns=None, scores=None):
        """Add layers under "GeoBias — <group_name>" and fill the metrics table and plot;
        `columns`: the plot's columns per layer id, read by the job that opened them;
        `scores`: their GeoBS scores' rows."""
        self.columns.update(columns or {})
        # Each run its own group: a re-run under the same name keeps the earlier run's layers.
        sources = [lyr.source() for lyr in layers if lyr.isValid()]
        group = run_group(QgsProject.instance(), f"GeoBias — {group_name}", sources)
        metrics = None
        rated = []
        for layer in layers:
            if not layer.isValid():
                continue
            if not add_layer(QgsProject.instance(), layer, group, unique=True):
                continue
            if is_metrics(layer):
                metrics = layer
            elif is_rated(layer):
                rated.append(layer)
        self.rated_layers = rated
        self.choice.set_layers(rated)
        if metrics is not None:
            self.show_metrics(metrics, scores)
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
        survey algorithm writes one), opened and styled in a background job; metrics are
        computed there when no table comes with them. Returns the job's task (None if none
        started)."""
        self.notice.clear_text()
        out = os.path.join(survey_plan.output_dir("results", run=True), "metrics.gpkg")

        def open_step(task):
            layers, metrics = open_gpkgs(paths)
            truth = "truth" if all("truth" in lyr.fields().names() for lyr in layers) else ""
            sources = [lyr.source() for lyr in layers]
            if metrics is None and layers:
                params = metrics_params(sources, truth, out)
                result = task.run_algorithm("geobias:biasmetrics", params, len(task.results))
                if result is None:
                    return None
                metrics = QgsVectorLayer(result["OUTPUT"], tr("Bias metrics"), "ogr")
            rated = [(lyr.source(), lyr, lyr.crs()) for lyr in layers]
            scores = geobs_rows(task, rated, truth, metrics, os.path.dirname(out))
            if scores is None:
                return None
            columns = {layer.id(): plot_columns(layer) for layer in layers}
            main = QgsApplication.instance().thread()
            for layer in layers + ([metrics] if metrics is not None else []):
                layer.moveToThread(main)
            return {"RATED": layers, "METRICS": metrics, "COLUMNS": columns, "SCORES": scores}

        task = AlgorithmChainTask(tr("GeoBias: opening results"), [(open_step, "open")])

        def opened(task):
            rated, metrics = task.results[-1]["RATED"], task.results[-1]["METRICS"]
            self.dock.panel.succeeded(task)
            if not rated:
                self.notice.show_text(
                    tr("No rated points layer (model, topic and score fields) in {files}.").format(
                        files=", ".join(os.path.basename(p) for p in paths)
                    )
                )
                return
            self.show_results(rated + ([metrics] if metrics is not None else []),
                              group_name(paths), task.results[-1]["COLUMNS"],
                              task.results[-1]["SCORES"])  # fmt: skip

        return self._start(task, opened)

    def show_run(self, run):
        """A past run of the project (past_runs.PastRun) in the table and plot: its layers in
        the project with their metrics table, else its files opened in a job."""
        self.notice.clear_text()
        present = layers_of(run)
        rated = [lyr for lyr in present if is_rated(lyr)]
        if not rated:
            return self.open_files(run.files)
        self.choice.set_layers(rated)
        metrics = next((lyr for lyr in present if is_metrics(lyr)), None)
        if metrics is None:
            return self.compute_metrics(self.choice.chosen())
        self.rated_layers = self.choice.chosen()
        self.show_metrics(metrics)
        self.dock.show_tab(self)
        return None

    def use_selected_layers(self):
        """The rated layers selected in the Layers panel (all rated layers if none is); when
        several hold the same model × topic, the tab asks which one to use."""
        self.notice.clear_text()
        view = self.iface.layerTreeView() if hasattr(self.iface, "layerTreeView") else None
        chosen = [lyr for lyr in (view.selectedLayers() if view else []) if is_rated(lyr)]
        if not chosen:
            chosen = [lyr for lyr in QgsProject.instance().mapLayers().values() if is_rated(lyr)]
        if not chosen:
            self.notice.show_text(tr("No rated points layer in the project."),
                                  Qgis.MessageLevel.Info)  # fmt: skip
            return None
        self.choice.set_layers(chosen)
        return self.compute_metrics(self.choice.chosen())

    def _choice_changed(self):
        if self.choice.layers:
            self.compute_metrics(self.choice.chosen())

    def compute_metrics(self, layers):
        """geobias:biasmetrics over the layers in a background job (anchor: the bundled
        countries' infant survival); the table and plot follow. Returns the task or None."""
        self.notice.clear_text()
        truth = "truth" if all("truth" in lyr.fields().names() for lyr in layers) else ""
        out = os.path.join(survey_plan.output_dir("results", run=True), "metrics.gpkg")
        params = metrics_params([survey_plan.layer_param(lyr) for lyr in layers], truth, out)

        sources = {lyr.id(): (QgsVectorLayerFeatureSource(lyr), lyr.fields()) for lyr in layers}
        rated = [(param, sources[lyr.id()][0], lyr.crs())
                 for param, lyr in zip(params["INPUT"], layers)]  # fmt: skip

        def load(task):
            """The metrics table, the plotted columns of each layer and the GeoBS scores of
            their rank errors, in the task."""
            columns = {lid: plot_columns(*source) for lid, source in sources.items()}
            metrics = survey_plan.open_in_task(task.results[-1]["OUTPUT"], tr("Bias metrics"),
                                          styles=False)  # fmt: skip
            scores = geobs_rows(task, rated, truth, metrics, os.path.dirname(out))
            if scores is None:
                return None
            return {"LAYER": metrics, "COLUMNS": columns, "SCORES": scores}

        task = AlgorithmChainTask(
            tr("GeoBias: bias metrics"), [("geobias:biasmetrics", params), (load, "load")]
        )

        def computed(task):
            self.rated_layers = list(layers)
            self.columns.update(task.results[-1]["COLUMNS"])
            self.show_metrics(task.results[-1]["LAYER"], task.results[-1]["SCORES"])
            self.dock.panel.succeeded(task)
            self.dock.show_tab(self)

        return self._start(task, computed)

    def _start(self, task, done):
        """Run one of this tab's jobs on the dock's run panel; why it stopped shows here."""
        if not self.dock.start_job(task, done, self.notice.show_text, job_labels()):
            return None
        return task

    @staticmethod
    def _first(layer):
        return first_group(layer)

    # ------------------------------------------------------------------ report
    def report_layer(self):
        """The rated layer of the selected metrics row, else the only one shown."""
        index = self.metricsView.currentIndex()
        if index.isValid() and index.row() < len(self.metrics.rows):
            row = self.metrics.rows[index.row()]
            layer = self._rated_layer(row["model"], row["topic"], row.get("score_kind"),
                                      row.get("language"))  # fmt: skip
            if layer is not None:
                return layer
        return self.rated_layers[0] if len(self.rated_layers) == 1 else None

    def make_report(self):
        """geobias:report of the selected rated layer, with the newest hot spots layer of the
        project, in a background job; the PDF beside the project, the layout in Project →
        Layouts. Returns the task, or None."""
        self.notice.clear_text()
        layer = self.report_layer()
        if layer is None:
            self.notice.show_text(
                tr("Open results or use selected layers first, then pick a row of the table."),
                Qgis.MessageLevel.Info,
            )
            return None
        spots = [lyr for lyr in QgsProject.instance().mapLayers().values()
                 if isinstance(lyr, QgsVectorLayer) and lyr.isValid() and not is_report_copy(lyr)
                 and lyr.fields().lookupField("lisa_class") >= 0]  # fmt: skip
        pdf = os.path.join(survey_plan.output_dir("reports", run=True), "report.pdf")
        params = {"INPUT": survey_plan.layer_param(layer), "OUTPUT": pdf,
                  # the survey's anchor: the report's bias score and facts match the survey's
                  **survey_plan.anchor_params(self.dock.settings())}  # fmt: skip
        if spots:
            params["HOTSPOTS"] = survey_plan.layer_param(spots[-1])
        task = AlgorithmChainTask(tr("GeoBias: report"), [("geobias:report", params)])

        def written(task):
            self.dock.panel.succeeded(task)
            self.report_written(task.results[-1])

        return self._start(task, written)

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
    def show_metrics(self, metrics_layer, scores=None):
        """The metrics table's rows, with the GeoBS scores' rows of the same layers."""
        self.metrics.set_rows(merge_scores(rows_from_layer(metrics_layer), scores or []))
        self.fit_metrics_table()
        if self.metrics.rowCount():
            self.metricsView.selectRow(0)
            self._row_selected(self.metrics.index(0, 0))

    def fit_metrics_table(self):
        """Numbers at full width, model and topic names with at least a dozen characters and
        the longest elided (full text in the tooltip and the detail pane), and the table no
        taller than its rows so the plot gets the rest."""
        view = self.metricsView
        view.setWordWrap(False)
        view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        view.resizeColumnsToContents()
        most = chars_width(view, 18)
        fit_first_column(view, most=most)
        view.setColumnWidth(1, max(first_column_width(view), min(view.columnWidth(1), most)))
        rows = max(2, min(self.metrics.rowCount(), 8))
        # The header's hint: its height is 0 until the table is first shown.
        row_height = view.rowHeight(0) if self.metrics.rowCount() else 0
        row_height = max(row_height, view.verticalHeader().defaultSectionSize())
        height = view.horizontalHeader().sizeHint().height() + rows * row_height
        scroll = view.horizontalScrollBar().sizeHint().height()
        # Fixed: in a short dock the tab scrolls; the table never shrinks to one row.
        view.setFixedHeight(height + scroll + 2 * view.frameWidth() + 2)

    def _row_selected(self, index, *args):
        if not index.isValid() or index.row() >= len(self.metrics.rows):
            self.metricsDetail.hide()
            return
        self.metricsDetail.setHtml(metric_details(self.metrics, index.row()))
        self.metricsDetail.show()
        self._fit_detail()
        row = self.metrics.rows[index.row()]
        layer = self._rated_layer(row["model"], row["topic"], row.get("score_kind"),
                                  row.get("language"))  # fmt: skip
        title = f"{row['model']} · {row['topic']}"
        if row.get("language"):
            title += f" [{row['language']}]"
        if layer is None:
            self.plot.set_data([], title=title)
            return
        if layer.id() not in self.columns:
            self.columns[layer.id()] = plot_columns(layer)
        self.plot.set_data(*self.columns[layer.id()], title=title)

    def _fit_detail(self):
        """The detail pane as tall as its text at the pane's width: nothing to scroll."""
        pane = self.metricsDetail
        doc = pane.document()
        doc.setTextWidth(pane.viewport().width())
        height = int(doc.size().height()) + 2 * pane.frameWidth() + 2
        if pane.height() != height:
            pane.setFixedHeight(height)

    def eventFilter(self, obj, event):
        # A new width may need another height; a new height alone changes nothing (refitting
        # on it would loop).
        if (obj is self.metricsDetail.viewport() and event.type() == QEvent.Type.Resize
                and event.size().width() != event.oldSize().width()):  # fmt: skip
            self._fit_detail()
        return super().eventFilter(obj, event)

    def _rated_layer(self, model, topic, kind=None, language=None):
        """The rated layer of one metrics row (one layer per model × topic × score kind, and
        prompt language when the row has one)."""
        for layer in self.rated_layers:
            if language and layer_language(layer) != language:
                continue
            for m, t, k in layer_groups(layer):
                if m == model and t == topic and (not kind or not k or k == kind):
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
        """A rated point's model and topic, which value is its score and why, its ground truth
        and rank error, the full answer and the prompt."""
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
                "Model: {m}\nTopic: {t}\n{score}\nGround truth: {g} · rank error: {e}\n\n"
                "Answer:\n{a}\n\nPrompt:\n{p}"
            ).format(
                m=get("model"),
                t=get("topic"),
                score=explain_score(get),
                g=num("truth"),
                e=num("rank_error"),
                a=get("completion", missing),
                p=get("prompt", missing),
            )
        )

    def reset(self):
        """Empty the table, the plot and the answer (a new or opened project)."""
        self.rated_layers, self.columns = [], {}
        self.choice.set_layers([])
        self.metrics.set_rows([])  # the metrics rows with their GeoBS scores
        self.metricsDetail.clear()
        self.metricsDetail.hide()
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


def explain_score(get):
    """Which value of a rated point is its score (the one maps and metrics use) and why, with
    the other beside it: the greedy rating is the number the answer writes, the expected value
    weighs every digit by the model's probability, so the two may differ."""
    score, rating, expected = (_num(get(n)) for n in ("score", "rating", "expected"))
    kind = str(get("score_kind"))
    if str(get("failed")) == "1":
        return tr("No score: the request failed, the point was not asked.")
    if score != score:
        if str(get("answered")) == "0":
            return tr("No score: the answer holds no rating.")
        return tr("No score of this survey's kind ({kind}) for this point.").format(kind=kind)
    if kind == "expected":
        greedy = "–" if rating != rating else f"{rating:.3g}"
        return tr(
            "Score: {s:.3g}, the expected value: each digit weighed by the model's probability "
            "for it, so it can differ from the number the answer writes (the greedy rating, "
            "{r})."
        ).format(s=score, r=greedy)
    if kind == "greedy":
        if expected == expected:
            return tr(
                "Score: {s:.3g}, the greedy rating: the number the answer writes (this survey "
                "scores greedy ratings; the expected value would be {e:.3g})."
            ).format(s=score, e=expected)
        return tr(
            "Score: {s:.3g}, the greedy rating: the number the answer writes (no "
            "log-probabilities came back, so there is no expected value)."
        ).format(s=score)
    return tr("Score: {s:.3g}.").format(s=score)
