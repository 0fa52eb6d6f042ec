"""End-to-end fixtures: the real server command, on the embedded PostgreSQL, talking to the
stand-in model, driven through letta-client. Outcomes are read back from the server."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from letta_tool_emulation.runtime.stack import COMMAND, ServerProcess, free_port
from letta_tool_emulation.runtime.standin import StandIn

__all__ = ["COMMAND", "Server", "free_port"]


class Server(ServerProcess):
    """The server command as the tests run it: the stand-in as Venice, a 10 s LLM timeout."""

    def __init__(self, root: Path, standin_url: str, port: int | None = None, **env: str) -> None:
        settings = {
            "VENICE_API_KEY": "test-key",
            "VENICE_BASE_URL": standin_url,
            "LETTA_LLM_REQUEST_TIMEOUT_SECONDS": "10",
        }
        super().__init__(root, port, **{**settings, **env})


def leftover_processes(marker: str) -> list[str]:
    """Processes whose command line mentions ``marker`` (a data directory) or that run inside it
    (PostgreSQL is given its directory as a descriptor), besides zombies."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            state = (entry / "stat").read_text().split(") ", 1)[1][0]
            cwd = os.readlink(entry / "cwd")
        except OSError:
            continue
        inside = cwd == marker or cwd.startswith(marker.rstrip("/") + "/")
        if (marker in cmdline or inside) and state != "Z":
            found.append(f"{entry.name}: {cmdline.strip()}")
    return found


def wait_gone(marker: str, timeout: float = 20) -> list[str]:
    deadline = time.monotonic() + timeout
    while (left := leftover_processes(marker)) and time.monotonic() < deadline:
        time.sleep(0.2)
    return left


@pytest.fixture(scope="session")
def standin() -> Iterator[StandIn]:
    with StandIn(port=free_port()) as s:
        yield s


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory, standin: StandIn) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("server"), standin.url).start()
    yield srv
    code = srv.stop()
    assert code == 0, srv.tail()
    assert wait_gone(str(srv.data_dir)) == []


@pytest.fixture
def letta(server: Server, standin: StandIn) -> Any:
    standin.reset(sloppy=False, seed=0)
    return server.client()


MODEL = "venice/venice-uncensored"
NATIVE = "venice/stand-in-native"


def new_agent(client: Any, kind: str = "letta_v1_agent", **kwargs: Any) -> Any:
    return client.agents.create(
        model=kwargs.pop("model", MODEL),
        agent_type=kind,
        memory_blocks=[
            {"label": "human", "value": "Name: Ana"},
            {"label": "persona", "value": "I am Sam, a helpful agent."},
        ],
        **kwargs,
    )


def block(client: Any, agent: Any, label: str = "human") -> str:
    return client.agents.blocks.retrieve(label, agent_id=agent.id).value


def say(client: Any, agent: Any, text: str) -> Any:
    return client.agents.messages.create(agent_id=agent.id, messages=[{"role": "user", "content": text}])


def stream(client: Any, agent: Any, text: str) -> list[Any]:
    return list(
        client.agents.messages.create(
            agent_id=agent.id, messages=[{"role": "user", "content": text}], streaming=True, stream_tokens=True
        )
    )


def of_type(messages: list[Any], kind: str) -> list[Any]:
    return [m for m in messages if getattr(m, "message_type", None) == kind]
