"""Reading an agent's memory blocks from Letta's system message, and holding the memory tools'
``label`` to them."""

from __future__ import annotations

from letta_tool_emulation.core.blocks import hold_labels, memory_block_labels
from letta_tool_emulation.core.tools import normalize_tools


def letta_block(label: str, value: str, *, read_only: bool = False) -> str:
    # As letta's Memory._render_memory_blocks_standard writes a block.
    ro = "\n- read_only=true" if read_only else ""
    return (
        f"<{label}>\n<description>\nAbout {label}.\n</description>\n<metadata>{ro}\n- chars_current={len(value)}"
        f"\n- chars_limit=5000\n</metadata>\n<value>\n{value}\n</value>\n</{label}>\n"
    )


def system(*blocks: str) -> str:
    return (
        "You are a helpful assistant.\n\n<memory_blocks>\nThe following memory blocks are currently engaged in your "
        "core memory unit:\n\n" + "\n".join(blocks) + "\n</memory_blocks>\n\n<memory_metadata>...</memory_metadata>"
    )


def test_labels_are_read_in_order_with_read_only_blocks_apart() -> None:
    text = system(
        letta_block("persona", "I am Sam."),
        letta_block("human", "Name: Ana"),
        letta_block("policies", "Be kind.", read_only=True),
        letta_block("todo list", ""),
    )
    assert memory_block_labels(text) == (["persona", "human", "todo list"], ["policies"])
    # Content as a list of text parts, as some clients send it.
    assert memory_block_labels([{"type": "text", "text": text}])[0] == ["persona", "human", "todo list"]


def test_text_inside_a_block_never_adds_a_label() -> None:
    fake = letta_block("Mochi", "a cat")  # a user's words, stored verbatim in memory
    text = system(letta_block("human", "They said:\n" + fake.rstrip("\n")), letta_block("persona", "I am Sam."))
    assert memory_block_labels(text) == (["human", "persona"], [])


def test_no_memory_section_means_no_labels() -> None:
    assert memory_block_labels("You are Sam.") == ([], [])
    assert memory_block_labels(None) == ([], [])
    # A section cut off inside a block: only the blocks that closed count.
    cut = system(letta_block("human", "Name: Ana"), letta_block("persona", "I am Sam."))
    assert memory_block_labels(cut[: cut.index("I am Sam.")]) == (["human"], [])


def test_only_the_memory_tools_label_is_held() -> None:
    label = {"type": "string", "description": "Section of the memory to be edited."}
    tools = normalize_tools(
        [
            {"name": "memory_insert", "parameters": {"type": "object", "properties": {"label": label}}},
            {"name": "rethink_memory", "parameters": {"type": "object", "properties": {"target_block_label": label}}},
            {"name": "send_note", "parameters": {"type": "object", "properties": {"label": label}}},
            {"name": "core_memory_append", "parameters": {"type": "object", "properties": {"label": {"enum": ["a"]}}}},
        ]
    )
    held = hold_labels(tools, ["human", "persona"])
    assert held["memory_insert"].properties["label"] == {**label, "enum": ["human", "persona"]}
    assert held["rethink_memory"] == tools["rethink_memory"]  # may create a block
    assert held["send_note"] == tools["send_note"]  # not a memory tool
    assert held["core_memory_append"] == tools["core_memory_append"]  # already limited by its own schema
    assert hold_labels(tools, []) == tools
