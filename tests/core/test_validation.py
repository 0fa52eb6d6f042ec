"""Argument validation, coercion, confidence and the threshold."""

from __future__ import annotations

import pytest

from letta_tool_emulation import ToolSpec, parse_tool_calls
from letta_tool_emulation.core.validate import validate_arguments

from .corpus import load_tools

TOOLS = load_tools()
SPEC = ToolSpec(
    name="t",
    parameters={
        "type": "object",
        "properties": {
            "n": {"type": "integer"},
            "x": {"type": "number"},
            "flag": {"type": "boolean"},
            "s": {"type": "string"},
            "mode": {"type": "string", "enum": ["fast", "slow"]},
            "items": {"type": "array", "items": {"type": "integer"}},
            "opt": {"type": ["string", "null"]},
            "nested": {
                "type": "object",
                "properties": {"a": {"type": "integer"}},
                "required": ["a"],
            },
            "either": {"anyOf": [{"type": "integer"}, {"type": "boolean"}]},
        },
        "required": ["n"],
    },
)


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ({"n": "20"}, {"n": 20}),
        ({"n": 20.0}, {"n": 20}),
        ({"n": 1, "x": "2.5"}, {"n": 1, "x": 2.5}),
        ({"n": 1, "flag": "TRUE"}, {"n": 1, "flag": True}),
        ({"n": 1, "flag": "false"}, {"n": 1, "flag": False}),
        ({"n": 1, "s": 42}, {"n": 1, "s": "42"}),
        ({"n": 1, "mode": "FAST"}, {"n": 1, "mode": "fast"}),
        ({"n": 1, "items": "[1, 2]"}, {"n": 1, "items": [1, 2]}),
        ({"n": 1, "items": ["3"]}, {"n": 1, "items": [3]}),
        ({"n": 1, "opt": None}, {"n": 1, "opt": None}),
        ({"n": 1, "s": None}, {"n": 1}),  # null for an optional parameter: the default applies
        ({"n": 1, "nested": {"a": "5"}}, {"n": 1, "nested": {"a": 5}}),
        ({"n": 1, "either": "true"}, {"n": 1, "either": True}),
    ],
)
def test_safe_coercions(given: dict, expected: dict) -> None:
    checked = validate_arguments(SPEC, given)
    assert checked.errors == []
    assert checked.arguments == expected


@pytest.mark.parametrize(
    ("given", "fragment"),
    [
        ({}, "missing required parameter 'n'"),
        ({"n": "twenty"}, "'n' must be integer"),
        ({"n": 2.5}, "'n' must be integer"),
        ({"n": True}, "'n' must be integer"),
        ({"n": 1, "flag": "yes"}, "'flag' must be boolean"),
        ({"n": 1, "mode": "medium"}, "'mode' must be one of"),
        ({"n": 1, "zzz": 1}, "unknown parameter 'zzz'"),
        ({"n": 1, "nested": {}}, "missing required parameter 'a'"),
        ({"n": 1, "items": "not json"}, "'items' must be array"),
        ({"n": None}, "'n' must be integer"),
    ],
)
def test_errors(given: dict, fragment: str) -> None:
    checked = validate_arguments(SPEC, given)
    assert any(fragment in e for e in checked.errors), checked.errors


def test_ignored_params_are_dropped_with_a_note() -> None:
    checked = validate_arguments(SPEC, {"n": 1, "request_heartbeat": True})
    assert checked.errors == [] and checked.arguments == {"n": 1}
    assert any("request_heartbeat" in n for n in checked.notes)


def test_additional_properties_allowed() -> None:
    spec = ToolSpec("free", parameters={"type": "object", "properties": {}, "additionalProperties": True})
    assert validate_arguments(spec, {"anything": 1}).arguments == {"anything": 1}


def test_confidence_orders_formats() -> None:
    canonical = parse_tool_calls(
        'TOOL_CALL_START\n{"function": "roll_dice", "params": {"sides": 6}}\nTOOL_CALL_END', TOOLS
    )
    fenced = parse_tool_calls('```json\n{"function": "roll_dice", "params": {"sides": 6}}\n```', TOOLS)
    repaired = parse_tool_calls(
        "TOOL_CALL_START\n{'function': 'roll_dice', 'params': {'sides': 6,}}\nTOOL_CALL_END", TOOLS
    )
    bare = parse_tool_calls('{"function": "roll_dice", "params": {"sides": 6}}', TOOLS)
    c = [r.tool_calls[0].confidence for r in (canonical, repaired, fenced, bare)]
    assert c[0] == 1.0
    assert c == sorted(c, reverse=True) and len(set(c)) == 4


def test_threshold_decides_what_becomes_a_call() -> None:
    text = '```json\n{"function": "roll_dice", "params": {"sides": "6"}}\n```'
    assert [c.name for c in parse_tool_calls(text, TOOLS).tool_calls] == ["roll_dice"]
    strict = parse_tool_calls(text, TOOLS, threshold=0.9)
    assert strict.tool_calls == []
    assert [(p.kind, p.rejected) for p in strict.problems] == [("low_confidence", True)]
    assert "TOOL_CALL_START" in strict.problems[0].message  # tells the model how to write it


def test_unknown_tool_is_never_mapped_to_another() -> None:
    r = parse_tool_calls(
        'TOOL_CALL_START\n{"function": "memory_inser", "params": {"label": "human", "new_string": "x"}}\nTOOL_CALL_END',
        TOOLS,
    )
    assert [c.name for c in r.tool_calls] == ["memory_inser"]
    assert r.problems[0].kind == "unknown_tool" and "memory_insert" in r.problems[0].message


def test_tools_in_openai_form_and_flat_form_agree() -> None:
    flat = [{"name": "roll_dice", "parameters": {"type": "object", "properties": {"sides": {"type": "integer"}}}}]
    wrapped = [{"type": "function", "function": flat[0]}]
    text = 'TOOL_CALL_START\n{"function": "roll_dice", "params": {"sides": "3"}}\nTOOL_CALL_END'
    assert parse_tool_calls(text, flat).tool_calls == parse_tool_calls(text, wrapped).tool_calls


def test_no_tools_still_parses_but_every_name_is_unknown() -> None:
    r = parse_tool_calls('TOOL_CALL_START\n{"function": "x"}\nTOOL_CALL_END', None)
    assert [c.name for c in r.tool_calls] == ["x"] and r.problems[0].kind == "unknown_tool"
