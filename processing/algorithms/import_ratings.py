"""geobias:importratings — a CSV of recorded ratings (lat, lon, value) as a rated points layer."""

import os

from qgis.core import (
    QgsProcessing,
    QgsProcessingException,
    QgsProcessingOutputNumber,
    QgsProcessingParameterEnum,
    QgsProcessingParameterFeatureSink,
    QgsProcessingParameterFile,
    QgsProcessingParameterNumber,
    QgsProcessingParameterString,
)

from ...i18n_util import QT_TRANSLATE_NOOP, message_text, tr
from ..base import GeoBiasAlgorithm
from ..checks import short_label
from ..definitions import IMPORT_SCORE_KINDS


def guess_topic(path):
    """The topic from a file name like gpt_3_5_turbo_0613_Infant_Mortality_Rate_world_..."""
    from ...core.survey.topics import TOPICS

    stem = os.path.basename(path).replace("_", " ").lower()
    for topic in TOPICS:
        if topic.name.lower() in stem:
            return topic.name
    return ""


class ImportRatingsAlgorithm(GeoBiasAlgorithm):
    NAME = "importratings"
    DISPLAY = QT_TRANSLATE_NOOP("@default", "Import ratings table")
    GROUP = "survey"
    USES_GEOS = False  # points are written as WKB by numpy, no shapely

    def help_text(self):
        return tr(
            "Reads a CSV of recorded ratings (one row per location: latitude, longitude, value; an "
            "empty value means not answered) and writes a rated points layer in EPSG:4326 with the "
            "GeoBias schema: pid, lat, lon, model, topic, rating, expected, score, answered, rank "
            "(fractional rank of the score, 0..1), and empty truth, truth_rank and rank_error for "
            "'Sample ground truth'. Use it to map the ratings of a model you queried elsewhere, "
            "e.g. the GPT-3.5 ratings published with the paper. Ratings outside the scale "
            "(SCALE_MIN–SCALE_MAX, the paper's 0–9.9 by default) are counted and warned about; "
            "on another scale the score is mapped linearly onto 0–9.9."
        )

    def initAlgorithm(self, config=None):
        self.addParameter(
            QgsProcessingParameterFile("INPUT", tr("Ratings table (CSV)"), extension="csv")
        )
        self.addParameter(
            QgsProcessingParameterString("LAT_FIELD", tr("Latitude column"), "Latitude")
        )
        self.addParameter(
            QgsProcessingParameterString("LON_FIELD", tr("Longitude column"), "Longitude")
        )
        self.addParameter(
            QgsProcessingParameterString("VALUE_FIELD", tr("Rating column"), "Predictions")
        )
        self.addParameter(QgsProcessingParameterString("MODEL", tr("Model name"), "imported"))
        self.addParameter(
            QgsProcessingParameterString(
                "TOPIC", tr("Topic (empty: guess from the file name)"), "", optional=True
            )
        )
        self.addParameter(
            QgsProcessingParameterEnum(
                "SCORE",
                tr("The values are"),
                IMPORT_SCORE_KINDS.labels(),
                defaultValue=IMPORT_SCORE_KINDS.default_index,
            )
        )
        for name, label, default in (
            ("SCALE_MIN", tr("Bottom of the rating scale the model was asked for"), 0.0),
            ("SCALE_MAX", tr("Top of the rating scale the model was asked for"), 9.9),
        ):
            self.addParameter(
                QgsProcessingParameterNumber(
                    name, label, QgsProcessingParameterNumber.Type.Double, default
                )
            )
        self.addParameter(
            QgsProcessingParameterFeatureSink(
                "OUTPUT", tr("Rated points"), QgsProcessing.SourceType.TypeVectorPoint
            )
        )
        self.addOutput(QgsProcessingOutputNumber("N_POINTS", tr("Number of points")))
        self.addOutput(QgsProcessingOutputNumber("N_ANSWERED", tr("Number of answered points")))
        self.addOutput(QgsProcessingOutputNumber("N_OUT_OF_SCALE", tr("Ratings outside the scale")))

    def processAlgorithm(self, parameters, context, feedback):
        import numpy as np

        from ...core.survey.ratings import RatingsTableError, outside_scale, read_ratings_table
        from ..features import qgs_fields
        from ..rating import rated_columns
        from ..styles import layer_name, style_output

        path = self.parameterAsFile(parameters, "INPUT", context)
        keys = {"lat": "LAT_FIELD", "lon": "LON_FIELD", "value": "VALUE_FIELD"}
        names = {r: self.parameterAsString(parameters, k, context).strip() for r, k in keys.items()}
        for role, key in keys.items():
            if not names[role]:
                raise QgsProcessingException(
                    tr("{label} ({key}): give the column's name.").format(
                        label=short_label(self.parameterDefinition(key)), key=key
                    )
                )
        try:
            table = read_ratings_table(path, **names)
        except RatingsTableError as err:
            if err.missing:  # name the setting whose column is missing
                key = keys[err.missing[0]]
                raise QgsProcessingException(
                    tr("{label} ({key}): {err}").format(
                        label=short_label(self.parameterDefinition(key)),
                        key=key,
                        err=message_text(err),
                    )
                ) from err
            message = tr("Ratings table (INPUT): {err}").format(err=message_text(err))
            raise QgsProcessingException(message) from err
        except (OSError, ValueError) as err:  # not a text file (a decoding error), unreadable
            raise QgsProcessingException(
                tr("Ratings table (INPUT): {path} cannot be read as a CSV table: {err}").format(
                    path=path, err=message_text(err)
                )
            ) from err
        if len(table["value"]) == 0:
            raise QgsProcessingException(tr("The ratings table has no rows."))
        if not np.isfinite(table["value"]).any():
            raise QgsProcessingException(tr("No answered points: every rating is empty."))
        lo = self.parameterAsDouble(parameters, "SCALE_MIN", context)
        hi = self.parameterAsDouble(parameters, "SCALE_MAX", context)
        if not hi > lo:
            raise QgsProcessingException(
                tr("The scale's top (SCALE_MAX = {hi:g}) must be above its bottom (SCALE_MIN = "
                   "{lo:g}).").format(lo=lo, hi=hi)
            )  # fmt: skip
        out = outside_scale(table["value"], lo, hi)
        if out.any():
            examples = ", ".join(f"{v:g}" for v in list(dict.fromkeys(table["value"][out]))[:3])
            feedback.pushWarning(
                tr("{n} ratings lie outside the scale {lo:g}–{hi:g} (e.g. {examples}). They are "
                   "kept as they are: if the model was asked for another scale, set SCALE_MIN and "
                   "SCALE_MAX to it (the score is then put on the paper's 0–9.9).").format(
                    n=int(out.sum()), lo=lo, hi=hi, examples=examples
                )
            )  # fmt: skip
        topic = self.parameterAsString(parameters, "TOPIC", context) or guess_topic(path)
        model = self.parameterAsString(parameters, "MODEL", context).strip()
        if not model:
            raise QgsProcessingException(tr("Give the model's name (MODEL)."))
        kind = IMPORT_SCORE_KINDS.key(self.parameterAsEnum(parameters, "SCORE", context))
        columns = rated_columns(
            table["lon"], table["lat"], table["value"], model, topic, kind, (lo, hi)
        )
        fields = qgs_fields()
        dest = self.write_points(parameters, context, fields, columns, feedback, "rank")
        if dest is None:
            return {}
        n_answered = int(columns["answered"].sum())
        feedback.pushInfo(
            tr("{n} points, {a} answered; model {m}, topic {t}.").format(
                n=len(columns["pid"]), a=n_answered, m=model, t=topic or "?"
            )
        )
        style_output(context, dest, "rank", layer_name(model, topic) if topic else model)
        return {
            "OUTPUT": dest,
            "N_POINTS": len(columns["pid"]),
            "N_ANSWERED": n_answered,
            "N_OUT_OF_SCALE": int(out.sum()),
        }
