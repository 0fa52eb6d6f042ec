"""Several calls in one reply: one step each, or as many in one step as the caller runs in the
order written (Letta's parallel tool execution), the rest handed out later without asking the
model again, and none lost on the way."""

from __future__ import annotations

import json
from typing import Any

import pytest

from letta_tool_emulation import engine
from letta_tool_emulation.step import Pending, Settings, in_order

from .test_engine import CONSTRAINED, EMULATE, block, drive

CONCURRENT = frozenset({"archival_memory_search", "conversation_search"})
SEQUENTIAL = frozenset({"memory_insert", "archival_memory_insert", "send_message"})


def tool(name: str, *params: str) -> dict[str, Any]:
    props = {p: {"type": "string"} for p in params}
    return {"name": name, "description": name, "parameters": {"type": "object", "properties": props, "required": []}}


TOOLS = [
    tool("memory_insert", "label", "new_string"),
    tool("archival_memory_insert", "content"),
    tool("archival_memory_search", "query"),
    tool("conversation_search", "query"),
    tool("lookup", "query"),  # a custom tool: whether Letta runs it concurrently is not known
]


def request(messages: list[dict[str, Any]], pending: Pending, parallel: bool) -> Any:
    data = {"model": "m", "messages": messages, "tool_choice": "auto"}
    return engine.prepare(
        data, decision=EMULATE, tools=TOOLS, pending=pending, parallel=parallel, settings=Settings(),
        concurrent=CONCURRENT, sequential=SEQUENTIAL,
    )  # fmt: skip


