"""Sentence scorers for HERB: s(sentence) = mean log-probability of the sentence's own tokens.

Every scorer applies the same rule (docs/design.md, HERB): each token of the sentence is scored
given everything before it from the model's beginning-of-sequence token (causal LMs), or given
the whole unmasked sentence (masked LMs, the all-unmasked likelihood AUL); special tokens and
padding are never scored. Three kinds:

- `LlamaCppScorer`: any llama.cpp server, the embedded one included, by forced decoding;
- `EchoCompletionsScorer`: OpenAI-compatible `/v1/completions` with `echo` + `logprobs` (vLLM);
- `MaskedLMScorer`: BERT-like masked LMs via transformers + torch (optional), in the process
  that makes it; `ChildMaskedLMScorer` runs it in a child process (core/herb/mlm_worker.py), which
  is how QGIS uses it: torch is native code and must not share QGIS's process.

A scorer scores a batch of sentences and returns one `Scored` per sentence, each a score or an
error; a failed sentence never stops the others.
"""

from __future__ import annotations

import json
import math
import os
import queue
import subprocess
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..messages import Message, message_of

# .http_client and .llm (which need urllib3 and requests) are imported where the HTTP scorers use
# them: the masked-LM child process (core/herb/mlm_worker.py) loads this module with only torch +
# transformers.
if TYPE_CHECKING:
    from ..engine.chat import Endpoint

__all__ = [
    "LOGIT_BIAS",
    "MLM_INSTALL",
    "RULE_AUL",
    "RULE_AUL_PADDED",
    "RULE_CAUSAL",
    "ChildMaskedLMScorer",
    "EchoCompletionsScorer",
    "LlamaCppScorer",
    "MaskedLMScorer",
    "Scored",
    "ScorerError",
    "SentenceScorer",
]

RULE_CAUSAL = "mean-logprob-from-bos"  # causal LMs: tokens after BOS, each given its prefix
RULE_AUL = "aul"  # masked LMs: all-unmasked likelihood, special tokens and padding excluded
RULE_AUL_PADDED = "aul-reference-padding"  # the reference code's mean over padded positions
MLM_INSTALL = "pip install torch==2.13.0 transformers (see requirements-mlm.txt)"
LOGIT_BIAS = 100  # forces the sentence's tokens without changing the returned raw log-probs


class ScorerError(RuntimeError):
    """A scorer that cannot work at all (unreachable server, missing package, no BOS token)."""


@dataclass
class Scored:
    """One sentence's outcome: its score and number of scored tokens, or an error message."""

    sentence: str
    score: float = math.nan
    n_tokens: int = 0
    error: str = ""


def gguf_identity(path: str) -> tuple[str, str]:
    """(identity, older identity) of a GGUF's scores: its file name and, when the file can be
    read here, its SHA-256's first 16 digits, so two files of one name never share a score.
    The older identity (the name alone) is what caches made before held."""
    from ..runtime.manifest import file_sha256

    legacy = "gguf:" + os.path.basename(path)
    try:
        return f"{legacy}@{file_sha256(path)[:16]}", legacy
    except OSError:  # a remote server's file: its name is all GeoBias sees
        return legacy, ""


class SentenceScorer:
    """Interface: `score_batch(sentences) -> list[Scored]`, plus what the cache key needs.

    kind: scorer family; identity: the model (not the port or process) so re-runs find cached
    scores; rule: the scoring rule. concurrency: batches in flight at once; batch_size:
    sentences per batch; requests_per_sentence: for the estimate before a run.
    is_cancelled: set by the runner for a run (core/herb/run.py); the HTTP scorers poll it while
    they wait to retry, so a cancel or a stopped run ends their waits.
    """

    kind = "abstract"
    rule = RULE_CAUSAL
    identity = ""
    legacy_identity = ""  # the identity before it held the model file's checksum (adopted)
    concurrency = 1
    batch_size = 16
    requests_per_sentence = 1.0
    needs_region_batches = False  # True: a batch must be exactly one region's sentences
    is_cancelled: Callable[[], bool] | None = None

    def score_batch(self, sentences: list[str]) -> list[Scored]:
        raise NotImplementedError

    def watch(self, policy) -> None:
        """Tell the run's failure policy (engine.FailureStreak; None: none) about every HTTP
        attempt, so a broken server stops the run early (scorers without HTTP ignore it)."""
        http = getattr(self, "http", None)
        if isinstance(http, _Http):
            http.client.watch = policy

    def close(self) -> None:
        """Release connections or memory."""


