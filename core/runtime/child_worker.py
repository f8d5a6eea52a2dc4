"""What every GeoBias child process (the masked-LM and whole-sentence scorers) does around its
JSON-lines protocol: exit with its parent, keep stdout for the protocol, stop quietly.

The workers run as scripts with only their own folder on the path, so this module imports
nothing of GeoBias's."""

from __future__ import annotations

import os
import sys
import threading
import time

__all__ = ["run", "watch_parent"]


def watch_parent(parent_pid: int) -> None:
    """POSIX reparents an orphan: a changed parent pid means the parent is gone, so exit at
    once, even while a batch or a model's loading keeps the main thread from seeing stdin
    close."""
    if not parent_pid or os.name != "posix":
        return

    def watch():
        while os.getppid() == parent_pid:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


def run(serve, args) -> int:
    """serve(args, out) with the real stdout as `out` (the protocol's); whatever a library
    prints goes to stderr (the log). Ctrl-C ends it with 0."""
    watch_parent(getattr(args, "parent_pid", 0))
    out = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    try:
        return serve(args, out)
    except KeyboardInterrupt:
        return 0
    finally:
        out.flush()