def answered(history: list[dict[str, Any]], calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The history after the caller ran ``calls`` in one step, as Letta stores it."""
    results = [{"role": "tool", "tool_call_id": c["id"], "content": '{"status": "OK"}'} for c in calls]
    return [*history, {"role": "assistant", "content": None, "tool_calls": calls}, *results]


def names(calls: list[dict[str, Any]]) -> list[str]:
    return [c["function"]["name"] for c in calls]


@pytest.mark.parametrize(
    ("written", "together"),
    [
        (["memory_insert", "memory_insert"], 2),  # sequential tools: in order
        (["archival_memory_search", "conversation_search", "memory_insert"], 3),  # reads first, then in order
        (["archival_memory_insert", "archival_memory_search"], 1),  # the search would run before the insert
        (["memory_insert", "lookup"], 1),  # the custom tool might run concurrently, ahead of the insert
        (["lookup", "memory_insert"], 2),  # either way it runs before the insert
        (["archival_memory_search", "lookup", "memory_insert"], 3),
        (["lookup", "lookup"], 2),  # one tool is one kind: together, or one by one in order
        (["lookup", "lookup", "memory_insert"], 3),
        (["lookup", "weather"], 1),  # one concurrent and one not would swap
        (["lookup", "memory_insert", "lookup"], 2),  # a concurrent lookup would run before the insert
        (["conversation_search", "memory_insert", "archival_memory_search"], 2),
    ],
)
def test_how_many_calls_letta_runs_in_the_order_written(written: list[str], together: int) -> None:
    assert in_order(written, CONCURRENT, SEQUENTIAL) == together


def test_without_knowing_the_tools_only_calls_to_one_tool_go_together() -> None:
    assert in_order(["memory_insert", "memory_insert"], frozenset(), frozenset()) == 2
    assert in_order(["memory_insert", "archival_memory_search"], frozenset(), frozenset()) == 1


HISTORY = [{"role": "system", "content": "You are Sam."}, {"role": "user", "content": "Do three things."}]
REPLY = "\n".join(
    [
        block({"label": "human", "new_string": "One."}),
        block({"content": "Two."}, "archival_memory_insert"),
        block({"query": "Two."}, "archival_memory_search"),
        block({"label": "human", "new_string": "Three."}),
    ]
)


@pytest.mark.parametrize("parallel", [False, True])
def test_every_call_of_a_reply_runs_once_in_the_order_written(parallel: bool) -> None:
    pending = Pending()
    first = request(HISTORY, pending, parallel)
    outcome, attempts = drive(first, [REPLY])
    assert len(attempts) == 1
    engine.keep(pending, first, outcome)
    steps = [names(outcome.calls)]
    history = answered(HISTORY, outcome.calls)
    while pending.queue:
        later = request(history, pending, parallel)
        nxt, more = drive(later, [])
        assert more == [] and nxt.attempts == 0  # handed out without asking the model
        engine.keep(pending, later, nxt)
        steps.append(names(nxt.calls))
        history = answered(history, nxt.calls)
    ran = [n for step in steps for n in step]
    assert ran == ["memory_insert", "archival_memory_insert", "archival_memory_search", "memory_insert"]
    if parallel:  # the search must not run before the insert it reads: later calls are handed out one by one
        assert steps == [["memory_insert", "archival_memory_insert"], ["archival_memory_search"], ["memory_insert"]]
    else:
        assert steps == [[n] for n in ran]
    final, asked = drive(request(history, pending, parallel), ["All done."])
    assert len(asked) == 1 and final.content == "All done."


def test_a_queued_hand_out_renders_nothing_and_keeps_the_feedback_for_the_model() -> None:
    pending = Pending()
    rejected = block({"label": "human", "new_string": "One."}) + "\n" + block({"label": "human", "new_string": "Two."})
    rejected += "\n" + block({"label": "human", "colour": "red"})  # an unknown parameter: rejected
    first = request(HISTORY, pending, False)
    outcome, _ = drive(first, [rejected])
    engine.keep(pending, first, outcome)
    assert outcome.feedback and len(pending.queue) == 1
    handed = request(answered(HISTORY, outcome.calls), pending, False)
    assert handed.step.queued is not None and handed["messages"] == []  # nothing rendered for it
    nxt, _ = drive(handed, [])
    engine.keep(pending, handed, nxt)
    assert json.loads(nxt.calls[0]["function"]["arguments"])["new_string"] == "Two."
    after = request(answered(answered(HISTORY, outcome.calls), nxt.calls), pending, False)
    assert after["messages"][-1]["content"].endswith(outcome.feedback)  # the model hears of the rejected call


EDITS = [
    tool("memory_insert", "label", "new_string"),
    tool("memory_replace", "label", "old_string", "new_string"),
    tool("archival_memory_search", "query"),
]


def ran_from(reply: str) -> tuple[list[dict[str, Any]], str]:
    """Every call of ``reply`` that runs, over as many steps as it takes, and the feedback kept
    for the model."""
    pending = Pending()
    data = {"model": "m", "messages": HISTORY, "tool_choice": "auto"}
    first = engine.prepare(data, decision=EMULATE, tools=EDITS, pending=pending, settings=Settings())
    outcome, _ = drive(first, [reply])
    engine.keep(pending, first, outcome)
    ran, history = list(outcome.calls), answered(HISTORY, outcome.calls)
    while pending.queue:
        later = engine.prepare(
            {**data, "messages": history}, decision=EMULATE, tools=EDITS, pending=pending, settings=Settings()
        )
        nxt, asked = drive(later, [])
        assert asked == []
        engine.keep(pending, later, nxt)
        ran += nxt.calls
        history = answered(history, nxt.calls)
    return [{"name": c["function"]["name"], **json.loads(c["function"]["arguments"])} for c in ran], outcome.feedback


def test_a_memory_edit_repeated_in_one_reply_runs_once_and_the_model_hears_of_it() -> None:
    # What SmolLM2-135M wrote in a "remember" turn: one pair of edits, again and again. Each runs only
    # after the one before, so the second insert added the line twice, and the second replace named
    # old text the first had already replaced (the offered lines were the block's before any edit).
    pair = [
        block({"label": "human", "new_string": "Anna"}),
        block({"label": "persona", "old_string": "I am Sam.", "new_string": "The user likes pizza."}, "memory_replace"),
    ]
    other = block({"label": "persona", "old_string": "I am Sam.", "new_string": "Sam."}, "memory_replace")
    ran, feedback = ran_from("\n".join([*pair, *pair, other]))
    assert ran == [
        {"name": "memory_insert", "label": "human", "new_string": "Anna"},
        {
            "name": "memory_replace",
            "label": "persona",
            "old_string": "I am Sam.",
            "new_string": "The user likes pizza.",
        },
    ]
    assert "3 call(s) of this reply repeated a memory edit" in feedback and "do not write them again" in feedback


def test_edits_that_only_look_alike_all_run() -> None:
    reply = "\n".join(
        [
            # The first keeps the old text in its new text: the second still finds it.
            block(
                {"label": "human", "old_string": "Name: Ana", "new_string": "Name: Ana\nSister: Anna"}, "memory_replace"
            ),
            block({"label": "human", "old_string": "Name: Ana", "new_string": "Name: Ana B."}, "memory_replace"),
            # The same old text in another block, another line, and a tool that may well be called twice.
            block({"label": "persona", "old_string": "Name: Ana", "new_string": "x"}, "memory_replace"),
            block({"label": "human", "new_string": "Anna"}),
            block({"label": "human", "new_string": "Anne"}),
            block({"query": "Anna"}, "archival_memory_search"),
            block({"query": "Anna"}, "archival_memory_search"),
        ]
    )
    ran, feedback = ran_from(reply)
    assert len(ran) == 7 and not feedback


def turn_so_far(*edits: dict[str, Any], status: str = "OK") -> list[dict[str, Any]]:
    """The turn's history: each edit written in a step of its own, with Letta's result (and its
    own `request_heartbeat`, which the model never wrote)."""
    history = [*HISTORY]
    for i, args in enumerate(edits):
        arguments = json.dumps({**args, "request_heartbeat": True})
        call = {"id": f"c{i}", "type": "function", "function": {"name": "memory_insert", "arguments": arguments}}
        result = json.dumps({"status": status, "message": "Name: Ana\nAnna", "time": "now"})
        history += [
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": f"c{i}", "content": result},
        ]
    return history


@pytest.mark.parametrize("as_edited", [True, False])
def test_an_edit_the_turn_already_made_is_not_made_again(as_edited: bool) -> None:
    """SmolLM2-135M through Letta: the insert succeeds, and at the next step of the turn the model
    writes it again, with its answer; the answer ends the turn, and the insert is not made twice."""
    anna = {"label": "human", "new_string": "Anna"}
    data = {"model": "m", "messages": turn_so_far(anna), "tool_choice": "auto"}
    req = engine.prepare(data, decision=EMULATE, tools=EDITS, settings=Settings(memory_as_edited=as_edited))
    outcome, attempts = drive(req, ["Noted, your sister is Anna.\n" + block(anna)])
    assert len(attempts) == 1  # not asked again
    assert [c["function"]["name"] for c in outcome.calls] == ([] if as_edited else ["memory_insert"])
    assert outcome.content.startswith("Noted, your sister is Anna.")
    assert ("already been made earlier in this turn" in outcome.feedback) is as_edited
    # Beside a new edit, the new one runs alone.
    cats = {"label": "human", "new_string": "Has two cats."}
    outcome, _ = drive(req, [block(anna) + "\n" + block(cats)])
    ran = [json.loads(c["function"]["arguments"])["new_string"] for c in [*outcome.calls, *outcome.queue]]
    assert ran == (["Has two cats."] if as_edited else ["Anna", "Has two cats."])


def test_an_edit_that_failed_or_was_made_in_an_earlier_turn_is_made_again() -> None:
    anna = {"label": "human", "new_string": "Anna"}
    for history in (
        turn_so_far(anna, status="Failed"),  # it did not happen
        [*turn_so_far(anna), {"role": "user", "content": "Remember that my sister is Anna."}],  # asked again
    ):
        data = {"model": "m", "messages": history, "tool_choice": "auto"}
        req = engine.prepare(data, decision=EMULATE, tools=EDITS, settings=Settings())
        outcome, _ = drive(req, [block(anna)])
        assert [c["function"]["name"] for c in outcome.calls] == ["memory_insert"] and not outcome.feedback


def test_a_repeated_edit_with_nothing_to_say_is_asked_again() -> None:
    anna = {"label": "human", "new_string": "Anna"}
    data = {"model": "m", "messages": turn_so_far(anna), "tool_choice": "auto"}
    req = engine.prepare(data, decision=EMULATE, tools=EDITS, settings=Settings())
    outcome, attempts = drive(req, [block(anna), "Done: your sister is Anna."])
    assert len(attempts) == 2 and "already been made earlier in this turn" in attempts[1].messages[-1]["content"]
    assert outcome.calls == [] and outcome.content == "Done: your sister is Anna."


def test_a_constrained_reply_repeating_the_turns_edit_delivers_its_answer() -> None:
    anna = {"label": "human", "new_string": "Anna"}
    data = {"model": "m", "messages": turn_so_far(anna), "tool_choice": "auto"}
    req = engine.prepare(data, decision=CONSTRAINED, tools=EDITS, settings=Settings())
    envelope = json.dumps({"calls": [{"function": "memory_insert", "params": anna}], "reply": "Noted."})
    outcome, attempts = drive(req, [envelope])
    assert (len(attempts), outcome.calls, outcome.content) == (1, [], "Noted.")
    assert "already been made earlier in this turn" in outcome.feedback


def test_a_replace_whose_old_text_an_earlier_insert_of_the_reply_wrote_again_is_held_back() -> None:
    """SmolLM2-135M through Letta wrote, in one reply, an insert of the persona's line and a
    replace of that line: the replace's old text was offered as the block's line (found once), but
    it runs after the insert, by which time the block holds it twice and Letta fails it ("Multiple
    occurrences of old_string")."""
    from .test_engine import MEMORY_SYSTEM

    history = [{"role": "system", "content": MEMORY_SYSTEM}, {"role": "user", "content": "Remember I have a cat."}]
    sam = {"label": "persona", "new_string": "I am Sam."}
    replace = {"label": "persona", "old_string": "I am Sam.", "new_string": "I am Sam, who has a cat."}
    cat = {"label": "human", "new_string": "Has a cat."}
    pending = Pending()
    data = {"model": "m", "messages": history, "tool_choice": "auto"}
    req = engine.prepare(data, decision=EMULATE, tools=EDITS, pending=pending, settings=Settings())
    outcome, _ = drive(req, ["\n".join([block(sam), block(replace, "memory_replace"), block(cat)])])
    ran = [json.loads(c["function"]["arguments"]) for c in [*outcome.calls, *outcome.queue]]
    assert ran == [sam, cat]
    assert "1 call(s) of this reply repeated a memory edit" in outcome.feedback
    # Without the insert, or where the insert writes other text, or where the old text is the
    # insert's own (not in the block before the reply), the replace runs: it finds its text once.
    fresh = {"label": "persona", "new_string": "Likes cats."}
    own = {"label": "persona", "old_string": "Likes cats.", "new_string": "Loves cats."}
    for written in ([replace], [fresh, replace], [fresh, own]):
        outcome, _ = drive(
            req, ["\n".join(block(a, "memory_replace" if "old_string" in a else "memory_insert") for a in written)]
        )
        assert [json.loads(c["function"]["arguments"]) for c in [*outcome.calls, *outcome.queue]] == written
        assert not outcome.feedback
    # A replace that takes the line out before the insert writes it again leaves it once: both run.
    outcome, _ = drive(req, ["\n".join([block(replace, "memory_replace"), block({**sam, "new_string": "I am Sam."})])])
    assert len([*outcome.calls, *outcome.queue]) == 2 and not outcome.feedback
