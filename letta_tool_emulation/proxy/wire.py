"""What the proxy writes on the wire, in OpenAI's chat-completions shapes: completions,
stream chunks, server-sent events and error bodies. Plain dicts and bytes, no SDK models:
building and validating a pydantic object for every chunk would cost more than the rest of
the proxy's work on it."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Mapping
from typing import Any

import orjson

from ..step import ToolCallDict

ARGUMENT_PIECE = 16  # characters of arguments per streamed delta, about what native models send
DONE = b"data: [DONE]\n\n"
_UNFINISHED = b',"logprobs":null,"finish_reason":null}]}\n\n'  # the end of a chunk without a finish reason


def completion_id() -> str:
    return "chatcmpl-" + os.urandom(12).hex()  # 24 random hex digits, without building a UUID


def dumps(payload: Any) -> bytes:
    """Compact UTF-8 JSON. orjson writes what json.dumps writes here at a fraction of the cost,
    for every chunk of every stream and every request body; what it refuses (keys that are not
    strings, integers beyond 64 bits) json writes as before."""
    try:
        return orjson.dumps(payload)
    except TypeError:
        return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()


def sse(payload: Mapping[str, Any]) -> bytes:
    return b"data: " + dumps(payload) + b"\n\n"


class ChunkWriter:
    """The chunks of one streamed reply: the same id, creation time and model on each."""

    def __init__(self, model: str) -> None:
        self.id = completion_id()
        self.created = int(time.time())
        self.model = model
        self._role_sent = False
        # What every chunk of the reply starts with, written once: a chunk is this, its delta and
        # its finish reason, the bytes that serializing the whole chunk would give.
        self._head = b"".join((
            b'data: {"id":', dumps(self.id), b',"object":"chat.completion.chunk","created":', dumps(self.created),
            b',"model":', dumps(model), b',"choices":[{"index":0,"delta":',
        ))  # fmt: skip

    @property
    def started(self) -> bool:
        return self._role_sent

    def chunk(self, delta: dict[str, Any], finish: str | None = None) -> bytes:
        if not self._role_sent:  # OpenAI names the role once, in the first delta
            delta = {"role": "assistant", **delta}
            self._role_sent = True
        end = _UNFINISHED if finish is None else b',"logprobs":null,"finish_reason":' + dumps(finish) + b"}]}\n\n"
        return self._head + dumps(delta) + end

    def usage(self, usage: Mapping[str, int]) -> bytes:
        """The closing usage chunk (``stream_options.include_usage``): no choices."""
        return sse(
            {
                "id": self.id,
                "object": "chat.completion.chunk",
                "created": self.created,
                "model": self.model,
                "choices": [],
                "usage": dict(usage),
            }
        )

    def call(self, index: int, call: ToolCallDict) -> list[bytes]:
        """One call the way native models stream it: index, id, type and name first, then the
        arguments in fragments that concatenate to the JSON the call carries."""
        fn = call["function"]
        head = {"index": index, "id": call["id"], "type": "function", "function": {"name": fn["name"], "arguments": ""}}
        out = [self.chunk({"tool_calls": [head]})]
        args = fn["arguments"]
        for i in range(0, len(args), ARGUMENT_PIECE):
            piece = {"index": index, "function": {"arguments": args[i : i + ARGUMENT_PIECE]}}
            out.append(self.chunk({"tool_calls": [piece]}))
        return out


def completion(
    model: str,
    content: str,
    reasoning: str,
    calls: list[ToolCallDict],
    finish_reason: str,
    usage: Mapping[str, int],
) -> dict[str, Any]:
    """A whole reply, as a native model's ``chat.completion``."""
    message: dict[str, Any] = {"role": "assistant", "content": content or (None if calls else ""), "refusal": None}
    if calls:
        message["tool_calls"] = calls
    if reasoning:
        message["reasoning_content"] = reasoning
    return {
        "id": completion_id(),
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": finish_reason}],
        "usage": dict(usage),
    }


def error_body(message: str, kind: str, code: str | None = None, param: str | None = None) -> dict[str, Any]:
    """OpenAI's error shape, which every OpenAI SDK reads into its exception."""
    return {"error": {"message": message, "type": kind, "param": param, "code": code}}
