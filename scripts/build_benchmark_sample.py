"""Build resources/benchmark/sample_v1.gpkg: the fixed world sample of the benchmark card.

Sample v1 is the paper's own 2,000 world points (Manvi et al., ICML 2024), read from the bundled
GPT-3.5 ratings (resources/reference/geollm-gpt35, Apache-2.0): no random draw of ours, so no
seed; the authors drew them by importance sampling on population combined with farthest point
sampling. Each point keeps its place in that file (point_id 1-2000), and gets the country it
falls in and that country's infant mortality and infant survival from
resources/data/world_countries.gpkg (truth and anchor of the card) and its population density,
by point in polygon.

Writes layer `points` (Point, EPSG:4326) and table `sample_info` (key, value: version, method,
source, licence, counts). Run with the project venv or the system Python (GDAL/OGR):
.venv/bin/python scripts/build_benchmark_sample.py
"""

import csv
import hashlib
import os

from osgeo import gdal, ogr, osr

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SOURCE = os.path.join(
    ROOT, "resources", "reference", "geollm-gpt35",
    "gpt_3_5_turbo_0613_Average_Attractiveness_of_Residents_world_prompts.csv",
)  # fmt: skip
COUNTRIES = os.path.join(ROOT, "resources", "data", "world_countries.gpkg")
OUT = os.path.join(ROOT, "resources", "benchmark", "sample_v1.gpkg")
VERSION = "v1"
FIELDS = ("iso_a3", "name", "infant_mortality", "infant_survival", "pop_density")


def read_points(path):
    """(lon, lat) of every row, in file order."""
    with open(path, newline="") as f:
        return [(float(r["Longitude"]), float(r["Latitude"])) for r in csv.DictReader(f)]


def countries_at(points):
    """(iso_a3, name, infant_mortality, infant_survival, pop_density) of each point's country."""
    ds = ogr.Open(COUNTRIES)
    layer = ds.GetLayer("countries")
    out = []
    for lon, lat in points:
        pt = ogr.Geometry(ogr.wkbPoint)
        pt.AddPoint_2D(lon, lat)
        layer.SetSpatialFilter(pt)
        hit = None
        for feat in layer:
            if feat.GetGeometryRef().Intersects(pt):
                hit = feat
                break
        layer.ResetReading()
        if hit is None:
            out.append((None, None, None, None, None))
        else:
            out.append(tuple(hit.GetField(f) for f in FIELDS))
    return out


def main():
    gdal.UseExceptions()
    points = read_points(SOURCE)
    assert len(points) == 2000 and len(set(points)) == len(points), "expected 2,000 points"
    info = countries_at(points)
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    if os.path.exists(OUT):
        os.remove(OUT)
    ds = ogr.GetDriverByName("GPKG").CreateDataSource(OUT)
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(4326)
    srs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    layer = ds.CreateLayer("points", srs, ogr.wkbPoint, ["FID=point_id"])
    for name, kind in (("lon", ogr.OFTReal), ("lat", ogr.OFTReal), ("iso_a3", ogr.OFTString),
                       ("country", ogr.OFTString), ("infant_mortality", ogr.OFTReal),
                       ("infant_survival", ogr.OFTReal), ("pop_density", ogr.OFTReal)):  # fmt: skip
        layer.CreateField(ogr.FieldDefn(name, kind))
    ds.StartTransaction()
    for pid, ((lon, lat), (iso, country, imr, survival, density)) in enumerate(
        zip(points, info), 1
    ):
        f = ogr.Feature(layer.GetLayerDefn())
        f.SetFID(pid)
        f.SetField("lon", lon)
        f.SetField("lat", lat)
        for name, value in (("iso_a3", iso), ("country", country), ("infant_mortality", imr),
                            ("infant_survival", survival), ("pop_density", density)):  # fmt: skip
            if value is not None:
                f.SetField(name, value)
        g = ogr.Geometry(ogr.wkbPoint)
        g.AddPoint_2D(lon, lat)
        f.SetGeometry(g)
        layer.CreateFeature(f)
    ds.CommitTransaction()
    with open(SOURCE, "rb") as fh:
        digest = hashlib.sha256(fh.read()).hexdigest()
    n_country = sum(1 for i in info if i[0] is not None)
    n_truth = sum(1 for i in info if i[2] is not None)
    meta = {
        "version": VERSION,
        "points": str(len(points)),
        "method": "the 2,000 world points of Manvi et al. (ICML 2024), as published with their "
        "GPT-3.5 ratings: importance sampling on population combined with farthest point "
        "sampling, drawn by the paper's authors; no random draw here, so no seed",
        "source": "resources/reference/geollm-gpt35/"
        "gpt_3_5_turbo_0613_Average_Attractiveness_of_Residents_world_prompts.csv, rows in "
        "file order (point_id 1-2000)",
        "source_sha256": digest,
        "licence": "points: Apache License 2.0 (GeoLLM results, see "
        "resources/reference/geollm-gpt35/LICENSE-Apache-2.0.txt); country fields: "
        "resources/data/world_countries.gpkg (see resources/data/LICENSE.md)",
        "truth": "infant_mortality (deaths per 1,000 live births) of the country holding the "
        f"point; {n_truth} of {len(points)} points have it ({n_country} fall in a country)",
        "anchor": "infant_survival = 1000 - infant_mortality",
        "truth_pop_density": "pop_density (people per km², 2014) of the country holding the point",
        "built_by": "scripts/build_benchmark_sample.py",
    }
    table = ds.CreateLayer("sample_info", None, ogr.wkbNone)
    table.CreateField(ogr.FieldDefn("key", ogr.OFTString))
    table.CreateField(ogr.FieldDefn("value", ogr.OFTString))
    for key, value in meta.items():
        f = ogr.Feature(table.GetLayerDefn())
        f.SetField("key", key)
        f.SetField("value", value)
        table.CreateFeature(f)
    layer.SetMetadataItem("DESCRIPTION", f"GeoBias benchmark sample {VERSION}: {meta['method']}")
    ds = None
    print(f"wrote {OUT}: {len(points)} points, {n_country} in a country, {n_truth} with truth")


if __name__ == "__main__":
    main()
