"""The values an emulated step hands from stage to stage, all in one place.

A step starts as an :class:`EmulatedRequest` (the body for the endpoint, carrying its
:class:`Step`), runs as one or more :class:`Attempt` objects (one per model request; a
re-ask is another attempt) and ends as an :class:`Outcome`, which a driver turns into what
its caller reads. :class:`Pending` holds what one reply leaves for later steps.

Nothing here imports letta; the names of Letta's injected parameters are plain strings.
"""

from __future__ import annotations

import json
import logging
import math
import os
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from .core import ParseResult, StreamEvent, ToolSpec
from .core.calls import DEFAULT_THRESHOLD
from .core.prompt import forced_tool_name
from .selection import Decision

log = logging.getLogger("letta_tool_emulation")

INNER_THOUGHTS = "thinking"  # letta.local_llm.constants.INNER_THOUGHTS_KWARG
HEARTBEAT = "request_heartbeat"  # letta.constants.REQUEST_HEARTBEAT_PARAM
REPLY_TOOL = "send_message"  # memgpt-style agents answer the user through this tool
INJECTED_PARAMS = (INNER_THOUGHTS, HEARTBEAT)
TOOL_CALL_ID_LEN = 29  # letta.constants.TOOL_CALL_ID_MAX_LEN

ToolCallDict = dict[str, Any]  # OpenAI's {"id", "type": "function", "function": {"name", "arguments"}}


def new_call_id() -> str:
    return ("call_" + uuid.uuid4().hex)[:TOOL_CALL_ID_LEN]


def _env_number(name: str, default: float, kind: type = int) -> Any:
    try:
        return kind(os.environ.get(name, default))
    except ValueError:
        log.warning("letta_tool_emulation: %s is not a number; using %s", name, default)
        return kind(default)


@dataclass(frozen=True, slots=True)
class Settings:
    """The user's settings for emulated steps (environment variables, read per request)."""

    max_reasks: int = 2
    threshold: float = DEFAULT_THRESHOLD
    # One reply may hold more calls than any agent needs; the rest are reported back.
    max_calls_per_reply: int = 16
    # The output limit where the model's own is unknown (a rambling model must end its reply).
    max_output_tokens: int = 2048

    @classmethod
    def from_env(cls) -> Settings:
        return cls(
            max_reasks=max(0, _env_number("LETTA_TOOL_EMULATION_MAX_RETRIES", 2)),
            threshold=_env_number("LETTA_TOOL_EMULATION_THRESHOLD", DEFAULT_THRESHOLD, float),
            max_calls_per_reply=max(1, _env_number("LETTA_TOOL_EMULATION_MAX_CALLS", 16)),
            max_output_tokens=max(16, _env_number("LETTA_TOOL_EMULATION_MAX_OUTPUT_TOKENS", 2048)),
        )


class Reader(Protocol):
    """What turns a reply's text into calls: the free-text parser (or any parser with its surface)."""

    def feed(self, chunk: str | bytes) -> list[StreamEvent]: ...
    def close(self, finish_reason: str | None = None) -> list[StreamEvent]: ...
    @property
    def in_call(self) -> bool: ...
    @property
    def result(self) -> ParseResult: ...


@dataclass(frozen=True, slots=True)
class Step:
    """What building the request decided about one emulated step."""

    decision: Decision
    tools: Mapping[str, ToolSpec]  # as shown to the model: Letta's injected parameters removed
    inner_thoughts: frozenset[str] = frozenset()  # tools whose schema has Letta's `thinking`
    heartbeat: frozenset[str] = frozenset()  # tools whose schema has `request_heartbeat`
    tool_choice: Any = None
    parallel: bool = False  # Letta runs several calls of one reply itself
    queued: ToolCallDict | None = None  # a call from an earlier reply to hand out now, without a model request
    settings: Settings = field(default_factory=Settings)
    output_limit: int | None = None  # max_completion_tokens of the request
    constrained: str | None = None  # the request shape of the reply schema; None: free text
    endpoint: str | None = None  # the model endpoint's URL (what a refused schema is remembered for)

    @property
    def required(self) -> bool:
        return self.tool_choice in ("required", "any") or forced_tool_name(self.tool_choice) is not None


class EmulatedRequest(dict[str, Any]):
    """The request body for the endpoint (a plain dict to everything that reads it, Letta's
    provider traces included) carrying the :class:`Step` it was built for."""

    step: Step
    fallback: dict[str, Any] | None  # the same request in free text, for an endpoint that refuses the schema

    def __init__(self, body: Mapping[str, Any], step: Step, fallback: dict[str, Any] | None = None) -> None:
        super().__init__(body)
        self.step = step
        self.fallback = fallback


def approx_tokens(text: str) -> int:
    """Letta's own estimate for OpenAI-compatible endpoints: UTF-8 bytes / 4."""
    return math.ceil(len(text.encode("utf-8", "replace")) / 4) if text else 0


def prompt_tokens(messages: list[Mapping[str, Any]]) -> int:
    return sum(approx_tokens(str(m.get("content") or "")) + 4 for m in messages)


def _count(obj: Any, key: str) -> int:
    value = obj.get(key) if isinstance(obj, Mapping) else getattr(obj, key, None)
    return value if isinstance(value, int) and value > 0 else 0


