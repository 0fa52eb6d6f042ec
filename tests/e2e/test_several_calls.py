"""Several calls in one reply on the real server: with the agent's parallel tool calls on,
Letta runs them in one step; off (Letta's default), one per step. Either way each runs once, in
the order the model wrote them. Letta's own ordering is measured on the native model: its
parallel execution runs searches first, which is why the plugin never hands it a search
together with an earlier insert."""

from __future__ import annotations

import json
from typing import Any

import pytest

from letta_tool_emulation.runtime.standin import Scripted, StandIn

from .conftest import NATIVE, Server, block, new_agent, of_type

ARCHIVAL = ["archival_memory_insert", "archival_memory_search"]


def call(name: str, **params: str) -> str:
    return f"TOOL_CALL_START\n{json.dumps({'function': name, 'params': params})}\nTOOL_CALL_END"


def turn(client: Any, agent: Any, text: str) -> Any:
    return client.agents.messages.create(agent_id=agent.id, messages=[{"role": "user", "content": text}])


def returns(response: Any) -> list[tuple[str, str]]:
    """(tool, result) of every call the step ran, in order. Letta reports the calls of one step
    together: one message with every call, one with every result."""
    names: dict[str, str] = {}
    for m in of_type(response.messages, "tool_call_message"):
        calls = m.tool_calls if isinstance(getattr(m, "tool_calls", None), list) else [m.tool_call]
        names.update({c.tool_call_id: c.name for c in calls})
    out = []
    for m in of_type(response.messages, "tool_return_message"):
        for r in m.tool_returns or [m]:
            out.append((names.get(r.tool_call_id, m.name), str(r.tool_return)))
    return out


@pytest.mark.parametrize(("parallel", "steps"), [(True, 2), (False, 3)])
def test_two_edits_in_one_reply(letta: Any, standin: StandIn, parallel: bool, steps: int) -> None:
    agent = new_agent(letta, parallel_tool_calls=parallel)
    standin.script(
        Scripted(text="Noted both.\n" + call("memory_insert", label="human", new_string="Likes tea.") + "\n"
                 + call("memory_insert", label="human", new_string="Keeps bees.")),
        Scripted(text="Saved both."),
    )  # fmt: skip
    response = turn(letta, agent, "Remember that I like tea and keep bees")
    assert block(letta, agent) == "Name: Ana\nLikes tea.\nKeeps bees."  # each once, in order
    assert [name for name, _ in returns(response)] == ["memory_insert", "memory_insert"]
    # One step for the model's reply with both calls, one for its answer; without parallel
    # tool calls the second call takes a step of its own (handed out without asking the model).
    assert response.usage.step_count == steps
    assert len(standin.requests) == 2  # the model was asked twice either way


def test_a_search_after_an_insert_runs_after_it(letta: Any, standin: StandIn) -> None:
    agent = new_agent(letta, parallel_tool_calls=True, tools=ARCHIVAL)
    standin.script(
        Scripted(text=call("archival_memory_insert", content="The launch is in Lisbon.") + "\n"
                 + call("archival_memory_search", query="Lisbon")),
        Scripted(text="Stored and found."),
    )  # fmt: skip
    response = turn(letta, agent, "Archive that the launch is in Lisbon, then look it up")
    found = returns(response)
    assert [name for name, _ in found] == ["archival_memory_insert", "archival_memory_search"]
    assert "Lisbon" in found[1][1]  # the search saw the insert
    assert response.usage.step_count == 3  # the search could not go with the insert


def test_letta_runs_a_native_models_searches_before_its_inserts(letta: Any, standin: StandIn) -> None:
    """What the plugin works around, measured: the same two calls from a native model, in one
    step, and the search runs first."""
    agent = new_agent(letta, model=NATIVE, parallel_tool_calls=True, tools=ARCHIVAL)
    standin.script(
        Scripted(
            tool_calls=[
                {"name": "archival_memory_insert", "arguments": {"content": "The launch is in Porto."}},
                {"name": "archival_memory_search", "arguments": {"query": "Porto"}},
            ]
        ),
        Scripted(text="Done."),
    )
    response = turn(letta, agent, "Archive that the launch is in Porto, then look it up")
    found = dict(returns(response))
    assert set(found) == {"archival_memory_insert", "archival_memory_search"}
    assert "Porto" not in found["archival_memory_search"]  # it ran before the insert
    assert response.usage.step_count == 2


def test_several_calls_from_a_sloppy_model_all_run(server: Server, letta: Any, standin: StandIn) -> None:
    """Three edits, the third handed out after the second: none is dropped on the way."""
    agent = new_agent(letta)
    standin.script(
        Scripted(text="\n".join(call("memory_insert", label="human", new_string=f"Fact {i}.") for i in (1, 2, 3))),
        Scripted(text="Saved all three."),
    )
    response = turn(letta, agent, "Remember three facts")
    assert block(letta, agent) == "Name: Ana\nFact 1.\nFact 2.\nFact 3."
    assert response.usage.step_count == 4
    assert "were not run" not in server.log()
