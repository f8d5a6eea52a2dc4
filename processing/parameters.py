"""Parameter groups that several algorithms declare: their keys as class constants, `add(alg)`
to declare them and `read(...)` to read them back as a dataclass.

Every algorithm that rates points declares the same connection and prompt groups, every one
that computes intervals the same bootstrap group, and so on; a key is spelled once, here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from qgis.core import (
    QgsProcessing,
    QgsProcessingException,
    QgsProcessingParameterAuthConfig,
    QgsProcessingParameterBand,
    QgsProcessingParameterBoolean,
    QgsProcessingParameterDefinition,
    QgsProcessingParameterEnum,
    QgsProcessingParameterExtent,
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterField,
    QgsProcessingParameterFile,
    QgsProcessingParameterNumber,
    QgsProcessingParameterRasterLayer,
    QgsProcessingParameterString,
    QgsVectorLayer,
)

from ..core.survey.prompts import PRESETS
from ..i18n_util import QT_TRANSLATE_NOOP, tr
from ..paths import COUNTRIES
from .checks import MAY_CREATE, short_label
from .crs import WGS84
from .definitions import (
    BOOTSTRAPS,
    CONSTRAINTS,
    GEOBS_ERRORS,
    HERB_METHODS,
    HERB_MODELS,
    HERB_SCORERS,
    PROMPT_PRESETS,
    PROVIDERS,
    REFERENCE_PARTS,
    SAMPLE_METHODS,
    SAMPLES_DEFAULT,
    SAMPLES_MAX,
    SAMPLES_MIN,
    SCORE_KINDS,
    STATISTICS,
)
from .run_facts import layer_field, layer_label, region_description, study_area

INPUT = "INPUT"
OUTPUT = "OUTPUT"
DEFAULT_TOPICS = "Infant Mortality Rate"


def split_topics(text):
    """Topics from 'A; B' or one per line, stripped, without duplicates."""
    parts = [t.strip() for line in text.splitlines() for t in line.split(";")]
    return list(dict.fromkeys(t for t in parts if t))


def _seed_parameter(key):
    return QgsProcessingParameterNumber(key, tr("Random seed"), defaultValue=0)


def advanced(parameter):
    """The parameter under Advanced parameters in the algorithm's dialog."""
    parameter.setFlags(parameter.flags() | QgsProcessingParameterDefinition.Flag.FlagAdvanced)
    return parameter


def add_name_parameter(alg, key, label):
    """An optional advanced text parameter naming something in the outputs (a study area, a
    ground truth, an anchor) as the user knows it; empty: a name from the parameters."""
    alg.addParameter(advanced(QgsProcessingParameterString(key, label, "", optional=True)))


def source_label(alg, parameters, key, context):
    """The name a fact gives the layer of parameter `key`: a bundled layer by its data
    ("Countries"), another by its name."""
    layer = alg.parameterAsVectorLayer(parameters, key, context)
    if layer is not None:
        return layer_label(layer)
    source = alg.parameterAsSource(parameters, key, context)
    return source.sourceName() if source is not None else ""


POLYGONS = (QgsProcessing.SourceType.TypeVectorPolygon,)
POINTS = (QgsProcessing.SourceType.TypeVectorPoint,)
UNITS_OR_POINTS = POLYGONS + POINTS


def add_layer_and_field(alg, key, label, types, field_key, field_label, default_field=None,
                        optional=True):  # fmt: skip
    """A vector layer parameter and a numeric field of it (the field is always optional: a
    reader says when it is needed)."""
    alg.addParameter(
        QgsProcessingParameterFeatureSource(key, label, list(types), optional=optional)
    )
    alg.addParameter(
        QgsProcessingParameterField(
            field_key, field_label, default_field, key,
            QgsProcessingParameterField.DataType.Numeric, optional=True,
        )
    )  # fmt: skip


# ------------------------------------------------------------------ sampling


@dataclass
class Sampling:
    """Where and how to sample: a lon/lat shapely region and the method's settings."""

    region: Any
    count: int
    method: str  # a definitions.SAMPLE_METHODS key
    seed: int
    raster_path: str | None = None
    band: int = 1
    area: Any = None  # facts.StudyArea: the region as the outputs describe it


