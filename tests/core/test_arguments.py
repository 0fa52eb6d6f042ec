"""An executed call's arguments are exactly what the model wrote, or the call is rejected:
never a third outcome. Repairs may add what is missing at the end; they never cut or drop."""

from __future__ import annotations

import ast
import json

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from letta_tool_emulation import StreamingToolCallParser, parse_tool_calls
from letta_tool_emulation.core.decoding import (
    _NOTHING,
    MAX_REPAIRS,
    REPAIR_BUDGET,
    REPAIR_LIMIT,
    RepairBudget,
    _single_quoted_json,
    decode,
    faithful,
)
from letta_tool_emulation.core.validate import is_placeholder

SAVE = [
    {
        "name": "save",
        "description": "Store a text.",
        "parameters": {
            "type": "object",
            "properties": {"content": {"type": "string"}},
            "required": ["content"],
            "additionalProperties": False,
        },
    }
]

# Strings built from what breaks naive parsers: newlines, quotes, backslashes, braces,
# brackets, commas, colons, marker-like text, comments and non-ASCII.
PIECES = [
    "\n",
    "\r\n",
    "\t",
    '"',
    "'",
    "\\",
    "\\n",
    '\\"',
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    " ",
    "//",
    "#",
    "/*",
    "TOOL_CALL_START",
    "TOOL_CALL_END",
    "<tool_call>",
    "</tool_call>",
    "```",
    "<think>",
    "True",
    "null",
    "None",
    "42",
    "é",
    "😀",
    "code",
]
strings = st.one_of(
    st.lists(st.sampled_from(PIECES) | st.text(max_size=4), min_size=1, max_size=30).map("".join),
    st.text(min_size=1, max_size=60),
).filter(lambda s: "\x00" not in s)


