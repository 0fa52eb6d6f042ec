"""The embedded Redis on a machine shared with other users: a second, unprivileged OS user
tries to reach it (see test_database_privacy for how that user is made and run)."""

from __future__ import annotations

import os
import pwd
import socket
import stat
from pathlib import Path

import pytest

from letta_tool_emulation.runtime.database import PG_USER_WHEN_ROOT
from letta_tool_emulation.runtime.embedded_redis import EmbeddedRedis, ping

from .test_database_privacy import User, as_user, outsider  # noqa: F401 - outsider is a fixture

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="creates OS users: needs root (as the test machines run)")


def redis_probe(socket_dir: str, socket_path: str) -> dict[str, str]:
    out = {}
    try:
        os.listdir(socket_dir)
        out["directory"] = "listed"
    except OSError as exc:
        out["directory"] = exc.strerror or type(exc).__name__
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.connect(socket_path)
            s.sendall(b"PING\r\n")
            out["socket"] = s.recv(16).decode(errors="replace").strip()
    except OSError as exc:
        out["socket"] = exc.strerror or type(exc).__name__
    return out


def test_an_outsider_cannot_reach_the_redis_of_a_root_launcher(outsider: User, tmp_path: Path) -> None:  # noqa: F811
    service = pwd.getpwnam(PG_USER_WHEN_ROOT)
    with EmbeddedRedis(tmp_path, log=lambda _: None) as r:
        assert r.proc is not None and r.socket_dir is not None
        status = Path(f"/proc/{r.proc.pid}/status").read_text()
        assert f"Uid:\t{service.pw_uid}\t" in status  # never as root
        st = os.stat(r.socket_dir)
        assert (st.st_uid, stat.S_IMODE(st.st_mode)) == (service.pw_uid, 0o700)
        assert stat.S_IMODE(os.stat(r.socket_path).st_mode) == 0o700
        log = os.stat(r.log_path)
        assert (log.st_uid, stat.S_IMODE(log.st_mode)) == (0, 0o600)
        assert ping(r.socket_path)  # the launcher's own user (root) gets in
        listening = Path("/proc/net/tcp").read_text() + Path("/proc/net/tcp6").read_text()
        inodes = {os.readlink(f"/proc/{r.proc.pid}/fd/{fd}") for fd in os.listdir(f"/proc/{r.proc.pid}/fd")}
        sockets = {i[len("socket:[") : -1] for i in inodes if i.startswith("socket:[")}
        assert not any(line.split()[9] in sockets for line in listening.splitlines()[1:])  # no TCP socket at all
        seen = as_user(outsider, redis_probe, str(r.socket_dir), str(r.socket_path))
        assert seen == {"directory": "Permission denied", "socket": "Permission denied"}
        socket_dir = r.socket_dir
    assert not socket_dir.exists()
