"""Constrained replies: the envelope schema and its streaming parser."""

from __future__ import annotations

import json
from itertools import pairwise
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from letta_tool_emulation.core import parse_tool_calls
from letta_tool_emulation.core.blocks import offer_lines
from letta_tool_emulation.core.envelope import (
    CALLS_KEY,
    REPLY_KEY,
    REPLY_STAND_INS,
    EnvelopeParser,
    envelope_instruction,
    envelope_schema,
    example_label,
    render_envelope_feedback,
)
from letta_tool_emulation.core.markers import CALL_END, CALL_START
from letta_tool_emulation.core.parser import StreamingToolCallParser, tidy
from letta_tool_emulation.core.results import Problem
from letta_tool_emulation.core.tools import normalize_tools

from .corpus import load_corpus, load_tools

TOOLS = load_tools()
NAMES = [t.get("function", t)["name"] for t in TOOLS]


def parse(text: str, finish: str | None = None, **kw: Any):  # type: ignore[no-untyped-def]
    p = EnvelopeParser(TOOLS, **kw)
    events = p.feed(text) + p.close(finish)
    return p.result, events


def envelope(reply: str | None = None, calls: list[dict[str, Any]] | None = None, **dump: Any) -> str:
    body: dict[str, Any] = {}
    if calls is not None:
        body[CALLS_KEY] = calls
    if reply is not None:
        body[REPLY_KEY] = reply
    return json.dumps(body, **dump)


def call(name: str, **params: Any) -> dict[str, Any]:
    return {"function": name, "params": params}


# -- the schema -----------------------------------------------------------------------------------


def test_schema_offers_text_or_calls_naming_each_tool() -> None:
    schema = envelope_schema(TOOLS, required=False)
    jsonschema.Draft202012Validator.check_schema(schema)
    valid = jsonschema.Draft202012Validator(schema)
    assert valid.is_valid({"reply": "hello"})
    assert valid.is_valid({"calls": [call("roll_dice", sides=6)]})
    assert valid.is_valid({"calls": [call("roll_dice", sides=6), call("set_mood", mood="sad")], "reply": "ok"})
    assert not valid.is_valid({"calls": []}), "one or more calls"
    assert not valid.is_valid({"calls": [call("no_such_tool")]})
    assert not valid.is_valid({"calls": [call("roll_dice", sides="six")]}), "arguments follow the tool's schema"
    assert not valid.is_valid({"calls": [call("roll_dice")]}), "required parameters stay required"
    assert not valid.is_valid({"calls": [call("set_mood", mood="angry")]}), "enums stay"
    assert not valid.is_valid({"calls": [call("roll_dice", sides=6, colour="red")]}), "no undeclared parameters"
    assert not valid.is_valid({"reply": "x", "extra": 1})
    assert not valid.is_valid({})


def test_required_schema_demands_calls() -> None:
    schema = envelope_schema(TOOLS, required=True)
    valid = jsonschema.Draft202012Validator(schema)
    assert valid.is_valid({"calls": [call("list_files")]})
    assert not valid.is_valid({"reply": "no call"})
    assert list(schema["properties"]) == [CALLS_KEY, REPLY_KEY], "calls come first: the choice is made at once"


def test_schema_without_tools_is_text_only() -> None:
    for required in (False, True):
        schema = envelope_schema([], required=required)
        valid = jsonschema.Draft202012Validator(schema)
        assert valid.is_valid({"reply": "hi"})
        assert not valid.is_valid({"calls": [call("roll_dice", sides=1)]})


