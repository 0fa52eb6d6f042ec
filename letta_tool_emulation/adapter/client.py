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

import contextvars
import inspect
import logging
import os
import threading
from collections import OrderedDict
from typing import Any

from .. import endpoints, engine, venice
from ..e2ee.transport import E2EETransport
from ..selection import decide, handle_of, speaks_venice
from ..step import TOOL_CALL_ID_LEN, Decision, EmulatedRequest, Outcome, Pending, Settings
from ..transport import OpenAITransport, Transport, with_timeout
from . import drivers, parallel
from .errors import map_error
from .letta_api import LettaError, OpenAIClient, ProviderManager, TextContent, settings

log = logging.getLogger("letta_tool_emulation")

_BUILD = inspect.signature(OpenAIClient.build_request_data)
_HANDLE_TAKES_CONFIG = "llm_config" in inspect.signature(OpenAIClient.handle_llm_error).parameters
# A BYOK provider's key for the embedding request under way (set in request_embeddings).
_BYOK_EMBEDDING_KEY: contextvars.ContextVar[str | None] = contextvars.ContextVar("byok_embedding_key", default=None)
_ANNOUNCED: set[tuple[str, str]] = set()


class EmulatedToolsClient(OpenAIClient):
    """See the module docstring. Decides per request, from the ``llm_config`` Letta passes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._pending = Pending()
        self._thread = ""  # the agent and conversation of the request being built

    @classmethod
    def adopt(cls, client: OpenAIClient) -> EmulatedToolsClient:
        """Turn a client letta just built into this class, keeping all it set up."""
        client.__class__ = cls
        assert isinstance(client, cls)
        client._pending = Pending()
        client._thread = ""
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
        url = getattr(llm_config, "model_endpoint", None)
        if isinstance(url, str) and venice.looks_like_venice(url):
            venice.CAPABILITIES.refresh_in_background(url, venice.api_key() if venice.is_key_host(url) else None)
        if not decision.emulate:
            return data
        self._thread = _thread_of(arguments.get("messages") or [])
        if not self._pending.feedback:
            self._pending.feedback = _take_carried(self._thread)
        return parallel.ask_letta(
            engine.prepare(
                data,
                decision=decision,
                tools=arguments.get("tools") or [],
                prose=_prose(arguments.get("messages") or []),
                pending=self._pending,
                parallel=parallel_tool_calls(llm_config),
                settings=Settings.from_env(log),
                context_window=getattr(llm_config, "context_window", None),
                endpoint=url,
                venice_parameters=venice.venice_parameters(),
                log=log,
                concurrent=parallel.CONCURRENT,
                sequential=parallel.SEQUENTIAL,
            )
        )

    async def request_async(
        self, request_data: dict[str, Any], llm_config: Any, *args: Any, **kwargs: Any
    ) -> dict[str, Any]:
        if not isinstance(request_data, EmulatedRequest):
            return await super().request_async(request_data, llm_config, *args, **kwargs)
        parallel.letta_said(request_data)
        try:
            outcome, response = await drivers.complete(request_data, self._transport(llm_config, request_data))
        except Exception as exc:
            raise letta_error(exc, llm_config) from exc
        self._settled(request_data, outcome)
        return response

    def request(self, request_data: dict[str, Any], llm_config: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        if not isinstance(request_data, EmulatedRequest):
            return super().request(request_data, llm_config, *args, **kwargs)
        parallel.letta_said(request_data)
        try:
            outcome, response = drivers.complete_sync(request_data, self._transport(llm_config, request_data))
        except Exception as exc:
            raise letta_error(exc, llm_config) from exc
        self._settled(request_data, outcome)
        return response

    async def stream_async(self, request_data: dict[str, Any], llm_config: Any, *args: Any, **kwargs: Any) -> Any:
        if not isinstance(request_data, EmulatedRequest):
            return await super().stream_async(request_data, llm_config, *args, **kwargs)
        parallel.letta_said(request_data)
        # The Responses-API websocket options do not apply to chat completions; they are ignored.
        return drivers.StreamDriver(
            request_data,
            self._transport(llm_config, request_data),
            on_outcome=lambda o: self._settled(request_data, o),
            errors=lambda exc: letta_error(exc, llm_config),
        )

    def _transport(self, llm_config: Any, request: EmulatedRequest) -> Transport:
        """The transport of an emulated request. Letta's OpenAI client sets no timeout (the SDK
        waits 600 s for each read), so a stalled model would hold an agent for ten minutes: an
        emulated request waits as long as Letta's own setting says."""
        seconds = float(getattr(settings, "llm_request_timeout_seconds", 60.0))

        async def options() -> dict[str, Any]:
            return with_timeout(await self._prepare_client_kwargs_async(llm_config), seconds)

        def options_sync() -> dict[str, Any]:
            return with_timeout(self._prepare_client_kwargs(llm_config), seconds)

        if request.step.decision.e2ee:
            return E2EETransport(options, str(request.get("model")))
        return OpenAITransport(options, options_sync)

    def _settled(self, request: EmulatedRequest, outcome: Outcome) -> None:
        """What the step leaves for later steps of this agent loop, and what it found out about
        the endpoint: a refused schema is remembered, and the model asked in free text from then on."""
        engine.keep(self._pending, request, outcome)
        if not outcome.calls and self._pending.feedback and request.step.tools:
            # A reply without calls ends Letta's loop, and this client with it: what the model
            # should hear (a block set aside for its words) waits for the agent's next turn.
            _carry(self._thread, self._pending.feedback)
            self._pending.feedback = ""
        endpoints.remember(request, outcome, log)

    # -- keys and errors ------------------------------------------------------------------------

    async def _prepare_client_kwargs_async(self, llm_config: Any) -> dict[str, Any]:
        return _with_key(await super()._prepare_client_kwargs_async(llm_config), llm_config)

    def _prepare_client_kwargs(self, llm_config: Any) -> dict[str, Any]:
        return _with_key(super()._prepare_client_kwargs(llm_config), llm_config)

    def _prepare_client_kwargs_embedding(self, embedding_config: Any) -> dict[str, Any]:
        kwargs = super()._prepare_client_kwargs_embedding(embedding_config)
        byok = _BYOK_EMBEDDING_KEY.get()
        if byok is not None:
            kwargs["api_key"] = byok
        elif _provider_of(embedding_config) == venice.PROVIDER_NAME:
            url = str(getattr(embedding_config, "embedding_endpoint", "") or "")
            kwargs["api_key"] = key_for(kwargs.get("api_key"), url, venice.PROVIDER_NAME, "base")
        return kwargs

    async def request_embeddings(self, inputs: Any, embedding_config: Any, *args: Any, **kwargs: Any) -> Any:
        # Letta sends OPENAI_API_KEY for every embedding model, BYOK ones included: a BYOK
        # provider's embeddings get that provider's key, and only at that provider's host.
        token = _BYOK_EMBEDDING_KEY.set(await self._byok_embedding_key(embedding_config))
        try:
            return await super().request_embeddings(inputs, embedding_config, *args, **kwargs)
        finally:
            _BYOK_EMBEDDING_KEY.reset(token)

    async def _byok_embedding_key(self, embedding_config: Any) -> str | None:
        name = _provider_of(embedding_config)
        if not name or name == venice.PROVIDER_NAME or self.actor is None:
            return None
        providers = await ProviderManager().list_providers_async(name=name, actor=self.actor)
        provider = next((p for p in providers if _category(p) == "byok"), None)
        if provider is None:
            return None
        url = str(getattr(embedding_config, "embedding_endpoint", "") or "")
        if venice.same_origin(url, getattr(provider, "base_url", None)):
            enc = getattr(provider, "api_key_enc", None)
            key = await enc.get_plaintext_async() if enc is not None else None
            return key or NO_KEY
        return NO_KEY

    def handle_llm_error(self, e: Exception, llm_config: Any = None, *args: Any, **kwargs: Any) -> Exception:
        if isinstance(e, LettaError):
            # Already a Letta error (raised by this client): keep it, so that a context
            # overflow still makes Letta summarize and retry.
            return e
        if llm_config is not None and speaks_venice(llm_config):  # Venice's native models' errors too
            mapped = map_error(e, handle_of(llm_config))
            if mapped is not None:
                return mapped
        if _HANDLE_TAKES_CONFIG:
            return super().handle_llm_error(e, llm_config, *args, **kwargs)
        return super().handle_llm_error(e, *args, **kwargs)  # letta < 0.16.5 passes no llm_config


