"""Parser throughput, one-shot and streaming, on ~1 MB replies with 200 calls.

Prints figures; asserts nothing (machines are shared and noisy). Times are CPU time of this
process, best of a few runs, which a busy shared machine disturbs less than wall time; a
stream's chunks are sliced before the clock starts, and its events taken and dropped (what a
client does with each event is its cost; a consumer that counts every event is timed too). Two
replies: one of terse prose and calls whose string arguments are a few KB of text and code,
and ``parser_accuracy``'s long reply, each call after paragraphs of everyday prose (URLs,
emphasis, lists, questions). Targets on a 2-core machine (issue 17): one-shot >= 40 MB/s and
streaming with 16-character chunks >= 10 MB/s on both; >= 90 % of the prose released by
feed() before close() (calls are released by close(), once nothing later in the reply can
change them); <= 2 us per character with 1-character chunks, and the per-character cost over
400 KB within 1.5x of that over 50 KB.

    python3 dev.py bench parser_speed
    COMPARE_WITH=DIR python3 dev.py bench parser_speed
                    (this checkout against the ``letta_tool_emulation`` in DIR, in alternating
                    rounds of CPU time: see ``_compare.py``; COMPARE_ROUNDS=15)
"""

from __future__ import annotations

import gc
import json
import random
import statistics
import sys
import time
from collections.abc import Callable

from _compare import WORKER, compare, serve, wanted
from parser_accuracy import load_tools, long_reply

import letta_tool_emulation
from letta_tool_emulation import StreamingToolCallParser, parse_tool_calls

TOOLS = [
    {
        "name": "archival_memory_insert",
        "description": "Store a passage in archival memory.",
        "parameters": {
            "type": "object",
            "properties": {"content": {"type": "string"}, "tags": {"type": "array", "items": {"type": "string"}}},
            "required": ["content"],
        },
    },
    {
        "name": "memory_insert",
        "description": "Insert text into a memory block.",
        "parameters": {
            "type": "object",
            "properties": {
                "label": {"type": "string"},
                "new_string": {"type": "string"},
                "insert_line": {"type": "integer"},
            },
            "required": ["label", "new_string"],
        },
    },
]

WORDS = [
    "the",
    "a",
    "memory",
    "note",
    "user",
    "agent",
    "remembers",
    "likes",
    "pizza",
    "Tuesday",
    "meeting",
    "project",
    "roadmap",
    "Lisbon",
    "café",
    "naïve",
    "東京",
    "😀",
    "because,",
    "however;",
    "which",
    "(often)",
    "'quoted'",
    '"double"',
    "{braces}",
    "[brackets]",
    "42",
    "3.14",
    "TOOL",
    "tool",
    "Action",
    "Observation",
    "<b>bold</b>",
    "`code`",
    "~tilde~",
    "#hash",
]


def sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


def make_reply(target_bytes: int, calls: int, seed: int = 7) -> str:
    """Prose paragraphs and calls whose string arguments are a few KB of text and code."""
    rng = random.Random(seed)
    per_call = target_bytes // calls
    parts = []
    for i in range(calls):
        prose = " ".join(sentence(rng, rng.randint(8, 20)) for _ in range(rng.randint(2, 5)))
        body_len = max(200, per_call - len(prose) - 120)
        lines = []
        size = 0
        while size < body_len:
            line = (
                sentence(rng, rng.randint(5, 15))
                if rng.random() < 0.7
                else f'    print("value: {{}}".format(x[{i}]))  # {{"k": [1, 2]}}'
            )
            lines.append(line)
            size += len(line.encode()) + 1
        args = (
            {"content": "\n".join(lines), "tags": ["bench", f"n{i}"]}
            if i % 2 == 0
            else {"label": "human", "new_string": "\n".join(lines)}
        )
        call = json.dumps(
            {"function": "archival_memory_insert" if i % 2 == 0 else "memory_insert", "params": args},
            ensure_ascii=False,
        )
        parts.append(f"{prose}\nTOOL_CALL_START\n{call}\nTOOL_CALL_END\n")
    parts.append("All stored. " + sentence(rng, 12))
    return "".join(parts)


