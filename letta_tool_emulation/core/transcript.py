"""Rendering an OpenAI chat history for a model that accepts neither ``tool_calls`` nor
``role: "tool"``.

Earlier calls become the canonical call blocks the model itself is asked to write, so the
history shows it the format in use. Tool results become user messages labelled
``TOOL_RESULT <tool> ...``. Everything else that did not come from this turn's model has its
call markers neutralised (see :func:`markers.neutralise`): the system message (Letta renders
memory blocks, opened files and its base instructions into it), user messages, tool results
with their labels, and earlier assistant text. The model echoing any of it cannot trigger a
call. Only the tool prompt added to the system message, and the call blocks rendered from
``tool_calls``, keep live markers.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable, Mapping
from typing import Any

from .markers import CALL_END, CALL_START, RESULT_END, RESULT_LABEL, neutralise
from .prompt import ToolChoice, render_tool_prompt, tool_choice_instruction
from .tools import ToolLike, ToolSpec

Message = Mapping[str, Any]

CONVERSATION_START = "(conversation start)"
# The most of one tool result the model is shown, in characters: Letta's own bound on what a
# tool returns. A client that sends more (a whole file, a long command output) would otherwise
# push the conversation out of a small context; the start and the end are kept, where results
# say what happened.
RESULT_LIMIT = 50_000


def render_call(name: str, arguments: Any) -> str:
    """One call in the canonical format."""
    if isinstance(arguments, str):
        # If not JSON (or nested beyond reading), shown as the string the model wrote.
        with contextlib.suppress(ValueError, RecursionError):
            arguments = json.loads(arguments) if arguments.strip() else {}
    call = {"function": name, "params": arguments if arguments is not None else {}}
    try:
        body = json.dumps(call, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        body = json.dumps({"function": name, "params": str(arguments)}, ensure_ascii=False)
    return f"{CALL_START}\n{body}\n{CALL_END}"


def render_result(name: str, content: Any, position: str = "", limit: int = RESULT_LIMIT) -> str:
    """A tool result as the model sees it: labelled with its tool, status first, and closed
    by TOOL_RESULT_END, so that text after it (the user's next words, say) is never taken
    for part of the result, nor the other way round. A result longer than ``limit``
    characters keeps its start and end, and says how much was left out."""
    text = content_text(content)
    status = ""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        data = None
    if isinstance(data, dict) and "status" in data and "message" in data:
        # Letta's {"status", "message", "time"} envelope: the time is noise for the model.
        status = f" status: {_one_line(data['status'])}"
        message = data["message"]
        if isinstance(message, str):
            text = message
        else:
            with contextlib.suppress(TypeError, ValueError, RecursionError):
                text = json.dumps(message, ensure_ascii=False)
    text = _bounded(text, limit)
    where = f" ({position})" if position else ""
    label = neutralise(f"{RESULT_LABEL} {_one_line(name)}{where}{status}"[len(RESULT_LABEL) :])
    return f"{RESULT_LABEL}{label}\n{neutralise(text)}\n{RESULT_END}"


def _bounded(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    head = max(0, limit * 2 // 3)
    tail = max(0, limit - head)
    left_out = len(text) - head - tail
    return f"{text[:head]}\n[... {left_out:,} characters of this result left out ...]\n{text[len(text) - tail :]}"


def _one_line(value: Any) -> str:
    """A label field as text on the label's line: a newline in it could fake a new line."""
    text = value if isinstance(value, str) else str(value)
    return " ".join(text.split())


def content_text(content: Any) -> str:
    """String content from OpenAI's str-or-parts form."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            if isinstance(part, Mapping):
                if isinstance(part.get("text"), str):
                    parts.append(part["text"])
                elif part.get("type") in ("image_url", "image", "input_image"):
                    parts.append("[image]")
            elif isinstance(part, str):
                parts.append(part)
        return "\n".join(parts)
    return str(content)


def render_transcript(messages: Iterable[Message], *, alternate: bool = True) -> list[dict[str, str]]:
    """The same conversation using only system/user/assistant messages with string content.

    - assistant ``tool_calls`` are appended to its text as canonical call blocks (the only
      live markers: all other text is neutralised);
    - ``role: "tool"`` (and legacy ``"function"``) results become user messages;
    - system messages after the first become user messages marked ``[system]``;
    - assistant messages with nothing to say are dropped;
    - with ``alternate`` (the default), consecutive messages of one role are merged and the
      conversation after the system message starts with a user turn, as strict chat
      templates (Mistral's, for one) require.
    """
    out: list[dict[str, str]] = []
    calls: dict[str, tuple[str, str]] = {}  # call id -> (tool name, "call i of n")
    for i, msg in enumerate(messages):
        role = msg.get("role")
        if role in ("system", "developer"):
            text = neutralise(content_text(msg.get("content")))
            if not out:
                out.append({"role": "system", "content": text})
            else:
                out.append({"role": "user", "content": "[system] " + text})
        elif role == "user":
            out.append({"role": "user", "content": neutralise(content_text(msg.get("content")))})
        elif role == "assistant":
            pieces = []
            text = neutralise(content_text(msg.get("content")).strip())
            if text:
                pieces.append(text)
            tool_calls = [tc for tc in msg.get("tool_calls") or () if isinstance(tc, Mapping)]
            for k, tc in enumerate(tool_calls, 1):
                given = tc.get("function")
                fn: Mapping[str, Any] = given if isinstance(given, Mapping) else {}
                name = str(fn.get("name") or "unknown")
                pieces.append(render_call(name, fn.get("arguments")))
                position = f"call {k} of {len(tool_calls)}" if len(tool_calls) > 1 else ""
                calls[str(tc.get("id", f"#{i}.{k}"))] = (name, position)
            if pieces:
                out.append({"role": "assistant", "content": "\n".join(pieces)})
        elif role in ("tool", "function"):
            name, position = calls.get(str(msg.get("tool_call_id")), (str(msg.get("name") or "tool"), ""))
            out.append({"role": "user", "content": render_result(name, msg.get("content"), position)})
    if alternate:
        out = _alternate(out)
    return out


def _alternate(messages: list[dict[str, str]]) -> list[dict[str, str]]:
    merged: list[dict[str, str]] = []
    for msg in messages:
        if merged and merged[-1]["role"] == msg["role"] and msg["role"] != "system":
            merged[-1] = {"role": msg["role"], "content": merged[-1]["content"] + "\n\n" + msg["content"]}
        else:
            merged.append(dict(msg))
    first = 1 if merged and merged[0]["role"] == "system" else 0
    if len(merged) > first and merged[first]["role"] == "assistant":
        merged.insert(first, {"role": "user", "content": CONVERSATION_START})
    for msg in merged:
        if msg["role"] == "user" and not msg["content"].strip():
            msg["content"] = "(empty message)"
    return merged


def render_messages(
    messages: Iterable[Message],
    tools: Iterable[ToolLike | ToolSpec] | None,
    *,
    tool_choice: ToolChoice = None,
    example: Mapping[str, Any] | None = None,
    alternate: bool = True,
) -> list[dict[str, str]]:
    """A whole request's messages for a model without function calling: the transcript
    rendered as text, the tool prompt added to the system message, and a forced tool choice
    repeated at the end of the last user message, where models heed it most."""
    out = render_transcript(messages, alternate=alternate)
    prompt = render_tool_prompt(tools, tool_choice=tool_choice, example=example)
    if prompt:
        if out and out[0]["role"] == "system":
            out[0] = {"role": "system", "content": (out[0]["content"].rstrip() + "\n\n" + prompt).lstrip()}
        else:
            out.insert(0, {"role": "system", "content": prompt})
    instruction = tool_choice_instruction(tool_choice)
    if instruction and out and out[-1]["role"] == "user":
        out[-1] = {"role": "user", "content": out[-1]["content"] + "\n\n" + instruction}
    return out
