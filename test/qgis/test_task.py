"""ui/task.py: an error reads as one sentence; its traceback stays in the details."""

from geobias.ui.task import error_sentence

TRACEBACK = """Traceback (most recent call last):
  File "/plugins/geobias/processing/rate_locations.py", line 340, in processAlgorithm
    write_rated(...)
shapely.errors.GEOSException: IllegalArgumentException: WKB output dimension must be 2 or 3
"""


def test_a_traceback_gives_its_message_without_class_names():
    assert error_sentence(TRACEBACK) == "WKB output dimension must be 2 or 3"


def test_plain_errors_keep_their_first_line_without_a_final_period():
    assert error_sentence("The region has no polygon with an area.\nmore") == (
        "The region has no polygon with an area"
    )
    assert error_sentence("stub:8080 refused the API key (HTTP 401)") == (
        "stub:8080 refused the API key (HTTP 401)"
    )


def test_exceptions_and_empty_errors():
    assert error_sentence(RuntimeError("cannot reach 127.0.0.1:9: refused")) == (
        "cannot reach 127.0.0.1:9: refused"
    )
    assert error_sentence(KeyError()) == "KeyError"
    assert error_sentence("") == ""


def test_long_errors_are_shortened():
    text = error_sentence("x" * 1000, limit=50)
    assert len(text) == 50 and text.endswith("…")


def test_a_task_reads_the_users_layers_only_through_snapshots(qgis_new_project, processing_ready,
                                                              tmp_path):  # fmt: skip
    """The crash of CI stop 29: a task's thread resolved a layer path against the user's project
    while the main thread was adding layers to it. The thread's project is now an empty one
    (with the user's CRS); a memory layer or selected features reach it as a snapshot."""
    from qgis.core import (
        QgsApplication,
        QgsCoordinateReferenceSystem,
        QgsFeature,
        QgsGeometry,
        QgsProject,
        QgsTask,
        QgsVectorLayer,
    )
    from qtstub import wait_for

    from geobias.ui.survey_plan import layer_param
    from geobias.ui.task import AlgorithmChainTask, LayerSnapshot

    project = QgsProject.instance()
    project.setCrs(QgsCoordinateReferenceSystem("EPSG:3857"))
    squares = QgsVectorLayer("Polygon?crs=EPSG:4326&field=name:string", "squares", "memory")
    for name, x in (("west", 0), ("east", 20)):
        f = QgsFeature(squares.fields())
        f.setAttributes([name])
        f.setGeometry(QgsGeometry.fromWkt(f"POLYGON(({x} 0,{x + 5} 0,{x + 5} 5,{x} 5,{x} 0))"))
        squares.dataProvider().addFeatures([f])
    project.addMapLayer(squares)
    squares.selectByIds([next(f.id() for f in squares.getFeatures() if f["name"] == "east")])
    region = layer_param(squares, selected=True)
    assert isinstance(region, LayerSnapshot)  # made here, on the main thread

    def look(task):
        own = task.context.project()
        return {"OWN": own is not project, "LAYERS": len(own.mapLayers()),
                "CRS": own.crs().authid()}  # fmt: skip

    out = str(tmp_path / "points.gpkg")
    steps = [(look, "look"), ("geobias:samplepoints", {"REGION": region, "COUNT": 12,
                                                       "SEED": 1, "OUTPUT": out})]  # fmt: skip
    task = AlgorithmChainTask("snapshots", steps)
    QgsApplication.taskManager().addTask(task)
    wait_for(lambda: task.status() in (QgsTask.TaskStatus.Complete,
                                       QgsTask.TaskStatus.Terminated), 120, "the task")  # fmt: skip
    assert not task.error, task.error
    assert task.results[0] == {"OWN": True, "LAYERS": 0, "CRS": "EPSG:3857"}
    points = QgsVectorLayer(task.results[1]["OUTPUT"], "points", "ogr")
    xs = [f.geometry().asPoint().x() for f in points.getFeatures()]
    assert len(xs) == 12 and all(20 <= x <= 25 for x in xs)  # the selected square only
    assert squares.selectedFeatureCount() == 1 and squares.featureCount() == 2  # untouched
