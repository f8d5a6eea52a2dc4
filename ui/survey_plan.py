"""What the dock runs: GeoBias Processing algorithms (the same as toolbox, models, qgis_process)."""

import os
from dataclasses import dataclass, field

import numpy as np
from qgis.core import (
    Qgis,
    QgsApplication,
    QgsFeature,
    QgsFeatureRequest,
    QgsProcessingContext,
    QgsProject,
    QgsVectorLayer,
    QgsWkbTypes,
)

from ..core.survey.prompts import PRESETS
from ..i18n_util import tr
from ..paths import COUNTRIES
from ..processing.definitions import (
    CONSTRAINTS,
    PROMPT_PRESETS,
    PROVIDERS,
    SAMPLE_METHODS,
    SCORE_KINDS,
)
from ..processing.endpoints import (
    default_cache_path,
    embedded_port,
    start_embedded,
)
from ..processing.gpkg import safe_name
from ..processing.language_choices import language_choices, tagged
from ..processing.parameters import DEFAULT_ANCHOR_FIELD
from ..processing.run_facts import feature_names, features_description, layer_field, layer_label
from . import outputs
from .settings import find_endpoint, load_endpoints, truth_map
from .task import (
    AlgorithmChainTask,
    Feedback,
    LayerSnapshot,
    error_sentence,
    log,
    resolve_snapshots,
)

# DEFAULT_ANCHOR_FIELD is Processing's default anchor (processing/parameters.py): one for both.


def slug(text):
    """A folder name for a survey: lower case [a-z0-9_], at most 40 characters."""
    return outputs.slug(text)


def output_dir(name, run=False):
    """<project folder>/geobias/<name>[/<run time>], or in the GeoBias output folder while the
    project is not saved (ui/outputs.py): never Processing's temporary folder, which QGIS
    deletes when it closes."""
    return outputs.run_folder(name, run)


def region_layer(geom):
    """A memory polygon layer in EPSG:4326 holding the study area."""
    layer = QgsVectorLayer("MultiPolygon?crs=EPSG:4326", "study area", "memory")
    f = QgsFeature()
    f.setGeometry(geom)
    layer.dataProvider().addFeatures([f])
    return layer


@dataclass
class StudyArea:
    """Where to sample: a lon/lat polygon as WKT (drawn, the map extent, the world) or a
    polygon layer's features (all, or the selected ones). geobias:samplepoints unions a layer's
    polygons itself, in the task's thread: the dock never unions them on the main thread."""

    wkt: str = ""
    layer_id: str = ""
    selected: bool = False


def layer_param(layer, selected=False):
    """A layer as an algorithm running in a task should read it: a file layer by its source
    (opened anew in the task's thread), any other (memory, filtered, database) or its selected
    features as a LayerSnapshot made here, on the main thread."""
    if layer.providerType() in ("ogr", "gdal") and not layer.subsetString() and not selected:
        return layer.source()
    return LayerSnapshot(layer, selected)


def sample_params(settings, area, path):
    """geobias:samplepoints parameters for a StudyArea, as a callable for AlgorithmChainTask:
    a polygon's memory layer is made in the task's thread, where it is read."""
    from qgis.core import QgsGeometry

    params = {
        "COUNT": settings.n_points,
        "METHOD": SAMPLE_METHODS.index(settings.method),
        "SEED": settings.seed,
        "STUDY_AREA": area_description(settings),  # the points' GeoPackage records it
        "OUTPUT": path,
    }
    project = QgsProject.instance()
    weight = project.mapLayer(settings.weight_layer)
    if settings.method == "raster" and weight is not None:
        params["WEIGHT_RASTER"] = weight.source()
    layer = project.mapLayer(area.layer_id) if area.layer_id else None
    if layer is not None and area.selected:
        params["REGION"] = layer_param(layer, selected=True)
    elif layer is not None:
        params["REGION"] = layer_param(layer)

    def make(results):
        if area.wkt:
            return dict(params, REGION=region_layer(QgsGeometry.fromWkt(area.wkt)))
        return params

    return make


def open_in_task(uri, name, styles=True):
    """A vector layer opened in a task's thread (with the styles saved in its GeoPackage, the
    slow part) and handed to the main thread, which then only adds it to the project."""
    layer = QgsVectorLayer(uri, name, "ogr")
    if styles:
        add_saved_styles(layer)
    layer.moveToThread(QgsApplication.instance().thread())
    return layer


