"""Real network middlemen on 127.0.0.1 for the proxy and certificate tests: Debian's tinyproxy
(installed by scripts/bootstrap.sh) and a throw-away certificate authority made with openssl."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Tinyproxy:
    """tinyproxy in the foreground on a free loopback port, optionally with Basic auth.

    `url` is the proxy URL with the credentials, `hits()` the requests it forwarded (from its
    log: CONNECT for HTTPS tunnels, the full URL for plain HTTP).
    """

    def __init__(self, folder, user: str | None = None, password: str | None = None):
        exe = shutil.which("tinyproxy") or "/usr/bin/tinyproxy"
        assert os.path.exists(exe), "tinyproxy is missing: scripts/bootstrap.sh installs it"
        self.port = free_port()
        self.log = os.path.join(folder, f"tinyproxy-{self.port}.log")
        conf = os.path.join(folder, f"tinyproxy-{self.port}.conf")
        lines = [f"Port {self.port}", "Listen 127.0.0.1", "Timeout 30", "LogLevel Connect",
                 f'LogFile "{self.log}"', "MaxClients 20", "Allow 127.0.0.1"]  # fmt: skip
        if user:
            lines.append(f"BasicAuth {user} {password}")
        with open(conf, "w") as f:
            f.write("\n".join(lines) + "\n")
        open(self.log, "w").close()
        os.chmod(self.log, 0o666)  # tinyproxy may drop to another user when started as root
        self.proc = subprocess.Popen([exe, "-d", "-c", conf], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)  # fmt: skip
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                break
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    err = self.proc.stderr.read().decode() if self.proc.poll() is not None else ""
                    self.stop()
                    raise RuntimeError(f"tinyproxy did not start: {err}") from None
                time.sleep(0.05)
        auth = f"{user}:{password}@" if user else ""
        self.url = f"http://{auth}127.0.0.1:{self.port}"
        self.bare_url = f"http://127.0.0.1:{self.port}"

    def hits(self) -> list[str]:
        """Request lines tinyproxy logged ('CONNECT 127.0.0.1:port', 'POST http://...')."""
        with open(self.log, errors="replace") as f:
            return [line.split("): ", 1)[-1].strip() for line in f if "]: Request (" in line]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def __enter__(self) -> Tinyproxy:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def make_ca(folder) -> dict:
    """A certificate authority and a server certificate for 127.0.0.1/localhost, signed by it
    (openssl CLI). Returns paths: ca (PEM), cert and key (the server's)."""

    def run(*args):
        subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True)

    # The extensions strict verifiers (OpenSSL 3.5, Python 3.13+) insist on.
    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-keyout", "ca.key",
        "-out", "ca.pem", "-subj", "/CN=GeoBias test CA",
        "-addext", "basicConstraints=critical,CA:TRUE",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        "-addext", "subjectKeyIdentifier=hash")  # fmt: skip
    run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr",
        "-subj", "/CN=127.0.0.1")  # fmt: skip
    with open(os.path.join(folder, "san.ext"), "w") as f:
        f.write("subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n"
                "keyUsage=critical,digitalSignature,keyEncipherment\n"
                "extendedKeyUsage=serverAuth\nsubjectKeyIdentifier=hash\n"
                "authorityKeyIdentifier=keyid,issuer\n")  # fmt: skip
    run("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
        "-CAcreateserial", "-days", "2", "-out", "server.pem", "-extfile", "san.ext")  # fmt: skip
    return {k: os.path.join(folder, v) for k, v in
            (("ca", "ca.pem"), ("cert", "server.pem"), ("key", "server.key"))}  # fmt: skip
