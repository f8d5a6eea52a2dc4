"""geobias:correlate — a bias measure against census variables: Spearman's rho, p, bootstrap CI
per variable, with Holm and Benjamini–Hochberg adjusted p-values."""

from osgeo import ogr
from qgis.core import (
    QgsProcessing,
    QgsProcessingException,
    QgsProcessingOutputNumber,
    QgsProcessingOutputString,
    QgsProcessingParameterBoolean,
    QgsProcessingParameterFeatureSink,
    QgsProcessingParameterField,
    QgsProcessingParameterNumber,
    QgsWkbTypes,
)

from ...i18n_util import QT_TRANSLATE_NOOP, tr
from ..base import GeoBiasAlgorithm
from ..parameters import UNITS_OR_POINTS, BootstrapParameters, add_layer_and_field

# The correlation table (public contract): one row per census variable.
CORRELATION_FIELDS = {
    "value_field": ogr.OFTString,
    "field": ogr.OFTString,
    "n": ogr.OFTInteger,
    "rho": ogr.OFTReal,
    "p": ogr.OFTReal,
    "lo": ogr.OFTReal,
    "hi": ogr.OFTReal,
    "p_holm": ogr.OFTReal,
    "p_bh": ogr.OFTReal,
    "bootstrap": ogr.OFTString,
    "reason": ogr.OFTString,
}


def significance_note(counts, alpha):
    """The multiple-testing note for the feedback, the dock and the report ("" for one test)."""
    tested, raw, by_holm, by_bh = counts
    if tested < 2:
        return ""
    return tr(
        "{m} variables tested: {raw} with p ≤ {a:g} before adjustment, {holm} after Holm's "
        "correction (family-wise error), {bh} at a false discovery rate of {a:g} "
        "(Benjamini–Hochberg)."
    ).format(m=tested, raw=raw, holm=by_holm, bh=by_bh, a=alpha)


