"""The embedded database on a machine shared with other users.

A second, unprivileged OS user, created here, tries what a hostile neighbour would: connect to
the database, read its files and log, and redirect the launcher with links planted in shared
directories. It runs in a child of this process that gave up root (fork, then setuid), so it
needs nothing but the code already loaded.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import pwd
import secrets
import shutil
import socket
import stat
import struct
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pgserver._commands  # noqa: F401 - loaded before a child gives up root (it may not reach the stdlib)
import psycopg2
import pytest

from letta_tool_emulation.runtime.database import PG_USER_WHEN_ROOT, DatabaseError, EmbeddedPostgres

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="creates OS users: needs root (as the test machines run)")


@dataclass(frozen=True)
class User:
    name: str
    uid: int
    gid: int


@contextlib.contextmanager
def os_user(prefix: str) -> Iterator[User]:
    name = f"{prefix}{secrets.token_hex(3)}"
    subprocess.run(
        ["useradd", "--no-create-home", "--user-group", "--home-dir", "/nonexistent", "--shell", "/bin/false", name],
        check=True,
        capture_output=True,
    )
    try:
        entry = pwd.getpwnam(name)
        yield User(name, entry.pw_uid, entry.pw_gid)
    finally:
        subprocess.run(["userdel", name], check=False, capture_output=True)


@pytest.fixture(scope="module")
def outsider() -> Iterator[User]:
    with os_user("lte-out-") as user:
        yield user


@pytest.fixture
def shared(tmp_path: Path) -> Iterator[Path]:
    """A directory everyone may enter, like /home; the test's own tmp_path is private to root."""
    path = Path(tempfile.mkdtemp(prefix="lte-shared-"))
    path.chmod(0o755)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def as_user(user: User, fn: Callable[..., Any], *args: Any, env: dict[str, str] | None = None) -> Any:
    """``fn(*args)`` in a child process running as ``user`` only; its result, or its error."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            os.close(read_end)
            os.setgroups([])
            os.setgid(user.gid)
            os.setuid(user.uid)
            os.environ.update(env or {})
            payload = {"result": fn(*args)}
        except BaseException as exc:  # noqa: BLE001 - reported to the parent
            payload = {"error": f"{type(exc).__name__}: {exc}"}
        with contextlib.suppress(BaseException), os.fdopen(write_end, "w") as out:
            json.dump(payload, out)
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end) as inp:
        data = inp.read()
    os.waitpid(pid, 0)
    payload = json.loads(data or '{"error": "the child wrote nothing"}')
    if "error" in payload:
        raise AssertionError(f"as {user.name}: {payload['error']}")
    return payload["result"]


def pg_login(socket_path: str) -> str:
    """Try to log in as the superuser over ``socket_path``: what the server answers."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(socket_path)
    except PermissionError:
        return "denied"
    except OSError as exc:
        return f"cannot connect: {exc.strerror}"
    with s:
        params = b"user\0postgres\0database\0letta\0\0"
        s.sendall(struct.pack("!ii", 8 + len(params), 196608) + params)  # StartupMessage, protocol 3.0
        head = s.recv(5, socket.MSG_WAITALL)
        body = s.recv(struct.unpack("!i", head[1:5])[0] - 4, socket.MSG_WAITALL)
    if head[:1] == b"R":
        code = struct.unpack("!i", body[:4])[0]
        return "logged in without a password" if code == 0 else f"asked for a password (method {code})"
    fields = {f[:1]: f[1:].decode(errors="replace") for f in body.split(b"\0") if f}
    return f"refused: {fields.get(b'M', '?')}"


def probe(dirs: list[str], files: list[str], socket_path: str) -> dict[str, str]:
    """What the outsider gets from each directory, file and the socket."""
    out = {}
    for d in dirs:
        try:
            os.listdir(d)
            out[d] = "listed"
        except OSError as exc:
            out[d] = exc.strerror or type(exc).__name__
    for f in files:
        try:
            with open(f, "rb") as fh:
                fh.read(1)
            out[f] = "read"
        except OSError as exc:
            out[f] = exc.strerror or type(exc).__name__
    out["socket"] = pg_login(socket_path)
    return out


def mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def ancestors(path: Path) -> dict[str, int]:
    return {str(p): mode(p) for p in path.parents}


