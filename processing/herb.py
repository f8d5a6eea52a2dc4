"""geobias:herb — hierarchical regional bias (HERB, Li et al. 2022) of a language model, on a map.

Builds the region hierarchy (the bundled GeoNames continents → countries → cities, or the user's
nested polygon layers), scores every sentence "People in <region> are <descriptor>." through the
score cache, aggregates C up the hierarchy with core.herb, and writes one GeoPackage: a layer per
level (Natural Earth countries, continents dissolved from them, cities as points, or the user's
polygons), the descriptor table and the runs table, with graduated styles saved in it. Nothing is
written before every score is in: a cancelled run keeps its scores in the cache and resumes.
"""

import json
import os
import re

import numpy as np
from osgeo import ogr, osr
from qgis.core import (
    QgsCoordinateTransform,
    QgsFeatureRequest,
    QgsGeometry,
    QgsGraduatedSymbolRenderer,
    QgsProcessing,
    QgsProcessingException,
    QgsProcessingOutputMultipleLayers,
    QgsProcessingOutputNumber,
    QgsProcessingOutputString,
    QgsProcessingParameterAuthConfig,
    QgsProcessingParameterBoolean,
    QgsProcessingParameterEnum,
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterField,
    QgsProcessingParameterFile,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterNumber,
    QgsProcessingParameterString,
    QgsProject,
    QgsRendererRange,
    QgsSymbol,
    QgsVectorLayer,
    QgsWkbTypes,
)

from ..core.descriptors import DEFAULT_TEMPLATE, DescriptorError, load_descriptors, topics_of
from ..core.hierarchy import Hierarchy, HierarchyError, geonames_hierarchy
from ..i18n_util import QT_TRANSLATE_NOOP, tr
from ..paths import DATA
from .base import GeoBiasAlgorithm
from .layers import WGS84, _open_gpkg, write_points_layer, write_table
from .rate_locations import api_key_from_auth, default_cache_path, load_outputs
from .runs import append_runs, now, run_record
from .styles import _ramp, delete_saved_styles, quantile_breaks, short_model

SCOPES = ("world", "layers", "parent_field")
SCORERS = ("embedded", "llamacpp", "echo", "transformers")
COUNTRIES = os.path.join(DATA, "world_countries.gpkg") + "|layername=countries"
# The embedded SmolLM2's scorer (prefix sharing, 2 slots) on 2 idle cores: 14.5 sentences/s in
# bench_herb.py and 14.6 in make demo-herb (docs/core-api.md); a loaded machine is far slower.
EMBEDDED_RATE = 14.0
LEGEND_C = QT_TRANSLATE_NOOP(
    "@default", "regional bias C (higher = more inconsistent judgements of its sub-regions)"
)
LEGEND_C_Z = QT_TRANSLATE_NOOP(
    "@default", "regional bias C_z, pair weights from name likelihoods (higher = more inconsistent)"
)
LEGEND_DEV = QT_TRANSLATE_NOOP(
    "@default", "distance from its sibling regions (higher = judged more unlike them)"
)
# Saved styles: name, legend title, field drawn. The first with values is the default.
HERB_STYLES = (("c_w", LEGEND_C, "c_w"), ("c_z", LEGEND_C_Z, "c_z"), ("deviation", LEGEND_DEV,
               "deviation"))  # fmt: skip
DESCRIPTOR_FIELDS = {
    "region_id": ogr.OFTString,
    "region": ogr.OFTString,
    "level": ogr.OFTString,
    "descriptor": ogr.OFTString,
    "topic": ogr.OFTString,
    "score": ogr.OFTReal,
    "v": ogr.OFTReal,
    "deviation": ogr.OFTReal,
}


def field_name(text):
    """A lower-case [a-z0-9_] column or table name."""
    return re.sub(r"_+", "_", re.sub(r"[^a-z0-9]", "_", str(text).lower())).strip("_") or "x"


def region_fields(topics):
    """Fields of every region layer (and the regions table): the issue's public contract."""
    fields = {"region_id": ogr.OFTString, "level": ogr.OFTString, "region": ogr.OFTString,
              "parent": ogr.OFTString, "c_w": ogr.OFTReal, "c_z": ogr.OFTReal}  # fmt: skip
    fields.update({f"c_{field_name(t)}": ogr.OFTReal for t in topics})
    fields.update({f"c_wo_{field_name(t)}": ogr.OFTReal for t in topics})
    fields.update({"z": ogr.OFTReal, "n_children": ogr.OFTInteger, "deviation": ogr.OFTReal,
                   "flat": ogr.OFTReal})  # fmt: skip
    return fields


