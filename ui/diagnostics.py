"""*Copy diagnostics*: core/runtime/diagnostics.py's report with what only QGIS knows (QGIS, Qt,
GDAL, PROJ and GEOS versions, the configured endpoints, the GeoBias log's last errors), put on the
clipboard and in a file. Keys never enter it: endpoints give their URL and model, and the
stored keys are passed as secrets to mask wherever they might appear."""

import collections
import os
import platform
import sys

from qgis.core import Qgis, QgsApplication
from qgis.PyQt.QtCore import QT_VERSION_STR
from qgis.PyQt.QtWidgets import QApplication

from ..core.runtime.diagnostics import build_report, core_facts, interpreter_path
from .task import LOG_TAG

__all__ = ["copy_diagnostics", "log_tail", "qgis_facts", "report_path", "report_text",
           "unwatch_log", "watch_log"]  # fmt: skip

# The GeoBias log's last messages, kept from the plugin's start (QgsMessageLog keeps no
# history a plugin can read back).
_LOG = collections.deque(maxlen=500)


def _received(message, tag, level):
    if tag == LOG_TAG:
        name = {Qgis.MessageLevel.Warning: "WARNING", Qgis.MessageLevel.Critical: "CRITICAL"}
        for line in str(message).splitlines() or [""]:
            _LOG.append(f"{name.get(level, 'INFO')} {line}")
            if level < Qgis.MessageLevel.Warning:
                break  # an info message's first line is enough


def watch_log():
    """Start keeping the GeoBias log's messages (the plugin's start)."""
    QgsApplication.messageLog().messageReceived.connect(_received)


def unwatch_log():
    try:
        QgsApplication.messageLog().messageReceived.disconnect(_received)
    except TypeError:  # never connected
        pass


def log_tail():
    """The GeoBias log's messages seen so far, one line each."""
    return list(_LOG)


def _version(module):
    try:
        return __import__(module).__version__
    except Exception:  # a broken install is exactly what the report should show
        return ""


def qgis_facts():
    """The versions core cannot see, as core.diagnostics.FIELDS names them."""
    from osgeo import gdal

    from .. import paths

    facts = {
        "qgis": f"{Qgis.version()} ({Qgis.devVersion() or 'release'})",
        "qt": QT_VERSION_STR,
        "python": sys.version.split()[0] + f" ({interpreter_path()})",  # not a pyenv shim
        "gdal": gdal.__version__,
        "geos_qgis": Qgis.geosVersion(),
        "os": f"{platform.platform()} ({platform.machine()})",
    }
    try:  # the PROJ QGIS was built with
        from qgis.core import QgsProjUtils

        facts["proj"] = f"{QgsProjUtils.projVersionMajor()}.{QgsProjUtils.projVersionMinor()}"
    except (ImportError, AttributeError):
        pass
    try:
        from qgis.PyQt.QtCore import PYQT_VERSION_STR

        facts["pyqt"] = PYQT_VERSION_STR
    except ImportError:
        pass
    try:
        from ..core.geo.geometry import geos_version

        facts["geos_shapely"] = ".".join(map(str, geos_version()))
    except Exception:
        pass
    for module in ("numpy", "scipy", "shapely", "urllib3", "requests"):
        facts[module] = _version(module)
    facts["geobias"] = _plugin_version(paths)
    from ..i18n_util import qgis_locale

    facts["locale"] = qgis_locale()
    return facts


def _plugin_version(paths):
    import configparser

    meta = os.path.join(os.path.dirname(os.path.abspath(paths.__file__)), "metadata.txt")
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read(meta, encoding="utf-8")
        return parser.get("general", "version", fallback="")
    except configparser.Error:
        return ""


def _base_url(config):
    """The URL a run of this endpoint asks (the one factory's), or the configured one when the
    factory refuses it (a custom provider without a URL)."""
    try:
        return config.endpoint().base_url
    except Exception:  # noqa: BLE001 - the report lists every endpoint, even a broken one
        return config.base_url


def report_text(checksums=True):
    """The whole report: QGIS's facts, core's (model environment, server log), the endpoints
    (URL and model) and the log's last errors; each stored key masked."""
    from .settings import load_endpoints

    facts = dict(qgis_facts())
    facts.update(core_facts(checksums=checksums))
    configs = load_endpoints()
    secrets = []
    for e in configs:
        try:
            key = e.endpoint(with_key=True).api_key
        except Exception:  # a locked or broken auth database: nothing to mask then
            key = None
        if key:
            secrets.append(key)
    endpoints = [
        {"name": e.name, "base_url": _base_url(e), "model": e.model, "provider": e.provider}
        for e in configs
    ]
    return build_report(facts, endpoints, log_tail(), secrets)


def report_path():
    """Where the last report is written: in the QGIS profile's folder."""
    return os.path.join(QgsApplication.qgisSettingsDirPath(), "geobias", "diagnostics.txt")


def copy_diagnostics(checksums=True):
    """Put the report on the clipboard and in report_path(); returns (text, path)."""
    text = report_text(checksums)
    QApplication.clipboard().setText(text)
    path = report_path()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return text, path