def test_schema_keeps_only_portable_keywords() -> None:
    tool = {
        "name": "book",
        "parameters": {
            "type": "object",
            "properties": {
                "when": {"type": "string", "format": "date-time", "pattern": "^\\d{4}(?=-)", "description": "d"},
                "n": {"type": "integer", "minimum": 1, "default": 2, "title": "N"},
                "kind": {"oneOf": [{"type": "string", "enum": ["a", "b"]}, {"type": "null"}]},
                "any": {},
                "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1, "uniqueItems": True},
                "meta": {"type": "object"},
            },
            "required": ["when", "ghost"],
            "if": {"properties": {"n": {"const": 1}}},
            "then": {"required": ["kind"]},
        },
    }
    schema = envelope_schema([tool], required=True)
    params = schema["properties"]["calls"]["items"]["properties"]["params"]
    assert params == {
        "type": "object",
        "properties": {
            "when": {"type": "string"},
            "n": {"type": "integer"},
            "kind": {"anyOf": [{"enum": ["a", "b"], "type": "string"}, {"type": "null"}]},
            "any": {"type": ["string", "number", "boolean", "object", "array", "null"]},
            "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1},
            "meta": {"type": "object"},
        },
        "required": ["when"],  # a required name without a property would make the grammar unsatisfiable
        "additionalProperties": False,
    }


def test_schema_keeps_each_tools_definitions_apart() -> None:
    def tool(name: str, inner: str) -> dict[str, Any]:
        return {
            "name": name,
            "parameters": {
                "type": "object",
                "$defs": {"Item": {"type": "object", "properties": {inner: {"type": "string"}}, "required": [inner]}},
                "properties": {
                    "item": {"allOf": [{"$ref": "#/$defs/Item"}], "description": "wrapped as pydantic does"},
                    "items": {"type": "array", "items": {"$ref": "#/$defs/Item"}},
                    "child": {"$ref": "#"},
                    "elsewhere": {"$ref": "https://example.com/schema.json"},
                },
            },
        }

    schema = envelope_schema([tool("a", "x"), tool("b", "y")], required=True)
    jsonschema.Draft202012Validator.check_schema(schema)
    valid = jsonschema.Draft202012Validator(schema)
    assert valid.is_valid({"calls": [call("a", item={"x": "1"}, items=[{"x": "2"}], child={"item": {"x": "3"}})]})
    assert valid.is_valid({"calls": [call("b", item={"y": "1"}, elsewhere=[1, 2])]})
    assert not valid.is_valid({"calls": [call("a", item={"y": "1"})]}), "tool a's Item is not tool b's"
    assert not valid.is_valid({"calls": [call("b", child={"item": {"x": "1"}})]})
    # Tools' local references are resolved when tools are read, so nothing is left to hoist.
    assert "$ref" not in json.dumps(schema)


def test_instruction_names_both_forms_and_the_forced_tool() -> None:
    text = envelope_instruction(TOOLS, tool_choice={"type": "function", "function": {"name": "roll_dice"}})
    assert (
        '{"calls": [{"function": "<tool name>", "params": {<arguments>}}], "reply": "<short text for the user>"}'
        in text
    )
    assert '{"reply": "<your answer>"}' in text
    assert "roll_dice(sides: integer, count?: integer = 1, exact?: boolean, note?: string)" in text
    assert text.endswith('You must call the tool roll_dice now: reply with "calls".')
    example = json.loads(text.split("Example: ", 1)[1].split("\n", 1)[0])
    assert jsonschema.Draft202012Validator(envelope_schema(TOOLS, required=True)).is_valid(example)
    assert envelope_instruction([]) == ""
    chosen = call("memory_insert", label="human", new_string="Likes tea.")
    assert f'Example: {{"calls": [{json.dumps(chosen)}], "reply": "Noted."}}' in envelope_instruction(
        TOOLS, example=chosen
    )


def labelled_replace(blocks: list[str]) -> dict[str, Any]:
    text = {"type": "string"}
    properties = {"label": {"type": "string", "enum": blocks}, "old_string": text, "new_string": text}
    parameters = {"type": "object", "properties": properties, "required": ["label", "old_string", "new_string"]}
    return {
        "type": "function",
        "function": {"name": "memory_replace", "description": "Edit.", "parameters": parameters},
    }


def shown_params(tools: Any) -> dict[str, Any]:
    text = envelope_instruction(tools)
    example = json.loads(text.split("Example: ", 1)[1].split("\n", 1)[0])
    assert jsonschema.Draft202012Validator(envelope_schema(tools, required=True)).is_valid(example)
    params: dict[str, Any] = example["calls"][0]["params"]
    return params


