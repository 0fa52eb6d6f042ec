"""Whole model turns through the client, on recorded HTTP (cassettes/), blocking and streaming.

Every recorded request is checked for what an emulated request must never carry. Cassettes
recorded from the stand-in model also have their exact outcomes checked (the stand-in's
replies are scripted here); cassettes recorded from real Venice are checked for shape.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from letta_tool_emulation import parse_tool_calls
from letta_tool_emulation.runtime.standin import Scripted, validate

from .cassettes import RECORD, ROOT, SOURCES, cassette, requests_made
from .conftest import assistant_call, system, tool_result, user

# The stand-in recordings are committed and always replayed; Venice recordings when present.
PRESENT = ["stand-in"] + [s for s in SOURCES if s != "stand-in" and ((ROOT / s).is_dir() or s == RECORD)]
MARKERS = ("TOOL_CALL_START", "TOOL_CALL_END", "<tool_call", "TOOL_RESULT", "[TOOL_CALLS]")


def call_block(name: str, args: dict[str, Any]) -> str:
    return f"TOOL_CALL_START\n{json.dumps({'function': name, 'params': args})}\nTOOL_CALL_END"


PIZZA = {"label": "human", "new_string": "Likes pizza."}
DOG = {"label": "human", "new_string": "Has a dog named Rex."}


@pytest.fixture(params=PRESENT)
def source(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def script(source: str, request: pytest.FixtureRequest) -> Any:
    """Queue stand-in replies when recording from it; a no-op otherwise."""

    def queue(*replies: Scripted) -> None:
        if RECORD == "stand-in" and source == "stand-in":
            request.getfixturevalue("standin").reset()
            request.getfixturevalue("standin").script(*replies)

    return queue


@pytest.fixture
def decisions(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every decision the client makes: one per request, however many model requests it takes."""
    from letta_tool_emulation.adapter import client as client_module

    made: list[Any] = []
    decide = client_module.decide

    def counted(config: Any) -> Any:
        made.append(config)
        return decide(config)

    monkeypatch.setattr(client_module, "decide", counted)
    return made


def exact(source: str) -> bool:
    return source == "stand-in"


def client() -> Any:
    from letta.llm_api.llm_client import LLMClient

    return LLMClient.create("openai")


def agent_type() -> Any:
    from letta.schemas.enums import AgentType

    return AgentType.letta_v1_agent


def check_requests(cass: Any) -> None:
    """What no request to a model without function calling may contain."""
    chats = [r for r in cass.requests if r.path.endswith("/chat/completions")]
    assert chats, "the turn made a model request"
    for r in chats:
        body = json.loads(r.body)
        for key in ("tools", "tool_choice", "parallel_tool_calls", "user"):
            assert key not in body
        assert all(m["role"] in ("system", "user", "assistant") for m in body["messages"])
        validate(body)


async def blocking(c: Any, config: Any, messages: list[Any], tools: list[dict[str, Any]], **kwargs: Any) -> Any:
    data = c.build_request_data(agent_type(), messages, config, tools, **kwargs)
    raw = await c.request_async(data, config)
    return await c.convert_response_to_chat_completion(raw, messages, config)


async def streamed(c: Any, config: Any, messages: list[Any], tools: list[dict[str, Any]]) -> list[Any]:
    data = c.build_request_data(agent_type(), messages, config, tools)
    stream = await c.stream_async(data, config)
    chunks = []
    async with stream:
        async for chunk in stream:
            chunks.append(chunk)
    return chunks


def stream_parts(chunks: list[Any]) -> tuple[str, str, list[dict[str, Any]], Any]:
    """Content, reasoning, calls (assembled by index, as Letta does) and usage of a stream."""
    content, reasoning, usage = "", "", None
    calls: dict[int, dict[str, Any]] = {}
    for ch in chunks:
        if ch.usage is not None:
            usage = ch.usage
        for choice in ch.choices:
            d = choice.delta
            content += d.content or ""
            reasoning += getattr(d, "reasoning_content", None) or ""
            for tc in d.tool_calls or []:
                call = calls.setdefault(tc.index, {"index": tc.index, "id": None, "name": "", "arguments": ""})
                if call["id"] is None:
                    assert tc.id, "a call's first delta carries its id"
                    call["id"] = tc.id
                call["name"] += tc.function.name or ""
                call["arguments"] += tc.function.arguments or ""
    return content, reasoning, list(calls.values()), usage


