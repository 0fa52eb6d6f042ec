"""The lexical half of the parser: where calls, code, reasoning and prose begin and end.

One state machine serves streaming and one-shot parsing (one-shot is a single ``feed`` and
``close``). Every decision depends only on the text, never on how it was chunked: whatever
could still become a marker is held back, everything else is released at once.

Linear time: every pattern tried at a position has a bounded length, and every unbounded run
(blanks, backticks, a tag's attributes, a string, a fence's lines) is consumed by a state
that resumes where it stopped. Each character is looked at a bounded number of times however
the text is chunked.

A call is decided in three steps. The scanner delimits a region and asks its interpreter
what the region means. The region's surroundings then decide whether it was performed or
only shown (see context.py): what precedes it is known at once, prose after it on its line
when that line ends. A performed call is held until the reply ends, because a later
``</think>`` can still turn out to close reasoning the reply began in, and the line after a
call can still ask permission to make it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field

import regex

from . import context as C
from . import markers as M
from .decoding import STRICT as _DECODER
from .decoding import too_deep_value
from .formats import BY_FORMAT, CALL_FENCE_INFOS, DATA_FENCE_INFOS
from .results import Format, Problem, StreamEvent, ToolCall

NOT_DECODED = object()


@dataclass(slots=True)
class Region:
    """A stretch of the reply that may hold one or more calls."""

    format: Format
    text: str  # the JSON, or for a fence its content
    raw: str  # all the region covered, markers included, to give it back as prose if need be
    complete: bool = True  # the JSON's brackets all closed
    end_marker: bool | None = None  # None where the format has no end marker
    open_brackets: str = ""  # brackets still open where the JSON stopped
    in_string: bool = False  # the JSON stopped inside a string
    too_deep: bool = False  # brackets nested deeper than the parser reads
    cut: bool = False  # a new call began while its brackets were still open
    name: str | None = None  # a tool name given outside the JSON (XML attribute, ReAct Action:)
    params: str | None = None  # arguments given in an XML attribute
    fence_info: str | None = None
    finish_reason: str | None = None
    context: C.Context | None = None
    value: object = None  # the JSON already decoded when it was valid as it stood, else NOT_DECODED

    def __post_init__(self) -> None:
        if self.value is None:
            self.value = NOT_DECODED


@dataclass(slots=True)
class Outcome:
    events: list[StreamEvent] = field(default_factory=list)
    call_attempt: bool = True  # the model evidently wrote a call; False: ordinary text after all
    shown: C.Shown | None = None  # call-shaped, but what it holds shows rather than performs


Interpret = Callable[[Region], Outcome]

MAX_DEPTH = 64
HEAD = 120  # characters of a line's prose kept to judge list items, quotes and headings
RECENT = 3 * C.PARAGRAPH_CHARS  # characters of recent prose kept to judge the paragraph before a call
FENCE_HOLD_LIMIT = 256_000  # a data fence larger than this is code, not a call
SPAN_HOLD_LIMIT = 4_000  # inline code longer than this on one line is not inline code
# Blocks (call blocks, code blocks, JSON lines) read in one reply; the rest is kept as text.
# Each costs a few dozen microseconds, and a reply made of nothing but tiny blocks must not
# stall the server; no real reply comes near this.
MAX_BLOCKS = 256
_EXCERPT = 160

(
    TEXT,
    THINK,
    SPAN,
    SPAN_HOLD,
    BTICK,
    LINE_RUN,
    FENCE_INFO,
    FENCE,
    AFTER_START,
    MALFORMED,
    TAG,
    AFTER_TAG,
    AFTER_MISTRAL,
    REGION,
    POST_REGION,
    DROP,
    FLOOD,
) = range(17)
# Fence body line states: at a line start, counting a run of fence characters, after a long
# enough run (only blanks may follow on a closing line), in the rest of an ordinary line.
_LS, _RUN, _TRAIL, _REST = range(4)

_END_PATTERN = {fmt: M.BLOCK[spec.name].end for fmt, spec in BY_FORMAT.items() if spec.end}
_END_TEXT = {fmt: spec.end[0] for fmt, spec in BY_FORMAT.items() if spec.end_required}
_STRUCT_OF = {fmt: spec.name for fmt, spec in BY_FORMAT.items()}
_WORD = regex.compile(r"\w")
_WINDOW = 16_384  # characters of a string matched at once
_HEADING_LINE = regex.compile(r"(?m)^[ \t]{0,3}#[^\n]*")
_QUOTE_RUNS = {'"': regex.compile(r'"+'), "'": regex.compile(r"'+")}
_OPEN_RUN = regex.compile(r"[{\[]+")
_BRACE_RUN = regex.compile(r"\{+")
_CLOSE_RUN = regex.compile(r"[}\]]+")
_TELLING = regex.compile(r"[\w\"'{}\[\]]")
_NOT_BLANK = regex.compile(r"[^ \t\r\n]")
_RUNS = {"`": regex.compile(r"`*"), "~": regex.compile(r"~*")}
_SPAN_STOP = regex.compile(r"[`\n]")
_SPAN_STOP_TRIGGER = M.SPAN_STOP
_FENCE_LINE_START = regex.compile(r"[ \t]{0,3}")
_NEXT_CLOSE = {c: regex.compile(r"\n(?=[ \t]{0,3}" + regex.escape(c) + ")") for c in "`~"}
_DONE, _AS_TEXT, _WAIT = range(3)
# First characters of a line that can begin a line-anchored construct (see LINE_TRIGGER).
_LINE_START_CHARS = M.LINE_START_CHARS


def excerpt(text: str) -> str:
    text = text.strip()
    return text if len(text) <= _EXCERPT else text[: _EXCERPT - 3] + "..."


@dataclass(slots=True)
class _Block:
    """A performed-looking region whose line has not ended yet."""

    region: Region
    outcome: Outcome


@dataclass(slots=True)
class _Group:
    """The events of a performed region, held until the reply ends."""

    region: Region
    events: list[StreamEvent]
    after_at: int = 0  # where the prose written after it begins


class Scanner:
    def __init__(self, interpret: Interpret) -> None:
        self._interpret = interpret
        self._buf = ""  # undecided text; _pos is where scanning stands in it
        self._pos = 0
        self._base = 0  # how many characters of the reply precede _buf[0]
        self._state = TEXT
        self._finish_reason: str | None = None
        self._closed = False
        # Line status of the text consumed so far (prose or not).
        self._blank_line = True  # only blanks since the last newline
        self._indent = 0  # their width
        # The prose released so far, as the context rule needs it.
        self._line_head = ""
        self._line_last = ""
        self._line_region = False
        self._section_example = False
        self._recent: list[str] = []
        self._recent_len = 0
        # Output.
        self._out: list[StreamEvent] = []
        self._text: list[str] = []  # prose released during this call, flushed as one event
        self.texts: list[str] = []
        self.calls: list[ToolCall] = []
        self.problems: list[Problem] = []
        self.reasoning: list[str] = []
        # A construct being held: the text from earlier feeds in _acc, the rest still in the
        # buffer from index _acc_from.
        self._acc: list[str] = []
        self._acc_len = 0
        self._acc_from = -1
        self._ctx: C.Context | None = None
        self._at_line_start = False  # the held opener began its line
        # JSON regions.
        self._fmt: Format = "canonical"
        self._stack: list[str] = []
        self._deep = 0  # brackets open beyond MAX_DEPTH
        self._quote: str | None = None
        self._struct: regex.Pattern[str] = M.BLOCK["canonical"].struct
        self._ownline: tuple[regex.Pattern[str], regex.Pattern[str]] | None = None
        self._bodies = M.STRING_BODY
        self._opener_first = ""
        self._mistral_inside = False
        self._name: str | None = None
        self._params: str | None = None
        self._json_off = 0
        self._region: Region | None = None
        self._tag_quote: str | None = None
        self._tax = 0  # characters counted by failed fast decoding attempts
        self._blocks = 0
        self._closing = False  # the reply has ended (close() is running)
        # Runs of backticks or tildes, fences and inline spans.
        self._run_char = "`"
        self._run_len = 0
        self._run_literal = False
        self._fence_char = "`"
        self._fence_len = 0
        self._info: list[str] = []
        self._info_len = 0
        self._fence_info = ""
        self._fence_hold = False
        self._fence_data = False
        self._fence_first = False  # the first non-blank character of a held fence was seen
        self._fl = _LS
        self._fl_count = 0
        self._line_at = 0  # where the fence line being read starts, within the held text
        self._span_len = 0  # backticks that close an inline span; 0 for an HTML comment
        self._span_run = 0  # backticks counted so far in a run inside a held span
        self._run_at = 0  # where that run starts
        self._scan = 0  # the look-ahead position while a span holds its text
        self._records: list[tuple[int, int]] = []  # backtick runs seen in a held span
        self._literal_runs: set[int] = set()  # runs on this line known to close nothing
        # Decisions waiting for more text.
        self._line_items: list[_Block | str] = []  # blocks on this line and the prose after them
        self._line_fragile = False  # one of them is broken or was mended
        self._groups: list[_Group] = []  # performed calls, released at close
        self._emitted = 0  # characters of prose released so far
        self._after_call = False
        self._open_group: _Group | None = None  # the last call, while no other block followed it
        self._prior_group: _Group | None = None  # the same, for the block being read
        self._unterminated: _Group | None = None  # the last call, if its end marker never came
        self._watch_tail = ""  # the end of the text watched for that marker
        self._explicit_reasoning = False
        self._reasoning_open = False
        self._lone_closed = False

    # -- public -----------------------------------------------------------------------------

    def feed(self, chunk: str) -> list[StreamEvent]:
        if self._closed or not chunk:
            return []
        if not self._buf:  # nothing undecided is waiting: try the fast paths
            state = self._state
            if state == REGION:
                quote = self._quote
                if (
                    quote is not None
                    and chunk[-1] != "\\"
                    and "\n" not in chunk
                    and (quote not in chunk or self._bodies[quote].match(chunk).end() == len(chunk))
                ):
                    # Inside a string that goes on past this chunk: nothing here can end it.
                    self._acc.append(chunk)
                    self._acc_len += len(chunk)
                    self._base += len(chunk)
                    return []
            elif state == TEXT and not self._blank_line and not self._line_items and M.PLAIN.fullmatch(chunk):
                # Prose with nothing to look at (no newline either): released as it is.
                self._base += len(chunk)
                if self._unterminated is not None:
                    self._watch_end(chunk)
                self._recent.append(chunk)
                self._recent_len += len(chunk)
                if self._recent_len > 3 * RECENT:
                    self._trim_recent()
                if len(self._line_head) < HEAD:
                    self._line_head += chunk[: HEAD - len(self._line_head)]
                last = chunk[-1]
                if last == " " or last == "\t" or last == "\r":
                    stripped = chunk.rstrip(" \t\r")
                    if stripped:
                        self._line_last = stripped[-1]
                else:
                    self._line_last = last
                self._emitted += len(chunk)
                self.texts.append(chunk)
                return [StreamEvent(text=chunk)]
        self._buf = self._buf + chunk if self._buf else chunk
        self._run(eof=False)
        return self._take()

    def close(self, finish_reason: str | None = None) -> list[StreamEvent]:
        if self._closed:
            return []
        self._finish_reason = finish_reason
        self._run(eof=True)
        self._closed = True
        if self._line_items:
            self._settle_line(performed=True)
        prose = "".join(self.texts) + "".join(self._text) if self._groups else ""
        for group in self._groups:
            if C.asks_permission(C.first_line(prose, group.after_at)):
                self._emit_shown(group.region, ("proposed", "the line after it asks for permission to make it"))
            else:
                for event in group.events:
                    self._emit(event)
        self._groups = []
        if self._reasoning_open:
            self._emit(
                StreamEvent(
                    problem=Problem(
                        "unclosed_reasoning", "A <think> block was never closed; its text was kept as reasoning."
                    )
                )
            )
        return self._take()

    @property
    def in_call(self) -> bool:
        """Whether a possible call is being read (its text is held back)."""
        return self._state in _CALL_STATES or (self._state == FENCE and self._fence_hold) or bool(self._line_items)

    # -- plumbing ---------------------------------------------------------------------------

    def _take(self) -> list[StreamEvent]:
        self._flush_text()
        out, self._out = self._out, []
        return out

    def _flush_text(self) -> None:
        if self._text:
            s = "".join(self._text)
            self._text.clear()
            self.texts.append(s)
            self._out.append(StreamEvent(text=s))

    def _emit(self, event: StreamEvent) -> None:
        self._flush_text()
        self._out.append(event)
        if event.call is not None:
            self.calls.append(event.call)
        elif event.problem is not None:
            self.problems.append(event.problem)
        elif event.reasoning:
            self.reasoning.append(event.reasoning)

    def _emit_text(self, s: str) -> None:
        """Release prose, unless a block earlier on this line still waits to know whether
        prose follows it."""
        if not s:
            return
        if self._line_items:
            nl = s.find("\n")
            part = s if nl < 0 else s[:nl]
            # The first telling character after the blocks decides: JSON punctuation (or, after
            # a mended block, anything) means the JSON did not really end where it was closed;
            # a word makes the blocks part of a sentence.
            m = (_NOT_BLANK if self._line_fragile else _TELLING).search(part)
            if m is not None and (self._line_fragile or (not m.group().isalnum() and m.group() != "_")):
                self._settle_line(performed=False, broken=True)
            elif m is not None:
                self._settle_line(performed=False)
            elif nl < 0:
                self._line_items.append(s)
                return
            else:
                self._settle_line(performed=True)
        self._text.append(s)
        self._track(s)

    def _track(self, s: str) -> None:
        """Keep what the context rule needs to know about the prose released so far."""
        if self._unterminated is not None:
            self._watch_end(s)
        self._emitted += len(s)
        self._recent.append(s)
        self._recent_len += len(s)
        if self._recent_len > 3 * RECENT:
            self._trim_recent()
        nl = s.find("\n")
        if nl < 0:
            if not self._blank_line and len(self._line_head) >= HEAD:  # the usual case, in short
                last = s[-1]
                if last != " " and last != "\t" and last != "\r":
                    self._line_last = last
                elif s.strip(" \t\r"):
                    self._line_last = s.rstrip(" \t\r")[-1]
                return
            if self._blank_line:
                if s.strip(" \t\r"):
                    self._blank_line = False
                else:
                    self._indent += len(s) + 3 * s.count("\t")
            if len(self._line_head) < HEAD:
                self._line_head += s[: HEAD - len(self._line_head)]
            last = s.rstrip(" \t\r")
            if last:
                self._line_last = last[-1]
        else:
            # Headings change the section; only lines that start with "#" can be one.
            head = self._line_head or s[:HEAD]
            if head.lstrip(" \t")[:1] == "#":
                self._end_line(self._line_head + s[:nl] if len(self._line_head) < HEAD else self._line_head)
            last_nl = s.rfind("\n")
            if last_nl > nl:
                for m in _HEADING_LINE.finditer(s, nl + 1, last_nl):
                    self._end_line(m.group()[:HEAD])
            tail = s[last_nl + 1 :]
            stripped = tail.rstrip(" \t\r")
            self._line_head = tail[:HEAD]
            self._line_last = stripped[-1] if stripped else ""
            self._line_region = False
            self._blank_line = not stripped
            self._indent = 0 if stripped else len(tail) + 3 * tail.count("\t")

    def _watch_end(self, s: str) -> None:
        """The last call's JSON closed without its end marker: if the marker turns up later
        in text that is no call (prose, code, reasoning), the JSON closed early, inside a
        string, and must not run."""
        group = self._unterminated
        assert group is not None
        marker = _END_TEXT[group.region.format]
        if marker in self._watch_tail + s:
            self._unterminated = None
            if group in self._groups:
                _reject_group(group)
        self._watch_tail = (self._watch_tail + s)[-len(marker) :]

    def _recent_text(self) -> str:
        recent = self._recent
        if recent and len(recent[-1]) >= RECENT:
            return recent[-1][-RECENT:]
        return "".join(recent)[-RECENT:]

    def _trim_recent(self) -> None:
        kept = "".join(self._recent)[-RECENT:]
        self._recent = [kept]
        self._recent_len = len(kept)

    def _end_line(self, line: str) -> None:
        example = C.heading_is_example(line)
        if example is not None:
            self._section_example = example

    def _new_line(self, indent: int = 0) -> None:
        """A line ended inside text that is not prose (a hidden block, reasoning)."""
        self._line_head = ""
        self._line_last = ""
        self._line_region = False
        self._blank_line = True
        self._indent = indent

    def _capture(self) -> C.Context:
        return C.Context(
            line_head=self._line_head,
            line_last=self._line_last,
            region_on_line=self._line_region or bool(self._line_items),
            paragraph=C.last_paragraph(self._recent_text()),
            section_example=self._section_example,
        )

    def _hold_from(self, i: int) -> None:
        self._acc = []
        self._acc_len = 0
        self._acc_from = i

    def _held(self, upto: int) -> str:
        """The held construct's text up to buffer index ``upto``."""
        return "".join(self._acc) + self._buf[self._acc_from : upto]

    def _held_len(self, upto: int) -> int:
        return self._acc_len + upto - self._acc_from

    def _release_hold(self) -> None:
        self._acc = []
        self._acc_len = 0
        self._acc_from = -1

    def _run(self, eof: bool) -> None:
        self._closing = eof
        handlers = _HANDLERS
        while handlers[self._state](self, eof):
            pass
        pos = self._pos
        if pos > 0:  # compact: keep only what is undecided
            if self._acc_from >= 0:
                piece = self._buf[self._acc_from : pos]
                if piece:
                    self._acc.append(piece)
                    self._acc_len += len(piece)
                self._acc_from = 0
            self._scan -= pos
            self._run_at -= pos
            self._base += pos
            self._buf = self._buf[pos:]
            self._pos = 0

    # -- decisions ----------------------------------------------------------------------------

    def _settle_line(self, *, performed: bool, broken: bool = False) -> None:
        """The line of the waiting blocks ended (performed) or went on with prose (shown, or
        ``broken`` when what followed shows their JSON did not end where it seemed to)."""
        items, self._line_items = self._line_items, []
        self._line_fragile = False
        for item in items:
            if isinstance(item, _Block):
                if performed:
                    self._commit(item)
                elif broken or _fragile(item):
                    # Not a clean mention: an attempt that went wrong, and text ran on after it.
                    self._emit(
                        StreamEvent(
                            problem=Problem(
                                "invalid_json",
                                "A call was broken (its JSON incomplete, mended or closed before its end marker) "
                                "and text followed it on the same line, so nothing was called. Write the call "
                                "again, alone on its lines.",
                                rejected=True,
                                excerpt=excerpt(item.region.raw),
                            )
                        )
                    )
                    self._emit_text(item.region.raw)
                else:
                    self._show(item.region, item.outcome, ("in_sentence", "prose follows it on the same line"))
            else:
                self._text.append(item)
                self._track(item)

    def _commit(self, block: _Block) -> None:
        group = _Group(block.region, block.outcome.events)
        self._groups.append(group)
        region = block.region
        self._unterminated = group if region.end_marker is False and region.format in _END_TEXT else None
        self._watch_tail = ""
        self._open_group = group if block.region.format in _END_TEXT else None
        self._after_call = True
        group.after_at = self._emitted

    def _show(self, region: Region, outcome: Outcome, shown: C.Shown) -> None:
        """Give a call-shaped region back as prose, saying why it did not run."""
        if outcome.call_attempt:
            self._emit_shown(region, shown)
        self._emit_text(region.raw)

    def _emit_shown(self, region: Region, shown: C.Shown) -> None:
        kind, why = shown
        self._emit(
            StreamEvent(
                problem=Problem(
                    kind,  # type: ignore[arg-type]
                    f"A call-shaped block was not executed because {why}.",
                    excerpt=excerpt(region.raw),
                )
            )
        )

    def _reasoning_ended(self, *, lone: bool) -> None:
        """After </think> the visible reply starts afresh. A lone one closes reasoning the
        reply began in: what it drafted before does not run."""
        if lone:
            items, self._line_items = self._line_items, []
            shown = ("in_reasoning", "it was written in reasoning that the reply closed later")
            for item in items:
                if isinstance(item, _Block):
                    if item.outcome.call_attempt:
                        self._emit_shown(item.region, shown)
                else:
                    self._text.append(item)
                    self._track(item)
            for group in self._groups:
                self._emit_shown(group.region, shown)
            self._groups = []
            self._after_call = False
        self._recent = []
        self._recent_len = 0
        self._new_line()

    def _finish_region(self, region: Region) -> None:
        region.finish_reason = self._finish_reason
        try:
            outcome = self._interpret(region)
        except Exception as exc:  # noqa: BLE001 - the interpreter guards itself; this is the last line
            outcome = Outcome(events=[_unreadable(region, exc)])
        self._release_hold()
        self._region = None
        self._name = None
        self._params = None
        self._state = TEXT
        try:
            shown = self._shown_before(region) or outcome.shown
        except Exception as exc:  # noqa: BLE001 - never let one region poison the rest
            outcome, shown = Outcome(events=[_unreadable(region, exc)]), None
        if not outcome.call_attempt:
            self._emit_text(region.raw)  # ordinary text after all
        elif shown is not None:
            self._show(region, outcome, shown)
        else:
            self._wait_for_line(_Block(region, outcome))
            self._after_hidden(region.raw)

    def _wait_for_line(self, block: _Block) -> None:
        self._line_items.append(block)
        if _fragile(block):
            self._line_fragile = True

    def _shown_before(self, region: Region, *, quiet: bool = False) -> C.Shown | None:
        """What precedes ``region`` says it is shown, not performed (see context.py). With
        ``quiet``, a failure to judge counts as no (for blocks that run nothing anyway)."""
        if region.context is None:
            return None
        try:
            return C.shown_before(region.context, json_only=region.format == "bare")
        except Exception:
            if quiet:
                return None
            raise

    def _after_hidden(self, raw: str) -> None:
        """Line bookkeeping after a block whose text is not released."""
        nl = raw.rfind("\n")
        if nl >= 0 and not raw[nl + 1 :].strip(" \t\r"):  # its line is over
            tail = raw[nl + 1 :]
            if self._line_items:
                self._settle_line(performed=True)
            self._new_line(len(tail) + 3 * tail.count("\t"))
        else:
            self._line_region = True
            self._blank_line = False

    # -- prose ------------------------------------------------------------------------------

    def _s_text(self, eof: bool) -> bool:
        # Prose is released in one piece up to the next place that needs a closer look (a
        # candidate trigger, or a line start that could begin a construct), not piece by piece.
        buf = self._buf
        n = len(buf)
        pos = start = self._pos
        blank = self._blank_line
        while pos < n:
            if blank:
                e = M.BLANKS.match(buf, pos).end()
                if e == n:
                    pos = n
                    break
                ch = buf[e]
                if ch == "\n":
                    pos = e + 1
                    continue
                if ch in _LINE_START_CHARS and (
                    ch == "`" or ch == "~" or M.LINE_TRIGGER.match(buf, e, partial=not eof) is not None
                ):
                    self._emit_text(buf[start:e])  # the line's indentation and context are needed now
                    start = e
                    self._pos = e
                    started = self._line_start(e, eof)
                    if started is not None:
                        return started
                blank = False
                pos = e
            m = M.CANDIDATE.search(buf, pos, partial=not eof)
            if m is None:
                pos = n
                break
            c = m.start()
            if m.partial:
                pos = c
                break
            first = buf[c]
            if first == "\n":
                blank = True
                if self._literal_runs:
                    self._literal_runs.clear()
                pos = c + 1
                continue
            if first == "`":
                self._emit_text(buf[start:c])
                self._pos = c
                self._run_len = 0
                self._run_literal = (self._base + c) in self._literal_runs
                self._state = BTICK
                return True
            t = M.TRIGGER.match(buf, c, partial=not eof)
            if t is None or (t.lastgroup == "unthink" and (self._explicit_reasoning or self._lone_closed)):
                pos = c + 1  # ordinary text (a stray </think> once reasoning was settled)
                continue
            if t.partial:
                pos = c
                break
            self._emit_text(buf[start:c])  # the construct is judged from the prose before it
            start = c
            self._pos = c
            done = self._trigger(t, c, eof)
            if done == _DONE:
                return True
            if done == _WAIT:
                pos = c
                break
            pos = c + 1
        self._emit_text(buf[start:pos])
        self._pos = pos
        return False

    def _line_start(self, e: int, eof: bool) -> bool | None:
        """At the first non-blank character of a line: a line-anchored construct, or None."""
        buf = self._buf
        ch = buf[e]
        if (ch == "`" or ch == "~") and self._indent <= 3:
            if ch == "~":
                if len(buf) - e < 3 and not eof and "~~~".startswith(buf[e:]):
                    return False
                if not buf.startswith("~~~", e):
                    return None
            if not self._count_block():
                return True
            self._prior_group, self._open_group = self._open_group, None
            self._ctx = self._capture()
            self._hold_from(e)
            self._pos = e
            self._run_char = ch
            self._run_len = 0
            self._state = LINE_RUN
            return True
        t = M.LINE_TRIGGER.match(buf, e, partial=not eof)
        if t is None:
            return None
        if t.partial:
            return False
        kind = t.lastgroup
        if kind == "think":
            self._pos = t.end()
            self._state = THINK
            self._explicit_reasoning = True
            self._reasoning_open = True
            return True
        if kind == "result":
            if not self._after_call:
                return None
            self._emit(
                StreamEvent(
                    problem=Problem(
                        "invented_result",
                        "After its call the reply went on with a tool result the model wrote itself; "
                        "that text and everything after it was dropped.",
                        excerpt=excerpt(buf[e:]),
                    )
                )
            )
            self._pos = e
            self._state = DROP
            return True
        if kind == "bare" and self._indent > 3:
            return None
        if not self._count_block():
            return True
        self._prior_group, self._open_group = self._open_group, None
        self._ctx = self._capture()
        self._at_line_start = True
        self._hold_from(e)
        if kind == "react":
            self._name = t.group("react_name")
            self._begin_region(t.end() - 1, "react")
        else:
            self._begin_region(e, "bare")
        return True

    def _trigger(self, t: regex.Match[str], c: int, eof: bool) -> int:
        """A trigger inside a line: _DONE (handled), _AS_TEXT (ordinary text) or _WAIT."""
        kind = t.lastgroup
        end = t.end()
        if kind == "unthink":
            if self._explicit_reasoning or self._lone_closed:
                return _AS_TEXT  # a stray closing tag
            if self._line_last.isalnum():  # "...the </think> tag": a mention, unless the line ends here
                if end >= len(self._buf):
                    if not eof:
                        return _WAIT
                elif self._buf[end] not in "\r\n":
                    return _AS_TEXT
            self._lone_closed = True
            self._pos = end
            self._reasoning_ended(lone=True)
            return _DONE
        if kind == "end":
            return self._stray_end(t, end)
        if kind == "comment":
            self._emit_text(t.group())
            self._pos = end
            self._span_len = 0
            self._state = SPAN
            return _DONE
        if not self._count_block():
            return _DONE
        self._prior_group, self._open_group = self._open_group, None
        self._ctx = self._capture()
        self._at_line_start = self._blank_line
        self._hold_from(c)
        self._pos = end
        if kind == "canonical":
            self._fmt = "canonical"
            self._state = AFTER_START
        elif kind == "tag":
            self._tag_quote = None
            self._state = TAG
        else:
            self._fmt = "mistral"
            self._state = AFTER_MISTRAL
        return _DONE

    def _stray_end(self, t: regex.Match[str], end: int) -> int:
        """An end marker alone on its line with no block open. If only text came between it
        and the last call, that call's JSON (or its end marker) ended early, an unescaped
        quote say: what it holds is not what the model wrote, and it must not run."""
        group = self._open_group
        canonical = t.group() == M.CALL_END
        if group is None or (group.region.format == "canonical") != canonical or not self._blank_line:
            return _AS_TEXT
        rest = M.BLANKS.match(self._buf, end).end()
        if rest == len(self._buf) and not self._closing:
            return _WAIT  # alone on its line only if the line ends here
        if rest < len(self._buf) and self._buf[rest] != "\n":
            return _AS_TEXT
        self._open_group = None
        _reject_group(group)
        self._pos = end  # the marker closes the broken block: it is not prose
        self._state = TEXT
        return _DONE

    def _s_think(self, eof: bool) -> bool:
        buf, pos = self._buf, self._pos
        m = M.THINK_END.search(buf, pos, partial=not eof)
        end = len(buf) if m is None else m.start()
        if end > pos:
            if self._unterminated is not None:
                self._watch_end(buf[pos:end])
            self._emit(StreamEvent(reasoning=buf[pos:end]))
            self._pos = end
        if m is None or m.partial:
            return False
        self._pos = m.end()
        self._reasoning_open = False
        self._state = TEXT
        self._reasoning_ended(lone=False)  # reasoning first, then a bare JSON call, is a common shape
        return True

    def _count_block(self) -> bool:
        """Count a block about to be read; past MAX_BLOCKS, the rest of the reply is text."""
        self._blocks += 1
        if self._blocks <= MAX_BLOCKS:
            return True
        self._emit(
            StreamEvent(
                problem=Problem(
                    "malformed_call",
                    f"The reply held more than {MAX_BLOCKS} call blocks, code blocks and JSON lines; the rest of "
                    "it was kept as text and nothing in it was executed. Write fewer, one call per block.",
                    rejected=True,
                )
            )
        )
        self._state = FLOOD
        return False

    def _s_flood(self, eof: bool) -> bool:
        self._emit_text(self._buf[self._pos :])
        self._pos = len(self._buf)
        return False

    def _s_drop(self, eof: bool) -> bool:
        if self._unterminated is not None:
            self._watch_end(self._buf[self._pos :])
        self._pos = len(self._buf)
        return False

    # -- inline code and comments -------------------------------------------------------------

    def _s_btick(self, eof: bool) -> bool:
        """A run of backticks inside a line: it opens an inline code span, unless the line
        is already known to hold no run that closes it."""
        buf, pos = self._buf, self._pos
        e = _RUNS["`"].match(buf, pos).end() if pos < len(buf) else pos
        self._run_len += e - pos
        self._emit_text(buf[pos:e])
        self._pos = e
        if e == len(buf) and not eof:
            return False
        if self._run_literal:
            self._state = TEXT
        else:
            self._span_len = self._run_len
            self._state = SPAN
        return True

    def _s_span(self, eof: bool) -> bool:
        """Inside inline code or an HTML comment: prose that holds no calls. In inline code,
        from the first backtick run or opener on, text is held until it is clear whether the
        span closes on this line; if it does not, it was no code span."""
        buf, pos = self._buf, self._pos
        n = len(buf)
        if not self._span_len:  # an HTML comment, up to -->
            m = M.COMMENT_END.search(buf, pos, partial=not eof)
            if m is None or m.partial:
                upto = n if m is None else m.start()
                self._emit_text(buf[pos:upto])
                self._pos = upto
                if eof:
                    self._state = TEXT
                return eof
            self._emit_text(buf[pos : m.end()])
            self._pos = m.end()
            self._state = TEXT
            return True
        m = _SPAN_STOP_TRIGGER.search(buf, pos, partial=not eof)
        if m is None:
            self._emit_text(buf[pos:])
            self._pos = n
            if eof:
                self._state = TEXT
            return eof
        s = m.start()
        if m.partial:
            self._emit_text(buf[pos:s])
            self._pos = s
            return False
        if buf[s] == "\n":
            self._emit_text(buf[pos:s])
            self._pos = s
            self._state = TEXT
            return True
        if buf[s] == "`":
            e = _RUNS["`"].match(buf, s).end()
            if e - s == self._span_len and (e < n or eof):  # the span closes: all of it was code
                self._emit_text(buf[pos:e])
                self._pos = e
                self._state = TEXT
                return True
        else:
            # An opener inside the span: if the span's closing run is already here on this
            # line, all of it was code.
            c = _span_closer(self._span_len).search(buf, s, min(n, s + SPAN_HOLD_LIMIT))
            if c is not None and (c.end() < n or eof) and buf.find("\n", s, c.start()) < 0:
                self._emit_text(buf[pos : c.end()])
                self._pos = c.end()
                self._state = TEXT
                return True
        self._emit_text(buf[pos:s])
        self._pos = s
        self._scan = s
        self._span_run = 0
        self._records = []
        self._state = SPAN_HOLD
        return True

    def _s_span_hold(self, eof: bool) -> bool:
        buf = self._buf
        n = len(buf)
        i = self._scan
        failed = False
        while True:
            if self._span_run:  # a run of backticks being counted
                e = _RUNS["`"].match(buf, i).end()
                self._span_run += e - i
                i = e
                if e == n and not eof:
                    break
                run, self._span_run = self._span_run, 0
                if run == self._span_len:  # the span closes: everything held was code
                    self._emit_text(buf[self._pos : i])
                    self._pos = i
                    self._state = TEXT
                    return True
                self._records.append((self._base + self._run_at, run))
                continue
            if i - self._pos > SPAN_HOLD_LIMIT:
                failed = True
                break
            m = _SPAN_STOP.search(buf, i)
            if m is None:
                i = n
                failed = eof
                break
            i = m.start()
            if buf[i] == "\n":
                failed = True
                break
            self._run_at = i
            self._span_run = 0
            e = _RUNS["`"].match(buf, i).end()
            self._span_run = e - i
            i = e
            if e == n and not eof:
                break
            run, self._span_run = self._span_run, 0
            if run == self._span_len:
                self._emit_text(buf[self._pos : i])
                self._pos = i
                self._state = TEXT
                return True
            self._records.append((self._base + self._run_at, run))
        if not failed:
            self._scan = i
            return False
        # The line ended without closing the span: it was no code span, and the held text is
        # read again as prose. Runs in it with no later run of their length close nothing.
        records = self._records
        later: set[int] = set()
        for at, run in reversed(records):
            if run not in later:
                self._literal_runs.add(at)
                later.add(run)
        self._records = []
        self._span_run = 0
        self._state = TEXT
        return True

    # -- fences -------------------------------------------------------------------------------

    def _s_line_run(self, eof: bool) -> bool:
        """A run of backticks or tildes that begins a line: maybe a fence."""
        buf, pos = self._buf, self._pos
        ch = self._run_char
        e = _RUNS[ch].match(buf, pos).end() if pos < len(buf) else pos
        self._run_len += e - pos
        self._pos = e
        if e == len(buf) and not eof:
            return False
        if self._run_len >= 3 and e < len(buf):
            self._fence_char = ch
            self._fence_len = self._run_len
            self._info = []
            self._info_len = 0
            self._state = FENCE_INFO
            return True
        # Not a fence: ordinary text (a short run of backticks opens inline code).
        self._emit_text(self._held(e))
        self._release_hold()
        if ch == "`" and e < len(buf):
            self._span_len = self._run_len
            self._state = SPAN
        else:
            self._state = TEXT
        return True

    def _s_fence_info(self, eof: bool) -> bool:
        buf, pos = self._buf, self._pos
        n = len(buf)
        stop = buf.find("\n", pos)
        upto = n if stop < 0 else stop
        if self._fence_char == "`":
            tick = buf.find("`", pos, upto)
            if tick >= 0:  # backticks after a backtick run: inline code, not a fence
                self._emit_text(self._held(tick))
                self._release_hold()
                self._pos = tick
                self._span_len = self._fence_len
                self._state = SPAN
                return True
        if self._info_len <= 60:
            self._info.append(buf[pos : min(upto, pos + 61 - self._info_len)])
        self._info_len += upto - pos
        if stop < 0:
            self._pos = n
            if eof:  # a fence opener on the last line opens nothing
                self._emit_text(self._held(n))
                self._release_hold()
                self._state = TEXT
                return True
            return False
        self._pos = stop + 1
        info = "".join(self._info).strip().lower() if self._info_len <= 60 else "\x00"
        self._fence_info = info
        self._fl = _LS
        self._fl_count = 0
        self._fence_first = False
        self._line_at = self._held_len(self._pos)
        if info in CALL_FENCE_INFOS or info in DATA_FENCE_INFOS:
            self._fence_hold = True
            self._fence_data = info in DATA_FENCE_INFOS
        else:
            self._fence_hold = False
            self._emit_text(self._held(self._pos))
            self._release_hold()
        self._state = FENCE
        return True

    def _first_content(self, c: str, pos: int) -> None:
        """A data fence holds a call only if its content starts like one; anything else is
        code, and streams."""
        self._fence_first = True
        if c not in "{[T":
            self._emit_text(self._held(pos))
            self._release_hold()
            self._fence_hold = False

    def _look_at_first(self, buf: str, pos: int, end: int) -> bool:
        """Settle a data fence by its first non-blank character before ``end``, if there is
        one; whether the fence is still held."""
        first = _NOT_BLANK.search(buf, pos, end)
        if first is not None:
            self._first_content(buf[first.start()], pos)
        return self._fence_hold

    def _pass_fence_text(self, buf: str, pos: int, upto: int, hold: bool) -> bool:
        """Stream or hold the fence's text up to ``upto``; whether the fence is still held."""
        if not hold:
            self._emit_text(buf[pos:upto])
        elif self._held_len(upto) > FENCE_HOLD_LIMIT:  # far too large for a call
            self._emit_text(self._held(upto))
            self._release_hold()
            self._fence_hold = hold = False
        return hold

    def _s_fence(self, eof: bool) -> bool:
        buf = self._buf
        n = len(buf)
        pos = self._pos
        ch = self._fence_char
        while pos < n:
            fl = self._fl
            hold = self._fence_hold
            if fl == _REST:
                if hold and self._fence_data and not self._fence_first:
                    hold = self._look_at_first(buf, pos, n)
                # Skip to the next line that could close the fence, in one step.
                m = _NEXT_CLOSE[ch].search(buf, pos, partial=not eof)
                upto = n if m is None else m.start() if m.partial else m.start() + 1
                hold = self._pass_fence_text(buf, pos, upto, hold)
                pos = upto
                if m is None or m.partial:
                    break
                self._fl = _LS
                if hold:
                    self._line_at = self._held_len(pos)
                continue
            if fl == _LS:
                last = buf.rfind("\n", pos)
                if last >= pos:
                    # Whole lines are here: find the first one that closes the fence at once.
                    m = _closing_line(ch, self._fence_len).search(buf, pos, last + 1)
                    upto = last + 1 if m is None else m.start()
                    if hold and self._fence_data and not self._fence_first:
                        hold = self._look_at_first(buf, pos, upto if m is None else m.end())
                    hold = self._pass_fence_text(buf, pos, upto, hold)
                    pos = upto
                    if hold:
                        self._line_at = self._held_len(pos)
                    if m is not None:
                        if not hold:
                            self._emit_text(buf[pos : m.end() + 1])
                        return self._close_fence(m.end() + 1)
                    continue
                e = _FENCE_LINE_START.match(buf, pos).end()
                if e == n and not eof:
                    break  # blanks that may precede a closing fence: wait
                if e < n and buf[e] == ch:
                    if hold and self._fence_data and not self._fence_first:
                        self._first_content(ch, pos)
                        hold = self._fence_hold
                    if not hold:
                        self._emit_text(buf[pos:e])
                    pos = e
                    self._fl = _RUN
                    self._fl_count = 0
                else:
                    self._fl = _REST
                continue
            if fl == _RUN:
                e = _RUNS[ch].match(buf, pos).end()
                self._fl_count += e - pos
                if not hold:
                    self._emit_text(buf[pos:e])
                pos = e
                if e == n and not eof:
                    break
                self._fl = _TRAIL if self._fl_count >= self._fence_len else _REST
                continue
            # _TRAIL: only blanks may follow the run on a closing line
            e = M.BLANKS.match(buf, pos).end()
            if not hold:
                self._emit_text(buf[pos:e])
            pos = e
            if e == n:
                if not eof:
                    break
                return self._close_fence(pos)
            if buf[e] == "\n":
                if not hold:
                    self._emit_text("\n")
                return self._close_fence(e + 1)
            self._fl = _REST
        self._pos = pos
        if eof and (self._fl == _TRAIL or (self._fl == _RUN and self._fl_count >= self._fence_len)):
            return self._close_fence(pos)  # a closing fence on the last line
        if eof:  # the reply ended inside the fence
            if self._fence_hold:
                self._finish_fence(self._held(pos), closed=False)
            else:
                self._state = TEXT
            return True
        return False

    def _close_fence(self, end: int) -> bool:
        self._pos = end
        if self._fence_hold:
            self._finish_fence(self._held(end), closed=True)
        else:
            self._state = TEXT
        return True

    def _finish_fence(self, raw: str, *, closed: bool) -> None:
        first_nl = raw.find("\n")
        body = raw[first_nl + 1 : self._line_at] if closed else raw[first_nl + 1 :]
        self._finish_region(
            Region(
                format="fence",
                text=body,
                raw=raw,
                end_marker=closed,
                fence_info=self._fence_info,
                context=self._ctx,
            )
        )

    # -- openers ------------------------------------------------------------------------------

    def _s_after_start(self, eof: bool) -> bool:
        m = M.BLOCK["canonical"].body_start.match(self._buf, self._pos, partial=not eof)
        if m is not None and m.partial:
            return False
        if m is not None:
            self._begin_region(m.end() - 1, "canonical")
        elif self._at_line_start:
            # A start marker on its own line followed by something that is not JSON: an
            # attempted call in the wrong shape. Hide it up to its end marker and report it.
            self._state = MALFORMED
        else:  # the marker mentioned in a sentence: prose
            self._emit_text(self._held(self._pos))
            self._release_hold()
            self._state = TEXT
        return True

    def _s_after_mistral(self, eof: bool) -> bool:
        m = M.BLOCK["mistral"].body_start.match(self._buf, self._pos, partial=not eof)
        if m is not None and m.partial:
            return False
        if m is not None:
            self._begin_region(m.end() - 1, "mistral")
        else:
            self._emit_text(self._held(self._pos))
            self._release_hold()
            self._state = TEXT
        return True

    def _s_tag(self, eof: bool) -> bool:
        buf = self._buf
        n = len(buf)
        pos = self._pos
        while True:
            if self._tag_quote is not None:
                i = buf.find(self._tag_quote, pos)
                if i < 0:
                    self._pos = n
                    if not eof:
                        return False
                    return self._not_a_tag()
                pos = i + 1
                self._tag_quote = None
                continue
            m = M.TAG_STEP.match(buf, pos, partial=not eof)
            if m is None:
                self._pos = pos
                return self._not_a_tag()
            if m.partial:
                self._pos = pos
                return False
            pos = m.end()
            if m.group("end") is not None:
                break
            self._tag_quote = m.group("quote")
        self._pos = pos
        tag = self._held(pos)
        attrs = {k.lower(): a or b for k, a, b in M.TAG_ATTR.findall(tag, len("<tool_call"))}
        self._name = attrs.get("name") or attrs.get("function") or attrs.get("tool")
        self._params = next((attrs[k] for k in ("params", "parameters", "arguments", "args") if k in attrs), None)
        self._fmt = "xml" if self._name else "hermes"
        if tag.endswith("/>"):
            self._finish_region(
                Region(
                    format=self._fmt,
                    text=self._params if self._params is not None else "{}",
                    raw=tag,
                    name=self._name,
                    params=self._params,
                    end_marker=True,
                    context=self._ctx,
                )
            )
            return True
        self._state = AFTER_TAG
        return True

    def _not_a_tag(self) -> bool:
        """``<tool_call`` followed by something that is not an attribute list: prose. What
        followed the word is read again as prose (each character at most once more)."""
        if not self._acc:  # all of it is still in the buffer: just go back
            self._pos = self._acc_from + len("<tool_call")
        else:
            held = self._held(self._pos)
            rest = held[len("<tool_call") :]
            self._base += self._pos - len(rest)
            self._buf = rest + self._buf[self._pos :]
            self._pos = 0
        self._release_hold()
        self._emit_text("<tool_call")
        self._tag_quote = None
        self._state = TEXT
        return True

    def _s_after_tag(self, eof: bool) -> bool:
        buf, pos = self._buf, self._pos
        m = M.BLOCK["tag"].body_start.match(buf, pos, partial=not eof)
        e = M.BLOCK["tag"].empty.match(buf, pos, partial=not eof)
        if (m is not None and m.partial) or (e is not None and e.partial):
            return False
        if m is not None:
            self._begin_region(m.end() - 1, self._fmt)
        elif e is not None:
            self._pos = e.end()
            self._finish_region(
                Region(
                    format=self._fmt,
                    text=self._params if self._params is not None else "{}",
                    raw=self._held(self._pos),
                    name=self._name,
                    params=self._params,
                    end_marker=True,
                    context=self._ctx,
                )
            )
        elif self._at_line_start:
            self._state = MALFORMED
        else:
            self._emit_text(self._held(pos))
            self._release_hold()
            self._state = TEXT
        return True

    def _s_malformed(self, eof: bool) -> bool:
        buf, pos = self._buf, self._pos
        canonical = self._fmt == "canonical"
        m = M.BLOCK["canonical" if canonical else "tag"].malformed_end.search(buf, pos, partial=not eof)
        if m is None:
            self._pos = len(buf)
            if not eof:
                return False
            self._finish_malformed(self._held(len(buf)), ended=False)
            return True
        if m.partial:
            self._pos = m.start()
            return False
        if m.group() in (M.CALL_END, "</tool_call>"):
            self._pos = m.end()
        else:
            self._pos = m.start()  # a new call begins: the broken one ended before it
        self._finish_malformed(self._held(self._pos), ended=True)
        return True

    def _finish_malformed(self, raw: str, *, ended: bool) -> None:
        canonical = self._fmt == "canonical"
        opener = "TOOL_CALL_START" if canonical else "<tool_call>"
        problem = Problem(
            "malformed_call",
            f"A {opener} block did not contain a JSON object, so nothing was called. Write the call as "
            'TOOL_CALL_START, then {"function": "<tool name>", "params": {...}} on one line, then TOOL_CALL_END.',
            rejected=True,
            excerpt=excerpt(raw),
        )
        self._release_hold()
        self._state = TEXT
        prior = self._prior_group
        if prior is not None and prior.region.end_marker is False and prior in self._groups:
            # The call before had no end marker, and what came next is no call: its JSON
            # most likely closed early, inside a string.
            _reject_group(prior)
        outcome = Outcome(events=[StreamEvent(problem=problem)])
        if ended:
            self._finish_region_outcome(
                Region(format="canonical" if canonical else "hermes", text="", raw=raw), outcome
            )
            return
        # No end marker before the reply ended: what followed the marker may have been meant
        # as prose; the marker was not.
        region = Region(format="canonical" if canonical else "hermes", text="", raw=raw, context=self._ctx)
        shown = self._shown_before(region, quiet=True)
        if shown is not None:
            self._show(region, outcome, shown)
            return
        if self._line_items:
            self._settle_line(performed=True)
        self._commit(_Block(region, outcome))
        cut = len(M.CALL_START) if raw.startswith(M.CALL_START) else 0
        self._emit_text(raw[cut:])

    def _finish_region_outcome(self, region: Region, outcome: Outcome) -> None:
        region.context = self._ctx
        shown = self._shown_before(region, quiet=True)
        if shown is not None:
            self._show(region, outcome, shown)
        else:
            self._wait_for_line(_Block(region, outcome))
            self._after_hidden(region.raw)

    # -- JSON regions -------------------------------------------------------------------------

    def _begin_region(self, bracket: int, fmt: Format) -> None:
        self._json_off = self._held_len(bracket)
        self._fmt = fmt
        self._stack = []
        self._deep = 0
        self._quote = None
        patterns = M.BLOCK[_STRUCT_OF[fmt]]
        self._struct = patterns.struct
        self._ownline = patterns.own_line
        self._bodies = patterns.bodies
        self._opener_first = patterns.opener_first
        self._mistral_inside = bool(patterns.opener_first)
        self._pos = bracket
        self._state = REGION

    def _s_region(self, eof: bool) -> bool:
        # A string-aware bracket matcher that tolerates Python-style single quotes. It jumps
        # from one structural character to the next with compiled patterns, so a long string
        # argument costs a few regex calls, not one Python step per character.
        buf = self._buf
        pos = self._pos
        n = len(buf)
        stack = self._stack
        quote = self._quote
        struct = self._struct
        bare = self._fmt == "bare"
        if not stack and quote is None and self._tax <= self._base + n:
            # The region just began. When its JSON is valid and already here, the C decoder
            # finds its end far faster than the loop below, and at the same place: in valid
            # JSON, quotes, brackets and markers outside strings mean the same to both. A
            # failed attempt costs time in proportion to the position (the error message
            # counts lines), so attempts stop once that cost would exceed the text read.
            try:
                value, end = _DECODER.raw_decode(buf, pos)
            except Exception:  # noqa: BLE001 - not decodable as it stands: the loop below reads it
                self._tax += pos
            else:
                if buf.count("{", pos, end) + buf.count("[", pos, end) < MAX_DEPTH or not too_deep_value(
                    value, MAX_DEPTH - 1
                ):
                    self._pos = end
                    self._region_done(complete=True, value=value)
                    return True
        bodies = self._bodies
        ownline = self._ownline
        while pos < n:
            if quote is not None:
                # Matched in windows: the regex engine slows down on very long matches made
                # of many short pieces. A window ends before a newline, so a newline is never
                # judged without the text after it.
                w = pos + _WINDOW
                if w < n:
                    j = buf.rfind("\n", w - 4096, w)
                    if j > pos:
                        w = j
                e = bodies[quote].match(buf, pos, w).end() if w < n else bodies[quote].match(buf, pos).end()
                if e == w and w < n:
                    pos = e
                    continue
                if e >= n:
                    if not eof and ownline is not None:
                        # A newline near the end may begin an end marker not complete yet.
                        j = buf.rfind("\n", max(pos, n - 64), n)
                        if j >= 0 and ownline[0].match(buf, j, partial=True) is not None:
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
                if bare:  # a standalone JSON line holds no raw newline: it was not JSON
                    self._pos = e
                    return self._abandon()
                if ownline is not None:
                    m = ownline[eof].match(buf, e, partial=not eof)
                    if m is not None and m.partial:
                        pos = e
                        break
                    if m is not None:  # an end or start marker alone on its line: the block ends there
                        self._pos = e
                        self._quote = quote
                        self._region_done(complete=False)
                        return True
                pos = e + 1
                continue
            m = struct.search(buf, pos, partial=not eof)
            if m is None:
                pos = n
                break
            s = m.start()
            if m.partial:
                pos = s
                break
            tok = m.group()
            if tok == '"' or tok == "'":
                # A run of the same quote: every pair is an empty string.
                e = _QUOTE_RUNS[tok].match(buf, s).end()
                if (e - s) % 2:
                    quote = tok
                pos = e
            elif tok == "{" or tok == "[":
                if tok == "[" and self._mistral_inside:
                    # "[" may begin [TOOL_CALLS], which ends the region: one at a time, and
                    # wait when what follows could still spell it.
                    if not eof and n - s < len(self._opener_first) and self._opener_first.startswith(buf[s:n]):
                        pos = s
                        break
                    e = s + 1
                else:
                    e = (_BRACE_RUN if self._mistral_inside else _OPEN_RUN).match(buf, s).end()
                room = MAX_DEPTH - len(stack)
                if room > 0:
                    stack.extend(buf[s : min(e, s + room)])
                if e - s > room:
                    self._deep += e - s - max(room, 0)
                pos = e
            elif tok == "}" or tok == "]":
                e = _CLOSE_RUN.match(buf, s).end()
                k = e - s
                open_now = self._deep + len(stack)
                if k < open_now:  # the brackets stay open
                    used = min(k, self._deep)
                    self._deep -= used
                    if k > used:
                        del stack[len(stack) - (k - used) :]
                    pos = e
                    continue
                # The last open bracket closes within this run (or none was open): done.
                self._deep = 0
                stack.clear()
                self._pos = s + max(open_now, 1)
                self._quote = None
                self._region_done(complete=True)
                return True
            elif bare:  # a blank line or an opener: the standalone JSON was not a call
                self._pos = s
                return self._abandon()
            else:  # an end marker, or a new call, while brackets are still open
                self._pos = s
                self._quote = None
                self._region_done(complete=False, cut=not tok.endswith(("_END", "</tool_call>")))
                return True
        self._pos = pos
        self._quote = quote
        if eof:
            self._region_done(complete=False)
            return True
        return False

    def _abandon(self) -> bool:
        """A standalone JSON line that is not JSON after all: its text is prose, and is not
        read again (what stopped it, a blank line or an opener, is)."""
        raw = self._held(self._pos)
        self._release_hold()
        self._quote = None
        self._state = TEXT
        self._emit_text(raw)
        return True

    def _region_done(self, *, complete: bool, value: object = NOT_DECODED, cut: bool = False) -> None:
        raw = self._held(self._pos)
        text = raw[self._json_off :]
        region = Region(
            value=value,
            cut=cut,
            format=self._fmt,
            text=text,
            raw=raw,
            complete=complete,
            open_brackets="".join(self._stack),
            in_string=self._quote is not None,
            too_deep=self._deep > 0 or len(self._stack) >= MAX_DEPTH,
            name=self._name,
            context=self._ctx,
        )
        self._quote = None
        end_text = _END_TEXT.get(self._fmt)
        rest = ""
        k = text.find(end_text) if not complete and region.in_string and end_text else -1
        if k >= 0 and text[:k].rstrip().endswith(("}", "]")):
            # The JSON's quotes went astray (a stray quote inside a string) and swallowed the
            # end marker on the block's own line: the block really ended there. What followed
            # it is given back as prose, not read again. Only when the JSON before the marker
            # looks finished: a marker right inside a string is that string's text, and
            # cutting there would run a call with the string cut short.
            rest = text[k + len(end_text) :]
            region.text = text[:k]
            region.raw = raw[: len(raw) - len(rest)]
            region.in_string = False
            region.open_brackets = ""
            region.end_marker = True
        if rest or not end_text:
            self._finish_region(region)
            self._emit_text(rest)
        else:
            self._region = region
            self._state = POST_REGION

    def _s_post_region(self, eof: bool) -> bool:
        region = self._region
        assert region is not None
        buf, pos = self._buf, self._pos
        m = _END_PATTERN[region.format].match(buf, pos, partial=not eof)
        if m is not None and m.partial:
            return False
        region.end_marker = m is not None
        if m is not None:
            region.raw += buf[pos : m.end()]
            self._pos = m.end()
        self._finish_region(region)
        return True