# ---------------------------------------------------------------- scope


def world_scope(continents=None, min_population=None, max_cities=None):
    """The bundled GeoNames hierarchy, scoped; max_cities 0 stops at countries."""
    try:
        return geonames_hierarchy(min_population or None, continents or None, max_cities)
    except HierarchyError as err:
        known = "Africa, Asia, Europe, North America, Oceania, South America"
        raise QgsProcessingException(
            tr("{err}; the continents are: {known}.").format(err=err, known=known)
        ) from err


def _text(value):
    return "" if value is None or str(value) == "NULL" else " ".join(str(value).split())


def layer_regions(levels, context=None):
    """A hierarchy and each region's WGS 84 geometry from nested layers.

    levels: [(source, name_field, id_field, parent_field, level_name)] from the top level down;
    a region's parent_field holds an id (id_field, or the name without one) of the level
    above. One level with a parent field is a parent-id table within that layer.
    """
    ids, names, parents, geoms = [], [], [], []
    single = len(levels) == 1
    ctx = context.transformContext() if context is not None else QgsProject.instance()
    for k, (source, name_field, id_field, parent_field, _level) in enumerate(levels):
        if source is None:
            raise QgsProcessingException(tr("Layer {k} of the scope is missing.").format(k=k + 1))
        ct = QgsCoordinateTransform(source.sourceCrs(), WGS84, ctx)
        for field in (name_field, id_field, parent_field):
            if field and source.fields().lookupField(field) < 0:
                raise QgsProcessingException(
                    tr("Layer {k} has no field {f}.").format(k=k + 1, f=field)
                )
        layer_ids = set()
        for f in source.getFeatures(QgsFeatureRequest()):
            name = _text(f[name_field])
            if not name:
                raise QgsProcessingException(
                    tr("A region of layer {k} (feature {fid}) has no name in field {f}.").format(
                        k=k + 1, fid=f.id(), f=name_field
                    )
                )
            rid = _text(f[id_field]) if id_field else name
            parent = _text(f[parent_field]) if parent_field else ""
            if not single and k > 0 and not parent:
                raise QgsProcessingException(
                    tr("Region {name} of layer {k} has no parent in field {f}: every region "
                       "of a lower layer must name its parent.").format(
                        name=name, k=k + 1, f=parent_field
                    )
                )  # fmt: skip
            ids.append(rid if single else f"{k}:{rid}")
            layer_ids.add(rid)
            names.append(name)
            parents.append(parent if single or not parent else f"{k - 1}:{parent}")
            g = QgsGeometry(f.geometry())
            if not g.isNull():
                g.transform(ct)
                g.convertToMultiType()
            geoms.append(g)
        if not single and k > 0:
            above = {i.split(":", 1)[1] for i in ids if i.startswith(f"{k - 1}:")}
            for name, p in zip(names, parents):
                if p.startswith(f"{k - 1}:") and p.split(":", 1)[1] not in above:
                    raise QgsProcessingException(
                        tr("Region {name} of layer {k} names parent {p}, which is no id of layer "
                           "{j}.").format(name=name, k=k + 1, p=p.split(":", 1)[1], j=k)
                    )  # fmt: skip
    if single and not any(parents):
        raise QgsProcessingException(
            tr("No region has a parent: the layer has no parent relation (choose its parent "
               "field, or give two or three nested layers).")
        )  # fmt: skip
    level_names = tuple(lv[4] for lv in levels) if not single else ()
    try:
        h = Hierarchy.from_parent_ids(ids, names, parents, level_names)
    except HierarchyError as err:
        raise QgsProcessingException(
            tr("The regions do not form a hierarchy: {err}").format(err=err)
        ) from err
    return h, geoms


def world_geometries(h, feedback=None):
    """Countries from the bundled Natural Earth layer by ISO code, continents dissolved from
    them, cities as points (None where Natural Earth has no such country)."""
    layer = QgsVectorLayer(COUNTRIES, "countries", "ogr")
    by_code = {}
    for f in layer.getFeatures():
        by_code.setdefault(str(f["iso_a2"]), []).append(QgsGeometry(f.geometry()))
    geoms = [None] * len(h)
    top = h.top_ancestor()
    for i in range(len(h)):
        if h.depth[i] == 1:
            parts = by_code.get(h.code[i] if h.code else "", [])
            geoms[i] = QgsGeometry.unaryUnion(parts) if parts else None
    for i in np.flatnonzero(h.depth == 0):
        if feedback is not None and feedback.isCanceled():
            break
        # The continent's own countries in Natural Earth, dissolved; not the scoped ones only.
        code = h.code[i] if h.code else ""
        parts = [g for c, gs in by_code.items() for g in gs if _continent(c) == code]
        parts = parts or [geoms[j] for j in np.flatnonzero(top == i) if geoms[j] is not None]
        geoms[i] = QgsGeometry.unaryUnion(parts) if parts else None
    for g in geoms:
        if g is not None:
            g.convertToMultiType()
    return geoms


