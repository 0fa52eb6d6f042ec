"""Installing the plugin into letta: all of it, or nothing.

:func:`activate` first proves that the installed letta has everything the plugin will use
(``letta_api.problems()``: names, signatures of the methods it overrides or wraps, model
fields) and imports every plugin module the patches reach. Only then does it apply the
patches, one small function per letta module in :data:`PATCHES`; if any of them fails, the
ones already applied are rolled back. Either way the log says what is live: the plugin
entirely, or nothing, with the reasons in one warning.

The start-up hook (``_hook.py``; it shares only ``_targets.py`` with this module) cannot
activate while letta is still being imported (the check needs all of letta). As each target
module finishes loading it only puts a trigger on the module's entry point (:data:`ENTRY_POINTS`): the first call through a trigger
activates the plugin, and then runs whatever is installed by then, the patched function or
letta's own.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import logging
import sys
import threading
from collections.abc import Callable
from types import ModuleType
from typing import Any

from .._targets import DISABLE_ENV, TARGETS, disabled

log = logging.getLogger("letta_tool_emulation")

SUPPORTED = "letta 0.16.1 to 0.16.8"
_APPLIED = "__letta_tool_emulation__"  # set on every function this module installs
_TRIGGER = "__letta_tool_emulation_trigger__"

_lock = threading.RLock()
_state: dict[str, Any] = {"active": False, "refused": None}
# (owner, attribute, what letta had there): how to undo every installed function.
_undo: list[tuple[Any, str, Any]] = []

__all__ = ["DISABLE_ENV", "activate", "active", "deactivate", "disabled", "on_import"]


def _mark(fn: Callable[..., Any]) -> Callable[..., Any]:
    setattr(fn, _APPLIED, True)
    return fn


_INHERITED = object()  # the class had no attribute of its own there (it came from a base class)


def _raw(owner: Any, name: str) -> Any:
    return owner.__dict__.get(name)


def _is_ours(raw: Any) -> bool:
    fn = getattr(raw, "__func__", raw)
    return bool(getattr(fn, _APPLIED, False) or getattr(fn, _TRIGGER, False))


def _own(owner: Any, name: str) -> Any:
    """What letta itself put in ``owner.__dict__[name]`` (under any trigger of ours), or
    _INHERITED."""
    raw = owner.__dict__.get(name, _INHERITED)
    fn = getattr(raw, "__func__", raw)
    return getattr(fn, _TRIGGER + "original", raw) if getattr(fn, _TRIGGER, False) else raw


def _original(owner: Any, name: str) -> Any:
    """Letta's own ``owner.name`` as a patch wraps it: the function or staticmethod."""
    raw = _own(owner, name)
    return getattr(owner, name) if raw is _INHERITED else raw


def _install(owner: Any, name: str, new: Any) -> None:
    """Put ``new`` at ``owner.name``, remembering letta's own for :func:`deactivate`."""
    if not any(o is owner and n == name for o, n, _ in _undo):
        _undo.append((owner, name, _own(owner, name)))
    setattr(owner, name, new)


# -- the patches, one per letta module --------------------------------------------------------


def patch_llm_client(module: ModuleType) -> None:
    """LLMClient.create returns our client wherever letta would return a plain OpenAIClient."""
    from .client import EmulatedToolsClient
    from .letta_api import OpenAIClient

    cls = module.LLMClient
    original = _original(cls, "create").__func__

    @functools.wraps(original)
    def create(*args: Any, **kwargs: Any) -> Any:
        client = original(*args, **kwargs)
        watch_scrubs()
        if type(client) is OpenAIClient:
            return EmulatedToolsClient.adopt(client)
        return client

    _install(cls, "create", staticmethod(_mark(create)))


