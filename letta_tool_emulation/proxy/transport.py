"""The proxy's transport to a plaintext OpenAI-compatible upstream: ``transport.OpenAITransport``'s
surface and retry budget, over the proxy's shared connection pool, reading the reply's JSON
and server-sent events directly.

The SDK builds a pydantic object for every streamed chunk (about half a millisecond each here),
which a proxy that only passes the text on to the engine has no use for. Failures are raised as
the SDK's exception types, so that the engine's drivers and the error mapping treat both alike.
End-to-end encrypted requests keep ``e2ee.transport.E2EETransport``.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping
from typing import Any

import httpx
import openai

from .. import retry
from ..transport import Completion, Delta
from .upstream import Upstream


class HttpTransport:
    def __init__(self, upstream: Upstream) -> None:
        self.upstream = upstream

    async def _open(self, body: Mapping[str, Any], stream: bool) -> httpx.Response:
        up = self.upstream
        content = json.dumps(body, ensure_ascii=False).encode()
        headers = {"Content-Type": "application/json", "Accept": "text/event-stream" if stream else "application/json",
                   **up.headers()}  # fmt: skip
        budget = retry.budget_for(up.client_kwargs()["api_key"], up.base_url)

        async def send() -> httpx.Response:
            request = up.http.build_request("POST", up.base_url + "/chat/completions", content=content, headers=headers)
            try:
                response = await up.http.send(request, stream=True)
            except httpx.TimeoutException:
                raise openai.APITimeoutError(request=request) from None
            except httpx.TransportError as exc:
                raise openai.APIConnectionError(request=request) from exc
            if response.status_code >= 400:
                await response.aread()
                await response.aclose()
                raise status_error(response)
            return response

        return await retry.call(budget, send)

    async def complete(self, body: Mapping[str, Any]) -> Completion:
        response = await self._open({**body, "stream": False}, stream=False)
        try:
            payload = json.loads(await response.aread())
        finally:
            await response.aclose()
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
        # Retried only until the reply starts: what streamed cannot be taken back.
        response = await self._open({**body, "stream": True, "stream_options": {"include_usage": True}}, stream=True)
        try:
            async for line in response.aiter_lines():
                if not line.startswith("data:"):
                    continue  # comments, event names, keep-alives
                data = line[5:].strip()
                if data == "[DONE]":
                    continue  # read on to the end, so that the connection can be used again
                chunk = json.loads(data)
                if isinstance(chunk, dict) and "error" in chunk:
                    # An error event in the middle of a stream, as OpenAI's own SDK reports it.
                    error = chunk["error"]
                    message = error.get("message") if isinstance(error, dict) else str(error)
                    raise openai.APIError(str(message or "error"), request=response.request, body=error)
                for delta in deltas(chunk):
                    yield delta
        finally:
            await response.aclose()


def deltas(chunk: Mapping[str, Any]) -> list[Delta]:
    out = []
    choices = chunk.get("choices") or []
    if choices:
        choice = choices[0]
        d = choice.get("delta") or {}
        reasoning = _text(d.get("reasoning_content")) or _text(d.get("reasoning"))
        out.append(
            Delta(content=_text(d.get("content")), reasoning=reasoning, finish_reason=choice.get("finish_reason"))
        )
    if chunk.get("usage") is not None:
        out.append(Delta(usage=chunk["usage"]))
    return out


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