class SamplingParameters:
    """REGION or EXTENT (else the world), COUNT, METHOD, WEIGHT_RASTER, BAND, SEED;
    STUDY_AREA (advanced) names the region in the outputs."""

    REGION = "REGION"
    EXTENT = "EXTENT"
    COUNT = "COUNT"
    METHOD = "METHOD"
    WEIGHT_RASTER = "WEIGHT_RASTER"
    BAND = "BAND"
    SEED = "SEED"
    STUDY_AREA = "STUDY_AREA"

    @classmethod
    def add(cls, alg):
        alg.addParameter(
            QgsProcessingParameterFeatureSource(
                cls.REGION, tr("Region polygons"), [QgsProcessing.SourceType.TypeVectorPolygon],
                optional=True,
            )
        )  # fmt: skip
        alg.addParameter(
            QgsProcessingParameterExtent(cls.EXTENT, tr("Region extent"), optional=True)
        )
        alg.addParameter(
            QgsProcessingParameterNumber(
                cls.COUNT, tr("Number of points"), defaultValue=200, minValue=1
            )
        )
        alg.addParameter(
            QgsProcessingParameterEnum(
                cls.METHOD, tr("Sampling method"), SAMPLE_METHODS.labels(),
                defaultValue=SAMPLE_METHODS.default_index,
            )
        )  # fmt: skip
        alg.addParameter(
            QgsProcessingParameterRasterLayer(cls.WEIGHT_RASTER, tr("Weight raster"), optional=True)
        )
        alg.addParameter(
            QgsProcessingParameterBand(
                cls.BAND, tr("Weight band"), 1, cls.WEIGHT_RASTER, optional=True
            )
        )
        alg.addParameter(_seed_parameter(cls.SEED))
        add_name_parameter(
            alg, cls.STUDY_AREA,
            tr("Study area as the outputs describe it (empty: the region layer's name and "
               "selection, the extent, or the world)"),
        )  # fmt: skip

    @classmethod
    def read_area(cls, alg, parameters, context, region):
        """The facts.StudyArea of the region: the user's description (or one made from the
        parameters), its area and extent."""
        text = ""
        if alg.parameterDefinition(cls.STUDY_AREA) is not None:
            text = alg.parameterAsString(parameters, cls.STUDY_AREA, context).strip()
        return study_area(text or region_description(alg, parameters, context), region)

    @classmethod
    def read_region(cls, alg, parameters, context, feedback):
        """The region as a lon/lat shapely geometry (None: the whole world)."""
        from .features import extent_region, region_geometry

        source = alg.parameterAsSource(parameters, cls.REGION, context)
        if source is not None:
            return region_geometry(source, context, feedback)
        if parameters.get(cls.EXTENT):
            rect = alg.parameterAsExtent(parameters, cls.EXTENT, context)
            crs = alg.parameterAsExtentCrs(parameters, cls.EXTENT, context)
            if not rect.isEmpty():
                return extent_region(rect, crs if crs.isValid() else WGS84, context)
        feedback.pushInfo(tr("No region given: sampling the whole world."))
        return None

    @classmethod
    def read(cls, alg, parameters, context, feedback):
        raster = alg.parameterAsRasterLayer(parameters, cls.WEIGHT_RASTER, context)
        region = cls.read_region(alg, parameters, context, feedback)
        return Sampling(
            region=region,
            count=alg.parameterAsInt(parameters, cls.COUNT, context),
            method=SAMPLE_METHODS.key(alg.parameterAsEnum(parameters, cls.METHOD, context)),
            seed=alg.parameterAsInt(parameters, cls.SEED, context),
            raster_path=raster.source().split("|")[0] if raster is not None else None,
            band=alg.parameterAsInt(parameters, cls.BAND, context) or 1,
            area=cls.read_area(alg, parameters, context, region),
        )


# ------------------------------------------------------------------ endpoint


@dataclass
class Connection:
    """Where and how to ask a model (the API key is never shown in a repr)."""

    provider: str = "embedded"  # a definitions.PROVIDERS key
    base_url: str = ""
    model: str = ""
    api_key: str | None = field(default=None, repr=False)
    concurrency: int = 4
    reasoning: bool = False  # a reasoning model whatever its name (else: recognised by name)
    constraint: str = "auto"  # a definitions.CONSTRAINTS key (core.llm.resolve_constraint)
    rpm: float = 0.0  # requests per minute; 0 = unlimited (the endpoint's rate limiter reads it)
    tpm: float = 0.0  # tokens per minute; 0 = unlimited
    patience: float = 30.0  # minutes throttled (429, 503) without an answer before stopping

    @property
    def shared_model(self):
        """Whether this is the shared local model: the embedded provider without a URL of its
        own, started on demand once per QGIS process (endpoints.running_endpoint)."""
        return is_shared_model(self.provider, self.base_url)


def is_shared_model(provider, base_url):
    """The one rule for "the shared local model": the embedded provider and no URL given."""
    return provider == "embedded" and not base_url


