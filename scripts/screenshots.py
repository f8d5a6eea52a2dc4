"""`make screenshot`: the user guide's first-survey series, its Overlay, Regional bias and Compare
tabs (and the narrow dock's tabs, to look at), taken in the real
QGIS desktop (Xvfb, a fresh profile, the plugin from build/geobias.zip, the embedded model),
copied into docs/guide/img/ for the guide and the README."""

import os
import shutil
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "test", "desktop"))
from launch import run_scenario  # noqa: E402

# (scenario, its output folder under build/screenshots, {its screenshot: the guide's image})
SERIES = (
    ("scripts/screenshot_survey.py", "series",
     {"01-area": "01-area", "02-survey": "02-survey", "03-results": "03-results"}),
    ("test/desktop/scenario_overlay.py", "overlay", {"21_hotspots": "04-overlay"}),
    # The Regional bias and Compare tabs; the narrow dock's tabs stay in build/screenshots/tabs.
    ("scripts/screenshot_tabs.py", "tabs", {"05-herb": "05-herb", "06-compare": "06-compare"}),
)  # fmt: skip


def main():
    dest = os.path.join(ROOT, "docs", "guide", "img")
    os.makedirs(dest, exist_ok=True)
    for script, folder, shots in SERIES:
        out = os.path.join(ROOT, "build", "screenshots", folder)
        shutil.rmtree(out, ignore_errors=True)
        with tempfile.TemporaryDirectory() as profiles:
            outcome = run_scenario(os.path.join(ROOT, script), out, profiles)
        failed = [s for s in outcome.result.get("steps", []) if not s["ok"]]
        if outcome.died or failed or not outcome.result.get("done"):
            sys.exit(f"screenshots failed: {failed}\n{outcome.tail()}")
        for name, image in shots.items():
            shutil.copy(os.path.join(out, f"{name}.png"), os.path.join(dest, f"{image}.png"))
            print(f"screenshot: docs/guide/img/{image}.png")


if __name__ == "__main__":
    main()
