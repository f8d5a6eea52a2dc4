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
)
from qgis.PyQt import uic
from qgis.PyQt.QtCore import QRectF, QSize, Qt
from qgis.PyQt.QtGui import QPainter
from qgis.PyQt.QtWidgets import (
    QApplication,
    QListWidgetItem,
    QSizePolicy,
    QTableWidgetItem,
    QWidget,
)

from ..i18n_util import tr
from ..processing.definitions import WEIGHTS
from ..processing.features import as_float
from ..processing.plots import PlotStyle, paint_scatter
from . import runner
from .layer_combo import follow_layer
from .results import _num

FORM, _ = uic.loadUiType(os.path.join(os.path.dirname(__file__), "overlay_tab.ui"))
# Fields of the aggregated units that are GeoBias's own, not census variables.
OWN_FIELDS = {"n_points", "n_scored", "answer_rate", "mean_rating", "mean_rank",
              "mean_rank_error", "few_points", "fid"}  # fmt: skip
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


def _columns(layer, names, skip_flagged=True):
    """Columns (float arrays) of a layer, units flagged few_points left out as the algorithms
    leave them out."""
    present = [n for n in names if layer.fields().lookupField(n) >= 0]
    flag = layer.fields().lookupField("few_points") >= 0 and skip_flagged
    request = QgsFeatureRequest().setFlags(QgsFeatureRequest.Flag.NoGeometry)
    request.setSubsetOfAttributes(present + (["few_points"] if flag else []), layer.fields())
    cols = {n: [] for n in present}
    keep = []
    for f in layer.getFeatures(request):
        keep.append(not flag or f["few_points"] != 1)
        for n in present:
            cols[n].append(f[n])
    keep = np.asarray(keep, bool)
    return {n: as_float(v)[keep] if len(v) else np.array([]) for n, v in cols.items()}


