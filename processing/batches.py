"""The QGIS side of batches (core/batch, core/survey/batch): the survey cache and the pending
requests that the export and the provider submission both start from, the batch API a
connection goes to, its client on QGIS's network settings, the `batches` table of an output
GeoPackage, and the points a batch was submitted for, kept in that GeoPackage so the layers can
be written a day later."""

import os

from qgis.core import QgsProcessingException

from ..core.batch.client import BatchClient
from ..core.batch.formats import FORMATS
from ..core.batch.jobs import JobStore
from ..i18n_util import message_text, tr
from .gpkg import open_gpkg, write_points_layer

POINTS_LAYER = "batch_points"


def open_cache(path):
    """The survey cache at `path`; a QgsProcessingException in words when it cannot be opened."""
    from ..core.engine.cache import CacheError, SurveyCache

    try:
        return SurveyCache(path)
    except CacheError as err:
        raise QgsProcessingException(message_text(err)) from err


def pending_requests(points, prompt, endpoint, cache):
    """[(endpoint, cache key, body)] of the requests the cache does not answer yet, for the
    points (lon, lat, pids) on the prompt's topics in every one of its languages (each with its
    own grammar), each key once: a batch line's custom_id is its cache key, whatever its
    language."""
    from ..core.geo.gazetteer import Gazetteer
    from ..core.survey.batch import pending_requests as survey_pending
    from ..core.survey.language_runs import specs_by_language
    from ..core.survey.run import SurveySpec

    lon, lat, pids = points
    spec = SurveySpec(lon, lat, list(prompt.topics), [endpoint], prompt.template, pids)
    gazetteer = Gazetteer.load()
    pending, seen = [], set()
    for one in specs_by_language(spec, prompt.languages):
        for ep, key, body in survey_pending(one, gazetteer, cache):
            if key not in seen:
                seen.add(key)
                pending.append((ep, key, body))
    return pending


def batch_api(choice, provider):
    """The batch API for a BATCH_API choice ("auto": the provider preset's, if it has one)."""
    api = provider if choice == "auto" else choice
    if api not in FORMATS:
        raise QgsProcessingException(
            tr("Batch API (BATCH_API): the provider preset {p} has no batch API of its own; "
               "choose OpenAI, Anthropic, Gemini or Mistral.").format(p=provider)
        )  # fmt: skip
    return api


def make_client(api, api_key, batch_url, endpoint=None):
    """A core BatchClient with the endpoint's proxy and certificate authorities."""
    if not api_key:
        raise QgsProcessingException(
            tr("API key (AUTH_CONFIG): a batch API needs the provider's key; give the "
               "authentication configuration that holds it.")
        )  # fmt: skip
    proxy = getattr(endpoint, "proxy", None)
    ca = getattr(endpoint, "ca_certs", None)
    return BatchClient(api, api_key, batch_url or None, proxy=proxy, ca_certs=ca)


def requests_folder(gpkg):
    """Where a GeoPackage's batch request and result files live: beside it."""
    stem = os.path.splitext(os.path.abspath(gpkg))[0]
    return stem + "_batches"


def store(gpkg):
    """The GeoPackage's `batches` table (made, and the GeoPackage with it, if missing)."""
    if not os.path.exists(gpkg):
        ds = open_gpkg(gpkg)  # an empty GeoPackage: its gpkg_contents registers the table
        ds = None  # noqa: F841 - closing it writes the file
    return JobStore(gpkg)


def keep_points(gpkg, lon, lat, pids):
    """The submitted points as a layer of the GeoPackage; its URI (the later layers' INPUT)."""
    from osgeo import ogr

    return write_points_layer(gpkg, POINTS_LAYER, {"lon": lon, "lat": lat, "pid": pids},
                              {"pid": ogr.OFTInteger64})  # fmt: skip
