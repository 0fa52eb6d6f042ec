"""Venice's errors become Letta's, with messages that say what to do and never a secret."""

from __future__ import annotations

from typing import Any

import httpx
import openai
import pytest

from letta_tool_emulation.runtime.standin import Scripted

from .cassettes import RECORD, cassette
from .conftest import system, user
from .test_turns import MARKERS, blocking, call_block, client, streamed


def script(request: pytest.FixtureRequest, *replies: Scripted) -> None:
    if RECORD == "stand-in":
        standin = request.getfixturevalue("standin")
        standin.reset()
        standin.script(*replies)


# The OpenAI SDK retries 429 and 5xx twice by itself; the stand-in asks it not to wait long.
FAST = {"retry-after-ms": "5"}
RATE = {
    **FAST,
    "x-ratelimit-limit-requests": "20",
    "x-ratelimit-remaining-requests": "0",
    "x-ratelimit-reset-requests": "2026-11-22T10:01:00Z",
}

CASES = [
    (
        "credits_402",
        [Scripted(status=402, error="Insufficient USD or Diem balance to complete request")],
        "LLMInsufficientCreditsError",
        ["Top up"],
    ),
    (
        "rate_limit_429",
        [Scripted(status=429, error="Rate limit exceeded", headers=RATE)] * 3,
        "LLMRateLimitError",
        ["resets at 2026-11-22T10:01:00Z", "Wait for the limit to reset"],
    ),
    (
        "server_500",
        [Scripted(status=500, error="Inference failed", headers=FAST)] * 3,
        "LLMServerError",
        ["(500)", "send the message again"],
    ),
    (
        "capacity_503",
        [Scripted(status=503, error="The model is at capacity", headers=FAST)] * 3,
        "LLMServerError",
        ["at capacity", "send the message again"],
    ),
    (
        "context_400",
        [Scripted(status=400, error="Input exceeds the model's maximum context length of 32768 tokens")],
        "ContextWindowExceededError",
        ["no longer fits"],
    ),
    ("auth_401", [Scripted(status=401, error="Authentication failed")], "LLMAuthenticationError", ["VENICE_API_KEY"]),
    (
        "bad_request_400",
        [Scripted(status=400, error="Invalid request: temperature must be <= 2")],
        "LLMBadRequestError",
        ["temperature must be <= 2"],
    ),
]


@pytest.mark.parametrize(("name", "replies", "error_class", "fragments"), CASES, ids=[c[0] for c in CASES])
async def test_venice_errors_map_to_letta_errors(
    request: pytest.FixtureRequest,
    config: Any,
    tools: list[dict[str, Any]],
    name: str,
    replies: list[Scripted],
    error_class: str,
    fragments: list[str],
) -> None:
    script(request, *replies)
    c = client()
    from letta.errors import LettaError

    with cassette("stand-in", f"error_{name}") as cass, pytest.raises(LettaError) as raised:
        await blocking(c, config, [system(), user("Hello")], tools)
    assert len(cass.requests) == len(replies)  # the plugin's own retries, nothing more
    mapped = raised.value  # mapped where the model is known; Letta keeps it as it is
    assert c.handle_llm_error(mapped, config) is mapped
    assert isinstance(mapped.__cause__, openai.APIStatusError)
    assert type(mapped).__name__ == error_class
    text = str(mapped)
    for fragment in fragments:
        assert fragment in text
    assert "test-key" not in text and "Bearer" not in text


def test_context_overflow_is_the_error_that_makes_letta_summarize(letta: Any, config: Any) -> None:
    from letta.errors import ContextWindowExceededError

    response = httpx.Response(
        400,
        json={"error": {"code": "context_length_exceeded", "message": "too long"}},
        request=httpx.Request("POST", "http://x/v1/chat/completions"),
    )
    exc = openai.BadRequestError(
        "too long", response=response, body={"error": {"code": "context_length_exceeded", "message": "too long"}}
    )
    mapped = client().handle_llm_error(exc, config)
    assert isinstance(mapped, ContextWindowExceededError)
    # Already mapped errors pass through unchanged (Letta's stock mapping would wrap them).
    assert client().handle_llm_error(mapped, config) is mapped


