"""Venice's errors as Letta's, with messages that say what to do.

Only the HTTP status, Venice's own error text and the rate-limit headers are used; request
bodies, keys and other headers never reach a message.
"""

from __future__ import annotations

from typing import Any

import httpx
import openai

from .. import e2ee, retry
from ..step import NO_FINISH_REASON, StreamBroken
from ..venice_dialect import error_text, is_context_overflow, rate_limit_hint
from .letta_api import (
    ContextWindowExceededError,
    LLMAuthenticationError,
    LLMBadRequestError,
    LLMConnectionError,
    LLMInsufficientCreditsError,
    LLMNotFoundError,
    LLMPermissionDeniedError,
    LLMRateLimitError,
    LLMServerError,
    LLMTimeoutError,
    error_code,
)

_MAX_TEXT = 300


def map_error(exc: Exception, model: str = "the model") -> Exception | None:
    """The Letta error for an error from a Venice-shaped endpoint, or None to let the stock
    mapping handle it."""
    if isinstance(exc, StreamBroken):  # the engine's verdict on a reply stream, from any endpoint
        return broken_stream_error(exc.cause or ConnectionError(NO_FINISH_REASON), model, in_call=exc.in_call)
    if isinstance(exc, e2ee.E2EEError):
        return _e2ee_error(exc, model)
    if isinstance(exc, retry.UpstreamWait):  # the provider's own answer, with its reset time
        return map_error(exc.cause, model)
    if isinstance(exc, (retry.BudgetSpent, retry.BudgetBusy)):
        return LLMRateLimitError(message=f"Not sent to {model}: {exc}", code=error_code("RATE_LIMIT_EXCEEDED"))
    if isinstance(exc, openai.APIStatusError):
        headers = exc.response.headers if exc.response is not None else None
        # The overflow may be said in the message or only in a code field: look at all of it.
        overflow = is_context_overflow(f"{exc.body} {exc.message}")
        return _status_error(exc.status_code, _text(exc), headers, model, overflow)
    if isinstance(exc, openai.APITimeoutError):
        return LLMTimeoutError(
            message=f"{model} did not answer in time. The provider may be busy; send the message again.",
            code=error_code("TIMEOUT"),
        )
    if isinstance(exc, (openai.APIConnectionError, httpx.TransportError)):
        return LLMConnectionError(
            message=f"Could not reach the model endpoint for {model} ({type(exc).__name__}). "
            "Check the network and the provider's base URL, then try again.",
            code=error_code("INTERNAL_SERVER_ERROR"),
        )
    return None


def _text(exc: openai.APIStatusError) -> str:
    text = error_text(exc.body) or exc.message or ""
    return text if len(text) <= _MAX_TEXT else text[: _MAX_TEXT - 3] + "..."


def _status_error(status: int, text: str, headers: Any, model: str, overflow: bool) -> Exception:
    said = f" The provider said: {text}" if text else ""
    if status in (400, 413) and overflow:
        # The only error class that makes Letta summarize the conversation and retry.
        return ContextWindowExceededError(
            message=f"The conversation no longer fits the context window of {model}.{said}",
            details={"status": status, "provider_error": text},
        )
    if status == 402:
        return LLMInsufficientCreditsError(
            message=f"The provider reports insufficient credit for {model} (402). Top up the account or raise its "
            f"spend limit, then send the message again.{said}",
            code=error_code("PAYMENT_REQUIRED"),
        )
    if status == 429:
        hint = rate_limit_hint(headers)
        return LLMRateLimitError(
            message=f"Rate limited by the provider for {model} (429)"
            + (f": {hint}" if hint else "")
            + ". Wait for the limit to reset, then send the message again; repeated bursts can earn a temporary block.",
            code=error_code("RATE_LIMIT_EXCEEDED"),
        )
    if status == 401:
        return LLMAuthenticationError(
            message=f"The provider rejected the API key for {model} (401). Check VENICE_API_KEY, or the key of the "
            f"provider this model belongs to.{said}",
            code=error_code("UNAUTHENTICATED"),
        )
    if status == 403:
        return LLMPermissionDeniedError(
            message=f"The provider refused access to {model} (403); the key may lack access to it.{said}",
            code=error_code("PERMISSION_DENIED"),
        )
    if status in (404, 410):
        return LLMNotFoundError(
            message=f"The provider does not know {model} ({status}); it may have been renamed or removed. "
            f"Pick another model.{said}",
            code=error_code("NOT_FOUND"),
        )
    if status >= 500:
        busy = " It is at capacity right now." if status == 503 else ""
        return LLMServerError(
            message=f"The provider failed while answering with {model} ({status}).{busy} This is usually "
            f"temporary: send the message again in a moment.{said}",
            code=error_code("INTERNAL_SERVER_ERROR"),
        )
    return LLMBadRequestError(
        message=f"The provider rejected the request for {model} ({status}).{said}",
        code=error_code("INVALID_ARGUMENT"),
    )


def broken_stream_error(exc: BaseException, model: str, in_call: bool) -> Exception:
    """The stream stopped before the model finished: nothing from it is executed."""
    where = " while the model was writing a tool call" if in_call else ""
    if isinstance(exc, (httpx.TimeoutException, openai.APITimeoutError)):
        cause = "it sent nothing for longer than LETTA_LLM_REQUEST_TIMEOUT_SECONDS"
    else:
        detail = str(exc).strip().splitlines()[0][:160] if str(exc).strip() else ""
        cause = f"{type(exc).__name__}: {detail}" if detail else type(exc).__name__
    return LLMConnectionError(
        message=f"The reply stream from {model} broke off{where}; nothing from it was executed. "
        f"Send the message again. ({cause})",
        code=error_code("INTERNAL_SERVER_ERROR"),
    )


# An attestation that could not be had is temporary; one that was had and failed a check is a
# refusal on security grounds, never retried into plaintext.
_E2EE_TEMPORARY = frozenset({"transport", "unavailable", "http_status", "stream_error"})


def _e2ee_error(exc: e2ee.E2EEError, model: str) -> Exception:
    """End-to-end encryption failures as Letta errors; the message (which never holds keys or
    plaintext) already says what happened and what to do."""
    message = f"{model} (end-to-end encrypted): {exc.message}"
    details = {"e2ee_check": exc.check}
    if isinstance(exc, e2ee.AttestationError):
        if exc.check in _E2EE_TEMPORARY:
            return LLMServerError(message=message, code=error_code("INTERNAL_SERVER_ERROR"), details=details)
        if exc.check == "unsupported_model":
            return LLMBadRequestError(message=message, code=error_code("INVALID_ARGUMENT"), details=details)
        return LLMPermissionDeniedError(message=message, code=error_code("PERMISSION_DENIED"), details=details)
    if isinstance(exc, e2ee.RequestError):
        return LLMBadRequestError(message=message, code=error_code("INVALID_ARGUMENT"), details=details)
    return LLMServerError(message=message, code=error_code("INTERNAL_SERVER_ERROR"), details=details)
