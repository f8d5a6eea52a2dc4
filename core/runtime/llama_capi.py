"""ctypes bindings to the llama.cpp C API that the pinned xllamacpp wheel exports.

The wheel's extension module (`xllamacpp.abi3.so`) links llama.cpp statically and exports its C
symbols (`llama_decode`, `llama_get_logits`, `llama_tokenize`, ...) with no Python binding of
its own. This module declares the few structures and functions whole-sentence scoring needs, as
`include/llama.h` has them at the llama.cpp revision the wheel was built from (REVISION below),
and refuses to run on any other: ctypes trusts the declared layouts blindly, and a shifted field
would feed llama.cpp garbage instead of failing.

Native code never runs in QGIS's process: only core/runtime/whole_sentence_worker.py, a child
process, opens the library (`Library.open`); importing this module loads nothing.

The revision check at start-up (`check_revision`, `Library.check_layouts`):

1. `xllamacpp.BUILD_INFO` names the llama.cpp build when the wheel was built with it; the pinned
   wheel reports ``commit 'unknown'`` and build 0, so the build number is then read from the
   wheel's version, whose last part is llama.cpp's build number (xllamacpp's release scheme:
   ``2026.10.11549`` is built from llama.cpp tag ``b11549``). It must be REVISION's.
2. `llama_version()` must be REVISION's semantic version.
3. The library's default model and context parameters, read through the declared structures,
   must hold llama.cpp's documented defaults at every declared offset (n_ctx 512 at 0, n_batch
   2048 at 4, the F16 cache types at 104 and 108, the booleans at 136..141, ...): a field added,
   removed or moved shows up as a wrong value.
"""

from __future__ import annotations

import ctypes
import glob
import importlib.util
import os
import sys
from dataclasses import dataclass

__all__ = [
    "REVISION",
    "CapiError",
    "Library",
    "LlamaBatch",
    "LlamaContextParams",
    "LlamaModel",
    "LlamaModelParams",
    "Revision",
    "check_revision",
    "find_library",
]


class CapiError(RuntimeError):
    """The library cannot be used: missing, another llama.cpp revision, or a call that failed."""


@dataclass(frozen=True)
class Revision:
    """A llama.cpp revision: its release tag's build number and `llama_version()`."""

    build: int
    version: str
    xllamacpp: str  # the wheel release built from it (requirements.txt pins this one)

    @property
    def tag(self) -> str:
        return f"b{self.build}"


# The revision whose include/llama.h the structures below copy (read from the header the
# xllamacpp release vendors from its llama.cpp submodule at tag b11549).
REVISION = Revision(build=11549, version="0.6.0-dev", xllamacpp="2026.10.11549")

# ------------------------------------------------------------------ llama.h structures

llama_token = ctypes.c_int32
llama_pos = ctypes.c_int32
llama_seq_id = ctypes.c_int32
_TAIL = 256  # bytes past a by-value structure, so a larger real one cannot overwrite memory


class LlamaModelParams(ctypes.Structure):
    """struct llama_model_params (80 bytes on 64-bit platforms)."""

    _fields_ = [
        ("devices", ctypes.c_void_p),
        ("tensor_buft_overrides", ctypes.c_void_p),
        ("n_gpu_layers", ctypes.c_int32),
        ("split_mode", ctypes.c_int32),  # enum llama_split_mode
        ("load_mode", ctypes.c_int32),  # enum llama_load_mode
        ("lazy_mode", ctypes.c_int32),  # enum llama_lazy_mode
        ("main_gpu", ctypes.c_int32),
        ("tensor_split", ctypes.c_void_p),
        ("progress_callback", ctypes.c_void_p),
        ("progress_callback_user_data", ctypes.c_void_p),
        ("kv_overrides", ctypes.c_void_p),
        ("vocab_only", ctypes.c_bool),
        ("check_tensors", ctypes.c_bool),
        ("use_extra_bufts", ctypes.c_bool),
        ("no_host", ctypes.c_bool),
        ("no_alloc", ctypes.c_bool),
        ("load_mtp", ctypes.c_bool),
    ]


