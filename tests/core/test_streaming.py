"""When the streaming parser releases text and emits calls."""

from __future__ import annotations

from letta_tool_emulation import StreamingToolCallParser

from .corpus import load_tools

TOOLS = load_tools()
CALL = '{"function": "roll_dice", "params": {"sides": 6}}'


def texts(events) -> str:  # type: ignore[no-untyped-def]
    return "".join(e.text for e in events)


def calls(events):  # type: ignore[no-untyped-def]
    return [e.call for e in events if e.call is not None]


def test_prose_is_released_at_once() -> None:
    p = StreamingToolCallParser(TOOLS)
    assert texts(p.feed("Hello there, ")) == "Hello there, "
    assert texts(p.feed("how are you?")) == "how are you?"


def test_marker_prefix_is_held_then_released_when_it_is_not_a_marker() -> None:
    p = StreamingToolCallParser(TOOLS)
    assert texts(p.feed("Let me note that TOOL_CA")) == "Let me note that "
    assert texts(p.feed("T is a word")) == "TOOL_CAT is a word"


def test_marker_split_across_chunks_never_leaks() -> None:
    p = StreamingToolCallParser(TOOLS)
    events = p.feed("Saving. TOOL_CA") + p.feed("LL_START\n" + CALL[:10]) + p.feed(CALL[10:] + "\nTOOL_CALL_E")
    events += p.feed("ND\nDone.") + p.close()
    assert "TOOL" not in texts(events)
    assert texts(events) == "Saving. \nDone."
    assert [(c.name, c.arguments) for c in calls(events)] == [("roll_dice", {"sides": 6})]


def test_calls_are_released_at_close() -> None:
    # Until the reply ends, a lone </think> can still show the call was drafted in reasoning,
    # and the next line can still ask permission to make it.
    p = StreamingToolCallParser(TOOLS)
    events = p.feed("TOOL_CALL_START\n" + CALL + "\nTOOL_CALL_END\nDone.")
    assert calls(events) == [] and texts(events) == "\nDone."
    assert [c.name for c in calls(p.close())] == ["roll_dice"]


def test_call_without_end_marker_waits_for_close() -> None:
    p = StreamingToolCallParser(TOOLS)
    events = p.feed("TOOL_CALL_START\n" + CALL)
    events += p.feed("\n")  # could still be followed by TOOL_CALL_END
    assert calls(events) == []
    assert [c.name for c in calls(p.close("stop"))] == ["roll_dice"]


def test_prose_after_a_call_is_released_once_its_line_ends() -> None:
    p = StreamingToolCallParser(TOOLS)
    events = p.feed('<tool_call>{"name": "roll_dice", "arguments": {"sides": 4}}')
    assert texts(events) == "" and p.in_call
    events = p.feed("</tool_call> ")  # blanks after the block: held until the line ends
    assert texts(events) == ""
    events = p.feed("\nand then")
    assert texts(events) == " \nand then" and not p.in_call
    assert [c.arguments for c in calls(p.close())] == [{"sides": 4}]


def test_prose_after_a_call_on_its_line_makes_it_part_of_a_sentence() -> None:
    p = StreamingToolCallParser(TOOLS)
    events = p.feed('<tool_call>{"name": "roll_dice", "arguments": {"sides": 4}}</tool_call> is how')
    events += p.feed(" Hermes models write calls.") + p.close()
    assert calls(events) == []
    assert texts(events).startswith("<tool_call>") and [e.problem.kind for e in events if e.problem] == ["in_sentence"]


def test_most_of_a_long_reply_is_released_before_close() -> None:
    body = "The quick brown fox jumps over the lazy dog. " * 200
    p = StreamingToolCallParser(TOOLS)
    released = sum(len(e.text) for i in range(0, len(body), 16) for e in p.feed(body[i : i + 16]))
    assert released >= len(body) - len("dog. ")


def test_reasoning_streams_separately() -> None:
    p = StreamingToolCallParser(TOOLS)
    events = p.feed("<think>plan: ") + p.feed("call roll_dice</th") + p.feed("ink>Rolling!") + p.close()
    assert "".join(e.reasoning for e in events) == "plan: call roll_dice"
    assert texts(events) == "Rolling!"


def test_feed_after_close_is_ignored() -> None:
    p = StreamingToolCallParser(TOOLS)
    p.feed("hi")
    p.close()
    assert p.feed("more") == []
    assert p.close() == []
    assert p.result.content == "hi"


def test_truncated_stream_executes_nothing() -> None:
    p = StreamingToolCallParser(TOOLS)
    events = p.feed('Sure. TOOL_CALL_START {"function": "memory_insert", "params": {"label": "human", "new_str')
    events += p.close("length")
    assert calls(events) == []
    problems = [e.problem for e in events if e.problem is not None]
    assert [p.kind for p in problems] == ["truncated"] and problems[0].rejected
    assert "TOOL_CALL_START" not in texts(events)