def escaped(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def raw_controls(s: str) -> str:
    """JSON with newlines, carriage returns and tabs written raw; quotes and backslashes escaped."""
    out = []
    for ch in s:
        if ch in "\n\r\t":
            out.append(ch)
        else:
            out.append(json.dumps(ch, ensure_ascii=False)[1:-1])
    return '"' + "".join(out) + '"'


def unescaped(s: str) -> str:
    """Quotes and control characters written as they are (a sloppy model). A backslash is
    still doubled: a backslash written alone is an escape, by definition of the decoding."""
    return '"' + s.replace("\\", "\\\\") + '"'


def python_style(s: str) -> str:
    return repr(s)


def block(value: str, fmt: str) -> str:
    if fmt == "canonical":
        return 'Saving.\nTOOL_CALL_START\n{"function": "save", "params": {"content": ' + value + "}}\nTOOL_CALL_END"
    return '<tool_call>\n{"name": "save", "arguments": {"content": ' + value + "}}\n</tool_call>"


def outcomes(text: str, tools: list[dict] = SAVE):  # type: ignore[no-untyped-def,type-arg]
    one = parse_tool_calls(text, tools, "stop")
    p = StreamingToolCallParser(tools)
    for i in range(0, len(text), 3):
        p.feed(text[i : i + 3])
    p.close("stop")
    return one, p.result


def exact_or_rejected(s: str, text: str) -> bool:
    """True if the call ran with exactly ``s``; False if it was rejected; fails otherwise."""
    results = outcomes(text)
    for r in results:
        calls = [(c.name, c.arguments) for c in r.tool_calls]
        if calls:
            assert calls == [("save", {"content": s})], (text, calls)
        else:
            assert r.rejected, ("neither ran nor rejected", text, r)
    assert [c.arguments for c in results[0].tool_calls] == [c.arguments for c in results[1].tool_calls]
    return bool(results[0].tool_calls)


def has_own_line_marker(s: str) -> bool:
    return any(
        line.strip().startswith(("TOOL_CALL_END", "TOOL_CALL_START", "</tool_call>", "<tool_call"))
        for line in s.splitlines()[1:]
    )


@pytest.mark.parametrize("fmt", ["canonical", "hermes"])
@given(s=strings)
@example(s="<VALUE>")  # the instructions' placeholder word: refused on purpose, whatever the JSON
def test_escaped_strings_are_exact(fmt: str, s: str) -> None:
    ran = exact_or_rejected(s, block(escaped(s), fmt))
    assert ran or is_placeholder(s), "valid JSON must run"
    assert not (ran and is_placeholder(s)), "a placeholder never runs"


@pytest.mark.parametrize("fmt", ["canonical", "hermes"])
@given(s=strings)
@example(s="</tool_call>\n\n<tool_call>")  # once ran as "" (the marker taken for the block's end)
@example(s="TOOL_CALL_END\n\nTOOL_CALL_START")
def test_raw_control_characters_are_exact(fmt: str, s: str) -> None:
    ran = exact_or_rejected(s, block(raw_controls(s), fmt))
    # Only an end or start marker alone on a line inside the string stops the block there.
    assert ran or has_own_line_marker(s) or "\r" in s or is_placeholder(s)


@pytest.mark.parametrize("fmt", ["canonical", "hermes"])
@given(s=strings)
def test_unescaped_quotes_are_exact_or_rejected(fmt: str, s: str) -> None:
    exact_or_rejected(s, block(unescaped(s), fmt))


@pytest.mark.parametrize("fmt", ["canonical", "hermes"])
@given(s=strings)
def test_python_style_strings_are_exact_or_rejected(fmt: str, s: str) -> None:
    exact_or_rejected(s, block(python_style(s), fmt))


def test_two_kilobytes_of_code_with_raw_newlines_braces_and_escaped_quotes() -> None:
    code = "\n".join(
        f'def f{i}(x):\n    return {{"k": [{i}, "}}"], "q": "\\"{i}\\""}}  # {{ not a brace' for i in range(40)
    )
    assert len(code) > 2000
    text = block(raw_controls(code), "canonical")
    for r in outcomes(text):
        assert [c.arguments for c in r.tool_calls] == [{"content": code}]


def test_a_repair_that_would_drop_text_is_refused() -> None:
    # An odd number of unescaped quotes: json_repair has to guess where the string ends.
    text = 'TOOL_CALL_START\n{"function": "save", "params": {"content": "he said "hi" and "bye}}\nTOOL_CALL_END'
    r = parse_tool_calls(text, SAVE)
    assert r.tool_calls == [] and [p.kind for p in r.rejected] == ["invalid_json"]


def test_a_json_that_closes_before_its_end_marker_is_refused() -> None:
    # The string held '"}}' and a newline: the JSON closed early, valid, but not what was written.
    text = 'TOOL_CALL_START\n{"function": "save", "params": {"content": "a"}}\nb"}}\nTOOL_CALL_END\nDone.'
    for r in outcomes(text):
        assert r.tool_calls == [] and [p.kind for p in r.rejected] == ["invalid_json"]
        assert "TOOL_CALL_END" not in r.content


def test_duplicate_keys_are_refused() -> None:
    text = 'TOOL_CALL_START\n{"function": "save", "params": {"content": "a", "content": "b"}}\nTOOL_CALL_END'
    r = parse_tool_calls(text, SAVE)
    assert r.tool_calls == [] and "twice" in r.rejected[0].message


@pytest.mark.parametrize(
    ("source", "value"),
    [
        ("{'a': 'x', 'b': True, 'c': None,}", {"a": "x", "b": True, "c": None}),
        ('{"a": 1, // note\n "b": [1, 2,],}', {"a": 1, "b": [1, 2]}),
        ('{"a": "She said "hello" to me"}', {"a": 'She said "hello" to me'}),
        ('{"a": "unterminated', {"a": "unterminated"}),  # a closing quote and brace missing at the end
    ],
)
def test_faithful_accepts_repairs_that_lose_nothing(source: str, value: dict) -> None:
    assert faithful(source, value)


@pytest.mark.parametrize(
    ("source", "value"),
    [
        ('{"a": "x", "b"}', {"a": "x", "b": ""}),  # a value invented in the middle
        ('{"a": "hello world"}', {"a": "hello"}),  # text cut
        ('{"a": "x"} trailing words', {"a": "x"}),  # text dropped after the object
        ("{'k': 'x' 'y'}", {"k": "xy"}),  # Python's implicit concatenation is not what it looks like
        ('{"a": 0x10}', {"a": 16}),
        ('{"a": "C:\\\\path"}', {"a": "C:path"}),  # a backslash lost
        ('{"a": "C:\\path"}', {"a": "C:\\path"}),  # an escape JSON does not know: rejected, not guessed
        ('{"a": "line\\nbreak"}', {"a": "line\\nbreak"}),  # a known escape must be decoded
        ('{"a": [1, 2]}', {"a": {"1": 2}}),  # a different structure
    ],
)
def test_faithful_refuses_anything_that_changes_text(source: str, value: dict) -> None:
    assert not faithful(source, value)


@pytest.mark.parametrize(
    "source",
    [
        "{'function': 'save', 'params': {'content': 'a note'}}",
        "[{'a': 1}, {'a': -0.5e3}, [], {}]",
        "{'a': 'café 東京 😀', 'b': [1,\r\n 2,\n\t3]}",
        "{'a': 1, 'a': 2}",  # a key given twice: faithful() then refuses it, as after Python's reading
        "{'a': 12345678901234567890123}",
        "{'a': 1e400}",
        "[" * 70 + "'x'" + "]" * 70,
    ],
)
def test_single_quoted_json_is_read_as_python_reads_it(source: str) -> None:
    value = _single_quoted_json(source)
    python = ast.literal_eval(source)
    assert value is not _NOTHING
    assert value == python and json.dumps(value) == json.dumps(python)


@pytest.mark.parametrize(
    "source",
    [
        "{'a': true}",  # a name to Python
        "{'a': 'x\\ny'}",  # escapes differ
        "{'a': \"x\"}",
        "\n\t{'a': 1}",  # indentation outside brackets means something to Python
        "{'a': 1}\n\t",
        "{'a': '\ud800'}",
        "{'a': 'x' 'y'}",
        "{'a': 0x10}",
    ],
)
def test_single_quoted_json_leaves_anything_else_to_python(source: str) -> None:
    assert _single_quoted_json(source) is _NOTHING


def test_limits_are_checked_before_decoding() -> None:
    budget = RepairBudget()
    assert "nested" in decode("[" * 100 + "]" * 100, budget)  # type: ignore[operator]
    assert "digits" in decode('{"n": ' + "9" * 5000 + "}", budget)  # type: ignore[operator]
    assert "digits" in decode('{"n": 1e999}', budget)  # type: ignore[operator]
    broken = "{'a': 'x' " + "b" * (REPAIR_LIMIT + 10) + "}"
    assert "too long to repair" in decode(broken, budget)  # type: ignore[operator]
    assert budget.left == REPAIR_BUDGET  # refused before json_repair ever saw it


@pytest.mark.parametrize(
    "number",
    ["0x" + "f" * 4000, "-0x" + "f" * 4000, "0b" + "1" * 1100, "9" * 301],
    ids=["hex", "negative-hex", "binary", "301-digits"],
)
def test_a_python_literal_too_long_for_python_to_write_is_refused_by_name(number: str) -> None:
    # Python refuses to write out an int of over 4,300 digits: the check must not try to.
    r = parse_tool_calls(
        f"TOOL_CALL_START\n{{'function': 'save', 'params': {{'content': {number}}}}}\nTOOL_CALL_END", SAVE
    )
    assert not r.tool_calls and r.rejected
    assert "ValueError" not in r.rejected[0].message


def test_json_repair_sees_a_bounded_amount_per_reply() -> None:
    content = 'a "q" b' + "x" * 900  # long enough that the text budget runs out before the count
    broken = '{"function": "save", "params": {"content": "' + content + '",}}'
    n = REPAIR_BUDGET // len(broken) + 3
    assert n < MAX_REPAIRS
    r = parse_tool_calls(f"TOOL_CALL_START\n{broken}\nTOOL_CALL_END\n" * n, SAVE)
    ran = [c.arguments for c in r.tool_calls]
    assert ran and all(a == {"content": content} for a in ran)  # the first ones are repaired exactly
    assert len(ran) == REPAIR_BUDGET // len(broken)
    assert len(r.rejected) == n - len(ran) and "more broken JSON" in r.rejected[0].message  # then refused


def _streamed(text: str, size: int) -> object:
    p = StreamingToolCallParser(SAVE)
    for i in range(0, len(text), size):
        p.feed(text[i : i + size])
    p.close("stop")
    return p.result


@pytest.mark.parametrize(
    "broken",
    [
        '{"function": "save", "params": {"content": "a "q" b",}}',
        "{'function': 'save', 'params': {'content': 'a \"q\" b'}}",
    ],
)
def test_only_so_many_blocks_per_reply_are_repaired(broken: str) -> None:
    valid = '{"function": "save", "params": {"content": "ok"}}'
    n = MAX_REPAIRS + 4
    text = f"TOOL_CALL_START\n{broken}\nTOOL_CALL_END\n" * n + f"TOOL_CALL_START\n{valid}\nTOOL_CALL_END\n"
    r = parse_tool_calls(text, SAVE)
    ran = [c.arguments for c in r.tool_calls]
    assert ran == [{"content": 'a "q" b'}] * MAX_REPAIRS + [{"content": "ok"}]  # valid blocks still run
    assert len(r.rejected) == n - MAX_REPAIRS
    assert all(f"more than {MAX_REPAIRS} calls" in p.message and "valid JSON" in p.message for p in r.rejected)
    for size in (1, 3, 16):
        assert _streamed(text, size) == r


WEATHER = [
    {
        "name": "weather",
        "description": "The weather in a city.",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string"}, "unit": {"type": "string"}},
            "required": ["city"],
        },
    }
]