class ConnectionParameters:
    """PROVIDER, BASE_URL, MODEL, AUTH_CONFIG, CONCURRENCY, RPM, TPM, PATIENCE, REASONING,
    CONSTRAINT."""

    PROVIDER = "PROVIDER"
    BASE_URL = "BASE_URL"
    MODEL = "MODEL"
    AUTH_CONFIG = "AUTH_CONFIG"
    CONCURRENCY = "CONCURRENCY"
    RPM = "RPM"
    TPM = "TPM"
    PATIENCE = "PATIENCE"
    REASONING = "REASONING"
    CONSTRAINT = "CONSTRAINT"

    @classmethod
    def add(cls, alg, constraint=True):
        alg.addParameter(
            QgsProcessingParameterEnum(
                cls.PROVIDER, tr("Provider preset"), PROVIDERS.labels(),
                defaultValue=PROVIDERS.default_index,
            )
        )  # fmt: skip
        alg.addParameter(
            QgsProcessingParameterString(
                cls.BASE_URL, tr("Base URL (empty: the preset's; embedded: start a local model)"),
                "", optional=True,
            )
        )  # fmt: skip
        alg.addParameter(
            QgsProcessingParameterString(
                cls.MODEL, tr("Model (empty for the embedded model)"), "", optional=True
            )
        )
        alg.addParameter(
            QgsProcessingParameterAuthConfig(
                cls.AUTH_CONFIG, tr("API key (QGIS authentication configuration)"), optional=True
            )
        )
        alg.addParameter(
            QgsProcessingParameterNumber(
                cls.CONCURRENCY, tr("Concurrent requests"), defaultValue=4, minValue=1,
                maxValue=64,
            )
        )  # fmt: skip
        for key, label in (
            (cls.RPM, tr("Requests per minute (0: unlimited)")),
            (cls.TPM, tr("Tokens per minute (0: unlimited)")),
        ):
            alg.addParameter(advanced(
                QgsProcessingParameterNumber(
                    key, label, QgsProcessingParameterNumber.Type.Double, defaultValue=0.0,
                    minValue=0.0,
                )
            ))  # fmt: skip
        alg.addParameter(advanced(
            QgsProcessingParameterNumber(
                cls.PATIENCE,
                tr("Minutes to wait out throttling (HTTP 429, 503) without an answer before "
                   "stopping"),
                QgsProcessingParameterNumber.Type.Double, defaultValue=30.0, minValue=0.0,
                maxValue=7 * 24 * 60.0,
            )
        ))  # fmt: skip
        alg.addParameter(
            QgsProcessingParameterBoolean(
                cls.REASONING,
                tr("Reasoning model (o-series, GPT-5 or an alias of one): greedy ratings only"),
                False,
            )
        )
        if constraint:
            param = QgsProcessingParameterEnum(
                cls.CONSTRAINT, tr("Answer constraint"), CONSTRAINTS.labels(),
                defaultValue=CONSTRAINTS.default_index,
            )  # fmt: skip
            param.setFlags(param.flags() | QgsProcessingParameterDefinition.Flag.FlagAdvanced)
            alg.addParameter(param)

    @classmethod
    def read(cls, alg, parameters, context):
        from .endpoints import api_key_from_auth

        constraint = CONSTRAINTS.default
        if alg.parameterDefinition(cls.CONSTRAINT) is not None:
            constraint = CONSTRAINTS.key(alg.parameterAsEnum(parameters, cls.CONSTRAINT, context))
        return Connection(
            provider=PROVIDERS.key(alg.parameterAsEnum(parameters, cls.PROVIDER, context)),
            base_url=read_url(alg, parameters, cls.BASE_URL, context),
            model=alg.parameterAsString(parameters, cls.MODEL, context).strip(),
            api_key=api_key_from_auth(alg.parameterAsString(parameters, cls.AUTH_CONFIG, context)),
            concurrency=alg.parameterAsInt(parameters, cls.CONCURRENCY, context),
            reasoning=alg.parameterAsBoolean(parameters, cls.REASONING, context),
            constraint=constraint,
            rpm=alg.parameterAsDouble(parameters, cls.RPM, context),
            tpm=alg.parameterAsDouble(parameters, cls.TPM, context),
            patience=alg.parameterAsDouble(parameters, cls.PATIENCE, context),
        )


class CacheParameter:
    """CACHE: the SQLite file answers (and HERB's scores) are cached in; several runs, in
    QGIS or qgis_process, may share one file at once."""

    CACHE = "CACHE"

    @classmethod
    def add(cls, alg, label=None):
        cache = QgsProcessingParameterFile(
            cls.CACHE, label or tr("Answer cache (empty: the survey cache in the QGIS profile)"),
            optional=True, fileFilter=tr("SQLite (*.sqlite)"),
        )  # fmt: skip
        cache.setMetadata({MAY_CREATE: True})  # a new cache file is created
        alg.addParameter(cache)

    @classmethod
    def read(cls, alg, parameters, context):
        """The cache file's path: the parameter's, else the profile's survey cache."""
        from .endpoints import default_cache_path

        return alg.parameterAsFile(parameters, cls.CACHE, context) or default_cache_path()


# ------------------------------------------------------------------ size and cost


@dataclass
class Budget:
    """How big and how dear a run may be: the most requests (cached or sent, every topic,
    language and draw counted), prices per million tokens (0: unknown) and the most it may
    spend (0: no limit)."""

    max_requests: int = 50_000
    price_in: float = 0.0
    price_out: float = 0.0
    max_cost: float = 0.0

    @property
    def priced(self):
        return bool(self.price_in or self.price_out)


class BudgetParameters:
    """MAX_REQUESTS, PRICE_INPUT, PRICE_OUTPUT, MAX_COST (advanced): a typo in a count or a
    run on a paid endpoint is refused or stopped before it spends more than the user meant."""

    MAX_REQUESTS = "MAX_REQUESTS"
    PRICE_INPUT = "PRICE_INPUT"
    PRICE_OUTPUT = "PRICE_OUTPUT"
    MAX_COST = "MAX_COST"

    @classmethod
    def add(cls, alg):
        alg.addParameter(advanced(
            QgsProcessingParameterNumber(
                cls.MAX_REQUESTS,
                tr("Largest run in requests (points × topics × languages; a larger run is "
                   "refused)"),
                defaultValue=Budget.max_requests, minValue=1,
            )
        ))  # fmt: skip
        for key, label in (
            (cls.PRICE_INPUT, tr("Price per million prompt tokens (0: unknown)")),
            (cls.PRICE_OUTPUT, tr("Price per million completion tokens (0: unknown)")),
            (cls.MAX_COST, tr("Most a run may spend, at these prices (0: no limit)")),
        ):
            alg.addParameter(advanced(
                QgsProcessingParameterNumber(
                    key, label, QgsProcessingParameterNumber.Type.Double, defaultValue=0.0,
                    minValue=0.0,
                )
            ))  # fmt: skip

    @classmethod
    def read(cls, alg, parameters, context):
        budget = Budget(
            max_requests=alg.parameterAsInt(parameters, cls.MAX_REQUESTS, context),
            price_in=alg.parameterAsDouble(parameters, cls.PRICE_INPUT, context),
            price_out=alg.parameterAsDouble(parameters, cls.PRICE_OUTPUT, context),
            max_cost=alg.parameterAsDouble(parameters, cls.MAX_COST, context),
        )
        if budget.max_cost and not budget.priced:
            raise QgsProcessingException(
                tr("A cost limit (MAX_COST) needs the prices it counts in: give PRICE_INPUT "
                   "and PRICE_OUTPUT (per million tokens).")
            )  # fmt: skip
        return budget


