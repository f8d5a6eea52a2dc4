"""geobias:biasmetrics — answer rate, MAD, Gini, Spearman rho with truth and anchor, bias score."""

import numpy as np
from osgeo import ogr
from qgis.core import (
    QgsProcessing,
    QgsProcessingException,
    QgsProcessingParameterFeatureSink,
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterField,
    QgsProcessingParameterMultipleLayers,
    QgsProcessingParameterNumber,
    QgsProcessingParameterString,
    QgsWkbTypes,
)

from ..core.metrics import summarize
from ..i18n_util import QT_TRANSLATE_NOOP, tr
from .base import GeoBiasAlgorithm
from .layers import add_point_features, as_float, polygon_field_values, qgs_fields, read_columns

METRIC_FIELDS = {
    "model": ogr.OFTString,
    "topic": ogr.OFTString,
    "score_kind": ogr.OFTString,
    "n_points": ogr.OFTInteger,
    "n_answered": ogr.OFTInteger,
    "answer_rate": ogr.OFTReal,
    "mad": ogr.OFTReal,
    "gini": ogr.OFTReal,
    "n_truth": ogr.OFTInteger,
    "rho_truth": ogr.OFTReal,
    "rho_truth_p": ogr.OFTReal,
    "rho_truth_lo": ogr.OFTReal,
    "rho_truth_hi": ogr.OFTReal,
    "anchor": ogr.OFTString,
    "rho_anchor": ogr.OFTReal,
    "rho_anchor_p": ogr.OFTReal,
    "rho_anchor_lo": ogr.OFTReal,
    "rho_anchor_hi": ogr.OFTReal,
    "bias_score": ogr.OFTReal,
    "reason": ogr.OFTString,
}


def metrics_row(
    model, topic, score_kind, score, truth=None, anchor=None, anchor_name="", n_boot=1000, seed=0
):
    """One metrics table row from arrays (NaN = not answered / no truth)."""
    truth = None if truth is None or not np.isfinite(truth).any() else truth
    s = summarize(score, truth=truth, anchor=anchor, n_boot=n_boot, seed=seed)
    row = {
        "model": model,
        "topic": topic,
        "score_kind": score_kind,
        "n_points": s.n_points,
        "n_answered": s.n_answered,
        "answer_rate": s.answer_rate,
        "mad": s.mad,
        "gini": s.gini,
        "anchor": anchor_name if anchor is not None else "",
        "bias_score": s.bias_score,
        "reason": s.reason,
    }
    for prefix, corr in (("rho_truth", s.truth), ("rho_anchor", s.anchor)):
        if corr is not None:
            row.update({prefix: corr.rho, f"{prefix}_p": corr.p, f"{prefix}_lo": corr.lo})
            row[f"{prefix}_hi"] = corr.hi
            if prefix == "rho_truth":
                row["n_truth"] = corr.n
    return row


def groups(columns):
    """Row indices per (model, topic, score_kind) in a rated layer's columns."""
    n = len(columns["lon"])
    keys = list(
        zip(
            columns.get("model", [""] * n),
            columns.get("topic", [""] * n),
            columns.get("score_kind", [""] * n),
        )
    )
    out = {}
    for i, k in enumerate(keys):
        out.setdefault(tuple("" if v is None else str(v) for v in k), []).append(i)
    return {k: np.asarray(v) for k, v in out.items()}


def format_table(rows):
    """The metrics as a plain text table (for feedback and the demo); rho with its 95% CI."""

    def num(v, fmt="{:.3f}"):
        return "" if v is None or v != v else fmt.format(v)

    header = ("model", "topic", "n", "answered", "MAD", "Gini", "rho truth [95% CI]",
              "rho anchor [95% CI]", "bias score")  # fmt: skip
    table = [header]
    for r in rows:
        table.append((
            str(r.get("model") or ""), str(r.get("topic") or ""), num(r.get("n_points"), "{}"),
            num(r.get("answer_rate"), "{:.0%}"), num(r.get("mad")), num(r.get("gini")),
            _with_ci(r, "rho_truth"), _with_ci(r, "rho_anchor"), num(r.get("bias_score")),
        ))  # fmt: skip
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    return "\n".join(
        "  ".join(cell.ljust(w) if i < 2 else cell.rjust(w)
                  for i, (cell, w) in enumerate(zip(row, widths)))
        for row in table
    )  # fmt: skip


def _with_ci(row, name):
    rho, lo, hi = row.get(name), row.get(name + "_lo"), row.get(name + "_hi")
    if rho is None or rho != rho:
        return ""
    if lo is None or hi is None or lo != lo or hi != hi:
        return f"{rho:+.2f}"
    return f"{rho:+.2f} [{lo:+.2f}, {hi:+.2f}]"


