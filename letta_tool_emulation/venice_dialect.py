"""Venice.ai's dialect of the OpenAI API: what its requests may carry, what its ``/models``
says, how its errors read. Pure rules over plain values: nothing here reads the environment
or touches the network (fetching and caching the catalogue is ``venice.py``).

Venice is OpenAI-compatible but strict (no nulls, no unknown keys), describes each model's
capabilities in ``GET /models`` (``model_spec.capabilities.supportsFunctionCalling``,
``availableContextTokens``, ``maxCompletionTokens``), and reports errors as
``{"error": "..."}``. Any endpoint that answers ``/models`` in that shape (the stand-in
model does) is treated the same way.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


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
        spec = _mapping(m.get("model_spec"))
        if spec.get("offline") is True:
            continue
        caps = _mapping(spec.get("capabilities"))
        kind = m["type"] if isinstance(m.get("type"), str) else "text"
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


def _mapping(v: Any) -> Mapping[str, Any]:
    return v if isinstance(v, Mapping) else {}


def _bool(v: Any) -> bool | None:
    return v if isinstance(v, bool) else None


def _int(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) and v > 0 else None


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

# Venice's own system prompt would compete with the agent's and the tool instructions, so an
# emulated request turns it off unless the user asks for it (venice.venice_parameters()).
DEFAULT_VENICE_PARAMETERS: Mapping[str, Any] = {"include_venice_system_prompt": False}


def clean_request(body: Mapping[str, Any]) -> dict[str, Any]:
    """Only keys a strict OpenAI-compatible endpoint accepts, and no null values."""
    return {k: v for k, v in body.items() if k in REQUEST_KEYS and v is not None}


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
