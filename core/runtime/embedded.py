"""The embedded local model: llama.cpp's server (xllamacpp) in a child process on loopback.

xllamacpp is never imported here: inside the QGIS binaries its native libraries abort QGIS. A
child Python runs core/runtime/embedded_server.py instead, and that Python has to be found:
inside QGIS `sys.executable` is not QGIS's Python (on Debian's 3.22 desktop it names whatever
`python3` is first on PATH, on Windows the QGIS binary itself), so candidates come from sys.prefix,
OSGeo4W, the macOS app bundle and PATH, and each is asked (`--check`) whether it can import
xllamacpp and find the model before it is used.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import weakref

import requests

from ..wording import listing
from . import models
from .embedded_server import (
    DEFAULT_MODEL_FILE,
    INSTALL_LINE,
    EmbeddedError,
    default_model_path,
    model_name,
)

__all__ = ["EmbeddedError", "EmbeddedServer", "MODEL_FILE", "MODEL_NAME", "default_model_path",
           "find_python", "find_python_with", "forget_python", "free_port", "last_log_lines",
           "missing_modules", "model_name", "port_is_free", "python_candidates", "shared_port",
           "shared_server", "deterministic_default",
           "stop_shared", "exit_reason"]  # fmt: skip

LAUNCHER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "embedded_server.py")
MODEL_FILE = DEFAULT_MODEL_FILE  # the default model of core/runtime/models.py
MODEL_NAME = model_name(MODEL_FILE)  # the default model, as surveys and caches name it
# GeoBias's model environment (core/runtime/model_env.py installs it, the README's manual commands
# create the same venv): found without configuration.
USER_VENV = models.env_python()


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def port_is_free(port: int, host: str = "127.0.0.1") -> bool:
    """Whether nobody listens on `port` right now (a bind succeeds)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind((host, port))
        except OSError:
            return False
        return True


# ---------------------------------------------------------------- which Python runs the model


def _looks_like_python(path: str | None) -> bool:
    """python3, python3.11, python.exe: not qgis-bin.exe nor the QGIS app binary."""
    return os.path.basename(path or "").lower().startswith("python")


def python_candidates(override: str | None = None) -> list[str]:
    """Interpreters that may run the model, most specific first (not yet checked)."""
    found = []
    ver = f"{sys.version_info[0]}.{sys.version_info[1]}"
    windows = sys.platform.startswith("win")
    prefixes = [sys.prefix, sys.exec_prefix, getattr(sys, "base_prefix", sys.prefix)]
    names = ("python.exe", "python3.exe") if windows else (f"bin/python{ver}", "bin/python3")
    by_prefix = [os.path.join(p, *n.split("/")) for p in prefixes for n in names]
    found += [override, os.environ.get("GEOBIAS_PYTHON"), USER_VENV] + by_prefix
    osgeo4w = os.environ.get("OSGEO4W_ROOT")
    if osgeo4w:  # OSGeo4W: the shell's python3.exe, or the batch file that sets QGIS's env
        names = ("python3.exe", "python.exe", "python-qgis.bat", "python-qgis-ltr.bat")
        found += [os.path.join(osgeo4w, "bin", n) for n in names]
    exe_dir = os.path.dirname(sys.executable or "")
    if ".app/Contents/MacOS" in exe_dir:  # macOS bundle: QGIS.app/Contents/MacOS/bin/python3
        found.append(os.path.join(exe_dir, "bin", "python3"))
    for exe in (getattr(sys, "_base_executable", None), sys.executable):
        if _looks_like_python(exe):
            found.append(exe)
    found += [shutil.which("python3"), shutil.which("python")]
    out = []
    for path in found:
        if path and path not in out and os.path.isfile(path):
            out.append(path)
    if override and override not in out:
        out.insert(0, override)  # reported as missing by find_python
    return out


_checked: dict = {}  # (python, model) -> check report, for interpreters that passed
_served: dict = {}  # the check report of the interpreter the last started server runs in
_check_lock = threading.Lock()


def _no_window() -> int:
    return 0x08000000 if sys.platform.startswith("win") else 0  # CREATE_NO_WINDOW


def child_env(python: str) -> dict:
    """The environment for a child Python: this process's, less PYTHONHOME and PYTHONPATH for a
    venv (QGIS on Windows sets PYTHONHOME to its own Python, which would replace the venv's
    standard library; QGIS's PYTHONPATH would lend the model environment packages it lacks,
    as numpy once was). QGIS's own Python keeps both: its packages may come through them."""
    env = dict(os.environ)
    if os.path.isfile(os.path.join(os.path.dirname(os.path.dirname(python)), "pyvenv.cfg")):
        env.pop("PYTHONHOME", None)
        env.pop("PYTHONPATH", None)
    return env


