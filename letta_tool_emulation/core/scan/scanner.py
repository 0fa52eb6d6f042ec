"""The lexical half of the parser: where calls, code, reasoning and prose begin and end.

One scanner serves streaming and one-shot parsing (one-shot is a single ``feed`` and
``close``). Every decision depends only on the text, never on how it was chunked: whatever
could still become a marker is held back, everything else is released at once.

Linear time: every pattern tried at a position has a bounded length, and every unbounded run
(blanks, backticks, a tag's attributes, a string, a fence's lines) is consumed by a state
that resumes where it stopped. Each character is looked at a bounded number of times however
the text is chunked.

The scanner is a state machine (``states.py`` lists the states and every transition) whose
rooms each own their state: the buffer and hold (``buffer.py``), what was handed out
(``output.py``), the line and the prose so far (``lines.py``), when a block is decided
performed or shown (``settle.py``), and one room per construct: prose (``text.py``), inline
code and comments (``code.py``), fences (``fence.py``), openers (``openers.py``), the JSON of a
region (``matcher.py``) and reasoning (``reasoning.py``). A region, once delimited, goes to the
interpreter (``calls.py``), and its reading to ``Settle``.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from .. import markers as M
from ..region import Interpret
from ..results import StreamEvent, _new_event, _set_call, _set_problem, _set_reasoning, _set_text
from . import states
from .buffer import Buffer
from .code import Code
from .fence import Fence
from .lines import HEAD, Lines
from .matcher import Matcher
from .openers import Openers
from .output import Output
from .reasoning import Reasoning
from .settle import Settle
from .states import CALL_STATES, FENCE, FLOOD, REGION, TEXT, THINK, State
from .text import Text


class Scanner:
    __slots__ = (
        "_handlers",
        "buf",
        "closed",
        "closing",
        "code",
        "fence",
        "finish_reason",
        "lines",
        "matcher",
        "openers",
        "out",
        "reasoning",
        "settle",
        "state",
        "text",
    )

    def __init__(self, interpret: Interpret, *, in_reasoning: bool = False) -> None:
        """``in_reasoning``: the reply begins inside reasoning that its chat template opened."""
        self.state = TEXT
        self.closed = False
        self.closing = False  # the reply has ended (close() is running)
        self.finish_reason: str | None = None
        self.buf = Buffer()
        self.out = Output()
        self.lines = Lines(self.out.texts, self.out.pending)
        self.settle = Settle(self, interpret)
        self.code = Code(self)
        self.fence = Fence(self)
        self.matcher = Matcher(self)
        self.openers = Openers(self)
        self.reasoning = Reasoning(self)
        self.text = Text(self)
        if in_reasoning:
            self.reasoning.begin_in_template()
            self.state = THINK
        # Each handler reads from the buffer in its state and says whether to go on: False
        # when it needs more text.
        self._handlers = _handlers_of(self)

    @property
    def in_call(self) -> bool:
        """Whether a possible call is being read (its text is held back)."""
        state = self.state
        return state in CALL_STATES or (state == FENCE and self.fence.hold) or bool(self.settle.items)

    # -- reading -------------------------------------------------------------------------------

    def go(self, state: State) -> None:
        """Change state (every change is one of ``states.TRANSITIONS``; see :func:`record`)."""
        self.state = state

    def feed(self, chunk: str) -> list[StreamEvent]:
        if self.closed or not chunk:
            return []
        b = self.buf
        state = self.state
        if state is TEXT:  # states are the enum's members: identity is the cheapest test
            settle = self.settle
            if not settle.items:
                lines = self.lines
                held = b.text
                if not held and not lines.blank and _PLAIN(chunk):
                    # Prose with nothing to look at (no newline either): released as it is.
                    # Most streamed chunks come here, so what Lines.track does with prose in
                    # the middle of a line, and text_event, are written out in place: calling
                    # them cost as much as their work.
                    n = len(chunk)
                    b.base += n
                    if settle.unterminated is not None:
                        settle.watch_end(chunk)
                    lines.emitted += n
                    head = lines.head
                    if len(head) < HEAD:
                        lines.head = head + chunk[: HEAD - len(head)]
                    last = chunk[-1]
                    if last not in _TRAILING_BLANKS:
                        lines.last = last
                    else:
                        stripped = chunk.rstrip(_TRAILING_BLANKS)
                        if stripped:
                            lines.last = stripped[-1]
                    lines.texts.append(chunk)  # the prose Output keeps (one list, shared)
                    event = _new_event(StreamEvent)
                    _set_text(event, chunk)
                    _set_call(event, None)
                    _set_reasoning(event, "")
                    _set_problem(event, None)
                    return [event]
                # The buffer holds only what the TEXT state left undecided at the end of the last
                # chunk (a newline, the start of a possible marker), and it reads the two
                # together from the start just as it reads a chunk.
                text = held + chunk if held else chunk
                at = 0
                if lines.blank:
                    # At a line start it steps over blank lines and indentation, and looks
                    # closer only at a line that begins like a line-anchored construct.
                    first = _NOT_BLANK(text)
                    at = len(text) if first is None else first.start()
                if not lines.blank or (at < len(text) and text[at] not in M.LINE_START_CHARS):
                    # Where the TEXT state would find no candidate, it would release the text
                    # whole; where the end of the text cuts the first one (a line's end, "T"),
                    # the prose before it, keeping the rest to read with the next chunk. This
                    # does the same without entering the state machine.
                    if len(text) - at <= M.CANDIDATE_SPAN and _PLAIN_LINES(text, at) is not None:
                        # Most streamed chunks that hold a line's end: no candidate, and none
                        # that the end may cut, is told by one match, without the searches. (Not
                        # asked of a long text, where both searches together cost less than a
                        # match that fails only at its end.)
                        b.text = ""
                        return self._prose(text)
                    found = M.find_candidate(text, at, False, self.reasoning.settled)
                    if found is None:
                        b.text = ""
                        return self._prose(text)
                    c, cut = found
                    if cut:
                        b.text = text[c:]
                        return self._prose(text[:c]) if c else []
                    if at == 0:
                        # The TEXT state asks the same question first: it is not searched twice.
                        self.text.known = (text, found)
                b.text = text
                self._run(eof=False)
                return self.out.take()
        elif not b.text:  # nothing undecided is waiting: try the fast paths
            if state is FLOOD and not self.settle.items:
                # Past the block limit everything is prose, released as it comes (text.flood).
                return self._prose(chunk)
            elif state is REGION:
                m = self.matcher
                quote = m.quote
                if (
                    quote is not None
                    and chunk[-1] != "\\"
                    and "\n" not in chunk
                    and (quote not in chunk or M.run_end(m.bodies[quote], chunk, 0) == len(chunk))
                ):
                    # Inside a string that goes on past this chunk: nothing here can end it.
                    b.hold_whole(chunk)
                    return []
        b.text = b.text + chunk if b.text else chunk
        self._run(eof=False)
        return self.out.take()

    def _prose(self, chunk: str) -> list[StreamEvent]:
        """Prose released in one piece, as the state machine would release it."""
        self.buf.base += len(chunk)
        settle = self.settle
        if settle.unterminated is not None:
            settle.watch_end(chunk)
        lines = self.lines
        lines.track(chunk)
        lines.texts.append(chunk)
        # text_event, written out in place as in feed: most streamed chunks that hold a line's
        # end come here.
        event = _new_event(StreamEvent)
        _set_text(event, chunk)
        _set_call(event, None)
        _set_reasoning(event, "")
        _set_problem(event, None)
        return [event]

    def close(self, finish_reason: str | None = None) -> list[StreamEvent]:
        if self.closed:
            return []
        self.finish_reason = finish_reason
        self._run(eof=True)
        self.closed = True
        self.settle.close()
        self.reasoning.unclosed()
        return self.out.take()

    def _run(self, eof: bool) -> None:
        self.closing = eof
        handlers = self._handlers
        while handlers[self.state](eof):
            pass
        self.text.known = None
        self.buf.compact()


# Each state's handler, by the room that owns it and the method's name.
_HANDLER_NAMES: dict[State, str] = {
    states.TEXT: "text.text",
    states.THINK: "reasoning.think",
    states.BTICK: "code.btick",
    states.SPAN: "code.span",
    states.SPAN_HOLD: "code.span_hold",
    states.COMMENT: "code.comment",
    states.LINE_RUN: "fence.line_run",
    states.FENCE_INFO: "fence.info_line",
    states.FENCE: "fence.fence",
    states.AFTER_OPENER: "openers.after_opener",
    states.TAG: "openers.tag",
    states.MALFORMED: "openers.malformed",
    states.REGION: "matcher.json",
    states.POST_REGION: "matcher.after_json",
    states.DROP: "text.drop",
    states.FLOOD: "text.flood",
}
# A scanner's handlers indexed by state, bound to its rooms in one call: the table is put in
# state order once, not for every scanner (walking the enum cost more than the rest of
# building a scanner).
_handlers_of: Callable[[Scanner], tuple[Callable[[bool], bool], ...]] = operator.attrgetter(
    *(_HANDLER_NAMES[state] for state in State)
)

_PLAIN = M.PLAIN.fullmatch
_PLAIN_LINES = M.PLAIN_LINES.fullmatch
_TRAILING_BLANKS = " \t\r"  # what a line's last character is looked for behind
_NOT_BLANK = M.NOT_BLANK.search

# Transitions seen while record() runs; None otherwise.
_observed: set[tuple[State, State]] | None = None


def _go_recording(self: Scanner, state: State) -> None:
    if _observed is not None and state != self.state:
        _observed.add((self.state, state))
    self.state = state


_go = Scanner.go


@contextmanager
def record() -> Iterator[set[tuple[State, State]]]:
    """Collect every transition any scanner takes while the block runs (for tests: the
    scanner's go() records nothing otherwise, and costs nothing more than the assignment)."""
    global _observed
    outer = _observed
    seen: set[tuple[State, State]] = set()
    _observed = seen
    setattr(Scanner, "go", _go_recording)  # noqa: B010 - swapped in only while a test records
    try:
        yield seen
    finally:
        _observed = outer
        if outer is None:
            setattr(Scanner, "go", _go)  # noqa: B010
        else:
            outer |= seen
