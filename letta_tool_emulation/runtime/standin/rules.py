"""How the stand-in answers when nothing is scripted: the rules of a helpful model, in sloppy
mode the ways real models drift when they write calls, and in natural mode the prose real
models write around them (``natural.py``)."""

from __future__ import annotations

import contextlib
import json
import random
import re
from collections.abc import Mapping
from typing import Any

from ...core import parse_tool_calls
from ...core.feedback import FEEDBACK_OPENINGS
from ...core.markers import RESULT_END, RESULT_LABEL
from ...core.prompt import INSTRUCTION_OPENINGS
from .natural import natural_reply

_TOOL_LINE = re.compile(r"^- ([A-Za-z_][\w]*)\(", re.MULTILINE)
_REMEMBER = re.compile(r"\bremember(?: that)?\s+(.+?)(?=(?:\s+and also\s+)|$)", re.IGNORECASE | re.MULTILINE)
_REPLACE = re.compile(r"\b(?:replace|change)\s+['\"](.+?)['\"]\s+(?:with|to)\s+['\"](.+?)['\"]", re.IGNORECASE)
_ARCHIVE = re.compile(r"\b(?:archive|file away) that\s+(.+?)(?=(?:\s+and also\s+)|$)", re.IGNORECASE | re.MULTILINE)
_SEARCH_ARCHIVE = re.compile(r"\bsearch (?:the )?archive(?:s)? for\s+(.+?)(?=[.?!]?$)", re.IGNORECASE)
_SEARCH_CHAT = re.compile(r"\bsearch (?:our|the) conversation for\s+(.+?)(?=[.?!]?$)", re.IGNORECASE)
_CALL = re.compile(r"\bcall ([A-Za-z_]\w*) with (\{.*\})", re.IGNORECASE | re.DOTALL)


# What the emulation layer appends to a user message: an instruction (tool_choice) or
# feedback about a rejected call, in the plugin's own words. Neither is the user speaking.
_INSTRUCTION = INSTRUCTION_OPENINGS
_FEEDBACK = FEEDBACK_OPENINGS
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

    calls = []
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

    out: list[Mapping[str, Any]] = [dict(m) for m in messages]
    # A re-ask: the rejected reply, then a message that is nothing but feedback.
    while len(out) >= 2 and out[-2].get("role") == "assistant" and only_feedback(out[-1]):
        out = out[:-2]
    if out and has_feedback(out[-1]):  # feedback added to the user's own message
        content = out[-1]["content"]
        cuts = [i for i in (content.find("\n\n" + f) for f in _FEEDBACK) if i >= 0]
        out[-1] = {**out[-1], "content": content[: min(cuts)] if cuts else content}
    return out


def write_calls(
    calls: list[tuple[str, dict[str, Any]]],
    text: str,
    rng: random.Random | None,
    retry: bool,
    natural: random.Random | None = None,
) -> str:
    """The reply a model without function calling writes: canonical, or drifted when sloppy
    (``rng``), inside everyday prose when natural (``natural``). A retry is always clean."""
    if retry or (rng is None and natural is None):
        blocks = [f"TOOL_CALL_START\n{json.dumps({'function': n, 'params': a})}\nTOOL_CALL_END" for n, a in calls]
        return "\n".join(([text] if text else []) + blocks)
    if natural is not None:
        blocks = [
            _sloppy_call(n, a, rng)
            if rng is not None
            else f"TOOL_CALL_START\n{json.dumps({'function': n, 'params': a}, ensure_ascii=False)}\nTOOL_CALL_END"
            for n, a in calls
        ]
        return natural_reply(blocks, natural, saves=any(n != "send_message" for n, _ in calls))
    assert rng is not None
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
        return f"TOOL_CALL_START\n{call!r}\nTOOL_CALL_END"
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
