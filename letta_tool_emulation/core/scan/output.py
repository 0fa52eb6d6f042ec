"""What the scanner hands out: events as they become certain, and the reply's result so far."""

from __future__ import annotations

from ..results import Problem, StreamEvent, ToolCall, text_event


class Output:
    __slots__ = ("calls", "events", "pending", "problems", "reasoning", "texts")

    def __init__(self) -> None:
        self.events: list[StreamEvent] = []  # not handed out yet
        self.pending: list[str] = []  # prose released since the last event, handed out as one
        self.texts: list[str] = []
        self.calls: list[ToolCall] = []
        self.problems: list[Problem] = []
        self.reasoning: list[str] = []

    def take(self) -> list[StreamEvent]:
        self.flush()
        out, self.events = self.events, []
        return out

    def flush(self) -> None:
        if self.pending:
            s = "".join(self.pending)
            self.pending.clear()
            self.texts.append(s)
            self.events.append(text_event(s))

    def emit(self, event: StreamEvent) -> None:
        self.flush()
        self.events.append(event)
        if event.call is not None:
            self.calls.append(event.call)
        elif event.problem is not None:
            self.problems.append(event.problem)
        elif event.reasoning:
            self.reasoning.append(event.reasoning)
