"""The agent's memory blocks, read from the request, and the memory tools held to them.

Letta writes an agent's core memory into its system message, one block after the other::

    <memory_blocks>
    The following memory blocks are currently engaged in your core memory unit:

    <human>
    <description>
    ...
    </description>
    <metadata>
    - read_only=true            (only for a read-only block)
    - chars_current=12
    - chars_limit=5000
    </metadata>
    <value>
    ...
    </value>
    </human>
    ...
    </memory_blocks>

Small models name blocks that do not exist ("Mochi", "Clara, your sister is ..."), and Letta then
fails the call. The ``label`` parameter of the tools that edit a block in place is given the
writable labels as an ``enum``: the reply schema of a constrained request allows only those, the
tool prompt lists them, and the validator refuses any other label with the list in its
feedback. :func:`block_guide` can say, just before the tools, what each block holds (Letta's
description of it, which it writes beside the block's value, far above). A block's value is
skipped as a whole (the reader moves from one block's end to the next block's start), so text
inside memory cannot add a label.

The replace tools fail unless their old text appears verbatim in the block, which small models
rarely manage. :func:`offer_lines` offers the writable blocks' existing lines for it: as an
``enum`` in a constrained reply's schema (so the model can only pick a line that is there, of
the block it names), as ``examples`` in the free-text prompt (where any part of a line stays
allowed). It offers nothing for empty blocks or beyond a bound (many or long lines), where the
string stays free.

Letta writes the memory section when a turn begins and not again until the next one, so within
a turn the system message still shows a block as it was before the turn's own edits; offered
as they stand there, its lines would hold a constrained reply to text an earlier call of the
same turn already replaced. :func:`as_edited` brings the blocks up to date from the turn's
tool results: each memory tool returns the block's whole new value.

``memory_insert`` fails unless its ``insert_line`` is -1 (the end) or lies within the block (0
to the number of its lines), and small models write numbers past the end. :func:`bound_inserts`
holds a constrained reply's ``insert_line`` to the numbers the block its ``label`` names accepts.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import regex

from .prompt import summarize
from .tools import ToolSpec

__all__ = [
    "LABELLED_TOOLS",
    "NEW_TEXT",
    "REPLACED_TEXT",
    "Block",
    "as_edited",
    "block_guide",
    "bound_inserts",
    "edits_made",
    "hold_labels",
    "memory_block_labels",
    "memory_blocks",
    "offer_lines",
    "offered_lines",
    "with_blocks_as_edited",
]

# Tools whose `label` must name an existing block: Letta looks the block up and fails otherwise.
# (rethink_memory may create a block, so its label stays free.)
LABELLED_TOOLS = frozenset(
    {"memory_insert", "memory_replace", "memory_rethink", "core_memory_append", "core_memory_replace"}
)
# The replace tools and their old-text parameter (each name letta has used for it).
REPLACED_TEXT: Mapping[str, tuple[str, ...]] = {
    "memory_replace": ("old_string", "old_str"),
    "core_memory_replace": ("old_content",),
}
# The replace tools' new-text parameter, under each name letta has used for it.
NEW_TEXT = ("new_string", "new_str", "new_content")
# Beyond these, the old text stays a free string: an enum of many long lines would make the
# schema (and the grammar the server builds from it) large for little gain.
MAX_OFFERED_LINES = 24
MAX_OFFERED_CHARS = 4000
_OPEN = "<memory_blocks>\n"
_BLOCK = regex.compile(r"<([^<>\s/][^<>\n]{0,199})>\n<description>\n")
_READ_ONLY = "\n- read_only=true\n"
_VALUE = "<value>\n"
# Letta's line-numbered rendering (for agents with the memory_* tools) puts "3→ " before each line.
_LINE_NUMBER = regex.compile(r"^[ \t]*\d+→[ \t]?")
_CHARS = regex.compile(r"(\n- chars_current=)\d+")


# The insert tools and their line parameter (Letta: -1 for the end, else 0 to the block's lines).
INSERT_LINE: Mapping[str, str] = {"memory_insert": "insert_line"}
# Beyond this many lines the line number stays a free integer (its enum would be long).
MAX_BOUND_LINES = 200


@dataclass(frozen=True, slots=True)
class Block:
    label: str
    read_only: bool
    value: str  # as the model sees it, line numbers taken out
    known: bool = True  # False: edited this turn, to a value that cannot be read
    description: str = ""  # what the block is for, as Letta writes it beside the block


@dataclass(frozen=True, slots=True)
class _Found:
    """Where one block stands in the system message's text."""

    block: Block
    numbered: bool  # Letta's line-numbered rendering (with its <warning>)
    metadata: tuple[int, int]  # from "<metadata>" to "</metadata>"
    value: tuple[int, int]  # from "<value>\n" to the end of "\n</value>"


