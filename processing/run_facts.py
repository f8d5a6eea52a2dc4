"""What a result measured: the study area as the user gave it, ground truth and anchor named
`layer.field`, the model, endpoint, prompt, score kind, date and versions.

The same facts go into an output GeoPackage's `runs` row (processing/runs.py), its layers'
metadata (styles.describe_layer) and the report (report_layout.py). The dock knows the area as
the user gave it and passes its description (STUDY_AREA); from the toolbox or `qgis_process`
the description comes from the parameters: the REGION layer's name and selection, the EXTENT,
or the world. The area in km² and the extent always come from the region's geometry.
"""

import json
import os
from dataclasses import dataclass
from urllib.parse import urlsplit

from qgis.core import (
    QgsCoordinateTransformContext,
    QgsDistanceArea,
    QgsGeometry,
    QgsRectangle,
)

from ..i18n_util import tr
from ..paths import DATA
from .crs import WGS84

__all__ = [
    "EARTH_KM2",
    "FACT_FIELDS",
    "StudyArea",
    "area_km2",
    "endpoint_text",
    "fact_rows",
    "language_text",
    "features_description",
    "layer_field",
    "layer_label",
    "region_description",
    "study_area",
]

# Surface of the WGS84 ellipsoid in km²: an area at least 98 % of it is the whole world.
EARTH_KM2 = 510_065_622.0
# Outlines kept in a runs row are simplified to about this many vertices.
MAX_OUTLINE_VERTICES = 2000
# The bundled layers' files -> the names the facts give them (the dock shows them with
# "(GeoBias)" to tell them from a user's own layers; a fact names the data).
BUNDLED_LABELS = {
    "world_countries.gpkg": "Countries",
    "admin1.gpkg": "Regions",
    "us_counties.gpkg": "US counties",
}
# Fields of the runs table holding these facts (the rest are the run's own: model, endpoint…).
FACT_FIELDS = ("study_area", "study_area_km2", "study_area_extent", "study_area_wkt", "truth",
               "anchor", "score_kind")  # fmt: skip
# Field names a region layer may name its features by, first found wins.
NAME_FIELDS = ("name", "name_en", "admin", "name_long", "geounit", "county", "state", "nom")


def bundled_labels():
    """The bundled layers' names, translated (literal tr() calls for the translation tools)."""
    return {
        "world_countries.gpkg": tr("Countries"),
        "admin1.gpkg": tr("Regions"),
        "us_counties.gpkg": tr("US counties"),
    }


@dataclass
class StudyArea:
    """Where the points were sampled: the user's words, the size and the lon/lat extent."""

    description: str
    km2: float = None
    extent: tuple = None  # (lon0, lat0, lon1, lat1)
    wkt: str = ""  # the outline in EPSG:4326, simplified

    @property
    def world(self):
        """The whole globe (no region, or one covering nearly all of it)."""
        if self.km2 is not None and self.km2 >= 0.98 * EARTH_KM2:
            return True
        if self.extent is None:
            return False
        x0, y0, x1, y1 = self.extent
        return x1 - x0 >= 359.0 and y1 - y0 >= 170.0

    def fields(self):
        """The study area's fields of a runs row."""
        return {
            "study_area": self.description,
            "study_area_km2": None if self.km2 is None else float(self.km2),
            "study_area_extent": " ".join(f"{v:.6f}" for v in self.extent) if self.extent else "",
            "study_area_wkt": self.wkt,
        }

    @classmethod
    def from_fields(cls, row):
        """The study area a runs row records, or None when it records none."""
        if not row or not row.get("study_area"):
            return None
        extent = None
        try:
            values = [float(v) for v in str(row.get("study_area_extent") or "").split()]
            extent = tuple(values) if len(values) == 4 else None
        except ValueError:
            pass
        km2 = row.get("study_area_km2")
        try:
            km2 = None if km2 in (None, "") else float(km2)
        except (TypeError, ValueError):
            km2 = None
        return cls(str(row["study_area"]), km2, extent, str(row.get("study_area_wkt") or ""))

    def text(self):
        """The area in words: 'a polygon drawn on the map, 30,221,532 km² (longitude -17.50° to
        51.30°, latitude -34.80° to 37.30°)'; just the description for the world."""
        if self.world or self.extent is None:
            return self.description
        x0, y0, x1, y1 = self.extent
        where = tr("longitude {x0:.2f}° to {x1:.2f}°, latitude {y0:.2f}° to {y1:.2f}°").format(
            x0=x0, x1=x1, y0=y0, y1=y1
        )
        if self.km2 is None:
            return f"{self.description} ({where})"
        return tr("{what}, {km2} km² ({where})").format(
            what=self.description, km2=f"{self.km2:,.0f}", where=where
        )