def _reject_group(group: _Group) -> None:
    group.events = [
        StreamEvent(
            problem=Problem(
                "invalid_json",
                "The call's JSON ended before its end marker, and more of it followed (often an unescaped \" "
                "inside a string), so nothing was called. Write it again as valid JSON, escaping quotes "
                'inside strings as \\".',
                rejected=True,
                excerpt=excerpt(group.region.raw),
            )
        )
    ]


@functools.lru_cache(maxsize=64)
def _span_closer(length: int) -> regex.Pattern[str]:
    """A run of exactly ``length`` backticks."""
    return regex.compile(r"(?<!`)`{" + str(length) + r"}(?!`)")


@functools.lru_cache(maxsize=64)
def _closing_line(char: str, length: int) -> regex.Pattern[str]:
    """A whole line that closes a fence opened with ``length`` times ``char``."""
    return regex.compile(r"(?m)^[ \t]{0,3}" + regex.escape(char) + "{" + str(length) + r",}[ \t]*\r?$")


def _fragile(block: _Block) -> bool:
    """A mended block, or JSON that closed without its end marker: text right after it on its
    line means the JSON did not really end there (an unescaped quote, say)."""
    region = block.region
    return _broken(block.outcome) or (region.end_marker is False and region.format in _END_TEXT)