def watch_scrubs() -> None:
    """Letta's agent loops remove the text next to tool calls from the history before each step
    (``scrub_inner_thoughts_from_messages``), before the client sees it; the client keeps what
    they remove from an emulated agent's history (``client.remember_scrubbed``), to show the
    model its own words again. Letta's behaviour is unchanged. Installed in each agent module
    the first time an agent loop there creates its LLM client: those modules are loaded by then."""
    from .client import remember_scrubbed
    from .letta_api import SCRUB_FUNCTION, SCRUBBING_MODULES

    for name in SCRUBBING_MODULES:
        module = sys.modules.get(name)
        scrub = getattr(module, SCRUB_FUNCTION, None) if module is not None else None
        if not callable(scrub) or _is_ours(scrub):
            continue
        with _lock:
            if _is_ours(getattr(module, SCRUB_FUNCTION)):
                continue

            @functools.wraps(scrub)
            def watched(messages: Any, llm_config: Any, *args: Any, _letta: Any = scrub, **kwargs: Any) -> Any:
                remember_scrubbed(messages, llm_config)
                return _letta(messages, llm_config, *args, **kwargs)

            _install(module, SCRUB_FUNCTION, _mark(watched))


def patch_openai_provider(module: ModuleType) -> None:
    """Venice-shaped endpoints list their models with real context windows and limits."""
    from .. import venice
    from .letta_api import has_method
    from .providers import apply_limits, byok_handles, list_embedding_models, llm_configs, max_output_tokens, probe

    cls = module.OpenAIProvider
    list_embedding = _original(cls, "list_embedding_models_async")
    max_out = _original(cls, "get_default_max_output_tokens")

    @functools.wraps(_original(cls, "list_llm_models_async"))
    async def list_llm_models_async(self: Any) -> Any:
        data = await self._get_models_async()
        models = venice.parse_models(data)
        venice.CAPABILITIES.store(self.base_url, models)
        if models is None:  # what letta lists, with the real context windows of a local server
            listed = self._list_llm_models(data)
            if inspect.isawaitable(listed):  # async from letta 0.16.2 on
                listed = await listed
            return apply_limits(byok_handles(self, listed), await probe(self, self.base_url))
        return llm_configs(self, models)

    @functools.wraps(list_embedding)
    async def list_embedding_models_async(self: Any) -> Any:
        configs = await list_embedding_models(self)
        return configs if configs is not None else await list_embedding(self)

    @functools.wraps(max_out)
    def get_default_max_output_tokens(self: Any, model_name: str) -> int:
        return max_output_tokens(self, model_name) or max_out(self, model_name)

    _install(cls, "list_llm_models_async", _mark(list_llm_models_async))
    _install(cls, "list_embedding_models_async", _mark(list_embedding_models_async))
    _install(cls, "get_default_max_output_tokens", _mark(get_default_max_output_tokens))
    if has_method(cls, "get_default_max_output_tokens_async"):  # letta 0.16.2 and later
        max_out_async = _original(cls, "get_default_max_output_tokens_async")

        @functools.wraps(max_out_async)
        async def get_default_max_output_tokens_async(self: Any, model_name: str) -> int:
            return max_output_tokens(self, model_name) or await max_out_async(self, model_name)

        _install(cls, "get_default_max_output_tokens_async", _mark(get_default_max_output_tokens_async))


def patch_sync_server(module: ModuleType) -> None:
    """The ``venice`` base provider joins the server's providers when VENICE_API_KEY is set."""
    from .. import venice
    from .letta_api import OpenAIProvider, Secret
    from .providers import venice_provider

    cls = module.SyncServer
    original = _original(cls, "__init__")

    @functools.wraps(original)
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        try:
            providers = self._enabled_providers
            provider = venice_provider(OpenAIProvider, Secret)
            if provider is not None and all(p.name != provider.name for p in providers):
                providers.append(provider)
                log.info("letta_tool_emulation: added the venice provider (%s)", provider.base_url)
            if provider is not None:  # this worker's capability data, without waiting for it
                venice.CAPABILITIES.refresh_in_background(provider.base_url, venice.api_key())
        except Exception as exc:  # noqa: BLE001 - the server must start even if this fails
            log.warning("letta_tool_emulation: could not add the venice provider: %s", exc)

    _install(cls, "__init__", _mark(__init__))


