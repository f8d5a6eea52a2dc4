"""Polling from cron: qgis_process, with nobody there, reads the API key from QGIS's
authentication database, its master password from the file QGIS_AUTH_PASSWORD_FILE names (as
docs/batch.md says), submits a batch to the local OpenAI batch server and polls it to the
rated layers. Without that file the same poll fails with a clear message and changes nothing."""

import json
import os
import sqlite3
import subprocess
import sys
import sysconfig
import textwrap

from osgeo import ogr, osr

from geobias.test.batchservers import KEYS, BatchServer

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
QGIS_PROCESS = "/usr/bin/qgis_process.bin"
PASSWORD = "cron-master-password"
SEED = textwrap.dedent(
    """
    import sys
    from qgis.core import QgsApplication, QgsAuthMethodConfig
    app = QgsApplication([], False)
    app.initQgis()
    manager = QgsApplication.authManager()
    assert manager.setMasterPassword(sys.argv[1], True)
    cfg = QgsAuthMethodConfig("Basic")
    cfg.setName("GeoBias: cron")
    cfg.setConfig("username", "")
    cfg.setConfig("password", sys.argv[2])
    ok = manager.storeAuthenticationConfig(cfg)
    if isinstance(ok, tuple):
        ok, cfg = ok
    assert ok
    print(cfg.id())
    app.exitQgis()
    """
)


def points_file(path):
    ds = ogr.GetDriverByName("GPKG").CreateDataSource(str(path))
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(4326)
    layer = ds.CreateLayer("pts", srs, ogr.wkbPoint)
    layer.CreateField(ogr.FieldDefn("pid", ogr.OFTInteger64))
    for i, (x, y) in enumerate([(2.35, 48.85), (13.4, 52.5), (-3.7, 40.4)]):
        f = ogr.Feature(layer.GetLayerDefn())
        f.SetField("pid", i)
        f.SetGeometry(ogr.CreateGeometryFromWkt(f"POINT ({x} {y})"))
        layer.CreateFeature(f)
    ds = None
    return f"{path}|layername=pts"


def test_cron_reads_the_key_with_the_master_password_file(tmp_path):
    home = tmp_path / "profile"
    plugins = home / "profiles" / "default" / "python" / "plugins"
    plugins.mkdir(parents=True)
    os.symlink(ROOT, plugins / "geobias")
    authdir = tmp_path / "auth"
    authdir.mkdir()
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", QGIS_CUSTOM_CONFIG_PATH=str(home),
               QGIS_AUTH_DB_DIR_PATH=str(authdir) + os.sep,
               PYTHONPATH=sysconfig.get_paths()["purelib"])  # fmt: skip
    seed = subprocess.run([sys.executable, "-c", SEED, PASSWORD, KEYS["openai"]], env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert seed.returncode == 0, seed.stderr[-2000:]
    authcfg = seed.stdout.strip().splitlines()[-1]
    assert KEYS["openai"].encode() not in (authdir / "qgis-auth.db").read_bytes()  # encrypted
    enable = subprocess.run([QGIS_PROCESS, "plugins", "enable", "geobias"], env=env,
                            capture_output=True, text=True, timeout=300)  # fmt: skip
    assert enable.returncode == 0, enable.stderr[-2000:]
    pwfile = tmp_path / "master.txt"
    pwfile.write_text(PASSWORD + "\n")
    pwfile.chmod(0o600)
    cron = dict(env, QGIS_AUTH_PASSWORD_FILE=str(pwfile))
    gpkg = tmp_path / "survey.gpkg"

    def qp(alg, environ, **params):
        args = [QGIS_PROCESS, "--json", "run", f"geobias:{alg}", "--"]
        args += [f"{k}={v}" for k, v in params.items()]
        return subprocess.run(args, env=environ, capture_output=True, text=True, timeout=600,
                              stdin=subprocess.DEVNULL)  # fmt: skip

    def results(proc):
        assert proc.returncode == 0, proc.stderr[-3000:]
        return json.loads(proc.stdout[proc.stdout.index("{") :])["results"]

    with BatchServer("openai", steps=1) as server:
        common = {"AUTH_CONFIG": authcfg, "CACHE": str(tmp_path / "cache.sqlite")}
        sent = results(qp("submitbatch", cron, INPUT=points_file(tmp_path / "pts.gpkg"),
                          PROVIDER=1, MODEL="gpt-cron", TOPICS="Crime Rate",
                          BATCH_URL=server.base_url, OUTPUT=str(gpkg), **common))  # fmt: skip
        assert sent["N_SUBMITTED"] == 1
        # No password file: the key cannot be read; nothing changes, nobody is asked.
        refused = qp("pollbatches", env, INPUT=str(gpkg), **common)
        assert refused.returncode != 0
        assert "cannot be loaded" in refused.stdout + refused.stderr
        with sqlite3.connect(gpkg) as con:
            assert con.execute("SELECT status FROM batches").fetchone() == ("validating",)
        polled = results(qp("pollbatches", cron, INPUT=str(gpkg), **common))
    assert (polled["N_OPEN"], polled["N_ANSWERS"], polled["N_MISSING"]) == (0, 3, 0)
    assert len(polled["OUTPUT_LAYERS"]) == 1
    assert server.log.count(("GET", f"/v1/batches/{next(iter(server.batches))}")) == 1
    with sqlite3.connect(gpkg) as con:
        assert con.execute("SELECT status, n_answers FROM batches").fetchone() == ("imported", 3)
    assert KEYS["openai"].encode() not in gpkg.read_bytes()
