"""geobias:exportbatch — the requests a rating run would send, as Batch JSONL files for a batch
service (OpenAI Batch API, vLLM's run-batch, a cluster), one series of files per model."""

import os

from qgis.core import (
    QgsProcessing,
    QgsProcessingException,
    QgsProcessingOutputNumber,
    QgsProcessingOutputString,
    QgsProcessingParameterDefinition,
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterFolderDestination,
    QgsProcessingParameterNumber,
)

from ...i18n_util import QT_TRANSLATE_NOOP, tr
from ..base import GeoBiasAlgorithm
from ..parameters import Connection, ConnectionParameters, PromptParameters, add_endpoint_parameters

MB = 1024 * 1024


class ExportBatchAlgorithm(GeoBiasAlgorithm):
    NAME = "exportbatch"
    DISPLAY = QT_TRANSLATE_NOOP("@default", "Export requests for a batch service")
    GROUP = "survey"
    USES_GEOS = False

    def help_text(self):
        return tr(
            "Writes the requests 'Rate locations' would send with the same points, topics, "
            "endpoint and prompt preset as OpenAI Batch JSONL files, for surveys too large for "
            "one server or cheaper as a batch: OpenAI's Batch API, vLLM's 'run-batch' on each "
            "node of a cluster, or Ray Data's batch inference. One series of files per model, "
            "each file at most MAX_REQUESTS requests and MAX_MB megabytes (OpenAI's caps: "
            "50,000 and 200). Requests already answered in the survey cache are left out; no "
            "API key is written. Run the files, import their output with 'Import batch "
            "results', then run 'Rate locations' with the same settings: it takes every answer "
            "from the cache and sends only what failed. Every chosen prompt language's requests "
            "are exported, each with its own answer format."
        )

    def initAlgorithm(self, config=None):
        from ...core.survey.batch import MAX_BYTES, MAX_REQUESTS

        self.addParameter(
            QgsProcessingParameterFeatureSource(
                "INPUT", tr("Points to rate"), [QgsProcessing.SourceType.TypeVectorPoint]
            )
        )
        add_endpoint_parameters(self)
        for name, label, default in (
            ("MAX_REQUESTS", tr("Requests per file at most"), MAX_REQUESTS),
            ("MAX_MB", tr("Megabytes per file at most"), MAX_BYTES // MB),
        ):
            param = QgsProcessingParameterNumber(name, label, defaultValue=default, minValue=1)
            param.setFlags(param.flags() | QgsProcessingParameterDefinition.Flag.FlagAdvanced)
            self.addParameter(param)
        self.addParameter(
            QgsProcessingParameterFolderDestination("OUTPUT", tr("Folder for the batch files"))
        )
        self.addOutput(QgsProcessingOutputString("FILES", tr("Batch files (one per line)")))
        self.addOutput(QgsProcessingOutputNumber("N_FILES", tr("Files written")))
        self.addOutput(QgsProcessingOutputNumber("N_REQUESTS", tr("Requests exported")))

    def processAlgorithm(self, parameters, context, feedback):
        from ...core.survey.batch import write_batches
        from ..batches import open_cache, pending_requests
        from ..endpoints import default_cache_path, make_endpoint
        from ..rating import read_points

        connection = ConnectionParameters.read(self, parameters, context)
        prompt = PromptParameters.read(self, parameters, context)
        provider, base_url, model = connection.provider, connection.base_url, connection.model
        if connection.shared_model:
            raise QgsProcessingException(
                tr("The embedded model runs on this computer: rate with 'Rate locations'.")
            )
        if not model:
            raise QgsProcessingException(tr("Give the model name."))
        # No key and the default concurrency: neither enters a batch file.
        endpoint = make_endpoint(
            Connection(provider, base_url, model, constraint=connection.constraint)
        )
        points = read_points(self, parameters, context)
        folder = self.parameterAsString(parameters, "OUTPUT", context)
        caps = {
            "max_requests": self.parameterAsInt(parameters, "MAX_REQUESTS", context),
            "max_bytes": self.parameterAsInt(parameters, "MAX_MB", context) * MB,
        }
        cache = open_cache(default_cache_path())
        feedback.pushInfo(
            tr("Writing the pending requests of {n} points on {k} topic(s) for {m}.").format(
                n=len(points[0]), k=len(prompt.topics), m=endpoint.model
            )
        )
        # Every language's requests in one series of files per model.
        pending = pending_requests(points, prompt, endpoint, cache)
        files = write_batches(pending, folder, **caps)
        for f in files:
            feedback.pushInfo(
                tr("{path}: {n} requests, {mb:.1f} MB").format(
                    path=f.path, n=f.n_requests, mb=f.n_bytes / MB
                )
            )
        n_requests = sum(f.n_requests for f in files)
        if not files:
            feedback.pushInfo(tr("Every request is answered in the cache: nothing to export."))
        return {
            "OUTPUT": os.path.abspath(folder),
            "FILES": "\n".join(f.path for f in files),
            "N_FILES": len(files),
            "N_REQUESTS": n_requests,
        }
