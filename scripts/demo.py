"""`make demo`: the paper's world survey with the embedded local model, via the GeoBias algorithms.

The model is the default embedded one (core/runtime/models.py: Gemma 3 270M, chosen by
`make eval-models`); `--model` names another bundled one (smollm2-135m) or, with --base-url,
a model of that endpoint. The score is the expected value of the rating from the log-probs.

Samples 200 points over the world (gazetteer population importance + farthest point), rates
Infant Mortality Rate (`--topics` adds others, e.g. Average Attractiveness of Residents), takes
the ground truth from the sample country layer (infant mortality), anchors the bias score on
infant survival, writes output/demo/survey.gpkg with styled layers, renders PNG maps of ranks
and rank errors with QGIS, and prints the metrics table and rho with the truth and its CI.

Why 200 points and one topic: at 100 points the 95% CI of rho sat on 0 in one of two runs
(+0.18 [-0.03, +0.37]); 200 points on one topic cost the same 200 requests and gave
+0.27 [+0.09, +0.43].
"""

import argparse
import gc
import os
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
QGIS_PLUGINS = "/usr/share/qgis/python/plugins"

from qgis.core import QgsProcessingFeedback  # noqa: E402

TOPICS = ["Infant Mortality Rate"]


def start_qgis():
    """Standalone QGIS with Processing, the native algorithms and the GeoBias provider."""
    from qgis.core import QgsApplication

    app = QgsApplication([], False)
    app.initQgis()
    sys.path.insert(0, QGIS_PLUGINS)  # QGIS's `processing`, not the plugin's folder
    from processing.core.Processing import Processing
    from qgis.analysis import QgsNativeAlgorithms

    Processing.initialize()
    registry = QgsApplication.processingRegistry()
    if registry.providerById("native") is None:
        registry.addProvider(QgsNativeAlgorithms())
    from geobias.processing.provider import GeoBiasProvider

    provider = GeoBiasProvider()
    registry.addProvider(provider)
    return app, provider


def run_with_embedded_model(run, args):
    """`run(args, endpoint)` in a standalone QGIS against the embedded model with one thread
    per slot (on two shared cores llama.cpp's second thread spins at its barriers and the server
    ran ten times slower: docs/design.md). Answers are cached under the model's name, not its
    port, so a rerun reads them back."""
    import gc

    from geobias.core.runtime.embedded import EmbeddedServer

    app, _provider = start_qgis()
    server = EmbeddedServer(parallel=2, threads=1)
    server.start()
    try:
        run(args, {"PROVIDER": 0, "BASE_URL": server.base_url, "MODEL": server.model_name,
                   "CONCURRENCY": 2})  # fmt: skip
    finally:
        server.stop()
        gc.collect()  # every layer gone before exitQgis (else a crash at exit)
        app.exitQgis()