_CONTINENT_OF = {}


def _continent(iso_a2):
    """GeoNames continent code of an ISO country code (from the full bundled hierarchy)."""
    if not _CONTINENT_OF:
        full = geonames_hierarchy()
        for i in np.flatnonzero(full.depth == 1):
            _CONTINENT_OF[full.code[i]] = full.code[int(full.parent[i])]
    return _CONTINENT_OF.get(iso_a2)


# ---------------------------------------------------------------- scorers


# HERB's embedded scorer stays SmolLM2 (the rating survey's default became Gemma 3 270M in
# issue 17): HERB's measured rates, its tests and make demo-herb are SmolLM2's, and the smaller
# model scores the thousands of sentences faster.
HERB_EMBEDDED_MODEL = "smollm2-135m"


def make_scorer(kind, url="", model="", api_key=None, concurrency=2, feedback=None):
    """A core scorer; for the embedded model, one on the shared local server."""
    from ..core.scorers import (
        ChildMaskedLMScorer,
        EchoCompletionsScorer,
        LlamaCppScorer,
        ScorerError,
    )

    try:
        if kind == "embedded":
            from ..core.embedded import shared_port, shared_server
            from ..host import embedded_python

            if shared_port() is None and feedback is not None:
                feedback.pushInfo(tr("Starting the embedded local model on 127.0.0.1 ..."))
            server = shared_server(embedded_python(), model=HERB_EMBEDDED_MODEL)
            ep = server.endpoint(concurrency=min(concurrency, server.parallel))
            return LlamaCppScorer.from_endpoint(ep), ep.host()
        if kind in ("llamacpp", "echo") and not url:
            raise QgsProcessingException(tr("Give the server's URL."))
        if kind == "llamacpp":
            sc = LlamaCppScorer(url, api_key, concurrency=concurrency)
            return sc, _host(url)
        if kind == "echo":
            from ..core.llm import Endpoint

            if not model:
                raise QgsProcessingException(tr("Give the model name the server serves."))
            ep = Endpoint(model=model, provider="custom", base_url=url, api_key=api_key,
                          concurrency=concurrency)  # fmt: skip
            return EchoCompletionsScorer(ep), ep.host()
        if not model:
            raise QgsProcessingException(tr("Give the transformers model's folder or name."))
        # torch is native code: the model runs in a child process, never in QGIS's.
        from ..host import embedded_python

        if feedback is not None:
            feedback.pushInfo(tr("Loading the masked language model in a child process ..."))
        return ChildMaskedLMScorer(model, threads=2, python=embedded_python()), "local"
    except ScorerError as err:
        raise QgsProcessingException(tr("The scorer cannot start: {err}").format(err=err)) from err
    except QgsProcessingException:
        raise
    except Exception as err:  # noqa: BLE001 - the embedded model's start failures, any kind
        raise QgsProcessingException(tr("The scorer cannot start: {err}").format(err=err)) from err


def _host(url):
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    return parts.netloc or url


def probe_scorer(scorer, sentence):
    """Score one sentence first: a server that gives no log-probabilities for the sentence's
    own tokens (a chat-only endpoint, no echo) fails here, before anything is run or written."""
    from ..core.scorers import ScorerError

    try:
        (out,) = scorer.score_batch([sentence])
    except ScorerError as err:
        out = None
        why = str(err)
    else:
        why = out.error
    if out is None or out.error:
        raise QgsProcessingException(
            tr("The model cannot score sentences: {why}. HERB needs the log-probability of "
               "every token of a sentence: the embedded model, a llama.cpp server, a "
               "/v1/completions endpoint with echo and logprobs (vLLM), or a local masked "
               "LM; a chat-only endpoint cannot give them.").format(why=why)
        )  # fmt: skip
    return out


# ---------------------------------------------------------------- writing


def _summary(result):
    """Per region: mean |V - centroid| over descriptors (NaN for top-level regions' root)."""
    return np.asarray(result.deviation, float).mean(axis=1)


