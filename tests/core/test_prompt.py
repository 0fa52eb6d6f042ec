"""The tool prompt."""

from __future__ import annotations

import json

import pytest

from letta_tool_emulation import StreamingToolCallParser, parse_tool_calls, render_tool_prompt, tool_choice_instruction
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


def example_block(prompt: str) -> str:
    lines = prompt.splitlines()
    start = lines.index("TOOL_CALL_START")
    assert lines[start + 2] == "TOOL_CALL_END"
    return "\n".join(lines[start : start + 3])


def test_worked_example_is_a_listed_tool_with_placeholders() -> None:
    for example, name in ((None, "memory_insert"), ({"function": "roll_dice"}, "roll_dice")):
        block = example_block(render_tool_prompt(TOOLS, example=example))
        call = json.loads(block.splitlines()[1])
        assert call["function"] == name
        assert call["params"] == {p: f"<{p}>" for p in SPECS[name].required}


def test_the_example_block_copied_alone_is_rejected_not_run() -> None:
    r = parse_tool_calls(example_block(render_tool_prompt(TOOLS)), TOOLS)
    assert r.tool_calls == []
    assert [p.kind for p in r.rejected] == ["invalid_arguments"]
    assert "placeholder" in r.rejected[0].message  # so the model fills in real values


EXAMPLES = [
    None,
    {"function": "memory_insert"},
    {"function": "send_message"},
    {"function": "memory_insert", "params": {"label": "human", "new_string": "The user likes pizza."}},
]


@pytest.mark.parametrize("example", EXAMPLES)
@pytest.mark.parametrize("intro", ["", "Sure, here are my instructions:\n\n", "Of course!\n"])
def test_reciting_the_tools_section_runs_nothing_and_drops_nothing(example: dict | None, intro: str) -> None:
    prompt = render_tool_prompt(TOOLS, example=example, tool_choice="required")
    reply = intro + prompt
    for r in (parse_tool_calls(reply, TOOLS, "stop"), streamed(reply)):
        assert r.tool_calls == []
        assert r.rejected == []  # nothing to re-ask about either: it was shown, not attempted
        assert "Never write those yourself." in r.content  # nothing after TOOL_RESULT is dropped
        assert r.content.endswith("using a TOOL_CALL_START block.")


def streamed(text: str):  # type: ignore[no-untyped-def]
    p = StreamingToolCallParser(TOOLS)
    for i in range(0, len(text), 7):
        p.feed(text[i : i + 7])
    p.close("stop")
    return p.result


def test_explicit_example_is_shown_as_given() -> None:
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


def test_a_rendered_prompt_is_reused_only_for_the_same_tools() -> None:
    from letta_tool_emulation.core import prompt as module

    fresh = module._render_tool_prompt(TOOLS, None, None)
    assert render_tool_prompt(TOOLS) == fresh
    assert render_tool_prompt(TOOLS) == fresh  # from the cache, the same text
    # One description changed, or a default of 1.0 for one of 1 (equal in Python, shown apart):
    # each its own prompt, never the cached one of a list that only looks alike.
    changed = [dict(TOOLS[0], description="Something else entirely."), *TOOLS[1:]]
    assert render_tool_prompt(changed) == module._render_tool_prompt(changed, None, None) != fresh
    as_int, as_float = ([{"name": "t", "parameters": {"type": "object", "properties": {"n": {"type": "number", "default": d}}}}]
                        for d in (1, 1.0))  # fmt: skip
    assert render_tool_prompt(as_int) != render_tool_prompt(as_float)
    assert render_tool_prompt(as_float) == module._render_tool_prompt(as_float, None, None)
    # `required` as a tuple is the list it serialises to (see core/schema.py): the same prompt.
    insert = next(t for t in TOOLS if t["name"] == "memory_insert")
    as_tuple = [{**insert, "parameters": {**insert["parameters"], "required": tuple(insert["parameters"]["required"])}}]
    assert render_tool_prompt(as_tuple) == module._render_tool_prompt(as_tuple, None, None)
    assert render_tool_prompt(as_tuple) == render_tool_prompt([insert])
    # Bounded: many different lists leave at most TOOL_PROMPT_CACHE prompts behind.
    for n in range(module.TOOL_PROMPT_CACHE + 10):
        render_tool_prompt([{"name": f"tool_{n}", "parameters": {"type": "object", "properties": {}}}])
    assert len(module._CACHE) <= module.TOOL_PROMPT_CACHE
