"""Venice models in Letta's model picker.

Letta's ``OpenAIProvider`` ignores the context windows and capabilities an endpoint reports
(everything unknown becomes 30000 tokens and ``openai-proxy/<id>``). When an endpoint
answers ``/models`` in Venice's shape, these functions list its models instead: handles
``<provider>/<id>``, context windows from ``availableContextTokens``, output limits from
``maxCompletionTokens``, embedding models as embedding handles; and they fill the capability
cache that decides emulation per request. The same code serves the ``venice`` base provider
(``VENICE_API_KEY``) and BYOK providers created with Venice's base URL.
"""

from __future__ import annotations

import logging
import os
from typing import Any
from urllib.parse import urlsplit

from .. import endpoints, venice
from .letta_api import DEFAULT_EMBEDDING_CHUNK_SIZE, EmbeddingConfig, LLMConfig

log = logging.getLogger("letta_tool_emulation")

DEFAULT_CONTEXT_WINDOW = 32768  # for a Venice-shaped model that states none
EMBEDDING_BATCH_SIZE = 64


async def _key(provider: Any) -> str | None:
    """The provider's own key; for the venice base provider VENICE_API_KEY, and only at
    VENICE_BASE_URL's host (a stored provider can still point at an older URL)."""
    category = getattr(provider, "provider_category", None)
    if getattr(provider, "name", None) == venice.PROVIDER_NAME and str(getattr(category, "value", category)) != "byok":
        return venice.api_key() if venice.is_key_host(provider.base_url) else None
    enc = getattr(provider, "api_key_enc", None)
    key = await enc.get_plaintext_async() if enc is not None else None
    return key or None


def llm_configs(provider: Any, models: list[venice.ModelInfo]) -> list[LLMConfig]:
    configs = []
    for m in models:
        if m.type != "text":
            continue
        configs.append(
            LLMConfig(
                model=m.id,
                model_endpoint_type="openai",  # Letta's streaming and summarizer paths need this
                model_endpoint=provider.base_url,
                context_window=m.context_window or DEFAULT_CONTEXT_WINDOW,
                handle=provider.get_handle(m.id),
                max_tokens=m.max_completion_tokens,
                provider_name=provider.name,
                provider_category=provider.provider_category,
            )
        )
    return configs


async def list_embedding_models(provider: Any) -> list[EmbeddingConfig] | None:
    """Venice's embedding models, or None when the endpoint is not Venice-shaped."""
    url = provider.base_url
    if venice.CAPABILITIES.shape(url) is False:
        return None
    models = await venice.fetch_models_async(url, await _key(provider), kind="embedding")
    if models is None:
        return None
    venice.CAPABILITIES.store(url, models)
    return [
        EmbeddingConfig(
            embedding_model=m.id,
            embedding_endpoint_type="openai",
            embedding_endpoint=url,
            embedding_dim=m.embedding_dim or venice.DEFAULT_EMBEDDING_DIM,
            embedding_chunk_size=DEFAULT_EMBEDDING_CHUNK_SIZE,
            handle=provider.get_handle(m.id, is_embedding=True),
            batch_size=EMBEDDING_BATCH_SIZE,
        )
        for m in models
        if m.type == "embedding"
    ]


def max_output_tokens(provider: Any, model: str) -> int | None:
    info = venice.CAPABILITIES.get(getattr(provider, "base_url", "") or "", model)
    return info.max_completion_tokens if info is not None else None


def venice_provider(provider_class: type, secret_class: type[Any]) -> Any | None:
    """The ``venice`` base provider, when VENICE_API_KEY is set."""
    key = venice.api_key()
    if not key:
        return None
    return provider_class(
        name=venice.PROVIDER_NAME, api_key_enc=secret_class.from_plaintext(key), base_url=venice.base_url()
    )


# -- local servers -------------------------------------------------------------------------------

# Hosted APIs that say nothing about context windows in a way the probe reads, and that should
# not be sent probes for local servers' endpoints.
_HOSTED = ("api.openai.com", "openrouter.ai", "venice.ai", "api.together.xyz", "api.groq.com", "api.deepseek.com")
_override_errors_logged = False


def _hosted(url: str) -> bool:
    host = (urlsplit(url).hostname or "").lower()
    return any(host == h or host.endswith("." + h) for h in _HOSTED)


def _overrides() -> list[endpoints.ContextOverride]:
    global _override_errors_logged
    rules, errors = endpoints.parse_context_overrides(os.environ.get(endpoints.CONTEXT_ENV))
    if errors and not _override_errors_logged:
        _override_errors_logged = True
        log.warning("letta_tool_emulation: %s: %s", endpoints.CONTEXT_ENV, "; ".join(errors))
    return rules


async def probe(provider: Any, url: str) -> endpoints.ServerInfo | None:
    """What the server at ``url`` says about its models (remembered for deciding requests)."""
    if _hosted(url):
        return None
    info = await endpoints.probe_server(url, api_key=await _key(provider))
    endpoints.KNOWN.store(info)
    if info.kind is not None:
        log.info(
            "letta_tool_emulation: %s is %s%s", url, info.kind, f" ({'; '.join(info.notes)})" if info.notes else ""
        )
    return info


def byok_handles(provider: Any, configs: list[Any]) -> list[Any]:
    """A BYOK provider's models under its own name. Letta names every model of an OpenAI-type
    provider at a non-OpenAI URL ``openai-proxy/<model>``, so two local servers added as BYOK
    providers would list the same handles, and one would hide the other."""
    category = getattr(provider, "provider_category", None)
    if str(getattr(category, "value", category)) != "byok":
        return configs
    for config in configs:
        if (config.handle or "").startswith("openai-proxy/"):
            config.handle = provider.get_handle(config.model)
    return configs


def apply_limits(configs: list[Any], info: endpoints.ServerInfo | None) -> list[Any]:
    """Each model's real context window (and output limit) where the server states it, else
    LETTA_TOOL_EMULATION_CONTEXT's; Letta's own guess (30,000) only where neither says."""
    rules = _overrides()
    for config in configs:
        limits = info.limits(config.model) if info is not None else None
        context = (limits.context_window if limits else None) or endpoints.context_override(config.handle or "", rules)
        if context:
            config.context_window = context
        if limits is not None and limits.max_output_tokens:
            config.max_tokens = limits.max_output_tokens
    return configs


async def ollama_models(provider: Any, listed: list[Any]) -> list[Any]:
    """Letta's Ollama provider lists only models whose capabilities include "tools": exactly
    the models this plugin is for. The others join the list, to be emulated."""
    info = await probe(provider, provider.openai_compat_base_url)
    configs = list(listed)
    known = {c.model for c in configs}
    for model, limits in info.models.items() if info is not None else ():
        if model in known or "completion" not in limits.capabilities:  # embedding-only models stay out
            continue
        configs.append(
            LLMConfig(
                model=model,
                model_endpoint_type="openai",
                model_endpoint=provider.openai_compat_base_url,
                context_window=limits.context_window or limits.trained_context or DEFAULT_CONTEXT_WINDOW,
                handle=provider.get_handle(model),
                max_tokens=limits.max_output_tokens,
                provider_name=provider.name,
                provider_category=provider.provider_category,
            )
        )
    return apply_limits(configs, info)
