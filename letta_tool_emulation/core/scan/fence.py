"""Code fences: streamed as prose, or held when their info string says they may hold a call.

A ```tool_call fence (or the like) is held whole; a ```json or bare fence is held only while
its content starts like a call (a bare fence's leading ``#`` comment lines passed over), and
streams from its first other character. The interpreter
reads a held fence's content (``calls.Interpreter``).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import regex

from .. import markers as M
from ..formats import CALL_FENCE_INFOS, DATA_FENCE_INFOS, FENCE_INFO_MAX, fence_info
from ..formats import FENCE as FENCE_FORMAT
from ..region import Region
from .states import FENCE, FENCE_INFO, TEXT

if TYPE_CHECKING:
    from .scanner import Scanner

FENCE_HOLD_LIMIT = 256_000  # a data fence larger than this is code, not a call
_RUNS = {"`": regex.compile(r"`*"), "~": regex.compile(r"~*")}
_LINE_START = regex.compile(r"[ \t]{0,3}")
_NEXT_CLOSE = {c: regex.compile(r"\n(?=[ \t]{0,3}" + regex.escape(c) + ")") for c in "`~"}
# Where a line of the fence stands: at its start, counting a run of fence characters, after a
# long enough run (only blanks may follow on a closing line), in the rest of an ordinary line.
_LS, _RUN, _TRAIL, _REST = range(4)


class Fence:
    """The LINE_RUN, FENCE_INFO and FENCE states."""

    __slots__ = (
        "buf",
        "char",
        "code",
        "comment",
        "data",
        "first",
        "hold",
        "info",
        "info_len",
        "info_text",
        "length",
        "line_at",
        "line_count",
        "line_state",
        "sc",
        "settle",
    )

    def __init__(self, sc: Scanner) -> None:
        self.sc = sc
        self.buf = sc.buf
        self.settle = sc.settle
        self.code = sc.code
        self.char = "`"  # the fence character
        self.length = 0  # the opening run's length
        self.info: list[str] = []  # the info string's first characters
        self.info_len = 0
        self.info_text = ""
        self.hold = False  # the fence is held (it may hold a call)
        self.data = False  # held only while its content starts like a call (```json, bare)
        self.first = False  # the first non-blank character of the content was seen
        self.comment = False  # in a leading comment line of a bare fence, not yet ended
        self.line_state = _LS
        self.line_count = 0  # fence characters counted on the current line
        self.line_at = 0  # where the line being read starts, within the held text

    def begin(self, char: str) -> None:
        """A run of ``char`` begins a line (held from its start)."""
        self.char = char
        self.length = 0

    def line_run(self, eof: bool) -> bool:
        """A run of backticks or tildes that begins a line: maybe a fence."""
        b = self.buf
        buf, pos = b.text, b.pos
        ch = self.char
        e = M.run_end(_RUNS[ch], buf, pos)
        self.length += e - pos
        b.pos = e
        if e == len(buf) and not eof:
            return False
        if self.length >= 3 and e < len(buf):
            self.info = []
            self.info_len = 0
            self.sc.go(FENCE_INFO)
            return True
        # Not a fence: ordinary text (a short run of backticks opens inline code).
        self.settle.release(b.held(e))
        b.release()
        if ch == "`" and e < len(buf):
            self.code.open_span(self.length)
        else:
            self.sc.go(TEXT)
        return True

    def info_line(self, eof: bool) -> bool:
        b = self.buf
        buf, pos = b.text, b.pos
        n = len(buf)
        stop = buf.find("\n", pos)
        upto = n if stop < 0 else stop
        if self.char == "`":
            tick = buf.find("`", pos, upto)
            if tick >= 0:  # backticks after a backtick run: inline code, not a fence
                self.settle.release(b.held(tick))
                b.release()
                b.pos = tick
                self.code.open_span(self.length)
                return True
        if self.info_len <= FENCE_INFO_MAX:
            self.info.append(buf[pos : min(upto, pos + FENCE_INFO_MAX + 1 - self.info_len)])
        self.info_len += upto - pos
        if stop < 0:
            b.pos = n
            if eof:  # a fence opener on the last line opens nothing
                self.settle.release(b.held(n))
                b.release()
                self.sc.go(TEXT)
                return True
            return False
        b.pos = stop + 1
        info = fence_info("".join(self.info)) if self.info_len <= FENCE_INFO_MAX else "\x00"
        self.info_text = info
        self.line_state = _LS
        self.line_count = 0
        self.first = False
        self.comment = False
        self.line_at = b.held_len(b.pos)
        if info in CALL_FENCE_INFOS or info in DATA_FENCE_INFOS:
            self.hold = True
            self.data = info in DATA_FENCE_INFOS
        else:
            self.hold = False
            self.settle.release(b.held(b.pos))
            b.release()
        self.sc.lines.in_code = True
        self.sc.go(FENCE)
        return True

    def _first_content(self, c: str, pos: int) -> None:
        """A data fence holds a call only if its content starts like one (a ``//`` or ``/*``
        comment may stand first: the decoder reads the JSON after it; so may a ``#`` one in a
        fence named JSON, while a bare fence's ``#`` lines are passed over before this, by
        :meth:`_look_at_first`); anything else is code, and streams."""
        self.first = True
        if c not in "{[T/" and not (c == "#" and self.info_text):
            b = self.buf
            self.settle.release(b.held(pos))
            b.release()
            self.hold = False

    def _look_at_first(self, buf: str, pos: int, end: int) -> bool:
        """Settle a data fence by its first non-blank character before ``end``, if there is
        one; whether the fence is still held. A bare fence's leading ``#`` comment lines are
        passed over (held): the model's note above its own call block, "# saving the new
        address", settles nothing, and the first line after them does."""
        while True:
            if self.comment:
                nl = buf.find("\n", pos, end)
                if nl < 0:
                    return self.hold
                self.comment = False
                pos = nl + 1
            first = M.NOT_BLANK.search(buf, pos, end)
            if first is None:
                return self.hold
            c = buf[first.start()]
            if c == "#" and not self.info_text:
                self.comment = True
                pos = first.start() + 1
                continue
            self._first_content(c, pos)
            return self.hold

    def _pass_text(self, buf: str, pos: int, upto: int, hold: bool) -> bool:
        """Stream or hold the fence's text up to ``upto``; whether the fence is still held."""
        if not hold:
            self.settle.release(buf[pos:upto])
        elif self.buf.held_len(upto) > FENCE_HOLD_LIMIT:  # far too large for a call
            self.settle.release(self.buf.held(upto))
            self.buf.release()
            self.hold = hold = False
        return hold

    def fence(self, eof: bool) -> bool:
        b = self.buf
        buf = b.text
        n = len(buf)
        pos = b.pos
        ch = self.char
        release = self.settle.release
        while pos < n:
            fl = self.line_state
            hold = self.hold
            if fl == _REST:
                if hold and self.data and not self.first:
                    hold = self._look_at_first(buf, pos, n)
                # Skip to the next line that could close the fence, in one step.
                m = _NEXT_CLOSE[ch].search(buf, pos, partial=not eof)
                upto = n if m is None else m.start() if m.partial else m.start() + 1
                hold = self._pass_text(buf, pos, upto, hold)
                pos = upto
                if m is None or m.partial:
                    break
                self.line_state = _LS
                if hold:
                    self.line_at = b.held_len(pos)
                continue
            if fl == _LS:
                last = buf.rfind("\n", pos)
                if last >= pos:
                    # Whole lines are here: find the first one that closes the fence at once.
                    m = _closing_line(ch, self.length).search(buf, pos, last + 1)
                    upto = last + 1 if m is None else m.start()
                    if hold and self.data and not self.first:
                        hold = self._look_at_first(buf, pos, upto if m is None else m.end())
                    hold = self._pass_text(buf, pos, upto, hold)
                    pos = upto
                    if hold:
                        self.line_at = b.held_len(pos)
                    if m is not None:
                        if not hold:
                            release(buf[pos : m.end() + 1])
                        return self._close(m.end() + 1)
                    continue
                e = M.run_end(_LINE_START, buf, pos)
                if e == n and not eof:
                    break  # blanks that may precede a closing fence: wait
                if e < n and buf[e] == ch:
                    if hold and self.data and not self.first:
                        self._first_content(ch, pos)
                        hold = self.hold
                    if not hold:
                        release(buf[pos:e])
                    pos = e
                    self.line_state = _RUN
                    self.line_count = 0
                else:
                    self.line_state = _REST
                continue
            if fl == _RUN:
                e = M.run_end(_RUNS[ch], buf, pos)
                self.line_count += e - pos
                if not hold:
                    release(buf[pos:e])
                pos = e
                if e == n and not eof:
                    break
                self.line_state = _TRAIL if self.line_count >= self.length else _REST
                continue
            # _TRAIL: only blanks may follow the run on a closing line
            e = M.run_end(M.BLANKS, buf, pos)
            if not hold:
                release(buf[pos:e])
            pos = e
            if e == n:
                if not eof:
                    break
                return self._close(pos)
            if buf[e] == "\n":
                if not hold:
                    release("\n")
                return self._close(e + 1)
            self.line_state = _REST
        b.pos = pos
        if eof and (self.line_state == _TRAIL or (self.line_state == _RUN and self.line_count >= self.length)):
            return self._close(pos)  # a closing fence on the last line
        if eof:  # the reply ended inside the fence
            if self.hold:
                self._finish(b.held(pos), closed=False)
            else:
                self.sc.lines.in_code = False
                self.sc.go(TEXT)
            return True
        return False

    def _close(self, end: int) -> bool:
        self.sc.lines.in_code = False
        b = self.buf
        b.pos = end
        if self.hold:
            self._finish(b.held(end), closed=True)
        else:
            self.sc.go(TEXT)
        return True

    def _finish(self, raw: str, *, closed: bool) -> None:
        first_nl = raw.find("\n")
        body = raw[first_nl + 1 : self.line_at] if closed else raw[first_nl + 1 :]
        self.sc.lines.in_code = False
        self.buf.release()
        self.sc.go(TEXT)
        self.settle.judge(
            Region(
                spec=FENCE_FORMAT,
                format=FENCE_FORMAT.format,
                text=body,
                raw=raw,
                end_marker=closed,
                fence_info=self.info_text,
                context=self.settle.ctx,
            )
        )


@functools.lru_cache(maxsize=64)
def _closing_line(char: str, length: int) -> regex.Pattern[str]:
    """A whole line that closes a fence opened with ``length`` times ``char``."""
    return regex.compile(r"(?m)^[ \t]{0,3}" + regex.escape(char) + "{" + str(length) + r",}[ \t]*\r?$")
