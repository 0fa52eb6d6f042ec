"""Reading an agent's memory blocks from Letta's system message, and holding the memory tools'
``label`` to them."""

from __future__ import annotations

import json

import jsonschema
import pytest

from letta_tool_emulation.core.blocks import (
    GUIDE_CHARS,
    MAX_BOUND_LINES,
    MAX_OFFERED_CHARS,
    MAX_OFFERED_LINES,
    Block,
    as_edited,
    block_guide,
    bound_inserts,
    hold_labels,
    memory_block_labels,
    memory_blocks,
    offer_lines,
    offered_lines,
)
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


def numbered_block(label: str, value: str) -> str:
    # As letta's Memory._render_memory_blocks_line_numbered writes a block (agents with memory_* tools).
    lines = "".join(f"{i}→ {line}\n" for i, line in enumerate(value.split("\n"), start=1)) if value else ""
    return (
        f"<{label}>\n<description>\nAbout {label}.\n</description>\n<metadata>\n- chars_current={len(value)}"
        f"\n- chars_limit=5000\n</metadata>\n<warning>\n# NOTE: Line numbers shown below (with arrows like '1→') "
        f"are to help during editing.\n</warning>\n<value>\n{lines}</value>\n</{label}>\n"
    )


def test_block_values_are_read_without_line_numbers() -> None:
    text = system(
        numbered_block("human", "Name: Ana\nLikes tea."),
        letta_block("persona", "I am Sam.\n2→ kept as written"),
        numbered_block("todo", ""),
        letta_block("policies", "Be kind.", read_only=True),
    )
    assert memory_blocks(text) == [
        Block("human", False, "Name: Ana\nLikes tea.", description="About human."),
        # not numbered: the value as it is
        Block("persona", False, "I am Sam.\n2→ kept as written", description="About persona."),
        Block("todo", False, "", description="About todo."),
        Block("policies", True, "Be kind.", description="About policies."),
    ]
    assert memory_block_labels(text) == (["human", "persona", "todo"], ["policies"])


def test_the_guide_says_what_each_writable_block_holds() -> None:
    letta = "The human block: Stores key details about the person you are conversing with."
    long = "Notes the agent keeps. " + "More words here. " * 20
    text = system(
        letta_block("human", "Name: Ana").replace("About human.", letta),
        letta_block("persona", "I am Sam.").replace("About persona.", ""),
        letta_block("todo list", "").replace("About todo list.", long),
        letta_block("policies", "Be kind.", read_only=True),
    )
    memory = normalize_tools([{"name": "memory_insert", "parameters": {"properties": {"label": {"type": "string"}}}}])
    guide = block_guide(memory_blocks(text), memory)
    lines = guide.split("\n")
    # Letta's opening that names the block again is left out; a block without a description,
    # and a read-only one, are not listed; a long description is cut at a sentence's end.
    assert lines[:2] == [
        "Memory blocks (label: what it holds):",
        "- human: Stores key details about the person you are conversing with.",
    ]
    assert lines[2].startswith("- todo list: Notes the agent keeps.") and lines[2].endswith(".")
    assert len(lines) == 3 and len(lines[2]) <= len("- todo list: ") + GUIDE_CHARS
    # Nothing where no tool names a block, or no block is described.
    other = normalize_tools([{"name": "send_note", "parameters": {"properties": {"label": {"type": "string"}}}}])
    assert block_guide(memory_blocks(text), other) == ""
    assert block_guide([Block("human", False, "Name: Ana")], memory) == ""


def test_lines_offered_are_those_a_replacement_can_name() -> None:
    blocks = [
        Block("human", False, "Name: Ana\n\nLikes tea.\nLikes tea.\n  \nCity: Lyon"),
        Block("persona", False, "I am Sam.\nCity: Lyon"),
        Block("policies", True, "Be kind."),
        Block("notes", False, "3→ looks numbered"),
    ]
    # Not blank, once in its block (memory_replace refuses text found twice), each once, only
    # writable blocks, never what Letta takes for a line-number prefix.
    assert offered_lines(blocks) == {"human": ["Name: Ana", "City: Lyon"], "persona": ["I am Sam.", "City: Lyon"]}
    assert offered_lines([Block("human", False, "")]) == {}
    many = "\n".join(f"Fact {i}." for i in range(MAX_OFFERED_LINES + 1))
    assert offered_lines([Block("human", False, many)]) == {}  # too many: the string stays free
    assert offered_lines([Block("human", False, "x" * (MAX_OFFERED_CHARS + 1))]) == {}


