"""geobias:report — a report a geographer can hand in: a QGIS print layout (kept in the project,
editable) exported to PDF and PNG pages, with the method, maps, metrics, plots, hot spots,
attributions and what data was sent."""

import os

from qgis.core import (
    QgsProcessing,
    QgsProcessingException,
    QgsProcessingOutputNumber,
    QgsProcessingOutputString,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterNumber,
    QgsProcessingParameterString,
    QgsProcessingParameterVectorLayer,
    QgsProject,
)
from qgis.PyQt.QtCore import QTimer

from ...i18n_util import QT_TRANSLATE_NOOP, tr
from ..base import GeoBiasAlgorithm
from ..language_choices import countries_of
from ..parameters import AnchorParameters


class ReportAlgorithm(GeoBiasAlgorithm):
    NAME = "report"
    DISPLAY = QT_TRANSLATE_NOOP("@default", "Bias report (PDF)")
    GROUP = "overlay"
    USES_GEOS = False

    def help_text(self):
        return tr(
            "Writes a report of one rated points layer (one model and topic) as a PDF and one PNG "
            "per page, from a QGIS print layout that is also kept in the project (Project → "
            "Layouts) for editing: the title; what was measured, as the 'runs' table of the "
            "layer's GeoPackage (or of its folder) records it: the study area as the user gave "
            "it (a drawn polygon with its area in km² and extent, a layer and its selection, "
            "the map extent or the world), the model, endpoint (never a key), prompt preset, "
            "prompt language (a layer asked in one), score kind, ground truth and anchor as "
            "layer.field, date and versions; maps of the rank and the rank error zoomed to the "
            "study area, with its outline, legend, north arrow and a scale bar (world maps in "
            "the Equal Earth projection and without a scale bar, which would hold nowhere on "
            "them; smaller areas in a Lambert equal-area projection centred on the study "
            "area); the metrics table (with the "
            "global Moran's I of the rank errors and, with an anchor, rho with the anchor and "
            "the bias score), the rating-vs-truth plot and rank-error histogram, the geo-bias "
            "scores (GeoBS) of the rank errors, the hot spots of 'Bias hot spots' when given, "
            "the data attributions and what data was sent to the model."
        )

    # processAlgorithm builds, renders and exports with a project and layers of its own thread;
    # only postProcessAlgorithm touches the user's project. The dock runs the first in a task
    # and the second on the main thread (ui/task.py).
    PROCESS_IN_THREAD = True

    def flags(self):
        # Processing runs it all on the main thread: the layout and its layers join the project
        # in postProcessAlgorithm, which a model would call in its own thread.
        return super().flags() | GeoBiasAlgorithm.Flag.FlagNoThreading

    def initAlgorithm(self, config=None):
        self.addParameter(
            QgsProcessingParameterVectorLayer(
                "INPUT", tr("Rated points"), [QgsProcessing.SourceType.TypeVectorPoint]
            )
        )
        self.addParameter(
            QgsProcessingParameterVectorLayer(
                "HOTSPOTS", tr("Hot spots (output of 'Bias hot spots')"),
                [QgsProcessing.SourceType.TypeVectorPolygon,
                 QgsProcessing.SourceType.TypeVectorPoint], optional=True,
            )
        )  # fmt: skip
        self.addParameter(QgsProcessingParameterString("TITLE", tr("Title"), optional=True))
        AnchorParameters.add(self)
        self.addParameter(
            QgsProcessingParameterNumber(
                "N_BOOT", tr("Bootstrap resamples"), defaultValue=1000, minValue=0
            )
        )
        self.addParameter(QgsProcessingParameterNumber("SEED", tr("Random seed"), defaultValue=0))
        self.addParameter(
            QgsProcessingParameterNumber(
                "DPI", tr("Resolution of the PNG pages (dpi)"), defaultValue=150, minValue=50,
                maxValue=600,
            )
        )  # fmt: skip
        self.addParameter(
            QgsProcessingParameterFileDestination(
                "OUTPUT", tr("Report (PDF)"), tr("PDF files (*.pdf)")
            )
        )
        self.addOutput(QgsProcessingOutputNumber("PAGES", tr("Pages")))
        self.addOutput(QgsProcessingOutputString("PNG_FILES", tr("PNG pages (; separated)")))
        self.addOutput(QgsProcessingOutputString("LAYOUT", tr("Layout name in the project")))

    def processAlgorithm(self, parameters, context, feedback):
        import numpy as np

        from ...core.stats import geobs
        from ...core.stats.metrics import rank_error
        from ..features import as_float, numeric_field, read_columns
        from ..geobs_layers import area_settings
        from ..metrics_table import groups, metrics_row
        from ..report_layout import ReportBuilder, report_project
        from ..runs import run_info
        from ..styles import short_model, short_topic
        from ..truth import anchor_values

        layer = self.parameterAsVectorLayer(parameters, "INPUT", context)
        if layer is None or not layer.isValid():
            raise QgsProcessingException(self.invalidSourceError(parameters, "INPUT"))
        numeric_field(layer, "score", tr("Rated points (INPUT): field score"))
        hotspots = self.parameterAsVectorLayer(parameters, "HOTSPOTS", context)
        if hotspots is not None and hotspots.fields().lookupField("lisa_class") < 0:
            raise QgsProcessingException(
                tr("HOTSPOTS has no field lisa_class: give the output of 'Bias hot spots'.")
            )
        pdf = self.parameterAsFileOutput(parameters, "OUTPUT", context)
        if not pdf.lower().endswith(".pdf"):
            pdf += ".pdf"
        n_boot = self.parameterAsInt(parameters, "N_BOOT", context)
        seed = self.parameterAsInt(parameters, "SEED", context)
        dpi = self.parameterAsInt(parameters, "DPI", context)
        anchor_source = AnchorParameters.read(self, parameters, context)

        names = ["model", "topic", "score_kind", "language", "answered", "failed", "truth",
                 "truth_unit", "score"]  # fmt: skip
        cols = read_columns(layer, context, names)
        if "language" in cols:  # NULL: no language
            cols["language"] = [v if isinstance(v, str) else "" for v in cols["language"]]
        mixed = groups(cols)
        if len(mixed) != 1:
            raise QgsProcessingException(
                tr("A report covers one model, topic and score kind; this layer holds {n}.")
                .format(n=len(mixed))
            )  # fmt: skip
        model, topic, kind, language = next(iter(mixed))
        model, topic = model or layer.name(), topic or layer.name()
        score = as_float(cols["score"])
        truth = as_float(cols["truth"]) if "truth" in cols else None
        if truth is not None and not np.isfinite(truth).any():
            truth = None
        answered = as_float(cols["answered"]) == 1 if "answered" in cols else None
        failed = as_float(cols["failed"]) == 1 if "failed" in cols else None
        units = as_float(cols["truth_unit"]) if "truth_unit" in cols and truth is not None else None
        if units is not None:
            units = np.where(np.isfinite(units), units, -1) if np.isfinite(units).any() else None
        anchor, anchor_units, anchor_name = anchor_values(
            anchor_source, cols["lon"], cols["lat"], context, feedback
        )
        feedback.pushInfo(tr("Computing the metrics…"))
        row = metrics_row(
            model, topic, kind, score, truth, anchor, anchor_name, n_boot, seed,
            answered=answered, failed=failed, truth_units=units,
            anchor_units=units if anchor_units is None else anchor_units, lon=cols["lon"],
            lat=cols["lat"], language=language,
            countries=countries_of(cols["lon"], cols["lat"]) if language else None,
        )  # fmt: skip
        if feedback.isCanceled():
            return {}
        run = run_info(layer.source(), model, topic, language)
        title = self.parameterAsString(parameters, "TITLE", context) or tr(
            "{topic} as rated by {model}"
        ).format(topic=short_topic(topic), model=short_model(model))
        folder = os.path.splitext(pdf)[0] + "_files"
        os.makedirs(folder, exist_ok=True)
        project = report_project(context.project() or QgsProject.instance())
        builder = ReportBuilder(project, title, folder)
        errors = None if truth is None else rank_error(score, truth)
        if errors is not None:
            # The GeoBS scores of the rank errors: a world survey with a benchmark card's
            # settings, a smaller area with neighbourhoods scaled to its points.
            lon, lat = cols["lon"], cols["lat"]
            settings = area_settings(lon, lat)
            scores = geobs.geobs_scores(lon, lat, geobs.bin_errors(errors), settings)
            row["geobs"] = dict(scores.summary(), **scores.settings.as_dict())
        builder.build(layer, hotspots, cols, score, truth, errors, row, run, model, topic, kind)
        feedback.setProgress(60)
        pngs = builder.export(pdf, dpi)
        feedback.setProgress(95)
        self.kept = builder.detach()
        self.outputs = {"OUTPUT": pdf, "PAGES": len(pngs), "PNG_FILES": ";".join(pngs),
                        "LAYOUT": self.kept.name}  # fmt: skip
        return dict(self.outputs)

    def postProcessAlgorithm(self, context, feedback):
        """On the main thread: the built layout (and its layers in the desktop) join the
        project."""
        from ..report_layout import iface_running, keep_in_project

        kept = getattr(self, "kept", None)
        if kept is None:
            return {}
        self.kept = None
        # In the dock the event loop runs on: the layout's items are made between its turns.
        later = (lambda fn: QTimer.singleShot(0, fn)) if getattr(self, "main_loop", False) else None
        project = context.project() or QgsProject.instance()
        name = keep_in_project(project, kept, iface_running(), later)
        outputs = dict(self.outputs, LAYOUT=name)
        feedback.pushInfo(
            tr("Report written: {pdf} ({n} pages); the layout '{name}' is in the project.").format(
                pdf=outputs["OUTPUT"], n=outputs["PAGES"], name=name
            )
        )
        return outputs
