"""Prompt languages on the QGIS side: the LANGUAGES choices, the user's languages folder, which
outputs carry a `language` field, and each point's country for home bias.

The languages themselves are core/survey/languages.py's files. A run whose only language is English
writes exactly what it wrote before languages came (no `language` field, same layer names), so
existing workflows, caches and recordings are unchanged; any other run tags every output with
the language's code.
"""

import os
from functools import lru_cache

from qgis.core import QgsApplication, QgsFeatureRequest, QgsVectorLayer

from ..paths import COUNTRIES
from .definitions import Choices

__all__ = [
    "GEONAMES_LANGUAGES_CREDIT",
    "countries_of",
    "language_choices",
    "language_label",
    "register_user_folder",
    "tagged",
    "user_folder",
]

# The attribution of resources/languages/country_languages.csv (home bias's "spoken").
GEONAMES_LANGUAGES_CREDIT = "Country languages: GeoNames (geonames.org), CC BY 4.0"


def user_folder(create=True):
    """<QGIS profile>/geobias/languages: the user's own language files (they win over bundled
    files of the same code)."""
    folder = os.path.join(QgsApplication.qgisSettingsDirPath(), "geobias", "languages")
    if create:
        os.makedirs(folder, exist_ok=True)
    return folder


def register_user_folder():
    """Read language files from the user's folder too (at plugin load); returns the folder."""
    from ..core.survey import languages as core_languages

    folder = user_folder()
    core_languages.add_folder(folder)
    return folder


def language_label(lang):
    """ "Français (French)" from a Language; the name alone where both are the same."""
    if lang.native_name and lang.native_name != lang.name:
        return f"{lang.native_name} ({lang.name})"
    return lang.name


def language_choices(errors=None):
    """The LANGUAGES choices: keys are language codes, labels come from the files.

    Processing stores an enum as positions, so the bundled languages come first in a fixed
    order (English, then by code) and the user's own languages after them: a file added to the
    user's folder never moves a bundled language's position. A broken user file is left out
    (its message appended to `errors` when given).
    """
    from ..core.survey import languages as core_languages
    from ..core.survey.languages import DEFAULT_LANGUAGE

    found = core_languages.load_languages(errors=errors if errors is not None else [])
    bundled = {p.stem for p in core_languages.BUNDLED_DIR.glob("*.json")}
    order = sorted(found, key=lambda c: (c not in bundled, c != DEFAULT_LANGUAGE, c))
    labels = tuple(language_label(found[c]) for c in order)
    return Choices(tuple(order), labels, DEFAULT_LANGUAGE)


def tagged(languages):
    """Whether a run's outputs carry the language: any run but an English-only one."""
    from ..core.survey.languages import DEFAULT_LANGUAGE

    return list(languages) != [DEFAULT_LANGUAGE]


def countries_of(lon, lat, path=COUNTRIES):
    """Each point's country (ISO 3166 alpha-2 of the bundled countries layer, "" at sea or
    where the layer gives none), by point-in-polygon; a point on a border takes the first."""
    import numpy as np

    from ..core.geo import geometry

    lon, lat = np.asarray(lon, float), np.asarray(lat, float)
    out = np.full(len(lon), "", dtype=object)
    ok = np.flatnonzero(np.isfinite(lon) & np.isfinite(lat))
    geoms, codes = _countries(path)
    if not geoms or not len(ok):
        return out
    poly_idx, point_idx = geometry.polygons_hit(geoms, lon[ok], lat[ok])
    order = np.lexsort((poly_idx, point_idx))
    point_idx, poly_idx = point_idx[order], poly_idx[order]
    first = np.unique(point_idx, return_index=True)[1]
    out[ok[point_idx[first]]] = codes[poly_idx[first]]
    return out


@lru_cache(maxsize=2)
def _countries(path):
    """(shapely polygons, their alpha-2 codes) of a countries layer in EPSG:4326."""
    import numpy as np

    from ..core.geo import geometry

    layer = QgsVectorLayer(path, "countries", "ogr")
    request = QgsFeatureRequest().setSubsetOfAttributes(["iso_a2"], layer.fields())
    geoms, codes = [], []
    for feature in layer.getFeatures(request):
        geom = feature.geometry()
        if geom is None or geom.isNull() or geom.isEmpty():
            continue
        if not geom.isGeosValid():
            geom = geom.makeValid()
        code = feature["iso_a2"]
        geoms.append(geometry.from_wkb(bytes(geom.asWkb())))
        # Natural Earth writes -99 (here -1) where a country has no alpha-2 code.
        codes.append(code if isinstance(code, str) and len(code) == 2 and code.isalpha() else "")
    return geoms, np.asarray(codes, dtype=object)
