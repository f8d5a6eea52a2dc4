"""The golden test's view of an algorithm's outputs: readable JSON, and a tolerant comparison.

A snapshot keeps what a run must reproduce and leaves out what changes from run to run:

- GeoPackages: every table's fields, field types and rows (geometries as coordinates; in a
  layer of more than MAX_VERTICES vertices, such as the countries, each geometry as a
  fingerprint: vertex count, bounding box and a hash of its coordinates to 9 decimals), the
  saved styles (name, default, renderer kind, field and classes, not their QML) and the layer
  metadata's rights and licences. The `runs` table loses run_id, started, finished,
  plugin_version, qgis_version and manifest.
- PDF: page count and text (pdftotext); PNG: width and height; JSONL: the parsed lines;
  CSV, Markdown and text: their lines.
- Every string: the run's own folders, endpoint URL and loopback ports are replaced by
  placeholders, dates by <DATE>, the plugin's and QGIS's versions by <VERSION>.

Numbers compare with a relative tolerance RTOL (absolute ATOL near zero); numbers inside text
(a PDF's, a Markdown table's) are compared the same way, the words around them exactly.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import struct
import subprocess
import unicodedata
import xml.etree.ElementTree as ET

# Outputs are deterministic (fixed seeds, answers from the caches): a tolerance of 1e-9 only
# absorbs last-digit differences of floating point sums between builds of numpy and BLAS.
RTOL = 1e-9
ATOL = 1e-12
MAX_VERTICES = 5000  # per layer
VOLATILE_RUN_COLUMNS = (
    "run_id",
    "started",
    "finished",
    "plugin_version",
    "qgis_version",
    "manifest",
)  # the manifest holds versions, the commit, the Python
NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")


class Scrubber:
    """Replaces what differs between runs and machines in a string by a placeholder: the given
    texts (folders, URL, "GeoBias <version>"), loopback ports and dates."""

    def __init__(self, replacements: dict[str, str]):
        # Longest first, so a folder inside another is replaced as a whole.
        self.replacements = sorted(
            ((k, v) for k, v in replacements.items() if k), key=lambda kv: -len(kv[0])
        )

    def text(self, s: str) -> str:
        for old, new in self.replacements:
            s = s.replace(old, new)
        s = re.sub(r"\b(127\.0\.0\.1|localhost):\d+", r"\1:<PORT>", s)
        return re.sub(r"\b\d{4}-\d{2}-\d{2}(?:T[0-9:.]+(?:Z|[+-]\d{2}:\d{2})?)?\b", "<DATE>", s)

    def __call__(self, obj):
        if isinstance(obj, str):
            return self.text(obj)
        if isinstance(obj, dict):
            return {self.text(str(k)): self(v) for k, v in obj.items()}
        if isinstance(obj, (list, tuple)):
            return [self(v) for v in obj]
        return plain(obj)


def plain(v):
    """A JSON-safe scalar: NaN and infinities as strings, numpy scalars as Python ones."""
    if hasattr(v, "item") and not isinstance(v, (list, dict, str)):
        v = v.item()
    if isinstance(v, float) and not math.isfinite(v):
        return "NaN" if math.isnan(v) else ("Inf" if v > 0 else "-Inf")
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    return str(v)


# ---------------------------------------------------------------- files


def _points(g) -> list:
    """Every vertex of an OGR geometry, in order."""
    n = g.GetGeometryCount()
    if n:
        return [p for i in range(n) for p in _points(g.GetGeometryRef(i))]
    return list(g.GetPoints() or [])


def _coordinates(g):
    n = g.GetGeometryCount()
    if n:
        return [_coordinates(g.GetGeometryRef(i)) for i in range(n)]
    pts = [list(p) for p in g.GetPoints() or []]
    return pts[0] if g.GetGeometryName() == "POINT" else pts


def geometry(g, fingerprint: bool = False):
    """An OGR geometry's coordinates as nested lists (a point: [x, y]), or with `fingerprint`
    its vertex count, bounding box and a hash of its coordinates to 9 decimals."""
    if g is None or g.IsEmpty():
        return None
    if not fingerprint:
        return {"type": g.GetGeometryName(), "coordinates": _coordinates(g)}
    flat = _points(g)
    digest = hashlib.sha256()
    for p in flat:
        digest.update(struct.pack("<2q", *(round(c * 1e9) for c in p[:2])))
    xmin, xmax, ymin, ymax = g.GetEnvelope()
    return {"type": g.GetGeometryName(), "n_vertices": len(flat),
            "bbox": [xmin, ymin, xmax, ymax], "sha256_1e-9": digest.hexdigest()[:16]}  # fmt: skip


def _value(feature, i):
    if not feature.IsFieldSetAndNotNull(i):
        return None
    return feature.GetField(i)


def style_summary(qml: str) -> dict:
    """A saved style's renderer: kind, field and classes (not colours or QML details)."""
    try:
        root = ET.fromstring(qml)
    except ET.ParseError:
        return {"qml": "unreadable"}
    renderer = root.find(".//renderer-v2")
    if renderer is None:
        return {"renderer": None}
    out = {"renderer": renderer.get("type"), "attr": renderer.get("attr")}
    ranges = renderer.find("ranges")
    if ranges is not None:
        out["ranges"] = [[r.get("label"), _num(r.get("lower")), _num(r.get("upper"))]
                         for r in ranges.findall("range")]  # fmt: skip
    categories = renderer.find("categories")
    if categories is not None:
        out["categories"] = [[c.get("value"), c.get("label")]
                             for c in categories.findall("category")]  # fmt: skip
    return out


