"""Refusing changes, and only changes, while the disk under the embedded database is full.

When its disk fills, PostgreSQL fails the write that needed the space, and it stops altogether
if its write-ahead log cannot grow. The server therefore refuses requests that change
something while less than a reserve is free (LETTA_TOOL_EMULATION_MIN_FREE_MB, default 200),
with a 507 that says why and what to do; reading agents, memory and messages keeps working.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

MIN_FREE_ENV = "LETTA_TOOL_EMULATION_MIN_FREE_MB"
DEFAULT_MIN_FREE_MB = 200
_READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# POST endpoints of Letta's API that only read.
_READ_POST_SUFFIXES = ("/search", "/preview-raw-payload")

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

log = logging.getLogger("letta_tool_emulation.disk")


def min_free_bytes() -> int:
    raw = os.environ.get(MIN_FREE_ENV, "")
    try:
        mb = float(raw) if raw else DEFAULT_MIN_FREE_MB
    except ValueError:
        log.warning("%s=%r is not a number of megabytes; using %d", MIN_FREE_ENV, raw, DEFAULT_MIN_FREE_MB)
        mb = DEFAULT_MIN_FREE_MB
    return int(max(mb, 0) * 1024 * 1024)


def free_bytes(path: str) -> int:
    st = os.statvfs(path)
    return st.f_bavail * st.f_frsize  # what an unprivileged user (PostgreSQL) may still use


def changes_something(method: str, path: str) -> bool:
    if method in _READ_METHODS:
        return False
    return not (method == "POST" and path.rstrip("/").endswith(_READ_POST_SUFFIXES))


def refusal(free: int, reserve: int) -> str:
    return (
        f"The disk that holds the server's database is full ({free / 1048576:.0f} MB free; the server keeps "
        f"{reserve / 1048576:.0f} MB in reserve), so changes are refused until space is freed: nothing was "
        "changed. Reading agents, memory and messages still works. Free space on that disk and send the "
        "request again."
    )


class DiskGuard:
    """ASGI middleware: 507 for requests that change something while the disk is full."""

    def __init__(self, app: ASGIApp, data_dir: str, reserve: int | None = None) -> None:
        self.app = app
        self.data_dir = data_dir
        self.reserve = min_free_bytes() if reserve is None else reserve
        self.full = False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and changes_something(scope["method"], scope["path"]):
            free = free_bytes(self.data_dir)
            if free < self.reserve:
                if not self.full:
                    log.warning(
                        "The disk holding %s has %.0f MB free, less than the %.0f MB reserve (%s): refusing "
                        "changes until space is freed.",
                        self.data_dir,
                        free / 1048576,
                        self.reserve / 1048576,
                        MIN_FREE_ENV,
                    )
                    self.full = True
                await _answer(send, 507, refusal(free, self.reserve))
                return
            if self.full:
                log.warning("The disk holding %s has space again: changes are accepted.", self.data_dir)
                self.full = False
        await self.app(scope, receive, send)


async def _answer(send: Send, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