class LlamaContextParams(ctypes.Structure):
    """struct llama_context_params (168 bytes on 64-bit platforms)."""

    _fields_ = [
        ("n_ctx", ctypes.c_uint32),
        ("n_batch", ctypes.c_uint32),
        ("n_ubatch", ctypes.c_uint32),
        ("n_seq_max", ctypes.c_uint32),
        ("n_rs_seq", ctypes.c_uint32),
        ("n_outputs_max", ctypes.c_uint32),
        ("n_outputs_max_per_seq", ctypes.c_uint32),
        ("n_threads", ctypes.c_int32),
        ("n_threads_batch", ctypes.c_int32),
        ("ctx_type", ctypes.c_int32),  # enum llama_context_type
        ("rope_scaling_type", ctypes.c_int32),
        ("pooling_type", ctypes.c_int32),
        ("attention_type", ctypes.c_int32),
        ("flash_attn_type", ctypes.c_int32),
        ("rope_freq_base", ctypes.c_float),
        ("rope_freq_scale", ctypes.c_float),
        ("yarn_ext_factor", ctypes.c_float),
        ("yarn_attn_factor", ctypes.c_float),
        ("yarn_beta_fast", ctypes.c_float),
        ("yarn_beta_slow", ctypes.c_float),
        ("yarn_orig_ctx", ctypes.c_uint32),
        ("defrag_thold", ctypes.c_float),
        ("cb_eval", ctypes.c_void_p),
        ("cb_eval_user_data", ctypes.c_void_p),
        ("type_k", ctypes.c_int32),  # enum ggml_type
        ("type_v", ctypes.c_int32),
        ("moe_cache_size", ctypes.c_size_t),
        ("abort_callback", ctypes.c_void_p),
        ("abort_callback_data", ctypes.c_void_p),
        ("embeddings", ctypes.c_bool),
        ("offload_kqv", ctypes.c_bool),
        ("no_perf", ctypes.c_bool),
        ("op_offload", ctypes.c_bool),
        ("swa_full", ctypes.c_bool),
        ("kv_unified", ctypes.c_bool),
        ("samplers", ctypes.c_void_p),
        ("n_samplers", ctypes.c_size_t),
        ("ctx_other", ctypes.c_void_p),
    ]


class LlamaBatch(ctypes.Structure):
    """struct llama_batch: parallel arrays of n_tokens entries, passed by value."""

    _fields_ = [
        ("n_tokens", ctypes.c_int32),
        ("token", ctypes.POINTER(llama_token)),
        ("embd", ctypes.POINTER(ctypes.c_float)),
        ("pos", ctypes.POINTER(llama_pos)),
        ("n_seq_id", ctypes.POINTER(ctypes.c_int32)),
        ("seq_id", ctypes.POINTER(ctypes.POINTER(llama_seq_id))),
        ("logits", ctypes.POINTER(ctypes.c_int8)),
    ]


def _guarded(struct):
    """`struct` followed by spare bytes: the return type used to read default parameters."""
    return type(struct.__name__ + "Guarded", (ctypes.Structure,),
                {"_fields_": [("p", struct), ("tail", ctypes.c_ubyte * _TAIL)]})  # fmt: skip


# Offsets and sizes of the header's layout on 64-bit platforms; compared with what ctypes
# computes, so an edit of the _fields_ above that breaks the layout fails here first.
LAYOUT = {
    "LlamaModelParams": (80, {"n_gpu_layers": 16, "main_gpu": 32, "kv_overrides": 64,
                              "vocab_only": 72, "load_mtp": 77}),
    "LlamaContextParams": (168, {"n_outputs_max_per_seq": 24, "flash_attn_type": 52,
                                 "defrag_thold": 84, "type_k": 104, "moe_cache_size": 112,
                                 "embeddings": 136, "kv_unified": 141, "samplers": 144,
                                 "ctx_other": 160}),
    "LlamaBatch": (56, {"token": 8, "pos": 24, "seq_id": 40, "logits": 48}),
}  # fmt: skip

# llama.cpp's defaults (llama_model_default_params, llama_context_default_params) that the
# declared layouts must read back: chosen to cover every region of each structure.
MODEL_DEFAULTS = {"devices": None, "n_gpu_layers": -1, "split_mode": 1, "load_mode": -1,
                  "lazy_mode": 1, "main_gpu": 0, "tensor_split": None, "kv_overrides": None,
                  "vocab_only": False, "check_tensors": False, "use_extra_bufts": True,
                  "no_host": False, "no_alloc": False, "load_mtp": False}  # fmt: skip
