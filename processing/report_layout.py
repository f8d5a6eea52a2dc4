"""The report's print layout: pages, maps zoomed to the study area, metrics, plots, hot spots,
attributions and what was sent; exported to PDF and PNG, kept in the project."""

import os
from datetime import datetime, timezone

import numpy as np
from osgeo import ogr, osr
from qgis.core import (
    Qgis,
    QgsCoordinateReferenceSystem,
    QgsCoordinateTransform,
    QgsFillSymbol,
    QgsLayoutExporter,
    QgsLayoutFrame,
    QgsLayoutItemLabel,
    QgsLayoutItemLegend,
    QgsLayoutItemManualTable,
    QgsLayoutItemMap,
    QgsLayoutItemPage,
    QgsLayoutItemPicture,
    QgsLayoutItemRegistry,
    QgsLayoutItemScaleBar,
    QgsLayoutPoint,
    QgsLayoutSize,
    QgsLayoutTable,
    QgsLayoutTableColumn,
    QgsLegendRenderer,
    QgsLegendStyle,
    QgsPrintLayout,
    QgsProcessingException,
    QgsProject,
    QgsReadWriteContext,
    QgsRectangle,
    QgsRenderContext,
    QgsScaleBarSettings,
    QgsSingleSymbolRenderer,
    QgsSymbolLayerUtils,
    QgsTableCell,
    QgsTextFormat,
    QgsUnitTypes,
    QgsVectorLayer,
)
from qgis.PyQt import sip
from qgis.PyQt.QtCore import QCoreApplication, QSize
from qgis.PyQt.QtGui import QFont, QFontMetricsF, QImage
from qgis.PyQt.QtXml import QDomDocument

from ..i18n_util import tr
from ..paths import COUNTRIES
from .overlay_styles import lisa_renderer
from .plots import image_of, paint_bias_plot
from .project_layers import add_layer
from .run_facts import StudyArea, fact_rows
from .runs import plugin_version
from .styles import rank_error_renderer, rank_renderer

MM = QgsUnitTypes.LayoutUnit.LayoutMillimeters
# A4 portrait, in mm.
PAGE_W, PAGE_H, MARGIN = 210.0, 297.0, 15.0
WIDTH = PAGE_W - 2 * MARGIN
# Equal Earth's extent in metres (EPSG:8857), for world maps.
EQUAL_EARTH = QgsRectangle(-17243959.06, -8392927.6, 17243959.06, 8392927.6)
# Points spreading wider than this (degrees of longitude or latitude) make a world map.
WORLD_SPAN = 100.0
NORTH_ARROW = "arrows/NorthArrow_02.svg"
# A known study area at least this wide (degrees of longitude) or tall makes a world map.
AREA_WORLD_SPAN = (180.0, 120.0)
# The custom property marking the layers a report adds to the project (its maps' copies of the
# rated points, the countries): the dock never lists them as results to compare.
REPORT_COPY = "geobias/report_copy"


def is_report_copy(layer):
    """Whether a layer is one of a report's own copies (kept for its layout's maps)."""
    return str(layer.customProperty(REPORT_COPY, "")).lower() in ("true", "1")


def iface_running():
    """True inside the QGIS desktop (not qgis_process or a standalone script)."""
    try:
        from qgis.utils import iface
    except ImportError:
        return False
    return iface is not None


def points_box(lon, lat):
    """(lon0, lat0, lon1, lat1) of the finite points, and whether they make a world map."""
    ok = np.isfinite(lon) & np.isfinite(lat)
    if not ok.any():
        raise QgsProcessingException(tr("The rated points have no usable coordinates."))
    lo, la = lon[ok], lat[ok]
    box = (float(lo.min()), float(la.min()), float(lo.max()), float(la.max()))
    world = box[2] - box[0] > WORLD_SPAN or box[3] - box[1] > WORLD_SPAN * 0.6
    return box, world


