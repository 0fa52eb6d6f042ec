"""Line and prose tracking: what the context rule needs to know about the prose released so far.

Every piece of prose the scanner releases passes through :meth:`Lines.track` (plain prose in
the middle of a line through the scanner's fast path, which does the same in place): the current
line's first characters and last non-blank character, whether it is blank so far and how far
indented, whether a block already stood on it, the recent prose (for the paragraph before a
block: read back from the prose ``Output`` keeps, not collected again), whether the nearest
heading above presents examples, and how much prose came out in all. :meth:`Lines.context`
captures this where a block's opener stands.
"""

from __future__ import annotations

import regex

from .. import context as C

HEAD = 120  # characters of a line's prose kept to judge list items, quotes and headings
RECENT = 3 * C.LINE_CHARS  # characters of recent prose read to find the line before a block and open elements
_JOIN_MAX = 4 * RECENT  # the most characters joined at once when reading the recent prose back
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
        "pending",
        "primed",
        "recent_from",
        "section_example",
        "texts",
    )

    def __init__(self, texts: list[str], pending: list[str]) -> None:
        """``texts`` and ``pending``: the lists in which ``Output`` keeps the prose released, in
        order (every piece this tracks but what :meth:`prime` is given)."""
        self.blank = True  # only blanks since the last newline
        self.indent = 0  # their width
        self.head = ""  # the line's first characters
        self.last = ""  # its last non-blank character
        self.on_line = False  # a block stood on this line
        self.section_example = False  # the nearest heading above presents examples
        self.texts = texts
        self.pending = pending
        self.primed = ""  # the end of the prose that came before the reply (prime)
        self.recent_from = 0  # where the recent prose begins, in characters emitted (forget_recent)
        self.emitted = 0  # characters of prose released so far
        self.block_at = -1  # where the prose after the last hidden block begins (-1: no block yet)
        self.in_code = False  # the prose is a code fence's text: no heading is in it

    def track(self, s: str) -> None:
        """Prose released."""
        self.emitted += len(s)
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
                # Most lines hold no "#" at all: they are not stripped to look at their start.
                if "#" in head and head.lstrip(" \t")[:1] == "#":
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
        before = before.rstrip("\n") + "\n"
        self.track(before)
        self.emitted = emitted
        self.primed = (self.primed + before)[-RECENT:]

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
        self.primed = ""
        self.recent_from = self.emitted

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
        """The last RECENT characters of prose, read back from the end of what was released."""
        want = min(RECENT, self.emitted - self.recent_from)
        parts: list[str] = []
        got = 0
        for pieces in (self.pending, self.texts):
            i = len(pieces)
            if got >= want or not i:
                continue
            last = pieces[-1]
            if len(last) >= want - got:  # one-shot prose: the last piece is often enough
                parts.append(last[got - want :])
                break
            # Pieces are read back in batches, the first as many as would be wanted were they as
            # long as the last one (streamed prose comes in many pieces of one size), at most
            # 64. A batch is joined only while it is short, so that the cost stays bounded
            # however large the pieces are: a longer one is tried again four times smaller,
            # down to a single piece, which is cut.
            k = min(64, (want - got) // (len(last) or 1) + 1)
            while got < want and i:
                batch = pieces[max(0, i - k) : i]
                size = sum(map(len, batch))
                if size > _JOIN_MAX and k > 1:
                    k = max(1, k // 4)
                    continue
                text = batch[0] if k == 1 else "".join(batch)
                if got + size > want:
                    text = text[got - want :]
                parts.append(text)
                got += len(text)
                i -= len(batch)
                k *= 4
        parts.reverse()
        text = "".join(parts)
        if self.primed and len(text) < RECENT:
            text = (self.primed + text)[-RECENT:]
        return text

    def _end_line(self, line: str) -> None:
        if self.in_code:  # a shell or Python comment, not a heading
            return
        example = C.heading_is_example(line)
        if example is not None:
            self.section_example = example
