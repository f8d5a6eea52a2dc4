"""Where GeoBias keeps its settings: endpoints in QgsSettings (keys in the QGIS authentication
database, only their config id in settings), survey choices per project under "GeoBias"."""

from dataclasses import dataclass, field, fields

from qgis.core import QgsApplication, QgsAuthMethodConfig, QgsProject, QgsSettings
from qgis.PyQt.QtCore import QObject, pyqtSignal

from ..core.engine.chat import PROVIDERS
from ..core.runtime import models
from ..i18n_util import tr
from ..processing.definitions import SAMPLES_DEFAULT

SCOPE = "GeoBias"  # project entries scope
SETTINGS_GROUP = "geobias/endpoints"


def _short_name(model):
    """ "Gemma 3 270M" (SmolLM2 keeps the name projects saved when it was the only one)."""
    return "SmolLM2" if model.key == "smollm2-135m" else model.label.split(" (")[0]


def embedded_name(model):
    """The endpoint name of an embedded model, "Embedded Gemma 3 270M (local)": an identity
    saved in settings and projects, so always English (display_name translates it)."""
    return f"Embedded {_short_name(model)} (local)"


def display_name(endpoint):
    """An endpoint's name as the interface shows it: a built-in model's in the interface
    language, the user's own endpoints as named."""
    if endpoint.is_embedded:
        m = models.find_model(endpoint.model)
        if m is not None and endpoint.name == embedded_name(m):
            return tr("Embedded {model} (local)").format(model=_short_name(m))
    return endpoint.name


def default_survey_name():
    """A new survey's name (its output folder and layer group), in the interface language."""
    return tr("survey")


EMBEDDED_NAME = embedded_name(models.get_model())  # the default model's endpoint
AUTH_METHOD = "Basic"  # the key is stored as the password of a Basic auth config


@dataclass
class EndpointConfig:
    """One configured model endpoint; `authcfg` points at the key in the auth database."""

    name: str
    provider: str = "custom"
    base_url: str = ""
    model: str = ""
    authcfg: str = ""
    price_in: float = 0.0  # per 1M prompt tokens; 0 = unpriced
    price_out: float = 0.0  # per 1M completion tokens
    concurrency: int = 4
    rpm: float = 0.0  # requests per minute; 0 = unlimited
    reasoning: bool = False  # a reasoning model GeoBias does not recognise by its name
    # The answer constraint: a processing.definitions.CONSTRAINTS key; "auto" constrains a
    # model known to need it (core.llm.resolve_constraint).
    constraint: str = "auto"

    tpm: float = 0.0  # tokens per minute; 0 = unlimited
    # Minutes a run waits out throttling (429, 503) without an answer before it stops.
    patience: float = 30.0

    @property
    def is_embedded(self):
        """A built-in endpoint of a bundled model (read-only in Options, never saved)."""
        return self.provider == "embedded"

    def connection(self, with_key=False, base_url=None):
        """The Connection a run of this endpoint reads (what geobias:ratelocations gets from
        the dock's parameters); the key is resolved from the auth database only when asked.
        `base_url` replaces the configured one (the shared local model's stable URL); a built-in
        endpoint has no URL of its own, so it is the shared local model."""
        from ..processing.definitions import CONSTRAINTS
        from ..processing.definitions import PROVIDERS as CHOICES
        from ..processing.parameters import Connection

        known = self.constraint in CONSTRAINTS.keys
        return Connection(
            provider=self.provider if self.provider in CHOICES.keys else "custom",
            base_url=base_url or ("" if self.is_embedded else self.base_url),
            model=self.model,
            api_key=api_key(self.authcfg) if with_key else None,
            concurrency=self.concurrency,
            reasoning=bool(self.reasoning),
            constraint=self.constraint if known else CONSTRAINTS.default,
            rpm=self.rpm,
            tpm=self.tpm,
            patience=self.patience,
        )

    @property
    def shared_model(self):
        """Whether a run of this endpoint asks the shared local model (Connection's rule)."""
        return self.connection().shared_model

    def endpoint(self, with_key=False, base_url=None):
        """The core Endpoint of every run, Test connection, the diagnostics and the estimates:
        the one factory (processing.endpoints.make_endpoint) on connection(), with the prices
        the estimate counts (they are not part of a request)."""
        from ..processing.endpoints import make_endpoint

        endpoint = make_endpoint(self.connection(with_key, base_url))
        endpoint.price_in = self.price_in or None
        endpoint.price_out = self.price_out or None
        return endpoint