def test_an_example_that_fills_a_label_names_the_users_block() -> None:
    """Without memory_insert, core_memory_append or the reply tool, the example is built from the
    first tool with parameters: it named the first block of Letta's enum, the persona, and small
    models write where the example writes."""
    assert shown_params([labelled_replace(["persona", "human"])])["label"] == "human"
    # The replace tool's old text offered each block's lines: the example's is a line of the
    # block it names.
    offered = offer_lines(
        normalize_tools([labelled_replace(["persona", "human"])]),
        {"persona": ["I am Sam."], "human": ["Name: Ana", "Lives in Lyon."]},
        enum=True,
    )
    assert shown_params(offered.values()) == {"label": "human", "old_string": "Name: Ana", "new_string": "new string"}
    # Where the tool does not offer the user's block, the first block it allows.
    assert shown_params([labelled_replace(["persona", "notes"])])["label"] == "persona"
    assert example_label(None) == "human" and example_label({"type": "string"}) == "human"


# -- the parser: envelopes ------------------------------------------------------------------------


def test_reply_only() -> None:
    result, events = parse(envelope("Hello there!"))
    assert result.content == "Hello there!"
    assert result.tool_calls == [] and result.problems == []
    assert "".join(e.text for e in events) == "Hello there!"


PROBLEM = Problem("malformed_call", "The call had no name.", rejected=True)


@pytest.mark.parametrize("stand_in", REPLY_STAND_INS)
@pytest.mark.parametrize("size", [None, 1, 3])
def test_a_reply_copied_from_the_instructions_stand_in_is_no_text(stand_in: str, size: int | None) -> None:
    assert f'"{stand_in}"' in envelope_instruction(TOOLS) + render_envelope_feedback([PROBLEM]), "the real stand-ins"
    with_call = envelope(f" {stand_in} ", [call("roll_dice", sides=20)])
    for text, calls in ((envelope(stand_in), []), (with_call, ["roll_dice"])):
        chunks = [text] if size is None else [text[i : i + size] for i in range(0, len(text), size)]
        (*_, result), shown = run(chunks, None)
        assert result.content == "" and shown == ""
        assert [c.name for c in result.tool_calls] == calls and result.problems == []


@pytest.mark.parametrize("reply", ["<your answer> is 42", "...and then I saved it.", "<b>bold</b>", "(...)"])
def test_a_reply_that_only_begins_like_a_stand_in_is_all_text(reply: str) -> None:
    text = envelope(reply)
    for size in (1, 2, len(text)):
        (*_, result), shown = run([text[i : i + size] for i in range(0, len(text), size)], None)
        assert result.content == reply == shown
    result, _ = parse(text[: text.index(reply) + 5])  # cut inside it: what was written is kept
    assert result.content == reply[:5]


def test_calls_then_reply_in_order() -> None:
    text = envelope("Saved.", [call("memory_insert", label="human", new_string="Likes pizza."), call("list_files")])
    result, events = parse(text)
    assert [(c.name, c.arguments) for c in result.tool_calls] == [
        ("memory_insert", {"label": "human", "new_string": "Likes pizza."}),
        ("list_files", {}),
    ]
    assert all(c.confidence == 1.0 and c.format == "envelope" for c in result.tool_calls)
    assert result.content == "Saved."
    # The calls are handed out once the envelope is whole (a second "calls" would cancel them),
    # the reply's text as it streams.
    kinds = ["call" if e.call else "text" if e.text else "other" for e in events]
    assert kinds == ["text", "call", "call"]


def test_reply_before_calls_is_read_too() -> None:
    text = '{"reply": "On it", "calls": [{"function": "roll_dice", "params": {"sides": 20}}]}'
    result, _ = parse(text)
    assert result.content == "On it"
    assert [(c.name, c.arguments) for c in result.tool_calls] == [("roll_dice", {"sides": 20})]


def test_pretty_printed_and_unicode_escaped() -> None:
    text = envelope('Café 😀 "quoted" \\ back\nslash\t{not json}', [call("set_mood", mood="happy")], indent=2)
    result, events = parse(text)
    assert result.content == 'Café 😀 "quoted" \\ back\nslash\t{not json}'
    assert "".join(e.text for e in events) == result.content
    assert [c.arguments for c in result.tool_calls] == [{"mood": "happy"}]


