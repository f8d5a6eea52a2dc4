"""Prompt templates: the paper's GeoLLM prompt, its Appendix A.3 ablations, and user templates."""

import json
import string
from dataclasses import dataclass, field

from ..messages import Message
from ..wording import listing

PLACEHOLDERS: frozenset[str] = frozenset(
    {"lat", "lon", "topic", "address", "nearby", "short_address"}
)
REQUIRED: frozenset[str] = frozenset({"topic"})

# Sample values used to try a template's format specs when it is created.
_SAMPLE = {
    "lat": 12.3456789,
    "lon": -98.7654321,
    "topic": "Topic",
    "address": "Locality, Admin2, Admin1, Country",
    "nearby": "1.0 km North: Place\n",
    "short_address": "Admin1, Country",
}


class TemplateError(ValueError):
    """A prompt template that cannot be rendered (raised when the template is created)."""


def _fields(text: str, where: str) -> set[str]:
    """Named fields used by a str.format string, rejecting positional and unknown ones."""
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError as e:  # e.g. a single "{" or "}"
        raise TemplateError(Message("prompts.malformed", where=where, reason=e)) from None
    found = set()
    for _literal, field_name, spec, _conv in parsed:
        if field_name is None:
            continue
        if field_name == "" or field_name.isdigit():
            raise TemplateError(
                Message("prompts.positional", field=field_name, where=where,
                        known=listing(sorted(PLACEHOLDERS)))
            )  # fmt: skip
        if field_name not in PLACEHOLDERS:
            raise TemplateError(
                Message("prompts.unknown", field=field_name, where=where,
                        known=listing(sorted(PLACEHOLDERS)))
            )  # fmt: skip
        if spec and "{" in spec:
            raise TemplateError(Message("prompts.nested", field=field_name))
        found.add(field_name)
    return found


@dataclass(frozen=True)
class PromptTemplate:
    """A named prompt: literal-ish prefix and body, both str.format strings with named fields."""

    name: str
    prefix: str
    body: str
    _used: frozenset = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name.strip():
            raise TemplateError(Message("prompts.no_name"))
        for part in ("prefix", "body"):
            if not isinstance(getattr(self, part), str):
                raise TemplateError(Message("prompts.not_text", name=self.name, part=part))
        used = _fields(self.prefix, Message("prompts.prefix_of", name=self.name)) | _fields(
            self.body, Message("prompts.body_of", name=self.name)
        )
        missing = REQUIRED - used
        if missing:
            raise TemplateError(
                Message("prompts.missing", name=self.name,
                        fields=", ".join("{" + m + "}" for m in sorted(missing)))
            )  # fmt: skip
        object.__setattr__(self, "_used", frozenset(used))
        try:  # catches bad format specs such as {lat:.5q} or {topic:d} now, not at request time
            self.render(**_SAMPLE)
        except (ValueError, TypeError) as e:
            raise TemplateError(Message("prompts.render", name=self.name, reason=e)) from None

    @property
    def placeholders(self) -> frozenset[str]:
        """The placeholder names the template uses."""
        return self._used

    @property
    def uses_gazetteer(self) -> bool:
        """Whether prompts name places from the gazetteer (GeoNames: its CC BY licence asks
        for attribution wherever they go)."""
        return bool(self._used & {"address", "short_address", "nearby"})

    @property
    def text(self) -> str:
        """Prefix and body as one format string."""
        return self.prefix + self.body

    def render(
        self,
        *,
        lat: float,
        lon: float,
        topic: str,
        address: str = "",
        nearby: str = "",
        short_address: str = "",
    ) -> str:
        """The prompt for one point: the one user message sent to the model."""
        values = dict(
            lat=float(lat),
            lon=float(lon),
            topic=topic,
            address=address,
            nearby=nearby,
            short_address=short_address,
        )
        return self.text.format(**values)

    def to_dict(self) -> dict:
        """Plain dict for saving a user preset (JSON-friendly)."""
        return {"name": self.name, "prefix": self.prefix, "body": self.body}

    def to_json(self) -> str:
        """JSON text of `to_dict()`."""
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=2)

    @classmethod
    def from_dict(cls, data: dict) -> "PromptTemplate":
        """Template from a saved preset dict; unknown keys or missing ones raise TemplateError."""
        if not isinstance(data, dict):
            raise TemplateError(Message("prompts.not_object", kind=type(data).__name__))
        keys = set(data)
        missing = {"name", "body"} - keys
        if missing:
            raise TemplateError(Message("prompts.saved_lacks", keys=listing(sorted(missing))))
        unknown = keys - {"name", "prefix", "body"}
        if unknown:
            raise TemplateError(Message("prompts.saved_unknown", keys=listing(sorted(unknown))))
        return make_template(data["name"], data.get("prefix", ""), data["body"])

    @classmethod
    def from_json(cls, text: str) -> "PromptTemplate":
        """Template from JSON text written by `to_json()`."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise TemplateError(Message("prompts.saved_json", reason=e)) from None
        return cls.from_dict(data)


def make_template(name: str, prefix: str, body: str) -> PromptTemplate:
    """A validated user template (raises TemplateError naming the offending placeholder)."""
    return PromptTemplate(name=name, prefix=prefix, body=body)


# The paper's prompt (DESIGN.md): three sentences, one per line, then two blank lines.
GEOLLM_PREFIX = (
    "You will be given data about a specific location randomly sampled from all human-populated "
    "locations on Earth.\n"
    "You give your rating keeping in mind that it is relative to all other human-populated "
    "locations on Earth (from all continents, countries, etc.).\n"
    "You provide ONLY your answer in the exact format \"My answer is X.X.\" where 'X.X' represents "
    "your rating for the given topic.\n"
    "\n"
    "\n"
)

# Body sections, separated by one blank line. `nearby` lines each end with "\n", so the closing
# quote of Nearby Places sits on its own line.
_COORDS = "Coordinates: ({lat:.5f}, {lon:.5f})"
_ADDRESS = 'Address: "{address}"'
_SHORT_ADDRESS = 'Address: "{short_address}"'
_NEARBY = 'Nearby Places:\n"\n{nearby}"'
_QUESTION = "{topic} (On a Scale from 0.0 to 9.9):"


def _body(*sections: str) -> str:
    return "\n\n".join(sections)


PRESETS: dict[str, PromptTemplate] = {
    t.name: t
    for t in (
        make_template("geollm", GEOLLM_PREFIX, _body(_COORDS, _ADDRESS, _NEARBY, _QUESTION)),
        # Appendix A.3 ablations
        make_template("no_coordinates", GEOLLM_PREFIX, _body(_ADDRESS, _NEARBY, _QUESTION)),
        make_template("no_nearby", GEOLLM_PREFIX, _body(_COORDS, _ADDRESS, _QUESTION)),
        make_template("no_address", GEOLLM_PREFIX, _body(_COORDS, _NEARBY, _QUESTION)),
        make_template(
            "short_address", GEOLLM_PREFIX, _body(_COORDS, _SHORT_ADDRESS, _NEARBY, _QUESTION)
        ),
    )
}
DEFAULT_PRESET = "geollm"

PRESET_LABELS: dict[str, str] = {
    "geollm": "GeoLLM (paper)",
    "no_coordinates": "Ablation: without coordinates",
    "no_nearby": "Ablation: without nearby places",
    "no_address": "Ablation: without address",
    "short_address": "Ablation: only admin-1 and country of the address",
}


def get_preset(name: str) -> PromptTemplate:
    """A named preset; a clear KeyError lists the available ones."""
    try:
        return PRESETS[name]
    except KeyError:
        raise KeyError(
            Message("prompts.no_preset", name=name, known=listing(sorted(PRESETS)))
        ) from None


def short_address(address: str) -> str:
    """The last two comma-separated parts of an address (admin-1 and country, Appendix A.3)."""
    parts = [p.strip() for p in address.split(",") if p.strip()]
    return ", ".join(parts[-2:])


def _per_point(gazetteer, batched: str, single: str, lon, lat) -> list[str]:
    """Call a gazetteer's batched method if it has one, else its per-point method."""
    fn = getattr(gazetteer, batched, None)
    if fn is not None:
        return list(fn(lon, lat))
    fn = getattr(gazetteer, single)
    return [fn(float(x), float(y)) for x, y in zip(lon, lat)]


