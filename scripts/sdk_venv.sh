#!/usr/bin/env bash
# build/sdk: a venv of its own with the providers' official SDKs (requirements-sdk.txt), for
# test/sdk, which drives the local batch servers with them. Rebuilt when the pins change.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
STAMP=build/sdk/.pins
WANT="$(sha256sum requirements-sdk.txt | cut -d' ' -f1)"
if [ ! -x build/sdk/bin/python ] || [ "$(cat "$STAMP" 2>/dev/null)" != "$WANT" ]; then
    rm -rf build/sdk
    /usr/bin/python3 -m venv build/sdk
    build/sdk/bin/python -m pip install -q --disable-pip-version-check -r requirements-sdk.txt
    echo "$WANT" > "$STAMP"
fi