def region_records(result):
    """Field dicts of every region (root first), keyed by the hierarchy row (root: -1)."""
    h = result.hierarchy
    dev = _summary(result)
    out = {}
    for r in result.region_rows():
        is_root = r.row == result.root
        rec = {"region_id": "" if is_root else h.ids[r.row], "level": r.level,
               "region": r.region, "parent": r.parent, "c_w": r.C_w, "c_z": r.C_z,
               "z": r.z, "n_children": r.n_children, "flat": r.flat,
               "deviation": np.nan if is_root else float(dev[r.row])}  # fmt: skip
        for t, v in r.topic_C_w.items():
            rec[f"c_{field_name(t)}"] = v
        for t, v in r.without_C_w.items():
            rec[f"c_wo_{field_name(t)}"] = v
        out[-1 if is_root else r.row] = rec
    return out


def write_polygon_layer(path, name, fields, records, geoms):
    """A multipolygon layer (EPSG:4326) of region records; a region without geometry is kept."""
    ds = _open_gpkg(path)
    if ds.GetLayerByName(name) is not None:
        ds.DeleteLayer(name)
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(4326)
    layer = ds.CreateLayer(name, srs, ogr.wkbMultiPolygon, options=["FID=fid"])
    for fname, ftype in fields.items():
        layer.CreateField(ogr.FieldDefn(fname, ftype))
    defn = layer.GetLayerDefn()
    ds.StartTransaction()
    for rec, g in zip(records, geoms):
        feat = ogr.Feature(defn)
        for fname in fields:
            v = rec.get(fname)
            if v is None or (isinstance(v, float) and v != v):
                continue
            feat.SetField(fname, v.item() if hasattr(v, "item") else v)
        if g is not None and not g.isNull():
            feat.SetGeometry(ogr.CreateGeometryFromWkb(bytes(g.asWkb())))
        layer.CreateFeature(feat)
    ds.CommitTransaction()
    ds = None
    return f"{path}|layername={name}"


def write_descriptor_table(path, result):
    """The region x descriptor table (score, v, deviation), inserted in one transaction."""
    import sqlite3
    from contextlib import closing

    name = "herb_descriptors"
    write_table(path, name, [], DESCRIPTOR_FIELDS)  # OGR creates the table and its metadata
    h, words = result.hierarchy, result.descriptors
    rows = (
        (h.ids[r], h.names[r], h.level_name(r), d.word, d.topic, float(result.scores[r, i]),
         float(result.v[r, i]), float(result.deviation[r, i]))
        for r in range(len(h)) for i, d in enumerate(words)
    )  # fmt: skip
    cols = ", ".join(f'"{c}"' for c in DESCRIPTOR_FIELDS)
    with closing(sqlite3.connect(path)) as db, db:
        db.executemany(f'INSERT INTO "{name}" ({cols}) VALUES ({", ".join("?" * 8)})', rows)
    return f"{path}|layername={name}"


def write_results(path, result, geoms, feedback=None):
    """All layers and tables of a HERB run; returns ({uri: display name}, regions table uri)."""
    h = result.hierarchy
    topics = topics_of(result.descriptors)
    fields = region_fields(topics)
    recs = region_records(result)
    uris = {}
    for d in range(h.n_levels):
        rows = [int(i) for i in np.flatnonzero(h.depth == d)]
        level = h.level_names[d] if d < len(h.level_names) else f"level {d}"
        table = f"herb_{d}_{field_name(level)}"  # e.g. herb_1_country: no clash with the tables
        records = [recs[i] for i in rows]
        # GeoNames cities have points and no polygons; every other level has polygons.
        is_point = h.lon is not None and all(geoms[i] is None for i in rows)
        if is_point:
            cols = {f: [r.get(f) for r in records] for f in fields}
            cols = {f: np.array(v, float) if fields[f] == ogr.OFTReal else v
                    for f, v in cols.items()}  # fmt: skip
            cols["lon"], cols["lat"] = h.lon[rows].astype(float), h.lat[rows].astype(float)
            uri = write_points_layer(path, table, cols, fields)
        else:
            uri = write_polygon_layer(path, table, fields, records, [geoms[i] for i in rows])
        styles = style_herb_layer(QgsVectorLayer(uri, table, "ogr"))
        legend = dict((s, lg) for s, lg, _f in HERB_STYLES).get(styles[0] if styles else "c_w")
        uris[uri] = tr("{level}: {legend}").format(level=level.capitalize(), legend=tr(legend))
        if feedback is not None:
            feedback.pushInfo(tr("Wrote layer {t} ({n} regions).").format(t=table, n=len(rows)))
    regions = write_table(path, "herb_regions", [recs[-1]] + [recs[i] for i in range(len(h))],
                          fields)  # fmt: skip
    write_descriptor_table(path, result)
    return uris, regions