def map_area(run, lon, lat):
    """(study area, box, world) of the maps: the study area the run records as the user gave
    it, the maps zoomed to it (and to any point outside); without a record, the points' own
    extent, a world map when they spread over the world."""
    box, world = points_box(lon, lat)
    area = StudyArea.from_fields(run)
    if area is None and world:
        return StudyArea(tr("the world"), None, (-180.0, -90.0, 180.0, 90.0)), box, world
    if area is None:
        return StudyArea(tr("the extent of the rated points"), None, box), box, world
    if area.world:
        return area, (-180.0, -90.0, 180.0, 90.0), True
    if area.extent is not None:
        x0, y0, x1, y1 = area.extent
        box = (min(x0, box[0]), min(y0, box[1]), max(x1, box[2]), max(y1, box[3]))
    world = box[2] - box[0] >= AREA_WORLD_SPAN[0] or box[3] - box[1] >= AREA_WORLD_SPAN[1]
    return area, box, world


def map_crs(box, world):
    """Equal Earth for the world; a Lambert azimuthal equal-area projection centred on the
    points for a continent or smaller (equal areas, and a scale bar that holds near the
    centre)."""
    if world:
        return QgsCoordinateReferenceSystem("EPSG:8857")
    lon0, lat0 = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return QgsCoordinateReferenceSystem.fromProj(
        f"+proj=laea +lat_0={lat0:.4f} +lon_0={lon0:.4f} +x_0=0 +y_0=0 +datum=WGS84 +units=m "
        "+no_defs"
    )


def _fmt(v, pattern="{:.3f}"):
    return "—" if v is None or v != v else pattern.format(v)


def metrics_lines(row):
    """(label, value) rows of the report's metrics table."""

    def ci(name):
        rho = row.get(name)
        if rho is None or rho != rho:
            return "—"
        lo, hi = row.get(name + "_lo"), row.get(name + "_hi")
        if lo is None or lo != lo:
            return f"{rho:+.3f}"
        return f"{rho:+.3f} [{lo:+.3f}, {hi:+.3f}]"

    return [
        (tr("Points"), _fmt(row.get("n_points"), "{}")),
        (tr("Answered"), _fmt(row.get("n_answered"), "{}")),
        (tr("Answer rate"), _fmt(row.get("answer_rate"), "{:.1%}")),
        (tr("Mean absolute deviation (MAD)"), _fmt(row.get("mad"))),
        (tr("Gini coefficient"), _fmt(row.get("gini"))),
        (tr("Points with ground truth"), _fmt(row.get("n_truth"), "{}")),
        (tr("Spearman's rho with truth [95% CI]"), ci("rho_truth")),
        (tr("p-value of rho"), _fmt(row.get("rho_truth_p"), "{:.3g}")),
        (tr("Spearman's rho with the anchor [95% CI]"), ci("rho_anchor")),
        (tr("Bias score B = rho(anchor) · MAD · a²"), _fmt(row.get("bias_score"))),
        (tr("Global Moran's I of the rank errors"), _fmt(row.get("moran_i"))),
        (tr("Moran's I permutation p-value"), _fmt(row.get("moran_p"), "{:.3f}")),
        (tr("Bootstrap"), row.get("bootstrap") or "—"),
    ]


def geobs_text(summary):
    """A sentence of the GeoBS scores of the rank errors ("" without them)."""
    if not summary:
        return ""
    if not summary.get("ssi_n"):
        # No neighbourhood held enough points: dashes would read as a result.
        return tr(
            "Geo-bias scores of the rank errors (GeoBS, Wang et al. 2025): not computed, no "
            "neighbourhood of {r:,.0f} km holds enough points with a ground truth."
        ).format(r=summary.get("radius_km", 0))
    return tr(
        "Geo-bias scores of the rank errors (GeoBS, Wang et al. 2025; neighbourhoods of "
        "{r:,.0f} km): spatial self-information SSI {ssi} nats ({n} centres); relative "
        "information by scale grid {scale}, distance lag {lag}, direction sector {direction} "
        "nats (near 0 when the errors are arranged as by chance)."
    ).format(
        r=summary.get("radius_km", 0), ssi=_fmt(summary.get("ssi"), "{:.2f}"),
        n=summary.get("ssi_n", 0), scale=_fmt(summary.get("sri_scale")),
        lag=_fmt(summary.get("sri_lag")), direction=_fmt(summary.get("sri_direction")),
    )  # fmt: skip