def describe_points(gazetteer, lon, lat, address: bool = True, nearby: bool = True):
    """(addresses, nearby texts) for points; lists of "" for what is not asked for."""
    n = len(lon)
    if address and nearby and hasattr(gazetteer, "describe"):
        addresses, texts = gazetteer.describe(lon, lat)
        return list(addresses), list(texts)
    addresses = _per_point(gazetteer, "addresses", "address", lon, lat) if address else [""] * n
    texts = _per_point(gazetteer, "nearby_texts", "nearby_text", lon, lat) if nearby else [""] * n
    return addresses, texts


def point_descriptions(lon, lat, template: PromptTemplate, gazetteer):
    """(lon, lat, addresses, nearby texts) of points (lon/lat arrays), asking the gazetteer only
    for what `template` uses ("" where it uses neither)."""
    import numpy as np

    lon = np.atleast_1d(np.asarray(lon, dtype=float))
    lat = np.atleast_1d(np.asarray(lat, dtype=float))
    if lon.shape != lat.shape or lon.ndim != 1:
        raise ValueError(
            f"lon and lat must be 1-d of equal length, got {lon.shape} and {lat.shape}"
        )
    used = template.placeholders
    need_address = bool(used & {"address", "short_address"})
    need_nearby = "nearby" in used
    if gazetteer is None and (need_address or need_nearby):
        raise ValueError(Message("prompts.gazetteer", name=template.name))
    if not (need_address or need_nearby):
        return lon, lat, [""] * len(lon), [""] * len(lon)
    addresses, texts = describe_points(gazetteer, lon, lat, need_address, need_nearby)
    return lon, lat, addresses, texts


def build_prompts(
    lon, lat, topic: str, gazetteer, template: PromptTemplate = PRESETS[DEFAULT_PRESET]
) -> list[str]:
    """Prompts for points (lon/lat arrays) on one topic, asking the gazetteer only what's used."""
    lon, lat, addresses, texts = point_descriptions(lon, lat, template, gazetteer)
    fmt = template.text.format
    short = "short_address" in template.placeholders
    return [
        fmt(
            lat=y,
            lon=x,
            topic=topic,
            address=a,
            nearby=t,
            short_address=short_address(a) if short else "",
        )
        for x, y, a, t in zip(lon.tolist(), lat.tolist(), addresses, texts)
    ]
