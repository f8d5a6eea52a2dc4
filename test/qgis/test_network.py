"""GeoBias's requests follow QGIS's network options (Settings > Options > Network: the proxy,
its exclusions and credentials; Authentication: extra certificate authorities), through a real
tinyproxy on 127.0.0.1 and an HTTPS chat server signed by a test authority."""

import pytest
from qgis.core import QgsApplication, QgsNetworkAccessManager, QgsSettings
from qgis.PyQt.QtNetwork import QSslCertificate

from geobias.processing.network import qgis_ca_certs, qgis_proxy, use_qgis_network
from geobias.test.faultserver import FaultServer
from geobias.test.netfixtures import Tinyproxy, free_port, make_ca

KEYS = ("proxyEnabled", "proxyType", "proxyHost", "proxyPort", "proxyUser", "proxyPassword",
        "noProxyUrls", "proxyExcludedUrls")  # fmt: skip


@pytest.fixture()
def qgis_proxy_settings(qgis_app):
    """Set QGIS's proxy options as the Options dialog does (QgsSettings, then the network
    manager rereads them); the previous options come back afterwards."""
    s = QgsSettings()
    saved = {k: s.value(f"proxy/{k}") for k in KEYS if s.contains(f"proxy/{k}")}

    def configure(enabled=True, kind="HttpProxy", host="", port=0, user="", password="",
                  no_proxy=(), excluded=()):  # fmt: skip
        values = dict(zip(KEYS, (enabled, kind, host, str(port), user, password,
                                 list(no_proxy), list(excluded))))  # fmt: skip
        for k, v in values.items():
            s.setValue(f"proxy/{k}", v)
        QgsNetworkAccessManager.instance().setupDefaultProxyAndCache()

    yield configure
    for k in KEYS:
        s.remove(f"proxy/{k}")
    for k, v in saved.items():
        s.setValue(f"proxy/{k}", v)
    QgsNetworkAccessManager.instance().setupDefaultProxyAndCache()


def rate(points, base_url, model, out):
    import processing

    return processing.run("geobias:ratelocations", {
        "INPUT": points, "PROVIDER": 9, "BASE_URL": base_url, "MODEL": model,
        "TOPICS": "Infant Mortality Rate", "OUTPUT": str(out)})  # fmt: skip


@pytest.fixture()
def points(processing_ready):
    import processing

    res = processing.run("geobias:samplepoints", {"COUNT": 5, "METHOD": 1, "SEED": 3,
                                                  "OUTPUT": "memory:"})  # fmt: skip
    return res["OUTPUT"]


def test_proxy_url_from_qgis_options(qgis_proxy_settings):
    url = "https://api.example.org/v1"
    qgis_proxy_settings(enabled=False, host="proxy.lan", port=3128)
    assert qgis_proxy(url) == ""  # QGIS without a proxy connects directly
    qgis_proxy_settings(host="proxy.lan", port=3128, user="geo", password="p@ss:word")
    assert qgis_proxy(url) == "http://geo:p%40ss%3Aword@proxy.lan:3128"
    qgis_proxy_settings(kind="Socks5Proxy", host="proxy.lan", port=1080)
    assert qgis_proxy(url) == "socks5h://proxy.lan:1080"
    qgis_proxy_settings(kind="DefaultProxy")
    assert qgis_proxy(url) is None  # the system's settings
    qgis_proxy_settings(host="proxy.lan", port=3128, no_proxy=["https://api.example.org"])
    assert qgis_proxy(url) == "" and qgis_proxy("https://other.example/v1").startswith("http://")
    qgis_proxy_settings(host="proxy.lan", port=3128, excluded=["https://api.example.org"])
    assert qgis_proxy(url) is None


def test_ratelocations_goes_through_the_qgis_proxy_with_its_credentials(
    qgis_proxy_settings, points, tmp_path
):
    with Tinyproxy(str(tmp_path), user="geo", password="s3cret") as proxy, FaultServer() as fs:
        qgis_proxy_settings(host="127.0.0.1", port=proxy.port, user="geo", password="s3cret")
        res = rate(points, fs.base_url, "proxied-model", tmp_path / "proxied.gpkg")
        assert res["N_ANSWERED"] == 5
        assert fs.via and all("tinyproxy" in v for v in fs.via), fs.via
        # Listed under "no proxy": straight to the endpoint.
        qgis_proxy_settings(host="127.0.0.1", port=proxy.port, user="geo", password="s3cret",
                            no_proxy=[fs.base_url.rsplit("/", 1)[0]])  # fmt: skip
        before = len(proxy.hits())
        rate(points, fs.base_url, "direct-model", tmp_path / "direct.gpkg")
        assert fs.via[""] == 5 and len(proxy.hits()) == before


