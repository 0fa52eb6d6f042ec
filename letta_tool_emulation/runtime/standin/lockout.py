"""The stand-in's keys: which key each request carried, and Venice's lockout rule (more than
20 failed requests within 30 s block the key for 30 s), so that tests can prove a key is never
sent where it does not belong and never locked out."""

from __future__ import annotations

import threading
import time
from collections import defaultdict, deque
from collections.abc import Mapping

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

FAILURES_ALLOWED = 20
WINDOW = 30.0
BLOCK = 30.0
COUNTED = ("/v1/chat/completions", "/v1/embeddings")


class Keys:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.seen: list[tuple[str, str]] = []  # (path, key) of every request
        self.blocked: list[tuple[float, str]] = []  # every request refused because its key was locked
        self._failures: dict[str, deque[float]] = defaultdict(deque)
        self._until: dict[str, float] = {}

    def reset(self) -> None:
        with self._lock:
            self.seen.clear()
            self.blocked.clear()
            self._failures.clear()
            self._until.clear()

    def max_failures_in_window(self) -> int:
        """The most failed requests any key had within one window (for assertions)."""
        with self._lock:
            return max((len(v) for v in self._failures.values()), default=0)

    def arrive(self, path: str, key: str) -> bool:
        """Record a request; False when its key is locked out."""
        now = time.monotonic()
        with self._lock:
            self.seen.append((path, key))
            if path in COUNTED and self._until.get(key, 0.0) > now:
                self.blocked.append((now, key))
                return False
            return True

    def failed(self, key: str) -> None:
        now = time.monotonic()
        with self._lock:
            failures = self._failures[key]
            failures.append(now)
            while failures and failures[0] < now - WINDOW:
                failures.popleft()
            if len(failures) > FAILURES_ALLOWED:
                self._until[key] = now + BLOCK


def bearer(headers: Mapping[str, str]) -> str:
    auth = headers.get("authorization", "")
    return auth[7:] if auth.lower().startswith("bearer ") else ""


class KeysMiddleware:
    """Plain ASGI, so that a connection the app drops mid-stream is dropped for the client too
    (Starlette's BaseHTTPMiddleware would end such a stream cleanly)."""

    def __init__(self, app: ASGIApp, keys: Keys) -> None:
        self.app = app
        self.keys = keys

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        key = bearer(Headers(scope=scope))
        counted = path in COUNTED
        if not self.keys.arrive(path, key) and counted:
            self.keys.failed(key)
            response = JSONResponse({"error": "Too many failed requests: this API key is blocked for 30 seconds."}, 429)
            await response(scope, receive, send)
            return

        async def watch(message: Message) -> None:
            if counted and message["type"] == "http.response.start" and message["status"] >= 400:
                self.keys.failed(key)
            await send(message)

        await self.app(scope, receive, watch)
