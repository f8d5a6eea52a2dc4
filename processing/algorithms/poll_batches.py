"""geobias:pollbatches — one look at a GeoPackage's open provider batches (for qgis_process from
cron as much as for the dock): status, then for each ended batch its results imported into the
cache, its provider files deleted, and once all have ended the rated layers written."""

import json
import sqlite3
import time

from qgis.core import (
    QgsProcessingException,
    QgsProcessingOutputMultipleLayers,
    QgsProcessingOutputNumber,
    QgsProcessingOutputString,
    QgsProcessingParameterAuthConfig,
    QgsProcessingParameterBoolean,
    QgsProcessingParameterDefinition,
    QgsProcessingParameterFile,
    QgsProcessingParameterNumber,
    QgsProcessingParameterString,
)

from ...i18n_util import QT_TRANSLATE_NOOP, message_text, tr
from ..base import GeoBiasAlgorithm
from ..parameters import INPUT, OUTPUT, CacheParameter, read_url


class PollBatchesAlgorithm(GeoBiasAlgorithm):
    NAME = "pollbatches"
    DISPLAY = QT_TRANSLATE_NOOP("@default", "Poll provider batches")
    GROUP = "survey"
    USES_GEOS = False

    def help_text(self):
        return tr(
            "Looks once at the provider batches recorded in a GeoPackage by 'Submit a provider "
            "batch' (its 'batches' table) and brings each one forward: the status and progress "
            "(validating, in progress n/N, completed, failed, expired, cancelled); an ended "
            "batch's output and error files are downloaded and imported into the cache by "
            "custom_id (importing twice changes nothing), failed lines are recorded with their "
            "reason, and the provider's files are deleted. An expired or cancelled batch "
            "imports what came back. Batches waiting for the queued-token limit are submitted "
            "when there is room. Once every batch has ended and nothing is missing, the rated "
            "layers are written into the GeoPackage as 'Rate locations' writes them, from the "
            "cache. RESUBMIT sends what is missing as a new batch; LIVE_MISSING sends it live "
            "and writes the layers; CANCEL cancels the open batches. For cron: qgis_process run "
            "geobias:pollbatches -- INPUT=survey.gpkg AUTH_CONFIG=<id>, with the master password "
            "in the file QGIS_AUTH_PASSWORD_FILE names."
        )

    def initAlgorithm(self, config=None):
        self.addParameter(
            QgsProcessingParameterFile(
                INPUT, tr("GeoPackage with a batches table"), extension="gpkg"
            )
        )
        self.addParameter(
            QgsProcessingParameterAuthConfig(
                "AUTH_CONFIG", tr("API key (QGIS authentication configuration)"), optional=True
            )
        )
        CacheParameter.add(self)
        url = QgsProcessingParameterString(
            "BATCH_URL", tr("Batch API base URL (empty: as submitted)"), optional=True
        )
        url.setFlags(url.flags() | QgsProcessingParameterDefinition.Flag.FlagAdvanced)
        self.addParameter(url)
        tokens = QgsProcessingParameterNumber(
            "QUEUED_TOKENS", tr("Tokens queued in open batches at most (0: no limit)"),
            defaultValue=0, minValue=0,
        )  # fmt: skip
        tokens.setFlags(tokens.flags() | QgsProcessingParameterDefinition.Flag.FlagAdvanced)
        self.addParameter(tokens)
        for name, label in (
            ("CANCEL", tr("Cancel the open batches")),
            ("RESUBMIT", tr("Resubmit what is missing as a new batch")),
            ("LIVE_MISSING", tr("Send what is missing live and write the layers")),
        ):
            self.addParameter(QgsProcessingParameterBoolean(name, label, defaultValue=False))
        self.addOutput(QgsProcessingOutputNumber("N_OPEN", tr("Batches still open")))
        self.addOutput(QgsProcessingOutputNumber("N_ANSWERS", tr("Answers imported now")))
        self.addOutput(QgsProcessingOutputNumber("N_MISSING", tr("Requests still unanswered")))
        self.addOutput(QgsProcessingOutputString("STATUS", tr("Status of each batch")))
        self.addOutput(QgsProcessingOutputMultipleLayers("OUTPUT_LAYERS", tr("Rated layers")))

    def processAlgorithm(self, parameters, context, feedback):
        from ...core.batch import jobs as batch_jobs
        from ...core.batch.client import BatchApiError
        from ..batches import make_client, open_cache, requests_folder, store
        from ..endpoints import api_key_from_auth

        # Every parameter is read (and refused, naming it) before the table is looked at.
        gpkg = self.parameterAsFile(parameters, INPUT, context)
        authcfg = self.parameterAsString(parameters, "AUTH_CONFIG", context)
        api_key = api_key_from_auth(authcfg)
        given_cache = self.parameterAsFile(parameters, "CACHE", context)
        cache = open_cache(given_cache) if given_cache else None
        batch_url = read_url(self, parameters, "BATCH_URL", context)
        try:
            every = store(gpkg).load() if batch_jobs.has_batches(gpkg) else []
            table = store(gpkg) if every else None
        except sqlite3.DatabaseError as err:
            raise QgsProcessingException(
                tr("GeoPackage (INPUT): {path} cannot be read as a GeoPackage: {err}.").format(
                    path=gpkg, err=err)
            ) from err  # fmt: skip
        if not every:
            raise QgsProcessingException(
                tr("GeoPackage (INPUT): {path} records no provider batch; submit one with "
                   "'Submit a provider batch'.").format(path=gpkg)
            )  # fmt: skip
        stored = json.loads(every[0].rate_params or "{}")
        cache_path = given_cache or stored.get("CACHE") or \
            CacheParameter.read(self, parameters, context)  # fmt: skip
        cache = cache or open_cache(cache_path)
        batch_url = batch_url or stored.get("BATCH_URL") or ""
        limit = self.parameterAsInt(parameters, "QUEUED_TOKENS", context) or None
        folder = requests_folder(gpkg) + "/results"
        n_answers = 0
        now = time.time()
        for api in sorted({j.provider for j in every if j.open}):
            mine = [j for j in every if j.provider == api]
            client = make_client(api, api_key, batch_url)
            try:
                if self.parameterAsBoolean(parameters, "CANCEL", context):
                    for job in mine:
                        if job.open and job.status not in ("cancelling",):
                            batch_jobs.cancel(job, client, now)
                for job in mine:
                    if feedback.isCanceled():
                        break
                    before = job.n_answers
                    batch_jobs.poll(job, client, cache, folder, now, force=True)
                    n_answers += job.n_answers - before
                batch_jobs.submit_wave(mine, client, cache, now, limit)
            except (BatchApiError, OSError) as err:
                raise QgsProcessingException(
                    tr("The provider could not be asked: {err}. Nothing was lost: the next "
                       "poll goes on from here.").format(err=message_text(err))
                ) from err  # fmt: skip
            finally:
                table.save(mine)
                client.close()
        lines = []
        for job in every:
            counts = f"{job.n_done}/{job.n_requests}"
            if job.status == "imported":
                counts = tr("{a} answers, {f} failed").format(a=job.n_answers, f=job.n_failed)
            lines.append(f"{job.provider} {job.batch_id or job.job_id} {job.model}: "
                         f"{job.status} ({counts})")  # fmt: skip
        for line in lines:
            feedback.pushInfo(line)
        still_open = [j for j in every if j.open]
        missing = batch_jobs.missing(every, cache) if not still_open else []
        result = {"N_OPEN": len(still_open), "N_ANSWERS": n_answers, "N_MISSING": len(missing),
                  "STATUS": "\n".join(lines), "OUTPUT_LAYERS": []}  # fmt: skip
        if still_open:
            return result
        if missing and self.parameterAsBoolean(parameters, "RESUBMIT", context):
            fresh = batch_jobs.resubmit_jobs(every, missing, requests_folder(gpkg))
            table.save(fresh)
            client = make_client(fresh[0].provider, api_key, batch_url)
            try:
                batch_jobs.submit_wave(fresh, client, cache, now, limit)
            except (BatchApiError, OSError) as err:
                raise QgsProcessingException(message_text(err)) from err
            finally:
                table.save(fresh)
                client.close()
            feedback.pushInfo(tr("{n} missing requests resubmitted in {b} batch(es).").format(
                n=len(missing), b=len(fresh)))  # fmt: skip
            result["N_OPEN"] = len(fresh)
            return result
        live = self.parameterAsBoolean(parameters, "LIVE_MISSING", context)
        if missing and not live:
            feedback.pushWarning(
                tr("{n} requests have no answer: RESUBMIT sends them as a new batch, "
                   "LIVE_MISSING sends them live and writes the layers.").format(n=len(missing))
            )  # fmt: skip
            return result
        if all(j.layers_at for j in every) and not missing:
            return result  # written by an earlier poll
        result["OUTPUT_LAYERS"] = self.write_layers(stored, authcfg, cache_path, gpkg, context,
                                                    feedback)  # fmt: skip
        for job in every:
            job.layers_at = time.time()
        table.save(every)
        result["N_MISSING"] = 0 if live else len(missing)
        return result

    def write_layers(self, stored, authcfg, cache_path, gpkg, context, feedback):
        """'Rate locations' with the submitted settings, from the cache (a request is sent
        only for what is missing, when LIVE_MISSING asked for it)."""
        from qgis import processing
        from qgis.core import QgsApplication

        alg = QgsApplication.processingRegistry().algorithmById("geobias:ratelocations")
        names = {p.name() for p in alg.parameterDefinitions()}
        params = {k: v for k, v in stored.items() if k in names}
        params.update({"AUTH_CONFIG": authcfg, "CACHE": cache_path, OUTPUT: gpkg})
        out = processing.run("geobias:ratelocations", params, context=context,
                             feedback=feedback, is_child_algorithm=True)  # fmt: skip
        return list(out.get("OUTPUT_LAYERS") or [])