@dataclass(slots=True)
class Usage:
    """Token usage over all attempts of a step; estimated where the endpoint reports none
    (Letta's compaction is driven by it, so it is never 0)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    estimated: bool = False

    def add(self, reported: Any, request_messages: list[Mapping[str, Any]], reply: str) -> None:
        p, c = _count(reported, "prompt_tokens"), _count(reported, "completion_tokens")
        if not p:
            p, self.estimated = prompt_tokens(request_messages), True
        if not c:
            c, self.estimated = approx_tokens(reply), True
        self.prompt_tokens += p
        self.completion_tokens += c

    def as_dict(self) -> dict[str, int]:
        return {
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "total_tokens": self.prompt_tokens + self.completion_tokens,
        }


class Attempt:
    """One model request of a step. The driver sends :attr:`body`, feeds what comes back
    into :meth:`content` / :meth:`reasoning` as it arrives, then calls :meth:`end`; the
    events these return are what a streaming caller may show at once."""

    def __init__(self, number: int, body: dict[str, Any], reader: Reader | None, constrained: bool = False) -> None:
        self.number = number
        self.body = body
        self.reader = reader  # None: no tools were offered, the reply is plain text
        self.constrained = constrained  # the request carries the reply schema
        self._text: list[str] = []
        self._reasoning: list[str] = []
        self.finish_reason: str | None = None
        self.reported_usage: Any = None
        self.ended = False

    @property
    def messages(self) -> list[dict[str, Any]]:
        return self.body["messages"]

    @property
    def text(self) -> str:
        return "".join(self._text)

    @property
    def upstream_reasoning(self) -> str:
        return "".join(self._reasoning)

    @property
    def in_call(self) -> bool:
        return self.reader is not None and self.reader.in_call

    def content(self, text: str | None) -> list[StreamEvent]:
        if not text:
            return []
        self._text.append(text)
        return self.reader.feed(text) if self.reader is not None else [StreamEvent(text=text)]

    def reasoning(self, text: str | None) -> None:
        if text:
            self._reasoning.append(text)

    def end(self, finish_reason: str | None, usage: Any = None) -> list[StreamEvent]:
        self.finish_reason, self.reported_usage, self.ended = finish_reason, usage, True
        return self.reader.close(finish_reason) if self.reader is not None else []

    def result(self) -> ParseResult:
        return self.reader.result if self.reader is not None else ParseResult(content=self.text)


@dataclass(frozen=True, slots=True)
class Outcome:
    """The settled step: what Letta gets."""

    calls: list[ToolCallDict]  # to execute now, in order
    content: str  # the answer, or the text next to the calls
    reasoning: str  # what Letta stores as the step's reasoning
    usage: Usage
    attempts: int  # model requests made (0: a queued call was handed out)
    finish_reason: str = "stop"
    queue: list[ToolCallDict] = field(default_factory=list)  # further calls, one per later step
    feedback: str = ""  # about rejected calls, for the model's next request
    gave_up: bool = False  # no usable call after the last re-ask: `content` explains that


class Pending:
    """What one emulated reply leaves for later steps of the same agent loop: its further
    calls (handed out one per step, without asking the model again) and feedback about its
    rejected calls (added to the model's next request).

    Lifetime: Letta builds one LLM client per agent loop, which runs inside one API request,
    so this object lives on that client and dies with it; nothing here is needed by another
    request or another worker process. A queued call is handed out only while the history
    shows the previous one answered; if the conversation moved on (the turn was abandoned
    halfway, a user message came in), the queue is dropped with a warning. Bounded by
    :attr:`Settings.max_calls_per_reply`.
    """

    def __init__(self) -> None:
        self.queue: list[ToolCallDict] = []
        self.after: str | None = None  # the call whose result must come before the next one
        self.feedback = ""

    def next_call(self, history: list[Mapping[str, Any]]) -> ToolCallDict | None:
        if not self.queue:
            return None
        expected = (self.after or "")[:TOOL_CALL_ID_LEN]
        last_call = next((m for m in reversed(history) if m.get("role") == "assistant" and m.get("tool_calls")), None)
        answered = any(m.get("role") == "tool" and m.get("tool_call_id") == expected for m in history)
        if last_call is not None and answered and _call_id(last_call["tool_calls"][-1]) == expected:
            call = self.queue.pop(0)
            self.after = call["id"]
            return call
        log.warning(
            "letta_tool_emulation: %d further call(s) from the model's last reply were not run: the "
            "conversation moved on before their turn (%s).",
            len(self.queue),
            ", ".join(c["function"]["name"] for c in self.queue),
        )
        self.queue.clear()
        return None

    def take_feedback(self) -> str:
        feedback, self.feedback = self.feedback, ""
        return feedback

    def keep(self, outcome: Outcome) -> None:
        self.queue = list(outcome.queue)
        self.after = outcome.calls[0]["id"] if outcome.calls else None
        self.feedback = outcome.feedback


def _call_id(call: Mapping[str, Any]) -> str:
    return str(call.get("id", ""))[:TOOL_CALL_ID_LEN]


def call_arguments(call: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments of an OpenAI tool call as a dict ({} when unreadable)."""
    fn = call.get("function") if isinstance(call.get("function"), Mapping) else {}
    try:
        args = json.loads(fn.get("arguments") or "{}")
    except ValueError:
        return {}
    return args if isinstance(args, dict) else {}
