"""The proxy's drivers: an emulated step run through the turn engine (streamed or whole), and
the pass-through for everything that needs no emulation.

Like the plugin's drivers they move data and report what they saw to the engine, which decides
what it means (``engine.py`` says what a driver does). The streamed driver releases text as the
parser becomes sure it is not part of a call, and sends each call, once the reply is settled,
the way a native model streams it.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncGenerator, AsyncIterator, Mapping
from typing import Any

import aiohttp
import httpx
import openai

from .. import endpoints, engine
from ..core import StreamEvent
from ..e2ee import E2EEError
from ..e2ee.transport import E2EETransport
from ..step import (
    NO_FINISH_REASON,
    Attempt,
    Decision,
    EmulatedRequest,
    Outcome,
    StreamBroken,
    ToolCallDict,
)
from ..transport import Delta, Transport, refusal_of
from . import wire
from .errors import BrokenStream
from .transport import HttpTransport, body_pieces, post, read_body
from .upstream import Upstream

log = logging.getLogger("letta_tool_emulation.proxy")
# Errors that say best what happened, even in the middle of a stream: the upstream's own answer,
# what end-to-end encryption found, and a stalled upstream (a timeout, which clients expect).
_CONCLUSIVE = (openai.APIStatusError, E2EEError, openai.APITimeoutError, httpx.TimeoutException)


def transport_for(upstream: Upstream, decision: Decision, model: str) -> Transport:
    async def kwargs() -> dict[str, Any]:
        return upstream.client_kwargs()

    if decision.e2ee:
        return E2EETransport(kwargs, model)
    return HttpTransport(upstream)


def _broken(broken: StreamBroken) -> BrokenStream:
    cause = broken.cause
    if cause is None:
        return BrokenStream(NO_FINISH_REASON)
    detail = str(cause).strip().splitlines()[0][:160] if str(cause).strip() else ""
    return BrokenStream(f"{type(cause).__name__}: {detail}" if detail else type(cause).__name__)


def _calls(outcome: Outcome, model: str) -> list[ToolCallDict]:
    if outcome.queue:
        # parallel_tool_calls is false and the model wrote several calls. The plugin would hand
        # out the rest one per step; a stateless proxy sends the first, and the model, seeing
        # its result, is asked for the next step afresh.
        log.warning(
            "proxy: %s wrote %d calls but parallel_tool_calls is false: returning the first (%s); not returned: %s",
            model, len(outcome.calls) + len(outcome.queue), outcome.calls[0]["function"]["name"],
            ", ".join(c["function"]["name"] for c in outcome.queue),
        )  # fmt: skip
    return outcome.calls


class Emulated:
    """One emulated step for one client request."""

    def __init__(self, request: EmulatedRequest, transport: Transport, model: str) -> None:
        self.request = request
        self.transport = transport
        self.model = model
        self.outcome: Outcome | None = None  # once the step is settled (what calibrate reads)

    # -- streamed -----------------------------------------------------------------------------

    async def stream(self, include_usage: bool) -> AsyncGenerator[bytes, None]:
        """The SSE body. Its first piece comes once the upstream has answered (an error before
        that is raised, for the caller to answer with the upstream's status)."""
        writer = wire.ChunkWriter(self.model)
        flow = engine.run(self.request)
        try:
            attempt = next(flow)
            while True:
                try:
                    async for piece in self._attempt(attempt, writer):
                        yield piece
                except openai.APIStatusError as exc:  # raised before anything of this attempt streamed
                    attempt = flow.throw(refusal_of(attempt, exc))
                    continue
                attempt = flow.send(None)
        except StopIteration as done:
            outcome: Outcome = done.value
        finally:
            flow.close()
        endpoints.remember(self.request, outcome, self.request.step.log)
        # Everything after the reply is settled is ready at once: one write, many events.
        tail = [] if writer.started else [writer.chunk({"content": ""})]
        for index, call in enumerate(_calls(outcome, self.model)):
            tail += writer.call(index, call)
        if outcome.gave_up:  # the explanation was never streamed
            tail.append(writer.chunk({"content": outcome.content}))
        tail.append(writer.chunk({}, finish=outcome.finish_reason))
        if include_usage:
            tail.append(writer.usage(outcome.usage.as_dict()))
        tail.append(wire.DONE)
        yield b"".join(tail)

    async def _attempt(self, attempt: Attempt, writer: wire.ChunkWriter) -> AsyncIterator[bytes]:
        """The attempt's chunks: what the deltas of one piece of the upstream's body release, each
        delta fed to the engine on its own, goes to the client in one write."""
        upstream = _batches(self.transport, attempt.body)
        try:
            async for batch in upstream:
                out = []
                if not attempt.started and not writer.started:  # the upstream answered: the stream can begin
                    out.append(writer.chunk({"content": ""}))
                try:
                    for content, reasoning, finish_reason, usage in batch:
                        for event in attempt.streamed(content, reasoning, finish_reason, usage):
                            if event.text:
                                out.append(writer.chunk({"content": event.text}))
                            elif event.reasoning:
                                out.append(writer.chunk({"reasoning_content": event.reasoning}))
                except Exception:
                    if out:  # what was released before the failure was released
                        yield b"".join(out)
                    raise
                if out:
                    yield out[0] if len(out) == 1 else b"".join(out)
        except Exception as exc:
            failure = attempt.stream_failed(exc, conclusive=isinstance(exc, _CONCLUSIVE))
            if not isinstance(failure, StreamBroken):
                raise
            raise _broken(failure) from exc
        finally:
            await upstream.aclose()
        try:
            ended = attempt.stream_ended()
        except StreamBroken as broken:
            raise _broken(broken) from None
        out = [piece for piece in (_event_chunk(writer, event) for event in ended) if piece is not None]
        if out:
            yield b"".join(out)

    # -- whole --------------------------------------------------------------------------------

    async def complete(self) -> dict[str, Any]:
        """The ``chat.completion``: what the streamed reply would have added up to, with the
        text of the last attempt only (nothing was shown yet, so a re-asked reply's text
        can still be left out)."""
        flow = engine.run(self.request)
        text: list[str] = []
        reasoning: list[str] = []
        try:
            attempt = next(flow)
            while True:
                try:
                    reply = await self.transport.complete(attempt.body)
                except openai.APIStatusError as exc:
                    attempt = flow.throw(refusal_of(attempt, exc))
                    continue
                text, reasoning = [], [reply.reasoning] if reply.reasoning else []
                attempt.reasoning(reply.reasoning)
                for event in [*attempt.content(reply.text), *attempt.end(reply.finish_reason, reply.usage)]:
                    text.append(event.text)
                    reasoning.append(event.reasoning)
                attempt = flow.send(None)
        except StopIteration as done:
            outcome: Outcome = done.value
        finally:
            flow.close()
        self.outcome = outcome
        endpoints.remember(self.request, outcome, self.request.step.log)
        content = "".join(text)
        if outcome.gave_up:
            content = "\n\n".join(p for p in (content, outcome.content) if p)
        return wire.completion(
            self.model, content, "".join(reasoning), _calls(outcome, self.model), outcome.finish_reason,
            outcome.usage.as_dict(),
        )  # fmt: skip


async def _one_by_one(deltas: AsyncIterator[Delta]) -> AsyncGenerator[list[Delta], None]:
    try:
        async for delta in deltas:
            yield [delta]
    finally:
        await deltas.aclose()  # type: ignore[attr-defined]


def _batches(transport: Transport, body: Mapping[str, Any]) -> AsyncGenerator[list[Delta], None]:
    """The upstream's deltas in the lists that arrived together, where the transport tells."""
    if isinstance(transport, HttpTransport):
        return transport.stream_batches(body)
    return _one_by_one(transport.stream(body))


def _event_chunk(writer: wire.ChunkWriter, event: StreamEvent) -> bytes | None:
    if event.text:
        return writer.chunk({"content": event.text})
    if event.reasoning:
        return writer.chunk({"reasoning_content": event.reasoning})
    return None


# -- pass-through ---------------------------------------------------------------------------------

_RELAYED_HEADERS = ("content-type", "x-ratelimit-remaining-requests", "x-ratelimit-remaining-tokens",
                    "x-ratelimit-reset-requests", "x-ratelimit-reset-tokens")  # fmt: skip


async def open_upstream(upstream: Upstream, path: str, raw: bytes, stream: bool) -> aiohttp.ClientResponse:
    """POST the client's body, byte for byte, to the upstream's ``path`` with the upstream's key,
    within the retry budget. Raises the SDK's errors (``APIStatusError`` with the upstream's
    status and body), so that both paths fail the same way."""
    return await post(upstream, path, raw, stream)


def relayed_headers(response: aiohttp.ClientResponse) -> dict[str, str]:
    return {name: response.headers[name] for name in _RELAYED_HEADERS if name in response.headers}


async def relay(response: aiohttp.ClientResponse) -> AsyncIterator[bytes]:
    """The upstream's body as it arrives, chunk for chunk."""
    done = False
    try:
        async for piece in body_pieces(response):
            yield piece
        done = True
    finally:
        if done:
            response.release()
        else:
            response.close()  # the client went away: the upstream request ends


async def read_all(response: aiohttp.ClientResponse) -> bytes:
    """The whole body; the connection goes back to the pool, or is closed if reading it failed."""
    try:
        content = await read_body(response)
    except BaseException:
        response.close()
        raise
    response.release()
    return content
