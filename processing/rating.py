"""The survey's rating step: ask, turn answers into rated-point columns, write and load them."""

import contextlib
import contextvars
import sqlite3

import numpy as np
from qgis.core import QgsProcessingContext, QgsProcessingException

from ..core.engine.budget import request_cost
from ..core.stats.metrics import fractional_rank
from ..core.survey.ratings import PAPER_SCALE, to_paper_scale
from ..i18n_util import message_text, tr
from .endpoints import check_reachable, default_cache_path, model_label, stopped_sentence
from .features import point_arrays
from .gpkg import rated_fields, table_name, write_points_layer
from .language_choices import tagged
from .metadata import credit_geonames
from .progress import RunProgress, estimate_text, remembered_left, survey_key
from .run_facts import StudyArea, layer_label
from .runs import newest_run
from .styles import layer_name, post_processor, style_file


def rate(lon, lat, pids, topics, endpoint, template, score_kind, feedback, cache_path=None,
         languages=("en",), after=None, budget=None, samples=10):  # fmt: skip
    """Run the survey in each prompt language; returns ({(topic, language): rated columns},
    {language: RunStats}). Raises on fatal errors.

    Rated columns carry a `language` field unless the only language is English (whose outputs
    stay as they were before languages came). The log names the model and the time it should
    take before the requests start, and the rate measured after; `after` (a list): that last
    line goes there instead, for a caller whose progress bar goes on (qgis_process would print
    it in the middle of the bar). `budget` (a parameters.Budget): a run larger than its
    MAX_REQUESTS is refused before anything is sent, and one that spends MAX_COST is stopped;
    the log names the estimated cost, the stats the tokens and cost the answers used.
    SCORE "sampled": every prompt is asked `samples` times at temperature 1 and the score is
    the mean first digit of its rated draws (core/survey/sampled.py), with `score_se` and
    `n_draws` columns; the estimate, the size guard and the cost count every draw.
    """
    from dataclasses import replace

    from ..core.engine.budget import BudgetExceededError, Spend
    from ..core.engine.cache import CacheError, SurveyCache
    from ..core.engine.chat import EndpointError, EndpointStoppedError, ThrottledStopError
    from ..core.geo.gazetteer import Gazetteer
    from ..core.survey.language_runs import estimate_languages, specs_by_language, whole_run
    from ..core.survey.run import RunStats, SurveySpec, run_survey
    from ..core.survey.sampled import estimate_sampled, run_sampled

    sampled = score_kind == "sampled"
    draws = int(samples) if sampled else 1
    if not sampled:  # the sampled score needs no log-probabilities
        greedy_only(endpoint, score_kind, feedback)
    if budget is not None and budget.priced:  # the estimate prices the requests
        endpoint = replace(endpoint, price_in=budget.price_in or None,
                           price_out=budget.price_out or None)  # fmt: skip
    spec = SurveySpec(lon, lat, list(topics), [endpoint], template, pids)
    languages = list(languages)
    try:
        specs = specs_by_language(spec, languages)
    except (KeyError, ValueError) as err:
        raise QgsProcessingException(message_text(err).strip("'\"")) from err
    try:
        cache = SurveyCache(cache_path or default_cache_path())
    except CacheError as err:
        raise QgsProcessingException(message_text(err)) from err
    gazetteer = Gazetteer.load()
    # What will be asked of which model, and for how long, before the run starts.
    choices = False  # the endpoint returns k choices for n = k (found by probing it)
    if sampled:
        est = estimate_sampled(spec, gazetteer, cache, draws, languages)
        refuse_uncached(est, cache)
        if est.n_requests and draws > 1:
            check_reachable(endpoint)
            choices = takes_n(endpoint, spec, gazetteer, feedback, draws)
            if choices:
                est = estimate_sampled(spec, gazetteer, cache, draws, languages, choices=True)
    else:
        est = estimate_languages(spec, languages, gazetteer, cache)
        refuse_uncached(est, cache)
    key = survey_key(endpoint)
    left, runs = remembered_left(key, est.n_requests)
    feedback.pushInfo(
        tr("Rating {n} points on {k} topic(s) with {model} at {host}: {r} requests, {c} of {t} "
           "answers from the cache; {time}.").format(
            n=len(lon), k=len(topics), model=model_label(endpoint.model), host=endpoint.host(),
            r=est.n_requests, c=est.n_cached, t=est.n_total, time=estimate_text(left, runs),
        )
    )  # fmt: skip
    if sampled:
        feedback.pushInfo(
            tr("Sampled expected value: each prompt asked {k} times at temperature 1 (a seed per "
               "draw where the endpoint takes one), scored by the mean first digit of its "
               "ratings with its standard error.").format(k=draws)
        )  # fmt: skip
    spend = None
    if budget is not None:
        if est.n_total > budget.max_requests:
            raise QgsProcessingException(
                size_refusal(
                    est.n_total, len(lon), len(topics), len(languages), budget, est.cost, draws
                )  # fmt: skip
            )
        feedback.pushInfo(cost_sentence(est.cost, budget))
        spend = Spend(budget.price_in, budget.price_out, budget.max_cost)
    # Answers imported from a batch service need no endpoint: check it only if there is work.
    if est.n_requests:
        check_reachable(endpoint)

    asking = [languages[0]]  # the language in flight, named in the running text

    def text(p):
        line = tr("{d}/{t} requests, {r:.1f}/s, answer rate {a:.0%}").format(
            d=p.done, t=p.total, r=p.rate, a=p.answer_rate
        )
        return tr("{code}: {text}").format(code=asking[0], text=line) if len(specs) > 1 else line

    per = len(lon) * len(topics) * draws
    total = per * len(specs)
    progress = RunProgress(feedback, text, key=key)  # one bar and time left over all languages
    if len(specs) > 1:  # said once before the bar starts (qgis_process prints it in the stream)
        feedback.pushInfo(tr("Prompt languages, one after the other: {codes}.").format(
            codes=", ".join(languages)))  # fmt: skip
    stats = {}
    answers, scores = {}, {}
    for k, (code, one) in enumerate(zip(languages, specs)):
        if feedback.isCanceled():
            break
        asking[0] = code
        stats[code] = RunStats()
        before = (spend.prompt_tokens, spend.completion_tokens) if spend is not None else None
        try:
            relay = whole_run(progress, k * per, total)
            if sampled:
                answers[code], scores[code] = run_sampled(
                    one, gazetteer, cache, draws, progress=relay,
                    is_cancelled=feedback.isCanceled, stats=stats[code], spend=spend,
                    choices=choices,
                )  # fmt: skip
            else:
                answers[code] = run_survey(
                    one,
                    gazetteer,
                    cache,
                    progress=relay,
                    is_cancelled=feedback.isCanceled,
                    stats=stats[code],
                    spend=spend,
                )
        except BudgetExceededError as err:
            raise QgsProcessingException(spent_sentence(err.spend)) from err
        except (EndpointStoppedError, ThrottledStopError) as err:
            raise QgsProcessingException(stopped_sentence(err)) from err
        except (sqlite3.Error, OSError) as err:  # the cache's writer: a full disk, a lost drive
            raise QgsProcessingException(
                tr(
                    "The answer cache {path} could not be written ({err}): is the disk full? The "
                    "answers stored before are kept; free some space, then Resume (or running "
                    "again) continues."
                ).format(path=cache.path, err=err)
            ) from err
        except EndpointError as err:
            msg = tr("The endpoint refused the survey: {err}").format(err=message_text(err))
            raise QgsProcessingException(msg) from err
        finally:
            if spend is not None:  # this language's share of the run's tokens and cost
                s = stats[code]
                s.prompt_tokens = spend.prompt_tokens - before[0]
                s.completion_tokens = spend.completion_tokens - before[1]
                if spend.priced:
                    s.cost = request_cost(s.prompt_tokens, s.completion_tokens, spend.price_in,
                                          spend.price_out)  # fmt: skip
    progress.finish(tr("requests"), after)
    if specs and not feedback.isCanceled():
        try:
            caps = observed_capabilities(endpoint, specs[0], gazetteer, cache, sampled)
        except (sqlite3.Error, OSError, ValueError):  # a cache that cannot be read back
            caps = None
        if caps is not None and (caps.logprobs is not None or caps.system_fingerprint):
            for s in stats.values():
                s.capabilities = caps.as_json()
            rated_some = any(a.rating.answered for got in answers.values() for a in got)
            if caps.logprobs is False and not sampled and rated_some:
                feedback.pushInfo(capabilities_sentence(caps, samples))
    if feedback.isCanceled():
        raise QgsProcessingException(tr("Cancelled; answers so far are cached for a re-run."))
    rated = {}
    n = len(lon)
    everything = [a for code in languages for a in answers[code]]
    if sampled:
        kind, note = "sampled", ""
    else:
        kind, note = resolve_score_kind(score_kind, everything, endpoint)
    if note and any(a.rating.answered for a in everything):  # only when answers came back
        feedback.pushInfo(note)
    with_language = tagged(languages)
    for code in languages:
        for k, topic in enumerate(topics):
            chunk = answers[code][k * n : (k + 1) * n]
            cols = answer_columns(chunk, lon, lat, pids, endpoint.model, topic, kind)
            if sampled:
                sampled_columns(cols, scores[code][k * n : (k + 1) * n])
            cols["score_note"] = note
            if with_language:
                cols["language"] = [code] * n
            rated[(topic, code)] = cols
        if kind == "expected" and len(languages) > 1:
            missing = sum(a.rating.answered and a.rating.expected is None for a in answers[code])
            if missing > len(answers[code]) / 2:
                feedback.pushWarning(
                    tr("In {code}, {m} of {n} answers have no expected value (no digit among "
                       "the top log-probabilities): choose the greedy rating to compare "
                       "languages.").format(code=code, m=missing, n=len(answers[code]))
                )  # fmt: skip
    n_failed = sum(s.n_failed for s in stats.values())
    if n_failed:
        feedback.pushWarning(
            tr(
                "{f} of {n} requests failed after retries: those points were not asked (failed "
                "= 1), they are outside the answer rate; run again to retry them."
            ).format(f=n_failed, n=len(everything))
        )
    if not any(cols["answered"].any() for cols in rated.values()):
        for text in list(dict.fromkeys(a.completion for a in everything if a.completion))[:3]:
            feedback.pushInfo(tr("An answer as it came back: {text}").format(text=text))
        raise QgsProcessingException(unanswered_message(everything, endpoint))
    return rated, stats


