"""The `metrics` table: one row of bias metrics per model x topic x score kind (x prompt
language, with its home bias, when the rated layers carry a language)."""

import numpy as np
from osgeo import ogr
from qgis.core import QgsProcessingException

from ..core.stats.hotspots import points_moran
from ..core.stats.metrics import rank_error, summarize
from ..i18n_util import tr
from .features import as_float, numeric_field, read_columns
from .truth import anchor_values

METRIC_FIELDS = {
    "model": ogr.OFTString,
    "topic": ogr.OFTString,
    "score_kind": ogr.OFTString,
    "n_points": ogr.OFTInteger,
    "n_answered": ogr.OFTInteger,
    "n_failed": ogr.OFTInteger,  # requests that failed after retries: not asked
    "n_no_score": ogr.OFTInteger,  # answered points without a score of this kind
    "answer_rate": ogr.OFTReal,
    "mad": ogr.OFTReal,
    "gini": ogr.OFTReal,
    "n_truth": ogr.OFTInteger,
    "rho_truth": ogr.OFTReal,
    "rho_truth_p": ogr.OFTReal,
    "rho_truth_lo": ogr.OFTReal,
    "rho_truth_hi": ogr.OFTReal,
    "anchor": ogr.OFTString,
    "rho_anchor": ogr.OFTReal,
    "rho_anchor_p": ogr.OFTReal,
    "rho_anchor_lo": ogr.OFTReal,
    "rho_anchor_hi": ogr.OFTReal,
    "bias_score": ogr.OFTReal,
    # Global Moran's I of the rank errors on each point's 8 nearest points (great-circle) and
    # its permutation p-value: do the errors cluster in space?
    "moran_i": ogr.OFTReal,
    "moran_p": ogr.OFTReal,
    "bootstrap": ogr.OFTString,  # "points" or "clusters (k)": how the 95% intervals were made
    "reason": ogr.OFTString,
}
# Rows of rated layers that carry a prompt language (core/survey/home_bias.py): the language's code,
# and per way of taking its home countries (listed first / listed at all in GeoNames' country
# languages) the home bias H = mean rank error at home - elsewhere, its 95% bootstrap interval
# over countries, and the countries with points on each side. Tables of English-only runs,
# which carry no language, keep METRIC_FIELDS alone.
LANGUAGE_FIELDS = {"language": ogr.OFTString}
for _mode in ("first", "listed"):
    LANGUAGE_FIELDS.update({
        f"home_{_mode}": ogr.OFTReal,
        f"home_{_mode}_lo": ogr.OFTReal,
        f"home_{_mode}_hi": ogr.OFTReal,
        f"home_{_mode}_countries": ogr.OFTInteger,
        f"home_{_mode}_others": ogr.OFTInteger,
    })  # fmt: skip
LANGUAGE_FIELDS["home_reason"] = ogr.OFTString


def metric_fields(rows, fields=None):
    """The metrics schema for these rows: `fields` (METRIC_FIELDS), and LANGUAGE_FIELDS after
    them when a row has a language."""
    fields = dict(fields or METRIC_FIELDS)
    if any(r.get("language") for r in rows):
        fields.update(LANGUAGE_FIELDS)
    return fields


def metrics_row(
    model, topic, score_kind, score, truth=None, anchor=None, anchor_name="", n_boot=1000, seed=0,
    answered=None, failed=None, truth_units=None, anchor_units=None, note="", lon=None, lat=None,
    language="", countries=None,
):  # fmt: skip
    """One metrics table row from arrays (NaN = no score / no truth).

    `answered` and `failed` (masks) keep answered points without a score and failed requests
    apart from refusals; `truth_units`/`anchor_units` switch the intervals to a cluster
    bootstrap; `note` is added to the reason (e.g. "greedy ratings only"); with the points'
    `lon`/`lat` and truth, the global Moran's I of their rank errors is added. With a prompt
    `language` (its code) and each point's country (`countries`, ISO alpha-2), the row holds
    the language and its home bias (LANGUAGE_FIELDS).
    """
    truth = None if truth is None or not np.isfinite(truth).any() else truth
    s = summarize(
        score, truth=truth, anchor=anchor, n_boot=n_boot, seed=seed, answered=answered,
        failed=failed, truth_units=truth_units, anchor_units=anchor_units,
    )  # fmt: skip
    kinds = list(dict.fromkeys(c.bootstrap for c in (s.truth, s.anchor) if c is not None))
    row = {
        "model": model,
        "topic": topic,
        "score_kind": score_kind,
        "n_points": s.n_points,
        "n_answered": s.n_answered,
        "n_failed": s.n_failed,
        "n_no_score": s.n_no_score,
        "answer_rate": s.answer_rate,
        "mad": s.mad,
        "gini": s.gini,
        "anchor": anchor_name if anchor is not None else "",
        "bias_score": s.bias_score,
        "bootstrap": "; ".join(kinds) if n_boot > 0 else "",
        "reason": "; ".join(r for r in (note, s.reason) if r),
    }
    for prefix, corr in (("rho_truth", s.truth), ("rho_anchor", s.anchor)):
        if corr is not None:
            row.update({prefix: corr.rho, f"{prefix}_p": corr.p, f"{prefix}_lo": corr.lo})
            row[f"{prefix}_hi"] = corr.hi
            if prefix == "rho_truth":
                row["n_truth"] = corr.n
    if truth is not None and lon is not None and lat is not None:
        scored = np.where(_answered(score, answered, failed), score, np.nan)
        moran = points_moran(lon, lat, rank_error(scored, truth), seed=seed)
        if moran is not None:
            row.update({"moran_i": moran.I, "moran_p": moran.p_sim})
    if language:
        row["language"] = language
        scored = np.where(_answered(score, answered, failed), score, np.nan)
        errors = None if truth is None else rank_error(scored, truth)
        row.update(home_bias_columns(language, errors, countries, s.truth, n_boot, seed))
    return row