def stop_child(proc: subprocess.Popen, wait: float = 15.0) -> None:
    """Stop a child that exits when its stdin closes: close it, give it `wait` s (0: kill it at
    once, e.g. a hung one), then terminate, then kill."""
    try:
        proc.stdin.close()
    except OSError:
        pass
    try:
        if not wait:
            proc.kill()  # SIGTERM would wait for a stopped process to continue
        proc.wait(timeout=wait or None)
    except subprocess.TimeoutExpired:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def log_tail(path: str, n: int = 3) -> str:
    """The last `n` non-empty lines of a child's log file, joined for a message."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = [ln.strip() for ln in f if ln.strip()]
    except OSError:
        return "no output"
    return " | ".join(ln.removeprefix("error: ") for ln in lines[-n:]) or "no output"


def tail_lines(path: str, n: int = 20) -> list[str]:
    """The last `n` non-empty lines of a log file ([] when it cannot be read)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return [ln.rstrip() for ln in f if ln.strip()][-n:]
    except OSError:
        return []


_last_log: list = []  # the last lines of the most recently stopped server's log


def last_log_lines(n: int = 20) -> list[str]:
    """The last `n` lines of the shared model's log while it runs, else those of the last
    server that stopped in this process (the diagnostics report shows them)."""
    server = _shared
    if server is not None and server.running and server._log is not None:
        return tail_lines(server._log.name, n)
    return _last_log[-n:]


def remove_log(log) -> None:
    """Close and delete a child's temporary log file."""
    log.close()
    try:
        os.unlink(log.name)
    except OSError:
        pass


def check_python(python: str, model_path: str | None = None, timeout: float = 60.0) -> dict:
    """Ask `python` whether it can serve (imports xllamacpp, finds the model); its report."""
    key = (python, model_path)
    with _check_lock:
        if key in _checked:
            return _checked[key]
    if not os.path.isfile(python):
        raise EmbeddedError(f"{python} does not exist")
    cmd = [python, LAUNCHER, "--check"] + (["--model", model_path] if model_path else [])
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL, env=child_env(python),
                              creationflags=_no_window())  # fmt: skip
    except (OSError, subprocess.TimeoutExpired) as e:
        raise EmbeddedError(f"{python} did not run: {e}") from e
    if proc.returncode != 0:
        lines = (proc.stderr or proc.stdout).strip().splitlines()
        reason = lines[-1] if lines else f"exit code {proc.returncode}"
        raise EmbeddedError(f"{python}: {reason.removeprefix('error: ')}")
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    with _check_lock:
        _checked[key] = report
    return report


def served_report() -> dict:
    """What the interpreter of the last server started in this process reported ({}: none
    started): its xllamacpp version and llama.cpp's BUILD_INFO, for the runs manifest."""
    with _check_lock:
        return dict(_served)


def forget_python(python: str) -> None:
    """Forget what was learnt about `python` (its environment was removed or reinstalled)."""
    with _check_lock:
        for key in [k for k in _checked if k[0] == python]:
            del _checked[key]


def find_python(override: str | None = None, model_path: str | None = None) -> str:
    """The first interpreter that can serve the model; EmbeddedError says what to install.

    `override` (the Options setting) is tried first; then GEOBIAS_PYTHON, the user venv
    (USER_VENV), QGIS's own Python found from sys.prefix, OSGeo4W or the app bundle, PATH.
    """
    reasons = []
    for python in python_candidates(override):
        try:
            check_python(python, model_path)
            return python
        except EmbeddedError as e:
            reasons.append(str(e))
    raise EmbeddedError(
        "no Python here can run the embedded model; install it into QGIS's Python or a venv at "
        f"{USER_VENV}: {INSTALL_LINE} (tried: {'; '.join(reasons) or 'no interpreter found'})"
    )


# Asks a Python which modules it could import, without importing them: no native code runs,
# and torch's seconds of loading are spent once, in the process that uses it.
_FIND_SPEC = (
    "import importlib.util, json, sys; "
    "print(json.dumps([m for m in sys.argv[1:] if importlib.util.find_spec(m) is None]))"
)


def missing_modules(python: str, modules: list[str], timeout: float = 60.0) -> list[str]:
    """The `modules` that `python` cannot import (found, not imported; EmbeddedError if it does
    not run). Interpreters that have them all are remembered for this process."""
    key = (python, ("modules",) + tuple(modules))
    with _check_lock:
        if key in _checked:
            return []
    if not os.path.isfile(python):
        raise EmbeddedError(f"{python} does not exist")
    try:
        proc = subprocess.run([python, "-c", _FIND_SPEC, *modules], capture_output=True,
                              text=True, timeout=timeout, stdin=subprocess.DEVNULL,
                              env=child_env(python), creationflags=_no_window())  # fmt: skip
        missing = json.loads(proc.stdout.strip().splitlines()[-1])
    except (OSError, subprocess.TimeoutExpired, ValueError, IndexError) as e:
        raise EmbeddedError(f"{python} did not run: {e}") from e
    if not missing:
        with _check_lock:
            _checked[key] = {"python": python, "modules": list(modules)}
    return missing


