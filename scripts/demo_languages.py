"""`make demo-languages`: the embedded model asked the paper's question in five languages.

Samples 100 points over the world as `make demo-compare` does (population importance +
farthest point, seed 0), has the default embedded model (Gemma 3 270M) rate their Infant
Mortality Rate in English, French, Spanish, Arabic and Chinese (geobias:ratelocations with
LANGUAGES; 500 requests), takes the ground truth from the bundled countries
(geobias:samplegroundtruth), computes the metrics with each language's home bias
(geobias:biasmetrics) and compares the languages (geobias:comparemodels: pivots by language,
mean rank maps per language, the spread of each point's rank across languages), each for the
expected value and for the greedy rating. Writes into output/demo-languages/: the
GeoPackages, rank-error maps per language and the spread maps as PNGs, the comparisons'
tables, `points.csv` and `metrics.csv` (what test/core/
test_demo_languages.py checks against an independent computation) and `summary.md`, which says
per language whether the ratings carry any signal (rho with the truth and its 95% CI) and makes
a home-bias claim only for a language whose ratings do.
"""

import argparse
import csv
import os
import threading
import time

from demo import PrintFeedback, outline_layer, render_png, run_with_embedded_model

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOPIC = "Infant Mortality Rate"
LANGUAGES = ["en", "fr", "es", "ar", "zh"]


class Timed(PrintFeedback):
    """PrintFeedback that notes when each prompt language starts (ratelocations says so)."""

    def __init__(self):
        super().__init__()
        self.starts = []

    def pushInfo(self, info):
        if info.startswith("Prompt language "):
            self.starts.append((info.rsplit(" ", 1)[-1], time.time()))
        super().pushInfo(info)


class LoadMonitor:
    """The machine's 1-minute load average, sampled every 30 s while the demo runs."""

    def __init__(self):
        self.samples = [os.getloadavg()[0]]
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        while not self.stop.wait(30):
            self.samples.append(os.getloadavg()[0])

    def summary(self):
        s = self.samples
        return f"load average {min(s):.1f}–{max(s):.1f} (mean {sum(s) / len(s):.1f})"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--points", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--languages", default=",".join(LANGUAGES))
    parser.add_argument("--out", default=os.path.join(ROOT, "output", "demo-languages"))
    parser.add_argument("--n-boot", type=int, default=1000)
    args = parser.parse_args(argv)
    args.languages = [c.strip() for c in args.languages.split(",") if c.strip()]
    if len(set(args.languages)) < 2:  # the comparison across languages needs two
        parser.error("--languages: give at least two prompt languages (e.g. en,fr)")
    run_with_embedded_model(run, args)


