"""The scanner's states, which room reads each, and every transition between them.

In the manner of h11's ``_state.py``: the table is the specification. Every change of state
goes through :meth:`Scanner.go`, which records it while a test asks for that
(``scanner.record``); ``tests/core`` holds every transition observed on the corpus and the
property tests to the table, and the table to what is observed.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import IntEnum


class State(IntEnum):
    TEXT = 0  # prose (text.py)
    THINK = 1  # inside <think>...</think> (reasoning.py)
    BTICK = 2  # a backtick run inside a line (code.py)
    SPAN = 3  # inline code: streams until a backtick run, an opener or the line's end (code.py)
    SPAN_HOLD = 4  # inline code holding its text until it closes or the line ends (code.py)
    COMMENT = 5  # an HTML comment (code.py)
    LINE_RUN = 6  # backticks or tildes that begin a line: maybe a fence (fence.py)
    FENCE_INFO = 7  # a fence's info string (fence.py)
    FENCE = 8  # a fence's lines, streamed or held (fence.py)
    AFTER_OPENER = 9  # between an opener and its JSON (openers.py)
    TAG = 10  # an opening tag's attributes (openers.py)
    MALFORMED = 11  # an opener with no JSON, hidden up to its end (openers.py)
    REGION = 12  # the JSON of a call region: the bracket matcher (matcher.py)
    POST_REGION = 13  # after the JSON: its end marker, if it comes (matcher.py)
    DROP = 14  # after a tool result or another speaker's turn the model wrote itself: nothing more is read (text.py)
    FLOOD = 15  # past the block limit: the rest is text (text.py)


TEXT, THINK, BTICK, SPAN, SPAN_HOLD, COMMENT = (
    State.TEXT,
    State.THINK,
    State.BTICK,
    State.SPAN,
    State.SPAN_HOLD,
    State.COMMENT,
)
LINE_RUN, FENCE_INFO, FENCE = State.LINE_RUN, State.FENCE_INFO, State.FENCE
AFTER_OPENER, TAG, MALFORMED = State.AFTER_OPENER, State.TAG, State.MALFORMED
REGION, POST_REGION, DROP, FLOOD = State.REGION, State.POST_REGION, State.DROP, State.FLOOD

# Every transition, and what causes it.
TRANSITIONS: Mapping[State, Mapping[State, str]] = {
    TEXT: {
        BTICK: "a backtick run inside a line",
        COMMENT: "<!--",
        THINK: "<think> at the start of a line",
        LINE_RUN: "backticks or tildes at the start of a line",
        AFTER_OPENER: "an inline opener without attributes",
        TAG: "an inline opener with attributes",
        REGION: "a line-anchored opener (ReAct, a JSON line)",
        DROP: "a tool result the model wrote after its call, or a turn of another speaker after its own",
        FLOOD: "one block more than the limit",
    },
    THINK: {TEXT: "</think>"},
    BTICK: {SPAN: "the run opens inline code", TEXT: "the run is known to close nothing"},
    SPAN: {
        TEXT: "the code closes, or its line ends",
        SPAN_HOLD: "a backtick run or an opener, with the closing run not yet seen",
    },
    SPAN_HOLD: {TEXT: "the code closes, or its line ends and the held text is read again as prose"},
    COMMENT: {TEXT: "-->, or the reply ends"},
    LINE_RUN: {
        FENCE_INFO: "three or more",
        SPAN: "fewer backticks: inline code",
        TEXT: "fewer tildes, or the reply ends",
    },
    FENCE_INFO: {
        FENCE: "the info string's line ends",
        SPAN: "a backtick in the info string: inline code",
        TEXT: "the reply ends on the opening line",
    },
    FENCE: {TEXT: "the closing fence, or the reply ends"},
    AFTER_OPENER: {
        REGION: "JSON follows",
        MALFORMED: "no JSON after an opener that began its line",
        TEXT: "no JSON after an opener inside a line, or an empty block",
    },
    TAG: {AFTER_OPENER: "the tag closes", TEXT: "not an attribute list, or a self-closing tag"},
    MALFORMED: {TEXT: "the end marker, the next opener, or the reply's end"},
    REGION: {
        POST_REGION: "the JSON ends; its end marker may follow",
        TEXT: "the JSON ends and the block is decided, or it was no JSON after all",
    },
    POST_REGION: {TEXT: "the end marker, or anything else"},
    DROP: {},
    FLOOD: {},
}
# States in which the text read is held back as a possible call.
CALL_STATES = frozenset({AFTER_OPENER, MALFORMED, REGION, POST_REGION, TAG, LINE_RUN, FENCE_INFO})


def unknown(seen: set[tuple[State, State]]) -> list[str]:
    """The transitions in ``seen`` that the table does not have."""
    return sorted(f"{a.name} -> {b.name}" for a, b in seen if b not in TRANSITIONS[a])
