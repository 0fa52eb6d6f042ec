"""The conformance tier's scripted model on its own: the same answer natively and as text."""

from __future__ import annotations

import json
from typing import Any

import pytest

from letta_tool_emulation.core import parse_tool_calls
from letta_tool_emulation.runtime.standin.suite import SAYS, SLOW_REPLY, plan

DICE = {"name": "roll_dice", "parameters": {"type": "object", "properties": {"num_sides": {"type": "integer"}}}}
SEND = {"name": "send_message", "parameters": {"type": "object", "properties": {"message": {"type": "string"}}}}
SECRET = {
    "name": "get_secret_code_tool",
    "parameters": {"type": "object", "properties": {"input_text": {"type": "string"}}},
}


def with_thinking(tool: dict[str, Any]) -> dict[str, Any]:
    props = {
        "thinking": {"type": "string"},
        **tool["parameters"]["properties"],
        "request_heartbeat": {"type": "boolean"},
    }
    return {**tool, "parameters": {"type": "object", "properties": props}}


def native_body(tools: list[dict[str, Any]], messages: list[dict[str, Any]]) -> dict[str, Any]:
    return {"messages": messages, "tools": [{"type": "function", "function": t} for t in tools]}


def text_body(tools: list[dict[str, Any]], messages: list[dict[str, Any]]) -> dict[str, Any]:
    listed = "\n".join(f"- {t['name']}(...)" for t in tools)
    return {"messages": [{"role": "system", "content": f"You are Sam.\n\n# Tools\n{listed}"}, *messages]}


def calls_of(body: dict[str, Any], *, native: bool, prose: bool) -> tuple[str, list[tuple[str, dict[str, Any]]], float]:
    reply = plan(body, native=native, prose=prose)
    if native:
        return reply["text"], [(c["name"], json.loads(c["arguments"])) for c in reply["tool_calls"]], reply["delay"]
    parsed = parse_tool_calls(reply["text"], None)
    return parsed.content, [(c.name, dict(c.arguments)) for c in parsed.tool_calls], reply["delay"]


ASK = "This is an automated test message. Call the roll_dice tool with 16 sides and reply back to me with the outcome."
PARALLEL = (
    "This is an automated test message. Please call the roll_dice tool EXACTLY three times in parallel - no more, "
    "no less. Call it with num_sides=6, num_sides=12, and num_sides=20."
)


@pytest.mark.parametrize("prose", [False, True])
@pytest.mark.parametrize(("said", "expected"), [(ASK, [16]), (PARALLEL, [6, 12, 20])])
def test_both_models_make_the_same_calls(said: str, expected: list[int], prose: bool) -> None:
    messages = [{"role": "user", "content": said}]
    native = calls_of(native_body([DICE], messages), native=True, prose=prose)
    emulated = calls_of(text_body([DICE], messages), native=False, prose=prose)
    assert native == emulated
    text, calls, delay = native
    assert calls == [("roll_dice", {"num_sides": n}) for n in expected]
    assert text == (SAYS["roll_dice"] if prose else "")
    assert delay == (SLOW_REPLY if said == ASK else 0.0)  # the cancellation tests' prompt is answered slowly


def test_where_letta_asks_for_thinking_the_native_model_writes_there() -> None:
    messages = [
        {"role": "user", "content": "Call the send_message tool with the message 'Teamwork makes the dream work'."}
    ]
    tools = [with_thinking(SEND), with_thinking(DICE)]
    for prose in (False, True):
        reply = plan(native_body(tools, messages), native=True, prose=prose)
        assert reply["text"] == ""
        assert reply["tool_calls"] == [{"name": "send_message", "arguments": json.dumps(
            {"thinking": SAYS["send_message"] if prose else "", "message": "Teamwork makes the dream work",
             "request_heartbeat": False},
            separators=(",", ":"))}]  # fmt: skip


def test_tool_results_are_read_from_both_transcripts() -> None:
    asked = {"role": "user", "content": ASK}
    native = [
        asked,
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "roll_dice", "arguments": '{"num_sides":16}'}}]},
        {"role": "tool", "tool_call_id": "c1", "content": json.dumps({"status": "OK", "message": "7", "time": ""})},
    ]  # fmt: skip
    text = [
        asked,
        {"role": "assistant", "content": 'TOOL_CALL_START\n{"function": "roll_dice", "params": {"num_sides": 16}}\nTOOL_CALL_END'},
        {"role": "user", "content": "TOOL_RESULT roll_dice status: OK\n7\nTOOL_RESULT_END"},
    ]  # fmt: skip
    answer = {"text": "I rolled the die and got 7.", "tool_calls": [], "delay": 0.0}
    assert plan(native_body([DICE], native), native=True, prose=False) == answer
    assert plan(text_body([DICE], text), native=False, prose=False) == answer


def test_approvals_ask_for_every_secret_code_and_answer_with_a_pause() -> None:
    said = (
        "This is an automated test message. Call the get_secret_code_tool 3 times in parallel for the following "
        "inputs: 'hello world', 'hello letta', 'hello test', and also call the roll_dice_tool once with a 16-sided dice."
    )
    dice = {**DICE, "name": "roll_dice_tool"}
    _, calls, _ = calls_of(native_body([SECRET, dice], [{"role": "user", "content": said}]), native=True, prose=False)
    assert calls == [
        ("get_secret_code_tool", {"input_text": t}) for t in ("hello world", "hello letta", "hello test")
    ] + [("roll_dice_tool", {"num_sides": 16})]
    result = [
        {"role": "user", "content": "Call the get_secret_code_tool to get the code for text 'hello world'."},
        {"role": "user", "content": "TOOL_RESULT get_secret_code_tool status: OK\n740845635798344975\nTOOL_RESULT_END"},
    ]
    # Letta's test cancels the run once the stream shows something: the model pauses after its first words.
    assert plan(text_body([SECRET], result), native=False, prose=True) == {
        "text": "The secret code is 740845635798344975.", "tool_calls": [], "delay": 0.0,
        "stall_after": 7, "stall": SLOW_REPLY, "chunk": 7,
    }  # fmt: skip