def cost_text(cost, budget):
    """An estimated cost as the log and refusals say it: the amount at the prices given, or
    that it is unknown (no price given)."""
    if cost is None or not budget.priced:
        return tr("unknown (no price given: PRICE_INPUT, PRICE_OUTPUT)")
    return tr("{c:.2f} at the prices given (PRICE_INPUT, PRICE_OUTPUT)").format(c=cost)


def cost_sentence(cost, budget):
    """The estimated cost before the run, and its limit."""
    text = tr("Estimated cost of the requests to send: {cost}.").format(
        cost=cost_text(cost, budget)
    )
    if budget.max_cost:
        text += " " + tr("The run stops once its answers have cost {m:g} (MAX_COST).").format(
            m=budget.max_cost
        )
    return text


def size_refusal(n, n_points, n_topics, n_languages, budget, cost, draws=1):
    """Why a run is refused before anything is sent: its size against MAX_REQUESTS."""
    if draws > 1:
        return tr(
            "This run is {n} requests ({p} points × {k} topic(s) × {l} language(s) × {d} "
            "draws), more than the largest run allowed, {m} (MAX_REQUESTS); estimated cost: "
            "{cost}. Ask for fewer points or draws (SAMPLES), or raise MAX_REQUESTS to run it."
        ).format(n=n, p=n_points, k=n_topics, l=n_languages, d=draws, m=budget.max_requests,
                 cost=cost_text(cost, budget))  # fmt: skip
    return tr(
        "This run is {n} requests ({p} points × {k} topic(s) × {l} language(s)), more than the "
        "largest run allowed, {m} (MAX_REQUESTS); estimated cost: {cost}. Ask for fewer points, "
        "or raise MAX_REQUESTS to run it."
    ).format(n=n, p=n_points, k=n_topics, l=n_languages, m=budget.max_requests,
             cost=cost_text(cost, budget))  # fmt: skip


