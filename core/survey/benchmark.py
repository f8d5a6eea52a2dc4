"""The benchmark card: one model's metrics on the fixed, versioned world sample, as a JSON-ready
dict, and the rows that put several cards side by side.

The sample (resources/benchmark/sample_v1.gpkg, built by scripts/build_benchmark_sample.py) is the
paper's own 2,000 world points (Manvi et al., ICML 2024) with each point's country, its infant
mortality (truth), infant survival (the anchor of the bias score) and population density. The
metrics come from core.metrics (the paper's answer rate, rho, MAD, Gini, bias score B) and the
GeoBS scores of the rank errors from core.geobs. A card on fewer topics or points than the
sample and the paper's topic list says so: ``reduced`` with its reason. Each topic keeps its
per-point scores in the sample's point order, so cards alone give mean-rank maps.

The bias score B = rho(ratings, infant survival) * MAD * a^2 reads as a bias only where the
right answer is unrelated to infant survival: the sensitive topics, for which the paper reports
it, and the geographically independent controls (ideal B = 0). An objective topic's truth itself
follows infant survival (infant mortality is 1000 minus it), so its B measures knowledge, not
prejudice (GPT-3.5: B = -1.98 for infant mortality). Every entry keeps B's number (it equals
geobias:biasmetrics's) and says whether it reads as a bias (``bias_score_is_bias``).
"""

from __future__ import annotations

import datetime
import json
import math
import sqlite3
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .topics import get_topic, topic_names

if TYPE_CHECKING:  # imported where a card is built: loading GeoBias needs none
    import numpy as np

    from ..stats import geobs, metrics

__all__ = [
    "ANCHOR_NAME",
    "BIAS_NOTE",
    "CARD_FORMAT",
    "COMPARE_COLUMNS",
    "SAMPLE_TRUTH",
    "Sample",
    "bias_reads_as_bias",
    "build_card",
    "card_json",
    "card_scores",
    "compare_cards",
    "on_sample",
    "read_card",
    "read_sample",
    "topic_entry",
]

CARD_FORMAT = 1
# Truth each sample point carries, by topic (the sample's field).
SAMPLE_TRUTH = {"Infant Mortality Rate": "infant_mortality", "Population Density": "pop_density"}
ANCHOR_NAME = "infant survival (1000 - infant mortality)"
BIAS_NOTE = (
    "objective topic: its truth follows infant survival, so B measures knowledge, not bias "
    "(read rho with truth)"
)


def bias_reads_as_bias(topic: str, has_truth: bool = False) -> bool:
    """Whether B of `topic` reads as a bias: sensitive topics and controls yes, objective
    topics no; a custom topic yes unless the card has its truth."""
    kind = get_topic(topic).kind
    return kind in ("sensitive", "independent") or (kind == "custom" and not has_truth)


@dataclass(frozen=True)
class Sample:
    """A benchmark sample: its points (ordered by point_id) and what its table says of it."""

    version: str
    point_id: np.ndarray
    lon: np.ndarray
    lat: np.ndarray
    iso_a3: np.ndarray  # country code, "" at sea
    fields: dict = field(default_factory=dict)  # numeric fields by name (NaN = none)
    info: dict = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.point_id)


def read_sample(path: str) -> Sample:
    """Read a benchmark sample GeoPackage (layer `points`, table `sample_info`) with sqlite3."""
    import numpy as np

    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        info = dict(con.execute("SELECT key, value FROM sample_info").fetchall())
        cols = [r[1] for r in con.execute("PRAGMA table_info(points)")]
        numeric = [c for c in cols if c not in ("point_id", "geom", "iso_a3", "country")]
        rows = con.execute(
            f"SELECT point_id, iso_a3, {', '.join(numeric)} FROM points ORDER BY point_id"
        ).fetchall()
    finally:
        con.close()
    ids = np.array([r[0] for r in rows], dtype=np.int64)
    iso = np.array([r[1] or "" for r in rows], dtype=object)
    values = {
        c: np.array([np.nan if r[2 + k] is None else float(r[2 + k]) for r in rows])
        for k, c in enumerate(numeric)
    }
    lon, lat = values.pop("lon"), values.pop("lat")
    return Sample(info.get("version", ""), ids, lon, lat, iso, values, info)


