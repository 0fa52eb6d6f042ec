"""The OpenAI streaming contract, checked chunk by chunk: what Letta Code's OpenAI-completions
adapter and the OpenAI SDKs rely on. :func:`check_stream` fails on the first chunk that breaks
a rule and returns the reply the chunks add up to."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

FINISH_REASONS = ("stop", "length", "tool_calls", "content_filter")


@dataclass
class Assembled:
    content: str = ""
    reasoning: str = ""
    calls: list[dict[str, Any]] = field(default_factory=list)  # {"id", "name", "arguments"}
    finish_reason: str | None = None
    usage: dict[str, Any] | None = None


def check_stream(events: list[Any], *, include_usage: bool) -> Assembled:
    assert events, "an empty stream"
    assert events[-1] == "[DONE]", "the stream must end with data: [DONE]"
    assert events.count("[DONE]") == 1
    chunks = events[:-1]
    out = Assembled()
    ids = {c.get("id") for c in chunks}
    assert len(ids) == 1 and None not in ids, f"every chunk carries the same id: {ids}"
    finished_at: int | None = None
    by_index: dict[int, dict[str, Any]] = {}
    for n, chunk in enumerate(chunks):
        where = f"chunk {n}: {json.dumps(chunk)[:300]}"
        assert chunk.get("object") == "chat.completion.chunk", where
        assert isinstance(chunk.get("created"), int) and isinstance(chunk.get("model"), str), where
        if not chunk["choices"]:
            # Only the usage chunk has no choices: after the finish reason, last before [DONE].
            assert include_usage, f"a usage chunk nobody asked for: {where}"
            assert finished_at is not None and n == len(chunks) - 1, f"the usage chunk comes last: {where}"
            usage = chunk.get("usage")
            assert isinstance(usage, dict), where
            assert all(isinstance(usage.get(k), int) for k in ("prompt_tokens", "completion_tokens", "total_tokens"))
            assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"], where
            out.usage = usage
            continue
        assert finished_at is None, f"nothing but usage may follow the finish reason: {where}"
        assert len(chunk["choices"]) == 1 and chunk["choices"][0]["index"] == 0, where
        choice = chunk["choices"][0]
        delta = choice["delta"]
        assert isinstance(delta, dict), where
        if n == 0:
            assert delta.get("role") == "assistant", f"the first delta names the role: {where}"
        if choice.get("finish_reason") is not None:
            assert choice["finish_reason"] in FINISH_REASONS, where
            out.finish_reason = choice["finish_reason"]
            finished_at = n
        if isinstance(delta.get("content"), str):
            out.content += delta["content"]
        for key in ("reasoning_content", "reasoning", "reasoning_text"):
            if isinstance(delta.get(key), str):
                out.reasoning += delta[key]
        for call in delta.get("tool_calls") or []:
            assert isinstance(call.get("index"), int), f"calls are tracked by index: {where}"
            index = call["index"]
            fn = call.get("function") or {}
            if index not in by_index:
                # A call's first delta: index, id, type and the function's name.
                assert index == len(by_index), f"calls are numbered 0, 1, 2 ... in order: {where}"
                assert isinstance(call.get("id"), str) and call["id"], f"a call's first delta has its id: {where}"
                assert call.get("type") == "function", f"a call's first delta has type function: {where}"
                assert isinstance(fn.get("name"), str) and fn["name"], f"a call's first delta names it: {where}"
                by_index[index] = {"id": call["id"], "name": fn["name"], "arguments": fn.get("arguments") or ""}
            else:
                assert "name" not in fn and call.get("id") in (None, by_index[index]["id"]), where
                assert isinstance(fn.get("arguments"), str), f"later deltas carry argument fragments: {where}"
                by_index[index]["arguments"] += fn["arguments"]
    assert finished_at is not None, "Stream ended without finish_reason"
    assert (out.usage is not None) == include_usage, "a usage chunk exactly when asked for"
    out.calls = [by_index[i] for i in sorted(by_index)]
    for call in out.calls:
        json.loads(call["arguments"])  # the fragments add up to valid JSON
    if out.calls:
        assert out.finish_reason == "tool_calls", "a reply with calls finishes with tool_calls"
    return out