class SamplesParameter:
    """SAMPLES: the draws per prompt of the sampled score (SCORE sampled expected value)."""

    SAMPLES = "SAMPLES"

    @classmethod
    def add(cls, alg):
        alg.addParameter(
            QgsProcessingParameterNumber(
                cls.SAMPLES,
                tr("Answers per prompt for the sampled expected value (at temperature 1)"),
                defaultValue=SAMPLES_DEFAULT, minValue=SAMPLES_MIN, maxValue=SAMPLES_MAX,
            )
        )  # fmt: skip

    @classmethod
    def read(cls, alg, parameters, context):
        return alg.parameterAsInt(parameters, cls.SAMPLES, context)


def read_url(alg, parameters, key, context):
    """An http(s) URL parameter, stripped ("" when not given); anything else is refused
    before a request is tried."""
    from urllib.parse import urlsplit

    url = alg.parameterAsString(parameters, key, context).strip()
    if not url:
        return ""
    try:
        parts = urlsplit(url)
        ok = parts.scheme in ("http", "https") and bool(parts.hostname)
        parts.port  # noqa: B018 - raises on a port that is not a number
    except ValueError:
        ok = False
    if not ok:
        label = short_label(alg.parameterDefinition(key))
        raise QgsProcessingException(
            tr("{label} ({key}): {url} is not an http:// or https:// URL.").format(
                label=label, key=key, url=url
            )
        )
    return url


@dataclass
class Prompt:
    """What to ask: the prompt template, the score kind and the topics."""

    template: Any  # a core.prompts.PromptTemplate
    score_kind: str  # a definitions.SCORE_KINDS key
    topics: list
    languages: list = field(default_factory=lambda: ["en"])  # prompt language codes


class PromptParameters:
    """PRESET, SCORE, TOPICS, LANGUAGES."""

    PRESET = "PRESET"
    SCORE = "SCORE"
    TOPICS = "TOPICS"
    LANGUAGES = "LANGUAGES"

    @classmethod
    def add(cls, alg, with_preset=True, with_languages=True):
        if with_preset:
            alg.addParameter(
                QgsProcessingParameterEnum(
                    cls.PRESET, tr("Prompt preset"), PROMPT_PRESETS.labels(),
                    defaultValue=PROMPT_PRESETS.default_index,
                )
            )  # fmt: skip
        alg.addParameter(
            QgsProcessingParameterEnum(
                cls.SCORE, tr("Score"), SCORE_KINDS.labels(),
                defaultValue=SCORE_KINDS.default_index,
            )
        )  # fmt: skip
        alg.addParameter(
            QgsProcessingParameterString(cls.TOPICS, tr("Topics (separated by ;)"), DEFAULT_TOPICS)
        )
        if with_languages:
            cls.add_languages(alg)

    @classmethod
    def add_languages(cls, alg):
        """LANGUAGES: the prompt languages (files of core/survey/languages.py), English by
        default."""
        from .language_choices import language_choices

        choices = language_choices()
        alg.addParameter(
            QgsProcessingParameterEnum(
                cls.LANGUAGES, tr("Prompt languages"), list(choices.source_labels),
                allowMultiple=True, defaultValue=[choices.default_index],
            )
        )  # fmt: skip

    @classmethod
    def read_languages(cls, alg, parameters, context):
        """The chosen language codes, in the choices' order (English alone by default)."""
        from .language_choices import language_choices

        if alg.parameterDefinition(cls.LANGUAGES) is None:
            return ["en"]
        choices = language_choices()
        chosen = alg.parameterAsEnums(parameters, cls.LANGUAGES, context)
        codes = [choices.key(i) for i in sorted(set(chosen)) if 0 <= int(i) < len(choices.keys)]
        if not codes:
            raise QgsProcessingException(tr("Choose at least one prompt language (LANGUAGES)."))
        return codes

    @classmethod
    def read(cls, alg, parameters, context):
        topics = split_topics(alg.parameterAsString(parameters, cls.TOPICS, context))
        if not topics:
            raise QgsProcessingException(tr("Give at least one topic (TOPICS)."))
        template = None
        if alg.parameterDefinition(cls.PRESET) is not None:
            key = PROMPT_PRESETS.key(alg.parameterAsEnum(parameters, cls.PRESET, context))
            template = PRESETS[key]
        return Prompt(
            template=template,
            score_kind=SCORE_KINDS.key(alg.parameterAsEnum(parameters, cls.SCORE, context)),
            topics=topics,
            languages=cls.read_languages(alg, parameters, context),
        )


def add_endpoint_parameters(alg, with_preset=True, with_languages=True):
    """The connection and prompt groups, in the order every rating algorithm shows them."""
    ConnectionParameters.add(alg)
    PromptParameters.add(alg, with_preset, with_languages)


# ------------------------------------------------------------------ ground truth


@dataclass
class TruthSource:
    """A polygon layer field giving the truth of some topics (source None: no truth)."""

    source: Any = None
    field_name: str = ""
    topics: list = field(default_factory=list)
    label: str = ""  # layer.field, as the outputs name it

    def applies_to(self, topic):
        return self.source is not None and topic in self.topics