def herb_renderer(layer, field, values=None):
    """Graduated colours by quantiles of `field` (YlOrRd: darker = more biased), highest first."""
    if values is None:
        values = [f[field] for f in layer.getFeatures()]
    values = np.array([np.nan if v is None or str(v) == "NULL" else float(v) for v in values])
    breaks = quantile_breaks(values, 5)
    if len(breaks) < 2:
        return None
    ramp = _ramp("YlOrRd")
    spans = list(zip(breaks[:-1], breaks[1:]))[::-1]
    n = len(spans)
    ranges = []
    eps = 1e-12
    for i, (lo, hi) in enumerate(spans):
        symbol = QgsSymbol.defaultSymbol(layer.geometryType())
        symbol.setColor(ramp.color((n - 1 - i) / (n - 1) if n > 1 else 0.5))
        if layer.geometryType() == QgsWkbTypes.GeometryType.PointGeometry:  # visible points
            symbol.setSize(2.4)
        label = f"{lo:.4f}–{hi:.4f}"
        ranges.append(QgsRendererRange(float(lo) - eps, float(hi) + eps, symbol, label))
    renderer = QgsGraduatedSymbolRenderer(field, ranges)
    renderer.setSourceColorRamp(ramp.clone())
    return renderer


def style_herb_layer(layer, save=True):
    """Save the HERB styles (C_w default where any region has one, else the deviation);
    returns the saved styles' names, the default first."""
    if not layer.isValid():
        return []
    columns = {f: [ft[f] for ft in layer.getFeatures()] for _s, _l, f in HERB_STYLES}
    made = []
    for style, legend, field in HERB_STYLES:
        renderer = herb_renderer(layer, field, columns[field])
        if renderer is not None:
            made.append((style, legend, renderer))
    if not made:
        return []
    if save:
        delete_saved_styles(layer, [s for s, _l, _f in HERB_STYLES])
    for style, legend, renderer in made[1:] + made[:1]:  # the default saved last
        layer.setRenderer(renderer)
        meta = layer.metadata()
        meta.setTitle(tr(legend))
        layer.setMetadata(meta)
        if save:
            layer.saveStyleToDatabase(style, tr(legend), style == made[0][0], "")
    return [s for s, _l, _r in made]


def format_c_table(result, limit=60):
    """Regions and their C_w / C_z as a text table (root first, then by level)."""
    lines = [f"{'level':<10} {'region':<32} {'parent':<20} {'C_w':>8} {'C_z':>8} {'kids':>4}"]
    for r in result.region_rows()[:limit]:
        if r.n_children < 2 and r.level != "root":
            continue
        lines.append(f"{r.level[:10]:<10} {r.region[:32]:<32} {r.parent[:20]:<20} "
                     f"{r.C_w:8.4f} {r.C_z:8.4f} {r.n_children:4d}")  # fmt: skip
    return "\n".join(lines)


def format_estimate(est, host, scope_text):
    """The line shown before a run: sentences, requests after the cache, host, time."""
    if est.seconds is None:
        when = tr("time unknown (no measured rate for this scorer)")
    elif est.seconds < 90:
        when = tr("about {s:.0f} s").format(s=est.seconds)
    elif est.seconds < 5400:
        when = tr("about {m:.0f} min").format(m=est.seconds / 60)
    else:
        when = tr("about {h:.1f} h").format(h=est.seconds / 3600)
    return tr(
        "{scope}: {n} sentences, {c} already cached, {r} requests to {host}; {t}."
    ).format(scope=scope_text, n=est.n_sentences, c=est.n_cached, r=est.n_requests, host=host,
             t=when)  # fmt: skip


