"""Run inside QGIS (`qgis --code`): import the GPT-3.5 reference ratings, show the dock with
their bias metrics, save the main window to build/screenshots/dock.png and quit."""

import os

from qgis.core import QgsApplication, QgsProject, QgsRectangle, QgsVectorLayer
from qgis.PyQt.QtCore import QTimer
from qgis.utils import iface, plugins

ROOT = os.environ["GEOBIAS_ROOT"]
REF = os.environ.get(
    "GEOBIAS_REFERENCE", os.path.join(os.path.dirname(ROOT), "shared", "reference", "geollm-gpt35")
)
OUT = os.path.join(ROOT, "build", "screenshots", "dock.png")
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


def build():
    work = os.path.join(ROOT, "build", "screenshots")
    os.makedirs(work, exist_ok=True)
    rated = []
    for i, (topic, name) in enumerate(FILES.items()):
        out = os.path.join(work, f"gpt35_{i}.gpkg")
        if os.path.exists(out):
            os.remove(out)
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
        rated.append(QgsVectorLayer(r["OUTPUT"], f"gpt-3.5: {topic}", "ogr"))
    metrics_path = os.path.join(work, "metrics.gpkg")
    if os.path.exists(metrics_path):
        os.remove(metrics_path)
    countries = (
        os.path.join(ROOT, "resources", "data", "world_countries.gpkg") + "|layername=countries"
    )
    r = run(
        "geobias:biasmetrics",
        {
            "INPUT": [layer.source() for layer in rated],
            "SCORE_FIELD": "score",
            "TRUTH_FIELD": "",
            "ANCHOR": countries,
            "ANCHOR_FIELD": "infant_survival",
            "N_BOOT": 200,
            "OUTPUT": metrics_path,
        },
    )
    metrics = QgsVectorLayer(r["OUTPUT"], "Bias metrics", "ogr")
    world = QgsVectorLayer(countries, "Countries", "ogr")
    QgsProject.instance().addMapLayer(world)
    dock = plugins["geobias"].dock
    dock.show()
    dock.ui.nameEdit.setText("GPT-3.5 reference")
    dock.show_results(rated + [metrics], group_name="GPT-3.5 reference")
    iface.mapCanvas().setExtent(QgsRectangle(-170, -60, 180, 80))
    iface.mainWindow().resize(1400, 860)
    iface.mainWindow().resizeDocks([dock], [560], 1)  # Qt.Horizontal
    QTimer.singleShot(4000, grab)


def grab():
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
