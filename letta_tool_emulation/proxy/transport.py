"""The proxy's transport to a plaintext OpenAI-compatible upstream: ``transport.OpenAITransport``'s
surface and retry budget, over the proxy's shared aiohttp session, reading the reply's JSON
and server-sent events directly.

The SDK builds a pydantic object for every streamed chunk (about half a millisecond each here),
which a proxy that only passes the text on to the engine has no use for; and httpx's
pure-Python HTTP costs about four times what aiohttp's does per request. Failures are raised
as the SDK's and httpx's exception types (what the SDK raises, and what httpx raises in the
middle of a body), so that the engine's drivers and the error mapping treat every transport
alike. End-to-end encrypted requests keep ``e2ee.transport.E2EETransport``.
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Mapping
from typing import Any

import aiohttp
import httpx
import openai
import orjson

from .. import retry
from ..transport import Completion, Delta
from .upstream import NO_KEY, Upstream
from .wire import dumps

READ_TIMEOUT = "the upstream sent nothing for longer than the timeout"


async def post(upstream: Upstream, path: str, content: bytes, stream: bool) -> aiohttp.ClientResponse:
    """POST ``content`` to the upstream's ``path`` with the upstream's key, within the retry
    budget; the response is open, its body unread (the caller reads it, then releases it).
    Raises the SDK's errors (``APIStatusError`` with the upstream's status and body)."""
    url = upstream.base_url + path
    headers = {"Content-Type": "application/json", "Accept": "text/event-stream" if stream else "application/json",
               **upstream.headers()}  # fmt: skip
    budget = retry.budget_for(upstream.api_key or NO_KEY, upstream.base_url)  # the key client_kwargs gives

    async def send() -> aiohttp.ClientResponse:
        try:
            response = await upstream.session().post(url, data=content, headers=headers)
        except TimeoutError:
            raise openai.APITimeoutError(request=httpx.Request("POST", url)) from None
        except aiohttp.ClientError as exc:
            raise openai.APIConnectionError(request=httpx.Request("POST", url)) from exc
        if response.status >= 400:
            try:
                body = await response.read()
            except (TimeoutError, aiohttp.ClientError):
                body = b""
            finally:
                response.release()
            raise status_error(as_httpx(response, body))
        return response

    return await retry.call(budget, send)


async def body_pieces(response: aiohttp.ClientResponse) -> AsyncIterator[bytes]:
    """The body as it arrives, with a failure on the way raised as httpx raises it mid-body: a
    stalled upstream as ``httpx.ReadTimeout``, a broken connection as ``httpx.ReadError``."""
    try:
        async for piece in response.content.iter_any():
            yield piece
    except TimeoutError:
        raise httpx.ReadTimeout(READ_TIMEOUT) from None
    except aiohttp.ClientError as exc:
        raise httpx.ReadError(str(exc) or type(exc).__name__) from exc


async def read_body(response: aiohttp.ClientResponse) -> bytes:
    return b"".join([piece async for piece in body_pieces(response)])


def as_httpx(response: aiohttp.ClientResponse, content: bytes) -> httpx.Response:
    """An error answer as the SDK's exceptions carry it."""
    request = httpx.Request(response.method, str(response.url))
    return httpx.Response(response.status, headers=list(response.headers.items()), content=content, request=request)


class HttpTransport:
    def __init__(self, upstream: Upstream) -> None:
        self.upstream = upstream

    async def _open(self, body: Mapping[str, Any], stream: bool) -> aiohttp.ClientResponse:
        return await post(self.upstream, "/chat/completions", dumps(body), stream)

    async def complete(self, body: Mapping[str, Any]) -> Completion:
        response = await self._open({**body, "stream": False}, stream=False)
        try:
            payload = loads(await read_body(response))
        finally:
            response.release()
        choice = (payload.get("choices") or [{}])[0]
        message = choice.get("message") or {}
        return Completion(
            text=message.get("content") or "",
            reasoning=_text(message.get("reasoning_content")) or _text(message.get("reasoning")),
            finish_reason=choice.get("finish_reason"),
            usage=payload.get("usage"),
            id=payload.get("id") or "",
            created=payload.get("created") or 0,
            model=payload.get("model") or "",
        )

    def complete_sync(self, body: Mapping[str, Any]) -> Completion:
        raise RuntimeError("the proxy's transport is asynchronous only")

    async def stream(self, body: Mapping[str, Any]) -> AsyncIterator[Delta]:
        batches = self.stream_batches(body)
        try:
            async for batch in batches:
                for delta in batch:
                    yield delta
        finally:
            await batches.aclose()

    async def stream_batches(self, body: Mapping[str, Any]) -> AsyncGenerator[list[Delta], None]:
        """The reply's deltas, one list for each piece of the body as it arrives: the events that
        came together, each parsed on its own, so that what they release can be sent to the
        client in one write."""
        # Retried only until the reply starts: what streamed cannot be taken back.
        response = await self._open({**body, "stream": True, "stream_options": {"include_usage": True}}, stream=True)
        done = False
        try:
            rest = b""
            # The body's pieces read here rather than through body_pieces: one generator less
            # for each of the reply's many small pieces.
            pieces = response.content.iter_any()
            while True:
                try:
                    piece = await pieces.__anext__()
                except StopAsyncIteration:
                    break
                except TimeoutError:
                    raise httpx.ReadTimeout(READ_TIMEOUT) from None
                except aiohttp.ClientError as exc:
                    raise httpx.ReadError(str(exc) or type(exc).__name__) from exc
                received = rest + piece
                *lines, rest = received.split(b"\n")
                # One look for long numbers over the events that came together, not one per event.
                read = _loads_short if _LONG_NUMBER not in received.translate(_DIGITS_ONLY) else loads
                batch: list[Delta] = []
                for line in lines:
                    if line[:5] != b"data:":  # comments, event names, keep-alives, blank lines
                        continue
                    try:
                        _add_event(line, response, read, batch)
                    except Exception:
                        if batch:  # what came before a broken or error event is the reply's too
                            yield batch
                        raise
                if batch:
                    yield batch
            if rest.startswith(b"data:"):
                batch = []
                _add_event(rest, response, loads, batch)
                if batch:
                    yield batch
            done = True
        finally:
            if done:
                response.release()  # read to the end: the connection can be used again
            else:
                response.close()  # given up half-way (or cancelled): the upstream request ends