def area_km2(geom):
    """Area of a lon/lat QgsGeometry on the WGS84 ellipsoid, in km².

    Measured per hemisphere of longitude: a polygon spanning all 360° (the whole world) has
    no area for QgsDistanceArea.
    """
    da = QgsDistanceArea()
    # A context of its own: lon/lat on the WGS84 ellipsoid needs no datum transformation, and
    # algorithms measure in a task's thread, away from the project's.
    da.setSourceCrs(WGS84, QgsCoordinateTransformContext())
    if not da.setEllipsoid("EPSG:7030"):
        raise RuntimeError("PROJ does not know the WGS84 ellipsoid (EPSG:7030): a broken install")
    total = 0.0
    for west in (-180, 0):
        part = geom.intersection(QgsGeometry.fromRect(QgsRectangle(west, -90, west + 180, 90)))
        if not part.isEmpty():
            total += da.measureArea(part)
    return total / 1e6


def outline_wkt(geom):
    """The outline as WKT, simplified to about MAX_OUTLINE_VERTICES vertices (a runs row and
    a report map need its shape, not every vertex of a coastline)."""
    tolerance = 0.001
    while geom.constGet() is not None and geom.constGet().nCoordinates() > MAX_OUTLINE_VERTICES:
        simpler = geom.simplify(tolerance)
        if simpler.isEmpty():
            break
        geom = simpler
        tolerance *= 2
    # Vertices every degree: an edge straight in lon/lat (as sampled) curves on an equal-area map.
    return geom.densifyByDistance(1.0).asWkt(4)


def study_area(description, region=None):
    """A StudyArea from the user's description and the region as a lon/lat shapely geometry or
    QgsGeometry (None: the whole world)."""
    if region is None:
        return StudyArea(description or tr("the world"), None, (-180.0, -90.0, 180.0, 90.0))
    geom = region if isinstance(region, QgsGeometry) else QgsGeometry.fromWkt(region.wkt)
    if geom.isEmpty():
        return StudyArea(description or tr("the world"))
    box = geom.boundingBox()
    area = StudyArea(description, area_km2(geom),
                     (box.xMinimum(), box.yMinimum(), box.xMaximum(), box.yMaximum()))  # fmt: skip
    if area.world:
        area.description = description or tr("the world")
        return area
    area.wkt = outline_wkt(geom)
    return area


def layer_label(layer):
    """The name a fact gives a layer: its name in the project, or for a bundled layer the
    name of its data ("Countries")."""
    source = layer.source() if hasattr(layer, "source") else str(layer)
    path = source.split("|")[0]
    if os.path.dirname(os.path.realpath(path)) == os.path.realpath(DATA):
        label = bundled_labels().get(os.path.basename(path))
        if label:
            return label
    return layer.name() if hasattr(layer, "name") else os.path.splitext(os.path.basename(path))[0]


def layer_field(layer_name, field):
    """`Countries.infant_mortality`: a value's layer and field ("" without a field)."""
    if not field:
        return ""
    return f"{layer_name}.{field}" if layer_name else field


def features_description(layer_name, names, count, selected):
    """A study area made of a layer's features: "Countries: Kenya, Uganda, Tanzania (3
    selected features)", or the layer's name when all its features make it."""
    if not selected:
        return layer_name
    shown = ", ".join(names[:5]) + (", …" if len(names) > 5 else "")
    if count == 1:
        what = tr("1 selected feature")
    else:
        what = tr("{n} selected features").format(n=count)
    return f"{layer_name}: {shown} ({what})" if shown else f"{layer_name} ({what})"


def feature_names(layer, request):
    """Names of a layer's features (from its first name-like field), for a description."""
    fields = {f.name().lower(): f.name() for f in layer.fields()}
    field = next((fields[n] for n in NAME_FIELDS if n in fields), None)
    if field is None:
        return []
    return [str(f[field]) for f in layer.getFeatures(request) if f[field] not in (None, "")]


