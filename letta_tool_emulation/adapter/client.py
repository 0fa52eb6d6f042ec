"""``EmulatedToolsClient``: Letta's ``OpenAIClient``, with tool calling emulated in text for
models that have none, and stock behaviour for every other model.

This module only connects Letta's client methods to the turn engine (``engine.py``) and
its drivers (``drivers.py``): ``build_request_data`` builds Letta's request as usual and
lets the engine turn it into a text-only one; ``request_async``, ``request`` and
``stream_async`` run the step through a driver. What they return is what a native model's
response would have been, so Letta's own conversion, agent loop and tool executor do the
rest, and every Letta tool works unchanged.
"""

from __future__ import annotations

import inspect
import logging
import os
from typing import Any

import httpx

from .. import engine, venice
from ..selection import Decision, decide, handle_of
from ..step import TOOL_CALL_ID_LEN, EmulatedRequest, Outcome, Pending
from ..transport import OpenAITransport
from . import drivers
from .errors import map_error
from .letta_api import LettaError, OpenAIClient, settings

log = logging.getLogger("letta_tool_emulation")

_BUILD = inspect.signature(OpenAIClient.build_request_data)
_ANNOUNCED: set[tuple[str, str]] = set()


class EmulatedToolsClient(OpenAIClient):
    """See the module docstring. Decides per request, from the ``llm_config`` Letta passes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._pending = Pending()

    @classmethod
    def adopt(cls, client: OpenAIClient) -> EmulatedToolsClient:
        """Turn a client letta just built into this class, keeping all it set up."""
        client.__class__ = cls
        assert isinstance(client, cls)
        client._pending = Pending()
        return client

    # -- requests ---------------------------------------------------------------------------

    def build_request_data(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        data = super().build_request_data(*args, **kwargs)
        try:
            arguments = _BUILD.bind(self, *args, **kwargs).arguments
        except TypeError:  # letta changed the signature: leave its request alone
            return data
        llm_config = arguments.get("llm_config")
        decision = decide(llm_config)
        _announce(llm_config, decision)
        if venice.looks_like_venice(getattr(llm_config, "model_endpoint", None)):
            venice.CAPABILITIES.refresh_in_background(llm_config.model_endpoint, venice.api_key())
        if not decision.emulate:
            return data
        return engine.prepare(
            data,
            decision=decision,
            tools=arguments.get("tools") or [],
            prose=_prose(arguments.get("messages") or []),
            pending=self._pending,
            parallel=bool(getattr(llm_config, "parallel_tool_calls", False)),
        )

    async def request_async(
        self, request_data: dict[str, Any], llm_config: Any, *args: Any, **kwargs: Any
    ) -> dict[str, Any]:
        if not isinstance(request_data, EmulatedRequest):
            return await super().request_async(request_data, llm_config, *args, **kwargs)
        outcome, response = await drivers.complete(request_data, self._transport(llm_config))
        self._keep(request_data, outcome)
        return response

    def request(self, request_data: dict[str, Any], llm_config: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        if not isinstance(request_data, EmulatedRequest):
            return super().request(request_data, llm_config, *args, **kwargs)
        outcome, response = drivers.complete_sync(request_data, self._transport(llm_config))
        self._keep(request_data, outcome)
        return response

    async def stream_async(self, request_data: dict[str, Any], llm_config: Any, *args: Any, **kwargs: Any) -> Any:
        if not isinstance(request_data, EmulatedRequest):
            return await super().stream_async(request_data, llm_config, *args, **kwargs)
        # The Responses-API websocket options do not apply to chat completions; they are ignored.
        return drivers.StreamDriver(
            request_data, self._transport(llm_config), on_outcome=lambda o: self._keep(request_data, o)
        )

    def _transport(self, llm_config: Any) -> OpenAITransport:
        return OpenAITransport(
            lambda: self._prepare_client_kwargs_async(llm_config), lambda: self._prepare_client_kwargs(llm_config)
        )

    def _keep(self, request: EmulatedRequest, outcome: Outcome) -> None:
        if request.step.tools:  # a summarizer's request: the agent's pending calls are not its business
            self._pending.keep(outcome)

    # -- keys and errors ------------------------------------------------------------------------

    async def _prepare_client_kwargs_async(self, llm_config: Any) -> dict[str, Any]:
        return _emulation_kwargs(await super()._prepare_client_kwargs_async(llm_config), llm_config)

    def _prepare_client_kwargs(self, llm_config: Any) -> dict[str, Any]:
        return _emulation_kwargs(super()._prepare_client_kwargs(llm_config), llm_config)

    def _prepare_client_kwargs_embedding(self, embedding_config: Any) -> dict[str, Any]:
        kwargs = super()._prepare_client_kwargs_embedding(embedding_config)
        handle = getattr(embedding_config, "handle", None) or ""
        if handle.startswith(venice.PROVIDER_NAME + "/") and venice.api_key():
            kwargs["api_key"] = venice.api_key()
        return kwargs

    def handle_llm_error(self, e: Exception, llm_config: Any = None, *args: Any, **kwargs: Any) -> Exception:
        if isinstance(e, LettaError):
            # Already a Letta error (raised by this client): keep it, so that a context
            # overflow still makes Letta summarize and retry.
            return e
        if llm_config is not None:
            decision = decide(llm_config)
            if decision.emulate or decision.venice:
                mapped = map_error(e, handle_of(llm_config))
                if mapped is not None:
                    return mapped
        return super().handle_llm_error(e, llm_config, *args, **kwargs)


VeniceEmulatedClient = EmulatedToolsClient  # the name the design card uses


def _emulation_kwargs(kwargs: dict[str, Any], llm_config: Any) -> dict[str, Any]:
    """The OpenAI SDK options for a request: Venice's key for the venice base provider, and
    a read timeout for emulated models."""
    # Letta's base providers authenticate with OPENAI_API_KEY; the venice base provider
    # needs VENICE_API_KEY. BYOK providers already bring their own key.
    category = getattr(llm_config, "provider_category", None)
    category = str(getattr(category, "value", category or ""))
    if getattr(llm_config, "provider_name", None) == venice.PROVIDER_NAME and category != "byok" and venice.api_key():
        kwargs["api_key"] = venice.api_key()
    if "timeout" not in kwargs and decide(llm_config).emulate:
        # Letta's OpenAI client sets no timeout (the SDK waits 600 s for each read), so a
        # stalled model would hold an agent for ten minutes: honour Letta's own setting.
        seconds = float(getattr(settings, "llm_request_timeout_seconds", 60.0))
        kwargs["timeout"] = httpx.Timeout(seconds, connect=min(10.0, seconds))
    return kwargs


def _announce(llm_config: Any, decision: Decision) -> None:
    key = (handle_of(llm_config), decision.reason)
    if decision.emulate and key not in _ANNOUNCED:
        _ANNOUNCED.add(key)
        log.info(
            "letta_tool_emulation: emulating tool calls for %s (%s) [pid %d]", key[0], decision.reason, os.getpid()
        )


def _prose(messages: list[Any]) -> dict[str, str]:
    """The text each earlier call came with, by call id. Letta keeps it as reasoning on the
    stored message but leaves it out of the request (it scrubs text next to tool calls, and
    sends reasoning only for multi-part messages)."""
    prose: dict[str, str] = {}
    for m in messages:
        calls = getattr(m, "tool_calls", None)
        if getattr(m, "role", None) != "assistant" or not calls:
            continue
        parts: list[str] = []
        for c in getattr(m, "content", None) or ():
            text = getattr(c, "reasoning", None) or getattr(c, "text", None)
            if isinstance(text, str) and text.strip() and text.strip() not in parts:
                parts.append(text.strip())
        if parts:
            prose[str(calls[0].id)[:TOOL_CALL_ID_LEN]] = "\n\n".join(parts)
    return prose
