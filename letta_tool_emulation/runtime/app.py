"""The ASGI app the server command runs, in every uvicorn worker: Letta's, behind the disk
guard when the database is embedded, and telling the launcher when this worker has started.

With several workers the first one answers /v1/health while the others are still starting,
and a worker's start-up (it writes Letta's base tools) can deadlock with an agent being
created at that moment. So each worker leaves a file named after its pid in the directory the
launcher gives it, once Letta's start-up is complete, and the launcher reports the server
ready only when every worker has done so.
"""

from __future__ import annotations

import logging
import os
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

from .disk_guard import ASGIApp, DiskGuard, Receive, Scope, Send
from .embedded_redis import SOCKET_ENV as REDIS_SOCKET_ENV

DATA_DIR_ENV = "LETTA_TOOL_EMULATION_DATA_DIR"
READY_DIR_ENV = "LETTA_TOOL_EMULATION_READY_DIR"

log = logging.getLogger("letta_tool_emulation")


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


def use_embedded_redis(path: str) -> None:
    """Point this worker's Redis client (Letta's, one per process) at the launcher's embedded
    Redis, over its unix socket: Letta builds its own only from LETTA_REDIS_HOST and _PORT (TCP)."""
    try:
        from letta.data_sources import redis_client
        from redis.asyncio import ConnectionPool, UnixDomainSocketConnection
    except ImportError as exc:
        log.warning("letta-tool-emulation: the embedded Redis cannot be used (%s); no background streaming", exc)
        return
    if not hasattr(redis_client, "_client_instance") or not hasattr(redis_client, "AsyncRedisClient"):
        log.warning("letta-tool-emulation: this letta's Redis client is unknown; the embedded Redis is not used")
        return
    client = redis_client.AsyncRedisClient()
    # The options Letta gives its own pool, over the socket instead of TCP.
    client.pool = ConnectionPool(
        connection_class=UnixDomainSocketConnection,
        path=path,
        max_connections=50,
        decode_responses=True,
        socket_timeout=5,
        socket_connect_timeout=5,
        retry_on_timeout=True,
        health_check_interval=30,
    )
    redis_client._client_instance = client


def create_app() -> ASGIApp:
    if os.environ.get(REDIS_SOCKET_ENV):
        use_embedded_redis(os.environ[REDIS_SOCKET_ENV])
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
