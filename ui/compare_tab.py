"""The dock's Compare tab: several models and topics side by side, as the paper's tables.

Pick models and topics among rated layers (from GeoPackages or the Layers panel); Compare runs
geobias:comparemodels, shows one pivot table at a time (sortable, copyable) with a dot plot of
its values per model and topic, and adds the mean rank layers to the project.
"""

import math
import os

from qgis.core import Qgis, QgsApplication, QgsProject, QgsVectorLayer
from qgis.PyQt import uic
from qgis.PyQt.QtCore import QPointF, QRectF, QSize, Qt
from qgis.PyQt.QtGui import QColor, QFont, QPainter, QPen
from qgis.PyQt.QtWidgets import (
    QApplication,
    QComboBox,
    QFileDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QSizePolicy,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..core.survey.comparisons import PIVOT_METRICS, by_language, pivots
from ..i18n_util import QT_TRANSLATE_NOOP, tr
from ..processing.project_layers import add_layer, run_group
from . import survey_plan
from .layer_choice import LayerChoice, layer_language
from .narrow import chars_width, fit_first_column, wrap_row
from .notice import Notice, insert_after
from .past_runs import RunsCombo, layers_of
from .results_tab import is_rated
from .tab import DockTab
from .table_items import NumberItem
from .task import AlgorithmChainTask

FORM, _ = uic.loadUiType(os.path.join(os.path.dirname(__file__), "compare_tab.ui"))
# Okabe-Ito: a qualitative palette colour-blind readers can tell apart.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
           "#F0E442")  # fmt: skip
# The titles of PIVOT_METRICS (core/ has no Qt), for the translation tools.
TITLES = {
    "rho_truth": QT_TRANSLATE_NOOP("@default", "Spearman's rho with the ground truth"),
    "r2_truth": QT_TRANSLATE_NOOP("@default", "Pearson's r² with the ground truth"),
    "rho_anchor": QT_TRANSLATE_NOOP("@default", "Spearman's rho with the anchor"),
    "bias_score": QT_TRANSLATE_NOOP("@default", "Bias score B = rho(anchor) · MAD · a²"),
    "mad": QT_TRANSLATE_NOOP("@default", "Mean absolute deviation (MAD) of the scores"),
    "answer_rate": QT_TRANSLATE_NOOP("@default", "Answer rate a"),
    "gini": QT_TRANSLATE_NOOP("@default", "Gini coefficient of the scores"),
    # Benchmark cards also compare their GeoBS scores (geobias:comparecards).
    "ssi": QT_TRANSLATE_NOOP(
        "@default", "GeoBS: spatial self-information (SSI) of the rank errors"
    ),
    "sri_scale": QT_TRANSLATE_NOOP("@default", "GeoBS: relative information by scale grid"),
    "sri_lag": QT_TRANSLATE_NOOP("@default", "GeoBS: relative information by distance lag"),
    "sri_direction": QT_TRANSLATE_NOOP(
        "@default", "GeoBS: relative information by direction sector"
    ),
}
CARD_METRICS = ("rho_truth", "bias_score", "mad", "answer_rate", "gini", "ssi", "sri_scale",
                "sri_lag", "sri_direction")  # fmt: skip
GROUP = "GeoBias — comparison"


def distinct(layer, field):
    """The distinct non-empty values of a field, as text."""
    idx = layer.fields().lookupField(field)
    if idx < 0:
        return []
    return sorted(str(v) for v in layer.uniqueValues(idx) if v is not None and str(v) != "NULL")


def read_records(uri):
    """The comparison's long table as dicts (the compared label as the model)."""
    table = QgsVectorLayer(uri, "compare_metrics", "ogr")
    names = table.fields().names()
    records = []
    for f in table.getFeatures():
        row = {n: (None if str(v) == "NULL" else v) for n, v in zip(names, f.attributes())}
        row["model"] = row.get("label") or row.get("model")
        records.append(row)
    return records