def patch_provider_manager(module: ModuleType) -> None:
    """A changed VENICE_BASE_URL reaches the stored venice provider (letta never updates a
    stored base provider, and agents are created with its stored URL)."""
    from .. import venice
    from .letta_api import ProviderUpdate

    cls = module.ProviderManager
    original = _original(cls, "sync_base_providers")

    @functools.wraps(original)
    async def sync_base_providers(self: Any, base_providers: Any, actor: Any, *args: Any, **kwargs: Any) -> Any:
        result = await original(self, base_providers, actor, *args, **kwargs)
        try:
            wanted = next((p for p in base_providers if p.name == venice.PROVIDER_NAME), None)
            if wanted is not None:
                for stored in await self.list_providers_async(actor=actor, name=venice.PROVIDER_NAME):
                    if stored.organization_id is None and stored.base_url != wanted.base_url:
                        await self.update_provider_async(
                            stored.id, ProviderUpdate(api_key="", base_url=wanted.base_url), actor
                        )
                        log.info("letta_tool_emulation: venice provider now at %s", wanted.base_url)
        except Exception as exc:  # noqa: BLE001
            log.warning("letta_tool_emulation: could not update the venice provider's URL: %s", exc)
        return result

    _install(cls, "sync_base_providers", _mark(sync_base_providers))


def patch_ollama_provider(module: ModuleType) -> None:
    """Ollama's models without the "tools" capability are listed too (Letta hides them), with
    the context window each is loaded with."""
    from .providers import ollama_models

    cls = module.OllamaProvider
    original = _original(cls, "list_llm_models_async")

    @functools.wraps(original)
    async def list_llm_models_async(self: Any) -> Any:
        return await ollama_models(self, await original(self))

    _install(cls, "list_llm_models_async", _mark(list_llm_models_async))


PATCHES: dict[str, Callable[[ModuleType], None]] = {
    "letta.llm_api.llm_client": patch_llm_client,
    "letta.schemas.providers.openai": patch_openai_provider,
    "letta.schemas.providers.ollama": patch_ollama_provider,
    "letta.server.server": patch_sync_server,
    "letta.services.provider_manager": patch_provider_manager,
}
# Where each target module is first entered: the first call there activates the plugin.
ENTRY_POINTS: dict[str, tuple[str, str]] = {
    "letta.llm_api.llm_client": ("LLMClient", "create"),
    "letta.schemas.providers.openai": ("OpenAIProvider", "list_llm_models_async"),
    "letta.schemas.providers.ollama": ("OllamaProvider", "list_llm_models_async"),
    "letta.server.server": ("SyncServer", "__init__"),
    "letta.services.provider_manager": ("ProviderManager", "sync_base_providers"),
}
# Every plugin module a patch or a request can reach: imported before anything is patched.
PLUGIN_MODULES = (
    "letta_tool_emulation.adapter.letta_api",
    "letta_tool_emulation.adapter.errors",
    "letta_tool_emulation.adapter.providers",
    "letta_tool_emulation.adapter.drivers",
    "letta_tool_emulation.adapter.client",
    "letta_tool_emulation.engine",
    "letta_tool_emulation.transport",
    "letta_tool_emulation.endpoints",
    "letta_tool_emulation.e2ee.transport",
)
assert tuple(PATCHES) == TARGETS == tuple(ENTRY_POINTS), "one list of target modules"


# -- activation ---------------------------------------------------------------------------------


def activate() -> bool:
    """Install the plugin into this process's letta, entirely or not at all. Idempotent;
    returns whether it is active. Normally the start-up hook sees to it; calling it by hand
    is only needed where site hooks do not run (``python -S``, some embedded interpreters)."""
    if disabled():
        log.info("letta_tool_emulation: disabled by %s", DISABLE_ENV)
        _remove_triggers()
        return False
    with _lock:
        if _state["active"]:
            return True
        if _state["refused"] is not None:
            return False
        problems = _preflight()
        if problems:
            _refuse(problems)
            return False
        applied: list[str] = []
        for name, patch in PATCHES.items():
            try:
                patch(importlib.import_module(name))
            except Exception as exc:  # noqa: BLE001 - never break letta
                _rollback()
                _refuse(
                    [f"patching {name} failed ({type(exc).__name__}: {exc}); applied before it: {applied or 'none'}"]
                )
                return False
            applied.append(name)
        _state["active"] = True
        from .letta_api import fallbacks

        used = fallbacks()
        log.info(
            "letta_tool_emulation: active on letta %s (%s)%s",
            _letta_version(),
            ", ".join(applied),
            f"; older letta, using fallbacks for {', '.join(used)}" if used else "",
        )
        return True