def home_bias_text(row):
    """The home-bias paragraph of a layer asked in a prompt language ("" for other layers):
    H for the countries listing the language first and listing it at all, and whether a claim
    holds (only with signal: rho with the truth's interval excludes 0)."""
    if not row.get("language"):
        return ""
    from .metrics_table import has_signal

    def value(mode):
        h = row.get(f"home_{mode}")
        if h is None or h != h:
            return "—"
        lo, hi = row.get(f"home_{mode}_lo"), row.get(f"home_{mode}_hi")
        if lo is None or lo != lo:
            return f"{h:+.3f}"
        return f"{h:+.3f} [{lo:+.3f}, {hi:+.3f}]"

    if row.get("home_first") is None and row.get("home_listed") is None:
        claim = tr("No claim: without ground truth there are no rank errors.")
    elif has_signal(_Corr(row.get("rho_truth_lo"), row.get("rho_truth_hi"))):
        claim = tr("The ratings carry signal (rho's interval excludes 0).")
    else:
        claim = tr("No home-bias claim: the ratings show no signal (rho's interval spans 0).")
    return tr(
        "Home bias of prompt language {language}: mean rank error in the countries where it is "
        "spoken minus elsewhere (GeoNames' country languages; 95% bootstrap interval over "
        "countries): countries listing it first {first}; listing it at all {listed}. {claim}"
    ).format(language=row["language"], first=value("first"), listed=value("listed"), claim=claim)


class _Corr:
    """lo and hi of rho with the truth, as metrics_table.has_signal reads them."""

    def __init__(self, lo, hi):
        nan = float("nan")
        self.lo = nan if lo is None else float(lo)
        self.hi = nan if hi is None else float(hi)


def disclosure(run):
    """What data this survey sent, and where."""
    if run is None or not (run.get("endpoint_host") or run.get("provider")):
        return tr(
            "Data sent: no GeoBias run record comes with these ratings (imported from a file, or "
            "written by another tool), so this report cannot say what was sent to make them. "
            "GeoBias itself sends, for each point, one prompt (its coordinates, an address made "
            "of GeoNames place names, the names of nearby places, and the topic) to the "
            "configured endpoint only."
        )
    host = run.get("endpoint_host") or "?"
    local = host.split(":")[0] in ("127.0.0.1", "localhost", "::1")
    where = (tr("the embedded model on this computer ({host}): nothing left the machine")
             if local else host).format(host=host)  # fmt: skip
    return tr(
        "Data sent: for each point one prompt (its coordinates, an address made of GeoNames "
        "place names, the names of nearby places, and the topic) went to {where}. No API key "
        "is stored in this report, its layers or its project."
    ).format(where=where)


def attributions(model, country_languages=False):
    """The data credits; `country_languages`: home bias used GeoNames' country languages."""
    text = tr(
        "Place names in the prompts: GeoNames (geonames.org), CC BY 4.0. Country outlines: "
        "Natural Earth (public domain). Bundled indicators: Gapminder, UNICEF, spData (see "
        "resources/data/LICENSE.md)."
    )
    if country_languages:
        text += " " + tr("Country languages (home bias): GeoNames (geonames.org), CC BY 4.0.")
    if model == "gpt-3.5-turbo-0613":
        text += " " + tr(
            "Ratings: GPT-3.5 answers recorded by Manvi et al., 'Large Language Models are "
            "Geographically Biased' (ICML 2024), Apache License 2.0."
        )
    made = tr("Made with GeoBias {v} and QGIS {q}.").format(v=plugin_version(), q=Qgis.QGIS_VERSION)
    return f"{text} {made}"


def _font(size, bold=False):
    font = QFont()
    font.setPointSizeF(size)
    font.setBold(bold)
    return font


def _metrics(size):
    """Font metrics of a text size and the millimetres of one of their units."""
    image = QImage(1, 1, QImage.Format.Format_ARGB32)
    return QFontMetricsF(_font(size), image), 25.4 / image.logicalDpiY()


