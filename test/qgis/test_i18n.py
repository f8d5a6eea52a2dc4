"""The French translation is complete, current with the code, and installed through i18n_util."""

import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import translations  # noqa: E402

TS = os.path.join(ROOT, "i18n", "geobias_fr.ts")
QM = os.path.join(ROOT, "i18n", "geobias_fr.qm")
# str.format fields ({n}, {r:.1f}) and Qt's %1..%99; "95% CI" holds no placeholder.
PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\d+")


def messages(path):
    """(context, source, translation element) for every message of a .ts file."""
    out = []
    for context in ET.parse(path).getroot().iter("context"):
        name = context.findtext("name")
        for message in context.iter("message"):
            out.append((name, message.findtext("source"), message.find("translation")))
    return out


def placeholders(text):
    return sorted(PLACEHOLDER.findall(text or ""))


def test_committed_ts_is_current_with_the_code(tmp_path):
    tool = shutil.which("pylupdate5")
    if tool is None:
        pytest.skip("pylupdate5 not installed (Debian: pyqt5-dev-tools)")
    fresh = tmp_path / "fresh.ts"
    args = [tool, "-noobsolete", "-tr-function", "tr", *translations.sources(), "-ts", str(fresh)]
    subprocess.run(args, cwd=ROOT, check=True, capture_output=True)
    code = {(c, s) for c, s, _ in messages(fresh)}
    committed = {(c, s) for c, s, _ in messages(TS)}
    assert code, "pylupdate5 found no tr() string in the plugin"
    new = sorted(code - committed)
    gone = sorted(committed - code)
    assert not new and not gone, (
        "i18n/geobias_fr.ts is out of date: run `.venv/bin/python scripts/translations.py "
        f"update` and translate the new messages.\nNew in the code: {new}\nNo longer in the code: "
        f"{gone}"
    )


def test_every_message_is_translated():
    found = messages(TS)
    assert len(found) > 100
    unfinished = [s for _, s, t in found if t.get("type") in ("unfinished", "obsolete")]
    # Plural messages (%n) hold their forms in <numerusform> elements.
    empty = [s for _, s, t in found if not "".join(t.itertext()).strip()]
    assert not unfinished, f"unfinished messages in geobias_fr.ts: {unfinished}"
    assert not empty, f"empty translations in geobias_fr.ts: {empty}"


def test_placeholders_survive_translation():
    def texts(t):  # a plural message has one text per <numerusform>
        return [n.text for n in t.iter("numerusform")] or [t.text]

    wrong = [
        (s, x) for _, s, t in messages(TS) for x in texts(t) if placeholders(s) != placeholders(x)
    ]
    assert not wrong, f"placeholders differ between source and translation: {wrong}"


def test_placeholder_pattern():
    assert placeholders("{d}/{t} at {r:.1f}/s, %1 of %2, 95% CI") == sorted(
        ["{d}", "{t}", "{r:.1f}", "%1", "%2"]
    )


@pytest.fixture()
def french(qgis_app):
    """The French translator installed in the application, removed afterwards."""
    from geobias import i18n_util

    if not os.path.exists(QM) or os.path.getmtime(QM) < os.path.getmtime(TS):
        if shutil.which("lrelease") is None:
            pytest.skip("lrelease not installed (Debian: qttools5-dev-tools)")
        translations.compile_all()
    translator = i18n_util.install_translator("fr")
    assert translator is not None, f"{QM} did not load"
    yield translator
    i18n_util.remove_translator(translator)


def test_french_translator_translates_code_and_forms(french, qgis_iface, qgis_new_project):
    from geobias.i18n_util import tr, translate
    from geobias.ui.dock import GeoBiasDock

    assert tr("Run survey") == "Lancer l'enquête"
    assert translate("@default", "%n point(s) sampled (preview, nothing sent).", None, 3) == (
        "3 points échantillonnés (aperçu, rien envoyé)."
    )
    dock = GeoBiasDock(qgis_iface)
    try:
        # Set by each tab's .ui form (its class context), not by code.
        assert dock.area.previewButton.text() == "Prévisualiser les points"
        assert dock.ui.tabs.tabText(0) == "Zone" and dock.ui.helpButton.text() == "Aide"
        combo = dock.survey.scoreCombo
        scores = [combo.itemText(i) for i in range(combo.count())]
        assert "Note gloutonne (greedy)" in scores
    finally:
        dock.close_survey()
        dock.deleteLater()


def test_english_without_translator(qgis_app):
    from geobias.i18n_util import tr

    assert tr("Run survey") == "Run survey"


def test_every_core_message_has_its_french():
    """core's errors reach the user through their English template (core/messages.py): each
    template is in the .ts (scripts/translations.py collects core/messages.py) and translated."""
    from geobias.core.messages import MESSAGES

    translated = {
        s: "".join(t.itertext()).strip()
        for _, s, t in messages(TS)
        if t.get("type") not in ("unfinished", "obsolete")
    }
    missing = sorted(m for m in MESSAGES.values() if not translated.get(m))
    assert not missing, f"core messages without French in geobias_fr.ts: {missing}"


