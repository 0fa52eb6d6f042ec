"""Line and prose tracking: what the context rule needs to know about the prose released so far.

Every piece of prose the scanner releases passes through :meth:`Lines.track` (plain prose in
the middle of a line through the scanner's fast path, which does the same in place): the current
line's first characters and last non-blank character, whether it is blank so far and how far
indented, whether a block already stood on it, the recent prose (for the paragraph before a
block), whether the nearest heading above presents examples, and how much prose came out in
all. :meth:`Lines.context` captures this where a block's opener stands.
"""

from __future__ import annotations

import regex

from .. import context as C

HEAD = 120  # characters of a line's prose kept to judge list items, quotes and headings
RECENT = 3 * C.LINE_CHARS  # characters of recent prose kept to find the line before a block and open elements
_TRIM_AT = 3 * RECENT  # recent prose is cut back to RECENT characters once it grows past this
# Lines that may be headings, found from the last one back (the regex module's reverse search):
# only the last heading that decides counts, and a text of many "#" lines is not listed whole.
_HEADING_LINES_BACK = regex.compile(r"(?rm)^[ \t]{0,3}#[^\n]*")


class Lines:
    __slots__ = (
        "blank",
        "block_at",
        "emitted",
        "head",
        "in_code",
        "indent",
        "last",
        "on_line",
        "recent",
        "recent_len",
        "section_example",
    )

    def __init__(self) -> None:
        self.blank = True  # only blanks since the last newline
        self.indent = 0  # their width
        self.head = ""  # the line's first characters
        self.last = ""  # its last non-blank character
        self.on_line = False  # a block stood on this line
        self.section_example = False  # the nearest heading above presents examples
        self.recent: list[str] = []
        self.recent_len = 0
        self.emitted = 0  # characters of prose released so far
        self.block_at = -1  # where the prose after the last hidden block begins (-1: no block yet)
        self.in_code = False  # the prose is a code fence's text: no heading is in it

    def track(self, s: str) -> None:
        """Prose released."""
        self.emitted += len(s)
        self.recent.append(s)
        self.recent_len += len(s)
        if self.recent_len > _TRIM_AT:
            self._trim_recent()
        nl = s.find("\n")
        if nl < 0:
            if not self.blank and len(self.head) >= HEAD:  # the usual case, in short
                last = s[-1]
                if last != " " and last != "\t" and last != "\r":
                    self.last = last
                elif s.strip(" \t\r"):
                    self.last = s.rstrip(" \t\r")[-1]
                return
            if self.blank:
                if s.strip(" \t\r"):
                    self.blank = False
                else:
                    self.indent += len(s) + 3 * s.count("\t")
            if len(self.head) < HEAD:
                self.head += s[: HEAD - len(self.head)]
            last = s.rstrip(" \t\r")
            if last:
                self.last = last[-1]
        else:
            # Headings change the section; only lines that start with "#" can be one, and only
            # the last heading counts, so the lines are looked at from the last one back.
            last_nl = s.rfind("\n")
            decided = False
            # A heading holds a "#": lines without one are not searched (most streamed chunks
            # that hold a paragraph break).
            if last_nl > nl and not self.in_code and s.find("#", nl + 1, last_nl) >= 0:
                for m in _HEADING_LINES_BACK.finditer(s, nl + 1, last_nl):
                    example = C.heading_is_example(m.group()[:HEAD])
                    if example is not None:
                        self.section_example = example
                        decided = True
                        break
            if not decided:
                head = self.head or s[:HEAD]
                if head.lstrip(" \t")[:1] == "#":
                    self._end_line(self.head + s[:nl] if len(self.head) < HEAD else self.head)
            tail = s[last_nl + 1 :]
            stripped = tail.rstrip(" \t\r")
            self.head = tail[:HEAD]
            self.last = stripped[-1] if stripped else ""
            self.on_line = False
            self.blank = not stripped
            self.indent = 0 if stripped else len(tail) + 3 * tail.count("\t")

    def prime(self, before: str) -> None:
        """Prose that came before the text this scanner reads (not released by it): the context
        its first block is judged in. It ends a line, so the text read starts on a new one."""
        emitted = self.emitted
        self.track(before.rstrip("\n") + "\n")
        self.emitted = emitted

    def new_line(self, indent: int = 0) -> None:
        """A line ended inside text that is not prose (a hidden block, reasoning)."""
        self.head = ""
        self.last = ""
        self.on_line = False
        self.blank = True
        self.indent = indent

    def block_on_line(self) -> None:
        """A block was hidden on this line, which goes on."""
        self.on_line = True
        self.blank = False

    def forget_recent(self) -> None:
        """Reasoning ended: the visible reply starts afresh."""
        self.recent = []
        self.recent_len = 0

    def context(self, *, block_waiting: bool) -> C.Context:
        """What surrounds an opener here (``block_waiting``: a block earlier on this line is
        not decided yet)."""
        recent = self._recent_text()
        # The line before counts only if it came after the last hidden block: a performed block
        # between them is what that line introduced.
        since = len(recent) - (self.emitted - self.block_at) if self.block_at >= 0 else 0
        text = recent[since:] if since > 0 else recent
        before, gap, heading = C.surroundings(text)
        return C.Context(
            line_head=self.head,
            line_last=self.last,
            region_on_line=self.on_line or block_waiting,
            before=before,
            gap=gap,
            heading_above=heading,
            section_example=self.section_example,
            in_element=C.in_element(recent),
            intro=C.list_intro(text) if before and C.LIST_ITEM.match(before) else "",
        )

    def hidden_block(self) -> None:
        """A block's text was hidden (performed, or held): the prose after it starts afresh."""
        self.block_at = self.emitted

    def recent_tail(self, n: int) -> str:
        """The last ``n`` characters of prose released (at most what is kept)."""
        if n <= 0:
            return ""
        return self._recent_text()[-n:]

    def _recent_text(self) -> str:
        recent = self.recent
        if recent and len(recent[-1]) >= RECENT:
            return recent[-1][-RECENT:]
        return "".join(recent)[-RECENT:]

    def _trim_recent(self) -> None:
        kept = "".join(self.recent)[-RECENT:]
        self.recent = [kept]
        self.recent_len = len(kept)

    def _end_line(self, line: str) -> None:
        if self.in_code:  # a shell or Python comment, not a heading
            return
        example = C.heading_is_example(line)
        if example is not None:
            self.section_example = example
