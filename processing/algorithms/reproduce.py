"""geobias:reproduce — run a recorded survey again from its runs row and say, figure by figure,
whether the results are the same."""

from qgis.core import (
    QgsProcessingException,
    QgsProcessingOutputBoolean,
    QgsProcessingOutputString,
    QgsProcessingParameterAuthConfig,
    QgsProcessingParameterEnum,
    QgsProcessingParameterFile,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterString,
)

from ...i18n_util import QT_TRANSLATE_NOOP, tr
from ..base import GeoBiasAlgorithm
from ..parameters import CacheParameter

SOURCE = "SOURCE"
RUN_ID = "RUN_ID"
MODE = "MODE"
CONFIRM_HOST = "CONFIRM_HOST"
OUTPUT = "OUTPUT"
MODES = ("cache", "again")


class ReproduceAlgorithm(GeoBiasAlgorithm):
    NAME = "reproduce"
    DISPLAY = QT_TRANSLATE_NOOP("@default", "Reproduce a run")
    GROUP = "survey"
    USES_GEOS = True  # the survey it reruns samples points in polygons

    def help_text(self):
        return tr(
            "Runs a recorded rating survey (geobias:survey or geobias:ratelocations) again "
            "from its row in a GeoPackage's runs table, with the recorded parameters, into a "
            "new GeoPackage, and compares the two table by table and field by field (a "
            "reproduction table and a sentence in the log: identical, or which figures differ "
            "and by how much). From the cache (the default) nothing is sent: a run whose "
            "answers are not all in the cache is refused, naming how many are missing. Ask "
            "again sends every request afresh (an empty cache of its own) and only to the "
            "host you confirm. A GeoPackage from someone else is data: its layers and files "
            "must be files on this machine, nothing it names is contacted without you, and no "
            "key is read from it."
        )

    def initAlgorithm(self, config=None):
        self.addParameter(
            QgsProcessingParameterFile(SOURCE, tr("GeoPackage of the run"), extension="gpkg")
        )
        self.addParameter(
            QgsProcessingParameterString(
                RUN_ID, tr("Run id (empty: the newest survey)"), "", optional=True
            )  # fmt: skip
        )
        self.addParameter(
            QgsProcessingParameterEnum(
                MODE, tr("Answers"),
                [tr("From the cache (send nothing)"), tr("Ask the endpoint again")],
                defaultValue=0,
            )
        )  # fmt: skip
        self.addParameter(
            QgsProcessingParameterString(
                CONFIRM_HOST, tr("Host to ask again (as the log names it)"), "", optional=True
            )
        )
        CacheParameter.add(self)
        self.addParameter(
            QgsProcessingParameterAuthConfig(
                "AUTH_CONFIG", tr("API key for asking again"), optional=True
            )  # fmt: skip
        )
        self.addParameter(
            QgsProcessingParameterFileDestination(
                OUTPUT, tr("Reproduced GeoPackage"), tr("GeoPackage (*.gpkg)")
            )
        )
        self.addOutput(QgsProcessingOutputBoolean("IDENTICAL", tr("Identical results")))
        self.addOutput(QgsProcessingOutputString("RUN_ID", tr("Run reproduced")))

    def processAlgorithm(self, parameters, context, feedback):
        import os
        import tempfile

        from qgis import processing

        from ...core.engine.cache import CacheError, SurveyCache
        from ...i18n_util import message_text
        from ..definitions import PROVIDERS
        from ..endpoints import api_key_from_auth
        from ..gpkg import write_table
        from ..parameters import is_shared_model
        from ..rating import CACHE_ONLY
        from ..reproduce import REPRODUCTION_FIELDS, compare_outputs, find_run, recorded_parameters

        auth = self.parameterAsString(parameters, "AUTH_CONFIG", context)
        if auth:
            api_key_from_auth(auth)  # an unknown configuration is named before anything else
        source = self.parameterAsFile(parameters, SOURCE, context)
        if not source or not os.path.isfile(source):
            raise QgsProcessingException(tr("Give the GeoPackage of the run (SOURCE)."))
        run_id = (self.parameterAsString(parameters, RUN_ID, context) or "").strip()
        mode = MODES[self.parameterAsEnum(parameters, MODE, context)]
        confirm = (self.parameterAsString(parameters, CONFIRM_HOST, context) or "").strip()
        out = self.parameterAsFileOutput(parameters, OUTPUT, context)
        if os.path.abspath(out) == os.path.abspath(source):
            raise QgsProcessingException(
                tr("The reproduction is written beside the run, not over it: choose another "
                   "OUTPUT.")
            )  # fmt: skip
        cache_path = CacheParameter.read(self, parameters, context)
        # A cache that cannot be opened is named before the run is looked at; one that does
        # not exist yet is not made here (a refused run writes nothing).
        if os.path.exists(cache_path):
            try:
                SurveyCache(cache_path).close()
            except CacheError as err:
                raise QgsProcessingException(message_text(err)) from err
        elif not os.path.isdir(os.path.dirname(os.path.abspath(cache_path))):
            raise QgsProcessingException(
                tr("The answer cache (CACHE) {path} cannot be made: its folder does not "
                   "exist.").format(path=cache_path)
            )  # fmt: skip
        row = find_run(source, run_id)
        params = recorded_parameters(row)
        host, model = row.get("endpoint_host") or "", row.get("model") or ""
        feedback.pushInfo(
            tr("Run {run}: {alg}, {model} at {host}, started {started}.").format(
                run=row.get("run_id"), alg=row.get("algorithm"), model=model,
                host=host or "-", started=row.get("started"))
        )  # fmt: skip
        try:
            key = PROVIDERS.key(params.get("PROVIDER", PROVIDERS.default_index))
        except (TypeError, ValueError, IndexError):
            key = "custom"
        shared = is_shared_model(key, params.get("BASE_URL"))
        if mode == "again":
            if not shared and confirm != host:
                raise QgsProcessingException(
                    tr("Asking again sends the run's requests to {host} ({model}). Nothing "
                       "was sent: to allow it, give CONFIRM_HOST={host} (an API key, if it "
                       "needs one, goes in AUTH_CONFIG; none is read from the file).").format(
                        host=host, model=model)
                )  # fmt: skip
            folder = tempfile.mkdtemp(prefix="geobias-again-")
            params["CACHE"] = os.path.join(folder, "cache.sqlite")  # every answer afresh
            if auth:
                params["AUTH_CONFIG"] = auth
        else:
            params["CACHE"] = cache_path
        params["OUTPUT"] = out
        if os.path.exists(out):
            os.remove(out)
        token = CACHE_ONLY.set(mode == "cache")
        try:
            processing.run(row["algorithm"], params, context=context, feedback=feedback,
                           is_child_algorithm=True)  # fmt: skip
        finally:
            CACHE_ONLY.reset(token)
        if feedback.isCanceled():
            raise QgsProcessingException(tr("Cancelled."))
        rows, identical = compare_outputs(source, out)
        write_table(out, "reproduction", rows, REPRODUCTION_FIELDS)
        differ = [r for r in rows if r["n_differ"]]
        if identical:
            feedback.pushInfo(
                tr("Identical: every figure of {n} fields in {t} tables equals the run's.").format(
                    n=len(rows), t=len({r["table"] for r in rows}))
            )  # fmt: skip
        else:
            for r in differ:
                feedback.pushInfo(
                    tr("{table}.{field}: {d} of {n} rows differ (largest difference {m}).").format(
                        table=r["table"], field=r["field"] or "*", d=r["n_differ"], n=r["n_rows"],
                        m="-" if r["max_abs_diff"] is None else f"{r['max_abs_diff']:.4g}")
                )  # fmt: skip
            feedback.pushWarning(
                tr("Not identical: {d} of {n} fields differ (the reproduction table lists "
                   "them).").format(d=len(differ), n=len(rows))
            )  # fmt: skip
        return {"OUTPUT": out, "IDENTICAL": identical, "RUN_ID": row.get("run_id") or ""}