def _num(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return text


def metadata_summary(xml: str) -> dict:
    """The rights, licences and attribution a layer's metadata gives (its credits)."""
    try:
        root = ET.fromstring(xml)
    except ET.ParseError:
        return {"xml": "unreadable"}
    out = {}
    for tag in ("title", "abstract", "rights", "license", "attribution"):
        texts = [e.text.strip() for e in root.iter(tag) if e.text and e.text.strip()]
        if texts:
            out[tag] = texts
    return out


def gpkg(path: str) -> dict:
    """Every table of a GeoPackage: fields, types, rows; styles and metadata summarised."""
    import sqlite3
    from contextlib import closing

    from osgeo import ogr

    ds = ogr.Open(path)
    if ds is None:
        return {"error": "not readable by OGR"}
    tables = {}
    for k in range(ds.GetLayerCount()):
        layer = ds.GetLayer(k)
        name = layer.GetName()
        if name == "layer_styles":
            continue
        defn = layer.GetLayerDefn()
        fields = [defn.GetFieldDefn(i) for i in range(defn.GetFieldCount())]
        keep = [i for i, f in enumerate(fields)
                if not (name == "runs" and f.GetName() in VOLATILE_RUN_COLUMNS)]  # fmt: skip
        has_geom = layer.GetGeomType() != ogr.wkbNone
        geom_column = ["geometry"] if has_geom else []
        srs = layer.GetSpatialRef()
        doc = {
            "geometry": ogr.GeometryTypeToName(layer.GetGeomType()) if has_geom else None,
            "crs": None,
            "columns": ["fid", *(fields[i].GetName() for i in keep)] + geom_column,
            "types": ["fid", *(fields[i].GetTypeName() for i in keep)] + geom_column,
        }
        if srs is not None:
            doc["crs"] = f"{srs.GetAuthorityName(None)}:{srs.GetAuthorityCode(None)}"
        rows, geoms = [], []
        layer.ResetReading()
        for feat in layer:
            rows.append([feat.GetFID()] + [_value(feat, i) for i in keep])
            g = feat.GetGeometryRef()
            geoms.append(g.Clone() if g is not None else None)
        if has_geom:
            # A layer of large polygons (the countries) is fingerprinted, not written out.
            big = sum(len(_points(g)) for g in geoms if g is not None) > MAX_VERTICES
            for row, g in zip(rows, geoms):
                row.append(geometry(g, fingerprint=big))
        doc["rows"] = rows
        tables[name] = doc
    ds = None
    out = {"tables": tables}
    with closing(sqlite3.connect(path)) as con:
        names = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "layer_styles" in names:
            rows = con.execute(
                "SELECT f_table_name, styleName, useAsDefault, description, styleQML "
                "FROM layer_styles ORDER BY f_table_name, styleName"
            ).fetchall()
            out["styles"] = [[t, s, int(d or 0), desc, style_summary(q or "")]
                             for t, s, d, desc, q in rows]  # fmt: skip
        if "gpkg_metadata" in names and "gpkg_metadata_reference" in names:
            rows = con.execute(
                "SELECT r.table_name, m.metadata FROM gpkg_metadata_reference r "
                "JOIN gpkg_metadata m ON m.id = r.md_file_id ORDER BY r.table_name, m.id"
            ).fetchall()
            out["metadata"] = [[t, metadata_summary(x or "")] for t, x in rows]
    return out


def pdf(path: str) -> dict:
    """Pages of a PDF (poppler's pdfinfo) and each page's words (pdftotext) as one string:
    where a font's metrics wrap a line, or whether it draws "fi" as a ligature, does not
    count."""
    info = subprocess.run(["pdfinfo", path], capture_output=True, text=True, check=True).stdout
    pages = int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", path, "-"], capture_output=True,
                          text=True, check=True).stdout  # fmt: skip
    words = [" ".join(unicodedata.normalize("NFKC", page).split())
             for page in text.split("\f")[:pages]]  # fmt: skip
    return {"pages": pages, "text": words}


