"""The drivers: each runs the turn engine's flow over a transport and hands Letta what it
reads, a ChatCompletion dict (blocking, sync) or a stream of ChatCompletionChunks.

They move data and report what they saw (an error status, a stream's pieces, its end, its
failure) to the engine, which decides what it means; ``engine.py`` says what a driver does.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import AsyncIterator, Callable
from typing import Any

import openai
from openai.types.chat import ChatCompletionChunk

from .. import engine
from ..e2ee import E2EEError
from ..step import Attempt, EmulatedRequest, Outcome, ToolCallDict
from ..transport import Completion, Transport, refusal_of

ARGUMENT_PIECE = 16  # characters of arguments per streamed delta, about what native models send


# -- blocking -----------------------------------------------------------------------------------


async def complete(request: EmulatedRequest, transport: Transport) -> tuple[Outcome, dict[str, Any]]:
    """The step's outcome, and the ChatCompletion dict Letta reads."""
    flow = engine.run(request)
    last: Completion | None = None
    try:
        attempt = next(flow)
        while True:
            try:
                last = await transport.complete(attempt.body)
            except openai.APIStatusError as exc:
                attempt = flow.throw(refusal_of(attempt, exc))
                continue
            _feed(attempt, last)
            attempt = flow.send(None)
    except StopIteration as done:
        return done.value, completion_dict(done.value, last, request)
    finally:
        flow.close()


def complete_sync(request: EmulatedRequest, transport: Transport) -> tuple[Outcome, dict[str, Any]]:
    flow = engine.run(request)
    last: Completion | None = None
    try:
        attempt = next(flow)
        while True:
            try:
                last = transport.complete_sync(attempt.body)
            except openai.APIStatusError as exc:
                attempt = flow.throw(refusal_of(attempt, exc))
                continue
            _feed(attempt, last)
            attempt = flow.send(None)
    except StopIteration as done:
        return done.value, completion_dict(done.value, last, request)
    finally:
        flow.close()


def _feed(attempt: Attempt, reply: Completion) -> None:
    attempt.reasoning(reply.reasoning)
    attempt.content(reply.text)
    attempt.end(reply.finish_reason, reply.usage)


def completion_dict(outcome: Outcome, last: Completion | None, request: EmulatedRequest) -> dict[str, Any]:
    """What a native model's response would have been."""
    message: dict[str, Any] = {"role": "assistant", "content": outcome.content or None}
    if outcome.calls:
        message["tool_calls"] = outcome.calls
    # An empty reply stays None, so that Letta reports an empty response.
    message["reasoning_content"] = outcome.reasoning or None
    return {
        "id": (last.id if last and last.id else "chatcmpl-" + uuid.uuid4().hex[:16]),
        "object": "chat.completion",
        "created": (last.created if last and last.created else int(time.time())),
        "model": (last.model if last and last.model else str(request.get("model", ""))),
        "choices": [{"index": 0, "message": message, "finish_reason": outcome.finish_reason}],
        "usage": outcome.usage.as_dict(),
    }


# -- streaming ----------------------------------------------------------------------------------


