"""Background streaming (``background=True``) on the server command, through its embedded Redis."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Any

import pytest
import redis

from .conftest import MODEL, NATIVE, Server, new_agent


def redis_socket(server: Server) -> Path:
    found = re.findall(r"Embedded Redis ready in [\d.]+ s \(socket (/\S+)\)", server.log())
    assert found, "the launcher did not say where its Redis listens"
    return Path(found[-1])


def messages_of(stream: Any) -> list[Any]:
    return [m for m in stream if getattr(m, "message_type", None) not in ("ping", None)]


@pytest.mark.parametrize("model", [MODEL, NATIVE])
def test_a_background_stream_runs_and_can_be_read_again(server: Server, letta: Any, model: str) -> None:
    agent = new_agent(letta, model=model)
    first = messages_of(
        letta.agents.messages.stream(
            agent_id=agent.id,
            messages=[{"role": "user", "content": "Remember that I like pizza"}],
            stream_tokens=True,
            background=True,
        )
    )
    kinds = [m.message_type for m in first]
    assert "tool_call_message" in kinds and "tool_return_message" in kinds, kinds
    assert kinds[-2:] == ["stop_reason", "usage_statistics"] and first[-2].stop_reason == "end_turn"
    run_id = next(m.run_id for m in first if getattr(m, "run_id", None))
    # The run's stream is kept in Redis: a client can read it again from the start.
    again = messages_of(letta.runs.messages.stream(run_id=run_id, starting_after=0))
    assert [m.message_type for m in again] == kinds
    assert letta.runs.retrieve(run_id=run_id).status == "completed"
    assert letta.agents.blocks.retrieve("human", agent_id=agent.id).value == "Name: Ana\nI like pizza"


def test_the_embedded_redis_is_private(server: Server) -> None:
    sock = redis_socket(server)
    assert stat.S_IMODE(os.stat(sock.parent).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(sock).st_mode) == 0o700
    client = redis.Redis(unix_socket_path=str(sock), decode_responses=True)
    assert client.ping()
    assert client.config_get("port") == {"port": "0"}  # no TCP listener at all
    assert client.config_get("save") == {"save": ""} and client.config_get("appendonly") == {"appendonly": "no"}