def check_call(call: Any, tools: list[dict[str, Any]]) -> dict[str, Any]:
    assert call.id.startswith("call_") and len(call.id) <= 29
    assert call.function.name in {t["name"] for t in tools}
    args = json.loads(call.function.arguments)
    assert isinstance(args, dict)
    return args


# -- blocking -------------------------------------------------------------------------------


async def test_one_call(source: str, script: Any, config: Any, tools: list[dict[str, Any]]) -> None:
    script(Scripted(text="Noted!\n" + call_block("memory_insert", PIZZA)))
    messages = [system(), user("Remember that I like pizza.")]
    with cassette(source, "one_call") as cass:
        response = await blocking(client(), config, messages, tools)
    check_requests(cass)
    message = response.choices[0].message
    assert len(message.tool_calls) == 1 and response.choices[0].finish_reason == "tool_calls"
    args = check_call(message.tool_calls[0], tools)
    assert response.usage.total_tokens > 0
    if exact(source):
        assert (message.tool_calls[0].function.name, args) == ("memory_insert", PIZZA)
        # What a native model sends: its text beside the call, and no reasoning it did not write.
        assert message.content == "Noted!" and message.reasoning_content is None


async def test_two_calls_run_in_order_one_per_step(
    source: str, script: Any, config: Any, tools: list[dict[str, Any]]
) -> None:
    script(
        Scripted(text="Saving both.\n" + call_block("memory_insert", PIZZA) + "\n" + call_block("memory_insert", DOG)),
        Scripted(text="All saved."),
    )
    c = client()
    messages = [system(), user("Remember that I like pizza and that I have a dog named Rex.")]
    with cassette(source, "two_calls") as cass:
        first = await blocking(c, config, messages, tools)
        call1 = first.choices[0].message.tool_calls[0]
        messages += [assistant_call(call1, "Saving both."), tool_result(call1, "Likes pizza.")]
        second = await blocking(c, config, messages, tools)
        calls = second.choices[0].message.tool_calls or []
        if calls:  # the second call, handed out without asking the model again
            assert requests_made(cass) == 1
            messages += [assistant_call(calls[0]), tool_result(calls[0], "Likes pizza.\nHas a dog named Rex.")]
            third = await blocking(c, config, messages, tools)
            assert third.choices[0].message.content
    check_requests(cass)
    if exact(source):
        assert json.loads(call1.function.arguments) == PIZZA
        assert [json.loads(t.function.arguments) for t in calls] == [DOG]
        assert calls[0].id != call1.id
        assert third.choices[0].message.content == "All saved."
        assert len(cass.requests) == 2  # two model requests for three steps


async def test_no_call_ends_with_text(source: str, script: Any, config: Any, tools: list[dict[str, Any]]) -> None:
    script(Scripted(text="Hello! How can I help you today?"))
    with cassette(source, "no_call") as cass:
        response = await blocking(client(), config, [system(), user("Hi there!")], tools)
    check_requests(cass)
    message = response.choices[0].message
    assert not message.tool_calls and message.content and response.choices[0].finish_reason == "stop"
    assert not any(m in message.content for m in MARKERS)
    if exact(source):
        assert message.content == "Hello! How can I help you today?"


