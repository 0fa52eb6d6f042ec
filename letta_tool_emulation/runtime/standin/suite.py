"""How the stand-in answers Letta's own message tests: the scripted model of the conformance
tier (``tests/conformance``), which runs the send_message, human-in-the-loop and cancellation
tests of Letta's source distribution against the server command.

The same script answers the model without function calling (its calls written as call blocks,
which the plugin reads) and the native one (``tool_calls``), so that every difference between
the two outcomes is the plugin's. With ``prose`` the model writes a sentence before its calls,
as most models do: the native model as text next to its calls (or, where a tool asks for
Letta's ``thinking`` argument, there), the other one as text before its call blocks.

Arguments are JSON without spaces, the way OpenAI's models write them. Where Letta's tests
cancel a run, the model takes its time, so that the cancellation always lands while it is still
writing, for both models alike: a request to roll dice and "reply back" is answered after
:data:`SLOW_REPLY` seconds (cancelled half a second to a second and a half into the run), and
the answer to a get_secret_code_tool result pauses that long after its first streamed words
(cancelled as soon as the stream shows something).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...core.markers import RESULT_END, RESULT_LABEL
from .rules import _tools_offered, _user_text

PROSE = "Sure, I will take care of that right away."  # what it writes before calls it has no words for
SAYS = {  # ... and before these
    "roll_dice": "Let me roll the die for you.",
    "roll_dice_tool": "Let me roll the die for you.",
    "get_secret_code_tool": "Let me look that code up.",
    "send_message": "I will answer now.",
}
SLOW_REPLY = 3.0
REPLY_TOOL = "send_message"
THINKING = "thinking"
HEARTBEAT = "request_heartbeat"
_JOINER = "\u2060"  # what the plugin puts into marker-like words of text it did not write

_SEND = re.compile(r"send_message tool with (?:the message|exactly this message:)\s*'(.*)'", re.DOTALL)
_REPLY = re.compile(r"Reply with the message '(.*)'", re.DOTALL)
_SIDES = re.compile(r"(?:with |a )(\d+)(?:[ -]sided| sides)")
_EACH_SIDES = re.compile(r"num_sides=(\d+)")
_QUOTED = re.compile(r"'([^']*)'")
_RESULT = re.compile(re.escape(RESULT_LABEL) + r" (\S+)[^\n]*\n(.*?)\n" + re.escape(RESULT_END), re.DOTALL)
_EVENTS = ("login", "heartbeat", "system_alert")


@dataclass
class Reply:
    """What the model answers: text, calls (name, arguments), how long it thinks before it
    answers, and how long it pauses after the first words it streams."""

    text: str = ""
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    delay: float = 0.0
    pause: float = 0.0


STREAM_PIECE = 7  # characters per streamed delta (the stand-in's default)


def plan(body: Mapping[str, Any], *, native: bool, prose: bool) -> dict[str, Any]:
    """The stand-in's scripted reply for one request: ``text``, ``tool_calls`` (each
    {"name", "arguments": JSON string}), ``delay``, and a ``stall`` after ``stall_after``
    characters of a stream."""
    schemas = _schemas(body)
    tools = set(schemas) if native else set(_tools_offered(body))
    words, results = _turn(body.get("messages") or [], native)
    reply = _decide(words, results, tools)
    timing: dict[str, Any] = {"delay": reply.delay}
    if reply.pause:
        timing.update(stall_after=STREAM_PIECE, stall=reply.pause, chunk=STREAM_PIECE)
    if not reply.calls:
        return {"text": reply.text, "tool_calls": [], **timing}
    sentence = SAYS.get(reply.calls[0][0], PROSE) if prose else ""
    calls = []
    for i, (name, args) in enumerate(reply.calls):
        if native:
            params = schemas.get(name, {})
            if THINKING in params:
                # What a native model writes where Letta asks for its thoughts: the sentence it
                # would otherwise have written as text, or nothing at all.
                args = {THINKING: sentence if i == 0 else "", **args}
            if HEARTBEAT in params:
                args[HEARTBEAT] = name != REPLY_TOOL
        calls.append({"name": name, "arguments": json.dumps(args, separators=(",", ":"), ensure_ascii=False)})
    if native:
        in_thinking = any(THINKING in schemas.get(name, {}) for name, _ in reply.calls)
        return {"text": "" if in_thinking else sentence, "tool_calls": calls, **timing}
    blocks = [
        f"TOOL_CALL_START\n{json.dumps({'function': c['name'], 'params': json.loads(c['arguments'])})}\nTOOL_CALL_END"
        for c in calls
    ]
    return {"text": "\n".join(([sentence] if sentence else []) + blocks), "tool_calls": [], **timing}


def _decide(words: str, results: list[tuple[str, str]], tools: set[str]) -> Reply:
    answer = (lambda text: Reply(calls=[(REPLY_TOOL, {"message": text})])) if REPLY_TOOL in tools else Reply
    if results:
        reply = answer(_about(results))
        reply.pause = SLOW_REPLY if any(name == "get_secret_code_tool" for name, _ in results) else 0.0
        return reply
    m = _SEND.search(words)
    if m and REPLY_TOOL in tools:
        return Reply(calls=[(REPLY_TOOL, {"message": m.group(1)})])
    m = _REPLY.search(words)
    if m:
        return answer(m.group(1))
    calls: list[tuple[str, dict[str, Any]]] = []
    if "get_secret_code_tool" in tools and "get_secret_code_tool" in words:
        sentence = words.split("get_secret_code_tool", 1)[1].split("roll_dice", 1)[0]
        calls += [("get_secret_code_tool", {"input_text": text}) for text in _QUOTED.findall(sentence)]
    for tool in ("roll_dice_tool", "roll_dice"):
        if tool in tools and re.search(rf"\b{tool}\b", words):
            asked = words.split(tool, 1)[1]
            sides = _EACH_SIDES.findall(asked) or _SIDES.findall(asked)[:1]
            calls += [(tool, {"num_sides": int(n)}) for n in sides]
            break
    if calls:
        slow = "reply back to me with the outcome" in words
        return Reply(calls=calls, delay=SLOW_REPLY if slow else 0.0)
    if "image" in words.lower():
        return answer("I see an ant on a leaf.")
    if "thank" in words.lower():
        return answer("You're welcome!")
    return answer("Hello! How can I help you today?")


def _about(results: list[tuple[str, str]]) -> str:
    """The answer once the tools have answered."""
    parts = []
    for name, text in results:
        if "denied" in text.lower():
            parts.append(f"I did not run {name}: {text}")
        elif name.startswith("roll_dice"):
            parts.append(f"I rolled the die and got {text}.")
        elif name == "get_secret_code_tool":
            parts.append(f"The secret code is {text}.")
        else:
            parts.append(f"{name} returned {text}.")
    return " ".join(parts)


def _schemas(body: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Each offered tool's parameter properties, by name."""
    out = {}
    for tool in body.get("tools") or []:
        fn = tool.get("function") if isinstance(tool, Mapping) else None
        if isinstance(fn, Mapping) and isinstance(fn.get("name"), str):
            out[fn["name"]] = dict((fn.get("parameters") or {}).get("properties") or {})
    return out