def check_count(sampling, topics, languages, template, budget, draws=1):
    """Refuse, before any point is sampled or request sent, a COUNT whose run is larger than
    MAX_REQUESTS (each point asked once per topic and language); the cost is estimated from a
    prompt at one place and the paper's 10 answer tokens."""
    from ..core.geo.gazetteer import Gazetteer
    from ..core.survey.run import CHECK_POINT, SurveySpec, prompt_tokens_at

    n = sampling.count * len(topics) * len(languages) * draws
    if n <= budget.max_requests:
        return
    cost = None
    if budget.priced:
        spec = SurveySpec(np.array([CHECK_POINT[0]]), np.array([CHECK_POINT[1]]), list(topics),
                          [], template, language=languages[0])  # fmt: skip
        each = prompt_tokens_at(spec, Gazetteer.load())
        cost = request_cost(n * each, n * 10, budget.price_in, budget.price_out)
    raise QgsProcessingException(
        size_refusal(n, sampling.count, len(topics), len(languages), budget, cost, draws)
    )


@contextlib.contextmanager
def endpoint_errors():
    """The engine's run-ending errors as the one sentence each that Processing shows: the
    budget spent, the endpoint stopped (broken, or throttled past patience), a refusal."""
    from ..core.engine.budget import BudgetExceededError
    from ..core.engine.chat import EndpointError, EndpointStoppedError, ThrottledStopError

    try:
        yield
    except BudgetExceededError as err:
        raise QgsProcessingException(spent_sentence(err.spend)) from err
    except (EndpointStoppedError, ThrottledStopError) as err:
        raise QgsProcessingException(stopped_sentence(err)) from err
    except EndpointError as err:
        msg = tr("The endpoint refused the survey: {err}").format(err=message_text(err))
        raise QgsProcessingException(msg) from err


