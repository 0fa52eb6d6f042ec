"""One path accepts a call, from free text and from the envelope alike: the same call object
gives the same call (or the same problems) either way, wherever both read it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from letta_tool_emulation import EnvelopeParser, StreamingToolCallParser, parse_tool_calls
from letta_tool_emulation.core.markers import CALL_END, CALL_START

from .corpus import load_tools

TOOLS = load_tools()

# Call objects both read: each key spelling both accept, arguments in place, as a JSON string,
# empty, coerced, invalid, for an unknown tool, with lone surrogates.
OBJECTS: list[dict[str, Any]] = [
    {"function": "roll_dice", "params": {"sides": 6}},
    {"name": "roll_dice", "arguments": {"sides": 6}},
    {"name": "roll_dice", "parameters": {"sides": 6}},
    {"function": "roll_dice", "params": '{"sides": 4}'},
    {"function": "roll_dice", "params": '{"sides": "4"}'},
    {"function": "list_files", "params": ""},
    {"function": "list_files", "params": None},
    {"function": "list_files"},
    {"function": "roll_dice", "params": {"sides": "many", "colour": "red"}},
    {"function": "roll_dice", "params": [6]},
    {"function": "delete_everything", "params": {"now": True}},
    {"function": "run_python", "params": '{"code": "a\\ud83db"}'},
    {"function": "run_python", "params": {"code": "\ud800"}},
    {"function": " roll_dice ", "params": {"sides": 2}},
    {"params": {"sides": 2}},
]


def _free_text(obj: dict[str, Any], **kw: Any) -> Any:
    return parse_tool_calls(f"{CALL_START}\n{json.dumps(obj)}\n{CALL_END}", TOOLS, **kw)


def _envelope(obj: dict[str, Any], **kw: Any) -> Any:
    p = EnvelopeParser(TOOLS, **kw)
    p.feed(json.dumps({"calls": [obj]}))
    p.close()
    return p.result


def _calls(result: Any) -> list[tuple[Any, ...]]:
    return [(c.name, c.arguments, c.confidence, c.notes) for c in result.tool_calls]


def _problems(result: Any) -> list[tuple[Any, ...]]:
    # Messages that say how to write the call again name each reply's own form.
    return [(p.kind, p.rejected, p.tool_name) for p in result.problems]


@pytest.mark.parametrize("obj", OBJECTS, ids=lambda o: json.dumps(o)[:60])
@pytest.mark.parametrize("threshold", [0.5, 0.96])
def test_the_same_call_object_is_accepted_alike_from_free_text_and_the_envelope(
    obj: dict[str, Any], threshold: float
) -> None:
    free, env = _free_text(obj, threshold=threshold), _envelope(obj, threshold=threshold)
    assert _calls(free) == _calls(env)
    assert _problems(free) == _problems(env)
    for a, b in zip(free.problems, env.problems, strict=True):
        if a.kind in ("invalid_arguments", "unknown_tool", "repaired"):
            assert a.message == b.message


def test_lone_surrogates_in_arguments_given_as_a_string_are_replaced_in_free_text_too() -> None:
    r = _free_text({"function": "run_python", "params": '{"code": "a\\ud83db"}'})
    assert [c.arguments for c in r.tool_calls] == [{"code": "a\ufffdb"}]


def test_empty_arguments_as_a_string_are_no_arguments_and_cost_nothing() -> None:
    for r in (
        _free_text({"function": "list_files", "params": ""}),
        _envelope({"function": "list_files", "params": ""}),
    ):
        assert _calls(r) == [("list_files", {}, 1.0, ())]


@pytest.mark.parametrize("parser", [StreamingToolCallParser, EnvelopeParser])
def test_both_parsers_read_chunks_alike(parser: Any) -> None:
    class Text(str):
        pass

    body = json.dumps({"reply": "hé, there"}, ensure_ascii=False)
    data = body.encode()
    cut = data.index("é".encode()) + 1
    p = parser(TOOLS)
    # A str subclass, None, bytes cut inside a character, then a str before the rest of it.
    for chunk in (Text(body[:3]), None, data[3:cut], "x", data[cut:]):
        p.feed(chunk)
    p.close()
    whole = parser(TOOLS)
    whole.feed(body[:3] + data[3:cut].decode(errors="replace") + "x" + data[cut:].decode(errors="replace"))
    whole.close()
    assert p.result.content == whole.result.content
    assert p.result.content.count("\ufffd") == 2
