"""The benchmark card's steps: the fixed sample, ratings on its points (asked or given as
layers), the card's topic entries, its GeoPackage table and JSON file, and cards read back."""

import glob
import os

from osgeo import ogr
from qgis.core import QgsProcessingException

from ..core.survey.topics import topic_names
from ..i18n_util import message_text, tr
from ..paths import BENCHMARK_SAMPLE_V1, RESOURCES

SAMPLES = {"v1": BENCHMARK_SAMPLE_V1}
SHIPPED_CARDS = os.path.join(RESOURCES, "benchmark", "cards")
# The paper's topics, in its order: the full card's default.
ALL_TOPICS = "; ".join(topic_names())

CARD_FIELDS = {
    "topic": ogr.OFTString,
    "topic_kind": ogr.OFTString,
    "n_points": ogr.OFTInteger,
    "n_answered": ogr.OFTInteger,
    "n_failed": ogr.OFTInteger,
    "answer_rate": ogr.OFTReal,
    "n_truth": ogr.OFTInteger,
    "rho_truth": ogr.OFTReal,
    "rho_truth_p": ogr.OFTReal,
    "rho_truth_lo": ogr.OFTReal,
    "rho_truth_hi": ogr.OFTReal,
    "mad": ogr.OFTReal,
    "gini": ogr.OFTReal,
    "rho_anchor": ogr.OFTReal,
    "bias_score": ogr.OFTReal,
    "bias_score_is_bias": ogr.OFTInteger,  # 0: an objective topic (B measures knowledge)
    "ssi": ogr.OFTReal,
    "sri_scale": ogr.OFTReal,
    "sri_lag": ogr.OFTReal,
    "sri_direction": ogr.OFTReal,
    "reason": ogr.OFTString,
}


def load_sample(version):
    """The core benchmark Sample of a definitions.BENCHMARK_SAMPLES key."""
    from ..core.survey import benchmark

    path = SAMPLES[version]
    if not os.path.exists(path):
        raise QgsProcessingException(
            tr("The benchmark sample {v} is missing ({path}).").format(v=version, path=path)
        )
    return benchmark.read_sample(path)


def sample_facts(version, sample, topics):
    """The facts fields of a runs row for what is measured on a benchmark sample: the world
    (the sample's points) as study area, and the truth the sample ships for these topics."""
    from ..core.survey import benchmark
    from .run_facts import layer_field, study_area

    area = study_area(tr("the world (benchmark sample {v}, {n} points)").format(
        v=version, n=len(sample)))  # fmt: skip
    names = [benchmark.SAMPLE_TRUTH[t] for t in topics if t in benchmark.SAMPLE_TRUTH]
    truth = "; ".join(layer_field(f"sample_{version}", n) for n in dict.fromkeys(names))
    return dict(area.fields(), truth=truth)


def sample_truth(sample, topic):
    """(truth, its units) of `topic` on the sample's points, or (None, None): the truth the
    sample ships (infant mortality, population density by country)."""
    from ..core.survey import benchmark

    name = benchmark.SAMPLE_TRUTH.get(topic)
    if name is None or name not in sample.fields:
        return None, None
    return sample.fields[name], sample.iso_a3


def unit_codes(units):
    """Country codes as the integers of a rated layer's truth_unit (NaN at sea)."""
    import numpy as np

    labels, codes = np.unique(np.asarray(units, dtype=str), return_inverse=True)
    codes = codes.astype(float)
    if "" in labels:
        codes[codes == np.flatnonzero(labels == "")[0]] = np.nan
    return codes