def test_raw_control_characters_inside_strings_are_text() -> None:
    # llama.cpp's grammar for a JSON string allows them (any character but a quote or a backslash).
    text = '{"calls": [{"function": "run_python", "params": {"code": "a\n\tb"}}], "reply": "line one\nline two"}'
    assert "\n" in text and "\\n" not in text, "raw characters, not escapes"
    result, _ = parse(text)
    assert [c.arguments for c in result.tool_calls] == [{"code": "a\n\tb"}]
    assert result.content == "line one\nline two" and result.problems == []


def test_lone_surrogates_become_replacement_characters() -> None:
    text = (
        '{"reply": "a\\ud83db \\udc00 c\\ud83d", "calls": [{"function": "run_python", "params": {"code": "\\ud800"}}]}'
    )
    result, _ = parse(text)
    assert result.content == "a\ufffdb \ufffd c\ufffd"
    assert result.tool_calls[0].arguments == {"code": "\ufffd"}


def test_invalid_arguments_are_rejected_exactly_like_free_text() -> None:
    bad = call("roll_dice", sides="many", colour="red")
    result, _ = parse(envelope(calls=[bad]))
    free = parse_tool_calls(f"{CALL_START}\n{json.dumps(bad)}\n{CALL_END}", TOOLS)
    assert result.tool_calls == [] and free.tool_calls == []
    assert [(p.kind, p.message, p.rejected, p.tool_name) for p in result.problems] == [
        (p.kind, p.message, p.rejected, p.tool_name) for p in free.problems
    ]
    assert result.problems[0].kind == "invalid_arguments" and result.problems[0].rejected


def test_unknown_tool_is_passed_on_as_written_like_free_text() -> None:
    result, _ = parse(envelope(calls=[call("delete_everything", now=True)]))
    free = parse_tool_calls(
        f'{CALL_START}\n{{"function": "delete_everything", "params": {{"now": true}}}}\n{CALL_END}', TOOLS
    )
    assert [(c.name, c.arguments) for c in result.tool_calls] == [(c.name, c.arguments) for c in free.tool_calls]
    assert [(p.kind, p.message) for p in result.problems] == [(p.kind, p.message) for p in free.problems]


def test_coercion_is_noted_and_lowers_confidence() -> None:
    result, _ = parse(envelope(calls=[call("roll_dice", sides="6")]))
    assert result.tool_calls[0].arguments == {"sides": 6}
    assert result.tool_calls[0].confidence == 0.95
    assert [p.kind for p in result.problems] == ["repaired"]
    result, _ = parse(envelope(calls=[call("roll_dice", sides="6")]), threshold=0.99)
    assert result.tool_calls == [] and [p.kind for p in result.problems] == ["low_confidence"]


def test_openai_style_keys_are_read_with_a_note() -> None:
    text = '{"calls": [{"name": "roll_dice", "arguments": "{\\"sides\\": 4}"}]}'
    result, _ = parse(text)
    assert [(c.name, c.arguments) for c in result.tool_calls] == [("roll_dice", {"sides": 4})]
    assert result.tool_calls[0].confidence == round(0.97 * 0.97, 3)


@pytest.mark.parametrize(
    "calls",
    [
        '"roll_dice"',
        '[1, "x", {"params": {}}]',
        '[{"function": "roll_dice", "params": [6]}]',
    ],
)
def test_malformed_calls_are_rejected(calls: str) -> None:
    result, _ = parse(f'{{"calls": {calls}}}')
    assert result.tool_calls == []
    assert result.problems and all(p.kind == "malformed_call" and p.rejected for p in result.problems)


def test_a_lone_call_object_and_null_calls() -> None:
    result, _ = parse('{"calls": {"function": "roll_dice", "params": {"sides": 2}}}')
    assert [c.arguments for c in result.tool_calls] == [{"sides": 2}]
    result, _ = parse('{"calls": null, "reply": "none"}')
    assert result.tool_calls == [] and result.problems == [] and result.content == "none"


def test_unknown_keys_are_skipped_silently() -> None:
    result, events = parse('{"reply": "a", "thought": {"x": ["y", "z"]}, "mood": 3}')
    assert result.content == "a" and result.problems == []
    assert "".join(e.text for e in events) == "a"


