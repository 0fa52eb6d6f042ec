"""Every letta name the plugin uses, in one place, and the check activation runs on them.

The rest of the adapter imports letta only through this module (a test holds it to that),
so what activation checks is exactly what the plugin can reach at request time. Importing
this module never fails: a name the installed letta lacks is recorded, and
:func:`problems` lists it with every other missing name, wrong signature or missing field.
Names with a ``fallback`` are optional: older letta versions lack them, and the plugin uses
the fallback there (each one small and tested).
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from typing import Any

_REGISTRY: dict[str, tuple[str, str, Callable[[], Any] | None]] = {}


class _Absent:
    """Stands for a name the installed letta lacks (activation refuses before any use)."""

    def __init__(self, where: str) -> None:
        self.where = where

    def __repr__(self) -> str:
        return f"<missing {self.where}>"


def _resolve(module: str, name: str) -> tuple[Any, str | None]:
    """(the object, None) or (None, what is missing), looked up afresh."""
    where = f"{module}.{name}"
    try:
        mod = importlib.import_module(module)
    except ImportError as exc:
        return None, f"{where} (cannot import {module}: {exc})"
    value = getattr(mod, name, None)
    return (value, None) if value is not None else (None, where)


def _get(module: str, name: str, fallback: Callable[[], Any] | None = None) -> Any:
    _REGISTRY[name] = (module, name, fallback)
    value, missing = _resolve(module, name)
    if missing is None:
        return value
    return fallback() if fallback is not None else _Absent(missing)


def _current(name: str) -> Any:
    """The object behind a registered name as the installed letta has it now."""
    module, attr, fallback = _REGISTRY[name]
    value, missing = _resolve(module, attr)
    if missing is None:
        return value
    return fallback() if fallback is not None else _Absent(missing)


# -- the names ------------------------------------------------------------------------------

LettaError = _get("letta.errors", "LettaError")
ErrorCode = _get("letta.errors", "ErrorCode")
ContextWindowExceededError = _get("letta.errors", "ContextWindowExceededError")
LLMAuthenticationError = _get("letta.errors", "LLMAuthenticationError")
LLMBadRequestError = _get("letta.errors", "LLMBadRequestError")
LLMConnectionError = _get("letta.errors", "LLMConnectionError")
LLMNotFoundError = _get("letta.errors", "LLMNotFoundError")
LLMPermissionDeniedError = _get("letta.errors", "LLMPermissionDeniedError")
LLMRateLimitError = _get("letta.errors", "LLMRateLimitError")
LLMServerError = _get("letta.errors", "LLMServerError")
LLMTimeoutError = _get("letta.errors", "LLMTimeoutError")
# letta < 0.16.5 has no class of its own for a 402: a bad request says the same to the user.
LLMInsufficientCreditsError = _get("letta.errors", "LLMInsufficientCreditsError", lambda: LLMBadRequestError)

DEFAULT_EMBEDDING_CHUNK_SIZE = _get("letta.constants", "DEFAULT_EMBEDDING_CHUNK_SIZE")
# Which of Letta's own tools its agent loop runs concurrently, ahead of the others, when one
# step has several calls; and all of its own tools (the rest run one after another, in order).
# Without them every tool counts as unknown, and several calls of a reply run one per step.
LETTA_PARALLEL_SAFE_TOOLS = _get("letta.constants", "LETTA_PARALLEL_SAFE_TOOLS", frozenset)
LETTA_TOOL_SET = _get("letta.constants", "LETTA_TOOL_SET", frozenset)
EmbeddingConfig = _get("letta.schemas.embedding_config", "EmbeddingConfig")
LLMConfig = _get("letta.schemas.llm_config", "LLMConfig")
ProviderUpdate = _get("letta.schemas.providers", "ProviderUpdate")
Secret = _get("letta.schemas.secret", "Secret")
settings = _get("letta.settings", "settings")

LLMClient = _get("letta.llm_api.llm_client", "LLMClient")
OpenAIClient = _get("letta.llm_api.openai_client", "OpenAIClient")
OpenAIProvider = _get("letta.schemas.providers.openai", "OpenAIProvider")
OllamaProvider = _get("letta.schemas.providers.ollama", "OllamaProvider")
SyncServer = _get("letta.server.server", "SyncServer")
ProviderManager = _get("letta.services.provider_manager", "ProviderManager")
TextContent = _get("letta.schemas.letta_message_content", "TextContent")

# Letta's agent loops remove the text next to tool calls from the history before each step, with
# this function, bound in each loop's module: letta_agent_v2 (memgpt-style agents and, through
# inheritance, letta_v1_agent) and letta_agent (the older loop). They are looked up when an agent
# loop creates its LLM client, by which time they are imported, and never imported from here:
# importing them while letta itself is starting could close an import cycle.
SCRUB_FUNCTION = "scrub_inner_thoughts_from_messages"
SCRUBBING_MODULES = ("letta.agents.letta_agent_v2", "letta.agents.letta_agent")

# -- their shapes ----------------------------------------------------------------------------

# Error codes the messages use. letta < 0.16.5 has no PAYMENT_REQUIRED: INVALID_ARGUMENT there.
ERROR_CODES = ("TIMEOUT", "INTERNAL_SERVER_ERROR", "RATE_LIMIT_EXCEEDED", "UNAUTHENTICATED",
               "PERMISSION_DENIED", "NOT_FOUND", "INVALID_ARGUMENT")  # fmt: skip
OPTIONAL_ERROR_CODES = {"PAYMENT_REQUIRED": "INVALID_ARGUMENT"}

# (class, method, parameters it must accept, in this order after self). Overrides of
# private methods are here too: if letta renamed them, keys and timeouts would silently stop
# being applied.
METHODS: list[tuple[str, str, tuple[str, ...]]] = [
    ("OpenAIClient", "build_request_data", ("agent_type", "messages", "llm_config", "tools")),
    ("OpenAIClient", "request_async", ("request_data", "llm_config")),
    ("OpenAIClient", "request", ("request_data", "llm_config")),
    ("OpenAIClient", "stream_async", ("request_data", "llm_config")),
    ("OpenAIClient", "convert_response_to_chat_completion", ("response_data", "input_messages", "llm_config")),
    ("OpenAIClient", "handle_llm_error", ("e",)),
    ("OpenAIClient", "_prepare_client_kwargs", ("llm_config",)),
    ("OpenAIClient", "_prepare_client_kwargs_async", ("llm_config",)),
    ("OpenAIClient", "_prepare_client_kwargs_embedding", ("embedding_config",)),
    ("OpenAIClient", "request_embeddings", ("inputs", "embedding_config")),
    ("OpenAIProvider", "list_llm_models_async", ()),
    ("OpenAIProvider", "list_embedding_models_async", ()),
    ("OpenAIProvider", "_get_models_async", ()),
    ("OpenAIProvider", "_list_llm_models", ("data",)),
    ("OpenAIProvider", "get_default_max_output_tokens", ("model_name",)),
    ("OpenAIProvider", "get_handle", ("model_name",)),
    ("OllamaProvider", "list_llm_models_async", ()),
    ("OllamaProvider", "get_handle", ("model_name",)),
    ("SyncServer", "__init__", ()),
    ("ProviderManager", "sync_base_providers", ("base_providers", "actor")),
    ("ProviderManager", "list_providers_async", ()),
    ("ProviderManager", "update_provider_async", ()),
    ("Secret", "from_plaintext", ("value",)),
]
# Present from letta 0.16.2; where missing the plugin patches only the synchronous one.
OPTIONAL_METHODS: list[tuple[str, str, tuple[str, ...]]] = [
    ("OpenAIProvider", "get_default_max_output_tokens_async", ("model_name",)),
]
# Properties and other attributes read from letta's classes.
ATTRIBUTES: list[tuple[str, str]] = [("OllamaProvider", "openai_compat_base_url")]
FIELDS: list[tuple[str, tuple[str, ...]]] = [
    ("LLMConfig", ("model", "model_endpoint_type", "model_endpoint", "context_window", "handle", "max_tokens",
                 "provider_name", "provider_category", "model_wrapper", "parallel_tool_calls")),
    ("EmbeddingConfig", ("embedding_model", "embedding_endpoint_type", "embedding_endpoint", "embedding_dim",
                       "embedding_chunk_size", "handle", "batch_size")),
    ("ProviderUpdate", ("api_key", "base_url")),
]  # fmt: skip


def error_code(name: str) -> Any:
    """A member of letta's ErrorCode, or its stand-in where this letta lacks it."""
    member = getattr(ErrorCode, name, None)
    return member if member is not None else getattr(ErrorCode, OPTIONAL_ERROR_CODES[name])


