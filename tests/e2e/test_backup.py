"""Backing up the embedded database through its socket while the server runs, and restoring
it into a new data directory, exactly as the README tells an operator to."""

from __future__ import annotations

import re
import signal
import subprocess
from pathlib import Path
from typing import Any

from pgserver._commands import POSTGRES_BIN_PATH

from .conftest import COMMAND, Server, block, new_agent, say


def pg(program: str, *args: str | Path) -> str:
    return subprocess.run(
        [str(POSTGRES_BIN_PATH / program), *map(str, args)], capture_output=True, text=True, check=True, timeout=120
    ).stdout


def content(socket_dir: str) -> list[str]:
    """The database as SQL, without pg_dump's comments."""
    sql = pg("pg_dump", "-h", socket_dir, "-U", "postgres", "letta")
    return [line for line in sql.splitlines() if not line.startswith("--")]


def test_backup_through_the_socket_and_restore_into_a_new_data_directory(
    server: Server, letta: Any, tmp_path: Path
) -> None:
    agent = new_agent(letta)
    say(letta, agent, "Remember that I keep bees")
    assert block(letta, agent) == "Name: Ana\nI keep bees"
    live = server.socket_dir()
    assert live is not None
    backup = tmp_path / "letta.dump"
    pg("pg_dump", "-h", live, "-U", "postgres", "-Fc", "-f", backup, "letta")  # while the server runs
    original = content(live)

    restored = tmp_path / "restored" / "pgdata"
    alone = subprocess.Popen(
        [COMMAND, "server", "--database-only", "--data-dir", str(restored)],
        env=server.env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert alone.stdout is not None
        lines = []
        for line in alone.stdout:
            lines.append(line)
            if "PostgreSQL is running without Letta" in line:
                break
        found = re.search(r"-h (\S+) -U postgres letta", "".join(lines))
        assert found, "".join(lines)
        pg("pg_restore", "-h", found[1], "-U", "postgres", "-d", "letta", backup)
        copy = content(found[1])
    finally:
        alone.send_signal(signal.SIGINT)
        assert alone.wait(60) == 0
    assert copy == original
    assert any(agent.id in line for line in copy) and any("I keep bees" in line for line in copy)