def best_of(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        gc.collect()
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return min(times)


def chunked(text: str, size: int) -> list[str]:
    """The reply as the network hands it over: sliced before the clock starts."""
    return [text[i : i + size] for i in range(0, len(text), size)]


def drain(chunks: list[str], tools: list[dict] = TOOLS) -> None:  # type: ignore[type-arg]
    """The timed stream: every chunk fed and every event taken, nothing else done with them, so
    the figure is the parser's (what a client does with each event is its own cost)."""
    p = StreamingToolCallParser(tools)
    feed = p.feed
    for chunk in chunks:
        for _ in feed(chunk):
            pass
    p.close()


def stream(chunks: list[str], tools: list[dict] = TOOLS) -> tuple[int, int, int, int]:  # type: ignore[type-arg]
    """(prose released by feed, prose in total, calls emitted by feed, calls in total): a
    consumer that looks at every event, timed apart from ``drain``."""
    p = StreamingToolCallParser(tools)
    fed_text = fed_calls = 0
    for chunk in chunks:
        for e in p.feed(chunk):
            fed_text += len(e.text)
            fed_calls += e.call is not None
    closing = p.close()
    total_text = fed_text + sum(len(e.text) for e in closing)
    total_calls = fed_calls + sum(e.call is not None for e in closing)
    return fed_text, total_text, fed_calls, total_calls


def cases() -> tuple[dict[str, Callable[[], object]], dict[str, float]]:
    """The timed runs of a comparison by name, and each one's input in MB."""
    synthetic = make_reply(1_000_000, 200)
    everyday, _ = long_reply()
    tools = load_tools()
    small = make_reply(50_000, 10, seed=11)
    synthetic16, everyday16, small1 = chunked(synthetic, 16), chunked(everyday, 16), chunked(small, 1)
    runs: dict[str, Callable[[], object]] = {
        "synthetic, one-shot": lambda: parse_tool_calls(synthetic, TOOLS),
        "synthetic, 16 chars": lambda: drain(synthetic16),
        "everyday, one-shot": lambda: parse_tool_calls(everyday, tools),
        "everyday, 16 chars": lambda: drain(everyday16, tools),
        "synthetic 50 KB, 1 char": lambda: drain(small1),
    }
    mb = [len(synthetic.encode()) / 1e6] * 2 + [len(everyday.encode()) / 1e6] * 2 + [len(small.encode()) / 1e6]
    return runs, dict(zip(runs, mb, strict=True))


def main() -> None:
    if WORKER in sys.argv:
        serve(cases()[0])
        return
    if (other := wanted()) is not None:
        runs, mb = cases()
        compare(__file__, list(runs), *other, size=mb.__getitem__)
        return
    # An installed import hook can make this time another checkout's parser: say which one.
    print(f"parser: {letta_tool_emulation.__file__}")
    reply = make_reply(1_000_000, 200)
    mb = len(reply.encode()) / 1e6
    check = parse_tool_calls(reply, TOOLS)
    assert len(check.tool_calls) == 200 and not check.problems, "benchmark input must parse cleanly"
    print(
        f"reply: {mb:.2f} MB, {len(reply):,} characters, {len(check.tool_calls)} calls, "
        f"mean string argument {statistics.mean(len(next(iter(c.arguments.values()))) for c in check.tool_calls):,.0f} chars"
    )

    t = best_of(lambda: parse_tool_calls(reply, TOOLS), 5)
    print(f"one-shot:            {mb / t:7.1f} MB/s   (target >= 40)")

    chunks = chunked(reply, 16)
    t16 = best_of(lambda: drain(chunks), 3)
    print(f"streaming, 16 chars: {mb / t16:7.1f} MB/s   (target >= 10)")
    t16c = best_of(lambda: stream(chunks), 3)
    print(f"  with a consumer that looks at every event: {mb / t16c:.1f} MB/s")
    fed_text, total_text, fed_calls, total_calls = stream(chunks)
    print(
        f"  released by feed() before close(): {100 * fed_text / total_text:.1f} % of the prose "
        f"(target >= 90); calls come from close() by design ({fed_calls}/{total_calls} before it)"
    )

    everyday, expected = long_reply()
    tools = load_tools()
    mb = len(everyday.encode()) / 1e6
    check = parse_tool_calls(everyday, tools)
    assert len(check.tool_calls) == len(expected), "benchmark input must parse cleanly"
    print(f"\neveryday long reply: {mb:.2f} MB, {len(everyday):,} characters, {len(check.tool_calls)} calls")
    t = best_of(lambda: parse_tool_calls(everyday, tools), 5)
    print(f"one-shot:            {mb / t:7.1f} MB/s   (target >= 40)")
    chunks = chunked(everyday, 16)
    t16 = best_of(lambda: drain(chunks, tools), 3)
    print(f"streaming, 16 chars: {mb / t16:7.1f} MB/s   (target >= 10)")
    t16c = best_of(lambda: stream(chunks, tools), 3)
    print(f"  with a consumer that looks at every event: {mb / t16c:.1f} MB/s\n")

    small = make_reply(50_000, 10, seed=11)
    large = make_reply(400_000, 80, seed=11)
    small1, large1 = chunked(small, 1), chunked(large, 1)
    us_small = best_of(lambda: drain(small1), 3) / len(small) * 1e6
    us_large = best_of(lambda: drain(large1), 2) / len(large) * 1e6
    print(
        f"streaming, 1 char:   {us_small:5.2f} us/char over {len(small) // 1000} KB, "
        f"{us_large:5.2f} us/char over {len(large) // 1000} KB   (target <= 2)"
    )
    print(f"  400 KB / 50 KB per-character cost: {us_large / us_small:.2f}x   (target <= 1.5)")


if __name__ == "__main__":
    main()