def _add_event(line: bytes, response: aiohttp.ClientResponse, read: Callable[[bytes], Any], out: list[Delta]) -> None:
    """The deltas of one ``data:`` line of the event stream, added to ``out``; ``read``: how its
    JSON is read (``loads`` unless the line is known to hold no run of 19 digits)."""
    data = line[5:].strip()
    if data == b"[DONE]":
        return  # read on to the end, so that the connection can be used again
    chunk = read(data)
    if isinstance(chunk, dict) and "error" in chunk:
        raise _error_event(chunk, response)
    _add_deltas(chunk, out)


def _error_event(chunk: dict[str, Any], response: aiohttp.ClientResponse) -> openai.APIError:
    """An error event in the middle of a stream, as OpenAI's own SDK reports it."""
    error = chunk["error"]
    message = error.get("message") if isinstance(error, dict) else str(error)
    request = httpx.Request(response.method, str(response.url))
    return openai.APIError(str(message or "error"), request=request, body=error)


# A run of 19 digits may be an integer beyond 64 bits, which orjson would read as a float. The
# bytes are looked at through a table that turns every digit into "0" and every other byte into a
# blank, then searched for 19 zeros: a sixth of the regular expression's cost on every stream event.
_DIGITS_ONLY = bytes(0x30 if 0x30 <= byte <= 0x39 else 0x20 for byte in range(256))
_LONG_NUMBER = b"0" * 19


def loads(data: bytes) -> Any:
    """JSON as ``json.loads`` reads it, at a fraction of the cost for the many small chunks of a
    stream; what orjson refuses or reads otherwise and ``json`` takes (NaN, integers beyond 64
    bits) goes to ``json``."""
    if _LONG_NUMBER not in data.translate(_DIGITS_ONLY):
        return _loads_short(data)
    return json.loads(data)


def _loads_short(data: bytes) -> Any:
    """``loads`` for text that holds no run of 19 digits."""
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        return json.loads(data)


def deltas(chunk: Mapping[str, Any]) -> list[Delta]:
    out: list[Delta] = []
    _add_deltas(chunk, out)
    return out


def _add_deltas(chunk: Mapping[str, Any], out: list[Delta]) -> None:
    """The deltas of one streamed chunk, added to ``out``."""
    # Read once per streamed chunk: as few look-ups and calls as the shape allows, and the delta
    # built as the tuple it is (a named tuple's own constructor costs twice the rest here).
    usage = chunk.get("usage")
    choices = chunk.get("choices")
    if not choices:
        if usage is not None:
            out.append(Delta(usage=usage))
        return
    choice = choices[0]
    d = choice.get("delta") or _NO_DELTA
    content = d.get("content")
    if type(content) is not str:
        content = content if isinstance(content, str) else ""
    reasoning = d.get("reasoning_content")
    if reasoning is None:  # most chunks: no reasoning under either name
        reasoning = d.get("reasoning")
        if type(reasoning) is not str:
            reasoning = _text(reasoning)
    elif not reasoning or type(reasoning) is not str:
        reasoning = _text(reasoning) or _text(d.get("reasoning"))
    out.append(_new_delta(Delta, (content, reasoning, choice.get("finish_reason"), None)))
    if usage is not None:
        out.append(Delta(usage=usage))


_NO_DELTA: Mapping[str, Any] = {}
_new_delta = tuple.__new__


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def status_error(response: httpx.Response) -> openai.APIStatusError:
    """The SDK's exception for an error answer (its subclass for the status, as the SDK raises)."""
    try:
        body: Any = response.json()
    except ValueError:
        body = response.text
    kinds: dict[int, type[openai.APIStatusError]] = {
        400: openai.BadRequestError, 401: openai.AuthenticationError, 403: openai.PermissionDeniedError,
        404: openai.NotFoundError, 409: openai.ConflictError, 422: openai.UnprocessableEntityError,
        429: openai.RateLimitError,
    }  # fmt: skip
    kind = kinds.get(
        response.status_code, openai.InternalServerError if response.status_code >= 500 else openai.APIStatusError
    )
    return kind(f"HTTP {response.status_code}", response=response, body=body)
