"""The proxy's HTTP surface: OpenAI's ``/v1/models`` and ``/v1/chat/completions`` (and
``/v1/embeddings`` passed through), LM Studio's ``/api/v0/models`` for the context windows,
client keys, OpenAI-style errors, and requests cancelled when their client goes away.

A request keeps nothing after it is answered. What requests share is what they must: the
retry budget of the upstream key (``retry.py``), one connection pool, what is known about
the upstream's models, and the attested sessions of end-to-end encrypted models.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hmac
import json
import logging
import os
import time
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Mapping
from contextlib import asynccontextmanager
from typing import Any, TypeVar

from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from .. import engine, venice
from ..core.prompt import forced_tool_name
from ..step import Settings
from . import wire
from .driver import Emulated, open_upstream, read_all, relay, relayed_headers, transport_for
from .errors import Failure, ProxyError, failure_of
from .transport import loads
from .upstream import MODE_HEADER, MODES, Mode, Upstream

log = logging.getLogger("letta_tool_emulation.proxy")
# What the turn engine has to say, under the plugin's logger name, as from the plugin's own steps.
ENGINE_LOG = logging.getLogger("letta_tool_emulation")
T = TypeVar("T")

SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


class ClientGone(Exception):
    """The client disconnected while its request was being served."""


async def until_disconnect(request: Request, work: Awaitable[T]) -> T:
    """``work``, cancelled if the client disconnects first (the request body is read by then)."""

    async def watch() -> None:
        while (await request.receive())["type"] != "http.disconnect":
            pass

    task = asyncio.ensure_future(work)
    watcher = asyncio.ensure_future(watch())
    try:
        await asyncio.wait({task, watcher}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        watcher.cancel()
    if not task.done():
        task.cancel()
        raise ClientGone
    return task.result()


def create_app(upstream: Upstream, client_key: str | None = None) -> ASGIApp:
    """``client_key``: what clients must send (``Authorization: Bearer ...``); None: any client."""

    def denied(request: Request) -> Response | None:
        if client_key is None or _key_matches(request.headers, client_key):
            return None
        return JSONResponse(_DENIED, status_code=401)

    async def models(request: Request) -> Response:
        if (refused := denied(request)) is not None:
            return refused
        try:
            entries = await until_disconnect(request, upstream.fetch_models())
        except ClientGone:
            return Response(status_code=499)
        except Exception as exc:  # noqa: BLE001 - every failure becomes an error answer
            return _failure(failure_of(_as_sdk_error(exc), "the model list"))
        for entry in entries:
            context, output = upstream.context_window(entry["id"]), upstream.output_limit(entry["id"])
            if context:
                entry.setdefault("context_length", context)
            if output:
                entry.setdefault("max_completion_tokens", output)
            entry.setdefault("object", "model")
        return JSONResponse({"object": "list", "data": entries})

    async def lmstudio_models(request: Request) -> Response:
        # LM Studio's listing, which LM Studio connectors read a model's context window from.
        if (refused := denied(request)) is not None:
            return refused
        try:
            entries = await until_disconnect(request, upstream.fetch_models())
        except ClientGone:
            return Response(status_code=499)
        except Exception as exc:  # noqa: BLE001
            return _failure(failure_of(_as_sdk_error(exc), "the model list"))
        data = []
        for entry in entries:
            embedding = str(entry.get("type", "")).startswith("embedding")
            item: dict[str, Any] = {"id": entry["id"], "object": "model", "type": "embeddings" if embedding else "llm"}
            context = upstream.context_window(entry["id"])
            if context:
                item["max_context_length"] = context
            data.append(item)
        return JSONResponse({"object": "list", "data": data})

    async def embeddings(request: Request) -> Response:
        if (refused := denied(request)) is not None:
            return refused
        raw = await request.body()
        started = time.perf_counter()
        try:
            response = await until_disconnect(request, open_upstream(upstream, "/embeddings", raw, stream=False))
            try:
                content = await until_disconnect(request, read_all(response))
            finally:
                response.close()  # a no-op once read_all gave the connection back
        except ClientGone:
            return Response(status_code=499)
        except Exception as exc:  # noqa: BLE001
            failure = failure_of(exc, "embeddings")
            _log("POST /v1/embeddings", "-", "pass-through", failure.status, started)
            return _failure(failure)
        _log("POST /v1/embeddings", "-", "pass-through", response.status, started)
        return Response(content, status_code=response.status, headers=relayed_headers(response))

    async def chat(scope: Scope, receive: Receive, send: Send) -> None:
        # Served as plain ASGI, outside Starlette's middleware, routing and response classes,
        # which cost more per request than the proxy's own decisions: every request here
        # answers itself, and a failure of any kind becomes an error answer.
        headers = Headers(scope=scope)
        if client_key is not None and not _key_matches(headers, client_key):
            await _send_json(send, 401, _DENIED)
            return
        started = time.perf_counter()
        raw = await _body(receive)
        if raw is None:
            return  # the client left before it finished sending
        model, mode, streaming = "-", "-", False
        with _Watch(receive) as watch:
            try:
                body = _read(raw)
                model, stream = body["model"], body.get("stream") is True
                decision = upstream.decide(model, _mode(headers.get(MODE_HEADER)))
                if decision.e2ee:
                    mode = "end-to-end encrypted"
                elif decision.emulate and _carries_tools(body):
                    mode = "emulated"
                else:
                    mode = "pass-through"
                if mode == "pass-through":
                    raw = _bounded(upstream, body, raw)
                    opened = await open_upstream(upstream, "/chat/completions", raw, stream)
                    relayed = relayed_headers(opened)
                    if stream:
                        _log("POST /v1/chat/completions", model, mode, opened.status, started)
                        streaming = True
                        await _send_stream(send, opened.status, {**SSE_HEADERS, **relayed}, relay(opened))
                        return
                    try:
                        content = await read_all(opened)
                    finally:
                        opened.close()  # a no-op once read_all gave the connection back
                    _log("POST /v1/chat/completions", model, mode, opened.status, started)
                    await _send(send, opened.status, content, relayed)
                    return
                driver = Emulated(
                    prepare_request(upstream, body, decision), transport_for(upstream, decision, model), model
                )
                if not stream:
                    result = await driver.complete()
                    _log("POST /v1/chat/completions", model, mode, 200, started)
                    await _send_json(send, 200, result)
                    return
                include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
                chunks = driver.stream(include_usage)
                try:
                    first = await chunks.__anext__()
                except BaseException:
                    await chunks.aclose()
                    raise
                _log("POST /v1/chat/completions", model, mode, 200, started)
                streaming = True
                await _send_stream(send, 200, _EVENT_STREAM, _guarded(first, chunks, model), last=wire.DONE)
            except asyncio.CancelledError:
                if not watch.gone:
                    raise
                log.info(
                    "proxy: the client of a request for %s disconnected; its upstream request was cancelled", model
                )
            except Exception as exc:  # every failure becomes an OpenAI-style error answer
                if streaming:
                    raise  # the status is sent: the server ends the connection, the client sees the stream cut
                failure = failure_of(exc, model)
                if failure.status >= 500 and not isinstance(exc, ProxyError):
                    log.warning("proxy: %s failed: %s", model, failure.message, exc_info=failure.status == 500)
                _log("POST /v1/chat/completions", model, mode, failure.status, started)
                await _send_json(send, failure.status, failure.body, failure.headers)

    async def health(request: Request) -> Response:
        return JSONResponse({"status": "ok"})

    async def not_found(request: Request, exc: Exception) -> Response:
        return _failure(ProxyError(404, f"No route {request.method} {request.url.path} on this proxy.").failure)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await upstream.refresh()
        upstream.start_refreshing()
        try:
            yield
        finally:
            await upstream.close()

    rest = Starlette(
        routes=[
            Route("/v1/models", models),
            Route("/v1/embeddings", embeddings, methods=["POST"]),
            Route("/api/v0/models", lmstudio_models),
            Route("/health", health),
        ],
        exception_handlers={404: not_found, 405: not_found},
        lifespan=lifespan,
    )

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] == "/v1/chat/completions" and scope["method"] == "POST":
            await chat(scope, receive, send)
        else:  # other methods on that path get Starlette's answer, a 405 in OpenAI's shape
            await rest(scope, receive, send)

    return app


_DENIED = wire.error_body(
    "Missing or wrong API key: send the proxy's key as 'Authorization: Bearer <key>'.", "authentication_error",
    "invalid_api_key",
)  # fmt: skip
# What Starlette's responses send as the type of an event stream.
_EVENT_STREAM = {**SSE_HEADERS, "content-type": "text/event-stream; charset=utf-8"}


def _key_matches(headers: Headers, client_key: str) -> bool:
    auth = headers.get("authorization", "")
    given = auth[7:].strip() if auth[:7].lower() == "bearer " else headers.get("x-api-key", "")
    return bool(given) and hmac.compare_digest(given.encode(), client_key.encode())


async def _body(receive: Receive) -> bytes | None:
    """The request's body; None if the client disconnected before sending all of it."""
    pieces = []
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        pieces.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(pieces)


