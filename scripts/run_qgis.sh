#!/usr/bin/env bash
# `make qgis`: QGIS desktop with GeoBias installed and enabled in a dedicated profile.
# Usage: scripts/run_qgis.sh [extra qgis arguments, e.g. --code script.py]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PROFILES="${GEOBIAS_PROFILES:-$ROOT/build/qgis-profiles}"
PROFILE="$PROFILES/profiles/geobias"  # QGIS keeps profiles in <profiles-path>/profiles
PLUGINS="$PROFILE/python/plugins"
mkdir -p "$PLUGINS" "$PROFILE/QGIS"

rm -rf "$PLUGINS/geobias"
# GEOBIAS_FROM_TREE=1 runs the working tree instead of the packaged zip.
if [ -f "$ROOT/build/geobias.zip" ] && [ -z "${GEOBIAS_FROM_TREE:-}" ]; then
    # The packaged plugin, as a user installs it from a zip.
    (cd "$PLUGINS" && unzip -q -o "$ROOT/build/geobias.zip")
else
    ln -s "$ROOT" "$PLUGINS/geobias"  # no zip yet: run the working tree
fi

# Enable the plugin (and skip the first-run dialogs) in the profile's settings.
INI="$PROFILE/QGIS/QGIS3.ini"
"$ROOT/.venv/bin/python" - "$INI" <<'PY'
import configparser, sys
path = sys.argv[1]
ini = configparser.RawConfigParser()
ini.optionxform = str
ini.read(path)
for section, values in {
    "PythonPlugins": {"geobias": "true"},
    "qgis": {"showTips": "false", "checkVersion": "false", "allowVersionCheck": "false"},
    "migration": {"firstRunVersionFlag": "32200"},
}.items():
    if not ini.has_section(section):
        ini.add_section(section)
    for key, value in values.items():
        ini.set(section, key, value)
with open(path, "w") as f:
    ini.write(f, space_around_delimiters=False)
PY

# The venv's packages (xllamacpp, shapely 2, the embedded model wheel) import inside QGIS.
SITE="$("$ROOT/.venv/bin/python" -c 'import site; print(site.getsitepackages()[0])')"
export PYTHONPATH="$SITE${PYTHONPATH:+:$PYTHONPATH}"
exec qgis --profiles-path "$PROFILES" --profile geobias --nologo "$@"
