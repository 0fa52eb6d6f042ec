"""The stand-in's HTTP server: Starlette routes, SSE streaming, the background-thread runner."""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
import random
import threading
import time
import uuid
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from ...core.feedback import FEEDBACK_OPENINGS
from . import e2ee
from .catalog import EMBEDDING_DIM, NATIVE_MODEL, model_catalog
from .constrained import (
    LocalServer,
    Refusal,
    context_routes,
    envelope_reply,
    grammar_refusal,
    local_request_keys,
    requested_schema,
)
from .lockout import Keys, KeysMiddleware
from .rules import plan_reply, write_calls
from .suite import plan as plan_suite
from .validation import Invalid, estimate_tokens, validate

# -- scripted replies ----------------------------------------------------------------------


@dataclass
class Scripted:
    """One scripted answer. ``text`` for the model without function calling;
    ``tool_calls`` ([{"name", "arguments"}]) for the native one."""

    text: str = ""
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    reasoning: str = ""  # sent apart from the text, as reasoning models' endpoints do (reasoning_content)
    finish_reason: str = "stop"
    usage: bool = True  # report usage (False: leave it out, as some endpoints do)
    status: int = 200  # an error status answers with ``error`` instead
    error: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    break_after: int | None = None  # streaming: drop the connection after this many characters
    stall_after: int | None = None  # streaming: go silent for `stall` seconds after this many characters
    stall: float = 0.0
    delay: float = 0.0
    chunk: int = 7  # streaming chunk size in characters

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Scripted:
        known = {f for f in cls.__dataclass_fields__}
        return cls(**{k: v for k, v in data.items() if k in known})


class StandInState:
    def __init__(
        self,
        *,
        sloppy: bool = False,
        natural: bool = False,
        seed: int = 0,
        latency: float = 0.0,
        local: LocalServer | None = None,
        suite: bool = False,
        prose: bool = False,
    ) -> None:
        self.lock = threading.Lock()
        self.local = local  # imitate a local server kind (schemas, context endpoints)
        self.script: list[Scripted] = []
        self.requests: list[dict[str, Any]] = []
        self.replies: list[str] = []  # the text each answered request got, for debugging
        self.sloppy = sloppy
        self.natural = natural
        self.rng = random.Random(seed)
        self.latency = latency
        self.suite = suite  # answer Letta's own test prompts (suite.py) instead of the memory rules
        self.prose = prose  # in that script, write a sentence before the calls
        self.keys = Keys()
        self.e2ee = e2ee.E2EEState()

    def reset(
        self,
        *,
        sloppy: bool | None = None,
        natural: bool | None = None,
        seed: int | None = None,
        suite: bool | None = None,
        prose: bool | None = None,
    ) -> None:
        self.keys.reset()
        with self.lock:
            self.script.clear()
            self.requests.clear()
            self.replies.clear()
            if sloppy is not None:
                self.sloppy = sloppy
            if natural is not None:
                self.natural = natural
            if seed is not None:
                self.rng = random.Random(seed)
            if suite is not None:
                self.suite = suite
            if prose is not None:
                self.prose = prose
        self.e2ee.reset()

    def next_scripted(self) -> Scripted | None:
        with self.lock:
            return self.script.pop(0) if self.script else None


# -- the server -----------------------------------------------------------------------------


def _embedding(text: str) -> list[float]:
    vec: list[float] = []
    seed = hashlib.sha256(text.encode()).digest()
    while len(vec) < EMBEDDING_DIM:
        seed = hashlib.sha256(seed).digest()
        vec.extend((b - 127.5) / 127.5 for b in seed)
    vec = vec[:EMBEDDING_DIM]
    norm = math.sqrt(sum(v * v for v in vec)) or 1.0
    return [v / norm for v in vec]