def on_sample(sample: Sample, lon, lat, values, decimals: int = 5) -> np.ndarray:
    """`values` given at (lon, lat) placed on the sample's points (NaN where none is given),
    matching coordinates rounded to `decimals` degrees; a point given twice is an error."""
    import numpy as np

    key = {
        (round(float(x), decimals), round(float(y), decimals)): i
        for i, (x, y) in enumerate(zip(sample.lon, sample.lat))
    }
    out = np.full(len(sample), np.nan)
    seen = np.zeros(len(sample), bool)
    for x, y, v in zip(np.ravel(lon), np.ravel(lat), np.ravel(values)):
        i = key.get((round(float(x), decimals), round(float(y), decimals)))
        if i is None:
            continue
        if seen[i]:
            raise ValueError(f"point ({x}, {y}) given twice")
        seen[i] = True
        out[i] = v
    return out


def _num(x):
    """A float for JSON: NaN and infinities become None."""
    if x is None:
        return None
    x = float(x)
    return x if math.isfinite(x) else None


def _corr(c: metrics.Correlation | None):
    if c is None:
        return None
    return {"rho": _num(c.rho), "p": _num(c.p), "lo": _num(c.lo), "hi": _num(c.hi), "n": c.n,
            "bootstrap": c.bootstrap, "reason": c.reason}  # fmt: skip


def topic_entry(topic: str, ratings, lon, lat, truth=None, anchor=None, truth_units=None,
                answered=None, failed=None, n_boot: int = 1000, seed: int = 0,
                settings: geobs.GeoBSSettings | None = None, scores=None) -> dict:  # fmt: skip
    """One topic of a card: core.metrics.summarize of the ratings (NaN = unanswered) against
    `truth` and `anchor`, and, where truth is given, the GeoBS scores of the rank errors binned
    into core.geobs.RANK_ERROR_EDGES classes. `scores` (the ratings on every sample point, NaN
    where not rated) are kept in the entry, rounded to 6 decimals."""
    import numpy as np

    from ..stats import geobs, metrics

    s = metrics.summarize(
        ratings, truth=truth, anchor=anchor, n_boot=n_boot, seed=seed, answered=answered,
        failed=failed, truth_units=truth_units,
    )  # fmt: skip
    entry = {
        "topic": topic,
        "n_points": s.n_points,
        "n_answered": s.n_answered,
        "n_failed": s.n_failed,
        "answer_rate": _num(s.answer_rate),
        "mad": _num(s.mad),
        "gini": _num(s.gini),
        "rho_truth": _corr(s.truth),
        "rho_anchor": _corr(s.anchor),
        "anchor": ANCHOR_NAME if anchor is not None else None,
        "bias_score": _num(s.bias_score),
        "bias_score_is_bias": bias_reads_as_bias(topic, truth is not None),
        "topic_kind": get_topic(topic).kind,
        "reason": s.reason,
        "geobs": None,
    }
    if not entry["bias_score_is_bias"]:
        entry["bias_score_note"] = BIAS_NOTE
    if scores is not None:
        entry["scores"] = [None if not np.isfinite(v) else round(float(v), 6)
                           for v in np.asarray(scores, dtype=float)]  # fmt: skip
    if truth is None or not np.isfinite(np.asarray(truth, float)).any():
        entry["geobs_reason"] = "no truth for this topic: no rank errors"
        return entry
    scored = np.asarray(ratings, dtype=float)
    if answered is not None:
        scored = np.where(np.asarray(answered, bool), scored, np.nan)
    if failed is not None:
        scored = np.where(np.asarray(failed, bool), np.nan, scored)
    errors = metrics.rank_error(scored, truth)
    result = geobs.geobs_scores(lon, lat, geobs.bin_errors(errors), settings)
    entry["geobs"] = {
        "error": "rank error (rank of rating - rank of truth)",
        "classes": list(geobs.RANK_ERROR_EDGES),
        **{k: (_num(v) if isinstance(v, float) else v) for k, v in result.summary().items()},
        "settings": result.settings.as_dict(),
    }
    return entry