def test_an_unreachable_proxy_is_named_and_nothing_is_written(
    qgis_proxy_settings, points, tmp_path
):
    from qgis.core import QgsProcessingException

    qgis_proxy_settings(host="127.0.0.1", port=free_port(), user="geo", password="TOPSECRET")
    with FaultServer() as fs:
        with pytest.raises(QgsProcessingException) as err:
            rate(points, fs.base_url, "m", tmp_path / "never.gpkg")
        assert fs.n_requests == 0
    assert "proxy" in str(err.value) and "TOPSECRET" not in str(err.value)
    assert not (tmp_path / "never.gpkg").exists()


def test_the_embedded_model_never_goes_through_the_proxy(qgis_proxy_settings):
    from geobias.core.engine.chat import Endpoint

    qgis_proxy_settings(host="127.0.0.1", port=3128)
    assert use_qgis_network(Endpoint.from_provider("embedded", "m")).proxy == ""
    assert use_qgis_network(Endpoint("http://127.0.0.1:8000/v1", "m")).proxy.startswith("http")


def test_certificate_authorities_added_in_qgis_are_trusted(points, tmp_path, qgis_proxy_settings):
    manager = QgsApplication.authManager()
    assert not manager.isDisabled(), "QGIS's authentication system is disabled"
    qgis_proxy_settings(enabled=False)
    ca = make_ca(str(tmp_path))
    cert = QSslCertificate.fromPath(ca["ca"])[0]
    with FaultServer(tls=ca) as fs:
        with pytest.raises(Exception, match="TLS|certificate"):
            rate(points, fs.base_url, "tls-model", tmp_path / "refused.gpkg")
        assert manager.storeCertAuthority(cert)
        manager.rebuildCaCertsCache()
        manager.rebuildTrustedCaCertsCache()
        try:
            with open(qgis_ca_certs(), "rb") as f:
                assert bytes(cert.toPem()).strip() in f.read()
            res = rate(points, fs.base_url, "tls-model", tmp_path / "trusted.gpkg")
            assert res["N_ANSWERED"] == 5
        finally:
            manager.removeCertAuthority(cert)
            manager.rebuildCaCertsCache()
            manager.rebuildTrustedCaCertsCache()


@pytest.mark.integration  # the real embedded model (xllamacpp): not in the matrix's chroots
def test_herb_on_a_llama_cpp_server_goes_through_the_qgis_proxy(qgis_proxy_settings, tmp_path):
    # HERB's remote scorers are reached like the survey's endpoints (one factory, one client):
    # the embedded SmolLM2's llama.cpp server named by its URL, behind QGIS's proxy.
    from qgis.core import QgsFeature, QgsGeometry, QgsVectorLayer

    import processing
    from geobias.core.runtime.embedded import shared_server
    from geobias.processing.definitions import HERB_SCOPES, HERB_SCORERS
    from geobias.processing.endpoints import HERB_EMBEDDED_MODEL

    layer = QgsVectorLayer("Polygon?crs=EPSG:4326&field=name:string&field=up:string", "r", "memory")
    feats = []
    regions = [("Norway", ""), ("Chile", ""), ("Oslo", "Norway"), ("Bergen", "Norway"),
               ("Santiago", "Chile"), ("Valparaiso", "Chile")]  # fmt: skip
    for k, (name, up) in enumerate(regions):
        f = QgsFeature(layer.fields())
        f.setAttributes([name, up or None])
        f.setGeometry(QgsGeometry.fromWkt(f"POLYGON(({k} 0, {k + 1} 0, {k + 1} 1, {k} 1, {k} 0))"))
        feats.append(f)
    layer.dataProvider().addFeatures(feats)
    words = tmp_path / "words.txt"
    words.write_text("morality\thonest\nmorality\tcruel\n")
    url = shared_server(model=HERB_EMBEDDED_MODEL).base_url
    with Tinyproxy(str(tmp_path), user="geo", password="s3cret") as proxy:
        qgis_proxy_settings(host="127.0.0.1", port=proxy.port, user="geo", password="s3cret")
        out = processing.run("geobias:herb", {
            "SCOPE": HERB_SCOPES.index("parent_field"), "LAYER_1": layer, "NAME_FIELD_1": "name",
            "PARENT_FIELD_1": "up", "SCORER": HERB_SCORERS.index("llamacpp"), "URL": url,
            "DESCRIPTORS": str(words), "CACHE": str(tmp_path / "cache.sqlite"),
            "OUTPUT": str(tmp_path / "herb.gpkg")})  # fmt: skip
        hits = proxy.hits()
    assert out["N_SENTENCES"] > 0 and out["C_ROOT"] == out["C_ROOT"]  # scored: C is a number
    assert any("/tokenize" in h for h in hits) and any("/completion" in h for h in hits), hits