def test_an_outsider_cannot_reach_the_database_of_a_root_launcher(outsider: User, shared: Path) -> None:
    home = shared / "home"
    home.mkdir(mode=0o755)  # a directory of the user's that others may enter
    data = home / "pgdata"
    before = ancestors(data)
    pg = pwd.getpwnam(PG_USER_WHEN_ROOT)
    with EmbeddedPostgres(data, log=lambda _: None) as db:
        assert db.proc is not None and db.socket_dir is not None
        sock = db.socket_dir / ".s.PGSQL.5432"
        # PostgreSQL runs as its own user, inside a directory that user owns.
        status = Path(f"/proc/{db.proc.pid}/status").read_text()
        assert f"Uid:\t{pg.pw_uid}\t" in status
        assert os.readlink(f"/proc/{db.proc.pid}/cwd") == str(data)
        assert (os.stat(data).st_uid, mode(data)) == (pg.pw_uid, 0o700)
        assert (os.stat(db.socket_dir).st_uid, mode(db.socket_dir)) == (pg.pw_uid, 0o700)
        assert (os.stat(db.log_path).st_uid, mode(db.log_path)) == (0, 0o600)
        assert db.socket_dir.name.startswith("lte-pg-") and db.socket_dir.name != f"lte-pg-{sha(data)}"
        # The launcher's own user gets in, as postgres, by peer authentication.
        with psycopg2.connect(db.uri) as conn, conn.cursor() as cur:
            cur.execute("SELECT current_user")
            assert cur.fetchone() == ("postgres",)

        seen = as_user(outsider, probe, [str(data)], [str(data / "PG_VERSION"), str(db.log_path)], str(sock))
        assert seen == {
            str(data): "Permission denied",
            str(data / "PG_VERSION"): "Permission denied",
            str(db.log_path): "Permission denied",
            "socket": "denied",
        }
        # Were the socket opened up by mistake, authentication would still turn others away.
        os.chmod(db.socket_dir, 0o711)
        os.chmod(sock, 0o777)
        try:
            answer = as_user(outsider, pg_login, str(sock))
        finally:
            os.chmod(db.socket_dir, 0o700)
        assert answer.startswith("refused: ") and "authentication failed" in answer, answer
    assert ancestors(data) == before  # no parent was opened up
    assert not db.socket_dir.exists()


def test_an_outsider_cannot_reach_the_database_of_a_normal_user(outsider: User) -> None:
    with os_user("lte-op-") as operator:
        home = Path(tempfile.mkdtemp(prefix="lte-home-"))
        runtime = Path(tempfile.mkdtemp(prefix="lte-xdg-"))
        try:
            for d, m in ((home, 0o751), (runtime, 0o700)):
                os.chown(d, operator.uid, operator.gid)
                d.chmod(m)
            env = {"HOME": str(home), "XDG_RUNTIME_DIR": str(runtime)}
            until, stop = os.pipe()
            reported, report = os.pipe()
            pid = os.fork()
            if pid == 0:  # pragma: no cover - the operator's launcher
                os.close(stop)
                os.close(reported)
                _run_operator(operator, env, report, until)
            os.close(until)
            os.close(report)
            try:
                with os.fdopen(reported) as inp:
                    info = json.loads(inp.readline() or '{"error": "no report"}')
                assert "error" not in info, info
                data, sock_dir, log = Path(info["data"]), Path(info["socket_dir"]), Path(info["log"])
                assert info["current_user"] == "postgres"
                assert data == home / ".letta-tool-emulation" / "pgdata" and sock_dir.parent == runtime
                for path, wanted in ((data.parent, 0o700), (data, 0o700), (sock_dir, 0o700), (log, 0o600)):
                    assert (os.stat(path).st_uid, mode(path)) == (operator.uid, wanted), path
                seen = as_user(
                    outsider, probe, [str(home), str(data.parent)], [str(log)], str(sock_dir / ".s.PGSQL.5432")
                )
                assert seen == {
                    str(home): "Permission denied",  # 0751: enter, not list
                    str(data.parent): "Permission denied",
                    str(log): "Permission denied",
                    "socket": "denied",
                }
            finally:
                os.close(stop)  # the operator's launcher stops its database
                _, code = os.waitpid(pid, 0)
            assert code == 0
            assert mode(home) == 0o751 and not sock_dir.exists()
        finally:
            shutil.rmtree(home, ignore_errors=True)
            shutil.rmtree(runtime, ignore_errors=True)


def _run_operator(user: User, env: dict[str, str], report: int, until: int) -> None:  # pragma: no cover - child
    code = 1
    try:
        os.setgroups([])
        os.setgid(user.gid)
        os.setuid(user.uid)
        os.environ.update(env)
        with EmbeddedPostgres(log=lambda _: None) as db:
            conn = psycopg2.connect(db.uri)
            with conn.cursor() as cur:
                cur.execute("SELECT current_user")
                info = {
                    "data": str(db.data_dir),
                    "socket_dir": str(db.socket_dir),
                    "log": str(db.log_path),
                    "current_user": cur.fetchone()[0],
                }
            conn.close()
            os.write(report, (json.dumps(info) + "\n").encode())
            os.close(report)
            os.read(until, 1)  # until the test closes its end
        code = 0
    except BaseException as exc:  # noqa: BLE001 - reported to the test
        with contextlib.suppress(OSError):
            os.write(report, (json.dumps({"error": f"{type(exc).__name__}: {exc}"}) + "\n").encode())
    os._exit(code)


