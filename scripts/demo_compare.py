"""`make demo-compare`: the embedded model under two prompt presets on the demo's points, compared.

Samples 100 points as `make demo` does (same method and seed; `--points 200` gives the demo's
own points, whose Infant Mortality answers its cache then holds), has the embedded model rate
them on two topics with the paper's whole prompt and with its short-address ablation
(geobias:ablation), then
compares the two presets as two models (geobias:comparemodels): the paper's tables as Markdown
and the mean rank / mean rank error maps as PNGs in output/demo-compare/.
"""

import argparse
import os
import time

from demo import PrintFeedback, outline_layer, render_png, run_with_embedded_model

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOPICS = ["Infant Mortality Rate", "Average Attractiveness of Residents"]
VARIANTS = ["geollm", "short_address"]  # the whole prompt and one ablation (Appendix A.3)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--points", type=int, default=100, help="default 100 (make demo: 200)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=os.path.join(ROOT, "output", "demo-compare"))
    parser.add_argument("--n-boot", type=int, default=1000)
    args = parser.parse_args(argv)
    run_with_embedded_model(run, args)


def run(args, endpoint):
    from qgis.core import QgsVectorLayer

    import processing
    from geobias.processing.definitions import ABLATION_VARIANTS
    from geobias.processing.styles import rank_error_renderer, rank_renderer

    os.makedirs(args.out, exist_ok=True)
    points, ablation, compare = (os.path.join(args.out, f"{n}.gpkg")
                                 for n in ("points", "ablation", "compare"))  # fmt: skip
    for path in (points, ablation, compare):
        if os.path.exists(path):
            os.remove(path)
    countries = os.path.join(ROOT, "resources", "data", "world_countries.gpkg")
    countries += "|layername=countries"
    started = time.time()
    # The demo's points: geobias:survey samples with these very parameters.
    processing.run("geobias:samplepoints", {"COUNT": args.points, "METHOD": 1, "SEED": args.seed,
                                            "OUTPUT": points})  # fmt: skip
    print(f"Rating {args.points} points x {len(TOPICS)} topics x {len(VARIANTS)} prompt presets "
          "...", flush=True)  # fmt: skip
    res = processing.run(
        "geobias:ablation",
        {**endpoint, "INPUT": points, "TOPICS": ";".join(TOPICS),
         "VARIANTS": [ABLATION_VARIANTS.index(v) for v in VARIANTS], "TRUTH": countries,
         "TRUTH_FIELD": "infant_mortality", "TRUTH_TOPICS": TOPICS[0], "ANCHOR": countries,
         "ANCHOR_FIELD": "infant_survival", "N_BOOT": args.n_boot, "OUTPUT": ablation},
        feedback=PrintFeedback(),
    )  # fmt: skip
    rated = time.time() - started
    print(f"requests sent: {res['N_REQUESTS']}, answers from the cache: {res['N_CACHED']}")
    cmp = processing.run(
        "geobias:comparemodels",
        {"SURVEY": ablation, "ANCHOR": countries, "ANCHOR_FIELD": "infant_survival",
         "N_BOOT": args.n_boot, "OUTPUT": compare, "TABLES_FOLDER": args.out},
    )  # fmt: skip
    outline = outline_layer()
    pngs = []
    for uri in cmp["MEAN_RANK_LAYERS"]:
        layer = QgsVectorLayer(uri, "mean", "ogr")
        name = uri.split("layername=")[-1]
        topic = next(layer.getFeatures())["topic"]
        png = os.path.join(args.out, f"{name}.png")
        title = f"{topic} · mean rank across the two presets"
        pngs.append(render_png(layer, rank_renderer("mean_rank", topic), outline, png, title))
        if any(f["mean_rank_error"] is not None and str(f["mean_rank_error"]) != "NULL"
               for f in layer.getFeatures()):  # fmt: skip
            png = os.path.join(args.out, f"{name}_error.png")
            title = f"{topic} · mean rank error (red overestimate, blue underestimate)"
            renderer = rank_error_renderer("mean_rank_error")
            pngs.append(render_png(layer, renderer, outline, png, title))
        del layer
    print()
    print(res["MARKDOWN"])
    print(cmp["MARKDOWN"])
    print(f"rating: {rated:.0f} s; all: {time.time() - started:.0f} s")
    print(f"GeoPackages: {ablation}, {compare}; tables: {args.out}/comparison.md")
    for p in pngs:
        print(f"map: {p}")


if __name__ == "__main__":
    main()
