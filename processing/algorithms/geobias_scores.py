"""geobias:geobiasscores — GeoBS scores (SSI, scale/lag/direction SRI) of a rated layer's errors."""

import json
import os

from qgis.core import (
    QgsProcessing,
    QgsProcessingException,
    QgsProcessingParameterFeatureSink,
    QgsProcessingParameterMultipleLayers,
    QgsProcessingParameterString,
    QgsWkbTypes,
)

from ...i18n_util import QT_TRANSLATE_NOOP, tr
from ..base import GeoBiasAlgorithm
from ..crs import WGS84
from ..parameters import GeoBSParameters


class GeoBiasScoresAlgorithm(GeoBiasAlgorithm):
    NAME = "geobiasscores"
    DISPLAY = QT_TRANSLATE_NOOP("@default", "Geo-bias scores (GeoBS)")
    GROUP = "truth"
    USES_GEOS = False  # kd-trees and numpy only

    def help_text(self):
        return tr(
            "The geo-bias scores of Wang et al. (GeoBS, 2025) of every model and topic in the "
            "rated points layers: how unevenly the model's errors are spread in space. The error "
            "of each point is put in classes: the rank error (needs the ground truth; classes at "
            "−0.25, 0 and +0.25), whether the point was answered, or any numeric field at given "
            "edges. The spatial self-information (SSI) says how surprising the arrangement of "
            "the errors around a point is (within the radius, on the graph of each point's k "
            "nearest neighbours, against background points); the spatial relative information "
            "(SRI) says how much the errors of the parts of a neighbourhood differ from the whole "
            "neighbourhood, with parts made by a latitude/longitude grid (multi-scale), by rings "
            "of distance (distance decay) or by sectors of direction (anisotropy). Scores are in "
            "nats: the SRIs are near 0 for errors arranged as by chance and grow the more the "
            "errors are structured in space; the SSI also grows with the neighbourhood's size, "
            "so compare scores made with the same settings. "
            "Writes a table with one row of scores per model and topic, and a point layer of the "
            "local scores, drawn as the rank errors: where the errors cluster (red) or disperse "
            "(blue) around a point. Distances are great-circle; the settings are written in "
            "every row. docs/method.md gives the formulas and where GeoBias differs from PyGBS."
        )

    def initAlgorithm(self, config=None):
        self.addParameter(
            QgsProcessingParameterMultipleLayers(
                "INPUT", tr("Rated points layers"), QgsProcessing.SourceType.TypeVectorPoint
            )
        )
        self.addParameter(
            QgsProcessingParameterString(
                "TRUTH_FIELD", tr("Ground truth field"), "truth", optional=True
            )
        )
        GeoBSParameters.add(self, input_key=None)
        self.addParameter(
            QgsProcessingParameterFeatureSink(
                "OUTPUT", tr("Geo-bias scores"), QgsProcessing.SourceType.TypeVector
            )
        )
        self.addParameter(
            QgsProcessingParameterFeatureSink(
                "LOCAL", tr("Local geo-bias scores"), QgsProcessing.SourceType.TypeVectorPoint
            )
        )

    def processAlgorithm(self, parameters, context, feedback):
        from ..features import add_point_features, qgs_fields
        from ..geobs_layers import LOCAL_FIELDS, SCORE_FIELDS, format_scores, layer_scores
        from ..runs import append_runs, derived_record, layer_language, now
        from ..styles import save_output_styles, style_output

        started = now()
        layers = self.parameterAsLayerList(parameters, "INPUT", context)
        if not layers:
            raise QgsProcessingException(tr("Give at least one rated points layer."))
        truth_field = self.parameterAsString(parameters, "TRUTH_FIELD", context) or "truth"
        geobs_input, settings = GeoBSParameters.read(self, parameters, context)
        rows, local = [], {name: [] for name in LOCAL_FIELDS}
        for k, layer in enumerate(layers):
            for row, columns in layer_scores(
                layer, context, feedback, geobs_input, settings, truth_field
            ):
                rows.append(row)
                for name in LOCAL_FIELDS:
                    local[name].extend(list(columns[name]))
            if feedback.isCanceled():
                return {}
            feedback.setProgress(90.0 * (k + 1) / len(layers))
        if geobs_input.error == "rank_error" and not any(r["n_coded"] for r in rows):
            raise QgsProcessingException(
                tr("TRUTH_FIELD: no layer has a ground truth in '{name}': rank errors need it "
                   "('Sample ground truth'), or choose another error.").format(name=truth_field)
            )  # fmt: skip
        # Everything is computed: only now write.
        fields = qgs_fields(SCORE_FIELDS)
        sink, dest = self.parameterAsSink(
            parameters, "OUTPUT", context, fields, QgsWkbTypes.Type.NoGeometry
        )
        if sink is None:
            raise QgsProcessingException(self.invalidSinkError(parameters, "OUTPUT"))
        columns = {name: [r.get(name) for r in rows] for name in SCORE_FIELDS}
        add_point_features(sink, fields, columns, with_geometry=False)
        del sink
        local_fields = qgs_fields(LOCAL_FIELDS)
        sink, local_dest = self.parameterAsSink(
            parameters, "LOCAL", context, local_fields, QgsWkbTypes.Type.Point, WGS84
        )
        if sink is None:
            raise QgsProcessingException(self.invalidSinkError(parameters, "LOCAL"))
        if not add_point_features(sink, local_fields, local, feedback):
            return {}
        del sink  # closes the file, so its styles can be saved into it
        # What the scores measured (the first layer's run: study area, prompt in its language;
        # the models and topics of the rows), in each GeoPackage before its styles describe it.
        record = derived_record(layers[0].source(), self.id(), parameters, started,
                                language=layer_language(layers[0]))  # fmt: skip
        record["model"] = "; ".join(dict.fromkeys(str(r["model"]) for r in rows))
        record["topics"] = json.dumps(list(dict.fromkeys(str(r["topic"]) for r in rows)))
        for path in dict.fromkeys(str(out).split("|")[0] for out in (dest, local_dest)):
            if path.lower().endswith(".gpkg") and os.path.isfile(path):
                append_runs(path, [record])
        values = {"ssi": local["ssi"], "ssi_z": local["ssi_z"]}
        save_output_styles(local_dest, "ssi_z", values=values)
        style_output(context, local_dest, "ssi_z", tr("Local geo-bias scores"))
        feedback.pushInfo(format_scores(rows))
        feedback.setProgress(100.0)
        return {"OUTPUT": dest, "LOCAL": local_dest}