async def test_rejected_call_is_reported_and_retried(
    source: str, script: Any, config: Any, tools: list[dict[str, Any]], decisions: list[Any]
) -> None:
    script(
        Scripted(
            text='Saving.\nTOOL_CALL_START\nmemory_insert(label="human", new_string="Likes pizza.")\nTOOL_CALL_END'
        ),
        Scripted(text=call_block("memory_insert", PIZZA)),
    )
    with cassette(source, "rejected_then_retried") as cass:
        response = await blocking(client(), config, [system(), user("Remember that I like pizza.")], tools)
    check_requests(cass)
    assert len(response.choices[0].message.tool_calls) == 1
    assert len(decisions) == 1  # decided once, for both model requests
    if exact(source):
        bodies = [json.loads(r.body) for r in cass.requests]
        assert len(bodies) == 2
        feedback = bodies[1]["messages"][-1]["content"]
        assert "nothing was executed" in feedback and "did not contain a JSON object" in feedback
        assert parse_tool_calls(feedback, tools).tool_calls == []  # the quoted attempt cannot fire
        assert bodies[1]["messages"][-2] == {"role": "assistant", "content": bodies[1]["messages"][-2]["content"]}
        assert json.loads(response.choices[0].message.tool_calls[0].function.arguments) == PIZZA


def test_sync_request_reasks_like_the_others(
    source: str, script: Any, config: Any, tools: list[dict[str, Any]]
) -> None:
    """Letta's synchronous request() goes through the same engine: a rejected call is re-asked."""
    script(
        Scripted(text='TOOL_CALL_START\n{"function": "memory_insert", "params": {"label": "human"}}\nTOOL_CALL_END'),
        Scripted(text=call_block("memory_insert", PIZZA)),
    )
    messages = [system(), user("Remember that I like pizza.")]
    with cassette(source, "sync_rejected_then_retried") as cass:
        c = client()
        raw = c.request(c.build_request_data(agent_type(), messages, config, tools), config)
    check_requests(cass)
    calls = raw["choices"][0]["message"]["tool_calls"]
    assert len(calls) == 1 and raw["choices"][0]["finish_reason"] == "tool_calls"
    if exact(source):
        assert len(cass.requests) == 2
        assert "missing required parameter 'new_string'" in json.loads(cass.requests[1].body)["messages"][-1]["content"]
        assert json.loads(calls[0]["function"]["arguments"]) == PIZZA


async def test_failed_tool_is_shown_and_the_model_retries(
    source: str, script: Any, config: Any, tools: list[dict[str, Any]]
) -> None:
    fixed = {"label": "human", "old_string": "Name: Ana", "new_string": "Name: Bob"}
    script(Scripted(text="That text was not found; using the exact line now.\n" + call_block("memory_replace", fixed)))
    from .test_requests import fake_call

    failed = fake_call("memory_replace", {"label": "human", "old_string": "name is Ana", "new_string": "name is Bob"})
    messages = [
        system(),
        user("My name is Bob now, not Ana."),
        assistant_call(failed, "Updating your name."),
        tool_result(
            failed,
            "No replacement was performed, old_string `name is Ana` did not appear verbatim in memory block with label `human`.",
            status="Failed",
        ),
    ]
    with cassette(source, "failed_tool_retry") as cass:
        response = await blocking(client(), config, messages, tools)
    check_requests(cass)
    sent = json.loads(cass.requests[0].body)["messages"]
    assert "TOOL_RESULT memory_replace status: Failed\nNo replacement was performed" in sent[-1]["content"]
    assert sent[-2]["content"].startswith("Updating your name.\nTOOL_CALL_START")
    if exact(source):
        assert json.loads(response.choices[0].message.tool_calls[0].function.arguments) == fixed


async def test_missing_usage_is_estimated(source: str, script: Any, config: Any, tools: list[dict[str, Any]]) -> None:
    script(Scripted(text="Sure thing.", usage=False))
    with cassette(source, "usage_missing") as cass:
        response = await blocking(client(), config, [system(), user("Say something.")], tools)
    check_requests(cass)
    assert response.usage.prompt_tokens > 100 and response.usage.completion_tokens > 0  # never 0: compaction needs it


# -- streaming ------------------------------------------------------------------------------


