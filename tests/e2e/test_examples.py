"""The example scripts run as documented, against the local server and the stand-in model."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .conftest import Server

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def run(name: str, server: Server, **env: str) -> str:
    full_env = {**os.environ, "LETTA_BASE_URL": server.url, **env}
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / name)], capture_output=True, text=True, env=full_env, timeout=300, check=False
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


def test_remember_preference(server: Server, letta: Any) -> None:
    out = run("remember_preference.py", server)
    assert "tool call:   memory_insert(" in out and "after:  'Name: Ana\\nI like pizza'" in out


@pytest.mark.parametrize("embedding", [None, "venice/text-embedding-bge-m3"], ids=["text", "embeddings"])
def test_archival_notes(server: Server, letta: Any, embedding: str | None) -> None:
    out = run("archival_notes.py", server, **({"LETTA_EMBEDDING": embedding} if embedding else {}))
    assert "tool call:   archival_memory_insert(" in out and "tool call:   archival_memory_search(" in out
    assert "passages: ['the project launch is on March 3rd in Lisbon']" in out


def test_custom_tool(server: Server, letta: Any) -> None:
    out = run("custom_tool.py", server)
    assert 'tool call:   roll_dice({"sides": 20, "count": 2})' in out
    assert "tool result: [success] rolled [" in out


def test_streaming(server: Server, letta: Any) -> None:
    out = run("streaming.py", server)
    assert "[calling memory_insert]" in out and "[success]" in out
    assert "TOOL_CALL" not in out
    assert "memory: 'Name: Ana\\nI play the cello'" in out


def test_parse_reply_without_letta(server: Server) -> None:
    out = run("parse_reply.py", server)
    assert "call: memory_insert {'label': 'human', 'new_string': 'Likes pizza.'} confidence=1.0" in out