class BiasMetricsAlgorithm(GeoBiasAlgorithm):
    NAME = "biasmetrics"
    DISPLAY = QT_TRANSLATE_NOOP("@default", "Bias metrics")
    GROUP = "truth"

    def shortHelpString(self):
        return tr(
            "Computes, for every model and topic in the rated points layers: the number of points "
            "and answered points, the answer rate a, the mean absolute deviation (MAD) and Gini "
            "coefficient of the scores, Spearman's rho with the ground truth (field 'truth') with "
            "its p-value and a bootstrap 95% interval, Spearman's rho with an anchoring "
            "distribution taken from a polygon layer field (e.g. infant survival by country), and "
            "the bias score B = rho(anchor) · MAD · a² of Manvi et al. (2024). Degenerate cases "
            "(no answers, constant ratings) give empty values with a reason."
        )

    def initAlgorithm(self, config=None):
        self.addParameter(
            QgsProcessingParameterMultipleLayers(
                "INPUT", tr("Rated points layers"), QgsProcessing.TypeVectorPoint
            )
        )
        self.addParameter(QgsProcessingParameterString("SCORE_FIELD", tr("Score field"), "score"))
        self.addParameter(
            QgsProcessingParameterString(
                "TRUTH_FIELD", tr("Ground truth field"), "truth", optional=True
            )
        )
        self.addParameter(
            QgsProcessingParameterFeatureSource(
                "ANCHOR", tr("Anchoring polygons"), [QgsProcessing.TypeVectorPolygon], optional=True
            )
        )
        self.addParameter(
            QgsProcessingParameterField(
                "ANCHOR_FIELD",
                tr("Anchoring field (higher = better off, e.g. infant survival)"),
                parentLayerParameterName="ANCHOR",
                type=QgsProcessingParameterField.Numeric,
                optional=True,
            )
        )
        self.addParameter(
            QgsProcessingParameterNumber(
                "N_BOOT", tr("Bootstrap resamples"), defaultValue=1000, minValue=0
            )
        )
        self.addParameter(QgsProcessingParameterNumber("SEED", tr("Random seed"), defaultValue=0))
        self.addParameter(
            QgsProcessingParameterFeatureSink(
                "OUTPUT", tr("Bias metrics"), QgsProcessing.TypeVector
            )
        )

    def processAlgorithm(self, parameters, context, feedback):
        layers = self.parameterAsLayerList(parameters, "INPUT", context)
        if not layers:
            raise QgsProcessingException(tr("Give at least one rated points layer."))
        score_field = self.parameterAsString(parameters, "SCORE_FIELD", context)
        truth_field = self.parameterAsString(parameters, "TRUTH_FIELD", context)
        anchor_src = self.parameterAsSource(parameters, "ANCHOR", context)
        anchor_field = self.parameterAsString(parameters, "ANCHOR_FIELD", context)
        if anchor_src is not None and not anchor_field:
            raise QgsProcessingException(tr("Choose the anchoring field."))
        n_boot = self.parameterAsInt(parameters, "N_BOOT", context)
        seed = self.parameterAsInt(parameters, "SEED", context)
        rows = []
        for k, layer in enumerate(layers):
            source = layer
            if source.fields().lookupField(score_field) < 0:
                raise QgsProcessingException(
                    tr("Layer {name} has no score field '{f}'.").format(
                        name=layer.name(), f=score_field
                    )
                )
            if not source.fields().field(score_field).isNumeric():
                raise QgsProcessingException(
                    tr("Layer {name}: field '{f}' is not numeric.").format(
                        name=layer.name(), f=score_field
                    )
                )
            names = ["model", "topic", "score_kind", score_field]
            if truth_field:
                names.append(truth_field)
            columns = read_columns(source, context, names)
            score = as_float(columns[score_field])
            truth = as_float(columns[truth_field]) if truth_field in columns else None
            anchor = None
            if anchor_src is not None:
                anchor = polygon_field_values(
                    anchor_src, anchor_field, columns["lon"], columns["lat"], context
                )
            for (model, topic, kind), idx in groups(columns).items():
                if feedback.isCanceled():
                    return {}
                row = metrics_row(
                    model or layer.name(),
                    topic,
                    kind,
                    score[idx],
                    None if truth is None else truth[idx],
                    None if anchor is None else anchor[idx],
                    anchor_field,
                    n_boot,
                    seed,
                )
                rows.append(row)
            feedback.setProgress(100.0 * (k + 1) / len(layers))
        fields = qgs_fields(METRIC_FIELDS)
        sink, dest = self.parameterAsSink(
            parameters, "OUTPUT", context, fields, QgsWkbTypes.NoGeometry
        )
        if sink is None:
            raise QgsProcessingException(self.invalidSinkError(parameters, "OUTPUT"))
        columns = {name: [r.get(name) for r in rows] for name in METRIC_FIELDS}
        add_point_features(sink, fields, columns, with_geometry=False)
        feedback.pushInfo(format_table(rows))
        return {"OUTPUT": dest}
