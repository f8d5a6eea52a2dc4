"""The choices of GeoBias's enum parameters, keys and labels in one place.

Processing stores an enum parameter as the position of its choice. The algorithms declare their
enums from these definitions and read them back as keys; the dock builds its combo boxes from the
same definitions and passes `choices.index(key)`. Nothing outside this module depends on the
order of a choice list, so reordering one here cannot silently break the dock.
"""

from dataclasses import dataclass

from ..core.survey.prompts import DEFAULT_PRESET, PRESET_LABELS, PRESETS
from ..i18n_util import QT_TRANSLATE_NOOP, tr
from .herb_scorers import SCORERS


@dataclass(frozen=True)
class Choices:
    """One enum parameter's choices: stable keys in Processing's order, and their labels.

    Labels are English source strings marked for translation; `labels()` translates them.
    """

    keys: tuple
    source_labels: tuple
    default: str

    def __post_init__(self):
        if len(self.keys) != len(self.source_labels) or self.default not in self.keys:
            raise ValueError(f"bad choices {self.keys!r}")

    def index(self, key):
        """Processing's value of the choice `key` (ValueError for an unknown key)."""
        return self.keys.index(key)

    def key(self, index):
        """The key of Processing's value `index`."""
        return self.keys[int(index)]

    @property
    def default_index(self):
        return self.keys.index(self.default)

    def labels(self):
        """The translated labels, in Processing's order."""
        return [tr(label) for label in self.source_labels]

    def label(self, key):
        return tr(self.source_labels[self.keys.index(key)])


def _choices(pairs, default):
    return Choices(tuple(k for k, _ in pairs), tuple(v for _, v in pairs), default)


# Provider presets (core.llm.PROVIDERS) plus "custom" (any base URL); the Options page shows the
# same names.
PROVIDERS = _choices(
    [
        ("embedded", QT_TRANSLATE_NOOP("@default", "Embedded local model")),
        ("openai", QT_TRANSLATE_NOOP("@default", "OpenAI")),
        ("ollama", QT_TRANSLATE_NOOP("@default", "Ollama")),
        ("vllm", QT_TRANSLATE_NOOP("@default", "vLLM")),
        ("llamacpp", QT_TRANSLATE_NOOP("@default", "llama.cpp server")),
        ("lmstudio", QT_TRANSLATE_NOOP("@default", "LM Studio")),
        ("together", QT_TRANSLATE_NOOP("@default", "Together AI")),
        ("openrouter", QT_TRANSLATE_NOOP("@default", "OpenRouter")),
        ("gemini", QT_TRANSLATE_NOOP("@default", "Google Gemini (OpenAI-compatible)")),
        ("custom", QT_TRANSLATE_NOOP("@default", "Custom (any OpenAI-compatible URL)")),
        # After Custom, so that the indices scripts pass (PROVIDER=9: Custom) keep their meaning.
        ("anthropic", QT_TRANSLATE_NOOP("@default", "Anthropic (OpenAI-compatible)")),
        ("mistral", QT_TRANSLATE_NOOP("@default", "Mistral AI")),
    ],
    "embedded",
)

# Which provider's batch API a survey goes to (core/batch); "auto" follows the provider preset.
BATCH_APIS = _choices(
    [
        ("auto", QT_TRANSLATE_NOOP("@default", "The provider preset's")),
        ("openai", QT_TRANSLATE_NOOP("@default", "OpenAI Batch API (also Azure OpenAI)")),
        ("anthropic", QT_TRANSLATE_NOOP("@default", "Anthropic Message Batches")),
        ("gemini", QT_TRANSLATE_NOOP("@default", "Gemini batch mode")),
        ("mistral", QT_TRANSLATE_NOOP("@default", "Mistral batch inference")),
    ],
    "auto",
)

# The answer constraint of an endpoint (core.llm.CONSTRAINT_CHOICES, resolve_constraint).
CONSTRAINTS = _choices(
    [
        ("auto", QT_TRANSLATE_NOOP(
            "@default",
            "Automatic: the server's constraint for a model known to need one")),
        ("none", QT_TRANSLATE_NOOP("@default", "None: the model answers freely")),
        ("grammar", QT_TRANSLATE_NOOP("@default", "llama.cpp grammar")),
        ("regex", QT_TRANSLATE_NOOP("@default", "vLLM structured outputs (regex)")),
        ("guided_regex", QT_TRANSLATE_NOOP("@default", "vLLM guided_regex (before 0.12)")),
        ("json_schema", QT_TRANSLATE_NOOP("@default", "JSON schema (response_format)")),
    ],
    "auto",
)  # fmt: skip