def read_card_records(uri):
    """The card comparison's table as dicts (the card's label as the model); B is left out
    where it reads as no bias (an objective topic), as on the cards' page."""
    records = read_records(uri)
    for row in records:
        if not row.get("bias_score_is_bias"):
            row["bias_score"] = None
    return records


def open_mean_layers(uris, spread=False):
    """In a task: the mean rank layers (default style from their GeoPackage), named by topic
    and prompt language; with `spread`, the rank spread across languages layers."""
    from ..processing.styles import short_topic

    layers = []
    for uri in uris:
        layer = QgsVectorLayer(uri, "mean", "ogr")
        if not layer.isValid():
            continue
        topic = distinct(layer, "topic")
        topic = short_topic(topic[0]) if topic else "?"
        if spread:
            layer.setName(tr("Rank spread across languages · {topic}").format(topic=topic))
        else:
            language = layer_language(layer)
            name = tr("Mean rank · {topic}").format(topic=topic)
            layer.setName(f"{name} [{language}]" if language else name)
        layer.moveToThread(QgsApplication.instance().thread())
        layers.append(layer)
    return layers


class DotPlot(QWidget):
    """One row per topic, one coloured dot per model at its value; a zero line."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.pivot = None
        self.setMinimumHeight(120)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)

    def sizeHint(self):
        return QSize(360, 60 + 22 * (len(self.pivot.topics) if self.pivot else 3))

    def set_data(self, pivot):
        self.pivot = pivot
        self.updateGeometry()
        self.update()

    def dots(self):
        """(topic index, model index, value) of every finite cell: what is drawn."""
        if self.pivot is None:
            return []
        return [(i, j, float(v)) for i, row in enumerate(self.pivot.values)
                for j, v in enumerate(row) if math.isfinite(v)]  # fmt: skip

    def paintEvent(self, event):
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), self.palette().base())
        dots = self.dots()
        if not dots:
            p.end()
            return
        topics, models = self.pivot.topics, self.pivot.models
        values = [v for _i, _j, v in dots]
        lo, hi = min(min(values), 0.0), max(max(values), 0.0)
        hi = hi if hi > lo else lo + 1.0
        label_w = min(170.0, self.width() * 0.4)
        legend_h = 18.0
        plot = QRectF(label_w + 6, legend_h + 6, self.width() - label_w - 16,
                      self.height() - legend_h - 26)  # fmt: skip
        text = self.palette().text().color()
        small = QFont(self.font())
        small.setPointSizeF(max(6.0, small.pointSizeF() * 0.85))
        p.setFont(small)
        x_legend = 4.0
        for j, model in enumerate(models):  # legend: the models' colours
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor(PALETTE[j % len(PALETTE)]))
            p.drawEllipse(QPointF(x_legend + 5, legend_h / 2 + 2), 4, 4)
            p.setPen(text)
            width = p.fontMetrics().horizontalAdvance(model) + 22
            left = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
            p.drawText(QRectF(x_legend + 12, 2, width, legend_h), left, model)
            x_legend += width

        def x_of(v):
            return plot.left() + (v - lo) / (hi - lo) * plot.width()

        step = plot.height() / max(len(topics), 1)
        p.setPen(QPen(QColor(150, 150, 150), 1, Qt.PenStyle.DashLine))
        p.drawLine(QPointF(x_of(0.0), plot.top()), QPointF(x_of(0.0), plot.bottom()))
        for i, topic in enumerate(topics):
            y = plot.top() + step * (i + 0.5)
            p.setPen(QPen(QColor(225, 225, 225), 1))
            p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y))
            p.setPen(text)
            p.drawText(QRectF(2, y - 9, label_w, 18),
                       int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter),
                       p.fontMetrics().elidedText(topic, Qt.TextElideMode.ElideRight,
                                                  int(label_w)))  # fmt: skip
        p.setPen(Qt.PenStyle.NoPen)
        for i, j, v in dots:
            p.setBrush(QColor(PALETTE[j % len(PALETTE)]))
            p.drawEllipse(QPointF(x_of(v), plot.top() + step * (i + 0.5)), 4.5, 4.5)
        p.setPen(text)
        below = QRectF(plot.left(), plot.bottom() + 2, plot.width(), 14)
        p.drawText(below, int(Qt.AlignmentFlag.AlignLeft), f"{lo:.2f}")
        p.drawText(below, int(Qt.AlignmentFlag.AlignRight), f"{hi:.2f}")
        p.end()


class CompareTab(QWidget, FORM, DockTab):
    """Models × topics: pick them, compare, read the pivots and the dot plot."""

    def __init__(self, dock):
        super().__init__(dock)
        self.setupUi(self)
        self.dock = dock
        self.iface = dock.iface
        self.layers = []
        self.pivots = {}
        self.mean_layers = []
        self.plot = DotPlot(self)
        self.plotLayout.addWidget(self.plot)
        self.set_metrics(PIVOT_METRICS)
        self.pivotTable.verticalHeader().hide()
        wrap_row(self.loadLayout)  # Open / Use selected layers: two rows in a narrow dock
        self.openButton.clicked.connect(self.open_results)
        self.layersButton.clicked.connect(self.use_selected_layers)
        self.cardsButton.clicked.connect(lambda: self.compare_cards())
        self.compareButton.clicked.connect(self.compare)
        self.copyButton.clicked.connect(self.copy_table)
        self.metricCombo.currentIndexChanged.connect(self.show_metric)
        self.compareButton.setEnabled(False)
        self.choice = LayerChoice(self)
        self.notice = Notice(self)
        insert_after(self.topicsList, self.choice, self.layout())
        insert_after(self.compareButton, self.notice, self.layout())
        self.choice.changed.connect(self.notice.clear_text)
        self.result = None
        self.runsCombo = RunsCombo("survey", self)
        self.compareLayout.insertWidget(0, self.runsCombo)
        self.runsCombo.runChosen.connect(self.add_run)
        # Prompt languages: a third list beside models and topics, and which pivots to show
        # (with the languages across, or one language's); both only when layers have languages.
        self.languagesBox = QWidget(self)
        box = QVBoxLayout(self.languagesBox)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(QLabel(tr("Languages"), self.languagesBox))
        self.languagesList = QListWidget(self.languagesBox)
        self.languagesList.setMaximumHeight(110)
        box.addWidget(self.languagesList)
        self.pickLayout.addWidget(self.languagesBox)
        self.languagesBox.hide()
        self.viewCombo = QComboBox(self)
        self.viewCombo.setToolTip(tr("The tables with the languages across, or one language's"))
        self.metricLayout.insertWidget(self.metricLayout.indexOf(self.metricCombo) + 1,
                                       self.viewCombo)  # fmt: skip
        self.viewCombo.hide()
        self.viewCombo.currentIndexChanged.connect(self.show_metric)
        self.views = {}
        self.layout().addStretch(1)  # spare height below the plot, not between the lists

    # ------------------------------------------------------------------ picking
    def open_results(self):
        folder = QgsProject.instance().homePath() or os.path.expanduser("~")
        paths, _ = QFileDialog.getOpenFileNames(
            self, tr("Open GeoBias results"), folder, tr("GeoPackage (*.gpkg)")
        )
        if paths:
            self.open_files(paths)

    def open_files(self, paths):
        """The rated layers of GeoPackages (surveys, ablations) to pick from."""
        from ..processing.comparison_layers import survey_layers

        self.notice.clear_text()
        layers = [lyr for path in paths for lyr in survey_layers(path, "score")]
        layers = [lyr for lyr in layers if is_rated(lyr)]
        self.use_layers(layers)
        if not layers:
            self.notice.show_text(
                tr("No rated points layer (model, topic and score fields) in {files}.").format(
                    files=", ".join(os.path.basename(p) for p in paths)
                )
            )
        return layers

    def use_selected_layers(self):
        """The rated layers selected in the Layers panel (all rated layers if none is); a
        report's copies never count."""
        self.notice.clear_text()
        view = self.iface.layerTreeView() if hasattr(self.iface, "layerTreeView") else None
        chosen = [lyr for lyr in (view.selectedLayers() if view else []) if is_rated(lyr)]
        if not chosen:
            chosen = [lyr for lyr in QgsProject.instance().mapLayers().values() if is_rated(lyr)]
        self.use_layers(chosen)
        if not chosen:
            self.notice.show_text(tr("No rated points layer in the project."),
                                  Qgis.MessageLevel.Info)  # fmt: skip
        return chosen

    def add_run(self, run):
        """Add a past run of the project (past_runs.PastRun) to the layers to compare: its
        layers in the project, else those of its files."""
        from ..processing.comparison_layers import survey_layers

        self.notice.clear_text()
        layers = [lyr for lyr in layers_of(run) if is_rated(lyr)]
        if not layers:
            layers = [lyr for path in run.files for lyr in survey_layers(path, "score")]
        known = {lyr.id() for lyr in self.layers}
        self.use_layers(self.layers + [lyr for lyr in layers if lyr.id() not in known])
        return layers

    def use_layers(self, layers):
        """Offer every model and topic of the layers, all checked; where several layers hold
        the same model × topic, a choice of which one to use."""
        self.layers = [lyr for lyr in layers if is_rated(lyr)]
        models = sorted({m for lyr in self.layers for m in distinct(lyr, "model")})
        topics = sorted({t for lyr in self.layers for t in distinct(lyr, "topic")})
        languages = sorted({c for lyr in self.layers for c in distinct(lyr, "language")})
        self.languagesBox.setVisible(bool(languages))
        for widget, names in ((self.modelsList, models), (self.topicsList, topics),
                              (self.languagesList, languages)):  # fmt: skip
            widget.clear()
            for name in names:
                item = QListWidgetItem(name, widget)
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(Qt.CheckState.Checked)
        self.choice.set_layers(self.layers)
        self.compareButton.setEnabled(bool(self.layers))

    @staticmethod
    def checked(widget):
        return [widget.item(i).text() for i in range(widget.count())
                if widget.item(i).checkState() == Qt.CheckState.Checked]  # fmt: skip

    # ------------------------------------------------------------------ comparing
    def compare(self):
        """geobias:comparemodels over the checked models and topics (anchor: infant survival
        of the bundled countries) in a background job on the dock's run panel, then the
        tables, the plot and the mean rank layers. Returns the task, or None."""
        self.notice.clear_text()
        models, topics = self.checked(self.modelsList), self.checked(self.topicsList)
        if not models or not topics:
            self.notice.show_text(tr("Check at least one model and one topic."))
            return None
        languages = self.checked(self.languagesList) if self.languagesBox.isVisibleTo(self) else []
        if self.languagesBox.isVisibleTo(self) and not languages:
            self.notice.show_text(tr("Check at least one language."))
            return None
        layers = [lyr for lyr in self.choice.chosen()
                  if set(distinct(lyr, "model")) & set(models)
                  and set(distinct(lyr, "topic")) & set(topics)
                  and (not languages or not distinct(lyr, "language")
                       or set(distinct(lyr, "language")) & set(languages))]  # fmt: skip
        truth = "truth" if all("truth" in lyr.fields().names() for lyr in layers) else ""
        out = os.path.join(survey_plan.output_dir("compare", run=True), "compare.gpkg")
        params = {"INPUT": [survey_plan.layer_param(lyr) for lyr in layers],
                  "MODELS": "; ".join(models), "TOPICS": "; ".join(topics), "TRUTH_FIELD": truth,
                  "ANCHOR": survey_plan.COUNTRIES, "ANCHOR_FIELD": survey_plan.DEFAULT_ANCHOR_FIELD,
                  "OUTPUT": out}  # fmt: skip
        if languages:
            params["LANGUAGES"] = "; ".join(languages)

        def load(task):
            result = task.results[-1]
            layers = open_mean_layers(result["MEAN_RANK_LAYERS"])
            layers += open_mean_layers(result.get("SPREAD_LAYERS") or [], spread=True)
            return {"RECORDS": read_records(result["METRICS"]), "LAYERS": layers}

        task = AlgorithmChainTask(
            tr("GeoBias: comparison"), [("geobias:comparemodels", params), (load, "load")]
        )
        labels = {"geobias:comparemodels": tr("Comparing the models…"),
                  "load": tr("Loading the layers…")}  # fmt: skip
        if not self.dock.start_job(task, self._compared, self.notice.show_text, labels):
            return None
        return task

    def _compared(self, task):
        self.result = task.results[0]
        loaded = task.results[-1]
        self.show_comparison(self.result, loaded["RECORDS"], loaded["LAYERS"])
        self.dock.panel.succeeded(task)

    def compare_cards(self, paths=None):
        """geobias:comparecards of benchmark cards (picked in a dialog when `paths` is None)
        beside the GPT-3.5 card shipped with GeoBias, in a background job; the same tables
        (with the GeoBS scores), plot and mean rank layers as for models. Returns the task."""
        from ..processing.card import SHIPPED_CARDS

        self.notice.clear_text()
        if paths is None:
            paths, _ = QFileDialog.getOpenFileNames(
                self, tr("Open benchmark cards"), SHIPPED_CARDS, tr("Benchmark cards (*.json)")
            )
            if not paths:
                return None
        out = os.path.join(survey_plan.output_dir("compare", run=True), "cards.gpkg")
        params = {"CARDS": list(paths), "SHIPPED": True, "OUTPUT": out}

        def load(task):
            result = task.results[-1]
            return {"RECORDS": read_card_records(result["OUTPUT"] + "|layername=card_comparison"),
                    "LAYERS": open_mean_layers(result["MEAN_RANK_LAYERS"])}  # fmt: skip

        task = AlgorithmChainTask(
            tr("GeoBias: benchmark cards"), [("geobias:comparecards", params), (load, "load")]
        )
        labels = {"geobias:comparecards": tr("Comparing the cards…"),
                  "load": tr("Loading the layers…")}  # fmt: skip
        if not self.dock.start_job(task, self._compared, self.notice.show_text, labels):
            return None
        return task

    def set_metrics(self, metrics):
        """The tables the combo offers (the pivots of a model or a card comparison)."""
        current = self.metricCombo.currentData()
        self.metricCombo.blockSignals(True)
        self.metricCombo.clear()
        for metric in metrics:
            self.metricCombo.addItem(tr(TITLES[metric]), metric)
        index = self.metricCombo.findData(current)
        self.metricCombo.setCurrentIndex(max(index, 0))
        self.metricCombo.blockSignals(False)

    def show_comparison(self, result, records=None, mean_layers=None):
        """Pivots from the comparison's metrics table (models, or cards with their GeoBS
        scores); the mean rank layers in the project (opened by the job when it could)."""
        if records is None:
            records = read_records(result["METRICS"])
        cards = "METRICS" not in result  # geobias:comparecards
        metrics = CARD_METRICS if cards else tuple(PIVOT_METRICS)
        self.set_metrics(metrics)
        self.set_views(records, metrics)
        if mean_layers is None:
            mean_layers = open_mean_layers(result["MEAN_RANK_LAYERS"])
            mean_layers += open_mean_layers(result.get("SPREAD_LAYERS") or [], spread=True)
        self.add_mean_layers(mean_layers)
        self.show_metric()
        self.dock.show_tab(self)

    def add_mean_layers(self, layers):
        """The mean rank layers under "GeoBias — comparison" ("(2)", ... for a later
        comparison: an earlier one's layers stay)."""
        project = QgsProject.instance()
        group = run_group(project, GROUP, [lyr.source() for lyr in layers])
        self.mean_layers = []
        for layer in layers:
            if add_layer(project, layer, group, unique=True):
                self.mean_layers.append(layer)

    def set_views(self, records, metrics=PIVOT_METRICS):
        """The pivots to show: the paper's (models across); in several prompt languages, each
        metric with the languages across ("languages") and the paper's per language."""
        languages = list(dict.fromkeys(r.get("language") or "" for r in records))
        self.views = {}
        if len(languages) > 1:
            self.views["languages"] = {m: by_language(records, m, languages) for m in metrics}
            for code in languages:
                mine = [r for r in records if (r.get("language") or "") == code]
                self.views[code] = {p.metric: p for p in pivots(mine, metrics)}
        else:
            self.views[""] = {p.metric: p for p in pivots(records, metrics)}
        combo = self.viewCombo
        combo.blockSignals(True)
        combo.clear()
        for key in self.views:
            label = tr("Languages across") if key == "languages" else tr(
                "In {language}").format(language=key)  # fmt: skip
            combo.addItem(label, key)
        combo.setCurrentIndex(0)
        combo.blockSignals(False)
        combo.setVisible(len(self.views) > 1)
        self.pivots = next(iter(self.views.values()))

    # ------------------------------------------------------------------ table and plot
    def show_metric(self, *args):
        metric = self.metricCombo.currentData()
        if self.views:
            self.pivots = self.views.get(self.viewCombo.currentData() or "", self.pivots)
        p = self.pivots.get(metric)
        table = self.pivotTable
        table.setSortingEnabled(False)
        table.clear()
        if p is None:
            table.setRowCount(0)
            table.setColumnCount(0)
            self.plot.set_data(None)
            return
        header, rows = p.table()
        table.setColumnCount(len(header))
        table.setRowCount(len(rows))
        mean = tr("Mean (across languages)") if p.columns == "languages" else tr(
            "Mean (across models)")  # fmt: skip
        table.setHorizontalHeaderLabels([tr("Topic"), *header[1:-1], mean])
        bold = QFont(self.font())
        bold.setBold(True)
        for r, row in enumerate(rows):
            name = tr("Mean (across topics)") if r == len(rows) - 1 else row[0]
            item = QTableWidgetItem(name)
            if r == len(rows) - 1:
                item.setFont(bold)
            table.setItem(r, 0, item)
            for c, v in enumerate(row[1:], start=1):
                table.setItem(r, c, NumberItem(v))
        table.setSortingEnabled(True)
        table.resizeColumnsToContents()
        # Long topic names would push the numbers out of a narrow dock: elide them instead
        # (a dozen characters always show).
        fit_first_column(table, most=chars_width(table, 18))
        self.plot.set_data(p)

    def reset(self):
        """Forget the layers and the comparison (a new or opened project)."""
        self.layers, self.pivots, self.mean_layers = [], {}, []
        self.result, self.views = None, {}
        self.modelsList.clear()
        self.topicsList.clear()
        self.languagesList.clear()
        self.languagesBox.hide()
        self.viewCombo.clear()
        self.viewCombo.hide()
        self.choice.set_layers([])
        self.compareButton.setEnabled(False)
        self.set_metrics(PIVOT_METRICS)  # a card comparison offered its own tables
        self.show_metric()

    def table_text(self):
        """The table as shown (in its sort order) as tab-separated text, numbers in full."""
        table = self.pivotTable
        cols = range(table.columnCount())
        lines = ["\t".join(table.horizontalHeaderItem(c).text() for c in cols)]
        for r in range(table.rowCount()):
            cells = []
            for c in cols:
                item = table.item(r, c)
                if isinstance(item, NumberItem):
                    cells.append("" if math.isnan(item.value) else repr(item.value))
                else:
                    cells.append(item.text() if item is not None else "")
            lines.append("\t".join(cells))
        return "\n".join(lines) + "\n"

    def copy_table(self):
        QApplication.clipboard().setText(self.table_text())
