"""geobias:submitbatch and geobias:pollbatches through processing.run against the local provider
servers (test/batchservers.py): submit, poll until the batch ends, the answers imported, the
provider's files deleted, and the rated layers written into the GeoPackage from the cache."""

import os
import sqlite3
import uuid

import pytest
from qgis.core import QgsApplication, QgsProcessingException, QgsVectorLayer

from geobias.test.batchservers import KEYS, BatchServer

TOPICS = "Infant Mortality Rate; Population Density"
PRESET = {"openai": 1, "anthropic": 10, "gemini": 8, "mistral": 11}


def run(alg, params):
    import processing

    return processing.run(alg, params)


@pytest.fixture()
def points(processing_ready):
    return run("geobias:samplepoints", {"COUNT": 6, "METHOD": 1, "SEED": 3, "OUTPUT": "memory:"})[
        "OUTPUT"
    ]


@pytest.fixture()
def key_config():
    from geobias.ui.settings import store_api_key

    manager = QgsApplication.authManager()
    if not manager.masterPasswordIsSet():
        assert manager.setMasterPassword("geobias-test", True)
    made = {}

    def config(provider):
        made[provider] = store_api_key(f"batch {provider}", KEYS[provider])
        return made[provider]

    yield config
    for cfg in made.values():
        manager.removeAuthenticationConfig(cfg)


@pytest.mark.parametrize("provider", ["openai", "anthropic", "gemini", "mistral"])
def test_submit_poll_until_the_layers_are_written(points, tmp_path, key_config, provider):
    model = f"{provider}-{uuid.uuid4().hex[:8]}"
    gpkg = str(tmp_path / "survey.gpkg")
    authcfg = key_config(provider)
    with BatchServer(provider, steps=2) as server:
        common = {"PROVIDER": PRESET[provider], "MODEL": model, "TOPICS": TOPICS,
                  "AUTH_CONFIG": authcfg, "CACHE": str(tmp_path / "cache.sqlite")}  # fmt: skip
        est = run("geobias:submitbatch", {"INPUT": points, **common, "BATCH_URL": server.base_url,
                                           "ESTIMATE_ONLY": True, "OUTPUT": gpkg})  # fmt: skip
        assert (est["N_REQUESTS"], est["N_BATCHES"], est["N_SUBMITTED"]) == (12, 1, 0)
        assert not server.batches and not os.path.exists(gpkg)
        send = {"INPUT": points, **common, "BATCH_URL": server.base_url, "OUTPUT": gpkg}
        out = run("geobias:submitbatch", send)
        assert (out["N_REQUESTS"], out["N_SUBMITTED"]) == (12, 1) and len(server.batches) == 1
        # Submitting again sends nothing: the open batch holds those requests.
        again = run("geobias:submitbatch", send)
        assert again["N_REQUESTS"] == 0 and len(server.batches) == 1
        polls = []
        for _ in range(4):
            polled = run("geobias:pollbatches", {"INPUT": gpkg, "AUTH_CONFIG": authcfg})
            polls.append(polled["N_OPEN"])
            if not polled["N_OPEN"]:
                break
        assert polls == [1, 0]
        assert polled["N_ANSWERS"] == 12 and polled["N_MISSING"] == 0
        assert len(polled["OUTPUT_LAYERS"]) == 2
        for uri in polled["OUTPUT_LAYERS"]:
            layer = QgsVectorLayer(uri, "rated", "ogr")
            assert layer.featureCount() == 6
            assert all(f["answered"] == 1 for f in layer.getFeatures())
    with sqlite3.connect(gpkg) as con:
        rows = con.execute("SELECT provider, status, n_requests, n_answers, batch_id FROM "
                           "batches").fetchall()  # fmt: skip
        registered = con.execute("SELECT data_type FROM gpkg_contents WHERE table_name = "
                                 "'batches'").fetchone()  # fmt: skip
    assert [r[:4] for r in rows] == [(provider, "imported", 12, 12)] and rows[0][4]
    assert registered == ("attributes",)
    assert KEYS[provider].encode() not in open(gpkg, "rb").read()
    if provider != "anthropic":
        assert not [f for f in server.files if not f.startswith("upload:")]  # all deleted


def test_an_expired_batch_is_resubmitted_for_what_is_missing(points, tmp_path, key_config):
    model = f"exp-{uuid.uuid4().hex[:8]}"
    gpkg = str(tmp_path / "survey.gpkg")
    authcfg = key_config("openai")
    common = {"PROVIDER": 1, "MODEL": model, "TOPICS": "Crime Rate", "AUTH_CONFIG": authcfg,
              "CACHE": str(tmp_path / "cache.sqlite")}  # fmt: skip
    with BatchServer("openai", steps=1, expire_after=4) as server:
        run("geobias:submitbatch", {"INPUT": points, **common, "BATCH_URL": server.base_url,
                                     "OUTPUT": gpkg})  # fmt: skip
        polled = run("geobias:pollbatches", {"INPUT": gpkg, "AUTH_CONFIG": authcfg})
        assert (polled["N_OPEN"], polled["N_ANSWERS"], polled["N_MISSING"]) == (0, 4, 2)
        assert polled["OUTPUT_LAYERS"] == []  # not written while two have no answer
    with BatchServer("openai", steps=1) as server:
        resub = run("geobias:pollbatches", {"INPUT": gpkg, "AUTH_CONFIG": authcfg, "RESUBMIT": True,
                                             "BATCH_URL": server.base_url})  # fmt: skip
        assert resub["N_OPEN"] == 1
        lines = next(iter(server.batches.values())).lines
        assert len(lines) == 2
        done = run("geobias:pollbatches", {"INPUT": gpkg, "AUTH_CONFIG": authcfg,
                                            "BATCH_URL": server.base_url})  # fmt: skip
        assert (done["N_OPEN"], done["N_MISSING"], len(done["OUTPUT_LAYERS"])) == (0, 0, 1)


def test_bad_input_says_so_and_changes_nothing(points, tmp_path, key_config):
    from osgeo import ogr

    gpkg = tmp_path / "none.gpkg"
    plain = str(tmp_path / "plain.gpkg")
    ogr.GetDriverByName("GPKG").CreateDataSource(plain).CreateLayer("x")
    with pytest.raises(QgsProcessingException, match="records no provider batch"):
        run("geobias:pollbatches", {"INPUT": plain, "AUTH_CONFIG": ""})
    with sqlite3.connect(plain) as con:  # nothing changed: no empty batches table left behind
        assert not con.execute("SELECT 1 FROM sqlite_master WHERE name = 'batches'").fetchone()
    with pytest.raises(QgsProcessingException, match="no batch API of its own"):
        run("geobias:submitbatch", {"INPUT": points, "PROVIDER": 2, "MODEL": "m",
                                     "TOPICS": "Crime Rate", "OUTPUT": str(gpkg)})  # fmt: skip
    with pytest.raises(QgsProcessingException, match="needs the provider's key"):
        run("geobias:submitbatch", {"INPUT": points, "PROVIDER": 1, "MODEL": "m-nokey",
                                     "TOPICS": "Crime Rate", "BATCH_URL": "http://127.0.0.1:9/v1",
                                     "CACHE": str(tmp_path / "c.sqlite"),
                                     "OUTPUT": str(gpkg)})  # fmt: skip
    assert not gpkg.exists()
