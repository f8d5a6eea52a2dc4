"""`make screenshot`: the user guide's first-survey series, taken in the real QGIS desktop
(Xvfb, a fresh profile, the plugin from build/geobias.zip, the embedded model), copied into
docs/guide/img/ for the guide and the README."""

import os
import shutil
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "test", "desktop"))
from launch import run_scenario  # noqa: E402

SHOTS = ("01-area", "02-survey", "03-results")


def main():
    out = os.path.join(ROOT, "build", "screenshots", "series")
    shutil.rmtree(out, ignore_errors=True)
    with tempfile.TemporaryDirectory() as profiles:
        outcome = run_scenario(os.path.join(ROOT, "scripts", "screenshot_survey.py"), out, profiles)
    failed = [s for s in outcome.result.get("steps", []) if not s["ok"]]
    if outcome.died or failed or not outcome.result.get("done"):
        sys.exit(f"screenshots failed: {failed}\n{outcome.tail()}")
    dest = os.path.join(ROOT, "docs", "guide", "img")
    os.makedirs(dest, exist_ok=True)
    for name in SHOTS:
        shutil.copy(os.path.join(out, f"{name}.png"), os.path.join(dest, f"{name}.png"))
        print(f"screenshot: docs/guide/img/{name}.png")


if __name__ == "__main__":
    main()
