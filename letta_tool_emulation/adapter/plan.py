"""Turning an emulated request's reply into what Letta expects, shared by the blocking and
the streaming paths: tool calls with ids, the prose kept as reasoning, Letta's own extra
arguments (``thinking``, ``request_heartbeat``) filled in, re-asks, usage estimates."""

from __future__ import annotations

import json
import math
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..core import ParseResult, ToolSpec, render_feedback
from ..core.prompt import forced_tool_name
from ..selection import Decision

MARK = "_letta_tool_emulation"  # private key on request and response dicts; never sent
INNER_THOUGHTS = "thinking"  # letta.local_llm.constants.INNER_THOUGHTS_KWARG
HEARTBEAT = "request_heartbeat"  # letta.constants.REQUEST_HEARTBEAT_PARAM
REPLY_TOOL = "send_message"  # memgpt-style agents answer the user through this tool
INJECTED_PARAMS = (INNER_THOUGHTS, HEARTBEAT)
TOOL_CALL_ID_LEN = 29  # letta.constants.TOOL_CALL_ID_MAX_LEN


def new_call_id() -> str:
    return ("call_" + uuid.uuid4().hex)[:TOOL_CALL_ID_LEN]


@dataclass
class Plan:
    """What build_request_data decided for one emulated request."""

    decision: Decision
    tools: dict[str, ToolSpec]  # as shown to the model: Letta's injected parameters removed
    inner_thoughts: frozenset[str] = frozenset()  # tools whose schema has Letta's `thinking`
    heartbeat: frozenset[str] = frozenset()  # tools whose schema has `request_heartbeat`
    tool_choice: Any = None
    parallel: bool = False  # Letta runs several calls of one reply itself
    queued: dict[str, Any] | None = None  # a call from an earlier reply to hand out now
    max_reasks: int = 2
    threshold: float = 0.5

    @property
    def required(self) -> bool:
        return self.tool_choice in ("required", "any") or forced_tool_name(self.tool_choice) is not None


def strip_injected(tool: Mapping[str, Any]) -> tuple[ToolSpec, bool, bool]:
    """The tool as the model should see it, and whether Letta had added `thinking` /
    `request_heartbeat` (memgpt-style agents): the adapter fills those in itself."""
    fn = tool.get("function") if isinstance(tool.get("function"), Mapping) else tool
    params = dict(fn.get("parameters") or {})
    props = dict(params.get("properties") or {})
    has_thoughts = INNER_THOUGHTS in props
    has_heartbeat = HEARTBEAT in props
    for name in INJECTED_PARAMS:
        props.pop(name, None)
    params["properties"] = props
    if isinstance(params.get("required"), list):
        params["required"] = [r for r in params["required"] if r not in INJECTED_PARAMS]
    spec = ToolSpec(name=str(fn.get("name")), description=str(fn.get("description") or ""), parameters=params)
    return spec, has_thoughts, has_heartbeat


def approx_tokens(text: str) -> int:
    """Letta's own estimate for OpenAI-compatible endpoints: UTF-8 bytes / 4."""
    return math.ceil(len(text.encode("utf-8", "replace")) / 4) if text else 0


def prompt_tokens(messages: list[Mapping[str, Any]]) -> int:
    return sum(approx_tokens(str(m.get("content") or "")) + 4 for m in messages)


@dataclass
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    estimated: bool = False

    def add(self, reported: Any, request_messages: list[Mapping[str, Any]], reply: str) -> None:
        """Add one model call's usage, estimating what the endpoint left out or reported as 0."""
        p = _get(reported, "prompt_tokens")
        c = _get(reported, "completion_tokens")
        if not p:
            p = prompt_tokens(request_messages)
            self.estimated = True
        if not c:
            c = approx_tokens(reply)
            self.estimated = True
        self.prompt_tokens += p
        self.completion_tokens += c

    def as_dict(self) -> dict[str, int]:
        return {
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "total_tokens": self.prompt_tokens + self.completion_tokens,
        }


def _get(obj: Any, key: str) -> int:
    value = obj.get(key) if isinstance(obj, Mapping) else getattr(obj, key, None)
    return value if isinstance(value, int) and value > 0 else 0


