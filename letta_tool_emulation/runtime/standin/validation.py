"""Request validation, as strict as Venice's published schema (additionalProperties: false)."""

from __future__ import annotations

from typing import Any

from ...step import approx_tokens
from .catalog import EMULATED_MODEL, MAX_COMPLETION_TOKENS, NATIVE_MODEL

REQUEST_KEYS = frozenset(
    {
        "model", "messages", "temperature", "top_p", "top_k", "min_p", "min_temp", "max_temp", "max_completion_tokens",
        "max_tokens", "frequency_penalty", "presence_penalty", "repetition_penalty", "stop", "stop_token_ids", "seed",
        "stream", "stream_options", "logprobs", "top_logprobs", "n", "response_format", "reasoning", "reasoning_effort",
        "prompt_cache_key", "prompt_cache_retention", "user", "store", "text", "include", "metadata",
        "venice_parameters", "tools", "tool_choice", "parallel_tool_calls",
    }
)  # fmt: skip
VENICE_PARAMETER_KEYS = frozenset(
    {
        "include_venice_system_prompt", "strip_thinking_response", "disable_thinking", "enable_web_search",
        "enable_web_scraping", "enable_web_citations", "include_search_results_in_stream",
        "return_search_results_as_documents", "character_slug",
    }
)  # fmt: skip


class Invalid(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


# Where Venice's schema allows null; anywhere else a null is a 400.
NULLABLE_TOP_LEVEL = frozenset({"stop", "tools"})
NULLABLE_IN_MESSAGE = {
    "assistant": frozenset({"content", "name", "reasoning_content", "reasoning_details", "tool_calls"}),
    "tool": frozenset({"name", "reasoning_content", "tool_calls"}),
    "user": frozenset({"name"}),
    "system": frozenset({"name"}),
    "developer": frozenset({"name"}),
}


def _nulls(value: Any, path: str) -> str | None:
    if value is None:
        return path
    if isinstance(value, dict):
        for k, v in value.items():
            found = _nulls(v, f"{path}.{k}")
            if found:
                return found
    if isinstance(value, list):
        for i, v in enumerate(value):
            found = _nulls(v, f"{path}[{i}]")
            if found:
                return found
    return None


def _null_where_forbidden(body: dict[str, Any]) -> str | None:
    for key, value in body.items():
        if key == "messages" and isinstance(value, list):
            for i, m in enumerate(value):
                if not isinstance(m, dict):
                    continue
                allowed = NULLABLE_IN_MESSAGE.get(m.get("role", ""), frozenset())
                for field_name, v in m.items():
                    found = None if (v is None and field_name in allowed) else _nulls(v, f"messages[{i}].{field_name}")
                    if found:
                        return found
        elif not (value is None and key in NULLABLE_TOP_LEVEL):
            found = _nulls(value, key)
            if found:
                return found
    return None


def validate(body: Any, *, nulls: bool = False, extra_keys: frozenset[str] = frozenset()) -> None:
    """Venice's checks; ``nulls`` lets null values through, as OpenAI does; ``extra_keys``: the
    request fields a local server kind takes beside them."""
    if not isinstance(body, dict):
        raise Invalid(400, "Invalid request: body must be a JSON object")
    unknown = sorted(set(body) - REQUEST_KEYS - extra_keys)
    if unknown:
        raise Invalid(400, f"Invalid request: unrecognized key(s) in object: {', '.join(map(repr, unknown))}")
    where = None if nulls else _null_where_forbidden(body)
    if where:
        raise Invalid(400, f"Invalid request: {where} must not be null")
    model = body.get("model")
    if model not in (EMULATED_MODEL, NATIVE_MODEL):
        raise Invalid(404, f"Model {model!r} not found")
    extra = set(body.get("venice_parameters") or {}) - VENICE_PARAMETER_KEYS
    if extra:
        raise Invalid(400, f"Invalid request: unrecognized key(s) in venice_parameters: {sorted(extra)}")
    limit = body.get("max_completion_tokens", body.get("max_tokens"))
    if isinstance(limit, int) and limit > MAX_COMPLETION_TOKENS:
        raise Invalid(
            400,
            f"Invalid request: max_completion_tokens {limit} exceeds the model's maximum of {MAX_COMPLETION_TOKENS}",
        )
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise Invalid(400, "Invalid request: messages must be a non-empty array")
    native = model == NATIVE_MODEL
    if not native and any(k in body for k in ("tools", "tool_choice", "parallel_tool_calls")):
        raise Invalid(400, f"Invalid request: model {model} does not support function calling (tools)")
    for i, m in enumerate(messages):
        role = m.get("role") if isinstance(m, dict) else None
        if role not in ("system", "developer", "user", "assistant", "tool"):
            raise Invalid(400, f"Invalid request: messages[{i}].role is invalid")
        if not native and (role == "tool" or (role == "assistant" and "tool_calls" in m)):
            raise Invalid(400, f"Invalid request: messages[{i}]: model {model} does not support tool messages")
        content = m.get("content")
        if role == "assistant" and not content and not m.get("tool_calls"):
            raise Invalid(400, f"Invalid request: messages[{i}]: assistant messages need content or tool_calls")
        if role in ("system", "developer", "user") and not content:
            raise Invalid(400, f"Invalid request: messages[{i}].content must not be empty")


def estimate_tokens(text: str) -> int:
    return max(1, approx_tokens(text))
