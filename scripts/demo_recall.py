"""`make demo-recall`: the embedded model asked the bundled countries' infant mortality and life
expectancy (WorldBench-style factual recall), its errors by continent and by income group.

Runs geobias:recallsurvey on resources/data/world_countries.gpkg (every named country with a
value: its own year and unit in each question), grouped by continent, then again from the
cache grouped by the World Bank income group, and writes into output/demo-recall/ the
GeoPackages, a map of the relative error per field and `summary.md` with the group tables.
"""

import argparse
import os
import time

from demo import outline_layer, render_png, run_with_embedded_model

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COUNTRIES = os.path.join(ROOT, "resources", "data", "world_countries.gpkg") + "|layername=countries"
FIELDS = ["infant_mortality", "life_exp"]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default=os.path.join(ROOT, "output", "demo-recall"))
    parser.add_argument("--n-boot", type=int, default=1000)
    args = parser.parse_args(argv)
    run_with_embedded_model(run, args)


def _groups(path):
    from qgis.core import QgsVectorLayer

    rows = []
    for f in QgsVectorLayer(f"{path}|layername=groups", "g", "ogr").getFeatures():
        rows.append((f["field"], f["group"], f["n"], f["mean_rel_error"], f["ci_low"],
                     f["ci_high"], f["ratio"]))  # fmt: skip
    return rows


def _answered(uri):
    from qgis.core import QgsVectorLayer

    feats = list(QgsVectorLayer(uri, "a", "ogr").getFeatures())
    asked = [f for f in feats if str(f["reason"]) != "no truth"]
    return sum(1 for f in asked if f["answered"] == 1), len(asked)


def run(args, endpoint):
    from qgis import processing
    from qgis.core import QgsVectorLayer, QgsWkbTypes

    from geobias.processing.overlay_styles import recall_renderer

    os.makedirs(args.out, exist_ok=True)
    lines = ["# Factual recall: the bundled countries, embedded model", ""]
    for grouping in ("continent", "income_group"):
        path = os.path.join(args.out, f"recall_{grouping}.gpkg")
        if os.path.exists(path):
            os.remove(path)
        started = time.time()
        res = processing.run("geobias:recallsurvey", {
            **endpoint, "INPUT": COUNTRIES, "NAME_FIELD": "name", "FIELDS": FIELDS,
            "GROUP_FIELD": grouping, "N_BOOT": args.n_boot, "OUTPUT": path})  # fmt: skip
        seconds = time.time() - started
        lines += [f"## By {grouping.replace('_', ' ')} ({seconds:.0f} s)", ""]
        for uri in res["OUTPUT_LAYERS"]:
            ok, asked = _answered(uri)
            lines.append(f"- `{uri.split('layername=')[-1]}`: {ok} of {asked} questions answered "
                         "with a number")  # fmt: skip
            if grouping == "continent":
                name = uri.split("layername=")[-1]
                layer = QgsVectorLayer(uri, name, "ogr")
                polygons = QgsWkbTypes.GeometryType.PolygonGeometry
                render_png(layer, recall_renderer(polygons), outline_layer(),
                           os.path.join(args.out, f"{name}.png"),
                           f"{name} · relative error |a − b| / max(a, b)")  # fmt: skip
        lines += ["", "| field | group | n | mean relative error | 95% interval | ratio to best |",
                  "| --- | --- | --- | --- | --- | --- |"]  # fmt: skip
        for fld, grp, n, mean, low, high, ratio in _groups(path):
            lines.append(f"| {fld} | {grp} | {n} | {mean:.3f} | {low:.3f}–{high:.3f} | "
                         f"{ratio:.2f} |")  # fmt: skip
        lines.append("")
    with open(os.path.join(args.out, "summary.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
