"""Two servers on one database, as two hosts behind a load balancer would run: each with its
own state directory (no file in common), one PostgreSQL. The retry budget of their shared key
lives in that database, so fifty failing turns spread over both stay within one budget, and
the provider never locks the key (tests/e2e/test_upstream.py has the one-server version)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from letta_client import APIStatusError

from letta_tool_emulation.runtime.standin import Scripted, StandIn

from .conftest import COMMAND, Server, new_agent, say, wait_gone

BUDGET = 15  # LETTA_TOOL_EMULATION_RETRY_BUDGET's default


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The embedded PostgreSQL alone (``server --database-only``); its URI."""
    root = tmp_path_factory.mktemp("shared-db")
    proc = subprocess.Popen(
        [COMMAND, "server", "--database-only", "--data-dir", str(root / "pgdata")],
        env={**{k: v for k, v in os.environ.items() if not k.startswith(("LETTA_", "VENICE_"))}, "HOME": str(root)},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert proc.stdout is not None
    lines = []
    for line in proc.stdout:
        lines.append(line)
        if "PostgreSQL is running without Letta" in line:
            break
    found = re.search(r"-h (\S+) -U postgres letta", "".join(lines))
    assert found, "".join(lines)
    threading.Thread(target=proc.stdout.read, daemon=True).start()  # keep its pipe drained
    yield f"postgresql://postgres@localhost/letta?host={found[1]}"
    proc.send_signal(signal.SIGINT)
    assert proc.wait(60) == 0
    assert wait_gone(str(root / "pgdata")) == []


@pytest.fixture(scope="module")
def standin() -> Iterator[StandIn]:
    with StandIn() as s:
        yield s


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory, standin: StandIn, database: str) -> Iterator[list[Server]]:
    started: list[Server] = []
    for host in ("host-a", "host-b"):
        root = tmp_path_factory.mktemp(host)
        started.append(
            Server(root, standin.url, LETTA_PG_URI=database, LETTA_TOOL_EMULATION_STATE_DIR=str(root / "state"))
        )
    threads = [threading.Thread(target=s.start) for s in started]
    for t in threads:
        t.start()
    for t in threads:
        t.join(600)
    for s in started:
        assert s.proc is not None and s.proc.poll() is None, s.tail()
    yield started
    for s in started:
        assert s.stop() == 0, s.tail()


def test_fifty_failing_turns_over_two_servers_stay_within_one_budget(servers: list[Server], standin: StandIn) -> None:
    clients = [s.client() for s in servers]
    agents: list[Any] = [None] * 50

    def create(i: int) -> None:
        agents[i] = new_agent(clients[i % 2])

    for group in range(0, 50, 10):
        threads = [threading.Thread(target=create, args=(i,)) for i in range(group, group + 10)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(180)
    assert all(a is not None for a in agents)
    standin.reset()
    standin.script(*[Scripted(status=500, error="Inference failed", delay=0.2)] * 400)
    errors: list[tuple[int, str]] = []
    unexpected: list[BaseException] = []

    def turn(i: int) -> None:
        try:
            say(clients[i % 2], agents[i], "Remember that the sky is green")
            unexpected.append(AssertionError("a turn succeeded against a failing upstream"))
        except APIStatusError as exc:
            errors.append((i % 2, json.dumps(exc.body)))
        except BaseException as exc:  # noqa: BLE001 - reported below
            unexpected.append(exc)

    threads = [threading.Thread(target=turn, args=(i,)) for i in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    assert unexpected == []
    assert len(errors) == 50 and {side for side, _ in errors} == {0, 1}
    assert standin.state.keys.blocked == [], "the key was locked out"
    # Every request failed, so this is every request the upstream saw in any 30 s: one budget's
    # worth for both servers (the turns may take longer than a window on a busy machine).
    assert 0 < standin.state.keys.max_failures_in_window() <= BUDGET
    # Each server turned requests away because the budget both share was spent.
    assert {side for side, e in errors if "rather than risk the provider blocking the key" in e} == {0, 1}
    for s in servers:  # and neither kept a budget of its own in a file
        assert list(Path(s.env["LETTA_TOOL_EMULATION_STATE_DIR"]).glob("budget-*")) == []
    standin.reset()
