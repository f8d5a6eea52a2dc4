"""The sentences core's errors say to a user: English templates keyed by a message id.

An error that reaches the user is raised with a `Message` (an id here and its values), e.g.
``raise EndpointError(Message("http.tls", host=host, reason=reason))``. `str()` of the
message, and so of the exception, is the English sentence, so core stays free of QGIS and the
command line, tests and logs read English. The QGIS side (``i18n_util.message_text``) looks the
template up, translates it with ``tr()`` and formats the values (a value that is itself a
message or an exception is translated too), so a French QGIS shows French. The templates are
collected into i18n/geobias_fr.ts by scripts/translations.py (pylupdate5 reads the
``QT_TRANSLATE_NOOP`` marks); test/qgis/test_i18n.py fails on a template without French and
test/core/test_messages.py on a raise site whose id or values do not match its template.
"""

__all__ = ["MESSAGES", "Message", "message_of"]


def QT_TRANSLATE_NOOP(context, text):  # noqa: N802 (the name pylupdate5 looks for)
    """Mark a template for translation (in tr()'s "@default" context); returns it unchanged."""
    return text


# Templates are str.format strings; their fields are the values each raise site passes.
# pylupdate5 misses a QT_TRANSLATE_NOOP call with a trailing comma: keep the formatter away.
# fmt: off
MESSAGES = {
    # HTTP and endpoints (core/engine/http_client.py, core/engine/chat.py)
    "http.socks": QT_TRANSLATE_NOOP(
        "@default",
        "the proxy {proxy} is a SOCKS proxy, which needs the PySocks package (pip install "
        "PySocks); or set an HTTP proxy"),
    "http.tls": QT_TRANSLATE_NOOP("@default", "TLS failure talking to {host}: {reason}"),
    "http.proxy_auth": QT_TRANSLATE_NOOP(
        "@default",
        "the proxy refused its credentials (HTTP 407) on the way to {host}: check the proxy user "
        "and password (in QGIS: Settings > Options > Network)"),
    "http.proxy": QT_TRANSLATE_NOOP("@default", "proxy: {reason}"),
    "http.malformed_json": QT_TRANSLATE_NOOP("@default", "malformed JSON from {host}"),
    "http.refused_key": QT_TRANSLATE_NOOP("@default", "{host} refused the API key (HTTP {status})"),
    "http.refused_key_or_proxy": QT_TRANSLATE_NOOP(
        "@default",
        "{host} refused the API key (HTTP {status}) or the proxy {proxy} refused its credentials "
        "(in QGIS: Settings > Options > Network)"),
    "http.refused_text": QT_TRANSLATE_NOOP("@default", "{refused}: {text}"),
    "http.status": QT_TRANSLATE_NOOP("@default", "HTTP {status}: {text}"),
    "http.url_status": QT_TRANSLATE_NOOP("@default", "{url} answered HTTP {status}: {text}"),
    "http.cancelled": QT_TRANSLATE_NOOP("@default", "cancelled"),
    "http.cancelled_after": QT_TRANSLATE_NOOP("@default", "cancelled after: {last}"),
    "http.no_answer": QT_TRANSLATE_NOOP("@default", "no answer after {attempts} attempts: {last}"),
    "http.quota": QT_TRANSLATE_NOOP(
        "@default",
        "{host} answered HTTP 429 insufficient_quota: the account has no credit left or its "
        "quota is spent; waiting would not help (add credit or raise the quota, then Resume): "
        "{text}"),
    "http.unreachable": QT_TRANSLATE_NOOP("@default", "cannot reach {host}: {reason}"),
    "http.not_json": QT_TRANSLATE_NOOP("@default", "{url} did not answer JSON"),
    "llm.no_choices": QT_TRANSLATE_NOOP("@default", "response has no choices"),
    "llm.unknown_api": QT_TRANSLATE_NOOP("@default", "unknown api {api!r}; use one of {known}"),
    "llm.unknown_constraint": QT_TRANSLATE_NOOP(
        "@default", "unknown constraint {constraint!r}; use one of {known}"
    ),
    "llm.refused_model": QT_TRANSLATE_NOOP(
        "@default", "{refused}: check the key and access to model {model!r}. {text}"
    ),
    "llm.wrong_model": QT_TRANSLATE_NOOP(
        "@default",
        "{url} answered HTTP {status}: wrong base URL or unknown model {model!r}. {text}"),
    "llm.unsupported": QT_TRANSLATE_NOOP(
        "@default",
        "{host} rejects {what} for model {model!r} (HTTP 400; GeoBias sent {sent}): {text} {hint}"),
    "llm.param": QT_TRANSLATE_NOOP("@default", "parameter {param!r}"),
    "llm.a_param": QT_TRANSLATE_NOOP("@default", "a parameter"),
    "llm.hint_reasoning": QT_TRANSLATE_NOOP(
        "@default", "GeoBias recognised it as a reasoning model and sent only what those accept."
    ),
    "llm.hint_not_reasoning": QT_TRANSLATE_NOOP(
        "@default",
        "If this is a reasoning model (o-series, GPT-5, or an alias of one), tick 'Reasoning "
        "model' for the endpoint (Settings > Options > GeoBias; REASONING in Processing) so "
        "GeoBias sends max_completion_tokens and no temperature or logprobs."),
    "llm.no_logprobs": QT_TRANSLATE_NOOP(
        "@default", "endpoint rejects logprobs; continuing greedy"
    ),
    # Sampling (core/geo/sampling.py)
    "sampling.not_shapely": QT_TRANSLATE_NOOP(
        "@default", "region must be a shapely Polygon or MultiPolygon, got {kind}"
    ),
    "sampling.not_polygon": QT_TRANSLATE_NOOP(
        "@default", "region must be a Polygon or MultiPolygon, got a {kind}"
    ),
    "sampling.empty": QT_TRANSLATE_NOOP("@default", "region is empty"),
    "sampling.invalid": QT_TRANSLATE_NOOP(
        "@default", "region is not a valid polygon ({reason}); try make_valid"
    ),
    "sampling.latitudes": QT_TRANSLATE_NOOP(
        "@default", "region latitudes {south}..{north} are outside -90..90 (not lon/lat?)"
    ),
    "sampling.no_area": QT_TRANSLATE_NOOP("@default", "region has no area"),
    "sampling.negative_n": QT_TRANSLATE_NOOP("@default", "n must be >= 0"),
    "sampling.negative_weights": QT_TRANSLATE_NOOP("@default", "weights must be >= 0"),
    "sampling.grid_kind": QT_TRANSLATE_NOOP(
        "@default", "kind must be 'square' or 'hex', got {kind!r}"
    ),
    "sampling.n_or_spacing": QT_TRANSLATE_NOOP("@default", "give exactly one of n or spacing_km"),
    "sampling.spacing": QT_TRANSLATE_NOOP("@default", "spacing_km must be > 0"),
    # Metrics and ratings (core/stats/metrics.py, core/survey/ratings.py)
    "metrics.lengths": QT_TRANSLATE_NOOP(
        "@default", "rating and truth differ in length: {x} vs {y}"
    ),
    "metrics.xy_lengths": QT_TRANSLATE_NOOP("@default", "x and y differ in length: {x} vs {y}"),
    "metrics.cluster_lengths": QT_TRANSLATE_NOOP(
        "@default", "clusters and x differ in length: {clusters} vs {x}"
    ),
    "metrics.same_points": QT_TRANSLATE_NOOP(
        "@default", "every model needs ratings for the same points"
    ),
    "ratings.scale": QT_TRANSLATE_NOOP(
        "@default", "the scale needs its top above its bottom, got {lo}..{hi}"
    ),
    "ratings.empty_file": QT_TRANSLATE_NOOP(
        "@default", "{path}: empty file, expected a header row"
    ),
    "ratings.missing_columns": QT_TRANSLATE_NOOP(
        "@default", "{path}: missing column(s) {missing}; the file has {found}"
    ),
    "ratings.not_number": QT_TRANSLATE_NOOP(
        "@default", "{path}: row {line}, column {column!r}: {cell!r} is not a number"
    ),
    "ratings.bad_location": QT_TRANSLATE_NOOP(
        "@default", "{path}: row {line}: latitude/longitude missing or out of range"
    ),
    "cache.survey": QT_TRANSLATE_NOOP(
        "@default",
        "the survey cache {path} cannot be used ({reason}); move it away to start a new one"),
    "cache.full": QT_TRANSLATE_NOOP(
        "@default",
        "the disk under the cache {path} is full ({reason}): the cache is unchanged; free some "
        "space and run again"),
    "cache.scores": QT_TRANSLATE_NOOP(
        "@default", "the score cache {path} cannot be used ({reason})"
    ),
    # HERB (core/herb/: aggregation.py, run.py, hierarchy.py, descriptors.py)
    "herb.zero_rows": QT_TRANSLATE_NOOP("@default", "score rows {rows} are zero or not finite"),
    "herb.score_shape": QT_TRANSLATE_NOOP(
        "@default",
        "scores must be (regions, descriptors) = ({regions}, {descriptors}), got {shape}"),
    "herb.z_shape": QT_TRANSLATE_NOOP(
        "@default", "z must have one value per region ({regions}), got {shape}"
    ),
    "herb.missing_scores": QT_TRANSLATE_NOOP("@default", "{n} regions lack scores (e.g. {names})"),
    "herb.no_regions": QT_TRANSLATE_NOOP("@default", "the hierarchy has no regions"),
    "herb.no_descriptors": QT_TRANSLATE_NOOP("@default", "no descriptors"),
    "herb.failed": QT_TRANSLATE_NOOP("@default", "{n} sentences failed"),
    "herb.example": QT_TRANSLATE_NOOP("@default", " (e.g. {sentence!r}: {error})"),
    "herb.incomplete": QT_TRANSLATE_NOOP(
        "@default", "scoring incomplete: {why}{detail}; run again to resume"
    ),
    "herb.scorer_stopped": QT_TRANSLATE_NOOP("@default", "the scorer stopped working: {reason}"),
    "herb.lengths": QT_TRANSLATE_NOOP(
        "@default", "ids, names and parent must have the same length"
    ),
    "herb.parent_range": QT_TRANSLATE_NOOP("@default", "a parent row is out of range"),
    "herb.no_top_region": QT_TRANSLATE_NOOP("@default", "no top-level region named {names}"),
    "herb.no_population": QT_TRANSLATE_NOOP("@default", "this hierarchy has no populations"),
    "herb.max_bottom": QT_TRANSLATE_NOOP("@default", "max_bottom must be >= 0"),
    "herb.id_lengths": QT_TRANSLATE_NOOP(
        "@default", "ids, names and parent ids must have the same length"
    ),
    "herb.no_id": QT_TRANSLATE_NOOP("@default", "region {name!r} (row {row}) has no id"),
    "herb.duplicate_id": QT_TRANSLATE_NOOP(
        "@default", "duplicate region id {id!r} (rows {first}, {second})"
    ),
    "herb.empty_name": QT_TRANSLATE_NOOP("@default", "region {id!r} has an empty name"),
    "herb.unknown_parent": QT_TRANSLATE_NOOP(
        "@default", "region {name!r} has unknown parent id {parent!r}"
    ),
    "herb.own_parent": QT_TRANSLATE_NOOP("@default", "region {name!r} is its own parent"),
    "herb.cycle": QT_TRANSLATE_NOOP("@default", "the parent links form a cycle (rows {rows}...)"),
    "descriptors.line": QT_TRANSLATE_NOOP(
        "@default", "{where}, line {line}: expected 'topic<TAB>word', got {raw!r}"
    ),
    "descriptors.empty_line": QT_TRANSLATE_NOOP(
        "@default", "{where}, line {line}: empty word or topic in {raw!r}"
    ),
    "descriptors.braces": QT_TRANSLATE_NOOP(
        "@default", "{where}, line {line}: braces or line breaks in word {word!r}"
    ),
    "descriptors.none": QT_TRANSLATE_NOOP("@default", "{where} has no descriptors"),
    "descriptors.unreadable": QT_TRANSLATE_NOOP(
        "@default", "cannot read descriptor list {path}: {reason}"
    ),
    "descriptors.empty_template": QT_TRANSLATE_NOOP("@default", "the sentence template is empty"),
    "descriptors.malformed": QT_TRANSLATE_NOOP(
        "@default",
        "malformed template {template!r}: {reason} (double a literal brace: {{{{, }}}})"),
    "descriptors.unknown_field": QT_TRANSLATE_NOOP(
        "@default",
        "unknown field {{{field}}} in template {template!r}; use {{region}} and {{descriptor}}"),
    "descriptors.field_once": QT_TRANSLATE_NOOP(
        "@default", "template {template!r} must contain {{{field}}} exactly once"
    ),
    "descriptors.no_specs": QT_TRANSLATE_NOOP(
        "@default", "template {template!r}: no format specs or conversions allowed"
    ),
    "descriptors.empty_region": QT_TRANSLATE_NOOP("@default", "a region has an empty name"),
    "descriptors.long_region": QT_TRANSLATE_NOOP(
        "@default", "region name too long ({n} characters): {start}..."
    ),
    # Scorers (core/herb/scorers.py)
    "scorer.no_model_file": QT_TRANSLATE_NOOP(
        "@default", "{root}/props names no model file; is this a llama.cpp server?"
    ),
    "scorer.no_bos": QT_TRANSLATE_NOOP(
        "@default", "the server reports no BOS token; pass bos_id= explicitly"
    ),
    "scorer.bos_tokens": QT_TRANSLATE_NOOP(
        "@default", "BOS token {text!r} is not a single token ({tokens}); pass bos_id="
    ),
    "scorer.no_tokens": QT_TRANSLATE_NOOP("@default", "/tokenize answered without tokens"),
    "scorer.too_old": QT_TRANSLATE_NOOP(
        "@default",
        "this llama.cpp server returns no completion_probabilities[].logprob; it is too old for "
        "forced decoding"),
    "scorer.token_mismatch": QT_TRANSLATE_NOOP(
        "@default", "token {i} came out as {got} instead of {token}"
    ),
    "scorer.choices": QT_TRANSLATE_NOOP("@default", "{n} choices for {m} prompts"),
    "scorer.mlm_packages": QT_TRANSLATE_NOOP(
        "@default", "masked language models need torch and transformers: {install}"
    ),
    "scorer.mlm_load": QT_TRANSLATE_NOOP(
        "@default", "cannot load a masked LM from {path}: {reason}"
    ),
    "scorer.mlm_tokenizer": QT_TRANSLATE_NOOP("@default", "a model object needs its tokenizer"),
    "scorer.mlm_python": QT_TRANSLATE_NOOP(
        "@default",
        "masked language models need torch and transformers in a Python GeoBias can run (QGIS's "
        "own, or a venv at {venv}): {install} ({reason})"),
    "scorer.mlm_start": QT_TRANSLATE_NOOP(
        "@default", "the masked-LM process ({python}) did not start: {reason}"
    ),
    "scorer.mlm_timeout": QT_TRANSLATE_NOOP(
        "@default", "the masked-LM process gave no answer in {seconds:.0f} s; stopped it"
    ),
    "scorer.mlm_exited": QT_TRANSLATE_NOOP(
        "@default", "the masked-LM process exited (code {code}): {tail}"
    ),
    "scorer.mlm_stopped": QT_TRANSLATE_NOOP("@default", "the masked-LM process is stopped"),
    "scorer.mlm_gone": QT_TRANSLATE_NOOP(
        "@default", "the masked-LM process is gone ({reason}): {tail}"
    ),
    "scorer.mlm_reply": QT_TRANSLATE_NOOP("@default", "the masked-LM process: {reply}"),
    "scorer.mlm_count": QT_TRANSLATE_NOOP("@default", "the masked-LM process scored {n} of {m}"),
    # Prompts, topics, hot spots, spatial weights, comparison, batch files (core/survey/prompts.py,
    # ...)
    "prompts.malformed": QT_TRANSLATE_NOOP(
        "@default",
        "malformed format string in {where}: {reason} (double a literal brace: {{{{, }}}})"),
    "prompts.positional": QT_TRANSLATE_NOOP(
        "@default",
        "positional placeholder {{{field}}} in {where}; use a name from {known}"),
    "prompts.unknown": QT_TRANSLATE_NOOP(
        "@default",
        "unknown placeholder {{{field}}} in {where}; allowed: {known}"),
    "prompts.nested": QT_TRANSLATE_NOOP(
        "@default",
        "nested placeholder in the format spec of {{{field}}}"),
    "prompts.no_name": QT_TRANSLATE_NOOP("@default", "a prompt template needs a non-empty name"),
    "prompts.not_text": QT_TRANSLATE_NOOP("@default", "template {name!r}: {part} must be text"),
    "prompts.prefix_of": QT_TRANSLATE_NOOP("@default", "the prefix of {name!r}"),
    "prompts.body_of": QT_TRANSLATE_NOOP("@default", "the body of {name!r}"),
    "prompts.missing": QT_TRANSLATE_NOOP(
        "@default",
        "template {name!r} lacks the required placeholder {fields}"),
    "prompts.render": QT_TRANSLATE_NOOP(
        "@default",
        "template {name!r} cannot be rendered: {reason}"),
    "prompts.not_object": QT_TRANSLATE_NOOP(
        "@default",
        "a saved template must be an object, got {kind}"),
    "prompts.saved_lacks": QT_TRANSLATE_NOOP("@default", "saved template lacks {keys}"),
    "prompts.saved_unknown": QT_TRANSLATE_NOOP(
        "@default",
        "saved template has unknown keys {keys}"),
    "prompts.saved_json": QT_TRANSLATE_NOOP(
        "@default",
        "saved template is not valid JSON: {reason}"),
    "prompts.no_preset": QT_TRANSLATE_NOOP(
        "@default",
        "no prompt preset {name!r}; available: {known}"),
    "prompts.gazetteer": QT_TRANSLATE_NOOP(
        "@default",
        "template {name!r} needs a gazetteer for address/nearby places"),
    "hotspots.finite": QT_TRANSLATE_NOOP(
        "@default",
        "every unit needs a finite value (leave the others out)"),
    "hotspots.constant": QT_TRANSLATE_NOOP(
        "@default",
        "the values are constant: there is nothing to cluster"),
    "hotspots.count": QT_TRANSLATE_NOOP("@default", "{n} values for {units} units"),
    "hotspots.three": QT_TRANSLATE_NOOP("@default", "local statistics need at least 3 units"),
    "hotspots.no_neighbour": QT_TRANSLATE_NOOP("@default", "no unit has a neighbour"),
    "weights.finite": QT_TRANSLATE_NOOP("@default", "every unit needs finite coordinates"),
    "weights.k": QT_TRANSLATE_NOOP("@default", "k must be at least 1"),
    "weights.too_few": QT_TRANSLATE_NOOP(
        "@default",
        "{k} nearest neighbours need more than {k} units (have {n})"),
    "weights.band": QT_TRANSLATE_NOOP("@default", "the distance band must be longer than 0 km"),
    "weights.direction": QT_TRANSLATE_NOOP("@default", "the points have no mean direction"),
    "compare.twice": QT_TRANSLATE_NOOP(
        "@default",
        "model {model!r} has two results for topic {topic!r}"),
    "compare.none": QT_TRANSLATE_NOOP("@default", "no model to compare"),
    "compare.no_base": QT_TRANSLATE_NOOP("@default", "no column {base!r} to take the change from"),
    "batch.caps": QT_TRANSLATE_NOOP("@default", "max_requests and max_bytes must be positive"),
    "batch.too_big": QT_TRANSLATE_NOOP("@default", "one request is {n} bytes, over the {cap} cap"),
    "batch.not_jsonl": QT_TRANSLATE_NOOP(
        "@default", "{path} is not JSON Lines; expected {expected}."),
    "batch.line_not_json": QT_TRANSLATE_NOOP(
        "@default", "{path}:{line}: not JSON; expected {expected}."),
    "batch.not_text": QT_TRANSLATE_NOOP(
        "@default", "{path} is not a text file; expected {expected}."),
    "batch.empty": QT_TRANSLATE_NOOP("@default", "{path} is empty; expected {expected}."),
    "batch.not_output": QT_TRANSLATE_NOOP("@default", "{where} is {what}; expected {expected}."),
    # Provider batch APIs (core/batch)
    "batchapi.unsupported": QT_TRANSLATE_NOOP(
        "@default",
        "a {provider} batch cannot carry this request's {fields}: choose the endpoint's "
        "settings the provider's batch format takes (no grammar or regex constraint; "
        "Anthropic and Mistral give no log-probabilities)"),
    "batchapi.unknown_provider": QT_TRANSLATE_NOOP(
        "@default", "no batch API for provider {provider!r}; use one of {known}"),
    "batchapi.no_upload_url": QT_TRANSLATE_NOOP(
        "@default", "{host} started no upload (no X-Goog-Upload-URL header)"),
    "regions.no_area": QT_TRANSLATE_NOOP("@default", "the region has no area in lon/lat"),
    "topics.empty": QT_TRANSLATE_NOOP("@default", "a topic needs a non-empty name"),
    "topics.spaces": QT_TRANSLATE_NOOP(
        "@default",
        "topic name has leading/trailing spaces: {name!r}"),
    "topics.one_line": QT_TRANSLATE_NOOP("@default", "topic name must be one line: {name!r}"),
    "topics.kind": QT_TRANSLATE_NOOP(
        "@default",
        "unknown topic kind {kind!r}; expected one of {known}"),
    "probes.needs": QT_TRANSLATE_NOOP("@default", "the choice template needs {name}"),
    "sampling.candidates": QT_TRANSLATE_NOOP(
        "@default",
        "candidates must be an (m, 2) array of lon/lat"),
    "sampling.weights_shape": QT_TRANSLATE_NOOP(
        "@default",
        "weights must be an (m,) array matching candidates"),
    "sampling.oversample": QT_TRANSLATE_NOOP("@default", "n must be >= 0 and oversample >= 1"),
}
# fmt: on


class Message:
    """A user-facing sentence: a template id in `MESSAGES` and the values of its fields."""

    __slots__ = ("id", "values")

    def __init__(self, id, /, **values):  # noqa: A002 (a message id)
        if id not in MESSAGES:
            raise KeyError(f"no core message {id!r}")
        self.id = id
        # An exception as a value keeps its message (or text), not the exception: its traceback
        # would hold frames, sockets and pools alive as long as the error is kept.
        self.values = {
            k: (message_of(v) or str(v)) if isinstance(v, BaseException) else v
            for k, v in values.items()
        }

    @property
    def template(self):
        return MESSAGES[self.id]

    def __str__(self):
        return self.template.format(**self.values)

    def __repr__(self):
        # As the English text's: str(KeyError(message)) is the repr of its argument, and logs
        # and tests read exceptions' reprs as they did when core raised plain text.
        return repr(str(self))


def message_of(error):
    """The `Message` an exception was raised with (its first argument), or None."""
    if isinstance(error, Message):
        return error
    args = getattr(error, "args", None)
    if args and isinstance(args[0], Message):
        return args[0]
    return None
