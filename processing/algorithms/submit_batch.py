"""geobias:submitbatch — a survey's pending requests as provider batches (OpenAI, Anthropic,
Gemini, Mistral), uploaded and created, recorded in the output GeoPackage's batches table."""

import json
import time

from qgis.core import (
    QgsProcessing,
    QgsProcessingException,
    QgsProcessingOutputNumber,
    QgsProcessingOutputString,
    QgsProcessingParameterBoolean,
    QgsProcessingParameterDefinition,
    QgsProcessingParameterEnum,
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterNumber,
    QgsProcessingParameterString,
)

from ...i18n_util import QT_TRANSLATE_NOOP, message_text, tr
from ..base import GeoBiasAlgorithm
from ..definitions import BATCH_APIS
from ..parameters import (
    INPUT,
    OUTPUT,
    CacheParameter,
    ConnectionParameters,
    PromptParameters,
    add_endpoint_parameters,
    read_url,
)


class SubmitBatchAlgorithm(GeoBiasAlgorithm):
    NAME = "submitbatch"
    DISPLAY = QT_TRANSLATE_NOOP("@default", "Submit a provider batch")
    GROUP = "survey"
    USES_GEOS = False

    def help_text(self):
        return tr(
            "Sends the requests 'Rate locations' would send, with the same points, topics, "
            "endpoint and prompt preset, to the provider's batch API at half the live price: "
            "OpenAI's Batch API (also Azure OpenAI), Anthropic's Message Batches, Gemini's batch "
            "mode or Mistral's batch inference, in the provider's own format, one model per "
            "batch, split at the provider's limits (OpenAI 50,000 requests or 200 MB a file, "
            "Anthropic 100,000 or 256 MB, Gemini 2 GB, Mistral 1,000,000). Requests already "
            "answered in the cache, or held by a batch still open, are left out. Each batch is "
            "recorded in the GeoPackage's 'batches' table (provider, batch and file ids, counts, "
            "status, times, cost estimate at the batch price; never the key) with the points, "
            "so 'Poll provider batches' can import the answers and write the rated layers a day "
            "later, from QGIS or qgis_process. QUEUED_TOKENS keeps the tokens queued in open "
            "batches under OpenAI's per-account limit: the rest waits for the next poll. "
            "ESTIMATE_ONLY prints the requests, batches and cost and sends nothing."
        )

    def initAlgorithm(self, config=None):
        self.addParameter(
            QgsProcessingParameterFeatureSource(
                INPUT, tr("Points to rate"), [QgsProcessing.SourceType.TypeVectorPoint]
            )
        )
        add_endpoint_parameters(self)
        CacheParameter.add(self)
        self.addParameter(
            QgsProcessingParameterEnum(
                "BATCH_API", tr("Batch API"), BATCH_APIS.labels(),
                defaultValue=BATCH_APIS.default_index,
            )
        )  # fmt: skip
        url = QgsProcessingParameterString(
            "BATCH_URL", tr("Batch API base URL (empty: the provider's)"), optional=True
        )
        url.setFlags(url.flags() | QgsProcessingParameterDefinition.Flag.FlagAdvanced)
        self.addParameter(url)
        for name, label, default in (
            ("QUEUED_TOKENS", tr("Tokens queued in open batches at most (0: no limit)"), 0),
            ("MAX_REQUESTS", tr("Requests per batch at most (0: the provider's limit)"), 0),
        ):
            param = QgsProcessingParameterNumber(name, label, defaultValue=default, minValue=0)
            param.setFlags(param.flags() | QgsProcessingParameterDefinition.Flag.FlagAdvanced)
            self.addParameter(param)
        self.addParameter(
            QgsProcessingParameterBoolean(
                "ESTIMATE_ONLY", tr("Only estimate (send nothing)"), defaultValue=False
            )
        )
        self.addParameter(
            QgsProcessingParameterFileDestination(
                OUTPUT, tr("Rated points GeoPackage"), tr("GeoPackage (*.gpkg)")
            )
        )
        self.addOutput(QgsProcessingOutputNumber("N_REQUESTS", tr("Requests in batches")))
        self.addOutput(QgsProcessingOutputNumber("N_BATCHES", tr("Batches")))
        self.addOutput(QgsProcessingOutputNumber("N_SUBMITTED", tr("Batches submitted now")))
        self.addOutput(QgsProcessingOutputNumber("COST", tr("Cost estimate at the batch price")))
        self.addOutput(QgsProcessingOutputString("BATCH_IDS", tr("Batch ids (one per line)")))

    def processAlgorithm(self, parameters, context, feedback):
        import os
        import shutil
        import tempfile

        from ...core.batch import jobs as batch_jobs
        from ...core.batch.client import BatchApiError
        from ...core.batch.formats import FormatError
        from ..batches import (
            batch_api,
            keep_points,
            make_client,
            open_cache,
            pending_requests,
            requests_folder,
            store,
        )
        from ..endpoints import make_endpoint
        from ..rating import read_points
        from ..runs import public_parameters

        # Every parameter is read (and refused, naming it) before anything else is checked.
        connection = ConnectionParameters.read(self, parameters, context)
        prompt = PromptParameters.read(self, parameters, context)
        batch_url = read_url(self, parameters, "BATCH_URL", context)
        cache_path = CacheParameter.read(self, parameters, context)
        cache = open_cache(cache_path)
        api = batch_api(BATCH_APIS.key(self.parameterAsEnum(parameters, "BATCH_API", context)),
                        connection.provider)  # fmt: skip
        if connection.provider == "embedded" or not connection.model:
            raise QgsProcessingException(
                tr("A provider batch needs a remote model: give the provider preset and the "
                   "model name.")
            )  # fmt: skip
        endpoint = make_endpoint(connection)
        estimate_only = self.parameterAsBoolean(parameters, "ESTIMATE_ONLY", context)
        # No key: refused before anything is written (an estimate needs none).
        client = None if estimate_only else make_client(api, connection.api_key, batch_url,
                                                        endpoint)  # fmt: skip
        gpkg = self.parameterAsFileOutput(parameters, OUTPUT, context)
        lon, lat, pids = points = read_points(self, parameters, context)
        pending = pending_requests(points, prompt, endpoint, cache)
        held = batch_jobs.leased(cache, {key for _ep, key, _body in pending})
        if held:
            feedback.pushInfo(tr("{n} requests are held by batches still open: left out.").format(
                n=len(held)))  # fmt: skip
        pending = [p for p in pending if p[1] not in held]
        max_requests = self.parameterAsInt(parameters, "MAX_REQUESTS", context) or None
        # Written to a scratch folder first: an estimate, or a request the format cannot carry,
        # leaves no file behind; the files move beside the GeoPackage once all are written.
        with tempfile.TemporaryDirectory(prefix="geobias-batch-") as scratch:
            try:
                written = batch_jobs.write_jobs(
                    pending, api, scratch, stem=f"{int(time.time())}",
                    max_requests=max_requests, price=lambda ep: (ep.price_in, ep.price_out),
                )  # fmt: skip
            except (FormatError, ValueError) as err:
                raise QgsProcessingException(message_text(err)) from err
            if written and not estimate_only:
                folder = requests_folder(gpkg)
                os.makedirs(folder, exist_ok=True)
                for job in written:
                    dest = os.path.join(folder, os.path.basename(job.request_file))
                    shutil.move(job.request_file, dest)
                    job.request_file = dest
        n_requests = sum(j.n_requests for j in written)
        costs = [j.cost_estimate for j in written if j.cost_estimate is not None]
        cost = sum(costs) if costs else None
        feedback.pushInfo(
            tr("{n} requests in {b} {api} batch(es) for {m}; cost at the batch price: {c}.").format(
                n=n_requests, b=len(written), api=api, m=endpoint.model,
                c=f"${cost:.2f}" if cost is not None else tr("no price set for this endpoint"),
            )
        )  # fmt: skip
        result = {OUTPUT: gpkg, "N_REQUESTS": n_requests, "N_BATCHES": len(written),
                  "N_SUBMITTED": 0, "COST": cost if cost is not None else -1.0,
                  "BATCH_IDS": ""}  # fmt: skip
        if estimate_only or not written:
            if client is not None:
                client.close()
            if not written:
                feedback.pushInfo(tr("Every request is answered in the cache: nothing to send."))
            return result
        points_uri = keep_points(gpkg, lon, lat, pids)
        stored = public_parameters(parameters)
        stored.update({INPUT: points_uri, OUTPUT: gpkg, "CACHE": cache_path})
        stored.pop("ESTIMATE_ONLY", None)
        for job in written:
            job.rate_params = json.dumps(dict(stored, BATCH_URL=batch_url))
        table = store(gpkg)
        table.save(written)  # recorded before sending: a crash leaves "waiting", not nothing
        limit = self.parameterAsInt(parameters, "QUEUED_TOKENS", context) or None
        others = [j for j in table.load(open_only=True) if j.job_id not in
                  {w.job_id for w in written} and j.provider == api]  # fmt: skip
        try:
            sent = batch_jobs.submit_wave(others + written, client, cache, time.time(), limit)
        except (BatchApiError, OSError) as err:
            raise QgsProcessingException(
                tr("The batch could not be submitted: {err}. The batches table keeps it as "
                   "waiting; 'Poll provider batches' submits it.").format(err=message_text(err))
            ) from err  # fmt: skip
        finally:
            table.save(others + written)
            client.close()
        for job in sent:
            feedback.pushInfo(tr("Batch {id}: {n} requests, {s}.").format(
                id=job.batch_id, n=job.n_requests, s=job.status))  # fmt: skip
        waiting = [j for j in written if j.status == "waiting"]
        if waiting:
            feedback.pushInfo(tr("{n} batch(es) wait for the queued-token limit: the next poll "
                                 "submits them.").format(n=len(waiting)))  # fmt: skip
        result["N_SUBMITTED"] = len([j for j in sent if j in written])
        result["BATCH_IDS"] = "\n".join(j.batch_id for j in written if j.batch_id)
        return result