def embedded_endpoints():
    """One endpoint per bundled model (core/runtime/models.py), the default first: the embedded
    llama.cpp server, no key, no cost."""
    url = PROVIDERS["embedded"]["base_url"]
    ordered = sorted(models.MODELS.values(), key=lambda m: m.key != models.DEFAULT_MODEL)
    return [
        EndpointConfig(embedded_name(m), "embedded", url, m.name, concurrency=2) for m in ordered
    ]


def load_endpoints(settings=None):
    """Configured endpoints, the embedded ones first (always present)."""
    s = settings or QgsSettings()
    out = embedded_endpoints()
    builtin = {e.name for e in out}
    for name in s.value(f"{SETTINGS_GROUP}/names", [], type=list) or []:
        if not name or name in builtin:
            continue
        p = f"{SETTINGS_GROUP}/items/{name}"
        out.append(
            EndpointConfig(
                name=name,
                provider=s.value(f"{p}/provider", "custom", type=str),
                base_url=s.value(f"{p}/base_url", "", type=str),
                model=s.value(f"{p}/model", "", type=str),
                authcfg=s.value(f"{p}/authcfg", "", type=str),
                price_in=s.value(f"{p}/price_in", 0.0, type=float),
                price_out=s.value(f"{p}/price_out", 0.0, type=float),
                concurrency=s.value(f"{p}/concurrency", 4, type=int),
                rpm=s.value(f"{p}/rpm", 0.0, type=float),
                tpm=s.value(f"{p}/tpm", 0.0, type=float),
                patience=s.value(f"{p}/patience", 30.0, type=float),
                reasoning=s.value(f"{p}/reasoning", False, type=bool),
                constraint=s.value(f"{p}/constraint", "auto", type=str) or "auto",
            )
        )
    return out


def save_endpoints(endpoints, settings=None):
    """Store endpoints (never a key: only the auth config id)."""
    s = settings or QgsSettings()
    s.remove(SETTINGS_GROUP)
    names = []
    for e in endpoints:
        if e.is_embedded:
            continue
        names.append(e.name)
        p = f"{SETTINGS_GROUP}/items/{e.name}"
        for f in fields(e):
            if f.name != "name":
                s.setValue(f"{p}/{f.name}", getattr(e, f.name))
    s.setValue(f"{SETTINGS_GROUP}/names", names)
    _NOTIFIER.changed.emit()


class _EndpointsNotifier(QObject):
    """Tells open docks that the endpoint list changed (saved from the Options page)."""

    changed = pyqtSignal()


_NOTIFIER = _EndpointsNotifier()


def endpoints_changed():
    """The signal emitted after save_endpoints()."""
    return _NOTIFIER.changed


def find_endpoint(name, endpoints=None):
    for e in endpoints if endpoints is not None else load_endpoints():
        if e.name == name:
            return e
    return None


def api_key(authcfg):
    """The API key held in the QGIS authentication database under `authcfg` (None if absent)."""
    if not authcfg:
        return None
    cfg = QgsAuthMethodConfig()
    ok = QgsApplication.authManager().loadAuthenticationConfig(authcfg, cfg, True)
    if isinstance(ok, tuple):
        ok, cfg = ok
    if not ok:
        return None
    return cfg.config("password") or cfg.config("token") or None


def store_api_key(name, key, authcfg=""):
    """Put a key in the auth database (new or existing config); returns the config id or ""."""
    manager = QgsApplication.authManager()
    cfg = QgsAuthMethodConfig(AUTH_METHOD)
    if authcfg:
        existing = QgsAuthMethodConfig()
        ok = manager.loadAuthenticationConfig(authcfg, existing, True)
        if isinstance(ok, tuple):
            ok, existing = ok
        if ok and existing.method() == AUTH_METHOD:
            cfg = existing
    cfg.setName(f"GeoBias: {name}")
    cfg.setConfig("username", "")
    cfg.setConfig("password", key)
    if cfg.id():
        ok = manager.updateAuthenticationConfig(cfg)
    else:
        ok = manager.storeAuthenticationConfig(cfg)
        if isinstance(ok, tuple):
            ok, cfg = ok
    return cfg.id() if ok else ""


