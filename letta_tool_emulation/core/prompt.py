"""The system-prompt section that teaches a model without function calling to call tools."""

from __future__ import annotations

import contextlib
import json
import pickle
from collections.abc import Iterable, Mapping
from typing import Any

import regex

from .markers import CALL_END, CALL_START, RESULT_END, RESULT_LABEL
from .tools import ToolLike, ToolSpec, normalize_tools
from .validate import describe_type, placeholder

ToolChoice = str | Mapping[str, Any] | None

# Sections of a docstring-style description that the prompt leaves out: examples written as
# Python calls would teach the wrong syntax, and return types are noise for the model.
_CUT = regex.compile(r"\n\s*(?:Examples?|Returns?|Args|Arguments|Parameters|Raises|Usage)\s*:", regex.IGNORECASE)
_SPACE = regex.compile(r"[ \t]*\n[ \t]*\n\s*|\s+")
_SENTENCE_END = regex.compile(r"(?<=[.!?])\s")

TOOL_DESCRIPTION_CHARS = 360
PARAM_DESCRIPTION_CHARS = 150
# A parameter's example values (the memory lines a replace tool is offered): a few, each short.
EXAMPLES = 8
EXAMPLE_CHARS = 120


def render_tool_prompt(
    tools: Iterable[ToolLike | ToolSpec] | None,
    *,
    tool_choice: ToolChoice = None,
    example: Mapping[str, Any] | None = None,
) -> str:
    """The section to add to the system prompt: the call format, the rules, the tools.

    The worked example names a real tool and its real parameters, with ``<parameter>``
    placeholders for the values (validation rejects a placeholder sent as a value). It is
    introduced "For example", so a model that recites this section verbatim has recited an
    example, which the parser never executes; and a model that copies only the block gets
    told to fill in real values instead of having the example run.

    ``example`` picks the tool shown: ``{"function": name}`` fills in placeholders for its
    required parameters; with ``"params"`` the call is shown exactly as given. By default the
    first tool with required parameters is used. ``tool_choice`` takes OpenAI's values
    ("auto", "none", "required", {"type": "function", "function": {"name": ...}}) or a
    tool name.
    """
    listed = list(tools or ())
    try:
        # The exact input, types included (a pickle tells a tuple from a list, which a JSON
        # key would not): equal keys only for tool lists that render alike.
        key = pickle.dumps((listed, tool_choice, example), protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001 - an object pickle cannot write: rendered, not cached
        return _render_tool_prompt(listed, tool_choice, example)
    # Each step below is one dict operation, whole under any thread: callers may share the cache.
    text = _CACHE.pop(key, None)
    if text is None:
        text = _render_tool_prompt(listed, tool_choice, example)
    _CACHE[key] = text  # (again) the most recently used
    while len(_CACHE) > TOOL_PROMPT_CACHE:
        with contextlib.suppress(StopIteration, RuntimeError):  # another caller changed it meanwhile
            _CACHE.pop(next(iter(_CACHE)), None)  # the least recently used
    return text


# Rendered tool prompts by their exact input, least recently used first: an agent, or a client
# of the proxy, sends the same tools with every request, and rendering them costs more than the
# rest of building the request. Bounded, and keyed by the whole input, never by a name.
TOOL_PROMPT_CACHE = 64
_CACHE: dict[bytes, str] = {}


def _render_tool_prompt(
    tools: Iterable[ToolLike | ToolSpec], tool_choice: ToolChoice, example: Mapping[str, Any] | None
) -> str:
    specs = normalize_tools(tools)
    if not specs:
        return ""
    shown = worked_example(specs, example)
    lines = [
        "# Tools",
        f"You can call the tools listed below. To call one, write {CALL_START} on its own line, then the call "
        f"as one line of JSON, then {CALL_END} on its own line, outside any code block. For example (with the "
        "<...> placeholders replaced by real values):",
        CALL_START,
        json.dumps(shown, ensure_ascii=False),
        CALL_END,
        "",
        "Rules:",
        '- Inside the block: one JSON object, "function" is the tool name, "params" its arguments. '
        "Valid JSON only: double quotes, \\n for line breaks inside strings.",
        "- For several calls, write one block per call; they run in the order written.",
        f"- After your last block, stop. Results come back in the next message, between {RESULT_LABEL} and "
        f"{RESULT_END}. Never write those yourself.",
        "- If a result reports an error, correct the call and try again, or explain the problem.",
        "- When no tool is needed, answer in plain text, without any block.",
        f"- Write {CALL_START} only to make a call; to show the syntax to someone, put it in a code block.",
        "",
        "Available tools (? marks an optional parameter):",
    ]
    for spec in specs.values():
        lines.append("- " + signature(spec))
        about = summarize(spec.description, TOOL_DESCRIPTION_CHARS)
        if about:
            lines.append("  " + about)
        for pname, pschema in spec.properties.items():
            pdesc = summarize(
                pschema.get("description", "") if isinstance(pschema, Mapping) else "", PARAM_DESCRIPTION_CHARS
            )
            if pdesc:
                lines.append(f"  {pname}: {pdesc}")
            examples = pschema.get("examples") if isinstance(pschema, Mapping) else None
            if isinstance(examples, list) and examples:
                values = [json.dumps(_cut(v), ensure_ascii=False) for v in examples[:EXAMPLES]]
                lines.append(f"  {pname}, for example: " + " | ".join(values))
    instruction = tool_choice_instruction(tool_choice)
    if instruction:
        lines += ["", instruction]
    return "\n".join(lines)


MUST_CALL = "You must call"
MUST_NOT_CALL = "Do not call any tool"
# How every instruction about tool_choice begins (a transcript reader tells them from the user's words).
INSTRUCTION_OPENINGS = (MUST_CALL, MUST_NOT_CALL)


def tool_choice_instruction(tool_choice: ToolChoice) -> str:
    """What ``tool_choice`` asks of the model, as an instruction ("" for auto)."""
    name = forced_tool_name(tool_choice)
    if name:
        return f"{MUST_CALL} the tool {name} now, in this reply, using a {CALL_START} block."
    if tool_choice in ("required", "any"):
        return f"{MUST_CALL} at least one tool now, in this reply, using a {CALL_START} block."
    if tool_choice == "none":
        return f"{MUST_NOT_CALL} in this reply; answer in plain text."
    return ""


def forced_tool_name(tool_choice: ToolChoice) -> str | None:
    if isinstance(tool_choice, Mapping):
        fn = tool_choice.get("function")
        name = fn.get("name") if isinstance(fn, Mapping) else None
        if not isinstance(name, str):
            name = tool_choice.get("name")
        return name if isinstance(name, str) else None
    if isinstance(tool_choice, str) and tool_choice not in ("auto", "none", "required", "any"):
        return tool_choice
    return None


def signature(spec: ToolSpec) -> str:
    """``name(a: string, b?: integer = 3)``: compact, and familiar to any model."""
    required = set(spec.required)
    params = []
    for pname, pschema in spec.properties.items():
        text = f"{pname}{'' if pname in required else '?'}: {describe_type(pschema)}"
        if isinstance(pschema, Mapping) and "default" in pschema:
            text += f" = {json.dumps(pschema['default'], ensure_ascii=False)}"
        params.append(text)
    return f"{spec.name}({', '.join(params)})"


def _cut(value: Any) -> Any:
    """An example value as shown: a long string cut, marked with an ellipsis."""
    if isinstance(value, str) and len(value) > EXAMPLE_CHARS:
        return value[: EXAMPLE_CHARS - 1] + "…"
    return value


def summarize(text: str, limit: int) -> str:
    """The description's prose before any Examples/Returns section, on one line, cut at a
    sentence end within ``limit`` characters."""
    if not isinstance(text, str) or not text.strip():
        return ""
    text = _CUT.split("\n" + text, maxsplit=1)[0]
    text = _SPACE.sub(" ", text).strip()
    if len(text) <= limit:
        return text
    cut = text[:limit]
    ends = [m.start() for m in _SENTENCE_END.finditer(cut)]
    if ends and ends[-1] > limit // 3:
        return cut[: ends[-1]].rstrip()
    return cut.rsplit(" ", 1)[0].rstrip(",;:") + "..."


def worked_example(specs: Mapping[str, ToolSpec], example: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The prompt's worked example: a listed tool with placeholders for its values."""
    if example and isinstance(example.get("params"), Mapping):
        return {"function": example.get("function"), "params": dict(example["params"])}
    wanted = example.get("function") if example else None
    chosen = specs.get(wanted) if isinstance(wanted, str) else None
    if chosen is None:
        chosen = next((s for s in specs.values() if s.required), None) or next(iter(specs.values()))
    names = chosen.required or tuple(chosen.properties)[:1]
    return {"function": chosen.name, "params": {name: placeholder(name) for name in names}}