def _error(status: int, message: str, headers: Mapping[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=dict(headers or {}))


def create_app(state: StandInState) -> Starlette:
    async def models(request: Request) -> Response:
        kind = request.query_params.get("type", "text")
        data = [m for m in model_catalog() if kind == "all" or m["type"] == kind]
        return JSONResponse({"object": "list", "data": data})

    async def embeddings(request: Request) -> Response:
        body = await request.json()
        inputs = body.get("input")
        inputs = [inputs] if isinstance(inputs, str) else list(inputs or [])
        data = [{"object": "embedding", "index": i, "embedding": _embedding(str(t))} for i, t in enumerate(inputs)]
        tokens = sum(estimate_tokens(str(t)) for t in inputs)
        return JSONResponse(
            {
                "object": "list",
                "data": data,
                "model": body.get("model"),
                "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
            }
        )

    async def chat(request: Request) -> Response:
        try:
            body = await request.json()
        except ValueError:
            return _error(400, "Invalid request: body is not JSON")
        with state.lock:
            state.requests.append(body)
        try:
            tee = e2ee.admit(state.e2ee, request.headers, body)  # TEE models: decrypted, validated
            if tee is None:
                # Letta's own tests are written against OpenAI, which takes the nulls Letta sends
                # (max_completion_tokens, tool_choice); Venice refuses them.
                validate(body, nulls=state.suite, extra_keys=local_request_keys(state.local))
        except Invalid as exc:
            return _error(exc.status, exc.message)
        if tee is not None:
            body = tee.body
        schema = requested_schema(body, state.local)
        if isinstance(schema, Refusal):
            return _error(schema.status, schema.message)
        refused = grammar_refusal(body, state.local)
        if refused is not None:
            return _error(refused.status, refused.message)
        scripted = state.next_scripted()
        if state.latency:
            await asyncio.sleep(state.latency)
        if scripted is not None and scripted.delay:
            await asyncio.sleep(scripted.delay)
        if scripted is not None and scripted.status != 200:
            return _error(scripted.status, scripted.error or "Inference failed", scripted.headers)
        native = body["model"] == NATIVE_MODEL if tee is None else tee.native
        if scripted is None and schema is not None and not native:
            text, finish = envelope_reply(body, schema)
            scripted = Scripted(text=text, finish_reason=finish)
        if scripted is None and state.suite:
            scripted = Scripted(**plan_suite(body, native=native, prose=state.prose))
            if scripted.delay:
                await asyncio.sleep(scripted.delay)
        if scripted is None:
            calls, text = plan_reply(body)
            retry = any(f in (body["messages"][-1].get("content") or "") for f in FEEDBACK_OPENINGS)
            if native:
                scripted = Scripted(
                    text=text if not calls else "", tool_calls=[{"name": n, "arguments": a} for n, a in calls]
                )
            else:
                with state.lock:
                    rng = state.rng if state.sloppy else None
                    natural = state.rng if state.natural else None
                    scripted = Scripted(text=write_calls(calls, text, rng, retry, natural) if calls else text)
        # What the model reads: the messages and, for native tool calling, the tool schemas.
        prompt = sum(estimate_tokens(json.dumps(m)) for m in body["messages"])
        if body.get("tools"):
            prompt += estimate_tokens(json.dumps(body["tools"]))
        tool_calls = [
            {
                "id": "call_" + uuid.uuid4().hex[:24],
                "type": "function",
                # Arguments scripted as a string are sent exactly so (compact JSON, as OpenAI writes it).
                "function": {
                    "name": c["name"],
                    "arguments": c["arguments"] if isinstance(c["arguments"], str) else json.dumps(c["arguments"]),
                },
            }
            for c in scripted.tool_calls
        ]
        completion = estimate_tokens(scripted.reasoning + scripted.text + json.dumps(tool_calls))
        usage = {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}
        finish = "tool_calls" if tool_calls else scripted.finish_reason
        with state.lock:
            state.replies.append(scripted.text + "".join(json.dumps(c["function"]) for c in tool_calls))
        if body.get("stream"):
            include_usage = bool((body.get("stream_options") or {}).get("include_usage")) and scripted.usage
            events = _sse(body["model"], scripted, tool_calls, finish, usage if include_usage else None)
            return StreamingResponse(
                events if tee is None else tee.seal(events),
                media_type="text/event-stream",
                headers=None if tee is None else tee.headers,
            )
        message: dict[str, Any] = {"role": "assistant", "content": scripted.text or (None if tool_calls else "")}
        if scripted.reasoning:
            message["reasoning_content"] = scripted.reasoning
        if tool_calls:
            message["tool_calls"] = tool_calls
        payload: dict[str, Any] = {
            "id": "chatcmpl-" + uuid.uuid4().hex[:16],
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body["model"],
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        }
        if scripted.usage:
            payload["usage"] = usage
        return JSONResponse(payload)

    async def rate_limits(request: Request) -> Response:
        # Venice answers this for any valid key; the stand-in treats "invalid" as a bad key.
        auth = request.headers.get("authorization", "")
        if not auth.startswith("Bearer ") or auth == "Bearer invalid":
            return _error(401, "Authentication failed")
        return JSONResponse({"data": {"accessPermitted": True, "apiTier": {"id": "stand-in"}}})

    async def script(request: Request) -> Response:
        items = await request.json()
        with state.lock:
            state.script.extend(Scripted.from_json(i) for i in items)
        return JSONResponse({"queued": len(state.script)})

    async def requests(request: Request) -> Response:
        with state.lock:
            return JSONResponse(list(state.requests))

    async def reset(request: Request) -> Response:
        body = await request.json() if await request.body() else {}
        state.reset(
            sloppy=body.get("sloppy"),
            natural=body.get("natural"),
            seed=body.get("seed"),
            suite=body.get("suite"),
            prose=body.get("prose"),
        )
        return JSONResponse({"ok": True})

    return Starlette(
        routes=[
            *context_routes(state.local),  # first: a local server kind's listing answers instead
            Route("/v1/models", models),
            Route("/v1/chat/completions", chat, methods=["POST"]),
            Route("/v1/embeddings", embeddings, methods=["POST"]),
            Route("/v1/api_keys/rate_limits", rate_limits),
            Route("/_control/script", script, methods=["POST"]),
            Route("/_control/requests", requests),
            Route("/_control/reset", reset, methods=["POST"]),
            *e2ee.routes(state.e2ee),
        ],
        middleware=[Middleware(KeysMiddleware, keys=state.keys)],
    )


async def _sse(
    model: str, s: Scripted, tool_calls: list[dict[str, Any]], finish: str, usage: dict[str, int] | None
) -> AsyncIterator[bytes]:
    cid = "chatcmpl-" + uuid.uuid4().hex[:16]
    created = int(time.time())

    def event(choices: list[dict[str, Any]], usage_: dict[str, int] | None = None) -> bytes:
        data: dict[str, Any] = {
            "id": cid,
            "object": "chat.completion.chunk",
            "created": created,
            "model": model,
            "choices": choices,
        }
        if usage_ is not None:
            data["usage"] = usage_
        return f"data: {json.dumps(data)}\n\n".encode()

    yield event([{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}])
    for i in range(0, len(s.reasoning), max(1, s.chunk)):
        piece = s.reasoning[i : i + s.chunk]
        yield event([{"index": 0, "delta": {"reasoning_content": piece}, "finish_reason": None}])
    sent = 0
    for i in range(0, len(s.text), max(1, s.chunk)):
        piece = s.text[i : i + s.chunk]
        if s.break_after is not None and sent + len(piece) > s.break_after:
            raise ConnectionError("stand-in: connection dropped mid-stream (scripted)")
        if s.stall_after is not None and sent <= s.stall_after < sent + len(piece):
            await asyncio.sleep(s.stall)
        sent += len(piece)
        yield event([{"index": 0, "delta": {"content": piece}, "finish_reason": None}])
        await asyncio.sleep(0)
    for index, call in enumerate(tool_calls):
        first = {
            "index": index,
            "id": call["id"],
            "type": "function",
            "function": {"name": call["function"]["name"], "arguments": ""},
        }
        yield event([{"index": 0, "delta": {"tool_calls": [first]}, "finish_reason": None}])
        args = call["function"]["arguments"]
        for i in range(0, len(args), 16):
            yield event(
                [
                    {
                        "index": 0,
                        "delta": {"tool_calls": [{"index": index, "function": {"arguments": args[i : i + 16]}}]},
                        "finish_reason": None,
                    }
                ]
            )
    yield event([{"index": 0, "delta": {}, "finish_reason": finish}])
    if usage is not None:
        yield event([], usage)
    yield b"data: [DONE]\n\n"


class StandIn:
    """The stand-in model on a local port, in a background thread (for tests and the demo)."""

    def __init__(self, port: int = 0, host: str = "127.0.0.1", **state_options: Any) -> None:
        self.state = StandInState(**state_options)
        self._config = uvicorn.Config(create_app(self.state), host=host, port=port, log_level="warning", lifespan="off")
        self._server = uvicorn.Server(self._config)
        self._thread = threading.Thread(target=self._server.run, name="stand-in-model", daemon=True)
        self.host = host
        self.port = port

    @property
    def url(self) -> str:
        """The OpenAI-compatible base URL (ends in /v1)."""
        return f"http://{self.host}:{self.port}/v1"

    def start(self, timeout: float = 20.0) -> StandIn:
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"the stand-in model could not start on {self.host}:{self.port}")
            time.sleep(0.02)
        if self.port == 0:
            self.port = self._server.servers[0].sockets[0].getsockname()[1]
        return self

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=10)

    def __enter__(self) -> StandIn:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # Direct access for in-process use; over HTTP, use /_control/*.
    def script(self, *replies: Scripted | Mapping[str, Any]) -> None:
        with self.state.lock:
            self.state.script.extend(r if isinstance(r, Scripted) else Scripted.from_json(r) for r in replies)

    @property
    def requests(self) -> list[dict[str, Any]]:
        with self.state.lock:
            return list(self.state.requests)

    def reset(self, **options: Any) -> None:
        self.state.reset(**options)


def serve(port: int, host: str = "127.0.0.1", *, sloppy: bool = False, natural: bool = False, seed: int = 0) -> None:
    """Run the stand-in in the foreground (the ``stand-in-model`` command)."""
    uvicorn.run(
        create_app(StandInState(sloppy=sloppy, natural=natural, seed=seed)),
        host=host,
        port=port,
        log_level="info",
        lifespan="off",
    )