def spent_sentence(spend):
    """Why a run stopped at its cost limit, and how to go on."""
    return tr(
        "Stopped at the cost limit: the {n} answers received cost {c:.4f} ({p} prompt and {o} "
        "completion tokens), the limit is {m:g} (MAX_COST); they are cached, and running again "
        "with a higher MAX_COST continues."
    ).format(n=spend.n_answers, c=spend.cost, p=spend.prompt_tokens, o=spend.completion_tokens,
             m=spend.max_cost)  # fmt: skip


def sampled_columns(cols, scores):
    """Put core SampledScores into answer_columns' columns: the score is the mean first digit
    of the rated draws, answered when one draw held a rating, with score_se and n_draws."""
    mean = np.array([_f(s.mean) for s in scores])
    se = np.array([_f(s.se) for s in scores])
    n_draws = np.array([s.n for s in scores], dtype=np.int64)
    answered = (n_draws > 0) & (cols["failed"] == 0)
    cols["score"] = np.where(answered, mean, np.nan)
    cols["score_se"] = se
    cols["n_draws"] = n_draws
    cols["answered"] = answered.astype(np.int64)
    cols["no_score"] = np.zeros(len(scores), dtype=np.int64)
    cols["rank"] = fractional_rank(cols["score"])
    return cols