def _turn(messages: list[Mapping[str, Any]], native: bool) -> tuple[str, list[tuple[str, str]]]:
    """The user's latest words, and the tool results that came after them (name, result)."""
    words, results = "", []
    names: dict[str, str] = {}
    for m in messages:
        role = m.get("role")
        text = _text(m.get("content")).replace(_JOINER, "")
        if role == "assistant":
            for tc in m.get("tool_calls") or []:
                names[tc.get("id", "")] = tc.get("function", {}).get("name", "")
        elif role == "tool":
            results.append((names.get(m.get("tool_call_id", ""), "tool"), _result_message(text)))
        elif role == "user":
            found = [(name, body.strip()) for name, body in _RESULT.findall(text)] if not native else []
            rest = _RESULT.sub("", text) if found else text
            said = _said(rest)
            if said:  # the user spoke after those results: a new turn
                words, results = said, []
            else:
                results += found
    return words, results


def _said(text: str) -> str:
    """The user's own words in a message (nothing for Letta's events: login, heartbeats)."""
    said = []
    for paragraph in (p.strip() for p in text.split("\n\n")):
        if not paragraph or paragraph.startswith("[system]"):
            continue
        try:
            data = json.loads(paragraph)
        except ValueError:
            data = None
        if isinstance(data, dict) and data.get("type") in _EVENTS:
            continue
        said.append(_user_text(paragraph))
    return "\n\n".join(s for s in said if s)


def _result_message(text: str) -> str:
    """The message of Letta's {"status", "message", "time"} tool result."""
    try:
        data = json.loads(text)
    except ValueError:
        return text.strip()
    return str(data.get("message", text)) if isinstance(data, dict) else text.strip()


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(p.get("text", "")) for p in content if isinstance(p, Mapping))
    return ""