def find_python_with(modules: list[str], override: str | None = None) -> str:
    """The first interpreter (in find_python's order) that can import every one of `modules`;
    EmbeddedError lists what each candidate lacks."""
    reasons = []
    for python in python_candidates(override):
        try:
            missing = missing_modules(python, modules)
        except EmbeddedError as e:
            reasons.append(str(e))
            continue
        if not missing:
            return python
        reasons.append(f"{python}: no {', '.join(missing)}")
    raise EmbeddedError(f"tried: {'; '.join(reasons) or 'no interpreter found'}")


# ---------------------------------------------------------------- the server


_live: weakref.WeakSet = weakref.WeakSet()  # servers to stop if the caller forgets


@atexit.register
def _stop_all() -> None:
    for server in list(_live):
        server.stop()


class EmbeddedServer:
    """llama.cpp server in a child process on 127.0.0.1 and a free port; `with` starts and stops.

    `parallel` is the number of slots (concurrent requests); `ctx_size` is tokens per slot
    (a paper prompt is about 350 tokens). `model_path` is any GGUF file or a
    core/runtime/models.py key (found by the child; default: the default model), `alias` the model
    name it serves (default: the file name). `python` names the interpreter to run it (default:
    find_python()). `chat_template` (Jinja) is for a GGUF without one; a bundled model's comes
    from the registry. `deterministic`: one slot and no prompt-cache reuse, so the same request
    gets bit-identical log-probabilities whatever else is asked at once (clients may still send
    `parallel` requests at once: they queue).
    """

    def __init__(
        self,
        model_path: str | None = None,
        parallel: int = 2,
        ctx_size: int = 1024,
        threads: int | None = None,
        port: int | None = None,
        startup_timeout: float = 120.0,
        python: str | None = None,
        alias: str | None = None,
        chat_template: str | None = None,
        deterministic: bool = False,
    ):
        self.model_path = model_path
        self.parallel = parallel
        self.ctx_size = ctx_size
        self.threads = threads
        self.port = port
        self.startup_timeout = startup_timeout
        self.python = python
        self.alias = alias
        self.chat_template = chat_template
        self.deterministic = deterministic
        self._proc = None
        self._log = None
        self.base_url: str | None = None
        self.interpreter: str | None = None  # the Python that runs the child, once started

    def _command(self, python: str, port: int) -> list[str]:
        cmd = [python, LAUNCHER, "--port", str(port), "--parallel", str(self.parallel),
               "--ctx-size", str(self.ctx_size), "--parent-pid", str(os.getpid())]  # fmt: skip
        if self.model_path:
            cmd += ["--model", self.model_path]
        if self.alias:
            cmd += ["--alias", self.alias]
        if self.threads:
            cmd += ["--threads", str(self.threads)]
        if self.chat_template:
            cmd += ["--chat-template", self.chat_template]
        if self.deterministic:
            cmd.append("--deterministic")
        return cmd

    def start(self) -> str:
        """Start the child, wait for /health; returns the base URL (…/v1)."""
        if self.running:
            return self.base_url
        self.stop()
        if self.model_path and not (
            os.path.isfile(self.model_path) or self.model_path in models.MODELS
        ):
            raise EmbeddedError(f"model file not found: {self.model_path}")
        python = find_python(self.python, self.model_path)
        self.interpreter = python
        port = self.port or free_port()
        if not port_is_free(port):
            # Another program listens there: its /health could even pass for the model's.
            # Cache keys hold no port, so another free port loses nothing.
            port = free_port()
        self._log = tempfile.NamedTemporaryFile(prefix="geobias-model-", suffix=".log",
                                                delete=False)  # fmt: skip
        # stdin is a pipe only the child reads: when this process dies the system closes it,
        # and the child stops (core/runtime/embedded_server.py watches it).
        self._proc = subprocess.Popen(self._command(python, port), stdin=subprocess.PIPE,
                                      stdout=self._log, stderr=subprocess.STDOUT,
                                      env=child_env(python),
                                      creationflags=_no_window())  # fmt: skip
        _live.add(self)
        root = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + self.startup_timeout
        while True:
            if self._proc.poll() is not None:
                reason = self._log_tail()
                self.stop()
                raise EmbeddedError(f"the model process ({python}) exited: {reason}")
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
        report = check_python(python, self.model_path)  # remembered by find_python: no child
        with _check_lock:
            _served.clear()
            _served.update(report)
        return self.base_url

    def _log_tail(self, n: int = 3) -> str:
        return log_tail(self._log.name, n) if self._log is not None else "no output"

    def stop(self) -> None:
        """Stop the child (closing its stdin; then terminate, then kill) and free the port."""
        proc, self._proc = self._proc, None
        if proc is not None:
            stop_child(proc)
        if self._log is not None:
            _last_log[:] = tail_lines(self._log.name, 50)  # for the diagnostics report
            remove_log(self._log)
            self._log = None
        _live.discard(self)
        self.base_url = None

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    @property
    def pid(self) -> int | None:
        """The child's process id while it runs."""
        return self._proc.pid if self.running else None

    @property
    def model_name(self) -> str:
        """The served model's name: its alias, else its GGUF file name, so two model files
        never share answers."""
        if self.alias:
            return self.alias
        if self.model_path in models.MODELS:
            return models.MODELS[self.model_path].name
        return model_name(self.model_path or MODEL_FILE)

    @property
    def model_sha256(self) -> str:
        """The served file's SHA-256, part of every cache key of its answers: a bundled model's
        from the registry (checked when it was installed), a user's GGUF hashed once (manifest
        keeps the hash by path, size and time); "" when the file cannot be read."""
        if getattr(self, "_sha256", None) is None:
            from .manifest import file_sha256

            known = models.MODELS.get(self.model_path) if self.model_path else None
            if known is None and not self.model_path:
                known = models.model_for_file(MODEL_FILE)
            try:
                if known is not None:
                    self._sha256 = known.sha256 or file_sha256(models.model_path(known.key))
                else:
                    self._sha256 = file_sha256(self.model_path)
            except (OSError, models.ModelError):
                self._sha256 = ""
        return self._sha256

    def __enter__(self) -> EmbeddedServer:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


