"""The scanner's transition table is exact: every transition the scanner takes is in it
(conftest.py checks that for every test in tests/core, the corpus and property tests
included), and every one in it is taken."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from letta_tool_emulation import StreamingToolCallParser, parse_tool_calls
from letta_tool_emulation.core.scan import TRANSITIONS, State, record, unknown
from letta_tool_emulation.core.scan.text import MAX_BLOCKS

from .corpus import load_tools
from .snapshot import inputs
from .test_properties import backtick_lines
from .test_properties import texts as property_texts

TOOLS = load_tools()
# Shapes the recorded replies do not hold.
RARE = [
    "<tool_call name='x'",  # an unfinished tag at the reply's end
    "```\n" + "x" * 10,  # a fence never closed
    "~~",  # too few tildes
    "``x`",  # a run of two that never closes
    "<!-- never closed",
    "```tool_call",  # a fence opener on the last line
    "```json x`y\n",  # a backtick in an info string
    "```\n```\n" * (MAX_BLOCKS + 1),  # more blocks than are read
]


def _parse(text: str, finish: str | None) -> set[tuple[State, State]]:
    with record() as seen:
        parse_tool_calls(text, TOOLS, finish_reason=finish)
        p = StreamingToolCallParser(TOOLS)
        for i in range(0, len(text), 3):
            p.feed(text[i : i + 3])
        p.close(finish)
    return seen


def test_the_table_holds_exactly_the_transitions_taken() -> None:
    seen: set[tuple[State, State]] = set()
    for text, finish in [*inputs(), *((text, None) for text in RARE)]:
        seen |= _parse(text, finish)
    assert not unknown(seen)
    table = {(a, b) for a, nexts in TRANSITIONS.items() for b in nexts}
    missing = sorted(f"{a.name} -> {b.name}" for a, b in table - seen)
    assert not missing, f"transitions in the table that nothing takes: {missing}"


@settings(max_examples=200)
@given(property_texts | backtick_lines, st.sampled_from([None, "stop", "length"]))
def test_generated_replies_take_only_transitions_in_the_table(text: str, finish: str | None) -> None:
    assert not unknown(_parse(text, finish))