def test_replace_tools_are_offered_the_lines_as_an_enum_or_examples() -> None:
    text = {"type": "string", "description": "Text to replace."}
    tools = normalize_tools(
        [
            {"name": "memory_replace", "parameters": {"type": "object", "properties": {"old_string": text}}},
            {"name": "core_memory_replace", "parameters": {"type": "object", "properties": {"old_content": text}}},
            {"name": "memory_insert", "parameters": {"type": "object", "properties": {"new_string": text}}},
            {"name": "send_note", "parameters": {"type": "object", "properties": {"old_string": text}}},
        ]
    )
    blocks = [Block("human", False, "Name: Ana"), Block("persona", False, "I am Sam."), Block("todo", False, "")]
    held = offer_lines(tools, offered_lines(blocks), enum=True)
    assert held["memory_replace"].properties["old_string"] == {**text, "enum": ["Name: Ana", "I am Sam."]}
    assert held["core_memory_replace"].properties["old_content"] == {**text, "enum": ["Name: Ana", "I am Sam."]}
    assert held["memory_insert"] == tools["memory_insert"] and held["send_note"] == tools["send_note"]
    shown = offer_lines(tools, offered_lines(blocks), enum=False)
    assert shown["memory_replace"].properties["old_string"] == {**text, "examples": ["Name: Ana", "I am Sam."]}
    assert "anyOf" not in shown["memory_replace"].parameters
    assert offer_lines(tools, offered_lines([Block("human", False, "")]), enum=True) == tools  # nothing to offer
    limited = normalize_tools(
        [{"name": "memory_replace", "parameters": {"type": "object", "properties": {"old_string": {"enum": ["a"]}}}}]
    )
    assert offer_lines(limited, offered_lines(blocks), enum=True) == limited  # its own schema already limits it


def test_a_constrained_replacement_names_a_line_of_the_block_it_names() -> None:
    tools = normalize_tools(
        [
            {
                "name": "memory_replace",
                "parameters": {
                    "type": "object",
                    "properties": {"label": {"type": "string"}, "old_string": {"type": "string"}},
                    "required": ["label", "old_string"],
                },
            }
        ]
    )
    blocks = [
        Block("human", False, "Name: Ana\nLikes tea."),
        Block("persona", False, "I am Sam.\nLikes tea."),
        Block("todo", False, ""),
    ]
    held = offer_lines(hold_labels(tools, ["human", "persona", "todo"]), offered_lines(blocks), enum=True)
    schema = held["memory_replace"].parameters
    assert schema["properties"]["old_string"]["enum"] == ["Name: Ana", "Likes tea.", "I am Sam."]  # as listed
    # An empty block has nothing to replace: no branch names it.
    assert [(b["properties"]["label"]["enum"], b["properties"]["old_string"]["enum"]) for b in schema["anyOf"]] == [
        (["human"], ["Name: Ana", "Likes tea."]),
        (["persona"], ["I am Sam.", "Likes tea."]),
    ]
    assert all(b["required"] == ["label", "old_string"] for b in schema["anyOf"])
    jsonschema.validate({"label": "human", "old_string": "Likes tea."}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"label": "persona", "old_string": "Name: Ana"}, schema)


# As letta 0.16 describes memory_insert to the model.
INSERT = {
    "name": "memory_insert",
    "parameters": {
        "type": "object",
        "properties": {
            "label": {"type": "string", "description": "Section of the memory to be edited."},
            "new_string": {"type": "string", "description": "The text to insert."},
            "insert_line": {
                "type": "integer",
                "description": "The line number after which to insert the text (0 for beginning of file).",
            },
        },
        "required": ["label", "new_string"],
    },
}


def test_a_constrained_insert_names_a_line_within_the_block_it_names() -> None:
    """Letta refuses an insert_line past the block's end (or below -1); the reply schema allows
    only -1 and 0 to the number of lines of the block the label names."""
    tools = hold_labels(normalize_tools([INSERT]), ["human", "todo"])
    blocks = [
        Block("human", False, "Name: Ana\nLikes tea."),
        Block("todo", False, ""),
        Block("rules", True, "Be kind."),
    ]
    schema = bound_inserts(tools, blocks)["memory_insert"].parameters
    assert [(b["properties"]["label"]["enum"], b["properties"]["insert_line"]["enum"]) for b in schema["anyOf"]] == [
        (["human"], [-1, 0, 1, 2]),
        (["todo"], [-1, 0, 1]),  # Letta counts one line in an empty value
    ]
    assert all(b["required"] == ["label", "new_string"] for b in schema["anyOf"])
    for fine in ({"insert_line": 2}, {"insert_line": -1}, {}, {"label": "todo", "insert_line": 1}):
        jsonschema.validate({"label": "human", "new_string": "x", **fine}, schema)
    for wrong in ({"insert_line": 3}, {"insert_line": -2}, {"label": "todo", "insert_line": 2}, {"label": "rules"}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({"label": "human", "new_string": "x", **wrong}, schema)
    # A block whose value is unknown (edited this turn, its result unreadable): nothing is held.
    unknown = [blocks[0], Block("todo", False, "", known=False)]
    assert bound_inserts(tools, unknown) == tools
    # Nor where the tool's own schema limits the number, or without writable blocks.
    own = normalize_tools([{**INSERT, "parameters": {**INSERT["parameters"], "properties": {
        **INSERT["parameters"]["properties"], "insert_line": {"type": "integer", "maximum": 5}}}}])  # fmt: skip
    assert bound_inserts(own, blocks) == own
    assert bound_inserts(tools, [blocks[2]]) == tools
    long = Block("human", False, "\n".join(f"Fact {i}." for i in range(MAX_BOUND_LINES + 1)))
    assert bound_inserts(tools, [long]) == tools  # the enum would be long: the integer stays free


def test_an_edit_whose_value_cannot_be_read_leaves_its_block_unknown() -> None:
    blocks = [Block("human", False, "Name: Ana")]
    call = tool_call("c1", "memory_insert", label="human", new_string="City: Nantes")
    cut = tool_result("c1", "OK", "Name: Ana\nCi... [NOTE: function output was truncated since it exceeded")
    assert as_edited(blocks, [{"role": "user", "content": "hi"}, call, cut]) == [Block("human", False, "", known=False)]


def tool_call(call_id: str, name: str, **arguments: object) -> dict[str, object]:
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}
        ],
    }


