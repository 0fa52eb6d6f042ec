"""The values the scanner and the interpreter hand each other: a region, and its reading."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .context import Context, Shown
from .formats import FormatSpec
from .results import Format, StreamEvent

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


def excerpt(text: str) -> str:
    """A region's text as quoted back in a problem: trimmed, and cut if long."""
    text = text.strip()
    return text if len(text) <= EXCERPT_CHARS else text[: EXCERPT_CHARS - 3] + "..."
