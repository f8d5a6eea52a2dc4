"""The dock's Regional bias tab: HERB (geobias:herb) over the world or two or three nested
layers, run as a background task with the survey's estimate/confirm/progress/cancel/resume; the
regions sortable by C, bar charts of the selected region's sub-regions and of the descriptors
that set it apart."""

import math
import os
import re
import sqlite3
from contextlib import closing

from qgis.core import Qgis, QgsMapLayerProxyModel, QgsProject, QgsVectorLayer
from qgis.gui import QgsAuthConfigSelect
from qgis.PyQt import uic
from qgis.PyQt.QtCore import QRect, QRectF, QSize, Qt
from qgis.PyQt.QtGui import QColor, QFont, QFontMetrics, QPainter
from qgis.PyQt.QtWidgets import (
    QHeaderView,
    QLabel,
    QMessageBox,
    QSizePolicy,
    QTableWidgetItem,
    QWidget,
)

from ..core.herb.descriptors import DEFAULT_TEMPLATE, REFERENCE_TEMPLATE
from ..host import embedded_problem
from ..i18n_util import QT_TRANSLATE_NOOP, message_text, tr
from ..processing.definitions import (
    HERB_METHODS,
    HERB_MODELS,
    HERB_SCOPES,
    HERB_SCORERS,
    REFERENCE_PARTS,
)
from ..processing.endpoints import herb_model_label
from ..processing.herb_io import HERB_STYLES
from ..processing.herb_scorers import SCORERS, cannot_start
from ..processing.project_layers import add_layer, run_group
from ..processing.styles import short_model
from . import survey_plan
from .layer_combo import follow_layer
from .narrow import add_choices, chars_width, fit_first_column
from .past_runs import RunsCombo, layers_of
from .run_panel import RunPanel
from .tab import DockTab
from .table_items import NumberItem
from .task import AlgorithmChainTask, error_sentence

FORM, _ = uic.loadUiType(os.path.join(os.path.dirname(__file__), "herb_tab.ui"))
MAX_BARS = 12
LEGENDS = {field: legend for _style, legend, field in HERB_STYLES}


class HerbBars(QWidget):
    """Horizontal bars with their labels: one value per row, the largest first."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.title, self.labels, self.values = "", [], []
        policy = QSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)  # the title wraps in a narrow dock
        self.setSizePolicy(policy)

    def set_data(self, title, labels, values):
        pairs = [(lb, v) for lb, v in zip(labels, values) if v is not None and math.isfinite(v)]
        pairs.sort(key=lambda p: -p[1])
        self.title = title
        self.labels = [p[0] for p in pairs[:MAX_BARS]]
        self.values = [p[1] for p in pairs[:MAX_BARS]]
        self.updateGeometry()
        self.update()

    def _bold(self):
        bold = QFont(self.font())
        bold.setBold(True)
        return bold

    def _title_height(self, width):
        """The title's height wrapped to `width` (a French title takes two lines at 350 px)."""
        room = QRect(0, 0, max(1, width - 8), 10000)
        flags = int(Qt.AlignmentFlag.AlignLeft) | int(Qt.TextFlag.TextWordWrap)
        return QFontMetrics(self._bold()).boundingRect(room, flags, self.title or " ").height() + 2

    def hasHeightForWidth(self):
        return True

    def heightForWidth(self, width):
        return self._title_height(width) + 4 + 16 * max(1, len(self.values))

    def sizeHint(self):
        return QSize(320, self.heightForWidth(320))

    def minimumSizeHint(self):
        return QSize(200, self.heightForWidth(max(200, self.width())))

    def paintEvent(self, event):
        p = QPainter(self)
        p.fillRect(self.rect(), self.palette().base())
        p.setPen(self.palette().text().color())
        p.setFont(self._bold())
        w = self.width()
        head = self._title_height(w)
        p.drawText(QRectF(4, 0, w - 8, head),
                   Qt.AlignmentFlag.AlignLeft | Qt.TextFlag.TextWordWrap, self.title)  # fmt: skip
        p.setFont(self.font())
        if not self.values:
            p.drawText(QRectF(4, head, w - 8, 16), Qt.AlignmentFlag.AlignLeft,
                       tr("nothing to show"))  # fmt: skip
            p.end()
            return
        label_w = min(140.0, w * 0.4)
        bar_w = w - label_w - 60
        top = max(self.values) or 1.0
        for i, (label, v) in enumerate(zip(self.labels, self.values)):
            y = head + 2 + 16 * i
            right = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
            left = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
            p.drawText(QRectF(2, y, label_w - 6, 14), right, label)
            p.fillRect(QRectF(label_w, y + 2, max(1.0, bar_w * v / top), 11), QColor(200, 70, 40))
            p.drawText(QRectF(label_w + bar_w * v / top + 4, y, 60, 14), left, f"{v:.4f}")
        p.end()


