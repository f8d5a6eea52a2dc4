"""The dock's Overlay tab: rated points summarised per census unit, the bias correlated with
census fields (a table and a scatter plot per field), and the bias hot spots — the Processing
algorithms aggregatetopolygons, correlate and hotspots with the choices a geographer makes."""

import os

import numpy as np
from qgis.core import (
    Qgis,
    QgsFeatureRequest,
    QgsFieldProxyModel,
    QgsMapLayerProxyModel,
    QgsProject,
    QgsVectorLayer,
    QgsVectorLayerFeatureSource,
)
from qgis.PyQt import uic
from qgis.PyQt.QtCore import QRectF, QSize, Qt
from qgis.PyQt.QtGui import QPainter
from qgis.PyQt.QtWidgets import (
    QFormLayout,
    QListWidgetItem,
    QSizePolicy,
    QTableWidgetItem,
    QWidget,
)

from ..i18n_util import tr
from ..processing.definitions import WEIGHTS
from ..processing.features import as_float
from ..processing.plots import PlotStyle, paint_scatter
from ..processing.project_layers import add_layer
from . import survey_plan
from .layer_combo import follow_layer
from .narrow import fit_first_column
from .notice import Notice
from .outputs import is_geobias_layer, is_herb_output
from .results import _num
from .tab import DockTab
from .task import AlgorithmChainTask

FORM, _ = uic.loadUiType(os.path.join(os.path.dirname(__file__), "overlay_tab.ui"))
# Fields of the aggregated units that are GeoBias's own, not census variables.
OWN_FIELDS = {"n_points", "n_scored", "answer_rate", "mean_rating", "mean_rank",
              "mean_rank_error", "few_points", "fid"}  # fmt: skip
# The bias measures a layer may hold, the default first (aggregate's units, rated points).
BIAS_FIELDS = ("mean_rank_error", "rank_error", "mean_rating", "score")
# The layer property naming the rated points and units an aggregated layer came from: a new
# aggregation of the same two replaces that layer instead of adding another.
AGGREGATE_KEY = "geobias/aggregate"
# Census fields ticked at first for the bundled countries and US counties.
BUNDLED_FIELDS = {"infant_mortality", "life_exp", "gdp_percap", "pop_density", "unemployment"}


class ScatterPlot(QWidget):
    """The bias measure of each unit against one census field."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.x = self.y = np.array([])
        self.xlabel = self.ylabel = self.title = ""
        self.setMinimumHeight(140)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)

    def sizeHint(self):
        return QSize(300, 170)

    def set_data(self, x, y, xlabel, ylabel, title=""):
        self.x, self.y = np.asarray(x, float), np.asarray(y, float)
        self.xlabel, self.ylabel, self.title = xlabel, ylabel, title
        self.update()

    def paintEvent(self, event):
        p = QPainter(self)
        style = PlotStyle(self.font(), self.palette().text().color(), self.palette().base().color())
        paint_scatter(p, QRectF(self.rect()), style, self.x, self.y, self.xlabel, self.ylabel,
                      self.title)  # fmt: skip
        p.end()


def job_labels():
    """What the progress line says during the Overlay tab's jobs."""
    return {
        "geobias:aggregatetopolygons": tr("Aggregating the points per unit…"),
        "geobias:correlate": tr("Correlating…"),
        "geobias:hotspots": tr("Finding hot spots…"),
        "load": tr("Loading the layers…"),
        "read": tr("Reading the table…"),
    }


