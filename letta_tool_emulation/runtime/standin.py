"""A local stand-in for a language model, for tests, demos and benchmarks (no weights, no
network): an OpenAI-compatible server that behaves like Venice.ai serving a model WITHOUT
function calling.

- ``GET /v1/models`` in Venice's shape, with capabilities (``?type=text|embedding``);
- ``POST /v1/chat/completions``, plain and SSE streaming, validated as strictly as Venice:
  400 for unknown keys, null values, empty assistant messages; and for the model without
  function calling, 400 for ``tools``, ``tool_choice`` and tool-role messages;
- ``POST /v1/embeddings`` with deterministic vectors;
- one model WITH native function calling, to compare both on one server.

Replies come from a script (``POST /_control/script``, used by tests) or else from simple
rules: "remember that X" becomes a memory call, a tool result becomes a short answer, and so
on. In "sloppy" mode the rules write calls the way real models drift (fences, single quotes,
missing end markers, trailing commas, extra prose, now and then a broken call that must be
rejected and retried), from a seeded random generator.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import math
import random
import re
import threading
import time
import uuid
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from ..core import parse_tool_calls
from ..core.markers import RESULT_END, RESULT_LABEL

EMULATED_MODEL = "venice-uncensored"  # no function calling, like the real one
NATIVE_MODEL = "stand-in-native"  # native function calling, for comparisons
EMBEDDING_MODEL = "text-embedding-bge-m3"
EMBEDDING_DIM = 1024
MAX_COMPLETION_TOKENS = 4096
CONTEXT_TOKENS = 32768

# The top-level keys of Venice's published ChatCompletionRequest (additionalProperties: false).
REQUEST_KEYS = frozenset(
    {
        "model", "messages", "temperature", "top_p", "top_k", "min_p", "min_temp", "max_temp", "max_completion_tokens",
        "max_tokens", "frequency_penalty", "presence_penalty", "repetition_penalty", "stop", "stop_token_ids", "seed",
        "stream", "stream_options", "logprobs", "top_logprobs", "n", "response_format", "reasoning", "reasoning_effort",
        "prompt_cache_key", "prompt_cache_retention", "user", "store", "text", "include", "metadata",
        "venice_parameters", "tools", "tool_choice", "parallel_tool_calls",
    }
)  # fmt: skip
VENICE_PARAMETER_KEYS = frozenset(
    {
        "include_venice_system_prompt", "strip_thinking_response", "disable_thinking", "enable_web_search",
        "enable_web_scraping", "enable_web_citations", "include_search_results_in_stream",
        "return_search_results_as_documents", "character_slug",
    }
)  # fmt: skip


def model_catalog() -> list[dict[str, Any]]:
    def text_model(model_id: str, tools: bool) -> dict[str, Any]:
        return {
            "id": model_id,
            "type": "text",
            "object": "model",
            "owned_by": "stand-in",
            "created": 1700000000,
            "model_spec": {
                "availableContextTokens": CONTEXT_TOKENS,
                "maxCompletionTokens": MAX_COMPLETION_TOKENS,
                "capabilities": {
                    "supportsFunctionCalling": tools,
                    "supportsResponseSchema": tools,
                    "supportsReasoning": False,
                    "supportsVision": False,
                    "supportsWebSearch": False,
                    "supportsLogProbs": False,
                },
                "traits": ["default"] if not tools else [],
                "offline": False,
                "beta": False,
            },
        }

    return [
        text_model(EMULATED_MODEL, tools=False),
        text_model(NATIVE_MODEL, tools=True),
        {
            "id": EMBEDDING_MODEL,
            "type": "embedding",
            "object": "model",
            "owned_by": "stand-in",
            "created": 1700000000,
            "model_spec": {"offline": False, "beta": False},
        },
    ]


# -- scripted replies ----------------------------------------------------------------------


@dataclass
class Scripted:
    """One scripted answer. ``text`` for the model without function calling;
    ``tool_calls`` ([{"name", "arguments"}]) for the native one."""

    text: str = ""
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
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
    def __init__(self, *, sloppy: bool = False, seed: int = 0, latency: float = 0.0) -> None:
        self.lock = threading.Lock()
        self.script: list[Scripted] = []
        self.requests: list[dict[str, Any]] = []
        self.replies: list[str] = []  # the text each answered request got, for debugging
        self.sloppy = sloppy
        self.rng = random.Random(seed)
        self.latency = latency

    def reset(self, *, sloppy: bool | None = None, seed: int | None = None) -> None:
        with self.lock:
            self.script.clear()
            self.requests.clear()
            self.replies.clear()
            if sloppy is not None:
                self.sloppy = sloppy
            if seed is not None:
                self.rng = random.Random(seed)

    def next_scripted(self) -> Scripted | None:
        with self.lock:
            return self.script.pop(0) if self.script else None


# -- validation, as strict as Venice ----------------------------------------------------------


class Invalid(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


# Where Venice's schema allows null; anywhere else a null is a 400.
NULLABLE_TOP_LEVEL = frozenset({"stop", "tools"})
NULLABLE_IN_MESSAGE = {
    "assistant": frozenset({"content", "name", "reasoning_content", "reasoning_details", "tool_calls"}),
    "tool": frozenset({"name", "reasoning_content", "tool_calls"}),
    "user": frozenset({"name"}),
    "system": frozenset({"name"}),
    "developer": frozenset({"name"}),
}


def _nulls(value: Any, path: str) -> str | None:
    if value is None:
        return path
    if isinstance(value, dict):
        for k, v in value.items():
            found = _nulls(v, f"{path}.{k}")
            if found:
                return found
    if isinstance(value, list):
        for i, v in enumerate(value):
            found = _nulls(v, f"{path}[{i}]")
            if found:
                return found
    return None


def _null_where_forbidden(body: dict[str, Any]) -> str | None:
    for key, value in body.items():
        if key == "messages" and isinstance(value, list):
            for i, m in enumerate(value):
                if not isinstance(m, dict):
                    continue
                allowed = NULLABLE_IN_MESSAGE.get(m.get("role"), frozenset())
                for field_name, v in m.items():
                    found = None if (v is None and field_name in allowed) else _nulls(v, f"messages[{i}].{field_name}")
                    if found:
                        return found
        elif not (value is None and key in NULLABLE_TOP_LEVEL):
            found = _nulls(value, key)
            if found:
                return found
    return None


def validate(body: Any) -> None:
    if not isinstance(body, dict):
        raise Invalid(400, "Invalid request: body must be a JSON object")
    unknown = sorted(set(body) - REQUEST_KEYS)
    if unknown:
        raise Invalid(400, f"Invalid request: unrecognized key(s) in object: {', '.join(map(repr, unknown))}")
    where = _null_where_forbidden(body)
    if where:
        raise Invalid(400, f"Invalid request: {where} must not be null")
    model = body.get("model")
    if model not in (EMULATED_MODEL, NATIVE_MODEL):
        raise Invalid(404, f"Model {model!r} not found")
    extra = set(body.get("venice_parameters") or {}) - VENICE_PARAMETER_KEYS
    if extra:
        raise Invalid(400, f"Invalid request: unrecognized key(s) in venice_parameters: {sorted(extra)}")
    limit = body.get("max_completion_tokens", body.get("max_tokens"))
    if isinstance(limit, int) and limit > MAX_COMPLETION_TOKENS:
        raise Invalid(
            400,
            f"Invalid request: max_completion_tokens {limit} exceeds the model's maximum of {MAX_COMPLETION_TOKENS}",
        )
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise Invalid(400, "Invalid request: messages must be a non-empty array")
    native = model == NATIVE_MODEL
    if not native and any(k in body for k in ("tools", "tool_choice", "parallel_tool_calls")):
        raise Invalid(400, f"Invalid request: model {model} does not support function calling (tools)")
    for i, m in enumerate(messages):
        role = m.get("role") if isinstance(m, dict) else None
        if role not in ("system", "developer", "user", "assistant", "tool"):
            raise Invalid(400, f"Invalid request: messages[{i}].role is invalid")
        if not native and (role == "tool" or (role == "assistant" and "tool_calls" in m)):
            raise Invalid(400, f"Invalid request: messages[{i}]: model {model} does not support tool messages")
        content = m.get("content")
        if role == "assistant" and not content and not m.get("tool_calls"):
            raise Invalid(400, f"Invalid request: messages[{i}]: assistant messages need content or tool_calls")
        if role in ("system", "developer", "user") and not content:
            raise Invalid(400, f"Invalid request: messages[{i}].content must not be empty")


def estimate_tokens(text: str) -> int:
    return max(1, math.ceil(len(text.encode()) / 4))


# -- the rules ------------------------------------------------------------------------------

_TOOL_LINE = re.compile(r"^- ([A-Za-z_][\w]*)\(", re.MULTILINE)
_REMEMBER = re.compile(r"\bremember(?: that)?\s+(.+?)(?=(?:\s+and also\s+)|$)", re.IGNORECASE | re.MULTILINE)
_REPLACE = re.compile(r"\b(?:replace|change)\s+['\"](.+?)['\"]\s+(?:with|to)\s+['\"](.+?)['\"]", re.IGNORECASE)
_ARCHIVE = re.compile(r"\b(?:archive|file away) that\s+(.+?)(?=(?:\s+and also\s+)|$)", re.IGNORECASE | re.MULTILINE)
_SEARCH_ARCHIVE = re.compile(r"\bsearch (?:the )?archive(?:s)? for\s+(.+?)(?=[.?!]?$)", re.IGNORECASE)
_SEARCH_CHAT = re.compile(r"\bsearch (?:our|the) conversation for\s+(.+?)(?=[.?!]?$)", re.IGNORECASE)
_CALL = re.compile(r"\bcall ([A-Za-z_]\w*) with (\{.*\})", re.IGNORECASE | re.DOTALL)


# What the emulation layer appends to a user message: an instruction (tool_choice) or
# feedback about a rejected call. Neither is the user speaking.
_INSTRUCTION = ("You must call", "Do not call any tool")
_FEEDBACK = (
    "Your last reply tried to call a tool",
    "Not every call in your last reply was executed",
    "Write the call in your next reply",
)
_EVENT_TYPES = ("login", "heartbeat", "system_alert")


def _latest(body: Mapping[str, Any]) -> tuple[bool, str, str, bool]:
    """(after a tool result?, that result, the user's latest words, feedback present?)."""
    last = body["messages"][-1]
    text = last.get("content") or ""
    if last.get("role") == "tool":
        return True, text, "", False
    feedback = any(f in text for f in _FEEDBACK)
    result = ""
    if RESULT_END in text:
        head, _, text = text.rpartition(RESULT_END)
        result = head[head.rfind(RESULT_LABEL) :]
    said = ""
    for paragraph in reversed([p.strip() for p in text.split("\n\n") if p.strip()]):
        if paragraph.startswith(_INSTRUCTION) or any(f in paragraph for f in _FEEDBACK):
            continue
        said = _user_text(paragraph)
        if said:
            break
    return (bool(result) and not said), result, said, feedback


def _up_to_user_words(messages: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The conversation up to the user's last words (what came after answers them)."""
    for i in range(len(messages) - 1, -1, -1):
        if messages[i].get("role") == "user" and _latest({"messages": [messages[i]]})[2]:
            return list(messages[: i + 1])
    return list(messages)


def _calls_since_user_spoke(messages: list[Mapping[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """The calls the conversation shows as made since the user's last words."""
    made: list[tuple[str, dict[str, Any]]] = []
    for m in reversed(messages):
        if m.get("role") == "user" and _latest({"messages": [m]})[2]:
            break
        for tc in m.get("tool_calls") or []:  # native
            made.append((tc["function"]["name"], json.loads(tc["function"]["arguments"] or "{}")))
        if m.get("role") == "assistant" and m.get("content"):
            made += [(c.name, c.arguments) for c in parse_tool_calls(m["content"], None).tool_calls]
    return made


def _user_text(content: str) -> str:
    """Letta wraps some user messages in JSON (events, memgpt-style messages): take the
    message out, and nothing from events like a login or a heartbeat."""
    try:
        data = json.loads(content)
    except ValueError:
        return content
    if isinstance(data, dict):
        if isinstance(data.get("message"), str) and data.get("type") not in _EVENT_TYPES:
            return data["message"]
        if data.get("type") in _EVENT_TYPES:
            return ""
    return content


def _tools_offered(body: Mapping[str, Any]) -> list[str]:
    if body.get("tools"):
        return [t["function"]["name"] for t in body["tools"] if isinstance(t, dict) and "function" in t]
    system = next((m.get("content") or "" for m in body["messages"] if m.get("role") == "system"), "")
    return _TOOL_LINE.findall(system.split("# Tools", 1)[-1]) if "# Tools" in system else []


def plan_reply(body: Mapping[str, Any]) -> tuple[list[tuple[str, dict[str, Any]]], str]:
    """(calls, text) that a helpful model would answer with."""
    tools = set(_tools_offered(body))
    after_tool, result, said, feedback = _latest(body)
    if feedback:
        # Feedback from the emulation layer: redo, cleanly, what was meant and did not run.
        earlier = _without_feedback(body["messages"])
        calls, _ = plan_reply({**body, "messages": _up_to_user_words(earlier)})
        ran = _calls_since_user_spoke(earlier)
        calls = [c for c in calls if c not in ran]
        if calls:
            return calls, ""
    if after_tool:
        failed = "status: Failed" in result or '"status": "Failed"' in result
        text = "That did not work; the tool reported an error." if failed else "Done."
        if "send_message" in tools:
            return [("send_message", {"message": text})], ""
        return [], text

    calls: list[tuple[str, dict[str, Any]]] = []
    for fact in _REMEMBER.findall(said):
        fact = fact.strip().rstrip(".")
        if "memory_insert" in tools:
            calls.append(("memory_insert", {"label": "human", "new_string": fact}))
        elif "core_memory_append" in tools:
            calls.append(("core_memory_append", {"label": "human", "content": fact}))
    for old, new in _REPLACE.findall(said):
        if "memory_replace" in tools:
            calls.append(("memory_replace", {"label": "human", "old_string": old, "new_string": new}))
        elif "core_memory_replace" in tools:
            calls.append(("core_memory_replace", {"label": "human", "old_content": old, "new_content": new}))
    for note in _ARCHIVE.findall(said):
        if "archival_memory_insert" in tools:
            calls.append(("archival_memory_insert", {"content": note.strip().rstrip(".")}))
    m = _SEARCH_ARCHIVE.search(said)
    if m and "archival_memory_search" in tools:
        calls.append(("archival_memory_search", {"query": m.group(1).strip()}))
    m = _SEARCH_CHAT.search(said)
    if m and "conversation_search" in tools:
        calls.append(("conversation_search", {"query": m.group(1).strip()}))
    m = _CALL.search(said)
    if m and m.group(1) in tools:
        with contextlib.suppress(ValueError):  # not JSON: then it was not a request to call
            calls.append((m.group(1), json.loads(m.group(2))))
    if calls:
        return calls, "Sure, one moment."
    text = f"You said: {said.strip()[:200]}" if said.strip() else "Hello!"
    if "send_message" in tools:
        return [("send_message", {"message": text})], ""
    return [], text


def _without_feedback(messages: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The conversation as it was before the emulation layer asked again: without the
    rejected replies and the feedback about them."""

    def has_feedback(m: Mapping[str, Any]) -> bool:
        return any(f in (m.get("content") or "") for f in _FEEDBACK)

    def only_feedback(m: Mapping[str, Any]) -> bool:
        return (m.get("content") or "").startswith(_FEEDBACK)

    out = [dict(m) for m in messages]
    # A re-ask: the rejected reply, then a message that is nothing but feedback.
    while len(out) >= 2 and out[-2].get("role") == "assistant" and only_feedback(out[-1]):
        out = out[:-2]
    if out and has_feedback(out[-1]):  # feedback added to the user's own message
        content = out[-1]["content"]
        cuts = [i for i in (content.find("\n\n" + f) for f in _FEEDBACK) if i >= 0]
        out[-1] = {**out[-1], "content": content[: min(cuts)] if cuts else content}
    return out


def write_calls(calls: list[tuple[str, dict[str, Any]]], text: str, rng: random.Random | None, retry: bool) -> str:
    """The reply a model without function calling writes: canonical, or drifted when sloppy."""
    if rng is None or retry:
        blocks = [f"TOOL_CALL_START\n{json.dumps({'function': n, 'params': a})}\nTOOL_CALL_END" for n, a in calls]
        return "\n".join(([text] if text else []) + blocks)
    parts = [text] if text and rng.random() < 0.7 else []
    for name, args in calls:
        parts.append(_sloppy_call(name, args, rng))
    if rng.random() < 0.25:
        parts.append("Let me know if there is anything else!")
    return "\n".join(parts)


def _sloppy_call(name: str, args: dict[str, Any], rng: random.Random) -> str:
    style = rng.random()
    call = {"function": name, "params": args}
    if style < 0.30:  # canonical
        return f"TOOL_CALL_START\n{json.dumps(call)}\nTOOL_CALL_END"
    if style < 0.42:  # ```tool_call fence
        return f"```tool_call\n{json.dumps({'name': name, 'arguments': args})}\n```"
    if style < 0.52:  # Python-ish quotes
        py = repr(call).replace("True", "True").replace("None", "None")
        return f"TOOL_CALL_START\n{py}\nTOOL_CALL_END"
    if style < 0.62:  # trailing commas
        text = json.dumps(call)
        return (
            f"TOOL_CALL_START\n{text[:-2]},}}}}\nTOOL_CALL_END"
            if text.endswith("}}")
            else f"TOOL_CALL_START\n{text}\nTOOL_CALL_END"
        )
    if style < 0.72:  # missing end marker (the model stopped there)
        return f"TOOL_CALL_START\n{json.dumps(call)}"
    if style < 0.80:  # Hermes
        return f"<tool_call>\n{json.dumps({'name': name, 'arguments': args})}\n</tool_call>"
    if style < 0.86:  # arguments as a JSON string
        return f"TOOL_CALL_START\n{json.dumps({'name': name, 'arguments': json.dumps(args)})}\nTOOL_CALL_END"
    if style < 0.92:  # broken: a python call instead of JSON (must be rejected and retried)
        inner = ", ".join(f"{k}={json.dumps(v)}" for k, v in args.items())
        return f"TOOL_CALL_START\n{name}({inner})\nTOOL_CALL_END"
    # broken: an unescaped quote that loses text (must be rejected and retried)
    text = json.dumps(call)
    return "TOOL_CALL_START\n" + text.replace('": "', '": "\'', 1).replace('"}}', '" "x}}', 1) + "\nTOOL_CALL_END"


# -- the server -----------------------------------------------------------------------------


def _embedding(text: str) -> list[float]:
    vec = []
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
            validate(body)
        except Invalid as exc:
            return _error(exc.status, exc.message)
        scripted = state.next_scripted()
        if state.latency:
            await asyncio.sleep(state.latency)
        if scripted is not None and scripted.delay:
            await asyncio.sleep(scripted.delay)
        if scripted is not None and scripted.status != 200:
            return _error(scripted.status, scripted.error or "Inference failed", scripted.headers)
        native = body["model"] == NATIVE_MODEL
        if scripted is None:
            calls, text = plan_reply(body)
            retry = any(f in (body["messages"][-1].get("content") or "") for f in _FEEDBACK)
            if native:
                scripted = Scripted(
                    text=text if not calls else "", tool_calls=[{"name": n, "arguments": a} for n, a in calls]
                )
            else:
                with state.lock:
                    rng = state.rng if state.sloppy else None
                    scripted = Scripted(text=write_calls(calls, text, rng, retry) if calls else text)
        # What the model reads: the messages and, for native tool calling, the tool schemas.
        prompt = sum(estimate_tokens(json.dumps(m)) for m in body["messages"])
        if body.get("tools"):
            prompt += estimate_tokens(json.dumps(body["tools"]))
        tool_calls = [
            {
                "id": "call_" + uuid.uuid4().hex[:24],
                "type": "function",
                "function": {"name": c["name"], "arguments": json.dumps(c["arguments"])},
            }
            for c in scripted.tool_calls
        ]
        completion = estimate_tokens(scripted.text + json.dumps(tool_calls))
        usage = {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}
        finish = "tool_calls" if tool_calls else scripted.finish_reason
        with state.lock:
            state.replies.append(scripted.text + "".join(json.dumps(c["function"]) for c in tool_calls))
        if body.get("stream"):
            include_usage = bool((body.get("stream_options") or {}).get("include_usage")) and scripted.usage
            return StreamingResponse(
                _sse(body["model"], scripted, tool_calls, finish, usage if include_usage else None),
                media_type="text/event-stream",
            )
        message: dict[str, Any] = {"role": "assistant", "content": scripted.text or (None if tool_calls else "")}
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
        state.reset(sloppy=body.get("sloppy"), seed=body.get("seed"))
        return JSONResponse({"ok": True})

    return Starlette(
        routes=[
            Route("/v1/models", models),
            Route("/v1/chat/completions", chat, methods=["POST"]),
            Route("/v1/embeddings", embeddings, methods=["POST"]),
            Route("/v1/api_keys/rate_limits", rate_limits),
            Route("/_control/script", script, methods=["POST"]),
            Route("/_control/requests", requests),
            Route("/_control/reset", reset, methods=["POST"]),
        ]
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


def serve(port: int, host: str = "127.0.0.1", *, sloppy: bool = False, seed: int = 0) -> None:
    """Run the stand-in in the foreground (the ``stand-in-model`` command)."""
    uvicorn.run(
        create_app(StandInState(sloppy=sloppy, seed=seed)), host=host, port=port, log_level="info", lifespan="off"
    )
