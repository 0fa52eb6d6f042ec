"""Venice.ai's catalogue and where its key may go: ``/models`` fetched and cached per endpoint
(refreshed in a background thread, never on a request's path), the fallback when nothing is
known, and the environment (``VENICE_API_KEY``, ``VENICE_BASE_URL``,
``LETTA_TOOL_EMULATION_VENICE_SYSTEM_PROMPT``).

What Venice's requests, catalogue and errors look like is ``venice_dialect.py``, which does no
I/O; its names are re-exported here for callers that read both.
"""

from __future__ import annotations

import functools
import itertools
import os
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import urlsplit

import httpx

from .venice_dialect import (
    DEFAULT_EMBEDDING_DIM,
    DEFAULT_VENICE_PARAMETERS,
    E2EE_PREFIX,
    EMBEDDING_DIMS,
    FALLBACK_MODELS,
    REQUEST_KEYS,
    ModelInfo,
    clean_request,
    error_text,
    is_context_overflow,
    parse_models,
    rate_limit_hint,
)

__all__ = [
    "CAPABILITIES",
    "DEFAULT_BASE_URL",
    "DEFAULT_EMBEDDING_DIM",
    "DEFAULT_VENICE_PARAMETERS",
    "E2EE_PREFIX",
    "EMBEDDING_DIMS",
    "FALLBACK_MODELS",
    "PROVIDER_NAME",
    "REQUEST_KEYS",
    "SYSTEM_PROMPT_ENV",
    "CapabilityCache",
    "ModelInfo",
    "api_key",
    "base_url",
    "clean_request",
    "error_text",
    "fetch_models",
    "fetch_models_async",
    "is_context_overflow",
    "is_key_host",
    "looks_like_venice",
    "lookup",
    "normalize_url",
    "parse_models",
    "rate_limit_hint",
    "same_origin",
    "venice_parameters",
]

DEFAULT_BASE_URL = "https://api.venice.ai/api/v1"
PROVIDER_NAME = "venice"
SYSTEM_PROMPT_ENV = "LETTA_TOOL_EMULATION_VENICE_SYSTEM_PROMPT"


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
    host = _hostname(url)
    return host == "venice.ai" or host.endswith(".venice.ai") or url == base_url()


@functools.lru_cache(maxsize=64)
def _hostname(url: str) -> str:
    """The URL's host, worked out once per URL: every request asks it of the same few endpoints."""
    return urlsplit(url).hostname or ""


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


_VERSIONS = itertools.count()  # the versions of every instance, so that no two share one


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
        # Changes with every store and clear, and differs between caches: what is known is the
        # same as long as it is the same (the proxy keeps its decisions while it is).
        self.version = next(_VERSIONS)
        # Told of every store (the shared state passes it on to other workers); must not block.
        self.observers: list[Callable[[str, dict[str, ModelInfo] | None], None]] = []

    def store(self, url: str, models: Iterable[ModelInfo] | None) -> None:
        entry = None if models is None else {m.id: m for m in models}
        with self._lock:
            old = self._by_url.get(normalize_url(url))
            if entry is not None and old is not None and old[1]:
                entry = {**old[1], **entry}  # text and embedding listings arrive separately
            self._by_url[normalize_url(url)] = (time.monotonic(), entry)
            self.version = next(_VERSIONS)
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
            self.version = next(_VERSIONS)


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


def venice_parameters() -> dict[str, Any]:
    """The ``venice_parameters`` of an emulated request, from the environment: Venice's own
    system prompt stays off unless LETTA_TOOL_EMULATION_VENICE_SYSTEM_PROMPT=1."""
    include = os.environ.get(SYSTEM_PROMPT_ENV, "").strip().lower() in ("1", "true", "yes")
    return {**DEFAULT_VENICE_PARAMETERS, "include_venice_system_prompt": include}