# ---------------------------------------------------------------- one model per process
# Loading the model takes seconds: the dock and Processing share one server per process,
# started on first use and stopped when the plugin unloads (or by the child itself when this
# process dies). Cache keys hold no port (core.cache), so a new server finds every answer.
_shared: EmbeddedServer | None = None
_shared_lock = threading.Lock()


def shared_port() -> int | None:
    """The port of the running shared server, else None."""
    server = _shared
    return server.port if server is not None and server.running else None


def deterministic_default() -> bool:
    """Whether the shared model runs deterministic (one slot, no prompt-cache reuse:
    bit-identical answers at any concurrency, at a cost in speed): GEOBIAS_DETERMINISTIC=1, which
    the demos set."""
    return os.environ.get("GEOBIAS_DETERMINISTIC", "").strip().lower() in ("1", "true", "yes")


def shared_server(python: str | None = None, port: int | None = None, model: str | None = None,
                  deterministic: bool | None = None) -> EmbeddedServer:  # fmt: skip
    """The process-wide embedded model (`model`: a core/runtime/models.py key or name, None: the
    default), started (on `port` if given) unless it already runs; another model, or another
    `deterministic` mode (None: deterministic_default()), is replaced."""
    global _shared
    m = models.find_model(model) if model else models.get_model()
    if m is None:
        raise EmbeddedError(f"no bundled model {model!r}; known: {listing(sorted(models.MODELS))}")
    if deterministic is None:
        deterministic = deterministic_default()
    with _shared_lock:
        if (
            _shared is not None
            and _shared.running
            and port in (None, _shared.port)
            and _shared.model_name == m.name
            and _shared.deterministic == bool(deterministic)
        ):
            return _shared
        if _shared is not None:
            _shared.stop()
            _shared = None
        server = EmbeddedServer(m.key, parallel=2, port=port, python=python,
                                deterministic=bool(deterministic))  # fmt: skip
        server.start()
        _shared = server
        return server


def exit_reason(base_url: str) -> str | None:
    """Why the embedded model serving `base_url` is gone ("killed by signal 9", "exited with
    code 1"), None while it runs or when no server of this process served that URL."""
    want = (base_url or "").rstrip("/")
    for server in list(_live):
        proc = server._proc
        if proc is None or not server.base_url or server.base_url.rstrip("/") != want:
            continue
        code = proc.poll()
        if code is None:
            return None
        return f"killed by signal {-code}" if code < 0 else f"exited with code {code}"
    return None


def stop_shared() -> None:
    """Stop the shared server if it runs (plugin unload, QGIS quitting)."""
    global _shared
    with _shared_lock:
        if _shared is not None:
            _shared.stop()
            _shared = None