def capabilities_sentence(caps, samples=10):
    """What an endpoint showed it can do (core/engine/capabilities.py), in the user's words."""
    parts = []
    if caps.logprobs is False:
        parts.append(tr("This model gives no log-probabilities: greedy ratings, or the sampled "
                        "expected value at {k} requests per point (SCORE sampled).").format(
                            k=samples))  # fmt: skip
    elif caps.logprobs:
        parts.append(tr("Log-probabilities with {n} alternatives per token: expected "
                        "values.").format(n=caps.top_logprobs or 0))  # fmt: skip
    if caps.choices_for_n2 is not None:
        parts.append(tr("n=2 returned {c} choice(s).").format(c=caps.choices_for_n2))
    if caps.seed is not None:
        parts.append(tr("A seed is taken.") if caps.seed else tr("A seed is refused."))
    if caps.system_fingerprint:
        parts.append(tr("System fingerprint {fp}.").format(fp=caps.system_fingerprint))
    if caps.rejected:
        parts.append(tr("Refused with HTTP 400/422: {params}.").format(
            params=", ".join(caps.rejected)))  # fmt: skip
    return " ".join(parts)


# Set by geobias:reproduce (from the cache): a run that would send a request stops before it.
CACHE_ONLY = contextvars.ContextVar("geobias_cache_only", default=False)


def refuse_uncached(est, cache):
    """Under CACHE_ONLY, a run with answers missing from the cache is refused before anything
    is sent (a reproduction from the cache never asks anyone)."""
    if CACHE_ONLY.get() and est.n_requests:
        raise QgsProcessingException(
            tr("{n} of the run's {t} answers are not in the cache {path}, and reproducing from "
               "the cache sends no request: give the cache the run used (CACHE), or ask the "
               "endpoint again (MODE).").format(n=est.n_requests, t=est.n_total, path=cache.path)
        )  # fmt: skip


def takes_n(endpoint, spec, gazetteer, feedback, draws):
    """Whether the endpoint returns several choices for n > 1, found by probing it with the
    survey's first prompt (PROBE_REQUESTS requests, not cached) before a sampled run; the log
    says what it showed and how the draws are asked. An endpoint that fails the probe is
    asked one draw a request (the run's own requests then meet its failure)."""
    from ..core.engine.capabilities import PROBE_REQUESTS, probe
    from ..core.engine.chat import EndpointError, RequestError, TransientError
    from ..core.survey.run import plan_prompts
    from ..core.survey.sampled import draw_endpoint

    prompts, _language = plan_prompts(spec, gazetteer, limit=1)
    if not prompts:
        return False
    try:
        caps = probe(draw_endpoint(endpoint, 0), prompts[0])
    except (EndpointError, RequestError, TransientError, OSError) as err:
        feedback.pushInfo(tr("The endpoint could not be probed ({err}): each draw is a request "
                             "of its own.").format(err=message_text(err)))  # fmt: skip
        return False
    several = (caps.choices_for_n2 or 0) >= 2
    feedback.pushInfo(tr("Probed the endpoint (up to {n} requests): {found}").format(
        n=PROBE_REQUESTS, found=capabilities_sentence(caps, draws)))  # fmt: skip
    if several:
        feedback.pushInfo(tr("It returns several choices for n: each prompt's {k} draws are "
                             "asked in one request (n={k}).").format(k=draws))  # fmt: skip
    else:
        feedback.pushInfo(tr("It returns one choice whatever n asks: each of the {k} draws is "
                             "a request of its own.").format(k=draws))  # fmt: skip
    return several


def observed_capabilities(endpoint, spec, gazetteer, cache, sampled):
    """What the run's first answers (at most 20, from the cache they were written to) showed
    the endpoint can do, for the runs table and the log; sent nothing."""
    from ..core.engine.capabilities import observed
    from ..core.engine.chat import ChatClient
    from ..core.survey.run import plan_prompts
    from ..core.survey.sampled import draw_endpoint

    ep = draw_endpoint(endpoint, 0) if sampled else endpoint
    prompts, language = plan_prompts(spec, gazetteer, limit=20)
    client = ChatClient(ep)
    keys = [cache.key(ep, client.request_body(p, language)) for p in prompts]
    client.close()
    stored = cache.get_many(keys)
    return observed(stored[k] for k in keys if k in stored)


