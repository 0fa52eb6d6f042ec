"""An embedded PostgreSQL with pgvector for the Letta server, from the ``pgserver`` wheel.

PostgreSQL runs as a child of the process that starts it, with a parent-death signal: it
stops when that process stops, even on ``kill -9``, so no orphan keeps the data directory.
It listens only on a unix socket. As root it runs as the unprivileged system user
``pgserver`` (created if needed), the way pgserver itself does.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import signal
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

DATABASE = "letta"
SUPERUSER = "postgres"
PG_USER_WHEN_ROOT = "pgserver"
_SOCKET_PATH_MAX = 100  # unix sockets allow ~107 bytes; leave room for ".s.PGSQL.5432"


class DatabaseError(RuntimeError):
    """Something the user can act on; the message says what."""


def default_data_dir() -> Path:
    return Path.home() / ".letta-tool-emulation" / "pgdata"


def parent_death_signal(sig: int) -> Callable[[], None] | None:
    if not sys.platform.startswith("linux"):
        return None
    libc = ctypes.CDLL("libc.so.6", use_errno=True)

    def preexec() -> None:
        libc.prctl(1, int(sig), 0, 0, 0)  # PR_SET_PDEATHSIG

    return preexec


def _allow_traversal(path: Path) -> None:
    """Let the postgres user reach ``path``: o+x on each parent, nothing more."""
    for parent in path.parents:
        mode = parent.stat().st_mode
        if not mode & stat.S_IXOTH:
            parent.chmod(mode | stat.S_IXOTH)


class EmbeddedPostgres:
    def __init__(self, data_dir: Path | str | None = None, log: Callable[[str], None] = print) -> None:
        self.data_dir = Path(data_dir or default_data_dir()).expanduser().resolve()
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None
        self.socket_dir = self._pick_socket_dir()

    @property
    def uri(self) -> str:
        # "localhost" is only a placeholder: ?host= points libpq and asyncpg at the socket.
        return f"postgresql://{SUPERUSER}@localhost/{DATABASE}?host={self.socket_dir}"

    def _pick_socket_dir(self) -> Path:
        if len(str(self.data_dir)) + 20 <= _SOCKET_PATH_MAX:
            return self.data_dir
        digest = hashlib.sha1(str(self.data_dir).encode()).hexdigest()[:10]
        return Path(tempfile.gettempdir()) / f"lte-pg-{digest}"

    def start(self, timeout: float = 60.0) -> EmbeddedPostgres:
        try:
            from pgserver._commands import POSTGRES_BIN_PATH, initdb
        except ImportError as exc:  # pragma: no cover - pgserver is a dependency
            raise DatabaseError("the embedded database needs the `pgserver` package: pip install pgserver") from exc
        as_user = self._prepare_directories(POSTGRES_BIN_PATH)
        self._refuse_if_running()
        if not (self.data_dir / "PG_VERSION").exists():
            self.log(f"Creating a new database in {self.data_dir}")
            initdb(
                ["--auth=trust", "--auth-local=trust", "--encoding=utf8", "-U", SUPERUSER],
                pgdata=self.data_dir,
                **as_user,
            )
        logfile = open(self.data_dir.parent / "postgres.log", "ab")  # noqa: SIM115 - lives as long as postgres
        self.proc = subprocess.Popen(
            [str(POSTGRES_BIN_PATH / "postgres"), "-D", str(self.data_dir), "-k", str(self.socket_dir), "-h", ""],
            **as_user,
            stdout=logfile,
            stderr=subprocess.STDOUT,
            preexec_fn=parent_death_signal(signal.SIGINT),  # SIGINT: postgres's fast shutdown
        )
        logfile.close()
        isready = [str(POSTGRES_BIN_PATH / "pg_isready"), "-q", "-h", str(self.socket_dir), "-U", SUPERUSER]
        deadline = time.monotonic() + timeout
        while subprocess.run(isready, check=False).returncode != 0:
            if self.proc.poll() is not None:
                raise DatabaseError(
                    f"PostgreSQL stopped while starting (exit code {self.proc.returncode}); "
                    f"see {self.data_dir.parent / 'postgres.log'}"
                )
            if time.monotonic() > deadline:
                self.stop()
                raise DatabaseError(
                    f"PostgreSQL did not start within {timeout:.0f} s; see {self.data_dir.parent / 'postgres.log'}"
                )
            time.sleep(0.1)
        self._ensure_database()
        return self

    def _prepare_directories(self, bin_path: Path) -> dict[str, Any]:
        """Create the directories; as root, hand them to the postgres user and return the
        subprocess options that run a command as that user (uid, gid, no root groups:
        keeping the root group would make group permissions deny what others may do)."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.socket_dir.mkdir(parents=True, exist_ok=True)
        if os.name != "posix" or os.geteuid() != 0:
            return {}
        import pwd

        from pgserver.utils import ensure_user_exists

        ensure_user_exists(PG_USER_WHEN_ROOT)
        entry = pwd.getpwnam(PG_USER_WHEN_ROOT)
        for d in {self.data_dir, self.socket_dir}:
            _allow_traversal(d)
            os.chown(d, entry.pw_uid, entry.pw_gid)
            d.chmod(0o700)
        _allow_traversal(bin_path)
        return {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": []}

    def _refuse_if_running(self) -> None:
        pidfile = self.data_dir / "postmaster.pid"
        try:
            pid = int(pidfile.read_text().split("\n", 1)[0])
        except (OSError, ValueError):
            return
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return  # stale: postgres removes it itself
        except PermissionError:
            pass
        raise DatabaseError(
            f"the database in {self.data_dir} is already in use by PostgreSQL process {pid} "
            "(another server running on it?). Stop that server, or pass a different --data-dir."
        )

    def _ensure_database(self) -> None:
        import psycopg2

        conn = psycopg2.connect(host=str(self.socket_dir), user=SUPERUSER, dbname="postgres")
        try:
            conn.autocommit = True  # CREATE DATABASE cannot run inside a transaction
            with conn.cursor() as cur:
                cur.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE,))
                if cur.fetchone() is None:
                    cur.execute(f"CREATE DATABASE {DATABASE}")
        finally:
            conn.close()

    def stop(self, timeout: float = 20.0) -> None:
        proc, self.proc = self.proc, None
        if proc is None or proc.poll() is not None:
            return
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def __enter__(self) -> EmbeddedPostgres:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
