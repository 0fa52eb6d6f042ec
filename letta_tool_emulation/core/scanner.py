"""The lexical half of the parser: where calls, code, reasoning and prose begin and end.

One state machine serves streaming and one-shot parsing (one-shot is a single ``feed`` and
``close``). Every decision depends only on the text seen so far, never on how it was
chunked: whatever could still become a marker is held back, everything else is released at
once. The buffer only ever holds undecided text plus one character of context for
line-anchored patterns, so the work per character does not grow with the reply.

The scanner knows nothing about tools. When a region that may hold a call is complete, it
asks its ``interpret`` callback what the region means.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field

import regex

from . import markers as M
from .results import Format, Problem, StreamEvent, ToolCall

NOT_DECODED = object()
_DECODER = json.JSONDecoder()


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
    name: str | None = None  # a tool name given outside the JSON (XML attribute, ReAct Action:)
    fence_info: str | None = None
    example_context: bool = False  # the text just before the region presents an example
    finish_reason: str | None = None
    value: object = NOT_DECODED  # the JSON already decoded, when it was valid as it stood


@dataclass(slots=True)
class Outcome:
    events: list[StreamEvent] = field(default_factory=list)
    release: bool = False  # not a call after all: give the raw text back as prose
    call_attempt: bool = True  # the model evidently tried to call a tool


Interpret = Callable[[Region], Outcome]

# States
INITIAL, TEXT, THINK, AFTER_START, MALFORMED, REGION, POST_REGION, POST_BARE = range(8)
TAG, AFTER_TAG, AFTER_MISTRAL, FENCE_CALL, FENCE_TEXT, INLINE, DROP = range(8, 15)

_INLINE_CLOSE = {
    1: regex.compile(r"(?<!`)`(?!`)|\n"),
    2: regex.compile(r"(?<!`)``(?!`)|\n"),
}
_END_PATTERN = {"canonical": M.CANONICAL_END, "hermes": M.TAG_END, "xml": M.TAG_END}
_END_TEXT = {"canonical": M.CALL_END, "hermes": "</tool_call>", "xml": "</tool_call>"}
_STRUCT = {"canonical": M.STRUCT_CANONICAL, "hermes": M.STRUCT_TAG, "xml": M.STRUCT_TAG}
_EXCERPT = 160
# Prose with nothing the text state would look at twice (no newline: line starts matter).
_PLAIN = regex.compile(r"[^T<\[`\n]+")


def excerpt(text: str) -> str:
    text = text.strip()
    return text if len(text) <= _EXCERPT else text[: _EXCERPT - 3] + "..."


def _strict_json_ok(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


class Scanner:
    __slots__ = (
        "_acc",
        "_acc_from",
        "_after_call",
        "_blank_line",
        "_buf",
        "_closed",
        "_example",
        "_fence_close",
        "_fence_info",
        "_finish_reason",
        "_fmt",
        "_inline",
        "_interpret",
        "_json_off",
        "_line_start",
        "_name",
        "_out",
        "_pos",
        "_quote",
        "_reasoning_open",
        "_region",
        "_stack",
        "_state",
        "_struct",
        "_text",
        "_visible",
        "calls",
        "problems",
        "reasoning",
        "texts",
    )  # fmt: skip

    def __init__(self, interpret: Interpret) -> None:
        self._interpret = interpret
        self._buf = "\n"  # index 0 is context: the reply starts at a line start
        self._pos = 1
        # Whether everything consumed since the last newline, up to and including the
        # context character, is blank: line starts are judged from this, not by looking
        # back into text that compaction may already have dropped.
        self._blank_line = True
        self._state = INITIAL
        self._out: list[StreamEvent] = []
        self._text: list[str] = []  # prose released during this call, flushed as one event
        # Everything released so far, by kind (the prose is also where "example" wording is
        # looked for before a fence).
        self.texts: list[str] = []
        self.calls: list[ToolCall] = []
        self.problems: list[Problem] = []
        self.reasoning: list[str] = []
        self._after_call = False
        self._visible = False  # any non-blank prose released yet
        # A construct being held (a call region, a fence that may hold a call, ...): the text
        # from earlier feeds in _acc, the rest still in the buffer from index _acc_from.
        self._acc: list[str] = []
        self._acc_from = -1
        self._fmt: Format = "canonical"
        self._stack: list[str] = []
        self._quote: str | None = None
        self._struct: regex.Pattern[str] = M.STRUCT_PLAIN
        self._line_start = False
        self._name: str | None = None
        self._json_off = 0  # where the JSON starts within the held text of a region
        self._region: Region | None = None  # a finished JSON region waiting for its end marker
        self._fence_close: regex.Pattern[str] | None = None
        self._fence_info = ""
        self._example = False
        self._inline = 1
        self._finish_reason: str | None = None
        self._closed = False
        self._reasoning_open = False

    # -- public -----------------------------------------------------------------------------

    def feed(self, chunk: str) -> list[StreamEvent]:
        if self._closed or not chunk:
            return []
        if len(self._buf) == 1:  # nothing undecided is waiting: try the fast paths
            state = self._state
            quote = self._quote
            if state == REGION and quote is not None:
                if (quote not in chunk and chunk[-1] != "\\") or M.STRING_BODY[quote].match(chunk).end() == len(chunk):
                    # Inside a string and the string goes on past this chunk: nothing here
                    # can end the region.
                    self._acc.append(chunk)
                    if self._blank_line or "\n" in chunk:
                        self._consumed(chunk)
                    else:
                        self._buf = chunk[-1]
                    return []
            elif state == TEXT and not self._blank_line and _PLAIN.fullmatch(chunk):
                self._emit_text(chunk)
                self._consumed(chunk)
                return self._take()
        self._buf += chunk
        self._run(eof=False)
        return self._take()

    def close(self, finish_reason: str | None = None) -> list[StreamEvent]:
        if self._closed:
            return []
        self._finish_reason = finish_reason
        self._run(eof=True)
        self._closed = True
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
        return self._state in _CALL_STATES

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

    def _emit_text(self, s: str) -> None:
        if s:
            self._text.append(s)
            if not self._visible and not s.isspace():
                self._visible = True

    def _emit(self, event: StreamEvent) -> None:
        self._flush_text()
        self._out.append(event)
        if event.call is not None:
            self.calls.append(event.call)
        elif event.problem is not None:
            self.problems.append(event.problem)
        elif event.reasoning:
            self.reasoning.append(event.reasoning)

    def _hold_from(self, i: int) -> None:
        self._acc = []
        self._acc_from = i

    def _held(self, upto: int) -> str:
        """The held construct's text up to buffer index ``upto``."""
        return "".join(self._acc) + self._buf[self._acc_from : upto]

    def _release_hold(self) -> None:
        self._acc = []
        self._acc_from = -1

    def _run(self, eof: bool) -> None:
        handlers = _HANDLERS
        while handlers[self._state](self, eof):
            pass
        pos = self._pos
        if pos > 1:  # compact, keeping one character of context
            consumed = self._buf[1:pos]
            if self._acc_from >= 0:
                self._acc.append(self._buf[self._acc_from : pos])
                self._acc_from = 1
            self._buf = self._buf[pos - 1 :]
            self._pos = 1
            self._consumed(consumed, keep_buffer=True)

    def _consumed(self, text: str, keep_buffer: bool = False) -> None:
        """Account for ``text`` having been consumed right after the context character."""
        nl = text.rfind("\n")
        if nl >= 0:
            self._blank_line = not text[nl + 1 :].strip(" \t")
        elif self._blank_line:
            self._blank_line = not text.strip(" \t")
        if not keep_buffer:
            self._buf = text[-1]

    def _line_start_at(self, i: int) -> bool:
        """Whether only blanks precede buffer index ``i`` on its line."""
        buf = self._buf
        k = i - 1
        while k > 0 and buf[k] in " \t":
            k -= 1
        return buf[k] == "\n" if k > 0 else self._blank_line

    def _example_before(self) -> bool:
        """Whether the paragraph just before here introduces an example."""
        parts: list[str] = []
        size = 0
        for s in reversed(self.texts + self._text):
            parts.append(s)
            size += len(s)
            if size >= 240:
                break
        recent = "".join(reversed(parts))[-240:]
        return bool(M.EXAMPLE_CONTEXT.search(recent.rstrip().rsplit("\n\n", 1)[-1]))

    # -- prose ------------------------------------------------------------------------------

    def _s_initial(self, eof: bool) -> bool:
        # A reply that is nothing but a JSON object may be a bare call.
        buf, pos = self._buf, self._pos
        e = M.LEADING_SPACE.match(buf, pos).end()
        if e == len(buf) and not eof:
            return False
        if e < len(buf) and buf[e] == "[":  # "[TOOL_CALLS]" is not a JSON array
            t = M.TRIGGER.match(buf, e, partial=not eof)
            if t is not None and t.partial:
                return False
            if t is not None:
                e = -1
        self._emit_text(buf[pos:e] if e >= 0 else "")
        if e >= 0 and e < len(buf) and buf[e] in "{[":
            self._pos = e
            self._hold_from(e)
            self._begin_region(e, "bare")
        else:
            self._pos = e if e >= 0 else self._pos
            self._state = TEXT
        return True

    def _s_text(self, eof: bool) -> bool:
        buf, pos = self._buf, self._pos
        m = M.CANDIDATE.search(buf, pos, partial=not eof)
        if m is None:
            if pos < len(buf):
                self._emit_text(buf[pos:])
                self._pos = len(buf)
            return False
        c = m.start()
        if c > pos:
            self._emit_text(buf[pos:c])
            self._pos = c
        if m.partial:
            return False
        t = M.TRIGGER.match(buf, c, partial=not eof)
        if t is None or (t.lastgroup == "result" and not self._after_call):
            self._emit_text(buf[c])
            self._pos = c + 1
            return True
        if t.partial:
            return False
        kind = t.lastgroup
        end = t.end()
        if kind == "think":
            self._pos = end
            self._state = THINK
            self._reasoning_open = True
        elif kind == "start":
            self._fmt = "canonical"
            self._line_start = self._line_start_at(c)
            self._hold_from(c)
            self._pos = end
            self._state = AFTER_START
        elif kind == "result":
            self._emit(
                StreamEvent(
                    problem=Problem(
                        "invented_result",
                        "After its call the reply went on with a tool result the model wrote itself; "
                        "that text and everything after it was dropped.",
                        excerpt=excerpt(buf[c:]),
                    )
                )
            )
            self._pos = len(buf)
            self._state = DROP
        elif kind == "tag":
            self._hold_from(c)
            self._pos = end
            self._state = TAG
        elif kind == "mistral":
            self._fmt = "mistral"
            self._hold_from(c)
            self._pos = end
            self._state = AFTER_MISTRAL
        elif kind == "fence":
            info = (t.group("info") or "").strip().lower()
            mark = t.group("fence_mark")
            self._fence_close = regex.compile(
                r"(?m)^[ \t]{0,3}" + regex.escape(mark[0]) + "{" + str(len(mark)) + r",}[ \t]*(?:\r?\n|\Z)"
            )
            self._fence_info = info
            self._pos = end
            if info in M.CALL_FENCE_INFOS or info in M.DATA_FENCE_INFOS:
                self._example = self._example_before()
                self._hold_from(c)
                self._state = FENCE_CALL
            else:
                self._emit_text(buf[c:end])
                self._state = FENCE_TEXT
        elif kind == "react":
            self._name = t.group("react_name")
            self._hold_from(c)
            self._begin_region(end - 1, "react")
        else:  # inline code: markers inside it are only text
            self._inline = end - c
            self._emit_text(buf[c:end])
            self._pos = end
            self._state = INLINE
        return True

    def _s_inline(self, eof: bool) -> bool:
        buf, pos = self._buf, self._pos
        m = _INLINE_CLOSE[self._inline].search(buf, pos, partial=not eof)
        if m is None:
            self._emit_text(buf[pos:])
            self._pos = len(buf)
            return False
        if m.partial or (not eof and m.end() == len(buf) and m.group() != "\n"):
            self._emit_text(buf[pos : m.start()])
            self._pos = m.start()
            return False
        self._emit_text(buf[pos : m.end()])
        self._pos = m.end()
        self._state = TEXT
        return True

    def _s_think(self, eof: bool) -> bool:
        buf, pos = self._buf, self._pos
        m = M.THINK_END.search(buf, pos, partial=not eof)
        end = len(buf) if m is None else m.start()
        if end > pos:
            self._emit(StreamEvent(reasoning=buf[pos:end]))
            self._pos = end
        if m is None or m.partial:
            return False
        self._pos = m.end()
        self._reasoning_open = False
        # Reasoning first, then a bare JSON call, is a common shape.
        self._state = TEXT if self._visible else INITIAL
        return True

    def _s_drop(self, eof: bool) -> bool:
        self._pos = len(self._buf)
        return False

    def _s_fence_text(self, eof: bool) -> bool:
        return self._fence(eof, hold=False)

    def _s_fence_call(self, eof: bool) -> bool:
        return self._fence(eof, hold=True)

    def _fence(self, eof: bool, *, hold: bool) -> bool:
        buf, pos = self._buf, self._pos
        assert self._fence_close is not None
        m = self._fence_close.search(buf, pos, partial=not eof)
        if m is None or m.partial or (not eof and m.end() == len(buf) and not m.group().endswith("\n")):
            upto = len(buf) if m is None else m.start()
            if not hold:
                self._emit_text(buf[pos:upto])
            self._pos = upto
            if eof and hold:  # the reply ended inside the fence
                self._finish_fence(self._held(upto), closed=False, close_len=0)
                return True
            return False
        if not hold:
            self._emit_text(buf[pos : m.end()])
            self._pos = m.end()
            self._state = TEXT
            return True
        self._pos = m.end()
        self._finish_fence(self._held(m.end()), closed=True, close_len=m.end() - m.start())
        return True

    def _finish_fence(self, raw: str, *, closed: bool, close_len: int) -> None:
        first_nl = raw.find("\n")
        body = raw[first_nl + 1 : len(raw) - close_len]
        self._finish_region(
            Region(
                format="fence",
                text=body,
                raw=raw,
                end_marker=closed,
                fence_info=self._fence_info,
                example_context=self._example,
                finish_reason=self._finish_reason,
            )
        )

    # -- openers ------------------------------------------------------------------------------

    def _s_after_start(self, eof: bool) -> bool:
        m = M.AFTER_START.match(self._buf, self._pos, partial=not eof)
        if m is not None and m.partial:
            return False
        if m is not None:
            self._begin_region(m.end() - 1, "canonical")
        elif self._line_start:
            # A start marker on its own line followed by something that is not JSON: an
            # attempted call in the wrong shape. Hide it up to its end marker and report it.
            self._state = MALFORMED
        else:  # the marker mentioned in a sentence: prose
            self._emit_text(self._held(self._pos))
            self._release_hold()
            self._state = TEXT
        return True

    def _s_after_mistral(self, eof: bool) -> bool:
        m = M.AFTER_MISTRAL.match(self._buf, self._pos, partial=not eof)
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
        buf, pos = self._buf, self._pos
        m = M.TAG_REST.match(buf, pos, partial=not eof)
        if m is None or m.partial:
            if not eof:
                return False
            self._fmt = "hermes"
            self._pos = len(buf)
            self._finish_malformed(self._held(len(buf)), hidden=True)
            return True
        self._pos = m.end()
        tag = self._held(self._pos)
        attrs = {k.lower(): a or b for k, a, b in M.TAG_ATTR.findall(tag[len("<tool_call") :])}
        self._name = attrs.get("name") or attrs.get("function") or attrs.get("tool")
        params = next((attrs[k] for k in ("params", "parameters", "arguments", "args") if k in attrs), None)
        self._fmt = "xml" if self._name else "hermes"
        if tag[:-1].rstrip().endswith("/"):
            self._finish_region(
                Region(
                    format=self._fmt,
                    text=params if params is not None else "{}",
                    raw=tag,
                    name=self._name,
                    end_marker=True,
                )
            )
            return True
        self._state = AFTER_TAG
        return True

    def _s_after_tag(self, eof: bool) -> bool:
        buf, pos = self._buf, self._pos
        m = M.AFTER_TAG.match(buf, pos, partial=not eof)
        e = M.EMPTY_TAG_BODY.match(buf, pos, partial=not eof)
        if (m is not None and m.partial) or (e is not None and e.partial):
            return False
        if m is not None:
            self._begin_region(m.end() - 1, self._fmt)
        elif e is not None:
            self._pos = e.end()
            raw = self._held(self._pos)
            if self._name:
                self._finish_region(Region(format="xml", text="{}", raw=raw, name=self._name, end_marker=True))
            else:
                self._finish_malformed(raw, hidden=True)
        else:
            self._state = MALFORMED
        return True

    def _s_malformed(self, eof: bool) -> bool:
        buf, pos = self._buf, self._pos
        end_text = _END_TEXT.get(self._fmt, M.CALL_END)
        i = buf.find(end_text, pos)
        if i < 0:
            if not eof:  # keep what may be the start of the end marker
                self._pos = max(pos, len(buf) - len(end_text) + 1)
                return False
            self._pos = len(buf)
            self._finish_malformed(self._held(len(buf)), hidden=False)
            return True
        self._pos = i + len(end_text)
        self._finish_malformed(self._held(self._pos), hidden=True)
        return True

    def _finish_malformed(self, raw: str, *, hidden: bool) -> None:
        opener = "TOOL_CALL_START" if self._fmt == "canonical" else "<tool_call>"
        self._emit(
            StreamEvent(
                problem=Problem(
                    "malformed_call",
                    f"A {opener} block did not contain a JSON object, so nothing was called. Write the call as "
                    'TOOL_CALL_START, then {"function": "<tool name>", "params": {...}} on one line, then TOOL_CALL_END.',
                    rejected=True,
                    excerpt=excerpt(raw),
                )
            )
        )
        if not hidden:  # no end marker: what followed may have been meant as prose, the marker was not
            self._emit_text(raw[len(M.CALL_START) :] if raw.startswith(M.CALL_START) else raw)
        self._after_call = True
        self._release_hold()
        self._name = None
        self._state = TEXT

    # -- JSON regions -------------------------------------------------------------------------

    def _begin_region(self, bracket: int, fmt: Format) -> None:
        self._json_off = len(self._held(bracket))
        self._fmt = fmt
        self._stack = []
        self._quote = None
        self._struct = _STRUCT.get(fmt, M.STRUCT_PLAIN)
        self._pos = bracket
        self._state = REGION

    def _s_region(self, eof: bool) -> bool:
        # A string-aware bracket matcher that tolerates Python-style single quotes. It jumps
        # from one structural character to the next with compiled patterns, so a long string
        # argument costs one regex call, not one Python step per character.
        buf = self._buf
        pos = self._pos
        n = len(buf)
        stack = self._stack
        quote = self._quote
        struct = self._struct
        if not stack and quote is None:
            # The region just began. When its JSON is valid and already here, the C decoder
            # finds its end far faster than the loop below, and at the same place: in valid
            # JSON, quotes, brackets and markers outside strings mean the same to both.
            try:
                value, end = _DECODER.raw_decode(buf, pos)
            except ValueError:
                pass
            else:
                self._pos = end
                self._region_done(complete=True, value=value)
                return True
        while pos < n:
            if quote is not None:
                e = M.STRING_BODY[quote].match(buf, pos).end()
                if e >= n:
                    pos = n
                    break
                if buf[e] == "\\":  # a backslash at the very end: wait for what it escapes
                    pos = e
                    break
                quote = None
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
                quote = tok
                pos = s + 1
            elif tok == "{" or tok == "[":
                stack.append(tok)
                pos = s + 1
            elif tok == "}" or tok == "]":
                if stack:
                    stack.pop()
                pos = s + 1
                if not stack:
                    self._pos = pos
                    self._quote = None
                    self._region_done(complete=True)
                    return True
            else:  # an end marker, or a new call, while brackets are still open
                self._pos = s
                self._quote = None
                self._region_done(complete=False)
                return True
        self._pos = pos
        self._quote = quote
        if eof:
            self._region_done(complete=False)
            return True
        return False

    def _region_done(self, *, complete: bool, value: object = NOT_DECODED) -> None:
        raw = self._held(self._pos)
        text = raw[self._json_off :]
        region = Region(
            format=self._fmt,
            text=text,
            raw=raw,
            complete=complete,
            open_brackets="".join(self._stack),
            in_string=self._quote is not None,
            name=self._name,
            value=value,
        )
        end_text = _END_TEXT.get(self._fmt)
        if end_text and end_text in text and (not complete or not _strict_json_ok(text)):
            # The JSON's quotes went astray (a stray quote inside a string, say) and swallowed
            # the end marker: the block really ended at the first end marker.
            k = text.index(end_text)
            rest = text[k + len(end_text) :]
            region.text = text[:k]
            region.raw = raw[: len(raw) - len(rest)]
            region.complete, region.open_brackets, region.in_string = False, "", False
            region.end_marker = True
            self._push_back(rest)
            self._finish_region(region)
        elif end_text:
            self._region = region
            self._state = POST_REGION
        elif complete and self._fmt == "bare":
            self._region = region
            self._state = POST_BARE
        else:
            self._finish_region(region)

    def _push_back(self, rest: str) -> None:
        """Scan ``rest`` again, as if it came next."""
        buf = self._buf
        self._buf = buf[: self._pos] + rest + buf[self._pos :]

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

    def _s_post_bare(self, eof: bool) -> bool:
        region = self._region
        assert region is not None
        buf, pos = self._buf, self._pos
        e = M.LEADING_SPACE.match(buf, pos).end()
        if e == len(buf) and not eof:
            return False
        if e < len(buf):  # prose after the JSON: a JSON answer, not a call
            self._emit_text(region.raw)
            self._release_hold()
            self._region = None
            self._state = TEXT
            return True
        self._finish_region(region)
        return True

    def _finish_region(self, region: Region) -> None:
        region.finish_reason = self._finish_reason
        outcome = self._interpret(region)
        for event in outcome.events:
            self._emit(event)
        if outcome.release:
            self._emit_text(region.raw)
        if outcome.call_attempt:
            self._after_call = True
        self._release_hold()
        self._region = None
        self._name = None
        self._state = TEXT


_HANDLER_OF: dict[int, Callable[[Scanner, bool], bool]] = {
    INITIAL: Scanner._s_initial,
    TEXT: Scanner._s_text,
    THINK: Scanner._s_think,
    AFTER_START: Scanner._s_after_start,
    MALFORMED: Scanner._s_malformed,
    REGION: Scanner._s_region,
    POST_REGION: Scanner._s_post_region,
    POST_BARE: Scanner._s_post_bare,
    TAG: Scanner._s_tag,
    AFTER_TAG: Scanner._s_after_tag,
    AFTER_MISTRAL: Scanner._s_after_mistral,
    FENCE_CALL: Scanner._s_fence_call,
    FENCE_TEXT: Scanner._s_fence_text,
    INLINE: Scanner._s_inline,
    DROP: Scanner._s_drop,
}
_HANDLERS = [_HANDLER_OF[state] for state in range(len(_HANDLER_OF))]
_CALL_STATES = frozenset(
    {AFTER_START, MALFORMED, REGION, POST_REGION, POST_BARE, TAG, AFTER_TAG, AFTER_MISTRAL, FENCE_CALL}
)