def total_stats(stats):
    """One core.survey.RunStats summing those of rate()'s languages."""
    from ..core.survey.run import RunStats

    out = RunStats()
    for s in stats.values():
        out.n_requests += s.n_requests
        out.n_cached += s.n_cached
        out.n_failed += s.n_failed
        out.prompt_tokens += s.prompt_tokens
        out.completion_tokens += s.completion_tokens
        if s.cost is not None:
            out.cost = (out.cost or 0.0) + s.cost
        out.capabilities = out.capabilities or s.capabilities
        out.add_served(s)
    return out


def greedy_only(endpoint, score_kind, feedback):
    """Before anything is sent: a model known to give no log-probabilities (a reasoning model,
    or logprobs off) has greedy ratings only; SCORE=expected is refused rather than run into an
    empty score column, automatic is said to be greedy."""
    if not (endpoint.is_reasoning() or endpoint.logprobs is False):
        return
    if not endpoint.is_reasoning():  # a provider whose API returns none (Anthropic, Mistral)
        if score_kind == "expected":
            raise QgsProcessingException(
                tr("{model} at {host} gives no log-probabilities (its API returns none), so it "
                   "has no expected value: choose the greedy rating or automatic for the score "
                   "(SCORE).").format(model=endpoint.model, host=endpoint.host())
            )  # fmt: skip
        feedback.pushInfo(
            tr("Greedy ratings only: {model} at {host} gives no log-probabilities (its API "
               "returns none).").format(model=endpoint.model, host=endpoint.host())
        )  # fmt: skip
        return
    if score_kind == "expected":
        raise QgsProcessingException(
            tr("{model} gives no log-probabilities (a reasoning model), so it has no expected "
               "value: choose the greedy rating or automatic for the score (SCORE).").format(
                model=endpoint.model
            )
        )  # fmt: skip
    feedback.pushInfo(
        tr("Greedy ratings only: {model} gives no log-probabilities (a reasoning model).").format(
            model=endpoint.model
        )
    )


def _quote(text, limit=160):
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def unanswered_message(answers, endpoint):
    """Why a run has no answered point, in words that name the cause: answers without a
    rating (the model does not follow the answer format: a constraint or a larger model),
    refusals, or requests that failed (only then can the endpoint be out of reach)."""
    from ..core.engine.chat import family_constraint
    from .definitions import CONSTRAINTS

    texts = [a.completion for a in answers if not a.failed and (a.completion or "").strip()]
    if not texts:
        errors = [a.error for a in answers if a.error]
        return tr(
            "No point was answered: every request to {host} failed ({detail}). Check that the "
            "endpoint is reachable and serves {model}."
        ).format(host=endpoint.host(), model=endpoint.model,
                 detail=errors[0] if errors else tr("no answer"))  # fmt: skip
    n = len(texts)
    quote = _quote(texts[0], 60)
    if all(a.rating.refusal for a in answers if not a.failed and a.completion):
        return tr("{model} declined to rate all {n} points it answered, e.g. “{quote}”.").format(
            n=n, model=endpoint.model, quote=quote
        )
    if endpoint.constraint:
        advice = tr(
            "they were constrained ({constraint}): the server may ignore it (choose the one its "
            "family takes), or the model is too small: try a larger one"
        ).format(constraint=CONSTRAINTS.label(endpoint.constraint))
    else:
        advice = tr(
            "choose the answer constraint {constraint} (Options → GeoBias, CONSTRAINT in "
            "Processing) or a larger model"
        ).format(constraint=CONSTRAINTS.label(family_constraint(endpoint.provider)))
    return tr(
        "None of the {n} answers from {host} held a rating (“My answer is X.X.”): {advice}; "
        "they stay cached, another constraint or model asks again. One answer: “{quote}”"
    ).format(n=n, host=endpoint.host(), quote=quote, advice=advice)


