"""A child Python that answers JSON lines: started, asked, stopped, and never waited on forever.

Native code (llama.cpp, torch) runs in such children, never in QGIS's process. The child reads
requests on its standard input and writes one JSON line per answer on its standard output; its
standard error goes to a temporary log whose last lines explain a failure. The pipe on its
standard input is what keeps it alive: when this process dies the system closes it, and the
child exits.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import tempfile
import threading

__all__ = ["ChildError", "JsonLinesChild"]


class ChildError(RuntimeError):
    """The child did not start, exited, answered garbage, or gave no answer in time."""


class JsonLinesChild:
    """`cmd` run as a child; `request(message)` writes one JSON line and returns its answer.

    `what` names the child in messages ("the whole-sentence scoring process"). Each answer is
    awaited at most `timeout` seconds; a child that exits, hangs or cannot be written to is a
    ChildError and is stopped. Requests are serialised (one in flight).
    """

    def __init__(self, cmd: list[str], what: str, timeout: float = 600.0, env: dict | None = None,
                 creationflags: int = 0):  # fmt: skip
        self.what = what
        self.timeout = timeout
        self._lock = threading.Lock()
        self._next_id = 0
        self._proc = None
        self.failure = ""  # why the child stopped, when it did not stop on request
        self._log = tempfile.NamedTemporaryFile(prefix="geobias-child-", suffix=".log",
                                                delete=False)  # fmt: skip
        try:
            self._proc = subprocess.Popen(
                cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log, env=env,
                creationflags=creationflags, text=True, encoding="utf-8", bufsize=1,
            )  # fmt: skip
        except OSError as e:
            self.close()
            raise ChildError(f"{what} did not start ({cmd[0]}): {e}") from e
        self._lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True, name="geobias-child-reader").start()

    def _read(self) -> None:
        """Queue the child's lines; None when its stdout closes (it exited)."""
        proc = self._proc
        try:
            for line in proc.stdout:
                self._lines.put(line)
        except (OSError, ValueError):
            pass
        self._lines.put(None)

    def receive(self, timeout: float | None = None) -> dict:
        """The child's next JSON line (ChildError if it exits or stays silent too long)."""
        wait = self.timeout if timeout is None else timeout
        try:
            line = self._lines.get(timeout=wait)
        except queue.Empty:
            self.close(wait=0)  # a hung child gets no grace
            self.failure = f"{self.what} gave no answer in {wait:.0f} s; stopped it"
            raise ChildError(self.failure) from None
        if line is None:
            proc, tail = self._proc, self.log_tail()
            self.close()
            code = proc.returncode if proc is not None else None
            self.failure = f"{self.what} exited (code {code}): {tail}"
            raise ChildError(self.failure)
        try:
            return json.loads(line)
        except ValueError:
            return {"error": f"{self.what} answered something that is not JSON: {line[:200]}"}

    def request(self, message: dict, timeout: float | None = None) -> dict:
        """Send `message` (an "id" is added) and return the answer with that id."""
        with self._lock:
            if self._proc is None:
                raise ChildError(self.failure or f"{self.what} is stopped")
            self._next_id += 1
            rid = self._next_id
            try:
                self._proc.stdin.write(json.dumps(dict(message, id=rid)) + "\n")
                self._proc.stdin.flush()
            except (OSError, ValueError) as e:
                tail = self.log_tail()
                self.close()
                self.failure = f"{self.what} is gone ({e}): {tail}"
                raise ChildError(self.failure) from e
            reply = self.receive(timeout)
        if reply.get("id") != rid:
            raise ChildError(f"{self.what}: {reply.get('error') or reply}")
        return reply

    def log_tail(self) -> str:
        from .embedded import log_tail

        return log_tail(self._log.name) if self._log is not None else "no output"

    @property
    def pid(self) -> int | None:
        """The child's process id while it runs."""
        proc = self._proc
        return proc.pid if proc is not None and proc.poll() is None else None

    def close(self, wait: float = 10.0) -> None:
        """Stop the child: close its stdin (it exits), after `wait` s terminate, then kill."""
        from .embedded import remove_log, stop_child

        proc, self._proc = self._proc, None
        if proc is not None:
            stop_child(proc, wait)
            proc.stdout.close()
        log, self._log = self._log, None
        if log is not None:
            remove_log(log)


def worker_path(name: str) -> str:
    """A worker script beside this module (core/<name>)."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), name)
