"""The bracket matcher: where the JSON of a call region ends.

A string-aware matcher that tolerates Python-style single quotes. It jumps from one
structural character to the next with compiled patterns, so a long string argument costs a
few regex calls, not one Python step per character. What interrupts the JSON (an end marker,
a new opener, a blank line) and how strings end depend on the format's structure family
(``formats.Family``, patterns from ``markers.BLOCK``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

import regex

from .. import markers as M
from ..decoding import STRICT as _DECODER
from ..decoding import too_deep_value
from ..formats import CANONICAL, FormatSpec
from ..region import NOT_DECODED, Region
from .states import POST_REGION, REGION, TEXT

if TYPE_CHECKING:
    from .scanner import Scanner

MAX_DEPTH = 64
_WINDOW = 16_384  # characters of a string matched at once
_COUNTED = 1_024  # JSON shorter than this has its brackets counted before its depth is walked
# Runs of one kind of character: the standard library's engine matches them faster.
_QUOTE_RUNS = {'"': re.compile(r'"+'), "'": re.compile(r"'+")}
_OPEN_RUN = re.compile(r"[{\[]+")
_BRACE_RUN = re.compile(r"\{+")
_CLOSE_RUN = re.compile(r"[}\]]+")
# A comment after the JSON, before its end marker; a line comment is over only at its newline
# (or, once the reply has ended, at the end of the text).
_TRAILING_COMMENT = tuple(
    regex.compile(r"[ \t]{0,40}(?://[^\n]{0,400}" + ends + r"|/\*(?:[^*]|\*(?!/)){0,400}\*/)")
    for ends in (r"(?=\n)", r"(?=\n|\Z)")
)


class Matcher:
    """The REGION and POST_REGION states."""

    __slots__ = (
        "bodies",
        "buf",
        "comment",
        "deep",
        "fmt",
        "json_off",
        "name",
        "patterns",
        "quote",
        "region",
        "sc",
        "settle",
        "spec",
        "stack",
        "tax",
    )

    def __init__(self, sc: Scanner) -> None:
        self.sc = sc
        self.buf = sc.buf
        self.settle = sc.settle
        self.spec: FormatSpec = CANONICAL
        self.fmt = CANONICAL.format
        self.name: str | None = None  # a tool named outside the JSON
        self.patterns = M.BLOCK[CANONICAL.name]
        self.bodies: Mapping[str, re.Pattern[str]] = M.STRING_BODY  # a string's body, by its quote
        self.stack: list[str] = []  # brackets open
        self.deep = 0  # brackets open beyond MAX_DEPTH
        self.quote: str | None = None  # the quote of the string being read
        self.comment: str | None = None  # "//" or "/*" while a comment outside strings is read
        self.json_off = 0  # where the JSON starts in the held text
        self.region: Region | None = None  # the region whose end marker may follow
        self.tax = 0  # characters counted by failed fast decoding attempts

    def begin(self, bracket: int, spec: FormatSpec, fmt: str, *, name: str | None = None) -> None:
        """The JSON of a block of ``spec`` begins with the bracket at index ``bracket``."""
        self.json_off = self.buf.held_len(bracket)
        self.spec = spec
        self.fmt = fmt
        self.name = name
        self.stack = []
        self.deep = 0
        self.quote = None
        self.comment = None
        self.patterns = patterns = M.BLOCK[spec.name]
        self.bodies = patterns.bodies
        self.buf.pos = bracket
        self.sc.go(REGION)

    def json(self, eof: bool) -> bool:
        b = self.buf
        buf = b.text
        pos = b.pos
        n = len(buf)
        stack = self.stack
        quote = self.quote
        patterns = self.patterns
        struct = patterns.struct
        whole = patterns.struct_whole.search
        cut_from = n - patterns.struct_span  # a match that begins before this is whole
        alone = self.spec.family == "line"  # JSON standing alone, with no marker around it
        if not stack and quote is None and self.tax <= b.base + n:
            # The region just began. When its JSON is valid and already here, the C decoder
            # finds its end far faster than the loop below, and at the same place: in valid
            # JSON, quotes, brackets and markers outside strings mean the same to both. A
            # failed attempt costs time in proportion to the position (the error message
            # counts lines), so attempts stop once that cost would exceed the text read.
            first = buf[pos : pos + 1]
            closer = "}" if first == "{" else "]" if first == "[" else ""
            if closer and buf.find(closer, pos + 1) < 0:
                # No container is whole before its closing bracket has come (a streamed call's
                # first chunks): not tried, as a failed attempt raises, which costs far more.
                self.tax += pos
            else:
                try:
                    value, end = _DECODER.raw_decode(buf, pos)
                except Exception:  # noqa: BLE001 - not decodable as it stands: the loop below reads it
                    self.tax += pos
                else:
                    # Fewer brackets than the limit cannot nest past it; a long text is not
                    # counted, as walking the decoded value is quicker than counting its characters.
                    if (
                        end - pos < _COUNTED and buf.count("{", pos, end) + buf.count("[", pos, end) < MAX_DEPTH
                    ) or not too_deep_value(value, MAX_DEPTH - 1):
                        b.pos = end
                        self._done(complete=True, value=value)
                        return True
        bodies = self.bodies
        own_line = patterns.own_line
        bracket_marker = patterns.opener_first  # an interrupting marker that begins with "["
        comment = self.comment
        while pos < n:
            if comment is not None:
                # A comment holds no brackets or quotes: skip to its end (a line comment's
                # newline is then read as usual).
                if comment == "//":
                    e = buf.find("\n", pos)
                    if e < 0:
                        pos = n
                        break
                    pos = e
                else:
                    e = buf.find("*/", pos)
                    if e < 0:
                        pos = max(pos, n - 1)  # a "*" at the end may begin "*/"
                        break
                    pos = e + 2
                comment = None
                continue
            if quote is not None:
                # Matched in windows: the regex engine slows down on very long matches made
                # of many short pieces. A window ends before a newline, so a newline is never
                # judged without the text after it.
                w = pos + _WINDOW
                if w < n:
                    j = buf.rfind("\n", w - 4096, w)
                    if j > pos:
                        w = j
                e = M.run_end(bodies[quote], buf, pos, w if w < n else None)
                if e == w and w < n:
                    pos = e
                    continue
                if e >= n:
                    if not eof and own_line is not None:
                        # A newline near the end may begin an end marker not complete yet.
                        j = buf.rfind("\n", max(pos, n - 64), n)
                        if j >= 0 and own_line[0].match(buf, j, partial=True) is not None:
                            pos = j
                            break
                    pos = n
                    break
                c = buf[e]
                if c == quote:
                    quote = None
                    pos = e + 1
                    continue
                if c == "\\":
                    if e + 1 < n:  # an escape the window cut: the next window starts with it
                        pos = e
                        continue
                    pos = e if not eof else n  # a backslash at the very end: wait for what it escapes
                    break
                # A raw newline inside a string that the body pattern would not cross.
                if alone:  # JSON standing alone holds no raw newline: it was not JSON
                    b.pos = e
                    return self._abandon()
                if own_line is not None:
                    m = own_line[eof].match(buf, e, partial=not eof)
                    if m is not None and m.partial:
                        pos = e
                        break
                    if m is not None:  # an end or start marker alone on its line: the block ends there
                        b.pos = e
                        self.quote = quote
                        self._done(complete=False)
                        return True
                pos = e + 1
                continue
            found = whole(buf, pos) if pos < cut_from else None
            if found is not None and found.start() < cut_from:
                s = found.start()
                tok = found.group()
                m_end = found.end()
            else:
                # Nothing whole begins before cut_from, so neither can a partial match: the
                # partial search (costly) need only look from there.
                m = struct.search(buf, cut_from if cut_from > pos else pos, partial=not eof)
                if m is None:
                    pos = n
                    break
                s = m.start()
                if m.partial:
                    pos = s
                    break
                tok = m.group()
                m_end = m.end()
            if tok == "//" or tok == "/*":
                comment = tok
                pos = m_end
            elif tok == '"' or tok == "'":
                # A run of the same quote: every pair is an empty string.
                e = M.run_end(_QUOTE_RUNS[tok], buf, s)
                if (e - s) % 2:
                    quote = tok
                pos = e
            elif tok == "{" or tok == "[":
                if tok == "[" and bracket_marker:
                    # "[" may begin that marker, which ends the region: one at a time, and
                    # wait when what follows could still spell it.
                    if not eof and n - s < len(bracket_marker) and bracket_marker.startswith(buf[s:n]):
                        pos = s
                        break
                    e = s + 1
                else:
                    e = M.run_end(_BRACE_RUN if bracket_marker else _OPEN_RUN, buf, s)
                room = MAX_DEPTH - len(stack)
                if room > 0:
                    stack.extend(buf[s : min(e, s + room)])
                if e - s > room:
                    self.deep += e - s - max(room, 0)
                pos = e
            elif tok == "}" or tok == "]":
                e = M.run_end(_CLOSE_RUN, buf, s)
                k = e - s
                open_now = self.deep + len(stack)
                if k < open_now:  # the brackets stay open
                    used = min(k, self.deep)
                    self.deep -= used
                    if k > used:
                        del stack[len(stack) - (k - used) :]
                    pos = e
                    continue
                # The last open bracket closes within this run (or none was open): done.
                self.deep = 0
                stack.clear()
                b.pos = s + max(open_now, 1)
                self.quote = None
                self._done(complete=True)
                return True
            elif alone:  # a blank line or an opener: the standalone JSON was not a call
                b.pos = s
                return self._abandon()
            else:  # an end marker, or a new call, while brackets are still open
                b.pos = s
                self.quote = None
                self._done(complete=False, cut=tok not in self.spec.end)
                return True
        b.pos = pos
        self.quote = quote
        self.comment = comment
        if eof:
            self._done(complete=False)
            return True
        return False

    def _abandon(self) -> bool:
        """JSON standing alone that is not JSON after all: its text is prose, and is not read
        again (what stopped it, a blank line or an opener, is)."""
        b = self.buf
        raw = b.held(b.pos)
        b.release()
        self.quote = None
        self.sc.go(TEXT)
        self.settle.release(raw)
        return True

    def _done(self, *, complete: bool, value: object = NOT_DECODED, cut: bool = False) -> None:
        b = self.buf
        raw = b.held(b.pos)
        text = raw[self.json_off :]
        spec = self.spec
        region = Region(
            spec=spec,
            format=self.fmt,
            value=value,
            cut=cut,
            text=text,
            raw=raw,
            complete=complete,
            open_brackets="".join(self.stack),
            in_string=self.quote is not None,
            too_deep=self.deep > 0 or len(self.stack) >= MAX_DEPTH,
            name=self.name,
            context=self.settle.ctx,
        )
        self.quote = None
        self.comment = None
        rest = ""
        if not complete and region.in_string and spec.end:
            found = [(k, end) for end in spec.end if (k := text.find(end)) >= 0]
            k, end_text = min(found) if found else (-1, "")
            if k >= 0 and text[:k].rstrip().endswith(("}", "]")):
                # The JSON's quotes went astray (a stray quote inside a string) and swallowed
                # the end marker on the block's own line: the block really ended there. What
                # followed it is given back as prose, not read again. Only when the JSON before
                # the marker looks finished: a marker right inside a string is that string's
                # text, and cutting there would run a call with the string cut short.
                rest = text[k + len(end_text) :]
                region.text = text[:k]
                region.raw = raw[: len(raw) - len(rest)]
                region.in_string = False
                region.open_brackets = ""
                region.end_marker = True
        if rest or not spec.end:
            self._finish(region)
            self.settle.release(rest)
        else:
            self.region = region
            self.sc.go(POST_REGION)

    def after_json(self, eof: bool) -> bool:
        """After the JSON: its end marker, if it comes."""
        region = self.region
        assert region is not None
        b = self.buf
        buf, pos = b.text, b.pos
        end = self.patterns.end
        assert end is not None
        c = _TRAILING_COMMENT[eof].match(buf, pos, partial=not eof)
        if c is not None and c.partial:
            return False
        if c is not None:  # a comment after the JSON, before its end marker: no data, kept in the raw text
            region.raw += buf[pos : c.end()]
            pos = b.pos = c.end()
        m = end.match(buf, pos, partial=not eof)
        if m is not None and m.partial:
            return False
        region.end_marker = m is not None if region.spec.end_required else (True if m is not None else None)
        if m is not None:
            region.raw += buf[pos : m.end()]
            b.pos = m.end()
        self._finish(region)
        return True

    def _finish(self, region: Region) -> None:
        self.buf.release()
        self.region = None
        self.sc.go(TEXT)
        self.settle.judge(region)
