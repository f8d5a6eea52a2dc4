"""The embedded model dies mid-run (issue 23 item 4): kill -9 of its child during a survey
stops the run at once with the reason, every answer is kept, and a new run restarts the model
and asks only the rest; a port taken by another program at start is left to that program."""

import os
import signal
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import requests

from geobias.core.engine.cache import SurveyCache
from geobias.core.engine.chat import server_endpoint
from geobias.core.engine.http_client import EndpointStoppedError
from geobias.core.runtime import embedded
from geobias.core.survey.run import run_requests

pytestmark = pytest.mark.integration

PROMPTS = [f"How wealthy is place number {i} on a scale from 0.0 to 9.9?" for i in range(40)]


def test_a_killed_model_stops_the_survey_and_a_new_run_restarts_it(tmp_path):
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    server = embedded.shared_server()
    pid = server.pid
    killed = []

    def progress(p):  # from the calling thread while the workers ask
        if p.done >= 6 and not killed:
            os.kill(pid, signal.SIGKILL)
            killed.append(p.done)

    try:
        with pytest.raises(EndpointStoppedError) as info:
            run_requests(PROMPTS, server_endpoint(server), cache, progress=progress,
                         progress_every_s=0.0)  # fmt: skip
        err = info.value
        assert killed and err.cause.kind == "ended" and "signal 9" in err.cause.detail
        assert err.attempts <= 2 * server.parallel  # at once, not after retries
        kept = len(cache)
        assert kept >= killed[0]  # every answer that came back is in the cache
        # Resume: the shared model is started again (a new child) and only the rest is asked.
        again = embedded.shared_server()
        assert again.running and again.pid != pid
        res = run_requests(PROMPTS, server_endpoint(again), cache)
        assert all(r.completion is not None for r in res)
        assert sum(r.cached for r in res) == kept
    finally:
        embedded.stop_shared()


class _Health(BaseHTTPRequestHandler):
    def do_GET(self):  # another program that happens to answer /health
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *a):
        pass


def test_a_port_taken_by_another_program_is_left_to_it():
    other = ThreadingHTTPServer(("127.0.0.1", 0), _Health)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    taken = other.server_address[1]
    try:
        with embedded.EmbeddedServer(parallel=1, ctx_size=512, port=taken) as server:
            assert server.port != taken and server.running
            models = requests.get(server.base_url + "/models", timeout=10).json()
            assert models["data"]  # the model's own server, not the other program
        with socket.create_connection(("127.0.0.1", taken), timeout=2):
            pass  # the other program still has its port
    finally:
        other.shutdown()
        other.server_close()