# -- the parser: cut off and broken ------------------------------------------------------------------


def test_cut_inside_a_call_executes_nothing_of_it() -> None:
    whole = envelope(calls=[call("roll_dice", sides=6), call("memory_insert", label="human", new_string="Likes tea")])
    cut = whole[: whole.index("Likes") + 3]
    result, _ = parse(cut, "length")
    assert [c.name for c in result.tool_calls] == ["roll_dice"], "the complete call before the cut still runs"
    (problem,) = result.problems
    assert problem.kind == "truncated" and problem.rejected
    assert "length limit" in problem.message
    assert "Lik" in problem.excerpt


@pytest.mark.parametrize("finish", [None, "length"])
def test_cut_inside_the_reply_keeps_the_text(finish: str | None) -> None:
    result, _ = parse('{"reply": "Once upon a ti', finish)
    assert result.content == "Once upon a ti"
    (problem,) = result.problems
    assert problem.kind == "truncated" and not problem.rejected
    assert ("length limit" in problem.message) == (finish == "length")
    result, _ = parse('{"reply": "Once upon a ti', finish, required=True)
    assert result.problems[0].rejected, "a forced call that never came must be asked for again"


def test_cut_right_after_the_calls_key() -> None:
    result, _ = parse('{"calls": [', "length")
    assert result.tool_calls == [] and [(p.kind, p.rejected) for p in result.problems] == [("truncated", True)]


def test_json_that_breaks_off_midway_stops_reading() -> None:
    result, events = parse('{"reply": "fine" "calls": [{"function": "roll_dice", "params": {"sides": 1}}]}')
    assert result.content == "fine"
    assert result.tool_calls == []
    assert [(p.kind, p.rejected) for p in result.problems] == [("invalid_json", False)]
    assert "".join(e.text for e in events) == "fine"
    result, _ = parse('{"calls": [{"function": "roll_dice", "params": {"sides": 1}} {"function": "list_files"}]}')
    assert [c.name for c in result.tool_calls] == ["roll_dice"]
    assert [(p.kind, p.rejected) for p in result.problems] == [("invalid_json", True)]


def test_text_after_the_envelope_is_read_as_free_text() -> None:
    text = envelope("first") + '\nAnd then:\nTOOL_CALL_START\n{"function": "list_files", "params": {}}\nTOOL_CALL_END'
    result, events = parse(text)
    assert result.content == "first\n\nAnd then:"
    assert [c.name for c in result.tool_calls] == ["list_files"]
    assert not any("TOOL_CALL" in e.text or "{" in e.text for e in events)


# -- the parser: not an envelope --------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Plain prose.",
        '   \n Sure! TOOL_CALL_START\n{"function": "roll_dice", "params": {"sides": 6}}\nTOOL_CALL_END',
        '{"function": "roll_dice", "params": {"sides": 6}}',
        '{"replyx": "no"}',
        '{"rep": 1}',
        "{}",
        '{ "re\\u0070ly": "escaped key" }',
        "[1, 2]",
        '"just a string"',
        "",
        "   ",
        '{"reply',
        "{",
        '<think>hmm</think>{"reply": "x"}',
        'Sure! `code` {"reply": "x"}',
    ],
)
def test_anything_else_goes_through_the_free_text_parser(text: str) -> None:
    result, _ = parse(text, "stop")
    free = parse_tool_calls(text, TOOLS, finish_reason="stop")
    assert result == free


def test_the_decision_comes_within_the_first_key() -> None:
    p = EnvelopeParser(TOOLS)
    assert p.feed('  {"rep') == [] and p.in_call, "held back while it may still be the envelope"
    assert [e.text for e in p.feed('ly": "H')] == ["H"] and not p.in_call
    assert [e.text for e in p.feed("i\\")] == ["i"], "an escape waits for its character"
    assert [e.text for e in p.feed('n"}')] == ["\n"]
    # Another key first: held until one of the envelope's keys comes, or the object ends.
    p = EnvelopeParser(TOOLS)
    assert "".join(e.text for e in p.feed('{"x": 1} and more')) == '{"x": 1} and more'