def _mean(logprobs: list[float]) -> float:
    return float(sum(logprobs) / len(logprobs))


class _Http:
    """The shared HTTP client (core/engine/http_client.py) for a scorer: its errors as ScorerError,
    its waits cut short by the scorer's `is_cancelled`."""

    def __init__(self, owner: SentenceScorer, endpoint: Endpoint, url: str):
        from ..engine.http_client import HttpClient

        self.owner = owner
        self.client = HttpClient.from_endpoint(endpoint, url)

    @property
    def n_requests(self) -> int:
        """Requests sent (each retry counts)."""
        return self.client.n_requests

    def _cancelled(self) -> bool:
        check = self.owner.is_cancelled
        return check is not None and bool(check())

    def post(self, url: str, body: dict) -> dict:
        from ..engine.http_client import EndpointError, RequestError

        try:
            return self.client.post_json(url, body, self._cancelled)
        except (EndpointError, RequestError) as e:
            raise ScorerError(message_of(e) or str(e)) from e

    def get(self, url: str) -> dict:
        from ..engine.http_client import EndpointError

        try:
            return self.client.get_json(url)
        except EndpointError as e:
            raise ScorerError(message_of(e) or str(e)) from e

    def close(self) -> None:
        self.client.close()


class LlamaCppScorer(SentenceScorer):
    """Forced decoding on a llama.cpp server (its prompt log-probs are not exposed).

    POST /completion with the BOS token as the prompt, a grammar that allows exactly the
    sentence's tokens (token-id literals `<[id]>` where the server knows them, else the text),
    logit_bias +100 on those tokens, temperature 0, n_probs 1 and n_predict = the number of
    tokens: each returned `logprob` is the model's raw log-probability of the forced token. Every
    returned token id is checked; a sentence whose tokens came out differently (a text grammar
    lets " in" win where " intelligent" was meant) is redone one request per token, and a
    mismatch there is an error for that sentence, never a score. Consecutive sentences sharing
    their first tokens (one region's "People in Paris are") have those forced once; each then
    forces only its tail after them (`share_prefix`): the same log-probabilities, less work.
    """

    kind = "llamacpp"
    rule = RULE_CAUSAL

    def __init__(
        self,
        endpoint: Endpoint | str,
        api_key: str | None = None,
        concurrency: int | None = None,
        batch_size: int = 16,
        timeout: float | None = None,
        max_retries: int | None = None,
        bos_id: int | None = None,
        token_grammar: bool | None = None,
        share_prefix: bool = True,
    ):
        """
        Parameters
        ----------
        endpoint : Endpoint or str
            The server's connection settings (base URL with or without /v1, API key, proxy,
            certificate authorities, concurrency, timeout, retries), through which whoever makes
            the scorer applies QGIS's network settings. A bare URL stands for an Endpoint with
            that URL, concurrency 2, a 120 s timeout and the system's proxy settings.
        api_key, concurrency, timeout, max_retries : optional
            Replace the endpoint's.
        batch_size : int
            Sentences per batch (one /tokenize request each).
        bos_id : int, optional
            The BOS token's id; default asked from the server.
        token_grammar : bool, optional
            Whether the server's grammars know token ids; default probed with one request.
        share_prefix : bool
            Force a shared token prefix once for consecutive sentences.
        """
        from ..engine.chat import Endpoint, normalise_base_url

        if isinstance(endpoint, str):
            endpoint = Endpoint(endpoint, "", concurrency=2, timeout=120.0)
        changes = {"api_key": api_key, "concurrency": concurrency, "timeout": timeout,
                   "max_retries": max_retries}  # fmt: skip
        endpoint = replace(endpoint, **{k: v for k, v in changes.items() if v is not None})
        root = normalise_base_url(endpoint.base_url)
        self.root = root[:-3] if root.endswith("/v1") else root
        self.endpoint = endpoint
        self.concurrency = max(1, int(endpoint.concurrency))
        self.batch_size = max(1, int(batch_size))
        self.http = _Http(self, endpoint, self.root)
        props = self.http.get(self.root + "/props")
        path = props.get("model_path") or ""
        if not path:
            raise ScorerError(Message("scorer.no_model_file", root=self.root))
        # The model file, not the host or port: the embedded server gets a new port every run.
        self.identity, self.legacy_identity = gguf_identity(path)
        self.bos_id = bos_id if bos_id is not None else self._bos_id(props)
        self.token_grammar = self._probe_token_grammar() if token_grammar is None else token_grammar
        self.share_prefix = share_prefix
        self.min_shared_prefix = 3
        self.n_fallback_sentences = 0
        self._prefixes: dict[tuple[int, ...], list[float]] = {}
        self._lock = threading.Lock()

    @classmethod
    def from_endpoint(cls, endpoint: Endpoint, **kwargs) -> LlamaCppScorer:
        """A scorer for the server behind an Endpoint (e.g. `EmbeddedServer.endpoint()`);
        `kwargs` as the constructor's."""
        return cls(endpoint, **kwargs)

    def _bos_id(self, props: dict) -> int:
        text = props.get("bos_token")
        if not text:
            raise ScorerError(Message("scorer.no_bos"))
        out = self.http.post(
            self.root + "/tokenize",
            {"content": text, "add_special": False, "parse_special": True},
        )
        toks = out.get("tokens") or []
        if len(toks) != 1:
            raise ScorerError(Message("scorer.bos_tokens", text=text, tokens=toks))
        return int(toks[0])

    def _probe_token_grammar(self) -> bool:
        """Does the server's GBNF know token-id literals (<[id]>)? Probed with one request."""
        toks = self._tokenize_one("People")
        try:
            out = self.http.post(self.root + "/completion", self._body(toks, True))
            return [t for t, _ in self._returned(out)] == toks
        except ScorerError:
            return False

    def tokenize_many(self, sentences: list[str]) -> list[list[int]]:
        """Token ids of each sentence (no special tokens) in one /tokenize request.

        llama.cpp tokenises each string of a mixed list on its own and keeps integers as token
        ids, so the BOS id separates the sentences (plain text never yields a special token).
        """
        content: list = []
        for i, s in enumerate(sentences):
            if i:
                content.append(self.bos_id)
            content.append(s)
        out = self.http.post(
            self.root + "/tokenize", {"content": content, "add_special": False}
        ).get("tokens")
        if not isinstance(out, list):
            raise ScorerError(Message("scorer.no_tokens"))
        pieces: list[list[int]] = [[]]
        for t in out:
            t = t["id"] if isinstance(t, dict) else int(t)
            if t == self.bos_id:
                pieces.append([])
            else:
                pieces[-1].append(t)
        if len(pieces) != len(sentences):  # e.g. an old server that reads lists differently
            pieces = [self._tokenize_one(s) for s in sentences]
        return pieces

    def _tokenize_one(self, sentence: str) -> list[int]:
        out = self.http.post(self.root + "/tokenize", {"content": sentence, "add_special": False})
        return [t["id"] if isinstance(t, dict) else int(t) for t in out.get("tokens", [])]

    def _body(self, tokens: list[int], token_grammar: bool, prefix: list[int] = ()) -> dict:
        """The forced-decoding request for `tokens` after BOS + `prefix`."""
        body = {
            "prompt": [self.bos_id, *prefix],
            "n_predict": len(tokens),
            "n_probs": 1,
            "temperature": 0,
            "logit_bias": [[t, LOGIT_BIAS] for t in dict.fromkeys(tokens)],
            "cache_prompt": True,
        }
        if token_grammar:
            body["grammar"] = "root ::= " + " ".join(f"<[{t}]>" for t in tokens)
        return body

    def _text_grammar(self, body: dict, text: str) -> dict:
        lit = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        body["grammar"] = f'root ::= "{lit}"'
        return body

    @staticmethod
    def _returned(out: dict) -> list[tuple[int, float]]:
        probs = out.get("completion_probabilities")
        if not isinstance(probs, list) or (probs and "logprob" not in probs[0]):
            raise ScorerError(Message("scorer.too_old"))
        return [(int(p["id"]), float(p["logprob"])) for p in probs]

    def _one_by_one(self, tokens: list[int]) -> list[float]:
        """One request per token: only that token is biased, so nothing else can win."""
        out = []
        for i, t in enumerate(tokens):
            body = self._body([t], self.token_grammar, prefix=tokens[:i])
            got = self._returned(self.http.post(self.root + "/completion", body))
            if len(got) != 1 or got[0][0] != t:
                raise ScorerError(Message("scorer.token_mismatch", i=i, got=got[:1], token=t))
            out.append(got[0][1])
        return out

    def prefix_logprobs(self, prefix: tuple[int, ...]) -> list[float]:
        """Forced log-probabilities of a shared token prefix (remembered per scorer)."""
        with self._lock:
            known = self._prefixes.get(prefix)
        if known is None:
            known = self._one_request(list(prefix), [])
            with self._lock:
                if len(self._prefixes) > 10000:
                    self._prefixes.clear()
                self._prefixes[prefix] = known
        return known

    def _one_request(self, tokens: list[int], prefix: list[int], text: str = "") -> list[float]:
        """Force `tokens` after BOS + `prefix` in one request; None if the ids came out wrong."""
        body = self._body(tokens, self.token_grammar, prefix=prefix)
        if not self.token_grammar:
            body = self._text_grammar(body, text)
        got = self._returned(self.http.post(self.root + "/completion", body))
        if [t for t, _ in got] == list(tokens):
            return [lp for _, lp in got]
        return None

    def score_batch(self, sentences: list[str]) -> list[Scored]:
        """Score a batch; sentences sharing a token prefix (one region's) share its request."""
        token_lists = self.tokenize_many(sentences)
        out = []
        for group in _prefix_groups(
            token_lists, self.min_shared_prefix if self.share_prefix else 0
        ):
            shared = _common_prefix([token_lists[i] for i in group]) if len(group) > 1 else ()
            for i in group:
                s, toks = sentences[i], token_lists[i]
                if not toks:
                    out.append((i, Scored(s, error="the sentence has no tokens")))
                    continue
                try:
                    lps = self._score_tokens(s, toks, shared)
                except ScorerError as e:
                    out.append((i, Scored(s, error=str(e))))
                    continue
                out.append((i, Scored(s, _mean(lps), len(lps))))
        return [r for _, r in sorted(out, key=lambda x: x[0])]

    def _score_tokens(self, sentence: str, toks: list[int], shared: tuple[int, ...]) -> list[float]:
        if shared and len(shared) < len(toks) and self.token_grammar:
            head = self.prefix_logprobs(shared)
            tail = self._one_request(toks[len(shared) :], list(shared))
            if head is not None and tail is not None:
                return head + tail
        else:
            whole = self._one_request(toks, [], sentence)
            if whole is not None:
                return whole
        with self._lock:
            self.n_fallback_sentences += 1
        return self._one_by_one(toks)

    def close(self) -> None:
        self.http.close()