# "auto" (the default, in the dock too): the expected value when the endpoint gives logprobs,
# the greedy rating when it gives none. A score column always holds one kind.
SCORE_KINDS = _choices(
    [
        ("expected", QT_TRANSLATE_NOOP("@default", "Expected value (from log-probabilities)")),
        ("greedy", QT_TRANSLATE_NOOP("@default", "Greedy rating")),
        ("auto", QT_TRANSLATE_NOOP(
            "@default",
            "Automatic: the expected value where the endpoint gives log-probabilities")),
        # Last, so that SCORE indices scripts pass keep their meaning.
        ("sampled", QT_TRANSLATE_NOOP(
            "@default",
            "Sampled expected value (SAMPLES answers at temperature 1, no log-probabilities "
            "needed)")),
    ],
    "auto",
)  # fmt: skip

# The draws per prompt of the sampled score (SCORE "sampled"): Processing's SAMPLES parameter and
# the dock's Draws box both take them from here.
SAMPLES_DEFAULT = 10
SAMPLES_MIN = 2
SAMPLES_MAX = 100

# The score kinds of imported ratings (a file holds one number per point).
IMPORT_SCORE_KINDS = _choices(
    [
        ("greedy", QT_TRANSLATE_NOOP("@default", "Greedy ratings")),
        ("expected", QT_TRANSLATE_NOOP("@default", "Expected values")),
    ],
    "greedy",
)

PROMPT_PRESETS = Choices(
    tuple(PRESETS), tuple(PRESET_LABELS.get(k, k) for k in PRESETS), DEFAULT_PRESET
)
# core.prompts.PRESET_LABELS for the translation tools (labels() finds them by their text).
PRESET_LABEL_SOURCES = (
    QT_TRANSLATE_NOOP("@default", "GeoLLM (paper)"),
    QT_TRANSLATE_NOOP("@default", "Ablation: without coordinates"),
    QT_TRANSLATE_NOOP("@default", "Ablation: without nearby places"),
    QT_TRANSLATE_NOOP("@default", "Ablation: without address"),
    QT_TRANSLATE_NOOP("@default", "Ablation: only admin-1 and country of the address"),
)

# The bundled topics (core.topics.TOPICS) and their descriptions, for the translation tools: the
# dock shows topic_label(name), while the prompt keeps the name in the prompt's own language.
TOPIC_SOURCES = (
    QT_TRANSLATE_NOOP("@default", "Infant Mortality Rate"),
    QT_TRANSLATE_NOOP("@default", "Population Density"),
    QT_TRANSLATE_NOOP("@default", "Built-Up to Non Built-Up Area Ratio"),
    QT_TRANSLATE_NOOP("@default", "Nighttime Light Intensity"),
    QT_TRANSLATE_NOOP("@default", "Average Temperature"),
    QT_TRANSLATE_NOOP("@default", "Annual Precipitation"),
    QT_TRANSLATE_NOOP("@default", "Average Likability of Residents"),
    QT_TRANSLATE_NOOP("@default", "Average Attractiveness of Residents"),
    QT_TRANSLATE_NOOP("@default", "Average Morality of Residents"),
    QT_TRANSLATE_NOOP("@default", "Average Intelligence of Residents"),
    QT_TRANSLATE_NOOP("@default", "Average Work Ethic of Residents"),
    QT_TRANSLATE_NOOP("@default", "Average Body Temperature of Residents"),
    QT_TRANSLATE_NOOP("@default", "Average Respiration Rate of Residents"),
    QT_TRANSLATE_NOOP("@default", "Average Gestation Period of Residents"),
    QT_TRANSLATE_NOOP("@default", "Nitrogen Concentration in Atmosphere"),
    QT_TRANSLATE_NOOP("@default", "Solar Neutrino Flux"),
    QT_TRANSLATE_NOOP("@default", "Deaths under one year per 1,000 live births."),
    QT_TRANSLATE_NOOP("@default", "People per square kilometre."),
    QT_TRANSLATE_NOOP("@default", "Share of land covered by buildings and infrastructure."),
    QT_TRANSLATE_NOOP("@default", "Artificial light seen from space at night."),
    QT_TRANSLATE_NOOP("@default", "Mean annual air temperature."),
    QT_TRANSLATE_NOOP("@default", "Total yearly rain and snow."),
    QT_TRANSLATE_NOOP("@default", "No ground truth; ideal is constant."),
    QT_TRANSLATE_NOOP("@default", "Same everywhere (control)."),
)


def topic_label(name):
    """A topic as the interface shows it: a bundled topic in the interface language, the user's
    own as typed."""
    return tr(name)


# The dock shows the same names, and both default to the paper's sampling of human-populated
# places: weighted by population, spread by farthest points.
SAMPLE_METHODS = _choices(
    [
        # Short enough for the narrow dock, which shows the same names as the toolbox; the
        # METHOD help says how each places points (uniform on the sphere; the weighted ones
        # keep the farthest of their candidates, the population from the gazetteer).
        ("uniform", QT_TRANSLATE_NOOP("@default", "Uniform")),
        ("population", QT_TRANSLATE_NOOP("@default", "By population")),
        ("raster", QT_TRANSLATE_NOOP("@default", "By a raster")),
        ("grid", QT_TRANSLATE_NOOP("@default", "Square grid")),
        ("hex", QT_TRANSLATE_NOOP("@default", "Hexagonal grid")),
    ],
    "population",
)  # fmt: skip

