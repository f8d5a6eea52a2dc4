"""Translations: `update` regenerates i18n/*.ts from the code, `compile` builds the .qm files,
`fill OTHER.ts` takes the French of another copy for messages still untranslated (after a merge).

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


def fill(other: str) -> int:
    """Give every untranslated message of i18n/geobias_fr.ts the translation `other` (another
    .ts, e.g. a branch's copy before a merge) has for the same context and source: the .ts is
    regenerated from the code, so after a merge `update` then `fill` keeps both sides' French."""
    import xml.etree.ElementTree as ET

    def messages(root):
        for context in root.iter("context"):
            name = context.findtext("name")
            for message in context.iter("message"):
                yield name, message

    known = {}
    for name, message in messages(ET.parse(other).getroot()):
        tr_ = message.find("translation")
        if tr_ is not None and tr_.get("type") != "unfinished" and (tr_.text or "").strip():
            known[(name, message.findtext("source"))] = tr_.text
    ts = os.path.join(I18N, "geobias_fr.ts")
    text = open(ts, encoding="utf-8").read()
    tree = ET.ElementTree(ET.fromstring(text.encode("utf-8")))
    filled = 0
    for name, message in messages(tree.getroot()):
        tr_ = message.find("translation")
        if tr_ is not None and tr_.get("type") == "unfinished":
            found = known.get((name, message.findtext("source")))
            if found:
                tr_.text = found
                del tr_.attrib["type"]
                filled += 1
    if filled:
        body = ET.tostring(tree.getroot(), encoding="unicode")
        with open(ts, "w", encoding="utf-8") as out:
            out.write('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n' + body + "\n")
        update()  # back to pylupdate's own layout
    print(f"filled {filled} translations from {other}")
    return filled


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else "compile"
    if command == "fill":
        fill(sys.argv[2])
    else:
        {"update": update, "compile": compile_all}[command]()