class _Watch:
    """Cancels the task that serves a request when its client disconnects, wherever it is
    waiting then (for the upstream, or to send): its upstream request ends with it. One task
    per request, which listens only once the request's body has been read."""

    def __init__(self, receive: Receive) -> None:
        self.receive = receive
        self.gone = False
        self._task: asyncio.Task[None] | None = None

    async def _listen(self, served: asyncio.Task[Any]) -> None:
        while (await self.receive())["type"] != "http.disconnect":
            pass
        self.gone = True
        served.cancel()

    def __enter__(self) -> _Watch:
        served = asyncio.current_task()
        assert served is not None
        self._task = asyncio.get_running_loop().create_task(self._listen(served))
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()
        if self.gone:
            served = asyncio.current_task()
            if served is not None:
                served.uncancel()  # the cancellation was this watch's, and has been handled


def _raw_headers(headers: Mapping[str, str]) -> list[tuple[bytes, bytes]]:
    return [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]


async def _send(send: Send, status: int, content: bytes, headers: Mapping[str, str]) -> None:
    """A whole answer, with the headers Starlette's ``Response`` would send."""
    raw = _raw_headers(headers)
    if status >= 200 and status not in (204, 304) and "content-length" not in headers:
        raw.append((b"content-length", str(len(content)).encode("latin-1")))
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": content})