def has_method(cls: Any, name: str) -> bool:
    return not isinstance(cls, _Absent) and callable(getattr(cls, name, None))


def _signature_problem(cls: Any, name: str, params: tuple[str, ...]) -> str | None:
    where = f"{getattr(cls, '__module__', '?')}.{getattr(cls, '__qualname__', cls)}.{name}"
    fn = getattr(cls, name, None)
    if not callable(fn):
        return f"{where} is missing"
    if getattr(fn, "__isabstractmethod__", False):
        return f"{where} has no implementation (only the abstract one)"
    if not str(getattr(fn, "__module__", None) or "").startswith("letta."):  # e.g. object.__init__
        return f"{where} is missing (only a non-letta base class has one)"
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return f"{where} has no readable signature"
    names = [p.name for p in sig.parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    names = names[1:] if names and names[0] in ("self", "cls") else names
    if tuple(names[: len(params)]) != params:
        return f"{where} takes ({', '.join(names)}), expected ({', '.join(params)}, ...)"
    return None


def problems() -> list[str]:
    """Everything the installed letta lacks that the plugin needs; empty when all is there.
    Looked up afresh, not from this module's bindings."""
    found = []
    for name in _REGISTRY:
        value = _current(name)
        if isinstance(value, _Absent):
            found.append(f"{value.where} is missing")
    client = _current("LLMClient")
    if not isinstance(client, _Absent) and not isinstance(client.__dict__.get("create"), staticmethod):
        found.append("letta.llm_api.llm_client.LLMClient.create is missing or not a staticmethod")
    codes = _current("ErrorCode")
    if not isinstance(codes, _Absent):
        found += [f"letta.errors.ErrorCode.{c} is missing" for c in ERROR_CODES if not hasattr(codes, c)]
    for owner, method, params in METHODS:
        cls = _current(owner)
        if not isinstance(cls, _Absent):
            problem = _signature_problem(cls, method, params)
            if problem:
                found.append(problem)
    for owner, method, params in OPTIONAL_METHODS:
        cls = _current(owner)
        if has_method(cls, method):
            problem = _signature_problem(cls, method, params)
            if problem:
                found.append(problem)
    for owner, attribute in ATTRIBUTES:
        cls = _current(owner)
        if not isinstance(cls, _Absent) and not hasattr(cls, attribute):
            found.append(f"{cls.__module__}.{cls.__qualname__}.{attribute} is missing")
    for owner, fields in FIELDS:
        model = _current(owner)
        if not isinstance(model, _Absent):
            known = getattr(model, "model_fields", {})
            found += [f"{model.__module__}.{model.__qualname__} has no field {f}" for f in fields if f not in known]
    return found


def fallbacks() -> list[str]:
    """Optional names this letta lacks, for which the plugin uses its fallback."""
    used = [f"{module}.{attr}" for module, attr, fallback in _REGISTRY.values()
            if fallback is not None and _resolve(module, attr)[1] is not None]  # fmt: skip
    used += [f"{owner}.{m}" for owner, m, _ in OPTIONAL_METHODS if not has_method(_current(owner), m)]
    codes = _current("ErrorCode")
    return used + [f"ErrorCode.{c}" for c in OPTIONAL_ERROR_CODES if not hasattr(codes, c)]