def render_png(layer, renderer, outline, path, title, size=(1600, 800),
               extent=(-180, -60, 180, 85), above=(), legend_title=""):  # fmt: skip
    """Render one layer (with `above` layers on top) over the country outlines to a PNG with
    the title in a band above the map and the layer's legend in its lower left corner."""
    from qgis.core import (
        QgsMapRendererParallelJob,
        QgsMapSettings,
        QgsRectangle,
        QgsSymbolLayerUtils,
    )
    from qgis.PyQt.QtCore import QRectF, QSize, Qt
    from qgis.PyQt.QtGui import QColor, QFont, QFontMetrics, QImage, QPainter

    layer = layer.clone()
    layer.setRenderer(renderer)
    settings = QgsMapSettings()
    settings.setLayers([*above, layer, outline])
    settings.setDestinationCrs(layer.crs())
    settings.setExtent(QgsRectangle(*extent))
    settings.setOutputSize(QSize(*size))
    settings.setBackgroundColor(QColor("white"))
    job = QgsMapRendererParallelJob(settings)
    job.start()
    job.waitForFinished()
    # The title gets its own white band (over the map it ran across the shapes), wrapped to as
    # many lines as it needs.
    title_font = QFont("DejaVu Sans", 16)
    wrap = int(Qt.TextFlag.TextWordWrap) | int(Qt.AlignmentFlag.AlignLeft)
    wrap |= int(Qt.AlignmentFlag.AlignVCenter)
    box = QFontMetrics(title_font).boundingRect(0, 0, size[0] - 48, 1000, wrap, title)
    band = box.height() + 28
    image = QImage(size[0], size[1] + band, QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.drawImage(0, band, job.renderedImage())
    painter.setFont(title_font)
    painter.drawText(QRectF(24, 0, size[0] - 48, band), wrap, title)
    items = [i for i in renderer.legendSymbolItems() if i.symbol() is not None]
    if items:
        font = QFont("DejaVu Sans", 11)
        painter.setFont(font)
        line = QFontMetrics(font).height() + 6
        lines = ([legend_title] if legend_title else []) + [i.label() for i in items]
        width = max(QFontMetrics(font).horizontalAdvance(t) for t in lines) + 56
        height = line * len(lines) + 16
        x, y = 16, band + size[1] - height - 16
        painter.setPen(QColor("#9a9a9a"))
        painter.setBrush(QColor(255, 255, 255, 230))
        painter.drawRect(QRectF(x, y, width, height))
        painter.setPen(QColor("black"))
        row = y + 8
        if legend_title:
            painter.drawText(
                QRectF(x + 12, row, width, line), Qt.AlignmentFlag.AlignVCenter, legend_title
            )
            row += line
        for item in items:
            icon = QgsSymbolLayerUtils.symbolPreviewPixmap(item.symbol(), QSize(20, 20))
            painter.drawPixmap(int(x + 12), int(row + (line - 20) / 2), icon)
            painter.drawText(
                QRectF(x + 42, row, width, line), Qt.AlignmentFlag.AlignVCenter, item.label()
            )
            row += line
    painter.end()
    image.save(path, "PNG")
    return path


def outline_layer():
    from qgis.core import QgsFillSymbol, QgsSingleSymbolRenderer, QgsVectorLayer

    path = os.path.join(ROOT, "resources", "data", "world_countries.gpkg")
    layer = QgsVectorLayer(f"{path}|layername=countries", "countries", "ogr")
    symbol = QgsFillSymbol.createSimple(
        {"color": "#f2f2f2", "outline_color": "#9a9a9a", "outline_width": "0.2"}
    )
    layer.setRenderer(QgsSingleSymbolRenderer(symbol))
    return layer


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    # Measured here: about 1.8 s per request on 2 idle cores (Gemma 3 270M, ~270-token prompts,
    # 2 slots), so 200 points take about 6 minutes.
    parser.add_argument("--points", type=int, default=200, help="points (the paper: 2000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=os.path.join(ROOT, "output", "demo"))
    parser.add_argument("--base-url", default="", help="an OpenAI-compatible endpoint instead")
    parser.add_argument(
        "--model", default="", help="a bundled model (core/runtime/models.py) or the endpoint's"
    )
    parser.add_argument("--n-boot", type=int, default=1000)
    parser.add_argument(
        "--topics",
        default=";".join(TOPICS),
        help="topics separated by ';' (the first is compared with infant mortality)",
    )
    args = parser.parse_args(argv)
    args.topics = [t.strip() for t in args.topics.split(";") if t.strip()]

    app, provider = start_qgis()
    try:
        run_demo(args)
    finally:
        # Every layer must be gone before exitQgis, or its destructor runs after QGIS is torn
        # down (segmentation fault at exit).
        gc.collect()
        app.exitQgis()


class PrintFeedback(QgsProcessingFeedback):
    """Progress on the terminal: a line every 10% and the algorithm's messages."""

    def __init__(self):
        super().__init__()
        self.last, self.text = -10, ""
        self.progressChanged.connect(self.show)

    def setProgressText(self, text):
        self.text = text  # QGIS 3.22's feedback has no getter for it
        super().setProgressText(text)

    def show(self, percent):
        if percent >= self.last + 10:
            self.last = percent - percent % 10
            print(f"  {percent:3.0f}%  {self.text}", flush=True)

    def pushInfo(self, info):
        # Skip processing.run's echo of the results and the algorithm's own metrics table:
        # the demo prints both, tidier, at the end.
        if not info.startswith("Results:") and "\n" not in info.strip():
            print(f"  {info}", flush=True)

    def reportError(self, error, fatalError=False):
        print(f"  error: {error}", file=sys.stderr, flush=True)


def run_demo(args):
    from qgis.core import NULL, QgsVectorLayer

    import processing
    from geobias.processing.metrics_table import format_table
    from geobias.processing.styles import rank_error_renderer, rank_renderer

    os.makedirs(args.out, exist_ok=True)
    gpkg = os.path.join(args.out, "survey.gpkg")
    if os.path.exists(gpkg):
        os.remove(gpkg)
    countries = os.path.join(ROOT, "resources", "data", "world_countries.gpkg")
    countries += "|layername=countries"
    params = {
        "COUNT": args.points,
        "METHOD": 1,  # gazetteer population importance + farthest point
        "SEED": args.seed,
        "PROVIDER": 0 if not args.base_url else 9,  # embedded / custom
        "BASE_URL": args.base_url,
        "MODEL": args.model,
        "TOPICS": ";".join(args.topics),
        "TRUTH": countries,
        "TRUTH_FIELD": "infant_mortality",
        "TRUTH_TOPICS": args.topics[0],
        "ANCHOR": countries,
        "ANCHOR_FIELD": "infant_survival",
        "N_BOOT": args.n_boot,
        "OUTPUT": gpkg,
    }
    started = time.time()
    print(f"Rating {args.points} points x {len(args.topics)} topics ...", flush=True)
    res = processing.run("geobias:survey", params, feedback=PrintFeedback())
    elapsed = time.time() - started

    outline = outline_layer()
    pngs = []
    for uri in res["OUTPUT_LAYERS"]:
        layer = QgsVectorLayer(uri, "rated", "ogr")
        name = uri.split("layername=")[-1]
        first = next(layer.getFeatures())
        what = f"{first['model']} · {first['topic']}"
        png = os.path.join(args.out, f"{name}_rank.png")
        title = f"{what} · rank of rating (green high, red low)"
        pngs.append(render_png(layer, rank_renderer(), outline, png, title, legend_title="rank"))
        errors = layer.fields().lookupField("rank_error")
        if errors >= 0 and layer.maximumValue(errors) != NULL:  # a topic with no truth
            png = os.path.join(args.out, f"{name}_rank_error.png")
            title = f"{what} · rank error (red overestimate, blue underestimate)"
            pngs.append(
                render_png(
                    layer, rank_error_renderer(), outline, png, title, legend_title="rank error"
                )
            )
    metrics = QgsVectorLayer(res["METRICS"], "metrics", "ogr")
    rows = [dict(zip(metrics.fields().names(), f.attributes())) for f in metrics.getFeatures()]
    rows = [{k: (None if str(v) == "NULL" else v) for k, v in r.items()} for r in rows]
    print()
    print(format_table(rows))
    print()
    for r in rows:  # the demo's claim: the default score tracks the truth, or it does not
        if r.get("topic") == args.topics[0] and r.get("rho_truth") is not None:
            lo, hi = r.get("rho_truth_lo"), r.get("rho_truth_hi")
            verdict = "excludes 0" if lo is not None and (lo > 0 or hi < 0) else "includes 0"
            print(
                f"{r['model']}: rho(expected value, truth) on {args.topics[0]} = "
                f"{r['rho_truth']:+.3f}, 95% CI [{lo:+.2f}, {hi:+.2f}] ({verdict})"
            )
    print(f"survey: {elapsed:.0f} s for {args.points} points x {len(args.topics)} topics")
    print(f"GeoPackage: {gpkg}")
    for p in pngs:
        print(f"map: {p}")


if __name__ == "__main__":
    main()
