#!/usr/bin/env bash
# `make screenshot`: real QGIS under Xvfb. (1) The user guide's first survey with the embedded
# model, from the packaged zip, into docs/guide/img/ (scripts/screenshots.py); (2) the dock with
# the GPT-3.5 reference metrics, saved to build/screenshots/dock.png. GEOBIAS_SCREENSHOT=demo: only
# the dock with the last `make demo` run of the embedded model, build/screenshots/dock_demo.png.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$ROOT/build/screenshots"
OUT="$ROOT/build/screenshots/dock.png"
if [ "${GEOBIAS_SCREENSHOT:-}" = demo ]; then
    OUT="$ROOT/build/screenshots/dock_demo.png"  # the last make demo run only
else
    "$ROOT/.venv/bin/python" "$ROOT/scripts/screenshots.py"
fi
rm -f "$OUT"
export GEOBIAS_ROOT="$ROOT"
export GEOBIAS_FROM_TREE="${GEOBIAS_FROM_TREE:-1}"
# A symlink to the repository inside build/ would make copies of the tree recurse: drop it after.
trap 'rm -f "$ROOT/build/qgis-profiles/profiles/geobias/python/plugins/geobias"' EXIT
unset QT_QPA_PLATFORM  # a real window on the virtual X server
timeout 240 xvfb-run -a -s "-screen 0 1600x1000x24" \
    bash "$ROOT/scripts/run_qgis.sh" --code "$ROOT/scripts/screenshot_dock.py" || true
test -s "$OUT" && echo "screenshot: $OUT"