class CorrelateAlgorithm(GeoBiasAlgorithm):
    NAME = "correlate"
    DISPLAY = QT_TRANSLATE_NOOP("@default", "Correlate with census fields")
    GROUP = "overlay"
    USES_GEOS = False

    def help_text(self):
        return tr(
            "Spearman's rho of a bias measure (by default the units' mean rank error from "
            "'Aggregate ratings to polygons'; for rated points, e.g. rank_error or score) with "
            "each chosen numeric field (census variables), with its p-value and a bootstrap 95% "
            "interval. For points whose truth came from polygons (field truth_unit) the "
            "automatic bootstrap resamples whole units, as 'Bias metrics' does. With several "
            "fields, Holm's and Benjamini–Hochberg's adjusted p-values say which correlations "
            "survive the number of tests. Units flagged few_points are left out by default."
        )

    def initAlgorithm(self, config=None):
        add_layer_and_field(
            self, "INPUT", tr("Units or rated points"), UNITS_OR_POINTS,
            "VALUE_FIELD", tr("Bias measure"), "mean_rank_error", optional=False,
        )  # fmt: skip
        self.addParameter(
            QgsProcessingParameterField(
                "FIELDS", tr("Census fields"), None, "INPUT",
                QgsProcessingParameterField.DataType.Numeric, allowMultiple=True,
            )
        )  # fmt: skip
        self.addParameter(
            QgsProcessingParameterBoolean(
                "SKIP_FLAGGED", tr("Leave out units flagged few_points"), defaultValue=True
            )
        )
        BootstrapParameters.add(self)
        self.addParameter(
            QgsProcessingParameterNumber(
                "ALPHA", tr("Significance level"), QgsProcessingParameterNumber.Type.Double, 0.05,
                minValue=0.0001, maxValue=0.5,
            )
        )  # fmt: skip
        self.addParameter(
            QgsProcessingParameterFeatureSink(
                "OUTPUT", tr("Correlations"), QgsProcessing.SourceType.TypeVector
            )
        )
        self.addOutput(QgsProcessingOutputNumber("N_FIELDS", tr("Fields tested")))
        self.addOutput(QgsProcessingOutputNumber("N_SIGNIFICANT", tr("Significant (unadjusted)")))
        self.addOutput(QgsProcessingOutputNumber("N_SIGNIFICANT_HOLM", tr("Significant (Holm)")))
        self.addOutput(QgsProcessingOutputNumber("N_SIGNIFICANT_BH", tr("Significant (FDR)")))
        self.addOutput(QgsProcessingOutputString("NOTE", tr("Multiple-testing note")))

    def processAlgorithm(self, parameters, context, feedback):
        import numpy as np

        from ...core.stats.correlate import MIN_UNITS, correlate_fields, significance_counts
        from ..features import add_point_features, as_float, numeric_field, qgs_fields
        from ..runs import layer_language, now, record_derived
        from ..units import columns_of, value_field_of

        started = now()
        source = self.parameterAsSource(parameters, "INPUT", context)
        if source is None:
            raise QgsProcessingException(self.invalidSourceError(parameters, "INPUT"))
        value_field = value_field_of(self, parameters, "VALUE_FIELD", context, source)
        numeric_field(source, value_field, tr("Bias measure (VALUE_FIELD)"))
        fields = self.parameterAsFields(parameters, "FIELDS", context)
        if not fields:
            raise QgsProcessingException(tr("Choose at least one census field (FIELDS)."))
        for f in fields:
            numeric_field(source, f, tr("Census fields (FIELDS)"))
        fields = [f for f in dict.fromkeys(fields) if f != value_field]
        if not fields:
            raise QgsProcessingException(
                tr("FIELDS holds only the bias measure itself: choose census fields.")
            )
        skip_flagged = self.parameterAsBool(parameters, "SKIP_FLAGGED", context)
        bootstrap = BootstrapParameters.read(self, parameters, context)
        n_boot, seed = bootstrap.n_boot, bootstrap.seed
        alpha = self.parameterAsDouble(parameters, "ALPHA", context)
        extra = [n for n in ("few_points", "truth_unit", "n_scored")
                 if source.fields().lookupField(n) >= 0]  # fmt: skip
        cols, _fids = columns_of(source, [value_field, *fields, *extra])
        value = as_float(cols[value_field])
        keep = np.ones(len(value), bool)
        if skip_flagged and "few_points" in cols:
            keep = as_float(cols["few_points"]) != 1
            if (~keep).any():
                feedback.pushInfo(
                    tr("{n} units flagged few_points were left out.").format(n=int((~keep).sum()))
                )
        too_few = ""
        n_usable = int((keep & np.isfinite(value)).sum())
        if skip_flagged and "few_points" in cols and n_usable < MIN_UNITS:
            too_few = self.too_few_units(cols, value, n_usable)
            feedback.pushWarning(too_few)
        clusters = self.clusters(bootstrap.kind, cols, source)
        results = correlate_fields(
            value[keep], {f: as_float(cols[f])[keep] for f in fields}, n_boot, seed,
            None if clusters is None else clusters[keep],
        )  # fmt: skip
        counts = significance_counts(results, alpha)
        note = too_few or significance_note(counts, alpha)
        table = qgs_fields(CORRELATION_FIELDS)
        sink, dest = self.parameterAsSink(
            parameters, "OUTPUT", context, table, QgsWkbTypes.Type.NoGeometry
        )
        if sink is None:
            raise QgsProcessingException(self.invalidSinkError(parameters, "OUTPUT"))
        rows = {name: [] for name in CORRELATION_FIELDS}
        for r in results:
            c = r.correlation
            for name, v in (("value_field", value_field), ("field", r.field), ("n", c.n),
                            ("rho", c.rho), ("p", c.p), ("lo", c.lo), ("hi", c.hi),
                            ("p_holm", r.p_holm), ("p_bh", r.p_bh),
                            ("bootstrap", c.bootstrap if n_boot > 0 else ""),
                            ("reason", too_few or c.reason)):  # fmt: skip
                rows[name].append(v)
        add_point_features(sink, table, rows, with_geometry=False)
        del sink  # closes the file
        units = self.parameterAsVectorLayer(parameters, "INPUT", context)
        record_derived(dest, units.source() if units else "", self.id(), parameters, started,
                       language=layer_language(units))  # fmt: skip
        for r in results:
            c = r.correlation
            feedback.pushInfo(
                tr("{field}: rho = {rho:+.3f} [{lo:+.3f}, {hi:+.3f}], p = {p:.3g}, Holm {h:.3g}, "
                   "BH {b:.3g}, n = {n}{why}").format(
                    field=r.field, rho=c.rho, lo=c.lo, hi=c.hi, p=c.p, h=r.p_holm, b=r.p_bh,
                    n=c.n, why=f" ({c.reason})" if c.reason else "")
            )  # fmt: skip
        if note:
            feedback.pushInfo(note)
        return {"OUTPUT": dest, "N_FIELDS": counts[0], "N_SIGNIFICANT": counts[1],
                "N_SIGNIFICANT_HOLM": counts[2], "N_SIGNIFICANT_BH": counts[3],
                "NOTE": note}  # fmt: skip

    @staticmethod
    def too_few_units(cols, value, n_usable):
        """Why every correlation is empty when the units flagged few_points leave fewer than
        MIN_UNITS, and the minimum point count that would keep enough of them."""
        import numpy as np

        from ...core.stats.correlate import MIN_UNITS, minimum_to_fill
        from ..features import as_float

        if n_usable == 0:
            why = tr("Every unit has fewer scored points than the minimum it was aggregated with "
                     "(few_points = 1), so there is nothing to correlate.")  # fmt: skip
        else:
            why = tr("Only {n} units have the minimum of scored points (the others are flagged "
                     "few_points); a correlation needs {k}.")  # fmt: skip
            why = why.format(n=n_usable, k=MIN_UNITS)
        if "n_scored" not in cols:
            return why
        counts = as_float(cols["n_scored"])
        finite = np.isfinite(value)
        least = minimum_to_fill(counts, finite)
        if least is None:
            how = tr("Fewer than {k} units have scored points at all: sample more points or "
                     "choose larger units.").format(k=MIN_UNITS)  # fmt: skip
        else:
            k = int(((counts >= least) & finite).sum())
            how = tr("Aggregate again with a minimum of {m} points per unit ({k} units would "
                     "count), or sample more points.").format(m=least, k=k)  # fmt: skip
        return f"{why} {how}"

    @staticmethod
    def clusters(bootstrap, cols, source):
        """Cluster labels for the bootstrap: the truth units of points (field truth_unit)."""
        import numpy as np

        from ..features import as_float

        if bootstrap == "points":
            return None
        units = as_float(cols["truth_unit"]) if "truth_unit" in cols else None
        if bootstrap == "clusters" and (units is None or not np.isfinite(units).any()):
            raise QgsProcessingException(
                tr("BOOTSTRAP: clusters need the truth unit of the points (field truth_unit, "
                   "written by 'Sample ground truth' from polygons); this layer has none.")
            )  # fmt: skip
        if units is None or not np.isfinite(units).any():
            return None
        return np.where(np.isfinite(units), units, -1)
