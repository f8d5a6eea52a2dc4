"""The GeoBias Processing provider: every GeoBias job is one of its algorithms."""

from qgis.core import QgsProcessingProvider
from qgis.PyQt.QtGui import QIcon

from ..i18n_util import tr
from ..paths import ICON


def algorithm_classes():
    """The provider's algorithms; ids are a public contract (models, scripts, qgis_process)."""
    classes = []
    # Imported here so a broken algorithm module shows up as a load error of that algorithm,
    # not of the whole plugin.
    from .algorithms.ablation import AblationAlgorithm
    from .algorithms.aggregate_to_polygons import AggregateToPolygonsAlgorithm
    from .algorithms.benchmark import BenchmarkAlgorithm
    from .algorithms.bias_metrics import BiasMetricsAlgorithm
    from .algorithms.compare_cards import CompareCardsAlgorithm
    from .algorithms.compare_models import CompareModelsAlgorithm
    from .algorithms.correlate import CorrelateAlgorithm
    from .algorithms.export_batch import ExportBatchAlgorithm
    from .algorithms.geobias_scores import GeoBiasScoresAlgorithm
    from .algorithms.herb import HerbAlgorithm
    from .algorithms.hotspots import HotspotsAlgorithm
    from .algorithms.import_batch import ImportBatchAlgorithm
    from .algorithms.import_ratings import ImportRatingsAlgorithm
    from .algorithms.pairwise_survey import PairwiseSurveyAlgorithm
    from .algorithms.poll_batches import PollBatchesAlgorithm
    from .algorithms.probes import ProbesAlgorithm
    from .algorithms.rate_locations import RateLocationsAlgorithm
    from .algorithms.recall_survey import RecallSurveyAlgorithm
    from .algorithms.report import ReportAlgorithm
    from .algorithms.reproduce import ReproduceAlgorithm
    from .algorithms.sample_ground_truth import SampleGroundTruthAlgorithm
    from .algorithms.sample_points import SamplePointsAlgorithm
    from .algorithms.submit_batch import SubmitBatchAlgorithm
    from .algorithms.survey import SurveyAlgorithm

    classes += [
        SamplePointsAlgorithm,
        RateLocationsAlgorithm,
        PairwiseSurveyAlgorithm,
        ReproduceAlgorithm,
        RecallSurveyAlgorithm,
        SampleGroundTruthAlgorithm,
        BiasMetricsAlgorithm,
        ImportRatingsAlgorithm,
        SurveyAlgorithm,
        AggregateToPolygonsAlgorithm,
        CorrelateAlgorithm,
        HotspotsAlgorithm,
        CompareModelsAlgorithm,
        GeoBiasScoresAlgorithm,
        BenchmarkAlgorithm,
        CompareCardsAlgorithm,
        HerbAlgorithm,
        ReportAlgorithm,
        AblationAlgorithm,
        ProbesAlgorithm,
        ExportBatchAlgorithm,
        ImportBatchAlgorithm,
        SubmitBatchAlgorithm,
        PollBatchesAlgorithm,
    ]
    return classes


class GeoBiasProvider(QgsProcessingProvider):
    """Provider `geobias` in the Processing toolbox."""

    def id(self):
        return "geobias"

    def name(self):
        return "GeoBias"

    def longName(self):
        return tr("GeoBias: geographic bias of large language models")

    def icon(self):
        return QIcon(ICON)

    def svgIconPath(self):
        return ICON

    def loadAlgorithms(self):
        for cls in algorithm_classes():
            self.addAlgorithm(cls())
