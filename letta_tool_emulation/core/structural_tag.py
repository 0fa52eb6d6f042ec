"""A structural tag for free-text replies: prose stays free, every call block is held to the tools.

vLLM and SGLang take a *structural tag* as their ``response_format``: free text, until the text
contains a trigger; from there one of the structures whose ``begin`` starts with that trigger
must follow, its ``begin`` literally, then a JSON value that follows its ``schema``, then its
``end``; then free text again. Both hand it to xgrammar (vLLM's default backend, SGLang's).

:func:`call_structural_tag` writes one structure per tool, holding the block to the canonical
form the prompt teaches (``core/prompt.py``): ``TOOL_CALL_START`` on its own line, one line of
JSON with ``"function"`` and ``"params"``, ``TOOL_CALL_END`` on its own line::

    begin:  TOOL_CALL_START\\n{"function": "NAME", "params":<space>
    schema: the tool's params schema
    end:    }\\nTOOL_CALL_END

The trigger is the call marker itself. What the grammar of ``core/grammar.py`` says and a
structural tag cannot:

- that a block starts a line: a marker that a sentence runs into is held to a whole block too,
  which the parser reads as shown, not performed, as it would read it unheld;
- how many blocks a reply holds, and that it holds one (``tool_choice`` "required"): vLLM's
  form has no field for either, so the parser and the engine's request again see to them.

A pure function of the tools: no I/O, no letta.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from .markers import CALL_END, CALL_START
from .schema import plain
from .tools import ToolSpec

__all__ = ["STRUCTURAL_TAG", "call_structural_tag"]

STRUCTURAL_TAG = "structural_tag"  # the response_format type both servers read


def call_structural_tag(specs: Iterable[ToolSpec]) -> dict[str, Any] | None:
    """The ``response_format`` that holds a free-text reply's call blocks to ``specs``; None
    without tools.

    It is the form both vLLM and SGLang read through their 2025-2026 releases: ``structures``
    of ``begin``, ``schema`` and ``end``, and ``triggers``. vLLM reads it from 0.8.5 on
    (``structural_tag`` came in vllm-project/vllm#17085) and, since the newer ``{"format":
    ...}`` form came, as ``LegacyStructuralTagResponseFormat``; SGLang reads it as well, under
    the same name since it took the newer form too (sgl-project/sglang#10691)."""
    tools = [s for s in specs if isinstance(s, ToolSpec) and s.name]
    if not tools:
        return None
    structures = [
        {
            "begin": f'{CALL_START}\n{{"function": {json.dumps(spec.name, ensure_ascii=False)}, "params": ',
            # A tool without parameters still takes an object ("params" is one); tuples (a
            # Literal's values, as Letta writes them in-process) as the lists JSON carries.
            "schema": dict(plain(spec.parameters)) if spec.parameters else {"type": "object"},
            "end": f"}}\n{CALL_END}",
        }
        for spec in tools
    ]
    return {"type": STRUCTURAL_TAG, "structures": structures, "triggers": [CALL_START]}
