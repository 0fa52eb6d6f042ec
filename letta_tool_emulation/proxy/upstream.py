"""The model endpoint behind the proxy: where it is, its key, the connection pools every
request shares, and what is known about its models (Venice's capability data, the server
kind's probe), which decides per request whether tool calls are emulated.

Chat and embeddings requests in plaintext go through an aiohttp session, whose C parser
costs about a quarter of httpx's pure-Python stack per request: on the proxy's hot path
that is most of its own work. End-to-end encrypted requests (through the OpenAI SDK) and the
model list keep the httpx client."""

from __future__ import annotations

import asyncio
import functools
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, Literal

import aiohttp
import httpx

from .. import calibration, endpoints, selection, venice
from ..selection import Decision, decide

log = logging.getLogger("letta_tool_emulation.proxy")

UPSTREAM_KEY_ENV = "LETTA_TOOL_EMULATION_UPSTREAM_KEY"
NO_KEY = "no-key"  # the SDK wants a string; a local server ignores it
REFRESH_SECONDS = 600.0  # capability data is read again this often, in the background
# The proxy's mode for emulated replies; a request may choose its own with MODE_HEADER.
MODE_ENV = "LETTA_TOOL_EMULATION_MODE"
MODE_HEADER = "x-tool-emulation-mode"
Mode = Literal["auto", "free", "constrained"]
MODES: tuple[Mode, ...] = ("auto", "free", "constrained")
# Each mode as the agent switch (``llm_config.model_wrapper``) the plugin reads the same way.
_SWITCH: dict[str, str | None] = {
    "auto": None,
    "free": selection.WRAPPER_FREE_TEXT,
    "constrained": selection.WRAPPER_CONSTRAINED,
}


class SharedClient(httpx.AsyncClient):
    """One connection pool for all requests. The SDK client a transport builds per request
    closes its HTTP client when it is done; this one stays open until :meth:`shutdown`, so
    that a request costs neither a new TLS context nor a new connection."""

    async def aclose(self) -> None:
        return None

    async def shutdown(self) -> None:
        await super().aclose()


def shared_client(timeout: float) -> SharedClient:
    return SharedClient(
        timeout=httpx.Timeout(timeout, connect=min(10.0, timeout)),
        limits=httpx.Limits(max_connections=1000, max_keepalive_connections=100),
        follow_redirects=False,
    )


