"""The call blocks' grammar writer (core/grammar.py), on its own: what it writes and what it
says it loosened. Whether llama.cpp loads and applies the grammar is tests/local/test_call_grammar.py."""

from __future__ import annotations

import re

from letta_tool_emulation.core.grammar import call_block_grammar
from letta_tool_emulation.core.tools import ToolSpec

RULE = re.compile(r"^([a-zA-Z0-9-]+) ::= ", re.MULTILINE)


def rules(grammar: str) -> dict[str, str]:
    return {m.group(1): grammar[m.end() : grammar.find("\n", m.end())] for m in RULE.finditer(grammar)}


def test_no_tools_no_grammar() -> None:
    assert call_block_grammar([]) is None


def test_every_rule_used_is_defined_once_and_the_trigger_is_the_call_marker() -> None:
    spec = ToolSpec("t", "", {"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "integer"}}]}, "b": {"type": ["number", "null"]}}})  # fmt: skip
    grammar = call_block_grammar([spec])
    assert grammar is not None and grammar.trigger == "TOOL_CALL_START"
    defined = RULE.findall(grammar.grammar)
    assert len(defined) == len(set(defined))
    bodies = rules(grammar.grammar)
    used = {
        w
        for body in bodies.values()
        for w in re.findall(
            r"(?<![\"\[\\])\b[a-z][a-z0-9-]*\b(?![\"\]])", re.sub(r'"(\\.|[^"\\])*"|\[(\\.|[^\]\\])*\]', " ", body)
        )
    }
    assert used <= set(defined), used - set(defined)


def test_what_the_grammar_cannot_say_is_loosened_and_named() -> None:
    spec = ToolSpec("t", "", {"type": "object", "properties": {
        "code": {"type": "string", "pattern": "^[A-Z]{3}$"},
        "n": {"type": "integer", "minimum": 1},
        "extra": {"type": "object", "properties": {"x": {"type": "string"}}, "additionalProperties": True},
    }, "required": ["code"]})  # fmt: skip
    grammar = call_block_grammar([spec])
    assert grammar is not None
    assert sorted(grammar.loose) == [
        "t.params.code: pattern",
        "t.params.extra: additionalProperties",
        "t.params.n: minimum",
    ]
    kv = rules(grammar.grammar)
    assert any(body.endswith("json-string") and '"\\"code\\""' in body for body in kv.values())
    assert any(body.endswith("json-integer") and '"\\"n\\""' in body for body in kv.values())


def test_names_and_enum_values_are_escaped_literals() -> None:
    spec = ToolSpec("say", "", {"type": "object", "properties": {"how": {"enum": ['a "quoted" word', "back\\slash", "new\nline"]}}, "required": ["how"]})  # fmt: skip
    grammar = call_block_grammar([spec])
    assert grammar is not None
    assert '"\\"a \\\\\\"quoted\\\\\\" word\\""' in grammar.grammar
    assert '"\\"new\\\\nline\\""' in grammar.grammar
