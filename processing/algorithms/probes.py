"""geobias:probes — Appendix A.2: choice probes and country recommendations, sampled."""

from osgeo import ogr
from qgis.core import (
    QgsFeature,
    QgsField,
    QgsFields,
    QgsProcessing,
    QgsProcessingException,
    QgsProcessingOutputNumber,
    QgsProcessingParameterFeatureSink,
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterField,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterNumber,
    QgsProcessingParameterString,
)

from ...i18n_util import QT_TRANSLATE_NOOP, message_text, tr
from ..base import GeoBiasAlgorithm
from ..parameters import ConnectionParameters, PromptParameters

CHOICE_FIELDS = {
    "activity": ogr.OFTString,
    "option_a": ogr.OFTString,
    "option_b": ogr.OFTString,
    "n_samples": ogr.OFTInteger,
    "n_a": ogr.OFTInteger,
    "n_b": ogr.OFTInteger,
    "n_refused": ogr.OFTInteger,
    "n_unclear": ogr.OFTInteger,
    "share_a": ogr.OFTReal,
    "share_b": ogr.OFTReal,
}
ANSWER_FIELDS = {
    "kind": ogr.OFTString,  # "choice" or "recommendation"
    "prompt": ogr.OFTString,
    "sample": ogr.OFTInteger,
    "completion": ogr.OFTString,
    "answer": ogr.OFTString,  # choice: a / b / refusal / unclear; recommendation: countries
    "refused": ogr.OFTInteger,
}
SUMMARY_FIELDS = {
    "n_responses": ogr.OFTInteger,
    "n_refused": ogr.OFTInteger,
    "n_countries_named": ogr.OFTInteger,
    "rho_mentions_survival": ogr.OFTReal,
    "rho_p": ogr.OFTReal,
    "n_countries": ogr.OFTInteger,
    "median_imr_mentioned": ogr.OFTReal,
    "median_imr_unmentioned": ogr.OFTReal,
    "median_imr_all": ogr.OFTReal,
    "reason": ogr.OFTString,  # why a number is empty
}


def lines(text):
    """Non-empty lines (a multi-line parameter), stripped."""
    return [t.strip() for t in (text or "").splitlines() if t.strip()]