# The tab offers the world and nested layers (a parent-field layer is a Processing-only scope).
TAB_SCOPES = ("world", "layers")
# The template of each reference part choice (geobias:herb TEMPLATE; "": as the switch says).
PART_TEMPLATES = {"switch": "", "paper": DEFAULT_TEMPLATE, "released": REFERENCE_TEMPLATE}
# Why HERB's default embedded model is what it is (issue 25 item 4, README's HERB section).
# Kept as one call without a trailing comma: pylupdate5 reads it so.
DEFAULT_MODEL_NOTE = QT_TRANSLATE_NOOP(
    "@default", "HERB's default model is Gemma 3 270M, the survey's: one model for both papers. "
    "SmolLM2 135M scores HERB's sentences about three times as fast (South America: 34 s "
    "instead of 2 min on two cores)."
)  # fmt: skip


def read_rows(path, sql, args=()):
    with closing(sqlite3.connect(path)) as con:
        con.row_factory = sqlite3.Row
        return [dict(r) for r in con.execute(sql, args)]


class HerbTab(QWidget, FORM, DockTab):
    """Scope, model, Run; then the regions by C and the bars of the selected region."""

    def __init__(self, dock):
        super().__init__(dock)
        self.setupUi(self)
        self.dock = dock
        self.params = None
        self.path = None
        self.regions = []
        # Short labels in the narrow dock, Processing's (with details) as tooltips.
        scopes = {
            "world": tr("World (bundled GeoNames)"),
            "layers": tr("My nested layers (2–3)"),
            "parent_field": tr("One layer with a parent field"),
        }
        add_choices(self.scopeCombo,
                    [(k, scopes.get(k) or HERB_SCOPES.label(k), HERB_SCOPES.label(k))
                     for k in TAB_SCOPES])  # fmt: skip
        add_choices(
            self.scorerCombo,
            [(s.key, tr(s.short or s.label), tr(s.label)) for s in SCORERS.values()],
        )
        # Short names in the narrow dock; Processing's whole wording is each choice's tooltip.
        methods = {"whole": tr("Whole sentences"), "forced": tr("Forced decoding")}
        add_choices(self.methodCombo, [
            (k, methods.get(k) or HERB_METHODS.label(k), HERB_METHODS.label(k))
            for k in HERB_METHODS.keys
        ])  # fmt: skip
        self.methodCombo.setCurrentIndex(HERB_METHODS.default_index)
        for key in HERB_MODELS.keys:
            self.embeddedModelCombo.addItem(HERB_MODELS.label(key), key)
        self.embeddedModelCombo.setCurrentIndex(HERB_MODELS.default_index)
        self.parts = {"TEMPLATE": self.templatePartCombo, "RELEASED_WORDS": self.wordsPartCombo,
                      "REFERENCE_PADDING": self.paddingPartCombo,
                      "REFERENCE_AGGREGATION": self.aggregationPartCombo}  # fmt: skip
        parts = {"switch": tr("As the switch says"), "paper": tr("GeoBias's"),
                 "released": tr("Released scripts'")}  # fmt: skip
        for combo in self.parts.values():
            add_choices(combo, [
                (k, parts.get(k) or REFERENCE_PARTS.label(k), REFERENCE_PARTS.label(k))
                for k in REFERENCE_PARTS.keys
            ])  # fmt: skip
            combo.setMinimumContentsLength(8)
        self.modelFile.setFilter(tr("GGUF models (*.gguf)"))
        self.defaultModelNote.setText(tr(DEFAULT_MODEL_NOTE))
        for combo in (self.topLayerCombo, self.midLayerCombo, self.lowLayerCombo):
            combo.setFilters(QgsMapLayerProxyModel.Filter.PolygonLayer)
        # The middle level is optional: two layers are the common case (e.g. states, counties).
        self.midLayerCombo.setAllowEmptyLayer(True)
        self.midLayerCombo.setLayer(None)
        self.fieldCombos = {
            self.topLayerCombo: (self.topNameCombo, self.topIdCombo),
            self.midLayerCombo: (self.midNameCombo, self.midIdCombo, self.midParentCombo),
            self.lowLayerCombo: (self.lowNameCombo, self.lowParentCombo),
        }
        for layer_combo, field_combos in self.fieldCombos.items():
            # Each field combo lists the fields of the layer its layer combo shows.
            def show_fields(layer, combos=field_combos):
                for combo in combos:
                    combo.setLayer(layer)

            show_fields(layer_combo.currentLayer())
            follow_layer(layer_combo, show_fields)
        for combo in (self.topIdCombo, self.midIdCombo):
            combo.setAllowEmptyFieldName(True)  # empty: the name is the id
        for combos in self.fieldCombos.values():
            for combo in combos:  # two or three in a row: short enough for a narrow dock
                combo.setMinimumContentsLength(6)
        self.midLayerCombo.layerChanged.connect(self.update_visibility)
        # The key of a protected endpoint (e.g. a hosted vLLM) stays in QGIS's auth database:
        # only its config id goes into the parameters.
        self.authSelect = QgsAuthConfigSelect(self)
        self.authLayout.addWidget(self.authSelect)
        self.descriptorsFile.setFilter(tr("Text files (*.txt *.tsv)"))
        # The model HERB will score with, named before the run (the embedded one is not the
        # survey's: "Embedded local model" alone does not say which).
        self.modelNameLabel = QLabel(self)
        self.modelNameLabel.setWordWrap(True)
        self.modelForm.insertRow(1, self.modelNameLabel)
        self.modelEdit.textChanged.connect(self.show_model)
        self.urlEdit.textChanged.connect(self.show_model)
        self.embeddedModelCombo.currentIndexChanged.connect(self.show_model)
        self.modelFile.fileChanged.connect(self.show_model)
        self.scopeCombo.currentIndexChanged.connect(self.update_visibility)
        self.scorerCombo.currentIndexChanged.connect(self.update_visibility)
        # The dock shows this panel below the tabs while this tab is current.
        self.panel = RunPanel(dock.body, tr("Run HERB"), tr("Resume HERB"), self.dock.pusher())
        self.panel.runRequested.connect(self.run)
        # C first after the name: the dock is narrow, level and parent come last.
        headers = [tr("Region"), "C_w", "C_z", tr("Sub-regions"), tr("Level"), tr("Parent")]
        self.regionTable.setColumnCount(len(headers))
        self.regionTable.setHorizontalHeaderLabels(headers)
        header = self.regionTable.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        # The names keep a dozen characters however narrow the dock (the table scrolls).
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        self.regionTable.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        fit_first_column(self.regionTable, most=chars_width(self.regionTable, 22))
        self.regionTable.verticalHeader().hide()
        self.regionTable.itemSelectionChanged.connect(self.show_selected)
        self.childBars = HerbBars(self)
        self.wordBars = HerbBars(self)
        self.layout().addWidget(self.childBars)
        self.layout().addWidget(self.wordBars)
        for w in (self.regionTable, self.childBars, self.wordBars):
            w.setVisible(False)  # shown with the first results
        self.layout().addStretch(1)
        self.runsCombo = RunsCombo("herb", self)
        self.layout().insertWidget(0, self.runsCombo)
        self.runsCombo.runChosen.connect(self.show_run)
        self.update_visibility()

    def update_visibility(self, *args):
        world = self.scopeCombo.currentData() == "world"
        for w in (self.continentsLabel, self.continentsEdit, self.citiesLabel, self.citiesSpin,
                  self.populationLabel, self.populationSpin):  # fmt: skip
            w.setVisible(world)
        for w in (self.topLayerLabel, self.topNameLabel, self.midLayerLabel, self.lowLayerLabel,
                  self.lowNameLabel, *self.fieldCombos):  # fmt: skip
            w.setVisible(not world)
        for combos in self.fieldCombos.values():
            for w in combos:
                w.setVisible(not world)
        # The middle layer's fields only once a middle layer is chosen.
        middle = not world and self.midLayerCombo.currentLayer() is not None
        for w in (self.midNameLabel, *self.fieldCombos[self.midLayerCombo]):
            w.setVisible(middle)
        # Each scorer's fields, as the registry says it reads them.
        reads = SCORERS[self.scorerCombo.currentData()].reads
        for w in (self.urlLabel, self.urlEdit):
            w.setVisible("URL" in reads)
        for w in (self.authLabel, self.authSelect):
            w.setVisible("AUTH_CONFIG" in reads)
        for w in (self.modelLabel, self.modelEdit):
            w.setVisible("MODEL" in reads)
        for w in (self.methodLabel, self.methodCombo):
            w.setVisible("METHOD" in reads)
        for w in (self.embeddedModelLabel, self.embeddedModelCombo, self.defaultModelNote):
            w.setVisible("EMBEDDED_MODEL" in reads)
        for w in (self.modelFileLabel, self.modelFile):
            w.setVisible("MODEL_FILE" in reads)
        self.show_model()

    def show_model(self, *args):
        """Name the model the run will use under the scorer choice."""
        kind = self.scorerCombo.currentData()
        name = herb_model_label(kind, self.modelEdit.text().strip(), self.urlEdit.text().strip(),
                                embedded=self.embeddedModelCombo.currentData(),
                                model_file=self.modelFile.filePath().strip())  # fmt: skip
        if SCORERS[kind].embedded:
            text = tr("Model: {m}, on this machine")
        else:
            text = tr("Model: {m}")
        self.modelNameLabel.setText(text.format(m=name))

    # ------------------------------------------------------------------ run
    def parameters(self):
        """geobias:herb parameters of the tab's choices (OUTPUT in a new run folder)."""
        kind = self.scorerCombo.currentData()
        reads = SCORERS[kind].reads
        p = {"SCORER": HERB_SCORERS.index(kind), "URL": self.urlEdit.text().strip(),
             "MODEL": self.modelEdit.text().strip(),
             "TOPICS": self.topicsEdit.text().strip(),
             "DESCRIPTORS": self.descriptorsFile.filePath().strip(),
             "REFERENCE_CODE": self.referenceCheck.isChecked()}  # fmt: skip
        if "EMBEDDED_MODEL" in reads:
            p.update(METHOD=HERB_METHODS.index(self.methodCombo.currentData()),
                     EMBEDDED_MODEL=HERB_MODELS.index(self.embeddedModelCombo.currentData()),
                     MODEL_FILE=self.modelFile.filePath().strip())  # fmt: skip
        for key, combo in self.parts.items():
            part = combo.currentData()
            p[key] = PART_TEMPLATES[part] if key == "TEMPLATE" else REFERENCE_PARTS.index(part)
        if "AUTH_CONFIG" in reads and self.authSelect.configId():
            p["AUTH_CONFIG"] = self.authSelect.configId()
        if self.scopeCombo.currentData() == "world":
            p.update(SCOPE=HERB_SCOPES.index("world"),
                     CONTINENTS=self.continentsEdit.text().strip(),
                     MAX_CITIES=self.citiesSpin.value(),
                     MIN_POPULATION=self.populationSpin.value())  # fmt: skip
        else:
            top, low = self.topLayerCombo.currentLayer(), self.lowLayerCombo.currentLayer()
            if top is None or low is None:
                raise ValueError(tr("Choose the upper and the lower layer."))
            mid = self.midLayerCombo.currentLayer()
            levels = [(top, self.topNameCombo, self.topIdCombo, None)]
            if mid is not None:
                levels.append((mid, self.midNameCombo, self.midIdCombo, self.midParentCombo))
            levels.append((low, self.lowNameCombo, None, self.lowParentCombo))
            p["SCOPE"] = HERB_SCOPES.index("layers")
            for k, (layer, name, ident, parent) in enumerate(levels, start=1):
                p[f"LAYER_{k}"] = layer
                p[f"NAME_FIELD_{k}"] = name.currentField()
                if ident is not None:
                    p[f"ID_FIELD_{k}"] = ident.currentField()
                if parent is not None:
                    p[f"PARENT_FIELD_{k}"] = parent.currentField()
        return p

    def run(self):
        """Estimate (a task), confirm, then score and write (a task); a re-run resumes."""
        if self.panel.busy:
            return
        try:
            params = self.parameters()
        except ValueError as e:
            self.dock.push(message_text(e), Qgis.MessageLevel.Warning)
            return
        if SCORERS[HERB_SCORERS.key(params["SCORER"])].embedded:
            problem = embedded_problem()
            if problem:
                self.dock.offer_install(problem)
                return
        # The task reads the user's layers as files or snapshots, never the project's objects.
        params = {k: survey_plan.layer_param(v) if k.startswith("LAYER_") else v
                  for k, v in params.items()}  # fmt: skip
        self.params = params
        self.path = os.path.join(survey_plan.output_dir("herb", run=True), "herb.gpkg")
        steps = [("geobias:herb", dict(params, ESTIMATE_ONLY=True, OUTPUT=self.path))]
        self.start(AlgorithmChainTask(tr("GeoBias: HERB estimate"), steps), self._estimated)
        self.panel.set_text(tr("Estimating…"))

    def start(self, task, done):
        self.panel.start(
            task, done, stopped_sentence=self.stopped_sentence,
            cancelled_text=tr(
                "Cancelled. Scores so far are cached: Resume continues where it stopped."
            ),
            remedy=self.remedy,
        )  # fmt: skip

    def remedy(self, details):
        """Repair for an embedded scorer that cannot start from a broken model environment
        (the dock checks it), not a Resume that would fail the same way."""
        params = getattr(self, "params", None) or {}
        kind = HERB_SCORERS.key(params.get("SCORER", 0))
        if not (SCORERS[kind].embedded and cannot_start(details)):
            return None
        return self.dock.env_remedy(details)

    @staticmethod
    def stopped_sentence(reason):
        return tr("HERB failed: {e}").format(e=error_sentence(reason))

    def _estimated(self, task):
        est = task.results[0]
        self.panel.set_text(est.get("ESTIMATE", ""))
        if est.get("N_TO_SCORE"):
            text = tr("{estimate}\n\nStart HERB?").format(estimate=est.get("ESTIMATE", ""))
            answer = QMessageBox.question(
                self, tr("GeoBias: regional bias"), text,
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                QMessageBox.StandardButton.Yes,
            )  # fmt: skip
            if answer != QMessageBox.StandardButton.Yes:
                self.panel.set_text(tr("Not started."))
                return
        steps = [("geobias:herb", dict(self.params, OUTPUT=self.path))]
        self.start(AlgorithmChainTask(tr("GeoBias: HERB"), steps), self._completed)

    def cancel(self):
        self.panel.cancel()

    def _completed(self, task):
        try:
            self.show_results(task.results[0])
        except Exception as e:  # noqa: BLE001 - a file that cannot be read: say so, keep QGIS
            self.dock.push(tr("Could not load the results: {e}").format(e=error_sentence(e)),
                           Qgis.MessageLevel.Critical, details=e)  # fmt: skip
            return
        self.panel.succeeded(task)

    # ------------------------------------------------------------------ results
    def show_results(self, results):
        """The region layers in "GeoBias — HERB — <model>", the table of regions by C."""
        path = results["OUTPUT"]
        runs = read_rows(path, "SELECT model FROM runs ORDER BY fid DESC LIMIT 1")
        model = short_model(runs[0]["model"].replace("gguf:", "")) if runs else "?"
        # Each run its own group: a re-run keeps the earlier run's layers.
        group = run_group(QgsProject.instance(), f"GeoBias — HERB — {model}",
                          results["OUTPUT_LAYERS"])  # fmt: skip
        for uri in reversed(results["OUTPUT_LAYERS"]):  # the lowest level on top
            level = uri.split("layername=")[-1].split("_", 2)[-1]
            layer = QgsVectorLayer(uri, level.replace("_", " ").capitalize(), "ogr")
            if layer.isValid():
                # Named with the legend title of the style it shows (saved as the default).
                r = layer.renderer()
                field = r.classAttribute() if hasattr(r, "classAttribute") else ""
                if field in LEGENDS:
                    layer.setName(f"{layer.name()}: {tr(LEGENDS[field])}")
                add_layer(QgsProject.instance(), layer, group, unique=True)
        self.path = path
        self.fill_table(read_rows(path, "SELECT * FROM herb_regions ORDER BY fid"))
        self.dock.show_tab(self)

    def show_run(self, run):
        """A past HERB run of the project (past_runs.PastRun): its regions in the table, its
        layers added unless the project has them."""
        path = run.files[0]
        if layers_of(run):
            self.path = path
            self.fill_table(read_rows(path, "SELECT * FROM herb_regions ORDER BY fid"))
            self.dock.show_tab(self)
            return
        from .results_tab import gpkg_layers

        # The region layers (herb_<level>_<name>), not its tables (regions, descriptors, runs).
        uris = [uri for uri, name in gpkg_layers(path) if re.match(r"herb_\d+_", name)]
        self.show_results({"OUTPUT": path, "OUTPUT_LAYERS": uris})

    def fill_table(self, regions):
        self.regions = regions
        for w in (self.regionTable, self.childBars, self.wordBars):
            w.setVisible(True)
        table = self.regionTable
        table.setSortingEnabled(False)
        table.setRowCount(len(regions))
        for i, r in enumerate(regions):
            name = QTableWidgetItem(r["region"])
            name.setData(Qt.ItemDataRole.UserRole, i)
            table.setItem(i, 0, name)
            # The whole name (a narrow column elides it), its level and parent.
            name.setToolTip(" · ".join(str(v) for v in (r["region"], r["level"], r["parent"]) if v))
            table.setItem(i, 1, NumberItem(r["c_w"], 4, "–"))
            table.setItem(i, 2, NumberItem(r["c_z"], 4, "–"))
            table.setItem(i, 3, NumberItem(r["n_children"], 4, "–"))
            table.item(i, 3).setText(str(r["n_children"]))
            table.setItem(i, 4, QTableWidgetItem(r["level"]))
            table.setItem(i, 5, QTableWidgetItem(r["parent"] or ""))
        table.setSortingEnabled(True)
        table.sortByColumn(1, Qt.SortOrder.DescendingOrder)  # sets the header's order too
        fit_first_column(table, most=chars_width(table, 22))
        table.selectRow(0)

    def selected_region(self):
        rows = self.regionTable.selectionModel().selectedRows()
        if not rows:
            return None
        item = self.regionTable.item(rows[0].row(), 0)
        return self.regions[item.data(Qt.ItemDataRole.UserRole)]

    def show_selected(self):
        """Bars of the selected region: its sub-regions' C (or distance), its descriptors."""
        r = self.selected_region()
        if r is None or self.path is None:
            return
        kids = [k for k in self.regions if k["parent"] == r["region"] and k["level"] != "root"]
        if r["level"] == "root":
            kids = [k for k in self.regions if k["parent"] == r["region"]]
        with_c = [k for k in kids if k["c_w"] is not None]
        if with_c:
            self.childBars.set_data(
                tr("C of the sub-regions of {r}").format(r=r["region"]),
                [k["region"] for k in with_c], [k["c_w"] for k in with_c],
            )  # fmt: skip
        else:
            self.childBars.set_data(
                tr("Sub-regions of {r}: distance from their centre").format(r=r["region"]),
                [k["region"] for k in kids], [k["deviation"] for k in kids],
            )  # fmt: skip
        # Siblings: the other regions under the same parent. Without any (the root, a single
        # continent in scope) every deviation is 0: there is nothing to set the region apart.
        siblings = [k for k in self.regions if k is not r and k["level"] != "root"
                    and k["level"] == r["level"] and k["parent"] == r["parent"]]  # fmt: skip
        if r["level"] == "root" or not siblings:
            self.wordBars.set_data(
                tr("{r} has no siblings here: no descriptor sets it apart").format(r=r["region"]),
                [], [],
            )  # fmt: skip
            return
        words = []
        if r["region_id"]:
            words = read_rows(
                self.path,
                "SELECT descriptor, topic, deviation FROM herb_descriptors WHERE region_id = ? "
                "ORDER BY deviation DESC LIMIT ?",
                (r["region_id"], MAX_BARS),
            )
        self.wordBars.set_data(
            tr("Descriptors that set {r} apart from its siblings").format(r=r["region"]),
            [f"{w['descriptor']} ({w['topic']})" for w in words], [w["deviation"] for w in words],
        )  # fmt: skip

    def reset(self):
        """Hide the last run's regions and bars (a new or opened project)."""
        self.path, self.regions = None, []
        self.regionTable.setRowCount(0)
        for w in (self.regionTable, self.childBars, self.wordBars):
            w.setVisible(False)
        self.panel.reset()

    def run_panel(self):
        """HERB's own run panel: a scoring run goes on beside the dock's jobs."""
        return self.panel

    def close_tab(self):
        self.panel.stop()
