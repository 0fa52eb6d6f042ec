"""From an inline opener to its JSON: attributes, the text between, and failed attempts.

After an opener the scanner reads, per the format's spec: the opening tag's attributes (a
format with ``attributes``), then what may stand before the JSON (blanks, or a code fence
where the spec allows one). JSON hands over to the bracket matcher; an end marker right away
is an empty call; anything else is prose, or, for an opener that began its line in a format
whose spec says so, a failed attempt hidden up to its end marker and reported.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import markers as M
from ..formats import CANONICAL, FormatSpec
from ..markers import CALL_END, CALL_START
from ..region import Reading, Region, excerpt
from ..results import Problem, StreamEvent
from .settle import Block
from .states import AFTER_OPENER, MALFORMED, TEXT

if TYPE_CHECKING:
    from .scanner import Scanner


class Openers:
    """The AFTER_OPENER, TAG and MALFORMED states."""

    __slots__ = ("at_line_start", "buf", "fmt", "matcher", "name", "params", "sc", "settle", "spec", "tag_quote")

    def __init__(self, sc: Scanner) -> None:
        self.sc = sc
        self.buf = sc.buf
        self.settle = sc.settle
        self.matcher = sc.matcher
        self.spec: FormatSpec = CANONICAL  # the format of the opener being read
        self.fmt = CANONICAL.format  # the format its calls are reported as
        self.at_line_start = False  # the opener began its line
        self.name: str | None = None  # the tool, named by an attribute
        self.params: str | None = None  # the arguments, given in an attribute
        self.tag_quote: str | None = None  # the quote of the attribute value being skipped

    def begin(self, spec: FormatSpec) -> None:
        self.spec = spec
        self.fmt = spec.format
        self.name = self.params = self.tag_quote = None

    def after_opener(self, eof: bool) -> bool:
        b = self.buf
        buf, pos = b.text, b.pos
        patterns = M.BLOCK[self.spec.name]
        assert patterns.body_start is not None
        m = patterns.body_start.match(buf, pos, partial=not eof)
        e = patterns.empty.match(buf, pos, partial=not eof) if patterns.empty is not None else None
        if (m is not None and m.partial) or (e is not None and e.partial):
            return False
        if m is not None:
            self.matcher.begin(m.end() - 1, self.spec, self.fmt, name=self.name)
        elif e is not None:  # an end marker right away: the call is all in the attributes
            b.pos = e.end()
            self._finish_tag(b.held(b.pos))
        elif self.at_line_start and self.spec.malformed:
            # An opener on its own line followed by something that is not JSON: an attempted
            # call in the wrong shape. Hide it up to its end marker and report it.
            self.sc.go(MALFORMED)
        else:  # the opener mentioned in a sentence: prose
            self.settle.release(b.held(pos))
            b.release()
            self.sc.go(TEXT)
        return True

    def tag(self, eof: bool) -> bool:
        """The attributes of an opening tag, up to its end."""
        b = self.buf
        buf = b.text
        n = len(buf)
        pos = b.pos
        while True:
            if self.tag_quote is not None:
                i = buf.find(self.tag_quote, pos)
                if i < 0:
                    b.pos = n
                    if not eof:
                        return False
                    return self._not_a_tag()
                pos = i + 1
                self.tag_quote = None
                continue
            m = M.TAG_STEP.match(buf, pos, partial=not eof)
            if m is None:
                b.pos = pos
                return self._not_a_tag()
            if m.partial:
                b.pos = pos
                return False
            pos = m.end()
            if m.group("end") is not None:
                break
            self.tag_quote = m.group("quote")
        b.pos = pos
        tag = b.held(pos)
        spec = self.spec
        reads = spec.attributes
        assert reads is not None
        attrs = {k.lower(): a or c for k, a, c in M.TAG_ATTR.findall(tag, len(spec.literal))}
        self.name = next((attrs[k] for k in reads.name if attrs.get(k)), None)
        self.params = next((attrs[k] for k in reads.params if k in attrs), None)
        self.fmt = reads.format if self.name else spec.format
        if tag.endswith("/>"):
            self._finish_tag(tag)
            return True
        self.sc.go(AFTER_OPENER)
        return True

    def _finish_tag(self, raw: str) -> None:
        """A call given whole in the opening tag's attributes."""
        self.buf.release()
        self.sc.go(TEXT)
        self.settle.judge(
            Region(
                spec=self.spec,
                format=self.fmt,
                text=self.params if self.params is not None else "{}",
                raw=raw,
                name=self.name,
                params=self.params,
                end_marker=True,
                context=self.settle.ctx,
            )
        )

    def _not_a_tag(self) -> bool:
        """The opener's word followed by something that is not an attribute list: prose. What
        followed the word is read again as prose (each character at most once more)."""
        word = self.spec.literal
        self.buf.read_again(len(word))
        self.settle.release(word)
        self.tag_quote = None
        self.sc.go(TEXT)
        return True

    def malformed(self, eof: bool) -> bool:
        """A failed attempt: hidden up to its end marker, or the next opener."""
        b = self.buf
        buf, pos = b.text, b.pos
        patterns = M.BLOCK[self.spec.name]
        assert patterns.malformed_end is not None
        m = patterns.malformed_end.search(buf, pos, partial=not eof)
        if m is None:
            b.pos = len(buf)
            if not eof:
                return False
            self._finish_malformed(b.held(len(buf)), ended=False)
            return True
        if m.partial:
            b.pos = m.start()
            return False
        if m.group() in self.spec.end:
            b.pos = m.end()
        else:
            b.pos = m.start()  # a new call begins: the broken one ended before it
        self._finish_malformed(b.held(b.pos), ended=True)
        return True

    def _finish_malformed(self, raw: str, *, ended: bool) -> None:
        spec = self.spec
        problem = Problem(
            "malformed_call",
            f"A {spec.display} block did not contain a JSON object, so nothing was called. Write the call as "
            f'{CALL_START}, then {{"function": "<tool name>", "params": {{...}}}} on one line, then {CALL_END}.',
            rejected=True,
            excerpt=excerpt(raw),
        )
        settle = self.settle
        self.buf.release()
        self.sc.go(TEXT)
        settle.reject_prior_unterminated()
        reading = Reading(events=[StreamEvent(problem=problem)])
        if ended:
            settle.judge_attempt(Region(spec=spec, format=spec.format, text="", raw=raw), reading)
            return
        # No end marker before the reply ended: what followed the opener may have been meant
        # as prose; the opener was not.
        region = Region(spec=spec, format=spec.format, text="", raw=raw, context=settle.ctx)
        shown = settle.shown_before(region, quiet=True)
        if shown is not None:
            settle.show(region, reading, shown)
            return
        if settle.items:
            settle.settle_line(performed=True)
        settle.commit(Block(region, reading))
        # A fixed opener is dropped; an opening tag stays, attributes and all.
        cut = len(spec.literal) if spec.attributes is None and raw.startswith(spec.literal) else 0
        settle.release(raw[cut:])
