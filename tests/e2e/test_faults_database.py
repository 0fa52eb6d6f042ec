"""Faults around the launcher and its database, on the real server: PostgreSQL killed in the
middle of a turn, SIGTERM to the server during a turn, a full disk under the data directory.

For each, the turn completes or fails with a clear error, memory is never half-applied, the
next turn works, and a restart finds every committed edit. The data directory lives on a small
tmpfs of its own, so the disk can really be filled (the logs stay elsewhere).
"""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import Server, block, new_agent, say, wait_gone

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="mounts a tmpfs: needs root (as the test machines run)")

# The tmpfs is small: keep the reserve under what it has free.
RESERVE = {"LETTA_TOOL_EMULATION_MIN_FREE_MB": "24"}
# What every agent's human block must read after its committed edits; checked after a restart.
committed: dict[str, str] = {}


@pytest.fixture(scope="module")
def disk(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    path = tmp_path_factory.mktemp("disk")
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=160m,mode=0700", "tmpfs", str(path)], check=True)
    try:
        yield path
    finally:
        subprocess.run(["umount", str(path)], check=True)


@pytest.fixture(scope="module")
def faulty(tmp_path_factory: pytest.TempPathFactory, disk: Path, standin: Any) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("faults"), standin.url, data_dir=disk / "pgdata", **RESERVE).start()
    yield srv
    if srv.proc is not None and srv.proc.poll() is None:
        assert srv.stop() == 0, srv.tail()
    assert wait_gone(str(srv.data_dir)) == []


def in_background(fn: Callable[[], Any]) -> tuple[threading.Thread, dict[str, Any]]:
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["result"] = fn()
        except Exception as exc:  # noqa: BLE001 - the test looks at it
            outcome["error"] = exc

    thread = threading.Thread(target=run)
    thread.start()
    return thread, outcome


def wait_for(check: Callable[[], bool], timeout: float = 60, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def model_asked(standin: Any) -> bool:
    return any("messages" in r for r in standin.requests)


def test_postgres_killed_mid_turn_is_started_again(faulty: Server, standin: Any) -> None:
    client = faulty.client()
    agent = new_agent(client)
    say(client, agent, "Remember that I like pizza")
    standin.reset()
    standin.state.latency = 2.0  # the model is thinking when PostgreSQL dies
    try:
        thread, outcome = in_background(lambda: say(client, agent, "Remember that I have a cat"))
        wait_for(lambda: model_asked(standin), what="the model request")
        postmaster = int((faulty.data_dir / "postmaster.pid").read_text().split("\n", 1)[0])
        os.kill(postmaster, signal.SIGKILL)
        thread.join(180)
    finally:
        standin.state.latency = 0.0
    wait_for(lambda: "PostgreSQL is running again" in faulty.log(), what="the restart")
    assert "PostgreSQL stopped unexpectedly (killed by signal 9); starting it again" in faulty.log()
    value = block(client, agent)
    response = outcome.get("result")
    if response is not None and response.stop_reason.stop_reason == "end_turn":
        assert value == "Name: Ana\nI like pizza\nI have a cat"  # the restart came in time
    else:  # the turn failed, as a failed turn: the edit is there entirely or not at all
        assert response is not None or getattr(outcome["error"], "status_code", 0) >= 500, outcome
        assert value in ("Name: Ana\nI like pizza", "Name: Ana\nI like pizza\nI have a cat")
    say(client, agent, "Remember that I play chess")
    assert block(client, agent) == value + "\nI play chess"
    committed[agent.id] = value + "\nI play chess"


def fill(path: Path) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        size = 1 << 20
        while size:
            try:
                os.write(fd, b"\0" * size)
            except OSError as exc:
                assert exc.errno == errno.ENOSPC
                size //= 2
    finally:
        os.close(fd)


def test_full_disk_refuses_changes_and_keeps_reads(faulty: Server, disk: Path) -> None:
    client = faulty.client()
    agent = new_agent(client)
    say(client, agent, "Remember that I like tea")
    filler = disk / "filler"
    fill(filler)
    try:
        assert os.statvfs(disk).f_bavail == 0
        with pytest.raises(Exception) as refused:
            say(client, agent, "Remember that I like coffee")
        assert refused.value.status_code == 507
        detail = refused.value.body["detail"]
        assert "disk that holds the server's database is full" in detail and "Free space" in detail
        with pytest.raises(Exception) as also:
            new_agent(client)
        assert also.value.status_code == 507
        # Reads keep working, and nothing of the refused turn was applied.
        assert block(client, agent) == "Name: Ana\nI like tea"
        assert client.agents.retrieve(agent.id).id == agent.id
        texts = [getattr(m, "content", "") for m in client.agents.messages.list(agent_id=agent.id)]
        assert any("I like tea" in str(t) for t in texts) and not any("coffee" in str(t) for t in texts)
    finally:
        filler.unlink()
    say(client, agent, "Remember that I like coffee")
    assert block(client, agent) == "Name: Ana\nI like tea\nI like coffee"
    log = faulty.log()
    assert "refusing changes until space is freed" in log and "has space again" in log
    committed[agent.id] = "Name: Ana\nI like tea\nI like coffee"


def test_sigterm_during_a_turn_finishes_it_then_stops(faulty: Server, standin: Any) -> None:
    client = faulty.client()
    agent = new_agent(client)
    standin.reset()
    standin.state.latency = 2.0
    try:
        thread, outcome = in_background(lambda: say(client, agent, "Remember that I like cats"))
        wait_for(lambda: model_asked(standin), what="the model request")
        assert faulty.proc is not None
        faulty.proc.send_signal(signal.SIGTERM)
        thread.join(180)
        assert faulty.proc.wait(120) == 0, faulty.tail()
    finally:
        standin.state.latency = 0.0
    assert "error" not in outcome, outcome.get("error")  # the turn in progress was finished
    committed[agent.id] = "Name: Ana\nI like cats"
    log = faulty.log()
    assert "Stopping the Letta server (requests in progress finish first)" in log and "Database stopped." in log
    assert wait_gone(str(faulty.data_dir)) == []

    again = Server(faulty.root, standin.url, data_dir=faulty.data_dir, **RESERVE).start()
    try:
        client = again.client()
        for agent_id, value in committed.items():
            assert client.agents.blocks.retrieve("human", agent_id=agent_id).value == value
        say(client, agent, "Remember that I like owls")
        assert block(client, agent) == "Name: Ana\nI like cats\nI like owls"

        # Finally, a PostgreSQL that keeps dying: started again three times, then a clear stop.
        seen = len(again.log())  # the log file is shared with the server before

        def restarts() -> int:
            return again.log()[seen:].count("PostgreSQL is running again")

        for n in range(1, 5):
            postmaster = int((again.data_dir / "postmaster.pid").read_text().split("\n", 1)[0])
            os.kill(postmaster, signal.SIGKILL)
            if n <= 3:
                wait_for(lambda n=n: restarts() == n, what=f"restart {n}")
        assert again.proc is not None and again.proc.wait(120) == 4
        log = again.log()[seen:]
        assert "PostgreSQL stopped unexpectedly (killed by signal 9) for the 4th time in 5 minutes" in log
        assert "every committed change is kept" in log and "Database stopped." in log
    finally:
        if again.proc is not None and again.proc.poll() is None:
            again.kill()
    assert wait_gone(str(faulty.data_dir)) == []