def has_signal(corr):
    """Whether ratings carry signal: rho with the truth has a 95% interval that excludes 0."""
    if corr is None:
        return False
    lo, hi = corr.lo, corr.hi
    return lo == lo and hi == hi and (lo > 0 or hi < 0)


def home_bias_columns(language, errors, countries, truth_corr, n_boot=1000, seed=0):
    """The home-bias columns of a metrics row (core/survey/home_bias.py over the points' rank errors
    and countries). Without signal (rho with the truth's interval spans 0) the numbers are
    kept and the reason says that no home-bias claim holds."""
    from ..core.survey.home_bias import MODES, home_bias_for
    from ..core.survey.languages import get_language

    if errors is None:
        return {"home_reason": "no ground truth: home bias needs rank errors"}
    if countries is None:
        return {"home_reason": "no country for the points"}
    try:
        lang = get_language(language)
    except KeyError:
        return {"home_reason": f"no language file for {language!r}"}
    found = home_bias_for(lang, errors, countries, n_boot=n_boot, seed=seed)
    out, reasons = {}, []
    for mode in MODES:
        h = found[mode]
        out.update({
            f"home_{mode}": h.difference, f"home_{mode}_lo": h.lo, f"home_{mode}_hi": h.hi,
            f"home_{mode}_countries": h.n_home_countries,
            f"home_{mode}_others": h.n_other_countries,
        })  # fmt: skip
        if h.reason:
            reasons.append(f"{mode}: {h.reason}")
    if not has_signal(truth_corr):
        reasons.insert(0, "no signal (rho with the truth's 95% interval spans 0): no home-bias "
                          "claim")  # fmt: skip
    out["home_reason"] = "; ".join(reasons)
    return out


def _answered(score, answered, failed):
    ok = np.isfinite(np.asarray(score, float))
    if answered is not None:
        ok &= np.asarray(answered, bool)
    if failed is not None:
        ok &= ~np.asarray(failed, bool)
    return ok


def groups(columns):
    """Row indices per (model, topic, score_kind, language) in a rated layer's columns (the
    language "" in layers without one)."""
    n = len(columns["lon"])
    keys = list(
        zip(
            columns.get("model", [""] * n),
            columns.get("topic", [""] * n),
            columns.get("score_kind", [""] * n),
            columns.get("language", [""] * n),
        )
    )
    out = {}
    for i, k in enumerate(keys):
        out.setdefault(tuple("" if v is None else str(v) for v in k), []).append(i)
    return {k: np.asarray(v) for k, v in out.items()}


def format_table(rows):
    """The metrics as a plain text table (for feedback and the demo); rho with its 95% CI, and
    rows of a prompt language with the language and its home bias."""

    def num(v, fmt="{:.3f}"):
        return "" if v is None or v != v else fmt.format(v)

    languages = any(r.get("language") for r in rows)
    header = ("model", "topic", "n", "answered", "MAD", "Gini", "rho truth [95% CI]",
              "rho anchor [95% CI]", "bias score", "Moran's I (rank error)")  # fmt: skip
    if languages:
        header = (
            header[:2]
            + ("language",)
            + header[2:]
            + ("home bias first [95% CI]", "home bias listed [95% CI]")
        )
    table = [header]
    for r in rows:
        cells = (
            str(r.get("model") or ""), str(r.get("topic") or ""), num(r.get("n_points"), "{}"),
            num(r.get("answer_rate"), "{:.0%}"), num(r.get("mad")), num(r.get("gini")),
            _with_ci(r, "rho_truth"), _with_ci(r, "rho_anchor"), num(r.get("bias_score")),
            _moran(r),
        )  # fmt: skip
        if languages:
            cells = cells[:2] + (str(r.get("language") or ""),) + cells[2:]
            cells += (_with_ci(r, "home_first"), _with_ci(r, "home_listed"))
        table.append(cells)
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    left = 3 if languages else 2
    return "\n".join(
        "  ".join(cell.ljust(w) if i < left else cell.rjust(w)
                  for i, (cell, w) in enumerate(zip(row, widths)))
        for row in table
    )  # fmt: skip


