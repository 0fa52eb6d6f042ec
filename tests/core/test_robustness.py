"""One bad region never poisons the rest, the parser never raises, and odd inputs work."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from letta_tool_emulation import StreamingToolCallParser, parse_tool_calls, render_messages
from letta_tool_emulation.core import accept as accept_module
from letta_tool_emulation.core import calls as calls_module
from letta_tool_emulation.core import context as context_module
from letta_tool_emulation.core import decoding as decoding_module
from letta_tool_emulation.core.scan import matcher as matcher_module
from letta_tool_emulation.core.scan.text import MAX_BLOCKS

from .corpus import load_tools

TOOLS = load_tools()
MARKERS = ("TOOL_CALL_START", "TOOL_CALL_END", "<tool_call", "</tool_call>", "[TOOL_CALLS]", "```tool_call")


def block(fmt: str, sides: int, note: str) -> str:
    args = {"sides": sides, "note": note}
    if fmt == "canonical":
        return "TOOL_CALL_START\n" + json.dumps({"function": "roll_dice", "params": args}) + "\nTOOL_CALL_END"
    if fmt == "hermes":
        return "<tool_call>\n" + json.dumps({"name": "roll_dice", "arguments": args}) + "\n</tool_call>"
    if fmt == "fence":
        return "```tool_call\n" + json.dumps({"name": "roll_dice", "arguments": args}) + "\n```"
    return "[TOOL_CALLS][" + json.dumps({"name": "roll_dice", "arguments": args}) + "]"


replies = st.lists(
    st.tuples(
        st.sampled_from(["canonical", "hermes", "fence", "mistral"]),
        st.booleans(),  # whether this region fails inside
        st.sampled_from(["Rolling.", "Next one:", "", "Done with that."]),
    ),
    min_size=1,
    max_size=6,
)


def _compose(plan: list[tuple[str, bool, str]]) -> tuple[str, list[int]]:
    parts, survivors = [], []
    for i, (fmt, fails, prose) in enumerate(plan):
        if prose:
            parts.append(prose)
        parts.append(block(fmt, i + 2, "BOOM" if fails else "ok"))
        if not fails:
            survivors.append(i + 2)
    return "\n".join(parts) + "\nThat's all.", survivors


def _check(text: str, survivors: list[int], failing: int) -> None:
    one = parse_tool_calls(text, TOOLS)
    p = StreamingToolCallParser(TOOLS)
    for i in range(0, len(text), 7):
        p.feed(text[i : i + 7])
    p.close()
    for r in (one, p.result):
        assert [c.arguments["sides"] for c in r.tool_calls] == survivors  # the calls around survive, in order
        assert len(r.rejected) == failing  # each failing region is one rejected call, and nothing more
        assert not any(m in r.content for m in MARKERS)  # no marker ever leaks into the prose
        assert r.content.endswith("That's all.")


@pytest.mark.parametrize("where", ["validate", "decode", "context"])
@given(plan=replies)
def test_a_failure_inside_one_region_rejects_only_that_call(where: str, plan: list[tuple[str, bool, str]]) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        _inject_and_check(monkeypatch, where, plan)


def _inject_and_check(monkeypatch: pytest.MonkeyPatch, where: str, plan: list[tuple[str, bool, str]]) -> None:
    text, survivors = _compose(plan)
    failing = sum(1 for _, fails, _ in plan if fails)

    def boom(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise RuntimeError("injected")

    if where == "validate":
        real = accept_module.validate_arguments

        def validate(spec, arguments, ignored):  # type: ignore[no-untyped-def]
            return boom() if arguments.get("note") == "BOOM" else real(spec, arguments, ignored)

        monkeypatch.setattr(accept_module, "validate_arguments", validate)
    elif where == "decode":
        real_decode = calls_module.decode
        real_raw = decoding_module.STRICT.raw_decode

        def decode(text, budget):  # type: ignore[no-untyped-def]
            return boom() if "BOOM" in text else real_decode(text, budget)

        monkeypatch.setattr(calls_module, "decode", decode)
        # Make the scanner's fast path fail too, so every region goes through decode().
        monkeypatch.setattr(
            decoding_module.STRICT, "raw_decode", lambda s, idx=0: boom() if "BOOM" in s else real_raw(s, idx)
        )
    else:
        real_shown = context_module.shown_before

        def shown(ctx, **kwargs):  # type: ignore[no-untyped-def]
            return boom() if ctx.before.endswith("BOOM") else real_shown(ctx, **kwargs)

        monkeypatch.setattr(context_module, "shown_before", shown)
        # The failure is in judging what precedes the region: "BOOM" ends the line before it.
        text, survivors, failing = _with_failing_context(plan)
    _check(text, survivors, failing)


def _with_failing_context(plan: list[tuple[str, bool, str]]) -> tuple[str, list[int], int]:
    parts, survivors = [], []
    for i, (fmt, fails, prose) in enumerate(plan):
        parts.append((prose + " BOOM") if fails else (prose or "Go."))
        parts.append(block(fmt, i + 2, "ok"))
        if not fails:
            survivors.append(i + 2)
    return "\n".join(parts) + "\nThat's all.", survivors, sum(1 for _, fails, _ in plan if fails)


def test_an_internal_scanner_error_stops_parsing_without_leaking_or_running(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(self, eof):  # type: ignore[no-untyped-def]
        raise RuntimeError("injected")

    monkeypatch.setattr(matcher_module.Matcher, "json", broken)
    text = "Sure.\nTOOL_CALL_START\n" + json.dumps({"function": "roll_dice", "params": {"sides": 6}})
    text += '\nTOOL_CALL_END\nTOOL_CALL_START\n{"function": "roll_dice"}\nTOOL_CALL_END'
    p = StreamingToolCallParser(TOOLS)
    events = []
    for i in range(0, len(text), 5):
        events += p.feed(text[i : i + 5])
    events += p.close()
    assert [e.call for e in events if e.call] == []
    assert "TOOL_CALL" not in "".join(e.text for e in events)
    assert [x.kind for x in p.result.rejected] == ["invalid_json"]
    assert p.feed("more") == [] and p.close() == []


def test_str_subclasses_none_and_bytes_are_accepted() -> None:
    class Text(str):
        pass

    call = 'TOOL_CALL_START\n{"function": "roll_dice", "params": {"sides": 6}}\nTOOL_CALL_END'
    assert [c.name for c in parse_tool_calls(Text(call), TOOLS).tool_calls] == ["roll_dice"]
    assert [c.name for c in parse_tool_calls(call.encode(), TOOLS).tool_calls] == ["roll_dice"]
    assert parse_tool_calls(None, TOOLS).content == ""
    p = StreamingToolCallParser(TOOLS)
    assert p.feed(None) == [] and p.feed(Text("hi ")) and p.feed(bytearray(b"there"))
    p.close()
    assert p.result.content == "hi there"


def test_bytes_with_a_str_in_between_keep_their_order() -> None:
    p = StreamingToolCallParser(TOOLS)
    text = "".join(
        e.text for e in p.feed("é".encode()[:1]) + p.feed("x") + p.feed("é".encode()[1:]) + p.feed(b"!") + p.close()
    )
    # The split character cannot be completed across the str: it becomes one replacement
    # character, in its place, and nothing is reordered.
    assert text == "\ufffdx\ufffd!"
    assert p.result.content == text


def test_render_messages_survives_deep_nesting() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    history = [
        {"role": "system", "content": "s"},
        {"role": "assistant", "tool_calls": [{"id": "a", "function": {"name": "run_python", "arguments": deep}}]},
        {"role": "tool", "tool_call_id": "a", "content": deep},
        {"role": "tool", "tool_call_id": "a", "content": json.dumps({"status": "OK", "message": "x"})[:-1] + deep},
    ]
    out = render_messages(history, TOOLS)
    assert out[0]["role"] == "system" and deep[:50] in out[-1]["content"]


@given(st.text(max_size=3000), st.sampled_from([None, "stop", "length"]))
def test_never_raises_and_never_leaks_on_arbitrary_text(text: str, finish: str | None) -> None:
    r = parse_tool_calls(text, TOOLS, finish)
    assert isinstance(r.content, str)
    for call in r.tool_calls:
        assert isinstance(call.arguments, dict)


def test_interpreter_guard_turns_any_exception_into_a_rejected_event(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(calls_module.Interpreter, "_json_region", lambda self, region: 1 / 0)
    r = parse_tool_calls('TOOL_CALL_START\n{"function": "roll_dice", "params": {"sides": 6}}\nTOOL_CALL_END\nok', TOOLS)
    assert r.tool_calls == [] and [(p.kind, p.rejected) for p in r.problems] == [("invalid_json", True)]
    assert "ZeroDivisionError" in r.problems[0].message and r.content == "ok"


def test_a_reply_with_too_many_blocks_is_read_up_to_the_limit() -> None:
    one = 'TOOL_CALL_START\n{"function": "roll_dice", "params": {"sides": 6}}\nTOOL_CALL_END\n'
    text = one * (MAX_BLOCKS + 5) + "Bye."
    for r in (parse_tool_calls(text, TOOLS), _streamed(text)):
        assert len(r.tool_calls) == MAX_BLOCKS
        assert [p.kind for p in r.rejected] == ["malformed_call"] and "more than" in r.rejected[0].message
        assert r.content.endswith("Bye.") and r.content.count("TOOL_CALL_START") == 5  # the rest is text


def _streamed(text: str):  # type: ignore[no-untyped-def]
    p = StreamingToolCallParser(TOOLS)
    for i in range(0, len(text), 11):
        p.feed(text[i : i + 11])
    p.close()
    return p.result


def test_in_call_says_when_a_call_is_being_held() -> None:
    p = StreamingToolCallParser(TOOLS)
    p.feed("Sure.\n")
    assert not p.in_call
    p.feed('TOOL_CALL_START\n{"function": "roll_dice", "params": {"sid')
    assert p.in_call
    p.feed('es": 6}}\nTOOL_CALL_END\nDone.')
    assert not p.in_call
