"""Content hygiene (issue 17, item 8): JSON whose only fault is comments outside its strings is
read as written, one-shot and in every chunking; comment-like text inside strings is data."""

from __future__ import annotations

import pytest

from letta_tool_emulation import StreamingToolCallParser, parse_tool_calls
from letta_tool_emulation.core.decoding import without_comments

from .corpus import load_tools

TOOLS = load_tools()


def _block(body: str) -> str:
    return f"Rolling.\nTOOL_CALL_START\n{body}\nTOOL_CALL_END"


CASES = [
    ('{"function": "roll_dice", // it\'s a d6\n "params": {"sides": 6}}', ("roll_dice", {"sides": 6})),
    ('{"function": "roll_dice", // say "hi" {\n "params": {"sides": 6}}', ("roll_dice", {"sides": 6})),
    ('{"function": "roll_dice", /* a "quoted" } brace */ "params": {"sides": 6}}', ("roll_dice", {"sides": 6})),
    (
        '{"function": "conversation_search", "params": {"query": "http://a.org // b /* c */"}} // after',
        ("conversation_search", {"query": "http://a.org // b /* c */"}),
    ),
    (
        '{"function": "conversation_search", "params": {"query": "x" // why\n}}',
        ("conversation_search", {"query": "x"}),
    ),
    (
        '{"function": "conversation_search", "params": {"query": "y"}} /* done */',
        ("conversation_search", {"query": "y"}),
    ),
]


@pytest.mark.parametrize(("body", "expected"), CASES)
def test_json_with_comments_is_read_as_written_in_every_chunking(body: str, expected: tuple[str, dict]) -> None:
    text = _block(body)
    results = [parse_tool_calls(text, TOOLS)]
    for size in (1, 2, 3, 7, 16):
        p = StreamingToolCallParser(TOOLS)
        for i in range(0, len(text), size):
            p.feed(text[i : i + size])
        p.close()
        results.append(p.result)
    for r in results:
        assert [(c.name, c.arguments) for c in r.tool_calls] == [expected]
        assert not r.rejected


def test_without_comments_leaves_strings_alone() -> None:
    assert without_comments('{"a": "x // y /* z */"}') is None
    assert without_comments('{"a": 1, // c\n"b": "\\" // q"}') == '{"a": 1, \n"b": "\\" // q"}'
    assert without_comments("{'a': 'it//s'} /* x */") == "{'a': 'it//s'}  "


@pytest.mark.parametrize(
    "opener",
    [
        'TOOL_CALL_START {"function": "roll_dice", "params": {"sides": 6}} TOOL_CALL_END',
        ' <tool_call>{"name": "roll_dice", "arguments": {"sides": 6}}</tool_call>',
    ],
)
def test_a_lone_think_close_that_runs_straight_into_a_call_closes_reasoning(opener: str) -> None:
    """Reasoning the template opened, then </think> and the call on the same line: the tag is
    no mention, what came before it was reasoning (a block drafted there does not run), and the
    call after it runs."""
    text = 'Maybe TOOL_CALL_START {"function": "roll_dice", "params": {"sides": 4}} TOOL_CALL_END\nI should roll it</think>'
    text += opener
    for size in (0, 1, 3, 16):
        if size:
            p = StreamingToolCallParser(TOOLS)
            for i in range(0, len(text), size):
                p.feed(text[i : i + size])
            p.close()
            r = p.result
        else:
            r = parse_tool_calls(text, TOOLS)
        assert [c.arguments for c in r.tool_calls] == [{"sides": 6}]
        assert "</think>" not in r.content
    # A mention of the tag inside a sentence stays text.
    assert "</think>" in parse_tool_calls("Close it with the </think> tag.", TOOLS).content