def png(path: str) -> dict:
    """Width and height of a PNG (from its header; pixels are not compared)."""
    with open(path, "rb") as f:
        head = f.read(24)
    width, height = struct.unpack(">II", head[16:24])
    return {"png": [width, height]}


def snapshot_file(path: str) -> dict:
    """The snapshot of one output file, by its kind."""
    ext = os.path.splitext(path)[1].lower()
    if ext == ".gpkg":
        return gpkg(path)
    if ext == ".pdf":
        return pdf(path)
    if ext == ".png":
        return png(path)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if ext == ".jsonl":
        return {"lines": [json.loads(line) for line in text.splitlines() if line.strip()]}
    return {"lines": text.splitlines()}


def output_files(value, work: str) -> list[str]:
    """Files under `work` that an algorithm's result value names (URIs, lists, folders)."""
    found = []
    values = value if isinstance(value, (list, tuple)) else [value]
    for v in values:
        if not isinstance(v, str):
            continue
        for part in re.split(r"[;\n]", v):
            path = part.split("|")[0].strip()
            if not path or not os.path.abspath(path).startswith(work + os.sep):
                continue
            if os.path.isdir(path):
                for root, _dirs, files in sorted(os.walk(path)):
                    found += [os.path.join(root, f) for f in sorted(files)]
            elif os.path.isfile(path):
                found.append(path)
    return found


# ---------------------------------------------------------------- JSON


def dumps(obj, indent: int = 0) -> str:
    """JSON with one table row, coordinate list or text line per line: diffs stay readable."""
    pad = " " * indent
    if isinstance(obj, dict):
        if not obj:
            return "{}"
        items = [f'{pad} {json.dumps(k, ensure_ascii=False)}: {dumps(v, indent + 1)}'
                 for k, v in obj.items()]  # fmt: skip
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(obj, list):
        if not obj or all(not isinstance(v, (list, dict)) for v in obj) and len(obj) <= 40:
            return json.dumps(obj, ensure_ascii=False)
        items = [pad + " " + (dumps(v, indent + 1) if isinstance(v, dict)
                              else json.dumps(v, ensure_ascii=False)) for v in obj]  # fmt: skip
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    return json.dumps(obj, ensure_ascii=False)


# ---------------------------------------------------------------- comparing


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def close(a: float, b: float) -> bool:
    return a == b or abs(a - b) <= ATOL + RTOL * max(abs(a), abs(b))


def same_text(a: str, b: str) -> bool:
    """Equal text, or equal words with numbers equal within the tolerance."""
    if a == b:
        return True
    if NUMBER.sub("#", a) != NUMBER.sub("#", b):
        return False
    na, nb = NUMBER.findall(a), NUMBER.findall(b)
    return len(na) == len(nb) and all(close(float(x), float(y)) for x, y in zip(na, nb))


def differences(want, got, path: str = "", out: list | None = None, limit: int = 25) -> list:
    """Where `got` differs from `want` (paths and both values), at most `limit` of them."""
    out = [] if out is None else out
    if len(out) >= limit:
        return out
    if isinstance(want, dict) and isinstance(got, dict):
        for k in sorted(set(want) | set(got)):
            if k not in got:
                out.append(f"{path}/{k}: missing")
            elif k not in want:
                out.append(f"{path}/{k}: not in the recording: {str(got[k])[:300]}")
            else:
                differences(want[k], got[k], f"{path}/{k}", out, limit)
    elif isinstance(want, list) and isinstance(got, list):
        if len(want) != len(got):
            out.append(f"{path}: {len(got)} items instead of {len(want)}")
        for i, (a, b) in enumerate(zip(want, got)):
            differences(a, b, f"{path}[{i}]", out, limit)
    elif _is_number(want) and _is_number(got):
        if not close(float(want), float(got)):
            out.append(f"{path}: {got!r} instead of {want!r}")
    elif isinstance(want, str) and isinstance(got, str):
        if not same_text(want, got):
            i = next((i for i, (a, b) in enumerate(zip(want, got)) if a != b), 0)
            i = max(0, min(i, len(want), len(got)) - 60)
            cut = "…" if i else ""
            out.append(f"{path}: {cut}{got[i : i + 240]!r} instead of {cut}{want[i : i + 240]!r}")
    elif want != got:
        out.append(f"{path}: {got!r} instead of {want!r}")
    return out
