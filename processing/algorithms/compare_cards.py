"""geobias:comparecards — benchmark cards side by side: one table and mean-rank maps."""

from osgeo import ogr
from qgis.core import (
    QgsProcessing,
    QgsProcessingException,
    QgsProcessingOutputMultipleLayers,
    QgsProcessingOutputString,
    QgsProcessingParameterBoolean,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterMultipleLayers,
    QgsProcessingParameterString,
)

from ...core.survey import benchmark
from ...i18n_util import QT_TRANSLATE_NOOP, tr
from ..base import GeoBiasAlgorithm
from ..parameters import split_topics

# The comparison table: the label of each card, then core.benchmark.COMPARE_COLUMNS.
_TEXT = ("model", "endpoint", "sample", "topic", "topic_kind")
_INTEGER = ("reduced", "n_points", "bias_score_is_bias")
COMPARE_FIELDS = {"label": ogr.OFTString}
COMPARE_FIELDS.update({
    c: ogr.OFTString if c in _TEXT else ogr.OFTInteger if c in _INTEGER else ogr.OFTReal
    for c in benchmark.COMPARE_COLUMNS
})  # fmt: skip


def markdown(cards, topics):
    """One Markdown table per card, models as sections; B only where it reads as a bias."""
    from ..card import card_label
    from ..card_page import card_table, notes

    out = []
    for card in cards:
        header, rows = card_table(dict(card, topics=[t for t in card["topics"]
                                                     if t["topic"] in topics]))  # fmt: skip
        out.append(f"### {card_label(card)}")
        out.append("| " + " | ".join(header) + " |")
        out.append("|" + "---|" * len(header))
        out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
        out.append("")
    if any(not t.get("bias_score_is_bias", True) for c in cards for t in c["topics"]
           if t["topic"] in topics):  # fmt: skip
        out.append(notes(cards[0])[0])
    return "\n".join(out)


