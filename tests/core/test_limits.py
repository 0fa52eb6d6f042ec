"""Limits: a reply cut short by any limit or filter runs nothing unfinished."""

from __future__ import annotations

import pytest

from letta_tool_emulation import StreamingToolCallParser, parse_tool_calls
from letta_tool_emulation.core.envelope import EnvelopeParser
from letta_tool_emulation.core.region import is_cut

from .corpus import load_tools

TOOLS = load_tools()
CALL = '{"name": "conversation_search", "arguments": {"query": "pizza"}}'
# A list of calls whose end never came: closing it would run calls the model never finished.
TRUNCATED = [
    f"[TOOL_CALLS][{CALL}, {CALL}",
    f"TOOL_CALL_START\n[{CALL}, {CALL}",
    f"<tool_call>\n[{CALL}, {CALL}",
    f"```tool_call\n[{CALL}, {CALL}",
]
CUT = ["length", "max_tokens", "content_filter", "MAX_TOKENS", "SAFETY", "max_output_tokens", "recitation"]


@pytest.mark.parametrize("reason", CUT)
def test_every_reason_that_means_cut_counts_as_a_cut(reason: str) -> None:
    assert is_cut(reason)


@pytest.mark.parametrize("reason", [None, "stop", "tool_calls", "end_turn", "STOP", "eos"])
def test_a_reply_that_ended_on_purpose_was_not_cut(reason: str | None) -> None:
    assert not is_cut(reason)


@pytest.mark.parametrize("reason", CUT)
@pytest.mark.parametrize("text", TRUNCATED)
def test_a_truncated_list_of_calls_is_not_closed_and_run(text: str, reason: str) -> None:
    one = parse_tool_calls("Searching.\n" + text, TOOLS, reason)
    p = StreamingToolCallParser(TOOLS)
    for i in range(0, len(text), 7):
        p.feed(text[i : i + 7])
    p.close(reason)
    for r in (one, p.result):
        assert r.tool_calls == []
        assert [x.kind for x in r.rejected] == ["truncated"]


@pytest.mark.parametrize("reason", CUT)
def test_a_cut_envelope_says_why(reason: str) -> None:
    p = EnvelopeParser(TOOLS)
    p.feed('{"calls": [{"function": "conversation_search", "params": {"query": "piz')
    p.close(reason)
    r = p.result
    assert r.tool_calls == [] and [x.kind for x in r.rejected] == ["truncated"]
    assert "(" in r.rejected[0].message  # the reason, in words


def test_the_cut_is_named() -> None:
    r = parse_tool_calls(f"[TOOL_CALLS][{CALL}, {CALL}", TOOLS, "content_filter")
    assert "content filter" in r.rejected[0].message
    r = parse_tool_calls(f"[TOOL_CALLS][{CALL}, {CALL}", TOOLS, "max_tokens")
    assert "length limit" in r.rejected[0].message
