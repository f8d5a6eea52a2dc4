"""geobias:recallsurvey — "what was the <quantity> of <place> in <year>?", the model's number
against the layer's; relative errors per polygon and per group (WorldBench's disparity)."""

import math

from qgis.core import (
    QgsProcessing,
    QgsProcessingException,
    QgsProcessingOutputMultipleLayers,
    QgsProcessingOutputNumber,
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterField,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterString,
)

from ...i18n_util import QT_TRANSLATE_NOOP, tr
from ..base import GeoBiasAlgorithm
from ..parameters import (
    INPUT,
    OUTPUT,
    BootstrapParameters,
    BudgetParameters,
    CacheParameter,
    ConnectionParameters,
)

NAME_FIELD = "NAME_FIELD"
PARENT_FIELD = "PARENT_FIELD"
FIELDS = "FIELDS"
QUANTITIES = "QUANTITIES"
UNITS = "UNITS"
YEARS = "YEARS"
GROUP_FIELD = "GROUP_FIELD"
ALL = "all"  # the one group when no GROUP_FIELD is given
NO_GROUP = "(no value)"  # polygons whose GROUP_FIELD is empty


class RecallSurveyAlgorithm(GeoBiasAlgorithm):
    NAME = "recallsurvey"
    DISPLAY = QT_TRANSLATE_NOOP("@default", "Recall survey")
    GROUP = "survey"
    USES_GEOS = False

    def help_text(self):
        return tr(
            "Asks a large language model, for each polygon and each numeric field, the field's "
            "value ('What was the infant mortality rate of Chad in 2015, in deaths per 1,000 "
            "live births? Answer with a single number only.'), greedy at temperature 0 and "
            "with no answer constraint, reads the number it answers (in any script and with "
            "scale words; a range such as 'between 5 and 7' stays unanswered) and compares it "
            "with the field: the relative error |a−b|/max(a,b) and the log ratio ln(a/b) "
            "(above 0: the model overstates). One polygon layer per field, and a groups table "
            "with each group's mean relative error, its bootstrap 95% interval and its ratio "
            "to the best group's (WorldBench's disparity), also in the log. The bundled "
            "countries' fields have their quantity, unit and year filled in. Answers are "
            "cached."
        )

    def initAlgorithm(self, config=None):
        self.addParameter(
            QgsProcessingParameterFeatureSource(
                INPUT, tr("Polygons to ask about"), [QgsProcessing.SourceType.TypeVectorPolygon]
            )
        )
        self.addParameter(QgsProcessingParameterField(NAME_FIELD, tr("Name field"), "name", INPUT))
        self.addParameter(
            QgsProcessingParameterField(
                PARENT_FIELD, tr("Parent name field (e.g. the country of a province)"), None,
                INPUT, optional=True,
            )
        )  # fmt: skip
        self.addParameter(
            QgsProcessingParameterField(
                FIELDS, tr("Numeric fields to ask"), "infant_mortality", INPUT,
                QgsProcessingParameterField.DataType.Numeric, allowMultiple=True,
            )
        )  # fmt: skip
        for key, label in (
            (QUANTITIES, tr("Quantities, one per field (separated by ;)")),
            (UNITS, tr("Units, one per field (separated by ;)")),
            (YEARS, tr("Years, one per field (separated by ;)")),
        ):
            self.addParameter(QgsProcessingParameterString(key, label, "", optional=True))
        self.addParameter(
            QgsProcessingParameterField(
                GROUP_FIELD, tr("Group field (e.g. a continent)"), None, INPUT, optional=True
            )
        )
        ConnectionParameters.add(self)
        CacheParameter.add(self)
        BudgetParameters.add(self)
        BootstrapParameters.add(self, kind=False)
        self.addParameter(
            QgsProcessingParameterFileDestination(
                OUTPUT, tr("Recall survey GeoPackage"), tr("GeoPackage (*.gpkg)")
            )
        )
        self.addOutput(QgsProcessingOutputMultipleLayers("OUTPUT_LAYERS", tr("Answer layers")))
        self.addOutput(QgsProcessingOutputNumber("N_ANSWERED", tr("Answered questions")))

    def processAlgorithm(self, parameters, context, feedback):
        from ...core.engine.budget import Spend
        from ...core.engine.cache import CacheError, SurveyCache
        from ...core.survey.recall import group_errors, recall_prompt, run_recall
        from ...core.survey.run import RunStats
        from ...i18n_util import message_text
        from ..endpoints import check_reachable, running_endpoint
        from ..gpkg import safe_name, write_table, writing
        from ..herb_io import write_polygon_layer
        from ..overlay_styles import save_overlay_styles, style_overlay_output
        from ..progress import RunProgress, step_text
        from ..rating import endpoint_errors, load_tables
        from ..recall import (
            GROUP_FIELDS,
            RECALL_FIELDS,
            field_prompts,
            group_rows,
            has_truth,
            questions,
            read_polygons,
            recall_records,
            spread,
        )
        from ..runs import append_runs, now, run_record, stats_fields

        started = now()
        path = self.parameterAsFileOutput(parameters, OUTPUT, context)
        source = self.parameterAsSource(parameters, INPUT, context)
        if source is None:
            raise QgsProcessingException(self.invalidSourceError(parameters, INPUT))
        name_field = self.parameterAsString(parameters, NAME_FIELD, context) or "name"
        parent_field = self.parameterAsString(parameters, PARENT_FIELD, context)
        group_field = self.parameterAsString(parameters, GROUP_FIELD, context)
        fields = list(dict.fromkeys(self.parameterAsFields(parameters, FIELDS, context)))
        if not fields:
            raise QgsProcessingException(tr("Give at least one numeric field to ask (FIELDS)."))
        names = source.fields().names()
        for f in [name_field, parent_field, group_field, *fields]:
            if f and f not in names:
                raise QgsProcessingException(tr("The layer has no field {field}.").format(field=f))
        asked = questions(
            fields, self.parameterAsString(parameters, QUANTITIES, context),
            self.parameterAsString(parameters, UNITS, context),
            self.parameterAsString(parameters, YEARS, context), names,
        )  # fmt: skip
        year_fields = [q.year_field for q in asked if q.year_field]
        geoms, polygons = read_polygons(source, context, name_field, parent_field, group_field,
                                        fields, year_fields)  # fmt: skip
        budget = BudgetParameters.read(self, parameters, context)
        boot = BootstrapParameters.read(self, parameters, context)
        with_truth = {q.field: has_truth(q, polygons) for q in asked}
        n_total = int(sum(m.sum() for m in with_truth.values()))
        if n_total > budget.max_requests:
            raise QgsProcessingException(
                tr("This run is {n} requests ({k} field(s) of {p} polygons, where they have a "
                   "value), more than the largest run allowed, {m} (MAX_REQUESTS). Ask about "
                   "fewer polygons or fields, or raise MAX_REQUESTS to run it.").format(
                    n=n_total, p=len(geoms), k=len(asked), m=budget.max_requests)
            )  # fmt: skip
        connection = ConnectionParameters.read(self, parameters, context)
        try:
            cache = SurveyCache(CacheParameter.read(self, parameters, context))
        except CacheError as err:
            raise QgsProcessingException(message_text(err)) from err
        spend = Spend(budget.price_in, budget.price_out, budget.max_cost)
        answers, stats = {}, RunStats()
        # Without GROUP_FIELD every polygon is in one group; with it, a polygon without a value
        # is in a group of its own name, never counted with the whole.
        groups = [g or (NO_GROUP if group_field else ALL) for g in polygons["group"]]
        with running_endpoint(connection, feedback) as ep:
            feedback.pushInfo(
                tr("Asking {model} {k} field(s) of {n} polygons: {r} prompts.").format(
                    model=ep.model, k=len(asked), n=len(geoms), r=n_total)
            )  # fmt: skip
            check_reachable(ep)
            for t, q in enumerate(asked):
                if feedback.isCanceled():
                    break
                progress = RunProgress(feedback, start=100.0 * t / len(asked),
                                       end=100.0 * (t + 1) / len(asked))  # fmt: skip
                prompts, years = field_prompts(q, polygons)
                ask = with_truth[q.field]
                with endpoint_errors():
                    got = run_recall([p for p, a in zip(prompts, ask) if a], ep, cache,
                                     progress=progress,
                                     is_cancelled=feedback.isCanceled, stats=stats,
                                     spend=spend,
                                     years=[y for y, a in zip(years, ask) if a])  # fmt: skip
                answers[q.field] = (q, prompts, years, spread(got, ask))
            if feedback.isCanceled():
                raise QgsProcessingException(
                    tr("Cancelled; answers so far are cached for a re-run.")
                )
            layers, table = {}, []
            for field, (q, prompts, years, got) in answers.items():
                records, rel = recall_records(q, polygons, prompts, years, got, ep.model)
                layers[field] = records
                n_ok = sum(r["answered"] for r in records)
                n_asked = sum(r["reason"] != "no truth" for r in records)
                n_range = sum(r["reason"] == "range" for r in records)
                feedback.pushInfo(
                    tr("{field} ({quantity}): {a} of {n} answered ({r} gave a range).").format(
                        field=field, quantity=q.quantity, a=n_ok, n=n_asked, r=n_range)
                )  # fmt: skip
                rows = group_errors(rel, groups, n_boot=boot.n_boot, seed=boot.seed)
                for r in rows:
                    line = tr("{field}, {group}: mean relative error {e:.3f} [{lo:.3f}, "
                              "{hi:.3f}] over {n}").format(
                        field=field, group=r["group"], e=r["mean_rel_error"], lo=r["ci_low"],
                        hi=r["ci_high"], n=r["n"])  # fmt: skip
                    if math.isfinite(r["ratio"]):
                        line += tr(", {ratio:.2f} × the best group's").format(ratio=r["ratio"])
                    feedback.pushInfo(line + ".")
                table += group_rows(field, rows)
            step_text(feedback, tr("Writing the answer layers…"))
            record = run_record(
                self.id(), parameters, started, ep, None, fields, n_points=len(geoms),
                score_kind="recall", template_name="recall",
                template_body=recall_prompt("{name}", "{quantity}", "{unit}", "{year}"),
                **stats_fields(stats),
            )  # fmt: skip
            uris = {}
            with writing(path) as written:
                append_runs(path, [record])
                for field, records in layers.items():
                    name = safe_name(f"recall_{ep.model}_{field}", limit=60)
                    uri = write_polygon_layer(path, name, RECALL_FIELDS, records, geoms)
                    written[name] = len(records)
                    uris[uri] = f"{field} · {ep.model}"
                layer_uris = list(uris)
                uris[write_table(path, "groups", table, GROUP_FIELDS)] = tr("Recall groups")
                written["groups"] = len(table)
        for uri in layer_uris:
            save_overlay_styles(uri, "recall")
        load_tables(context, uris)
        for uri in layer_uris:
            style_overlay_output(context, uri, "recall", uris[uri])
        n_answered = sum(r["answered"] for records in layers.values() for r in records)
        return {"OUTPUT": path, "OUTPUT_LAYERS": layer_uris,
                "N_ANSWERED": n_answered}  # fmt: skip
