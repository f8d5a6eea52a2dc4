"""geobias:hotspots — local Moran's I (LISA) and Getis–Ord Gi* of rank error, global Moran's I."""

from osgeo import ogr
from qgis.core import (
    QgsProcessing,
    QgsProcessingException,
    QgsProcessingOutputNumber,
    QgsProcessingParameterBoolean,
    QgsProcessingParameterEnum,
    QgsProcessingParameterFeatureSink,
    QgsProcessingParameterNumber,
    QgsWkbTypes,
)

from ...i18n_util import QT_TRANSLATE_NOOP, message_text, tr
from ..base import GeoBiasAlgorithm
from ..definitions import WEIGHTS
from ..parameters import UNITS_OR_POINTS, add_layer_and_field

# Fields added to each unit (public contract, README's algorithm table).
HOTSPOT_FIELDS = {
    "hs_value": "real",  # the value analysed
    "n_neighbours": "int",
    "lisa_i": "real",
    "lisa_lag": "real",  # the neighbours' mean standardised value (Moran scatter plot's y)
    "lisa_p": "real",  # conditional permutation pseudo p-value
    "lisa_q": "real",  # Benjamini–Hochberg q-value (FDR), when asked for
    "lisa_class": "text",  # HH, LL, HL, LH, not significant, no neighbours
    "gi_z": "real",
    "gi_p": "real",
    "gi_q": "real",
    "gi_bin": "int",  # +3/+2/+1 hot spot at 99/95/90%, -1/-2/-3 cold spot, 0 neither
}
# The global statistics table (METRICS): one row.
GLOBAL_FIELDS = {
    "field": ogr.OFTString,
    "weights": ogr.OFTString,
    "n_units": ogr.OFTInteger,
    "moran_i": ogr.OFTReal,
    "moran_expected": ogr.OFTReal,
    "moran_z": ogr.OFTReal,  # normal approximation (esda's z_norm) ...
    "moran_p_norm": ogr.OFTReal,  # ... and its two-sided p
    "moran_z_sim": ogr.OFTReal,  # permutation test (esda's z_sim) ...
    "moran_p_sim": ogr.OFTReal,  # ... and its one-sided pseudo p
    "permutations": ogr.OFTInteger,
    "seed": ogr.OFTInteger,
    "alpha": ogr.OFTReal,
    "fdr": ogr.OFTInteger,
    "n_hh": ogr.OFTInteger,
    "n_ll": ogr.OFTInteger,
    "n_hl": ogr.OFTInteger,
    "n_lh": ogr.OFTInteger,
    "n_hot": ogr.OFTInteger,
    "n_cold": ogr.OFTInteger,
}