@dataclass
class SurveySettings:
    """The dock's choices for one survey; saved with the project."""

    name: str = field(default_factory=default_survey_name)
    area_mode: str = "world"  # draw | layer | extent | world
    area_wkt: str = ""  # drawn or extent polygon, EPSG:4326
    area_layer: str = ""  # layer id
    selected_only: bool = False
    n_points: int = 100
    # A processing.definitions.SAMPLE_METHODS key; its default, as in Processing: the paper's
    # population-weighted sampling with farthest points.
    method: str = "population"
    weight_layer: str = ""
    seed: int = 0
    topics: list = field(default_factory=lambda: ["Infant Mortality Rate"])
    # Prompt languages (codes of core/survey/languages.py's files), asked one after the other.
    languages: list = field(default_factory=lambda: ["en"])
    endpoints: list = field(default_factory=lambda: [EMBEDDED_NAME])
    preset: str = "geollm"
    # auto: the expected value where the endpoint gives log-probabilities, else greedy (as in
    # Processing); greedy | expected force one kind; sampled: `samples` answers per prompt at
    # temperature 1 (Processing's SCORE sampled with SAMPLES).
    score: str = "auto"
    samples: int = SAMPLES_DEFAULT
    # Ground truth per topic: "topic<TAB>layer id<TAB>field" entries; a topic without an entry
    # gets no rank errors. `truth_confirmed`: "topic<TAB>field" pairs whose field name does not
    # name the topic but which the user confirmed measures it.
    truth: list = field(default_factory=list)
    truth_confirmed: list = field(default_factory=list)
    anchor_layer: str = ""
    units_layer: str = ""  # the Overlay tab's units layer (id) as the user chose it last
    anchor_field: str = ""
    output_dir: str = ""

    def write(self, project=None):
        """Write every field under the project's "GeoBias" scope."""
        project = project or QgsProject.instance()
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, list):
                value = [str(v) for v in value]
            project.writeEntry(SCOPE, f.name, value)

    @classmethod
    def read(cls, project=None):
        """Settings stored in a project (defaults for anything missing)."""
        project = project or QgsProject.instance()
        out = cls()
        for f in fields(cls):
            default = getattr(out, f.name)
            if isinstance(default, bool):
                value, ok = project.readBoolEntry(SCOPE, f.name, default)
            elif isinstance(default, int):
                value, ok = project.readNumEntry(SCOPE, f.name, default)
            elif isinstance(default, list):
                value, ok = project.readListEntry(SCOPE, f.name, default)
                value = list(value)
            else:
                value, ok = project.readEntry(SCOPE, f.name, default)
            if ok:
                setattr(out, f.name, value)
        # Projects saved before the dock used Processing's keys called population "gazetteer".
        out.method = LEGACY_METHODS.get(out.method, out.method)
        if not out.truth:  # a project saved before the per-topic truth: one field, one topic
            layer, ok_layer = project.readEntry(SCOPE, "truth_layer", "")
            name, ok_field = project.readEntry(SCOPE, "truth_field", "")
            topic, _ok = project.readEntry(SCOPE, "truth_topic", "")
            topic = topic or (out.topics[0] if out.topics else "")
            if ok_layer and ok_field and layer and name and topic:
                out.truth = [truth_entry(topic, layer, name)]
        return out


LEGACY_METHODS = {"gazetteer": "population"}


def truth_entry(topic, layer_id, field_name):
    return f"{topic}\t{layer_id}\t{field_name}"


def truth_map(entries):
    """{topic: (layer id, field)} from SurveySettings.truth entries ("", "" for none)."""
    out = {}
    for entry in entries:
        parts = str(entry).split("\t")
        if len(parts) == 3 and parts[0]:  # ("", "") = the user chose no ground truth
            out[parts[0]] = (parts[1], parts[2]) if all(parts) else ("", "")
    return out
