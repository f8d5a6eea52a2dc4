"""Requests to endpoints through a real proxy (tinyproxy on 127.0.0.1) and with the certificate
authorities GeoBias is given: what QGIS's network options hand to core."""

import pytest

from geobias.core.engine.chat import (
    ChatClient,
    Endpoint,
    EndpointError,
    RequestError,
    hide_password,
    proxy_for,
)
from geobias.test.faultserver import FaultServer, prompt_rating
from geobias.test.netfixtures import Tinyproxy, free_port, make_ca

PROMPT = "Rate (48.857, 2.352) on Infant Mortality Rate:"


@pytest.fixture()
def proxy(tmp_path):
    with Tinyproxy(str(tmp_path)) as p:
        yield p


@pytest.fixture(scope="module")
def ca(tmp_path_factory):
    return make_ca(str(tmp_path_factory.mktemp("ca")))


def ask(endpoint):
    client = ChatClient(endpoint)
    try:
        return client.complete(PROMPT)
    finally:
        client.close()


def test_http_endpoint_through_the_proxy(proxy):
    with FaultServer() as fs:
        out = ask(Endpoint(fs.base_url, "m", proxy=proxy.url, max_retries=0))
        assert out.text == f"My answer is {prompt_rating(PROMPT):.1f}."
        assert [v for v in fs.via if "tinyproxy" in v], fs.via  # it came through the proxy
        assert any("/v1/chat/completions" in h for h in proxy.hits())


def test_direct_when_told_even_with_a_proxy_in_the_environment(proxy, monkeypatch):
    monkeypatch.setenv("http_proxy", proxy.url)
    monkeypatch.setenv("no_proxy", "")
    with FaultServer() as fs:
        ask(Endpoint(fs.base_url, "m", proxy=""))
        assert list(fs.via) == [""]
    assert proxy.hits() == []


def test_none_follows_the_environment_and_its_no_proxy(proxy, monkeypatch):
    monkeypatch.setenv("http_proxy", proxy.url)
    monkeypatch.setenv("no_proxy", "example.invalid")
    with FaultServer() as fs:
        assert proxy_for(fs.base_url, None) == proxy.url
        ask(Endpoint(fs.base_url, "m"))
        assert [v for v in fs.via if "tinyproxy" in v]
        monkeypatch.setenv("no_proxy", "127.0.0.1")
        assert proxy_for(fs.base_url, None) == ""


def test_proxy_credentials(tmp_path):
    with Tinyproxy(str(tmp_path), user="geo", password="s3cret") as p, FaultServer() as fs:
        out = ask(Endpoint(fs.base_url, "m", proxy=p.url))
        assert out.text.startswith("My answer is")
        # Wrong credentials: "Test connection" (GET /models) says so, without the password.
        client = ChatClient(Endpoint(fs.base_url, "m", proxy=p.url.replace("s3cret", "wrong")))
        with pytest.raises(EndpointError) as err:
            client.list_models()
        client.close()
        # A proxy answers 407 (tinyproxy 1.11 answers 401: then the message names the proxy
        # as a suspect).
        text = str(err.value)
        assert "407" in text or "proxy http://geo:***@127.0.0.1" in text, text
        assert "wrong" not in str(err.value)
        assert fs.n_requests == 1


def test_https_endpoint_through_the_proxy_with_its_certificate_authority(proxy, ca):
    with FaultServer(tls=ca) as fs:
        assert fs.base_url.startswith("https://")
        out = ask(Endpoint(fs.base_url, "m", proxy=proxy.url, ca_certs=ca["ca"]))
        assert out.text.startswith("My answer is")
        assert any(h.startswith("CONNECT 127.0.0.1:") for h in proxy.hits()), proxy.hits()
        # Without the authority the certificate is refused: a clear, fatal error.
        with pytest.raises(EndpointError, match="TLS"):
            ask(Endpoint(fs.base_url, "m", proxy=proxy.url))
        assert fs.n_requests == 1


def test_https_credentials_refused_on_the_tunnel(tmp_path, ca):
    with Tinyproxy(str(tmp_path), user="geo", password="s3cret") as p, FaultServer(tls=ca) as fs:
        with pytest.raises(EndpointError, match="407"):
            ask(Endpoint(fs.base_url, "m", proxy=p.bare_url, ca_certs=ca["ca"]))
        assert fs.n_requests == 0


def test_list_models_through_the_proxy(proxy):
    with FaultServer() as fs:
        client = ChatClient(Endpoint(fs.base_url, "m", proxy=proxy.url))
        assert client.list_models() == ["fault"]
        client.close()
        assert [v for v in fs.via if "tinyproxy" in v]


def test_a_dead_proxy_is_a_request_error_naming_the_proxy():
    dead = f"http://127.0.0.1:{free_port()}"
    with FaultServer() as fs:
        with pytest.raises(RequestError, match="proxy"):
            ask(Endpoint(fs.base_url, "m", proxy=dead, max_retries=1))
        assert fs.n_requests == 0


def test_socks_without_pysocks_says_what_to_install(monkeypatch):
    import sys
    import warnings

    warnings.simplefilter("ignore")  # urllib3 warns that PySocks is missing: the point here
    monkeypatch.setitem(sys.modules, "socks", None)  # as where PySocks is not installed
    monkeypatch.delitem(sys.modules, "urllib3.contrib.socks", raising=False)
    with pytest.raises(EndpointError, match="PySocks"):
        ask(Endpoint("http://127.0.0.1:9/v1", "m", proxy="socks5h://u:pw@127.0.0.1:1080"))


def test_the_proxy_and_its_password_stay_out_of_repr_and_saved_settings():
    ep = Endpoint("https://api.example/v1", "m", proxy="http://geo:TOPSECRET@proxy:3128")
    assert "TOPSECRET" not in repr(ep)
    assert "proxy" not in ep.public_dict() and "ca_certs" not in ep.public_dict()
    assert hide_password(ep.proxy) == "http://geo:***@proxy:3128"


def test_the_embedded_preset_is_always_direct(monkeypatch):
    monkeypatch.setenv("http_proxy", "http://127.0.0.1:9")
    ep = Endpoint.from_provider("embedded", "m")
    assert ep.proxy == "" and proxy_for(ep.base_url, ep.proxy) == ""
