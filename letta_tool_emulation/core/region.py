"""The values the scanner and the interpreter hand each other: a region, and its reading."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .context import Context, Shown
from .formats import FormatSpec
from .results import Format, StreamEvent

# Finish reasons that mean the model ended its reply on purpose. Any other reason (length,
# max_tokens, content_filter, a provider's own word for a limit or a filter) means the reply was
# cut: an unfinished block is then never mended and run. Unknown reasons fail closed.
FINISHED = frozenset({"stop", "tool_calls", "function_call", "end_turn", "stop_sequence", "tool_use", "eos"})
LENGTH_REASONS = frozenset({"length", "max_tokens", "max_output_tokens", "model_length"})

NOT_DECODED = object()  # a region's JSON that the scanner did not decode on the way
EXCERPT_CHARS = 160


@dataclass(slots=True)
class Region:
    """A stretch of the reply that may hold one or more calls."""

    spec: FormatSpec  # the syntax it was written in
    format: Format  # the format its calls are reported as
    text: str  # the JSON, or for a fence its content
    raw: str  # all the region covered, markers included, to give it back as prose if need be
    complete: bool = True  # the JSON's brackets all closed
    end_marker: bool | None = None  # None where the format has no end marker
    open_brackets: str = ""  # brackets still open where the JSON stopped
    in_string: bool = False  # the JSON stopped inside a string
    too_deep: bool = False  # brackets nested deeper than the parser reads
    cut: bool = False  # a new call began while its brackets were still open
    name: str | None = None  # a tool name given outside the JSON (an attribute, ReAct's Action:)
    params: str | None = None  # arguments given in an attribute
    fence_info: str | None = None
    finish_reason: str | None = None
    context: Context | None = None
    value: object = NOT_DECODED  # the JSON already decoded when it was valid as it stood


@dataclass(slots=True)
class Reading:
    """What the interpreter made of a region."""

    events: list[StreamEvent] = field(default_factory=list)
    call_attempt: bool = True  # the model evidently wrote a call; False: ordinary text after all
    shown: Shown | None = None  # call-shaped, but what it holds shows rather than performs


Interpret = Callable[[Region], Reading]


def is_cut(finish_reason: str | None) -> bool:
    """Whether a reply that ended so was cut short rather than finished (None: not known)."""
    return finish_reason is not None and finish_reason.strip().lower() not in FINISHED


def cut_why(finish_reason: str | None) -> str:
    """Why a reply was cut, as a parenthesis for a problem's message ("" when not cut)."""
    if not is_cut(finish_reason):
        return ""
    reason = (finish_reason or "").strip().lower()
    if reason in LENGTH_REASONS:
        return " (the reply hit its length limit)"
    if "filter" in reason or reason in ("safety", "recitation", "blocklist", "prohibited_content", "refusal"):
        return " (the provider's content filter stopped the reply)"
    return f" (the reply stopped early: {reason[:40]})"


def excerpt(text: str) -> str:
    """A region's text as quoted back in a problem: trimmed, and cut if long."""
    text = text.strip()
    return text if len(text) <= EXCERPT_CHARS else text[: EXCERPT_CHARS - 3] + "..."