def test_in_call_while_a_call_is_being_written() -> None:
    p = EnvelopeParser(TOOLS)
    p.feed('{"calls": [{"function": "roll')
    assert p.in_call
    p.feed('_dice", "params": {"sides": 3}}]')
    assert not p.in_call
    assert [c.name for c in p.result.tool_calls] == ["roll_dice"]


def test_bytes_split_inside_characters_and_escapes() -> None:
    text = envelope("Zürich 漢字 😀 \\u not an escape", [call("run_python", code='print("é")')], ensure_ascii=False)
    data = text.encode()
    p = EnvelopeParser(TOOLS)
    events = [e for i in range(len(data)) for e in p.feed(data[i : i + 1])] + p.close()
    assert "".join(e.text for e in events) == "Zürich 漢字 😀 \\u not an escape"
    assert p.result.tool_calls[0].arguments == {"code": 'print("é")'}


def test_never_raises_on_values_that_break_the_json_module() -> None:
    deep = '{"calls": [' + "[" * 100_000 + "]" * 100_000 + "]}"
    result, _ = parse(deep)
    assert result.tool_calls == [] and result.problems


@pytest.mark.parametrize(
    ("params", "why"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested"),
        ("1" * 5_000, "number"),
        ('{"sides": 6, "sides": 20}', "twice"),
    ],
)
def test_a_call_that_cannot_be_read_as_written_spoils_nothing_after_it(params: str, why: str) -> None:
    after = json.dumps(call("set_mood", mood="happy"))
    as_string = envelope("after", [{"function": "roll_dice", "params": params}, call("set_mood", mood="happy")])
    in_place = '{"calls": [{"function": "roll_dice", "params": ' + params + "}, " + after + '], "reply": "after"}'
    for text in (as_string, in_place):
        result, _ = parse(text)
        assert [(c.name, c.arguments) for c in result.tool_calls] == [("set_mood", {"mood": "happy"})]
        assert result.content == "after"
        assert len(result.problems) == 1 and why in result.problems[0].message and result.problems[0].rejected


def test_lone_surrogates_in_arguments_given_as_a_string_are_replaced() -> None:
    result, _ = parse(envelope(calls=[{"function": "run_python", "params": '{"code": "a\\ud83db"}'}]))
    assert [c.arguments for c in result.tool_calls] == [{"code": "a\ufffdb"}]


# -- properties ---------------------------------------------------------------------------------------

DICE = {"sides": st.integers(-5, 1000), "count": st.integers(0, 9), "exact": st.booleans(), "note": st.text()}
args = st.fixed_dictionaries({"sides": DICE["sides"]}, optional={k: v for k, v in DICE.items() if k != "sides"})
calls_strategy = st.lists(
    st.one_of(
        args.map(lambda a: call("roll_dice", **a)),
        st.builds(lambda m: call("set_mood", mood=m), st.sampled_from(["happy", "neutral", "sad", "HAPPY", "angry"])),
        st.builds(lambda s: call("memory_insert", label="human", new_string=s), st.text()),
        st.just(call("list_files")),
        st.just(call("nope", x=1)),
    ),
    max_size=4,
)
envelopes = st.builds(
    lambda reply, calls, first, indent, ascii_: json.dumps(
        dict([(REPLY_KEY, reply), (CALLS_KEY, calls)] if first == "reply" else [(CALLS_KEY, calls), (REPLY_KEY, reply)])
        if calls
        else {REPLY_KEY: reply},
        indent=indent,
        ensure_ascii=ascii_,
    ),
    st.text(),
    calls_strategy,
    st.sampled_from(["reply", "calls"]),
    st.sampled_from([None, 0, 2]),
    st.booleans(),
)
FRAGMENTS = ['"', "\\", "\\u", "\\ud83d", "\\ude00", "{", "}", "[", "]", ":", ",", " ", "\n", "reply", "calls", "null"]
envelope_texts = st.one_of(
    envelopes,
    envelopes.flatmap(lambda e: st.integers(0, len(e)).map(lambda n: e[:n])),  # cut anywhere
    envelopes.flatmap(
        lambda e: st.tuples(st.integers(0, len(e)), st.sampled_from(FRAGMENTS)).map(
            lambda t: e[: t[0]] + t[1] + e[t[0] :]
        )
    ),  # one stray piece anywhere
)
# Anything else goes to the free-text parser, whose problem excerpts may depend on the chunking
# (an invented tool result is quoted up to where it was recognised): compared without them.
other_texts = st.one_of(
    st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=6), max_size=30).map("".join),
    st.sampled_from([e.text for e in load_corpus()]),
    st.text(max_size=200),
)
finishes = st.sampled_from([None, "stop", "length"])


