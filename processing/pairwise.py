"""What the pairwise survey algorithm writes: a rated points layer (the rating survey's schema,
so ground truth, metrics, maps and cards work on it) and the comparisons table."""

import numpy as np
from osgeo import ogr

from ..core.survey.pairwise import strength_to_scale
from .rating import point_columns

# The comparisons table: every prompt, who was named first and second, what was chosen.
COMPARISON_FIELDS = {
    "topic": ogr.OFTString,
    "first_pid": ogr.OFTInteger64,
    "second_pid": ogr.OFTInteger64,
    "chosen": ogr.OFTString,  # "first", "second" or empty (unanswered or failed)
    "p_first": ogr.OFTReal,  # P(first) from the answer's log-probabilities (empty without)
    "completion": ogr.OFTString,
    "prompt": ogr.OFTString,
}


def pairwise_columns(result, lon, lat, pids, model, topic):
    """Rated points columns from a core.survey.pairwise PairwiseResult: the score is the
    Bradley–Terry strength on the 0–9 scale by the stated mapping 9·σ(s), with its standard
    error (delta method) and the comparisons each point took part in."""
    n = len(lon)
    nan = np.full(n, np.nan)
    compared = result.comparisons if len(result.comparisons) == n else np.zeros(n, np.int64)
    if result.fit is not None:
        s, se = result.fit.strength, result.fit.se
        score = strength_to_scale(s)
        score_se = score * (1.0 - score / 9.0) * se  # d(9σ)/ds = 9σ(1-σ)
    else:
        score, score_se = nan.copy(), nan.copy()
    answered = compared > 0
    score = np.where(answered, score, np.nan)
    return point_columns(pids, lon, lat, model, topic, "pairwise", score, rating=score.copy(),
                         expected=nan, answered=answered, failed=np.zeros(n, bool),
                         completion=[""] * n, prompt=[""] * n,
                         score_se=np.where(answered, score_se, np.nan),
                         n_draws=compared.astype(np.int64))  # fmt: skip


def comparison_rows(result, pids, topic):
    """One comparisons-table row per prompt of a PairwiseResult."""
    pids = np.asarray(pids)
    rows = []
    for k, prompt in enumerate(result.prompts):
        c = result.choice[k]
        chosen = "" if np.isnan(c) else ("first" if c > 0.5 else "second")
        p = result.p_first[k] if len(result.p_first) > k else np.nan
        rows.append({"topic": topic, "first_pid": int(pids[result.first[k]]),
                     "second_pid": int(pids[result.second[k]]), "chosen": chosen,
                     "p_first": float(p),
                     "completion": result.texts[k], "prompt": prompt})  # fmt: skip
    return rows