def _common_prefix(token_lists: list[list[int]]) -> tuple[int, ...]:
    """The longest token prefix all lists share."""
    first = token_lists[0]
    n = min(len(t) for t in token_lists)
    for t in token_lists[1:]:
        k = 0
        while k < n and t[k] == first[k]:
            k += 1
        n = k
    return tuple(first[:n])


def _prefix_groups(token_lists: list[list[int]], min_shared: int) -> list[list[int]]:
    """Consecutive sentences that share at least `min_shared` leading tokens, as groups."""
    groups: list[list[int]] = []
    prefix: list[int] = []
    for i, toks in enumerate(token_lists):
        if groups and min_shared:
            k = 0
            while k < min(len(prefix), len(toks)) and prefix[k] == toks[k]:
                k += 1
            if k >= min_shared:
                groups[-1].append(i)
                prefix = prefix[:k]
                continue
        groups.append([i])
        prefix = list(toks)
    return groups


class EchoCompletionsScorer(SentenceScorer):
    """OpenAI-compatible `/v1/completions` with `echo: true` and `logprobs` (vLLM and others).

    The answer lists the prompt's tokens with their log-probabilities, the first one null (it has
    no context). The server must start the prompt with a BOS token of its own (Llama-style
    tokenisers do), or `bos_text` gives the BOS token's text to put first; either way only the
    sentence's tokens are scored. Tokens are aligned to the sentence by their text; a sentence
    whose token texts do not spell it exactly is an error, never a guess.
    """

    kind = "openai-echo"
    rule = RULE_CAUSAL

    def __init__(self, endpoint: Endpoint, bos_text: str = "", batch_size: int = 8):
        from ..engine.chat import normalise_base_url

        self.endpoint = endpoint
        self.url = normalise_base_url(endpoint.base_url) + "/completions"
        self.bos_text = bos_text
        self.concurrency = max(1, endpoint.concurrency)
        self.batch_size = max(1, batch_size)
        self.requests_per_sentence = 1.0 / self.batch_size
        base = "embedded://local" if endpoint.provider == "embedded" else endpoint.base_url
        self.identity = f"{normalise_base_url(base)}|{endpoint.model}|bos={bos_text}"
        self.http = _Http(self, endpoint, normalise_base_url(endpoint.base_url))

    @classmethod
    def from_endpoint(cls, endpoint: Endpoint, **kwargs) -> EchoCompletionsScorer:
        """A scorer for the server behind an Endpoint; `kwargs` as the constructor's."""
        return cls(endpoint, **kwargs)

    def request_body(self, sentences: list[str]) -> dict:
        return {
            "model": self.endpoint.model,
            "prompt": [self.bos_text + s for s in sentences],
            "echo": True,
            "logprobs": 1,
            "max_tokens": 1,
            "temperature": 0,
        }

    def align(self, sentence: str, logprobs: dict) -> list[float]:
        """Log-probabilities of the sentence's own tokens in one choice's `logprobs`."""
        tokens = logprobs.get("tokens") or []
        values = logprobs.get("token_logprobs") or []
        if len(tokens) != len(values) or len(tokens) < 2:
            raise ValueError("echo answer without prompt tokens (does the server support echo?)")
        if values[0] is not None:
            raise ValueError("the first echoed token has a log-probability: not an echo answer")
        # The prompt is bos_text + sentence + one generated token; find the sentence's tokens
        # (start 0 last: an empty BOS text would otherwise hide the server's BOS token).
        for start in [*range(1, len(tokens)), 0]:
            text, end = "", start
            for end in range(start, len(tokens)):
                text += tokens[end]
                if len(text) >= len(sentence):
                    break
            if text != sentence or not "".join(tokens[:start]).endswith(self.bos_text):
                continue
            if start == 0:
                raise ValueError(
                    "the server adds no BOS token, so the first token has no score; set "
                    "bos_text to the model's BOS token text"
                )
            lps = values[start : end + 1]
            if any(v is None for v in lps):
                raise ValueError("a sentence token has no log-probability")
            return [float(v) for v in lps]
        raise ValueError("the echoed tokens do not spell the sentence (cannot align them)")

    def score_batch(self, sentences: list[str]) -> list[Scored]:
        out = self.http.post(self.url, self.request_body(sentences))
        choices = sorted(out.get("choices") or [], key=lambda c: c.get("index", 0))
        if len(choices) != len(sentences):
            raise ScorerError(Message("scorer.choices", n=len(choices), m=len(sentences)))
        results = []
        for s, choice in zip(sentences, choices):
            try:
                lps = self.align(s, choice.get("logprobs") or {})
            except ValueError as e:
                results.append(Scored(s, error=str(e)))
                continue
            results.append(Scored(s, _mean(lps), len(lps)))
        return results

    def close(self) -> None:
        self.http.close()