class TruthParameters:
    """TRUTH (polygons), TRUTH_FIELD, TRUTH_TOPICS; TRUTH_NAME (advanced) names it."""

    TRUTH = "TRUTH"
    TRUTH_FIELD = "TRUTH_FIELD"
    TRUTH_TOPICS = "TRUTH_TOPICS"
    TRUTH_NAME = "TRUTH_NAME"

    @classmethod
    def add(cls, alg):
        add_layer_and_field(
            alg, cls.TRUTH, tr("Ground truth polygons"), POLYGONS,
            cls.TRUTH_FIELD, tr("Ground truth field"),
        )  # fmt: skip
        alg.addParameter(
            QgsProcessingParameterString(
                cls.TRUTH_TOPICS, tr("Topics the ground truth measures (empty: the first topic)"),
                "", optional=True,
            )
        )  # fmt: skip
        add_truth_name(alg, cls.TRUTH_NAME)

    @classmethod
    def read(cls, alg, parameters, context, topics):
        source = alg.parameterAsSource(parameters, cls.TRUTH, context)
        name = alg.parameterAsString(parameters, cls.TRUTH_FIELD, context)
        if source is not None and not name:
            raise QgsProcessingException(tr("Choose the ground truth field."))
        wanted = split_topics(alg.parameterAsString(parameters, cls.TRUTH_TOPICS, context))
        label = ""
        if source is not None:
            label = read_name(alg, parameters, context, cls.TRUTH_NAME) or layer_field(
                source_label(alg, parameters, cls.TRUTH, context), name
            )
        return TruthSource(source, name, wanted or list(topics[:1]), label)


def add_truth_name(alg, key="TRUTH_NAME"):
    add_name_parameter(alg, key, tr("Ground truth as the outputs name it (empty: layer.field)"))


def read_name(alg, parameters, context, key):
    """The text of a name parameter ("" when the algorithm has none)."""
    if alg.parameterDefinition(key) is None:
        return ""
    return alg.parameterAsString(parameters, key, context).strip()


# ------------------------------------------------------------------ anchor


# The anchor when none is given, in Processing and in the dock alike: infant survival of the
# bundled countries (1 - infant mortality; higher = better off), as Manvi et al. (2024) anchor.
DEFAULT_ANCHOR = COUNTRIES
DEFAULT_ANCHOR_FIELD = "infant_survival"


@dataclass
class AnchorSource:
    """The anchoring distribution (higher = better off): a polygon field or a raster window."""

    polygons: Any = None
    field_name: str = ""
    raster: Any = None
    band: int = 1
    window_km: float = 5.0
    statistic: str = "mean"  # a definitions.STATISTICS key
    negate: bool = False
    label: str = ""  # layer.field (or raster and band), as the outputs name it

    @property
    def given(self):
        return self.polygons is not None or self.raster is not None


class AnchorParameters:
    """ANCHOR + ANCHOR_FIELD (polygons) or ANCHOR_RASTER + band, window and statistic;
    ANCHOR_NEGATE; ANCHOR_NAME (advanced) names it."""

    ANCHOR = "ANCHOR"
    ANCHOR_FIELD = "ANCHOR_FIELD"
    ANCHOR_RASTER = "ANCHOR_RASTER"
    ANCHOR_BAND = "ANCHOR_BAND"
    ANCHOR_WINDOW_KM = "ANCHOR_WINDOW_KM"
    ANCHOR_STATISTIC = "ANCHOR_STATISTIC"
    ANCHOR_NEGATE = "ANCHOR_NEGATE"
    ANCHOR_NAME = "ANCHOR_NAME"

    @classmethod
    def add(cls, alg):
        add_layer_and_field(
            alg, cls.ANCHOR,
            tr("Anchoring polygons (empty, with no raster: the bundled countries' infant "
               "survival)"), POLYGONS,
            cls.ANCHOR_FIELD, tr("Anchoring field (higher = better off, e.g. infant survival)"),
        )  # fmt: skip
        alg.addParameter(
            QgsProcessingParameterRasterLayer(
                cls.ANCHOR_RASTER, tr("Anchoring raster (instead of polygons)"), optional=True
            )
        )
        alg.addParameter(
            QgsProcessingParameterBand(
                cls.ANCHOR_BAND, tr("Anchoring raster band"), 1, cls.ANCHOR_RASTER, optional=True
            )
        )
        alg.addParameter(
            QgsProcessingParameterNumber(
                cls.ANCHOR_WINDOW_KM, tr("Anchoring raster window size (km)"),
                QgsProcessingParameterNumber.Type.Double, 5.0, minValue=0.0,
            )
        )  # fmt: skip
        alg.addParameter(
            QgsProcessingParameterEnum(
                cls.ANCHOR_STATISTIC, tr("Anchoring raster window statistic"),
                STATISTICS.labels(), defaultValue=STATISTICS.default_index,
            )
        )  # fmt: skip
        alg.addParameter(
            QgsProcessingParameterBoolean(
                cls.ANCHOR_NEGATE,
                tr("The anchor measures deprivation (e.g. infant mortality): use its negative"),
                defaultValue=False,
            )
        )
        add_name_parameter(
            alg, cls.ANCHOR_NAME, tr("Anchor as the outputs name it (empty: layer.field)")
        )

    @staticmethod
    def default_polygons():
        """The bundled countries layer, the default anchor's polygons."""
        layer = QgsVectorLayer(DEFAULT_ANCHOR, "countries", "ogr")
        if not layer.isValid():
            raise QgsProcessingException(
                tr("The bundled countries layer is missing: {p}").format(p=DEFAULT_ANCHOR)
            )
        return layer

    @classmethod
    def two_anchors_message(cls, parameters):
        """The error for an anchor given both as polygons and as a raster, else ""."""
        if parameters.get(cls.ANCHOR) and parameters.get(cls.ANCHOR_RASTER):
            return tr(
                "Give one anchor: anchoring polygons (ANCHOR) or an anchoring raster "
                "(ANCHOR_RASTER), not both."
            )
        return ""

    @classmethod
    def read(cls, alg, parameters, context):
        """The anchor, checked before any work: given once, with a numeric field."""
        from .features import numeric_field

        message = cls.two_anchors_message(parameters)
        if message:
            raise QgsProcessingException(message)
        polygons = alg.parameterAsSource(parameters, cls.ANCHOR, context)
        name = ""
        if polygons is not None:
            name = alg.parameterAsString(parameters, cls.ANCHOR_FIELD, context)
            if not name:
                raise QgsProcessingException(tr("Choose the anchoring field (ANCHOR_FIELD)."))
            numeric_field(polygons, name, tr("Anchoring field (ANCHOR_FIELD)"))
        stat = alg.parameterAsEnum(parameters, cls.ANCHOR_STATISTIC, context)
        raster = alg.parameterAsRasterLayer(parameters, cls.ANCHOR_RASTER, context)
        band = alg.parameterAsInt(parameters, cls.ANCHOR_BAND, context) or 1
        label = read_name(alg, parameters, context, cls.ANCHOR_NAME)
        if polygons is None and raster is None:
            # No anchor given: the dock's default, so ρ anchor and B are never silently empty;
            # named as the dock names it (`Countries.infant_survival`).
            polygons, name = cls.default_polygons(), DEFAULT_ANCHOR_FIELD
            label = label or layer_field(layer_label(polygons), name)
        elif not label and polygons is not None:
            label = layer_field(source_label(alg, parameters, cls.ANCHOR, context), name)
        elif not label and raster is not None:
            label = tr("{raster}, band {band}").format(raster=layer_label(raster), band=band)
        return AnchorSource(
            polygons=polygons,
            field_name=name,
            raster=raster,
            band=band,
            window_km=alg.parameterAsDouble(parameters, cls.ANCHOR_WINDOW_KM, context),
            statistic=STATISTICS.key(stat),
            negate=alg.parameterAsBool(parameters, cls.ANCHOR_NEGATE, context),
            label=label,
        )