def points_step(task):
    """After geobias:samplepoints, in the task: the points layer and their (lon, lat)."""
    uri = task.results[-1]["OUTPUT"]
    layer = QgsVectorLayer(uri, tr("Sampled points"), "ogr")
    if not layer.isValid():
        raise RuntimeError(tr("The sampled points could not be read from {p}.").format(p=uri))
    lonlat = point_lonlat(layer)
    layer.moveToThread(QgsApplication.instance().thread())
    return {"LAYER": layer, "LONLAT": lonlat}


def run_algorithm(alg_id, params):
    """Run one algorithm synchronously; raises with its error message. For tests and scripts:
    the dock runs every algorithm in a task on its run panel."""
    alg = QgsApplication.processingRegistry().createAlgorithmById(alg_id)
    if alg is None:
        raise RuntimeError(tr("Processing algorithm {id} is not available.").format(id=alg_id))
    context = QgsProcessingContext()
    context.setProject(QgsProject.instance())
    feedback = Feedback()
    results, ok = alg.run(resolve_snapshots(params, context), context, feedback)
    if not ok:
        log(feedback.textLog(), Qgis.MessageLevel.Critical)  # a traceback stays in the log
        raise RuntimeError(error_sentence(feedback.last_error) or alg.displayName())
    return results


def area_description(settings):
    """The study area as the user gave it in the Area tab, for the outputs' facts: "a polygon
    drawn on the map", "Countries: Kenya, Uganda (2 selected features)", "the map extent",
    "the world"."""
    if settings.area_mode == "draw":
        return tr("a polygon drawn on the map")
    if settings.area_mode == "extent":
        return tr("the map extent")
    layer = QgsProject.instance().mapLayer(settings.area_layer)
    if settings.area_mode != "layer" or layer is None:
        return tr("the world")
    request = QgsFeatureRequest().setFlags(QgsFeatureRequest.Flag.NoGeometry)
    count = layer.featureCount()
    if settings.selected_only:
        request.setFilterFids(layer.selectedFeatureIds())
        count = layer.selectedFeatureCount()
    names = feature_names(layer, request) if settings.selected_only else []
    return features_description(layer_label(layer), names, count, settings.selected_only)


