"""Turns with several calls, retries, plain answers and bad input, on a running server."""

from __future__ import annotations

import json
from typing import Any

import pytest
from letta_client import APIStatusError

from letta_tool_emulation.runtime.standin import Scripted

from .conftest import block, new_agent, of_type, say
from .test_memory import call

MARKERS = ("TOOL_CALL_START", "TOOL_CALL_END", "<tool_call", "TOOL_RESULT")


def tool_names(response: Any) -> list[str]:
    return [m.tool_call.name for m in of_type(response.messages, "tool_call_message")]


def returns(response: Any) -> list[tuple[str, str]]:
    return [(m.status, m.tool_return) for m in of_type(response.messages, "tool_return_message")]


def history_is_consistent(letta: Any, agent: Any) -> None:
    """Every call in the stored conversation has exactly one result, in order."""
    messages = letta.agents.messages.list(agent_id=agent.id, limit=200)
    open_calls: list[str] = []
    for m in messages:
        if m.message_type == "tool_call_message":
            open_calls.append(m.tool_call.tool_call_id)
        elif m.message_type == "tool_return_message" and m.name != "send_message":
            # (send_message calls are shown as the assistant's messages, their results are not)
            assert open_calls and open_calls.pop(0) == m.tool_call_id
    assert open_calls == []


def test_two_calls_in_one_reply_both_run_in_order(letta: Any, standin: Any) -> None:
    agent = new_agent(letta)
    r = say(letta, agent, "Remember that I like pizza and also remember that I have a dog named Rex")
    assert tool_names(r) == ["memory_insert", "memory_insert"]
    assert block(letta, agent) == "Name: Ana\nI like pizza\nI have a dog named Rex"
    # The second call was handed out without asking the model again.
    assert len(standin.requests) == 2
    history_is_consistent(letta, agent)


def test_memgpt_agent_two_calls_in_one_reply(letta: Any, standin: Any) -> None:
    # Letta adds a heartbeat message after each result of a memgpt-style agent: the second
    # call must still be handed out, and the model must not be asked again in between.
    agent = new_agent(letta, "memgpt_agent")
    standin.script(
        Scripted(
            text=call("core_memory_append", label="human", content="Likes pizza.")
            + "\n"
            + call("core_memory_append", label="human", content="Has a dog.")
        ),
        Scripted(text=call("send_message", message="Saved both.")),
    )
    r = say(letta, agent, "Remember two things.")
    assert tool_names(r) == ["core_memory_append", "core_memory_append"]
    assert block(letta, agent) == "Name: Ana\nLikes pizza.\nHas a dog."
    assert [m.content for m in of_type(r.messages, "assistant_message")] == ["Saved both."]
    assert len(standin.requests) == 2


def test_partly_rejected_reply_runs_the_good_call_once_and_reports_the_other(letta: Any, standin: Any) -> None:
    agent = new_agent(letta)
    standin.script(
        Scripted(
            text=call("memory_insert", label="human", new_string="Likes pizza.")
            + '\nTOOL_CALL_START\n{"function": "memory_insert", "params": {"label": "human"}}\nTOOL_CALL_END'
        ),
        Scripted(text=call("memory_insert", label="human", new_string="Has a dog.")),
        Scripted(text="Both saved."),
    )
    r = say(letta, agent, "Remember two things.")
    assert block(letta, agent) == "Name: Ana\nLikes pizza.\nHas a dog."
    feedback = standin.requests[1]["messages"][-1]["content"]
    assert "Not every call in your last reply was executed: 1 ran" in feedback
    assert "do not repeat the calls that ran" in feedback
    assert tool_names(r) == ["memory_insert", "memory_insert"]