@dataclass
class Upstream:
    """``provider`` names the upstream in model handles (``venice/<model>``, ``proxy/<model>``),
    the form ``LETTA_TOOL_EMULATION_MODELS`` patterns and ``LETTA_TOOL_EMULATION_CONTEXT`` match."""

    base_url: str
    api_key: str | None
    provider: str
    timeout: float
    http: SharedClient = field(repr=False)
    mode: Mode = "auto"
    _probe_task: asyncio.Task[None] | None = field(default=None, repr=False)
    _session: aiohttp.ClientSession | None = field(default=None, repr=False)
    _decisions: dict[tuple[Any, ...], Decision] = field(default_factory=dict, repr=False)

    @property
    def is_venice(self) -> bool:
        return self.provider == venice.PROVIDER_NAME or venice.CAPABILITIES.venice_shaped(self.base_url)

    def client_kwargs(self) -> dict[str, Any]:
        """The OpenAI SDK options for one request: the upstream's key, never the client's."""
        return {
            "api_key": self.api_key or NO_KEY,
            "base_url": self.base_url,
            "http_client": self.http,
            "timeout": httpx.Timeout(self.timeout, connect=min(10.0, self.timeout)),
        }

    def session(self) -> aiohttp.ClientSession:
        """The connection pool of plaintext chat and embeddings requests, opened on first use
        (an aiohttp session belongs to the event loop it was made in). Its timeouts are the
        httpx client's: ``timeout`` to get a connection and for each read, 10 s at most to connect."""
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=1000, limit_per_host=0, keepalive_timeout=5.0),
                timeout=aiohttp.ClientTimeout(
                    total=None, connect=self.timeout, sock_connect=min(10.0, self.timeout), sock_read=self.timeout
                ),
                cookie_jar=aiohttp.DummyCookieJar(),  # requests share no state
                raise_for_status=False,
            )
        return self._session

    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}

    # -- what is known about the models --------------------------------------------------------

    def handle(self, model: str) -> str:
        return f"{self.provider}/{model}"

    def decide(self, model: str, mode: Mode | None = None) -> Decision:
        """Whether and how requests for ``model`` are emulated; ``mode`` (a request's own) before
        the proxy's. "free" and "constrained" decide only the shape of an emulated reply: whether
        a model is emulated at all is decided as before.

        A decision is made once and kept while everything it was made from stays as it was: the
        model and mode, the endpoint, what is known about it, the calibration file and the
        variables that take part. Looking those up costs a fraction of deciding again."""
        environ = os.environ
        key = (
            model, mode or self.mode, self.base_url, self.provider, venice.CAPABILITIES.version,
            endpoints.KNOWN.version, calibration.stamp(), *[environ.get(name) for name in selection.DECISION_ENV],
        )  # fmt: skip
        decision = self._decisions.get(key)
        if decision is None:
            if len(self._decisions) >= _DECISIONS_KEPT:  # what changed left its old keys behind
                self._decisions.clear()
            decision = self._decisions[key] = decide(
                SimpleNamespace(
                    model=model,
                    model_endpoint=self.base_url,
                    provider_name=self.provider,
                    handle=self.handle(model),
                    model_wrapper=_SWITCH[mode or self.mode],
                )
            )
        return decision

    def context_window(self, model: str) -> int | None:
        override = endpoints.context_override(self.handle(model), _overrides(os.environ.get(endpoints.CONTEXT_ENV)))
        if override:
            return override
        info = venice.lookup(self.base_url, model)
        if info is not None and info.context_window:
            return info.context_window
        server = endpoints.KNOWN.server(self.base_url)
        limits = server.limits(model) if server is not None else None
        return limits.context_window if limits is not None else None

    def output_limit(self, model: str) -> int | None:
        info = venice.lookup(self.base_url, model)
        if info is not None and info.max_completion_tokens:
            return info.max_completion_tokens
        server = endpoints.KNOWN.server(self.base_url)
        limits = server.limits(model) if server is not None else None
        return limits.max_output_tokens if limits is not None else None

    # -- reading it -----------------------------------------------------------------------------

    async def fetch_models(self) -> list[dict[str, Any]]:
        """The upstream's ``/models`` entries, as it lists them; its capability data is kept.
        Raises what httpx raises, or ``httpx.HTTPStatusError``."""
        response = await self.http.get(f"{self.base_url}/models", headers=self.headers())
        response.raise_for_status()
        payload = response.json()
        parsed = venice.parse_models(payload)
        if parsed is not None or not venice.CAPABILITIES.venice_shaped(self.base_url):
            venice.CAPABILITIES.store(self.base_url, parsed)
        data = payload.get("data") if isinstance(payload, Mapping) else payload
        return [dict(m) for m in data or () if isinstance(m, Mapping) and isinstance(m.get("id"), str)]

    async def refresh(self) -> None:
        """Read the capability data: Venice's ``/models``, else the server kind's probe. Never raises."""
        try:
            await self.fetch_models()
        except (httpx.HTTPError, ValueError) as exc:
            log.warning("proxy: could not list the upstream's models (%s); deciding from the settings alone",
                        _what(exc))  # fmt: skip
        if self.is_venice:
            return
        info = await endpoints.probe_server(self.base_url, api_key=self.api_key, timeout=endpoints.DEFAULT_TIMEOUT)
        endpoints.KNOWN.store(info)
        if info.kind:
            log.info("proxy: the upstream is %s (%d model(s))", info.kind, len(info.models))
        for note in info.notes:
            log.info("proxy: %s", note)

    def start_refreshing(self) -> None:
        async def loop() -> None:
            while True:
                await asyncio.sleep(REFRESH_SECONDS)
                await self.refresh()

        self._probe_task = asyncio.get_running_loop().create_task(loop())

    async def close(self) -> None:
        if self._probe_task is not None:
            self._probe_task.cancel()
        if self._session is not None:
            await self._session.close()
        await self.http.shutdown()


_DECISIONS_KEPT = 256


@functools.lru_cache(maxsize=8)
def _overrides(value: str | None) -> list[endpoints.ContextOverride]:
    """The context-window overrides in ``value``, read once per value rather than per request."""
    return endpoints.parse_context_overrides(value)[0]


def _what(exc: BaseException) -> str:
    if isinstance(exc, httpx.HTTPStatusError):
        return f"HTTP {exc.response.status_code}"
    return type(exc).__name__