# ------------------------------------------------------------------ bootstrap


@dataclass
class Bootstrap:
    """How the 95% intervals are made: points or clusters, resamples, seed."""

    kind: str = "auto"  # a definitions.BOOTSTRAPS key
    n_boot: int = 1000
    seed: int = 0


class BootstrapParameters:
    """BOOTSTRAP (points or clusters), N_BOOT, SEED; each may be left out of an algorithm."""

    BOOTSTRAP = "BOOTSTRAP"
    N_BOOT = "N_BOOT"
    SEED = "SEED"

    @classmethod
    def add(cls, alg, kind=True, resamples=True, seed=True):
        if kind:
            alg.addParameter(
                QgsProcessingParameterEnum(
                    cls.BOOTSTRAP, tr("Bootstrap of the 95% intervals"), BOOTSTRAPS.labels(),
                    defaultValue=BOOTSTRAPS.default_index,
                )
            )  # fmt: skip
        if resamples:
            alg.addParameter(
                QgsProcessingParameterNumber(
                    cls.N_BOOT, tr("Bootstrap resamples"), defaultValue=1000, minValue=0
                )
            )
        if seed:
            alg.addParameter(_seed_parameter(cls.SEED))

    @classmethod
    def read(cls, alg, parameters, context):
        has = alg.parameterDefinition
        kind = "auto"  # without the parameter: clusters where the layer has truth units
        if has(cls.BOOTSTRAP) is not None:
            kind = BOOTSTRAPS.key(alg.parameterAsEnum(parameters, cls.BOOTSTRAP, context))
        n_boot = seed = 0
        if has(cls.N_BOOT) is not None:
            n_boot = alg.parameterAsInt(parameters, cls.N_BOOT, context)
        if has(cls.SEED) is not None:
            seed = alg.parameterAsInt(parameters, cls.SEED, context)
        return Bootstrap(kind=kind, n_boot=n_boot, seed=seed)


@dataclass
class HerbModel:
    """What scores HERB's sentences: a definitions.HERB_SCORERS key, for the embedded scorer
    its method (HERB_METHODS key), bundled model (HERB_MODELS key) or GGUF file, and the
    connection of a server or masked LM."""

    kind: str = "embedded"
    method: str = "whole"
    model: str = HERB_MODELS.default
    model_file: str = ""
    connection: Connection = field(default_factory=Connection)


