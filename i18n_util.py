"""Translation helpers: one context for all GeoBias strings, translator installed at start-up."""

import os

from qgis.core import QgsApplication, QgsSettings
from qgis.PyQt.QtCore import QCoreApplication, QLocale, QTranslator

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


def qgis_locale():
    """The locale QGIS runs in: the user's override if set, else the system's."""
    settings = QgsSettings()
    if settings.value("locale/overrideFlag", False, type=bool):
        name = settings.value("locale/userLocale", "", type=str)
    else:
        name = QLocale.system().name()
    return (name or "en")[:2]


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
