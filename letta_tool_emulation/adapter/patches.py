"""Installing the plugin into letta: one small, idempotent patch per letta module.

Each patch checks that the module still has the shape it expects before touching it. If
letta changed, one warning is logged and letta is left as it is.
"""

from __future__ import annotations

import functools
import importlib
import logging
import os
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

log = logging.getLogger("letta_tool_emulation")

DISABLE_ENV = "LETTA_TOOL_EMULATION_DISABLE"
_APPLIED = "__letta_tool_emulation__"  # set on every function this module installs
_state = {"failed": False, "warned": False}


def disabled() -> bool:
    return os.environ.get(DISABLE_ENV, "").strip().lower() in ("1", "true", "yes")


class ShapeError(Exception):
    """letta is not shaped the way this plugin expects."""


def _warn(what: str, exc: BaseException) -> None:
    _state["failed"] = True
    if _state["warned"]:
        return
    _state["warned"] = True
    version = getattr(sys.modules.get("letta"), "__version__", "unknown")
    log.warning(
        "letta_tool_emulation is NOT active: %s (%s). It supports letta 0.16.x; this is letta %s. "
        "Letta runs unchanged; models without function calling will only chat.",
        what,
        exc,
        version,
    )


def _need(obj: Any, *names: str) -> None:
    for name in names:
        if not hasattr(obj, name):
            raise ShapeError(f"{getattr(obj, '__name__', obj)} has no {name}")


def _mark(fn: Callable[..., Any]) -> Callable[..., Any]:
    setattr(fn, _APPLIED, True)
    return fn


def _is_patched(fn: Any) -> bool:
    return getattr(getattr(fn, "__func__", fn), _APPLIED, False)


# -- the patches, one per letta module ------------------------------------------------------


def patch_llm_client(module: ModuleType) -> None:
    """LLMClient.create returns our client wherever letta would return a plain OpenAIClient."""
    cls = module.LLMClient
    raw = cls.__dict__.get("create")
    if not isinstance(raw, staticmethod):
        raise ShapeError("LLMClient.create is not a staticmethod")
    if _is_patched(raw):
        return
    original = raw.__func__

    @functools.wraps(original)
    def create(*args: Any, **kwargs: Any) -> Any:
        client = original(*args, **kwargs)
        from letta.llm_api.openai_client import OpenAIClient

        if type(client) is OpenAIClient:
            from .client import EmulatedToolsClient

            return EmulatedToolsClient.adopt(client)
        return client

    cls.create = staticmethod(_mark(create))


def patch_openai_provider(module: ModuleType) -> None:
    """Venice-shaped endpoints list their models with real context windows and limits."""
    cls = module.OpenAIProvider
    _need(cls, "list_llm_models_async", "list_embedding_models_async", "_get_models_async", "_list_llm_models")
    _need(cls, "get_default_max_output_tokens", "get_default_max_output_tokens_async")
    if _is_patched(cls.list_llm_models_async):
        return
    list_llm, list_embedding = cls.list_llm_models_async, cls.list_embedding_models_async
    max_out, max_out_async = cls.get_default_max_output_tokens, cls.get_default_max_output_tokens_async

    @functools.wraps(list_llm)
    async def list_llm_models_async(self: Any) -> Any:
        from .. import venice
        from .providers import llm_configs

        data = await self._get_models_async()
        models = venice.parse_models(data)
        venice.CAPABILITIES.store(self.base_url, models)
        if models is None:
            return await self._list_llm_models(data)  # exactly what letta does
        return llm_configs(self, models)

    @functools.wraps(list_embedding)
    async def list_embedding_models_async(self: Any) -> Any:
        from .providers import list_embedding_models

        configs = await list_embedding_models(self)
        return configs if configs is not None else await list_embedding(self)

    @functools.wraps(max_out)
    def get_default_max_output_tokens(self: Any, model_name: str) -> int:
        from .providers import max_output_tokens

        return max_output_tokens(self, model_name) or max_out(self, model_name)

    @functools.wraps(max_out_async)
    async def get_default_max_output_tokens_async(self: Any, model_name: str) -> int:
        from .providers import max_output_tokens

        return max_output_tokens(self, model_name) or await max_out_async(self, model_name)

    cls.list_llm_models_async = _mark(list_llm_models_async)
    cls.list_embedding_models_async = _mark(list_embedding_models_async)
    cls.get_default_max_output_tokens = _mark(get_default_max_output_tokens)
    cls.get_default_max_output_tokens_async = _mark(get_default_max_output_tokens_async)


def patch_sync_server(module: ModuleType) -> None:
    """The ``venice`` base provider joins the server's providers when VENICE_API_KEY is set."""
    cls = module.SyncServer
    _need(cls, "__init__")
    if _is_patched(cls.__init__):
        return
    original = cls.__init__

    @functools.wraps(original)
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        try:
            from letta.schemas.providers import OpenAIProvider
            from letta.schemas.secret import Secret

            from .providers import venice_provider

            providers = self._enabled_providers
            provider = venice_provider(OpenAIProvider, Secret)
            if provider is not None and all(p.name != provider.name for p in providers):
                providers.append(provider)
                log.info("letta_tool_emulation: added the venice provider (%s)", provider.base_url)
        except Exception as exc:  # noqa: BLE001 - the server must start even if this fails
            log.warning("letta_tool_emulation: could not add the venice provider: %s", exc)

    cls.__init__ = _mark(__init__)


def patch_provider_manager(module: ModuleType) -> None:
    """A changed VENICE_BASE_URL reaches the stored venice provider (letta never updates a
    stored base provider, and agents are created with its stored URL)."""
    cls = module.ProviderManager
    _need(cls, "sync_base_providers", "list_providers_async", "update_provider_async")
    if _is_patched(cls.sync_base_providers):
        return
    original = cls.sync_base_providers

    @functools.wraps(original)
    async def sync_base_providers(self: Any, base_providers: Any, actor: Any, *args: Any, **kwargs: Any) -> Any:
        result = await original(self, base_providers, actor, *args, **kwargs)
        try:
            from letta.schemas.providers import ProviderUpdate

            from .. import venice

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

    cls.sync_base_providers = _mark(sync_base_providers)


PATCHES: dict[str, Callable[[ModuleType], None]] = {
    "letta.llm_api.llm_client": patch_llm_client,
    "letta.schemas.providers.openai": patch_openai_provider,
    "letta.server.server": patch_sync_server,
    "letta.services.provider_manager": patch_provider_manager,
}


def apply(module_name: str, module: ModuleType | None = None) -> bool:
    """Apply the patch for one letta module (called by the import hook when it loads)."""
    if disabled() or _state["failed"]:
        return False
    patch = PATCHES.get(module_name)
    if patch is None:
        return False
    try:
        patch(module if module is not None else importlib.import_module(module_name))
    except Exception as exc:  # noqa: BLE001 - never break letta's import
        _warn(f"{module_name} is not what it expects", exc)
        return False
    return True


def activate() -> bool:
    """Install the plugin into this process's letta. Idempotent; returns whether it is active.

    Normally the ``.pth`` hook does this as letta is imported; calling it by hand is only
    needed where site hooks do not run (``python -S``, some embedded interpreters).
    """
    if disabled():
        log.info("letta_tool_emulation: disabled by %s", DISABLE_ENV)
        return False
    return all(apply(name) for name in PATCHES) and not _state["failed"]


def active() -> bool:
    """Whether the plugin is installed in this process's letta."""
    mod = sys.modules.get("letta.llm_api.llm_client")
    return mod is not None and _is_patched(mod.LLMClient.__dict__.get("create"))
