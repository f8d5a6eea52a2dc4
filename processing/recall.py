"""What the recall survey algorithm asks and writes: each numeric field's question (its
quantity, unit and year, with defaults for the bundled countries' fields), the polygons read
from the input, one answers layer per field and the groups table."""

import math
import re

import numpy as np
from osgeo import ogr
from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsCoordinateTransform,
    QgsFeatureRequest,
    QgsProcessingException,
)

from ..core.survey.recall import RecallAnswer, log_ratio, recall_prompt, relative_error
from ..i18n_util import tr
from .features import as_float, source_features

# The questions of the bundled layers' numeric fields (resources/data/README.md): quantity,
# unit, year, and the fields that name a feature's own year, the first the layer has (infant
# mortality comes from Gapminder 2015 or, where Gapminder has none, UNICEF's SOWC 2018:
# `imr_year` says which year, as does the older files' `imr_source`).
IMR_YEAR = ("imr_year", "imr_source")
FIELD_DEFAULTS = {
    "infant_mortality": ("infant mortality rate", "deaths per 1,000 live births", 2015,
                         IMR_YEAR),
    "infant_survival": ("infant survival rate", "survivors per 1,000 live births", 2015,
                        IMR_YEAR),
    "pop": ("population", "people", 2014, None),
    "pop_density": ("population density", "people per square kilometre", 2014, None),
    "life_exp": ("life expectancy at birth", "years", 2014, None),
    "gdp_percap": ("GDP per capita", "international dollars", 2014, None),
    "unemployment": ("unemployment rate", "percent", 2009, None),
}  # fmt: skip

_YEAR = re.compile(r"\b(1[89]\d\d|2\d\d\d)\b")

# One answers layer per field, in EPSG:4326 (the input's polygons moved there).
RECALL_FIELDS = {
    "name": ogr.OFTString,
    "parent": ogr.OFTString,
    "group": ogr.OFTString,
    "model": ogr.OFTString,
    "field": ogr.OFTString,
    "quantity": ogr.OFTString,
    "unit": ogr.OFTString,
    "year": ogr.OFTInteger,
    "answer": ogr.OFTReal,
    "truth": ogr.OFTReal,
    "rel_error": ogr.OFTReal,  # |a-b|/max(a,b)
    "log_ratio": ogr.OFTReal,  # ln(a/b): > 0 the model overstates
    "answered": ogr.OFTInteger,
    "failed": ogr.OFTInteger,
    # Why unanswered: range, no number, unreadable, failed, not asked, no truth (not asked).
    "reason": ogr.OFTString,
    "completion": ogr.OFTString,
    "prompt": ogr.OFTString,
}

# The groups table: per field and group, the mean relative error, its interval and its ratio
# to the best (lowest) group's.
GROUP_FIELDS = {
    "field": ogr.OFTString,
    "group": ogr.OFTString,
    "n": ogr.OFTInteger,
    "mean_rel_error": ogr.OFTReal,
    "ci_low": ogr.OFTReal,
    "ci_high": ogr.OFTReal,
    "ratio": ogr.OFTReal,
}


class Question:
    """What one field is asked as: quantity, unit, the year (one for all features) or the
    field whose text gives each feature's year (the year when it names none)."""

    def __init__(self, field, quantity, unit, year, year_field=None):
        self.field, self.quantity, self.unit = field, quantity, unit
        self.year, self.year_field = year, year_field


def _parts(text):
    """Strings separated by ; (empty ones kept: '; km' leaves the first field's default)."""
    return [p.strip() for p in text.split(";")] if text.strip() else []


def questions(fields, quantities, units, years, layer_fields):
    """One Question per field from the QUANTITIES, UNITS and YEARS strings (one per field,
    separated by ;); an empty entry takes the field's FIELD_DEFAULTS entry, else is refused."""
    q, u, y = _parts(quantities), _parts(units), _parts(years)
    for key, got in (("QUANTITIES", q), ("UNITS", u), ("YEARS", y)):
        if got and len(got) != len(fields):
            raise QgsProcessingException(
                tr("{key} gives {n} value(s) for {k} field(s): give one per field, separated "
                   "by ;.").format(key=key, n=len(got), k=len(fields))
            )  # fmt: skip
    out = []
    for i, name in enumerate(fields):
        default = FIELD_DEFAULTS.get(name, (None, None, None, None))
        quantity = (q[i] if q else "") or default[0]
        unit = (u[i] if u else "") or default[1]
        year_text = y[i] if y else ""
        if year_text:
            try:
                year = int(year_text)
            except ValueError:
                raise QgsProcessingException(
                    tr("{field}: the year '{y}' is not a year (YEARS).").format(
                        field=name, y=year_text)
                ) from None  # fmt: skip
            year_field = None
        else:
            year, year_field = default[2], default[3]
        missing = [k for k, v in (("QUANTITIES", quantity), ("UNITS", unit), ("YEARS", year))
                   if not v]  # fmt: skip
        if missing:
            raise QgsProcessingException(
                tr("Say what field {field} holds: give its {what}.").format(
                    field=name, what=", ".join(missing))
            )  # fmt: skip
        if year_field is not None:
            year_field = next((f for f in year_field if f in layer_fields), None)
        out.append(Question(name, quantity, unit, year, year_field))
    return out


