"""Token streaming (stream_tokens=True): the same outcomes, and never any call markup."""

from __future__ import annotations

import json
from typing import Any

import pytest
from letta_client import APIStatusError

from letta_tool_emulation.runtime.standin import Scripted

from .conftest import block, new_agent, of_type, say, stream
from .test_flow import MARKERS, history_is_consistent
from .test_memory import call


def streamed_text(events: list[Any]) -> str:
    return "".join(getattr(e, "content", "") or "" for e in of_type(events, "assistant_message"))


def call_names(events: list[Any]) -> list[str]:
    """Calls in order: a streamed call arrives as several events (name first, then arguments)."""
    names: dict[str, str] = {}
    for e in of_type(events, "tool_call_message"):
        call_id = e.tool_call.tool_call_id
        if call_id not in names or (e.tool_call.name and not names[call_id]):
            names[call_id] = names.get(call_id) or e.tool_call.name or ""
    return list(names.values())


def stop_reason(events: list[Any]) -> str | None:
    stops = of_type(events, "stop_reason")
    return stops[-1].stop_reason if stops else None


@pytest.mark.parametrize("kind", ["letta_v1_agent", "memgpt_agent"])
def test_streamed_memory_edit(letta: Any, standin: Any, kind: str) -> None:
    agent = new_agent(letta, kind)
    standin.script(
        Scripted(
            text="Noted, I'll remember that.\n"
            + call(
                "memory_insert" if kind == "letta_v1_agent" else "core_memory_append",
                label="human",
                **({"new_string": "Likes pizza."} if kind == "letta_v1_agent" else {"content": "Likes pizza."}),
            ),
            chunk=3,
        )
    )
    events = stream(letta, agent, "Remember that I like pizza")
    assert block(letta, agent) == "Name: Ana\nLikes pizza."
    assert call_names(events) == ["memory_insert" if kind == "letta_v1_agent" else "core_memory_append"]
    assert of_type(events, "tool_return_message")
    text = streamed_text(events)
    assert text and not any(m in text for m in MARKERS)
    assert stop_reason(events) == "end_turn"
    history_is_consistent(letta, agent)


def test_streamed_two_calls_and_plain_answer(letta: Any) -> None:
    agent = new_agent(letta)
    events = stream(letta, agent, "Remember that I like pizza and also remember that I have a cat")
    assert call_names(events) == ["memory_insert", "memory_insert"]
    assert block(letta, agent) == "Name: Ana\nI like pizza\nI have a cat"
    events = stream(letta, agent, "Thanks!")
    assert of_type(events, "tool_call_message") == []
    assert streamed_text(events) == "You said: Thanks!"


def test_streamed_rejected_call_is_retried(letta: Any, standin: Any) -> None:
    agent = new_agent(letta)
    standin.script(
        Scripted(
            text="Saving it.\nTOOL_CALL_START\n{'function': 'memory_insert', 'params': {'label': 'human'}}\nTOOL_CALL_END"
        ),
        Scripted(text=call("memory_insert", label="human", new_string="Likes tea")),
        Scripted(text="Saved."),
    )
    events = stream(letta, agent, "Remember that I like tea")
    assert call_names(events) == ["memory_insert"]
    assert block(letta, agent) == "Name: Ana\nLikes tea"
    assert not any(m in streamed_text(events) for m in MARKERS)


@pytest.mark.parametrize("failure", ["break", "stall"])
def test_stream_that_fails_mid_call_executes_nothing(letta: Any, standin: Any, failure: str) -> None:
    agent = new_agent(letta)
    text = "Saving.\n" + call("memory_insert", label="human", new_string="Should never be saved " + "x" * 100)
    mid = text.index("new_string") + 10
    # "stall": silent for longer than LETTA_LLM_REQUEST_TIMEOUT_SECONDS (10 s in these tests).
    options = {"break_after": mid} if failure == "break" else {"stall_after": mid, "stall": 25.0}
    standin.script(Scripted(text=text, chunk=4, **options))
    events: list[Any] = []
    with pytest.raises(APIStatusError) as raised:
        for event in letta.agents.messages.create(
            agent_id=agent.id,
            messages=[{"role": "user", "content": "Remember this"}],
            streaming=True,
            stream_tokens=True,
        ):
            events.append(event)
    detail = json.dumps(raised.value.body)
    assert "broke off while the model was writing a tool call" in detail and "nothing from it was executed" in detail
    if failure == "stall":
        assert "LETTA_LLM_REQUEST_TIMEOUT_SECONDS" in detail
    assert of_type(events, "tool_call_message") == []
    assert not any(m in streamed_text(events) for m in MARKERS)
    assert block(letta, agent) == "Name: Ana"
    history_is_consistent(letta, agent)
    say(letta, agent, "Remember that I like tea")  # the conversation goes on
    assert block(letta, agent) == "Name: Ana\nI like tea"


def test_a_reply_cut_at_the_output_limit_says_so_streamed_as_it_does_whole(letta: Any, standin: Any) -> None:
    story = "Once upon a time a cat walked along the river and"
    standin.script(Scripted(text=story, finish_reason="length", chunk=4))
    events = stream(letta, new_agent(letta), "Tell me a long story")
    standin.script(Scripted(text=story, finish_reason="length"))
    whole = [m.content for m in of_type(say(letta, new_agent(letta), "Tell me a long story").messages,
                                        "assistant_message")]  # fmt: skip
    assert whole and whole[-1].startswith(story) and "cut off" in whole[-1]
    assert streamed_text(events) == whole[-1]
