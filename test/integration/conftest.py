"""One embedded llama.cpp server (the default model) for the whole integration session."""

import pytest


@pytest.fixture(scope="session")
def embedded_server():
    from geobias.core.runtime.embedded import EmbeddedError, EmbeddedServer

    server = EmbeddedServer(parallel=2)
    try:
        server.start()
    except EmbeddedError as e:  # make test installs it: a missing model is a failure
        pytest.fail(f"embedded model unavailable: {e}")
    yield server
    server.stop()