def test_calls_in_sequence_over_several_steps(letta: Any, standin: Any) -> None:
    agent = new_agent(letta)
    standin.script(
        Scripted(text="First the pizza.\n" + call("memory_insert", label="human", new_string="Likes pizza.")),
        Scripted(text="Now the dog.\n" + call("memory_insert", label="human", new_string="Has a dog.")),
        Scripted(
            text="And fix the name.\n"
            + call("memory_replace", label="human", old_string="Name: Ana", new_string="Name: Ana Lima")
        ),
        Scripted(text="All three are saved."),
    )
    r = say(letta, agent, "Save three things about me.")
    assert tool_names(r) == ["memory_insert", "memory_insert", "memory_replace"]
    assert block(letta, agent) == "Name: Ana Lima\nLikes pizza.\nHas a dog."
    assert [m.content for m in of_type(r.messages, "assistant_message")] == ["All three are saved."]
    # The model saw each result, and its own words from the step before, in the next request.
    fourth = standin.requests[3]["messages"]
    assert fourth[-2]["content"].startswith("And fix the name.\nTOOL_CALL_START")
    assert fourth[-1]["content"].startswith("TOOL_RESULT memory_replace status: OK")


def test_failing_call_is_fixed_and_retried(letta: Any, standin: Any) -> None:
    agent = new_agent(letta)
    standin.script(
        Scripted(text=call("memory_replace", label="human", old_string="name is Ana", new_string="name is Bea")),
        Scripted(
            text="Let me use the exact text.\n"
            + call("memory_replace", label="human", old_string="Name: Ana", new_string="Name: Bea")
        ),
        Scripted(text="Updated."),
    )
    r = say(letta, agent, "My name is Bea now.")
    statuses = [status for status, _ in returns(r)]
    assert statuses == ["error", "success"]
    assert "did not appear verbatim" in returns(r)[0][1]
    assert block(letta, agent) == "Name: Bea"
    assert "status: Failed" in standin.requests[1]["messages"][-1]["content"]  # the model was told
    history_is_consistent(letta, agent)


def test_reply_without_a_call_ends_the_turn_with_its_text(letta: Any) -> None:
    agent = new_agent(letta)
    r = say(letta, agent, "Hi, how are you?")
    assert tool_names(r) == [] and r.stop_reason.stop_reason == "end_turn"
    assert [m.content for m in of_type(r.messages, "assistant_message")] == ["You said: Hi, how are you?"]
    assert block(letta, agent) == "Name: Ana"


def test_malformed_call_is_rejected_and_retried_without_executing_anything(letta: Any, standin: Any) -> None:
    agent = new_agent(letta)
    standin.script(
        Scripted(text='Saving.\nTOOL_CALL_START\nmemory_insert(label="human", new_string="Likes tea")\nTOOL_CALL_END'),
        Scripted(text="Saving.\n" + call("memory_insert", label="human", new_string="Likes tea")),
        Scripted(text="Saved."),
    )
    r = say(letta, agent, "Remember that I like tea")
    assert tool_names(r) == ["memory_insert"]  # one call: the broken one never ran
    assert block(letta, agent) == "Name: Ana\nLikes tea"
    assert "nothing was executed" in standin.requests[1]["messages"][-1]["content"]
    shown = " ".join(m.content for m in of_type(r.messages, "assistant_message"))
    assert not any(marker in shown for marker in MARKERS)


def test_unknown_tool_name_is_answered_with_the_valid_tools(letta: Any, standin: Any) -> None:
    agent = new_agent(letta)
    standin.script(
        Scripted(text=call("memory_append", label="human", content="Likes tea")),
        Scripted(text=call("memory_insert", label="human", new_string="Likes tea")),
        Scripted(text="Done."),
    )
    r = say(letta, agent, "Remember that I like tea")
    assert tool_names(r) == ["memory_append", "memory_insert"]  # kept as written, never guessed
    status, text = returns(r)[0]
    assert status == "error" and "memory_insert" in text  # Letta lists the valid tools
    assert block(letta, agent) == "Name: Ana\nLikes tea"
    history_is_consistent(letta, agent)


def test_truncated_reply_executes_nothing(letta: Any, standin: Any) -> None:
    agent = new_agent(letta)
    cut = (
        'Sure.\nTOOL_CALL_START\n{"function": "memory_insert", "params": {"label": "human", "new_string": "A very long'
    )
    standin.script(
        Scripted(text=cut, finish_reason="length"),
        Scripted(text=call("memory_insert", label="human", new_string="Short note")),
        Scripted(text="Saved."),
    )
    r = say(letta, agent, "Remember a long story.")
    assert block(letta, agent) == "Name: Ana\nShort note"  # never "A very long"
    assert tool_names(r) == ["memory_insert"]
    assert "cut off" in standin.requests[1]["messages"][-1]["content"]


