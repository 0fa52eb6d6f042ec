"""Argument validation, coercion, confidence and the threshold."""

from __future__ import annotations

import json

import pytest

from letta_tool_emulation import ToolSpec, normalize_tools, parse_tool_calls
from letta_tool_emulation.core.prompt import signature
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


REF_TOOL = {
    "name": "plan_trip",
    "parameters": {
        "type": "object",
        "$defs": {
            "Place": {
                "type": "object",
                "properties": {"city": {"type": "string", "minLength": 2}, "nights": {"$ref": "#/$defs/Nights"}},
                "required": ["city"],
                "additionalProperties": False,
            },
            "Nights": {"type": "integer", "minimum": 1, "maximum": 30},
            "Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}},
        },
        "properties": {
            "stop": {"$ref": "#/$defs/Place"},
            "budget": {"allOf": [{"type": "number", "minimum": 0}, {"maximum": 5000}]},
            "code": {"type": "string", "pattern": "^[A-Z]{3}$", "maxLength": 3},
            "chain": {"$ref": "#/$defs/Node"},
            "anything": None,
            "elsewhere": {"$ref": "https://example.com/schema.json"},
        },
        "required": ["stop"],
    },
}
REF_SPEC = normalize_tools([REF_TOOL])["plan_trip"]


def test_refs_and_all_of_show_real_types_in_the_prompt() -> None:
    sig = signature(REF_SPEC)
    assert "stop: object" in sig and "budget?: number (0..5000)" in sig
    assert "code?: string (max 3 chars, matching ^[A-Z]{3}$)" in sig
    assert "anything?: any" in sig


@pytest.mark.parametrize(
    ("given", "fragment"),
    [
        ({"stop": {"city": "X"}}, "at least 2 characters"),
        ({"stop": {"city": "Oslo", "nights": 0}}, "'stop': 'nights' must be >= 1"),
        ({"stop": {"city": "Oslo", "nights": "31"}}, "must be <= 30"),
        ({"stop": {"city": "Oslo", "extra": 1}}, "unknown parameter 'extra'"),
        ({"stop": {"nights": 2}}, "missing required parameter 'city'"),
        ({"stop": {"city": "Oslo"}, "budget": -1}, "must be >= 0"),
        ({"stop": {"city": "Oslo"}, "budget": 9000.5}, "must be <= 5000"),
        ({"stop": {"city": "Oslo"}, "code": "osl"}, "must match the pattern"),
        ({"stop": {"city": "Oslo"}, "code": "OSLO"}, "at most 3 characters"),
        ({"stop": "Oslo"}, "'stop' must be object"),
    ],
)
def test_refs_all_of_and_bounds_are_checked(given: dict, fragment: str) -> None:
    checked = validate_arguments(REF_SPEC, given)
    assert any(fragment in e for e in checked.errors), checked.errors


def test_valid_arguments_through_refs_pass_and_recursive_or_remote_refs_accept_anything() -> None:
    given = {
        "stop": {"city": "Oslo", "nights": "3"},
        "budget": 1200,
        "code": "OSL",
        "chain": {"next": {"next": {"next": {}}}},
        "anything": [1, {"x": None}],
        "elsewhere": "whatever",
    }
    checked = validate_arguments(REF_SPEC, given)
    assert checked.errors == []
    assert checked.arguments["stop"] == {"city": "Oslo", "nights": 3}


def test_a_null_property_schema_is_not_an_unknown_parameter() -> None:
    assert validate_arguments(REF_SPEC, {"stop": {"city": "Oslo"}, "anything": None}).errors == []


def test_exclusive_bounds_in_both_spellings() -> None:
    for schema in (
        {"type": "number", "exclusiveMinimum": 0},
        {"type": "number", "minimum": 0, "exclusiveMinimum": True},
    ):
        spec = ToolSpec("t", parameters={"type": "object", "properties": {"x": schema}})
        assert validate_arguments(spec, {"x": 0}).errors and not validate_arguments(spec, {"x": 0.5}).errors


