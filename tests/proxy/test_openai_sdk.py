"""The OpenAI Python SDK against the proxy, in front of the stand-in's model without function
calling: native-shaped tool calls, streamed and not, with every tool_choice, parallel calls
and a whole tool loop; and what passes through untouched."""

from __future__ import annotations

import json
import logging
from typing import Any

import httpx
import pytest
from openai import OpenAI

from letta_tool_emulation.proxy import ProxyServer
from letta_tool_emulation.runtime.standin import (
    CONTEXT_TOKENS,
    EMULATED_MODEL,
    MAX_COMPLETION_TOKENS,
    NATIVE_MODEL,
    StandIn,
)

from .conftest import MEMORY_TOOLS
from .test_contract import call_block

REMEMBER = [{"role": "user", "content": "Remember that I like pears"}]


def arguments(call: Any) -> dict[str, Any]:
    parsed = json.loads(call.function.arguments)
    assert isinstance(parsed, dict)
    return parsed


def system_prompt(upstream: StandIn, index: int = -1) -> str:
    messages = upstream.requests[index]["messages"]
    return str(messages[0]["content"]) if messages[0]["role"] == "system" else ""


def test_a_call_comes_back_as_a_native_tool_call(sdk: OpenAI, upstream: StandIn) -> None:
    r = sdk.chat.completions.create(model=EMULATED_MODEL, messages=REMEMBER, tools=MEMORY_TOOLS)
    choice = r.choices[0]
    assert choice.finish_reason == "tool_calls"
    (call,) = choice.message.tool_calls or []
    assert call.type == "function" and call.id.startswith("call_")
    assert call.function.name == "memory_insert"
    assert arguments(call) == {"label": "human", "new_string": "I like pears"}
    assert r.usage is not None and r.usage.total_tokens > 0
    # What the model without function calling was sent: text only, the tools in the prompt.
    sent = upstream.requests[-1]
    assert "tools" not in sent and "memory_insert(" in system_prompt(upstream)


def test_the_streamed_call_adds_up_in_the_sdks_own_accumulator(sdk: OpenAI, upstream: StandIn) -> None:
    with sdk.chat.completions.stream(model=EMULATED_MODEL, messages=REMEMBER, tools=MEMORY_TOOLS) as stream:
        kinds = [event.type for event in stream]
        final = stream.get_final_completion()
    assert "tool_calls.function.arguments.done" in kinds
    (call,) = final.choices[0].message.tool_calls or []
    assert final.choices[0].finish_reason == "tool_calls"
    assert call.function.name == "memory_insert"
    assert json.loads(call.function.arguments) == {"label": "human", "new_string": "I like pears"}


def test_a_multi_turn_tool_loop(sdk: OpenAI, upstream: StandIn) -> None:
    messages: list[dict[str, Any]] = [{"role": "user", "content": "Remember that I like figs"}]
    first = sdk.chat.completions.create(model=EMULATED_MODEL, messages=messages, tools=MEMORY_TOOLS)
    (call,) = first.choices[0].message.tool_calls or []
    messages.append(first.choices[0].message.model_dump(exclude_none=True))
    messages.append({"role": "tool", "tool_call_id": call.id, "content": '{"status": "OK"}'})
    second = sdk.chat.completions.create(model=EMULATED_MODEL, messages=messages, tools=MEMORY_TOOLS, stream=True)
    text = "".join(c.choices[0].delta.content or "" for c in second if c.choices)
    assert text == "Done."
    # The model saw its call and the result as text: no tool role, no tool_calls field.
    sent = upstream.requests[-1]["messages"]
    assert all(m["role"] in ("system", "user", "assistant") and "tool_calls" not in m for m in sent)
    assert any('"status": "OK"' in str(m["content"]) for m in sent)
    assert any("memory_insert" in str(m["content"]) for m in sent if m["role"] == "assistant")


