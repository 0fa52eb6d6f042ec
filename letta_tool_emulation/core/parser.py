"""Turning a model's text reply into tool calls, all at once or while it streams."""

from __future__ import annotations

import codecs
from collections.abc import Iterable

import regex

from .calls import DEFAULT_THRESHOLD, Interpreter, Options
from .results import ParseResult, Problem, StreamEvent
from .scanner import Scanner
from .tools import ToolLike, ToolSpec, normalize_tools
from .validate import DEFAULT_IGNORED_PARAMS

_BLANK_LINES = regex.compile(r"\n[ \t]*\n(?:[ \t]*\n)+")


class StreamingToolCallParser:
    """Parse a reply chunk by chunk.

    ``feed`` returns events as soon as they are certain: prose that cannot be the start of a
    marker, finished calls, reasoning, problems. Chunks may be ``str`` or UTF-8 ``bytes``
    (split anywhere, even inside a character). Whatever the chunking, the events add up to
    the same result as :func:`parse_tool_calls` on the whole text. Never raises.
    """

    def __init__(
        self,
        tools: Iterable[ToolLike | ToolSpec] | None,
        *,
        threshold: float = DEFAULT_THRESHOLD,
        ignored_params: frozenset[str] = DEFAULT_IGNORED_PARAMS,
    ) -> None:
        self.tools = normalize_tools(tools)
        self._scanner = Scanner(Interpreter(self.tools, Options(threshold, ignored_params)))
        self._decoder: codecs.IncrementalDecoder | None = None
        self._broken: list[StreamEvent] | None = None  # events after an internal error

    def feed(self, chunk: str | bytes) -> list[StreamEvent]:
        if chunk.__class__ is not str:
            if self._decoder is None:
                self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
            chunk = self._decoder.decode(chunk)  # type: ignore[arg-type]
        if self._broken is not None:
            return self._passthrough(chunk)  # type: ignore[arg-type]
        try:
            return self._scanner.feed(chunk)  # type: ignore[arg-type]
        except Exception as exc:  # noqa: BLE001 - a parser bug must not take the agent down
            return self._fail(exc, chunk)  # type: ignore[arg-type]

    def close(self, finish_reason: str | None = None) -> list[StreamEvent]:
        tail = self._decoder.decode(b"", final=True) if self._decoder is not None else ""
        if self._broken is not None:
            return self._passthrough(tail)
        try:
            return self._scanner.feed(tail) + self._scanner.close(finish_reason)
        except Exception as exc:  # noqa: BLE001
            return self._fail(exc, tail)

    @property
    def in_call(self) -> bool:
        """Whether the text seen so far ends inside a possible call (held back, not yet decided)."""
        return self._broken is None and self._scanner.in_call

    @property
    def result(self) -> ParseResult:
        """Everything so far; complete after :meth:`close`."""
        s = self._scanner
        extra = self._broken or []
        return ParseResult(
            content=tidy("".join(s.texts) + "".join(e.text for e in extra)),
            tool_calls=list(s.calls),
            problems=s.problems + [e.problem for e in extra if e.problem is not None],
            reasoning="".join(s.reasoning).strip(),
        )

    def _passthrough(self, chunk: str) -> list[StreamEvent]:
        events = [StreamEvent(text=chunk)] if chunk else []
        self._broken.extend(events)  # type: ignore[union-attr]
        return events

    def _fail(self, exc: Exception, chunk: str) -> list[StreamEvent]:
        # Never expected. If it happens, nothing more is executed and no more text is lost:
        # the chunk at hand and all later ones pass through as prose.
        problem = Problem(
            "invalid_json", f"Internal parser error ({type(exc).__name__}); the rest of the reply was kept as text."
        )
        self._broken = [StreamEvent(problem=problem)]
        return [self._broken[0], *self._passthrough(chunk)]


def parse_tool_calls(
    text: str,
    tools: Iterable[ToolLike | ToolSpec] | None,
    finish_reason: str | None = None,
    *,
    threshold: float = DEFAULT_THRESHOLD,
    ignored_params: frozenset[str] = DEFAULT_IGNORED_PARAMS,
) -> ParseResult:
    """Parse a whole reply. Never raises, whatever ``text`` holds."""
    parser = StreamingToolCallParser(tools, threshold=threshold, ignored_params=ignored_params)
    parser.feed(text if isinstance(text, str) else "" if text is None else str(text))
    parser.close(finish_reason)
    return parser.result


def tidy(text: str) -> str:
    """Prose as shown to the user: trimmed, and no runs of blank lines where calls were cut out."""
    return _BLANK_LINES.sub("\n\n", text).strip()
