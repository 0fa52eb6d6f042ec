"""Turning a model's text reply into tool calls, all at once or while it streams."""

from __future__ import annotations

import re
from collections.abc import Iterable

from .accept import DEFAULT_THRESHOLD, Acceptor
from .calls import Interpreter
from .chunks import ChunkReader, internal_error
from .control_tokens import TrailingTokens
from .results import ParseResult, StreamEvent, text_event
from .scan import Scanner
from .tools import ToolLike, ToolSpec, normalize_tools
from .validate import DEFAULT_IGNORED_PARAMS

# The standard library's engine: it runs over the whole reply, and is faster at so plain a pattern.
# Possessive, as nothing follows the run: a greedy group would keep every line's backtracking
# state, which costs more per line the longer the run of blank lines. The blanks are possessive
# too (giving one back never lets a newline match), which a reply's every newline is tried with.
_BLANK_LINES = re.compile(r"\n[ \t]*+\n(?:[ \t]*+\n)++")


class StreamingToolCallParser:
    """Parse a reply chunk by chunk.

    ``feed`` returns events as soon as they are certain: prose that cannot be the start of a
    marker, reasoning, problems with blocks shown rather than performed. Calls (and the
    problems of rejected ones) come from ``close``: until the reply ends, a ``</think>`` can
    still reveal that they were drafted in reasoning, and the next line can still ask
    permission to make them. Chunks may be ``str`` or UTF-8 ``bytes`` (split anywhere, even
    inside a character). Whatever the chunking, the events add up to the same result as
    :func:`parse_tool_calls` on the whole text. Never raises.
    """

    def __init__(
        self,
        tools: Iterable[ToolLike | ToolSpec] | None,
        *,
        threshold: float = DEFAULT_THRESHOLD,
        ignored_params: frozenset[str] = DEFAULT_IGNORED_PARAMS,
        before: str = "",
        in_reasoning: bool = False,
    ) -> None:
        """``before``: text the reply's own follows (an envelope's reply, before free text after
        it), read for context only: it is neither handed out nor parsed. ``in_reasoning``: the
        reply begins inside reasoning that the model's chat template opened (Qwen3, DeepSeek-R1
        and others write ``<think>`` into the prompt), so what comes before its ``</think>`` is
        reasoning, streamed as such. Without it a lone ``</think>`` still keeps every block before
        it from running, but the text before it, already released, stays content; the result's
        ``template_reasoning`` then tells the caller to say so for this model's next replies."""
        self.tools = normalize_tools(tools)
        self._scanner = Scanner(Interpreter(Acceptor(self.tools, threshold, ignored_params)), in_reasoning=in_reasoning)
        if before:
            self._scanner.lines.prime(before)
        self._chunks = ChunkReader()
        self._broken = False  # an internal error stopped the parser
        self._extra: list[StreamEvent] = []
        # (the scanner reads the tokens that end the reply as they are; only what is shown is without them)
        self._trailing = TrailingTokens()

    def feed(self, chunk: str | bytes | None) -> list[StreamEvent]:
        """Events for ``chunk``: ``str``, UTF-8 ``bytes`` split anywhere, or None (nothing)."""
        text = chunk if type(chunk) is str and not self._chunks.decoding else self._chunks.text(chunk)
        if self._broken:
            return []
        try:
            events = self._scanner.feed(text)
            trailing = self._trailing
            if not (trailing.run or trailing.open):
                # (nearly every chunk: nothing held, and no "<" that could begin a token)
                for event in events:
                    if "<" in event.text:
                        break
                else:
                    return events
            return self._shown(events)
        except Exception as exc:  # noqa: BLE001 - a parser bug must not take the agent down
            return self._fail(exc)

    def close(self, finish_reason: str | None = None) -> list[StreamEvent]:
        tail = self._chunks.flush()
        if self._broken:
            return []
        try:
            events = self._shown(self._scanner.feed(tail) + self._scanner.close(finish_reason))
            if rest := self._trailing.close():
                events.append(text_event(rest))
            return events
        except Exception as exc:  # noqa: BLE001
            return self._fail(exc)

    def _shown(self, events: list[StreamEvent]) -> list[StreamEvent]:
        """``events`` with their text as it is shown: less the control tokens that may end the reply."""
        out = []
        for event in events:
            if event.text:
                text = self._trailing.text(event.text)
                if not text:
                    continue
                if text != event.text:
                    event = text_event(text)
            out.append(event)
        return out

    @property
    def in_call(self) -> bool:
        """Whether the text seen so far ends inside a possible call (held back, not yet decided)."""
        return not self._broken and self._scanner.in_call

    @property
    def result(self) -> ParseResult:
        """Everything so far; complete after :meth:`close`."""
        out = self._scanner.out
        return ParseResult(
            content=tidy(self._trailing.shown("".join(out.texts))),
            tool_calls=[] if self._broken else list(out.calls),
            problems=out.problems + [e.problem for e in self._extra if e.problem is not None],
            reasoning="".join(out.reasoning).strip(),
            template_reasoning=self._scanner.reasoning.template_reasoning,
        )

    def _fail(self, exc: Exception) -> list[StreamEvent]:
        # Never expected. If it happens the parser stops: nothing more is read or executed,
        # and no marker text is passed on as prose. Calls are only ever released at the end,
        # so none from this reply runs.
        self._broken = True
        event = StreamEvent(problem=internal_error(exc, calls_released=False))
        self._extra.append(event)
        return [event]


def parse_tool_calls(
    text: str | bytes | None,
    tools: Iterable[ToolLike | ToolSpec] | None,
    finish_reason: str | None = None,
    *,
    threshold: float = DEFAULT_THRESHOLD,
    ignored_params: frozenset[str] = DEFAULT_IGNORED_PARAMS,
    in_reasoning: bool = False,
) -> ParseResult:
    """Parse a whole reply. Never raises, whatever ``text`` holds. ``in_reasoning``: see
    :class:`StreamingToolCallParser`."""
    parser = StreamingToolCallParser(
        tools, threshold=threshold, ignored_params=ignored_params, in_reasoning=in_reasoning
    )
    parser.feed(text)
    parser.close(finish_reason)
    return parser.result


def tidy(text: str) -> str:
    """Prose as shown to the user: trimmed, and no runs of blank lines where calls were cut out."""
    return _BLANK_LINES.sub("\n\n", text).strip()