def _found(text: str) -> list[_Found]:
    start = text.find(_OPEN)
    if start < 0:
        return []
    end = text.find("\n</memory_blocks>", start)
    limit = end if end >= 0 else len(text)
    found: list[_Found] = []
    at = start + len(_OPEN)
    while (opening := _BLOCK.search(text, at, limit)) is not None:
        label = opening.group(1)
        close = text.find(f"\n</value>\n</{label}>", opening.end(), limit)
        if close < 0:
            break  # cut off: what follows cannot be told apart from a block's value
        metadata_end = text.find("</metadata>", opening.end(), close)
        described = text.find("\n</description>", opening.end() - 1, close)
        description = text[opening.end() : described].strip() if described >= opening.end() else ""
        metadata = text[opening.end() : metadata_end if metadata_end >= 0 else close]
        opened = text.find(_VALUE, max(metadata_end, opening.end()), close + 1)
        value = text[opened + len(_VALUE) : close] if opened >= 0 else ""
        numbered = "<warning>" in text[max(metadata_end, opening.end()) : max(opened, 0)]
        if numbered:
            value = "\n".join(_LINE_NUMBER.sub("", line, count=1) for line in value.split("\n"))
        found.append(
            _Found(
                Block(label, _READ_ONLY in metadata + "\n", value, description=description),
                numbered,
                (opening.end(), metadata_end),
                (opened, close + len("\n</value>")),
            )
        )
        at = close + len(f"\n</value>\n</{label}>")
    return found


def memory_blocks(system: Any) -> list[Block]:
    """The blocks in a system message's ``<memory_blocks>``, in their order ([] when it has
    none). ``system`` is the message's content (a string or a list of text parts)."""
    return [f.block for f in _found(_text(system))]


def with_blocks_as_edited(system: Any, edited: list[Block]) -> Any:
    """``system`` (a system message's content) with each block of its memory section written as
    ``edited`` holds it (what :func:`as_edited` found), the way Letta writes it: the value, its
    lines numbered where the block's were, and ``chars_current``. Letta writes the section when a
    turn begins; a small model that sees its own insert missing there writes it again at every
    step of the turn. Unchanged where no block changed, where a block's new value is unknown,
    or where the content is not one string."""
    if not isinstance(system, str):
        return system
    by_label = {b.label: b for b in edited if b.known}
    pieces: list[str] = []
    at = 0
    for f in _found(system):
        new = by_label.get(f.block.label)
        if new is None or new.value == f.block.value or f.metadata[1] < 0 or f.value[0] < 0:
            continue
        metadata = _CHARS.sub(f"\\g<1>{len(new.value)}", system[f.metadata[0] : f.metadata[1]], count=1)
        if f.numbered:
            lines = "".join(f"{i}→ {line}\n" for i, line in enumerate(new.value.split("\n"), start=1))
            value = f"{_VALUE}{lines if new.value else ''}</value>"
        else:
            value = f"{_VALUE}{new.value}\n</value>"
        pieces += [system[at : f.metadata[0]], metadata, system[f.metadata[1] : f.value[0]], value]
        at = f.value[1]
    return "".join([*pieces, system[at:]]) if pieces else system


def as_edited(blocks: list[Block], messages: Sequence[Any]) -> list[Block]:
    """``blocks`` (read from the system message) as the current turn's edits left them.

    The turn is the run of assistant and tool messages at the end of ``messages``: what came
    before its last other message was already written into the system message when the turn
    began. A successful edit (Letta's ``{"status": "OK", "message": ...}``) sets the block to
    the value it returned. A block whose edit succeeded but whose new value cannot be read
    (the result was cut at its size limit, or is not in Letta's form) is left empty and
    unknown, so that nothing stale is offered for it; a failed edit changes nothing."""
    by_label = {b.label: b for b in blocks}
    for _, arguments, ok, value in _turn_edits(messages):
        block = by_label.get(arguments["label"])
        if block is None or block.read_only or not ok:
            continue
        by_label[block.label] = replace(block, value=value if value is not None else "", known=value is not None)
    return [by_label[b.label] for b in blocks]


def edits_made(messages: Sequence[Any]) -> list[tuple[str, dict[str, Any]]]:
    """The memory edits of the current turn (as :func:`as_edited` reads it) that succeeded, as
    (tool, arguments) in their order."""
    return [(name, arguments) for name, arguments, ok, _ in _turn_edits(messages) if ok]


