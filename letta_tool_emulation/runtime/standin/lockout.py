"""The stand-in's keys: which key each request carried, and Venice's lockout rule (more than
20 failed requests within 30 s block the key for 30 s), so that tests can prove a key is never
sent where it does not belong and never locked out."""

from __future__ import annotations

import threading
import time
from collections import defaultdict, deque

from starlette.middleware.base import BaseHTTPMiddleware, RequestResponseEndpoint
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

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
            if self._until.get(key, 0.0) > now:
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


def bearer(request: Request) -> str:
    auth = request.headers.get("authorization", "")
    return auth[7:] if auth.lower().startswith("bearer ") else ""


class KeysMiddleware(BaseHTTPMiddleware):
    def __init__(self, app: object, keys: Keys) -> None:
        super().__init__(app)  # type: ignore[arg-type]
        self.keys = keys

    async def dispatch(self, request: Request, call_next: RequestResponseEndpoint) -> Response:
        key = bearer(request)
        counted = request.url.path in COUNTED
        if counted and not self.keys.arrive(request.url.path, key):
            self.keys.failed(key)
            return JSONResponse({"error": "Too many failed requests: this API key is blocked for 30 seconds."}, 429)
        if not counted:
            self.keys.arrive(request.url.path, key)
        response = await call_next(request)
        if counted and response.status_code >= 400:
            self.keys.failed(key)
        return response
