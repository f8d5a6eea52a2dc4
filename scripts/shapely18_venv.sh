#!/usr/bin/env bash
# A venv where Debian 12's python3-shapely (1.8.5, on the system GEOS) is the shapely imported,
# for `make test-shapely18`: the shapely a Debian QGIS user gets from apt. Only the test tools are added.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
VENV=build/shapely18
PINS="$(grep -E '^(pytest|vermin)==' requirements.txt | tr '\n' ' ')"
if [ ! -x "$VENV/bin/python" ] || [ "$(cat "$VENV/.pins" 2>/dev/null)" != "$PINS" ]; then
    rm -rf "$VENV"
    /usr/bin/python3 -m venv --system-site-packages "$VENV"
    # shellcheck disable=SC2086
    "$VENV/bin/python" -m pip install -q --disable-pip-version-check $PINS
    echo "$PINS" > "$VENV/.pins"
fi
mkdir -p build/shapely18src
ln -sfn "$ROOT" build/shapely18src/geobias
"$VENV/bin/python" -c 'import shapely, sys; sys.exit(0 if shapely.__version__.startswith("1.8") else
    f"test-shapely18: {shapely.__file__} is shapely {shapely.__version__}, not 1.8 (apt-get install python3-shapely)")'
