"""Issue 21, items 3 and 4 in QGIS (offscreen): the dock's tabs pick the right layers (a report's
copies never listed, a choice between two layers of one model × topic, a user's mistake said in
the tab without a traceback) and run every heavy job as a cancellable QgsTask on the dock's run
panel while the GUI thread keeps running."""

import math
import os

import pytest
from qgis.core import (
    QgsApplication,
    QgsFeature,
    QgsGeometry,
    QgsPointXY,
    QgsProject,
    QgsTask,
    QgsVectorLayer,
)
from qgis.PyQt.QtCore import QTimer

from geobias.paths import COUNTRIES, DATA, REFERENCE
from geobias.test.qtstub import wait_for, wait_job
from geobias.ui import survey_plan
from geobias.ui.dock import GeoBiasDock
from geobias.ui.results import _num
from geobias.ui.results_tab import is_rated
from geobias.ui.settings import save_endpoints

IMR, ATTR = "Infant Mortality Rate", "Average Attractiveness of Residents"
MODEL = "gpt-3.5-turbo-0613"


def reference(topic):
    name = topic.replace(" ", "_")
    return os.path.join(REFERENCE, f"gpt_3_5_turbo_0613_{name}_world_prompts.csv")


@pytest.fixture()
def dock(qgis_iface, qgis_new_project, processing_ready, tmp_path):
    QgsProject.instance().setFileName(str(tmp_path / "project.qgz"))  # outputs beside it
    d = GeoBiasDock(qgis_iface)
    d.pushed = []
    d.push = lambda text, level=None, details=None: d.pushed.append((text, details))
    yield d
    d.close_survey()
    d.deleteLater()
    save_endpoints([])


@pytest.fixture()
def log():
    """Every message QGIS's message log receives during the test (any tag)."""
    messages = []

    def received(message, tag, level):
        messages.append(f"{tag}: {message}")

    QgsApplication.messageLog().messageReceived.connect(received)
    yield messages
    QgsApplication.messageLog().messageReceived.disconnect(received)


def rated(tmp_path, topic=IMR, truth=True, name=None):
    """The paper's GPT-3.5 ratings of `topic` (with the countries' infant mortality as truth),
    written by the toolbox algorithms and added to the project."""
    folder = tmp_path / (name or topic.split()[0].lower())
    folder.mkdir(exist_ok=True)
    out = survey_plan.run_algorithm("geobias:importratings", {
        "INPUT": reference(topic), "MODEL": MODEL, "TOPIC": topic,
        "OUTPUT": str(folder / "rated.gpkg")})["OUTPUT"]  # fmt: skip
    if truth:
        out = survey_plan.run_algorithm("geobias:samplegroundtruth", {
            "INPUT": out, "POLYGONS": COUNTRIES, "POLYGON_FIELD": "infant_mortality",
            "OUTPUT": str(folder / "truth.gpkg")})["OUTPUT"]  # fmt: skip
    layer = QgsVectorLayer(out, name or topic, "ogr")
    QgsProject.instance().addMapLayer(layer)
    return layer


class Ticks:
    """A 5 ms QTimer on the GUI thread: how often it fired while a job ran."""

    def __init__(self):
        self.count = 0
        self.timer = QTimer()
        self.timer.setInterval(5)
        self.timer.timeout.connect(self.tick)

    def tick(self):
        self.count += 1

    def __enter__(self):
        self.count = 0
        self.timer.start()
        return self

    def __exit__(self, *exc):
        self.timer.stop()


# ---------------------------------------------------------------------------- item 3
def test_a_reports_copies_are_never_listed_in_compare_or_results(dock, tmp_path, log):
    import processing

    layer = rated(tmp_path)
    # A report made in the toolbox (as the dock makes it) keeps its maps' layers in the project.
    processing.run("geobias:report", {"INPUT": layer, "N_BOOT": 50,
                                      "OUTPUT": str(tmp_path / "report.pdf")})  # fmt: skip
    copies = [lyr for lyr in QgsProject.instance().mapLayers().values()
              if lyr is not layer and lyr.fields().lookupField("score") >= 0]  # fmt: skip
    assert len(copies) == 2  # the rank and rank-error maps' layers, in the report's group
    assert not any(is_rated(lyr) for lyr in copies)
    # Compare: "Use selected layers" offers the survey's layer only, and compares it.
    tab = dock.compare
    tab.use_selected_layers()
    assert tab.layers == [layer]
    assert not tab.choice.isVisibleTo(tab)
    task = wait_job(dock, tab.compare())
    assert not task.error and tab.result["MEAN_RANK_LAYERS"]
    # Results: the same, and the report made from the dock adds copies that stay unlisted too.
    results = dock.results
    wait_job(dock, results.use_selected_layers())
    assert results.rated_layers == [layer] and results.metrics.rowCount() == 1
    report = wait_job(dock, results.make_report(), 300)
    assert not report.error, report.error
    wait_job(dock, results.use_selected_layers())
    assert results.rated_layers == [layer]
    assert dock.pushed == [] and not any("Traceback" in m for m in log)


