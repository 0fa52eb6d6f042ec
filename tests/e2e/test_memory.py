"""Memory tools of both agent styles, through an emulated model; outcomes read from the server."""

from __future__ import annotations

import json
from typing import Any

import pytest

from letta_tool_emulation.runtime.standin import Scripted

from .conftest import block, new_agent, of_type, say

ARCHIVAL = ["archival_memory_insert", "archival_memory_search"]


def call(name: str, **params: Any) -> str:
    return f"TOOL_CALL_START\n{json.dumps({'function': name, 'params': params})}\nTOOL_CALL_END"


def test_memory_insert_and_memory_replace(letta: Any) -> None:
    agent = new_agent(letta)
    r = say(letta, agent, "Remember that I like pizza")
    assert block(letta, agent) == "Name: Ana\nI like pizza"
    assert r.stop_reason.stop_reason == "end_turn"
    assert [m.tool_call.name for m in of_type(r.messages, "tool_call_message")] == ["memory_insert"]
    say(letta, agent, "Please replace 'I like pizza' with 'I like sushi'")
    assert block(letta, agent) == "Name: Ana\nI like sushi"


def test_memgpt_agent_core_memory_append_and_replace(letta: Any) -> None:
    agent = new_agent(letta, "memgpt_agent")
    tools = {t.name for t in agent.tools}
    assert {"core_memory_append", "core_memory_replace", "send_message"} <= tools
    r = say(letta, agent, "Remember that I like pizza")
    assert block(letta, agent) == "Name: Ana\nI like pizza"
    assert [m.tool_call.name for m in of_type(r.messages, "tool_call_message")] == ["core_memory_append"]
    # The reply travels through send_message, which Letta shows as the assistant's message.
    assert [m.content for m in of_type(r.messages, "assistant_message")] == ["Done."]
    say(letta, agent, "Please change 'I like pizza' to 'I like ramen'")
    assert block(letta, agent) == "Name: Ana\nI like ramen"


@pytest.mark.parametrize("embedding", [None, "venice/text-embedding-bge-m3"], ids=["text-search", "embeddings"])
@pytest.mark.parametrize("kind", ["letta_v1_agent", "memgpt_agent"])
def test_archival_insert_then_search(letta: Any, standin: Any, kind: str, embedding: str | None) -> None:
    agent = new_agent(letta, kind, tools=ARCHIVAL, **({"embedding": embedding} if embedding else {}))
    say(letta, agent, "Archive that the launch is on March 3rd in Lisbon")
    passages = letta.agents.passages.list(agent_id=agent.id)
    assert [p.text for p in passages] == ["the launch is on March 3rd in Lisbon"]
    # Without embeddings Letta searches archival memory by substring, so ask with one.
    r = say(letta, agent, "Search the archive for March 3rd in Lisbon")
    returns = [m.tool_return for m in of_type(r.messages, "tool_return_message") if m.name == "archival_memory_search"]
    assert len(returns) == 1 and "the launch is on March 3rd in Lisbon" in returns[0]


def test_conversation_search_finds_an_earlier_message(letta: Any) -> None:
    agent = new_agent(letta)
    say(letta, agent, "My favourite colour is ultramarine.")
    r = say(letta, agent, "Search our conversation for ultramarine")
    returns = [m.tool_return for m in of_type(r.messages, "tool_return_message") if m.name == "conversation_search"]
    assert len(returns) == 1 and "My favourite colour is ultramarine." in returns[0]


def test_custom_tool(letta: Any, standin: Any) -> None:
    source = '''
def roll_dice(sides: int, count: int = 1) -> str:
    """Roll dice and report the total.

    Args:
        sides: Number of sides of each die.
        count: How many dice to roll.
    """
    return f"rolled {count}d{sides}: total {count * sides}"
'''
    tool = letta.tools.upsert(source_code=source)
    agent = new_agent(letta, tool_ids=[tool.id])
    # "20" for an integer: the plugin coerces it, as a strict schema check would otherwise fail.
    standin.script(
        Scripted(text="Rolling!\n" + call("roll_dice", sides="20", count=2)), Scripted(text="You rolled 40.")
    )
    r = say(letta, agent, "Roll two d20s")
    returns = [m.tool_return for m in of_type(r.messages, "tool_return_message")]
    assert returns == ["rolled 2d20: total 40"]
    assert of_type(r.messages, "assistant_message")[-1].content == "You rolled 40."
