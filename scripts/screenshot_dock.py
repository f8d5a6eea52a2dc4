"""Run inside QGIS (`qgis --code`): the GPT-3.5 reference ratings of paper 1 through the GeoBias
algorithms (import, ground truth from the bundled countries' infant mortality, bias metrics),
shown in the dock as a survey's results (styled layers in their group, metrics table, plot, one
point's answer), saved as build/screenshots/dock.png; then QGIS quits.

With GEOBIAS_SCREENSHOT=demo it shows instead the last `make demo` run of the embedded model
(output/demo/survey.gpkg: its rated layers and metrics) and saves build/screenshots/dock_demo.png.
"""

import os

from qgis.core import QgsApplication, QgsProject, QgsRectangle, QgsVectorLayer
from qgis.PyQt.QtCore import QTimer
from qgis.PyQt.QtGui import QColor
from qgis.PyQt.QtWidgets import QDockWidget
from qgis.utils import iface, plugins

ROOT = os.environ["GEOBIAS_ROOT"]
# The paper's GPT-3.5 ratings, bundled with the plugin (resources/reference).
REF = os.path.join(ROOT, "resources", "reference", "geollm-gpt35")
DEMO = os.environ.get("GEOBIAS_SCREENSHOT") == "demo"
OUT = os.path.join(ROOT, "build", "screenshots", "dock_demo.png" if DEMO else "dock.png")
DEMO_GPKG = os.path.join(ROOT, "output", "demo", "survey.gpkg")
FILES = {
    "Infant Mortality Rate": "gpt_3_5_turbo_0613_Infant_Mortality_Rate_world_prompts.csv",
    "Average Attractiveness of Residents": (
        "gpt_3_5_turbo_0613_Average_Attractiveness_of_Residents_world_prompts.csv"
    ),
}


def run(alg_id, params):
    alg = QgsApplication.processingRegistry().createAlgorithmById(alg_id)
    from qgis.core import QgsProcessingContext, QgsProcessingFeedback

    context = QgsProcessingContext()
    context.setProject(QgsProject.instance())
    results, ok = alg.run(params, context, QgsProcessingFeedback())
    if not ok:
        raise RuntimeError(f"{alg_id} failed")
    return results


def remove_gpkg(path):
    """A GeoPackage and its SQLite side files (a stale -wal would corrupt the new file)."""
    for p in (path, path + "-wal", path + "-shm"):
        if os.path.exists(p):
            os.remove(p)


def demo_layers():
    """The rated layers (truth first) and the metrics of the last `make demo` run."""
    import sqlite3

    from geobias.processing.styles import layer_name
    from geobias.ui.survey_plan import add_saved_styles

    con = sqlite3.connect(DEMO_GPKG)
    names = [r[0] for r in con.execute("SELECT table_name FROM gpkg_contents ORDER BY rowid")]
    con.close()
    rated = []
    for name in names:
        layer = QgsVectorLayer(f"{DEMO_GPKG}|layername={name}", name, "ogr")
        if layer.fields().lookupField("score") < 0:  # metrics, runs, layer_styles
            continue
        feature = next(layer.getFeatures())
        layer.setName(layer_name(feature["model"], feature["topic"]))
        add_saved_styles(layer)
        rated.append(layer)
    rated.sort(key=lambda layer: layer.fields().lookupField("truth") < 0)
    metrics = QgsVectorLayer(f"{DEMO_GPKG}|layername=metrics", "Bias metrics", "ogr")
    return rated, metrics