def test_two_layers_of_one_model_and_topic_the_user_chooses_which(dock, tmp_path):
    with_truth = rated(tmp_path, name="with truth")
    without = rated(tmp_path, truth=False, name="without truth")
    other = rated(tmp_path, ATTR, truth=False, name="attractiveness")
    from geobias.ui.layer_choice import layer_groups

    tab = dock.compare
    tab.use_selected_layers()
    key = (MODEL, IMR, next(iter(layer_groups(with_truth)))[2])
    assert set(tab.choice.combos) == {key}  # the attractiveness layer is no question
    assert tab.choice.isVisibleTo(tab)
    combo = tab.choice.combos[key]
    assert [combo.itemData(i) for i in range(combo.count())] == [with_truth.id(), without.id()]
    assert combo.currentData() == with_truth.id()  # the one with ground truth first
    # The labels tell the two apart (their files) and say which holds a ground truth.
    assert combo.itemText(0) == "with truth (truth.gpkg), with ground truth"
    assert combo.itemText(1) == "without truth (rated.gpkg)"
    assert set(tab.choice.chosen()) == {with_truth, other}

    def compared():
        task = wait_job(dock, tab.compare())
        assert not task.error, task.error
        return {(r["label"], r["topic"]): r for r in task.results[-1]["RECORDS"]}

    rows = compared()
    assert rows[(MODEL, IMR)]["n_truth"] > 1000 and rows[(MODEL, IMR)]["rho_truth"] > 0.5
    tab.choice.choose(key, without)
    rows = compared()
    assert rows[(MODEL, IMR)]["rho_truth"] is None  # the layer without truth was compared
    assert (MODEL, ATTR) in rows
    # The Results tab asks the same, and follows a new choice with new metrics.
    results = dock.results
    wait_job(dock, results.use_selected_layers())
    assert set(results.choice.combos) == {key}
    assert {r["topic"] for r in results.metrics.rows} == {IMR, ATTR}
    assert len(results.metrics.rows) == 2
    assert results.metrics.rows[[r["topic"] for r in results.metrics.rows].index(IMR)]["rho"] > 0.5
    results.choice.choose(key, without)
    wait_for(lambda: not dock.panel.busy)
    imr = next(r for r in results.metrics.rows if r["topic"] == IMR)
    assert math.isnan(_num(imr["rho"])) and set(results.rated_layers) == {without, other}


def test_a_users_mistake_is_said_in_the_tab_without_a_traceback(dock, tmp_path, log):
    # A layer that looks rated but whose scores are text: comparing it is the user's mistake.
    layer = QgsVectorLayer("Point?crs=EPSG:4326&field=model:string&field=topic:string"
                           "&field=score:string", "typed by hand", "memory")  # fmt: skip
    f = QgsFeature(layer.fields())
    f.setAttributes(["my model", IMR, "high"])
    f.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(2, 48)))
    layer.dataProvider().addFeatures([f])
    QgsProject.instance().addMapLayer(layer)
    tab = dock.compare
    tab.use_layers([layer])
    task = tab.compare()
    if task is not None:
        wait_job(dock, task)
    assert dock.pushed == []  # not in the message bar, where it vanishes (with a traceback)
    assert task.error and not task.bug
    assert tab.notice.isVisibleTo(tab) and "score" in tab.notice.text()
    assert "Stopped" in dock.panel.progressLabel.text()
    assert dock.panel.runButton.text() == "Run survey"  # not "Resume": nothing to resume
    # A report of a layer holding two topics: said in the Results tab.
    two = QgsVectorLayer(
        "Point?crs=EPSG:4326&field=model:string&field=topic:string&field=score:double",
        "two topics", "memory")  # fmt: skip

    for i, topic in enumerate((IMR, ATTR)):
        f = QgsFeature(two.fields())
        f.setAttributes(["m", topic, float(i)])
        f.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(i, i)))
        two.dataProvider().addFeatures([f])
    QgsProject.instance().addMapLayer(two)
    dock.results.rated_layers = [two]
    wait_job(dock, dock.results.make_report())
    assert "one model, topic and score kind" in dock.results.notice.text()
    assert dock.pushed == []  # nothing in the message bar
    assert not any("Traceback" in m for m in log), log