def run(args, endpoint):
    import processing
    from geobias.processing.definitions import SCORE_KINDS
    from geobias.processing.language_choices import language_choices

    os.makedirs(args.out, exist_ok=True)
    paths = {n: os.path.join(args.out, f"{n}.gpkg")
             for n in ("points", "rated", "survey", "metrics", "compare_expected",
                       "compare_greedy")}  # fmt: skip
    for path in paths.values():
        if os.path.exists(path):
            os.remove(path)
    countries = os.path.join(ROOT, "resources", "data", "world_countries.gpkg")
    countries += "|layername=countries"
    choices = language_choices()
    load = LoadMonitor()
    load.thread.start()
    started = time.time()
    processing.run("geobias:samplepoints", {"COUNT": args.points, "METHOD": 1, "SEED": args.seed,
                                            "OUTPUT": paths["points"]})  # fmt: skip
    n = args.points * len(args.languages)
    print(f"Rating {args.points} points on {TOPIC} in {', '.join(args.languages)} ({n} "
          "requests) ...", flush=True)  # fmt: skip
    feedback = Timed()
    rated = processing.run(
        "geobias:ratelocations",
        {**endpoint, "INPUT": paths["points"], "TOPICS": TOPIC,
         "LANGUAGES": [choices.index(c) for c in args.languages],
         "SCORE": SCORE_KINDS.index("auto"), "OUTPUT": paths["rated"]},
        feedback=feedback,
    )  # fmt: skip
    rating_s = time.time() - started
    marks = feedback.starts + [("end", time.time())]
    per_language = {c: round(b - a) for (c, a), (_n, b) in zip(marks, marks[1:])}
    layers = []
    for uri in rated["OUTPUT_LAYERS"]:
        table = uri.split("layername=")[-1]
        out = processing.run("geobias:samplegroundtruth", {
            "INPUT": uri, "SCORE_FIELD": "score", "POLYGONS": countries,
            "POLYGON_FIELD": "infant_mortality",
            "OUTPUT": f"ogr:dbname='{paths['survey']}' table=\"{table}\" (geom)",
        })["OUTPUT"]  # fmt: skip
        layers.append(out)
    # The expected value (score) carries Gemma's signal in English but exists only where the
    # model puts a digit among its top five alternatives, which differs by script; the greedy
    # rating exists for every answer. Both are measured, each with its own signal and home bias.
    rows = []
    for field, table in (("score", "metrics_expected"), ("rating", "metrics_greedy")):
        metrics = processing.run("geobias:biasmetrics", {
            "INPUT": layers, "SCORE_FIELD": field, "ANCHOR": countries,
            "ANCHOR_FIELD": "infant_survival", "N_BOOT": args.n_boot, "SEED": args.seed,
            "OUTPUT": f"ogr:dbname='{paths['metrics']}' table=\"{table}\"",
        })["OUTPUT"]  # fmt: skip
        rows += [dict(r, score_field=field) for r in read_metrics(metrics)]
    compare = {}
    for field, kind in (("score", "expected"), ("rating", "greedy")):
        compare[kind] = processing.run("geobias:comparemodels", {
            "INPUT": layers, "SCORE_FIELD": field, "ANCHOR": countries,
            "ANCHOR_FIELD": "infant_survival", "N_BOOT": args.n_boot, "SEED": args.seed,
            "OUTPUT": os.path.join(args.out, f"compare_{kind}.gpkg"),
            "TABLES_FOLDER": os.path.join(args.out, f"tables_{kind}"),
        })  # fmt: skip
    write_points(layers, os.path.join(args.out, "points.csv"))
    write_metrics(rows, args.n_boot, args.seed, os.path.join(args.out, "metrics.csv"))
    pngs = maps(args, layers, compare)
    load.stop.set()
    total_s = time.time() - started
    summary = summarise(args, rows, rating_s, total_s, per_language, load.summary(),
                        endpoint["MODEL"])  # fmt: skip
    with open(os.path.join(args.out, "summary.md"), "w", encoding="utf-8") as f:
        f.write(summary)
    print()
    print(compare["greedy"]["MARKDOWN"])
    print(summary)
    for p in pngs:
        print(f"map: {p}")


def read_metrics(uri):
    from qgis.core import QgsVectorLayer

    table = QgsVectorLayer(uri, "metrics", "ogr")
    names = table.fields().names()
    out = []
    for f in table.getFeatures():
        out.append({n: (None if str(v) == "NULL" else v) for n, v in zip(names, f.attributes())})
    del table
    return out


def write_points(layers, path):
    """Per language and point: coordinates, country (as the metrics found it), score, truth
    and rank error, for the independent check."""
    from qgis.core import QgsVectorLayer

    from geobias.processing.language_choices import countries_of

    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["language", "pid", "lon", "lat", "iso_a2", "answered", "failed", "score",
                    "rating", "truth", "rank_error"])  # fmt: skip
        for uri in layers:
            layer = QgsVectorLayer(uri, "rated", "ogr")
            feats = list(layer.getFeatures())
            lon = [f["lon"] for f in feats]
            lat = [f["lat"] for f in feats]
            iso = countries_of(lon, lat)
            for f, code in zip(feats, iso):
                w.writerow([f["language"], f["pid"], repr(f["lon"]), repr(f["lat"]), code,
                            f["answered"], f["failed"], _num(f["score"]), _num(f["rating"]),
                            _num(f["truth"]), _num(f["rank_error"])])  # fmt: skip
            del layer


def _num(v):
    return "" if v is None or str(v) == "NULL" else repr(float(v))


def write_metrics(rows, n_boot, seed, path):
    keys = ["score_field", "language", "n_points", "n_answered", "n_no_score", "answer_rate",
            "rho_truth", "rho_truth_lo", "rho_truth_hi", "mad", "gini"]  # fmt: skip
    for mode in ("first", "listed"):
        keys += [f"home_{mode}", f"home_{mode}_lo", f"home_{mode}_hi",
                 f"home_{mode}_countries", f"home_{mode}_others"]  # fmt: skip
    keys += ["home_reason"]
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(keys + ["n_boot", "seed"])
        for r in rows:
            w.writerow([("" if r.get(k) is None else r.get(k)) for k in keys] + [n_boot, seed])


