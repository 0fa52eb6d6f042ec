"""Value types shared by the parser, the prompt and the transcript renderer."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

# The format a call was written in: a format named in formats.FORMATS (canonical, hermes, xml, mistral,
# fence, react, bare, ...), or "envelope" for a constrained reply.
Format = str

ProblemKind = Literal[
    "truncated",  # a call was cut off before its JSON was complete
    "invalid_json",  # a call region that could not be read even after repair
    "malformed_call",  # call markers without a usable call inside
    "invalid_arguments",  # arguments that do not fit the tool's schema
    "unknown_tool",  # a tool name that is not in the tool list (the call is kept, unless the name only stands for one)
    "low_confidence",  # found, but below the configured confidence threshold
    "in_code_block",  # call markers inside a code block, not executed
    # A call-shaped block shown rather than performed, not executed (see core/context.py):
    "example",  # introduced as an example or format, under an example heading, a list item
    "quoted",  # in a blockquote, or quoting something earlier (a call, the instructions)
    "in_sentence",  # part of a sentence: prose runs into it or on after it on its line
    "proposed",  # offered rather than made ("the call I would make", "shall I go ahead?")
    "retracted",  # withdrawn by the line after it ("scratch that", "ignore the call above")
    "in_reasoning",  # drafted in reasoning that a lone </think> closed later
    "invented_result",  # a tool result the model wrote itself, dropped with what followed
    "invented_turn",  # a turn of another speaker the model wrote after its own, dropped with what followed
    "unclosed_reasoning",  # <think> without </think>
    "repaired",  # a call that was accepted after a repair (informational)
]


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One call the model meant to make, ready to execute."""

    name: str
    arguments: dict[str, Any]
    confidence: float
    format: Format = "canonical"
    # What was repaired or coerced to get here; empty for a clean canonical call.
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Problem:
    """Something in a reply that was rejected, repaired or deliberately ignored.

    ``rejected`` is true when the model evidently tried to call a tool and nothing was
    executed: such problems should be reported back to the model so it can retry.
    """

    kind: ProblemKind
    message: str
    rejected: bool = False
    tool_name: str | None = None
    excerpt: str = ""
    # For a block shown rather than performed because of words next to it (not its place in
    # the reply's structure): those words, as the model wrote them.
    words: str = ""


@dataclass(frozen=True, slots=True)
class StreamEvent:
    """One event from :class:`StreamingToolCallParser`: text, a call, reasoning or a problem."""

    text: str = ""
    call: ToolCall | None = None
    reasoning: str = ""
    problem: Problem | None = None


# Streaming hands out one text event for nearly every chunk, and a frozen dataclass's own
# __init__ (one object.__setattr__ per field) is most of that cost: the slots' descriptors set
# the same fields about twice as fast. The event is the same in every way.
_new_event = StreamEvent.__new__
_set_text = StreamEvent.__dict__["text"].__set__
_set_call = StreamEvent.__dict__["call"].__set__
_set_reasoning = StreamEvent.__dict__["reasoning"].__set__
_set_problem = StreamEvent.__dict__["problem"].__set__


def text_event(text: str) -> StreamEvent:
    """``StreamEvent(text=text)``, made quicker."""
    event = _new_event(StreamEvent)
    _set_text(event, text)
    _set_call(event, None)
    _set_reasoning(event, "")
    _set_problem(event, None)
    return event


@dataclass(slots=True)
class ParseResult:
    content: str = ""
    tool_calls: list[ToolCall] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    reasoning: str = ""
    # Whether the reply began inside reasoning that its chat template opened: True when it
    # closed such reasoning (a lone </think>, or the closing tag after ``in_reasoning``); False
    # when the parser was told it would (``in_reasoning``) and the reply never closed it; None
    # when nothing says either.
    template_reasoning: bool | None = None

    @property
    def rejected(self) -> list[Problem]:
        """Problems the model should hear about: attempted calls that did not run."""
        return [p for p in self.problems if p.rejected]
