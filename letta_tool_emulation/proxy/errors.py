"""Failures as OpenAI-style error answers: the upstream's own status where it gave one, a
message that says what to do, and the upstream's rate-limit headers passed on.

Only statuses, the upstream's error text and those headers are used: request bodies, keys
and other headers never reach a message.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx
import openai

from .. import e2ee, retry, venice
from . import wire

_MAX_TEXT = 500
# Headers of an upstream error that tell a client when to try again.
_PASSED_HEADERS = ("retry-after", "x-ratelimit-reset-requests", "x-ratelimit-reset-tokens",
                   "x-ratelimit-remaining-requests", "x-ratelimit-remaining-tokens")  # fmt: skip
_E2EE_TEMPORARY = frozenset({"transport", "unavailable", "http_status", "stream_error"})


@dataclass(frozen=True, slots=True)
class Failure:
    status: int
    body: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def message(self) -> str:
        return str(self.body["error"]["message"])


class ProxyError(Exception):
    """A failure the proxy itself decided (a bad request, an unknown route)."""

    def __init__(self, status: int, message: str, kind: str = "invalid_request_error", code: str | None = None,
                 param: str | None = None) -> None:  # fmt: skip
        super().__init__(message)
        self.failure = Failure(status, wire.error_body(message, kind, code, param))


class BrokenStream(Exception):
    """The upstream's reply stopped before it was finished."""


def failure_of(exc: BaseException, model: str) -> Failure:
    """The answer for ``exc``, raised while serving a request for ``model``."""
    if isinstance(exc, ProxyError):
        return exc.failure
    if isinstance(exc, retry.UpstreamWait):
        return failure_of(exc.cause, model)
    if isinstance(exc, retry.BudgetSpent):
        wait = max(1, round(exc.reset_at - time.time()))
        return Failure(429, wire.error_body(f"Not sent to {model}: {exc}", "rate_limit_error", "rate_limit_exceeded"),
                       {"retry-after": str(wait)})  # fmt: skip
    if isinstance(exc, retry.BudgetBusy):
        return Failure(429, wire.error_body(f"Not sent to {model}: {exc}", "rate_limit_error", "rate_limit_exceeded"))
    if isinstance(exc, e2ee.E2EEError):
        return _e2ee(exc, model)
    if isinstance(exc, openai.APIStatusError):
        return _status(exc, model)
    if isinstance(exc, (openai.APITimeoutError, httpx.TimeoutException)):
        return Failure(504, wire.error_body(
            f"The upstream sent nothing for {model} within the proxy's timeout (--timeout); the model may be "
            "overloaded or stalled. Try again.", "timeout_error", "upstream_timeout"))  # fmt: skip
    if isinstance(exc, (openai.APIConnectionError, httpx.TransportError)):
        return Failure(502, wire.error_body(
            f"Could not reach the upstream for {model} ({type(exc).__name__}). Check that it is running and that "
            "--upstream names its base URL.", "upstream_error", "upstream_unreachable"))  # fmt: skip
    if isinstance(exc, BrokenStream):
        return Failure(502, wire.error_body(
            f"The reply from {model} broke off ({exc}); no tool call from it was returned. Try again.",
            "upstream_error", "upstream_stream_broken"))  # fmt: skip
    return Failure(500, wire.error_body(
        f"The proxy failed while serving {model} ({type(exc).__name__}); see its log.", "server_error",
        "internal_error"))  # fmt: skip


def _status(exc: openai.APIStatusError, model: str) -> Failure:
    status = exc.status_code
    body = exc.body
    # An upstream that already speaks OpenAI's shape keeps its own type and code.
    inner = body.get("error") if isinstance(body, Mapping) else None
    inner = inner if isinstance(inner, Mapping) else {}
    text = venice.error_text(body) or exc.message or ""
    text = text if len(text) <= _MAX_TEXT else text[: _MAX_TEXT - 3] + "..."
    kind = str(inner["type"]) if isinstance(inner.get("type"), str) else _kind(status)
    code = inner.get("code") if isinstance(inner.get("code"), str) else None
    param = inner.get("param") if isinstance(inner.get("param"), str) else None
    headers = exc.response.headers if exc.response is not None else httpx.Headers()
    passed = {name: headers[name] for name in _PASSED_HEADERS if name in headers}
    return Failure(status, wire.error_body(f"The upstream answered {status} for {model}: {text}", kind, code, param),
                   passed)  # fmt: skip


def _kind(status: int) -> str:
    if status == 401:
        return "authentication_error"
    if status == 403:
        return "permission_error"
    if status == 404:
        return "not_found_error"
    if status == 429:
        return "rate_limit_error"
    if status >= 500:
        return "upstream_error"
    return "invalid_request_error"


def _e2ee(exc: e2ee.E2EEError, model: str) -> Failure:
    """Its message never holds keys or plaintext, and says what happened and what to do."""
    message = f"{model} (end-to-end encrypted): {exc.message}"
    if isinstance(exc, e2ee.AttestationError):
        if exc.check in _E2EE_TEMPORARY:
            return Failure(503, wire.error_body(message, "upstream_error", f"e2ee_{exc.check}"))
        if exc.check == "unsupported_model":
            return Failure(400, wire.error_body(message, "invalid_request_error", "e2ee_unsupported_model"))
        # A failed check is a refusal on security grounds: nothing was sent, nothing is retried.
        return Failure(502, wire.error_body(message, "e2ee_error", f"e2ee_{exc.check}"))
    if isinstance(exc, e2ee.RequestError):
        return Failure(400, wire.error_body(message, "invalid_request_error", f"e2ee_{exc.check}"))
    return Failure(exc.status or 502, wire.error_body(message, "e2ee_error", f"e2ee_{exc.check}"))