class HerbModelParameters:
    """SCORER, METHOD, EMBEDDED_MODEL, MODEL_FILE, URL, MODEL, AUTH_CONFIG, CONCURRENCY."""

    SCORER = "SCORER"
    METHOD = "METHOD"
    EMBEDDED_MODEL = "EMBEDDED_MODEL"
    MODEL_FILE = "MODEL_FILE"
    URL = "URL"
    MODEL = "MODEL"
    AUTH_CONFIG = "AUTH_CONFIG"
    CONCURRENCY = "CONCURRENCY"

    @classmethod
    def add(cls, alg):
        alg.addParameter(
            QgsProcessingParameterEnum(
                cls.SCORER, tr("Model"), HERB_SCORERS.labels(),
                defaultValue=HERB_SCORERS.default_index,
            )
        )  # fmt: skip
        alg.addParameter(
            QgsProcessingParameterEnum(
                cls.METHOD, tr("Embedded model: how sentences are scored"),
                HERB_METHODS.labels(), defaultValue=HERB_METHODS.default_index,
            )
        )  # fmt: skip
        alg.addParameter(
            QgsProcessingParameterEnum(
                cls.EMBEDDED_MODEL, tr("Embedded model"), HERB_MODELS.labels(),
                defaultValue=HERB_MODELS.default_index,
            )
        )  # fmt: skip
        alg.addParameter(
            QgsProcessingParameterFile(
                cls.MODEL_FILE, tr("Embedded model: a GGUF model file instead (empty: the "
                                   "bundled model above)"),
                optional=True, fileFilter=tr("GGUF models (*.gguf)"),
            )
        )  # fmt: skip
        alg.addParameter(QgsProcessingParameterString(cls.URL, tr("Server URL"), "", optional=True))
        alg.addParameter(
            QgsProcessingParameterString(
                cls.MODEL, tr("Model name (echo endpoint) or transformers folder"), "",
                optional=True,
            )
        )  # fmt: skip
        alg.addParameter(
            QgsProcessingParameterAuthConfig(
                cls.AUTH_CONFIG, tr("API key (QGIS authentication configuration)"), optional=True
            )
        )
        alg.addParameter(
            QgsProcessingParameterNumber(
                cls.CONCURRENCY, tr("Concurrent requests"), defaultValue=2, minValue=1,
                maxValue=64,
            )
        )  # fmt: skip

    @classmethod
    def read(cls, alg, parameters, context):
        from .endpoints import api_key_from_auth

        kind = HERB_SCORERS.key(alg.parameterAsEnum(parameters, cls.SCORER, context))
        model_file = alg.parameterAsFile(parameters, cls.MODEL_FILE, context).strip()
        if model_file:
            check_gguf(model_file, kind)
        return HerbModel(
            kind=kind,
            method=HERB_METHODS.key(alg.parameterAsEnum(parameters, cls.METHOD, context)),
            model=HERB_MODELS.key(alg.parameterAsEnum(parameters, cls.EMBEDDED_MODEL, context)),
            model_file=model_file,
            connection=Connection(
                provider=kind,
                base_url=read_url(alg, parameters, cls.URL, context),
                model=alg.parameterAsString(parameters, cls.MODEL, context).strip(),
                api_key=api_key_from_auth(
                    alg.parameterAsString(parameters, cls.AUTH_CONFIG, context)
                ),
                concurrency=alg.parameterAsInt(parameters, cls.CONCURRENCY, context),
            ),
        )


def check_gguf(path, kind):
    """MODEL_FILE before anything starts: a GGUF file (its first bytes say so), for the embedded
    scorer only; otherwise an error naming the parameter."""
    name = tr("Embedded model file (MODEL_FILE)")
    if kind != "embedded":
        raise QgsProcessingException(
            tr("{name}: a model file is scored by the embedded scorer only (SCORER).").format(
                name=name)
        )  # fmt: skip
    try:
        with open(path, "rb") as f:
            magic = f.read(4)
    except OSError as err:
        raise QgsProcessingException(
            tr("{name}: cannot read {path} ({err}).").format(name=name, path=path, err=err.strerror)
        ) from err
    if magic != b"GGUF":
        raise QgsProcessingException(
            tr("{name}: {path} is not a GGUF model file.").format(name=name, path=path)
        )


class HerbReferenceParameters:
    """REFERENCE_CODE (the released scripts' template, descriptor words with their spaces,
    padding rule and aggregation, together) and each part on its own: TEMPLATE (empty: as the
    switch says), RELEASED_WORDS, REFERENCE_PADDING, REFERENCE_AGGREGATION (definitions.
    REFERENCE_PARTS)."""

    REFERENCE_CODE = "REFERENCE_CODE"
    TEMPLATE = "TEMPLATE"
    RELEASED_WORDS = "RELEASED_WORDS"
    REFERENCE_PADDING = "REFERENCE_PADDING"
    REFERENCE_AGGREGATION = "REFERENCE_AGGREGATION"
    PARTS = {
        RELEASED_WORDS: QT_TRANSLATE_NOOP(
            "@default", "Descriptor words (the released scripts' keep leading spaces in ten)"),
        REFERENCE_PADDING: QT_TRANSLATE_NOOP(
            "@default", "Masked-LM padding rule (the released scripts' average padded "
                        "positions)"),
        REFERENCE_AGGREGATION: QT_TRANSLATE_NOOP(
            "@default", "Aggregation (the released scripts' number-changing quirks)"),
    }  # fmt: skip

    @classmethod
    def add(cls, alg):
        alg.addParameter(
            QgsProcessingParameterBoolean(
                cls.REFERENCE_CODE,
                tr("Reproduce the released code (its template, descriptor words, padding and "
                   "aggregation)"), False,
            )
        )  # fmt: skip
        alg.addParameter(
            QgsProcessingParameterString(
                cls.TEMPLATE,
                tr("Sentence template (empty: the paper's, or the released scripts' with the "
                   "switch above)"), "", optional=True,
            )
        )  # fmt: skip
        for key, label in cls.PARTS.items():
            alg.addParameter(
                QgsProcessingParameterEnum(
                    key, tr(label), REFERENCE_PARTS.labels(),
                    defaultValue=REFERENCE_PARTS.default_index,
                )
            )  # fmt: skip

    @classmethod
    def read(cls, alg, parameters, context):
        """core/herb/reference_code.py ReferenceOptions of the run."""
        from ..core.herb.reference_code import reference_options

        def part(key):
            choice = REFERENCE_PARTS.key(alg.parameterAsEnum(parameters, key, context))
            return None if choice == "switch" else choice == "released"

        return reference_options(
            alg.parameterAsBool(parameters, cls.REFERENCE_CODE, context),
            template=alg.parameterAsString(parameters, cls.TEMPLATE, context) or None,
            released_words=part(cls.RELEASED_WORDS),
            padding=part(cls.REFERENCE_PADDING),
            aggregation=part(cls.REFERENCE_AGGREGATION),
        )


