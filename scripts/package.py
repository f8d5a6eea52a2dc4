"""Build geobias.zip for QGIS's "Install from ZIP": a geobias/ folder with only what runs.

What ships is listed, not what stays out, so a new development file (a test, a script, a pin
list, a translation source) never slips into the zip: the plugin's Python and Qt forms, its
bundled resources, the user guide (docs/guide/, what the dock's Help opens), the licence,
citation, readme and changelog, and the build products (the compiled translations i18n/*.qm
and the HTML help help/, from `make translations docs`).
"""

import fnmatch
import os
import subprocess
import sys
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Tracked files that ship: top-level modules and these files, and these patterns in folders
# (fnmatch: `*` crosses folders, so resources/* is everything under resources/).
TOP_LEVEL = ("metadata.txt", "LICENSE", "CITATION.cff", "README.md", "CHANGELOG.md")
IN_FOLDERS = ("core/*.py", "processing/*.py", "ui/*.py", "ui/*.ui", "resources/*", "docs/guide/*")
# Build products (not tracked): compiled translations and the HTML help.
BUILT = (("i18n", ".qm"), ("help", ""))


def _ships(path):
    folder, _, name = path.rpartition("/")
    if "__pycache__" in path:
        return False
    if not folder:
        return name.endswith(".py") or name in TOP_LEVEL
    return any(fnmatch.fnmatch(path, p) for p in IN_FOLDERS)


def shipped_files():
    """Tracked files that ship, plus the compiled translations and the HTML help."""
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    files = [f for f in tracked if _ships(f) and os.path.exists(os.path.join(ROOT, f))]
    for folder, suffix in BUILT:
        top = os.path.join(ROOT, folder)
        for base, _dirs, names in os.walk(top):
            for name in names:
                if name.endswith(suffix):
                    files.append(os.path.relpath(os.path.join(base, name), ROOT))
    return sorted(set(files))


def build(dest):
    files = shipped_files()
    if not any(f.endswith(".qm") for f in files):
        sys.exit("no compiled translations: run `make translations` first")
    if "help/processing.html" not in files:
        sys.exit("no HTML help: run `make docs` first")
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as z:
        for f in files:
            z.write(os.path.join(ROOT, f), f"geobias/{f}")
    return files


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "geobias.zip")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    files = build(out)
    print(f"{out}: {len(files)} files, {os.path.getsize(out) / 1e6:.1f} MB")