def test_an_empty_reply_is_asked_again_not_an_error(letta: Any, standin: Any) -> None:
    # Letta fails the step (a 500 for the user) when a reply has neither text nor a call.
    agent = new_agent(letta)
    standin.script(Scripted(text=""), Scripted(text="Hello Ana."))
    r = say(letta, agent, "Hi")
    assert [m.content for m in of_type(r.messages, "assistant_message")] == ["Hello Ana."]
    assert len(standin.requests) == 2 and "Your last reply was empty" in standin.requests[1]["messages"][-1]["content"]


def test_model_that_keeps_failing_gets_a_clear_answer(letta: Any, standin: Any) -> None:
    agent = new_agent(letta)
    broken = Scripted(
        text='TOOL_CALL_START\n{"function": "memory_insert", "params": {"label": "human"}}\nTOOL_CALL_END'
    )
    standin.script(broken, broken, broken)
    r = say(letta, agent, "Remember that I like tea")
    assert tool_names(r) == []
    [answer] = [m.content for m in of_type(r.messages, "assistant_message")]
    assert "no valid call could be read" in answer and "missing required parameter 'new_string'" in answer
    assert block(letta, agent) == "Name: Ana"
    assert len(standin.requests) == 3  # one try and two re-asks, then it stops


@pytest.mark.parametrize(
    ("status", "error", "http_status", "fragment"),
    [(429, "Rate limit exceeded", 429, "Rate limited"), (500, "Inference failed", 500, "failed while answering")],
    ids=["429", "500"],
)
def test_upstream_errors_are_clear_and_leave_the_conversation_consistent(
    letta: Any, standin: Any, status: int, error: str, http_status: int, fragment: str
) -> None:
    agent = new_agent(letta)
    say(letta, agent, "Remember that I like tea")
    # Three times: the OpenAI SDK retries 429 and 5xx twice by itself.
    standin.script(*[Scripted(status=status, error=error, headers={"retry-after-ms": "5"})] * 3)
    with pytest.raises(APIStatusError) as raised:
        say(letta, agent, "Remember that I like cake")
    assert raised.value.status_code == http_status
    assert fragment in json.dumps(raised.value.body)
    assert block(letta, agent) == "Name: Ana\nI like tea"
    history_is_consistent(letta, agent)
    say(letta, agent, "Remember that I like cake")  # the next turn works
    assert block(letta, agent) == "Name: Ana\nI like tea\nI like cake"


def test_context_overflow_makes_letta_summarize_and_retry(letta: Any, standin: Any) -> None:
    agent = new_agent(letta)
    for i in range(3):
        say(letta, agent, f"Remember that item {i} is in box {i}")
    standin.reset()
    standin.script(Scripted(status=400, error="Input exceeds the model's maximum context length of 32768 tokens"))
    r = say(letta, agent, "Remember that the key is under the mat")
    assert r.stop_reason.stop_reason == "end_turn"
    assert block(letta, agent).endswith("the key is under the mat")
    systems = [req["messages"][0]["content"] for req in standin.requests]
    # After the overflow, Letta asked for a summary (a request without tools), then retried.
    assert any("# Tools" not in s for s in systems[1:]), "a summarization request"
    assert "# Tools" in systems[-1]
    history_is_consistent(letta, agent)


def test_a_block_set_aside_in_a_reply_without_calls_is_told_to_the_model_next_turn(letta: Any, standin: Any) -> None:
    # A reply without calls ends Letta's loop: the note about the block waits for the next turn.
    agent = new_agent(letta)
    example = call("memory_insert", label="human", new_string="Likes tea")
    standin.script(
        Scripted(text=f"I can save things for you. For example:\n{example}\nShall I?"),
        Scripted(text="Sure, what else?"),
    )
    say(letta, agent, "What can you do?")
    assert block(letta, agent) == "Name: Ana"  # only shown: nothing ran
    say(letta, agent, "Nothing for now.")
    asked = standin.requests[-1]["messages"][-1]["content"]
    assert asked.startswith("Nothing for now.") and "Note on your last reply" in asked and "memory_insert" in asked
    say(letta, agent, "Bye.")
    assert "Note on your last reply" not in standin.requests[-1]["messages"][-1]["content"]  # told once
