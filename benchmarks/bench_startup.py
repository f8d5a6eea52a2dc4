"""What enabling GeoBias adds to a start (issue 34 item 7): `qgis_process.bin list` in a fresh
profile with the plugin enabled and in one without it, in alternating pairs; the median added
wall time, CPU time (user + system, steadier than wall time on a loaded machine) and peak
resident memory (the child's own, from wait4). Target: <= 100 ms and <= 15 MB."""

import os
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import reliability  # noqa: E402

QGIS_PROCESS = (
    "/usr/bin/qgis_process.bin"  # the /usr/bin/qgis_process wrapper adds a flag 3.22 rejects
)
PAIRS = int(os.environ.get("GEOBIAS_BENCH_PAIRS", "15"))
TARGET_MS, TARGET_MB = 100, 15


def profile(home, with_plugin):
    """A fresh QGIS profile; with GeoBias linked and enabled when `with_plugin`."""
    # Bytecode cached as in a user's plugin folder (this machine's shells set
    # PYTHONDONTWRITEBYTECODE; compiling every module at every start would be measured instead).
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", QGIS_CUSTOM_CONFIG_PATH=home,
               PYTHONPATH=sysconfig.get_paths()["purelib"],
               PYTHONPYCACHEPREFIX=os.path.join(home, "pycache"))  # fmt: skip
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    plugins = os.path.join(home, "profiles", "default", "python", "plugins")
    os.makedirs(plugins)
    if with_plugin:
        os.symlink(ROOT, os.path.join(plugins, "geobias"))
        subprocess.run([QGIS_PROCESS, "plugins", "enable", "geobias"], env=env, check=True,
                       capture_output=True, timeout=300)  # fmt: skip
    return env


def start(env):
    """(wall seconds, peak RSS in MB, CPU seconds, output) of one `qgis_process.bin list`."""
    t = time.perf_counter()
    proc = subprocess.Popen([QGIS_PROCESS, "list"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)  # fmt: skip
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - t
    proc.returncode = os.waitstatus_to_exitcode(status)
    assert proc.returncode == 0, proc.returncode
    return seconds, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime, out


def main():
    with tempfile.TemporaryDirectory() as tmp:
        envs = {w: profile(os.path.join(tmp, str(w)), w) for w in (False, True)}
        listed = start(envs[True])[-1]
        assert b"geobias:" in listed, "GeoBias's algorithms are not listed"
        start(envs[False])  # warm the caches
        added_ms, added_cpu, added_mb, runs = [], [], [], {False: [], True: []}
        for i in range(PAIRS):
            order = (False, True) if i % 2 == 0 else (True, False)
            got = {w: start(envs[w])[:3] for w in order}
            for w in order:
                runs[w].append(got[w])
            added_ms.append((got[True][0] - got[False][0]) * 1000)
            added_mb.append(got[True][1] - got[False][1])
            added_cpu.append((got[True][2] - got[False][2]) * 1000)
    ms, mb = statistics.median(added_ms), statistics.median(added_mb)
    cpu = statistics.median(added_cpu)
    load = os.getloadavg()[0]
    base_s = statistics.median(r[0] for r in runs[False])
    with_s = statistics.median(r[0] for r in runs[True])
    print(f"qgis_process list, {PAIRS} alternating pairs: without GeoBias {base_s:.2f} s, "
          f"with {with_s:.2f} s; median added {ms:.0f} ms wall, {cpu:.0f} ms CPU, "
          f"{mb:.1f} MB peak RSS at load {load:.1f} "
          f"(targets <= {TARGET_MS} ms, <= {TARGET_MB} MB)")  # fmt: skip
    reliability.record("start_qgis_process", f"+{ms:.0f} ms, +{mb:.1f} MB",
                       ms <= TARGET_MS and mb <= TARGET_MB,
                       f"median of {PAIRS} pairs, {cpu:.0f} ms CPU; {base_s:.2f} s without, "
                       f"load {load:.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