def ratings_from_layers(layers, sample, context, feedback):
    """({topic: {"scores", "answered", "failed", "score_kind"}}, model) of rated layers placed
    on the sample's points by their coordinates (NaN where a point was not rated). One model:
    a card is one model's."""
    import numpy as np

    from ..core.survey import benchmark
    from .features import as_float, read_columns
    from .metrics_table import groups

    by_topic, models = {}, set()
    for layer in layers:
        names = ["model", "topic", "score_kind", "answered", "failed", "score"]
        columns = read_columns(layer, context, names)
        if "score" not in columns:
            raise QgsProcessingException(
                tr("Layer {layer} has no field 'score': give rated points layers.").format(
                    layer=layer.name())
            )  # fmt: skip
        score = as_float(columns["score"])
        n = len(score)
        answered = as_float(columns["answered"]) == 1 if "answered" in columns else None
        failed = as_float(columns["failed"]) == 1 if "failed" in columns else np.zeros(n, bool)
        # The card's prompts are English: a layer's language column is not read (always "").
        for (model, topic, kind, _language), idx in groups(columns).items():
            topic = topic or layer.name()
            if topic in by_topic:
                raise QgsProcessingException(
                    tr("Topic {topic} is rated in two layers: give one per topic.").format(
                        topic=topic)
                )  # fmt: skip
            models.add(model or layer.name())
            lon, lat = columns["lon"][idx], columns["lat"][idx]
            hit = np.isfinite(score[idx]) if answered is None else answered[idx]
            try:
                placed = {
                    "scores": benchmark.on_sample(sample, lon, lat, score[idx]),
                    "answered": benchmark.on_sample(sample, lon, lat, hit),
                    "failed": benchmark.on_sample(sample, lon, lat, failed[idx]),
                }
            except ValueError as err:
                raise QgsProcessingException(
                    tr("Layer {layer}: {err}").format(layer=layer.name(), err=message_text(err))
                ) from err
            rated = np.isfinite(placed["failed"])
            if not rated.any():
                raise QgsProcessingException(
                    tr("Layer {layer} has no point of the benchmark sample {v} (points are "
                       "matched by their coordinates, to 1e-5 degrees).").format(
                        layer=layer.name(), v=sample.version)
                )  # fmt: skip
            if rated.sum() < len(idx):
                feedback.pushWarning(
                    tr("Layer {layer}: {k} of its {n} points are not in the sample; they are "
                       "left out.").format(layer=layer.name(), k=len(idx) - rated.sum(),
                                           n=len(idx))
                )  # fmt: skip
            placed["rated"] = rated
            placed["score_kind"] = kind
            by_topic[topic] = placed
    if len(models) > 1:
        raise QgsProcessingException(
            tr("A card is one model's; these layers hold {models}.").format(
                models=", ".join(sorted(models)))
        )  # fmt: skip
    return by_topic, next(iter(models), "")


def topic_entries(by_topic, sample, n_boot, seed, feedback):
    """The card's entries, one per topic: {topic: placed ratings} on the rated points only."""
    from ..core.survey import benchmark
    from .progress import step_text

    entries = []
    for k, (topic, placed) in enumerate(by_topic.items()):
        step_text(feedback, tr("Card: metrics and GeoBS scores of {topic}…").format(
            topic=topic))  # fmt: skip
        rated = placed["rated"]
        truth, units = sample_truth(sample, topic)
        entry = benchmark.topic_entry(
            topic, placed["scores"][rated], sample.lon[rated], sample.lat[rated],
            truth=None if truth is None else truth[rated],
            anchor=sample.fields["infant_survival"][rated],
            truth_units=sample.iso_a3[rated],
            answered=placed["answered"][rated] == 1, failed=placed["failed"][rated] == 1,
            n_boot=n_boot, seed=seed, scores=placed["scores"],
        )  # fmt: skip
        entries.append(entry)
        if feedback.isCanceled():
            return None
        feedback.setProgress(100.0 * (k + 1) / max(len(by_topic), 1))
    return entries


def card_rows(card):
    """Rows of the GeoPackage's `card` table (CARD_FIELDS), one per topic."""
    rows = []
    for t in card["topics"]:
        truth, g = t.get("rho_truth") or {}, t.get("geobs") or {}
        row = {k: t.get(k) for k in CARD_FIELDS if k in t}
        row.update({
            "rho_truth": truth.get("rho"), "rho_truth_p": truth.get("p"),
            "rho_truth_lo": truth.get("lo"), "rho_truth_hi": truth.get("hi"),
            "n_truth": truth.get("n"), "rho_anchor": (t.get("rho_anchor") or {}).get("rho"),
            "bias_score_is_bias": int(bool(t.get("bias_score_is_bias"))),
        })  # fmt: skip
        row.update({k: g.get(k) for k in ("ssi", "sri_scale", "sri_lag", "sri_direction")})
        rows.append(row)
    return rows


def write_json(path, card):
    """Write the card's JSON file (folders made as needed)."""
    from ..core.survey import benchmark

    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(benchmark.card_json(card))
        f.write("\n")
    return path


def read_cards(paths, parameter="CARDS"):
    """Cards read from JSON files; a file that is no card is an error naming `parameter`."""
    from ..core.survey import benchmark

    cards = []
    for path in paths:
        try:
            cards.append(benchmark.read_card(path))
        except (OSError, ValueError) as err:  # UnicodeDecodeError too: a binary file
            raise QgsProcessingException(
                tr("{param}: {path} is not a benchmark card ({err}).").format(
                    param=parameter, path=path, err=message_text(err))
            ) from err  # fmt: skip
    return cards


def shipped_cards():
    """The cards shipped with GeoBias (resources/benchmark/cards), sorted."""
    return sorted(glob.glob(os.path.join(SHIPPED_CARDS, "*.json")))


def card_label(card):
    """A card's name in tables and maps: its model, marked when the run was reduced."""
    return card["model"] + (" " + tr("(reduced)") if card.get("reduced") else "")
