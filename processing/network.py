"""QGIS's network settings for GeoBias's requests: the proxy and the trusted certificate
authorities of Settings > Options > Network and Authentication, read through public QGIS APIs
and handed to core as a plain proxy URL and a PEM file."""

import hashlib
import os
import tempfile
from urllib.parse import quote

from qgis.core import QgsApplication, QgsNetworkAccessManager, QgsSettings
from qgis.PyQt.QtNetwork import QNetworkProxy

# QNetworkProxy types -> URL schemes urllib3 speaks; other types mean "no proxy".
_SCHEMES = {
    QNetworkProxy.ProxyType.HttpProxy: "http",
    QNetworkProxy.ProxyType.HttpCachingProxy: "http",
    QNetworkProxy.ProxyType.Socks5Proxy: "socks5h",  # host names resolved by the proxy, as Qt
}


def _listed(url, entries):
    """QGIS's rule for its proxy exclusion lists: the URL starts with an entry."""
    return any(e.strip() and url.startswith(e.strip()) for e in entries or [])


def qgis_proxy(url):
    """The proxy QGIS would use for `url`, for core.llm: a URL with its credentials, "" for a
    direct connection, None for the system's proxy settings (QGIS's "Default proxy").

    Mirrors QgsNetworkAccessManager: proxy off means direct; "no proxy" URLs go direct; the
    "excluded" URLs and the Default type use the system's proxy; credentials come from the
    proxy settings or their authentication configuration (already applied to fallbackProxy).
    """
    if not QgsSettings().value("proxy/proxyEnabled", False, type=bool):
        return ""
    manager = QgsNetworkAccessManager.instance()
    if _listed(url, manager.noProxyList()):
        return ""
    if _listed(url, manager.excludeList()) or manager.useSystemProxy():
        return None
    proxy = manager.fallbackProxy()
    scheme = _SCHEMES.get(proxy.type())
    if scheme is None or not proxy.hostName():
        return ""
    auth = ""
    if proxy.user():
        auth = quote(proxy.user(), safe="") + ":" + quote(proxy.password(), safe="") + "@"
    port = f":{proxy.port()}" if proxy.port() > 0 else ""
    return f"{scheme}://{auth}{proxy.hostName()}{port}"


def qgis_ca_certs():
    """A PEM file of the certificate authorities QGIS trusts (the system's plus those added under
    Options > Authentication, minus those marked untrusted); None without an auth manager."""
    manager = QgsApplication.authManager()
    if manager is None or manager.isDisabled():
        return None
    pem = bytes(manager.trustedCaCertsPemText())
    if not pem.strip():
        return None
    digest = hashlib.sha256(pem).hexdigest()[:16]
    path = os.path.join(tempfile.gettempdir(), f"geobias-ca-{digest}.pem")
    if not os.path.exists(path):
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".pem")
        with os.fdopen(fd, "wb") as f:
            f.write(pem)
        os.replace(tmp, path)  # another process may write the same file: same bytes
    return path


def use_qgis_network(endpoint):
    """Give a core Endpoint QGIS's proxy and certificate authorities (in place; returned).

    The embedded model listens on 127.0.0.1 in a child process: always direct.
    """
    if endpoint.provider == "embedded":
        endpoint.proxy = ""
        return endpoint
    endpoint.proxy = qgis_proxy(endpoint.base_url)
    endpoint.ca_certs = qgis_ca_certs()
    return endpoint
