"""The server command run as root from an installation inside a private directory, as a new
user tries it on a server or in a container: a virtualenv inside root's home (mode 0700),
everything made and run under umask 077.

PostgreSQL cannot run as root, so it runs as the system user ``pgserver``, which cannot
reach programs inside such a directory; the launcher runs them from a copy that user can
reach. The installation here holds the PostgreSQL programs (the ``pgserver`` package) itself,
with private modes as pip leaves them under umask 077; the rest of its packages come from this
project's environment through a ``.pth`` file (nothing but the programs has to be reachable by
the postgres user).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import subprocess
import sys
import sysconfig
from collections.abc import Iterator
from pathlib import Path

import pytest

from letta_tool_emulation.runtime.stack import ServerProcess
from letta_tool_emulation.runtime.standin import EMULATED_MODEL, StandIn

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="runs the server as root (as the test machines run)")


@contextlib.contextmanager
def umask(mask: int) -> Iterator[None]:
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def private_installation(home: Path) -> Path:
    """A virtualenv in ``home`` (0700), made under umask 077; its server command."""
    import pgserver

    venv = home / "venv"
    project = Path(sysconfig.get_paths()["purelib"])
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = Path(next((venv / "lib").glob("python3*")), "site-packages")
    source = Path(pgserver.__file__).parent
    shutil.copytree(source, site / "pgserver", symlinks=True, copy_function=shutil.copy)
    if (source.parent / "pgserver.libs").is_dir():
        shutil.copytree(
            source.parent / "pgserver.libs", site / "pgserver.libs", symlinks=True, copy_function=shutil.copy
        )
    for directory, _subdirs, files in os.walk(site):  # what pip makes under umask 077
        os.chmod(directory, 0o700)
        for name in files:
            path = Path(directory, name)
            os.chmod(path, 0o700 if os.access(path, os.X_OK) else 0o600)
    # Found after this environment's own packages, so the private pgserver is the one imported.
    (site / "zz-project.pth").write_text(f"import site; site.addsitedir({str(project)!r})\n")
    command = venv / "bin" / "letta-tool-emulation"
    script = Path(sys.executable).parent / "letta-tool-emulation"
    body = script.read_text().split("\n", 1)[1]
    command.write_text(f"#!{venv / 'bin' / 'python'}\n{body}")
    command.chmod(0o700)
    return command


def test_the_server_command_starts_as_root_from_a_private_virtualenv(tmp_path: Path) -> None:
    home = tmp_path / "root-home"
    with umask(0o077):
        home.mkdir(mode=0o700)
        command = private_installation(home)
        standin = StandIn().start()
        server = ServerProcess(
            home / "run", command=str(command), VENICE_API_KEY="stand-in", VENICE_BASE_URL=standin.url
        )
        try:
            server.start()
            log = server.log()
            assert "cannot reach the PostgreSQL programs" in log and "running a copy in" in log, server.tail()
            copy = Path(log.split("running a copy in ", 1)[1].split()[0])
            assert copy.is_dir()
            client = server.client()
            assert f"venice/{EMULATED_MODEL}" in {m.handle for m in client.models.list()}
            agent = client.agents.create(
                model=f"venice/{EMULATED_MODEL}", memory_blocks=[{"label": "human", "value": "Name: Ana"}]
            )
            client.agents.messages.create(
                agent_id=agent.id, messages=[{"role": "user", "content": "Remember that I keep bees"}]
            )
            assert client.agents.blocks.retrieve("human", agent_id=agent.id).value == "Name: Ana\nI keep bees"
            assert server.stop() == 0, server.tail()
        finally:
            server.kill()
            standin.stop()
    assert not copy.exists(), "the copy of the programs outlived the server"
    assert mode(home) == 0o700 and mode(tmp_path) == 0o700  # nothing was opened up
    assert mode(Path(str(command)).parent) == 0o700
