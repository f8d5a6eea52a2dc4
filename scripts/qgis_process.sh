#!/usr/bin/env bash
# Run GeoBias's Processing algorithms headless with qgis_process, in a dedicated profile.
#   scripts/qgis_process.sh list | grep geobias
#   scripts/qgis_process.sh run geobias:importratings -- INPUT=ratings.csv OUTPUT=rated.gpkg
# Debian's /usr/bin/qgis_process wrapper adds --noversioncheck (from /etc/default/qgis), which
# the 3.22 binary rejects, so this calls /usr/bin/qgis_process.bin directly.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CONFIG="${GEOBIAS_QGIS_CONFIG:-$ROOT/build/qgis-process}"
PLUGINS="$CONFIG/profiles/default/python/plugins"
mkdir -p "$PLUGINS"
ln -sfn "$ROOT" "$PLUGINS/geobias"
export QGIS_CUSTOM_CONFIG_PATH="$CONFIG"
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"
# QGIS runs on the system Python; the venv adds shapely 2 and the embedded model.
PURELIB="$("$ROOT/.venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
export PYTHONPATH="$PURELIB${PYTHONPATH:+:$PYTHONPATH}"
if ! grep -qs '^geobias=true' "$CONFIG/profiles/default/QGIS/QGIS3.ini"; then
    /usr/bin/qgis_process.bin plugins enable geobias >/dev/null 2>&1
fi
exec /usr/bin/qgis_process.bin "$@"
