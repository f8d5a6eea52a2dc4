"""`make demo-herb`: HERB with the embedded local model, through the geobias:herb algorithm.

By default South America: its 14 countries (GeoNames) with their two largest cities each, 41
regions x 112 descriptors plus their names, 4,551 sentences, scored as HERB's embedded model
scores them by default: whole sentences in a child process (`--method forced`: token by token
from an embedded llama.cpp server, the reference path; `--model gemma3-270m`: Gemma 3 270M
instead of HERB's default model). A re-run takes its scores from the cache. Prints C_w and C_z per
region and writes PNG maps rendered by QGIS: countries coloured by their C (how
inconsistently the model judges their two cities) with the cities on top, and countries by
their distance from the other countries of the continent. `--scope world` runs every continent
(use `--max-cities 0` to stop at countries).
"""

import argparse
import gc
import os
import sqlite3
import sys
import time

from demo import ROOT, PrintFeedback, outline_layer, render_png, start_qgis

EXTENTS = {"South America": (-95, -57, -20, 14), "world": (-180, -60, 180, 85)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scope", default="South America", help="a continent, or 'world'")
    parser.add_argument("--max-cities", type=int, default=2, help="largest cities per country")
    parser.add_argument("--out", default=os.path.join(ROOT, "output", "demo-herb"))
    parser.add_argument("--maps", default=os.path.join(ROOT, "docs"), help="folder of the PNGs")
    parser.add_argument("--url", default="", help="a llama.cpp server instead of the embedded")
    parser.add_argument(
        "--method",
        default="whole",
        choices=["whole", "forced"],
        help="how the embedded model scores sentences",
    )
    parser.add_argument("--model", default="", help="a bundled model key (default: HERB's)")
    # One llama.cpp thread: on a loaded machine a 2-thread server spins at its barriers and
    # runs several times slower (docs/design.md); on an idle machine --threads 2 is faster.
    parser.add_argument("--threads", type=int, default=1, help="the embedded model's threads")
    args = parser.parse_args(argv)
    app, _provider = start_qgis()
    try:
        if args.url or args.method == "whole":
            run_demo(args)
        else:
            from geobias.core.runtime.embedded import EmbeddedServer

            # The embedded model (the same GGUF and server as the dock's), started here to
            # choose its threads; its scores are cached under the same model identity.
            from geobias.processing.endpoints import HERB_EMBEDDED_MODEL

            model = args.model or HERB_EMBEDDED_MODEL
            with EmbeddedServer(model, parallel=2, threads=args.threads) as server:
                run_demo(args, server.base_url)
    finally:
        gc.collect()  # every layer gone before exitQgis (else a crash at exit)
        app.exitQgis()


def c_table(path):
    """Regions with a C (two children or more) as printed text, the Earth first."""
    with sqlite3.connect(path) as con:
        rows = con.execute(
            "SELECT level, region, parent, c_w, c_z, n_children FROM herb_regions "
            "WHERE c_w IS NOT NULL ORDER BY fid"
        ).fetchall()
    lines = [f"{'level':<10} {'region':<26} {'parent':<16} {'C_w':>8} {'C_z':>8} {'children':>8}"]
    for level, region, parent, c_w, c_z, kids in rows:
        lines.append(
            f"{level:<10} {region[:26]:<26} {parent[:16]:<16} {c_w:8.4f} {c_z:8.4f} {kids:8d}"
        )
    return "\n".join(lines)


def run_demo(args, url=""):
    from qgis.core import QgsVectorLayer

    import processing
    from geobias.processing.herb_io import LEGEND_C, LEGEND_DEV, herb_renderer

    os.makedirs(args.out, exist_ok=True)
    os.makedirs(args.maps, exist_ok=True)
    gpkg = os.path.join(args.out, "herb.gpkg")
    if os.path.exists(gpkg):
        os.remove(gpkg)
    world = args.scope == "world"
    from geobias.processing.definitions import HERB_MODELS

    params = {
        "SCOPE": 0,
        "CONTINENTS": "" if world else args.scope,
        "MAX_CITIES": args.max_cities,
        "OUTPUT": gpkg,
    }
    if url or args.url:  # a llama.cpp server: the embedded one started in main(), or --url
        params.update(SCORER=1, URL=url or args.url)
    else:  # the embedded model's whole-sentence scorer (its own child process)
        model = HERB_MODELS.index(args.model or HERB_MODELS.default)
        params.update(SCORER=0, METHOD=0, EMBEDDED_MODEL=model)
    started = time.time()
    print(f"HERB over {args.scope} with {args.max_cities} cities per country ...", flush=True)
    res = processing.run("geobias:herb", params, feedback=PrintFeedback())
    elapsed = time.time() - started

    layers = {u.split("layername=")[-1]: QgsVectorLayer(u, "herb", "ogr")
              for u in res["OUTPUT_LAYERS"]}  # fmt: skip
    countries, cities = layers.get("herb_1_country"), layers.get("herb_2_city")
    extent = EXTENTS.get("world" if world else args.scope, EXTENTS["world"])
    outline = outline_layer()
    slug = "world" if world else args.scope.lower().replace(" ", "_")
    pngs = []
    above = ()
    if cities is not None:
        dots = cities.clone()
        dots.setRenderer(herb_renderer(dots, "deviation"))
        above = (dots,)
    png = os.path.join(args.maps, f"herb_{slug}_c.png")
    title = f"HERB · {args.scope} · countries: {LEGEND_C}"
    if cities is not None:
        title += "; dots: cities by their distance from the country's other cities"
    pngs.append(render_png(countries, herb_renderer(countries, "c_w"), outline, png, title,
                           extent=extent, above=above, legend_title="C of a country"))  # fmt: skip
    png = os.path.join(args.maps, f"herb_{slug}_deviation.png")
    title = f"HERB · {args.scope} · countries: {LEGEND_DEV}"
    pngs.append(render_png(countries, herb_renderer(countries, "deviation"), outline, png, title,
                           extent=extent, legend_title="distance"))  # fmt: skip
    print()
    print(c_table(gpkg))
    print()
    print(f"HERB: {elapsed:.0f} s for {res['N_SENTENCES']} sentences "
          f"({res['N_TO_SCORE']} not cached at the start)")  # fmt: skip
    print(f"GeoPackage: {gpkg}")
    for p in pngs:
        print(f"map: {p}")
    del layers, countries, cities, above, outline


if __name__ == "__main__":
    sys.exit(main())
