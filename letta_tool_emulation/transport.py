"""How an emulated request reaches the model: the seam between the drivers and the network.

A transport sends one request body and gives back what the model wrote, as a whole
(:class:`Completion`) or as it streams (:class:`Delta`), in plain text. The OpenAI SDK
transport serves every OpenAI-compatible endpoint; an end-to-end encrypted endpoint is
another transport with the same surface, so the drivers never know the difference.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

import httpx
from openai import APIStatusError, AsyncOpenAI, OpenAI
from openai.resources.chat.completions import AsyncCompletions

from . import retry
from .step import Attempt, SchemaRefused

# Body keys the SDK's create() has no parameter for (venice_parameters, a server's own
# schema option): they travel in extra_body, which the SDK merges into the JSON as is.
_SDK_PARAMS = frozenset(inspect.signature(AsyncCompletions.create).parameters) - {"self"}


@dataclass(frozen=True, slots=True)
class Completion:
    """A whole reply: the text, the endpoint's separate reasoning, and its metadata."""

    text: str
    reasoning: str = ""
    finish_reason: str | None = None
    usage: Any = None
    id: str = ""
    created: int = 0
    model: str = ""


class Delta(NamedTuple):
    """One streamed piece. ``usage`` arrives on its own at the end, where endpoints send it.
    A named tuple, as immutable as a frozen dataclass and built in a sixth of its time: a reply
    streams one per token or so."""

    content: str = ""
    reasoning: str = ""
    finish_reason: str | None = None
    usage: Any = None


class Transport(Protocol):
    async def complete(self, body: Mapping[str, Any]) -> Completion: ...
    def complete_sync(self, body: Mapping[str, Any]) -> Completion: ...
    def stream(self, body: Mapping[str, Any]) -> AsyncIterator[Delta]: ...


def sdk_arguments(body: Mapping[str, Any]) -> dict[str, Any]:
    args = {k: v for k, v in body.items() if k in _SDK_PARAMS}
    extra = {k: v for k, v in body.items() if k not in _SDK_PARAMS}
    if extra:
        args["extra_body"] = extra
    return args


class OpenAITransport:
    """Any OpenAI-compatible chat completions endpoint, through the official SDK.

    ``client_kwargs`` gives the SDK client's options (key, base URL, timeout) for each
    request: Letta decides them per request (BYOK keys can change). Retries are not the
    SDK's but :mod:`retry`'s, within the budget of the key and host.
    """

    def __init__(
        self,
        client_kwargs: Callable[[], Awaitable[dict[str, Any]]],
        client_kwargs_sync: Callable[[], dict[str, Any]] | None = None,
    ) -> None:
        self._kwargs = client_kwargs
        self._kwargs_sync = client_kwargs_sync

    async def complete(self, body: Mapping[str, Any]) -> Completion:
        kwargs = _no_sdk_retries(await self._kwargs())
        async with AsyncOpenAI(**kwargs) as client:
            response = await retry.call(_budget(kwargs), lambda: client.chat.completions.create(**sdk_arguments(body)))
            return _completion(response)

    def complete_sync(self, body: Mapping[str, Any]) -> Completion:
        if self._kwargs_sync is None:
            raise RuntimeError("this transport has no synchronous client")
        kwargs = _no_sdk_retries(self._kwargs_sync())
        with OpenAI(**kwargs) as client:
            response = retry.call_sync(_budget(kwargs), lambda: client.chat.completions.create(**sdk_arguments(body)))
            return _completion(response)

    async def stream(self, body: Mapping[str, Any]) -> AsyncIterator[Delta]:
        args = sdk_arguments({**body, "stream": True, "stream_options": {"include_usage": True}})
        kwargs = _no_sdk_retries(await self._kwargs())
        async with AsyncOpenAI(**kwargs) as client:
            # Retried only until the reply starts: what streamed cannot be taken back.
            upstream = await retry.call(_budget(kwargs), lambda: client.chat.completions.create(**args))
            try:
                async for chunk in upstream:
                    for delta in deltas_of(chunk):
                        yield delta
            finally:
                await upstream.close()


CONNECT_TIMEOUT = 10.0  # seconds; a model that does not even accept the connection is not busy, it is away


def refusal_of(attempt: Attempt, exc: APIStatusError) -> SchemaRefused:
    """The engine's reading of an error answer, for every driver: a refused schema goes back
    into the flow; any other error ends the step, raised as it came."""
    refusal = attempt.refused(exc.status_code, f"{exc.message} {json.dumps(exc.body, default=str)}")
    if refusal is None:
        raise exc
    return refusal


def with_timeout(kwargs: dict[str, Any], seconds: float) -> dict[str, Any]:
    """SDK client options that wait at most ``seconds`` for each read (and for the connection,
    at most :data:`CONNECT_TIMEOUT`), unless they set a timeout of their own."""
    if "timeout" not in kwargs:
        kwargs["timeout"] = httpx.Timeout(seconds, connect=min(CONNECT_TIMEOUT, seconds))
    return kwargs


def _no_sdk_retries(kwargs: dict[str, Any]) -> dict[str, Any]:
    return {**kwargs, "max_retries": 0}


def _budget(kwargs: Mapping[str, Any]) -> retry.Budget:
    return retry.budget_for(kwargs.get("api_key"), str(kwargs.get("base_url") or ""))


def deltas_of(chunk: Any) -> list[Delta]:
    """The pieces of one ChatCompletionChunk (first choice only: emulated requests ask for one)."""
    out = []
    if chunk.choices:
        choice = chunk.choices[0]
        d = choice.delta
        reasoning = _extra(d, "reasoning_content") or _extra(d, "reasoning")
        out.append(Delta(content=d.content or "", reasoning=reasoning or "", finish_reason=choice.finish_reason))
    if chunk.usage is not None:
        out.append(Delta(usage=chunk.usage))
    return out


def _extra(obj: Any, name: str) -> str:
    value = getattr(obj, name, None)
    return value if isinstance(value, str) else ""


def _completion(response: Any) -> Completion:
    choice = response.choices[0] if response.choices else None
    message = choice.message if choice is not None else None
    return Completion(
        text=(message.content if message is not None else None) or "",
        reasoning=(_extra(message, "reasoning_content") or _extra(message, "reasoning")) if message else "",
        finish_reason=choice.finish_reason if choice is not None else None,
        usage=response.usage,
        id=response.id or "",
        created=response.created or 0,
        model=response.model or "",
    )