CONTEXT_DEFAULTS = {"n_ctx": 512, "n_batch": 2048, "n_ubatch": 512, "n_seq_max": 1,
                    "n_rs_seq": 0, "n_outputs_max": 0, "ctx_type": 0, "rope_scaling_type": -1,
                    "pooling_type": -1, "attention_type": -1, "flash_attn_type": -1,
                    "rope_freq_base": 0.0, "yarn_ext_factor": -1.0, "yarn_orig_ctx": 0,
                    "defrag_thold": -1.0, "cb_eval": None, "type_k": 1, "type_v": 1,
                    "moe_cache_size": 0, "abort_callback": None, "embeddings": False,
                    "offload_kqv": True, "no_perf": True, "op_offload": True, "swa_full": True,
                    "kv_unified": False, "samplers": None, "n_samplers": 0,
                    "ctx_other": None}  # fmt: skip

_c = ctypes
_p = ctypes.c_void_p
# name: (restype, argtypes); every function the worker calls, checked to exist at start-up.
PROTOTYPES = {
    "llama_version": (_c.c_char_p, []),
    "llama_backend_init": (None, []),
    "llama_log_set": (None, [_p, _p]),
    "llama_model_default_params": (_guarded(LlamaModelParams), []),
    "llama_context_default_params": (_guarded(LlamaContextParams), []),
    "llama_model_load_from_file": (_p, [_c.c_char_p, LlamaModelParams]),
    "llama_model_free": (None, [_p]),
    "llama_init_from_model": (_p, [_p, LlamaContextParams]),
    "llama_free": (None, [_p]),
    "llama_model_get_vocab": (_p, [_p]),
    "llama_model_n_ctx_train": (_c.c_int32, [_p]),
    "llama_model_has_encoder": (_c.c_bool, [_p]),
    "llama_model_is_recurrent": (_c.c_bool, [_p]),
    "llama_model_is_hybrid": (_c.c_bool, [_p]),
    "llama_vocab_n_tokens": (_c.c_int32, [_p]),
    "llama_vocab_bos": (llama_token, [_p]),
    "llama_tokenize": (_c.c_int32, [_p, _c.c_char_p, _c.c_int32, _c.POINTER(llama_token),
                                    _c.c_int32, _c.c_bool, _c.c_bool]),
    "llama_n_ctx": (_c.c_uint32, [_p]),
    "llama_n_batch": (_c.c_uint32, [_p]),
    "llama_n_ubatch": (_c.c_uint32, [_p]),
    "llama_n_seq_max": (_c.c_uint32, [_p]),
    "llama_get_memory": (_p, [_p]),
    "llama_memory_clear": (None, [_p, _c.c_bool]),
    "llama_decode": (_c.c_int32, [_p, LlamaBatch]),
    "llama_get_logits": (_c.POINTER(_c.c_float), [_p]),
    "llama_synchronize": (None, [_p]),
}  # fmt: skip

# ggml_log_level: only warnings and errors reach the log (llama.cpp prints ~100 lines a load).
_LOG_WARN = 3
_LOG_CONT = 5
_LOG_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_int, ctypes.c_char_p, ctypes.c_void_p)


def check_layouts() -> None:
    """The declared structures have the header's sizes and offsets (CapiError otherwise)."""
    if ctypes.sizeof(ctypes.c_void_p) != 8:
        raise CapiError("whole-sentence scoring needs a 64-bit Python")
    for struct in (LlamaModelParams, LlamaContextParams, LlamaBatch):
        size, offsets = LAYOUT[struct.__name__]
        got = {f: getattr(struct, f).offset for f in offsets}
        if ctypes.sizeof(struct) != size or got != offsets:
            raise CapiError(f"{struct.__name__}: {ctypes.sizeof(struct)} bytes, offsets {got}; "
                            f"llama.h {REVISION.tag} has {size} bytes, {offsets}")  # fmt: skip