async def _send_json(send: Send, status: int, payload: Any, headers: Mapping[str, str] | None = None) -> None:
    await _send(send, status, wire.dumps(payload), {**(headers or {}), "content-type": "application/json"})


async def _send_stream(
    send: Send, status: int, headers: Mapping[str, str], pieces: AsyncIterator[bytes], last: bytes | None = None
) -> None:
    """``last``: what the final piece ends with where ``pieces`` yields nothing after it (an
    emulated reply's ``[DONE]``): that piece ends the response, in the same write."""
    try:
        await send({"type": "http.response.start", "status": status, "headers": _raw_headers(headers)})
        with contextlib.suppress(OSError):  # the client went away while we were sending
            ended = False
            async for piece in pieces:
                if ended:
                    log.warning("proxy: %d bytes after the end of a stream were not sent", len(piece))
                    continue
                ended = last is not None and piece.endswith(last)
                await send({"type": "http.response.body", "body": piece, "more_body": not ended})
            if not ended:
                await send({"type": "http.response.body", "body": b"", "more_body": False})
    finally:
        if isinstance(pieces, AsyncGenerator):  # cancelled while sending: its upstream ends now, not when collected
            await pieces.aclose()


def _failure(failure: Failure) -> JSONResponse:
    return JSONResponse(failure.body, status_code=failure.status, headers=failure.headers)


def _log(route: str, model: str, mode: str, status: int, started: float) -> None:
    # Model ids and statuses only: prompts, replies and keys never reach the log.
    log.info("proxy: %s %s (%s) %d in %.0f ms", route, model, mode, status, (time.perf_counter() - started) * 1000)


def _as_sdk_error(exc: BaseException) -> BaseException:
    import httpx
    import openai

    if isinstance(exc, httpx.HTTPStatusError):
        try:
            body: Any = exc.response.json()
        except ValueError:
            body = exc.response.text
        return openai.APIStatusError(f"HTTP {exc.response.status_code}", response=exc.response, body=body)
    return exc


async def _guarded(first: bytes, chunks: AsyncIterator[bytes], model: str) -> AsyncIterator[bytes]:
    """The stream, with a failure after it began sent as an error event (the status is sent by
    then), which the OpenAI SDKs raise as an APIError."""
    yield first
    try:
        async for piece in chunks:
            yield piece
    except Exception as exc:  # noqa: BLE001 - reported to the client, in the stream
        failure = failure_of(exc, model)
        log.warning("proxy: the stream for %s failed after it began: %s", model, failure.message)
        yield wire.sse(failure.body)


# -- reading a request ------------------------------------------------------------------------------