def _columns(layer, names, fields=None, skip_flagged=True):
    """Columns (float arrays) of a layer (or a feature source with its `fields`), units flagged
    few_points left out as the algorithms leave them out."""
    fields = fields if fields is not None else layer.fields()
    present = [n for n in names if fields.lookupField(n) >= 0]
    flag = fields.lookupField("few_points") >= 0 and skip_flagged
    request = QgsFeatureRequest().setFlags(QgsFeatureRequest.Flag.NoGeometry)
    request.setSubsetOfAttributes(present + (["few_points"] if flag else []), fields)
    cols = {n: [] for n in present}
    keep = []
    for f in layer.getFeatures(request):
        keep.append(not flag or f["few_points"] != 1)
        for n in present:
            cols[n].append(f[n])
    keep = np.asarray(keep, bool)
    return {n: as_float(v)[keep] if len(v) else np.array([]) for n, v in cols.items()}


class OverlayTab(QWidget, FORM, DockTab):
    """Aggregate → correlate → hot spots, each one click, results loaded styled."""

    def __init__(self, dock):
        super().__init__(dock)
        self.setupUi(self)
        self.dock = dock
        self.pointsCombo.setFilters(QgsMapLayerProxyModel.Filter.PointLayer)
        self.unitsCombo.setFilters(QgsMapLayerProxyModel.Filter.PolygonLayer)
        for combo in (self.corrLayerCombo, self.hotLayerCombo):
            combo.setFilters(
                QgsMapLayerProxyModel.Filter.PolygonLayer | QgsMapLayerProxyModel.Filter.PointLayer
            )
        for combo in (self.valueFieldCombo, self.hotFieldCombo):
            combo.setFilters(QgsFieldProxyModel.Filter.Numeric)
            # Empty rather than a field that measures no bias (fid, a census column).
            combo.setAllowEmptyFieldName(True)
        for key in WEIGHTS.keys:
            self.weightsCombo.addItem(WEIGHTS.label(key), key)
        self.scatter = ScatterPlot(self)
        self.scatterLayout.addWidget(self.scatter)
        self.corrTable.setColumnCount(4)
        self.corrTable.setHorizontalHeaderLabels(
            [tr("Field"), tr("ρ [95% CI]"), tr("p"), tr("q (FDR)")]
        )
        self.corrTable.verticalHeader().hide()
        self.corr_data = {}
        follow_layer(self.corrLayerCombo, self._corr_layer_changed)
        follow_layer(self.hotLayerCombo, self._hot_layer_changed)
        self.weightsCombo.currentIndexChanged.connect(self._weights_changed)
        self.corrTable.currentCellChanged.connect(lambda row, *a: self.show_scatter(row))
        # The units the user picked (a layer id, saved with the project); none picked: a
        # sensible default, never a layer HERB wrote (default_units).
        self.units_chosen = ""
        self.unitsCombo.activated.connect(self._units_picked)
        QgsProject.instance().layersAdded.connect(self._layers_added)
        self.aggregateButton.clicked.connect(self.aggregate)
        self.correlateButton.clicked.connect(self.correlate)
        self.hotspotsButton.clicked.connect(self.hotspots)
        self.units_layer = self.corr_result = self.hot_result = None
        # Each step says in its own box why it did not run.
        self.notices = {}
        for key, box in (("aggregate", self.aggregateBox), ("correlate", self.correlateBox),
                         ("hotspots", self.hotspotsBox)):  # fmt: skip
            notice = Notice(box)
            if isinstance(box.layout(), QFormLayout):
                box.layout().addRow(notice)
            else:
                box.layout().addWidget(notice)
            self.notices[key] = notice
        self._corr_layer_changed(self.corrLayerCombo.currentLayer())
        self._hot_layer_changed(self.hotLayerCombo.currentLayer())
        self._weights_changed()

    # ------------------------------------------------------------------ choices
    def fill(self, s):
        s.units_layer = self.units_chosen

    def apply(self, s):
        self.units_chosen = s.units_layer or ""
        self.show_units()

    def _units_picked(self, _index=None):
        layer = self.unitsCombo.currentLayer()
        self.units_chosen = layer.id() if layer is not None else ""

    def _layers_added(self, _layers):
        # The combo has the new layers already (its model was connected first).
        self.show_units()

    def show_units(self):
        """The units combo on the user's choice when the project has it, else on
        default_units when it shows none or a layer GeoBias wrote."""
        combo = self.unitsCombo
        shown = [combo.layer(i) for i in range(combo.count())]
        chosen = [lyr for lyr in shown if lyr is not None and lyr.id() == self.units_chosen]
        if chosen:
            combo.setLayer(chosen[0])
            return
        current = combo.currentLayer()
        if current is not None and not is_geobias_layer(current):
            return
        layer = default_units(shown)
        if layer is not None:
            combo.setLayer(layer)

    def _corr_layer_changed(self, layer):
        self.valueFieldCombo.setLayer(layer)
        _pick(self.valueFieldCombo, layer)
        self.fieldsList.clear()
        if layer is None:
            return
        for field in layer.fields():
            if not field.isNumeric() or field.name() in OWN_FIELDS:
                continue
            item = QListWidgetItem(field.name(), self.fieldsList)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            checked = field.name() in BUNDLED_FIELDS
            item.setCheckState(Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)

    def _hot_layer_changed(self, layer):
        self.hotFieldCombo.setLayer(layer)
        _pick(self.hotFieldCombo, layer)

    def _weights_changed(self, _index=None):
        kind = self.weightsCombo.currentData()
        self.kSpin.setEnabled(kind == "knn")
        self.kmSpin.setEnabled(kind == "band")

    def checked_fields(self):
        items = (self.fieldsList.item(i) for i in range(self.fieldsList.count()))
        return [i.text() for i in items if i.checkState() == Qt.CheckState.Checked]

    # ------------------------------------------------------------------ running
    def _start(self, what, steps, title, done):
        """Run one of this tab's jobs on the dock's run panel; why it stopped shows in the
        step's own box. Returns the task, or None."""
        notice = self.notices[what]
        task = AlgorithmChainTask(title, steps)
        if not self.dock.start_job(task, done, notice.show_text, job_labels()):
            return None
        return task

    @staticmethod
    def _open_output(key, name):
        """A load step: the algorithm's output layer opened and styled in the task."""

        def load(task):
            uri = task.results[-1][key]
            return {"LAYER": survey_plan.open_in_task(uri, name)}

        return load

    def _add(self, layer, replace=None):
        """Add an output layer; `replace` (property, value): in place of the project's layer
        that has that value (the same aggregation run again), at its place in the tree."""
        if not layer.isValid():
            return None
        if replace is None:
            return layer if add_layer(QgsProject.instance(), layer) else None
        layer.setCustomProperty(*replace)
        return layer if replace_layer(layer, *replace) else None

    def aggregate(self):
        """geobias:aggregatetopolygons of the chosen layers in a background job; the units go
        to the map and become the layer to correlate and to search for hot spots."""
        notice = self.notices["aggregate"]
        notice.clear_text()
        points, units = self.pointsCombo.currentLayer(), self.unitsCombo.currentLayer()
        if points is None or units is None:
            notice.show_text(tr("Choose a rated points layer and a polygon layer of units."),
                             Qgis.MessageLevel.Info)  # fmt: skip
            return None
        out = os.path.join(survey_plan.output_dir("overlay", run=True), "units.gpkg")
        minimum = self.minPointsSpin.value()
        params = {"INPUT": survey_plan.layer_param(points), "POLYGONS":
                  survey_plan.layer_param(units), "MIN_POINTS": minimum, "OUTPUT": out}  # fmt: skip
        name = tr("{units}: mean rank error").format(units=units.name())
        key = f"{points.id()}|{units.id()}"

        def done(task):
            result = task.results[0]
            layer = self._add(task.results[-1]["LAYER"], replace=(AGGREGATE_KEY, key))
            self.dock.panel.succeeded(task)
            if layer is None:
                notice.show_text(tr("Could not read {uri}.").format(uri=result["OUTPUT"]))
                return
            self.units_layer = layer
            self.corrLayerCombo.setLayer(layer)
            self.hotLayerCombo.setLayer(layer)
            self.dock.push(
                tr("{u} units have points; {f} have fewer than {m} (grey).").format(
                    u=result["N_UNITS"], f=result["N_FLAGGED"], m=minimum),
                Qgis.MessageLevel.Success,
            )  # fmt: skip

        steps = [("geobias:aggregatetopolygons", params),
                 (self._open_output("OUTPUT", name), "load")]  # fmt: skip
        return self._start("aggregate", steps, tr("GeoBias: aggregate"), done)

    def correlate(self):
        """geobias:correlate of the bias measure with the ticked fields in a background job:
        the table, the multiple-testing note and a scatter plot of the selected field."""
        notice = self.notices["correlate"]
        notice.clear_text()
        layer, value = self.corrLayerCombo.currentLayer(), self.valueFieldCombo.currentField()
        fields = [f for f in self.checked_fields() if f != value]
        if layer is None or not value or not fields:
            notice.show_text(tr("Choose a layer, its bias measure and at least one census field."),
                             Qgis.MessageLevel.Info)  # fmt: skip
            return None
        out = os.path.join(survey_plan.output_dir("overlay", run=True), "correlations.gpkg")
        params = {"INPUT": survey_plan.layer_param(layer), "VALUE_FIELD": value, "FIELDS": fields,
                  "OUTPUT": out}  # fmt: skip
        source, layer_fields = QgsVectorLayerFeatureSource(layer), layer.fields()

        def read(task):
            """The table's rows and the plotted columns, in the task."""
            table = QgsVectorLayer(task.results[-1]["OUTPUT"], "correlations", "ogr")
            rows = [{n: f[n] for n in ("field", "rho", "lo", "hi", "p", "p_bh", "reason")}
                    for f in table.getFeatures()]  # fmt: skip
            return {"ROWS": rows, "DATA": _columns(source, [value, *fields], layer_fields)}

        def done(task):
            result, read_out = task.results[0], task.results[-1]
            self.dock.panel.succeeded(task)
            self.show_correlations(result, read_out["ROWS"], read_out["DATA"], value)

        steps = [("geobias:correlate", params), (read, "read")]
        return self._start("correlate", steps, tr("GeoBias: correlate"), done)

    def show_correlations(self, result, rows, data, value):
        """The table of rho per field, the note and the scatter plot of the first field."""
        self.corrTable.setRowCount(len(rows))
        for r, f in enumerate(rows):
            rho = _num(f["rho"])
            ci = "–" if rho != rho else f"{rho:+.2f} [{_num(f['lo']):+.2f}, {_num(f['hi']):+.2f}]"
            reason = str(f["reason"] or "") if rho != rho else ""  # why the row is empty
            for c, text in enumerate((f["field"], ci, _p(f["p"]), _p(f["p_bh"]))):
                item = QTableWidgetItem(str(text))
                item.setToolTip(reason)
                self.corrTable.setItem(r, c, item)
        self.corrTable.resizeColumnsToContents()
        fit_first_column(self.corrTable)
        self.noteLabel.setText(result["NOTE"])
        self.corr_data = data
        self.corr_value = value
        self.corr_result = result
        if rows:
            self.corrTable.selectRow(0)
            self.show_scatter(0)

    def show_scatter(self, row):
        item = self.corrTable.item(row, 0) if row >= 0 else None
        if item is None or item.text() not in self.corr_data:
            return
        field = item.text()
        self.scatter.set_data(self.corr_data[field], self.corr_data[self.corr_value], field,
                              self.corr_value, f"{self.corr_value} · {field}")  # fmt: skip

    def hotspots(self):
        """geobias:hotspots in a background job; the styled clusters go to the map, the global
        Moran's I below."""
        notice = self.notices["hotspots"]
        notice.clear_text()
        layer, field = self.hotLayerCombo.currentLayer(), self.hotFieldCombo.currentField()
        if layer is None or not field:
            notice.show_text(tr("Choose a layer and the value to search for hot spots."),
                             Qgis.MessageLevel.Info)  # fmt: skip
            return None
        folder = survey_plan.output_dir("overlay", run=True)
        weights = WEIGHTS.index(self.weightsCombo.currentData())
        params = {"INPUT": survey_plan.layer_param(layer), "FIELD": field, "WEIGHTS": weights,
                  "K": self.kSpin.value(), "DISTANCE_KM": self.kmSpin.value(),
                  "FDR": self.fdrCheck.isChecked(),
                  "OUTPUT": os.path.join(folder, "hotspots.gpkg"),
                  "METRICS": os.path.join(folder, "moran.gpkg")}  # fmt: skip
        name = tr("Hot spots of {field}").format(field=field)

        def done(task):
            result = task.results[0]
            self._add(task.results[-1]["LAYER"])
            self.dock.panel.succeeded(task)
            self.hot_result = result
            self.moranLabel.setText(
                tr("Global Moran's I = {i:.3f} over {n} units (permutation test: z = {z:.2f}, "
                   "one-sided p = {p:.3f}); {hh} High–High and {ll} Low–Low clusters; Gi*: {hot} "
                   "hot, {cold} cold spots.")
                .format(i=result["MORAN_I"], z=result["MORAN_Z_SIM"], p=result["MORAN_P"],
                        n=result["N_UNITS"], hh=result["N_HH"], ll=result["N_LL"],
                        hot=result["N_HOT"], cold=result["N_COLD"])
            )  # fmt: skip

        steps = [("geobias:hotspots", params), (self._open_output("OUTPUT", name), "load")]
        return self._start("hotspots", steps, tr("GeoBias: hot spots"), done)

    def close_tab(self):
        try:
            QgsProject.instance().layersAdded.disconnect(self._layers_added)
        except TypeError:
            pass

    def reset(self):
        """Empty the correlations, the scatter plot and Moran's I (a new or opened project)."""
        self.corr_data = {}
        self.corrTable.setRowCount(0)
        self.scatter.set_data([], [], "", "")
        self.noteLabel.clear()
        self.moranLabel.clear()


