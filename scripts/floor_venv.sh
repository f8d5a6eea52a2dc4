#!/usr/bin/env bash
# A venv on the oldest Python GeoBias supports (3.9), for `make test-floor`: core needs only
# numpy, scipy, shapely and requests, at versions that still ship 3.9 wheels.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PY39=""
for c in ${GEOBIAS_PY39:-} /usr/bin/python3.9 /usr/local/bin/python3.9 "$HOME"/.pyenv/versions/3.9*/bin/python; do
    if [ -x "$c" ] && "$c" -c 'import sys; assert sys.version_info[:2] == (3, 9)' 2>/dev/null; then
        PY39="$c"; break
    fi
done
if [ -z "$PY39" ]; then
    echo "test-floor: no Python 3.9 found (set GEOBIAS_PY39=/path/to/python3.9)" >&2
    exit 1
fi
PINS="numpy==1.24.4 scipy==1.10.1 shapely==2.0.7 requests==2.32.3 pytest==8.3.4 vermin==1.9.2"
STAMP=build/py39/.pins
if [ ! -x build/py39/bin/python ] || [ "$(cat "$STAMP" 2>/dev/null)" != "$PINS" ]; then
    rm -rf build/py39
    "$PY39" -m venv build/py39
    # shellcheck disable=SC2086
    build/py39/bin/python -m pip install -q --disable-pip-version-check $PINS
    echo "$PINS" > "$STAMP"
fi
mkdir -p build/py39src
ln -sfn "$ROOT" build/py39src/geobias
