"""geobias:ablation — Appendix A.3: rho with the whole prompt and with each of its ablations."""

from dataclasses import replace

from osgeo import ogr
from qgis.core import (
    QgsProcessing,
    QgsProcessingException,
    QgsProcessingOutputFile,
    QgsProcessingOutputMultipleLayers,
    QgsProcessingOutputNumber,
    QgsProcessingOutputString,
    QgsProcessingParameterEnum,
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterFileDestination,
)

from ...core.survey.prompts import PRESETS
from ...i18n_util import QT_TRANSLATE_NOOP, tr
from ..base import GeoBiasAlgorithm
from ..definitions import ABLATION_VARIANTS
from ..parameters import (
    AnchorParameters,
    BootstrapParameters,
    ConnectionParameters,
    PromptParameters,
    TruthParameters,
    add_endpoint_parameters,
)

VARIANTS = ABLATION_VARIANTS.keys
WHOLE = ABLATION_VARIANTS.default
# Table 1 uses the greedy ratings, Table 2 the expected values (w/ logprobs); one request
# gives both.
SCORES = {"greedy": "rating", "expected": "expected"}
ABLATION_FIELDS = {
    "variant": ogr.OFTString,
    "topic": ogr.OFTString,
    "score_kind": ogr.OFTString,
    "against": ogr.OFTString,  # "truth" or the anchor's field name
    "n": ogr.OFTInteger,
    "rho": ogr.OFTReal,
    "rho_lo": ogr.OFTReal,
    "rho_hi": ogr.OFTReal,
    "change": ogr.OFTReal,  # rho minus rho with the whole prompt
    "answer_rate": ogr.OFTReal,
    "reason": ogr.OFTString,
}


def variant_rows(variant, rated, reference, n_boot, seed):
    """Rows of the ablation table for one prompt variant: rho per topic (and prompt language,
    when the columns carry one) and score kind.

    `rated` is rating.rate()'s {(topic, language): columns}; `reference` maps a topic to
    (values, units, name): the ground truth for truth topics, the anchor for the others.
    """
    import numpy as np

    from ...core.stats.metrics import spearman

    rows = []
    for (topic, code), cols in rated.items():
        ref = reference.get(topic)
        answered = cols["answered"] == 1
        asked = cols["failed"] != 1
        rate = float(answered.sum() / asked.sum()) if asked.any() else np.nan
        for kind, column in SCORES.items():
            row = {"variant": variant, "topic": topic, "score_kind": kind, "answer_rate": rate}
            if "language" in cols:
                row["language"] = code
            score = np.where(answered, np.asarray(cols[column], float), np.nan)
            if ref is None:
                row["reason"] = "no ground truth or anchor for this topic"
            elif not np.isfinite(score).any():
                row["reason"] = f"no {kind} scores"
                row["against"] = ref[2]
            else:
                c = spearman(score, ref[0], n_boot, seed, clusters=ref[1])
                row.update(against=ref[2], n=c.n, rho=c.rho, rho_lo=c.lo, rho_hi=c.hi)
                row["reason"] = c.reason
            rows.append(row)
    return rows


def add_changes(rows):
    """Fill each row's change from the whole prompt's rho (same topic, language and score
    kind)."""

    def key(r):
        return r["topic"], r.get("language", ""), r["score_kind"]

    whole = {key(r): r.get("rho") for r in rows if r["variant"] == WHOLE}
    for r in rows:
        base = whole.get(key(r))
        if base is not None and r.get("rho") is not None:
            r["change"] = r["rho"] - base
    return rows


def ablation_tables(rows, variants):
    """Per score kind: the Table 1/2 pivot (topics x variants) and its change from WHOLE."""
    from ...core.survey.comparisons import change_from, pivot

    out = {}
    for kind in SCORES:
        # In several languages a row is a topic in one language: "Infant Mortality Rate [fr]".
        records = [dict(r, model=r["variant"], topic=_row_label(r)) for r in rows
                   if r["score_kind"] == kind]  # fmt: skip
        if not any(r.get("rho") is not None for r in records):
            continue
        p = pivot(records, "rho", models=list(variants))
        out[kind] = p
        if WHOLE in variants:
            out[f"{kind}_change"] = change_from(p, WHOLE)
    return out


def _row_label(row):
    return f"{row['topic']} [{row['language']}]" if row.get("language") else row["topic"]