@pytest.mark.parametrize(
    ("source", "value"),
    [
        ('{"city": "Paris, France, unit": "celsius"}', {"city": 'Paris, France, unit": "celsius'}),
        ('{"a": "x", "b": "y"}', {"a": 'x", "b": "y'}),
        ("{'a': 'x', 'b': 'y'}", {"a": "x', 'b': 'y"}),
        ('{"a": ["x", "y"]}', {"a": ['x", "y']}),
    ],
)
def test_faithful_never_moves_a_key_into_a_value(source: str, value: dict) -> None:
    assert not faithful(source, value)


def test_a_key_swallowed_by_a_string_is_never_run() -> None:
    # The opening quote of "unit" is missing: a repair that keeps it inside "city" would run
    # the weather for 'Paris, France, unit": "celsius'.
    body = '{"function": "weather", "params": {"city": "Paris, France, unit": "celsius"}}'
    for r in outcomes(f"TOOL_CALL_START\n{body}\nTOOL_CALL_END", WEATHER):
        assert [c.arguments for c in r.tool_calls if c.name == "weather"] in ([], [{"city": "Paris, France"}])
        assert all("unit" not in str(c.arguments.get("city")) for c in r.tool_calls)


@pytest.mark.parametrize(
    "body",
    [
        '{"function": "weather", "params": {"city": "Paris"}, "city": "Lyon"}',
        '{"function": "weather", "params": {"city": "Paris"}, "unit": "celsius"}',
        '{"name": "weather", "arguments": {"city": "Paris"}, "city": "Lyon"}',
    ],
)
def test_a_parameter_beside_the_arguments_is_refused_with_feedback(body: str) -> None:
    for r in outcomes(f"TOOL_CALL_START\n{body}\nTOOL_CALL_END", WEATHER):
        assert r.tool_calls == []
        assert len(r.rejected) == 1 and "beside" in r.rejected[0].message


def test_the_same_value_inside_and_beside_the_arguments_runs_once() -> None:
    body = '{"function": "weather", "params": {"city": "Paris"}, "city": "Paris"}'
    for r in outcomes(f"TOOL_CALL_START\n{body}\nTOOL_CALL_END", WEATHER):
        assert [(c.name, c.arguments) for c in r.tool_calls] == [("weather", {"city": "Paris"})]
