"""A bare fence holding only the model's comment lines and one call block wraps a performed call,
as a ```tool_call fence does; any other bare fence is code, and streams as such."""

from __future__ import annotations

import pytest

from letta_tool_emulation import StreamingToolCallParser, parse_tool_calls

from .corpus import load_tools

TOOLS = load_tools()
BLOCK = 'TOOL_CALL_START\n{"function": "roll_dice", "params": {"sides": 6}}\nTOOL_CALL_END'
WRAPPED = f"Rolling it now:\n\n```\n# one d6 for the initiative\n{BLOCK}\n```\n\nGood luck!"


def _streamed(text: str, size: int) -> list[str]:
    p = StreamingToolCallParser(TOOLS)
    for i in range(0, len(text), size):
        p.feed(text[i : i + size])
    p.close()
    return [c.name for c in p.result.tool_calls]


@pytest.mark.parametrize("size", [1, 2, 3, 5, 7, 16, 64])
def test_the_models_commented_block_in_a_bare_fence_runs(size: int) -> None:
    assert [c.name for c in parse_tool_calls(WRAPPED, TOOLS).tool_calls] == ["roll_dice"]
    assert _streamed(WRAPPED, size) == ["roll_dice"]


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        # no comment: a block quoted in a code block, as before
        (f"The test case itself:\n```\n{BLOCK}\n```", "in_code_block"),
        # an example's words before the fence still decide
        (f"For example:\n```\n# a sample call\n{BLOCK}\n```", "example"),
    ],
)
def test_other_fenced_blocks_stay_shown(text: str, kind: str) -> None:
    result = parse_tool_calls(text, TOOLS)
    assert result.tool_calls == [] and [p.kind for p in result.problems] == [kind]
    assert all(_streamed(text, size) == [] for size in (1, 3, 16))


def test_a_script_with_markers_in_a_bare_fence_is_code() -> None:
    text = f"```\n# print a sample\necho hi\n{BLOCK}\n```"
    assert parse_tool_calls(text, TOOLS).tool_calls == []
    assert all(_streamed(text, size) == [] for size in (1, 3, 16))


def test_a_bare_fence_of_comments_and_code_streams_before_it_closes() -> None:
    # (only the leading comment lines are held: the first other line settles the fence as code)
    p = StreamingToolCallParser(TOOLS)
    shown = "".join(e.text for e in p.feed("```\n# a heading\nprint('hi')\n"))
    assert "print('hi')" in shown and "# a heading" in shown