def _broken(outcome: Outcome) -> bool:
    """Whether a call-shaped region failed, or only ran after its JSON was mended."""
    for event in outcome.events:
        if event.problem is not None and event.problem.rejected:
            return True
        if event.call is not None and any(n.startswith(("closed", "repaired")) for n in event.call.notes):
            return True
    return False


def _unreadable(region: Region, exc: BaseException) -> StreamEvent:
    return StreamEvent(
        problem=Problem(
            "invalid_json",
            f"The call could not be read ({type(exc).__name__}); nothing was called.",
            rejected=True,
            excerpt=excerpt(region.raw),
        )
    )


_HANDLER_OF: dict[int, Callable[[Scanner, bool], bool]] = {
    TEXT: Scanner._s_text,
    THINK: Scanner._s_think,
    SPAN: Scanner._s_span,
    SPAN_HOLD: Scanner._s_span_hold,
    BTICK: Scanner._s_btick,
    LINE_RUN: Scanner._s_line_run,
    FENCE_INFO: Scanner._s_fence_info,
    FENCE: Scanner._s_fence,
    AFTER_START: Scanner._s_after_start,
    MALFORMED: Scanner._s_malformed,
    TAG: Scanner._s_tag,
    AFTER_TAG: Scanner._s_after_tag,
    AFTER_MISTRAL: Scanner._s_after_mistral,
    REGION: Scanner._s_region,
    POST_REGION: Scanner._s_post_region,
    DROP: Scanner._s_drop,
    FLOOD: Scanner._s_flood,
}
_HANDLERS = [_HANDLER_OF[state] for state in range(len(_HANDLER_OF))]
_CALL_STATES = frozenset(
    {AFTER_START, MALFORMED, REGION, POST_REGION, TAG, AFTER_TAG, AFTER_MISTRAL, LINE_RUN, FENCE_INFO}
)