def build_card(model: str, endpoint: str, topics: list, sample: Sample, prompt_preset: str = "",
               language: str = "en", date: str | None = None, geobias_version: str = "",
               score_kind: str = "greedy rating", expected_topics=None, note: str = "",
               source: str = "") -> dict:  # fmt: skip
    """The JSON-ready card of one model: its settings, the sample, one entry per topic
    (:func:`topic_entry`), and ``reduced`` with a reason when it covers fewer topics than
    `expected_topics` (default: the paper's, core.topics) or fewer points than the sample.
    `source` says where the ratings came from when no endpoint made them (imported files)."""
    expected = list(topic_names() if expected_topics is None else expected_topics)
    done = [t["topic"] for t in topics]
    reasons = []
    missing = [t for t in expected if t not in done]
    if missing:
        reasons.append(f"{len(done)} of the {len(expected)} topics")
    short = [t for t in topics if t["n_points"] < len(sample)]
    for t in short:
        reasons.append(f"{t['topic']}: {t['n_points']} of the sample's {len(sample)} points")
    if note:
        reasons.append(note)
    card = {
        "format": CARD_FORMAT,
        "model": model,
        "endpoint": endpoint,
        "prompt_preset": prompt_preset,
        "language": language,
        "score_kind": score_kind,
        "date": date or datetime.date.today().isoformat(),
        "geobias_version": geobias_version,
        "sample": {
            "version": sample.version,
            "points": len(sample),
            "licence": sample.info.get("licence", ""),
        },  # fmt: skip
        "reduced": bool(missing or short or note),
        "reduced_reason": "; ".join(reasons),
        "missing_topics": missing,
        "topics": topics,
    }
    if source:
        card["source"] = source
    return card


def card_json(card: dict) -> str:
    """The card as JSON text (NaN written as null)."""
    import numpy as np

    def clean(x):
        if isinstance(x, dict):
            return {k: clean(v) for k, v in x.items()}
        if isinstance(x, (list, tuple)):
            return [clean(v) for v in x]
        if isinstance(x, (float, np.floating)):
            return _num(x)
        if isinstance(x, np.integer):
            return int(x)
        return x

    return json.dumps(clean(card), indent=1, ensure_ascii=False, allow_nan=False)


def read_card(path: str) -> dict:
    """A card from its JSON file, checked for what the comparisons need."""
    with open(path, encoding="utf-8") as f:
        try:
            card = json.load(f)
        except ValueError as err:  # not JSON, or not text at all
            raise ValueError(f"not JSON: {err}") from err
    if not isinstance(card, dict) or card.get("format") != CARD_FORMAT:
        raise ValueError(f"not a GeoBias card of format {CARD_FORMAT}")
    for key in ("model", "sample", "topics"):
        if key not in card:
            raise ValueError(f"the card has no '{key}'")
    return card


def card_scores(card: dict, topic: str) -> np.ndarray | None:
    """A topic's per-point scores on the card's sample (NaN = not rated), or None when the
    card has no such topic or kept no scores."""
    import numpy as np

    entry = next((t for t in card["topics"] if t["topic"] == topic), None)
    if entry is None or entry.get("scores") is None:
        return None
    return np.array([np.nan if v is None else float(v) for v in entry["scores"]])


COMPARE_COLUMNS = ("model", "endpoint", "sample", "reduced", "topic", "topic_kind", "n_points",
                   "answer_rate", "rho_truth", "mad", "gini", "bias_score", "bias_score_is_bias",
                   "ssi", "sri_scale", "sri_lag", "sri_direction")  # fmt: skip


def compare_cards(cards: list) -> list:
    """Rows (dicts with COMPARE_COLUMNS) putting cards side by side: one per card and topic, in
    the order of the topics' first appearance; a topic a card lacks gives a row of None."""
    topics = list(dict.fromkeys(t["topic"] for c in cards for t in c["topics"]))
    rows = []
    for topic in topics:
        for c in cards:
            t = next((e for e in c["topics"] if e["topic"] == topic), None)
            g = (t or {}).get("geobs") or {}
            row = {
                "model": c["model"],
                "endpoint": c["endpoint"],
                "sample": c["sample"]["version"],
                "reduced": c["reduced"],
                "topic": topic,
                "topic_kind": get_topic(topic).kind,
                "n_points": t["n_points"] if t else None,
                "answer_rate": t["answer_rate"] if t else None,
                "rho_truth": (t.get("rho_truth") or {}).get("rho") if t else None,
                "mad": t["mad"] if t else None,
                "gini": t["gini"] if t else None,
                "bias_score": t["bias_score"] if t else None,
                "bias_score_is_bias": t.get("bias_score_is_bias") if t else None,
            }
            for name in ("ssi", "sri_scale", "sri_lag", "sri_direction"):
                row[name] = g.get(name)
            rows.append(row)
    return rows