class OverlayTab(QWidget, FORM):
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
        self.aggregateButton.clicked.connect(self.aggregate)
        self.correlateButton.clicked.connect(self.correlate)
        self.hotspotsButton.clicked.connect(self.hotspots)
        self._corr_layer_changed(self.corrLayerCombo.currentLayer())
        self._hot_layer_changed(self.hotLayerCombo.currentLayer())
        self._weights_changed()

    # ------------------------------------------------------------------ choices
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
    def _run(self, alg_id, params, what):
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            return runner.run_algorithm(alg_id, params)
        except Exception as e:
            self.dock.push(tr("{what} failed: {e}").format(what=what, e=e),
                           Qgis.MessageLevel.Warning, details=e)  # fmt: skip
            return None
        finally:
            QApplication.restoreOverrideCursor()

    def _load(self, uri, name):
        layer = QgsVectorLayer(uri, name, "ogr")
        if not layer.isValid():
            self.dock.push(tr("Could not read {uri}.").format(uri=uri), Qgis.MessageLevel.Warning)
            return None
        runner.add_saved_styles(layer)
        QgsProject.instance().addMapLayer(layer)
        return layer

    def aggregate(self):
        """geobias:aggregatetopolygons of the chosen layers; the units go to the map and become
        the layer to correlate and to search for hot spots."""
        points, units = self.pointsCombo.currentLayer(), self.unitsCombo.currentLayer()
        if points is None or units is None:
            self.dock.push(tr("Choose a rated points layer and a polygon layer of units."),
                           Qgis.MessageLevel.Info)  # fmt: skip
            return None
        out = os.path.join(runner.output_dir("overlay", run=True), "units.gpkg")
        params = {"INPUT": points, "POLYGONS": units, "MIN_POINTS": self.minPointsSpin.value(),
                  "OUTPUT": out}  # fmt: skip
        result = self._run("geobias:aggregatetopolygons", params, tr("Aggregating"))
        if result is None:
            return None
        layer = self._load(result["OUTPUT"], tr("{units}: mean rank error").format(
            units=units.name()))  # fmt: skip
        if layer is not None:
            self.corrLayerCombo.setLayer(layer)
            self.hotLayerCombo.setLayer(layer)
            self.dock.push(
                tr("{u} units have points; {f} have fewer than {m} (grey).").format(
                    u=result["N_UNITS"], f=result["N_FLAGGED"], m=self.minPointsSpin.value()),
                Qgis.MessageLevel.Success,
            )  # fmt: skip
        return layer

    def correlate(self):
        """geobias:correlate of the bias measure with the ticked fields: the table, the
        multiple-testing note and a scatter plot of the selected field."""
        layer, value = self.corrLayerCombo.currentLayer(), self.valueFieldCombo.currentField()
        fields = [f for f in self.checked_fields() if f != value]
        if layer is None or not value or not fields:
            self.dock.push(tr("Choose a layer, its bias measure and at least one census field."),
                           Qgis.MessageLevel.Info)  # fmt: skip
            return None
        out = os.path.join(runner.output_dir("overlay", run=True), "correlations.gpkg")
        params = {"INPUT": layer, "VALUE_FIELD": value, "FIELDS": fields, "OUTPUT": out}
        result = self._run("geobias:correlate", params, tr("Correlating"))
        if result is None:
            return None
        table = QgsVectorLayer(result["OUTPUT"], "correlations", "ogr")
        rows = list(table.getFeatures())
        self.corrTable.setRowCount(len(rows))
        for r, f in enumerate(rows):
            rho = _num(f["rho"])
            ci = "" if rho != rho else f"{rho:+.2f} [{_num(f['lo']):+.2f}, {_num(f['hi']):+.2f}]"
            for c, text in enumerate((f["field"], ci, _p(f["p"]), _p(f["p_bh"]))):
                self.corrTable.setItem(r, c, QTableWidgetItem(text))
        self.corrTable.resizeColumnsToContents()
        self.noteLabel.setText(result["NOTE"])
        self.corr_data = _columns(layer, [value, *fields])
        self.corr_value = value
        if rows:
            self.corrTable.selectRow(0)
            self.show_scatter(0)
        return result

    def show_scatter(self, row):
        item = self.corrTable.item(row, 0) if row >= 0 else None
        if item is None or item.text() not in self.corr_data:
            return
        field = item.text()
        self.scatter.set_data(self.corr_data[field], self.corr_data[self.corr_value], field,
                              self.corr_value, f"{self.corr_value} · {field}")  # fmt: skip

    def hotspots(self):
        """geobias:hotspots; the styled clusters go to the map, the global Moran's I below."""
        layer, field = self.hotLayerCombo.currentLayer(), self.hotFieldCombo.currentField()
        if layer is None or not field:
            self.dock.push(
                tr("Choose a layer and the value to search for hot spots."), Qgis.MessageLevel.Info
            )
            return None
        folder = runner.output_dir("overlay", run=True)
        weights = WEIGHTS.index(self.weightsCombo.currentData())
        params = {"INPUT": layer, "FIELD": field, "WEIGHTS": weights, "K": self.kSpin.value(),
                  "DISTANCE_KM": self.kmSpin.value(), "FDR": self.fdrCheck.isChecked(),
                  "OUTPUT": os.path.join(folder, "hotspots.gpkg"),
                  "METRICS": os.path.join(folder, "moran.gpkg")}  # fmt: skip
        result = self._run("geobias:hotspots", params, tr("Finding hot spots"))
        if result is None:
            return None
        self._load(result["OUTPUT"], tr("Hot spots of {field}").format(field=field))
        self.moranLabel.setText(
            tr("Global Moran's I = {i:.3f} (z = {z:.2f}, permutation p = {p:.3f}) over {n} units; "
               "{hh} High–High and {ll} Low–Low clusters; Gi*: {hot} hot, {cold} cold spots.")
            .format(i=result["MORAN_I"], z=result["MORAN_Z"], p=result["MORAN_P"],
                    n=result["N_UNITS"], hh=result["N_HH"], ll=result["N_LL"],
                    hot=result["N_HOT"], cold=result["N_COLD"])
        )  # fmt: skip
        return result

    def reset(self):
        """Empty the correlations, the scatter plot and Moran's I (a new or opened project)."""
        self.corr_data = {}
        self.corrTable.setRowCount(0)
        self.scatter.set_data([], [], "", "")
        self.noteLabel.clear()
        self.moranLabel.clear()


def _pick(combo, layer):
    """The usual value to analyse: mean rank error of units, else the points' rank error."""
    if layer is None:
        return
    for name in ("mean_rank_error", "rank_error", "mean_rating", "score"):
        if layer.fields().lookupField(name) >= 0:
            combo.setField(name)
            return


def _p(v):
    v = _num(v)
    return "" if v != v else f"{v:.3g}"
