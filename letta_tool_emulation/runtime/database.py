"""An embedded PostgreSQL with pgvector for the Letta server, from the ``pgserver`` wheel.

Private by default, also on a machine shared with other users:
- the data directory is 0700 and its log 0600; what the launcher creates is reached without
  following anyone else's links (``private_dirs``), and no parent directory is ever loosened;
- the socket lives in a fresh directory made by ``mkdtemp`` (0700, under $XDG_RUNTIME_DIR
  when that is private), PostgreSQL listens on nothing else, and only the launcher's own OS
  user may connect: peer authentication, mapped to the ``postgres`` role;
- as root PostgreSQL runs as the system user ``pgserver``, from a data directory that user
  owns. It is handed that directory and the socket directory as open descriptors
  (``/proc/self/fd/N``), so it needs no access to any directory above them: root's home stays
  as it is.

PostgreSQL runs as a child of the process that starts it, with a parent-death signal: it
stops when that process stops, even on ``kill -9``, so no orphan keeps the data directory.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .private_dirs import UnsafePath, open_dir, open_file, tighten, user_name, write_file
from .processes import stop_process

DATABASE = "letta"
SUPERUSER = "postgres"
PG_USER_WHEN_ROOT = "pgserver"
LOG_NAME = "postgres.log"
# Clients reach the socket by its real path: unix socket paths end at 107 bytes.
_SOCKET_PATH_MAX = 107 - len("/.s.PGSQL.5432")
# On Linux PostgreSQL is given its directories as descriptors; elsewhere by path.
_FD_PATHS = sys.platform.startswith("linux") and os.path.isdir("/proc/self/fd")
_RESTART_WAIT = 30.0


class DatabaseError(RuntimeError):
    """Something the user can act on; the message says what."""


def default_home() -> Path:
    return Path.home() / ".letta-tool-emulation"


def default_data_dir() -> Path:
    return default_home() / "pgdata"


def parent_death_signal(sig: int) -> Callable[[], None] | None:
    if not sys.platform.startswith("linux"):
        return None
    libc = ctypes.CDLL("libc.so.6", use_errno=True)

    def preexec() -> None:
        libc.prctl(1, int(sig), 0, 0, 0)  # PR_SET_PDEATHSIG

    return preexec


def hba_conf(os_user: str) -> tuple[str, str]:
    """pg_hba.conf and pg_ident.conf: only ``os_user``, over the socket, as ``postgres``."""
    hba = (
        "# Written by letta-tool-emulation at every start; edits are overwritten.\n"
        f"# Only the OS user {os_user} may connect, over the private unix socket, as {SUPERUSER}.\n"
        f"local  all  {SUPERUSER}  peer  map=lte\n"
    )
    ident = f'# Written by letta-tool-emulation at every start.\nlte  "{os_user}"  {SUPERUSER}\n'
    return hba, ident


class EmbeddedPostgres:
    def __init__(
        self, data_dir: Path | str | None = None, log: Callable[[str], None] = print, programs: Path | None = None
    ) -> None:
        self.data_dir = Path(os.path.abspath(Path(data_dir or default_data_dir()).expanduser()))
        self.home = self.data_dir.parent
        self.log_path = self.home / LOG_NAME
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None
        self.socket_dir: Path | None = None
        self._fds: dict[str, int] = {}
        self._as_user: dict[str, Any] = {}
        self._programs = programs
        self._bin = Path()
        self._copied_programs: Path | None = None

    @property
    def uri(self) -> str:
        # "localhost" is only a placeholder: ?host= points libpq and asyncpg at the socket.
        return f"postgresql://{SUPERUSER}@localhost/{DATABASE}?host={self.socket_dir}"

    # -- start and stop -------------------------------------------------------------------

    def start(self, timeout: float = 60.0) -> EmbeddedPostgres:
        try:
            from pgserver._commands import POSTGRES_BIN_PATH
        except ImportError as exc:  # pragma: no cover - pgserver is a dependency
            raise DatabaseError("the embedded database needs the `pgserver` package: pip install pgserver") from exc
        self._bin = self._programs or POSTGRES_BIN_PATH
        try:
            self._prepare()
            self._refuse_if_running()
            if not self._has_cluster():
                self.log(f"Creating a new database in {self.data_dir}")
                self._initdb()
            self._write_auth()
            self._launch()
            self._wait_ready(timeout)
            self._ensure_database()
        except UnsafePath as exc:
            self.stop()
            raise DatabaseError(f"{exc} (data directory {self.data_dir})") from exc
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self, timeout: float = 20.0) -> None:
        proc, self.proc = self.proc, None
        if proc is not None and proc.poll() is None:
            stop_process(proc, signal.SIGINT, timeout)  # SIGINT: PostgreSQL's fast shutdown
        self._close()

    def crashed(self) -> int | None:
        """The exit code if PostgreSQL stopped without being asked to, else None."""
        return None if self.proc is None else self.proc.poll()

    def restart(self, timeout: float = 60.0) -> None:
        """Start PostgreSQL again after it stopped on its own (crash recovery replays its log).
        Its old processes may hold shared memory for a moment: retry until they are gone."""
        deadline = time.monotonic() + _RESTART_WAIT
        while True:
            self._launch()
            try:
                self._wait_ready(timeout)
                return
            except DatabaseError:
                if self.proc is not None and self.proc.poll() is None:
                    self.proc.kill()
                    self.proc.wait()
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)

    def __enter__(self) -> EmbeddedPostgres:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- directories ----------------------------------------------------------------------

    def _prepare(self) -> None:
        """Open (creating if needed) the home, data and socket directories; as root hand the
        data and socket directories to the postgres user, through their descriptors."""
        pg_uid = pg_gid = None
        if os.name == "posix" and os.geteuid() == 0:
            if not _FD_PATHS:
                raise DatabaseError("as root the embedded database needs Linux; run the server as a normal user")
            pg_uid, pg_gid = _service_user()
            self._as_user = {"user": pg_uid, "group": pg_gid, "extra_groups": []}
            self._bin = self._reachable_programs()
        self._fds["home"] = open_dir(self.home, create=True)
        if self.home == default_home():
            tighten(self._fds["home"], 0o700)  # the launcher's own folder
        self._fds["data"] = open_dir(self.data_dir, create=True, owners=(pg_uid,) if pg_uid is not None else ())
        owner = os.fstat(self._fds["data"]).st_uid
        if os.geteuid() != 0 and owner != os.geteuid():
            raise UnsafePath(f"{self.data_dir} belongs to {user_name(owner)}, not to you")
        if pg_uid is not None:
            os.fchown(self._fds["data"], pg_uid, pg_gid)  # type: ignore[arg-type]
        tighten(self._fds["data"], 0o700)
        self.socket_dir = Path(tempfile.mkdtemp(prefix="lte-pg-", dir=_socket_parent()))
        self._fds["socket"] = open_dir(self.socket_dir, owners=(pg_uid,) if pg_uid is not None else ())
        if pg_uid is not None:
            os.fchown(self._fds["socket"], pg_uid, pg_gid)  # type: ignore[arg-type]
        os.close(self._log_fd())  # made now, so a problem with it shows before anything starts

    def _reachable_programs(self) -> Path:
        """The PostgreSQL programs, where the postgres user can run them. Installed where it
        cannot (a virtualenv inside root's home), a copy in a fresh temporary directory is run
        instead of opening up the directories above the installation."""
        if self._runs(self._bin):
            return self._bin
        copy = Path(tempfile.mkdtemp(prefix="lte-pgbin-"))
        self._copied_programs = copy
        install = self._bin.parent  # .../pgserver/pginstall
        shutil.copytree(install, copy / "pgserver" / "pginstall", symlinks=True)
        libs = install.parent.parent / "pgserver.libs"  # the wheel's bundled libraries, found by RPATH
        if libs.is_dir():
            shutil.copytree(libs, copy / "pgserver.libs", symlinks=True)
        _open_to_all(copy)
        self.log(
            f"User {PG_USER_WHEN_ROOT} cannot reach the PostgreSQL programs in {self._bin}; running a copy in {copy}"
        )
        programs = copy / "pgserver" / "pginstall" / "bin"
        if not self._runs(programs):
            raise DatabaseError(
                f"user {PG_USER_WHEN_ROOT} cannot run PostgreSQL from {self._bin}, nor from a copy in {copy}. "
                "Install the package where other users can read it, or run the server as a normal user."
            )
        return programs

    def _runs(self, programs: Path) -> bool:
        try:
            subprocess.run([str(programs / "postgres"), "--version"], **self._as_user, capture_output=True, check=True)
            return True
        except (PermissionError, subprocess.CalledProcessError):
            return False

    def _log_fd(self) -> int:
        return open_file(self._fds["home"], LOG_NAME, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)

    def _path(self, name: str) -> str:
        """How PostgreSQL, a child of this process, names one of the directories."""
        if _FD_PATHS:
            return f"/proc/self/fd/{self._fds[name]}"
        return str(self.data_dir if name == "data" else self.socket_dir)

    def _close(self) -> None:
        sock = self._fds.pop("socket", None)
        if sock is not None:
            for entry in os.listdir(sock):  # a socket and lock left behind by a crash
                with contextlib.suppress(OSError):
                    os.unlink(entry, dir_fd=sock)
        if self.socket_dir is not None:
            with contextlib.suppress(OSError):
                os.rmdir(self.socket_dir)
        for fd in [sock, *self._fds.values()]:
            if fd is not None:
                os.close(fd)
        self._fds.clear()
        if self._copied_programs is not None:
            shutil.rmtree(self._copied_programs, ignore_errors=True)
            self._copied_programs = None

    # -- postgres -------------------------------------------------------------------------

    def _run_pg(self, args: list[str], **kw: Any) -> subprocess.Popen[bytes]:
        log = self._log_fd()
        try:
            return subprocess.Popen(
                [str(self._bin / args[0]), *args[1:]],
                **self._as_user,
                cwd=self._path("data"),
                pass_fds=tuple(self._fds[k] for k in ("data", "socket")) if _FD_PATHS else (),
                stdin=subprocess.DEVNULL,
                # Its own session: a terminal's Ctrl-C goes to the launcher and Letta, which
                # finish their requests before the launcher stops the database.
                start_new_session=True,
                stdout=log,
                stderr=subprocess.STDOUT,
                **kw,
            )
        except PermissionError as exc:
            raise DatabaseError(
                f"the PostgreSQL programs in {self._bin} cannot be run by user "
                f"{user_name(self._as_user.get('user', os.geteuid()))} ({exc.strerror}). Install the package where "
                "that user can read it (a virtualenv outside a private home directory)."
            ) from exc
        finally:
            os.close(log)

    def _initdb(self) -> None:
        code = self._run_pg(
            [
                *("initdb", "-D", self._path("data")),
                *("--auth-local=peer", "--auth-host=reject", "--encoding=utf8", "-U", SUPERUSER),
            ]
        ).wait()
        if code != 0:
            raise DatabaseError(f"creating the database failed (initdb exit code {code}); see {self.log_path}")

    def _launch(self) -> None:
        self.proc = self._run_pg(
            [
                *("postgres", "-D", self._path("data"), "-k", self._path("socket")),
                *("-c", "listen_addresses=", "-c", "unix_socket_permissions=0700"),
            ],
            preexec_fn=parent_death_signal(signal.SIGINT),  # SIGINT: postgres's fast shutdown
        )

    def _wait_ready(self, timeout: float) -> None:
        assert self.proc is not None
        isready = [str(self._bin / "pg_isready"), "-q", "-h", str(self.socket_dir), "-U", SUPERUSER]
        deadline = time.monotonic() + timeout
        while subprocess.run(isready, check=False).returncode != 0:
            if self.proc.poll() is not None:
                raise DatabaseError(
                    f"PostgreSQL stopped while starting (exit code {self.proc.returncode}); see {self.log_path}"
                )
            if time.monotonic() > deadline:
                raise DatabaseError(f"PostgreSQL did not start within {timeout:.0f} s; see {self.log_path}")
            time.sleep(0.1)

    def _has_cluster(self) -> bool:
        try:
            os.stat("PG_VERSION", dir_fd=self._fds["data"], follow_symlinks=False)
            return True
        except FileNotFoundError:
            return False

    def _write_auth(self) -> None:
        """Peer authentication for the launcher's user only, rewritten at every start (so a
        database made by an older version with trust authentication is closed too)."""
        import pwd

        try:
            me = pwd.getpwuid(os.geteuid()).pw_name
        except KeyError:
            raise DatabaseError(
                f"uid {os.geteuid()} has no user name (no entry in /etc/passwd); PostgreSQL needs one"
            ) from None
        hba, ident = hba_conf(me)
        owner = (self._as_user["user"], self._as_user["group"]) if self._as_user else None
        write_file(self._fds["data"], "pg_hba.conf", hba, owner)
        write_file(self._fds["data"], "pg_ident.conf", ident, owner)

    def _refuse_if_running(self) -> None:
        try:
            fd = os.open("postmaster.pid", os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=self._fds["data"])
            with os.fdopen(fd) as f:
                pid = int(f.readline())
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


def _open_to_all(root: Path) -> None:
    """Make a fresh copy of the PostgreSQL programs readable (and its programs runnable) by every
    user. The copy is made under the server's umask 077, and ``copytree`` takes the modes of the
    installation, which may be private too; either way the postgres user could not enter it.
    Only this new tree is touched, and links in it are left alone (they point inside it)."""
    for directory, _subdirs, files in os.walk(root):  # links to directories are not followed
        os.chmod(directory, 0o755)
        for name in files:
            path = os.path.join(directory, name)
            info = os.lstat(path)
            if stat.S_ISREG(info.st_mode):
                os.chmod(path, 0o755 if info.st_mode & stat.S_IXUSR else 0o644)


def _socket_parent() -> str:
    """$XDG_RUNTIME_DIR when it is this user's private directory, else the temp directory."""
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    if runtime.startswith("/"):
        try:
            st = os.stat(runtime)
        except OSError:
            st = None
        if (
            st is not None
            and stat.S_ISDIR(st.st_mode)
            and st.st_uid == os.geteuid()
            and not st.st_mode & 0o077
            and len(runtime) + 16 <= _SOCKET_PATH_MAX
        ):
            return runtime
    parent = tempfile.gettempdir()
    if len(parent) + 16 > _SOCKET_PATH_MAX:
        raise DatabaseError(
            f"the temporary directory {parent} is too long a path for PostgreSQL's socket; "
            "set TMPDIR to a shorter one (such as /tmp)"
        )
    return parent


def _service_user() -> tuple[int, int]:
    """The system user PostgreSQL runs as under root, created on first use."""
    import pwd

    try:
        entry = pwd.getpwnam(PG_USER_WHEN_ROOT)
    except KeyError:
        useradd = shutil.which("useradd")
        if useradd is None:
            raise DatabaseError(
                f"PostgreSQL cannot run as root and there is no system user {PG_USER_WHEN_ROOT!r} to run it as; "
                f"create one (useradd --system {PG_USER_WHEN_ROOT}), or run the server as a normal user"
            ) from None
        shell = shutil.which("nologin") or "/bin/false"
        made = subprocess.run(
            [
                *(useradd, "--system", "--user-group", "--no-create-home"),
                *("--home-dir", "/nonexistent", "--shell", shell, PG_USER_WHEN_ROOT),
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        if made.returncode != 0:
            raise DatabaseError(
                f"PostgreSQL cannot run as root, and creating the system user {PG_USER_WHEN_ROOT!r} to run it as "
                f"failed: {made.stderr.strip() or made.returncode}. Create it yourself, or run the server as a "
                "normal user."
            ) from None
        entry = pwd.getpwnam(PG_USER_WHEN_ROOT)
    return entry.pw_uid, entry.pw_gid
