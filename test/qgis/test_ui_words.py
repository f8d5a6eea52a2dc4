"""Names and words (offscreen QGIS): rated layers named "topic · model" with a legend heading
and class labels that fit the Layers panel; Inspect a point says which value is the score and
why; no Python repr reaches a message; Help shows the guide without a browser; the guide covers
every tab of the dock and agrees with the README and the install pages on the embedded model's
Python."""

import os
import re
import socket

import pytest
from qgis.core import (
    QgsFeature,
    QgsLayerTreeModel,
    QgsLegendRenderer,
    QgsLegendStyle,
    QgsProject,
    QgsSettings,
    QgsVectorLayer,
)
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtGui import QFont, QFontMetrics

from geobias.paths import COUNTRIES, GUIDE, PLUGIN_DIR, REFERENCE
from geobias.processing import legend, styles
from geobias.test.qtstub import wait_job
from geobias.ui import guide, survey_plan
from geobias.ui.dock import GeoBiasDock
from geobias.ui.settings import SETTINGS_GROUP, save_endpoints
from geobias.ui.task import error_sentence

IMR = "Infant Mortality Rate"
CSV = os.path.join(REFERENCE, "gpt_3_5_turbo_0613_Infant_Mortality_Rate_world_prompts.csv")
# The Layers panel of a fresh QGIS profile on a 1600 px screen leaves a rated layer's legend
# labels about 170 px (Sans Serif 9 pt) before they are cut: keep them within that.
LABEL_ROOM = 170


@pytest.fixture()
def dock(qgis_iface, qgis_new_project, processing_ready, tmp_path):
    QgsProject.instance().setFileName(str(tmp_path / "project.qgz"))
    d = GeoBiasDock(qgis_iface)
    d.messages = []
    d.push = lambda text, *a, **k: d.messages.append(text)
    yield d
    d.close_survey()
    d.deleteLater()
    save_endpoints([])


def rated_with_truth(tmp_path):
    rated = survey_plan.run_algorithm("geobias:importratings", {
        "INPUT": CSV, "MODEL": "gpt-3.5-turbo-0613", "TOPIC": IMR,
        "OUTPUT": str(tmp_path / "rated.gpkg")})["OUTPUT"]  # fmt: skip
    truth = survey_plan.run_algorithm("geobias:samplegroundtruth", {
        "INPUT": rated, "POLYGONS": COUNTRIES, "POLYGON_FIELD": "infant_mortality",
        "OUTPUT": str(tmp_path / "truth_imr.gpkg")})["OUTPUT"]  # fmt: skip
    return truth.split("|")[0]


def open_results(dock, paths):
    wait_job(dock, dock.results.open_files(paths))
    return dock.results.rated_layers


def test_a_rated_layer_is_named_topic_and_model_even_alone(dock, layer_tree_view, tmp_path):
    (layer,) = open_results(dock, [rated_with_truth(tmp_path)])
    assert layer.name() == f"{IMR} · gpt-3.5-turbo"
    # The toolbox names its outputs the same way.
    import processing

    out = processing.runAndLoadResults("geobias:importratings", {
        "INPUT": CSV, "MODEL": "gpt-3.5-turbo-0613", "TOPIC": IMR,
        "OUTPUT": str(tmp_path / "loaded.gpkg")})["OUTPUT"]  # fmt: skip
    loaded = QgsProject.instance().mapLayer(out) or next(
        lyr for lyr in QgsProject.instance().mapLayers().values()
        if lyr.source().startswith(str(tmp_path / "loaded.gpkg")))  # fmt: skip
    assert loaded.name() == f"{IMR} · gpt-3.5-turbo"


def legend_texts(layer, model):
    node = model.rootGroup().findLayer(layer.id())
    return [n.data(Qt.ItemDataRole.DisplayRole) for n in model.layerLegendNodes(node)]


