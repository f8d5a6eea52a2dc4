"""Secrets (issue 23, item 9): an API key kept in QGIS's authentication database is sent to the
endpoint and written nowhere. A survey, HERB (a remote echo scorer), a batch export, a report
and the *Copy diagnostics* report run with a sentinel key against the fault server; then every
file GeoBias wrote or logged is searched for the key: outputs (GeoPackages, batch files, the
report's PDF text and PNGs), caches (the survey cache, HERB's cache, their WAL files), the
project file (with the dock's settings and the output layers), the QGIS profile (settings,
the auth database as stored) and the logs (QGIS's message log, the algorithms' feedback, what
QGIS printed).

The dock has no *Copy diagnostics* button yet (issue 24): the report is built by
core.diagnostics.build_report from facts QGIS gathers here, the dock's configured endpoints and
the GeoBias log of this session, as the button will."""

import os
import platform
import secrets
import subprocess
import sys
import zipfile

import pytest
from qgis.core import (
    Qgis,
    QgsApplication,
    QgsProcessingFeedback,
    QgsProject,
    QgsVectorLayer,
)

from geobias.paths import DATA
from geobias.test.faultserver import FaultServer

COUNTRIES = os.path.join(DATA, "world_countries.gpkg") + "|layername=countries"


class Log(QgsProcessingFeedback):
    """Everything an algorithm tells its user."""

    def __init__(self):
        super().__init__()
        self.lines = []

    def pushInfo(self, info):
        self.lines.append(info)

    def pushWarning(self, warning):
        self.lines.append(warning)

    def pushConsoleInfo(self, info):
        self.lines.append(info)

    def pushDebugInfo(self, info):
        self.lines.append(info)

    def reportError(self, error, fatalError=False):
        self.lines.append(error)

    def setProgressText(self, text):
        self.lines.append(text)


def files_under(*folders):
    for folder in folders:
        for base, _dirs, names in os.walk(folder):
            for name in names:
                yield os.path.join(base, name)


def texts_of(path):
    """The bytes a search must cover: the file's, a zip's members, a PDF's extracted text."""
    with open(path, "rb") as f:
        data = f.read()
    yield data
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as z:
            for member in z.namelist():
                yield z.read(member)
    if data.startswith(b"%PDF"):
        out = subprocess.run(["pdftotext", path, "-"], capture_output=True, check=True)
        yield out.stdout


@pytest.fixture()
def sentinel_key():
    """A key no pattern of GeoBias's redaction recognises (only not writing it hides it), in
    QGIS's authentication database as the dock stores it."""
    from geobias.ui.settings import store_api_key

    manager = QgsApplication.authManager()
    if not manager.masterPasswordIsSet():
        assert manager.setMasterPassword("geobias-test", True)
    key = "GBSENTINEL" + secrets.token_hex(12)
    authcfg = store_api_key("secrets test", key)
    assert authcfg
    yield key, authcfg
    manager.removeAuthenticationConfig(authcfg)