def feature_year(question, text):
    """The year a feature is asked about: the one its year field's text names, else the
    question's."""
    if question.year_field is not None and _text(text):
        m = _YEAR.search(_text(text))
        if m:
            return int(m.group(1))
    return question.year


def _text(v):
    """An attribute as text; NULL (None or a null QVariant) and NaN as ""."""
    if v is None or (hasattr(v, "isNull") and v.isNull()):
        return ""
    return "" if isinstance(v, float) and math.isnan(v) else str(v).strip()


def read_polygons(source, context, name_field, parent_field, group_field, fields, extra=()):
    """The input's features with a name: geometries in EPSG:4326 and attribute columns
    (names, parents, groups as text; fields as floats, NULL as NaN; `extra` as read)."""
    wanted = [f for f in dict.fromkeys([name_field, parent_field, group_field, *fields, *extra])
              if f]  # fmt: skip
    request = QgsFeatureRequest()
    request.setSubsetOfAttributes(wanted, source.fields())
    to_wgs84 = QgsCoordinateTransform(
        source.sourceCrs(), QgsCoordinateReferenceSystem("EPSG:4326"), context.transformContext()
    )
    geoms, cols = [], {f: [] for f in wanted}
    for feature in source_features(source, request):
        if not _text(feature[name_field]):
            continue
        geom = feature.geometry()
        if geom is not None and not geom.isNull():
            geom.transform(to_wgs84)
            geom.convertToMultiType()  # the layer is of multipolygons
        geoms.append(geom)
        for f in wanted:
            cols[f].append(feature[f])
    if not geoms:
        raise QgsProcessingException(
            tr("No feature of the layer has a name in {field}.").format(field=name_field)
        )
    out = {
        "name": [_text(v) for v in cols[name_field]],
        "parent": [_text(v) for v in cols[parent_field]] if parent_field else [""] * len(geoms),
        "group": [_text(v) for v in cols[group_field]] if group_field else [""] * len(geoms),
    }
    for f in fields:
        out[f] = as_float(cols[f])
    for f in extra:
        out[f] = cols[f]
    return geoms, out


def field_prompts(question, polygons):
    """The prompts of one field, one per polygon, and the year each asks about."""
    year_texts = polygons.get(question.year_field) if question.year_field else None
    prompts, years = [], []
    for k, name in enumerate(polygons["name"]):
        year = feature_year(question, year_texts[k] if year_texts is not None else None)
        years.append(year)
        prompts.append(recall_prompt(name, question.quantity, question.unit, year,
                                     polygons["parent"][k] or None))  # fmt: skip
    return prompts, years


def has_truth(question, polygons):
    """Which polygons have a value of the field: only those are asked (a polygon without one,
    a small territory in the bundled countries, would cost a request that scores nothing)."""
    return np.isfinite(np.asarray(polygons[question.field], float))


def spread(answers, asked):
    """The answers of the asked polygons in every polygon's place; the others unanswered with
    reason "no truth"."""
    it = iter(answers)
    return [next(it) if a else RecallAnswer(None, "no truth", "") for a in asked]


def recall_records(question, polygons, prompts, years, answers, model):
    """The answers layer's records of one field: each polygon's answer, truth and errors."""
    truth = np.asarray(polygons[question.field], float)
    answer = np.array([np.nan if a.value is None else a.value for a in answers], float)
    rel, ratio = relative_error(answer, truth), log_ratio(answer, truth)
    records = []
    for k, a in enumerate(answers):
        records.append({
            "name": polygons["name"][k], "parent": polygons["parent"][k],
            "group": polygons["group"][k], "model": model, "field": question.field,
            "quantity": question.quantity, "unit": question.unit, "year": years[k],
            "answer": answer[k], "truth": truth[k], "rel_error": rel[k], "log_ratio": ratio[k],
            "answered": int(a.value is not None), "failed": int(a.failed), "reason": a.reason,
            "completion": a.text, "prompt": prompts[k] if a.reason != "no truth" else "",
        })  # fmt: skip
    return records, rel


def group_rows(field, rows):
    """The groups table's rows of one field from core.survey.recall.group_errors."""
    keys = ("group", "n", "mean_rel_error", "ci_low", "ci_high", "ratio")
    return [{"field": field, **{k: r[k] for k in keys}} for r in rows]