def default_units(layers):
    """The units to offer when the user chose none, in the combo's order: a polygon layer
    GeoBias did not write (census units, countries), else any but a HERB output's regions
    (a layer of GeoBias's own, not units of the user's); None without either."""
    for usable in (lambda lyr: not is_geobias_layer(lyr), lambda lyr: not is_herb_output(lyr)):
        found = [lyr for lyr in layers if lyr is not None and usable(lyr)]
        if found:
            return found[0]
    return None


def replace_layer(layer, prop, value):
    """Add `layer` to the project where the layer whose property `prop` is `value` was (same
    group, same place), removing that one; at the top when there is none. False (the old layer
    kept) when QGIS refuses the new one."""
    project = QgsProject.instance()
    root = project.layerTreeRoot()
    old = [lyr for lyr in project.mapLayers().values() if lyr.customProperty(prop) == value]
    node = root.findLayer(old[0].id()) if old else None
    if node is None:
        added = add_layer(project, layer)
    else:
        parent = node.parent()
        added = add_layer(project, layer, parent, parent.children().index(node))
    if added:
        project.removeMapLayers([lyr.id() for lyr in old])
    return added


def _pick(combo, layer):
    """The usual bias measure: the units' mean rank error, else the points' rank error, else
    (no ground truth) the mean rating or score; none (an empty choice) on a layer without one
    of them, never its first numeric field (fid)."""
    for name in BIAS_FIELDS:
        if layer is not None and layer.fields().lookupField(name) >= 0:
            combo.setField(name)
            return
    combo.setField("")


def _p(v):
    v = _num(v)
    return "" if v != v else f"{v:.3g}"