@dataclass
class Settled:
    """The decision about one reply."""

    content: str  # prose for the user
    reasoning: str  # <think> text and reasoning_content from the endpoint
    calls: list[dict[str, Any]] = field(default_factory=list)  # OpenAI tool_calls, ready for Letta
    queue: list[dict[str, Any]] = field(default_factory=list)  # further calls, for later steps
    reask: str = ""  # feedback to send back before giving up on this reply
    feedback: str = ""  # feedback to show the model on its next request
    problems: list[str] = field(default_factory=list)

    @property
    def carried_prose(self) -> str:
        """What to keep as reasoning so it survives Letta's scrubbing of text next to calls."""
        return "\n\n".join(p for p in (self.reasoning, self.content) if p)


def settle(plan: Plan, result: ParseResult, upstream_reasoning: str = "") -> Settled:
    reasoning = "\n\n".join(p for p in (upstream_reasoning.strip(), result.reasoning) if p)
    if not plan.tools:
        # No tools were offered (Letta's summarizer, for one): the reply is plain text, even
        # if it happens to contain call syntax.
        return Settled(content=result.content, reasoning=reasoning)
    s = Settled(content=result.content, reasoning=reasoning, problems=[p.message for p in result.problems])
    calls = [(c.name, dict(c.arguments)) for c in result.tool_calls]
    feedback = render_feedback(result.problems, executed=len(calls))

    if not calls and not feedback and plan.required:
        if REPLY_TOOL in plan.tools and result.content:
            # A memgpt-style agent must answer through send_message; the model answered
            # directly instead. That is the same message, so deliver it as one.
            calls = [(REPLY_TOOL, {"message": result.content})]
            s.content = ""
        else:
            name = forced_tool_name(plan.tool_choice)
            feedback = (
                f"You must call the tool {name} now" if name else "You must call a tool now"
            ) + ", in a TOOL_CALL_START block. Write the call in your next reply."
    if not calls:
        s.reask = feedback
        return s
    s.feedback = feedback  # the calls run; the model hears about the rest next time

    prose = s.carried_prose
    built = [_tool_call(plan, name, args, prose if i == 0 else "") for i, (name, args) in enumerate(calls)]
    if plan.parallel:
        s.calls = built
    else:
        # One call per step, in the order written, so each gets its own result. A reply
        # through send_message ends a memgpt-style turn, so it goes after the other calls.
        ordered = [c for c in built if c["function"]["name"] != REPLY_TOOL] + [
            c for c in built if c["function"]["name"] == REPLY_TOOL
        ]
        s.calls, s.queue = ordered[:1], ordered[1:]
    return s


def _tool_call(plan: Plan, name: str, args: dict[str, Any], prose: str) -> dict[str, Any]:
    if name in plan.inner_thoughts:
        # Letta reads the agent's inner thoughts from this argument, and streams it first.
        args = {INNER_THOUGHTS: prose, **{k: v for k, v in args.items() if k != INNER_THOUGHTS}}
    if name in plan.heartbeat and HEARTBEAT not in args:
        # What a native model would send: keep going after a tool, stop after replying.
        args[HEARTBEAT] = name != REPLY_TOOL
    return {
        "id": new_call_id(),
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)},
    }


def reask_messages(messages: list[dict[str, Any]], reply: str, feedback: str) -> list[dict[str, Any]]:
    """The conversation with the failed reply and the feedback appended, roles alternating."""
    out = [dict(m) for m in messages]
    if reply.strip():
        out.append({"role": "assistant", "content": reply})
    if out and out[-1]["role"] == "user":
        out[-1]["content"] = f"{out[-1]['content']}\n\n{feedback}"
    else:
        out.append({"role": "user", "content": feedback})
    return out


def given_up_content(s: Settled, attempts: int) -> str:
    """What the user sees when the model never produced a usable call."""
    if s.content:
        return s.content
    detail = "; ".join(s.problems) or "no call could be read"
    return f"(The model tried to use a tool {attempts} time(s), but no valid call could be read: {detail})"
