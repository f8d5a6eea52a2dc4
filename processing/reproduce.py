"""Reproducing a recorded run (issue 33 items 3 and 6): which run, which of its parameters may be
used again on this machine, and how two GeoPackages' results compare figure by figure.

A GeoPackage from someone else is data, never authority: its parameters are read as JSON and
kept only where the recorded algorithm declares them, a layer or file it names must be a file on
this machine (never a URL, database or service a data provider would contact), and no request
leaves without the user's say (processing/rating.py `cache_only`).
"""

import json
import math
import os

from osgeo import ogr
from qgis.core import (
    QgsApplication,
    QgsProcessingException,
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterFile,
    QgsProcessingParameterMapLayer,
    QgsProcessingParameterMultipleLayers,
    QgsProcessingParameterRasterLayer,
    QgsProcessingParameterVectorLayer,
)

from ..i18n_util import tr
from .runs import read_runs

# What can be run again: the algorithms that ask a model and write the rated layers.
REPRODUCIBLE = ("geobias:ratelocations", "geobias:survey")
# Parameters the reproduction sets itself, never taken from the file.
OWN = ("OUTPUT", "CACHE", "AUTH_CONFIG")
_LAYER_TYPES = (
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterFile,
    QgsProcessingParameterMapLayer,
    QgsProcessingParameterMultipleLayers,
    QgsProcessingParameterRasterLayer,
    QgsProcessingParameterVectorLayer,
)
# Tables every run writes anew or that say how, not what: never compared.
SKIP_TABLES = ("runs", "layer_styles")
# Fields that say when or how long, not what.
SKIP_FIELDS = ("started", "finished", "created")
REPRODUCTION_FIELDS = {
    "table": ogr.OFTString,
    "field": ogr.OFTString,
    "n_rows": ogr.OFTInteger,
    "n_differ": ogr.OFTInteger,
    "max_abs_diff": ogr.OFTReal,
}


def find_run(path, run_id=""):
    """The runs row of `run_id` in the GeoPackage (empty: its newest reproducible run)."""
    try:
        rows = read_runs(path)
    except RuntimeError as err:  # GDAL with exceptions on (3.40+) raises for a file it cannot read
        raise QgsProcessingException(
            tr("SOURCE: {path} cannot be read as a GeoPackage: {err}").format(path=path, err=err)
        ) from err
    if not rows:
        raise QgsProcessingException(
            tr("SOURCE: {path} holds no runs table: it was not written by GeoBias.").format(
                path=path
            )
        )
    if run_id:
        found = [r for r in rows if r.get("run_id") == run_id]
        if not found:
            raise QgsProcessingException(
                tr("SOURCE: {path} holds no run {run}.").format(path=path, run=run_id)
            )
        row = found[0]
    else:
        rated = [r for r in rows if r.get("algorithm") in REPRODUCIBLE]
        if not rated:
            raise QgsProcessingException(
                tr(
                    "SOURCE: {path} holds no run that asked a model (ratelocations or survey)."
                ).format(path=path)
            )
        row = rated[-1]
    if row.get("algorithm") not in REPRODUCIBLE:
        raise QgsProcessingException(
            tr("Run {run} was made by {alg}; only {known} can be run again.").format(
                run=row.get("run_id"), alg=row.get("algorithm"), known=", ".join(REPRODUCIBLE)
            )
        )
    return row


def recorded_parameters(row):
    """The run's parameters that its algorithm declares, checked: a layer or file must be a
    local file that exists. Raises QgsProcessingException naming the first that is not."""
    alg = QgsApplication.processingRegistry().algorithmById(row["algorithm"])
    if alg is None:
        raise QgsProcessingException(
            tr("The algorithm {alg} is not installed.").format(alg=row["algorithm"])
        )
    try:
        recorded = json.loads(row.get("parameters") or "{}")
    except ValueError as err:
        raise QgsProcessingException(
            tr("The run's parameters cannot be read: {err}").format(err=err)
        ) from err
    if not isinstance(recorded, dict):
        raise QgsProcessingException(tr("The run's parameters cannot be read."))
    out = {}
    for name, value in recorded.items():
        definition = alg.parameterDefinition(str(name))
        if definition is None or name in OWN:
            continue
        if isinstance(definition, _LAYER_TYPES) and value not in (None, ""):
            for one in value if isinstance(value, list) else [value]:
                _check_local(name, one)
        out[name] = value
    return out


def _check_local(name, value):
    """A layer or file parameter must name a file that exists here ("path|layername=x" too)."""
    text = str(value)
    path = text.split("|", 1)[0]
    if (
        "://" in path
        or path.startswith(("/vsi", "memory:", "postgres", "PG:"))
        or not (os.path.isfile(path))
    ):
        raise QgsProcessingException(
            tr("The run's {name} is {value}, not a file on this machine: reproducing reads "
               "only local files. Put the file where the run had it, or run the algorithm "
               "yourself.").format(name=name, value=text[:200])
        )  # fmt: skip


def _tables(path):
    try:
        ds = ogr.Open(path)
    except RuntimeError:  # GDAL with exceptions on
        ds = None
    if ds is None:
        raise QgsProcessingException(tr("Cannot open {path}.").format(path=path))
    names = [ds.GetLayerByIndex(i).GetName() for i in range(ds.GetLayerCount())]
    return ds, [n for n in names if n not in SKIP_TABLES and not n.startswith("gpkg_")]


def _rows(layer):
    defn = layer.GetLayerDefn()
    names = [defn.GetFieldDefn(i).GetName() for i in range(defn.GetFieldCount())]
    rows = [{n: f.GetField(n) for n in names if n not in SKIP_FIELDS} for f in layer]
    key = "pid" if "pid" in names else None
    if key is not None:
        rows.sort(key=lambda r: (r.get(key) is None, r.get(key), str(r.get("language", ""))))
    return rows


def _same(a, b):
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


def compare_outputs(source, reproduced):
    """Figure by figure: per table and field of the source (but the runs), how many rows
    differ and the largest numeric difference. Returns a list of dict rows (table, field,
    n_rows, n_differ, max_abs_diff) and whether everything is identical."""
    src, names = _tables(source)
    rep, rep_names = _tables(reproduced)
    out = []
    identical = True
    for name in names:
        a = _rows(src.GetLayerByName(name))
        if name not in rep_names:
            out.append({"table": name, "field": "", "n_rows": len(a), "n_differ": len(a),
                        "max_abs_diff": None})  # fmt: skip
            identical = False
            continue
        b = _rows(rep.GetLayerByName(name))
        fields = list(a[0]) if a else []
        if len(a) != len(b):
            out.append({"table": name, "field": "", "n_rows": len(a),
                        "n_differ": abs(len(a) - len(b)), "max_abs_diff": None})  # fmt: skip
            identical = False
        for field in fields:
            differ, biggest = 0, None
            for ra, rb in zip(a, b):
                va, vb = ra.get(field), rb.get(field)
                if _same(va, vb):
                    continue
                differ += 1
                if isinstance(va, (int, float)) and isinstance(vb, (int, float)):
                    d = abs(float(va) - float(vb))
                    biggest = d if biggest is None or d > biggest else biggest
            identical = identical and differ == 0
            out.append({"table": name, "field": field, "n_rows": len(a), "n_differ": differ,
                        "max_abs_diff": biggest})  # fmt: skip
    src = rep = None
    return out, identical