def build_from(build_info: dict | None, version: str | None) -> int | None:
    """llama.cpp's build number: BUILD_INFO's if it has one, else the wheel version's last part."""
    info = build_info or {}
    try:
        number = int(info.get("build_number") or 0)
    except (TypeError, ValueError):
        number = 0
    if number:
        return number
    last = str(version or "").split(".")[-1]
    return int(last) if last.isdigit() else None


def check_revision(build_info: dict | None, version: str | None, llama_version: str | None):
    """Raise CapiError unless the wheel is built from REVISION (see the module docstring)."""
    build = build_from(build_info, version)
    commit = str((build_info or {}).get("commit") or "unknown")
    want = (f"GeoBias's llama.cpp bindings are written for llama.cpp {REVISION.tag} "
            f"({REVISION.version}), as in xllamacpp=={REVISION.xllamacpp} "
            "(requirements.txt); install that wheel, or score with forced decoding")  # fmt: skip
    if build != REVISION.build:
        raise CapiError(f"xllamacpp {version} is built from llama.cpp "
                        f"{'b' + str(build) if build else 'an unknown build'} "
                        f"(BUILD_INFO commit {commit}): {want}")  # fmt: skip
    if llama_version is not None and llama_version != REVISION.version:
        raise CapiError(f"llama_version() is {llama_version!r}: {want}")


def find_library(package_dir: str | None = None) -> str:
    """The xllamacpp extension module's file, found without importing it (CapiError if none)."""
    if package_dir is None:
        try:
            spec = importlib.util.find_spec("xllamacpp")
        except (ImportError, ValueError):
            spec = None
        if spec is None or not spec.submodule_search_locations:
            raise CapiError("xllamacpp is not installed in this Python")
        package_dir = list(spec.submodule_search_locations)[0]
    names = []
    for pattern in ("xllamacpp*.so", "xllamacpp*.pyd", "xllamacpp*.dylib", "*llama*.dll"):
        names += sorted(glob.glob(os.path.join(package_dir, pattern)))
    if not names:
        raise CapiError(f"no xllamacpp extension module in {package_dir}")
    return names[0]


def wheel_info() -> tuple[dict, str]:
    """(xllamacpp.BUILD_INFO, xllamacpp.__version__): imports xllamacpp (child process only)."""
    import xllamacpp

    return dict(getattr(xllamacpp, "BUILD_INFO", {}) or {}), str(xllamacpp.__version__)


class Library:
    """The llama.cpp C API of one shared library, every prototype declared and checked."""

    def __init__(self, cdll: ctypes.CDLL, path: str = ""):
        self.cdll = cdll
        self.path = path
        missing = [name for name in PROTOTYPES if not hasattr(cdll, name)]
        if missing:
            raise CapiError(f"{path or cdll} does not export {', '.join(missing)}: this build of "
                            "xllamacpp keeps llama.cpp's C API private")  # fmt: skip
        for name, (restype, argtypes) in PROTOTYPES.items():
            fn = getattr(cdll, name)
            fn.restype = restype
            fn.argtypes = argtypes
            setattr(self, name, fn)
        self._log = None

    @classmethod
    def open(cls, path: str | None = None, check: bool = True) -> Library:
        """Load the wheel's library and check that it is REVISION (CapiError otherwise).

        Refuses inside QGIS: llama.cpp's native libraries abort QGIS's process.
        """
        if any(m in sys.modules for m in ("qgis.core", "qgis._core")):
            raise CapiError("llama.cpp must not run in QGIS's process: use a child process")
        check_layouts()
        path = path or find_library()
        if check:
            check_revision(*wheel_info(), None)
        try:
            cdll = ctypes.CDLL(path)
        except OSError as e:
            raise CapiError(f"cannot load {path}: {e}") from e
        lib = cls(cdll, path)
        if check:
            check_revision({"build_number": REVISION.build}, None, lib.version())
            lib.check_defaults()
        return lib

    def version(self) -> str:
        return (self.llama_version() or b"").decode("utf-8", "replace")

    def model_defaults(self) -> LlamaModelParams:
        return self.llama_model_default_params().p

    def context_defaults(self) -> LlamaContextParams:
        return self.llama_context_default_params().p

    def check_defaults(self) -> None:
        """The default parameters read back as llama.cpp documents them (CapiError if not)."""
        for params, want in ((self.model_defaults(), MODEL_DEFAULTS),
                             (self.context_defaults(), CONTEXT_DEFAULTS)):  # fmt: skip
            wrong = {k: getattr(params, k) for k, v in want.items() if getattr(params, k) != v}
            if wrong:
                raise CapiError(f"{type(params).__name__} reads {wrong} where llama.h "
                                f"{REVISION.tag} has {({k: want[k] for k in wrong})}: the "
                                "library is another llama.cpp revision")  # fmt: skip

    def quiet(self, stream=None) -> None:
        """Send llama.cpp's warnings and errors to `stream` (default stderr), nothing else."""
        stream = stream or sys.stderr
        state = {"level": 0}

        def log(level, text, _user):
            if level != _LOG_CONT:
                state["level"] = level
            if state["level"] >= _LOG_WARN and text:
                stream.write(text.decode("utf-8", "replace"))

        self._log = _LOG_CALLBACK(log)  # kept alive as long as the library
        self.llama_log_set(ctypes.cast(self._log, ctypes.c_void_p), None)


