"""What the client sends: exactly Letta's request for native models; a clean text-only
request for emulated ones."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from letta_tool_emulation import parse_tool_calls
from letta_tool_emulation.runtime.standin import EMULATED_MODEL, NATIVE_MODEL, Invalid, validate
from letta_tool_emulation.step import EmulatedRequest

from .conftest import assistant_call, letta_tools, make_config, system, tool_result, user


def fake_call(name: str, args: dict[str, Any], call_id: str = "call_0123456789abcdef01234567") -> Any:
    from openai.types.chat.chat_completion_message_tool_call import ChatCompletionMessageToolCall, Function

    return ChatCompletionMessageToolCall(
        id=call_id, type="function", function=Function(name=name, arguments=json.dumps(args))
    )


def history() -> list[Any]:
    first = fake_call("memory_insert", {"label": "human", "new_string": "Likes pizza."})
    second = fake_call("conversation_search", {"query": "pizza"}, "call_abcdefabcdefabcdefabcdefab")
    return [
        system(),
        user("Remember that I like pizza."),
        assistant_call(first, prose="Got it, saving that."),
        tool_result(first, "Name: Ana\nLikes pizza."),
        assistant_call(second),
        tool_result(second, "No results found.", status="Failed"),
        user("Thanks! What do you know about me?"),
    ]


AGENT_TYPES = ["letta_v1_agent", "memgpt_v2_agent", "memgpt_agent"]


def agent_type(name: str) -> Any:
    from letta.schemas.enums import AgentType

    return AgentType(name)


def build(
    client: Any, kind: str, messages: list[Any], config: Any, tools: list[dict[str, Any]], **kwargs: Any
) -> dict[str, Any]:
    return client.build_request_data(
        agent_type(kind), copy.deepcopy(messages), copy.deepcopy(config), copy.deepcopy(tools), **kwargs
    )


def clients(letta: Any) -> tuple[Any, Any]:
    from letta.llm_api.llm_client import LLMClient
    from letta.llm_api.openai_client import OpenAIClient

    from letta_tool_emulation.adapter import EmulatedToolsClient

    ours = LLMClient.create("openai")
    assert type(ours) is EmulatedToolsClient
    return ours, OpenAIClient()


# -- native models: exactly Letta's request ---------------------------------------------------


@pytest.mark.parametrize("kind", AGENT_TYPES)
@pytest.mark.parametrize(
    "options",
    [{}, {"force_tool_call": "memory_insert"}, {"requires_subsequent_tool_call": True}, {"system": "Override."}],
    ids=["auto", "forced", "required", "system"],
)
@pytest.mark.parametrize("native", ["venice-native", "openai", "openai-proxy"])
def test_native_models_get_exactly_lettas_request(
    letta: Any, base_url: str, kind: str, options: dict[str, Any], native: str
) -> None:
    ours, stock = clients(letta)
    if native == "venice-native":
        config = make_config(letta, base_url, NATIVE_MODEL)
    elif native == "openai":
        config = make_config(
            letta, "https://api.openai.com/v1", "gpt-4o-mini", provider_name="openai", handle="openai/gpt-4o-mini"
        )
    else:
        config = make_config(
            letta, "http://127.0.0.1:9/v1", "mistral-7b", provider_name="openai", handle="openai-proxy/mistral-7b"
        )
    tools = letta_tools("memory_insert", "memory_replace", "conversation_search", "send_message")
    assert build(ours, kind, history(), config, tools, **options) == build(
        stock, kind, history(), config, tools, **options
    )


async def test_native_model_wire_request_and_response_equal_stock(
    letta: Any, standin: Any, tools: list[dict[str, Any]]
) -> None:
    ours, stock = clients(letta)
    config = make_config(
        letta,
        standin.url,
        NATIVE_MODEL,
        provider_name="openai-proxy",
        handle="openai-proxy/stand-in-native",
        max_tokens=4096,
    )
    results = []
    for client in (ours, stock):
        standin.reset()
        data = build(client, "letta_v1_agent", history(), config, tools)
        raw = await client.request_async(data, config)
        converted = await client.convert_response_to_chat_completion(raw, history(), config)
        results.append((standin.requests, converted))
    (sent_ours, ours_resp), (sent_stock, stock_resp) = results
    assert sent_ours == sent_stock and len(sent_ours) == 1
    assert "tools" in sent_ours[0]  # the native model gets real tools
    # The stand-in makes fresh ids and timestamps per response; everything else must match.
    assert _comparable(ours_resp) == _comparable(stock_resp)


def _comparable(response: Any) -> dict[str, Any]:
    data = response.model_dump()
    data.pop("id"), data.pop("created")
    for choice in data["choices"]:
        for call in choice["message"].get("tool_calls") or []:
            call.pop("id")
    return data


# -- emulated models: clean, text-only requests ------------------------------------------------


def emulated(letta: Any, base_url: str, kind: str, tools: list[dict[str, Any]], **kwargs: Any) -> dict[str, Any]:
    ours, _ = clients(letta)
    data = build(ours, kind, history(), make_config(letta, base_url), tools, **kwargs)
    assert isinstance(data, EmulatedRequest)
    assert "supportsFunctionCalling=false" in data.step.decision.reason
    return dict(data)


def walk(value: Any) -> list[Any]:
    out = [value]
    if isinstance(value, dict):
        for v in value.values():
            out += walk(v)
    elif isinstance(value, list):
        for v in value:
            out += walk(v)
    return out


@pytest.mark.parametrize("kind", AGENT_TYPES)
@pytest.mark.parametrize(
    "options",
    [{}, {"force_tool_call": "memory_insert"}, {"requires_subsequent_tool_call": True}],
    ids=["auto", "forced", "required"],
)
def test_emulated_request_has_no_tools_tool_roles_nulls_or_unknown_keys(
    letta: Any, base_url: str, kind: str, options: dict[str, Any]
) -> None:
    tools = letta_tools("memory_insert", "memory_replace", "conversation_search", "send_message")
    data = emulated(letta, base_url, kind, tools, **options)
    for key in ("tools", "tool_choice", "parallel_tool_calls", "user", "functions"):
        assert key not in data
    assert None not in walk(data)
    assert all(
        m["role"] in ("system", "user", "assistant") and isinstance(m["content"], str) and m["content"]
        for m in data["messages"]
    )
    assert all(set(m) == {"role", "content"} for m in data["messages"])
    validate(data)  # the stand-in's Venice-strict validation accepts it
    assert data["venice_parameters"] == {"include_venice_system_prompt": False}
    assert data["max_completion_tokens"] == 4096  # Letta sent 16384; the model allows 4096


def test_stand_in_validation_rejects_what_letta_sends_natively(
    letta: Any, base_url: str, tools: list[dict[str, Any]]
) -> None:
    # The control: the validator is strict enough to catch the stock request.
    _, stock = clients(letta)
    stock_data = build(stock, "letta_v1_agent", history(), make_config(letta, base_url), tools)
    with pytest.raises(Invalid) as exc:
        validate(stock_data)
    assert exc.value.status == 400


def test_prose_next_to_a_call_survives_into_the_next_request(
    letta: Any, base_url: str, tools: list[dict[str, Any]]
) -> None:
    data = emulated(letta, base_url, "letta_v1_agent", tools)
    assistant = [m for m in data["messages"] if m["role"] == "assistant"]
    assert assistant[0]["content"].startswith("Got it, saving that.\nTOOL_CALL_START")
    calls = parse_tool_calls(assistant[0]["content"], tools).tool_calls
    assert [(c.name, c.arguments) for c in calls] == [
        ("memory_insert", {"label": "human", "new_string": "Likes pizza."})
    ]


def test_text_letta_scrubs_from_beside_a_call_is_shown_to_the_model_again_once(
    letta: Any, base_url: str, tools: list[dict[str, Any]]
) -> None:
    """Letta stores a native model's text beside a call as text, and its agent loop removes that
    text from the history before each step (scrub_inner_thoughts_from_messages); the emulated
    model still sees it, once, with its call."""
    from letta.agents import letta_agent_v2
    from letta.schemas.enums import MessageRole
    from letta.schemas.letta_message_content import TextContent
    from letta.schemas.message import Message

    ours, _ = clients(letta)  # an agent loop creating its client: the loop's scrub is watched from then on
    call = fake_call("memory_insert", {"label": "human", "new_string": "Likes pizza."})
    stored = Message(role=MessageRole.assistant, content=[TextContent(text="Got it, saving that.")], tool_calls=[call])
    messages = [system(), user("Remember that I like pizza."), stored, tool_result(call, "Name: Ana\nLikes pizza.")]
    config = make_config(letta, base_url)
    messages = letta_agent_v2.scrub_inner_thoughts_from_messages(messages, config)  # as the loop does
    assert messages[2].content == []  # Letta's own behaviour, unchanged
    data = ours.build_request_data(agent_type("letta_v1_agent"), messages, config, copy.deepcopy(tools))
    said = [m["content"] for m in data["messages"] if m["role"] == "assistant"]
    assert len(said) == 1 and said[0].startswith("Got it, saving that.\nTOOL_CALL_START")
    assert said[0].count("Got it, saving that.") == 1


def test_tool_results_are_text_tied_to_their_call(letta: Any, base_url: str, tools: list[dict[str, Any]]) -> None:
    data = emulated(letta, base_url, "letta_v1_agent", tools)
    texts = [m["content"] for m in data["messages"] if m["role"] == "user"]
    assert any(t.startswith("TOOL_RESULT memory_insert status: OK\nName: Ana\nLikes pizza.") for t in texts)
    assert any("TOOL_RESULT conversation_search status: Failed\nNo results found." in t for t in texts)


def test_tool_prompt_is_in_the_system_message(letta: Any, base_url: str, tools: list[dict[str, Any]]) -> None:
    data = emulated(letta, base_url, "letta_v1_agent", tools)
    system_text = data["messages"][0]["content"]
    assert system_text.startswith("You are Sam") and "# Tools" in system_text
    # The example names the agent's own tool and parameters, with placeholders: reciting it runs nothing.
    assert '{"function": "memory_insert", "params": {"label": "<label>", "new_string": "<new_string>"}}' in system_text
    for name in ("memory_insert", "memory_replace", "conversation_search"):
        assert f"- {name}(" in system_text


def test_forced_tool_is_an_instruction(letta: Any, base_url: str, tools: list[dict[str, Any]]) -> None:
    data = emulated(letta, base_url, "letta_v1_agent", tools, force_tool_call="memory_replace")
    assert "You must call the tool memory_replace now" in data["messages"][0]["content"]
    assert data["messages"][-1]["content"].endswith(
        "You must call the tool memory_replace now, in this reply, using a TOOL_CALL_START block."
    )


def test_memgpt_injected_parameters_are_hidden_from_the_model(letta: Any, base_url: str) -> None:
    tools = letta_tools("send_message", "core_memory_append")
    ours, _ = clients(letta)
    config = make_config(letta, base_url, put_inner_thoughts_in_kwargs=True)
    data = build(ours, "memgpt_agent", history(), config, tools)
    system_text = data["messages"][0]["content"]
    assert "- core_memory_append(label: string, content: string)" in system_text
    assert "thinking" not in system_text.split("# Tools", 1)[1] and "request_heartbeat" not in system_text


def test_earlier_calls_are_shown_without_lettas_injected_arguments(letta: Any, base_url: str) -> None:
    tools = letta_tools("send_message", "core_memory_append")
    for tool in tools:  # as stored for memgpt-style agents
        tool["parameters"]["properties"]["request_heartbeat"] = {"type": "boolean", "description": "Continue after."}
        tool["parameters"]["required"].append("request_heartbeat")
    ours, _ = clients(letta)
    thought = fake_call(
        "core_memory_append", {"thinking": "Saving it.", "label": "human", "content": "x", "request_heartbeat": True}
    )
    messages = [
        system(),
        user("Remember x."),
        assistant_call(thought, "Saving it."),
        tool_result(thought, "Name: Ana\nx"),
        user("Thanks"),
    ]
    config = make_config(letta, base_url, put_inner_thoughts_in_kwargs=True)
    data = build(ours, "memgpt_agent", messages, config, tools)
    earlier = next(m["content"] for m in data["messages"] if m["role"] == "assistant")
    assert (
        earlier
        == 'Saving it.\nTOOL_CALL_START\n{"function": "core_memory_append", "params": {"label": "human", "content": "x"}}\nTOOL_CALL_END'
    )


def test_venice_system_prompt_can_be_switched_on(
    letta: Any, base_url: str, tools: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LETTA_TOOL_EMULATION_VENICE_SYSTEM_PROMPT", "1")
    assert emulated(letta, base_url, "letta_v1_agent", tools)["venice_parameters"] == {
        "include_venice_system_prompt": True
    }


def test_any_openai_compatible_endpoint_by_pattern(
    letta: Any, tools: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LETTA_TOOL_EMULATION_MODELS", "ollama/*")
    ours, _ = clients(letta)
    config = make_config(letta, "http://127.0.0.1:9/v1", "llama3", provider_name="ollama", handle="ollama/llama3")
    data = build(ours, "letta_v1_agent", history(), config, tools)
    assert "ollama/*" in data.step.decision.reason
    data = dict(data)
    assert "tools" not in data and "venice_parameters" not in data  # Venice's dialect only for Venice
    # The model's limit is unknown: the default cap, in both spellings (some local servers know only one).
    assert data.pop("max_completion_tokens") == data.pop("max_tokens") == 2048
    assert data["stop"] == ["\nTOOL_RESULT "]  # where an invented tool result would begin
    validate({**data, "model": EMULATED_MODEL})


def test_output_fits_what_the_context_leaves(
    letta: Any, tools: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LETTA_TOOL_EMULATION_MODELS", "ollama/*")
    ours, _ = clients(letta)
    small = make_config(letta, "http://127.0.0.1:9/v1", "llama3", provider_name="ollama", handle="ollama/llama3",
                        context_window=3000)  # fmt: skip
    data = build(ours, "letta_v1_agent", history(), small, tools)
    prompt = sum(len(str(m["content"]).encode()) / 4 + 4 for m in data["messages"])
    assert 256 <= data["max_completion_tokens"] <= 3000 - prompt
    monkeypatch.setenv("LETTA_TOOL_EMULATION_MAX_OUTPUT_TOKENS", "300")
    assert build(ours, "letta_v1_agent", history(), make_config(letta, "http://127.0.0.1:9/v1", "llama3",
                 provider_name="ollama", handle="ollama/llama3"), tools)["max_tokens"] == 300  # fmt: skip


def test_summarizer_requests_without_tools_get_no_prompt(letta: Any, base_url: str) -> None:
    data = emulated(letta, base_url, "letta_v1_agent", [])
    assert "# Tools" not in data["messages"][0]["content"]
    assert all(m["role"] != "tool" for m in data["messages"])
    validate(data)


def test_model_wrapper_forces_emulation_off_and_on(letta: Any, base_url: str, tools: list[dict[str, Any]]) -> None:
    ours, stock = clients(letta)
    off = make_config(letta, base_url, model_wrapper="native-tools")
    assert build(ours, "letta_v1_agent", history(), off, tools) == build(stock, "letta_v1_agent", history(), off, tools)
    on = make_config(letta, base_url, NATIVE_MODEL, model_wrapper="tool-emulation")
    assert "model_wrapper=tool-emulation" in build(ours, "letta_v1_agent", history(), on, tools).step.decision.reason