class StreamDriver:
    """The stream Letta reads, usable with ``async with`` and ``async for`` like the SDK's.

    Text reaches the caller as soon as the parser is sure it is not part of a call; calls
    are sent when complete, the way a native model streams them; no call markup ever
    reaches the stream. ``on_outcome`` receives the settled step before its calls are sent.
    """

    def __init__(
        self,
        request: EmulatedRequest,
        transport: Transport,
        on_outcome: Callable[[Outcome], None] | None = None,
        errors: Callable[[Exception], Exception] | None = None,
    ) -> None:
        self._request = request
        self._transport = transport
        self._on_outcome = on_outcome
        self._errors = errors or (lambda exc: exc)
        self._upstream: Any = None
        self._id = "chatcmpl-" + uuid.uuid4().hex[:24]
        self._model = str(request.get("model", ""))
        self._created = int(time.time())
        self._streamed = ""  # the text sent so far, of every attempt

    async def __aenter__(self) -> StreamDriver:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        upstream, self._upstream = self._upstream, None
        if upstream is not None:
            await upstream.aclose()

    def __aiter__(self) -> AsyncIterator[ChatCompletionChunk]:
        return self._mapped()

    async def _mapped(self) -> AsyncIterator[ChatCompletionChunk]:
        try:
            async for chunk in self._chunks():
                yield chunk
        except Exception as exc:
            mapped = self._errors(exc)
            if mapped is exc:
                raise
            raise mapped from exc

    async def _chunks(self) -> AsyncIterator[ChatCompletionChunk]:
        flow = engine.run(self._request)
        try:
            attempt = next(flow)
            while True:
                try:
                    async for chunk in self._attempt(attempt):
                        yield chunk
                except openai.APIStatusError as exc:  # raised before anything was streamed
                    attempt = flow.throw(refusal_of(attempt, exc))
                    continue
                attempt = flow.send(None)
        except StopIteration as done:
            outcome: Outcome = done.value
        finally:
            flow.close()
        if self._on_outcome is not None:
            self._on_outcome(outcome)
        for index, call in enumerate(outcome.calls):
            for chunk in self._call_chunks(index, call):
                yield chunk
        if outcome.gave_up:  # its explanation was never streamed
            yield self._chunk({"role": "assistant", "content": outcome.content})
        elif (
            not outcome.calls
            and not outcome.reread  # streamed as reasoning already: sent again, it would be there twice
            and outcome.content.startswith(self._streamed)
            and outcome.content != self._streamed
        ):
            # What the engine adds to a settled reply (the note that the output limit cut it)
            # reaches a streaming user as it reaches a blocking one.
            yield self._chunk({"role": "assistant", "content": outcome.content[len(self._streamed) :]})
        yield self._chunk({}, finish=outcome.finish_reason)
        yield self._chunk(usage=outcome.usage.as_dict())

    async def _attempt(self, attempt: Attempt) -> AsyncIterator[ChatCompletionChunk]:
        self._upstream = self._transport.stream(attempt.body)
        try:
            async for delta in self._upstream:
                for event in attempt.streamed(delta.content, delta.reasoning, delta.finish_reason, delta.usage):
                    chunk = self._event_chunk(event)
                    if chunk is not None:
                        yield chunk
        except Exception as exc:
            failure = attempt.stream_failed(exc, conclusive=isinstance(exc, E2EEError))
            if failure is exc:
                raise
            raise failure from exc
        finally:
            await self.close()
        for event in attempt.stream_ended():
            chunk = self._event_chunk(event)
            if chunk is not None:
                yield chunk

    def _event_chunk(self, event: Any) -> ChatCompletionChunk | None:
        if event.text:
            self._streamed += event.text
            return self._chunk({"role": "assistant", "content": event.text})
        if event.reasoning:
            return self._chunk({"role": "assistant", "reasoning_content": event.reasoning})
        return None

    def _chunk(
        self, delta: dict[str, Any] | None = None, finish: str | None = None, usage: dict[str, int] | None = None
    ) -> ChatCompletionChunk:
        return ChatCompletionChunk.model_validate(
            {
                "id": self._id,
                "object": "chat.completion.chunk",
                "created": self._created,
                "model": self._model,
                "choices": [] if delta is None else [{"index": 0, "delta": delta, "finish_reason": finish}],
                "usage": usage,
            }
        )

    def _call_chunks(self, index: int, call: ToolCallDict) -> list[ChatCompletionChunk]:
        """One call the way a native model streams it: id and name first (Letta shows nothing
        of a call before its id), then the arguments in small pieces. Letta's interfaces are
        built for that shape; the one for memgpt-style agents, for one, holds back arguments
        that arrive together with the end of `thinking` until another piece comes."""
        args = call["function"]["arguments"]
        head = {"index": index, "id": call["id"], "type": "function",
                "function": {"name": call["function"]["name"], "arguments": ""}}  # fmt: skip
        chunks = [self._chunk({"role": "assistant", "tool_calls": [head]})]
        for i in range(0, len(args), ARGUMENT_PIECE):
            piece = args[i : i + ARGUMENT_PIECE]
            chunks.append(self._chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]}))
        return chunks
