"""Translations: `update` regenerates i18n/*.ts from the code, `compile` builds the .qm files.

The .ts sources are committed (translators edit them); the .qm files are build products.
"""

import glob
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
I18N = os.path.join(ROOT, "i18n")
LANGUAGES = ["fr"]
# Code and forms the plugin ships; tests, scripts and benchmarks show no user strings.
SOURCE_DIRS = ["", "processing", "processing/algorithms", "ui"]
# core/ is plain Python: its user-facing errors' English templates (QT_TRANSLATE_NOOP-marked)
# live in one module, which the QGIS side translates (i18n_util.message_text).
SOURCE_FILES = ["core/messages.py"]


def sources():
    files = []
    for d in SOURCE_DIRS:
        for pattern in ("*.py", "*.ui"):
            files += sorted(glob.glob(os.path.join(ROOT, d, pattern)))
    return [os.path.relpath(f, ROOT) for f in files] + SOURCE_FILES


def update():
    """Refresh every .ts from the code; existing translations are kept (pylupdate5 merges)."""
    tool = shutil.which("pylupdate5") or sys.exit("pylupdate5 not found (Debian: pyqt5-dev-tools)")
    for lang in LANGUAGES:
        ts = os.path.relpath(os.path.join(I18N, f"geobias_{lang}.ts"), ROOT)
        # Bare tr("...") calls land in the "@default" context, which i18n_util.tr() uses.
        subprocess.run(
            [tool, "-noobsolete", "-tr-function", "tr", *sources(), "-ts", ts], cwd=ROOT, check=True
        )


def compile_all():
    tool = shutil.which("lrelease") or sys.exit("lrelease not found (Debian: qttools5-dev-tools)")
    for ts in sorted(glob.glob(os.path.join(I18N, "*.ts"))):
        qm = ts[:-3] + ".qm"
        if os.path.exists(qm) and os.path.getmtime(qm) >= os.path.getmtime(ts):
            continue
        subprocess.run([tool, "-silent", ts, "-qm", qm], check=True)


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else "compile"
    {"update": update, "compile": compile_all}[command]()