class MaskedLMScorer(SentenceScorer):
    """All-unmasked likelihood (AUL, Kaneko & Bollegala 2022) of a masked LM, in this process.

    AUL = mean over the sentence's tokens of log P(token | the whole sentence, nothing masked),
    special tokens ([CLS], [SEP], <s>, </s>) and padding excluded. `reference_padding=True`
    reproduces the HERB reference code instead: the mean over every position of the padded
    batch but the first and last, pads included, with one region's sentences as the batch.
    torch and transformers are imported only here, and only when such a scorer is made.
    """

    kind = "mlm"

    def __init__(
        self,
        model,
        tokenizer=None,
        identity: str | None = None,
        batch_size: int = 32,
        reference_padding: bool = False,
        threads: int | None = None,
    ):
        try:
            import torch
            import transformers
        except ImportError as e:
            raise ScorerError(Message("scorer.mlm_packages", install=MLM_INSTALL)) from e
        self._torch = torch
        if threads:
            torch.set_num_threads(threads)
        if isinstance(model, str):
            path = model
            try:
                model = transformers.AutoModelForMaskedLM.from_pretrained(
                    path, local_files_only=True
                )
                tokenizer = tokenizer or transformers.AutoTokenizer.from_pretrained(
                    path, local_files_only=True
                )
            except (OSError, ValueError) as e:
                raise ScorerError(Message("scorer.mlm_load", path=path, reason=e)) from e
            identity = identity or os.path.abspath(path)
        if tokenizer is None:
            raise ScorerError(Message("scorer.mlm_tokenizer"))
        self.model = model.eval()
        self.tokenizer = tokenizer
        self.identity = identity or str(getattr(model.config, "_name_or_path", "")) or "mlm"
        self.batch_size = max(1, int(batch_size))
        self.reference_padding = reference_padding
        self.rule = RULE_AUL_PADDED if reference_padding else RULE_AUL
        self.needs_region_batches = reference_padding
        self.requests_per_sentence = 0.0

    def token_logprobs(self, sentences: list[str]):
        """(log P of each input token, input ids, mask of the positions AUL scores)."""
        torch = self._torch
        enc = self.tokenizer(
            list(sentences),
            padding=True,
            return_tensors="pt",
            return_special_tokens_mask=True,
        )
        ids = enc["input_ids"]
        with torch.no_grad():
            logits = self.model(input_ids=ids, attention_mask=enc["attention_mask"]).logits
        lp = torch.log_softmax(logits.float(), dim=-1).gather(-1, ids.unsqueeze(-1)).squeeze(-1)
        scored = enc["attention_mask"].bool() & ~enc["special_tokens_mask"].bool()
        return lp, ids, scored

    def score_batch(self, sentences: list[str]) -> list[Scored]:
        lp, _ids, scored = self.token_logprobs(sentences)
        out = []
        for i, s in enumerate(sentences):
            if self.reference_padding:
                row = lp[i, 1:-1]
                out.append(Scored(s, float(row.mean()), int(row.numel())))
                continue
            n = int(scored[i].sum())
            if n == 0:
                out.append(Scored(s, error="the sentence has no tokens"))
                continue
            out.append(Scored(s, float(lp[i][scored[i]].sum()) / n, n))
        return out


