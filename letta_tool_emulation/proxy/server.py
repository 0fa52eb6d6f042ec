"""``letta-tool-emulation proxy``: the settings it runs with, the checks before it listens,
and :class:`ProxyServer` for running it inside another program (tests, benchmarks)."""

from __future__ import annotations

import gc
import ipaddress
import logging
import os
import threading
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

import uvicorn

from .. import venice
from .app import create_app
from .upstream import MODE_ENV, MODES, UPSTREAM_KEY_ENV, Mode, Upstream, shared_client

log = logging.getLogger("letta_tool_emulation.proxy")

DEFAULT_PORT = 8400
DEFAULT_TIMEOUT = 120.0


class SettingsError(Exception):
    """The proxy cannot start as asked; the message says what to change."""


@dataclass(frozen=True, slots=True)
class Settings:
    host: str
    port: int
    base_url: str
    upstream_key: str | None
    provider: str
    client_key: str | None
    timeout: float
    # How emulated replies are asked for: "auto" (constrained where the endpoint enforces a
    # schema, as the plugin decides), "free" (free text always) or "constrained".
    mode: Mode = "auto"

    def upstream(self) -> Upstream:
        return Upstream(
            self.base_url, self.upstream_key, self.provider, self.timeout, shared_client(self.timeout), mode=self.mode
        )


def is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a name: it may resolve to anything


def settings_from(
    host: str = "127.0.0.1",
    port: int = DEFAULT_PORT,
    upstream: str | None = None,
    api_key_env: str | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    mode: str | None = None,
) -> Settings:
    """The settings from the command line and the environment; SettingsError when they do not add up."""
    if upstream:
        parts = urlsplit(upstream.strip())
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise SettingsError(
                f"--upstream must be an http(s) URL, such as http://127.0.0.1:11434/v1 (got {upstream!r})."
            )
        base_url = upstream.strip().rstrip("/")
        if parts.path in ("", "/"):
            base_url += "/v1"  # every OpenAI-compatible server serves its API there
        upstream_key, provider = os.environ.get(UPSTREAM_KEY_ENV) or None, "proxy"
    else:
        upstream_key, provider, base_url = venice.api_key(), venice.PROVIDER_NAME, venice.base_url()
        if not upstream_key:
            raise SettingsError(
                "VENICE_API_KEY is not set. Set it to use Venice, or pass --upstream URL for another OpenAI-compatible "
                f"endpoint (its key, if it needs one, in {UPSTREAM_KEY_ENV})."
            )
    client_key = None
    if api_key_env:
        client_key = os.environ.get(api_key_env) or None
        if client_key is None:
            raise SettingsError(
                f"--api-key-env names {api_key_env}, which is not set: set it to the key clients must send."
            )
    if client_key is None and not is_loopback(host):
        raise SettingsError(
            f"Refusing to listen on {host} without a client key: anyone who can reach it would use the upstream's key. "
            "Pass --api-key-env NAME (the variable that holds the key clients must send), or listen on 127.0.0.1."
        )
    if timeout <= 0:
        raise SettingsError("--timeout must be a positive number of seconds.")
    wanted = (mode or os.environ.get(MODE_ENV) or "auto").strip().lower()
    chosen = next((m for m in MODES if m == wanted), None)
    if chosen is None:
        where = "--mode" if mode else MODE_ENV
        raise SettingsError(f"{where} must be one of {', '.join(MODES)} (got {wanted!r}).")
    return Settings(host, port, base_url, upstream_key, provider, client_key, timeout, chosen)


def config(settings: Settings) -> uvicorn.Config:
    app = create_app(settings.upstream(), settings.client_key)
    # uvloop and httptools where they are installed (the package depends on them outside Windows): serving a
    # request on asyncio's loop and the pure-Python h11 cost more than the emulation itself. Forwarded-for
    # headers are not read: the proxy never uses a client's address.
    return uvicorn.Config(
        app, host=settings.host, port=settings.port, log_level="warning", access_log=False, lifespan="on",
        timeout_graceful_shutdown=5, loop="auto", http="auto", proxy_headers=False,
    )  # fmt: skip


def main(settings: Settings) -> int:
    where = f"http://{settings.host}:{settings.port}/v1"
    print(f"Tool-emulating proxy at {where}, in front of {settings.base_url}", flush=True)
    print(f"  emulated replies: {settings.mode}", flush=True)
    print(
        f"  clients {'must send the key in the variable given' if settings.client_key else 'need no key'}", flush=True
    )
    server = uvicorn.Server(config(settings))
    _lighter_process()
    try:
        server.run()
    except KeyboardInterrupt:  # uvicorn finished its shutdown and handed Ctrl-C back
        return 0
    except OSError as exc:
        raise SettingsError(f"cannot listen on {settings.host}:{settings.port}: {exc.strerror}") from exc
    return 0 if server.started else 1


def _lighter_process() -> None:
    """Less work per request for the proxy's own process (not for a program that runs the proxy
    inside it, whose logging and memory are its own). Its log lines are the message alone: the
    caller's source line, thread and process that logging would look up for each are not shown.
    What was built to start (the imported modules, the app) is kept out of the garbage collector's
    full passes, which would otherwise walk it again and again while the proxy serves."""
    logging.logThreads = logging.logProcesses = logging.logMultiprocessing = False
    logging._srcfile = None  # the documented way to skip the caller's frame
    gc.collect()
    gc.freeze()


class ProxyServer:
    """The proxy in a background thread, on a free port unless one is given."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._server = uvicorn.Server(config(settings))
        self._thread = threading.Thread(target=self._server.run, name="proxy", daemon=True)
        self.port = settings.port

    @property
    def url(self) -> str:
        return f"http://{self.settings.host}:{self.port}/v1"

    def start(self, timeout: float = 60.0) -> ProxyServer:
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"the proxy could not start on {self.settings.host}:{self.settings.port}")
            time.sleep(0.02)
        if self.port == 0:
            self.port = self._server.servers[0].sockets[0].getsockname()[1]
        return self

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=15)

    def __enter__(self) -> ProxyServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
