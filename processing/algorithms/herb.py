"""geobias:herb — hierarchical regional bias (HERB, Li et al. 2022) of a language model, on a map.

Builds the region hierarchy (the bundled GeoNames continents → countries → cities, or the user's
nested polygon layers), scores every sentence "People in <region> are <descriptor>." through the
score cache, aggregates C up the hierarchy with core.herb, and writes one GeoPackage: a layer per
level (Natural Earth countries, continents dissolved from them, cities as points, or the user's
polygons), the descriptor table and the runs table, with graduated styles saved in it. Nothing is
written before every score is in: a cancelled run keeps its scores in the cache and resumes.
"""

import json

from qgis.core import (
    QgsProcessing,
    QgsProcessingException,
    QgsProcessingOutputMultipleLayers,
    QgsProcessingOutputNumber,
    QgsProcessingOutputString,
    QgsProcessingParameterBoolean,
    QgsProcessingParameterEnum,
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterField,
    QgsProcessingParameterFile,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterNumber,
    QgsProcessingParameterString,
)

from ...i18n_util import QT_TRANSLATE_NOOP, message_text, tr
from ..base import GeoBiasAlgorithm
from ..definitions import HERB_SCOPES, HERB_SCORERS
from ..parameters import CacheParameter, HerbModelParameters, HerbReferenceParameters

# ---------------------------------------------------------------- scope


# ---------------------------------------------------------------- scorers


# ---------------------------------------------------------------- writing