async def test_stream_one_call_without_marker_text(
    source: str, script: Any, config: Any, tools: list[dict[str, Any]]
) -> None:
    script(Scripted(text="Noted, saving it.\n" + call_block("memory_insert", PIZZA) + "\nAnything else?", chunk=5))
    with cassette(source, "stream_one_call") as cass:
        chunks = await streamed(client(), config, [system(), user("Remember that I like pizza.")], tools)
    check_requests(cass)
    content, reasoning, calls, usage = stream_parts(chunks)
    assert not any(m in content for m in MARKERS) and not any(m in reasoning for m in MARKERS)
    assert len(calls) == 1 and calls[0]["id"] and calls[0]["name"] == "memory_insert"
    assert isinstance(json.loads(calls[0]["arguments"]), dict)
    assert usage is not None and usage.total_tokens > 0
    assert chunks[-1].usage is not None and chunks[-1].choices == []
    if exact(source):
        assert content == "Noted, saving it.\n\nAnything else?"
        assert json.loads(calls[0]["arguments"]) == PIZZA
        assert reasoning == ""  # nothing written as reasoning, and no text sent a second time


async def test_stream_two_calls_hands_out_one(
    source: str, script: Any, config: Any, tools: list[dict[str, Any]]
) -> None:
    script(Scripted(text=call_block("memory_insert", PIZZA) + call_block("memory_insert", DOG)))
    c = client()
    messages = [system(), user("Remember that I like pizza and that I have a dog named Rex.")]
    with cassette(source, "stream_two_calls") as cass:
        chunks = await streamed(c, config, messages, tools)
        _, _, calls, _ = stream_parts(chunks)
        assert len(calls) == 1
        from openai.types.chat.chat_completion_message_tool_call import ChatCompletionMessageToolCall, Function

        first = ChatCompletionMessageToolCall(
            id=calls[0]["id"],
            type="function",
            function=Function(name=calls[0]["name"], arguments=calls[0]["arguments"]),
        )
        messages += [assistant_call(first), tool_result(first, "Likes pizza.")]
        second = await streamed(c, config, messages, tools) if exact(source) else []
    check_requests(cass)
    if exact(source):
        _, _, calls2, usage2 = stream_parts(second)
        assert [json.loads(c["arguments"]) for c in calls2] == [DOG]
        assert usage2 is not None and usage2.total_tokens == 0  # no model was asked
        assert len(cass.requests) == 1


async def test_stream_no_call(source: str, script: Any, config: Any, tools: list[dict[str, Any]]) -> None:
    script(Scripted(text="Hello! `TOOL_CALL_START` is how I call tools, but nothing to do now.", chunk=3))
    with cassette(source, "stream_no_call") as cass:
        chunks = await streamed(client(), config, [system(), user("Hi!")], tools)
    check_requests(cass)
    content, _, calls, usage = stream_parts(chunks)
    assert calls == [] and content and usage.total_tokens > 0
    if exact(source):
        assert content == "Hello! `TOOL_CALL_START` is how I call tools, but nothing to do now."  # inline code stays


async def test_stream_rejected_call_is_retried(
    source: str, script: Any, config: Any, tools: list[dict[str, Any]], decisions: list[Any]
) -> None:
    script(
        Scripted(text='TOOL_CALL_START\n{"function": "memory_insert", "params": {"label": "human"}}\nTOOL_CALL_END'),
        Scripted(text=call_block("memory_insert", PIZZA)),
    )
    with cassette(source, "stream_rejected_then_retried") as cass:
        chunks = await streamed(client(), config, [system(), user("Remember that I like pizza.")], tools)
    check_requests(cass)
    content, _, calls, _ = stream_parts(chunks)
    assert len(calls) == 1 and not any(m in content for m in MARKERS)
    assert len(decisions) == 1  # decided once, for both model requests
    if exact(source):
        assert len(cass.requests) == 2
        assert "missing required parameter 'new_string'" in json.loads(cass.requests[1].body)["messages"][-1]["content"]
        assert json.loads(calls[0]["arguments"]) == PIZZA