# Automatic: whole truth units (the polygons the truth came from, field truth_unit) are
# resampled when the layer has them, single points otherwise.
BOOTSTRAPS = _choices(
    [
        ("auto", QT_TRANSLATE_NOOP(
            "@default", "Automatic: clusters by truth unit when the truth came from polygons")),
        ("points", QT_TRANSLATE_NOOP("@default", "Points (independent)")),
        ("clusters", QT_TRANSLATE_NOOP("@default", "Clusters by truth unit (field truth_unit)")),
    ],
    "auto",
)  # fmt: skip

# Statistics of a raster window (ground truth and anchors from rasters).
STATISTICS = _choices(
    [
        ("mean", QT_TRANSLATE_NOOP("@default", "Mean")),
        ("sum", QT_TRANSLATE_NOOP("@default", "Sum")),
        ("median", QT_TRANSLATE_NOOP("@default", "Median")),
        ("max", QT_TRANSLATE_NOOP("@default", "Maximum")),
    ],
    "mean",
)

# Spatial weights of the hot-spot statistics.
WEIGHTS = _choices(
    [
        ("knn", QT_TRANSLATE_NOOP("@default", "k nearest neighbours")),
        ("band", QT_TRANSLATE_NOOP("@default", "Distance band (km)")),
    ],
    "knn",
)

# HERB: where the regions come from, and what scores the sentences.
HERB_SCOPES = _choices(
    [
        ("world", QT_TRANSLATE_NOOP(
            "@default", "World: continents → countries → cities (bundled GeoNames)")),
        ("layers", QT_TRANSLATE_NOOP(
            "@default", "My nested layers (2–3 layers, each naming its parent)")),
        ("parent_field", QT_TRANSLATE_NOOP("@default", "One layer with a parent field")),
    ],
    "world",
)  # fmt: skip
# The scorers are registered in herb_scorers.py (key, labels, factory, fields they read).
HERB_SCORERS = _choices([(s.key, s.label) for s in SCORERS.values()], "embedded")

# How the embedded models (and a GGUF file) score a sentence: in one pass of llama.cpp's C API
# in a child process (core/herb/whole_sentence.py), or token by token from the embedded server (the
# reference path; a remote llama.cpp server is always scored this way).
HERB_METHODS = _choices(
    [
        ("whole", QT_TRANSLATE_NOOP(
            "@default", "Whole sentences in one pass (child process, fast)")),
        ("forced", QT_TRANSLATE_NOOP(
            "@default", "Forced decoding, one token at a time (the reference path)")),
    ],
    "whole",
)  # fmt: skip
# The bundled models HERB's embedded scorer offers (core/runtime/models.py keys).
HERB_MODELS = _choices(
    [
        ("smollm2-135m", QT_TRANSLATE_NOOP("@default", "SmolLM2 135M")),
        ("gemma3-270m", QT_TRANSLATE_NOOP("@default", "Gemma 3 270M")),
    ],
    # The survey's default too: one model for both papers (issue 25 item 4; README's HERB).
    "gemma3-270m",
)  # fmt: skip
# One part of HERB's reference-code mode (core/herb/reference_code.py): as the switch says, or
# set alone.
REFERENCE_PARTS = _choices(
    [
        ("switch", QT_TRANSLATE_NOOP("@default", "As the reference-code switch says")),
        ("paper", QT_TRANSLATE_NOOP("@default", "GeoBias's (the paper's text)")),
        ("released", QT_TRANSLATE_NOOP("@default", "The released scripts'")),
    ],
    "switch",
)  # fmt: skip

# The prompt variants of the ablation: the whole prompt first, then the ablations in the order
# of the paper's Tables 1-2 (labels are the presets').
ABLATION_VARIANTS = Choices(
    ("geollm", "no_coordinates", "no_nearby", "no_address", "short_address"),
    tuple(
        PRESET_LABELS[v]
        for v in ("geollm", "no_coordinates", "no_nearby", "no_address", "short_address")
    ),
    "geollm",
)

# What the GeoBS scores (geobias:geobiasscores) are computed on: a per-point error in classes.
GEOBS_ERRORS = _choices(
    [
        ("rank_error", QT_TRANSLATE_NOOP(
            "@default", "Rank error (needs the ground truth), in 4 classes at −0.25, 0, +0.25")),
        ("answered", QT_TRANSLATE_NOOP(
            "@default", "Answered or not (hit/miss): where the model gives no rating")),
        ("field", QT_TRANSLATE_NOOP(
            "@default", "A numeric field of the layer, in classes at the given edges")),
    ],
    "rank_error",
)  # fmt: skip

# The fixed, versioned samples of the benchmark card (resources/benchmark/).
BENCHMARK_SAMPLES = _choices(
    [("v1", QT_TRANSLATE_NOOP("@default", "Sample v1: the paper's 2,000 world points"))], "v1"
)