def test_a_bug_goes_to_the_message_bar_with_its_traceback_in_the_log(dock, tmp_path, monkeypatch):
    layer = rated(tmp_path)
    # Where pivots is defined: the algorithm imports it when it runs (a light start).
    from geobias.core.survey import comparisons

    def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug, not the user's mistake")

    monkeypatch.setattr(comparisons, "pivots", broken)
    tab = dock.compare
    tab.use_layers([layer])
    task = wait_job(dock, tab.compare())
    assert task.bug and "a bug, not the user's mistake" in tab.notice.text()
    ((text, details),) = dock.pushed
    assert "a bug" in text and "Traceback" in details and "ZeroDivisionError" in details


# ---------------------------------------------------------------------------- item 4
def start_preview(dock, tmp_path):
    area = dock.area
    area.drawn = QgsGeometry.fromWkt("POLYGON((-10 35,30 35,30 60,-10 60,-10 35))")
    area.drawRadio.setChecked(True)
    area.nPointsSpin.setValue(300)
    area.methodCombo.setCurrentIndex(area.methodCombo.findData("population"))
    return area.preview()


def units(dock, tmp_path):
    """The ratings aggregated to the bundled countries (by the toolbox algorithm)."""
    out = survey_plan.run_algorithm("geobias:aggregatetopolygons", {
        "INPUT": rated(tmp_path).source(), "POLYGONS": COUNTRIES, "MIN_POINTS": 3,
        "OUTPUT": str(tmp_path / "units.gpkg")})["OUTPUT"]  # fmt: skip
    layer = QgsVectorLayer(out, "units", "ogr")
    QgsProject.instance().addMapLayer(layer)
    tab = dock.overlay
    tab.corrLayerCombo.setLayer(layer)
    tab.hotLayerCombo.setLayer(layer)
    return tab


def start_aggregate(dock, tmp_path):
    tab = dock.overlay
    tab.pointsCombo.setLayer(rated(tmp_path))
    countries = QgsVectorLayer(os.path.join(DATA, "world_countries.gpkg") + "|layername=countries",
                               "countries", "ogr")  # fmt: skip
    QgsProject.instance().addMapLayer(countries)
    tab.unitsCombo.setLayer(countries)
    return tab.aggregate()


def start_correlate(dock, tmp_path):
    return units(dock, tmp_path).correlate()


def start_hotspots(dock, tmp_path):
    return units(dock, tmp_path).hotspots()


def start_metrics(dock, tmp_path):
    return dock.results.compute_metrics([rated(tmp_path)])


def start_report(dock, tmp_path):
    dock.results.rated_layers = [rated(tmp_path)]
    return dock.results.make_report()


def start_compare(dock, tmp_path):
    dock.compare.use_layers([rated(tmp_path), rated(tmp_path, ATTR, truth=False)])
    return dock.compare.compare()


def shown(dock, job):
    """What each job shows when it has run."""
    return {
        "preview": lambda: (
            dock.area.preview_layer is not None and dock.area.points_band.numberOfVertices() == 300
        ),
        "aggregate": lambda: (
            dock.overlay.units_layer is not None
            and QgsProject.instance().mapLayer(dock.overlay.units_layer.id()) is not None
        ),
        "correlate": lambda: dock.overlay.corrTable.rowCount() >= 4,
        "hotspots": lambda: "Moran's I" in dock.overlay.moranLabel.text(),
        "metrics": lambda: dock.results.metrics.rowCount() == 1,
        "report": lambda: len(QgsProject.instance().layoutManager().layouts()) == 1,
        "compare": lambda: bool(dock.compare.pivots) and len(dock.compare.mean_layers) == 2,
    }[job]