class LlamaModel:
    """A GGUF model on the CPU and, once `open_context` made it, one context for packed batches.

    The context holds one decode at a time: n_ctx = n_batch tokens, a KV cache unified across
    `n_seq_max` sequences (a token may belong to several: the shared prefixes of
    core/runtime/sentence_packing.py), at most `n_outputs` logits rows per decode, and `threads`
    threads. The cache is cleared before every decode: batches share nothing.

    Numerics. llama.cpp's CPU kernels round differently with how many tokens one graph step
    multiplies: repacked weights (its CPU_REPACK buffers, `repack`) take four-row kernels from
    four rows on, and attention takes other paths on longer steps. These quantised models turn
    that rounding into ~1e-2 in a sentence's mean log-probability (up to 0.3). A decode of one
    token, which is what forced decoding runs, uses the one-row kernels; short graph steps
    (`n_ubatch`) use them too (core/runtime/whole_sentence_worker.py finds the longest that does),
    so they give forced decoding's numbers (within 3e-5 on the bundled models). Without repacking
    and flash attention, long steps give numbers that no longer depend on the packing, faster.
    """

    def __init__(self, lib: Library, path: str, repack: bool = True):
        import numpy as np

        self._np = np
        self.lib = lib
        self.path = path
        self.model = None
        self.ctx = None
        mp = lib.model_defaults()
        mp.use_extra_bufts = repack
        self.model = lib.llama_model_load_from_file(path.encode("utf-8"), mp)
        if not self.model:
            raise CapiError(f"llama.cpp could not load {path} (see the log for why)")
        if (lib.llama_model_has_encoder(self.model) or lib.llama_model_is_recurrent(self.model)
                or lib.llama_model_is_hybrid(self.model)):  # fmt: skip
            self.close()
            raise CapiError(f"{os.path.basename(path)} is not a plain decoder-only model: "
                            "score it with forced decoding")  # fmt: skip
        self.vocab = lib.llama_model_get_vocab(self.model)
        self.n_vocab = int(lib.llama_vocab_n_tokens(self.vocab))
        self.bos = int(lib.llama_vocab_bos(self.vocab))
        if self.bos < 0:
            self.close()
            raise CapiError(f"{os.path.basename(path)} has no BOS token: a sentence's first "
                            "token would have no context to be scored from")  # fmt: skip

    def open_context(
        self,
        threads: int,
        n_batch: int,
        n_outputs: int,
        n_seq_max: int,
        n_ubatch: int | None = None,
        flash_attn: bool | None = None,
    ) -> None:
        """Make the context (llama.cpp aborts the process on n_outputs < n_seq_max: refused).

        `n_ubatch`: tokens per graph step (default n_batch); llama_decode splits a batch into
        such steps in order, parents before children, so a node's ancestors are cached when it
        is computed. `flash_attn`: None for llama.cpp's choice (its default, as the server's).
        """
        if not 1 <= n_seq_max <= min(256, n_outputs) or n_outputs > n_batch or threads < 1:
            raise CapiError(f"no context of {n_batch} tokens, {n_outputs} outputs, "
                            f"{n_seq_max} sequences, {threads} threads")  # fmt: skip
        lib = self.lib
        cp = lib.context_defaults()
        cp.n_ctx = cp.n_batch = n_batch
        cp.n_ubatch = min(n_batch, n_ubatch or n_batch)
        cp.n_seq_max = n_seq_max
        cp.n_outputs_max = n_outputs
        cp.n_outputs_max_per_seq = 0  # a sentence has logits at every position (0: no limit)
        cp.n_threads = cp.n_threads_batch = threads
        cp.kv_unified = True  # needed for tokens that belong to several sequences
        cp.no_perf = True
        if flash_attn is not None:
            cp.flash_attn_type = 1 if flash_attn else 0
        self.ctx = lib.llama_init_from_model(self.model, cp)
        if not self.ctx:
            raise CapiError(f"llama.cpp could not make a context of {n_batch} tokens, "
                            f"{n_seq_max} sequences, {n_outputs} outputs")  # fmt: skip
        self.n_batch = int(lib.llama_n_batch(self.ctx))
        self.n_ctx = int(lib.llama_n_ctx(self.ctx))
        self.n_seq_max = int(lib.llama_n_seq_max(self.ctx))
        self.n_outputs = n_outputs
        self.threads = threads
        self.memory = lib.llama_get_memory(self.ctx)

    def tokenize(self, text: str) -> list[int]:
        """The text's tokens, no BOS/EOS added, special-token text kept as plain text."""
        data = text.encode("utf-8")
        size = len(data) + 8
        for _ in range(2):
            buf = (llama_token * size)()
            n = self.lib.llama_tokenize(self.vocab, data, len(data), buf, size, False, False)
            if n >= 0:
                return list(buf[:n])
            size = -n
        raise CapiError(f"llama_tokenize failed on {text[:60]!r}")

    def decode(self, batch, clear: bool = True):
        """Decode one core/sentence_packing.PackedBatch; its logits rows (n_outputs, n_vocab),
        a view valid until the next decode. `clear=False` keeps the cache (token-by-token
        decoding, the way a server forces a sentence: the reference the tests compare with)."""
        np = self._np
        n = batch.n_tokens
        if n > min(self.n_batch, self.n_outputs):
            raise CapiError(f"a batch of {n} tokens with logits does not fit {self.n_batch} "
                            f"tokens and {self.n_outputs} outputs")  # fmt: skip
        tokens = np.ascontiguousarray(batch.tokens, dtype=np.int32)
        pos = np.ascontiguousarray(batch.pos, dtype=np.int32)
        n_seq = np.ascontiguousarray(batch.n_seq_id, dtype=np.int32)
        seq_flat = np.ascontiguousarray(batch.seq_flat, dtype=np.int32)
        output = np.ascontiguousarray(batch.output, dtype=np.int8)
        # llama_seq_id **: one pointer per token into seq_flat
        seq_ptrs = (seq_flat.ctypes.data + 4 * batch.seq_start[:-1]).astype(np.uint64)
        c = ctypes
        b = LlamaBatch(
            n_tokens=n,
            token=tokens.ctypes.data_as(c.POINTER(llama_token)),
            embd=None,
            pos=pos.ctypes.data_as(c.POINTER(llama_pos)),
            n_seq_id=n_seq.ctypes.data_as(c.POINTER(c.c_int32)),
            seq_id=seq_ptrs.ctypes.data_as(c.POINTER(c.POINTER(llama_seq_id))),
            logits=output.ctypes.data_as(c.POINTER(c.c_int8)),
        )
        if clear:
            self.lib.llama_memory_clear(self.memory, False)
        rc = self.lib.llama_decode(self.ctx, b)
        if rc != 0:
            raise CapiError(f"llama_decode returned {rc} for {n} tokens of "
                            f"{len(batch.sentences)} sentences")  # fmt: skip
        n_out = int(output.sum())
        if not n_out:
            return np.zeros((0, self.n_vocab), dtype=np.float32)
        ptr = self.lib.llama_get_logits(self.ctx)
        if not ptr:
            raise CapiError("llama_get_logits returned nothing")
        return np.ctypeslib.as_array(ptr, shape=(n_out, self.n_vocab))

    def close_context(self) -> None:
        if self.ctx:
            self.lib.llama_free(self.ctx)
            self.ctx = None

    def close(self) -> None:
        self.close_context()
        if self.model:
            self.lib.llama_model_free(self.model)
            self.model = None
