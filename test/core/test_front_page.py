"""The front page a geographer opens first (issue 34 item 6): README.md is short, says what
GeoBias is with one screenshot, how to install it and its local model, the first survey, the
two papers and how to cite; everything else lives in docs/ and is linked from it. metadata.txt
(what QGIS's plugin manager shows) uses a QGIS category and a short `about`; the developers' page
lists every make target."""

import configparser
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Markdown links and images, as scripts/docs.py reads them (code spans masked first).
LINK = re.compile(r"(!?)\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>#]*)")
CODE = re.compile(r"```.*?```|`[^`]+`", re.S)
SECTIONS = ("Install in QGIS", "Install local model", "Your first survey", "The two papers",
            "How to cite", "For developers")  # fmt: skip
QGIS_CATEGORIES = {"Raster", "Vector", "Database", "Web"}  # none: Plugins


def read(*path):
    with open(os.path.join(ROOT, *path), encoding="utf-8") as f:
        return f.read()


def readme_links():
    text = CODE.sub("", read("README.md"))
    return [(bang == "!", target) for bang, target in LINK.findall(text)]


def test_the_readme_is_a_short_front_page_with_its_sections():
    text = read("README.md")
    assert len(text.splitlines()) <= 150, "README.md is the front page: move details to docs/"
    headings = re.findall(r"^## (.+)$", text, re.M)
    missing = [s for s in SECTIONS if s not in headings]
    assert not missing, f"README.md lacks the sections {missing}"
    images = [t for is_image, t in readme_links() if is_image]
    assert len(images) == 1 and images[0].startswith("docs/"), images
    assert os.path.getsize(os.path.join(ROOT, images[0])) > 10_000


def test_every_page_of_docs_is_linked_from_the_readme():
    linked = {os.path.normpath(t) for _, t in readme_links() if t}
    pages = sorted(f"docs/{n}" for n in os.listdir(os.path.join(ROOT, "docs")) if n.endswith(".md"))
    assert len(pages) >= 10
    unlinked = [p for p in pages + ["docs/guide/index.html", "CITATION.cff"] if p not in linked]
    assert not unlinked, f"README.md does not link {unlinked}"


def test_the_readme_cites_the_papers_of_citation_cff():
    cff = read("CITATION.cff")
    titles = re.findall(r'^  - type: conference-paper\n    title: "([^"]+)"', cff, re.M)
    assert len(titles) == 2
    readme = re.sub(r"\s+", " ", read("README.md"))
    for title in titles:
        assert f"*{title}.*" in readme, title
    assert "10.18653/v1/2022.findings-aacl.32" in readme and "34654" in readme


def metadata():
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(os.path.join(ROOT, "metadata.txt"), encoding="utf-8")
    return parser["general"]


def test_metadata_uses_a_qgis_category_and_a_short_about():
    meta = metadata()
    assert meta.get("category", "") in QGIS_CATEGORIES | {""}, meta.get("category")
    about = meta["about"]
    assert 200 <= len(about) <= 800, len(about)
    assert "pip " not in about and "Terms of Use" not in about and "licen" not in about.lower()
    assert "\n" not in about.strip()  # one paragraph
    assert meta["homepage"].endswith("docs/guide/index.html")


def test_every_make_target_is_in_the_developers_page():
    rules = re.findall(r"^([a-z][\w-]*):", read("Makefile"), re.M)
    page = read("docs", "development.md")
    assert len(rules) > 10
    missing = [r for r in rules if r != "all" and f"`make {r}`" not in page]
    assert not missing, f"docs/development.md does not list {missing}"