def split(seq, cuts):  # type: ignore[no-untyped-def]
    points = sorted({c % (len(seq) + 1) for c in cuts})
    bounds = [0, *points, len(seq)]
    return [seq[a:b] for a, b in pairwise(bounds) if b > a]


def run(chunks: list[str] | list[bytes], finish: str | None):  # type: ignore[no-untyped-def]
    """What a stream reader sees (text, calls and problems in order, reasoning), and the raw text."""
    p = EnvelopeParser(TOOLS)
    events = [e for chunk in chunks for e in p.feed(chunk)] + p.close(finish)
    result = p.result
    assert tidy("".join(e.text for e in events)) == result.content, "events add up to the result"
    assert [e.call for e in events if e.call] == result.tool_calls
    assert [e.problem for e in events if e.problem] == result.problems
    text = "".join(e.text for e in events)
    others = [e for e in events if e.call or e.problem]
    return (tidy(text), others, "".join(e.reasoning for e in events).strip(), result), text


def loose(seen):  # type: ignore[no-untyped-def]
    """What a stream reader sees, with problems compared without their excerpts."""
    text, others, reasoning, result = seen
    strip = [e.call or (e.problem.kind, e.problem.message, e.problem.rejected, e.problem.tool_name) for e in others]
    return text, strip, reasoning, result.content, result.tool_calls


cuts = st.lists(st.integers(min_value=0, max_value=10_000), max_size=30)


@settings(max_examples=300)
@given(envelope_texts, cuts, finishes)
def test_streaming_equals_one_shot_for_any_chunking(text: str, points: list[int], finish: str | None) -> None:
    assert run(split(text, points), finish)[0] == run([text], finish)[0]


@given(envelope_texts, finishes)
def test_streaming_one_character_at_a_time(text: str, finish: str | None) -> None:
    assert run(list(text), finish)[0] == run([text], finish)[0]


@given(envelope_texts | other_texts, cuts, finishes)
def test_streaming_bytes_split_anywhere(text: str, points: list[int], finish: str | None) -> None:
    data = text.encode("utf-8", "surrogatepass")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return  # a lone surrogate cannot travel as UTF-8; the str tests cover it
    assert loose(run(split(data, points), finish)[0]) == loose(run([text], finish)[0])


@given(other_texts, cuts, finishes)
def test_anything_else_streams_like_one_shot(text: str, points: list[int], finish: str | None) -> None:
    assert loose(run(split(text, points), finish)[0]) == loose(run([text], finish)[0])
    assert loose(run(list(text), finish)[0]) == loose(run([text], finish)[0])


@settings(max_examples=300)
@given(st.text(), calls_strategy, st.sampled_from([None, 2]), st.booleans())
def test_an_envelope_reads_back_as_written(reply: str, calls: list[dict[str, Any]], indent: Any, ascii_: bool) -> None:
    body: dict[str, Any] = {CALLS_KEY: calls, REPLY_KEY: reply} if calls else {REPLY_KEY: reply}
    (_, _, _, result), text = run([json.dumps(body, indent=indent, ensure_ascii=ascii_)], None)
    clean = reply.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    assert text == clean, "exactly the reply text, no JSON syntax"
    # Each call as the free-text parser would take it from a canonical block.
    expected_calls, expected_problems = [], []
    for c in calls:
        free = parse_tool_calls(f"{CALL_START}\n{json.dumps(c)}\n{CALL_END}", TOOLS)
        expected_calls += [(x.name, x.arguments) for x in free.tool_calls]
        expected_problems += [(p.kind, p.message, p.rejected) for p in free.problems]
    assert [(c.name, c.arguments) for c in result.tool_calls] == expected_calls
    assert [(p.kind, p.message, p.rejected) for p in result.problems] == expected_problems