def test_a_pattern_too_slow_to_check_rejects_the_call() -> None:
    spec = ToolSpec("t", parameters={"type": "object", "properties": {"s": {"type": "string", "pattern": "(x+x+)+y"}}})
    checked = validate_arguments(spec, {"s": "x" * 5000})
    assert any("in time" in e for e in checked.errors)


def test_an_invalid_pattern_in_the_schema_is_left_to_the_tool() -> None:
    spec = ToolSpec("t", parameters={"type": "object", "properties": {"s": {"type": "string", "pattern": "(["}}})
    assert validate_arguments(spec, {"s": "anything"}).errors == []


def test_placeholders_from_the_prompt_example_are_rejected_real_angle_brackets_are_not() -> None:
    spec = normalize_tools(TOOLS)["memory_insert"]
    for value in (
        "<new_string>",
        "< new string >",
        "<text>",
        "<value>",
        "...",
        " … ",
        "<fact>",
        "<the user's fact>",
        "<内容>",
    ):
        checked = validate_arguments(spec, {"label": "human", "new_string": value})
        assert any("placeholder" in e for e in checked.errors), value
    # an address, a short tag, an element a coding tool edits, text around a placeholder, an ellipsis in a value
    for value in (
        "<br>",
        "<div>",
        "<Table>",
        "<ana@example.com>",
        "<3 you",
        "a <b> c",
        "<new_string> is the parameter name",
        "jazz... and blues",
        ".....",
    ):
        assert validate_arguments(spec, {"label": "human", "new_string": value}).errors == [], value


def test_integer_strings_too_long_to_convert_are_a_type_error_not_a_crash() -> None:
    checked = validate_arguments(SPEC, {"n": "9" * 5000})
    assert any("'n' must be integer" in e for e in checked.errors)
    checked = validate_arguments(SPEC, {"n": 1, "x": "1e999"})
    assert any("'x' must be number" in e for e in checked.errors)


# Letta's schema generator, run in the process that builds the request, writes a Literal's values
# as a tuple: conversation_search's `roles: Optional[List[Literal["assistant", "user", "tool"]]]`.
IN_PROCESS_TOOL = {
    "name": "conversation_search",
    "parameters": {
        "type": "object",
        "properties": {
            "query": {"type": "string"},
            "roles": {"type": "array", "items": {"type": "string", "enum": ("assistant", "user", "tool")}},
        },
        "required": [],
    },
}


def _search(roles: list[str]) -> str:
    call = {"function": "conversation_search", "params": {"query": "I am Sam.", "roles": roles}}
    return f"TOOL_CALL_START\n{json.dumps(call)}\nTOOL_CALL_END"


@pytest.mark.parametrize("form", ["in-process", "through JSON"])
def test_values_given_as_a_tuple_are_an_enum_as_json_would_carry_them(form: str) -> None:
    tool = IN_PROCESS_TOOL if form == "in-process" else json.loads(json.dumps(IN_PROCESS_TOOL))
    assert 'roles?: array of "assistant" | "user" | "tool"' in signature(normalize_tools([tool])["conversation_search"])
    bad = parse_tool_calls(_search(["doctor"]), [tool])
    assert bad.tool_calls == []
    assert [(p.kind, p.rejected) for p in bad.problems] == [("invalid_arguments", True)]
    assert "'roles[0]' must be one of" in bad.problems[0].message
    good = parse_tool_calls(_search(["user"]), [tool])
    assert [c.arguments for c in good.tool_calls] == [{"query": "I am Sam.", "roles": ["user"]}]


def test_a_schema_without_tuples_is_kept_as_it_is() -> None:
    spec = normalize_tools([json.loads(json.dumps(IN_PROCESS_TOOL))])["conversation_search"]
    assert normalize_tools([spec])["conversation_search"] is spec