def _turn_edits(messages: Sequence[Any]) -> Iterator[tuple[str, dict[str, Any], bool, str | None]]:
    """Each result of a memory tool in the current turn: (tool, arguments, whether it
    succeeded as far as can be told, the block's new value where readable)."""
    start = len(messages)
    while start > 0 and isinstance(messages[start - 1], Mapping) and messages[start - 1].get("role") in _TURN:
        start -= 1
    called: dict[str, tuple[str, dict[str, Any]]] = {}  # call id -> (tool, arguments), the turn's memory calls
    for message in messages[start:]:
        if message.get("role") == "assistant":
            for call in message.get("tool_calls") or ():
                edit = _edit(call)
                if edit is not None and isinstance(call.get("id"), str):
                    called[call["id"]] = edit
            continue
        edit = called.get(message.get("tool_call_id"))
        if edit is not None:
            yield (*edit, *_edit_result(_text(message.get("content"))))


_TURN = frozenset({"assistant", "tool"})
_CUT = "... [NOTE: function output was truncated"


def _edit(call: Any) -> tuple[str, dict[str, Any]] | None:
    """(tool, arguments) of a call to a memory tool that names a block; None for any other."""
    function = call.get("function") if isinstance(call, Mapping) else None
    if not isinstance(function, Mapping) or function.get("name") not in LABELLED_TOOLS:
        return None
    try:
        arguments = json.loads(function.get("arguments") or "")
    except (TypeError, ValueError):
        return None
    if not isinstance(arguments, dict) or not isinstance(arguments.get("label"), str):
        return None
    return str(function["name"]), arguments


def _edit_result(content: str) -> tuple[bool, str | None]:
    """Whether an edit succeeded (as far as can be told), and the block's new value if readable."""
    try:
        packaged = json.loads(content)
    except ValueError:
        packaged = None
    if not isinstance(packaged, dict) or packaged.get("status") not in ("OK", "Failed"):
        return True, None  # not Letta's form: the block may have changed, its value is unknown
    value = packaged.get("message")
    if packaged["status"] != "OK":
        return False, None
    return True, value if isinstance(value, str) and _CUT not in value else None


def memory_block_labels(system: Any) -> tuple[list[str], list[str]]:
    """The labels of the blocks in a system message's ``<memory_blocks>``, as (writable, read-only),
    in their order; ([], []) when it has none."""
    blocks = memory_blocks(system)
    return [b.label for b in blocks if not b.read_only], [b.label for b in blocks if b.read_only]


# A block's description in the guide: its first sentences, within this many characters.
GUIDE_CHARS = 160


def block_guide(blocks: list[Block], specs: Mapping[str, ToolSpec]) -> str:
    """What each writable block holds, by label, from the descriptions Letta writes beside the
    blocks, for the tool section: a small model picks the block a fact belongs to from the
    label alone (a fact about the user into the agent's own block) when the descriptions stand
    far above the tools, past the blocks' values. "" where no tool of ``specs`` names a block,
    or no writable block has a description."""
    if not any(name in LABELLED_TOOLS and "label" in spec.properties for name, spec in specs.items()):
        return ""
    lines = []
    for b in blocks:
        # Letta's own descriptions open by naming the block ("The human block: ..."), said by the label already.
        about = regex.sub(rf"^(?:the\s+)?{regex.escape(b.label)}\s+block\s*:\s*", "", b.description, flags=regex.I)
        about = summarize(about, GUIDE_CHARS)
        if about and not b.read_only:
            lines.append(f"- {b.label}: {about}")
    return "\n".join(["Memory blocks (label: what it holds):", *lines]) if lines else ""


def offered_lines(blocks: list[Block]) -> dict[str, list[str]]:
    """The lines a replace tool can name as its old text, by writable block: not blank, found
    exactly once in the block (memory_replace refuses text that occurs twice), without a
    line-number prefix (which Letta refuses), in order. Blocks without such lines are left
    out; {} when there are none, or more lines or characters than the bound."""
    offered: dict[str, list[str]] = {}
    for b in blocks:
        if b.read_only:
            continue
        value = b.value.expandtabs()
        lines = [line for line in value.split("\n") if line.strip() and not _LINE_NUMBER.match(line)]
        lines = [line for line in dict.fromkeys(lines) if value.count(line) == 1]
        if lines:
            offered[b.label] = lines
    every = [line for lines in offered.values() for line in lines]
    if len(every) > MAX_OFFERED_LINES or sum(len(line) for line in every) > MAX_OFFERED_CHARS:
        return {}
    return offered


