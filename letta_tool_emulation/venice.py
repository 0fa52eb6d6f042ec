"""What this project knows about Venice.ai's API, independent of any agent framework.

Venice is OpenAI-compatible but strict (no nulls, no unknown keys), describes each model's
capabilities in ``GET /models`` (``model_spec.capabilities.supportsFunctionCalling``,
``availableContextTokens``, ``maxCompletionTokens``), and reports errors as
``{"error": "..."}``. Any endpoint that answers ``/models`` in that shape (the stand-in
model does) is treated the same way.
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import httpx

DEFAULT_BASE_URL = "https://api.venice.ai/api/v1"
PROVIDER_NAME = "venice"


@dataclass(frozen=True, slots=True)
class ModelInfo:
    id: str
    type: str = "text"
    supports_function_calling: bool | None = None
    context_window: int | None = None
    max_completion_tokens: int | None = None
    supports_reasoning: bool | None = None
    embedding_dim: int | None = None
    supports_e2ee: bool | None = None  # end-to-end encrypted chat (a TEE model)
    supports_response_schema: bool | None = None


# Used only when /models cannot be reached: models known to lack function calling.
FALLBACK_MODELS: dict[str, ModelInfo] = {
    "venice-uncensored": ModelInfo("venice-uncensored", supports_function_calling=False, context_window=32768),
}
E2EE_PREFIX = "e2ee-"
# Venice's /models does not state embedding dimensions.
EMBEDDING_DIMS = {"text-embedding-bge-m3": 1024}
DEFAULT_EMBEDDING_DIM = 1024


def base_url() -> str:
    return (os.environ.get("VENICE_BASE_URL") or DEFAULT_BASE_URL).rstrip("/")


def api_key() -> str | None:
    return os.environ.get("VENICE_API_KEY") or None


def normalize_url(url: str | None) -> str:
    return (url or "").rstrip("/")


def _origin(url: str | None) -> tuple[str, str, int | None]:
    parts = urlsplit(normalize_url(url))
    try:
        port = parts.port
    except ValueError:
        port = -1
    return parts.scheme.lower(), (parts.hostname or "").lower(), port or {"https": 443, "http": 80}.get(parts.scheme)


def same_origin(a: str | None, b: str | None) -> bool:
    return bool(a) and bool(b) and _origin(a) == _origin(b)


def is_key_host(url: str | None) -> bool:
    """Whether ``url`` is at the host VENICE_API_KEY belongs to (VENICE_BASE_URL's), the only
    place that key is ever sent."""
    return same_origin(url, base_url())


def looks_like_venice(url: str | None) -> bool:
    """Whether ``url`` is Venice's API (or the endpoint VENICE_BASE_URL names)."""
    url = normalize_url(url)
    if not url:
        return False
    host = urlsplit(url).hostname or ""
    return host == "venice.ai" or host.endswith(".venice.ai") or url == base_url()


def parse_models(payload: Any) -> list[ModelInfo] | None:
    """Models from a /models answer, or None when it is not in Venice's shape."""
    data = payload.get("data") if isinstance(payload, Mapping) else payload
    if not isinstance(data, list):
        return None
    venice_shaped = any(isinstance(m, Mapping) and isinstance(m.get("model_spec"), Mapping) for m in data)
    if not venice_shaped:
        return None
    models = []
    for m in data:
        if not isinstance(m, Mapping) or not isinstance(m.get("id"), str):
            continue
        spec = m.get("model_spec") if isinstance(m.get("model_spec"), Mapping) else {}
        if spec.get("offline") is True:
            continue
        caps = spec.get("capabilities") if isinstance(spec.get("capabilities"), Mapping) else {}
        kind = m.get("type") if isinstance(m.get("type"), str) else "text"
        models.append(
            ModelInfo(
                id=m["id"],
                type=kind,
                supports_function_calling=_bool(caps.get("supportsFunctionCalling")),
                context_window=_int(spec.get("availableContextTokens")) or _int(m.get("context_length")),
                max_completion_tokens=_int(spec.get("maxCompletionTokens")),
                supports_reasoning=_bool(caps.get("supportsReasoning")),
                supports_e2ee=_bool(caps.get("supportsE2EE")),
                supports_response_schema=_bool(caps.get("supportsResponseSchema")),
                embedding_dim=EMBEDDING_DIMS.get(m["id"], DEFAULT_EMBEDDING_DIM) if kind == "embedding" else None,
            )
        )
    return models


def _bool(v: Any) -> bool | None:
    return v if isinstance(v, bool) else None


def _int(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) and v > 0 else None


# -- fetching /models --------------------------------------------------------------------

FETCH_TIMEOUT = 5.0


def _headers(key: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"} if key else {}


def fetch_models(
    url: str, key: str | None = None, *, kind: str = "text", timeout: float = FETCH_TIMEOUT
) -> list[ModelInfo] | None:
    """GET {url}/models?type=kind; None when unreachable or not Venice-shaped."""
    try:
        r = httpx.get(f"{normalize_url(url)}/models", params={"type": kind}, headers=_headers(key), timeout=timeout)
        r.raise_for_status()
        return parse_models(r.json())
    except (httpx.HTTPError, ValueError):
        return None


async def fetch_models_async(
    url: str, key: str | None = None, *, kind: str = "text", timeout: float = FETCH_TIMEOUT
) -> list[ModelInfo] | None:
    try:
        async with httpx.AsyncClient(timeout=timeout) as client:
            r = await client.get(f"{normalize_url(url)}/models", params={"type": kind}, headers=_headers(key))
            r.raise_for_status()
            return parse_models(r.json())
    except (httpx.HTTPError, ValueError):
        return None


class CapabilityCache:
    """Model capabilities per endpoint, filled when models are listed and looked up on
    every request (Letta keeps no per-model flags of its own). Thread-safe; entries are
    refreshed after ``ttl`` seconds; endpoints that are not Venice-shaped are remembered
    too, so they are not asked again and again."""

    def __init__(self, ttl: float = 6 * 3600) -> None:
        self.ttl = ttl
        self._lock = threading.Lock()
        self._by_url: dict[str, tuple[float, dict[str, ModelInfo] | None]] = {}
        self._refreshing: set[str] = set()
        # Told of every store (the shared state passes it on to other workers); must not block.
        self.observers: list[Callable[[str, dict[str, ModelInfo] | None], None]] = []

    def store(self, url: str, models: Iterable[ModelInfo] | None) -> None:
        entry = None if models is None else {m.id: m for m in models}
        with self._lock:
            old = self._by_url.get(normalize_url(url))
            if entry is not None and old is not None and old[1]:
                entry = {**old[1], **entry}  # text and embedding listings arrive separately
            self._by_url[normalize_url(url)] = (time.monotonic(), entry)
        for observe in list(self.observers):
            observe(normalize_url(url), entry)

    def shape(self, url: str) -> bool | None:
        """True when the endpoint answered in Venice's shape, False when it answered
        otherwise (or not at all), None when it was never asked."""
        with self._lock:
            hit = self._by_url.get(normalize_url(url))
        return None if hit is None else hit[1] is not None

    def venice_shaped(self, url: str) -> bool:
        with self._lock:
            hit = self._by_url.get(normalize_url(url))
        return hit is not None and hit[1] is not None

    def get(self, url: str, model: str) -> ModelInfo | None:
        with self._lock:
            hit = self._by_url.get(normalize_url(url))
        if hit is None or hit[1] is None:
            return None
        return hit[1].get(model)

    def refresh_in_background(self, url: str, key: str | None = None, timeout: float = FETCH_TIMEOUT) -> bool:
        """Fetch /models in a background thread when nothing is known about the endpoint or
        what is known has grown stale; never waits. Returns whether a fetch was started."""
        url = normalize_url(url)
        with self._lock:
            hit = self._by_url.get(url)
            due = hit is None or time.monotonic() - hit[0] >= self.ttl
            if not due or url in self._refreshing:
                return False
            self._refreshing.add(url)
        threading.Thread(target=self._refresh, args=(url, key, timeout), name="venice-models", daemon=True).start()
        return True

    def _refresh(self, url: str, key: str | None, timeout: float) -> None:
        try:
            models = fetch_models(url, key, timeout=timeout)
            if models is not None or not self.venice_shaped(url):
                self.store(url, models)  # a failed refresh keeps the last good answer
        finally:
            with self._lock:
                self._refreshing.discard(url)

    def clear(self) -> None:
        with self._lock:
            self._by_url.clear()


CAPABILITIES = CapabilityCache()


def lookup(url: str | None, model: str) -> ModelInfo | None:
    """Capabilities of ``model`` at ``url``: what the cache knows, else the fallback table
    for Venice. Never touches the network (see :meth:`CapabilityCache.refresh_in_background`)."""
    url = normalize_url(url)
    info = CAPABILITIES.get(url, model) if url else None
    if info is None and looks_like_venice(url):
        info = FALLBACK_MODELS.get(model)
        if info is None and model.startswith(E2EE_PREFIX):  # Venice names every TEE model so
            info = ModelInfo(model, supports_e2ee=True)
    return info


# -- requests ----------------------------------------------------------------------------

# Keys an emulated request may carry. Everything else (tools, tool_choice,
# parallel_tool_calls, user, ...) is dropped: strict endpoints reject unknown keys.
REQUEST_KEYS = frozenset(
    {
        "model", "messages", "temperature", "top_p", "max_completion_tokens", "max_tokens", "frequency_penalty",
        "presence_penalty", "stop", "seed", "stream", "stream_options", "logprobs", "top_logprobs",
        "response_format", "reasoning_effort", "venice_parameters",
    }
)  # fmt: skip


def clean_request(body: Mapping[str, Any]) -> dict[str, Any]:
    """Only keys a strict OpenAI-compatible endpoint accepts, and no null values."""
    return {k: v for k, v in body.items() if k in REQUEST_KEYS and v is not None}


def venice_parameters() -> dict[str, Any]:
    """``include_venice_system_prompt`` is off unless LETTA_TOOL_EMULATION_VENICE_SYSTEM_PROMPT=1:
    Venice's own system prompt would compete with the agent's and the tool instructions."""
    include = os.environ.get("LETTA_TOOL_EMULATION_VENICE_SYSTEM_PROMPT", "").strip().lower() in ("1", "true", "yes")
    return {"include_venice_system_prompt": include}


# -- errors ------------------------------------------------------------------------------

_OVERFLOW = re.compile(
    r"context_length_exceeded|exceeds the model'?s maximum context|maximum context length|exceeds the context window|"
    r"too many tokens|TOO_MANY_TOKENS",
    re.IGNORECASE,
)


def is_context_overflow(text: str) -> bool:
    return bool(_OVERFLOW.search(text or ""))


def error_text(body: Any) -> str:
    """The message in an error body: Venice's {"error": "..."} or OpenAI's {"error": {"message"}}."""
    if isinstance(body, Mapping):
        err = body.get("error", body.get("message"))
        if isinstance(err, Mapping):
            return str(err.get("message") or err.get("code") or "")
        if err is not None:
            return str(err)
    return "" if body is None else str(body)


def rate_limit_hint(headers: Mapping[str, str] | None) -> str:
    """When the limit resets, from Venice's x-ratelimit-reset-* headers."""
    if not headers:
        return ""
    hints = []
    for kind in ("requests", "tokens"):
        value = headers.get(f"x-ratelimit-reset-{kind}")
        remaining = headers.get(f"x-ratelimit-remaining-{kind}")
        if value:
            hints.append(f"{kind} limit resets at {value}" + (f" ({remaining} left)" if remaining is not None else ""))
    retry_after = headers.get("retry-after")
    if retry_after:
        hints.append(f"retry after {retry_after} s")
    return "; ".join(hints)
