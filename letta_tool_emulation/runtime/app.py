"""The ASGI app the server command runs, in every uvicorn worker: Letta's, behind the disk
guard when the database is embedded, and telling the launcher when this worker has started.

With several workers the first one answers /v1/health while the others are still starting,
and a worker's start-up (it writes Letta's base tools) can deadlock with an agent being
created at that moment. So each worker leaves a file named after its pid in the directory the
launcher gives it, once Letta's start-up is complete, and the launcher reports the server
ready only when every worker has done so.
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

from .disk_guard import ASGIApp, DiskGuard, Receive, Scope, Send

DATA_DIR_ENV = "LETTA_TOOL_EMULATION_DATA_DIR"
READY_DIR_ENV = "LETTA_TOOL_EMULATION_READY_DIR"


class ReadyMarker:
    """ASGI middleware: a file for this worker in ``directory`` once the app has started."""

    def __init__(self, app: ASGIApp, directory: str) -> None:
        self.app = app
        self.directory = Path(directory)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "lifespan":
            await self.app(scope, receive, send)
            return

        async def tell(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "lifespan.startup.complete":
                (self.directory / str(os.getpid())).write_text("")
            await send(message)

        await self.app(scope, receive, tell)


def create_app() -> ASGIApp:
    from letta.server.rest_api.app import app

    from .. import shared_state

    # Connected now, so that what other workers and servers learned is known before the first
    # request (and the retry budget's first call does not pay for the connection).
    shared_state.start()

    wrapped: ASGIApp = app
    if os.environ.get(DATA_DIR_ENV):
        wrapped = DiskGuard(wrapped, os.environ[DATA_DIR_ENV])
    if os.environ.get(READY_DIR_ENV):
        wrapped = ReadyMarker(wrapped, os.environ[READY_DIR_ENV])
    return wrapped
