"""The corpus of realistic replies: each one parses to exactly the calls it states."""

from __future__ import annotations

import pytest

from letta_tool_emulation import StreamingToolCallParser, parse_tool_calls

from .corpus import Entry, load_corpus, load_tools

TOOLS = load_tools()
CORPUS = load_corpus()


def test_corpus_size() -> None:
    assert len(CORPUS) >= 80
    assert len({e.id for e in CORPUS}) == len(CORPUS), "ids are unique"
    assert sum(1 for e in CORPUS if not e.calls) >= 30, "plenty of replies without calls"


def check(entry: Entry, content: str, calls: list, problems: list, reasoning: str) -> None:
    assert [{"name": c.name, "arguments": c.arguments} for c in calls] == entry.calls
    if entry.content is not None:
        assert content == entry.content
    for s in entry.contains:
        assert s in content
    for s in entry.absent:
        assert s not in content
    kinds = [p.kind for p in problems]
    for kind in entry.problems:
        assert kind in kinds
    if entry.rejected is not None:
        assert any(p.rejected for p in problems) == entry.rejected
    if entry.reasoning is not None:
        assert entry.reasoning in reasoning
    for c in calls:
        assert 0.0 < c.confidence <= 1.0


@pytest.mark.parametrize("entry", CORPUS, ids=lambda e: e.id)
def test_one_shot(entry: Entry) -> None:
    r = parse_tool_calls(entry.text, TOOLS, finish_reason=entry.finish)
    check(entry, r.content, r.tool_calls, r.problems, r.reasoning)


@pytest.mark.parametrize("entry", CORPUS, ids=lambda e: e.id)
@pytest.mark.parametrize("size", [1, 3, 16])
def test_streaming(entry: Entry, size: int) -> None:
    p = StreamingToolCallParser(TOOLS)
    for i in range(0, len(entry.text), size):
        p.feed(entry.text[i : i + size])
    p.close(entry.finish)
    r = p.result
    check(entry, r.content, r.tool_calls, r.problems, r.reasoning)