def _moran(row):
    i, p = row.get("moran_i"), row.get("moran_p")
    if i is None or i != i:
        return ""
    return f"{i:+.2f} (p {p:.3f})"


def _with_ci(row, name):
    rho, lo, hi = row.get(name), row.get(name + "_lo"), row.get(name + "_hi")
    if rho is None or rho != rho:
        return ""
    if lo is None or hi is None or lo != lo or hi != hi:
        return f"{rho:+.2f}"
    return f"{rho:+.2f} [{lo:+.2f}, {hi:+.2f}]"


def layer_metrics(
    layer, context, feedback, score_field, truth_field, truth_named, bootstrap, anchor_source=None
):  # fmt: skip
    """Yield (metrics row, arrays) for every (model, topic, score kind) of one rated layer.

    `bootstrap` is a parameters.Bootstrap, `anchor_source` a parameters.AnchorSource (or None).

    `arrays` holds that group's lon, lat, score and truth (None without one): what the
    comparisons across models need besides the row. Stops early when cancelled.
    """
    source = layer
    role = tr("Score field (SCORE_FIELD) of layer {name}").format(name=layer.name())
    numeric_field(source, score_field, role)
    truth_role = tr("Ground truth field (TRUTH_FIELD)")
    if truth_field:
        if truth_named or source.fields().lookupField(truth_field) >= 0:
            numeric_field(source, truth_field, truth_role)
    names = ["model", "topic", "score_kind", "language", "answered", "failed", "truth_unit"]
    names += [score_field] + ([truth_field] if truth_field else [])
    columns = read_columns(source, context, names)
    countries = None
    if "language" in columns:  # NULL (a row without a language) is ""
        columns["language"] = [v if isinstance(v, str) else "" for v in columns["language"]]
    if any(columns.get("language", [])):
        from .language_choices import countries_of

        countries = countries_of(columns["lon"], columns["lat"])
    score = as_float(columns[score_field])
    truth = as_float(columns[truth_field]) if truth_field in columns else None
    if truth is not None and not np.isfinite(truth).any():
        if truth_named:
            raise QgsProcessingException(
                tr("{role}: field '{name}' has no values in layer {layer}.").format(
                    role=truth_role, name=truth_field, layer=layer.name()
                )
            )
        feedback.pushInfo(
            tr("Layer {layer} has no ground truth in '{name}': rho with truth is left "
               "empty.").format(layer=layer.name(), name=truth_field)
        )  # fmt: skip
        truth = None
    answered = failed = None
    if "answered" in columns:
        answered = as_float(columns["answered"]) == 1
    if "failed" in columns:
        failed = as_float(columns["failed"]) == 1
    truth_units = cluster_units(bootstrap.kind, columns, truth, layer)
    anchor, anchor_units, anchor_name = (None, None, "")
    if anchor_source is not None:
        anchor, anchor_units, anchor_name = anchor_values(
            anchor_source, columns["lon"], columns["lat"], context, feedback
        )
    n_boot, seed = bootstrap.n_boot, bootstrap.seed
    if bootstrap.kind == "points":
        anchor_units = None
    elif anchor_units is None:
        anchor_units = truth_units
    for (model, topic, kind, language), idx in groups(columns).items():
        if feedback.isCanceled():
            return
        row = metrics_row(
            model or layer.name(), topic, kind, score[idx],
            None if truth is None else truth[idx],
            None if anchor is None else anchor[idx],
            anchor_name, n_boot, seed,
            answered=None if answered is None else answered[idx],
            failed=None if failed is None else failed[idx],
            truth_units=None if truth_units is None else truth_units[idx],
            anchor_units=None if anchor_units is None else anchor_units[idx],
            lon=columns["lon"][idx], lat=columns["lat"][idx], language=language,
            countries=None if countries is None else countries[idx],
        )  # fmt: skip
        arrays = {
            "lon": columns["lon"][idx],
            "lat": columns["lat"][idx],
            "score": score[idx],
            "truth": None if truth is None else truth[idx],
        }
        yield row, arrays


def cluster_units(bootstrap, columns, truth, layer):
    """The truth units to resample as clusters (None: resample points)."""
    if bootstrap == "points" or truth is None:
        return None
    units = as_float(columns["truth_unit"]) if "truth_unit" in columns else None
    has_units = units is not None and np.isfinite(units[np.isfinite(truth)]).all()
    if bootstrap == "clusters" and not has_units:
        raise QgsProcessingException(
            tr("BOOTSTRAP: clusters need the truth unit of every point with a truth (field "
               "truth_unit, written by 'Sample ground truth' from polygons); layer {layer} "
               "has none.").format(layer=layer.name())
        )  # fmt: skip
    return np.where(np.isfinite(units), units, -1) if has_units else None