def sha(path: Path) -> str:
    """The socket directory name earlier versions derived from the data directory."""
    return hashlib.sha1(str(path).encode()).hexdigest()[:10]


@pytest.fixture
def sticky() -> Iterator[Callable[[], Path]]:
    """Directories like /tmp: everyone may add entries, only their owner may remove them."""
    made: list[Path] = []

    def make() -> Path:
        path = Path(tempfile.mkdtemp(prefix="lte-sticky-"))
        path.chmod(0o1777)
        made.append(path)
        return path

    yield make
    for path in made:
        shutil.rmtree(path, ignore_errors=True)


def test_links_planted_by_an_outsider_do_not_redirect_the_launcher(
    outsider: User, shared: Path, sticky: Callable[[], Path]
) -> None:
    victim = shared / "victim"
    victim.mkdir(mode=0o755)
    (victim / "keep").write_text("precious\n")
    (victim / "keep").chmod(0o644)

    def victim_state() -> tuple[Any, ...]:
        st, keep = os.stat(victim), os.stat(victim / "keep")
        return sorted(os.listdir(victim)), st.st_uid, mode(victim), keep.st_uid, mode(victim / "keep"), keep.st_size

    untouched = victim_state()

    # A link where the data directory should be.
    first = sticky()
    as_user(outsider, os.symlink, str(victim), str(first / "pgdata"))
    with pytest.raises(DatabaseError, match=f"symbolic link that belongs to {outsider.name}"):
        EmbeddedPostgres(first / "pgdata", log=lambda _: None).start()

    # A link where the log file goes.
    second = sticky()
    as_user(outsider, os.symlink, str(victim / "keep"), str(second / "postgres.log"))
    with pytest.raises(DatabaseError, match=r"postgres\.log is a symbolic link"):
        EmbeddedPostgres(second / "pgdata", log=lambda _: None).start()

    # A file of the outsider's where the log goes.
    fourth = sticky()
    as_user(outsider, lambda p: Path(p).write_text("mine\n"), str(fourth / "postgres.log"))
    with pytest.raises(DatabaseError, match=rf"postgres\.log belongs to {outsider.name}"):
        EmbeddedPostgres(fourth / "pgdata", log=lambda _: None).start()
    assert (fourth / "postgres.log").read_text() == "mine\n"

    # A directory of the outsider's where the data directory should be.
    third = sticky()
    as_user(outsider, os.mkdir, str(third / "pgdata"), 0o777)
    with pytest.raises(DatabaseError, match=f"belongs to {outsider.name}"):
        EmbeddedPostgres(third / "pgdata", log=lambda _: None).start()

    # A link at the socket directory earlier versions picked for long data directory paths.
    data = shared / ("long-" * 16) / "pgdata"
    planted = Path(tempfile.gettempdir()) / f"lte-pg-{sha(data)}"
    as_user(outsider, os.symlink, str(victim), str(planted))
    try:
        with EmbeddedPostgres(data, log=lambda _: None) as db:
            assert db.socket_dir is not None and db.socket_dir != planted
            assert (db.socket_dir / ".s.PGSQL.5432").is_socket()
        assert os.readlink(planted) == str(victim)
    finally:
        planted.unlink()

    assert victim_state() == untouched
    assert not any(p.name.startswith("lte-pg-") and p.is_dir() and p.owner() == outsider.name for p in shared.iterdir())


def test_a_database_with_trust_authentication_is_closed_at_the_next_start(outsider: User, tmp_path: Path) -> None:
    data = tmp_path / "pgdata"
    EmbeddedPostgres(data, log=lambda _: None).start().stop()
    (data / "pg_hba.conf").write_text("local all all trust\n")  # as earlier versions had it
    with EmbeddedPostgres(data, log=lambda _: None) as db:
        assert db.socket_dir is not None
        sock = db.socket_dir / ".s.PGSQL.5432"
        os.chmod(db.socket_dir, 0o711)  # opened up, to reach the authentication itself
        os.chmod(sock, 0o777)
        answer = as_user(outsider, pg_login, str(sock))
        assert answer.startswith("refused: ") and "authentication failed" in answer, answer
    hba = (data / "pg_hba.conf").read_text()
    assert "trust" not in hba and "peer map=lte" in " ".join(hba.split())
