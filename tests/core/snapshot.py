"""What the parser makes of a fixed set of replies, recorded to hold a refactoring to.

    python -m tests.core.snapshot      rewrite tests/core/data/snapshot.json from the code as it is

Each input is a reply from the corpus or one generated from a seed, with a finish reason. What
is recorded for it is a digest of everything the parser produced: the one-shot result (content,
calls with their confidence, format and notes, problems with their messages and excerpts,
reasoning), and for chunks of 1, 3 and 16 characters the events of every ``feed`` and of
``close``, with ``in_call`` after each. The test recomputes them and names every input whose
digest changed. Inputs are keyed by their own digest, so corpus entries added later are simply
not in the record; a change of behaviour is made visible by rewriting the record in the same
commit, where the diff counts what changed.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

from letta_tool_emulation import StreamingToolCallParser, parse_tool_calls
from letta_tool_emulation.core.results import ParseResult, StreamEvent

from .corpus import load_corpus, load_tools

RECORD = Path(__file__).resolve().parent / "data" / "snapshot.json"
TOOLS = load_tools()
SIZES = (1, 3, 16)
VARIANTS = 4
GENERATED = 800
SEED = 19

# Pieces that sit on the parser's decision boundaries.
PIECES = [
    "TOOL_CALL_START",
    "TOOL_CALL_END",
    "TOOL_CA",
    "LL_START",
    "TOOL_RESULT",
    "\n",
    "\r\n",
    " ",
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
    "`",
    "``",
    "```",
    "````",
    "~~~\n",
    "```json\n",
    "```tool_call\n",
    "```python\n",
    "<think>",
    "</think>",
    "<tool_call>",
    "</tool_call>",
    "<tool_response>",
    "[TOOL_CALLS]",
    "<!--",
    "-->",
    "> ",
    "- ",
    "1. ",
    "# Example\n",
    "For example:\n",
    "Shall I go ahead?",
    "Action: roll_dice\n",
    "Action Input: ",
    "Observation:",
    "Sure!",
    "hello",
    "é",
    "漢字",
    "😀",
    "\u2060",
    '{"function": "roll_dice", "params": {"sides": 6}}',
    '{"name": "conversation_search", "arguments": {"query": "x"}}',
    '{"function": "memory_insert", "params": {"label": "human", "new_string": "a}b"}}',
    "{'function': 'roll_dice', 'params': {'sides': 3,}}",
    '{"function": "nope"}',
    '<tool_call name="roll_dice" params=\'{"sides": 2}\'/>',
    '{"name": "roll_dice", "parameters": {"sides": 4}}',
]


def inputs() -> list[tuple[str, str | None]]:
    """The corpus; each corpus reply with pieces spliced in; replies made of pieces. A corpus
    reply's variants depend on its own text only, so entries added later change nothing else."""
    out: list[tuple[str, str | None]] = []
    for entry in load_corpus():
        out.append((entry.text, entry.finish))
        rng = random.Random(digest([entry.text, SEED]))
        for _ in range(VARIANTS):
            text = entry.text
            for _ in range(rng.randint(1, 4)):
                at = rng.randint(0, len(text))
                text = text[:at] + rng.choice(PIECES) + text[at:]
            out.append((text, rng.choice([None, None, "stop", "length"])))
    rng = random.Random(SEED)
    runs = ["`", "``", "```", " ", "a", "\n", "TOOL_CALL_START", "x y", "\n```\n", "`TOOL_C"]
    for i in range(GENERATED):
        if i % 4:
            text = "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 40)))
        else:
            text = "".join(rng.choice(runs) for _ in range(rng.randint(1, 60)))
        out.append((text, rng.choice([None, None, "stop", "length"])))
    return out


def _event(e: StreamEvent) -> list[Any]:
    c, p = e.call, e.problem
    return [
        e.text,
        None if c is None else [c.name, c.arguments, c.confidence, c.format, list(c.notes)],
        e.reasoning,
        None if p is None else [p.kind, p.message, p.rejected, p.tool_name, p.excerpt],
    ]


def _result(r: ParseResult) -> list[Any]:
    return [
        r.content,
        [[c.name, c.arguments, c.confidence, c.format, list(c.notes)] for c in r.tool_calls],
        [[p.kind, p.message, p.rejected, p.tool_name, p.excerpt] for p in r.problems],
        r.reasoning,
    ]


def behaviour(text: str, finish: str | None) -> list[Any]:
    """Everything the parser produces for ``text``, one-shot and streamed."""
    out: list[Any] = [_result(parse_tool_calls(text, TOOLS, finish_reason=finish))]
    for size in SIZES:
        p = StreamingToolCallParser(TOOLS)
        steps = [[[_event(e) for e in p.feed(text[i : i + size])], p.in_call] for i in range(0, len(text), size)]
        steps.append([[_event(e) for e in p.close(finish)], p.in_call])
        out.append([steps, _result(p.result)])
    return out


def digest(value: Any) -> str:
    data = json.dumps(value, ensure_ascii=False, sort_keys=True, default=repr).encode("utf-8", "surrogatepass")
    return hashlib.sha256(data).hexdigest()[:16]


def record() -> dict[str, str]:
    return {digest([text, finish]): digest(behaviour(text, finish)) for text, finish in inputs()}


if __name__ == "__main__":
    RECORD.write_text(json.dumps(record(), indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {RECORD}")