VeniceEmulatedClient = EmulatedToolsClient  # the name the README also gives it


NO_KEY = "no-key"  # the SDK wants a string; no real key goes where it does not belong


def letta_error(exc: Exception, llm_config: Any) -> Exception:
    """An emulated request's failure as the Letta error that says what to do (it is mapped here,
    where the model is known: letta < 0.16.5 calls handle_llm_error without llm_config)."""
    if isinstance(exc, LettaError):
        return exc
    return map_error(exc, handle_of(llm_config)) or exc


def _with_key(kwargs: dict[str, Any], llm_config: Any) -> dict[str, Any]:
    """The OpenAI SDK options for a request: the right key for its host."""
    kwargs["api_key"] = key_for(
        kwargs.get("api_key"),
        str(kwargs.get("base_url") or getattr(llm_config, "model_endpoint", "") or ""),
        getattr(llm_config, "provider_name", None),
        _category(llm_config),
    )
    return kwargs


def key_for(letta_key: str | None, url: str, provider: str | None, category: str) -> str | None:
    """Keys follow hosts, not names: VENICE_API_KEY goes to VENICE_BASE_URL's host and nowhere
    else. Letta gives the venice base provider OPENAI_API_KEY (base providers all use it); that
    key is not its own, so it gets Venice's key at Venice's host and none anywhere else. BYOK
    providers and other base providers keep the key Letta chose for them."""
    if provider == venice.PROVIDER_NAME and category != "byok":
        return (venice.api_key() or NO_KEY) if venice.is_key_host(url) else NO_KEY
    return letta_key