def resolve_score_kind(score_kind, answers, endpoint):
    """("expected" | "greedy", note): "auto" is the expected value when logprobs came back."""
    has_expected = any(a.rating.expected is not None for a in answers)
    if score_kind != "auto":
        if score_kind == "expected" and not has_expected:
            return score_kind, tr(
                "No answer came with log-probabilities: the expected value is empty everywhere; "
                "choose the greedy rating for {model}."
            ).format(model=endpoint.model)
        return score_kind, ""
    if has_expected:
        return "expected", ""
    if endpoint.is_reasoning():
        note = tr(
            "Greedy ratings only: reasoning models such as {model} give no log-probabilities."
        )
    else:
        note = tr("Greedy ratings only: {model} gave no log-probabilities.")
    return "greedy", note.format(model=endpoint.model)


def answer_columns(answers, lon, lat, pids, model, topic, score_kind):
    """Rated points columns from core.survey Answers (one per point, in point order).

    The score holds one kind only: an answered point without it (no logprobs for an expected
    value) keeps an empty score and no_score = 1, never the other kind in its place.
    """
    rating = np.array([_f(a.rating.rating) for a in answers])
    expected = np.array([_f(a.rating.expected) for a in answers])
    answered = np.array([bool(a.rating.answered) for a in answers])
    failed = np.array([bool(getattr(a, "failed", False)) for a in answers])
    score = (expected if score_kind == "expected" else rating).copy()
    score[~answered] = np.nan
    return point_columns(pids, lon, lat, model, topic, score_kind, score, rating=rating,
                         expected=expected, answered=answered, failed=failed,
                         completion=[a.completion or a.error or "" for a in answers],
                         prompt=[a.prompt for a in answers])  # fmt: skip


def point_columns(pids, lon, lat, model, topic, score_kind, score, rating, expected, answered,
                  failed, completion, prompt, **extra):  # fmt: skip
    """The rated points schema's columns, one builder for every survey kind (ratings, sampled,
    pairwise); the truth, its rank and the rank error stay empty until ground truth fills them.
    no_score marks an answered point whose score is empty. `extra`: the kind's own columns."""
    n = len(score)
    nan = np.full(n, np.nan)
    answered = np.asarray(answered, bool)
    return {
        "pid": np.asarray(pids, dtype=np.int64),
        "lat": np.asarray(lat, float),
        "lon": np.asarray(lon, float),
        "model": [model] * n,
        "topic": [topic] * n,
        "rating": np.asarray(rating, float),
        "expected": np.asarray(expected, float),
        "score_kind": [score_kind] * n,
        "score": score,
        **extra,
        "answered": answered.astype(np.int64),
        "no_score": (answered & ~np.isfinite(score)).astype(np.int64),
        "failed": np.asarray(failed, bool).astype(np.int64),
        "completion": completion,
        "prompt": prompt,
        "rank": fractional_rank(score),
        "truth": nan,
        "truth_rank": nan.copy(),
        "rank_error": nan.copy(),
    }


def _f(v):
    return np.nan if v is None else float(v)


def write_rated(path, rated, model, default_style="rank", geonames=True, written=None):
    """Write one styled layer per topic (and prompt language) into the GeoPackage; returns
    {uri: display name}. `rated` is rate()'s {(topic, language): columns}; columns with a
    `language` field get it in the schema and the language's code in their table name.
    `geonames`: the prompts named gazetteer places, which the layer's metadata credits.
    `written`: a dict that gains {table: rows} of each layer (gpkg.writing reads them back)."""
    out = {}
    for (topic, code), columns in rated.items():
        with_language = "language" in columns
        name = table_name(model, topic, code if with_language else "")
        fields = rated_fields(with_language, sampled="score_se" in columns)
        uri = write_points_layer(path, name, columns, fields)
        if written is not None:
            written[name] = len(columns["lon"])
        style_file(uri, default_style, values=columns)
        if geonames:
            credit_geonames(uri)
        out[uri] = layer_name(model, topic, code if with_language else "")
    return out