def test_the_api_key_is_sent_and_never_written_or_logged(
    processing_ready, sentinel_key, tmp_path, capfd
):
    import processing
    from geobias.core.runtime.diagnostics import build_report, core_facts
    from geobias.processing.definitions import HERB_SCORERS, PROVIDERS, SAMPLE_METHODS
    from geobias.ui.settings import EndpointConfig, SurveySettings, load_endpoints, save_endpoints

    key, authcfg = sentinel_key
    out = tmp_path / "out"
    out.mkdir()
    messages = []

    def on_message(message, tag, level):
        messages.append(f"{tag}: {message}")

    QgsApplication.messageLog().messageReceived.connect(on_message)
    feedback = Log()
    try:
        with FaultServer(echo=True) as fs:
            # The dock's endpoint list holds the auth config id (what a user configures).
            saved = load_endpoints()
            mine = EndpointConfig("secret endpoint", "custom", fs.base_url, "fault", authcfg)
            save_endpoints([*saved, mine])
            endpoint = {"PROVIDER": PROVIDERS.index("custom"), "BASE_URL": fs.base_url,
                        "MODEL": "fault", "AUTH_CONFIG": authcfg}  # fmt: skip
            survey = processing.run("geobias:survey", {
                **endpoint, "EXTENT": "-10,30,35,60 [EPSG:4326]", "COUNT": 6,
                "METHOD": SAMPLE_METHODS.index("uniform"), "TRUTH": COUNTRIES,
                "TRUTH_FIELD": "infant_mortality", "N_BOOT": 20,
                "OUTPUT": str(out / "survey.gpkg"),
            }, feedback=feedback)  # fmt: skip
            words = out / "words.txt"
            words.write_text("morality\thonest\nmorality\tcruel\n")
            processing.run("geobias:herb", {
                "CONTINENTS": "South America", "MAX_CITIES": 0, "DESCRIPTORS": str(words),
                "SCORER": HERB_SCORERS.index("echo"), "URL": fs.base_url, "MODEL": "fault",
                "AUTH_CONFIG": authcfg, "CACHE": str(out / "herb_cache.sqlite"),
                "OUTPUT": str(out / "herb.gpkg"),
            }, feedback=feedback)  # fmt: skip
            processing.run("geobias:exportbatch", {
                **endpoint, "INPUT": survey["OUTPUT_LAYERS"][0],
                "TOPICS": "Average Attractiveness of Residents", "OUTPUT": str(out / "batch"),
            }, feedback=feedback)  # fmt: skip
            processing.run("geobias:report", {
                "INPUT": survey["OUTPUT_LAYERS"][0], "N_BOOT": 20, "DPI": 60,
                "OUTPUT": str(out / "report.pdf"),
            }, feedback=feedback)  # fmt: skip
        # The key was used: every chat request and every echo request carried it.
        assert fs.authorizations[f"Bearer {key}"] == fs.n_requests + fs.n_echo_requests
        assert fs.n_requests >= 6 and fs.n_echo_requests >= 1
        assert os.listdir(out / "batch"), "the batch export wrote no file"

        # Copy diagnostics, as the button will build it: QGIS's facts, the configured
        # endpoints, this session's GeoBias log.
        from osgeo import gdal

        facts = {"geobias": "test", "qgis": Qgis.QGIS_VERSION,
                 "python": platform.python_version(), "gdal": gdal.__version__,
                 "os": platform.platform(), **core_facts(False)}  # fmt: skip
        report = build_report(facts, [e.endpoint(with_key=False) for e in load_endpoints()],
                              log=messages)  # fmt: skip
        assert "fault at " + fs.base_url in report  # the endpoint is listed, without its key
        (out / "diagnostics.txt").write_text(report)

        # The project, with the dock's settings and the output layers, saved both ways.
        project = QgsProject.instance()
        for uri in survey["OUTPUT_LAYERS"]:
            project.addMapLayer(QgsVectorLayer(uri, "rated", "ogr"))
        settings = SurveySettings(endpoints=["secret endpoint"])
        settings.write(project)
        assert project.write(str(out / "project.qgz")) and project.write(str(out / "project.qgs"))
        project.clear()
    finally:
        QgsApplication.messageLog().messageReceived.disconnect(on_message)
        save_endpoints([e for e in load_endpoints() if e.name != "secret endpoint"])

    profile = QgsApplication.qgisSettingsDirPath()
    searched, found = [], []
    for path in files_under(str(out), profile):
        searched.append(os.path.relpath(path, profile if path.startswith(profile) else out))
        for data in texts_of(path):
            if key.encode() in data:
                found.append(path)
    printed = capfd.readouterr()
    logs = {"QGIS message log": "\n".join(messages),
            "algorithm feedback": "\n".join(feedback.lines),
            "stdout": printed.out, "stderr": printed.err}  # fmt: skip
    found += [name for name, text in logs.items() if key in text]
    expected = {"survey.gpkg", "herb.gpkg", "herb_cache.sqlite", "report.pdf", "project.qgs",
                "project.qgz", "diagnostics.txt", os.path.join("geobias", "survey_cache.sqlite"),
                os.path.join("QGIS", "QGIS3.ini"), "qgis-auth.db"}  # fmt: skip
    assert expected <= set(searched), sorted(expected - set(searched))
    assert any(p.startswith("batch") for p in searched) and messages and feedback.lines
    assert not found, f"the API key was written to: {found}"


def test_the_auth_database_is_where_the_key_lives(sentinel_key):
    """The test above is not vacuous: the key is in QGIS's auth database (encrypted there) and
    loads back through the same function the algorithms use."""
    from geobias.processing.endpoints import api_key_from_auth

    key, authcfg = sentinel_key
    assert api_key_from_auth(authcfg) == key
    db = os.path.join(QgsApplication.qgisSettingsDirPath(), "qgis-auth.db")
    assert os.path.exists(db)
    with open(db, "rb") as f:
        assert key.encode() not in f.read()
    assert sys.platform.startswith("linux")  # where the profile paths above were checked