def _provider_of(embedding_config: Any) -> str:
    handle = getattr(embedding_config, "handle", None) or ""
    return handle.split("/", 1)[0] if "/" in handle else ""


def _category(config: Any) -> str:
    category = getattr(config, "provider_category", None)
    return str(getattr(category, "value", category or ""))


def _announce(llm_config: Any, decision: Decision) -> None:
    key = (handle_of(llm_config), decision.reason)
    if decision.emulate and key not in _ANNOUNCED:
        _ANNOUNCED.add(key)
        log.info(
            "letta_tool_emulation: emulating tool calls for %s (%s) [pid %d]", key[0], decision.reason, os.getpid()
        )


def parallel_tool_calls(llm_config: Any) -> bool:
    """Whether Letta runs several calls of one reply at once: the agent's setting. Letta writes an
    agent's model settings into LLMConfig.parallel_tool_calls and deprecates reading that
    attribute (it warns on every read), so its stored value is read instead. The request Letta
    builds is no guide: letta before 0.16.8 always says false there, and its agent loop changes
    that after the request is built."""
    stored = getattr(llm_config, "__dict__", {})
    if "parallel_tool_calls" in stored:
        return bool(stored["parallel_tool_calls"])
    return bool(getattr(llm_config, "parallel_tool_calls", False))  # not letta's model (a test's stand-in)


# What Letta's agent loops removed from emulated agents' history before each step (the text next
# to a call), by message id; see patches.watch_scrubs. Bounded: the oldest are forgotten first
# (a forgotten one only means that the model no longer sees words it wrote long ago).
_SCRUBBED: OrderedDict[str, str] = OrderedDict()
_SCRUBBED_MAX = 20_000
_scrubbed_lock = threading.Lock()


def remember_scrubbed(messages: Any, llm_config: Any) -> None:
    """Keep the text that Letta is about to remove from the assistant messages with tool calls."""
    if not decide(llm_config).emulate:
        return
    for m in messages or ():
        calls, content = getattr(m, "tool_calls", None), getattr(m, "content", None)
        if not calls or not content or getattr(m, "role", None) != "assistant":
            continue
        texts = [c.text.strip() for c in content if isinstance(c, TextContent) and (c.text or "").strip()]
        if texts:
            with _scrubbed_lock:
                _SCRUBBED[str(m.id)] = "\n\n".join(texts)
                _SCRUBBED.move_to_end(str(m.id))
                while len(_SCRUBBED) > _SCRUBBED_MAX:
                    _SCRUBBED.popitem(last=False)


# Feedback left by a turn that ended without a call, by agent and conversation, for the next turn.
_CARRIED: OrderedDict[str, str] = OrderedDict()
_CARRIED_MAX = 10_000
_carried_lock = threading.Lock()


def _thread_of(messages: list[Any]) -> str:
    """Whose conversation a request continues: the agent of its messages, and the conversation
    of the latest one that names one (the system message names none)."""
    agents = [a for m in messages if isinstance(a := getattr(m, "agent_id", None), str) and a]
    conversations = [c for m in messages if isinstance(c := getattr(m, "conversation_id", None), str) and c]
    return f"{agents[0]}/{conversations[-1] if conversations else ''}" if agents else ""


def _carry(thread: str, feedback: str) -> None:
    if not thread:
        return
    with _carried_lock:
        _CARRIED[thread] = feedback
        _CARRIED.move_to_end(thread)
        while len(_CARRIED) > _CARRIED_MAX:
            _CARRIED.popitem(last=False)


def _take_carried(thread: str) -> str:
    if not thread:
        return ""
    with _carried_lock:
        return _CARRIED.pop(thread, "")


def _prose(messages: list[Any]) -> dict[str, str]:
    """The text each earlier call came with, by call id: its reasoning, and its text, which Letta
    keeps on the stored message but leaves out of the request (it scrubs text next to tool
    calls, see :func:`remember_scrubbed`, and sends reasoning only for multi-part messages)."""
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
        with _scrubbed_lock:
            scrubbed = _SCRUBBED.get(str(getattr(m, "id", "")))
        if scrubbed and scrubbed not in parts:
            parts.append(scrubbed)
        if parts:
            prose[str(calls[0].id)[:TOOL_CALL_ID_LEN]] = "\n\n".join(parts)
    return prose