def _read(raw: bytes) -> dict[str, Any]:
    try:
        body = loads(raw)  # orjson where it reads the body as json would: a tenth of the cost on long histories
    except ValueError:
        raise ProxyError(400, "The request body is not JSON.") from None
    if not isinstance(body, dict):
        raise ProxyError(400, "The request body must be a JSON object.")
    if not isinstance(body.get("model"), str) or not body["model"]:
        raise ProxyError(400, "'model' is required: one of the upstream's model ids (GET /v1/models).", param="model")
    if not isinstance(body.get("messages"), list) or not body["messages"]:
        raise ProxyError(400, "'messages' must be a non-empty array.", param="messages")
    if not all(isinstance(m, dict) for m in body["messages"]):
        raise ProxyError(400, "Each message must be a JSON object.", param="messages")
    if "tools" in body and body["tools"] is not None and not isinstance(body["tools"], list):
        raise ProxyError(400, "'tools' must be an array.", param="tools")
    return body


def _mode(header: str | None) -> Mode | None:
    if header is None or not header.strip():
        return None
    wanted = header.strip().lower()
    chosen = next((m for m in MODES if m == wanted), None)
    if chosen is None:
        raise ProxyError(400, f"The {MODE_HEADER} header must be one of {', '.join(MODES)} (got {header.strip()!r}).")
    return chosen


def _bounded(upstream: Upstream, body: dict[str, Any], raw: bytes) -> bytes:
    """The body as the client sent it, unless it asks for more output than the upstream says the
    model can give: clients that cannot know (Letta Code asks every model for 32,000 tokens) would
    get the upstream's 400 for that alone. Only then is the limit lowered and the body rewritten."""
    limit = upstream.output_limit(body["model"])
    fields = [
        k
        for k in ("max_tokens", "max_completion_tokens")
        if isinstance(body.get(k), int) and not isinstance(body.get(k), bool)
    ]
    if not limit or not any(body[k] > limit for k in fields):
        return raw
    return json.dumps({**body, **{k: min(body[k], limit) for k in fields}}, ensure_ascii=False).encode()


def _carries_tools(body: Mapping[str, Any]) -> bool:
    """Whether the request needs emulation on a model without tools: tools offered, a tool
    choice, or earlier calls and results in the history (``tools: []`` included)."""
    if any(key in body for key in ("tools", "tool_choice", "parallel_tool_calls")):
        return True
    return any(m.get("role") == "tool" or m.get("tool_calls") for m in body["messages"])


# The variables Settings.from_env reads: the settings are read again only when one of them changes.
_SETTINGS_ENV = ("LETTA_TOOL_EMULATION_MAX_RETRIES", "LETTA_TOOL_EMULATION_THRESHOLD",
                 "LETTA_TOOL_EMULATION_MAX_CALLS", "LETTA_TOOL_EMULATION_MAX_OUTPUT_TOKENS")  # fmt: skip


@functools.lru_cache(maxsize=8)
def _settings(*values: str | None) -> Settings:
    return Settings.from_env(ENGINE_LOG)


def _tool_names(tools: Any) -> set[str]:
    names = set()
    for tool in tools if isinstance(tools, list) else ():
        function = tool.get("function") if isinstance(tool, Mapping) else None
        if isinstance(function, Mapping) and isinstance(function.get("name"), str):
            names.add(function["name"])
    return names


def prepare_request(upstream: Upstream, body: dict[str, Any], decision: Any) -> Any:
    """The emulated request for a chat-completions ``body``, as the proxy sends it (``calibrate``
    asks its questions through this too). Raises :class:`ProxyError` for what cannot be emulated."""
    n = body.get("n")
    if isinstance(n, int) and not isinstance(n, bool) and n > 1:
        raise ProxyError(400, "'n' above 1 is not supported for models whose tool calls are emulated.", param="n")
    data = dict(body)
    if data.get("tool_choice") == "none":
        # The model is not to call anything: it is not shown the tools at all, and earlier calls
        # in the history are still rendered as text.
        data["tools"] = []
        data.pop("tool_choice")
    forced = forced_tool_name(data.get("tool_choice"))
    if forced is not None and forced not in _tool_names(data.get("tools")):
        # As OpenAI does: the model would be told to call a tool it is not shown.
        raise ProxyError(
            400, f"tool_choice names the function {forced!r}, which is not among the request's tools.",
            param="tool_choice",
        )  # fmt: skip
    parallel = body.get("parallel_tool_calls") is not False  # OpenAI's default is true
    return engine.prepare(
        data,
        decision=decision,
        parallel=parallel,
        # Stateless, the proxy cannot hand further calls out one per step: a constrained reply
        # then holds one call, rather than calls that would be dropped.
        single_call=not parallel,
        settings=_settings(*(os.environ.get(name) for name in _SETTINGS_ENV)),
        context_window=upstream.context_window(body["model"]),
        endpoint=upstream.base_url,
        venice_parameters=venice.venice_parameters(),
        log=ENGINE_LOG,
    )
