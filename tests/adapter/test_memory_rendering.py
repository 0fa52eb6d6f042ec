"""The memory section as this turn's edits left it, written the way letta writes it: letta's own
``Memory.compile`` renders the blocks before and after an edit, and rewriting the first with the
edited values must give exactly the second (line-numbered or not)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from letta_tool_emulation.core.blocks import Block, memory_blocks, with_blocks_as_edited


def compiled(values: dict[str, str], *, numbered: bool, read_only: frozenset[str] = frozenset()) -> str:
    from letta.schemas.block import Block as LettaBlock
    from letta.schemas.memory import Memory

    blocks = [
        LettaBlock(label=label, value=value, limit=5000, description=f"About {label}.", read_only=label in read_only)
        for label, value in values.items()
    ]
    memory = Memory(blocks=blocks, agent_type="letta_v1_agent")
    # letta numbers the lines for its v1 agents on Anthropic's endpoints only.
    config: Any = SimpleNamespace(model_endpoint_type="anthropic" if numbered else "openai")
    return "You are Sam.\n\n" + memory.compile(llm_config=config)


@pytest.mark.parametrize("numbered", [False, True])
@pytest.mark.parametrize(
    "after",
    [
        {"human": "Name: Ana\nCity: Lyon", "persona": "I am Sam."},  # a line inserted
        {"human": "", "persona": "I am Sam."},  # emptied
        {"human": "Name: Ana", "persona": "I am Sam.\n\nI like\ttea."},  # the other block, blank line and tab
    ],
)
def test_a_rewritten_section_is_what_letta_would_write_after_the_edit(numbered: bool, after: dict[str, str]) -> None:
    before = {"human": "Name: Ana", "persona": "I am Sam."}
    system = compiled(before, numbered=numbered)
    assert [b.value for b in memory_blocks(system)] == list(before.values())
    edited = [Block(label, False, value) for label, value in after.items()]
    assert with_blocks_as_edited(system, edited) == compiled(after, numbered=numbered)


def test_an_empty_block_given_a_value_and_a_read_only_block_beside_it() -> None:
    before = {"human": "", "rules": "Be kind.", "persona": "I am Sam."}
    system = compiled(before, numbered=True, read_only=frozenset({"rules"}))
    edited = [
        Block("human", False, "Name: Ana"),
        Block("rules", True, "Be kind."),
        Block("persona", False, "I am Sam."),
    ]
    assert with_blocks_as_edited(system, edited) == compiled(
        {**before, "human": "Name: Ana"}, numbered=True, read_only=frozenset({"rules"})
    )


def test_nothing_is_rewritten_where_nothing_is_known_to_have_changed() -> None:
    system = compiled({"human": "Name: Ana"}, numbered=False)
    assert with_blocks_as_edited(system, [Block("human", False, "Name: Ana")]) is system
    # Edited this turn to a value that cannot be read: the section stays as letta wrote it.
    assert with_blocks_as_edited(system, [Block("human", False, "", known=False)]) is system
    parts = [{"type": "text", "text": system}]
    assert with_blocks_as_edited(parts, [Block("human", False, "Name: Eva")]) is parts