def test_transport_errors(letta: Any, config: Any) -> None:
    req = httpx.Request("POST", "http://x/v1/chat/completions")
    timeout = client().handle_llm_error(openai.APITimeoutError(request=req), config)
    assert type(timeout).__name__ == "LLMTimeoutError" and "did not answer in time" in str(timeout)
    conn = client().handle_llm_error(openai.APIConnectionError(request=req), config)
    assert type(conn).__name__ == "LLMConnectionError" and "Could not reach" in str(conn)


def test_native_models_keep_lettas_own_mapping(letta: Any, base_url: str) -> None:
    from letta.llm_api.openai_client import OpenAIClient

    from .conftest import make_config

    native = make_config(
        letta, "https://api.openai.com/v1", "gpt-4o-mini", provider_name="openai", handle="openai/gpt-4o-mini"
    )
    response = httpx.Response(
        402, json={"error": "no"}, request=httpx.Request("POST", "https://api.openai.com/v1/chat/completions")
    )
    exc = openai.APIStatusError("no", response=response, body={"error": "no"})
    ours, stock = client().handle_llm_error(exc, native), OpenAIClient().handle_llm_error(exc, native)
    assert type(ours) is type(stock) and str(ours) == str(stock)


async def test_stream_that_breaks_mid_call_executes_nothing(
    letta: Any, standin: Any, tools: list[dict[str, Any]]
) -> None:
    from letta.errors import LLMConnectionError

    from .conftest import make_config

    config = make_config(letta, standin.url)
    from letta_tool_emulation import venice
    from letta_tool_emulation.runtime.standin import model_catalog

    venice.CAPABILITIES.store(standin.url, venice.parse_models(model_catalog()))
    text = "Saving now.\n" + call_block("memory_insert", {"label": "human", "new_string": "x" * 200})
    standin.reset()
    standin.script(Scripted(text=text, break_after=text.index("new_string") + 20, chunk=4))
    chunks: list[Any] = []
    with pytest.raises(LLMConnectionError) as raised:
        chunks += await streamed(client(), config, [system(), user("Remember x.")], tools)
    assert "broke off while the model was writing a tool call" in str(raised.value)
    assert "nothing from it was executed" in str(raised.value)
    assert chunks == []  # the generator raised before the caller saw any tool call


async def test_stream_break_yields_only_safe_text_before_the_error(
    letta: Any, standin: Any, tools: list[dict[str, Any]]
) -> None:
    from letta.errors import LLMConnectionError

    from letta_tool_emulation import venice
    from letta_tool_emulation.runtime.standin import model_catalog

    from .conftest import make_config

    config = make_config(letta, standin.url)
    venice.CAPABILITIES.store(standin.url, venice.parse_models(model_catalog()))
    text = "I am saving that for you right away.\n" + call_block("memory_insert", {"label": "human", "new_string": "y"})
    standin.reset()
    standin.script(Scripted(text=text, break_after=text.index("TOOL_CALL_START") + 30, chunk=4))
    data = client().build_request_data(
        __import__("letta.schemas.enums", fromlist=["AgentType"]).AgentType.letta_v1_agent,
        [system(), user("Remember y.")],
        config,
        tools,
    )
    stream = await client().stream_async(data, config)
    seen: list[Any] = []
    with pytest.raises(LLMConnectionError):
        async with stream:
            async for chunk in stream:
                seen.append(chunk)
    text_out = "".join(c.choices[0].delta.content or "" for c in seen if c.choices)
    assert text_out == "I am saving that for you right away.\n"
    assert not any(m in text_out for m in MARKERS)
    assert not any(c.choices and c.choices[0].delta.tool_calls for c in seen)