def build():
    from geobias.processing.styles import style_file
    from geobias.ui.survey_plan import add_saved_styles

    if DEMO:
        rated, metrics = demo_layers()
        return show(rated, metrics, "Embedded model (make demo)")

    work = os.path.join(ROOT, "build", "screenshots")
    os.makedirs(work, exist_ok=True)
    countries = (
        os.path.join(ROOT, "resources", "data", "world_countries.gpkg") + "|layername=countries"
    )
    rated = []
    for i, (topic, name) in enumerate(FILES.items()):
        out = os.path.join(work, f"gpt35_{i}.gpkg")
        remove_gpkg(out)
        r = run(
            "geobias:importratings",
            {
                "INPUT": os.path.join(REF, name),
                "MODEL": "gpt-3.5-turbo-0613",
                "TOPIC": topic,
                "SCORE": 0,
                "OUTPUT": out,
            },
        )
        uri, style = r["OUTPUT"], "rank"
        if topic == "Infant Mortality Rate":  # the countries' infant mortality is its truth
            truth = os.path.join(work, "gpt35_truth.gpkg")
            remove_gpkg(truth)
            uri = run(
                "geobias:samplegroundtruth",
                {
                    "INPUT": uri,
                    "SCORE_FIELD": "score",
                    "POLYGONS": countries,
                    "POLYGON_FIELD": "infant_mortality",
                    "OUTPUT": truth,
                },
            )["OUTPUT"]
            style = "rank_error"
        style_file(uri, style)
        layer = QgsVectorLayer(uri, f"gpt-3.5: {topic}", "ogr")
        add_saved_styles(layer)
        rated.append(layer)
    metrics_path = os.path.join(work, "metrics.gpkg")
    remove_gpkg(metrics_path)
    r = run(
        "geobias:biasmetrics",
        {
            "INPUT": [layer.source() for layer in rated],
            "SCORE_FIELD": "score",
            "TRUTH_FIELD": "truth",
            "ANCHOR": countries,
            "ANCHOR_FIELD": "infant_survival",
            "N_BOOT": 1000,
            "OUTPUT": metrics_path,
        },
    )
    metrics = QgsVectorLayer(r["OUTPUT"], "Bias metrics", "ogr")
    show(rated, metrics, "GPT-3.5 reference")


def show(rated, metrics, title):
    """The layers over the countries, in the dock as a survey's results; then the grab."""
    countries = (
        os.path.join(ROOT, "resources", "data", "world_countries.gpkg") + "|layername=countries"
    )
    world = QgsVectorLayer(countries, "Countries", "ogr")
    symbol = world.renderer().symbol()
    symbol.setColor(QColor(236, 236, 230))
    symbol.symbolLayer(0).setStrokeColor(QColor(170, 170, 170))
    symbol.symbolLayer(0).setStrokeWidth(0.15)
    QgsProject.instance().addMapLayer(world)
    dock = plugins["geobias"].dock
    dock.show()
    dock.ui.nameEdit.setText(title)
    dock.show_results(rated + [metrics], group_name=title)
    root = QgsProject.instance().layerTreeRoot()
    for other in rated[1:]:  # one map at a time
        root.findLayer(other.id()).setItemVisibilityChecked(False)
    iface.setActiveLayer(rated[0])
    feature = next(rated[0].getFeatures())
    dock.results.show_answer(feature)
    iface.mapCanvas().setExtent(QgsRectangle(-170, -58, 180, 78))
    iface.mainWindow().resize(1600, 960)
    browser = iface.mainWindow().findChild(QDockWidget, "Browser")
    if browser is not None:  # more room for the map and the legend
        browser.hide()
    iface.mainWindow().resizeDocks([dock], [820], 1)  # Qt.Horizontal
    QTimer.singleShot(4000, grab)


def grab():
    dock = plugins["geobias"].dock
    iface.mainWindow().resizeDocks([dock], [900], 1)  # once laid out, the dock can widen
    dock.results.fit_metrics_table()
    iface.mapCanvas().refreshAllLayers()
    QTimer.singleShot(2000, save)


def save():
    iface.mainWindow().grab().save(OUT)
    print("saved", OUT)
    QgsApplication.exit(0)


def start():
    import qgis.utils

    print("plugins:", sorted(qgis.utils.plugins), "available:", qgis.utils.available_plugins[:20])
    try:
        build()
    except Exception:
        import traceback

        traceback.print_exc()
        QgsApplication.exit(1)


QTimer.singleShot(1500, start)