class AblationAlgorithm(GeoBiasAlgorithm):
    NAME = "ablation"
    DISPLAY = QT_TRANSLATE_NOOP("@default", "Prompt ablations")
    GROUP = "survey"
    USES_GEOS = True  # ground truth from polygons

    def help_text(self):
        return tr(
            "Appendix A.3 of Manvi et al. (2024): the model rates the same points and topics "
            "with the whole prompt and with each ablation (without coordinates, without nearby "
            "places, without the address, with only the last two parts of the address), and "
            "Spearman's rho is computed per variant against the ground truth for the truth "
            "topics and against the anchor (by default the bundled countries' infant survival, "
            "as in the dock) for the others: Table 1 with "
            "the greedy ratings, Table 2 with the expected values (w/ logprobs), each with its "
            "change from the whole prompt. Answers come from the survey cache where they were "
            "asked before (the whole prompt of an earlier survey on the same points is not "
            "asked again). Writes the rated layers of every variant, the table 'ablation' and "
            "the pivots into one GeoPackage."
        )

    def initAlgorithm(self, config=None):
        self.addParameter(
            QgsProcessingParameterFeatureSource(
                "INPUT", tr("Points to rate"), [QgsProcessing.SourceType.TypeVectorPoint]
            )
        )
        add_endpoint_parameters(self, with_preset=False)  # the variants are the presets
        self.addParameter(
            QgsProcessingParameterEnum(
                "VARIANTS", tr("Prompt variants"), ABLATION_VARIANTS.labels(),
                allowMultiple=True, defaultValue=list(range(len(VARIANTS))),
            )
        )  # fmt: skip
        TruthParameters.add(self)
        AnchorParameters.add(self)
        BootstrapParameters.add(self, kind=False)
        self.addParameter(
            QgsProcessingParameterFileDestination(
                "OUTPUT", tr("Ablation GeoPackage"), tr("GeoPackage (*.gpkg)")
            )
        )
        self.addOutput(QgsProcessingOutputMultipleLayers("OUTPUT_LAYERS", tr("Rated layers")))
        self.addOutput(QgsProcessingOutputString("TABLE", tr("Ablation table URI")))
        self.addOutput(QgsProcessingOutputString("MARKDOWN", tr("The tables as Markdown")))
        self.addOutput(QgsProcessingOutputFile("MARKDOWN_FILE", tr("Markdown file of the tables")))
        self.addOutput(QgsProcessingOutputNumber("N_REQUESTS", tr("Requests sent")))
        self.addOutput(QgsProcessingOutputNumber("N_CACHED", tr("Answers from the cache")))

    def processAlgorithm(self, parameters, context, feedback):
        import numpy as np

        from ...core.survey.comparisons import to_markdown
        from ..comparison_layers import pivot_fields, pivot_rows, write_markdown_beside
        from ..endpoints import running_endpoint
        from ..features import polygon_field_values
        from ..gpkg import write_table
        from ..rating import (
            input_facts,
            load_outputs,
            load_tables,
            rate,
            read_points,
            score_kinds,
            total_stats,
            write_rated,
        )
        from ..runs import append_runs, language_records, now, run_record
        from ..truth import anchor_values, truth_columns

        started = now()
        path = self.parameterAsFileOutput(parameters, "OUTPUT", context)
        connection = ConnectionParameters.read(self, parameters, context)
        prompt = PromptParameters.read(self, parameters, context)
        score_kind, topics = prompt.score_kind, prompt.topics
        chosen = self.parameterAsEnums(parameters, "VARIANTS", context)
        variants = [v for i, v in enumerate(VARIANTS) if i in chosen]
        if not variants:
            raise QgsProcessingException(tr("Choose at least one prompt variant."))
        truth_source = TruthParameters.read(self, parameters, context, topics)
        anchor_source = AnchorParameters.read(self, parameters, context)
        bootstrap = BootstrapParameters.read(self, parameters, context)
        n_boot, seed = bootstrap.n_boot, bootstrap.seed

        lon, lat, pids = read_points(self, parameters, context)
        truth = units = None
        if truth_source.source is not None:
            truth, units = polygon_field_values(
                truth_source.source, truth_source.field_name, lon, lat, context,
                tr("Ground truth field (TRUTH_FIELD)"), with_units=True,
            )  # fmt: skip
            units = np.where(units >= 0, units, -1)
        anchor, anchor_units, anchor_name = anchor_values(
            anchor_source, lon, lat, context, feedback
        )
        reference = {}
        for topic in topics:
            if truth is not None and truth_source.applies_to(topic):
                reference[topic] = (truth, units, "truth")
            elif anchor is not None:
                reference[topic] = (anchor, anchor_units, anchor_name)
        missing = [t for t in topics if t not in reference]
        if missing:
            feedback.pushWarning(
                tr("No ground truth or anchor for {topics}: their rho stays empty.").format(
                    topics="; ".join(missing)
                )
            )

        rows, records, uris = [], [], {}
        # What every variant measured: the points' study area, the truth and the anchor.
        facts = dict(input_facts(self, parameters, context, lon, lat), anchor=anchor_name,
                     truth=truth_source.label if truth is not None else None)  # fmt: skip
        n_requests = n_cached = 0
        with running_endpoint(connection, feedback) as ep:
            rated = {}
            for k, variant in enumerate(variants):
                if feedback.isCanceled():
                    raise QgsProcessingException(tr("Cancelled."))
                feedback.pushInfo(
                    tr("Prompt variant {i}/{n}: {name}").format(
                        i=k + 1, n=len(variants), name=ABLATION_VARIANTS.label(variant)
                    )
                )
                template = PRESETS[variant]
                by_topic, stats = rate(lon, lat, pids, topics, ep, template, score_kind, feedback,
                                       languages=prompt.languages)  # fmt: skip
                n_requests += total_stats(stats).n_requests
                n_cached += total_stats(stats).n_cached
                rows += variant_rows(variant, by_topic, reference, n_boot, seed)
                rated[variant] = by_topic
                record = run_record(
                    self.id(), parameters, started, ep, template, topics, n_points=len(lon),
                    score_kind=score_kinds(by_topic), **facts,
                )  # fmt: skip
                records += language_records(record, prompt.languages, stats, template)
            model_name = ep.model
        add_changes(rows)
        tables = ablation_tables(rows, variants)
        # Everything is computed: only now write, so a failure above leaves no partial file.
        for variant, by_topic in rated.items():
            label = f"{model_name} [{variant}]"  # one model per variant for comparemodels
            for (topic, _code), cols in by_topic.items():
                cols["model"] = [label] * len(cols["score"])
                if truth is not None and truth_source.applies_to(topic):
                    cols.update(truth_columns(cols["score"], truth))
            uris.update(write_rated(path, by_topic, label))
        fields = dict(ABLATION_FIELDS)
        if any(r.get("language") for r in rows):
            fields["language"] = ogr.OFTString
        table_uri = write_table(path, "ablation", rows, fields)
        loaded = {table_uri: tr("Ablation: rho per prompt variant")}
        for name, p in tables.items():
            p = replace(p, columns="variants")
            uri = write_table(path, f"ablation_{name}", pivot_rows(p), pivot_fields(p))
            loaded[uri] = tr(TITLES[name])
        append_runs(path, records)
        markdown = "\n".join(
            to_markdown(replace(p, label=TITLES[name], columns="variants"))
            for name, p in tables.items()
        )
        md_path = write_markdown_beside(path, markdown)
        feedback.pushInfo(markdown)
        load_outputs(context, uris, "OUTPUT_LAYERS")  # the rated layers, styled by rank
        load_tables(context, loaded, "TABLE")
        return {
            "OUTPUT": path,
            "OUTPUT_LAYERS": list(uris),
            "TABLE": table_uri,
            "MARKDOWN": markdown,
            "MARKDOWN_FILE": md_path,
            "N_REQUESTS": n_requests,
            "N_CACHED": n_cached,
        }


TITLES = {
    "greedy": QT_TRANSLATE_NOOP(
        "@default", "Spearman's rho per prompt variant (greedy ratings, the paper's Table 1)"),
    "expected": QT_TRANSLATE_NOOP(
        "@default", "Spearman's rho per prompt variant (expected values, the paper's Table 2)"),
    "greedy_change": QT_TRANSLATE_NOOP(
        "@default", "Change of rho from the whole prompt (greedy ratings)"),
    "expected_change": QT_TRANSLATE_NOOP(
        "@default", "Change of rho from the whole prompt (expected values)"),
}  # fmt: skip
