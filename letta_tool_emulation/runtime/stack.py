"""Running the whole thing from Python: a ``letta-tool-emulation server`` process (launcher,
Letta, PostgreSQL), for the demo, the benchmarks and the end-to-end tests."""

from __future__ import annotations

import atexit
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

COMMAND = str(Path(sys.executable).parent / "letta-tool-emulation")
READY_TIMEOUT = 900.0  # generous: several workers start at once on shared, busy machines
# Settings that would leak from the caller's environment into a server that should only
# see what it is given.
_SCRUBBED_PREFIXES = ("OPENAI_", "LETTA_", "VENICE_", "ANTHROPIC_")


def scratch_dir(prefix: str) -> Path:
    """A private temporary directory, removed when the process exits (after the servers in it
    were stopped, as ``finally`` blocks do): a benchmark leaves nothing behind."""
    path = Path(tempfile.mkdtemp(prefix=prefix))
    atexit.register(shutil.rmtree, path, True)
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """One ``letta-tool-emulation server`` with its own data directory (``root/pgdata`` unless
    given) and HOME; ``command`` is the server command of another installation."""

    def __init__(
        self,
        root: Path,
        port: int | None = None,
        *,
        clean_env: bool = True,
        data_dir: Path | None = None,
        command: str = COMMAND,
        **env: str,
    ) -> None:
        self.root = root
        self.command = command
        self.data_dir = data_dir or root / "pgdata"
        self.port = port or free_port()
        self.log_path = root / "server.log"
        base = os.environ.items()
        self.env = {k: v for k, v in base if not (clean_env and k.startswith(_SCRUBBED_PREFIXES))}
        (root / "home").mkdir(parents=True, exist_ok=True)
        self.env.update({"HOME": str(root / "home"), "PYTHONUNBUFFERED": "1"})
        self.env.update(env)
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, progress: Callable[[float], None] | None = None) -> ServerProcess:
        # The server writes to it; private, like everything the server writes.
        log = os.fdopen(os.open(self.log_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600), "ab")
        self.proc = subprocess.Popen(
            [self.command, "server", "--port", str(self.port), "--data-dir", str(self.data_dir)],
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        started = time.monotonic()
        next_note = started + 10
        while not self._healthy():
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with code {self.proc.returncode}:\n{self.tail()}")
            now = time.monotonic()
            if now - started > READY_TIMEOUT:
                self.kill()
                raise RuntimeError(f"the server was not ready within {READY_TIMEOUT:.0f} s:\n{self.tail()}")
            if progress is not None and now >= next_note:
                progress(now - started)
                next_note = now + 10
            time.sleep(0.5)
        # The first worker answers /v1/health while the others may still be starting, and an
        # agent created meanwhile can deadlock with a worker's start-up: the launcher says when
        # every worker is up (and prints its summary).
        while "Press Ctrl-C to stop." not in self.log():
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with code {self.proc.returncode}:\n{self.tail()}")
            if time.monotonic() - started > READY_TIMEOUT:
                self.kill()
                raise RuntimeError(
                    f"the server's workers were not all ready within {READY_TIMEOUT:.0f} s:\n{self.tail()}"
                )
            time.sleep(0.2)
        return self

    def _healthy(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.url}/v1/health/", timeout=2) as r:
                return bool(r.status == 200)
        except OSError:
            return False

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def tail(self, n: int = 60) -> str:
        return "\n".join(self.log().splitlines()[-n:])

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 90) -> int:
        assert self.proc is not None
        self.proc.send_signal(sig)
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def client(self, **options: Any) -> Any:
        from letta_client import Letta

        # No retries by the SDK unless asked: a retried request hides the failure it met.
        options.setdefault("timeout", 180)
        options.setdefault("max_retries", 0)
        return Letta(base_url=self.url, **options)
