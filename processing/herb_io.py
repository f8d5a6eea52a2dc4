"""HERB's QGIS side: regions from the bundled hierarchy or nested layers, their geometries,
the written region layers and tables, their styles and the run's texts."""

import numpy as np
from osgeo import ogr, osr
from qgis.core import (
    Qgis,
    QgsCoordinateTransform,
    QgsFeatureRequest,
    QgsGeometry,
    QgsGraduatedSymbolRenderer,
    QgsProcessingException,
    QgsProject,
    QgsRendererRange,
    QgsSymbol,
    QgsVectorLayer,
    QgsWkbTypes,
)

from ..core.herb.descriptors import topics_of
from ..core.herb.hierarchy import Hierarchy, HierarchyError, geonames_hierarchy
from ..i18n_util import QT_TRANSLATE_NOOP, message_text, tr
from ..paths import COUNTRIES
from .crs import WGS84
from .gpkg import open_gpkg, safe_name, write_points_layer, write_table
from .progress import estimate_text, span_text
from .styles import delete_saved_styles, quantile_breaks, ramp

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
    return safe_name(text)


def region_fields(topics):
    """Fields of every region layer (and the regions table): the issue's public contract."""
    fields = {"region_id": ogr.OFTString, "level": ogr.OFTString, "region": ogr.OFTString,
              "parent": ogr.OFTString, "c_w": ogr.OFTReal, "c_z": ogr.OFTReal}  # fmt: skip
    fields.update({f"c_{field_name(t)}": ogr.OFTReal for t in topics})
    fields.update({f"c_wo_{field_name(t)}": ogr.OFTReal for t in topics})
    fields.update({"z": ogr.OFTReal, "n_children": ogr.OFTInteger, "deviation": ogr.OFTReal,
                   "flat": ogr.OFTReal})  # fmt: skip
    return fields


def world_scope(continents=None, min_population=None, max_cities=None):
    """The bundled GeoNames hierarchy, scoped; max_cities 0 stops at countries."""
    try:
        return geonames_hierarchy(min_population or None, continents or None, max_cities)
    except HierarchyError as err:
        known = "Africa, Asia, Europe, North America, Oceania, South America"
        raise QgsProcessingException(
            tr("{err}; the continents are: {known}.").format(err=message_text(err), known=known)
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
                if g.transform(ct) != Qgis.GeometryOperationResult.Success:
                    raise QgsProcessingException(
                        tr("Region {name} of layer {k} cannot be transformed to WGS 84 "
                           "(EPSG:4326).").format(name=name, k=k + 1)
                    )  # fmt: skip
                if not g.convertToMultiType():  # fails only for a null geometry
                    raise QgsProcessingException(
                        tr("Region {name} of layer {k} has no usable geometry.").format(
                            name=name, k=k + 1
                        )
                    )
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
            tr("The regions do not form a hierarchy: {err}").format(err=message_text(err))
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
        # A union that failed is a null geometry, written without a shape as before.
        if g is not None and not g.isNull() and not g.convertToMultiType():
            raise QgsProcessingException(tr("A region's shape could not be made a multipolygon."))
    return geoms


_CONTINENT_OF = {}


def _continent(iso_a2):
    """GeoNames continent code of an ISO country code (from the full bundled hierarchy)."""
    if not _CONTINENT_OF:
        full = geonames_hierarchy()
        for i in np.flatnonzero(full.depth == 1):
            _CONTINENT_OF[full.code[i]] = full.code[int(full.parent[i])]
    return _CONTINENT_OF.get(iso_a2)


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
    ds = open_gpkg(path)
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
    colours = ramp("YlOrRd")
    spans = list(zip(breaks[:-1], breaks[1:]))[::-1]
    n = len(spans)
    ranges = []
    eps = 1e-12
    for i, (lo, hi) in enumerate(spans):
        symbol = QgsSymbol.defaultSymbol(layer.geometryType())
        symbol.setColor(colours.color((n - 1 - i) / (n - 1) if n > 1 else 0.5))
        if layer.geometryType() == QgsWkbTypes.GeometryType.PointGeometry:  # visible points
            symbol.setSize(2.4)
        label = f"{lo:.4f}–{hi:.4f}"
        ranges.append(QgsRendererRange(float(lo) - eps, float(hi) + eps, symbol, label))
    renderer = QgsGraduatedSymbolRenderer(field, ranges)
    renderer.setSourceColorRamp(colours.clone())
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


def format_estimate(est, host, scope_text, model="", timed=0, runs=0):
    """The line shown before a run: sentences, requests after the cache, model and host, and
    the time as a range from the rate measured on this machine (`timed` sentences scored just
    now to measure it; else `runs` earlier runs; else unknown)."""
    if est.left is None:
        when = tr("time unknown until the first sentences are timed on this machine")
    elif est.left.seconds <= 0:
        when = tr("nothing left to score")
    elif timed:
        when = tr("about {span} (rate measured now on this machine, on {k} sentences)").format(
            span=span_text(est.left.low, est.left.high), k=timed
        )
    else:
        when = estimate_text(est.left, runs)
    if host == "local":  # scored in the model's own child process: no requests, no host
        return tr(
            "{scope}: {n} sentences, {c} already cached, scored by {model} on this computer; {t}."
        ).format(scope=scope_text, n=est.n_sentences, c=est.n_cached, model=model or "?",
                 t=when)  # fmt: skip
    if getattr(est, "n_tokenize", 0):  # a llama.cpp server: why requests outnumber sentences
        return tr(
            "{scope}: {n} sentences, {c} already cached, {r} requests to {model} on {host} "
            "({s} to score the {u} uncached sentences and {k} to tokenize them, one per batch "
            "of {b}); {t}."
        ).format(scope=scope_text, n=est.n_sentences, c=est.n_cached, r=est.n_requests,
                 s=est.n_requests - est.n_tokenize, u=est.n_to_score, k=est.n_tokenize,
                 b=est.batch_size, model=model or "?", host=host, t=when)  # fmt: skip
    return tr(
        "{scope}: {n} sentences, {c} already cached, {r} requests to {model} on {host}; {t}."
    ).format(scope=scope_text, n=est.n_sentences, c=est.n_cached, r=est.n_requests,
             model=model or "?", host=host, t=when)  # fmt: skip