def _preflight() -> list[str]:
    problems: list[str] = []
    for name in TARGETS:
        try:
            importlib.import_module(name)
        except Exception as exc:  # noqa: BLE001
            problems.append(f"cannot import {name} ({type(exc).__name__}: {exc})")
    if problems:
        return problems
    from . import letta_api

    problems = letta_api.problems()
    if problems:
        return problems
    for name in PLUGIN_MODULES:
        try:
            importlib.import_module(name)
        except Exception as exc:  # noqa: BLE001
            problems.append(f"cannot import {name} ({type(exc).__name__}: {exc})")
    return problems


def _refuse(problems: list[str]) -> None:
    _state["refused"] = problems
    _remove_triggers()
    log.warning(
        "letta_tool_emulation is NOT active, and letta runs unchanged (models without function calling will only "
        "chat): this is letta %s; the plugin supports %s. Missing or changed: %s. If your letta is in that range, "
        "please report this message.",
        _letta_version(),
        SUPPORTED,
        "; ".join(problems),
    )


def _rollback() -> None:
    while _undo:
        owner, name, original = _undo.pop()
        if original is _INHERITED:
            delattr(owner, name)
        else:
            setattr(owner, name, original)


def _letta_version() -> str:
    try:
        from importlib.metadata import version

        return version("letta")
    except Exception:  # noqa: BLE001
        return str(getattr(sys.modules.get("letta"), "__version__", "unknown"))


def deactivate() -> None:
    """Put back everything letta had before (for tests, and after a failed activation)."""
    with _lock:
        _rollback()
        _remove_triggers()
        _state.update(active=False, refused=None)


def active() -> bool:
    """Whether the plugin is installed in this process's letta."""
    mod = sys.modules.get("letta.llm_api.llm_client")
    return bool(_state["active"]) and mod is not None and _is_ours(_raw(mod.LLMClient, "create"))


# -- triggers ------------------------------------------------------------------------------------


def on_import(name: str, module: ModuleType) -> None:
    """Called by the start-up hook as each target module finishes loading."""
    if disabled() or _state["active"] or _state["refused"] is not None or name not in ENTRY_POINTS:
        if _state["active"] and name in PATCHES:  # imported again after a reload: patch it too
            PATCHES[name](module)
        return
    owner_name, attr = ENTRY_POINTS[name]
    owner = getattr(module, owner_name, None)
    raw = _raw(owner, attr) if owner is not None else None
    if raw is None or _is_ours(raw):
        return  # nothing to put a trigger on: activation will find out why
    is_static = isinstance(raw, staticmethod)
    fn = raw.__func__ if is_static else raw

    @functools.wraps(fn)
    def trigger(*args: Any, **kwargs: Any) -> Any:
        activate()
        current = _raw(owner, attr)
        target = current.__func__ if isinstance(current, staticmethod) else current
        if target is trigger:  # activation did not replace it (it never leaves a trigger behind)
            target = fn
        return target(*args, **kwargs)

    setattr(trigger, _TRIGGER, True)
    setattr(trigger, _TRIGGER + "original", raw)
    setattr(owner, attr, staticmethod(trigger) if is_static else trigger)


def _remove_triggers() -> None:
    for name, (owner_name, attr) in ENTRY_POINTS.items():
        module = sys.modules.get(name)
        owner = getattr(module, owner_name, None) if module is not None else None
        raw = _raw(owner, attr) if owner is not None else None
        fn = getattr(raw, "__func__", raw)
        if getattr(fn, _TRIGGER, False):
            setattr(owner, attr, getattr(fn, _TRIGGER + "original"))