JOBS = {
    "preview": start_preview,
    "aggregate": start_aggregate,
    "correlate": start_correlate,
    "hotspots": start_hotspots,
    "metrics": start_metrics,
    "report": start_report,
    "compare": start_compare,
}


@pytest.mark.parametrize("job", list(JOBS))
def test_each_job_runs_as_a_task_on_the_run_panel_while_the_gui_thread_runs(dock, tmp_path, job):
    with Ticks() as ticks:
        task = JOBS[job](dock, tmp_path)
        assert isinstance(task, QgsTask) and dock.panel.task is task
        assert task in QgsApplication.taskManager().tasks()
        assert not dock.panel.runButton.isEnabled() and dock.panel.cancelButton.isEnabled()
        during = ticks.count
        wait_job(dock, task, 300)
        ran = ticks.count - during
    assert not task.error, task.error
    assert ran > 0  # the GUI thread's timer fired while the job ran
    assert shown(dock, job)()
    assert dock.panel.progressBar.value() == 100 and "Done in" in dock.panel.progressLabel.text()
    assert dock.panel.runButton.isEnabled() and not dock.panel.cancelButton.isEnabled()


@pytest.mark.parametrize("job", list(JOBS))
def test_each_job_can_be_cancelled(dock, tmp_path, job):
    task = JOBS[job](dock, tmp_path)
    layers_before = set(QgsProject.instance().mapLayers())
    dock.panel.cancelButton.click()
    wait_job(dock, task)
    assert task.status() == QgsTask.TaskStatus.Terminated and not task.error
    assert dock.panel.progressLabel.text() == "Cancelled."
    assert not shown(dock, job)()
    assert set(QgsProject.instance().mapLayers()) == layers_before  # nothing added
    assert dock.pushed == [] and dock.panel.runButton.text() == "Run survey"


def test_a_running_report_stops_at_cancel_and_adds_nothing(dock, tmp_path):
    task = start_report(dock, tmp_path)
    wait_for(lambda: task.status() == QgsTask.TaskStatus.Running and task.progress() > 0, 60,
             "the report to be under way")  # fmt: skip
    layers_before = set(QgsProject.instance().mapLayers())
    dock.panel.cancel()
    wait_job(dock, task, 300)
    assert task.status() == QgsTask.TaskStatus.Terminated
    assert QgsProject.instance().layoutManager().layouts() == []
    assert set(QgsProject.instance().mapLayers()) == layers_before


def test_one_job_at_a_time_and_its_cancel_stays_in_sight(dock, tmp_path):
    first = start_compare(dock, tmp_path)
    assert first is not None
    # Refused while the comparison runs, said in the tab.
    assert dock.results.compute_metrics(dock.compare.layers) is None
    assert "comparison is running" in dock.results.notice.text()
    dock.show_tab(dock.herb)  # the Regional bias tab has its own panel; this job stays shown
    assert dock.panel.isVisibleTo(dock) and dock.panel.cancelButton.isEnabled()
    wait_job(dock, first)
    assert dock.ui.tabs.currentWidget().widget() is dock.compare  # the results are shown
    dock.show_tab(dock.herb)
    assert not dock.panel.isVisibleTo(dock)  # nothing runs: the survey's panel hides there


def test_a_layer_as_study_area_is_measured_in_a_task(dock):
    counties = dock.area.add_bundled("counties")
    area = dock.area
    with Ticks() as ticks:
        area.layerRadio.setChecked(True)
        area.areaLayerCombo.setLayer(counties)
        assert area.measuring is not None and area.areaLabel.text() == "Measuring the study area…"
        assert area.study_area().layer_id == counties.id()  # what Preview and Run sample
        wait_for(lambda: area.measuring is None, 120, "the area's measure")
    assert ticks.count > 0
    assert "km²" in area.areaLabel.text() and "100 points will be sampled" in area.areaLabel.text()
    km2 = int("".join(c for c in area.areaLabel.text().split("km²")[0] if c.isdigit()))
    assert 9_000_000 < km2 < 10_500_000  # the United States, Alaska and Hawaii included
    assert area.area_band.numberOfVertices() > 1000  # drawn on the map once measured
    area.nPointsSpin.setValue(7)  # the label follows without measuring again
    assert area.measuring is None and "7 points will be sampled" in area.areaLabel.text()
