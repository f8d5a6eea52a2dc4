"""Build geobias.zip for QGIS's "Install from ZIP": a geobias/ folder with only what runs."""

import os
import subprocess
import sys
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Development-only paths never ship.
EXCLUDE_DIRS = (
    "test/",
    "scripts/",
    "benchmarks/",
    "docs/",
    ".ci/",
    ".github/",
    "build/",
    "output/",
    ".venv/",
)
# ...except the user guide, which the dock's Help button opens.
SHIPPED_DOCS = ("docs/guide/",)
EXCLUDE_FILES = {"Makefile", "pyproject.toml", "requirements.txt", "constraints.txt", ".gitignore"}


def shipped_files():
    """Tracked files minus development ones, plus the compiled translations."""
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    files = [
        f
        for f in tracked
        if (f.startswith(SHIPPED_DOCS) or not f.startswith(EXCLUDE_DIRS))
        and f not in EXCLUDE_FILES
        and "__pycache__" not in f
        and os.path.exists(os.path.join(ROOT, f))
    ]
    i18n = os.path.join(ROOT, "i18n")
    files += sorted(f"i18n/{n}" for n in os.listdir(i18n) if n.endswith(".qm"))
    return sorted(set(files))


def build(dest):
    files = shipped_files()
    if not any(f.endswith(".qm") for f in files):
        sys.exit("no compiled translations: run `make translations` first")
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as z:
        for f in files:
            z.write(os.path.join(ROOT, f), f"geobias/{f}")
    return files


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "geobias.zip")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    files = build(out)
    print(f"{out}: {len(files)} files, {os.path.getsize(out) / 1e6:.1f} MB")
