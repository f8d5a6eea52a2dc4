"""Build the HTML help shipped in the plugin zip from the Markdown in docs/ (build time only).

`python scripts/docs.py` writes help/ (a build product, like the .qm files): one page per
docs/*.md (processing.html is what each algorithm's Help opens), README.md as readme.html, and
the images they show. The user guide is HTML already (docs/guide/, with its screenshots) and
ships as it is. Links between the pages are rewritten from .md to .html,
so the help reads the same in the repository and in the installed plugin; links to the
plugin's own files (../core/engine/chat.py) keep working there, as help/ sits in the plugin folder.
QGIS does not need the `markdown` package: it runs only here (requirements.txt, development).
"""

from __future__ import annotations

import html
import os
import re
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = os.path.join(ROOT, "docs")
HELP = os.path.join(ROOT, "help")
SHIPPED = "docs/guide/"  # ships as it is (scripts/package.py): linked to, not copied
# Markdown link targets: [text](target) and ![alt](target); code spans are masked first.
LINK = re.compile(r"(!?\[(?:[^\]\[]|\[[^\]]*\])*\])\(\s*<?([^)\s>]+)>?(\s+\"[^\"]*\")?\s*\)")
CODE = re.compile(r"```.*?```|`[^`]+`", re.S)  # inline code may span a line break
STYLE = """
body { font-family: sans-serif; max-width: 54em; margin: 1em auto; padding: 0 1em;
       line-height: 1.45; color: #222; }
h1, h2, h3 { color: #1c3d5a; }
img { max-width: 100%; border: 1px solid #ccc; }
code { background: #f2f2f2; padding: 0 0.25em; border-radius: 3px; }
pre { background: #f2f2f2; padding: 0.5em; overflow-x: auto; }
table { border-collapse: collapse; }
td, th { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }
nav { font-size: 0.9em; border-bottom: 1px solid #ccc; padding-bottom: 0.3em; }
"""


def pages() -> dict[str, str]:
    """Source Markdown (repository path) -> HTML page name in help/."""
    out = {"README.md": "readme.html"}
    for name in sorted(os.listdir(DOCS)):
        if name.endswith(".md"):
            out[f"docs/{name}"] = f"{name[:-3]}.html"
    return out


def slug(text: str, separator: str = "-") -> str:
    """Heading anchors as GitHub makes them (lower case, punctuation dropped, spaces to -), so a
    `#anchor` link works on GitHub and in the help alike."""
    text = re.sub(r"<[^>]+>", "", html.unescape(text)).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", separator)


def split_target(target: str) -> tuple[str, str]:
    path, _, anchor = target.partition("#")
    return path, anchor


def is_external(target: str) -> bool:
    return bool(re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I))


def links(text: str) -> list[tuple[bool, str]]:
    """(is_image, target) of every Markdown link outside code."""
    masked = CODE.sub(lambda m: " " * len(m.group(0)), text)
    return [(m.group(1).startswith("!"), m.group(2)) for m in LINK.finditer(masked)]


def rewrite(text: str, source: str, page_of: dict[str, str]) -> str:
    """Point links to other pages at their HTML and links to files at their place relative to
    help/ (the repository and the plugin folder have the same layout)."""
    folder = os.path.dirname(source)

    def fix(label, target, title):
        if is_external(target) or target.startswith("#"):
            return None
        path, anchor = split_target(target)
        repo_path = os.path.normpath(os.path.join(folder, path))
        if repo_path in page_of:
            new = page_of[repo_path]
        elif label.startswith("!") and not repo_path.startswith(SHIPPED):
            new = image_name(repo_path)
        else:
            new = os.path.relpath(os.path.join(ROOT, repo_path), HELP)
        return f"{label}({new}{'#' + anchor if anchor else ''}{title})"

    # Find links in the text with code masked (a `[x](y)` in code is no link), replace them in
    # the original (a link's label may hold code: ![The `make demo` map](docs/map.png)).
    masked = CODE.sub(lambda m: " " * len(m.group(0)), text)
    pieces, last = [], 0
    for m in LINK.finditer(masked):
        label = text[m.start(1) : m.end(1)]
        new = fix(label, m.group(2), m.group(3) or "")
        if new is not None:
            pieces += [text[last : m.start()], new]
            last = m.end()
    pieces.append(text[last:])
    return "".join(pieces)


def image_name(repo_path: str) -> str:
    """Where an image lands in help/: docs/x.png -> x.png, docs/img/y.png -> img/y.png."""
    rel = os.path.relpath(repo_path, "docs")
    return rel if not rel.startswith("..") else os.path.basename(repo_path)


def render(text: str, title: str) -> str:
    import markdown

    body = markdown.markdown(
        text,
        extensions=["tables", "fenced_code", "toc", "sane_lists"],
        extension_configs={"toc": {"slugify": slug}},
        output_format="html",
    )
    nav = (
        '<nav><a href="../docs/guide/index.html">User guide</a> · '
        '<a href="install.html">Installing</a> · '
        '<a href="processing.html">Processing algorithms</a> · '
        '<a href="readme.html">README (all pages)</a></nav>'
    )
    return (
        f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{html.escape(title)} — GeoBias</title>\n<style>{STYLE}</style>\n</head>\n"
        f"<body>\n{nav}\n{body}\n</body>\n</html>\n"
    )


def build(dest: str = HELP) -> list[str]:
    """Write the help into `dest`; returns the files written (relative to dest)."""
    page_of = pages()
    if os.path.isdir(dest):
        shutil.rmtree(dest)
    os.makedirs(dest)
    written = []
    for source, page in page_of.items():
        with open(os.path.join(ROOT, source), encoding="utf-8") as f:
            text = f.read()
        first = next((line for line in text.splitlines() if line.startswith("# ")), "# GeoBias")
        out = render(rewrite(text, source, page_of), first[2:].strip())
        with open(os.path.join(dest, page), "w", encoding="utf-8") as f:
            f.write(out)
        written.append(page)
        for is_image, target in links(text):
            if not is_image or is_external(target):
                continue
            repo_path = os.path.normpath(os.path.join(os.path.dirname(source), target))
            if repo_path.startswith(SHIPPED):
                continue
            name = image_name(repo_path)
            os.makedirs(os.path.dirname(os.path.join(dest, name)) or dest, exist_ok=True)
            shutil.copyfile(os.path.join(ROOT, repo_path), os.path.join(dest, name))
            written.append(name)
    return sorted(set(written))


if __name__ == "__main__":
    files = build(sys.argv[1] if len(sys.argv) > 1 else HELP)
    print(f"help/: {len(files)} files")
