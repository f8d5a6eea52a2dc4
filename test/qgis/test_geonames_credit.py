"""GeoNames (CC BY 4.0) is credited in the metadata of every layer GeoBias makes from it: rated
points whose prompts name its places, points sampled by its population, ground truth added to
such points; layers that do not use it (uniform points) make no such claim."""

import uuid

from qgis.core import QgsVectorLayer

from geobias.processing.metadata import GEONAMES_LICENCE, GEONAMES_RIGHTS
from geobias.test.faultserver import FaultServer


def run(alg, params):
    import processing

    return processing.run(alg, params)


def credited(uri):
    """Whether a layer opened afresh from its file carries the attribution."""
    layer = QgsVectorLayer(uri, "check", "ogr")
    assert layer.isValid(), uri
    meta = layer.metadata()
    return GEONAMES_RIGHTS in meta.rights() and GEONAMES_LICENCE in meta.licenses()


def test_sampled_points_by_population_are_credited(processing_ready, tmp_path):
    by_population = str(tmp_path / "population.gpkg")
    run("geobias:samplepoints", {"COUNT": 10, "METHOD": 1, "OUTPUT": by_population})
    assert credited(by_population)
    uniform = str(tmp_path / "uniform.gpkg")
    run("geobias:samplepoints", {"COUNT": 10, "METHOD": 0, "OUTPUT": uniform})
    assert not credited(uniform)
    memory = run("geobias:samplepoints", {"COUNT": 10, "METHOD": 1, "OUTPUT": "memory:"})
    assert GEONAMES_RIGHTS in memory["OUTPUT"].metadata().rights()


def test_rated_points_and_their_ground_truth_are_credited(processing_ready, tmp_path):
    points = run("geobias:samplepoints", {"COUNT": 6, "METHOD": 0, "OUTPUT": "memory:"})["OUTPUT"]
    with FaultServer() as fs:
        rated = run("geobias:ratelocations", {
            "INPUT": points, "PROVIDER": 9, "BASE_URL": fs.base_url,
            "MODEL": f"credit-{uuid.uuid4().hex[:6]}", "TOPICS": "Population Density",
            "OUTPUT": str(tmp_path / "rated.gpkg")})  # fmt: skip
    uri = rated["OUTPUT_LAYERS"][0]
    assert credited(uri)
    from geobias.paths import DATA

    truth = run("geobias:samplegroundtruth", {
        "INPUT": uri, "POLYGONS": f"{DATA}/world_countries.gpkg|layername=countries",
        "POLYGON_FIELD": "pop_density", "OUTPUT": str(tmp_path / "truth.gpkg")})  # fmt: skip
    assert credited(truth["OUTPUT"])