class HerbAlgorithm(GeoBiasAlgorithm):
    NAME = "herb"
    DISPLAY = QT_TRANSLATE_NOOP("@default", "Regional bias (HERB)")
    GROUP = "herb"
    USES_GEOS = False  # QGIS's own geometry (dissolves) and OGR; no shapely

    def help_text(self):
        return tr(
            "Hierarchical regional bias (HERB, Li et al. 2022) of a language model. Each region "
            "is described by how likely the model finds 'People in <region> are <descriptor>.' "
            "for 112 descriptors in 5 topics; C of a region measures how inconsistently the "
            "model judges its sub-regions (their descriptive vectors' weighted distances), "
            "aggregated up the hierarchy to the Earth. Scope: the bundled GeoNames continents → "
            "countries → cities (a population threshold, at most N largest cities per country, "
            "a subset of continents), or your own nested polygon layers (2–3 layers whose lower "
            "layers name their parent's id, or one layer with a parent field). Model: the "
            "embedded model (the default, runs out of the box), a llama.cpp server, a "
            "/v1/completions endpoint with echo and logprobs (vLLM), or a local transformers "
            "masked LM (the paper's models). Scores of a causal LM are not comparable with the "
            "paper's masked-LM numbers. Writes one GeoPackage: a layer per level with c_w, c_z, "
            "c_<topic> (that topic only), c_wo_<topic> (without it), z, n_children, styled by "
            "C; the herb_descriptors and herb_regions tables and a runs table. Scores are "
            "cached: a cancelled run resumes. 'Only estimate' prints the number of sentences, "
            "the requests still needed and the time, and writes nothing."
        )

    def initAlgorithm(self, config=None):
        self.addParameter(
            QgsProcessingParameterEnum(
                "SCOPE", tr("Regions"),
                [tr("World: continents → countries → cities (bundled GeoNames)"),
                 tr("My nested layers (2–3 layers, each naming its parent)"),
                 tr("One layer with a parent field")], defaultValue=0,
            )
        )  # fmt: skip
        self.addParameter(
            QgsProcessingParameterString(
                "CONTINENTS", tr("World: continents (separated by ;, empty = all six)"), "",
                optional=True,
            )
        )  # fmt: skip
        self.addParameter(
            QgsProcessingParameterNumber(
                "MIN_POPULATION", tr("World: cities with at least this population"),
                defaultValue=15000, minValue=0,
            )
        )  # fmt: skip
        self.addParameter(
            QgsProcessingParameterNumber(
                "MAX_CITIES", tr("World: largest cities per country (0 = stop at countries)"),
                defaultValue=2, minValue=0,
            )
        )  # fmt: skip
        for k in (1, 2, 3):
            self.addParameter(
                QgsProcessingParameterFeatureSource(
                    f"LAYER_{k}", tr("Layer {k} (top level first)").format(k=k),
                    [QgsProcessing.SourceType.TypeVectorPolygon], optional=True,
                )
            )  # fmt: skip
            self.addParameter(
                QgsProcessingParameterField(
                    f"NAME_FIELD_{k}", tr("Layer {k}: region name field").format(k=k),
                    parentLayerParameterName=f"LAYER_{k}", optional=True,
                )
            )  # fmt: skip
            self.addParameter(
                QgsProcessingParameterField(
                    f"ID_FIELD_{k}", tr("Layer {k}: region id field (empty: the name)").format(k=k),
                    parentLayerParameterName=f"LAYER_{k}", optional=True,
                )
            )  # fmt: skip
            self.addParameter(
                QgsProcessingParameterField(
                    f"PARENT_FIELD_{k}",
                    tr("Layer {k}: parent id field (the id of a region one layer up; with one "
                       "layer, of the same layer)").format(k=k),
                    parentLayerParameterName=f"LAYER_{k}", optional=True,
                )
            )  # fmt: skip
        self.addParameter(
            QgsProcessingParameterEnum(
                "SCORER", tr("Model"),
                [tr("Embedded local model"), tr("llama.cpp server (URL)"),
                 tr("/v1/completions with echo and logprobs (URL and model, e.g. vLLM)"),
                 tr("transformers masked LM (model folder or name)")], defaultValue=0,
            )
        )  # fmt: skip
        self.addParameter(QgsProcessingParameterString("URL", tr("Server URL"), "", optional=True))
        self.addParameter(
            QgsProcessingParameterString(
                "MODEL", tr("Model name (echo endpoint) or transformers folder"), "",
                optional=True,
            )
        )  # fmt: skip
        self.addParameter(
            QgsProcessingParameterAuthConfig(
                "AUTH_CONFIG", tr("API key (QGIS authentication configuration)"), optional=True
            )
        )
        self.addParameter(
            QgsProcessingParameterNumber(
                "CONCURRENCY", tr("Concurrent requests"), defaultValue=2, minValue=1,
                maxValue=64,
            )
        )  # fmt: skip
        self.addParameter(
            QgsProcessingParameterFile(
                "DESCRIPTORS", tr("Descriptors (topic<TAB>word lines; empty: the paper's 112)"),
                optional=True, fileFilter=tr("Text files (*.txt *.tsv)"),
            )
        )  # fmt: skip
        self.addParameter(
            QgsProcessingParameterString("TEMPLATE", tr("Sentence template"), DEFAULT_TEMPLATE)
        )
        self.addParameter(
            QgsProcessingParameterString(
                "TOPICS", tr("Descriptor topics to include (separated by ;, empty = all)"), "",
                optional=True,
            )
        )  # fmt: skip
        self.addParameter(
            QgsProcessingParameterBoolean(
                "REFERENCE_CODE", tr("Reproduce the published code's numbers (its bugs)"), False
            )
        )
        self.addParameter(
            QgsProcessingParameterFile(
                "CACHE", tr("Score cache (empty: the survey cache in the QGIS profile)"),
                optional=True, fileFilter=tr("SQLite (*.sqlite)"),
            )
        )  # fmt: skip
        self.addParameter(
            QgsProcessingParameterBoolean(
                "ESTIMATE_ONLY", tr("Only estimate (score nothing, write nothing)"), False
            )
        )
        self.addParameter(
            QgsProcessingParameterFileDestination(
                "OUTPUT", tr("HERB GeoPackage"), tr("GeoPackage (*.gpkg)")
            )
        )
        self.addOutput(QgsProcessingOutputMultipleLayers("OUTPUT_LAYERS", tr("Region layers")))
        self.addOutput(QgsProcessingOutputString("DESCRIPTOR_TABLE", tr("Descriptor table URI")))
        self.addOutput(QgsProcessingOutputString("REGION_TABLE", tr("Region table URI")))
        self.addOutput(QgsProcessingOutputNumber("C_ROOT", tr("C of the Earth (C_w)")))
        self.addOutput(QgsProcessingOutputNumber("N_SENTENCES", tr("Sentences")))
        self.addOutput(QgsProcessingOutputNumber("N_TO_SCORE", tr("Sentences not yet cached")))
        self.addOutput(QgsProcessingOutputString("ESTIMATE", tr("Estimate")))

    # -- reading the parameters

    def read_scope(self, parameters, context):
        """(hierarchy, geometries or None for world, scope text)."""
        scope = SCOPES[self.parameterAsEnum(parameters, "SCOPE", context)]
        if scope == "world":
            text = self.parameterAsString(parameters, "CONTINENTS", context)
            continents = [c.strip() for c in text.split(";") if c.strip()]
            min_pop = self.parameterAsInt(parameters, "MIN_POPULATION", context)
            max_cities = self.parameterAsInt(parameters, "MAX_CITIES", context)
            h = world_scope(continents, min_pop, max_cities)
            what = ", ".join(continents) if continents else tr("the world")
            return h, None, tr("{what}, {n} regions").format(what=what, n=len(h))
        levels = []
        for k in (1,) if scope == "parent_field" else (1, 2, 3):
            source = self.parameterAsSource(parameters, f"LAYER_{k}", context)
            if source is None:
                if k <= (1 if scope == "parent_field" else 2):
                    raise QgsProcessingException(tr("Give layer {k} of the scope.").format(k=k))
                continue
            name_f = self.parameterAsString(parameters, f"NAME_FIELD_{k}", context)
            if not name_f:
                raise QgsProcessingException(
                    tr("Choose the region name field of layer {k}.").format(k=k)
                )
            id_f = self.parameterAsString(parameters, f"ID_FIELD_{k}", context)
            parent_f = self.parameterAsString(parameters, f"PARENT_FIELD_{k}", context)
            if (k > 1 or scope == "parent_field") and not parent_f:
                raise QgsProcessingException(
                    tr("Choose the parent id field of layer {k}: without it the layers have no "
                       "parent relation.").format(k=k)
                )  # fmt: skip
            level = source.sourceName() or f"level {k}"
            levels.append((source, name_f, id_f, parent_f, level))
        h, geoms = layer_regions(levels, context)
        return h, geoms, tr("{n} regions of your layers").format(n=len(h))

    def read_descriptors(self, parameters, context):
        path = self.parameterAsFile(parameters, "DESCRIPTORS", context)
        try:
            words = load_descriptors(path or None)
        except DescriptorError as err:
            raise QgsProcessingException(str(err)) from err
        text = self.parameterAsString(parameters, "TOPICS", context)
        wanted = [t.strip() for t in text.split(";") if t.strip()]
        if wanted:
            unknown = [t for t in wanted if t not in topics_of(words)]
            if unknown:
                raise QgsProcessingException(
                    tr("Unknown topics {u}; the descriptors have: {k}.").format(
                        u=", ".join(unknown), k=", ".join(topics_of(words))
                    )
                )
            words = [d for d in words if d.topic in wanted]
        return words

    def processAlgorithm(self, parameters, context, feedback):
        from ..core.cache import CacheError, ScoreCache
        from ..core.herb import AggregationError
        from ..core.herb_run import (
            HerbSpec,
            IncompleteScoresError,
            estimate,
            plan,
        )
        from ..core.herb_run import run as run_herb

        started = now()
        path = self.parameterAsFileOutput(parameters, "OUTPUT", context)
        h, geoms, scope_text = self.read_scope(parameters, context)
        words = self.read_descriptors(parameters, context)
        template = self.parameterAsString(parameters, "TEMPLATE", context) or DEFAULT_TEMPLATE
        reference = self.parameterAsBool(parameters, "REFERENCE_CODE", context)
        only_estimate = self.parameterAsBool(parameters, "ESTIMATE_ONLY", context)
        kind = SCORERS[self.parameterAsEnum(parameters, "SCORER", context)]
        url = self.parameterAsString(parameters, "URL", context).strip()
        model = self.parameterAsString(parameters, "MODEL", context).strip()
        api_key = api_key_from_auth(self.parameterAsString(parameters, "AUTH_CONFIG", context))
        concurrency = self.parameterAsInt(parameters, "CONCURRENCY", context)
        cache_path = self.parameterAsFile(parameters, "CACHE", context) or default_cache_path()
        try:
            from ..core.descriptors import validate_template

            validate_template(template)
        except DescriptorError as err:
            raise QgsProcessingException(str(err)) from err
        if h.n_levels < 2:
            raise QgsProcessingException(
                tr("The scope has one level only: HERB needs regions and their sub-regions.")
            )
        try:
            cache = ScoreCache(cache_path)
        except CacheError as err:
            raise QgsProcessingException(str(err)) from err
        scorer, host = make_scorer(kind, url, model, api_key, concurrency, feedback)
        try:
            spec = HerbSpec(h, scorer, words, template)
            try:
                sentences = plan(spec).sentences
            except (DescriptorError, ValueError) as err:
                raise QgsProcessingException(str(err)) from err
            rate = EMBEDDED_RATE if kind == "embedded" else None
            est = estimate(spec, cache, rate)
            text = format_estimate(est, host, scope_text)
            feedback.pushInfo(text)
            results = {"N_SENTENCES": est.n_sentences, "N_TO_SCORE": est.n_to_score,
                       "ESTIMATE": text}  # fmt: skip
            if only_estimate:
                return dict(results, OUTPUT=None, OUTPUT_LAYERS=[])
            if est.n_to_score:
                probe_scorer(scorer, sentences[0])

            def progress(p):
                feedback.setProgress(90.0 * p.done / max(p.total, 1))
                feedback.setProgressText(
                    tr("{d}/{t} sentences, {r:.1f}/s, {m:.0f} min left").format(
                        d=p.done, t=p.total, r=p.rate, m=p.eta_s / 60
                    )
                )

            try:
                result = run_herb(spec, cache, progress, feedback.isCanceled, reference)
            except IncompleteScoresError as err:
                raise QgsProcessingException(
                    tr("{err} (scores so far are kept in the cache; nothing was written)").format(
                        err=err
                    )
                ) from err
            except AggregationError as err:
                raise QgsProcessingException(str(err)) from err
        finally:
            scorer.close()
            cache.close()
        feedback.setProgressText(tr("Writing the region layers…"))
        if geoms is None:
            geoms = world_geometries(h, feedback)
        uris, regions = write_results(path, result, geoms, feedback)
        record = run_record(
            self.id(), parameters, started, None, None, topics_of(words),
            model=getattr(scorer, "identity", ""), provider=kind, endpoint_host=host,
            template_body=template, n_points=len(h), n_requests=est.n_requests,
            n_cached=est.n_cached, n_failed=0, status="complete",
        )  # fmt: skip
        record["endpoint"] = json.dumps(
            {"scorer": kind, "host": host, "rule": scorer.rule, "reference_code": reference}
        )
        append_runs(path, [record])
        load_outputs(context, uris)
        feedback.pushInfo(format_c_table(result))
        model_name = short_model(getattr(scorer, "identity", "").replace("gguf:", ""))
        feedback.pushInfo(tr("Model: {m}").format(m=model_name))
        results.update(OUTPUT=path, OUTPUT_LAYERS=list(uris), REGION_TABLE=regions,
                       DESCRIPTOR_TABLE=f"{path}|layername=herb_descriptors",
                       C_ROOT=float(result.C_w[result.root]))  # fmt: skip
        return results
