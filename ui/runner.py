"""What the dock runs: GeoBias Processing algorithms (the same as toolbox, models, qgis_process)."""

import os
import re
from dataclasses import dataclass, field

from qgis.core import (
    QgsApplication,
    QgsFeature,
    QgsProcessingContext,
    QgsProcessingFeedback,
    QgsProcessingUtils,
    QgsProject,
    QgsVectorLayer,
)

from ..core.prompts import PRESETS
from ..i18n_util import tr
from ..paths import DATA
from .settings import find_endpoint, load_endpoints
from .task import AlgorithmChainTask

SAMPLE_METHODS = {"uniform": 0, "gazetteer": 1, "raster": 2, "grid": 3, "hex": 4}
PROVIDERS = (
    "embedded",
    "openai",
    "ollama",
    "vllm",
    "llamacpp",
    "lmstudio",
    "together",
    "openrouter",
    "gemini",
    "custom",
)
SCORE_INDEX = {"expected": 0, "greedy": 1}
COUNTRIES = os.path.join(DATA, "world_countries.gpkg") + "|layername=countries"
DEFAULT_ANCHOR_FIELD = "infant_survival"


def slug(text):
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")[:40] or "survey"


def output_dir(name):
    """<project folder>/geobias/<survey> (or a temporary folder for an unsaved project)."""
    home = QgsProject.instance().homePath() or QgsProcessingUtils.tempFolder()
    path = os.path.join(home, "geobias", slug(name))
    os.makedirs(path, exist_ok=True)
    return path


def region_layer(geom):
    """A memory polygon layer in EPSG:4326 holding the study area."""
    layer = QgsVectorLayer("MultiPolygon?crs=EPSG:4326", "study area", "memory")
    f = QgsFeature()
    f.setGeometry(geom)
    layer.dataProvider().addFeatures([f])
    return layer


def run_algorithm(alg_id, params):
    """Run one algorithm synchronously (short jobs: sampling); raises with its error message."""
    alg = QgsApplication.processingRegistry().createAlgorithmById(alg_id)
    if alg is None:
        raise RuntimeError(tr("Processing algorithm {id} is not available.").format(id=alg_id))
    context = QgsProcessingContext()
    context.setProject(QgsProject.instance())
    feedback = QgsProcessingFeedback()
    results, ok = alg.run(params, context, feedback)
    if not ok:
        raise RuntimeError(feedback.textLog().strip().splitlines()[-1:] or alg_id)
    return results


def sample_points(settings, geom, path=None):
    """Sample the study area with geobias:samplepoints; returns the points layer."""
    path = path or os.path.join(output_dir(settings.name), "points.gpkg")
    params = {
        "REGION": region_layer(geom),
        "COUNT": settings.n_points,
        "METHOD": SAMPLE_METHODS.get(settings.method, 0),
        "SEED": settings.seed,
        "OUTPUT": path,
    }
    weight = QgsProject.instance().mapLayer(settings.weight_layer)
    if settings.method == "raster" and weight is not None:
        params["WEIGHT_RASTER"] = weight.source()
    out = run_algorithm("geobias:samplepoints", params)["OUTPUT"]
    layer = QgsVectorLayer(out, tr("Sampled points"), "ogr")
    if not layer.isValid():
        raise RuntimeError(tr("The sampled points could not be read from {p}.").format(p=out))
    return layer


def rate_params(settings, endpoint_cfg, points, out):
    provider = endpoint_cfg.provider if endpoint_cfg.provider in PROVIDERS else "custom"
    return {
        "INPUT": points,
        "PROVIDER": PROVIDERS.index(provider),
        "BASE_URL": "" if endpoint_cfg.is_embedded else endpoint_cfg.base_url,
        "MODEL": "" if endpoint_cfg.is_embedded else endpoint_cfg.model,
        "AUTH_CONFIG": endpoint_cfg.authcfg,
        "CONCURRENCY": endpoint_cfg.concurrency,
        "PRESET": list(PRESETS).index(settings.preset) if settings.preset in PRESETS else 0,
        "SCORE": SCORE_INDEX.get(settings.score, 1),
        "TOPICS": ";".join(settings.topics),
        "OUTPUT": out,
    }


@dataclass
class Plan:
    """A survey ready to run: the background task, the pre-run estimate and how to load it."""

    task: AlgorithmChainTask
    estimate: object = None
    names: dict = field(default_factory=dict)

    def load(self, results):
        """Layers from the finished steps: rated points (styled from the GeoPackage), metrics."""
        layers = []
        for r in results:
            for uri in r.get("OUTPUT_LAYERS") or []:
                layers.append(QgsVectorLayer(uri, self.names.get(uri, _layer_title(uri)), "ogr"))
        metrics = results[-1].get("OUTPUT") if results else None
        if metrics and not (results[-1].get("OUTPUT_LAYERS")):
            layers.append(QgsVectorLayer(metrics, tr("Bias metrics"), "ogr"))
        return layers


def _layer_title(uri):
    return uri.split("layername=")[-1] if "layername=" in uri else os.path.basename(uri)


def plan(settings, geom, preview_layer=None, estimate=True):
    """Sample (or reuse the previewed) points, estimate the requests, build the task."""
    folder = output_dir(settings.name)
    points = preview_layer if preview_layer is not None else sample_points(settings, geom)
    points_source = points.source()
    endpoints = [find_endpoint(n, load_endpoints()) for n in settings.endpoints]
    endpoints = [e for e in endpoints if e is not None]
    if not endpoints:
        raise RuntimeError(tr("None of the chosen models is configured any more."))
    steps = []
    for e in endpoints:
        out = os.path.join(folder, f"rated_{slug(e.name)}.gpkg")
        steps.append(("geobias:ratelocations", rate_params(settings, e, points_source, out)))
    anchor = QgsProject.instance().mapLayer(settings.anchor_layer)
    anchor_source = anchor.source() if anchor is not None else COUNTRIES
    anchor_field = settings.anchor_field if anchor is not None else DEFAULT_ANCHOR_FIELD

    def metrics_params(results):
        layers = [uri for r in results for uri in (r.get("OUTPUT_LAYERS") or [])]
        return {
            "INPUT": layers,
            "SCORE_FIELD": "score",
            "TRUTH_FIELD": "truth",
            "ANCHOR": anchor_source,
            "ANCHOR_FIELD": anchor_field,
            "OUTPUT": os.path.join(folder, "metrics.gpkg"),
        }

    steps.append(("geobias:biasmetrics", metrics_params))
    task = AlgorithmChainTask(tr("GeoBias survey: {name}").format(name=settings.name), steps)
    est = estimate_requests(settings, points, endpoints) if estimate else None
    return Plan(task, est)


def estimate_requests(settings, points, endpoints):
    """core.survey.estimate for the points: requests not cached, hosts, cost."""
    import numpy as np

    from ..core.cache import SurveyCache
    from ..core.gazetteer import Gazetteer
    from ..core.survey import SurveySpec, estimate

    lon, lat = [], []
    for f in points.getFeatures():
        p = f.geometry().asPoint()
        lon.append(p.x())
        lat.append(p.y())
    spec = SurveySpec(
        np.asarray(lon),
        np.asarray(lat),
        list(settings.topics),
        [e.endpoint() for e in endpoints],
        PRESETS.get(settings.preset),
    )
    folder = os.path.join(QgsApplication.qgisSettingsDirPath(), "geobias")
    os.makedirs(folder, exist_ok=True)
    cache = SurveyCache(os.path.join(folder, "survey_cache.sqlite"))
    try:
        return estimate(spec, Gazetteer.load(), cache)
    finally:
        cache.close()