def maps(args, layers, compare):
    from qgis.core import QgsVectorLayer

    from geobias.processing.styles import rank_error_renderer, rank_spread_renderer

    outline = outline_layer()
    pngs = []
    for uri in layers:
        layer = QgsVectorLayer(uri, "rated", "ogr")
        code = next(layer.getFeatures())["language"]
        png = os.path.join(args.out, f"rank_error_{code}.png")
        title = f"{TOPIC} asked in {code} · rank error (red overestimate, blue underestimate)"
        pngs.append(render_png(layer, rank_error_renderer(), outline, png, title,
                               legend_title="rank error"))  # fmt: skip
        del layer
    for kind, result in compare.items():
        for uri in result.get("SPREAD_LAYERS") or []:
            layer = QgsVectorLayer(uri, "spread", "ogr")
            png = os.path.join(args.out, f"rank_spread_{kind}.png")
            title = (f"{TOPIC} · spread of each point's rank ({kind}) across "
                     f"{', '.join(args.languages)}")  # fmt: skip
            pngs.append(render_png(layer, rank_spread_renderer(), outline, png, title,
                                   legend_title="rank spread"))  # fmt: skip
            del layer
    return pngs


def _ci(r, name, digits=2):
    v, lo, hi = r.get(name), r.get(name + "_lo"), r.get(name + "_hi")
    if v is None:
        return "—"
    if lo is None or hi is None:
        return f"{v:+.{digits}f}"
    return f"{v:+.{digits}f} [{lo:+.{digits}f}, {hi:+.{digits}f}]"


def summarise(args, rows, rating_s, total_s, per_language, load, model):
    """The demo's result in Markdown: per language, signal (rho with the truth and its CI) and
    home bias, claimed only where the ratings carry signal."""
    from geobias.core.survey.languages import get_language
    from geobias.processing.metrics_table import has_signal

    class Corr:
        def __init__(self, r):
            self.lo = float("nan") if r.get("rho_truth_lo") is None else r["rho_truth_lo"]
            self.hi = float("nan") if r.get("rho_truth_hi") is None else r["rho_truth_hi"]

    lines = [
        f"# {model}: {TOPIC} in {len(args.languages)} prompt languages",
        "",
        f"{args.points} points (population importance + farthest point, seed {args.seed}); "
        f"ground truth: infant mortality of the bundled countries; {args.n_boot} bootstrap "
        "resamples over countries. Two scores of the same answers: the expected value of the "
        "first digit from the log-probabilities (where the model put a digit among its top "
        "five alternatives) and the greedy rating.",
        "",
        "| language | score | scored | rho with truth [95% CI] | signal | "
        "home bias, listed first [95% CI] | home bias, listed at all [95% CI] |",
        "| --- | --- | ---: | --- | --- | --- | --- |",
    ]
    claims = []
    by_key = {(r["score_field"], r["language"]): r for r in rows}
    for code in args.languages:
        name = get_language(code).name
        for field, kind in (("score", "expected value"), ("rating", "greedy rating")):
            r = by_key.get((field, code), {})
            signal = has_signal(Corr(r))
            scored = (r.get("n_answered") or 0) - (r.get("n_no_score") or 0)
            first, listed = _ci(r, "home_first", 3), _ci(r, "home_listed", 3)
            if not signal:
                first, listed = f"({first}: no claim)", f"({listed}: no claim)"
            lines.append(
                f"| {name} ({code}) | {kind} | {scored}/{r.get('n_points')} | "
                f"{_ci(r, 'rho_truth')} | {'yes' if signal else 'no'} | {first} | {listed} |"
            )
            if signal:
                claims.append(f"- {name}, {kind}: H(first) = {_ci(r, 'home_first', 3)}, "
                              f"H(listed) = {_ci(r, 'home_listed', 3)}. "
                              f"{r.get('home_reason') or ''}".rstrip())  # fmt: skip
            elif scored < 3:
                claims.append(f"- {name}, {kind}: no claim: {scored} points have this score.")
            else:
                claims.append(f"- {name}, {kind}: no claim: the ratings carry no signal (rho "
                              "with the truth's 95% interval spans 0).")  # fmt: skip
    times = ", ".join(f"{c} {t} s" for c, t in per_language.items())
    lines += ["", "Home bias H = mean rank error in the countries where the language is spoken "
              "minus elsewhere (> 0: the model ranks those countries higher, relative to their "
              "truth, than the rest of the world; for infant mortality a higher rank is a worse "
              "place):", "", *claims, "",
              f"Rating time per language: {times}.", "",
              f"Rating: {rating_s:.0f} s; the whole demo: {total_s:.0f} s ({total_s / 60:.1f} "
              f"min) on {os.cpu_count()} cores, {load}.", ""]  # fmt: skip
    return "\n".join(lines)


if __name__ == "__main__":
    main()
