"""Fixtures for the Letta adapter tests: letta's own types, the client, histories."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

import pytest

from letta_tool_emulation import venice
from letta_tool_emulation.runtime.standin import EMULATED_MODEL, StandIn, model_catalog

from .cassettes import RECORD, REPLAY_BASE_URL


@pytest.fixture(scope="session")
def letta() -> Any:
    """letta, with the plugin active (the .pth hook does it; activate() is idempotent)."""
    import letta_tool_emulation

    assert letta_tool_emulation.activate()
    import letta as letta_module

    return letta_module


@pytest.fixture(scope="session")
def standin() -> Iterator[StandIn]:
    with StandIn() as s:
        yield s


@pytest.fixture
def base_url(request: pytest.FixtureRequest) -> Iterator[str]:
    """Where the client sends: the live stand-in or Venice when recording, else nowhere."""
    if RECORD == "venice":
        url = venice.base_url()
        assert venice.api_key(), "recording against Venice needs VENICE_API_KEY"
    elif RECORD == "stand-in":
        url = request.getfixturevalue("standin").url
    else:
        url = REPLAY_BASE_URL
    old = os.environ.get("VENICE_BASE_URL")
    os.environ["VENICE_BASE_URL"] = url
    os.environ.setdefault("VENICE_API_KEY", "test-key")
    # What the stand-in's /models says; Venice's own answer when recording against it.
    venice.CAPABILITIES.clear()
    models = venice.fetch_models(url, venice.api_key()) if RECORD == "venice" else venice.parse_models(model_catalog())
    venice.CAPABILITIES.store(url, models)
    yield url
    venice.CAPABILITIES.clear()
    if old is None:
        os.environ.pop("VENICE_BASE_URL", None)
    else:
        os.environ["VENICE_BASE_URL"] = old


def make_config(letta: Any, base_url: str, model: str = EMULATED_MODEL, **extra: Any) -> Any:
    from letta.schemas.llm_config import LLMConfig

    fields = {
        "model": model,
        "model_endpoint_type": "openai",
        "model_endpoint": base_url,
        "context_window": 32768,
        "provider_name": "venice",
        "provider_category": "base",
        "handle": f"venice/{model}",
        "max_tokens": 16384,
        "put_inner_thoughts_in_kwargs": False,
        "enable_reasoner": False,
        "max_reasoning_tokens": 0,
    }
    fields.update(extra)
    return LLMConfig(**fields)


@pytest.fixture
def config(letta: Any, base_url: str) -> Any:
    return make_config(letta, base_url)


def letta_tools(*names: str) -> list[dict[str, Any]]:
    import letta.functions.function_sets.base as base
    from letta.functions.schema_generator import generate_schema

    return [generate_schema(getattr(base, n)) for n in names]


@pytest.fixture
def tools(letta: Any) -> list[dict[str, Any]]:
    return letta_tools("memory_insert", "memory_replace", "conversation_search")


def system(text: str = "You are Sam, a helpful agent with memory.") -> Any:
    from letta.schemas.enums import MessageRole
    from letta.schemas.letta_message_content import TextContent
    from letta.schemas.message import Message

    return Message(role=MessageRole.system, content=[TextContent(text=text)])


def user(text: str) -> Any:
    from letta.schemas.enums import MessageRole
    from letta.schemas.letta_message_content import TextContent
    from letta.schemas.message import Message

    return Message(role=MessageRole.user, content=[TextContent(text=text)])


def assistant_call(call: Any, prose: str = "") -> Any:
    """How Letta stores an assistant turn with a call: prose as reasoning, text scrubbed."""
    from letta.schemas.enums import MessageRole
    from letta.schemas.letta_message_content import ReasoningContent
    from letta.schemas.message import Message
    from openai.types.chat.chat_completion_message_tool_call import ChatCompletionMessageToolCall, Function

    tool_call = ChatCompletionMessageToolCall(
        id=call.id, type="function", function=Function(name=call.function.name, arguments=call.function.arguments)
    )
    content = [ReasoningContent(reasoning=prose, is_native=True)] if prose else []
    return Message(role=MessageRole.assistant, content=content, tool_calls=[tool_call])


def tool_result(call: Any, message: str, status: str = "OK") -> Any:
    from letta.schemas.enums import MessageRole
    from letta.schemas.letta_message_content import TextContent
    from letta.schemas.message import Message

    body = json.dumps({"status": status, "message": message, "time": "2026-11-22 10:00:00 AM UTC+0000"}, indent=2)
    return Message(
        role=MessageRole.tool, content=[TextContent(text=body)], tool_call_id=call.id, name=call.function.name
    )
