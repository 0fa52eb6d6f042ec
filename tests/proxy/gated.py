"""An upstream the test steers step by step: it streams what the test puts in its queue,
records the headers it was sent, and notes when the proxy abandons a request. The stand-in
answers from scripts at its own pace; these tests need to hold a reply half-way."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import AsyncIterator
from typing import Any

import anyio
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from letta_tool_emulation.runtime.stack import free_port

MODEL = "gated-model"


def chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
    payload = {"id": "chatcmpl-gated", "object": "chat.completion.chunk", "created": 1, "model": MODEL,
               "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}  # fmt: skip
    return f"data: {json.dumps(payload)}\n\n".encode()


class LiveStream(StreamingResponse):
    """A streamed answer that stops as soon as its client (here the proxy) disconnects, even
    while it waits for the next piece (Starlette's own only notices when it next sends
    something, under ASGI 2.4)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async with anyio.create_task_group() as group:

            async def stream_then_stop() -> None:
                with contextlib.suppress(OSError):  # the client went away while we were sending
                    await self.stream_response(send)
                group.cancel_scope.cancel()

            group.start_soon(stream_then_stop)
            await self.listen_for_disconnect(receive)
            group.cancel_scope.cancel()


class Gated:
    def __init__(self) -> None:
        self.port = free_port()
        self.headers: list[dict[str, str]] = []
        self.bodies: list[dict[str, Any]] = []
        self.pieces: asyncio.Queue[bytes | None] | None = None
        self.abandoned = threading.Event()  # the proxy closed a request before its end
        self.loop: asyncio.AbstractEventLoop | None = None
        routes = [Route("/v1/models", self._models), Route("/v1/chat/completions", self._chat, methods=["POST"])]
        app = Starlette(routes=routes)
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="off")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> Gated:
        self._thread.start()
        deadline = time.monotonic() + 30
        while not self._server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=10)

    def send(self, piece: bytes | None) -> None:
        """Stream ``piece`` to the request in progress (None ends the stream)."""
        assert self.loop is not None and self.pieces is not None
        self.loop.call_soon_threadsafe(self.pieces.put_nowait, piece)

    async def _models(self, request: Request) -> Response:
        return JSONResponse({"object": "list", "data": [{"id": MODEL, "object": "model", "owned_by": "test"}]})

    async def _chat(self, request: Request) -> Response:
        self.headers.append(dict(request.headers))
        self.bodies.append(await request.json())
        self.loop, self.pieces = asyncio.get_running_loop(), asyncio.Queue()
        if not self.bodies[-1].get("stream"):
            try:  # a whole answer that never comes, until the proxy gives up on it
                while (await request.receive())["type"] != "http.disconnect":
                    pass
            finally:
                self.abandoned.set()
            return Response(status_code=500)
        return LiveStream(self._stream(), media_type="text/event-stream")

    async def _stream(self) -> AsyncIterator[bytes]:
        assert self.pieces is not None
        finished = False
        try:
            while (piece := await self.pieces.get()) is not None:
                yield piece
            finished = True
        finally:
            if not finished:
                self.abandoned.set()
