"""geobias:importbatch — a batch service's output JSONL into the survey cache, so the next rating
run with the same settings takes its answers from there."""

import glob
import os

from qgis.core import (
    QgsProcessingException,
    QgsProcessingOutputNumber,
    QgsProcessingParameterFile,
)

from ...i18n_util import QT_TRANSLATE_NOOP, message_text, tr
from ..base import GeoBiasAlgorithm


class ImportBatchAlgorithm(GeoBiasAlgorithm):
    NAME = "importbatch"
    DISPLAY = QT_TRANSLATE_NOOP("@default", "Import batch results")
    GROUP = "survey"
    USES_GEOS = False

    def help_text(self):
        return tr(
            "Stores the output of a batch service (OpenAI Batch API, vLLM's 'run-batch', Ray "
            "Data: one JSON line per request with its custom_id) in the survey cache. Give one "
            "output file, or a folder whose .jsonl files are all imported (the outputs of many "
            "nodes, in any order). Each answer is kept under its request's custom_id, so "
            "importing twice changes nothing; a failed line is recorded so that the next run "
            "sends that request again, unless another output answered it. Then run 'Rate "
            "locations' with the settings of the export: it writes the rated layers without "
            "asking the endpoint again."
        )

    def initAlgorithm(self, config=None):
        self.addParameter(
            QgsProcessingParameterFile(
                "INPUT", tr("Batch output file (JSONL)"), extension="jsonl", optional=True
            )
        )
        self.addParameter(
            QgsProcessingParameterFile(
                "FOLDER", tr("Or a folder of batch output files"),
                behavior=QgsProcessingParameterFile.Behavior.Folder, optional=True,
            )
        )  # fmt: skip
        self.addOutput(QgsProcessingOutputNumber("N_ANSWERS", tr("Answers stored")))
        self.addOutput(QgsProcessingOutputNumber("N_FAILED", tr("Failed requests recorded")))
        self.addOutput(QgsProcessingOutputNumber("N_FILES", tr("Files imported")))

    def processAlgorithm(self, parameters, context, feedback):
        from ...core.engine.cache import CacheError, SurveyCache
        from ...core.survey.batch import read_batch, store_batch
        from ..endpoints import default_cache_path

        path = self.parameterAsFile(parameters, "INPUT", context)
        folder = self.parameterAsFile(parameters, "FOLDER", context)
        if bool(path) == bool(folder):
            raise QgsProcessingException(
                tr("Give either a batch output file (INPUT) or a folder (FOLDER).")
            )
        paths = [path] if path else sorted(glob.glob(os.path.join(folder, "*.jsonl")))
        if not paths:
            raise QgsProcessingException(
                tr("Folder (FOLDER): {folder} holds no .jsonl file.").format(folder=folder)
            )
        key = "INPUT" if path else "FOLDER"
        # Every file is read and checked before anything is stored (the cache is opened only
        # then): a request file, an empty file or another provider's format among them, or a
        # bad line, records nothing.
        outputs = []
        for p in paths:
            if feedback.isCanceled():
                return {"N_ANSWERS": 0, "N_FAILED": 0, "N_FILES": 0}
            try:
                outputs.append(read_batch(p))
            except (OSError, ValueError) as err:
                raise QgsProcessingException(
                    tr("{key}: {err} Nothing was recorded.").format(key=key, err=message_text(err))
                    if str(err).startswith(p)
                    else tr(
                        "{key}: {path} cannot be imported: {err}. Nothing was recorded."
                    ).format(key=key, path=p, err=message_text(err))
                ) from err
        try:
            cache = SurveyCache(default_cache_path())
        except CacheError as err:
            raise QgsProcessingException(message_text(err)) from err
        n_answers = n_failed = 0
        for i, output in enumerate(outputs):
            result = store_batch(output, cache)
            n_answers += result.n_answers
            n_failed += result.n_failed
            feedback.pushInfo(
                tr("{path}: {a} answers, {f} failed requests recorded").format(
                    path=output.path, a=result.n_answers, f=result.n_failed
                )
            )
            feedback.setProgress(100.0 * (i + 1) / len(outputs))
        if n_failed:
            feedback.pushWarning(
                tr("{f} requests failed in the batch: the next rating run sends them.").format(
                    f=n_failed
                )
            )
        return {"N_ANSWERS": n_answers, "N_FAILED": n_failed, "N_FILES": len(outputs)}
