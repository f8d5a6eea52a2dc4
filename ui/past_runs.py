"""The project's past runs, read from the `runs` tables of its output GeoPackages, and a combo
box listing them in a tab: after reopening a project the Results, Compare and Regional bias tabs
offer every survey and HERB run it holds."""

import json
import os
from dataclasses import dataclass, field

from qgis.core import QgsProject, QgsVectorLayer
from qgis.PyQt.QtCore import Qt, pyqtSignal
from qgis.PyQt.QtWidgets import QComboBox

from ..i18n_util import tr, translate
from ..processing.report_layout import is_report_copy
from ..processing.runs import read_runs
from ..processing.styles import short_model
from . import outputs

__all__ = ["PastRun", "RunsCombo", "project_geopackages", "project_runs"]

RATING_ALGORITHMS = ("geobias:ratelocations", "geobias:survey", "geobias:ablation")
HERB_ALGORITHMS = ("geobias:herb",)
# Files of a dock run's folder (<survey>/<run time>/): ratings, their ground truth, metrics.
DOCK_FILES = ("rated_", "truth_", "metrics")
MAX_FILES = 2000  # GeoPackages looked at under the project's output folder


@dataclass
class PastRun:
    """One run of the project: a dock survey's folder or a GeoPackage, its runs rows."""

    kind: str  # "survey" or "herb"
    key: str  # the folder (dock survey) or the file
    files: list = field(default_factory=list)
    rows: list = field(default_factory=list)

    @property
    def started(self):
        return max(str(r.get("started") or "") for r in self.rows)

    @property
    def name(self):
        """The survey's name: its folder (<survey>/<run time>) or the file's name."""
        if os.path.isdir(self.key):
            return os.path.basename(os.path.dirname(self.key))
        return os.path.splitext(os.path.basename(self.key))[0]

    def label(self):
        """'survey · 2025-05-02 14:03 · gemma-3-270m · Infant Mortality Rate'."""
        models, topics = [], []
        for r in self.rows:
            models += [m.strip() for m in str(r.get("model") or "").split(";") if m.strip()]
            try:
                topics += list(json.loads(r.get("topics") or "[]"))
            except ValueError:
                pass
        models = [short_model(m.replace("gguf:", "")) for m in dict.fromkeys(models)]
        what = " · ".join(x for x in (", ".join(models), ", ".join(dict.fromkeys(topics))) if x)
        codes = list(dict.fromkeys(str(r["language"]) for r in self.rows if r.get("language")))
        if codes:  # a run in prompt languages: their codes, as its layers' names give them
            what = f"{what} [{', '.join(codes)}]"
        if self.kind == "herb":
            area = next((r.get("study_area") for r in self.rows if r.get("study_area")), "")
            what = " · ".join(x for x in (", ".join(models), area) if x)
        when = self.started[:16].replace("T", " ")
        return " · ".join(x for x in (self.name, when, what) if x)


def project_geopackages(project=None):
    """The GeoPackages of the project's layers and those under its output folder."""
    project = project or QgsProject.instance()
    paths = []
    for layer in project.mapLayers().values():
        path = outputs.layer_path(layer)
        if path.lower().endswith(".gpkg"):
            paths.append(path)
    home = outputs.project_folder(project)
    roots = [os.path.join(home, outputs.PROJECT_SUBFOLDER)] if home else []
    roots += outputs.unsaved_folders()
    for root in roots:
        for folder, _dirs, files in os.walk(root):
            paths += [os.path.join(folder, f) for f in files if f.lower().endswith(".gpkg")]
            if len(paths) > MAX_FILES:
                break
    return [p for p in dict.fromkeys(os.path.abspath(p) for p in paths) if os.path.isfile(p)]


def dock_run_folder(path):
    """The run folder of a dock survey's file (rated_*, truth_*, metrics), else None."""
    name = os.path.basename(path).lower()
    return os.path.dirname(path) if name.startswith(DOCK_FILES) else None


def project_runs(kind, project=None):
    """The project's runs of one kind, newest first: "survey" (rating runs: a dock survey's
    folder or a GeoPackage) or "herb"."""
    wanted = RATING_ALGORITHMS if kind == "survey" else HERB_ALGORITHMS
    runs = {}
    for path in project_geopackages(project):
        rows = [r for r in read_runs(path) if r.get("algorithm") in wanted]
        if not rows:
            continue
        key = (dock_run_folder(path) if kind == "survey" else None) or path
        run = runs.setdefault(key, PastRun(kind, key))
        run.rows += rows
        run.files.append(path)
    for run in runs.values():  # a dock run's other files: its ground truth and metrics
        if os.path.isdir(run.key):
            others = [
                os.path.join(run.key, f)
                for f in sorted(os.listdir(run.key))
                if f.lower().endswith(".gpkg") and f.lower().startswith(DOCK_FILES)
            ]
            run.files = list(dict.fromkeys(others + run.files))
    return sorted(runs.values(), key=lambda r: r.started, reverse=True)


def layers_of(run, project=None):
    """The project's layers reading the run's files (report copies left out)."""
    project = project or QgsProject.instance()
    files = {os.path.normcase(os.path.abspath(f)) for f in run.files}
    return [lyr for lyr in project.mapLayers().values()
            if isinstance(lyr, QgsVectorLayer) and not is_report_copy(lyr)
            and os.path.normcase(outputs.layer_path(lyr)) in files]  # fmt: skip


class RunsCombo(QComboBox):
    """The project's past runs of one kind, read again each time the list opens; choosing
    one emits runChosen(PastRun) and shows the prompt again."""

    runChosen = pyqtSignal(object)

    def __init__(self, kind, parent=None):
        super().__init__(parent)
        self.kind = kind
        self.runs = []
        self.setObjectName(f"{kind}RunsCombo")
        self.setToolTip(tr("The runs whose outputs this project holds (from their GeoPackages' "
                           "runs tables): pick one to show it again."))  # fmt: skip
        self.activated.connect(self._chosen)
        self.refresh()

    def refresh(self):
        """List the project's runs again."""
        self.runs = project_runs(self.kind)
        self.blockSignals(True)
        self.clear()
        n = len(self.runs)
        self.addItem(translate("@default", "Past runs of this project (%n)…", None, n))
        for run in self.runs:
            self.addItem(run.label(), run.key)
            self.setItemData(self.count() - 1, "\n".join(run.files), Qt.ItemDataRole.ToolTipRole)
        self.setCurrentIndex(0)
        self.blockSignals(False)

    def showPopup(self):  # noqa: N802 (Qt's name)
        self.refresh()
        super().showPopup()

    def _chosen(self, index):
        if 1 <= index <= len(self.runs):
            run = self.runs[index - 1]
            self.setCurrentIndex(0)
            self.runChosen.emit(run)