def test_legends_have_a_heading_and_labels_that_fit_the_layers_panel(dock, qgis_app, tmp_path):
    legend.install_headings()
    try:
        (layer,) = open_results(dock, [rated_with_truth(tmp_path)])
        model = QgsLayerTreeModel(QgsProject.instance().layerTreeRoot())
        texts = legend_texts(layer, model)
        assert texts[0] == "Rank error: rating − truth"
        assert texts[1:] == ["overestimate > 0.5", "overestimate 0.15–0.5", "about right (±0.15)",
                             "underestimate 0.15–0.5", "underestimate > 0.5"]  # fmt: skip
        fm = QFontMetrics(QFont("Sans Serif", 9))
        widths = {t: fm.horizontalAdvance(t) for t in texts}
        # Another saved style, another heading (the rank of the rating, then the ratings).
        layer.styleManager().setCurrentStyle("rank")  # QGIS gives the layer a new legend
        qgis_app.processEvents()
        texts = legend_texts(layer, model)
        assert texts[0] == "Rank of the rating" and texts[1] == "highest (0.8–1)"
        widths.update({t: fm.horizontalAdvance(t) for t in texts})
        layer.styleManager().setCurrentStyle("rating")
        qgis_app.processEvents()
        texts = legend_texts(layer, model)
        assert texts[0] == "Rating, by quantiles" and re.fullmatch(r"\d\.\d–\d\.\d", texts[1])
        for field in ("rank", "truth_rank", "rank_error", "score", "mean_rank", "mean_rank_error"):
            heading = styles.legend_heading(field)
            widths[heading] = fm.horizontalAdvance(heading)
        too_wide = {t: w for t, w in widths.items() if w > LABEL_ROOM}
        assert not too_wide, too_wide
        # A legend that hides the layer's name has its own title (the report's maps): no heading.
        layout_root = QgsProject.instance().layerTreeRoot().clone()
        node = layout_root.findLayer(layer.id())
        QgsLegendRenderer.setNodeLegendStyle(node, QgsLegendStyle.Style.Hidden)
        titled = QgsLayerTreeModel(layout_root)
        assert legend_texts(layer, titled)[0] != "Rating, by quantiles"
    finally:
        legend.remove_headings()
    assert not isinstance(layer.legend(), legend.HeadedLegend)  # QGIS's own legend back


def point(**values):
    layer = QgsVectorLayer(
        "Point?crs=EPSG:4326&field=model:string&field=topic:string&field=rating:double"
        "&field=expected:double&field=score:double&field=score_kind:string"
        "&field=answered:integer&field=failed:integer&field=truth:double"
        "&field=rank_error:double&field=completion:string&field=prompt:string",
        "p",
        "memory",
    )
    f = QgsFeature(layer.fields())
    for name, value in values.items():
        f[name] = value
    return f


def test_inspect_a_point_says_which_value_is_the_score_and_why(dock):
    show = dock.results.show_answer
    common = {"model": "gemma-3-270m", "topic": IMR, "answered": 1, "failed": 0,
              "completion": "My answer is 0.0.", "prompt": "Coordinates: …"}  # fmt: skip
    show(point(rating=0.0, expected=3.44, score=3.44, score_kind="expected", **common))
    text = dock.results.answerText.toPlainText()
    assert "Score: 3.44, the expected value" in text and "(the greedy rating, 0)" in text
    assert "My answer is 0.0." in text
    show(point(rating=7.0, expected=6.1, score=7.0, score_kind="greedy", **common))
    text = dock.results.answerText.toPlainText()
    assert "Score: 7, the greedy rating: the number the answer writes" in text
    assert "the expected value would be 6.1" in text
    show(point(rating=None, expected=None, score=None, score_kind="greedy",
               **dict(common, answered=0, completion="I cannot rate this.")))  # fmt: skip
    assert "No score: the answer holds no rating." in dock.results.answerText.toPlainText()


def closed_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_test_connection_says_refused_without_a_python_repr(qgis_app):
    from geobias.test.qtstub import wait_for
    from geobias.ui.options import GeoBiasOptionsPage

    QgsSettings().remove(SETTINGS_GROUP)
    try:
        page = GeoBiasOptionsPage()
        page.add()
        page.baseUrlEdit.setText(f"http://127.0.0.1:{closed_port()}/v1")
        page.modelCombo.setEditText("some-model")
        page.testButton.click()
        wait_for(lambda: page.task is None, what="the connection test")
        text = page.statusLabel.text()
        assert "refused" in text.lower(), text
        assert " object at 0x" not in text and "<" not in text and "Pool(" not in text, text
    finally:
        QgsSettings().remove(SETTINGS_GROUP)