class CompareCardsAlgorithm(GeoBiasAlgorithm):
    NAME = "comparecards"
    DISPLAY = QT_TRANSLATE_NOOP("@default", "Compare benchmark cards")
    GROUP = "truth"
    USES_GEOS = False

    def help_text(self):
        return tr(
            "Puts benchmark cards (the JSON files of 'Benchmark card') side by side: one table "
            "with a row per card and topic (answer rate, rho with truth, MAD, Gini, bias score, "
            "GeoBS scores; reduced cards are marked), written into the output GeoPackage (table "
            "card_comparison) and as Markdown, and for each topic a point layer of the mean rank "
            "across the cards on the sample's points (each card ranked on its own) with, where "
            "the sample ships the truth, the mean rank error: where the models agree to over- "
            "(red) or underestimate (blue). Cards must be made on the same sample version. "
            "SHIPPED adds the cards that come with GeoBias (the GPT-3.5 ratings of the paper, "
            "2 topics)."
        )

    def initAlgorithm(self, config=None):
        self.addParameter(
            QgsProcessingParameterMultipleLayers(
                "CARDS", tr("Benchmark cards (JSON)"), QgsProcessing.SourceType.TypeFile,
                optional=True,
            )
        )  # fmt: skip
        self.addParameter(
            QgsProcessingParameterBoolean(
                "SHIPPED", tr("Add the cards shipped with GeoBias (GPT-3.5)"), defaultValue=False
            )
        )
        self.addParameter(
            QgsProcessingParameterString(
                "TOPICS", tr("Topics to compare (separated by ;, empty: all)"), "", optional=True
            )
        )
        self.addParameter(
            QgsProcessingParameterFileDestination(
                "OUTPUT", tr("Comparison GeoPackage"), tr("GeoPackage (*.gpkg)")
            )
        )
        self.addOutput(
            QgsProcessingOutputMultipleLayers("MEAN_RANK_LAYERS", tr("Mean rank layers"))
        )
        self.addOutput(QgsProcessingOutputString("MARKDOWN", tr("The cards as Markdown")))

    def processAlgorithm(self, parameters, context, feedback):
        import numpy as np

        from ...core.survey.comparisons import Scores, mean_ranks
        from ..card import load_sample, read_cards, sample_facts, sample_truth, shipped_cards
        from ..comparison_layers import write_mean_layer
        from ..gpkg import write_table
        from ..rating import load_outputs
        from ..runs import append_runs, now, run_record
        from ..styles import short_topic

        started = now()
        paths = [p for p in self.parameterAsFileList(parameters, "CARDS", context) or [] if p]
        if self.parameterAsBool(parameters, "SHIPPED", context):
            paths += [p for p in shipped_cards() if p not in paths]
        if len(paths) < 1:
            raise QgsProcessingException(tr("Give at least one card (CARDS or SHIPPED)."))
        cards = read_cards(paths)
        versions = {c["sample"]["version"] for c in cards}
        if len(versions) > 1:
            raise QgsProcessingException(
                tr("Cards on different samples ({v}) cannot be compared.").format(
                    v=", ".join(sorted(versions)))
            )  # fmt: skip
        version = versions.pop()
        sample = load_sample(version)
        want = split_topics(self.parameterAsString(parameters, "TOPICS", context))
        have = list(dict.fromkeys(t["topic"] for c in cards for t in c["topics"]))
        missing = [t for t in want if t not in have]
        if missing:
            raise QgsProcessingException(
                tr("TOPICS: {missing} on no card (they have: {have}).").format(
                    missing=", ".join(missing), have=", ".join(have))
            )  # fmt: skip
        topics = want or have
        labels = _unique_labels(cards)
        # compare_cards gives, topic by topic, one row per card in the cards' order.
        rows = [dict(row, label=labels[i % len(cards)])
                for i, row in enumerate(benchmark.compare_cards(cards))
                if row["topic"] in topics]  # fmt: skip
        path = self.parameterAsFileOutput(parameters, "OUTPUT", context)
        means = {}
        for topic in topics:
            truth, _units = sample_truth(sample, topic)
            group = []
            for card, label in zip(cards, labels):
                scores = benchmark.card_scores(card, topic)
                if scores is None:
                    continue
                rated = np.isfinite(scores)
                group.append(Scores(label, sample.lon[rated], sample.lat[rated], scores[rated],
                                    None if truth is None else truth[rated]))  # fmt: skip
            if group:
                means[topic] = mean_ranks(group)
        write_table(path, "card_comparison", rows, COMPARE_FIELDS)
        # What the comparison measured, before the layers are described from it: the cards'
        # sample (the world) and truth, their score kinds.
        kinds = dict.fromkeys(str(c.get("score_kind")) for c in cards if c.get("score_kind"))
        append_runs(path, [run_record(self.id(), parameters, started, topics=topics,
                                      n_points=len(sample), score_kind=", ".join(kinds),
                                      **sample_facts(version, sample, topics))])  # fmt: skip
        uris = {}
        for topic, m in means.items():
            uri = write_mean_layer(path, topic, m)
            uris[uri] = tr("Mean rank · {topic}").format(topic=short_topic(topic))
            style = "mean_rank_error" if np.isfinite(m.mean_rank_error).any() else "mean_rank"
            load_outputs(context, {uri: uris[uri]}, "MEAN_RANK_LAYERS", style)
        text = markdown(cards, topics)
        feedback.pushInfo(text)
        return {"OUTPUT": path, "MEAN_RANK_LAYERS": list(uris), "MARKDOWN": text}


def _unique_labels(cards):
    """Card labels, numbered where two cards share one (the same model run twice)."""
    from ..card import card_label

    labels = [card_label(c) for c in cards]
    out = []
    for k, label in enumerate(labels):
        n = labels[:k].count(label)
        out.append(f"{label} #{n + 1}" if n or labels.count(label) > 1 else label)
    return out
