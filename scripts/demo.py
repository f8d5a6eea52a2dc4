"""`make demo`: the paper's world survey with the embedded local model, via the GeoBias algorithms.

Samples points over the world (gazetteer population importance + farthest point), rates Infant
Mortality Rate and Average Attractiveness of Residents, takes the ground truth from the sample
country layer (infant mortality), anchors the bias score on infant survival, writes
output/demo/survey.gpkg with styled layers, renders PNG maps of ranks and rank errors with QGIS,
and prints the metrics table.
"""

import argparse
import os
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
QGIS_PLUGINS = "/usr/share/qgis/python/plugins"

TOPICS = ["Infant Mortality Rate", "Average Attractiveness of Residents"]


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


def render_png(layer, renderer, outline, path, title_size=(1600, 800)):
    """Render one point layer over the country outlines to a PNG with QGIS."""
    from qgis.core import QgsMapRendererParallelJob, QgsMapSettings, QgsRectangle
    from qgis.PyQt.QtCore import QSize
    from qgis.PyQt.QtGui import QColor

    layer = layer.clone()
    layer.setRenderer(renderer)
    settings = QgsMapSettings()
    settings.setLayers([layer, outline])
    settings.setDestinationCrs(layer.crs())
    settings.setExtent(QgsRectangle(-180, -60, 180, 85))
    settings.setOutputSize(QSize(*title_size))
    settings.setBackgroundColor(QColor("white"))
    job = QgsMapRendererParallelJob(settings)
    job.start()
    job.waitForFinished()
    job.renderedImage().save(path, "PNG")
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
    # Measured here: ~5 s per request on 2 cores (SmolLM2-135M, ~300-token prompts), 2 topics.
    parser.add_argument("--points", type=int, default=40, help="points (paper: 2000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=os.path.join(ROOT, "output", "demo"))
    parser.add_argument("--base-url", default="", help="an OpenAI-compatible endpoint instead")
    parser.add_argument("--model", default="")
    parser.add_argument("--n-boot", type=int, default=1000)
    args = parser.parse_args(argv)

    app, provider = start_qgis()
    from qgis.core import QgsVectorLayer

    import processing
    from geobias.processing.bias_metrics import format_table
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
        "TOPICS": ";".join(TOPICS),
        "TRUTH": countries,
        "TRUTH_FIELD": "infant_mortality",
        "TRUTH_TOPICS": TOPICS[0],
        "ANCHOR": countries,
        "ANCHOR_FIELD": "infant_survival",
        "N_BOOT": args.n_boot,
        "OUTPUT": gpkg,
    }
    started = time.time()
    print(f"Rating {args.points} points x {len(TOPICS)} topics ...", flush=True)
    res = processing.run("geobias:survey", params)
    elapsed = time.time() - started

    outline = outline_layer()
    pngs = []
    for uri in res["OUTPUT_LAYERS"]:
        layer = QgsVectorLayer(uri, "rated", "ogr")
        name = uri.split("layername=")[-1]
        pngs.append(
            render_png(layer, rank_renderer(), outline, os.path.join(args.out, f"{name}_rank.png"))
        )
        if layer.fields().lookupField("rank_error") >= 0 and layer.maximumValue(
            layer.fields().lookupField("rank_error")
        ) not in (None,):
            err_png = os.path.join(args.out, f"{name}_rank_error.png")
            pngs.append(render_png(layer, rank_error_renderer(), outline, err_png))
    metrics = QgsVectorLayer(res["METRICS"], "metrics", "ogr")
    rows = [
        dict(zip(metrics.fields().names(), f.attributes(), strict=True))
        for f in metrics.getFeatures()
    ]
    rows = [{k: (None if str(v) == "NULL" else v) for k, v in r.items()} for r in rows]
    print()
    print(format_table(rows))
    print()
    print(f"survey: {elapsed:.0f} s for {args.points} points x {len(TOPICS)} topics")
    print(f"GeoPackage: {gpkg}")
    for p in pngs:
        print(f"map: {p}")
    del provider
    app.exitQgis()


if __name__ == "__main__":
    main()
