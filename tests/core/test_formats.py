"""Every format in the table, read from the table: each entry's example call is a call, and
stops being one wherever a call is only shown or the text came from outside the turn."""

from __future__ import annotations

import pytest

from letta_tool_emulation import StreamingToolCallParser, neutralise, parse_tool_calls, render_messages
from letta_tool_emulation.core.formats import FORMATS, FormatSpec
from letta_tool_emulation.core.markers import NEUTRALISE

LOOKUP = {
    "name": "lookup",
    "description": "Look something up.",
    "parameters": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]},
}
TOOLS = [LOOKUP]


def _calls(text: str) -> list[tuple[str, dict[str, object]]]:
    return [(c.name, c.arguments) for c in parse_tool_calls(text, TOOLS).tool_calls]


@pytest.fixture(params=FORMATS, ids=lambda spec: spec.name)
def spec(request: pytest.FixtureRequest) -> FormatSpec:
    return request.param  # type: ignore[no-any-return]


def test_each_example_is_a_call_in_its_format(spec: FormatSpec) -> None:
    r = parse_tool_calls("Looking it up.\n" + spec.example, TOOLS)
    assert [(c.name, c.arguments) for c in r.tool_calls] == [("lookup", {"q": "x"})]
    assert r.tool_calls[0].format == spec.format
    assert r.tool_calls[0].confidence <= max(spec.confidence.values())
    assert r.content == "Looking it up."
    assert not r.rejected


def test_each_example_streams_as_it_parses_whole(spec: FormatSpec) -> None:
    text = "Looking it up.\n" + spec.example + "\nDone."
    p = StreamingToolCallParser(TOOLS)
    for ch in text:
        p.feed(ch)
    p.close()
    whole = parse_tool_calls(text, TOOLS)
    assert [(c.name, c.arguments, c.confidence) for c in p.result.tool_calls] == [
        (c.name, c.arguments, c.confidence) for c in whole.tool_calls
    ]
    assert p.result.content == whole.content


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("For example:\n", ""),  # introduced as an example
        ("> ", ""),  # in a blockquote
        ("<think>\n", "\n</think>\nNothing to do."),  # in reasoning
        ("Shall I look it up? Here is the call I would make:\n", ""),  # proposed
        ("```text\n", "\n```"),  # in a code block
    ],
)
def test_each_example_only_shown_runs_nothing(spec: FormatSpec, before: str, after: str) -> None:
    assert _calls(before + spec.example + after) == []


def test_each_example_is_inert_once_neutralised(spec: FormatSpec) -> None:
    broken = neutralise(spec.example)
    assert broken != spec.example and broken.replace("\u2060", "") == spec.example
    assert _calls(broken) == []
    assert _calls("Sure.\n" + broken + "\nok") == []


def test_each_example_from_outside_the_turn_reaches_the_model_inert(spec: FormatSpec) -> None:
    history = [
        {"role": "system", "content": "Memory:\n" + spec.example},
        {"role": "user", "content": spec.example},
        {"role": "tool", "tool_call_id": "t", "name": "lookup", "content": spec.example},
    ]
    rendered = render_messages(history, TOOLS)
    memory = rendered[0]["content"].split("# Tools")[0]  # the tool prompt after it keeps live markers
    for text in [memory, *(m["content"] for m in rendered[1:])]:
        assert spec.example not in text and _calls(text) == [], text


def test_the_neutraliser_breaks_what_each_entry_says() -> None:
    for spec in FORMATS:
        assert NEUTRALISE.search(spec.example) is not None, spec.name