@given(st.text(max_size=2000), finishes)
def test_never_raises_on_arbitrary_text(text: str, finish: str | None) -> None:
    p = EnvelopeParser(TOOLS)
    p.feed(text)
    p.close(finish)
    assert isinstance(p.result.content, str)


def test_matches_free_text_parser_surface() -> None:
    public = {n for n in dir(StreamingToolCallParser) if not n.startswith("_")} - {"tools"}
    assert public <= {n for n in dir(EnvelopeParser) if not n.startswith("_")}
    assert set(NAMES) <= set(EnvelopeParser(TOOLS).tools)


def test_feedback_names_the_envelope_form() -> None:
    result, _ = parse(envelope(calls=[call("roll_dice", sides="many")]))
    text = render_envelope_feedback(result.problems)
    assert text.startswith("Your last reply tried to call a tool, but nothing was executed:")
    assert result.problems[0].message in text
    assert '{"calls": [{"function": "<tool name>", "params": {...}}]}' in text and CALL_START not in text
    ran = render_envelope_feedback(result.problems, executed=1)
    assert "1 ran" in ran and "do not repeat the calls that ran" in ran
    assert render_envelope_feedback([p for p in result.problems if not p.rejected]) == ""


# -- as strict as free text, and as forgiving of what surrounds it ------------------------------

ONE = call("conversation_search", query="pizza")


def _all_chunkings(text: str, finish: str | None = "stop"):  # type: ignore[no-untyped-def]
    results = []
    for n in (1, 3, 7, len(text)):
        p = EnvelopeParser(TOOLS)
        for i in range(0, len(text), n):
            p.feed(text[i : i + n])
        p.close(finish)
        results.append(p.result)
    return results


def test_calls_given_twice_run_none() -> None:
    text = '{"calls": [' + json.dumps(ONE) + '], "calls": [' + json.dumps(ONE) + "]}"
    for r in _all_chunkings(text):
        assert r.tool_calls == []
        assert len(r.rejected) == 1 and "twice" in r.rejected[0].message


@pytest.mark.parametrize(
    "text",
    [
        "```json\n" + envelope("Found it.", [ONE]) + "\n```",
        "```\n" + envelope("Found it.", [ONE], indent=2) + "\n```\n",
        "~~~json\n" + envelope("Found it.", [ONE]) + "\n~~~",
        "\ufeff" + envelope("Found it.", [ONE]),
        "Sure, searching now.\n" + envelope("Found it.", [ONE]),
        json.dumps({"thought": "search first", CALLS_KEY: [ONE], REPLY_KEY: "Found it."}),
        json.dumps({"id": 3, "meta": {"calls": []}, CALLS_KEY: [ONE], REPLY_KEY: "Found it."}),
    ],
)
def test_an_envelope_in_a_fence_after_a_bom_or_prose_or_with_extra_keys_is_read(text: str) -> None:
    for r in _all_chunkings(text):
        assert [(c.name, c.arguments) for c in r.tool_calls] == [("conversation_search", {"query": "pizza"})]
        assert "Found it." in r.content
        assert "{" not in r.content and "```" not in r.content and "\ufeff" not in r.content


@pytest.mark.parametrize(
    "text",
    [
        '{"answer": "hello"}',
        '{"thought": "x", oops',
        "For example:\n" + envelope(None, [ONE]),
        "Just prose, no envelope at all.",
    ],
)
def test_what_is_not_the_envelope_is_read_as_free_text_alike_in_every_chunking(text: str) -> None:
    results = _all_chunkings(text)
    assert all(r.tool_calls == [] for r in results)
    assert len({r.content for r in results}) == 1


def test_text_after_the_envelope_keeps_its_context() -> None:
    block = f"{CALL_START}\n" + json.dumps(ONE) + f"\n{CALL_END}"
    performed = envelope("Searching.") + "\n" + block
    shown = envelope("Here is an example of a search, for instance:") + "\n" + block
    for r in _all_chunkings(performed):
        assert [c.name for c in r.tool_calls] == ["conversation_search"]
    for r in _all_chunkings(shown):
        assert r.tool_calls == []