def _line_mm(size):
    """A table line's height in mm (QGIS sets its text tighter than the font's line spacing)."""
    return size * 25.4 / 72 * 1.1


def _lines(text, size, width_mm):
    """How many lines `text` takes in a column `width_mm` wide (words wrapped)."""
    metrics, mm = _metrics(size)
    lines, used, space = 1, 0.0, metrics.horizontalAdvance(" ") * mm
    for word in text.split():
        w = metrics.horizontalAdvance(word) * mm
        if used and used + space + w > width_mm:
            lines, used = lines + 1, w
        else:
            used += (space if used else 0.0) + w
    return lines


def _text_format(size, bold=False):
    fmt = QgsTextFormat()
    fmt.setFont(_font(size, bold))
    fmt.setSize(size)
    fmt.setSizeUnit(QgsUnitTypes.RenderUnit.RenderPoints)
    return fmt


class ReportBuilder:
    """Builds the print layout page by page; items are placed in mm from each page's top."""

    def __init__(self, project, title, folder):
        self.project, self.title, self.folder = project, title, folder
        self.layout = QgsPrintLayout(project)
        self.layout.initializeDefaults()
        self.layout.setName(title)
        self.layout.pageCollection().page(0).setPageSize(QgsLayoutSize(PAGE_W, PAGE_H, MM))
        self.layers = []

    def page(self):
        """Append a page; returns its index."""
        page = QgsLayoutItemPage(self.layout)
        page.setPageSize(QgsLayoutSize(PAGE_W, PAGE_H, MM))
        self.layout.pageCollection().addPage(page)
        return self.layout.pageCollection().pageCount() - 1

    def place(self, item, page, x, y, w, h):
        self.layout.addLayoutItem(item)
        item.attemptResize(QgsLayoutSize(w, h, MM))
        item.attemptMove(QgsLayoutPoint(x, y, MM), page=page)
        return item

    def label(self, page, text, y, h, size=9.0, bold=False, x=MARGIN, w=WIDTH):
        item = QgsLayoutItemLabel(self.layout)
        item.setText(text)
        if hasattr(item, "setTextFormat"):  # QGIS >= 3.24
            item.setTextFormat(_text_format(size, bold))
        else:
            item.setFont(_font(size, bold))
        return self.place(item, page, x, y, w, h)

    def layer(self, source, name, provider, renderer):
        lyr = QgsVectorLayer(source, name, provider)
        lyr.setRenderer(renderer)
        lyr.setCustomProperty(REPORT_COPY, True)
        self.layers.append(lyr)
        return lyr

    def background(self):
        lyr = QgsVectorLayer(COUNTRIES, tr("Countries"), "ogr")
        lyr.setRenderer(QgsSingleSymbolRenderer(QgsFillSymbol.createSimple(
            {"color": "#f2f2f2", "outline_color": "#b4b4b4", "outline_width": "0.1"})))  # fmt: skip
        lyr.setCustomProperty(REPORT_COPY, True)
        self.layers.append(lyr)
        return lyr

    def map(self, page, y, h, layers, crs, extent, world, legend_title):
        """A map with its legend (below, left), a north arrow and, except on world maps, a
        scale bar (below, right). Returns the bottom of the block in mm."""
        item = QgsLayoutItemMap(self.layout)
        self.place(item, page, MARGIN, y, WIDTH, h)
        item.setCrs(crs)
        item.setLayers(layers)
        item.setKeepLayerSet(True)
        item.setFrameEnabled(True)
        item.zoomToExtent(extent)
        arrow = QgsLayoutItemPicture(self.layout)
        arrow.setPicturePath(QgsSymbolLayerUtils.svgSymbolNameToPath(
            NORTH_ARROW, self.project.pathResolver()))  # fmt: skip
        self.place(arrow, page, MARGIN + WIDTH - 12, y + 2, 10, 12)
        arrow.setLinkedMap(item)
        arrow.setNorthMode(QgsLayoutItemPicture.NorthMode.TrueNorth)
        legend = QgsLayoutItemLegend(self.layout)
        legend.setTitle(legend_title)
        legend.setAutoUpdateModel(False)
        root = legend.model().rootGroup()
        root.removeAllChildren()
        node = root.addLayer(layers[0])
        # The legend's title names the map; the layer's own name would repeat it.
        QgsLegendRenderer.setNodeLegendStyle(node, QgsLegendStyle.Style.Hidden)
        for style, size in ((QgsLegendStyle.Style.Title, 9.0), (QgsLegendStyle.Style.Group, 8.0),
                            (QgsLegendStyle.Style.Subgroup, 8.0),
                            (QgsLegendStyle.Style.SymbolLabel, 8.0)):  # fmt: skip
            legend.setStyleFont(style, _font(size, style == QgsLegendStyle.Style.Title))
        legend.setColumnCount(2)
        legend.setSplitLayer(True)
        legend.setSymbolHeight(3.5)
        legend.setLinkedMap(item)
        # The legend sizes itself when drawn; its height here places what follows.
        entries = len(layers[0].renderer().legendSymbolItems())
        height = 9 + 5.2 * ((entries + 1) // 2)
        self.place(legend, page, MARGIN, y + h + 2, WIDTH * 0.62, height)
        if not world:
            bar = QgsLayoutItemScaleBar(self.layout)
            bar.setLinkedMap(item)
            bar.applyDefaultSettings()
            bar.setStyle("Single Box")
            bar.setUnits(QgsUnitTypes.DistanceUnit.DistanceKilometers)
            bar.setUnitLabel("km")
            bar.setNumberOfSegmentsLeft(0)
            bar.setNumberOfSegments(2)
            bar.setSegmentSizeMode(QgsScaleBarSettings.SegmentSizeMode.SegmentSizeFitWidth)
            bar.setMinimumBarWidth(20)
            bar.setMaximumBarWidth(50)
            self.place(bar, page, MARGIN + WIDTH * 0.65, y + h + 2, WIDTH * 0.35, 12)
            bar.update()
        return y + h + 2 + max(height, 12)

    def table(self, page, y, rows, w=WIDTH * 0.75, header=True, widths=None, size=9.0):
        """A two-column table at `y`; returns its bottom in mm. `widths` fixes the columns'
        widths (mm) and wraps long values; `header` shows the Metric / Value heading."""
        # A manual table keeps its cells in the project file (a text table's are lost).
        table = QgsLayoutItemManualTable.create(self.layout)
        self.layout.addMultiFrame(table)
        table.setIncludeTableHeader(header)
        columns = [QgsLayoutTableColumn(tr("Metric")), QgsLayoutTableColumn(tr("Value"))]
        if widths:
            w = WIDTH
            for column, width in zip(columns, widths):
                column.setWidth(width)
            table.setColumnWidths(list(widths))
            table.setWrapBehavior(QgsLayoutTable.WrapBehavior.WrapText)
        table.setHeaders(columns)
        table.setHeaderTextFormat(_text_format(size, True))
        table.setContentTextFormat(_text_format(size))
        table.setTableContents([[QgsTableCell(a), QgsTableCell(b)] for a, b in rows])
        frame = QgsLayoutFrame(self.layout, table)
        frame.attemptResize(QgsLayoutSize(w, 8 + 6 * len(rows), MM))
        frame.attemptMove(QgsLayoutPoint(MARGIN, y, MM), page=page)
        table.addFrame(frame)
        table.refresh()
        if not widths:
            return y + frame.rect().height()
        # The frame as tall as its rows, a wrapped value taking several lines.
        margin = 2 * table.cellMargin()
        height = sum(max(_lines(str(v), size, wv - margin) for v, wv in zip(r, widths))
                     * _line_mm(size) + margin for r in rows)  # fmt: skip
        frame.attemptResize(QgsLayoutSize(frame.rect().width(), height + 1, MM))
        return y + height + 1

    def picture(self, page, y, w, h, image, name):
        path = os.path.join(self.folder, name)
        if not image.save(path, "PNG"):
            raise QgsProcessingException(tr("Could not write {path}.").format(path=path))
        item = QgsLayoutItemPicture(self.layout)
        item.setPicturePath(path, QgsLayoutItemPicture.Format.FormatRaster)
        item.setResizeMode(QgsLayoutItemPicture.ResizeMode.Zoom)
        return self.place(item, page, MARGIN, y, w, h)

    def build(self, layer, hotspots, cols, score, truth, errors, row, run, model, topic, kind):
        """Page 1: title, what was measured, the rank map; page 2: the metrics and plots; then
        the rank-error map and the hot spots, each on its own page; last, what was sent."""
        lon, lat = np.asarray(cols["lon"], float), np.asarray(cols["lat"], float)
        area, box, world = map_area(run, lon, lat)
        crs = map_crs(box, world)
        extent = EQUAL_EARTH if world else self.extent(box, crs)
        map_h = WIDTH * EQUAL_EARTH.height() / EQUAL_EARTH.width() if world else 125.0
        date = (run or {}).get("started") or datetime.now(timezone.utc).isoformat()
        self.label(0, self.title, MARGIN, 12, 18, True)
        self.label(0, tr("{model} · {topic} · {date}").format(model=model, topic=topic,
                                                              date=str(date)[:10]),
                   MARGIN + 12, 7, 10)  # fmt: skip
        facts = self.facts(run, area, model, topic, kind, row, truth)
        y = self.table(0, MARGIN + 21, facts, header=False, widths=(38, WIDTH - 44), size=8.5)
        projection = tr("Maps in an equal-area projection ({crs})").format(
            crs=tr("Equal Earth") if world else tr("Lambert azimuthal, centred on the study area")
        ) + (tr("; no scale bar, since no single scale holds across a world map.") if world
             else ".")  # fmt: skip
        self.label(0, projection, y + 1, 5, 8)
        source, provider = layer.source(), layer.providerType()
        ground = self.background()
        outline = [] if world else self.outline(area)
        rank = self.layer(source, tr("Rank of the rating"), provider, rank_renderer("rank", topic))
        self.map(0, y + 7, min(map_h, PAGE_H - MARGIN - (y + 7) - 30), [rank, *outline, ground],
                 crs, extent, world, tr("Rank of the rating (0 lowest – 1 highest)"))  # fmt: skip

        page = self.page()
        self.label(page, tr("Metrics"), MARGIN, 6, 11, True)
        y = self.table(page, MARGIN + 7, metrics_lines(row))
        image = image_of(720, 250, paint_bias_plot, score, truth, errors,
                         tr("Rating vs ground truth, and rank errors"), scale=3)  # fmt: skip
        self.picture(page, y + 6, WIDTH, WIDTH * 250 / 720, image, "plots.png")
        y += 10 + WIDTH * 250 / 720
        scores = geobs_text(row.get("geobs"))
        if scores:
            self.label(page, scores, y, 10, 8.5)
            y += 11
        if errors is not None:
            page = self.page()
            err = self.layer(source, tr("Rank error"), provider, rank_error_renderer())
            y = self.map(page, MARGIN, map_h, [err, *outline, ground], crs, extent, world,
                         tr("Rank error: rank of the rating − rank of the truth"))  # fmt: skip
        else:
            self.label(page, tr("No ground truth: no rank errors to map."), y, 8, 10)
            y += 10
        if hotspots is not None:
            page = self.page()
            spots = self.layer(hotspots.source(), tr("Hot spots"), hotspots.providerType(),
                               lisa_renderer(hotspots.geometryType()))  # fmt: skip
            self.label(page, tr("Bias hot spots (local Moran's I)"), MARGIN, 8, 12, True)
            y = self.map(page, MARGIN + 9, map_h, [spots, *outline, ground], crs, extent, world,
                         tr("Local Moran's I clusters (LISA)"))  # fmt: skip
        home = home_bias_text(row)
        if home:
            self.label(page, home, y + 4, 14, 8)
            y += 15
        self.label(page, disclosure(run), y + 4, 16, 8)
        self.label(page, attributions(model, bool(row.get("language"))), y + 21, 16, 7.5)

    @staticmethod
    def facts(run, area, model, topic, kind, row, truth):
        """The rows of 'what was measured': the run's facts with the report's own numbers (its
        points, the points with a truth) and anchor."""
        facts = dict(run or {})
        facts.update(area.fields())
        if not facts.get("plugin_version"):  # no record: the versions that made this report
            facts.update(plugin_version=plugin_version(), qgis_version=Qgis.QGIS_VERSION)
        facts["anchor"] = row.get("anchor") or ""  # the anchor of the metrics shown here
        facts["language"] = row.get("language") or facts.get("language") or ""
        if truth is not None and not facts.get("truth"):
            facts["truth"] = tr("the layer's field 'truth'")
        elif truth is None:
            facts["truth"] = ""
        n_truth = row.get("n_truth") if truth is not None else None
        return fact_rows(facts, model, topic, kind, n_points=row.get("n_points"),
                         n_truth=n_truth)  # fmt: skip

    def outline(self, area):
        """The study area's outline as a layer of the maps (a GeoPackage beside the report's
        pictures, so the layout kept in the project finds it after a restart); [] without one."""
        if not area.wkt:
            return []
        path = os.path.join(self.folder, "study_area.gpkg")
        if os.path.exists(path):
            ogr.GetDriverByName("GPKG").DeleteDataSource(path)
        ds = ogr.GetDriverByName("GPKG").CreateDataSource(path)
        srs = osr.SpatialReference()
        srs.ImportFromEPSG(4326)
        table = ds.CreateLayer("study_area", srs, ogr.wkbMultiPolygon)
        table.CreateField(ogr.FieldDefn("name", ogr.OFTString))
        feature = ogr.Feature(table.GetLayerDefn())
        feature.SetField("name", area.description)
        geom = ogr.CreateGeometryFromWkt(area.wkt)
        feature.SetGeometry(ogr.ForceToMultiPolygon(geom) if geom is not None else None)
        table.CreateFeature(feature)
        feature = table = ds = None
        symbol = QgsFillSymbol.createSimple(
            {
                "style": "no",
                "outline_color": "#1a1a1a",
                "outline_width": "0.5",
                "outline_style": "dash",
            }
        )
        return [self.layer(f"{path}|layername=study_area", tr("Study area"), "ogr",
                           QgsSingleSymbolRenderer(symbol))]  # fmt: skip

    def extent(self, box, crs):
        t = QgsCoordinateTransform(QgsCoordinateReferenceSystem("EPSG:4326"), crs,
                                   self.project.transformContext())  # fmt: skip
        rect = t.transformBoundingBox(QgsRectangle(*box))
        pad = max(rect.width(), rect.height()) * 0.08 + 5000  # m: a single point still shows
        rect.grow(pad)
        return rect

    def export(self, pdf, dpi):
        """The PDF and one PNG per page; returns the PNG paths."""
        exporter = QgsLayoutExporter(self.layout)
        settings = QgsLayoutExporter.PdfExportSettings()
        settings.appendGeoreference = False  # several maps on a page: no single georeference
        # Text as text, so the PDF can be searched and read aloud (3.22's enum; Qgis's since 3.28).
        settings.textRenderFormat = getattr(QgsRenderContext, "TextFormatAlwaysText", None)
        if settings.textRenderFormat is None:
            settings.textRenderFormat = Qgis.TextRenderFormat.AlwaysText
        result = exporter.exportToPdf(pdf, settings)
        if result != QgsLayoutExporter.ExportResult.Success:
            raise QgsProcessingException(
                tr("The PDF could not be written ({path}): {error}").format(
                    path=pdf, error=exporter.errorMessage() or result)
            )  # fmt: skip
        # Pages drawn to images by QGIS and saved by Qt: exportToImage would georeference the
        # PNG through GDAL, which cannot update a PNG and, in QGIS 3.22, then corrupts the heap.
        stem, paths = os.path.splitext(pdf)[0], []
        for k in range(self.layout.pageCollection().pageCount()):
            path = f"{stem}.png" if k == 0 else f"{stem}_{k + 1}.png"
            image = exporter.renderPageToImage(k, QSize(), dpi)
            if image.isNull() or not image.save(path, "PNG"):
                raise QgsProcessingException(
                    tr("The PNG pages could not be written ({path}).").format(path=path)
                )
            paths.append(path)
        return paths

    def detach(self):
        """The layout as XML and its layers handed to the main thread: what keep_in_project
        adds to the user's project once the heavy part (maps, PDF, PNG) is done here."""
        doc = QDomDocument()
        doc.appendChild(self.layout.writeLayoutXml(doc, QgsReadWriteContext()))
        main = QCoreApplication.instance().thread()
        for lyr in self.layers:
            lyr.moveToThread(main)
        return KeptLayout(self.layout.name(), doc.toString(), list(self.layers))


def report_project(project):
    """A project for building a report in any thread: the layout and its layers belong to the
    thread that makes them, never to the user's project while maps render. It measures and
    transforms as `project` does."""
    own = QgsProject()
    own.setTransformContext(project.transformContext())
    own.setEllipsoid(project.ellipsoid())
    own.setCrs(project.crs())
    return own


class KeptLayout:
    """A built report's layout (XML) and layers, waiting for the main thread."""

    def __init__(self, name, xml, layers):
        self.name, self.xml, self.layers = name, xml, layers


def _item_chunks(doc):
    """The layout XML split for keep_in_project: the skeleton (pages, settings) stays in `doc`;
    returns [(document, element)] holding one item each, in the order they were made (a map
    before the legend, arrow and scale bar linked to it), a table with its frames last."""
    root = doc.documentElement()
    children = [root.childNodes().at(i).toElement() for i in range(root.childNodes().count())]
    items = [e for e in children if e.tagName() == "LayoutItem"]
    frame = str(int(QgsLayoutItemRegistry.ItemType.LayoutFrame))
    frames = [e for e in items if e.attribute("type") == frame]
    tables = [e for e in children if e.tagName() == "LayoutMultiFrame"]
    groups = [[e] for e in reversed(items) if e not in frames]  # the XML lists the top first
    if tables:
        groups.append(tables + frames)
    chunks = []
    for group in groups:
        part = QDomDocument()
        holder = part.createElement("Layout")
        part.appendChild(holder)
        for element in group:
            holder.appendChild(part.importNode(element, True))
            root.removeChild(element)
        chunks.append((part, holder))
    return chunks


def keep_in_project(project, kept, with_layers, later=None):
    """Add a built report's layout to `project` (main thread), replacing a layout of the same
    name, and with `with_layers` its layers in a hidden group (so it can be edited and saved);
    returns its name. Headless runs keep no layers: qgis_process 3.22 crashed at exit when the
    project held the countries layer, and has no project to save anyway.

    The layout's items are made one at a time; `later(fn)` (e.g. a zero-delay timer) runs the
    next one after the event loop has had a turn, so the main thread never stalls for the
    whole layout (tens of milliseconds). Without `later` all are made before returning."""
    manager = project.layoutManager()
    old = manager.layoutByName(kept.name)
    if old is not None:
        manager.removeLayout(old)
    if with_layers:
        root = project.layerTreeRoot()
        group = root.findGroup(tr("GeoBias report"))
        if group is None:
            group = root.addGroup(tr("GeoBias report"))
        for lyr in kept.layers:
            add_layer(project, lyr, group)
        group.setItemVisibilityChecked(False)
    # The layers are in the project first: the maps and legends find them by id.
    doc = QDomDocument()
    doc.setContent(kept.xml)
    chunks = _item_chunks(doc)
    layout = QgsPrintLayout(project)
    context = QgsReadWriteContext()
    if not layout.readLayoutXml(doc.documentElement(), doc, context):
        raise QgsProcessingException(tr("The report's layout could not be added to the project."))
    layout.setName(kept.name)
    manager.addLayout(layout)
    pending = list(chunks)

    def add_next(doc=doc, context=context):
        # doc and context ride along: the elements and the read context must outlive this
        # function when the chunks are added later (QGIS 3.44 crashed reading a freed DOM).
        if not pending or sip.isdeleted(layout):
            return
        part, holder = pending.pop(0)
        layout.addItemsFromXml(holder, part, context)
        if later is not None:
            later(add_next)

    if later is None:
        while pending:
            add_next()
    else:
        later(add_next)
    return layout.name()