class ChildMaskedLMScorer(SentenceScorer):
    """MaskedLMScorer in a child process (core/herb/mlm_worker.py), for callers inside QGIS.

    The same kind, identity and rule as MaskedLMScorer, so both find the same cached scores, and
    the same scores (JSON carries every float exactly). The child's Python is the first of
    core/runtime/embedded.py's candidates (`python` first: the Options setting) that has torch and
    transformers, asked without importing them here. A child that cannot start, load the model
    or answer is a ScorerError, never a hang: each answer is awaited at most `timeout` seconds.
    """

    kind = "mlm"
    requests_per_sentence = 0.0

    def __init__(
        self,
        model: str,
        batch_size: int = 32,
        reference_padding: bool = False,
        threads: int | None = None,
        python: str | None = None,
        timeout: float = 600.0,
    ):
        from ..runtime import embedded

        try:
            self.python = embedded.find_python_with(["torch", "transformers"], python)
        except embedded.EmbeddedError as e:
            raise ScorerError(
                Message("scorer.mlm_python", venv=embedded.USER_VENV, install=MLM_INSTALL, reason=e)
            ) from e
        self.batch_size = max(1, int(batch_size))
        self.timeout = timeout
        self._lock = threading.Lock()
        self._next_id = 0
        worker = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mlm_worker.py")
        cmd = [self.python, worker, "--model", model, "--parent-pid", str(os.getpid())]
        cmd += ["--threads", str(threads)] if threads else []
        cmd += ["--reference-padding"] if reference_padding else []
        self._log = tempfile.NamedTemporaryFile(prefix="geobias-mlm-", suffix=".log", delete=False)
        try:
            # stdin is a pipe only the child reads: when this process dies the system closes
            # it and the child exits. The child inherits the working folder, so a relative
            # model folder names the same absolute path (the identity) as in process.
            self._proc = subprocess.Popen(
                cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log,
                env=embedded.child_env(self.python), creationflags=embedded._no_window(),
                text=True, encoding="utf-8", bufsize=1,
            )  # fmt: skip
        except OSError as e:
            self.close()
            raise ScorerError(Message("scorer.mlm_start", python=self.python, reason=e)) from e
        self._lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True, name="geobias-mlm-reader").start()
        first = self._receive()
        if "ready" not in first:
            self.close()
            raise ScorerError(str(first.get("error") or first))
        info = first["ready"]
        self.identity = info["identity"]
        self.rule = info["rule"]
        self.needs_region_batches = bool(info["needs_region_batches"])
        self.versions = {k: info.get(k) for k in ("python", "torch", "transformers")}

    def _read(self) -> None:
        """Queue the child's lines; None when its stdout closes (it exited)."""
        proc = self._proc
        try:
            for line in proc.stdout:
                self._lines.put(line)
        except (OSError, ValueError):
            pass
        self._lines.put(None)

    def _receive(self) -> dict:
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            self.close(wait=0)  # a hung child gets no grace
            raise ScorerError(Message("scorer.mlm_timeout", seconds=self.timeout)) from None
        if line is None:
            proc, tail = self._proc, self._log_tail()
            self.close()
            code = proc.returncode if proc is not None else None
            raise ScorerError(Message("scorer.mlm_exited", code=code, tail=tail))
        try:
            return json.loads(line)
        except ValueError:
            return {
                "error": f"the masked-LM process answered something that is not JSON: {line[:200]}"
            }

    def _log_tail(self) -> str:
        from ..runtime.embedded import log_tail

        return log_tail(self._log.name) if self._log is not None else "no output"

    def score_batch(self, sentences: list[str]) -> list[Scored]:
        with self._lock:
            if self._proc is None:
                raise ScorerError(Message("scorer.mlm_stopped"))
            self._next_id += 1
            rid = self._next_id
            try:
                self._proc.stdin.write(json.dumps({"id": rid, "sentences": list(sentences)}) + "\n")
                self._proc.stdin.flush()
            except (OSError, ValueError) as e:
                tail = self._log_tail()
                self.close()
                raise ScorerError(Message("scorer.mlm_gone", reason=e, tail=tail)) from e
            reply = self._receive()
        if reply.get("id") != rid or "scored" not in reply:
            raise ScorerError(Message("scorer.mlm_reply", reply=reply.get("error") or reply))
        rows = reply["scored"]
        if len(rows) != len(sentences):
            raise ScorerError(Message("scorer.mlm_count", n=len(rows), m=len(sentences)))
        return [Scored(s, float(v), int(n), str(err)) for s, (v, n, err) in zip(sentences, rows)]

    @property
    def pid(self) -> int | None:
        """The child's process id while it runs."""
        proc = getattr(self, "_proc", None)
        return proc.pid if proc is not None and proc.poll() is None else None

    def close(self, wait: float = 10.0) -> None:
        """Stop the child: close its stdin (it exits), after `wait` s terminate, then kill."""
        from ..runtime.embedded import remove_log, stop_child

        proc, self._proc = getattr(self, "_proc", None), None
        if proc is not None:
            stop_child(proc, wait)
            proc.stdout.close()
        log, self._log = getattr(self, "_log", None), None
        if log is not None:
            remove_log(log)