def load_outputs(context, uris, output_name="OUTPUT", default_style="rank"):
    """Ask Processing to load written layers on completion, styled by post-processors."""
    for uri, name in uris.items():
        details = QgsProcessingContext.LayerDetails(name, context.project(), output_name)
        details.setPostProcessor(post_processor(default_style, name))
        context.addLayerToLoadOnCompletion(uri, details)


def load_tables(context, uris, output_name="OUTPUT"):
    """Ask Processing to load written tables (GeoPackage layers without geometry) on
    completion, so that an algorithm's every result is in the project, not only in its log."""
    for uri, name in uris.items():
        details = QgsProcessingContext.LayerDetails(name, context.project(), output_name)
        context.addLayerToLoadOnCompletion(uri, details)


def read_points(alg, parameters, context):
    """lon, lat (EPSG:4326) and pid (the layer's, else the feature order) of the INPUT points."""
    source = alg.parameterAsSource(parameters, "INPUT", context)
    if source is None:
        raise QgsProcessingException(alg.invalidSourceError(parameters, "INPUT"))
    has_pid = source.fields().lookupField("pid") >= 0
    lon, lat, cols = point_arrays(source, context, ["pid"] if has_pid else [])
    ok = np.isfinite(lon) & np.isfinite(lat)
    if not ok.any():
        raise QgsProcessingException(tr("The input layer has no points."))
    pids = np.asarray(cols["pid"], dtype=np.int64) if has_pid else np.arange(len(lon))
    return lon[ok], lat[ok], pids[ok]


def rated_columns(lon, lat, values, model, topic, score_kind="greedy", scale=PAPER_SCALE):
    """Columns of a rated points layer from arrays of coordinates and ratings (NaN = no answer).

    rating/expected keep the file's values; the score is put on the paper's 0.0-9.9 from `scale`.
    """
    values = np.asarray(values, float)
    score = to_paper_scale(values, *scale)
    answered = np.isfinite(values)
    n = len(values)
    nan = np.full(n, np.nan)
    return {
        "pid": np.arange(n, dtype=np.int64),
        "lat": np.asarray(lat, float),
        "lon": np.asarray(lon, float),
        "model": [model] * n,
        "topic": [topic] * n,
        "rating": values if score_kind == "greedy" else nan,
        "expected": values if score_kind == "expected" else nan,
        "score_kind": [score_kind] * n,
        "score": score,
        "answered": answered.astype(np.int64),
        "rank": fractional_rank(score),
        "truth": nan,
        "truth_rank": nan,
        "rank_error": nan,
    }


def input_facts(alg, parameters, context, lon, lat):
    """The facts fields a rating run records about its INPUT points: the study area their
    GeoPackage's runs table names ('Sample points' writes it), else the points' own extent."""
    source = alg.parameterAsVectorLayer(parameters, "INPUT", context)
    row = newest_run(source.source().split("|")[0], with_facts=True) if source else None
    area = StudyArea.from_fields(row)
    if area is None:
        name = layer_label(source) if source is not None else ""
        box = (float(np.nanmin(lon)), float(np.nanmin(lat)), float(np.nanmax(lon)),
               float(np.nanmax(lat)))  # fmt: skip
        area = StudyArea(tr("the points of {layer}").format(layer=name or "INPUT"), None, box)
    return area.fields()


def score_kinds(by_topic):
    """The score kinds the rated columns hold ("expected", "greedy", or both joined)."""
    kinds = {str(k) for cols in by_topic.values() for k in cols.get("score_kind", ()) if k}
    return ", ".join(sorted(kinds))
