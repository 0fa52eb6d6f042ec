"""Which requests the disk guard refuses while the database's disk is full, and which it lets
through (the full server is exercised in tests/e2e/test_faults_database.py)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from letta_tool_emulation.runtime.disk_guard import DiskGuard, min_free_bytes


async def call(guard: DiskGuard, method: str, path: str) -> tuple[int, dict[str, Any]]:
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Any) -> None:
        sent.append(dict(message))

    await guard({"type": "http", "method": method, "path": path}, receive, send)
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return sent[0]["status"], json.loads(body)


async def letta(scope: Any, receive: Any, send: Any) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b'{"from": "letta"}'})


@pytest.mark.parametrize(
    ("method", "path", "refused"),
    [
        ("GET", "/v1/agents/agent-1/core-memory/blocks/human", False),
        ("HEAD", "/v1/health/", False),
        ("POST", "/v1/agents/messages/search", False),
        ("POST", "/v1/passages/search/", False),
        ("POST", "/v1/agents/agent-1/messages/preview-raw-payload", False),
        ("POST", "/v1/agents/agent-1/messages", True),
        ("POST", "/v1/agents/", True),
        ("PATCH", "/v1/agents/agent-1", True),
        ("DELETE", "/v1/agents/agent-1", True),
    ],
)
def test_a_full_disk_refuses_only_changes(tmp_path: Path, method: str, path: str, refused: bool) -> None:
    full = DiskGuard(letta, str(tmp_path), reserve=1 << 62)  # more than any disk has free
    status, body = asyncio.run(call(full, method, path))
    if refused:
        assert status == 507 and "disk that holds the server's database is full" in body["detail"]
        assert "nothing was changed" in body["detail"] and "Free space on that disk" in body["detail"]
    else:
        assert (status, body) == (200, {"from": "letta"})
    roomy = DiskGuard(letta, str(tmp_path), reserve=0)
    assert asyncio.run(call(roomy, method, path)) == (200, {"from": "letta"})


def test_reserve_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LETTA_TOOL_EMULATION_MIN_FREE_MB", "24")
    assert min_free_bytes() == 24 << 20
    monkeypatch.setenv("LETTA_TOOL_EMULATION_MIN_FREE_MB", "lots")
    assert min_free_bytes() == 200 << 20  # the default, with a warning
    monkeypatch.delenv("LETTA_TOOL_EMULATION_MIN_FREE_MB")
    assert min_free_bytes() == 200 << 20