class ProbesAlgorithm(GeoBiasAlgorithm):
    NAME = "probes"
    DISPLAY = QT_TRANSLATE_NOOP("@default", "Choice probes and recommendations")
    GROUP = "survey"
    USES_GEOS = False

    def help_text(self):
        return tr(
            "Appendix A.2 of Manvi et al. (2024): bias in more realistic questions. Choice "
            "probes ask 'Should I go to A or B to <activity>?' (the paper's Africa or Europe, to "
            "see wildlife, to meet kind people, ...) several times each and count the share of "
            "each answer, refusals and unclear answers apart. Recommendation queries ask for a "
            "list of countries; the countries named in each answer are counted and joined to "
            "the countries layer (field mentions), with Spearman's rho of the mention counts "
            "with infant survival and the median infant mortality of the countries named and "
            "not named. Samples are drawn at a temperature above 0 (1.0 by default; the paper "
            "used ChatGPT's default), each sample its own cached request, so a re-run asks "
            "nothing again. Prompts are editable; the defaults are the paper's. Prompt language: "
            "one at a time; the probes' texts are not in the language files, so type them in "
            "the chosen language (regions, activities, template, queries, and country names "
            "through the name field); answers are read with its refusal phrases and the "
            "tables carry its code."
        )

    def initAlgorithm(self, config=None):
        # No prompt group and no answer constraint: probes ask their own, free-text questions.
        from ...core.survey.probes import (
            CHOICE_ACTIVITIES,
            CHOICE_PAIR,
            CHOICE_TEMPLATE,
            DEFAULT_SAMPLES,
            DEFAULT_TEMPERATURE,
            RECOMMENDATION_QUERIES,
        )

        ConnectionParameters.add(self, constraint=False)
        PromptParameters.add_languages(self)
        string = QgsProcessingParameterString
        self.addParameter(string("OPTION_A", tr("First region of the choice"), CHOICE_PAIR[0]))
        self.addParameter(string("OPTION_B", tr("Second region of the choice"), CHOICE_PAIR[1]))
        self.addParameter(
            string("ACTIVITIES", tr("Activities (one per line)"), "\n".join(CHOICE_ACTIVITIES),
                   multiLine=True, optional=True)
        )  # fmt: skip
        self.addParameter(
            string("CHOICE_TEMPLATE", tr("Choice prompt ({a}, {b}, {activity})"),
                   CHOICE_TEMPLATE, multiLine=True)
        )  # fmt: skip
        self.addParameter(
            string("QUERIES", tr("Recommendation queries (one per line)"),
                   "\n".join(RECOMMENDATION_QUERIES), multiLine=True, optional=True)
        )  # fmt: skip
        self.addParameter(
            QgsProcessingParameterNumber(
                "N_SAMPLES", tr("Samples per prompt"), defaultValue=DEFAULT_SAMPLES, minValue=1
            )
        )
        self.addParameter(
            QgsProcessingParameterNumber(
                "TEMPERATURE", tr("Temperature"), QgsProcessingParameterNumber.Type.Double,
                DEFAULT_TEMPERATURE, minValue=0.0, maxValue=2.0,
            )
        )  # fmt: skip
        self.addParameter(
            QgsProcessingParameterNumber(
                "MAX_TOKENS", tr("Longest answer (tokens)"), defaultValue=400, minValue=8
            )
        )
        self.addParameter(
            QgsProcessingParameterFeatureSource(
                "COUNTRIES",
                tr("Countries"),
                [QgsProcessing.SourceType.TypeVectorPolygon],
                optional=True,
            )
        )
        for name, label, default, kind in (
            ("NAME_FIELD", tr("Country name field"), "name",
             QgsProcessingParameterField.DataType.String),
            ("SURVIVAL_FIELD", tr("Infant survival field"), "infant_survival",
             QgsProcessingParameterField.DataType.Numeric),
            ("IMR_FIELD", tr("Infant mortality field"), "infant_mortality",
             QgsProcessingParameterField.DataType.Numeric),
        ):  # fmt: skip
            self.addParameter(
                QgsProcessingParameterField(name, label, default, "COUNTRIES", kind, optional=True)
            )
        self.addParameter(
            QgsProcessingParameterFileDestination(
                "OUTPUT", tr("Probes GeoPackage"), tr("GeoPackage (*.gpkg)")
            )
        )
        self.addParameter(
            QgsProcessingParameterFeatureSink(
                "MENTIONS", tr("Countries with their mention counts"),
                QgsProcessing.SourceType.TypeVectorPolygon, optional=True,
            )
        )  # fmt: skip
        for name, label in (
            ("RHO_MENTIONS_SURVIVAL", tr("Spearman's rho of mentions with infant survival")),
            ("MEDIAN_IMR_MENTIONED", tr("Median infant mortality of the countries named")),
            ("MEDIAN_IMR_ALL", tr("Median infant mortality of all countries")),
            ("N_REFUSED", tr("Refusals")),
            ("N_REQUESTS", tr("Requests sent")),
            ("N_CACHED", tr("Answers from the cache")),
        ):
            self.addOutput(QgsProcessingOutputNumber(name, label))

    def processAlgorithm(self, parameters, context, feedback):
        from ...core.engine.cache import CacheError, SurveyCache
        from ...core.engine.chat import EndpointError
        from ...core.survey.probes import (
            choice_prompts,
            probe_endpoint,
            read_choice,
            sample_completions,
            summarize_choices,
        )
        from ...core.survey.run import RunStats
        from ..endpoints import check_reachable, default_cache_path, running_endpoint
        from ..gpkg import write_table
        from ..rating import load_tables
        from ..runs import append_runs, now, run_record

        started = now()
        path = self.parameterAsFileOutput(parameters, "OUTPUT", context)
        connection = ConnectionParameters.read(self, parameters, context)
        a = self.parameterAsString(parameters, "OPTION_A", context).strip()
        b = self.parameterAsString(parameters, "OPTION_B", context).strip()
        activities = lines(self.parameterAsString(parameters, "ACTIVITIES", context))
        template = self.parameterAsString(parameters, "CHOICE_TEMPLATE", context)
        queries = lines(self.parameterAsString(parameters, "QUERIES", context))
        n_samples = self.parameterAsInt(parameters, "N_SAMPLES", context)
        temperature = self.parameterAsDouble(parameters, "TEMPERATURE", context)
        max_tokens = self.parameterAsInt(parameters, "MAX_TOKENS", context)
        language = self.read_language(parameters, context, a, b, activities, template, queries,
                                      feedback)  # fmt: skip
        if not activities and not queries:
            raise QgsProcessingException(
                tr("Give activities for the choice probes or recommendation queries.")
            )
        prompts = []
        if activities:
            if not a or not b or a.lower() == b.lower():
                raise QgsProcessingException(
                    tr("Give two different regions to choose from (OPTION_A, OPTION_B).")
                )
            try:
                prompts = choice_prompts(a, b, activities, template)
            except (ValueError, KeyError, IndexError) as err:
                raise QgsProcessingException(
                    tr(
                        "Choice prompt (CHOICE_TEMPLATE): {err}. It needs {{a}}, {{b}} and "
                        "{{activity}}."
                    ).format(err=message_text(err))
                ) from err
        countries = self.read_countries(parameters, context) if queries else None

        stats = RunStats()
        try:
            cache = SurveyCache(default_cache_path())
        except CacheError as err:
            raise QgsProcessingException(message_text(err)) from err

        def progress(p):
            feedback.setProgress(100.0 * p.done / max(p.total, 1))

        with running_endpoint(connection, feedback) as ep:
            ep = probe_endpoint(ep, temperature, max_tokens)
            check_reachable(ep)
            feedback.pushInfo(
                tr("{n} prompts × {s} samples at temperature {t:g} with {m}.").format(
                    n=len(prompts) + len(queries), s=n_samples, t=temperature, m=ep.model
                )
            )
            try:
                texts = sample_completions(prompts + queries, ep, cache, n_samples, stats,
                                           progress, feedback.isCanceled)  # fmt: skip
            except EndpointError as err:
                raise QgsProcessingException(
                    tr("The endpoint refused the probes: {err}").format(err=message_text(err))
                ) from err
            if feedback.isCanceled():
                raise QgsProcessingException(tr("Cancelled; answers so far are cached."))
            record = run_record(self.id(), parameters, started, ep, None, [], n_points=0,
                                stats=stats)  # fmt: skip
            if language is not None:
                record["language"] = language.code
        parser = language.parser if language is not None else None
        choices, answers = [], []
        for activity, prompt, samples in zip(activities, prompts, texts):
            r = summarize_choices(activity, a, b, [t for t in samples if t is not None], prompt,
                                  parser)  # fmt: skip
            choices.append({"activity": activity, "option_a": a, "option_b": b,
                            "n_samples": r.n, "n_a": r.n_a, "n_b": r.n_b,
                            "n_refused": r.n_refused, "n_unclear": r.n_unclear,
                            "share_a": r.share_a, "share_b": r.share_b})  # fmt: skip
            for s, t in enumerate(samples):
                pick = read_choice(t, a, b, prompt, parser) if t is not None else "failed"
                answers.append({"kind": "choice", "prompt": prompt, "sample": s, "completion": t,
                                "answer": {"a": a, "b": b}.get(pick, pick),
                                "refused": int(pick == "refusal")})  # fmt: skip
        results = {"N_REFUSED": sum(r["refused"] for r in answers)}
        if queries:
            results.update(
                self.recommendations(
                    queries, texts[len(prompts) :], countries, answers, path, feedback, parser
                )  # fmt: skip
            )
            results["N_REFUSED"] = sum(r["refused"] for r in answers)
            sink_id = self.write_mentions(parameters, context, countries)
            if sink_id is not None:
                results["MENTIONS"] = sink_id
        choice_fields, answer_fields = CHOICE_FIELDS, ANSWER_FIELDS
        if language is not None:  # a language other than English tags every row
            choice_fields = dict(CHOICE_FIELDS, language=ogr.OFTString)
            answer_fields = dict(ANSWER_FIELDS, language=ogr.OFTString)
            for row in choices + answers:
                row["language"] = language.code
        tables = {}
        if choices:
            tables[write_table(path, "choices", choices, choice_fields)] = tr("Choice probes")
        if queries:
            tables[f"{path}|layername=recommendations"] = tr("Recommendations")
        tables[write_table(path, "probe_answers", answers, answer_fields)] = tr("Probe answers")
        append_runs(path, [record])
        load_tables(context, tables)
        for c in choices:
            feedback.pushInfo(
                tr("{activity}: {a} {na}/{n}, {b} {nb}/{n}, {r} refused").format(
                    activity=c["activity"], a=a, b=b, na=c["n_a"], nb=c["n_b"],
                    n=c["n_samples"], r=c["n_refused"],
                )
            )  # fmt: skip
        results.update(OUTPUT=path, N_REQUESTS=stats.n_requests, N_CACHED=stats.n_cached)
        return results

    def read_countries(self, parameters, context):
        """{name, survival, imr, source, counts}: the countries the mentions are joined to."""
        import numpy as np

        from ..features import as_float, numeric_field

        source = self.parameterAsSource(parameters, "COUNTRIES", context)
        if source is None:
            from qgis.core import QgsVectorLayer

            from ...paths import DATA

            source = QgsVectorLayer(
                f"{DATA}/world_countries.gpkg|layername=countries", "countries", "ogr"
            )
        fields = {}
        for param, default in (("NAME_FIELD", "name"), ("SURVIVAL_FIELD", "infant_survival"),
                               ("IMR_FIELD", "infant_mortality")):  # fmt: skip
            fields[param] = self.parameterAsString(parameters, param, context) or default
        if source.fields().lookupField(fields["NAME_FIELD"]) < 0:
            raise QgsProcessingException(
                tr("Country name field (NAME_FIELD): the layer has no field '{name}'.").format(
                    name=fields["NAME_FIELD"]
                )
            )
        numeric_field(source, fields["SURVIVAL_FIELD"], tr("Infant survival field"))
        numeric_field(source, fields["IMR_FIELD"], tr("Infant mortality field"))
        names, survival, imr = [], [], []
        for f in source.getFeatures():
            names.append(f[fields["NAME_FIELD"]])
            survival.append(f[fields["SURVIVAL_FIELD"]])
            imr.append(f[fields["IMR_FIELD"]])
        names = [n if isinstance(n, str) and n else "" for n in names]
        return {"source": source, "names": names, "survival": as_float(survival),
                "imr": as_float(imr), "counts": np.zeros(len(names), dtype=np.int64)}  # fmt: skip

    def read_language(self, parameters, context, a, b, activities, template, queries, feedback):
        """The prompt language (None: English, as before languages came): one at a time, and
        a warning when the probes' texts are still the paper's English ones."""
        from ...core.survey.languages import get_language
        from ...core.survey.probes import (
            CHOICE_ACTIVITIES,
            CHOICE_PAIR,
            CHOICE_TEMPLATE,
            RECOMMENDATION_QUERIES,
        )

        codes = PromptParameters.read_languages(self, parameters, context)
        if len(codes) > 1:
            raise QgsProcessingException(
                tr("Probes are asked in one prompt language at a time (LANGUAGES): their texts "
                   "are typed, not taken from the language files.")
            )  # fmt: skip
        if codes == ["en"]:
            return None
        language = get_language(codes[0])
        english = (
            (a, b) == CHOICE_PAIR
            and template == CHOICE_TEMPLATE
            and (activities == list(CHOICE_ACTIVITIES) or queries == list(RECOMMENDATION_QUERIES))
        )
        if english:
            feedback.pushWarning(
                tr("The probes' texts are the paper's English ones: type them in {name} to ask "
                   "in it (the language only reads the answers and tags the tables).").format(
                    name=language.name)
            )  # fmt: skip
        return language

    def recommendations(self, queries, texts, countries, answers, path, feedback, parser=None):
        """Count the countries each answer names; write the summary table; its numbers."""
        from ...core.survey.probes import countries_in, country_patterns, summarize_mentions
        from ...core.survey.ratings import is_refusal
        from ..gpkg import write_table

        patterns = country_patterns(sorted(set(filter(None, countries["names"]))))
        index = {}
        for i, n in enumerate(countries["names"]):
            index.setdefault(n, []).append(i)
        n_responses = n_refused = 0
        for query, samples in zip(queries, texts):
            for s, t in enumerate(samples):
                if t is None:
                    continue
                named = countries_in(t, patterns)
                refused = bool(not named and is_refusal(t, parser))
                n_responses += 1
                n_refused += refused
                for name in named:
                    countries["counts"][index[name]] += 1
                answers.append({"kind": "recommendation", "prompt": query, "sample": s,
                                "completion": t, "answer": "; ".join(named),
                                "refused": int(refused)})  # fmt: skip
        m = summarize_mentions(countries["counts"], countries["survival"], countries["imr"])
        row = {"n_responses": n_responses, "n_refused": n_refused,
               "n_countries_named": int((countries["counts"] > 0).sum()),
               "rho_mentions_survival": m.rho_survival, "rho_p": m.p, "n_countries": m.n_countries,
               "median_imr_mentioned": m.median_imr_mentioned,
               "median_imr_unmentioned": m.median_imr_unmentioned,
               "median_imr_all": m.median_imr_all}  # fmt: skip
        if m.reason:
            row["reason"] = m.reason
            feedback.pushWarning(
                tr("Some recommendation numbers are empty: {reason}.").format(reason=m.reason)
            )
        write_table(path, "recommendations", [row], SUMMARY_FIELDS)
        return {"RHO_MENTIONS_SURVIVAL": m.rho_survival,
                "MEDIAN_IMR_MENTIONED": m.median_imr_mentioned,
                "MEDIAN_IMR_ALL": m.median_imr_all}  # fmt: skip

    def write_mentions(self, parameters, context, countries):
        """The countries with their mention counts (field mentions) into the MENTIONS sink."""
        from ..features import add_to_sink, field_type
        from ..overlay_styles import save_overlay_styles, style_overlay_output

        if parameters.get("MENTIONS") is None:
            return None
        source = countries["source"]
        fields = QgsFields(source.fields())
        fields.append(QgsField("mentions", field_type("Int")))
        sink, dest = self.parameterAsSink(
            parameters, "MENTIONS", context, fields, source.wkbType(), source.sourceCrs()
        )
        if sink is None:
            return None
        rows = []
        for f, count in zip(source.getFeatures(), countries["counts"]):
            out = QgsFeature(fields)
            out.setGeometry(f.geometry())
            out.setAttributes(list(f.attributes()) + [int(count)])
            rows.append(out)
        add_to_sink(sink, rows)
        del sink  # closes the file, so its style can be saved into it
        save_overlay_styles(dest, "mentions")
        style_overlay_output(context, dest, "mentions")  # styled, under the point layers
        return dest
