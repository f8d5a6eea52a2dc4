"""Stop on a broken endpoint (issue 23, item 1): requests sent and seconds until a run of 24 and
200 points stops on a server answering an HTML page with status 200, and on one that accepts
the connection and never answers (read timeout 5 s here; 60 s by default), with the endpoint's
default concurrency (4), retries (7 attempts) and back-off. Targets: at most 2 x concurrency
requests, at most 2 read timeouts. Rows go to make bench's reliability table."""

import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reliability import record  # noqa: E402

READ_TIMEOUT = 5.0


def stop(fault, n_points, folder):
    from geobias.core.engine.cache import SurveyCache
    from geobias.core.engine.chat import Endpoint
    from geobias.core.engine.http_client import EndpointStoppedError
    from geobias.core.survey.run import run_requests
    from geobias.test.faultserver import FaultServer

    cache = SurveyCache(os.path.join(folder, f"{fault}-{n_points}.sqlite"))
    prompts = [f"How is life at point {i}?" for i in range(n_points)]
    with FaultServer(always=fault, hang_s=3600) as fs:
        fs.httpd.handle_error = lambda *a: None  # late answers to a client that left
        ep = Endpoint(fs.base_url, "fault", timeout=READ_TIMEOUT)
        t0 = time.monotonic()
        try:
            run_requests(prompts, ep, cache)
            why = "not stopped"
        except EndpointStoppedError as e:
            why = str(e)
        seconds = time.monotonic() - t0
        return fs.n_requests, seconds, ep.concurrency, why


def main():
    print(f"{'fault':8} {'points':>6} {'requests':>8} {'seconds':>8}  stopped with")
    with tempfile.TemporaryDirectory() as folder:
        for fault, key in (("html", "stop_html"), ("timeout", "stop_hung")):
            for n in (24, 200):
                sent, seconds, concurrency, why = stop(fault, n, folder)
                print(f"{fault:8} {n:>6} {sent:>8} {seconds:>8.2f}  {why}")
                if fault == "html":
                    ok = sent <= 2 * concurrency
                    value = f"{sent} req, {seconds:.2f} s"
                else:
                    # Two read timeouts, and the moment the threads take to wind down.
                    ok = sent <= 2 * concurrency and seconds <= 2 * READ_TIMEOUT + 0.5
                    value = f"{sent} req, {seconds / READ_TIMEOUT:.2f} x timeout"
                record(f"{key}_{n}", value, ok, f"concurrency {concurrency}, read timeout "
                       f"{READ_TIMEOUT:g} s" if fault == "timeout" else "")  # fmt: skip


if __name__ == "__main__":
    main()