def offer_lines(specs: Mapping[str, ToolSpec], by_block: Mapping[str, list[str]], *, enum: bool) -> dict[str, ToolSpec]:
    """``specs``, with the old text of each replace tool (:data:`REPLACED_TEXT`) offered the
    blocks' lines ``by_block`` (what :func:`offered_lines` found). With ``enum`` the lines become
    its ``enum``, and the parameters one ``anyOf`` branch per block, so that a constrained reply
    names a line of the block its ``label`` names; otherwise they are its ``examples``.
    Unchanged without lines, or where the tool's own schema already limits the old text."""
    if not by_block:
        return dict(specs)
    offered: dict[str, ToolSpec] = {}
    for name, spec in specs.items():
        pname = next((p for p in REPLACED_TEXT.get(name, ()) if p in spec.properties), None)
        prop = spec.properties.get(pname) if pname else None
        label = spec.properties.get("label")
        allowed = label.get("enum") if isinstance(label, Mapping) else None
        usable = {k: v for k, v in by_block.items() if not isinstance(allowed, list) or k in allowed}
        free = isinstance(prop, Mapping) and prop.get("type", "string") == "string" and not _limited(prop)
        if pname is None or not isinstance(prop, Mapping) or not free or not usable:
            offered[name] = spec
            continue
        every = list(dict.fromkeys(line for lines in usable.values() for line in lines))
        extra: dict[str, Any] = {"enum": every} if enum else {"examples": every}
        parameters: dict[str, Any] = {
            **spec.parameters,
            "properties": {**spec.properties, pname: {**prop, "type": "string", **extra}},
        }
        if enum and isinstance(label, Mapping) and "anyOf" not in spec.parameters:
            branch = {k: v for k, v in spec.parameters.items() if k in ("type", "required", "additionalProperties")}
            parameters["anyOf"] = [
                {
                    **branch,
                    "type": "object",
                    "properties": {
                        **spec.properties,
                        "label": {**label, "type": "string", "enum": [block]},
                        pname: {**prop, "type": "string", "enum": lines},
                    },
                }
                for block, lines in usable.items()
            ]
        offered[name] = ToolSpec(spec.name, spec.description, parameters)
    return offered


def bound_inserts(specs: Mapping[str, ToolSpec], blocks: list[Block]) -> dict[str, ToolSpec]:
    """``specs``, with the line number of each insert tool (:data:`INSERT_LINE`) held, per writable
    block, to what Letta accepts there: one ``anyOf`` branch per block, its ``label`` that block
    and its line number an ``enum`` of -1 and 0 to the block's number of lines. For a constrained
    reply's schema only: the count comes from the system message and the turn's results, and a
    free-text call is never refused on it (Letta's own check and message stand). Unchanged where
    a block's value is unknown or long, where the tool's own schema limits the number, or where
    its parameters already branch."""
    writable = [b for b in blocks if not b.read_only]
    if not writable or any(not b.known or b.value.count("\n") >= MAX_BOUND_LINES for b in writable):
        return dict(specs)
    bound: dict[str, ToolSpec] = {}
    for name, spec in specs.items():
        pname = INSERT_LINE.get(name)
        prop = spec.properties.get(pname) if pname else None
        label = spec.properties.get("label")
        allowed = label.get("enum") if isinstance(label, Mapping) else None
        usable = [b for b in writable if not isinstance(allowed, list) or b.label in allowed]
        if (
            pname is None
            or not isinstance(prop, Mapping)
            or prop.get("type") != "integer"
            or _limited(prop)
            or any(k in prop for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"))
            or not isinstance(label, Mapping)
            or "anyOf" in spec.parameters
            or not usable
        ):
            bound[name] = spec
            continue
        branch = {k: v for k, v in spec.parameters.items() if k in ("type", "required", "additionalProperties")}
        parameters = {
            **spec.parameters,
            "anyOf": [
                {
                    **branch,
                    "type": "object",
                    "properties": {
                        **spec.properties,
                        "label": {**label, "type": "string", "enum": [b.label]},
                        # Letta counts the lines of the value as split on "\n" (an empty value has one).
                        pname: {**prop, "type": "integer", "enum": [-1, *range(b.value.count("\n") + 2)]},
                    },
                }
                for b in usable
            ],
        }
        bound[name] = ToolSpec(spec.name, spec.description, parameters)
    return bound


def _limited(prop: Mapping[str, Any]) -> bool:
    return any(k in prop for k in ("enum", "const", "pattern", "maxLength", "minLength", "format"))


def hold_labels(specs: Mapping[str, ToolSpec], labels: list[str]) -> dict[str, ToolSpec]:
    """``specs``, with the ``label`` of each tool in :data:`LABELLED_TOOLS` limited to ``labels``
    (unchanged when ``labels`` is empty, or where the tool's own schema already limits it)."""
    if not labels:
        return dict(specs)
    held: dict[str, ToolSpec] = {}
    for name, spec in specs.items():
        prop = spec.properties.get("label")
        if name in LABELLED_TOOLS and isinstance(prop, Mapping) and "enum" not in prop and "const" not in prop:
            properties = {**spec.properties, "label": {**prop, "type": "string", "enum": list(labels)}}
            spec = ToolSpec(spec.name, spec.description, {**spec.parameters, "properties": properties})
        held[name] = spec
    return held


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, Mapping) and isinstance(p.get("text"), str))
    return ""