def test_errors_name_things_without_python_reprs(processing_ready):
    with pytest.raises(Exception) as info:
        survey_plan.run_algorithm(
            "geobias:herb",
            {
                "SCOPE": 0,
                "CONTINENTS": "Atlantis",
                "ESTIMATE_ONLY": True,
                "OUTPUT": "TEMPORARY_OUTPUT",
            },
        )
    message = error_sentence(info.value)
    assert '"Atlantis"' in message and "['" not in message, message
    # The one-sentence form of any error drops what urllib3 and KeyError put in.
    raw = ("HTTPConnectionPool(host='h', port=80): Max retries exceeded with url: /v1 (Caused by "
           "NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f5a>: Failed to "
           "establish a new connection: [Errno 111] Connection refused'))")  # fmt: skip
    sentence = error_sentence(RuntimeError(raw))
    assert "0x7f5a" not in sentence and "Pool(" not in sentence and "Caused by" not in sentence
    assert sentence.endswith("[Errno 111] Connection refused")
    assert error_sentence(KeyError("no prompt preset 'x'")) == "no prompt preset 'x'"


def test_help_shows_the_guide_in_qgis_without_a_browser(dock, monkeypatch):
    monkeypatch.setattr(guide.QDesktopServices, "openUrl", lambda url: False)
    window = dock.open_help()
    assert window is not None and window.isVisible()
    assert window.browser.source().toLocalFile() == GUIDE
    assert "Regional bias" in window.browser.toPlainText()
    assert GUIDE in dock.messages[-1] and "No web browser" in dock.messages[-1]
    window.close()
    # With a browser: the page goes there; the message bar keeps the path.
    opened = []
    monkeypatch.setattr(guide.QDesktopServices, "openUrl", lambda url: opened.append(url) or True)
    assert dock.open_help() is None and opened[0].toLocalFile() == GUIDE


def guide_sections():
    """{heading text: section HTML} of the user guide's <h2> sections."""
    with open(GUIDE, encoding="utf-8") as f:
        html = f.read()
    parts = re.split(r"<h2[^>]*>(.*?)</h2>", html)
    return {re.sub(r"<[^>]+>", "", parts[i]): parts[i + 1] for i in range(1, len(parts), 2)}


def test_the_guide_covers_every_tab_of_the_dock(dock):
    tabs = dock.ui.tabs
    titles = [tabs.tabText(i) for i in range(tabs.count())]
    sections = guide_sections()
    for title in titles:
        found = [h for h in sections if h.startswith(title)]
        assert found, f"no section of the guide for the {title} tab"
    with open(GUIDE, encoding="utf-8") as f:
        html = f.read()
    assert "six tabs" in html and "five tabs" not in html
    for title in ("Regional bias", "Compare"):  # with a screenshot of the tab
        (heading,) = [h for h in sections if h.startswith(title)]
        images = re.findall(r'<img src="([^"]+)"', sections[heading])
        assert images, title
        for src in images:
            assert os.path.getsize(os.path.join(os.path.dirname(GUIDE), src)) > 10_000


def test_the_docs_agree_on_the_embedded_models_python():
    """xllamacpp's wheels are cp310-abi3: wherever a doc states a minimum Python, it is 3.10 or
    newer unless it is QGIS's own Python (3.9 on QGIS 3.22–3.28: the model runs in another),
    and each doc states the model's 3.10 next to xllamacpp."""
    docs = [os.path.join("docs", n) for n in ("guide/index.html", "install.md", "embedded.md")]
    for name in ["README.md", "metadata.txt", *docs]:
        with open(os.path.join(PLUGIN_DIR, name), encoding="utf-8") as f:
            text = re.sub(r"\s+", " ", f.read())
        minimums = list(re.finditer(r"Python (3\.\d+)(\+| or newer| or later)", text))
        for m in minimums:
            before = text[max(0, m.start() - 60) : m.start()]
            if "QGIS" not in before:  # not QGIS's own Python: the model's
                assert m.group(1) not in ("3.8", "3.9"), (name, text[m.start() - 120 : m.end()])
        model = [m for m in minimums if m.group(1) == "3.10"
                 and "xllamacpp" in text[max(0, m.start() - 300) : m.end() + 300]]  # fmt: skip
        assert model, f"{name} does not say the embedded model needs Python 3.10 or newer"


def test_the_detail_pane_names_every_metric_in_words():
    from geobias.ui.results import COLUMNS, detail_labels

    labels = detail_labels()
    for key, _header, _aliases in COLUMNS:
        if key not in ("model", "topic"):
            assert labels.get(key, key) != key, key  # a bare key ("ssi") read as a name
