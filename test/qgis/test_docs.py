"""The README and docs link nothing outside the repository; the HTML help built from them (what
the zip ships) resolves every link inside the plugin; each algorithm's helpUrl opens its own
section, which documents every parameter and output it has."""

import html.parser
import os
import re
import sys
from urllib.parse import unquote, urlsplit

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import package  # noqa: E402

import docs  # noqa: E402

# Plain URLs allowed in the text (not as links): attribution the data licences require.
ATTRIBUTION_URLS = {"https://www.geonames.org"}
BARE_URL = re.compile(r"https?://[^\s)\]>`\"']+")


def markdown_files():
    return ["README.md"] + [f"docs/{n}" for n in sorted(os.listdir(os.path.join(ROOT, "docs")))
                            if n.endswith(".md")]  # fmt: skip


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


def anchors_of_markdown(path):
    """GitHub's heading anchors of a Markdown file (what docs.slug makes too)."""
    text = docs.CODE.sub("", read(path))
    return {docs.slug(m.group(1)) for m in re.finditer(r"^#{1,6}\s+(.+?)\s*#*\s*$", text, re.M)}


@pytest.mark.parametrize("path", markdown_files())
def test_markdown_links_resolve_inside_the_repository(path):
    text = read(path)
    broken = []
    for _is_image, target in docs.links(text):
        if docs.is_external(target):
            broken.append(f"{target}: links outside the repository")
            continue
        file, anchor = docs.split_target(target)
        resolved = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
        if resolved.startswith(".."):
            broken.append(f"{target}: outside the repository")
        elif not os.path.exists(os.path.join(ROOT, resolved)):
            broken.append(f"{target}: {resolved} does not exist")
        elif anchor and resolved.endswith(".md") and anchor not in anchors_of_markdown(resolved):
            broken.append(f"{target}: no heading #{anchor} in {resolved}")
    masked = docs.CODE.sub("", docs.LINK.sub("", text))
    for url in BARE_URL.findall(masked):
        if url.rstrip(".,;") not in ATTRIBUTION_URLS:
            broken.append(f"{url}: a web address in the text")
    assert not broken, f"{path}: " + "; ".join(broken)


def test_the_link_check_sees_a_broken_link():
    links = docs.links("See [the guide](docs/nothere.md), `[not](a-link)` and ![x](y.png).")
    assert links == [(False, "docs/nothere.md"), (True, "y.png")]
    assert docs.is_external("https://example.org") and not docs.is_external("guide.md#x")


class Refs(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.refs, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        for key in ("href", "src"):
            if attrs.get(key):
                self.refs.append(attrs[key])


def parse(path):
    parser = Refs()
    with open(path, encoding="utf-8") as f:
        parser.feed(f.read())
    return parser


@pytest.fixture(scope="module")
def built_help(tmp_path_factory):
    """The help as the zip ships it: built into help/ beside the plugin's shipped files."""
    dest = docs.HELP
    docs.build(dest)
    return dest


def test_the_help_and_guide_resolve_every_link_inside_the_shipped_plugin(built_help):
    shipped = set(package.shipped_files())
    pages = [f"help/{n}" for n in os.listdir(built_help) if n.endswith(".html")]
    assert "help/readme.html" in pages and "help/processing.html" in pages
    pages.append("docs/guide/index.html")
    assert set(pages) <= shipped
    ids = {p: parse(os.path.join(ROOT, p)).ids for p in pages}
    broken = []
    for page in pages:
        for ref in parse(os.path.join(ROOT, page)).refs:
            if docs.is_external(ref):
                broken.append(f"{page}: {ref} leaves the plugin")
                continue
            path, anchor = docs.split_target(unquote(ref))
            target = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
            if target not in shipped:
                broken.append(f"{page}: {ref} -> {target} is not in the zip")
            elif anchor and target.endswith(".html") and anchor not in ids[target]:
                broken.append(f"{page}: {ref} has no #{anchor}")
    assert not broken, broken


def test_each_algorithm_has_help_that_matches_it(processing_ready, built_help):
    from qgis.core import QgsApplication

    from geobias.paths import PROCESSING_HELP

    provider = QgsApplication.processingRegistry().providerById("geobias")
    algorithms = provider.algorithms()
    assert len(algorithms) >= 8
    with open(PROCESSING_HELP, encoding="utf-8") as f:
        page = f.read()
    ids = parse(PROCESSING_HELP).ids
    for alg in algorithms:
        url = urlsplit(alg.helpUrl())
        assert url.scheme == "file" and os.path.samefile(unquote(url.path), PROCESSING_HELP)
        assert url.fragment == alg.name() and alg.name() in ids, alg.name()
        start = page.index(f'id="{alg.name()}"')
        end = page.find("<h3", start + 1)
        section = page[start : end if end > 0 else len(page)]
        names = [p.name() for p in alg.parameterDefinitions()]
        names += [o.name() for o in alg.outputDefinitions()]
        missing = [n for n in names if f"<code>{n}</code>" not in section]
        assert not missing, f"{alg.id()}: docs/processing.md does not document {missing}"
        assert alg.shortHelpString().strip(), alg.id()


def test_the_guide_is_what_help_opens_and_links_the_reference(built_help):
    from geobias.paths import GUIDE

    assert os.path.samefile(GUIDE, os.path.join(ROOT, "docs", "guide", "index.html"))
    refs = parse(GUIDE).refs
    assert "../../help/processing.html" in refs and "../../help/batch.html" in refs
