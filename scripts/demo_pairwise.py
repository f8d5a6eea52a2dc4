"""`make demo-pairwise`: the embedded model ranks 40 points by pairwise choices, beside its 0–9
ratings of the same points, both against the truth.

Samples 40 points as `make demo` samples (population-weighted, seed 0), asks the embedded model
"which of two locations has a higher infant mortality rate?" for every pair of a connected
design (each point meets at least 8 others, each pair in both orders: geobias:pairwisesurvey),
rates the same points on the 0–9 scale (geobias:ratelocations), samples the countries' infant
mortality at the points for both (geobias:samplegroundtruth), and writes into
output/demo-pairwise/ the GeoPackages, a rank map of the pairwise strengths and `summary.md`:
Spearman's ρ of each with the truth, the order effect, the share of answers that chose "A".
"""

import argparse
import os
import time

from demo import PrintFeedback, outline_layer, render_png, run_with_embedded_model

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOPIC = "Infant Mortality Rate"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--points", type=int, default=40)
    parser.add_argument("--opponents", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=os.path.join(ROOT, "output", "demo-pairwise"))
    args = parser.parse_args(argv)
    run_with_embedded_model(run, args)


class Capture(PrintFeedback):
    """PrintFeedback that keeps the log's lines (the order effect is said there)."""

    def __init__(self):
        super().__init__()
        self.lines = []

    def pushInfo(self, info):  # noqa: N802 - QGIS's name
        self.lines.append(info)
        super().pushInfo(info)


def _values(uri, field):
    from qgis.core import QgsVectorLayer

    out = {}
    for f in QgsVectorLayer(uri, "l", "ogr").getFeatures():
        v, t = f[field], f["truth"]
        if v is not None and t is not None and str(v) != "NULL" and str(t) != "NULL":
            out[f["pid"]] = (float(v), float(t))
    return out


def run(args, endpoint):
    import numpy as np
    from qgis import processing
    from qgis.core import QgsVectorLayer
    from scipy.stats import spearmanr

    from geobias.processing.styles import rank_renderer

    os.makedirs(args.out, exist_ok=True)
    paths = {n: os.path.join(args.out, f"{n}.gpkg") for n in ("points", "pairwise", "rated")}
    for path in paths.values():
        if os.path.exists(path):
            os.remove(path)
    countries = os.path.join(ROOT, "resources", "data", "world_countries.gpkg")
    countries += "|layername=countries"
    started = time.time()
    processing.run("geobias:samplepoints", {"COUNT": args.points, "METHOD": 1, "SEED": args.seed,
                                            "OUTPUT": paths["points"]})  # fmt: skip
    print(f"Pairwise survey: {args.points} points, at least {args.opponents} opponents each, "
          "both orders ...", flush=True)  # fmt: skip
    feedback = Capture()
    pw = processing.run("geobias:pairwisesurvey", {
        **endpoint, "INPUT": paths["points"], "TOPICS": TOPIC, "OPPONENTS": args.opponents,
        "SEED": args.seed, "OUTPUT": paths["pairwise"]}, feedback=feedback)  # fmt: skip
    pairwise_s = time.time() - started
    print("Ratings of the same points ...", flush=True)
    rated = processing.run("geobias:ratelocations", {
        **endpoint, "INPUT": paths["points"], "TOPICS": TOPIC, "SCORE": 0,
        "OUTPUT": paths["rated"]}, feedback=PrintFeedback())  # fmt: skip
    layers = {}
    for kind, uri, path in (("pairwise", pw["OUTPUT_LAYERS"][0], paths["pairwise"]),
                            ("rating", rated["OUTPUT_LAYERS"][0], paths["rated"])):  # fmt: skip
        table = uri.split("layername=")[-1]
        layers[kind] = processing.run("geobias:samplegroundtruth", {
            "INPUT": uri, "SCORE_FIELD": "score", "POLYGONS": countries,
            "POLYGON_FIELD": "infant_mortality",
            "OUTPUT": f"ogr:dbname='{path}' table=\"{table}\" (geom)"})["OUTPUT"]  # fmt: skip
    rows = []
    for kind, uri in layers.items():
        vals = _values(uri, "score")
        s, t = np.array(list(vals.values())).T if vals else (np.array([]), np.array([]))
        rho = spearmanr(s, t).statistic if len(s) > 2 else float("nan")
        rows.append((kind, len(s), rho))
    comparisons = QgsVectorLayer(f"{paths['pairwise']}|layername=comparisons", "c", "ogr")
    chosen = [f["chosen"] for f in comparisons.getFeatures()]
    first = sum(c == "first" for c in chosen)
    answered = sum(c in ("first", "second") for c in chosen)
    log = [line for line in feedback.lines if "order effect" in line or "strengths from" in line]
    probs = [f["p_first"] for f in comparisons.getFeatures()
             if f["p_first"] is not None and str(f["p_first"]) != "NULL"]  # fmt: skip
    png = os.path.join(args.out, "pairwise_rank.png")
    lyr = QgsVectorLayer(layers["pairwise"], "pairwise", "ogr")
    render_png(lyr, rank_renderer("rank", TOPIC), outline_layer(), png,
               f"{TOPIC} · rank by pairwise choices (embedded model)")  # fmt: skip
    lines = [
        f"# Pairwise survey: {args.points} points, {TOPIC}, embedded model",
        "",
        f"{len(chosen)} comparisons asked ({answered} answered with a letter) in "
        f"{pairwise_s:.0f} s; the place named first was chosen in {first} of {answered} "
        f"({first / max(answered, 1):.0%})"
        + (
            f"; the mean probability of the first place, from the log-probabilities, "
            f"{sum(probs) / len(probs):.3f}."
            if probs
            else "."
        ),
        *(["", *log] if log else []),
        "",
        "| score | points with truth | Spearman's ρ with infant mortality |",
        "| --- | --- | --- |",
        *(f"| {k} | {n} | {rho:+.3f} |" for k, n, rho in rows),
        "",
        "![rank by pairwise choices](pairwise_rank.png)",
    ]
    with open(os.path.join(args.out, "summary.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
