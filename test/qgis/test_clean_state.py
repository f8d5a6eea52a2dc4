"""Issue 28, item 8: a new or opened project starts with empty tabs, no numpy warning comes out
of a toolbox survey, and the bundled GeoPackages pass GDAL's checks without a warning."""

import glob
import os
import uuid
import warnings

import pytest
from osgeo import gdal, ogr
from qgis.core import QgsProject

from geobias.paths import DATA, RESOURCES
from geobias.processing.definitions import PROVIDERS
from geobias.test.faultserver import FaultServer
from geobias.test.qtstub import wait_job
from geobias.ui.dock import GeoBiasDock

COUNTRIES = os.path.join(DATA, "world_countries.gpkg") + "|layername=countries"


def survey(fs, out, count):
    import processing

    return processing.run(
        "geobias:survey",
        {
            "COUNT": count,
            "SEED": 4,
            "PROVIDER": PROVIDERS.index("custom"),
            "BASE_URL": fs.base_url,
            "MODEL": f"fake-{uuid.uuid4().hex[:8]}",
            "CONCURRENCY": 2,
            "TOPICS": "Infant Mortality Rate",
            "TRUTH": COUNTRIES,
            "TRUTH_FIELD": "infant_mortality",
            "ANCHOR": COUNTRIES,
            "ANCHOR_FIELD": "infant_survival",
            "N_BOOT": 20,
            "OUTPUT": out,
        },
    )


def test_a_toolbox_survey_gives_no_numpy_warning(processing_ready, tmp_path):
    # 9 points: each the 8-nearest neighbour of all others, where Moran's I has no variance.
    with warnings.catch_warnings(record=True) as caught, FaultServer() as fs:
        warnings.simplefilter("always")
        res = survey(fs, str(tmp_path / "survey.gpkg"), 9)
    numpy = [w for w in caught if issubclass(w.category, RuntimeWarning)]
    assert not numpy, [f"{w.filename}:{w.lineno}: {w.message}" for w in numpy]
    assert res["METRICS"]


@pytest.fixture()
def dock(qgis_iface, qgis_new_project, processing_ready):
    d = GeoBiasDock(qgis_iface)
    yield d
    d.close_survey()
    d.deleteLater()


def test_a_new_project_starts_with_empty_tabs(dock, tmp_path):
    with FaultServer() as fs:
        path = survey(fs, str(tmp_path / "survey.gpkg"), 12)["OUTPUT"]
    wait_job(dock, dock.results.open_files([path]))
    dock.panel.progressBar.setValue(100)
    dock.panel.set_text("Done in 4 s.")
    dock.overlay.noteLabel.setText("3 variables tested")
    assert dock.results.metrics.rowCount() == 1 and dock.results.rated_layers
    QgsProject.instance().clear()  # Project → New
    assert dock.results.metrics.rowCount() == 0 and not dock.results.rated_layers
    assert len(dock.results.plot.rating) == 0
    assert dock.panel.progressLabel.text() == "" and dock.panel.progressBar.value() == 0
    assert dock.panel.runButton.text() == "Run survey"
    assert dock.overlay.noteLabel.text() == "" and dock.overlay.corrTable.rowCount() == 0
    assert dock.compare.modelsList.count() == 0 and dock.plan is None
    # An opened project too.
    wait_job(dock, dock.results.open_files([path]))
    project = str(tmp_path / "p.qgz")
    assert QgsProject.instance().write(project)
    assert dock.results.metrics.rowCount() == 1
    assert QgsProject.instance().read(project)
    assert dock.results.metrics.rowCount() == 0


def test_the_bundled_geopackages_pass_gdals_checks_without_warnings():
    files = sorted(glob.glob(os.path.join(RESOURCES, "**", "*.gpkg"), recursive=True))
    assert len(files) >= 4
    messages = []
    for path in files:
        gdal.PushErrorHandler(lambda cls, num, msg, path=path: messages.append((path, msg)))
        try:
            ds = ogr.Open(path)
            for layer in ds:
                for _feature in layer:
                    pass
            ds = None
        finally:
            gdal.PopErrorHandler()
    assert not messages
