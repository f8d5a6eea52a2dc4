"""Translation helpers: one context for all GeoBias strings, translator installed at start-up."""

import os

from qgis.core import QgsApplication, QgsSettings
from qgis.PyQt.QtCore import QCoreApplication, QLocale, QTranslator

from .core.messages import Message, message_of

# pylupdate5 -tr-function tr files a bare tr("...") call under the "@default" context, so
# translating in that context lets the .ts be generated from the code with no post-editing.
CONTEXT = "@default"
I18N_DIR = os.path.join(os.path.dirname(__file__), "i18n")


def QT_TRANSLATE_NOOP(context, text):  # noqa: N802 (Qt's name, which pylupdate5 looks for)
    """Mark a string defined away from where it is shown (labels, help); tr() it when shown.

    Call it as QT_TRANSLATE_NOOP("@default", "text") so the string lands in tr()'s context.
    """
    return text


def tr(text):
    """Translate a user-visible string in the GeoBias context."""
    return QCoreApplication.translate(CONTEXT, text)


def says(text, template):
    """Whether `text` holds the sentence `template` (an English source with {fields}) starts
    with, in English or in the interface language: which failure a job ended with."""
    text = str(text or "")
    return any(t.split("{")[0] in text for t in {template, tr(template)})


def translate(context, text, disambiguation=None, n=-1):
    """QCoreApplication.translate with a count: %n becomes n and the translation takes the
    language's plural form (Qt numerus forms in the .ts). Without a translation (English) the
    source's "(s)" becomes "s" unless n is 1. Call it as translate("@default", "...", None, n):
    pylupdate5 files a call named translate with a count as a plural message."""
    out = QCoreApplication.translate(context, text, disambiguation, n)
    if n >= 0 and "(s)" in out:
        out = out.replace("(s)", "" if n == 1 else "s")
    return out


def message_text(error):
    """What a user reads for `error` in the interface language.

    A core `Message` (or an exception raised with one, core/messages.py) gives its English
    template through tr() with its values, a value that is itself a message or an exception
    translated the same way; any other exception or text gives str() (a KeyError its message).
    """
    message = message_of(error)
    if message is None:
        if isinstance(error, KeyError) and error.args:
            return str(error.args[0])  # str(KeyError) is the repr of its message
        return str(error if error is not None else "")
    values = {
        k: message_text(v) if isinstance(v, (BaseException, Message)) else v
        for k, v in message.values.items()
    }
    try:
        return tr(message.template).format(**values)
    except (KeyError, IndexError, ValueError):  # a translation with a broken field: English
        return message.template.format(**values)


def qgis_locale():
    """The language QGIS's interface runs in: `--lang xx` on its command line, else the override
    locale of its options, else the system's.

    QGIS (3.22+) keeps the language it chose at start-up, command line first, in
    QgsApplication.translation(); without one (a bare QgsApplication: tests, scripts) the
    settings decide as QGIS's own start-up would.
    """
    app = QgsApplication.instance()
    name = (app.translation() if app is not None else "") or ""
    if not name:
        settings = QgsSettings()
        if settings.value("locale/overrideFlag", False, type=bool):
            name = settings.value("locale/userLocale", "", type=str)
        else:
            name = QLocale.system().name()
    return (name or "en")[:2]


def number_locale():
    """The locale numbers are written in: the one chosen in QGIS's options (override, "Locale
    (numbers, date and currency formats)"), else the interface language's, so a French sentence
    never carries "510,065,622". Digit groups are always shown (a fresh QLocale), whatever
    QGIS's "show group separator" option does to its own default locale."""
    settings = QgsSettings()
    chosen = settings.value("locale/overrideFlag", False, type=bool) and settings.value(
        "locale/globalLocale", "", type=str
    )
    locale = QLocale()
    language = qgis_locale()
    if not chosen and locale.name()[:2] != language:
        locale = QLocale(language)
    if locale.language() == QLocale.Language.C:  # no locale at all (a bare environment)
        locale = QLocale(QLocale.Language.English, QLocale.Country.UnitedStates)
    return QLocale(locale.name())


def number(value, decimals=0):
    """`value` with `decimals` decimals in number_locale()'s format ("510 065 622", "-12,5")."""
    return number_locale().toString(float(value), "f", decimals)


def install_translator(locale=None):
    """Load i18n/geobias_<lang>.qm into the application; returns the translator or None."""
    lang = locale or qgis_locale()
    path = os.path.join(I18N_DIR, f"geobias_{lang}.qm")
    if not os.path.exists(path):
        return None
    translator = QTranslator()
    if not translator.load(path):
        return None
    QgsApplication.instance().installTranslator(translator)
    return translator


def remove_translator(translator):
    if translator is not None:
        QgsApplication.instance().removeTranslator(translator)