class HerbAlgorithm(GeoBiasAlgorithm):
    NAME = "herb"
    DISPLAY = QT_TRANSLATE_NOOP("@default", "Regional bias (HERB)")
    GROUP = "herb"
    USES_GEOS = False  # QGIS's own geometry (dissolves) and OGR; no shapely

    def help_text(self):
        return tr(
            "Hierarchical regional bias (HERB, Li et al. 2022) of a language model. Each region "
            "is described by how likely the model finds 'People in <region> are <descriptor>.' "
            "for 112 descriptors in 5 topics; C of a region measures how inconsistently the "
            "model judges its sub-regions (their descriptive vectors' weighted distances), "
            "aggregated up the hierarchy to the Earth. Scope: the bundled GeoNames continents → "
            "countries → cities (a population threshold, at most N largest cities per country, "
            "a subset of continents), or your own nested polygon layers (2–3 layers whose lower "
            "layers name their parent's id, or one layer with a parent field). Model: the "
            "embedded model (the default, runs out of the box: Gemma 3 270M or SmolLM2 135M, or "
            "any GGUF model file; by default it scores each sentence in one pass in a child "
            "process, forced decoding one token at a time stays the reference path), a "
            "llama.cpp server (forced decoding), a "
            "/v1/completions endpoint with echo and logprobs (vLLM), or a local transformers "
            "masked LM (the paper's models). Scores of a causal LM are not comparable with the "
            "paper's masked-LM numbers. Writes one GeoPackage: a layer per level with c_w, c_z, "
            "c_<topic> (that topic only), c_wo_<topic> (without it), z, n_children, styled by "
            "C; the herb_descriptors and herb_regions tables and a runs table. 'Reproduce the "
            "released code' switches the released scripts' template (no period), descriptor "
            "words (ten with leading spaces), masked-LM padding and aggregation together; each "
            "part can also be set on its own. Scores are "
            "cached: a cancelled run resumes. The log names the model before anything is "
            "scored. 'Only estimate' prints the number of sentences, the requests still needed "
            "(a llama.cpp server also gets one tokenize request per batch) and the time as a "
            "range from the rate earlier runs recorded on this machine; it scores nothing and "
            "writes nothing."
        )

    def initAlgorithm(self, config=None):
        self.addParameter(
            QgsProcessingParameterEnum(
                "SCOPE", tr("Regions"), HERB_SCOPES.labels(),
                defaultValue=HERB_SCOPES.default_index,
            )
        )  # fmt: skip
        self.addParameter(
            QgsProcessingParameterString(
                "CONTINENTS", tr("World: continents (separated by ;, empty = all six)"), "",
                optional=True,
            )
        )  # fmt: skip
        self.addParameter(
            QgsProcessingParameterNumber(
                "MIN_POPULATION", tr("World: cities with at least this population"),
                defaultValue=15000, minValue=0,
            )
        )  # fmt: skip
        self.addParameter(
            QgsProcessingParameterNumber(
                "MAX_CITIES", tr("World: largest cities per country (0 = stop at countries)"),
                defaultValue=2, minValue=0,
            )
        )  # fmt: skip
        for k in (1, 2, 3):
            self.addParameter(
                QgsProcessingParameterFeatureSource(
                    f"LAYER_{k}", tr("Layer {k} (top level first)").format(k=k),
                    [QgsProcessing.SourceType.TypeVectorPolygon], optional=True,
                )
            )  # fmt: skip
            self.addParameter(
                QgsProcessingParameterField(
                    f"NAME_FIELD_{k}", tr("Layer {k}: region name field").format(k=k),
                    parentLayerParameterName=f"LAYER_{k}", optional=True,
                )
            )  # fmt: skip
            self.addParameter(
                QgsProcessingParameterField(
                    f"ID_FIELD_{k}", tr("Layer {k}: region id field (empty: the name)").format(k=k),
                    parentLayerParameterName=f"LAYER_{k}", optional=True,
                )
            )  # fmt: skip
            self.addParameter(
                QgsProcessingParameterField(
                    f"PARENT_FIELD_{k}",
                    tr("Layer {k}: parent id field (the id of a region one layer up; with one "
                       "layer, of the same layer)").format(k=k),
                    parentLayerParameterName=f"LAYER_{k}", optional=True,
                )
            )  # fmt: skip
        HerbModelParameters.add(self)
        self.addParameter(
            QgsProcessingParameterFile(
                "DESCRIPTORS", tr("Descriptors (topic<TAB>word lines; empty: the paper's 112)"),
                optional=True, fileFilter=tr("Text files (*.txt *.tsv)"),
            )
        )  # fmt: skip
        self.addParameter(
            QgsProcessingParameterString(
                "TOPICS", tr("Descriptor topics to include (separated by ;, empty = all)"), "",
                optional=True,
            )
        )  # fmt: skip
        HerbReferenceParameters.add(self)
        CacheParameter.add(self, tr("Score cache (empty: the survey cache in the QGIS profile)"))
        self.addParameter(
            QgsProcessingParameterBoolean(
                "ESTIMATE_ONLY", tr("Only estimate (score nothing, write nothing)"), False
            )
        )
        self.addParameter(
            QgsProcessingParameterFileDestination(
                "OUTPUT", tr("HERB GeoPackage"), tr("GeoPackage (*.gpkg)")
            )
        )
        self.addOutput(QgsProcessingOutputMultipleLayers("OUTPUT_LAYERS", tr("Region layers")))
        self.addOutput(QgsProcessingOutputString("DESCRIPTOR_TABLE", tr("Descriptor table URI")))
        self.addOutput(QgsProcessingOutputString("REGION_TABLE", tr("Region table URI")))
        self.addOutput(QgsProcessingOutputNumber("C_ROOT", tr("C of the Earth (C_w)")))
        self.addOutput(QgsProcessingOutputNumber("N_SENTENCES", tr("Sentences")))
        self.addOutput(QgsProcessingOutputNumber("N_TO_SCORE", tr("Sentences not yet cached")))
        self.addOutput(QgsProcessingOutputString("ESTIMATE", tr("Estimate")))

    # -- reading the parameters

    def read_scope(self, parameters, context):
        """(hierarchy, geometries or None for world, scope text)."""
        from ..herb_io import layer_regions, world_scope

        scope = HERB_SCOPES.key(self.parameterAsEnum(parameters, "SCOPE", context))
        if scope == "world":
            text = self.parameterAsString(parameters, "CONTINENTS", context)
            continents = [c.strip() for c in text.split(";") if c.strip()]
            min_pop = self.parameterAsInt(parameters, "MIN_POPULATION", context)
            max_cities = self.parameterAsInt(parameters, "MAX_CITIES", context)
            h = world_scope(continents, min_pop, max_cities)
            what = ", ".join(continents) if continents else tr("the world")
            return h, None, tr("{what}, {n} regions").format(what=what, n=len(h))
        levels = []
        for k in (1,) if scope == "parent_field" else (1, 2, 3):
            source = self.parameterAsSource(parameters, f"LAYER_{k}", context)
            if source is None:
                if k <= (1 if scope == "parent_field" else 2):
                    raise QgsProcessingException(tr("Give layer {k} of the scope.").format(k=k))
                continue
            name_f = self.parameterAsString(parameters, f"NAME_FIELD_{k}", context)
            if not name_f:
                raise QgsProcessingException(
                    tr("Choose the region name field of layer {k}.").format(k=k)
                )
            id_f = self.parameterAsString(parameters, f"ID_FIELD_{k}", context)
            parent_f = self.parameterAsString(parameters, f"PARENT_FIELD_{k}", context)
            if (k > 1 or scope == "parent_field") and not parent_f:
                raise QgsProcessingException(
                    tr("Choose the parent id field of layer {k}: without it the layers have no "
                       "parent relation.").format(k=k)
                )  # fmt: skip
            level = source.sourceName() or f"level {k}"
            levels.append((source, name_f, id_f, parent_f, level))
        h, geoms = layer_regions(levels, context)
        names = " > ".join(level[-1] for level in levels)
        return h, geoms, tr("{n} regions of {layers}").format(n=len(h), layers=names)

    def read_descriptors(self, parameters, context, options):
        """The descriptors: the file's, else the bundled 112 (as released with the reference
        options' released_words)."""
        from ...core.herb.descriptors import DescriptorError, load_descriptors, topics_of

        path = self.parameterAsFile(parameters, "DESCRIPTORS", context)
        try:
            words = load_descriptors(path) if path else options.descriptors()
        except (DescriptorError, ValueError) as err:  # ValueError: not a UTF-8 text file
            raise QgsProcessingException(
                tr("Descriptors (DESCRIPTORS): {err}").format(err=message_text(err))
            ) from err
        text = self.parameterAsString(parameters, "TOPICS", context)
        wanted = [t.strip() for t in text.split(";") if t.strip()]
        if wanted:
            unknown = [t for t in wanted if t not in topics_of(words)]
            if unknown:
                raise QgsProcessingException(
                    tr("Unknown topics {u}; the descriptors have: {k}.").format(
                        u=", ".join(unknown), k=", ".join(topics_of(words))
                    )
                )
            words = [d for d in words if d.topic in wanted]
        return words

    def processAlgorithm(self, parameters, context, feedback):
        from ...core.engine.cache import CacheError, ScoreCache
        from ...core.herb.aggregation import AggregationError
        from ...core.herb.descriptors import DescriptorError, topics_of
        from ...core.herb.run import (
            HerbSpec,
            IncompleteScoresError,
            estimate,
            plan,
        )
        from ...core.herb.run import run as run_herb
        from ..endpoints import herb_model_label, probe_scorer, stopped_sentence
        from ..herb_io import format_c_table, format_estimate, world_geometries, write_results
        from ..herb_scorers import make_scorer
        from ..progress import Later, RunProgress, herb_key, rate_book, step_text
        from ..rating import load_outputs
        from ..runs import append_runs, now, run_record
        from ..styles import short_model

        started = now()
        path = self.parameterAsFileOutput(parameters, "OUTPUT", context)
        h, geoms, scope_text = self.read_scope(parameters, context)
        options = HerbReferenceParameters.read(self, parameters, context)
        words = self.read_descriptors(parameters, context, options)
        template = options.template
        only_estimate = self.parameterAsBool(parameters, "ESTIMATE_ONLY", context)
        how = HerbModelParameters.read(self, parameters, context)
        kind = how.kind
        cache_path = CacheParameter.read(self, parameters, context)
        try:
            from ...core.herb.descriptors import validate_template

            validate_template(template)
        except DescriptorError as err:
            raise QgsProcessingException(message_text(err)) from err
        if h.n_levels < 2:
            raise QgsProcessingException(
                tr("The scope has one level only: HERB needs regions and their sub-regions.")
            )
        try:
            cache = ScoreCache(cache_path)
        except CacheError as err:
            raise QgsProcessingException(message_text(err)) from err
        model = herb_model_label(kind, how.connection.model, how.connection.base_url,
                                 embedded=how.model, model_file=how.model_file)  # fmt: skip
        feedback.pushInfo(
            tr("Model: {m} ({scorer}).").format(m=model, scorer=HERB_SCORERS.label(kind))
        )
        scorer, host = make_scorer(
            kind, how.connection, feedback, method=how.method, model=how.model,
            model_file=how.model_file, reference_padding=options.padding,
        )  # fmt: skip
        try:
            spec = HerbSpec(h, scorer, words, template)
            try:
                sentences = plan(spec).sentences
            except (DescriptorError, ValueError) as err:
                raise QgsProcessingException(message_text(err)) from err
            key = herb_key(kind, scorer.identity, host, scorer.concurrency)
            # The time from the rate recorded on this machine (core/engine/throughput.py); an
            # estimate alone scores nothing and writes nothing, not even a calibration's scores.
            rate, timed = rate_book().get(key), 0
            est = estimate(spec, cache, rate)
            text = format_estimate(est, host, scope_text, model, timed,
                                   rate.runs if hasattr(rate, "runs") else 0)  # fmt: skip
            feedback.pushInfo(text)
            results = {"N_SENTENCES": est.n_sentences, "N_TO_SCORE": est.n_to_score,
                       "ESTIMATE": text}  # fmt: skip
            if only_estimate:
                return dict(results, OUTPUT=None, OUTPUT_LAYERS=[])
            if est.n_to_score:
                probe_scorer(scorer, sentences[0])

            def text_of(p):
                return tr("{d}/{t} sentences, {r:.1f}/s").format(d=p.done, t=p.total, r=p.rate)

            # Scoring fills the bar to 90; the layers and tables the rest.
            progress = RunProgress(feedback, text_of, 0.0, 90.0, key)
            try:
                result = run_herb(spec, cache, progress, feedback.isCanceled,
                                  options.aggregation)  # fmt: skip
            except IncompleteScoresError as err:
                if err.stopped is not None:
                    sentence = stopped_sentence(err.stopped, tr("scores"))
                    raise QgsProcessingException(sentence) from err
                raise QgsProcessingException(
                    tr("{err} (scores so far are kept in the cache; nothing was written)").format(
                        err=message_text(err)
                    )
                ) from err
            except AggregationError as err:
                raise QgsProcessingException(message_text(err)) from err
        finally:
            scorer.close()
            cache.close()
        said = []  # said once the bar is full: qgis_process prints it in the middle otherwise
        progress.finish(tr("sentences"), said)
        step_text(feedback, tr("Writing the region layers…"))
        if geoms is None:
            geoms = world_geometries(h, feedback)
        uris, regions = write_results(path, result, geoms, Later(said))
        # The model's name: its file's checksum, also in the identity, is the manifest's.
        model = getattr(scorer, "identity", "").split("@")[0]
        record = run_record(
            self.id(), parameters, started, None, None, topics_of(words),
            model=model, provider=kind, endpoint_host=host,
            template_body=template, n_points=len(h), n_requests=est.n_requests,
            n_cached=est.n_cached, n_failed=0, status="complete", study_area=scope_text,
        )  # fmt: skip
        record["endpoint"] = json.dumps(
            {"scorer": kind, "host": host, "rule": scorer.rule,
             "method": how.method if kind == "embedded" else "forced",
             "reference_code": options.aggregation, "template": template,
             "released_words": options.released_words, "reference_padding": options.padding}
        )  # fmt: skip
        append_runs(path, [record])
        load_outputs(context, uris)
        feedback.setProgress(100)
        model_name = short_model(model.replace("gguf:", ""))
        for line in said + [format_c_table(result), tr("Model: {m}").format(m=model_name)]:
            feedback.pushInfo(line)
        results.update(OUTPUT=path, OUTPUT_LAYERS=list(uris), REGION_TABLE=regions,
                       DESCRIPTOR_TABLE=f"{path}|layername=herb_descriptors",
                       C_ROOT=float(result.C_w[result.root]))  # fmt: skip
        return results