# ------------------------------------------------------------------ GeoBS scores


@dataclass
class GeoBSInput:
    """What the GeoBS scores are computed on: a definitions.GEOBS_ERRORS key, the field and
    class edges of the "field" kind."""

    error: str = "rank_error"
    field_name: str = ""
    edges: tuple = ()


class GeoBSParameters:
    """ERROR, ERROR_FIELD, EDGES (the error in classes); RADIUS_KM, SCALE_DEG, LAG_KM,
    SECTORS, MIN_POINTS, K, MAX_CENTRES, SEED (core.geobs.GeoBSSettings)."""

    ERROR = "ERROR"
    ERROR_FIELD = "ERROR_FIELD"
    EDGES = "EDGES"
    RADIUS_KM = "RADIUS_KM"
    SCALE_DEG = "SCALE_DEG"
    LAG_KM = "LAG_KM"
    SECTORS = "SECTORS"
    MIN_POINTS = "MIN_POINTS"
    K = "K"
    MAX_CENTRES = "MAX_CENTRES"
    SEED = "SEED"

    @classmethod
    def add(cls, alg, input_key=INPUT):
        """`input_key`: the layer parameter whose fields ERROR_FIELD lists (None: several
        layers, the field is named)."""
        from ..core.stats.geobs import GeoBSSettings

        d = GeoBSSettings()
        alg.addParameter(
            QgsProcessingParameterEnum(
                cls.ERROR, tr("Error scored"), GEOBS_ERRORS.labels(),
                defaultValue=GEOBS_ERRORS.default_index,
            )
        )  # fmt: skip
        label = tr("Error field (for a field's classes)")
        if input_key is None:
            alg.addParameter(QgsProcessingParameterString(cls.ERROR_FIELD, label, optional=True))
        else:
            alg.addParameter(
                QgsProcessingParameterField(
                    cls.ERROR_FIELD, label, None, input_key,
                    QgsProcessingParameterField.DataType.Numeric, optional=True,
                )
            )  # fmt: skip
        alg.addParameter(
            QgsProcessingParameterString(
                cls.EDGES, tr("Class edges of the error field (an odd number, separated by ,)"),
                "0.5", optional=True,
            )
        )  # fmt: skip
        numbers = (
            (cls.RADIUS_KM, tr("Neighbourhood radius (km)"), d.radius_km, 1.0, True),
            (cls.SCALE_DEG, tr("Scale grid cell (degrees)"), d.scale_deg, 0.01, True),
            (cls.LAG_KM, tr("Distance lag (km)"), d.lag_km, 1.0, True),
            (cls.SECTORS, tr("Direction sectors"), d.n_sectors, 2, False),
            (cls.MIN_POINTS, tr("Points a part needs (SRI)"), d.min_points, 2, False),
            (cls.K, tr("Nearest neighbours of the SSI graph"), d.k, 1, False),
            (cls.MAX_CENTRES, tr("SSI centres at most (a seeded sample beyond)"),
             d.max_centres, 1, False),
        )  # fmt: skip
        for key, label, default, minimum, real in numbers:
            kind = QgsProcessingParameterNumber.Type.Double if real else (
                QgsProcessingParameterNumber.Type.Integer)  # fmt: skip
            alg.addParameter(
                QgsProcessingParameterNumber(key, label, kind, default, minValue=minimum)
            )
        alg.addParameter(_seed_parameter(cls.SEED))

    @classmethod
    def read(cls, alg, parameters, context):
        """(GeoBSInput, core.geobs.GeoBSSettings); a field's edges are checked here."""
        from ..core.stats.geobs import GeoBSSettings

        error = GEOBS_ERRORS.key(alg.parameterAsEnum(parameters, cls.ERROR, context))
        name = alg.parameterAsString(parameters, cls.ERROR_FIELD, context).strip()
        edges = ()
        if error == "field":
            if not name:
                raise QgsProcessingException(
                    tr("ERROR_FIELD: choose the numeric field holding the error.")
                )
            text = alg.parameterAsString(parameters, cls.EDGES, context)
            try:
                edges = tuple(float(t) for t in text.replace(";", ",").split(",") if t.strip())
            except ValueError as err:
                raise QgsProcessingException(
                    tr("EDGES: '{text}' is not a list of numbers.").format(text=text)
                ) from err
            if len(edges) % 2 == 0 or any(b <= a for a, b in zip(edges, edges[1:])):
                raise QgsProcessingException(
                    tr("EDGES: give an odd number of increasing edges (an even number of "
                       "classes keeps the class code 0 free for the SSI's background).")
                )  # fmt: skip
        settings = GeoBSSettings(
            radius_km=alg.parameterAsDouble(parameters, cls.RADIUS_KM, context),
            scale_deg=alg.parameterAsDouble(parameters, cls.SCALE_DEG, context),
            lag_km=alg.parameterAsDouble(parameters, cls.LAG_KM, context),
            n_sectors=alg.parameterAsInt(parameters, cls.SECTORS, context),
            min_points=alg.parameterAsInt(parameters, cls.MIN_POINTS, context),
            k=alg.parameterAsInt(parameters, cls.K, context),
            max_centres=alg.parameterAsInt(parameters, cls.MAX_CENTRES, context),
            seed=alg.parameterAsInt(parameters, cls.SEED, context),
        )
        return GeoBSInput(error, name, edges), settings
