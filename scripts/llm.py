"""Start the embedded local model by hand (`make llm`): prints the base URL, Ctrl-C stops it."""

import argparse
import os
import signal
import sys
import threading

from geobias.core.engine.chat import server_endpoint

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from geobias.core.runtime import models  # noqa: E402
from geobias.core.runtime.embedded import EmbeddedServer  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument(
        "--model",
        help=f"a bundled model ({', '.join(models.MODELS)}; default {models.DEFAULT_MODEL}) "
        "or a GGUF file",
    )
    ap.add_argument("--parallel", type=int, default=2, help="parallel slots (default 2)")
    ap.add_argument("--ctx-size", type=int, default=1024, help="context tokens per slot")
    ap.add_argument("--port", type=int, default=None, help="port (default: a free one)")
    args = ap.parse_args(argv)
    stop = threading.Event()
    path = models.model_path(args.model) if args.model in models.MODELS else args.model
    with EmbeddedServer(path, args.parallel, args.ctx_size, port=args.port) as server:
        # After the start: llama.cpp installs its own handlers, ours must come last.
        signal.signal(signal.SIGINT, lambda *_: stop.set())
        signal.signal(signal.SIGTERM, lambda *_: stop.set())
        print(server.base_url, flush=True)
        print(
            f"model {server_endpoint(server).model}, {args.parallel} slots; Ctrl-C stops",
            flush=True,
        )
        while not stop.wait(0.5):
            pass
    print("stopped", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
