"""Start the real QGIS desktop under Xvfb with a fresh profile and the plugin from the zip,
run a scenario script in it (`--code`) and return how QGIS ended and the scenario's result."""

import json
import os
import re
import signal
import subprocess
import sysconfig
import zipfile
from dataclasses import dataclass

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ZIP = os.path.join(ROOT, "build", "geobias.zip")
SCREEN = "1600x1000x24"
OUT = os.path.join(ROOT, "build", "desktop")  # the scenario's screenshots and result.json


# What a normal day must not print or log (issue 35): Python's ResourceWarning (an unclosed file
# or pipe), GDAL's errors (CPLError's "ERROR 1: ..." on stderr, SQLite's "unable to open
# database file" for a GeoPackage opened before it exists).
PROBLEMS = re.compile(r"ResourceWarning|unable to open database file|^ERROR \d+: ", re.MULTILINE)
# Lines QGIS itself prints on every start, not GeoBias's doing; each an exact text and why.
KNOWN_NOISE = ()


@dataclass
class Outcome:
    returncode: int
    stdout: str
    stderr: str
    result: dict

    @property
    def died(self):
        """A signal, or QGIS's own crash handler's words ("QGIS died on signal 11")."""
        signalled = self.returncode < 0 or self.returncode >= 128
        return signalled or "QGIS died on signal" in self.stdout + self.stderr

    def log_problems(self):
        """ResourceWarnings and GDAL errors of the session: on QGIS's stdout/stderr, in QGIS's
        message log (the GDAL and OGR tags at Critical, any tag's text) and among the Python
        warnings the scenario's Recorder saw. [] on a clean day."""
        found = []
        for name, text in (("stdout", self.stdout), ("stderr", self.stderr)):
            for line in text.splitlines():
                if PROBLEMS.search(line) and line.strip() not in KNOWN_NOISE:
                    found.append(f"{name}: {line.strip()}")
        for _t, tag, level, message in self.result.get("qgis_log", []):
            gdal = tag in ("GDAL", "OGR") and level >= 2  # Qgis.MessageLevel.Critical
            if (gdal or PROBLEMS.search(message)) and message.strip() not in KNOWN_NOISE:
                found.append(f"log {tag}: {message.strip()}")
        for category, where, message in self.result.get("warnings", []):
            if category == "ResourceWarning":
                found.append(f"{category} at {where}: {message}")
        return found

    def tail(self, n=3000):
        out, err = self.stdout[-n:], self.stderr[-n:]
        return f"rc={self.returncode}\n--- stdout\n{out}\n--- stderr\n{err}"


def fresh_profile(profiles, zip_path=ZIP, locale="en_US"):
    """A new QGIS profile in `profiles` with GeoBias unzipped into it and enabled."""
    profile = os.path.join(profiles, "profiles", "geobias")
    plugins = os.path.join(profile, "python", "plugins")
    os.makedirs(plugins)
    zipfile.ZipFile(zip_path).extractall(plugins)
    os.makedirs(os.path.join(profile, "QGIS"))
    with open(os.path.join(profile, "QGIS", "QGIS3.ini"), "w") as f:
        f.write(
            "[PythonPlugins]\ngeobias=true\n"
            f"[locale]\noverrideFlag=true\nuserLocale={locale}\n"
            "[qgis]\nshowTips=false\ncheckVersion=false\nallowVersionCheck=false\n"
            "[migration]\nfirstRunVersionFlag=32200\n"
        )
    return os.path.join(plugins, "geobias")


def run_scenario(script, out_dir, profiles, timeout=900, env=None, zip_path=ZIP, reuse=False):
    """Run `script` inside `qgis --code` on a virtual screen; its JSON result is read back.
    `reuse`: keep the profile an earlier session left in `profiles` (a user's next day)."""
    assert os.path.isfile(zip_path), f"{zip_path} missing: run `make package`"
    if not (reuse and os.path.isdir(os.path.join(profiles, "profiles", "geobias"))):
        fresh_profile(profiles, zip_path)
    os.makedirs(out_dir, exist_ok=True)
    result_path = os.path.join(out_dir, "result.json")
    if os.path.exists(result_path):
        os.remove(result_path)
    run_env = dict(os.environ)
    run_env.pop("QT_QPA_PLATFORM", None)  # a real window on the virtual X server
    run_env.pop("QGIS_CUSTOM_CONFIG_PATH", None)
    # Desktop QGIS runs on the system Python; the venv's packages (shapely) come via PYTHONPATH,
    # as scripts/run_qgis.sh gives them.
    run_env["PYTHONPATH"] = sysconfig.get_paths()["purelib"]
    # The scenario's own watchdog ends it (with a screenshot) before this process is killed.
    run_env.setdefault("GEOBIAS_DESKTOP_TIMEOUT", str(max(60, timeout - 60)))
    # ResourceWarnings from QGIS's start on (Python ignores them by default); the Recorder
    # records those raised once the scenario runs.
    run_env["PYTHONWARNINGS"] = "default::ResourceWarning"
    run_env.update(GEOBIAS_ROOT=ROOT, GEOBIAS_DESKTOP_OUT=out_dir, **(env or {}))
    cmd = ["xvfb-run", "-a", "-s", f"-screen 0 {SCREEN}", "qgis"]
    cmd += ["--profiles-path", profiles, "--profile", "geobias", "--nologo", "--noversioncheck"]
    cmd += ["--code", script]
    # Own process group: a time-out kills Xvfb, QGIS and any model server it started.
    proc = subprocess.Popen(
        cmd,
        env=run_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        stdout, stderr = proc.communicate()
        stderr += f"\n[killed after {timeout} s]"
    result = {}
    if os.path.exists(result_path):
        with open(result_path) as f:
            result = json.load(f)
    return Outcome(proc.returncode, stdout, stderr, result)


def step_ok(run, name):
    """Assert that the scenario's step `name` ran and passed (its error and traceback if not)."""
    steps = {s["name"]: s for s in run.result["steps"]}
    assert name in steps, f"step {name} did not run; steps: {list(steps)}"
    step = steps[name]
    assert step["ok"], f"{name}: {step.get('error')}\n{step.get('traceback', '')}"
