"""The end-to-end encrypted transport: the same surface as ``transport.OpenAITransport``, so
the turn engine and its drivers never know the difference.

Every request goes through an attested session (attesting first when none is valid),
travels encrypted with the three ``X-Venice-TEE-*`` headers, and always streams; each
chunk is decrypted before anything reads it. A request Letta did not stream is streamed
upstream and assembled. Every failure is an ``E2EEError``; after one that puts the session
in doubt, the session is dropped, so that the next request attests again.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any

import openai
from openai import AsyncOpenAI

from .. import retry
from ..transport import Completion, Delta, sdk_arguments
from .attestation import fetch_attestation
from .errors import E2EEError, rejection_error, stream_error
from .request import encrypt_request
from .response import decrypt_chunk
from .session import DEFAULT_LIFETIME, MAX_LIFETIME, Session, SessionCache

LIFETIME_ENV = "LETTA_TOOL_EMULATION_ATTESTATION_LIFETIME"

_CACHES: dict[str, SessionCache] = {}
_CACHES_LOCK = threading.Lock()


def lifetime() -> float:
    """How long an attestation is trusted: LETTA_TOOL_EMULATION_ATTESTATION_LIFETIME seconds,
    at most (and by default) 30 minutes."""
    try:
        value = float(os.environ.get(LIFETIME_ENV, DEFAULT_LIFETIME))
    except ValueError:
        value = DEFAULT_LIFETIME
    return min(max(value, 1.0), MAX_LIFETIME)


def sessions_for(base_url: str, api_key: str | None) -> SessionCache:
    """The attested sessions of one endpoint and key, shared by every request of the process."""
    ident = hashlib.sha256(f"{base_url.rstrip('/')}\n{api_key or ''}".encode()).hexdigest()
    with _CACHES_LOCK:
        cache = _CACHES.get(ident)
        if cache is None:
            cache = _CACHES[ident] = SessionCache(
                lambda model: fetch_attestation(base_url, model, api_key=api_key), lifetime=lifetime()
            )
        return cache


class E2EETransport:
    """``client_kwargs`` as for ``OpenAITransport``; ``model`` is the attested model's id."""

    def __init__(self, client_kwargs: Callable[[], Awaitable[dict[str, Any]]], model: str) -> None:
        self._kwargs = client_kwargs
        self._model = model

    async def stream(self, body: Mapping[str, Any]) -> AsyncIterator[Delta]:
        kwargs = {**await self._kwargs(), "max_retries": 0}
        base_url = str(kwargs.get("base_url") or "")
        cache = sessions_for(base_url, kwargs.get("api_key"))
        session = await cache.get(self._model)  # AttestationError: nothing is sent
        try:
            wire, headers = encrypt_request(body, session)
            budget = retry.budget_for(kwargs.get("api_key"), base_url)
            async with AsyncOpenAI(**kwargs) as client:
                try:
                    upstream = await retry.call(
                        budget, lambda: client.chat.completions.create(**sdk_arguments(wire), extra_headers=headers)
                    )
                except openai.APIStatusError as exc:
                    rejected = rejection_error(exc.status_code, exc.body)
                    if rejected is None:
                        raise  # not about encryption (a rate limit, an overloaded model): mapped as usual
                    raise rejected from None
                try:
                    async for chunk in upstream:
                        for delta in _deltas(decrypt_chunk(chunk.model_dump(), session)):
                            yield delta
                except openai.APIStatusError:
                    raise
                except openai.APIError as exc:  # `data: {"error": ...}` in the middle of the stream
                    raise stream_error({"error": exc.body if exc.body is not None else exc.message}) from None
                finally:
                    await upstream.close()
        except E2EEError as exc:
            _drop(cache, session, exc)
            raise

    async def complete(self, body: Mapping[str, Any]) -> Completion:
        text: list[str] = []
        reasoning: list[str] = []
        finish: str | None = None
        usage: Any = None
        async for delta in self.stream(body):
            text.append(delta.content)
            reasoning.append(delta.reasoning)
            finish = delta.finish_reason or finish
            usage = delta.usage if delta.usage is not None else usage
        return Completion(
            text="".join(text), reasoning="".join(reasoning), finish_reason=finish, usage=usage, model=self._model
        )

    def complete_sync(self, body: Mapping[str, Any]) -> Completion:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return asyncio.run(self.complete(body))
        raise RuntimeError("a synchronous end-to-end encrypted request cannot run inside an event loop")


def _drop(cache: SessionCache, session: Session, exc: E2EEError) -> None:
    if exc.reattest:
        cache.invalidate(session.model, session)


def _deltas(chunk: Mapping[str, Any]) -> list[Delta]:
    out = []
    choices = chunk.get("choices") or []
    if choices:
        choice = choices[0]
        d = choice.get("delta") or {}
        reasoning = d.get("reasoning_content") or d.get("reasoning") or ""
        out.append(
            Delta(content=d.get("content") or "", reasoning=reasoning, finish_reason=choice.get("finish_reason"))
        )
    if chunk.get("usage") is not None:
        out.append(Delta(usage=chunk["usage"]))
    return out
