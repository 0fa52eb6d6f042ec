"""Content hygiene (issue 17, item 8): JSON whose only fault is comments outside its strings is
read as written, one-shot and in every chunking; comment-like text inside strings is data."""

from __future__ import annotations

import pytest

from letta_tool_emulation import StreamingToolCallParser, parse_tool_calls
from letta_tool_emulation.core.decoding import without_comments
from letta_tool_emulation.core.results import ParseResult

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
    ('{"function": "roll_dice", # a d6\n "params": {"sides": 6}}', ("roll_dice", {"sides": 6})),
    (
        '{"function": "conversation_search", # the first\n "params": {"query": "#1 # of"}}',
        ("conversation_search", {"query": "#1 # of"}),
    ),
]


def _every_chunking(text: str, sizes: tuple[int, ...]) -> list[ParseResult]:
    """The reply read one-shot, then streamed in chunks of each size."""
    results = [parse_tool_calls(text, TOOLS)]
    for size in sizes:
        p = StreamingToolCallParser(TOOLS)
        for i in range(0, len(text), size):
            p.feed(text[i : i + size])
        p.close()
        results.append(p.result)
    return results


@pytest.mark.parametrize(("body", "expected"), CASES)
def test_json_with_comments_is_read_as_written_in_every_chunking(body: str, expected: tuple[str, dict]) -> None:
    for r in _every_chunking(_block(body), (1, 2, 3, 7, 16)):
        assert [(c.name, c.arguments) for c in r.tool_calls] == [expected]
        assert not r.rejected


def test_without_comments_leaves_strings_alone() -> None:
    assert without_comments('{"a": "x // y /* z */"}') is None
    assert without_comments('{"a": 1, // c\n"b": "\\" // q"}') == '{"a": 1, \n"b": "\\" // q"}'
    assert without_comments("{'a': 'it//s'} /* x */") == "{'a': 'it//s'}  "
    assert without_comments('{"a": "#x"}') is None
    assert without_comments('# note\n{"a": "#x"} # y') == '\n{"a": "#x"} '


FENCED = '{"name": "roll_dice", "arguments": {"sides": 6}}'


@pytest.mark.parametrize(
    ("fence", "runs"),
    [
        ("```json\n# a d6\n" + FENCED + "\n```", True),
        ("```json\n// a d6\n" + FENCED + "\n```", True),
        # a bare fence of the model's comment lines and its call holds the call, as one of the
        # call alone does; one whose '#' line goes on into anything else is a script (test_commented_fence)
        ("```\n# a d6\n" + FENCED + "\n```", True),
        ("```\n# a d6\necho go\n" + FENCED + "\n```", False),
    ],
)
def test_a_comment_line_first_in_a_fence_named_json_keeps_its_call(fence: str, runs: bool) -> None:
    for r in _every_chunking("Rolling:\n" + fence, (1, 3, 16)):
        assert [(c.name, c.arguments) for c in r.tool_calls] == ([("roll_dice", {"sides": 6})] if runs else [])


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


def _all_ways(text: str, *, in_reasoning: bool) -> list[tuple[ParseResult, str, str]]:
    """The result one-shot and in several chunkings, each with what its events streamed as
    text and as reasoning."""
    out = []
    for size in (0, 1, 2, 3, 7, 16):
        p = StreamingToolCallParser(TOOLS, in_reasoning=in_reasoning)
        pieces = [text] if not size else [text[i : i + size] for i in range(0, len(text), size)]
        events = [e for piece in pieces for e in p.feed(piece)] + p.close()
        streamed_text = "".join(e.text or "" for e in events)
        streamed_reasoning = "".join(e.reasoning or "" for e in events)
        out.append((p.result, streamed_text, streamed_reasoning))
    out.append((parse_tool_calls(text, TOOLS, in_reasoning=in_reasoning), "", ""))
    return out


ROLL4 = 'TOOL_CALL_START\n{"function": "roll_dice", "params": {"sides": 4}}\nTOOL_CALL_END'
ROLL6 = 'TOOL_CALL_START\n{"function": "roll_dice", "params": {"sides": 6}}\nTOOL_CALL_END'


def test_text_before_the_closing_tag_is_reasoning_when_the_template_opened_it() -> None:
    """Item 8: with reasoning opened by the chat template (``in_reasoning``), what the reply
    writes before its ``</think>`` is reasoning, also when a call follows; it streams as
    reasoning from the first character; a block drafted there does not run."""
    text = f"The user wants a die. Maybe a d4:\n{ROLL4}\nNo, a d6.\n</think>\nRolling a d6.\n{ROLL6}"
    for result, streamed_text, streamed_reasoning in _all_ways(text, in_reasoning=True):
        assert [c.arguments for c in result.tool_calls] == [{"sides": 6}]
        assert result.content == "Rolling a d6."
        assert result.reasoning.startswith("The user wants a die.") and "No, a d6." in result.reasoning
        assert result.template_reasoning is True
        if streamed_reasoning:
            assert streamed_reasoning.startswith("The user wants a die.") and "Rolling" not in streamed_reasoning
            assert "The user" not in streamed_text


@pytest.mark.parametrize("echo", ["<think>", "\n<think>\n", "<THINKING>", "[THINK]"])
def test_the_opening_tag_written_again_is_not_reasoning_text(echo: str) -> None:
    text = f"{echo}Plan: roll.\n</think>\n{ROLL6}"
    for result, _, _ in _all_ways(text, in_reasoning=True):
        assert result.reasoning == "Plan: roll."
        assert [c.arguments for c in result.tool_calls] == [{"sides": 6}]


def test_a_reply_that_never_closes_the_template_reasoning_is_kept_as_reasoning_and_says_so() -> None:
    text = f"Just an answer, and a block:\n{ROLL6}"
    for result, streamed_text, _ in _all_ways(text, in_reasoning=True):
        assert result.tool_calls == [] and result.content == "" and streamed_text == ""
        assert result.reasoning.startswith("Just an answer")
        assert result.template_reasoning is False
        assert [p.kind for p in result.problems if p.kind == "unclosed_reasoning"] == ["unclosed_reasoning"]


def test_what_a_reply_shows_of_its_template() -> None:
    """Without ``in_reasoning``: a lone closing tag says the template opened reasoning (the
    caller then passes ``in_reasoning`` for this model); a reply's own <think> says nothing."""
    lone = f"The user wants a die.\n</think>\n{ROLL6}"
    for result, _, _ in _all_ways(lone, in_reasoning=False):
        assert result.template_reasoning is True and [c.arguments for c in result.tool_calls] == [{"sides": 6}]
    own = f"<think>a die</think>\n{ROLL6}"
    plain = f"Rolling.\n{ROLL6}"
    for text in (own, plain):
        for result, _, _ in _all_ways(text, in_reasoning=False):
            assert result.template_reasoning is None
