"""The call blocks' structural tag (core/structural_tag.py), for vLLM and SGLang: one structure
per tool, triggered by the call marker, and what it lets through is a call the parser performs.
xgrammar itself checks what the tag accepts and refuses (tests/xgrammar)."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from letta_tool_emulation.core import CALL_END, CALL_START, parse_tool_calls
from letta_tool_emulation.core.structural_tag import call_structural_tag
from letta_tool_emulation.core.tools import ToolSpec, normalize_tools
from tests.schema_values import value

TOOLS = json.loads((Path(__file__).resolve().parents[1] / "data" / "tools.json").read_text(encoding="utf-8"))["tools"]
SPECS = list(normalize_tools(TOOLS).values())


def allowed_block(structure: Mapping[str, Any], params: Any, *, indent: int | None = None) -> str:
    """The text a structure lets a server write: its begin, params as JSON, its end."""
    return structure["begin"] + json.dumps(params, ensure_ascii=False, indent=indent) + structure["end"]


def test_no_tools_no_tag() -> None:
    assert call_structural_tag([]) is None
    assert call_structural_tag([ToolSpec("")]) is None


def test_one_structure_per_tool_triggered_by_the_call_marker() -> None:
    tag = call_structural_tag(SPECS)
    assert tag is not None and tag["type"] == "structural_tag" and tag["triggers"] == [CALL_START]
    assert [s["begin"] for s in tag["structures"]] == [
        f'{CALL_START}\n{{"function": "{spec.name}", "params": ' for spec in SPECS
    ]
    assert all(s["end"] == f"}}\n{CALL_END}" for s in tag["structures"])
    assert [s["schema"] for s in tag["structures"]] == [dict(spec.parameters) for spec in SPECS]
    # What a server's request model reads: only these keys, each structure begun by a trigger.
    assert set(tag) == {"type", "structures", "triggers"}
    assert all(set(s) == {"begin", "schema", "end"} and s["begin"].startswith(CALL_START) for s in tag["structures"])


def test_the_schema_is_plain_json_and_a_tool_without_parameters_takes_an_object() -> None:
    roles = {"type": "array", "items": {"type": "string", "enum": ("assistant", "user")}}
    tag = call_structural_tag(
        [ToolSpec("search", "", {"type": "object", "properties": {"roles": roles}}), ToolSpec("ping")]
    )
    assert tag is not None
    first, second = tag["structures"]
    assert first["schema"]["properties"]["roles"]["items"]["enum"] == ["assistant", "user"]
    assert second["schema"] == {"type": "object"}
    assert json.loads(json.dumps(tag)) == tag


def test_what_each_structure_lets_through_is_a_call_the_parser_performs() -> None:
    tag = call_structural_tag(SPECS)
    assert tag is not None
    rng = random.Random(7)
    for spec, structure in zip(SPECS, tag["structures"], strict=True):
        params = value(spec.parameters, rng)
        for indent in (None, 2):  # a server's JSON may break lines inside "params"
            block = allowed_block(structure, params, indent=indent)
            for text in (block, f"Sure, I will.\n{block}\nDone.", f"{block}\n{block}"):
                result = parse_tool_calls(text, SPECS)
                assert [(c.name, c.arguments) for c in result.tool_calls] == [(spec.name, params)] * text.count(
                    CALL_START
                ), (spec.name, text)
                assert not result.rejected, (spec.name, result.problems)
