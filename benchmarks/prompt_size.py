"""Size of the emulation's tool prompt against the native ``tools`` payload it replaces.

Uses the schemas letta itself generates for the default tools of each agent type, and
reports characters and two approximate token counts (no tokenizer is downloaded offline):
characters / 4, and a count of word pieces and punctuation.

    python3 dev.py bench prompt_size
"""

from __future__ import annotations

import json
import math

import regex
from letta.functions.function_sets import base as letta_base_tools
from letta.functions.schema_generator import generate_schema
from letta.services.helpers.agent_manager_helper import calculate_base_tools

from letta_tool_emulation import render_tool_prompt

_PIECES = regex.compile(r"\w+|[^\w\s]")


def approx_tokens(text: str) -> tuple[int, int]:
    by_chars = math.ceil(len(text) / 4)
    # Word pieces: long words split every 6 characters, each punctuation mark one token.
    by_pieces = sum(max(1, math.ceil(len(p) / 6)) for p in _PIECES.findall(text))
    return by_chars, by_pieces


def schemas(names: list[str]) -> list[dict]:
    return [generate_schema(getattr(letta_base_tools, n)) for n in names]


def report(label: str, names: list[str]) -> None:
    tools = schemas(names)
    # What letta's OpenAIClient puts on the wire for these tools.
    native = json.dumps(
        {
            "tools": [{"type": "function", "function": t} for t in tools],
            "tool_choice": "auto",
            "parallel_tool_calls": False,
        }
    )
    prompt = render_tool_prompt(tools)
    n_chars, n_pieces = approx_tokens(native)
    p_chars, p_pieces = approx_tokens(prompt)
    print(f"{label}: {', '.join(names)}")
    print(
        f"  native tools payload: {len(native):6,} chars  ~{n_chars:5,} tokens (chars/4)  ~{n_pieces:5,} tokens (pieces)"
    )
    print(
        f"  emulation prompt:     {len(prompt):6,} chars  ~{p_chars:5,} tokens (chars/4)  ~{p_pieces:5,} tokens (pieces)"
    )
    print(f"  ratio prompt/native:  {len(prompt) / len(native):.2f} (chars)  {p_pieces / n_pieces:.2f} (pieces)")


def main() -> None:
    v1 = sorted(calculate_base_tools(is_v2=True) - {"send_message"})  # as letta_v1_agent gets them
    report("letta_v1_agent default tools", v1)
    report("memgpt_v2_agent default tools", sorted(calculate_base_tools(is_v2=True)))
    report(
        "memgpt-style agent with archival tools",
        [
            "send_message",
            "core_memory_append",
            "core_memory_replace",
            "archival_memory_insert",
            "archival_memory_search",
            "conversation_search",
        ],
    )


if __name__ == "__main__":
    main()
