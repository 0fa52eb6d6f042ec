"""Reasoning: <think> blocks (or a harmony analysis message) opened at the start of a line,
and a lone </think> closing reasoning that the chat template opened before the reply began."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import markers as M
from ..results import Problem, StreamEvent
from .states import TEXT

if TYPE_CHECKING:
    from .scanner import Scanner


class Reasoning:
    """The THINK state."""

    __slots__ = ("at_start", "buf", "end", "explicit", "lines", "lone_closed", "open", "sc", "settle", "template")

    def __init__(self, sc: Scanner) -> None:
        self.sc = sc
        self.buf = sc.buf
        self.settle = sc.settle
        self.lines = sc.lines
        self.explicit = False  # the reply opened reasoning itself
        self.open = False  # and has not closed it
        self.lone_closed = False  # a lone </think> closed reasoning the reply began in
        self.template = False  # the reply began inside reasoning its chat template opened
        self.at_start = False  # and nothing of it has been read yet
        self.end = M.THINK_END  # what closes the reasoning now open

    @property
    def settled(self) -> bool:
        """Whether a later </think> is only a stray tag."""
        return self.explicit or self.lone_closed

    @property
    def template_reasoning(self) -> bool | None:
        """See ``ParseResult.template_reasoning`` (complete once the reply has ended)."""
        if self.template:
            return not self.open
        return True if self.lone_closed else None

    def begin(self, harmony: bool = False) -> None:
        self.explicit = True
        self.open = True
        self.end = M.HARMONY_END if harmony else M.THINK_END

    def begin_in_template(self) -> None:
        """The caller knows that this model's chat template opens reasoning before the reply
        (it has closed such reasoning with a lone </think> before): the reply starts as
        reasoning, streamed as such, until its closing tag."""
        self.begin()
        self.template = True
        self.at_start = True

    def think(self, eof: bool) -> bool:
        b = self.buf
        buf, pos = b.text, b.pos
        if self.at_start:  # the template's opening tag, written again by the model, is no reasoning
            opening = M.THINK_AT_START.match(buf, pos, partial=not eof)
            if opening is not None and opening.partial:
                return False
            self.at_start = False
            if opening is not None:
                pos = b.pos = opening.end()
        m = self.end.search(buf, pos, partial=not eof)
        end = len(buf) if m is None else m.start()
        if end > pos:
            if self.settle.unterminated is not None:
                self.settle.watch_end(buf[pos:end])
            self.sc.out.emit(StreamEvent(reasoning=buf[pos:end]))
            b.pos = end
        if m is None or m.partial:
            return False
        if not eof and self.end is M.HARMONY_END and len(buf) - m.end() < M.HARMONY_HEADER_CHARS:
            return False  # (the end token may go on into the final message's header)
        b.pos = m.end()
        self.open = False
        self.sc.go(TEXT)
        self._ended()  # reasoning first, then a bare JSON call, is a common shape
        return True

    def close_lone(self) -> None:
        """A lone </think>: what the reply drafted before it was reasoning, and does not run."""
        self.lone_closed = True
        self.settle.drop_drafts()
        self._ended()

    def _ended(self) -> None:
        """After </think> the visible reply starts afresh."""
        self.settle.last_shown = None
        self.lines.forget_recent()
        self.lines.new_line()

    def unclosed(self) -> None:
        """The reply ended: reasoning it opened and never closed is reported."""
        if self.open:
            said = (
                "The reasoning the chat template opened was never closed; the reply's text was kept as reasoning."
                if self.template
                else "A <think> block was never closed; its text was kept as reasoning."
            )
            self.sc.out.emit(StreamEvent(problem=Problem("unclosed_reasoning", said)))