def tool_result(call_id: str, status: str, message: str) -> dict[str, object]:
    # As letta.system.package_function_response writes what a tool returned.
    content = json.dumps({"status": status, "message": message, "time": "2026-11-26 10:00:00 AM UTC+0000"})
    return {"role": "tool", "tool_call_id": call_id, "content": content}


def test_the_turn_s_own_edits_bring_the_blocks_up_to_date() -> None:
    """Letta writes the memory section when a turn begins; an edit earlier in the same turn shows
    only in its result, which is the block's whole new value."""
    blocks = [Block("human", False, "Name: Ana\nCity: Lyon"), Block("persona", False, "I am Sam.")]
    head = [{"role": "system", "content": "..."}, {"role": "user", "content": "I moved to Nantes, and I'm Ana B."}]
    turn = [
        tool_call("c1", "memory_replace", label="human", old_string="City: Lyon", new_string="City: Nantes"),
        tool_result("c1", "OK", "Name: Ana\nCity: Nantes"),
    ]
    edited = as_edited(blocks, head + turn)
    assert edited == [Block("human", False, "Name: Ana\nCity: Nantes"), blocks[1]]
    assert offered_lines(edited)["human"] == ["Name: Ana", "City: Nantes"]  # not the replaced "City: Lyon"
    # A failed edit changed nothing; a second edit of the turn wins over the first.
    later = [
        tool_call("c2", "memory_replace", label="persona", old_string="I am Bob.", new_string="x"),
        tool_result("c2", "Failed", "ValueError: No replacement was performed"),
        tool_call("c3", "memory_insert", label="human", new_string="Surname: B."),
        tool_result("c3", "OK", "Name: Ana\nCity: Nantes\nSurname: B."),
    ]
    assert as_edited(blocks, head + turn + later) == [
        Block("human", False, "Name: Ana\nCity: Nantes\nSurname: B."),
        blocks[1],
    ]


def test_edits_before_the_turn_are_already_in_the_system_message() -> None:
    blocks = [Block("human", False, "Name: Ana\nCity: Nantes")]  # rebuilt since: written when this turn began
    earlier = [
        tool_call("c1", "memory_replace", label="human", old_string="City: Lyon", new_string="City: Paris"),
        tool_result("c1", "OK", "Name: Ana\nCity: Paris"),
        {"role": "user", "content": "Actually it's Nantes."},  # an edit in between, made by hand
    ]
    assert as_edited(blocks, [{"role": "system", "content": "..."}, *earlier]) == blocks


def test_an_edit_whose_new_value_cannot_be_read_offers_nothing_for_its_block() -> None:
    blocks = [Block("human", False, "Name: Ana\nCity: Lyon"), Block("persona", False, "I am Sam.")]
    call = tool_call("c1", "memory_replace", label="human", old_string="City: Lyon", new_string="City: Nantes")
    cut = tool_result("c1", "OK", "Name: Ana\nCi... [NOTE: function output was truncated since it exceeded")
    other_form = {"role": "tool", "tool_call_id": "c1", "content": "done"}
    for result in (cut, other_form):
        edited = as_edited(blocks, [{"role": "user", "content": "hi"}, call, result])
        assert offered_lines(edited) == {"persona": ["I am Sam."]}  # the human block's lines are unknown now
    # Results that are not a memory tool's, or name no block the agent has, change nothing.
    search = tool_call("c2", "archival_memory_search", query="Lyon")
    stray = tool_call("c3", "memory_replace", label="Mochi", old_string="a", new_string="b")
    turn = [search, tool_result("c2", "OK", "City: Paris"), stray, tool_result("c3", "OK", "b")]
    assert as_edited(blocks, turn) == blocks


def test_read_only_blocks_are_never_brought_up_to_date() -> None:
    blocks = [Block("policies", True, "Be kind.")]
    turn = [
        tool_call("c1", "memory_rethink", label="policies", new_memory="Be rude."),
        tool_result("c1", "OK", "Be rude."),
    ]
    assert as_edited(blocks, turn) == blocks
