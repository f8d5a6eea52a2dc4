"""A long session in the real QGIS desktop (issue 23, item 7): QGIS's resident memory after each
of ten surveys of 20 points and three HERB runs with the embedded model, the plugin reloaded
twice on the way (test/desktop/scenario_long_session.py, the scenario the desktop test checks
for leftovers). The growth from the end of the first run to the end of the last goes to make
bench's reliability table: target <= 150 MB. Needs build/geobias.zip (make package) and Xvfb.
"""

import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reliability import record  # noqa: E402

TARGET_MB = 150


def main():
    from geobias.test.desktop.launch import ROOT, run_scenario

    if not shutil.which("xvfb-run"):
        print("xvfb-run is missing (Debian xvfb): the long session cannot run")
        return 1
    script = os.path.join(ROOT, "test", "desktop", "scenario_long_session.py")
    out = os.path.join(ROOT, "build", "bench", "long-session")
    shutil.rmtree(out, ignore_errors=True)
    with tempfile.TemporaryDirectory() as profiles:
        outcome = run_scenario(script, out, profiles, timeout=1500)
    result = outcome.result
    failed = [s["name"] for s in result.get("steps", []) if not s["ok"]]
    runs = result.get("facts", {}).get("runs", [])
    if not runs:
        print("the session ran no survey\n" + outcome.tail())
        return 1
    print(f"{'run':12} {'tasks':>5} {'s':>6} {'RSS MB':>7}")
    print(f"{'(start)':12} {'':5} {'':6} {result['facts']['start']['rss_mb']:7.0f}")
    for run in runs:
        print(f"{run['name']:12} {run['tasks']:5d} {run['seconds']:6.1f} {run['rss_mb']:7.0f}")
    growth = runs[-1]["rss_mb"] - runs[0]["rss_mb"]
    ok = growth <= TARGET_MB and not failed
    print(f"growth from the end of the first run to the end of the last: {growth:+.0f} MB "
          f"(target <= {TARGET_MB} MB); session {result.get('seconds', 0):.0f} s"
          + (f"; FAILED STEPS: {failed}" if failed else ""))  # fmt: skip
    record("session_growth", f"{growth:+.0f} MB", ok,
           f"RSS {runs[0]['rss_mb']:.0f} -> {runs[-1]['rss_mb']:.0f} MB over {len(runs)} runs "
           f"and 2 reloads, session {result.get('seconds', 0):.0f} s")  # fmt: skip
    return 0 if not failed else 1


if __name__ == "__main__":
    sys.exit(main())