def sample_points(settings, geom, path=None):
    """Sample the study area with geobias:samplepoints, synchronously (plan() without points,
    for tests and scripts; the dock samples in a task); returns the points layer."""
    path = path or os.path.join(output_dir(settings.name), "points.gpkg")
    params = {
        "REGION": region_layer(geom),
        "COUNT": settings.n_points,
        "METHOD": SAMPLE_METHODS.index(settings.method),
        "SEED": settings.seed,
        "STUDY_AREA": area_description(settings),  # the points' GeoPackage records it
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


def sampling_note(settings, layer):
    """Why the sampled layer has another count than the settings ask ("" if it has it): a
    grid places only certain counts in an area."""
    from ..processing.points import grid_note

    return grid_note(settings.method, settings.n_points, layer.featureCount())


# ---------------------------------------------------------------------------- embedded model
# The dock and Processing share one embedded model per QGIS process, a child process kept
# between surveys (loading it takes seconds); the dock passes its URL to geobias:ratelocations.
# Cache keys don't hold its port (core.cache), so a re-run or a resume after a restart finds
# every answer whatever port the model gets.


def embedded_url(port):
    return f"http://127.0.0.1:{port}/v1"


def uses_embedded(settings):
    """Whether the survey asks the embedded model."""
    cfgs = [find_endpoint(n, load_endpoints()) for n in settings.endpoints]
    return any(e is not None and e.shared_model for e in cfgs)


# ---------------------------------------------------------------------------- endpoints
def run_endpoint(cfg, base_url=None):
    """The core Endpoint exactly as geobias:ratelocations will build it (same cache keys),
    through the one factory (EndpointConfig.endpoint), with the prices the estimate counts."""
    return cfg.endpoint(base_url=base_url)


def rated_path(folder, cfg):
    """The GeoPackage a survey's ratings by this endpoint go to, named after the endpoint."""
    return os.path.join(folder, f"rated_{slug(cfg.name)}.gpkg")


def rate_params(settings, cfg, points, out, base_url=None):
    """geobias:ratelocations parameters for one configured endpoint."""
    c = cfg.connection(base_url=base_url)
    preset = settings.preset if settings.preset in PROMPT_PRESETS.keys else PROMPT_PRESETS.default
    score = settings.score if settings.score in SCORE_KINDS.keys else SCORE_KINDS.default
    return {
        "INPUT": points,
        "PROVIDER": PROVIDERS.index(c.provider),
        "BASE_URL": c.base_url,
        "MODEL": c.model,
        "AUTH_CONFIG": cfg.authcfg,
        "CONCURRENCY": c.concurrency,
        "REASONING": c.reasoning,
        "CONSTRAINT": CONSTRAINTS.index(c.constraint),
        "PRESET": PROMPT_PRESETS.index(preset),
        "SCORE": SCORE_KINDS.index(score),
        "TOPICS": ";".join(settings.topics),
        "OUTPUT": out,
        # Rate limits only when set, so an unlimited endpoint's parameters stay as they were.
        **{k: v for k, v in (("RPM", c.rpm), ("TPM", c.tpm)) if v},
        # The patience only when not the default, for the same reason.
        **({"PATIENCE": c.patience} if c.patience != 30.0 else {}),
        **language_params(settings),
        **sampled_params(settings),
    }


def draws(settings):
    """Requests per prompt: the sampled score's draws, 1 for the other scores."""
    return int(settings.samples) if settings.score == "sampled" else 1


def sampled_params(settings):
    """SAMPLES for the sampled score (Processing's parameter, so the dock runs the algorithm's
    own draws); nothing for the other scores, whose parameters stay as they were."""
    return {"SAMPLES": draws(settings)} if settings.score == "sampled" else {}


def survey_languages(settings):
    """The survey's prompt languages that have a file (English when none is left)."""
    known = language_choices().keys
    codes = [c for c in dict.fromkeys(settings.languages or []) if c in known]
    return [c for c in known if c in codes] or ["en"]


def language_params(settings):
    """LANGUAGES for a rating algorithm, as choice positions of the codes; nothing for English
    alone (Processing's default), so an English survey's parameters stay as they were."""
    codes = survey_languages(settings)
    if not tagged(codes):
        return {}
    choices = language_choices()
    return {"LANGUAGES": [choices.index(c) for c in codes]}


def truth_params(field_name, layer):
    """geobias:samplegroundtruth's truth source parameters for a polygon or point layer, named
    as the user sees it (`Countries.infant_mortality`)."""
    source = layer_param(layer)
    name = layer_field(layer_label(layer), field_name)
    if layer.geometryType() == QgsWkbTypes.GeometryType.PolygonGeometry:
        return {"POLYGONS": source, "POLYGON_FIELD": field_name, "TRUTH_NAME": name}
    return {"POINTS": source, "POINT_FIELD": field_name, "MAX_DISTANCE_KM": 50.0,
            "TRUTH_NAME": name}  # fmt: skip


def anchor_params(settings):
    """The anchor parameters of the survey's settings: the chosen layer and field, else the
    bundled countries' infant survival; named as the user sees it."""
    anchor = QgsProject.instance().mapLayer(settings.anchor_layer)
    if anchor is not None and settings.anchor_field:
        return {"ANCHOR": layer_param(anchor), "ANCHOR_FIELD": settings.anchor_field,
                "ANCHOR_NAME": layer_field(layer_label(anchor), settings.anchor_field)}  # fmt: skip
    return {"ANCHOR": COUNTRIES, "ANCHOR_FIELD": DEFAULT_ANCHOR_FIELD,
            "ANCHOR_NAME": layer_field(layer_label(COUNTRIES), DEFAULT_ANCHOR_FIELD)}  # fmt: skip


# ---------------------------------------------------------------------------- the plan
@dataclass
class Plan:
    """A survey ready to run: the background task, the pre-run estimate and how to load it."""

    task: AlgorithmChainTask
    estimate: object = None
    parts: list = field(default_factory=list)  # (endpoint, its estimate), for the confirmation
    layers: list = field(default_factory=list)  # (uri, display name, style), filled by the task
    recount: object = None  # () -> the estimate again: what the cache holds now
    folder: str = ""
    loaded: list = field(default_factory=list)  # layers opened by the task, moved to the UI thread
    columns: dict = field(default_factory=dict)  # layer id -> the Results plot's columns
    scores: list = field(default_factory=list)  # the GeoBS scores' rows of the rated layers
    note: str = ""  # what the user should know before the run (a grid's count)
    draws: int = 1  # requests per prompt (the sampled score's k)

    def open_layers(self, metrics):
        """Rated points (styles from their GeoPackage) and the metrics table as QGIS layers."""
        layers = []
        from ..processing.styles import describe_shown

        for uri, name, _style in self.layers:
            layer = QgsVectorLayer(uri, name, "ogr")
            add_saved_styles(layer)
            if layer.isValid():
                describe_shown(layer)  # metadata title and abstract: map, model, topic
            layers.append(layer)
        if metrics:
            layers.append(QgsVectorLayer(metrics, tr("Bias metrics"), "ogr"))
        return layers

    def load_in_task(self, task):
        """Last step, in the task's thread: open and style the layers (slow: styles come from the
        GeoPackages), then hand them to the main thread, which only adds them to the project."""
        from .results import plot_columns
        from .results_tab import geobs_rows

        main = QgsApplication.instance().thread()
        metrics = task.results[-1].get("OUTPUT")
        self.loaded = self.open_layers(metrics)
        # The plot's columns too: reading thousands of points would stall the main thread.
        self.columns = {
            lyr.id(): plot_columns(lyr) for lyr in self.loaded if lyr.isValid() and lyr.isSpatial()
        }
        # The GeoBS scores of the rank errors, as the report computes them (its SSI shown).
        truth = [(lyr.source(), lyr, lyr.crs()) for lyr in self.loaded if lyr.isValid()
                 and lyr.isSpatial() and lyr.fields().lookupField("truth") >= 0]  # fmt: skip
        table = self.loaded[-1] if metrics and truth else None
        self.scores = geobs_rows(task, truth, "truth", table, self.folder)
        if self.scores is None:
            return None
        for layer in self.loaded:
            layer.moveToThread(main)
        return {}

    def load(self, results):
        """The layers of the finished run (opened by the task when it could)."""
        if self.loaded:
            return self.loaded
        return self.open_layers(_metrics_output(results))


def _metrics_output(results):
    for r in reversed(results):
        if r.get("OUTPUT"):
            return r["OUTPUT"]
    return None


def add_saved_styles(layer):
    """Offer the other styles saved in the GeoPackage (rank, rank error, rating) in the layer's
    style menu; the default one is already applied."""
    if not layer.isValid():
        return
    try:
        n, ids, names, _descr, _err = layer.listStylesInDatabase()
    except Exception:  # a provider without style storage
        return
    manager = layer.styleManager()
    current = manager.currentStyle()
    for style_id, name in list(zip(ids, names))[:n]:
        if name in manager.styles():
            continue
        xml = layer.getStyleFromDatabase(style_id)
        xml = xml[0] if isinstance(xml, tuple) else xml
        if not xml:
            continue
        if manager.addStyleFromLayer(name):
            manager.setCurrentStyle(name)
            doc_ok = layer.importNamedStyle(_dom(xml))
            if not (doc_ok[0] if isinstance(doc_ok, tuple) else doc_ok):
                log(f"style {name} of {layer.name()} could not be read", Qgis.MessageLevel.Warning)
    manager.setCurrentStyle(current)


def _dom(xml):
    from qgis.PyQt.QtXml import QDomDocument

    doc = QDomDocument()
    doc.setContent(xml)
    return doc


def run_endpoints(settings):
    """The core Endpoints a survey with these settings asks (as plan() builds them)."""
    cfgs = [find_endpoint(n, load_endpoints()) for n in settings.endpoints]
    cfgs = [e for e in cfgs if e is not None]
    if not cfgs:
        raise RuntimeError(tr("None of the chosen models is configured any more."))
    port = embedded_port() if any(e.shared_model for e in cfgs) else None
    local_url = embedded_url(port) if port else None
    return [run_endpoint(e, local_url if e.shared_model else None) for e in cfgs]


def prepare_task(settings, area, preview=None):
    """The survey's first background job: sample the points (unless `preview`, the previewed
    (layer, (lon, lat))) and count the requests; results[-1] holds LAYER, LONLAT, ESTIMATE and
    PARTS ([(endpoint, its estimate)])."""
    endpoints = run_endpoints(settings)
    steps = []
    if preview is None:
        path = os.path.join(output_dir(settings.name), "points.gpkg")
        steps.append(("geobias:samplepoints", sample_params(settings, area, path)))
        steps.append((points_step, "points"))

    def count(task):
        if preview is None:
            layer, lonlat = task.results[-1]["LAYER"], task.results[-1]["LONLAT"]
        else:
            layer, lonlat = preview
        lonlat = tuple(np.asarray(v, float) for v in lonlat)
        parts = estimate_parts(settings, lonlat, endpoints)  # each model's, for its time
        return {"LAYER": layer, "LONLAT": lonlat, "ESTIMATE": combine(e for _ep, e in parts),
                "PARTS": parts}  # fmt: skip

    steps.append((count, "estimate"))
    return AlgorithmChainTask(tr("GeoBias: preparing the survey"), steps)


def plan(settings, geom, preview_layer=None, estimate=True, lonlat=None):
    """Sample (or reuse the previewed) points, estimate the requests, build the task.

    Steps: [start the embedded model] → ratelocations per model → samplegroundtruth for each
    topic with a ground truth → style → biasmetrics (anchor: infant survival by default).
    `lonlat`: the points' coordinates when already read (the dock reads them in a task).
    """
    folder = output_dir(settings.name, run=True)
    points = preview_layer if preview_layer is not None else sample_points(settings, geom)
    points_source = points.source()
    cfgs = [find_endpoint(n, load_endpoints()) for n in settings.endpoints]
    cfgs = [e for e in cfgs if e is not None]
    if not cfgs:
        raise RuntimeError(tr("None of the chosen models is configured any more."))
    topics = list(dict.fromkeys(settings.topics))
    port = embedded_port() if any(e.shared_model for e in cfgs) else None
    local_url = embedded_url(port) if port else None
    the_plan = Plan(None, folder=folder, draws=draws(settings))
    the_plan.note = sampling_note(settings, points)  # a grid's count, said before the run
    steps = []
    rate_steps = []
    for e in cfgs:
        out = rated_path(folder, e)
        url = local_url if e.shared_model else None
        if e.shared_model:  # (re)start the server with this model, on the same port

            def start(task, model=e.model):
                return {"BASE_URL": start_embedded(port, model, task.feedback)}

            steps.append((start, "embedded"))
        rate_steps.append((len(steps), e))
        steps.append(("geobias:ratelocations", rate_params(settings, e, points_source, out, url)))

    # Ground truth per topic; a topic without one keeps its ratings and ranks only.
    project = QgsProject.instance()
    truth = {
        t: (project.mapLayer(lid), f)
        for t, (lid, f) in truth_map(settings.truth).items()
        if t in topics and project.mapLayer(lid) is not None
    }
    # ratelocations writes its layers language by language, topics in order within each.
    languages = survey_languages(settings)
    rated_keys = [(code, topic) for code in languages for topic in topics]
    with_language = tagged(languages)
    truth_steps = {}  # (rate step index, output index) -> truth step index
    for i, e in rate_steps:
        for k, (code, topic) in enumerate(rated_keys):
            if topic not in truth:
                continue
            layer, field_name = truth[topic]
            source = truth_params(field_name, layer)
            stem = f"truth_{slug(e.name)}_{k}" if not with_language else (
                f"truth_{slug(e.name)}_{topics.index(topic)}_{safe_name(code)}")  # fmt: skip

            def params(results, i=i, k=k, source=source, stem=stem):
                p = {"INPUT": results[i]["OUTPUT_LAYERS"][k], "SCORE_FIELD": "score"}
                p.update(source)
                p["OUTPUT"] = os.path.join(folder, f"{stem}.gpkg")
                return p

            truth_steps[(i, k)] = len(steps)
            steps.append(("geobias:samplegroundtruth", params))

    def collect(task):
        """The layers to load, the truth-topic one replaced by its ground-truth version."""
        from ..processing.styles import layer_name, style_file

        out = []
        for i, e in rate_steps:
            model = e.model
            for k, uri in enumerate(task.results[i].get("OUTPUT_LAYERS") or []):
                if k < len(rated_keys):
                    code, topic = rated_keys[k]
                    name = layer_name(model, topic, code if with_language else "")
                else:
                    name = _layer_title(uri)
                if (i, k) in truth_steps:
                    uri = task.results[truth_steps[(i, k)]]["OUTPUT"]
                    style_file(uri, "rank_error")  # saves rank / rank error / rating styles
                    out.append((uri, name, "rank_error"))
                else:
                    out.append((uri, name, "rank"))
        the_plan.layers = out
        return {"OUTPUT_LAYERS": [u for u, _, _ in out]}

    steps.append((collect, "collect"))
    anchor = anchor_params(settings)

    def metrics_params(results):
        return {
            "INPUT": [u for u, _, _ in the_plan.layers],
            "SCORE_FIELD": "score",
            "TRUTH_FIELD": "truth",
            **anchor,
            "SEED": settings.seed,
            "OUTPUT": os.path.join(folder, "metrics.gpkg"),
        }

    steps.append(("geobias:biasmetrics", metrics_params))
    steps.append((the_plan.load_in_task, "load"))
    the_plan.task = AlgorithmChainTask(
        tr("GeoBias survey: {name}").format(name=settings.name), steps
    )
    endpoints = [run_endpoint(e, local_url if e.shared_model else None) for e in cfgs]
    if lonlat is None:
        lonlat = point_lonlat(points)  # arrays, not the layer: a Plan outlives its layers
    the_plan.recount = lambda: estimate_requests(settings, lonlat, endpoints)
    if estimate:
        the_plan.parts = estimate_parts(settings, lonlat, endpoints)
        the_plan.estimate = combine(est for _ep, est in the_plan.parts)
    return the_plan


def _layer_title(uri):
    return uri.split("layername=")[-1] if "layername=" in uri else os.path.basename(uri)


def point_lonlat(points):
    """(lon, lat) arrays of a point layer in EPSG:4326."""
    lon, lat = [], []
    for f in points.getFeatures():
        p = f.geometry().asPoint()
        lon.append(p.x())
        lat.append(p.y())
    return np.asarray(lon), np.asarray(lat)


def estimate_requests(settings, lonlat, endpoints, cache_path=None):
    """core.survey.estimate with the run's own endpoints and cache: requests, hosts, cost;
    the sampled score's every draw a request, as geobias:ratelocations counts them before it
    probes the endpoint (the most it sends: nothing goes out before the confirmation)."""
    from ..core.engine.cache import SurveyCache
    from ..core.geo.gazetteer import Gazetteer
    from ..core.survey.language_runs import estimate_languages
    from ..core.survey.run import SurveySpec
    from ..core.survey.sampled import estimate_sampled

    spec = SurveySpec(
        lonlat[0],
        lonlat[1],
        list(dict.fromkeys(settings.topics)),
        list(endpoints),
        PRESETS.get(settings.preset),
    )
    cache = SurveyCache(cache_path or default_cache_path())
    languages = survey_languages(settings)
    try:
        if settings.score == "sampled":
            return estimate_sampled(spec, Gazetteer.load(), cache, draws(settings), languages)
        return estimate_languages(spec, languages, Gazetteer.load(), cache)
    finally:
        cache.close()


def estimate_parts(settings, lonlat, endpoints, cache_path=None):
    """[(endpoint, core.survey Estimate)]: what each model will be asked (its time is its own:
    each runs at its own rate, one after the other)."""
    return [(ep, estimate_requests(settings, lonlat, [ep], cache_path)) for ep in endpoints]


def combine(estimates):
    """One core.survey Estimate of several (requests, tokens and costs added, hosts joined)."""
    from ..core.survey.run import Estimate

    out = Estimate(0, 0, 0, 0, [], None, 0, 0)
    for e in estimates:
        out.n_requests += e.n_requests
        out.n_cached += e.n_cached
        out.prompt_tokens += e.prompt_tokens
        out.completion_tokens += e.completion_tokens
        out.hosts += [h for h in e.hosts if h not in out.hosts]
        if e.cost is not None:
            out.cost = (out.cost or 0.0) + e.cost
        out.n_failed_before += e.n_failed_before
        out.n_total += e.n_total
    return out