def region_description(alg, parameters, context, region_key="REGION", extent_key="EXTENT"):
    """How a Processing run names its study area when no description is given: the REGION
    layer's name (with its selected features), the EXTENT, or the world."""
    from qgis.core import (
        QgsFeatureRequest,
        QgsProcessingFeatureSourceDefinition,
        QgsProcessingUtils,
        QgsVectorLayer,
    )

    value = parameters.get(region_key)
    if value is not None and value != "":
        selected = False
        if isinstance(value, QgsProcessingFeatureSourceDefinition):  # a layer and a selection
            selected = value.selectedFeaturesOnly
            ref = value.source.staticValue() if hasattr(value.source, "staticValue") else ""
            layer = QgsProcessingUtils.mapLayerFromString(str(ref), context)
        else:
            layer = alg.parameterAsVectorLayer(parameters, region_key, context)
        if isinstance(layer, QgsVectorLayer):
            request = QgsFeatureRequest()
            if selected:
                request.setFilterFids(layer.selectedFeatureIds())
                count = layer.selectedFeatureCount()
            else:
                count = layer.featureCount()
            request.setFlags(QgsFeatureRequest.Flag.NoGeometry)
            names = feature_names(layer, request) if selected else []
            label = layer_label(layer)
            if layer.subsetString():  # a filtered layer: say which of its features
                label = f"{label} [{layer.subsetString()}]"
            return features_description(label, names, count, selected)
        source = alg.parameterAsSource(parameters, region_key, context)
        if source is not None:
            return source.sourceName()
    if parameters.get(extent_key):
        crs = alg.parameterAsExtentCrs(parameters, extent_key, context)
        name = crs.authid() if crs.isValid() else "EPSG:4326"
        return tr("an extent ({crs})").format(crs=name)
    return tr("the world")


def endpoint_text(row):
    """The provider and where requests went ('ollama at localhost:11434/v1'), from a runs
    row's public endpoint; never a credential (user, password, query string)."""
    provider = (row or {}).get("provider") or ""
    try:
        public = json.loads((row or {}).get("endpoint") or "{}")
    except ValueError:
        public = {}
    url = public.get("base_url") if isinstance(public, dict) else ""
    where = ""
    if url:
        parts = urlsplit(url)
        host = parts.hostname or ""
        if parts.port:
            host = f"{host}:{parts.port}"
        where = host + parts.path.rstrip("/")
    if not where:
        where = ((row or {}).get("endpoint_host") or "").rpartition("@")[2]
    if provider and where:
        return tr("{provider} at {where}").format(provider=provider, where=where)
    return provider or where


def score_kind_text(kind):
    """A score kind key as words."""
    return {
        "expected": tr("expected value (from log-probabilities)"),
        "greedy": tr("greedy rating"),
        "auto": tr("automatic (the expected value where the endpoint gives log-probabilities)"),
    }.get(kind or "", kind or "")


def language_text(codes):
    """Prompt language codes ("fr", or "fr; es" for a table of several) as their names with
    the code: "Français (French) [fr]"; an unknown code as itself."""
    from ..core.survey.languages import get_language
    from .language_choices import language_label

    out = []
    for code in [c.strip() for c in str(codes).split(";") if c.strip()]:
        try:
            out.append(f"{language_label(get_language(code))} [{code}]")
        except (KeyError, ValueError, OSError):
            out.append(code)
    return "; ".join(out)


def fact_rows(row, model="", topic="", score_kind="", n_points=None, n_truth=None):
    """(label, value) rows stating what a result measured, from its runs row; `model`,
    `topic`, `score_kind` and counts from the data override or complete the row."""
    row = row or {}
    none = tr("none")
    area = StudyArea.from_fields(row)
    area_text = area.text() if area is not None else tr("not recorded")
    if n_points is not None:
        area_text = tr("{area}; {n} points").format(area=area_text, n=n_points)
    truth = row.get("truth") or ""
    if truth and n_truth is not None:
        truth = tr("{truth} ({n} points with a value)").format(truth=truth, n=n_truth)
    date = str(row.get("started") or "")[:10]  # the run's day (UTC)
    version = row.get("plugin_version") or ""
    qgis = row.get("qgis_version") or ""
    rows = [
        (tr("Study area"), area_text),
        (tr("Model"), model or row.get("model") or tr("not recorded")),
    ]
    if topic:
        rows.append((tr("Topic"), topic))
    if row.get("language"):  # a run in prompt languages other than English alone
        rows.append((tr("Prompt language"), language_text(row["language"])))
    rows += [
        (tr("Endpoint"), endpoint_text(row) or tr("not recorded")),
        (tr("Prompt preset"), row.get("template_name") or tr("not recorded")),
        (tr("Score"), score_kind_text(score_kind or row.get("score_kind")) or tr("not recorded")),
        (tr("Ground truth"), truth or none),
        (tr("Anchor"), row.get("anchor") or none),
        (tr("Date"), date or tr("not recorded")),
        (tr("Made with"), tr("GeoBias {v}, QGIS {q}").format(v=version or "?", q=qgis or "?")),
    ]
    return rows
