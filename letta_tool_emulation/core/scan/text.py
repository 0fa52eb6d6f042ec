"""Prose: where the scanner looks closer, and what begins at a candidate or a line start.

Prose is released in one piece up to the next place that needs a closer look: a candidate
(a prefix of a trigger, a backtick) or a newline before a line that may begin a line-anchored
construct. There a trigger hands over to the room that reads its construct.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import regex

from .. import markers as M
from ..formats import BY_NAME
from ..region import excerpt
from ..results import Problem, StreamEvent
from .states import AFTER_OPENER, COMMENT, DROP, FLOOD, LINE_RUN, TAG, THINK

if TYPE_CHECKING:
    from .scanner import Scanner

# Blocks (call blocks, code blocks, JSON lines) read in one reply; the rest is kept as text.
# Each costs a few dozen microseconds, and a reply made of nothing but tiny blocks must not
# stall the server; no real reply comes near this.
MAX_BLOCKS = 256
_DONE, _AS_TEXT, _WAIT = range(3)
# Inline code spans that close on their line, each with the prose after it up to the next
# character that may begin a candidate (a backtick, a newline or an opener's first character).
# Inside the code only a backtick or a newline matters: the SPAN state, at an opener, looks
# for the closing run on the line and finds this one, which is the first run after the opening
# and no farther than SPAN_HOLD_LIMIT from it. The closing run must be followed by a
# character, so it is whole. The repetition is possessive: nothing follows it, so it never gives
# back a span anyway, and a greedy one would keep every span's backtracking state to the end of
# the match, which makes a long run of spans cost more per byte the longer it is.
_SPANS = re.compile(r"(?:(`{1,500})[^`\n]{1,3000}\1(?=[^`])[^`\nT<\[]*)++")


class Text:
    """The TEXT state, and DROP and FLOOD, where nothing more is looked at."""

    __slots__ = (
        "blocks",
        "buf",
        "code",
        "fence",
        "known",
        "lines",
        "matcher",
        "openers",
        "reasoning",
        "sc",
        "settle",
    )

    def __init__(self, sc: Scanner) -> None:
        self.sc = sc
        self.buf = sc.buf
        self.lines = sc.lines
        self.settle = sc.settle
        self.code = sc.code
        self.fence = sc.fence
        self.openers = sc.openers
        self.matcher = sc.matcher
        self.reasoning = sc.reasoning
        self.blocks = 0  # blocks read so far
        # (chunk, where its first candidate is) when the scanner's fast path already searched
        # the chunk, which is now the whole buffer, from its start; used once, then None.
        self.known: tuple[str, tuple[int, bool]] | None = None

    def text(self, eof: bool) -> bool:
        b = self.buf
        buf = b.text
        n = len(buf)
        pos = start = b.pos
        blank = self.lines.blank
        release = self.settle.release
        while pos < n:
            if blank:
                blanks = M.BLANKS.match(buf, pos)
                e = pos if blanks is None else blanks.end()
                if e == n:
                    pos = n
                    break
                ch = buf[e]
                if ch == "\n":
                    pos = e + 1
                    continue
                if ch in M.LINE_START_CHARS and (
                    ch == "`" or ch == "~" or M.LINE_TRIGGER.match(buf, e, partial=not eof) is not None
                ):
                    release(buf[start:e])  # the line's indentation and context are needed now
                    start = e
                    b.pos = e
                    started = self._line_start(e, eof)
                    if started is not None:
                        return started
                blank = False
                pos = e
            known = self.known
            if known is not None and known[0] is buf and pos == 0:
                self.known = None
                found: tuple[int, bool] | None = known[1]
            else:
                found = M.find_candidate(buf, pos, eof, self.reasoning.settled)
            if found is None:
                pos = n
                break
            c, cut = found
            if cut:
                pos = c
                break
            first = buf[c]
            if first == "\n":
                blank = True
                if self.code.literal_runs:
                    self.code.literal_runs.clear()
                pos = c + 1
                continue
            if first == "`":
                code = self.code
                if not code.literal_runs and not self.settle.items and self.settle.unterminated is None:
                    spans = _SPANS.match(buf, c)
                    if spans is not None:
                        # Plain inline code spans and the plain prose between them, released at once:
                        # what the BTICK and SPAN states would release, one span at a time.
                        e = spans.end()
                        code.run_len = code.span_len = len(spans.group(1))
                        code.run_literal = False
                        release(buf[start:e])
                        start = pos = e
                        continue
                release(buf[start:c])
                b.pos = c
                code.begin_run(c)
                return True
            t = M.TRIGGER.match(buf, c, partial=not eof)
            if t is None or (t.lastgroup == "unthink" and self.reasoning.settled):
                pos = c + 1  # ordinary text (a stray </think> once reasoning was settled)
                continue
            if t.partial:
                pos = c
                break
            release(buf[start:c])  # the construct is judged from the prose before it
            start = c
            b.pos = c
            done = self._trigger(t, c, eof)
            if done == _DONE:
                return True
            if done == _WAIT:
                pos = c
                break
            pos = c + 1
        release(buf[start:pos])
        b.pos = pos
        return False

    def _line_start(self, e: int, eof: bool) -> bool | None:
        """At the first non-blank character of a line: a line-anchored construct, or None."""
        b = self.buf
        buf = b.text
        ch = buf[e]
        if (ch == "`" or ch == "~") and self.lines.indent <= 3:
            if ch == "~":
                if len(buf) - e < 3 and not eof and "~~~".startswith(buf[e:]):
                    return False
                if not buf.startswith("~~~", e):
                    return None
            if not self._count_block():
                return True
            self.settle.begin_block()
            b.hold_from(e)
            b.pos = e
            self.fence.begin(ch)
            self.sc.go(LINE_RUN)
            return True
        t = M.LINE_TRIGGER.match(buf, e, partial=not eof)
        if t is None:
            return None
        if t.partial:
            return False
        kind = t.lastgroup
        if kind == "think":
            b.pos = t.end()
            # (of the reasoning openers only harmony's begins with "<|")
            self.reasoning.begin(harmony=buf.startswith("<|", e))
            self.sc.go(THINK)
            return True
        if kind == "result":
            if not self.settle.after_call:
                return None
            b.pos = e
            self._drop_rest(
                Problem(
                    "invented_result",
                    "After its call the reply went on with a tool result the model wrote itself; "
                    "that text and everything after it was dropped.",
                    excerpt=excerpt(buf[e:]),
                )
            )
            return True
        assert kind is not None
        spec = BY_NAME[kind]
        if spec.json_only and self.lines.indent > 3:
            return None
        if not self._count_block():
            return True
        self.settle.begin_block()
        self.openers.at_line_start = True
        b.hold_from(e)
        if spec.json_only:
            self.matcher.begin(e, spec, spec.format)
        else:  # the opener names the tool, and ends on the JSON's first bracket
            self.matcher.begin(t.end() - 1, spec, spec.format, name=t.groupdict().get(f"{spec.name}_name"))
        return True

    def _trigger(self, t: regex.Match[str], c: int, eof: bool) -> int:
        """A trigger inside a line: _DONE (handled), _AS_TEXT (ordinary text) or _WAIT."""
        kind = t.lastgroup
        end = t.end()
        b = self.buf
        if kind == "unthink":
            if self.reasoning.settled:
                return _AS_TEXT  # a stray closing tag
            if self.lines.last.isalnum():
                # "...the </think> tag": a mention, unless the line ends here or a call follows
                # it (the reasoning ran straight into the call).
                text = b.text
                rest = M.run_end(M.BLANKS, text, end)
                if rest >= len(text):
                    if not eof:
                        return _WAIT if rest - end <= 40 else _AS_TEXT
                elif text[rest] not in "\r\n":
                    after = M.TRIGGER.match(text, rest, partial=not eof) if rest - end <= 40 else None
                    if after is not None and after.partial:
                        return _WAIT
                    if after is None or after.lastgroup not in BY_NAME:
                        return _AS_TEXT
            b.pos = end
            self.reasoning.close_lone()
            return _DONE
        if kind == "end":
            return self._stray_end(t, end)
        if kind == "turn":
            # (the tokens that end the reply's own turn go with the rest: the user is not shown them)
            self._drop_rest(
                Problem(
                    "invented_turn",
                    "The reply went on past the end of its turn into a turn of another speaker that the model "
                    "wrote itself (the server passed the chat template's tokens on as text instead of stopping "
                    "at them); that text and everything after it was dropped, and nothing in it was executed. "
                    "Give the server the model's chat template or its stop tokens.",
                    excerpt=excerpt(t.group()),
                )
            )
            return _DONE
        if kind == "comment":
            self.settle.release(t.group())
            b.pos = end
            self.sc.go(COMMENT)
            return _DONE
        if not self._count_block():
            return _DONE
        assert kind is not None
        spec = BY_NAME[kind]
        self.settle.begin_block()
        self.openers.at_line_start = self.lines.blank
        b.hold_from(c)
        b.pos = end
        self.openers.begin(spec)
        self.sc.go(TAG if spec.attributes is not None else AFTER_OPENER)
        return _DONE

    def _stray_end(self, t: regex.Match[str], end: int) -> int:
        """An end marker with no block open: if it stands alone on its line and only text came
        between it and the last call, that call's JSON ended early and must not run."""
        if not self.settle.ends_open_call(t.group()):
            return _AS_TEXT
        b = self.buf
        rest = M.run_end(M.BLANKS, b.text, end)
        if rest == len(b.text) and not self.sc.closing:
            return _WAIT  # alone on its line only if the line ends here
        if rest < len(b.text) and b.text[rest] != "\n":
            return _AS_TEXT
        self.settle.reject_open_call()
        b.pos = end  # the marker closes the broken block: it is not prose
        return _DONE

    def _count_block(self) -> bool:
        """Count a block about to be read; past MAX_BLOCKS, the rest of the reply is text."""
        self.blocks += 1
        if self.blocks <= MAX_BLOCKS:
            return True
        self.sc.out.emit(
            StreamEvent(
                problem=Problem(
                    "malformed_call",
                    f"The reply held more than {MAX_BLOCKS} call blocks, code blocks and JSON lines; the rest of "
                    "it was kept as text and nothing in it was executed. Write fewer, one call per block.",
                    rejected=True,
                )
            )
        )
        self.sc.go(FLOOD)
        return False

    def flood(self, eof: bool) -> bool:
        b = self.buf
        self.settle.release(b.text[b.pos :])
        b.pos = len(b.text)
        return False

    def _drop_rest(self, problem: Problem) -> None:
        """What the model wrote from here on is not its reply (a result or a turn it invented): say
        so, and read nothing more."""
        self.sc.out.emit(StreamEvent(problem=problem))
        self.sc.go(DROP)

    def drop(self, eof: bool) -> bool:
        b = self.buf
        if self.settle.unterminated is not None:
            self.settle.watch_end(b.text[b.pos :])
        b.pos = len(b.text)
        return False