def test_core_errors_reach_the_user_in_french(french):
    """A real core error, raised with its message id, reads French through message_text and the
    dock's error_sentence; its English str() is untouched."""
    from shapely.geometry import Polygon

    from geobias.core.engine.http_client import EndpointError
    from geobias.core.geo.sampling import region_parts
    from geobias.core.herb.hierarchy import Hierarchy, HierarchyError
    from geobias.core.messages import Message
    from geobias.i18n_util import message_text
    from geobias.ui.task import error_sentence

    with pytest.raises(HierarchyError) as caught:
        Hierarchy.from_parent_ids(["a", "a"], ["A", "B"], ["", ""])
    assert str(caught.value) == "duplicate region id 'a' (rows 1, 2)"
    assert message_text(caught.value) == "identifiant de région 'a' en double (lignes 1, 2)"
    with pytest.raises(ValueError) as caught:
        region_parts(Polygon())
    assert error_sentence(caught.value) == "la région est vide"
    # A message inside a message (the 401 sentence inside the refusal) is translated too.
    inner = Message("http.refused_key", host="api.example.org", status=401)
    err = EndpointError(Message("http.refused_text", refused=inner, text="bad key"))
    assert message_text(err) == "api.example.org a refusé la clé d'API (HTTP 401) : bad key"
    assert message_text(ValueError("plain text")) == "plain text"


def test_the_translator_follows_the_language_qgis_runs_in(qgis_app):
    """`qgis --lang fr` sets QGIS's translation without the override setting: GeoBias follows
    QgsApplication.translation(); without one, the override setting, else the system."""
    from qgis.core import QgsApplication, QgsSettings
    from qgis.PyQt.QtCore import QLocale

    from geobias.i18n_util import qgis_locale

    settings = QgsSettings()
    before = (
        QgsApplication.instance().translation(),
        settings.value("locale/overrideFlag"),
        settings.value("locale/userLocale"),
    )
    try:
        settings.setValue("locale/overrideFlag", False)
        settings.setValue("locale/userLocale", "de")
        QgsApplication.setTranslation("fr")
        assert qgis_locale() == "fr"
        QgsApplication.setTranslation("")
        assert qgis_locale() == QLocale.system().name()[:2]
        settings.setValue("locale/overrideFlag", True)
        assert qgis_locale() == "de"
    finally:
        QgsApplication.setTranslation(before[0] or "")
        for key, value in zip(("locale/overrideFlag", "locale/userLocale"), before[1:]):
            if value is None:
                settings.remove(key)
            else:
                settings.setValue(key, value)


def test_core_labels_shown_in_the_interface_have_their_french(french):
    """Topics (and descriptions), prompt presets and the algorithms' enum choices read French;
    a topic or preset added to core without its French fails here."""
    from geobias.core.survey.prompts import PRESET_LABELS
    from geobias.core.survey.topics import TOPICS
    from geobias.processing.definitions import PROMPT_PRESETS, PROVIDERS, topic_label
    from geobias.ui.settings import SurveySettings, display_name, embedded_endpoints

    texts = (
        [t.name for t in TOPICS] + [t.description for t in TOPICS] + list(PRESET_LABELS.values())
    )
    from geobias.i18n_util import tr

    untranslated = [t for t in texts if tr(t) == t]
    assert not untranslated, f"shown in English under the French translator: {untranslated}"
    assert topic_label("Infant Mortality Rate") == "Taux de mortalité infantile"
    assert topic_label("My own topic") == "My own topic"
    assert PROMPT_PRESETS.label("geollm") == "GeoLLM (article)"
    assert PROVIDERS.label("embedded") == "Modèle local intégré"
    names = [display_name(e) for e in embedded_endpoints()]
    assert all(n.startswith("Modèle intégré ") for n in names), names
    assert SurveySettings().name == "enquête"


def test_numbers_follow_the_interface_language_unless_qgis_sets_their_locale(qgis_app):
    from qgis.core import QgsApplication, QgsSettings
    from qgis.PyQt.QtCore import QLocale

    from geobias.i18n_util import number

    settings = QgsSettings()
    app = QgsApplication.instance()
    before = (app.translation(), QLocale(), settings.value("locale/overrideFlag"),
              settings.value("locale/globalLocale"))  # fmt: skip
    try:
        QLocale.setDefault(QLocale("en_US"))
        settings.setValue("locale/overrideFlag", False)
        QgsApplication.setTranslation("fr")
        text = number(510065622)
        assert text.replace("\u202f", " ").replace("\xa0", " ") == "510 065 622"
        assert number(-12.5, 1) == "-12,5"
        # Numbers in a locale chosen in QGIS's options stay in it.
        settings.setValue("locale/overrideFlag", True)
        settings.setValue("locale/globalLocale", "en_US")
        assert number(510065622) == "510,065,622"
    finally:
        QgsApplication.setTranslation(before[0] or "")
        QLocale.setDefault(before[1])
        for key, value in zip(("locale/overrideFlag", "locale/globalLocale"), before[2:]):
            if value is None:
                settings.remove(key)
            else:
                settings.setValue(key, value)
