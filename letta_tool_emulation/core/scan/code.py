"""Inline code and HTML comments: prose that holds no calls.

A backtick run opens inline code only if a run of the same length closes it on its line.
From the first backtick run or opener inside it on, its text is held until that is clear; if
the line ends first, it was no code, and the held text is read again as prose, with the runs
in it that no later run of their length follows marked as closing nothing (so each character
is read again at most once).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import regex

from .. import markers as M
from .states import BTICK, SPAN, SPAN_HOLD, TEXT

if TYPE_CHECKING:
    from .scanner import Scanner

SPAN_HOLD_LIMIT = 4_000  # inline code longer than this on one line is not inline code
_RUN = regex.compile(r"`*")
_STOP = regex.compile(r"[`\n]")


class Code:
    """The BTICK, SPAN, SPAN_HOLD and COMMENT states."""

    __slots__ = (
        "buf",
        "literal_runs",
        "records",
        "run_at",
        "run_len",
        "run_literal",
        "sc",
        "scan",
        "settle",
        "span_len",
        "span_run",
    )

    def __init__(self, sc: Scanner) -> None:
        self.sc = sc
        self.buf = sc.buf
        self.settle = sc.settle
        self.run_len = 0  # backticks in the run being read
        self.run_literal = False  # that run is known to close nothing
        self.span_len = 0  # backticks that close the inline code
        # While the code holds its text: the backticks counted so far in a run, where that run
        # starts and how far the look-ahead got (offsets in the reply), the runs seen.
        self.span_run = 0
        self.run_at = 0
        self.scan = 0
        self.records: list[tuple[int, int]] = []
        self.literal_runs: set[int] = set()  # runs on this line known to close nothing (reply offsets)

    def begin_run(self, at: int) -> None:
        """A backtick run inside a line, at index ``at``."""
        self.run_len = 0
        self.run_literal = (self.buf.base + at) in self.literal_runs
        self.sc.go(BTICK)

    def open_span(self, length: int) -> None:
        """Inline code opened by a run of ``length`` backticks."""
        self.span_len = length
        self.sc.go(SPAN)

    def btick(self, eof: bool) -> bool:
        """A run of backticks inside a line: it opens inline code, unless the line is already
        known to hold no run that closes it."""
        b = self.buf
        buf, pos = b.text, b.pos
        m = _RUN.match(buf, pos)
        e = pos if m is None else m.end()
        self.run_len += e - pos
        self.settle.release(buf[pos:e])
        b.pos = e
        if e == len(buf) and not eof:
            return False
        if self.run_literal:
            self.sc.go(TEXT)
        else:
            self.open_span(self.run_len)
        return True

    def comment(self, eof: bool) -> bool:
        """Inside an HTML comment, up to -->."""
        b = self.buf
        buf, pos = b.text, b.pos
        m = M.COMMENT_END.search(buf, pos, partial=not eof)
        if m is None or m.partial:
            upto = len(buf) if m is None else m.start()
            self.settle.release(buf[pos:upto])
            b.pos = upto
            if eof:
                self.sc.go(TEXT)
            return eof
        self.settle.release(buf[pos : m.end()])
        b.pos = m.end()
        self.sc.go(TEXT)
        return True

    def span(self, eof: bool) -> bool:
        """Inside inline code: prose that holds no calls. From the first backtick run or opener
        on, text is held until it is clear whether the code closes on this line."""
        b = self.buf
        buf, pos = b.text, b.pos
        n = len(buf)
        release = self.settle.release
        m = M.SPAN_STOP.search(buf, pos, partial=not eof)
        if m is None:
            release(buf[pos:])
            b.pos = n
            if eof:
                self.sc.go(TEXT)
            return eof
        s = m.start()
        if m.partial:
            release(buf[pos:s])
            b.pos = s
            return False
        if buf[s] == "\n":
            release(buf[pos:s])
            b.pos = s
            self.sc.go(TEXT)
            return True
        if buf[s] == "`":
            e = M.run_end(_RUN, buf, s)
            if e - s == self.span_len and (e < n or eof):  # the code closes: all of it was code
                release(buf[pos:e])
                b.pos = e
                self.sc.go(TEXT)
                return True
        else:
            # An opener inside the code: if its closing run is already here on this line, all
            # of it was code.
            c = _closer(self.span_len).search(buf, s, min(n, s + SPAN_HOLD_LIMIT))
            if c is not None and (c.end() < n or eof) and buf.find("\n", s, c.start()) < 0:
                release(buf[pos : c.end()])
                b.pos = c.end()
                self.sc.go(TEXT)
                return True
        release(buf[pos:s])
        b.pos = s
        self.scan = b.base + s
        self.span_run = 0
        self.records = []
        self.sc.go(SPAN_HOLD)
        return True

    def span_hold(self, eof: bool) -> bool:
        b = self.buf
        buf = b.text
        base = b.base
        n = len(buf)
        i = self.scan - base
        failed = False
        while True:
            if self.span_run:  # a run of backticks being counted
                e = M.run_end(_RUN, buf, i)
                self.span_run += e - i
                i = e
                if e == n and not eof:
                    break
                run, self.span_run = self.span_run, 0
                if run == self.span_len:  # the code closes: everything held was code
                    return self._closed(i)
                self.records.append((self.run_at, run))
                continue
            if i - b.pos > SPAN_HOLD_LIMIT:
                failed = True
                break
            m = _STOP.search(buf, i)
            if m is None:
                i = n
                failed = eof
                break
            i = m.start()
            if buf[i] == "\n":
                failed = True
                break
            self.run_at = base + i
            e = M.run_end(_RUN, buf, i)
            self.span_run = e - i
            i = e
            if e == n and not eof:
                break
            run, self.span_run = self.span_run, 0
            if run == self.span_len:
                return self._closed(i)
            self.records.append((self.run_at, run))
        if not failed:
            self.scan = base + i
            return False
        # The line ended without closing the code: it was no code, and the held text is read
        # again as prose. Runs in it with no later run of their length close nothing.
        later: set[int] = set()
        for at, run in reversed(self.records):
            if run not in later:
                self.literal_runs.add(at)
                later.add(run)
        self.records = []
        self.span_run = 0
        self.sc.go(TEXT)
        return True

    def _closed(self, end: int) -> bool:
        b = self.buf
        self.settle.release(b.text[b.pos : end])
        b.pos = end
        self.sc.go(TEXT)
        return True


@functools.lru_cache(maxsize=64)
def _closer(length: int) -> regex.Pattern[str]:
    """A run of exactly ``length`` backticks."""
    return regex.compile(r"(?<!`)`{" + str(length) + r"}(?!`)")