def test_tools_empty_with_calls_in_the_history(sdk: OpenAI, upstream: StandIn) -> None:
    history = [
        {"role": "user", "content": "Remember that I like figs"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "memory_insert", "arguments": '{"label": "human", "new_string": "figs"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "OK"},
        {"role": "user", "content": "Thanks!"},
    ]
    r = sdk.chat.completions.create(model=EMULATED_MODEL, messages=history, tools=[])  # type: ignore[arg-type]
    assert r.choices[0].finish_reason == "stop" and r.choices[0].message.tool_calls is None
    assert r.choices[0].message.content == "You said: Thanks!"
    sent = upstream.requests[-1]
    assert "tools" not in sent and all(m["role"] != "tool" for m in sent["messages"])


def test_tool_choice_required_asks_again_until_a_call_comes(sdk: OpenAI, upstream: StandIn) -> None:
    upstream.script({"text": "I'd rather just chat."},
                    {"text": call_block("archival_memory_search", query="pears")})  # fmt: skip
    r = sdk.chat.completions.create(model=EMULATED_MODEL, messages=REMEMBER, tools=MEMORY_TOOLS, tool_choice="required")
    assert [c.function.name for c in r.choices[0].message.tool_calls or []] == ["archival_memory_search"]
    assert "You must call at least one tool" in system_prompt(upstream, 0)
    assert len(upstream.requests) == 2


def test_tool_choice_naming_a_function(sdk: OpenAI, upstream: StandIn) -> None:
    upstream.script({"text": call_block("archival_memory_search", query="pears")})
    r = sdk.chat.completions.create(
        model=EMULATED_MODEL, messages=REMEMBER, tools=MEMORY_TOOLS,
        tool_choice={"type": "function", "function": {"name": "archival_memory_search"}},
    )  # fmt: skip
    assert [c.function.name for c in r.choices[0].message.tool_calls or []] == ["archival_memory_search"]
    assert "You must call the tool archival_memory_search" in system_prompt(upstream)


def test_tool_choice_naming_a_function_not_offered_is_refused_as_openai_does(sdk: OpenAI, upstream: StandIn) -> None:
    import openai

    with pytest.raises(openai.BadRequestError) as raised:
        sdk.chat.completions.create(
            model=EMULATED_MODEL, messages=REMEMBER, tools=MEMORY_TOOLS,
            tool_choice={"type": "function", "function": {"name": "send_email"}},
        )  # fmt: skip
    assert raised.value.status_code == 400 and "send_email" in raised.value.message
    assert upstream.requests == []  # the model was not asked


def test_tool_choice_none_shows_the_model_no_tools(sdk: OpenAI, upstream: StandIn) -> None:
    r = sdk.chat.completions.create(model=EMULATED_MODEL, messages=REMEMBER, tools=MEMORY_TOOLS, tool_choice="none")
    assert r.choices[0].message.tool_calls is None and r.choices[0].finish_reason == "stop"
    assert r.choices[0].message.content == "You said: Remember that I like pears"
    assert "memory_insert" not in json.dumps(upstream.requests[-1])


def test_tool_choice_auto_lets_the_model_answer(sdk: OpenAI, upstream: StandIn) -> None:
    r = sdk.chat.completions.create(
        model=EMULATED_MODEL, messages=[{"role": "user", "content": "Hello"}], tools=MEMORY_TOOLS, tool_choice="auto"
    )
    assert r.choices[0].message.content == "You said: Hello" and r.choices[0].message.tool_calls is None


TWO = [{"role": "user", "content": "Remember that I like pears and also remember that I like figs"}]


@pytest.mark.parametrize("streamed", [False, True])
def test_parallel_calls_go_out_together(sdk: OpenAI, upstream: StandIn, streamed: bool) -> None:
    if streamed:
        with sdk.chat.completions.stream(model=EMULATED_MODEL, messages=TWO, tools=MEMORY_TOOLS) as stream:
            calls = stream.get_final_completion().choices[0].message.tool_calls or []
    else:
        r = sdk.chat.completions.create(model=EMULATED_MODEL, messages=TWO, tools=MEMORY_TOOLS)
        calls = r.choices[0].message.tool_calls or []
    assert [arguments(c)["new_string"] for c in calls] == ["I like pears", "I like figs"]
    assert len({c.id for c in calls}) == 2


def test_without_parallel_calls_the_first_goes_out_and_the_rest_is_logged(
    sdk: OpenAI, upstream: StandIn, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="letta_tool_emulation.proxy"):
        r = sdk.chat.completions.create(
            model=EMULATED_MODEL, messages=TWO, tools=MEMORY_TOOLS, parallel_tool_calls=False
        )
    assert [arguments(c)["new_string"] for c in r.choices[0].message.tool_calls or []] == ["I like pears"]
    assert any("parallel_tool_calls is false" in rec.message and "not returned: memory_insert" in rec.message
               for rec in caplog.records)  # fmt: skip


def test_strict_tools_get_arguments_that_fit_their_schema(sdk: OpenAI, upstream: StandIn) -> None:
    tools = [{**t, "function": {**t["function"], "strict": True}} for t in MEMORY_TOOLS]
    upstream.script({"text": call_block("archival_memory_search", limit=3)},  # no query: re-asked
                    {"text": call_block("archival_memory_search", query="pears")})  # fmt: skip
    r = sdk.chat.completions.create(model=EMULATED_MODEL, messages=REMEMBER, tools=tools)  # type: ignore[arg-type]
    (call,) = r.choices[0].message.tool_calls or []
    assert arguments(call) == {"query": "pears"}
    assert len(upstream.requests) == 2
    # A value of the wrong type is coerced where that is safe: a string property gets a string.
    upstream.script({"text": call_block("archival_memory_search", query=42)})
    r = sdk.chat.completions.create(model=EMULATED_MODEL, messages=REMEMBER, tools=tools)  # type: ignore[arg-type]
    assert arguments((r.choices[0].message.tool_calls or [])[0]) == {"query": "42"}


@pytest.mark.parametrize(
    ("field", "asked", "sent"),
    [
        ("max_tokens", 100, 100),
        ("max_completion_tokens", 200, 200),
        ("max_completion_tokens", 32000, MAX_COMPLETION_TOKENS),
    ],
)
def test_output_limits(sdk: OpenAI, upstream: StandIn, field: str, asked: int, sent: int) -> None:
    sdk.chat.completions.create(model=EMULATED_MODEL, messages=REMEMBER, tools=MEMORY_TOOLS, **{field: asked})  # type: ignore[call-overload]
    assert upstream.requests[-1]["max_completion_tokens"] == sent


def test_store_false_is_accepted_and_not_sent_to_the_model(sdk: OpenAI, upstream: StandIn) -> None:
    r = sdk.chat.completions.create(model=EMULATED_MODEL, messages=REMEMBER, tools=MEMORY_TOOLS, store=False)
    assert r.choices[0].message.tool_calls
    assert "store" not in upstream.requests[-1]


def test_a_native_model_gets_the_request_untouched(sdk: OpenAI, upstream: StandIn) -> None:
    r = sdk.chat.completions.create(model=NATIVE_MODEL, messages=REMEMBER, tools=MEMORY_TOOLS, store=False)
    assert [c.function.name for c in r.choices[0].message.tool_calls or []] == ["memory_insert"]
    assert upstream.requests[-1] == {"model": NATIVE_MODEL, "messages": REMEMBER, "tools": MEMORY_TOOLS,
                                     "store": False}  # fmt: skip


def test_a_request_without_tools_passes_through_untouched(sdk: OpenAI, upstream: StandIn) -> None:
    stream = sdk.chat.completions.create(model=EMULATED_MODEL, messages=REMEMBER, stream=True, temperature=0.5)
    assert (
        "".join(c.choices[0].delta.content or "" for c in stream if c.choices) == "You said: Remember that I like pears"
    )
    assert upstream.requests[-1] == {"model": EMULATED_MODEL, "messages": REMEMBER, "stream": True, "temperature": 0.5}


def test_a_pass_through_output_limit_above_the_models_own_is_lowered(sdk: OpenAI, upstream: StandIn) -> None:
    r = sdk.chat.completions.create(model=EMULATED_MODEL, messages=REMEMBER, max_completion_tokens=32000)
    assert r.choices[0].message.content == "You said: Remember that I like pears"
    assert upstream.requests[-1] == {"model": EMULATED_MODEL, "messages": REMEMBER,
                                     "max_completion_tokens": MAX_COMPLETION_TOKENS}  # fmt: skip


def test_models_lists_the_upstreams_ids_with_their_limits(sdk: OpenAI, proxy: ProxyServer) -> None:
    models = {m.id: m.model_dump() for m in sdk.models.list()}
    assert {EMULATED_MODEL, NATIVE_MODEL} <= set(models)
    assert models[EMULATED_MODEL]["context_length"] == CONTEXT_TOKENS
    assert models[EMULATED_MODEL]["max_completion_tokens"] == MAX_COMPLETION_TOKENS
    # LM Studio's listing, which LM Studio connectors read the context window from.
    listed = httpx.get(proxy.url.removesuffix("/v1") + "/api/v0/models", timeout=30).json()["data"]
    assert {m["id"]: m.get("max_context_length") for m in listed}[EMULATED_MODEL] == CONTEXT_TOKENS


def test_a_bad_request_gets_an_openai_error(sdk: OpenAI) -> None:
    import openai

    with pytest.raises(openai.BadRequestError) as raised:
        sdk.chat.completions.create(model=EMULATED_MODEL, messages=[], tools=MEMORY_TOOLS)
    assert raised.value.status_code == 400 and "messages" in raised.value.message


def test_the_example_runs_as_documented(proxy: ProxyServer, upstream: StandIn) -> None:
    import os
    import subprocess
    import sys
    from pathlib import Path

    example = Path(__file__).resolve().parents[2] / "examples" / "proxy_openai_sdk.py"
    upstream.script({"text": call_block("remember", fact="The user likes pears.")}, {"text": "Noted: you like pears."})
    done = subprocess.run(
        [sys.executable, str(example)], env={**os.environ, "PROXY_BASE_URL": proxy.url}, capture_output=True,
        text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert 'tool call: remember({"fact": "The user likes pears."})' in done.stdout
    assert "model:     Noted: you like pears." in done.stdout
    assert "memory:    ['The user likes pears.']" in done.stdout