class HotspotsAlgorithm(GeoBiasAlgorithm):
    NAME = "hotspots"
    DISPLAY = QT_TRANSLATE_NOOP("@default", "Bias hot spots")
    GROUP = "overlay"
    USES_GEOS = False  # numpy and scipy only

    def help_text(self):
        return tr(
            "Where the bias concentrates: local Moran's I of a value (by default the units' mean "
            "rank error) with conditional permutation p-values and the classes HH (units that, "
            "like their neighbours, are overestimated), LL (underestimated among "
            "underestimated), HL and LH (outliers), and the Getis–Ord Gi* z-score with hot and "
            "cold spots at 90/95/99% confidence. Spatial weights: the k nearest neighbours or "
            "every unit within a distance band, by great-circle distance for lon/lat layers and "
            "in km of the layer's CRS otherwise; local Moran uses them row-standardised, Gi* "
            "binary with the unit itself. Permutations are seeded. With FDR, the classes use "
            "Benjamini–Hochberg q-values instead of p-values. Units without a value, and units "
            "flagged few_points when asked, are left out. The global Moran's I goes into the "
            "METRICS table and the outputs with its two tests: the normal approximation (z, "
            "two-sided p) and the permutation test (z, one-sided pseudo p)."
        )

    def initAlgorithm(self, config=None):
        add_layer_and_field(
            self, "INPUT", tr("Units or points"), UNITS_OR_POINTS,
            "FIELD", tr("Value (e.g. mean rank error)"), "mean_rank_error", optional=False,
        )  # fmt: skip
        self.addParameter(
            QgsProcessingParameterEnum(
                "WEIGHTS",
                tr("Spatial weights"),
                WEIGHTS.labels(),
                defaultValue=WEIGHTS.default_index,
            )
        )
        self.addParameter(
            QgsProcessingParameterNumber("K", tr("Neighbours (k)"), defaultValue=6, minValue=1)
        )
        self.addParameter(
            QgsProcessingParameterNumber(
                "DISTANCE_KM", tr("Distance band (km)"), QgsProcessingParameterNumber.Type.Double,
                500.0, minValue=0.0,
            )
        )  # fmt: skip
        self.addParameter(
            QgsProcessingParameterNumber(
                "PERMUTATIONS", tr("Permutations"), defaultValue=999, minValue=99, maxValue=99999
            )
        )
        self.addParameter(QgsProcessingParameterNumber("SEED", tr("Random seed"), defaultValue=0))
        self.addParameter(
            QgsProcessingParameterNumber(
                "ALPHA", tr("Significance level"), QgsProcessingParameterNumber.Type.Double, 0.05,
                minValue=0.0001, maxValue=0.5,
            )
        )  # fmt: skip
        self.addParameter(
            QgsProcessingParameterBoolean(
                "FDR", tr("Correct for many tests (false discovery rate, Benjamini–Hochberg)"),
                defaultValue=False,
            )
        )  # fmt: skip
        self.addParameter(
            QgsProcessingParameterBoolean(
                "SKIP_FLAGGED", tr("Leave out units flagged few_points"), defaultValue=True
            )
        )
        self.addParameter(QgsProcessingParameterFeatureSink("OUTPUT", tr("Hot spots")))
        self.addParameter(
            QgsProcessingParameterFeatureSink(
                "METRICS",
                tr("Global Moran's I"),
                QgsProcessing.SourceType.TypeVector,
                optional=True,
            )
        )
        for name, text in (
            ("MORAN_I", tr("Global Moran's I")),
            ("MORAN_Z", tr("Global Moran's I: z (normal approximation)")),
            ("MORAN_P_NORM", tr("Global Moran's I: two-sided p (normal approximation)")),
            ("MORAN_Z_SIM", tr("Global Moran's I: z (permutation test)")),
            ("MORAN_P", tr("Global Moran's I: one-sided pseudo p (permutation test)")),
            ("N_UNITS", tr("Units analysed")),
            ("N_HH", tr("High–High units")),
            ("N_LL", tr("Low–Low units")),
            ("N_HOT", tr("Gi* hot spots")),
            ("N_COLD", tr("Gi* cold spots")),
        ):
            self.addOutput(QgsProcessingOutputNumber(name, text))

    def processAlgorithm(self, parameters, context, feedback):
        import numpy as np

        from ...core.stats.hotspots import (
            QUADRANTS,
            adjusted,
            getis_ord_star,
            gi_bins,
            global_moran,
            lisa_classes,
            local_moran,
        )
        from ...core.stats.spatial_weights import distance_band_weights, knn_weights
        from ..features import add_point_features, as_float, numeric_field, qgs_fields
        from ..overlay_styles import save_overlay_styles, style_overlay_output
        from ..runs import layer_language, now, record_derived
        from ..units import columns_of, extended_fields, unit_places, value_field_of, write_units

        started = now()
        source = self.parameterAsSource(parameters, "INPUT", context)
        if source is None:
            raise QgsProcessingException(self.invalidSourceError(parameters, "INPUT"))
        field = value_field_of(self, parameters, "FIELD", context, source)
        numeric_field(source, field, tr("Value (FIELD)"))
        kind = WEIGHTS.key(self.parameterAsEnum(parameters, "WEIGHTS", context))
        k = self.parameterAsInt(parameters, "K", context)
        km = self.parameterAsDouble(parameters, "DISTANCE_KM", context)
        permutations = self.parameterAsInt(parameters, "PERMUTATIONS", context)
        seed = self.parameterAsInt(parameters, "SEED", context)
        alpha = self.parameterAsDouble(parameters, "ALPHA", context)
        fdr = self.parameterAsBool(parameters, "FDR", context)
        skip_flagged = self.parameterAsBool(parameters, "SKIP_FLAGGED", context)

        fids, x, y, geographic = unit_places(source, context)
        names = [field] + (["few_points"] if source.fields().lookupField("few_points") >= 0
                           else [])  # fmt: skip
        cols, col_fids = columns_of(source, names)
        by_fid = dict(zip(col_fids.tolist(), range(len(col_fids))))
        order = np.array([by_fid[f] for f in fids.tolist()], dtype=np.int64)
        value = as_float(cols[field])[order]
        keep = np.isfinite(value) & np.isfinite(x) & np.isfinite(y)
        n_flagged = 0
        if skip_flagged and "few_points" in cols:
            flagged = as_float(cols["few_points"])[order] == 1
            n_flagged = int((keep & flagged).sum())
            keep &= ~flagged
        idx = np.flatnonzero(keep)
        if len(idx) < 3:
            raise QgsProcessingException(
                tr("Hot spots need at least 3 units with a value in '{field}' ({n} have one)."
                   ).format(field=field, n=len(idx))
            )  # fmt: skip
        try:
            if kind == "knn":
                weights = knn_weights(x[idx], y[idx], k, geographic)
                weights_text = tr("{k} nearest neighbours").format(k=k)
            else:
                weights = distance_band_weights(x[idx], y[idx], km, geographic)
                weights_text = tr("distance band {km:g} km").format(km=km)
            feedback.setProgress(10)
            lisa = local_moran(value[idx], weights, permutations, seed)
            if feedback.isCanceled():
                return {}
            feedback.setProgress(50)
            gi = getis_ord_star(value[idx], weights)
            glob = global_moran(value[idx], weights, permutations, seed)
        except ValueError as e:
            raise QgsProcessingException(tr("Hot spots: {e}").format(e=message_text(e))) from e
        if geographic:
            weights_text += tr(" (great-circle)")
        feedback.setProgress(70)
        lisa_q = adjusted(lisa.p_sim, True) if fdr else np.full(len(idx), np.nan)
        gi_q = adjusted(gi.p, True) if fdr else np.full(len(idx), np.nan)
        classes = lisa_classes(lisa, alpha, lisa_q if fdr else None)
        bins = gi_bins(gi, gi_q if fdr else None)
        if alpha != 0.05:  # Gi* bins are at 90/95/99%; alpha sets LISA's classes
            feedback.pushInfo(tr("Gi* classes are at 90, 95 and 99% confidence whatever alpha."))
        values = {}
        for j, i in enumerate(idx.tolist()):
            values[int(fids[i])] = {
                "hs_value": value[i], "n_neighbours": weights.cardinalities[j],
                "lisa_i": lisa.I[j], "lisa_lag": lisa.lag[j], "lisa_p": lisa.p_sim[j],
                "lisa_q": lisa_q[j], "lisa_class": classes[j], "gi_z": gi.z[j], "gi_p": gi.p[j],
                "gi_q": gi_q[j], "gi_bin": bins[j],
            }  # fmt: skip
        fields, positions = extended_fields(source.fields(), HOTSPOT_FIELDS)
        sink, dest = self.parameterAsSink(
            parameters, "OUTPUT", context, fields, source.wkbType(), source.sourceCrs()
        )
        if sink is None:
            raise QgsProcessingException(self.invalidSinkError(parameters, "OUTPUT"))
        if not write_units(source, sink, fields, positions, values, feedback):
            return {}
        del sink
        save_overlay_styles(dest, "hotspots")
        style_overlay_output(context, dest, "hotspots", tr("Hot spots: LISA clusters"))
        # What the hot spots measured: the run of the units or points they were found in.
        found_in = self.parameterAsVectorLayer(parameters, "INPUT", context)
        record_derived(dest, found_in.source() if found_in else "", self.id(), parameters,
                       started, language=layer_language(found_in))  # fmt: skip
        counts = {code: int((classes == code).sum()) for code in QUADRANTS.values()}
        row = {
            "field": field, "weights": weights_text, "n_units": len(idx), "moran_i": glob.I,
            "moran_expected": glob.expected, "moran_z": glob.z_norm, "moran_p_norm": glob.p_norm,
            "moran_z_sim": glob.z_sim, "moran_p_sim": glob.p_sim, "permutations": permutations,
            "seed": seed, "alpha": alpha, "fdr": int(fdr), "n_hh": counts["HH"],
            "n_ll": counts["LL"], "n_hl": counts["HL"], "n_lh": counts["LH"],
            "n_hot": int((bins > 0).sum()), "n_cold": int((bins < 0).sum()),
        }  # fmt: skip
        results = {"OUTPUT": dest}
        metrics_fields = qgs_fields(GLOBAL_FIELDS)
        msink, mdest = self.parameterAsSink(
            parameters, "METRICS", context, metrics_fields, QgsWkbTypes.Type.NoGeometry
        )
        if msink is not None:
            add_point_features(msink, metrics_fields, {k: [v] for k, v in row.items()},
                               with_geometry=False)  # fmt: skip
            results["METRICS"] = mdest
        n_islands = int(weights.islands.sum())
        if n_islands:
            feedback.pushWarning(
                tr("{n} units have no neighbour within the band: they get no class. A longer "
                   "band or k nearest neighbours gives every unit neighbours.").format(n=n_islands)
            )  # fmt: skip
        if n_flagged:
            feedback.pushInfo(tr("{n} units flagged few_points were left out.").format(n=n_flagged))
        # Each z beside the p of its own test (issue 35: the normal z beside the permutation p
        # read as a contradiction on 18 units).
        feedback.pushInfo(
            tr("Global Moran's I of {field} = {i:.3f} (expected {e:.3f}, {w}). Normal "
               "approximation: z = {zn:.2f}, two-sided p = {pn:.4f}. Permutation test "
               "({perm} permutations): z = {zs:.2f}, one-sided pseudo p = {ps:.4f}. Local: {hh} "
               "HH, {ll} LL, {hl} HL, {lh} LH; Gi*: {hot} hot, {cold} cold spots.").format(
                field=field, i=glob.I, e=glob.expected, w=weights_text, zn=glob.z_norm,
                pn=glob.p_norm, perm=permutations, zs=glob.z_sim, ps=glob.p_sim,
                hh=row["n_hh"], ll=row["n_ll"], hl=row["n_hl"], lh=row["n_lh"],
                hot=row["n_hot"], cold=row["n_cold"])
        )  # fmt: skip
        results.update({
            "MORAN_I": glob.I, "MORAN_Z": glob.z_norm, "MORAN_P_NORM": glob.p_norm,
            "MORAN_Z_SIM": glob.z_sim, "MORAN_P": glob.p_sim,
            "N_UNITS": len(idx), "N_HH": row["n_hh"], "N_LL": row["n_ll"],
            "N_HOT": row["n_hot"], "N_COLD": row["n_cold"],
        })  # fmt: skip
        return results
