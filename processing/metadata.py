"""Layer metadata: the GeoNames credit of layers whose prompts named gazetteer places, and what a
layer measured, kept in its GeoPackage."""

from osgeo import ogr

# GeoNames' licence (CC BY 4.0) asks for attribution wherever its data go: every layer GeoBias
# makes from the gazetteer (points sampled by its population, prompts naming its places) says so
# in its metadata, which a GeoPackage keeps (gpkg_metadata) and QGIS shows under Information.
GEONAMES_RIGHTS = (
    "Place names, administrative divisions and populations from GeoNames "
    "(https://www.geonames.org), licensed under CC BY 4.0"
)


GEONAMES_LICENCE = "GeoNames data: CC BY 4.0, https://creativecommons.org/licenses/by/4.0/"
# Home bias reads GeoNames' country language lists (resources/languages/country_languages.csv).
COUNTRY_LANGUAGES_RIGHTS = (
    "Country languages (home bias) from GeoNames (https://www.geonames.org), licensed under "
    "CC BY 4.0"
)


def with_geonames_credit(metadata, rights=GEONAMES_RIGHTS):
    """The layer metadata with the GeoNames attribution in its rights and licences (once)."""
    if rights not in metadata.rights():
        metadata.setRights([*metadata.rights(), rights])
    if GEONAMES_LICENCE not in metadata.licenses():
        metadata.setLicenses([*metadata.licenses(), GEONAMES_LICENCE])
    return metadata


def has_geonames_credit(layer):
    return layer is not None and GEONAMES_RIGHTS in layer.metadata().rights()


def credit_geonames(layer_or_uri, context=None, rights=GEONAMES_RIGHTS):
    """Give a written layer the GeoNames attribution (`rights`: what of GeoNames it used): on the
    layer object (a memory output that Processing loads) and, for a GeoPackage, in the file
    itself. Returns the layer's metadata."""
    from qgis.core import QgsProcessingUtils, QgsVectorLayer

    layer = layer_or_uri
    if isinstance(layer_or_uri, str):
        layer = QgsProcessingUtils.mapLayerFromString(layer_or_uri, context) if context else None
        if layer is None:
            layer = QgsVectorLayer(layer_or_uri, "geonames", "ogr")
    if layer is None or not layer.isValid():
        return None
    metadata = with_geonames_credit(layer.metadata(), rights)
    layer.setMetadata(metadata)
    store_metadata(layer)
    return metadata


def store_metadata(layer):
    """Save a layer's metadata into its GeoPackage (gpkg_metadata), where QGIS reads it when
    the layer is opened, in any project. Other formats keep it on the layer object only."""
    from qgis.core import QgsProviderRegistry

    registry = QgsProviderRegistry.instance()
    parts = registry.decodeUri("ogr", layer.source()) if layer.providerType() == "ogr" else {}
    path = parts.get("path") or ""
    if not path.lower().endswith(".gpkg"):
        return False
    name = parts.get("layerName")
    if not name:  # a sink's file holds one layer with geometries (and maybe its styles)
        ds = ogr.Open(path)
        layers = [ds.GetLayer(i) for i in range(ds.GetLayerCount())] if ds else []
        spatial = [g.GetName() for g in layers if g.GetGeomType() != ogr.wkbNone]
        name = spatial[0] if len(spatial) == 1 else ""
        layers = ds = None
    if not name:
        return False
    uri = registry.encodeUri("ogr", {"path": path, "layerName": name})
    return bool(registry.saveLayerMetadata("ogr", uri, layer.metadata()))


def facts_text(rows):
    """Fact rows ((label, value), processing/facts.fact_rows) as lines of an abstract."""
    return "\n".join(f"{label}: {value}" for label, value in rows)
