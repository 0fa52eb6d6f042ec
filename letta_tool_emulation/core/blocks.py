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
feedback. A block's value is skipped as a whole (the reader moves from one block's end to the
next block's start), so text inside memory cannot add a label.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import regex

from .tools import ToolSpec

__all__ = ["LABELLED_TOOLS", "hold_labels", "memory_block_labels"]

# Tools whose `label` must name an existing block: Letta looks the block up and fails otherwise.
# (rethink_memory may create a block, so its label stays free.)
LABELLED_TOOLS = frozenset(
    {"memory_insert", "memory_replace", "memory_rethink", "core_memory_append", "core_memory_replace"}
)
_OPEN = "<memory_blocks>\n"
_BLOCK = regex.compile(r"<([^<>\s/][^<>\n]{0,199})>\n<description>\n")
_READ_ONLY = "\n- read_only=true\n"


def memory_block_labels(system: Any) -> tuple[list[str], list[str]]:
    """The labels of the blocks in a system message's ``<memory_blocks>``, as (writable, read-only),
    in their order; ([], []) when it has none. ``system`` is the message's content (a string or
    a list of text parts)."""
    text = _text(system)
    start = text.find(_OPEN)
    if start < 0:
        return [], []
    end = text.find("\n</memory_blocks>", start)
    section = text[start + len(_OPEN) : end if end >= 0 else len(text)]
    writable: list[str] = []
    read_only: list[str] = []
    at = 0
    while (found := _BLOCK.search(section, at)) is not None:
        label = found.group(1)
        close = section.find(f"\n</value>\n</{label}>", found.end())
        if close < 0:
            break  # cut off: what follows cannot be told apart from a block's value
        metadata = section[found.end() : section.find("</metadata>", found.end(), close)]
        (read_only if _READ_ONLY in metadata + "\n" else writable).append(label)
        at = close + len(f"\n</value>\n</{label}>")
    return writable, read_only


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
