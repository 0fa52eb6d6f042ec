"""Properties that must hold for any input: no exception, and streaming agrees with one-shot
parsing whatever the chunking."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from letta_tool_emulation import StreamingToolCallParser, parse_tool_calls
from letta_tool_emulation.core.formats import FORMATS
from letta_tool_emulation.core.parser import tidy

from .corpus import load_corpus, load_tools

TOOLS = load_tools()
CORPUS_TEXTS = [e.text for e in load_corpus()]

# Pieces that sit on the parser's decision boundaries: markers whole and cut, quotes,
# brackets, fences, tags, unicode that is several bytes long in UTF-8.
FRAGMENTS = [
    "TOOL_CALL_START",
    "TOOL_CALL_END",
    "TOOL_CA",
    "LL_START",
    "TOOL_",
    "TOOL_RESULT",
    "TOOL_CAT",
    "\n",
    "\r\n",
    " ",
    "  ",
    "\t",
    "\n\n",
    "{",
    "}",
    "[",
    "]",
    '"',
    "'",
    "\\",
    ":",
    ",",
    '\\"',
    '{"function": "roll_dice", "params": {"sides": 6}}',
    '{"name": "conversation_search", "arguments": {"query": "x"}}',
    '{"function": "memory_insert", "params": {"label": "human", "new_string": "a}b"}}',
    "{'function': 'roll_dice', 'params': {'sides': 3,}}",
    '{"function": "nope"}',
    '{"function": "set_mood", "params": {"mood": "odd"}}',
    "```",
    "```json\n",
    "```tool_call\n",
    "```python\n",
    "~~~\n",
    "`",
    "``",
    "<think>",
    "</think>",
    "<tool_call>",
    "</tool_call>",
    '<tool_call name="roll_dice" params=\'{"sides": 2}\'/>',
    "<tool_response>",
    "[TOOL_CALLS]",
    "Action: roll_dice\nAction Input: ",
    "Observation:",
    "Action:",
    "for example:",
    "Sure!",
    "hello",
    "é",
    "漢字",
    "😀",
    "👩‍👩‍👧",
    "\u2060",
    "null",
    "True",
    "12",
    *(spec.example for spec in FORMATS),  # every format in the table
    *(end for spec in FORMATS for end in spec.end),
]

texts = st.one_of(
    st.text(max_size=300),
    st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=8), max_size=40).map("".join),
    st.sampled_from(CORPUS_TEXTS),
)


def summary(content: str, calls, problems, reasoning: str):  # type: ignore[no-untyped-def]
    return (
        tidy(content),
        [(c.name, c.arguments, c.confidence, c.format) for c in calls],
        [(p.kind, p.rejected, p.tool_name) for p in problems],
        reasoning.strip(),
    )


def one_shot(text: str, finish: str | None):  # type: ignore[no-untyped-def]
    r = parse_tool_calls(text, TOOLS, finish_reason=finish)
    return summary(r.content, r.tool_calls, r.problems, r.reasoning)


def streamed(chunks: list[str] | list[bytes], finish: str | None):  # type: ignore[no-untyped-def]
    p = StreamingToolCallParser(TOOLS)
    events = []
    for chunk in chunks:
        events += p.feed(chunk)
    events += p.close(finish)
    content = "".join(e.text for e in events)
    calls = [e.call for e in events if e.call is not None]
    problems = [e.problem for e in events if e.problem is not None]
    reasoning = "".join(e.reasoning for e in events)
    assert tidy(content) == p.result.content, "events add up to the result"
    return summary(content, calls, problems, reasoning)


def split(seq, cuts):  # type: ignore[no-untyped-def]
    points = sorted({c % (len(seq) + 1) for c in cuts})
    bounds = [0, *points, len(seq)]
    return [seq[a:b] for a, b in pairwise(bounds) if b > a]


finishes = st.sampled_from([None, "stop", "length"])


@given(st.text(max_size=2000), finishes)
def test_never_raises_on_arbitrary_text(text: str, finish: str | None) -> None:
    r = parse_tool_calls(text, TOOLS, finish_reason=finish)
    assert isinstance(r.content, str)
    for call in r.tool_calls:
        assert isinstance(call.name, str) and isinstance(call.arguments, dict)


@given(texts, st.lists(st.integers(min_value=0, max_value=10_000), max_size=30), finishes)
def test_streaming_equals_one_shot_random_chunks(text: str, cuts: list[int], finish: str | None) -> None:
    assert streamed(split(text, cuts), finish) == one_shot(text, finish)


@given(texts, finishes)
def test_streaming_equals_one_shot_single_characters(text: str, finish: str | None) -> None:
    assert streamed(list(text), finish) == one_shot(text, finish)


@given(texts, st.lists(st.integers(min_value=0, max_value=10_000), max_size=30), finishes)
def test_streaming_bytes_split_inside_characters(text: str, cuts: list[int], finish: str | None) -> None:
    data = text.encode("utf-8", "surrogatepass")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return  # a lone surrogate cannot travel as UTF-8; the str tests cover it
    assert streamed(split(data, cuts), finish) == one_shot(text, finish)


def test_bytes_one_at_a_time_through_emoji_and_markers() -> None:
    text = 'Hé 😀 TOOL_CALL_START\n{"function": "roll_dice", "params": {"sides": 6, "note": "漢字👩‍👩‍👧"}}\nTOOL_CALL_END\nok'
    data = text.encode()
    assert streamed([data[i : i + 1] for i in range(len(data))], None) == one_shot(text, None)
    r = parse_tool_calls(text, TOOLS)
    assert [c.arguments for c in r.tool_calls] == [{"sides": 6, "note": "漢字👩‍👩‍👧"}]
    assert r.content == "Hé 😀 \nok"  # the prose on both sides of the block, as written


# Inline code across chunks: backtick runs of every length between short prose, and a call
# between two runs that may or may not open and close inline code around it. A run cut by a
# chunk's end, while inline code holds text, is where every position the scanner keeps must
# still point at the same text after the buffer is compacted.
CALL_IN_A_LINE = 'TOOL_CALL_START {"function": "roll_dice", "params": {"sides": 6}} TOOL_CALL_END'
_runs = st.integers(min_value=1, max_value=3).map(lambda k: "`" * k)
_prose = st.sampled_from(["", "a", "ab", "abc"])
backtick_lines = st.tuples(
    st.lists(st.tuples(_prose, _runs).map("".join), min_size=1, max_size=5).map("".join),
    _runs,
    _prose,
).map(lambda parts: f"{parts[0]} {CALL_IN_A_LINE} {parts[1]}{parts[2]}")


@given(backtick_lines)
def test_backtick_runs_cut_by_a_chunk_parse_as_in_one_piece(text: str) -> None:
    whole = one_shot(text, None)
    for cut in range(1, len(text)):
        if text[cut - 1] == "`" == text[cut]:  # inside a run; the chunk before it starts anywhere near
            for start in range(max(cut - 12, 0), cut):
                chunks = [text[:start], text[start:cut], text[cut:]]
                assert streamed([c for c in chunks if c], None) == whole, (start, cut)


def test_a_backtick_run_cut_by_a_chunk_keeps_its_place() -> None:
    # The second run of two backticks is cut; the run of three after it must be known for
    # what it is (it opens inline code that closes on the line), however the reply is cut.
    text = "x`a``q``w``` " + CALL_IN_A_LINE + " ```\nok"
    whole = one_shot(text, None)
    assert whole[1] == []  # the call is inside inline code
    for cut in range(1, len(text)):
        assert streamed([text[:cut], text[cut:]], None) == whole, cut


# Pretty-printed JSON with blank lines inside, in every format that may hold it: a blank line
# ends JSON with no end marker only when the next line cannot continue it, so the call runs,
# one-shot and in every chunking alike.
_PRETTY_CALL = [
    "{",
    '  "name": "roll_dice",',
    '  "arguments": {',
    '    "sides": 6,',
    '    "note": "a b"',
    "  }",
    "}",
]
_PRETTY_WRAPS = [
    ("Rolling.\n\n", "\n"),
    ("Rolling.\n```json\n", "\n```\n"),
    ("Rolling.\n```tool_call\n", "\n```\n"),
    ("Rolling.\n<tool_call>\n", "\n</tool_call>\n"),
    ("Rolling.\n[TOOL_CALLS]", "\n"),
]


@st.composite
def pretty_with_blank_lines(draw: st.DrawFn) -> str:
    lines = list(_PRETTY_CALL)
    blanks = draw(st.lists(st.integers(min_value=1, max_value=len(lines) - 1), min_size=1, max_size=4))
    for at in sorted(blanks, reverse=True):
        lines.insert(at, draw(st.sampled_from(["", "  ", "\t", " \r"])))
    before, after = draw(st.sampled_from(_PRETTY_WRAPS))
    return before + "\n".join(lines) + after + draw(st.sampled_from(["", "Done.", "\nDone."]))


@given(pretty_with_blank_lines(), st.lists(st.integers(min_value=0, max_value=400), max_size=10))
def test_blank_lines_inside_pretty_json_parse_alike_in_every_chunking(text: str, cuts: list[int]) -> None:
    whole = one_shot(text, None)
    assert [(name, args) for name, args, _, _ in whole[1]] == [("roll_dice", {"sides": 6, "note": "a b"})], text
    assert streamed(split(text, cuts), None) == whole
    assert streamed([text[i : i + 16] for i in range(0, len(text), 16)], None) == whole


# Backtick runs across compaction: after every feed the scanner drops what it decided and
# rebases what it remembers. Lines of backtick runs, prose and calls, cut anywhere, read as in
# one piece.
_tick_line = st.lists(
    st.sampled_from(["`", "``", "```", "x", "ab ", " ", CALL_IN_A_LINE, "\n", "`a`", "``b``"]),
    min_size=1,
    max_size=14,
).map("".join)


@given(_tick_line, st.lists(st.integers(min_value=0, max_value=2000), max_size=16))
def test_backtick_runs_across_compaction_read_as_in_one_piece(text: str, cuts: list[int]) -> None:
    whole = one_shot(text, None)
    assert streamed(split(text, cuts), None) == whole
    assert streamed(list(text), None) == whole
