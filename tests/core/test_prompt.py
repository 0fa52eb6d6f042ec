"""The tool prompt."""

from __future__ import annotations

import json

from letta_tool_emulation import parse_tool_calls, render_tool_prompt, tool_choice_instruction
from letta_tool_emulation.core.prompt import signature, summarize
from letta_tool_emulation.core.tools import normalize_tools

from .corpus import load_tools

TOOLS = load_tools()
SPECS = normalize_tools(TOOLS)


def test_lists_every_tool_with_a_compact_signature() -> None:
    prompt = render_tool_prompt(TOOLS)
    for spec in SPECS.values():
        assert "- " + signature(spec) in prompt
    assert (
        signature(SPECS["memory_insert"]) == "memory_insert(label: string, new_string: string, insert_line?: integer)"
    )
    assert signature(SPECS["roll_dice"]).endswith("count?: integer = 1, exact?: boolean, note?: string)")
    assert 'set_mood(mood: "happy" | "neutral" | "sad")' in prompt


def test_worked_example_uses_a_listed_tool_and_parses_as_a_call() -> None:
    prompt = render_tool_prompt(TOOLS)
    start = prompt.index("TOOL_CALL_START")
    block = prompt[start : prompt.index("TOOL_CALL_END", start) + len("TOOL_CALL_END")]
    r = parse_tool_calls(block, TOOLS)
    assert len(r.tool_calls) == 1 and r.tool_calls[0].name in SPECS
    assert r.problems == []


def test_explicit_example() -> None:
    example = {"function": "memory_insert", "params": {"label": "human", "new_string": "Likes pizza."}}
    assert json.dumps(example) in render_tool_prompt(TOOLS, example=example)


def test_rules_cover_plain_answers_failures_and_invented_results() -> None:
    prompt = render_tool_prompt(TOOLS)
    assert "answer in plain text" in prompt
    assert "error" in prompt and "try again" in prompt
    assert "between TOOL_RESULT and TOOL_RESULT_END. Never write those yourself." in prompt


def test_docstring_sections_are_left_out() -> None:
    prompt = render_tool_prompt(TOOLS)
    assert "memory_replace(label=" not in prompt  # the Python-call examples in Letta's docstrings
    assert "Returns:" not in prompt
    assert "Do NOT attempt to replace long strings" in prompt  # guidance before the examples stays


def test_summarize_cuts_at_a_sentence() -> None:
    text = "First sentence here. Second one is longer than the limit allows for sure."
    assert summarize(text, 40) == "First sentence here."
    assert summarize("word " * 50, 30).endswith("...")
    assert summarize("", 10) == ""


def test_tool_choice() -> None:
    assert "You must call the tool memory_insert now" in render_tool_prompt(TOOLS, tool_choice="memory_insert")
    named = {"type": "function", "function": {"name": "conversation_search"}}
    assert "You must call the tool conversation_search now" in tool_choice_instruction(named)
    assert "at least one tool" in tool_choice_instruction("required")
    assert "Do not call any tool" in tool_choice_instruction("none")
    assert tool_choice_instruction("auto") == "" and tool_choice_instruction(None) == ""


def test_empty_tool_list_gives_no_prompt() -> None:
    assert render_tool_prompt([]) == ""
    assert render_tool_prompt(None) == ""


def test_smaller_than_the_native_payload_for_letta_default_tools() -> None:
    # letta_v1_agent's default tools; the benchmark script reports the exact ratio.
    tools = [t for t in TOOLS if t["name"] in ("memory_insert", "memory_replace", "conversation_search")]
    native = json.dumps([{"type": "function", "function": t} for t in tools])
    assert len(render_tool_prompt(tools)) < len(native)
